//! A batch's results, as written and read back: one [`BatchResult`] per claim in the `--jsonl`
//! file, and the [`Summary`] figures computed over them. Shared by `batch` (which writes them)
//! and `report` (which reads them), so neither depends on the other's internals.

use citecheck_core::ClaimVerdict;
use serde::{Deserialize, Serialize};

pub mod summary;

pub use summary::Summary;

/// One line of the `--jsonl` output: the claim's id and its full verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BatchResult {
    pub id: String,
    #[serde(flatten)]
    pub verdict: ClaimVerdict,
}

impl BatchResult {
    /// True when some citation's fetch failed in a way worth retrying.
    pub fn has_fetch_failure(&self) -> bool {
        self.verdict
            .citations
            .iter()
            .any(|c| c.reason.as_ref().is_some_and(|r| r.is_fetch_failure()))
    }
}
