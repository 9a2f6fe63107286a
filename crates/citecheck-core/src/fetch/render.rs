//! The local renderer seam: a page whose direct fetch ended `needs_javascript` is loaded in a
//! browser, and the DOM the browser built goes through the same conversion and page rules as a
//! fetched body (homepage redirect, soft 404, empty shell, paywall).
//!
//! The core knows no browser: [`Renderer`] is implemented elsewhere (the `citecheck-render`
//! crate drives headless Chromium). [`RenderFetcher`] turns a renderer into a [`Fetcher`]
//! stage, which an [`Escalation`](super::escalate::Escalation) places after the direct fetcher.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use thiserror::Error;
use url::Url;

use super::direct::BLOCKED_ADDRESS_HINT;
use super::interpret::{self, BodyKind};
use super::{FetchOutcome, Fetcher, Rejection};
use crate::error_text::error_chain;
use crate::limits::{Budget, DEFAULT_CONVERSION_BUDGET};
use crate::model::{Label, Reason};
use crate::workers::{WorkError, WorkerPool};

/// Bound on one render: starting the browser if needed, loading the page, letting it settle
/// and reading its DOM.
pub const DEFAULT_RENDER_DEADLINE: Duration = Duration::from_secs(15);
/// Renders in flight at once; each holds a browser tab, which costs far more than a request.
pub const DEFAULT_RENDER_CONCURRENCY: usize = 2;
/// After the load event, how long a page may keep adding text before its DOM is read anyway.
pub const DEFAULT_RENDER_SETTLE: Duration = Duration::from_secs(3);

/// What a browser made of a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedPage {
    /// The document's URL once the browser settled (after HTTP and script redirects).
    pub final_url: Url,
    /// The main document's HTTP status, as the browser saw it.
    pub status: u16,
    /// The serialised DOM (`document.documentElement.outerHTML`).
    pub html: String,
}

/// Why a render gave no DOM.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum RenderError {
    #[error("the page did not finish rendering within {0:?}")]
    Timeout(Duration),
    /// The address guard refused the main document (the page itself or a redirect of it).
    #[error("the browser was not allowed to load {url}: {detail}")]
    Blocked { url: String, detail: String },
    #[error("the browser failed")]
    Failed(#[source] Box<dyn std::error::Error + Send + Sync>),
}

/// Loads a page in a browser and returns its rendered DOM. Implementations apply the address
/// guard to every request the page makes and bound each render by a deadline.
#[async_trait]
pub trait Renderer: Send + Sync {
    /// A short name for logs and the audit (`chromium`).
    fn name(&self) -> &str;

    async fn render(&self, url: &Url) -> Result<RenderedPage, RenderError>;
}

/// A [`Fetcher`] that renders instead of fetching, then applies the shared page rules.
pub struct RenderFetcher {
    renderer: Arc<dyn Renderer>,
    conversion_budget: Duration,
}

impl RenderFetcher {
    pub fn new(renderer: Arc<dyn Renderer>) -> Self {
        RenderFetcher {
            renderer,
            conversion_budget: DEFAULT_CONVERSION_BUDGET,
        }
    }

    /// Bound on converting the rendered DOM (default: the direct fetcher's).
    pub fn conversion_budget(mut self, budget: Duration) -> Self {
        self.conversion_budget = budget;
        self
    }

    async fn convert(&self, requested: Url, page: RenderedPage) -> FetchOutcome {
        let at = page.final_url.to_string();
        let status = page.status;
        if status >= 400 {
            return FetchOutcome::Rejected(interpret::status_rejection(&page.final_url, status));
        }
        let work = move |budget: &Budget| {
            interpret::interpret_body(
                &requested,
                &page.final_url,
                status,
                BodyKind::Html,
                &page.html,
                budget,
            )
        };
        // The same workers and budget as a fetched page: a rendered DOM is as hostile as any.
        let budget = Budget::new(self.conversion_budget);
        let converted = match WorkerPool::shared() {
            Ok(pool) => pool.run(budget, work).await,
            Err(err) => Err(err),
        };
        match converted {
            Ok(FetchOutcome::Rejected(rejection))
                if rejection.reason == Reason::NeedsJavascript =>
            {
                let detail = format!(
                    "rendered in {}, the page is still empty",
                    self.renderer.name()
                );
                FetchOutcome::Rejected(rejection.detail(detail))
            }
            Ok(outcome) => outcome,
            Err(err @ WorkError::Busy) => FetchOutcome::Rejected(
                Rejection::new(Label::Unreachable, Reason::Timeout)
                    .at(at, Some(status))
                    .detail(err.to_string()),
            ),
            Err(err) => FetchOutcome::Rejected(
                Rejection::new(Label::NotFound, Reason::PageTooComplex)
                    .at(at, Some(status))
                    .detail(err.to_string()),
            ),
        }
    }
}

#[async_trait]
impl Fetcher for RenderFetcher {
    fn name(&self) -> &str {
        self.renderer.name()
    }

    async fn fetch(&self, url: &str) -> FetchOutcome {
        let requested = match super::parse_cited(url) {
            Ok(url) => url,
            Err(rejected) => return FetchOutcome::Rejected(rejected),
        };
        let rendered = self.renderer.render(&requested).await;
        let name = self.renderer.name();
        match rendered {
            Ok(page) => self.convert(requested, page).await,
            Err(err @ RenderError::Timeout(_)) => FetchOutcome::Rejected(
                Rejection::new(Label::Unreachable, Reason::RenderTimeout)
                    .at(requested.as_str(), None)
                    .detail(format!("{name}: {err}")),
            ),
            Err(RenderError::Blocked { url, detail }) => FetchOutcome::Rejected(
                Rejection::new(Label::NotFound, Reason::BlockedAddress)
                    .at(url, None)
                    .detail(format!("{name}: {detail}; {BLOCKED_ADDRESS_HINT}")),
            ),
            Err(err) => FetchOutcome::Rejected(
                Rejection::new(Label::Unreachable, Reason::RenderFailed)
                    .at(requested.as_str(), None)
                    .detail(format!("{name}: {}", error_chain(&err))),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A renderer that answers what it was told to, for the mapping from render to verdict.
    struct Canned(fn(&Url) -> Result<RenderedPage, RenderError>);

    #[async_trait]
    impl Renderer for Canned {
        fn name(&self) -> &str {
            "canned"
        }
        async fn render(&self, url: &Url) -> Result<RenderedPage, RenderError> {
            (self.0)(url)
        }
    }

    async fn fetch(
        answer: fn(&Url) -> Result<RenderedPage, RenderError>,
        url: &str,
    ) -> FetchOutcome {
        RenderFetcher::new(Arc::new(Canned(answer)))
            .fetch(url)
            .await
    }

    fn reason(outcome: &FetchOutcome) -> (Label, Reason) {
        match outcome {
            FetchOutcome::Rejected(r) => (r.label, r.reason.clone()),
            FetchOutcome::Page(page) => panic!("expected a rejection, got {page:?}"),
        }
    }

    fn article(url: &Url) -> Result<RenderedPage, RenderError> {
        let paragraph = "<p>The rendered article has a paragraph long enough to be read as \
                         content, which the page rules keep and the judge can quote.</p>";
        Ok(RenderedPage {
            final_url: url.clone(),
            status: 200,
            html: format!(
                "<html><body><article>{}</article></body></html>",
                paragraph.repeat(4)
            ),
        })
    }

    #[tokio::test]
    async fn renders_map_to_pages_or_to_the_reasons_the_page_rules_and_the_browser_give() {
        let page = fetch(article, "https://a.example/story").await;
        assert!(
            matches!(&page, FetchOutcome::Page(p) if p.markdown.contains("rendered article")),
            "{page:?}"
        );
        let to_home = |url: &Url| {
            article(url).map(|page| RenderedPage {
                final_url: url.join("/").expect("joins"),
                ..page
            })
        };
        assert_eq!(
            reason(&fetch(to_home, "https://a.example/story").await),
            (Label::NotFound, Reason::RedirectedToHomepage)
        );
        let timeout = |_: &Url| Err(RenderError::Timeout(Duration::from_secs(15)));
        assert_eq!(
            reason(&fetch(timeout, "https://a.example/story").await),
            (Label::Unreachable, Reason::RenderTimeout)
        );
        let crashed = |_: &Url| Err(RenderError::Failed("the browser crashed".into()));
        let outcome = fetch(crashed, "https://a.example/story").await;
        assert_eq!(reason(&outcome), (Label::Unreachable, Reason::RenderFailed));
        let blocked = |_: &Url| {
            Err(RenderError::Blocked {
                url: "http://10.0.0.1/".into(),
                detail: "10.0.0.1 is Private".into(),
            })
        };
        let outcome = fetch(blocked, "https://a.example/story").await;
        assert_eq!(reason(&outcome), (Label::NotFound, Reason::BlockedAddress));
        let gone = |url: &Url| {
            article(url).map(|page| RenderedPage {
                status: 404,
                ..page
            })
        };
        assert_eq!(
            reason(&fetch(gone, "https://a.example/story").await),
            (Label::Unreachable, Reason::Http(404))
        );
    }
}
