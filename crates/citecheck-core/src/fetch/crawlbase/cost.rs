//! Counting what Crawlbase requests cost, per fetch and for the fetcher's lifetime.
//!
//! Both counts move as each request is sent, not when a fetch ends, so a fetch that is
//! cancelled half-way (a timeout around the verifier) still shows up in the totals.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::model::CrawlCost;

/// How a request was rendered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Render {
    /// The normal token, no browser.
    Normal,
    /// A headless browser: the JavaScript token, or `javascript=true` on the normal one.
    Javascript,
}

impl Render {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Render::Normal => "normal",
            Render::Javascript => "javascript",
        }
    }
}

/// Lock-free counters with the shape of [`CrawlCost`].
#[derive(Debug, Default)]
pub(crate) struct Counters {
    normal: AtomicU64,
    javascript: AtomicU64,
    storage: AtomicU64,
    billed_normal: AtomicU64,
    billed_javascript: AtomicU64,
    stored: AtomicU64,
}

impl Counters {
    fn sent(&self, render: Render) {
        match render {
            Render::Normal => &self.normal,
            Render::Javascript => &self.javascript,
        }
        .fetch_add(1, Ordering::Relaxed);
    }

    fn storage_read(&self) {
        self.storage.fetch_add(1, Ordering::Relaxed);
    }

    /// A billed crawl. citecheck always asks Crawlbase to store the page, so every billed crawl
    /// also stores one.
    fn billed(&self, render: Render) {
        match render {
            Render::Normal => &self.billed_normal,
            Render::Javascript => &self.billed_javascript,
        }
        .fetch_add(1, Ordering::Relaxed);
        self.stored.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn snapshot(&self) -> CrawlCost {
        let read = |counter: &AtomicU64| counter.load(Ordering::Relaxed);
        CrawlCost {
            normal_requests: read(&self.normal),
            javascript_requests: read(&self.javascript),
            storage_requests: read(&self.storage),
            billed_normal: read(&self.billed_normal),
            billed_javascript: read(&self.billed_javascript),
            stored_pages: read(&self.stored),
        }
    }
}

/// Counts one fetch's requests into its own cost and the fetcher's totals at once.
pub(crate) struct Meter<'a> {
    fetch: Counters,
    totals: &'a Counters,
}

impl<'a> Meter<'a> {
    pub(crate) fn new(totals: &'a Counters) -> Self {
        Meter {
            fetch: Counters::default(),
            totals,
        }
    }

    pub(crate) fn sent(&self, render: Render) {
        self.fetch.sent(render);
        self.totals.sent(render);
    }

    pub(crate) fn storage_read(&self) {
        self.fetch.storage_read();
        self.totals.storage_read();
    }

    pub(crate) fn billed(&self, render: Render) {
        self.fetch.billed(render);
        self.totals.billed(render);
    }

    /// This fetch's cost so far.
    pub(crate) fn cost(&self) -> CrawlCost {
        self.fetch.snapshot()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_meter_counts_into_the_fetch_and_the_totals() {
        let totals = Counters::default();
        let first = Meter::new(&totals);
        first.sent(Render::Normal);
        first.sent(Render::Normal);
        first.billed(Render::Normal);
        first.sent(Render::Javascript);
        first.billed(Render::Javascript);
        let second = Meter::new(&totals);
        second.sent(Render::Normal);
        second.storage_read();

        let cost = first.cost();
        assert_eq!(
            (
                cost.normal_requests,
                cost.javascript_requests,
                cost.stored_pages
            ),
            (2, 1, 2)
        );
        assert_eq!(cost.credits(), 1.0 + 2.0 + 1.0);
        let all = totals.snapshot();
        assert_eq!(all.normal_requests, 3);
        assert_eq!(all.storage_requests, 1);
        assert_eq!(all.requests(), 5);
        assert_eq!(all.credits(), 4.0);
    }
}
