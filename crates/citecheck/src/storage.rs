//! What a verifying command keeps: the audit index (verdicts) and the evidence store (pages),
//! opened from resolved paths and attached to the verifier's builder in one place, so `verify`,
//! `batch` and `serve` (and the front ends to come) store alike.
//!
//! Keeping records is best effort by design: a store that cannot be opened is a warning, the
//! status says so (`/health` shows it), and verdicts are still produced.

use std::sync::Arc;

use citecheck_core::VerifierBuilder;

use crate::audit::{AuditStore, MissedRows, TalliedRecorder};
use crate::config::StorePaths;
use crate::evidence::EvidenceStore;
use crate::prune;

/// Whether verdicts are written to the audit index.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AuditStatus {
    NotConfigured,
    /// Turned off (`--no-audit`, `[audit] enabled = false`).
    Disabled,
    /// Every verdict given is written to this index.
    Recording {
        path: String,
    },
    /// Configured, but the index could not be opened; verdicts are given unrecorded.
    Unavailable {
        path: String,
    },
}

impl AuditStatus {
    pub fn describe(&self) -> String {
        match self {
            AuditStatus::NotConfigured => "not configured".to_string(),
            AuditStatus::Disabled => "disabled".to_string(),
            AuditStatus::Recording { path } => format!("recording to {path}"),
            AuditStatus::Unavailable { path } => format!("unavailable: cannot open {path}"),
        }
    }
}

/// Deletes the evidence store's oldest pages when it is over its budget (at most hourly).
fn keep_within_budget(paths: &StorePaths) {
    match prune::prune_if_due(
        &paths.evidence_dir,
        EVIDENCE_SUFFIX,
        paths.evidence_max_bytes,
        prune::PRUNE_EVERY,
    ) {
        Ok(Some(pruned)) if pruned.files_removed > 0 => {
            tracing::info!("evidence store over its budget: {pruned}");
        }
        Ok(_) => {}
        Err(err) => tracing::warn!("could not prune the evidence store: {err}"),
    }
}

/// The file names of stored pages.
pub const EVIDENCE_SUFFIX: &str = ".md.gz";

/// The stores a verifying command writes to (either may be absent).
#[derive(Debug, Clone)]
pub struct Stores {
    audit: Option<AuditStore>,
    evidence: Option<EvidenceStore>,
    status: AuditStatus,
}

impl Stores {
    /// Keeps nothing.
    pub fn none() -> Stores {
        Stores {
            audit: None,
            evidence: None,
            status: AuditStatus::NotConfigured,
        }
    }

    /// Stores already open.
    pub fn new(audit: Option<AuditStore>, evidence: Option<EvidenceStore>) -> Stores {
        let status = match &audit {
            Some(store) => AuditStatus::Recording {
                path: store.path().display().to_string(),
            },
            None => AuditStatus::NotConfigured,
        };
        Stores {
            audit,
            evidence,
            status,
        }
    }

    /// Opens the stores `paths` name. Blocking (SQLite, directories): call at start-up.
    pub fn open(paths: &StorePaths) -> Stores {
        if !paths.enabled {
            return Stores {
                status: AuditStatus::Disabled,
                ..Stores::none()
            };
        }
        let audit = AuditStore::open(&paths.audit_db)
            .map_err(|err| tracing::warn!("audit rows will not be kept: {err:#}"))
            .ok();
        let evidence = EvidenceStore::open(&paths.evidence_dir)
            .map_err(|err| tracing::warn!("pages will not be kept for replay: {err:#}"))
            .ok();
        if evidence.is_some() {
            keep_within_budget(paths);
        }
        let path = paths.audit_db.display().to_string();
        let status = if audit.is_some() {
            AuditStatus::Recording { path }
        } else {
            AuditStatus::Unavailable { path }
        };
        Stores {
            audit,
            evidence,
            status,
        }
    }

    /// [`Stores::open`] on tokio's blocking pool.
    pub async fn open_off_executor(paths: &StorePaths) -> Stores {
        let paths = paths.clone();
        match tokio::task::spawn_blocking(move || Stores::open(&paths)).await {
            Ok(stores) => stores,
            Err(err) => {
                tracing::warn!("nothing will be kept for the audit: {err}");
                Stores::none()
            }
        }
    }

    /// The audit index, when one is open.
    pub fn audit(&self) -> Option<&AuditStore> {
        self.audit.as_ref()
    }

    /// The audit index's path for a message (or "the audit index" when none is open).
    pub fn audit_location(&self) -> String {
        self.audit.as_ref().map_or_else(
            || "the audit index".to_string(),
            |a| a.path().display().to_string(),
        )
    }

    pub fn status(&self) -> &AuditStatus {
        &self.status
    }

    /// `builder`, keeping every page in the evidence store (verdicts are recorded elsewhere:
    /// the queue's workers write them with the claim's result).
    pub fn attach_pages(&self, mut builder: VerifierBuilder) -> VerifierBuilder {
        if let Some(evidence) = &self.evidence {
            builder = builder.page_store(Arc::new(evidence.clone()));
        }
        builder
    }

    /// `builder`, keeping every page in the evidence store and every verdict in the audit index.
    pub fn attach(&self, mut builder: VerifierBuilder) -> VerifierBuilder {
        if let Some(evidence) = &self.evidence {
            builder = builder.page_store(Arc::new(evidence.clone()));
        }
        if let Some(audit) = &self.audit {
            builder = builder.recorder(Arc::new(audit.clone()));
        }
        builder
    }

    /// [`Stores::attach`], counting the verdicts the audit index refuses, for a command that
    /// reports them when it ends (none counted when no index is open).
    pub fn attach_tallied(&self, builder: VerifierBuilder) -> (VerifierBuilder, Arc<MissedRows>) {
        let builder = self.attach_pages(builder);
        match &self.audit {
            Some(audit) => {
                let (recorder, missed) = TalliedRecorder::new(audit.clone());
                (builder.recorder(Arc::new(recorder)), missed)
            }
            None => (builder, Arc::new(MissedRows::default())),
        }
    }
}
