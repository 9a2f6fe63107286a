//! An escalation of fetchers: each URL goes to the first stage, and on to the next only while
//! the outcome is `needs_javascript` (a page only a browser would fill).
//!
//! citecheck's order is: the direct fetch, then the local renderer if enabled, then Crawlbase if
//! configured. Any other outcome (a page, a dead link, a refused address) ends the escalation:
//! a later stage would only spend time, or credits, to reach the same verdict.

use std::sync::Arc;

use async_trait::async_trait;

use super::{FetchOutcome, Fetcher};
use crate::model::Reason;

/// Stages tried in order; see the module docs.
pub struct Escalation {
    first: Arc<dyn Fetcher>,
    rest: Vec<Arc<dyn Fetcher>>,
    name: String,
}

impl Escalation {
    /// An escalation that starts with `first`.
    pub fn new(first: Arc<dyn Fetcher>) -> Self {
        Escalation {
            name: first.name().to_string(),
            first,
            rest: Vec::new(),
        }
    }

    /// Adds `next`, asked when every stage before it ended `needs_javascript`. The escalation's
    /// name joins its stages' names with `+` (`direct+chromium`).
    pub fn then(mut self, next: Arc<dyn Fetcher>) -> Self {
        self.name = format!("{}+{}", self.name, next.name());
        self.rest.push(next);
        self
    }
}

#[async_trait]
impl Fetcher for Escalation {
    fn name(&self) -> &str {
        &self.name
    }

    async fn fetch(&self, url: &str) -> FetchOutcome {
        let mut outcome = self.first.fetch(url).await;
        let mut from = self.first.name();
        for stage in &self.rest {
            let escalate = matches!(
                &outcome,
                FetchOutcome::Rejected(rejection) if rejection.reason == Reason::NeedsJavascript
            );
            if !escalate {
                break;
            }
            tracing::debug!(url, from, to = stage.name(), "needs JavaScript: escalating");
            outcome = stage.fetch(url).await;
            from = stage.name();
        }
        outcome
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;
    use crate::fetch::{Page, Rejection};
    use crate::model::Label;

    struct Stage {
        name: &'static str,
        answer: FetchOutcome,
        calls: AtomicUsize,
    }

    impl Stage {
        fn new(name: &'static str, answer: FetchOutcome) -> Arc<Stage> {
            Arc::new(Stage {
                name,
                answer,
                calls: AtomicUsize::new(0),
            })
        }
    }

    #[async_trait]
    impl Fetcher for Stage {
        fn name(&self) -> &str {
            self.name
        }
        async fn fetch(&self, _url: &str) -> FetchOutcome {
            self.calls.fetch_add(1, Ordering::SeqCst);
            self.answer.clone()
        }
    }

    fn rejected(reason: Reason) -> FetchOutcome {
        FetchOutcome::Rejected(Rejection::new(Label::NotFound, reason))
    }

    fn page() -> FetchOutcome {
        FetchOutcome::Page(Page {
            final_url: "https://a.example/".into(),
            original_status: 200,
            markdown: "text".into(),
            rid: None,
            paywalled: false,
            cost: None,
        })
    }

    #[tokio::test]
    async fn only_needs_javascript_moves_a_url_to_the_next_stage() {
        let direct = Stage::new("direct", rejected(Reason::NeedsJavascript));
        let render = Stage::new("chromium", rejected(Reason::NeedsJavascript));
        let vendor = Stage::new("crawlbase", page());
        let chain = Escalation::new(direct.clone())
            .then(render.clone())
            .then(vendor.clone());
        assert_eq!(chain.name(), "direct+chromium+crawlbase");
        assert_eq!(chain.fetch("https://a.example/x").await, page());
        let calls = |s: &Stage| s.calls.load(Ordering::SeqCst);
        assert_eq!((calls(&direct), calls(&render), calls(&vendor)), (1, 1, 1));

        let dead = Stage::new("direct", rejected(Reason::Soft404));
        let render = Stage::new("chromium", page());
        let chain = Escalation::new(dead).then(render.clone());
        assert_eq!(chain.fetch("u").await, rejected(Reason::Soft404));
        assert_eq!(calls(&render), 0);

        let last = Stage::new("chromium", rejected(Reason::NeedsJavascript));
        let chain =
            Escalation::new(Stage::new("direct", rejected(Reason::NeedsJavascript))).then(last);
        assert_eq!(chain.fetch("u").await, rejected(Reason::NeedsJavascript));
    }
}
