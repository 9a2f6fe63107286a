//! What the verifier hands to storage, without knowing any: the [`PageStore`] seam keeps each
//! page it reads (an evidence store), the [`VerdictRecorder`] seam keeps each verdict it gives
//! (an audit index), and [`Origin`] says where a verification came from.
//!
//! Both seams are best effort by design: the verifier logs a failure and still returns the
//! verdict, because a citation checked but not recorded is better than no answer.

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use crate::fetch::Page;
use crate::model::ClaimVerdict;

/// An implementation's own error, kept as the source of the warning the verifier logs.
pub type StoreError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Keeps the pages the pipeline reads, so a verdict can be replayed against what was judged.
#[async_trait]
pub trait PageStore: Send + Sync {
    /// Keeps `page` and returns the handle it can be found by (its rid). Called only for pages
    /// the fetcher gave no rid of its own (a crawling service keeping its own copy gives one).
    async fn keep(&self, page: &Page) -> Result<String, StoreError>;
}

/// Keeps the verdicts the pipeline gives.
#[async_trait]
pub trait VerdictRecorder: Send + Sync {
    /// Records `verdict`, which came from `origin`.
    async fn record(&self, verdict: &ClaimVerdict, origin: &Origin) -> Result<(), StoreError>;

    /// The last verdict recorded for `url`, if any: the verifier asks before recording a new
    /// one, to say whether the page changed since (drift). A store that cannot tell holds
    /// nothing.
    async fn last_seen(&self, url: &str) -> Result<Option<LastSeen>, StoreError> {
        let _ = url;
        Ok(None)
    }
}

/// The last verdict a recorder holds for a URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LastSeen {
    /// When it was recorded (RFC 3339).
    pub recorded_at: String,
    /// The page's content hash then; `None` when no page was read (a dead link).
    pub content_sha256: Option<String>,
}

impl LastSeen {
    /// Whether the content changed since: a different hash, or a page now where there was
    /// none (or the reverse); unknown when neither time read a page.
    pub fn changed(&self, now: Option<&str>) -> Option<bool> {
        match (self.content_sha256.as_deref(), now) {
            (None, None) => None,
            (then, now) => Some(then != now),
        }
    }
}

/// Where a verification came from; stored with each of its verdict's rows.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Origin {
    /// The front end: `verify`, `batch`, `api`, ...
    pub source: String,
    /// Groups the verdicts of one batch run.
    pub run_id: Option<String>,
    /// The claim's id in a batch input.
    pub claim_id: Option<String>,
}

impl Origin {
    pub fn new(source: impl Into<String>) -> Self {
        Origin {
            source: source.into(),
            ..Origin::default()
        }
    }

    pub fn with_run_id(mut self, run_id: impl Into<String>) -> Self {
        self.run_id = Some(run_id.into());
        self
    }

    pub fn with_claim_id(mut self, claim_id: impl Into<String>) -> Self {
        self.claim_id = Some(claim_id.into());
        self
    }
}
