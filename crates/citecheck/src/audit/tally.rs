//! The audit index as the recorder of a command that has to say, when it ends, which verdicts it
//! could not record (`citecheck batch`). The verifier treats recording as best effort and logs a
//! failure once; a run whose results are all in its output files but whose audit rows are not
//! must still be told apart from one that kept everything.
//!
//! Takes an [`AuditStore`]; gives a [`VerdictRecorder`] that writes exactly as the store does,
//! and the [`MissedRows`] it counts into. Guarantees: every verdict the index refused is counted
//! with its rows, and the first refusal's error is kept to be shown.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use citecheck_core::store::{LastSeen, StoreError, VerdictRecorder};
use citecheck_core::verifier::error_chain;
use citecheck_core::{ClaimVerdict, Origin};

use super::AuditStore;

/// The audit index, counting what it could not write.
pub struct TalliedRecorder {
    store: AuditStore,
    missed: Arc<MissedRows>,
}

/// The verdicts (and their rows) an audit index refused, with the first refusal's error.
#[derive(Debug, Default)]
pub struct MissedRows {
    verdicts: AtomicU64,
    rows: AtomicU64,
    first_error: Mutex<Option<String>>,
}

impl TalliedRecorder {
    /// A recorder writing to `store`, and the tally of what it fails to write.
    pub fn new(store: AuditStore) -> (TalliedRecorder, Arc<MissedRows>) {
        let missed = Arc::new(MissedRows::default());
        let recorder = TalliedRecorder {
            store,
            missed: Arc::clone(&missed),
        };
        (recorder, missed)
    }
}

impl MissedRows {
    /// Verdicts none of whose rows were written (a verdict is one transaction).
    pub fn verdicts(&self) -> u64 {
        self.verdicts.load(Ordering::SeqCst)
    }

    /// Rows not written.
    pub fn rows(&self) -> u64 {
        self.rows.load(Ordering::SeqCst)
    }

    /// Why the first verdict was refused, when one was.
    pub fn first_error(&self) -> Option<String> {
        self.lock().clone()
    }

    /// [`MissedRows::first_error`] for a message.
    pub fn cause(&self) -> String {
        self.first_error()
            .unwrap_or_else(|| "no cause recorded".to_string())
    }

    fn add(&self, rows: usize, error: String) {
        self.verdicts.fetch_add(1, Ordering::SeqCst);
        self.rows.fetch_add(rows as u64, Ordering::SeqCst);
        self.lock().get_or_insert(error);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<String>> {
        // The guarded value is a plain string: a panic elsewhere cannot leave it half-written.
        self.first_error
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[async_trait]
impl VerdictRecorder for TalliedRecorder {
    async fn record(&self, verdict: &ClaimVerdict, origin: &Origin) -> Result<(), StoreError> {
        let recorded = VerdictRecorder::record(&self.store, verdict, origin).await;
        if let Err(err) = &recorded {
            self.missed
                .add(verdict.citations.len(), error_chain(err.as_ref()));
        }
        recorded
    }

    async fn last_seen(&self, url: &str) -> Result<Option<LastSeen>, StoreError> {
        VerdictRecorder::last_seen(&self.store, url).await
    }
}
