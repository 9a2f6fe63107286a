//! The audit index: one SQLite row per verified citation, written by `verify`, `batch` and the
//! HTTP service, read by `citecheck audit`, `replay --audit-id` and `report`.
//!
//! A row is written for every citation, replayable or not (an empty `rid` when no page was kept),
//! so the decision is on record even when there is no body to show. The database runs in WAL
//! mode, so readers never block the writer, with a busy timeout so that several citecheck
//! processes can share one index. SQLite calls block: the async entry points move them onto
//! tokio's blocking pool, and the connection sits behind a mutex, so an [`AuditStore`] is cheap to
//! clone and safe to share between requests.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use anyhow::Context;
use async_trait::async_trait;
use citecheck_core::store::{LastSeen, StoreError, VerdictRecorder};
use citecheck_core::{ClaimVerdict, Origin};
use rusqlite::{Connection, OpenFlags};
use serde::{Deserialize, Serialize};

use crate::config::ConfigError;
use crate::error::AppError;

mod drift;
mod query;
pub mod receipt;
pub mod schema;
mod tally;
mod write;

pub use query::{parse_time_bound, AuditFilter, Dialect, COLUMN_NAMES};
pub use tally::{MissedRows, TalliedRecorder};
pub use write::Reserved;

/// Where a verdict came from; stored with each of its rows (the core's [`Origin`]).
pub type RunInfo = Origin;

/// One stored citation, as `citecheck audit` shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditRow {
    pub id: i64,
    pub recorded_at: String,
    pub source: String,
    pub run_id: Option<String>,
    pub claim_id: Option<String>,
    pub claim: String,
    pub overall: String,
    pub url: String,
    pub final_url: Option<String>,
    pub label: String,
    pub reason: Option<String>,
    pub confidence: f64,
    pub evidence_quote: Option<String>,
    pub original_status: Option<u16>,
    pub rid: String,
    pub fetcher: Option<String>,
    pub judge_provider: Option<String>,
    pub judge_model: Option<String>,
    pub prompt_version: Option<String>,
    pub content_sha256: Option<String>,
    pub fetched_at: Option<String>,
    pub detail: Option<String>,
    pub input_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
    /// What a crawling service spent (JSON), when one was used.
    pub crawl_cost: Option<String>,
    /// The link to the quote on the page (a text fragment URL).
    pub evidence_url: Option<String>,
    /// The quote's character range in the stored page.
    pub evidence_start: Option<u64>,
    pub evidence_end: Option<u64>,
    /// What the web archive said about a dead link (JSON), when it was asked.
    pub archive: Option<String>,
}

/// A shared handle on the audit index.
#[derive(Clone)]
pub struct AuditStore {
    conn: Arc<Mutex<Connection>>,
    path: PathBuf,
}

impl std::fmt::Debug for AuditStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuditStore")
            .field("path", &self.path)
            .finish()
    }
}

impl AuditStore {
    /// Opens the index at `path`, creating it (and its directory) and applying migrations.
    /// Blocking: call it at start-up, or inside `spawn_blocking`.
    pub fn open(path: impl AsRef<Path>) -> anyhow::Result<AuditStore> {
        let path = path.as_ref().to_path_buf();
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("creating the audit directory {}", dir.display()))?;
        }
        let mut conn = Connection::open(&path)
            .with_context(|| format!("opening the audit index {}", path.display()))?;
        conn.busy_timeout(Duration::from_secs(10))?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .context("switching the audit index to WAL")?;
        // With WAL, NORMAL loses at most the last transactions on power loss, never integrity.
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        schema::migrate(&mut conn)
            .with_context(|| format!("migrating the audit index {}", path.display()))?;
        Ok(AuditStore {
            conn: Arc::new(Mutex::new(conn)),
            path,
        })
    }

    /// Opens an existing index read-only (for `audit`, `report`, `replay`); never creates one.
    /// An index written by an older citecheck is migrated first; one written by a newer
    /// citecheck is a configuration error (exit 3).
    pub fn open_existing(path: impl AsRef<Path>) -> Result<AuditStore, AppError> {
        let path = path.as_ref().to_path_buf();
        if !path.exists() {
            return Err(anyhow::anyhow!(
                "no audit index at {} (nothing verified yet, or another --audit-db)",
                path.display()
            )
            .into());
        }
        let conn = Connection::open_with_flags(
            &path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .with_context(|| format!("opening the audit index {}", path.display()))?;
        conn.busy_timeout(Duration::from_secs(10))
            .context("setting the audit index's busy timeout")?;
        let version: i64 = conn
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .with_context(|| format!("{} is not a citecheck audit index", path.display()))?;
        // Version 0 is what SQLite reports for an empty file or any database citecheck did
        // not create: not an old index, so not a version mismatch.
        if version == 0 {
            return Err(anyhow::anyhow!(
                "{} is not a citecheck audit index (an empty file or another SQLite database); \
                 citecheck creates its index when it first verifies (see --audit-db)",
                path.display()
            )
            .into());
        }
        let known = schema::MIGRATIONS.len();
        if version > known as i64 {
            // Exit 3 like the PostgreSQL index's: what to change is which citecheck (or which
            // index) is used, not something on this machine that broke.
            return Err(ConfigError::Unavailable {
                what: "the audit index",
                source: Box::new(schema::TooNew {
                    path: path.clone(),
                    found: version,
                    known,
                }),
            }
            .into());
        }
        if version < known as i64 {
            // An index left by an older citecheck: bring it up to date (migrations only add
            // columns, tables and indexes, and each runs in its own transaction), then read it.
            // Reading must not require running a writing command first after an upgrade.
            drop(conn);
            AuditStore::open(&path).with_context(|| {
                format!(
                    "the audit index {} has schema version {version}, older than this \
                     citecheck's {known}, and could not be upgraded (is it writable?)",
                    path.display()
                )
            })?;
            return AuditStore::open_existing(path);
        }
        Ok(AuditStore {
            conn: Arc::new(Mutex::new(conn)),
            path,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Records every citation of `verdict` in one transaction; returns the new rows' ids in
    /// citation order. The SQLite write runs on tokio's blocking pool.
    pub async fn record(&self, verdict: &ClaimVerdict, run: &RunInfo) -> anyhow::Result<Vec<i64>> {
        let store = self.clone();
        let verdict = verdict.clone();
        let run = run.clone();
        tokio::task::spawn_blocking(move || store.record_blocking(&verdict, &run))
            .await
            .context("the audit writer task failed")?
    }

    /// The rows matching `filter`, newest first (or oldest first with `filter.oldest_first`).
    pub async fn query(&self, filter: AuditFilter) -> anyhow::Result<Vec<AuditRow>> {
        let store = self.clone();
        tokio::task::spawn_blocking(move || {
            let mut rows = Vec::new();
            store.scan(&filter, |row| {
                rows.push(row);
                Ok(())
            })?;
            Ok(rows)
        })
        .await
        .context("the audit reader task failed")?
    }

    /// Streams the rows matching `filter` to `each` without holding them all. Blocking.
    pub fn scan(
        &self,
        filter: &AuditFilter,
        mut each: impl FnMut(AuditRow) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        let (sql, values) = filter.to_sql();
        let conn = self.lock();
        let mut statement = conn.prepare(&sql)?;
        let mut rows = statement.query(rusqlite::params_from_iter(values.iter()))?;
        while let Some(row) = rows.next()? {
            each(query::row_from_sql(row)?)?;
        }
        Ok(())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves the connection usable (SQLite rolls back the
        // open transaction when it is dropped), so a poisoned mutex is recovered, not fatal.
        self.conn
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// An audit index as the reading commands (`audit`, `replay --audit-id`, `report`) see it: the
/// SQLite one ([`AuditStore`]) or the PostgreSQL one that `citecheck worker` writes
/// (`queue::audit::PgAuditIndex`). Both answer the same [`AuditFilter`] with the same
/// [`AuditRow`]s, so every reading command has one code path whatever the store.
///
/// The calls block (SQLite is synchronous; the PostgreSQL index waits on its runtime): from
/// async code, call them inside `spawn_blocking`.
pub trait AuditIndex: Send + Sync {
    /// Gives each row matching `filter` to `each`, in the filter's order, without holding them
    /// all.
    fn scan_rows(
        &self,
        filter: &AuditFilter,
        each: &mut dyn FnMut(AuditRow) -> anyhow::Result<()>,
    ) -> anyhow::Result<()>;

    /// Where the index is, as shown to people (a path, or a server without its password).
    fn describe(&self) -> String;

    /// One row by id.
    fn row(&self, id: i64) -> anyhow::Result<Option<AuditRow>> {
        let filter = AuditFilter {
            id: Some(id),
            ..AuditFilter::default()
        };
        let mut found = None;
        self.scan_rows(&filter, &mut |row| {
            found = Some(row);
            Ok(())
        })?;
        Ok(found)
    }
}

impl AuditIndex for AuditStore {
    fn scan_rows(
        &self,
        filter: &AuditFilter,
        each: &mut dyn FnMut(AuditRow) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        self.scan(filter, each)
    }

    fn describe(&self) -> String {
        format!("audit index {}", self.path.display())
    }
}

/// The audit index as the verifier's recorder: every verdict given is one transaction of rows.
#[async_trait]
impl VerdictRecorder for AuditStore {
    async fn record(&self, verdict: &ClaimVerdict, origin: &Origin) -> Result<(), StoreError> {
        let ids = AuditStore::record(self, verdict, origin).await?;
        receipt::deliver(&ids);
        Ok(())
    }

    async fn last_seen(&self, url: &str) -> Result<Option<LastSeen>, StoreError> {
        Ok(AuditStore::last_seen(self, url).await?)
    }
}

/// The current time as RFC 3339 in UTC, to the second: the one format stored, so that time
/// ranges compare as strings.
pub fn now_rfc3339() -> String {
    format_time(SystemTime::now())
}

pub fn format_time(time: SystemTime) -> String {
    humantime::format_rfc3339_seconds(time).to_string()
}
