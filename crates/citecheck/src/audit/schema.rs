//! The audit index's schema, as an ordered list of migrations.
//!
//! `PRAGMA user_version` holds the number of migrations applied. Each migration runs in its own
//! transaction together with the version bump, so a crash leaves the database at a known
//! version. Migrations are only ever appended; an index written by a newer citecheck (a version
//! above the last migration known here) is refused rather than misread.

use anyhow::Context;
use rusqlite::Connection;

/// Every migration, in order. Never edit one that has shipped: append a new one.
pub const MIGRATIONS: &[&str] = &[
    // 1: one row per verified citation.
    "CREATE TABLE citations (
        id              INTEGER PRIMARY KEY,
        recorded_at     TEXT    NOT NULL,
        source          TEXT    NOT NULL,
        run_id          TEXT,
        claim_id        TEXT,
        claim           TEXT    NOT NULL,
        overall         TEXT    NOT NULL,
        url             TEXT    NOT NULL,
        final_url       TEXT,
        label           TEXT    NOT NULL,
        reason          TEXT,
        confidence      REAL    NOT NULL,
        evidence_quote  TEXT,
        original_status INTEGER,
        rid             TEXT    NOT NULL DEFAULT '',
        fetcher         TEXT,
        judge_provider  TEXT,
        judge_model     TEXT,
        prompt_version  TEXT,
        content_sha256  TEXT,
        fetched_at      TEXT,
        detail          TEXT,
        input_tokens    INTEGER,
        output_tokens   INTEGER
    );
    CREATE INDEX citations_recorded_at ON citations (recorded_at);
    CREATE INDEX citations_label ON citations (label, recorded_at);
    CREATE INDEX citations_run ON citations (run_id);",
    // 2: what a crawling service spent on the citation (JSON of `CrawlCost`; NULL when free).
    "ALTER TABLE citations ADD COLUMN crawl_cost TEXT;",
    // 3: what a reader follows up on: the link to the quote and its range in the stored page,
    // what the web archive said about a dead link (JSON of `ArchiveInfo`); and the index that
    // makes "the last verdict for this URL" one indexed lookup (drift).
    "ALTER TABLE citations ADD COLUMN evidence_url TEXT;
    ALTER TABLE citations ADD COLUMN evidence_start INTEGER;
    ALTER TABLE citations ADD COLUMN evidence_end INTEGER;
    ALTER TABLE citations ADD COLUMN archive TEXT;
    CREATE INDEX citations_url ON citations (url, recorded_at);",
    // 4: the next row id to hand out. The HTTP service answers with a verdict's row ids before
    // the rows are written (its writer batches them later); every writer takes ids from here in
    // its transaction, so an id handed out but not yet written is never taken by another writer
    // or process.
    "CREATE TABLE id_reservations (next_id INTEGER NOT NULL);
    INSERT INTO id_reservations (next_id) SELECT COALESCE(MAX(id), 0) + 1 FROM citations;",
];

/// An index written by a newer citecheck: refused rather than misread.
#[derive(Debug, thiserror::Error)]
#[error(
    "the audit index {} has schema version {found}, newer than this citecheck knows ({known}); \
     use a newer citecheck or another --audit-db",
    path.display()
)]
pub struct TooNew {
    pub path: std::path::PathBuf,
    pub found: i64,
    pub known: usize,
}

/// Brings `conn` up to the latest schema.
pub fn migrate(conn: &mut Connection) -> anyhow::Result<()> {
    let current: i64 = conn
        .pragma_query_value(None, "user_version", |row| row.get(0))
        .context("reading the audit index's schema version")?;
    let latest = MIGRATIONS.len() as i64;
    if current > latest {
        anyhow::bail!(
            "the audit index has schema version {current}, newer than this citecheck knows \
             ({latest}); use a newer citecheck or another --audit-db"
        );
    }
    for (index, sql) in MIGRATIONS.iter().enumerate().skip(current as usize) {
        let version = index as i64 + 1;
        let tx = conn.transaction()?;
        tx.execute_batch(sql)
            .with_context(|| format!("applying audit migration {version}"))?;
        tx.pragma_update(None, "user_version", version)?;
        tx.commit()
            .with_context(|| format!("committing audit migration {version}"))?;
    }
    Ok(())
}
