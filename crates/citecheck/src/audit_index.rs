//! Which audit index a reading command (`audit`, `replay --audit-id`, `report`) reads: the
//! PostgreSQL one that `citecheck worker` writes when the command is given a queue (`--queue` /
//! `CITECHECK_QUEUE_URL`), else the SQLite one the configuration points at.
//!
//! Takes the resolved configuration and the command's queue argument; gives an [`AuditIndex`],
//! so that the command runs one code path over either store. Never creates a SQLite index; the
//! queue's target is shown without its password.

use anyhow::Context;

use crate::audit::{AuditIndex, AuditStore};
use crate::config::{Config, ConfigError, QueueArg};
use crate::error::AppError;
use crate::queue::audit::PgAuditIndex;
use crate::queue::QueueUrl;

/// Opens the index a reading command reads. Must run on the tokio runtime (the PostgreSQL
/// index's reads wait on it); the index's own calls then belong on a blocking thread.
pub async fn open(config: &Config, queue: &QueueArg) -> Result<Box<dyn AuditIndex>, AppError> {
    match queue.queue.as_deref() {
        Some(url) => {
            let url = QueueUrl::parse(url).map_err(ConfigError::from)?;
            let index = PgAuditIndex::open(&url).await.map_err(ConfigError::from)?;
            Ok(Box::new(index))
        }
        None => {
            let path = config.store_paths()?.audit_db;
            let store = tokio::task::spawn_blocking(move || AuditStore::open_existing(path))
                .await
                .context("the audit reader task failed")??;
            Ok(Box::new(store))
        }
    }
}
