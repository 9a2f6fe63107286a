//! [`VerifierBuilder`]: the one way to assemble a [`Verifier`]. The three stages (fetcher,
//! ranker, judge) are required; options, storage hooks, a page cache shared across claims and
//! wrappers around the stages (metrics, say) are attached here, never bolted onto a running
//! verifier.

use std::sync::Arc;

use tokio::sync::Semaphore;

use super::pages::PageCache;
use super::{ArchiveCheck, Verifier, VerifyOptions};
use crate::fetch::Fetcher;
use crate::judge::Judge;
use crate::passage::PassageError;
use crate::rank::Ranker;
use crate::store::{PageStore, VerdictRecorder};

/// A setting the verifier cannot run with.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    #[error("invalid passage size")]
    Passages(#[from] PassageError),
    /// A count that must be at least 1 (`top_k`, a concurrency, the page cache's size).
    #[error("{name} must be at least 1, got 0")]
    Zero { name: &'static str },
}

/// Assembles a [`Verifier`]; see the crate docs for an example.
pub struct VerifierBuilder {
    fetcher: Arc<dyn Fetcher>,
    ranker: Arc<dyn Ranker>,
    judge: Arc<dyn Judge>,
    options: VerifyOptions,
    page_store: Option<Arc<dyn PageStore>>,
    recorder: Option<Arc<dyn VerdictRecorder>>,
    shared_pages: Option<(usize, usize)>,
    archive: Option<ArchiveCheck>,
}

impl VerifierBuilder {
    pub(crate) fn new(
        fetcher: Arc<dyn Fetcher>,
        ranker: Arc<dyn Ranker>,
        judge: Arc<dyn Judge>,
    ) -> Self {
        VerifierBuilder {
            fetcher,
            ranker,
            judge,
            options: VerifyOptions::default(),
            page_store: None,
            recorder: None,
            shared_pages: None,
            archive: None,
        }
    }

    /// Tuning (defaults: [`VerifyOptions::default`]).
    pub fn options(mut self, options: VerifyOptions) -> Self {
        self.options = options;
        self
    }

    /// Keeps every page read in `store` (an evidence store); the page's rid becomes the handle
    /// `store` returns, unless the fetcher already gave one.
    pub fn page_store(mut self, store: Arc<dyn PageStore>) -> Self {
        self.page_store = Some(store);
        self
    }

    /// Records every verdict given through `recorder` (an audit index).
    pub fn recorder(mut self, recorder: Arc<dyn VerdictRecorder>) -> Self {
        self.recorder = Some(recorder);
        self
    }

    /// Shares fetched pages across claims: each URL is fetched once while it stays among the
    /// `capacity` most recently used, with at most `per_host` fetches in flight per host.
    /// Without it, every claim fetches its own URLs (a URL cited twice in one claim still once).
    pub fn shared_pages(mut self, capacity: usize, per_host: usize) -> Self {
        self.shared_pages = Some((capacity, per_host));
        self
    }

    /// Looks up citations that ended dead (see [`Reason::is_archive_candidate`]) in a web
    /// archive, and judges the archived copy when `archive.judge_archived` is set. With shared
    /// pages, lookups take the archive host's permits from the same per-host limit as fetches.
    ///
    /// [`Reason::is_archive_candidate`]: crate::Reason::is_archive_candidate
    pub fn archive(mut self, archive: ArchiveCheck) -> Self {
        self.archive = Some(archive);
        self
    }

    /// Replaces the fetcher by `wrap(fetcher)`, e.g. to measure it.
    pub fn map_fetcher(mut self, wrap: impl FnOnce(Arc<dyn Fetcher>) -> Arc<dyn Fetcher>) -> Self {
        self.fetcher = wrap(self.fetcher);
        self
    }

    /// Replaces the judge by `wrap(judge)`, e.g. to measure it.
    pub fn map_judge(mut self, wrap: impl FnOnce(Arc<dyn Judge>) -> Arc<dyn Judge>) -> Self {
        self.judge = wrap(self.judge);
        self
    }

    /// The verifier, or the first setting it cannot run with.
    pub fn build(self) -> Result<Verifier, BuildError> {
        let options = self.options;
        if options.max_words < 1 {
            return Err(PassageError::ZeroBudget(options.max_words).into());
        }
        for (name, value) in [
            ("top_k", options.top_k),
            ("fetch concurrency", options.fetch_concurrency),
            ("judge concurrency", options.judge_concurrency),
        ] {
            if value < 1 {
                return Err(BuildError::Zero { name });
            }
        }
        let pages = match self.shared_pages {
            None => None,
            Some((0, _)) => return Err(BuildError::Zero { name: "page cache" }),
            Some((_, 0)) => {
                return Err(BuildError::Zero {
                    name: "per-host fetch limit",
                })
            }
            Some((capacity, per_host)) => Some(PageCache::new(capacity, per_host)),
        };
        Ok(Verifier {
            judge_permits: Arc::new(Semaphore::new(options.judge_concurrency)),
            fetcher: self.fetcher,
            ranker: self.ranker,
            judge: self.judge,
            options,
            page_store: self.page_store,
            recorder: self.recorder,
            pages,
            recorder_failed: Default::default(),
            archive: self.archive,
        })
    }
}
