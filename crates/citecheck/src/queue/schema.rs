//! The queue's PostgreSQL schema, as an ordered list of migrations (the SQLite audit index has
//! its own, in `audit::schema`).
//!
//! `citecheck_migrations` holds one row per applied migration. Each migration runs in one
//! transaction with its row, under a transaction-level advisory lock, so workers starting at the
//! same moment apply it once. Migrations are only ever appended; a database migrated by a newer
//! citecheck is refused, not misread.

use tokio_postgres::Client;

use super::{QueueError, Target};

/// Every migration, in order. Never edit one that has shipped: append a new one.
pub const MIGRATIONS: &[&str] = &[
    // 1: batches, their claims (the queue itself), and the audit index's rows.
    "CREATE TABLE citecheck_batches (
        id          TEXT PRIMARY KEY,
        created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
        source      TEXT NOT NULL
    );
    CREATE TABLE citecheck_claims (
        batch_id    TEXT NOT NULL REFERENCES citecheck_batches (id),
        id          TEXT NOT NULL,
        line        BIGINT NOT NULL,
        claim       TEXT NOT NULL,
        urls        JSONB NOT NULL,
        state       TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done')),
        retry       BOOLEAN NOT NULL DEFAULT false,
        attempts    INTEGER NOT NULL DEFAULT 0,
        lease_owner TEXT,
        lease_until TIMESTAMPTZ,
        result      JSONB,
        finished_by TEXT,
        finished_at TIMESTAMPTZ,
        PRIMARY KEY (batch_id, id)
    );
    CREATE INDEX citecheck_claims_pending ON citecheck_claims (batch_id, line)
        WHERE state = 'pending';
    CREATE TABLE citecheck_citations (
        id              BIGSERIAL PRIMARY KEY,
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
        confidence      DOUBLE PRECISION NOT NULL,
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
        input_tokens    BIGINT,
        output_tokens   BIGINT,
        crawl_cost      TEXT
    );
    CREATE INDEX citecheck_citations_recorded_at ON citecheck_citations (recorded_at);
    CREATE INDEX citecheck_citations_label ON citecheck_citations (label, recorded_at);
    CREATE INDEX citecheck_citations_run ON citecheck_citations (run_id, claim_id);",
    // 2: the SQLite index's migration 3: the link to the quote and its range in the stored
    // page, what the web archive said about a dead link, and the by-URL index.
    "ALTER TABLE citecheck_citations ADD COLUMN evidence_url TEXT;
    ALTER TABLE citecheck_citations ADD COLUMN evidence_start BIGINT;
    ALTER TABLE citecheck_citations ADD COLUMN evidence_end BIGINT;
    ALTER TABLE citecheck_citations ADD COLUMN archive TEXT;
    CREATE INDEX citecheck_citations_url ON citecheck_citations (url, recorded_at);",
];

/// Any fixed number: the advisory lock that serialises migrations.
const MIGRATION_LOCK: i64 = 0x6369_7465_6368_6b31;

/// Brings the database up to the latest schema; refuses one that is newer.
pub async fn migrate(client: &mut Client, target: &Target) -> Result<(), QueueError> {
    let failed = |source| QueueError::Migrate {
        target: target.clone(),
        source,
    };
    client
        .batch_execute(
            "CREATE TABLE IF NOT EXISTS citecheck_migrations (
                version    INTEGER PRIMARY KEY,
                applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
            )",
        )
        .await
        .or_else(ignore_concurrent_create)
        .map_err(failed)?;
    let tx = client.transaction().await.map_err(failed)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await
        .map_err(failed)?;
    let current: i32 = tx
        .query_one(
            "SELECT COALESCE(MAX(version), 0) FROM citecheck_migrations",
            &[],
        )
        .await
        .map_err(failed)?
        .get(0);
    if current as usize > MIGRATIONS.len() {
        return Err(QueueError::TooNew {
            target: target.clone(),
            found: current,
            known: MIGRATIONS.len(),
        });
    }
    for (index, sql) in MIGRATIONS.iter().enumerate().skip(current as usize) {
        let version = index as i32 + 1;
        tx.batch_execute(sql).await.map_err(failed)?;
        tx.execute(
            "INSERT INTO citecheck_migrations (version) VALUES ($1)",
            &[&version],
        )
        .await
        .map_err(failed)?;
    }
    tx.commit().await.map_err(failed)
}

/// `CREATE TABLE IF NOT EXISTS` run by two sessions at once can still fail on the catalog's
/// unique index; the table exists then, which is all that was asked.
fn ignore_concurrent_create(err: tokio_postgres::Error) -> Result<(), tokio_postgres::Error> {
    match err.code() {
        Some(code) if *code == tokio_postgres::error::SqlState::UNIQUE_VIOLATION => Ok(()),
        _ => Err(err),
    }
}
