//! The fetch seam: turn a cited URL into judgeable Markdown, or into a verdict that explains why
//! there is nothing to judge (dead link, PDF, soft 404, blocked address, ...).
//!
//! A fetcher never fails with an error: every outcome is a value the verifier reports.

use async_trait::async_trait;

use crate::model::{CrawlCost, Label, Reason};

pub mod address;
pub mod charset;
pub mod crawlbase;
pub mod direct;
pub mod escalate;
pub mod interpret;
pub mod render;
pub mod resolve;

pub use crawlbase::{CrawlbaseConfig, CrawlbaseError, CrawlbaseFetcher};
pub use direct::{DirectFetcher, FetchOptions};
pub use escalate::Escalation;
pub use render::{RenderError, RenderFetcher, RenderedPage, Renderer};

/// A page that was read and is worth judging.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    /// The URL after redirects.
    pub final_url: String,
    /// The status the origin answered for the final URL.
    pub original_status: u16,
    /// The page's main content as Markdown.
    pub markdown: String,
    /// An identifier of a stored copy of the page, when the fetcher keeps one.
    pub rid: Option<String>,
    /// The page looks like a subscription wall; names the reason if the judge finds nothing.
    pub paywalled: bool,
    /// What a crawling service spent fetching the page; `None` for fetchers that cost nothing.
    pub cost: Option<CrawlCost>,
}

/// The fetch stage decided the citation's verdict itself.
#[derive(Debug, Clone, PartialEq)]
pub struct Rejection {
    pub label: Label,
    pub reason: Reason,
    pub final_url: Option<String>,
    pub original_status: Option<u16>,
    /// The underlying cause in words (an error chain, the status line), for logs and the audit.
    pub detail: Option<String>,
    /// What a crawling service spent reaching this verdict; `None` for fetchers that cost nothing.
    pub cost: Option<CrawlCost>,
}

/// The cited URL parsed, or the `invalid_url` rejection every fetcher gives when it does not
/// parse.
pub fn parse_cited(url: &str) -> Result<url::Url, Rejection> {
    url::Url::parse(url.trim()).map_err(|err| {
        Rejection::new(Label::NotFound, Reason::InvalidUrl)
            .detail(format!("`{url}` is not a URL: {err}"))
    })
}

impl Rejection {
    pub fn new(label: Label, reason: Reason) -> Self {
        Rejection {
            label,
            reason,
            final_url: None,
            original_status: None,
            detail: None,
            cost: None,
        }
    }

    pub fn at(mut self, final_url: impl Into<String>, original_status: Option<u16>) -> Self {
        self.final_url = Some(final_url.into());
        self.original_status = original_status;
        self
    }

    pub fn detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = Some(detail.into());
        self
    }
}

/// What fetching one URL produced.
#[derive(Debug, Clone, PartialEq)]
pub enum FetchOutcome {
    Page(Page),
    Rejected(Rejection),
}

#[async_trait]
pub trait Fetcher: Send + Sync {
    /// A short name for logs, `/health` and the audit (`direct`, `crawlbase`).
    fn name(&self) -> &str;

    /// Fetches `url` and interprets what came back. Never panics, never returns an error: a
    /// failure is a [`Rejection`] with a reason.
    async fn fetch(&self, url: &str) -> FetchOutcome;
}
