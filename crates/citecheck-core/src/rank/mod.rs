//! The ranking seam: keep the `k` passages of a page most relevant to a claim.

use thiserror::Error;

pub mod bm25;

pub use bm25::Bm25Ranker;

/// The reference design keeps three passages: one is brittle when the best evidence ranks
/// second, ten bring back the noise retrieval is meant to remove.
pub const DEFAULT_TOP_K: usize = 3;

/// A page's passages, with the hash of the content they came from so that a ranker can cache
/// per-page work (embeddings) across claims and runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PagePassages {
    /// SHA-256 (hex) of the content the passages came from (the page's Markdown, or for the
    /// passages the ranker reads, their visible text), a key for per-page caches.
    pub content_sha256: String,
    pub passages: Vec<String>,
}

/// An implementation's own error, kept as the source.
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Why a page's passages could not be ranked. The verifier turns it into a `ranker_error`
/// verdict, so a broken ranker never passes for a judge that found nothing.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum RankError {
    #[error("the ranking model is unavailable")]
    ModelUnavailable(#[source] BoxError),
    #[error("the ranker failed")]
    Failed(#[source] BoxError),
    #[error("the ranking task panicked")]
    Panicked(#[source] tokio::task::JoinError),
}

/// Ranks passages against a claim. Implementations are CPU-bound and synchronous; the verifier
/// runs them off the async executor.
pub trait Ranker: Send + Sync {
    /// A short name for logs, `/health` and the audit (`lexical`, `embedding`).
    fn name(&self) -> &str;

    /// Indices into `page.passages` of the best `k` passages, best first; ties keep page order.
    /// Returns fewer than `k` when the page has fewer passages, and none when `k` is 0.
    fn top_k(&self, claim: &str, page: &PagePassages, k: usize) -> Result<Vec<usize>, RankError>;

    /// Whether the ranker's model is loaded and ready, as the ranker itself knows it; `None`
    /// for a ranker that uses no model (BM25). Shown by `/health`.
    fn model_loaded(&self) -> Option<bool> {
        None
    }

    /// What the ranker runs on, for `/health` (the embedding ranker: kernels and threads);
    /// `None` for a ranker with nothing to report.
    fn runtime(&self) -> Option<String> {
        None
    }
}

/// Sorts `(score, index)` pairs best first, ties by index, and keeps the first `k` indices.
pub fn best_indices(mut scored: Vec<(f64, usize)>, k: usize) -> Vec<usize> {
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.into_iter().take(k).map(|(_, i)| i).collect()
}
