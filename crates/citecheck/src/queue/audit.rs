//! The audit index's rows in PostgreSQL: the same columns as the SQLite index
//! (`audit::schema`), written inside the transaction that marks a claim done, so a claim's rows
//! exist exactly when its result does; and read back, as an [`AuditIndex`], with the same
//! filters and the same query as the SQLite index, so `audit`, `replay --audit-id` and `report`
//! run one code path over either store.

use anyhow::Context;
use citecheck_core::{ClaimVerdict, Origin};
use futures::TryStreamExt;
use rusqlite::types::Value;
use tokio_postgres::types::ToSql;
use tokio_postgres::{Row, Transaction};

use super::{Queue, QueueError, QueueUrl};
use crate::audit::{AuditFilter, AuditIndex, AuditRow, Dialect};

const INSERT: &str =
    "INSERT INTO citecheck_citations (recorded_at, source, run_id, claim_id, claim,
    overall, url, final_url, label, reason, confidence, evidence_quote, original_status, rid,
    fetcher, judge_provider, judge_model, prompt_version, content_sha256, fetched_at, detail,
    input_tokens, output_tokens, crawl_cost, evidence_url, evidence_start, evidence_end, archive)
 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19,
    $20, $21, $22, $23, $24, $25, $26, $27, $28)";

/// Writes one row per citation of `verdict` in `tx`.
pub async fn insert_rows(
    tx: &Transaction<'_>,
    verdict: &ClaimVerdict,
    origin: &Origin,
) -> Result<(), tokio_postgres::Error> {
    let statement = tx.prepare(INSERT).await?;
    let recorded_at = crate::audit::now_rfc3339();
    let overall = verdict.overall.as_str();
    for c in &verdict.citations {
        let meta = c.meta.clone().unwrap_or_default();
        let judge = meta.judge.as_ref();
        let usage = meta.usage;
        let reason = c.reason.as_ref().map(|r| r.as_string());
        let label = c.label.as_str();
        let confidence = c.confidence;
        let status = c.original_status.map(i32::from);
        let rid = c.rid.clone().unwrap_or_default();
        let input_tokens = usage.map(|u| u.input_tokens as i64);
        let output_tokens = usage.map(|u| u.output_tokens as i64);
        let crawl_cost = meta
            .crawl_cost
            .as_ref()
            .and_then(|cost| serde_json::to_string(cost).ok());
        let offsets = c.follow_up.evidence_offsets;
        let evidence_start = offsets.map(|o| o.start as i64);
        let evidence_end = offsets.map(|o| o.end as i64);
        let archive = c
            .follow_up
            .archive
            .as_ref()
            .and_then(|archive| serde_json::to_string(archive).ok());
        tx.execute(
            &statement,
            &[
                &recorded_at,
                &origin.source,
                &origin.run_id,
                &origin.claim_id,
                &verdict.claim,
                &overall,
                &c.url,
                &c.final_url,
                &label,
                &reason,
                &confidence,
                &c.evidence_quote,
                &status,
                &rid,
                &meta.fetcher,
                &judge.map(|j| j.provider.as_str()),
                &judge.map(|j| j.model.as_str()),
                &judge.map(|j| j.prompt_version.as_str()),
                &meta.content_sha256,
                &meta.fetched_at,
                &c.detail,
                &input_tokens,
                &output_tokens,
                &crawl_cost,
                &c.follow_up.evidence_url,
                &evidence_start,
                &evidence_end,
                &archive,
            ],
        )
        .await?;
    }
    Ok(())
}

/// The PostgreSQL audit index, read through [`AuditIndex`]: blocking calls that wait on the
/// runtime the index was opened on (so, like the SQLite index's, they belong on a blocking
/// thread, never on a runtime worker).
pub struct PgAuditIndex {
    queue: Queue,
    runtime: tokio::runtime::Handle,
}

impl PgAuditIndex {
    /// Connects to the queue at `url` (migrating its schema as every queue command does; a
    /// schema newer than this citecheck is refused). Must be called on a tokio runtime, which
    /// the reads then use.
    pub async fn open(url: &QueueUrl) -> Result<PgAuditIndex, QueueError> {
        Ok(PgAuditIndex {
            queue: Queue::open(url).await?,
            runtime: tokio::runtime::Handle::current(),
        })
    }
}

impl AuditIndex for PgAuditIndex {
    fn scan_rows(
        &self,
        filter: &AuditFilter,
        each: &mut dyn FnMut(AuditRow) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        let (sql, values) = filter.to_sql_in(Dialect::Postgres);
        let params = pg_params(values)?;
        let client = self.queue.client();
        self.runtime.block_on(async {
            // Rows arrive as the server sends them: a report's passes over a large batch do
            // not hold the batch in memory.
            let rows = client
                .query_raw(
                    sql.as_str(),
                    params.iter().map(|p| p.as_ref() as &dyn ToSql),
                )
                .await
                .context("reading the PostgreSQL audit index")?;
            let mut rows = std::pin::pin!(rows);
            while let Some(row) = rows
                .try_next()
                .await
                .context("reading the PostgreSQL audit index")?
            {
                each(row_from_pg(&row)?)?;
            }
            Ok(())
        })
    }

    fn describe(&self) -> String {
        format!("audit index {}", self.queue.url().target())
    }
}

/// An audit filter's values as PostgreSQL parameters.
fn pg_params(values: Vec<Value>) -> anyhow::Result<Vec<Box<dyn ToSql + Sync + Send>>> {
    values
        .into_iter()
        .map(|value| -> anyhow::Result<Box<dyn ToSql + Sync + Send>> {
            match value {
                Value::Integer(n) => Ok(Box::new(n)),
                Value::Text(text) => Ok(Box::new(text)),
                other => anyhow::bail!("an audit filter value of an unexpected type: {other:?}"),
            }
        })
        .collect()
}

fn row_from_pg(row: &Row) -> anyhow::Result<AuditRow> {
    // Counts and offsets: BIGINT, never negative.
    let tokens = |i: usize| -> anyhow::Result<Option<u64>> {
        Ok(row.try_get::<_, Option<i64>>(i)?.map(|n| n.max(0) as u64))
    };
    Ok(AuditRow {
        id: row.try_get(0)?,
        recorded_at: row.try_get(1)?,
        source: row.try_get(2)?,
        run_id: row.try_get(3)?,
        claim_id: row.try_get(4)?,
        claim: row.try_get(5)?,
        overall: row.try_get(6)?,
        url: row.try_get(7)?,
        final_url: row.try_get(8)?,
        label: row.try_get(9)?,
        reason: row.try_get(10)?,
        confidence: row.try_get(11)?,
        evidence_quote: row.try_get(12)?,
        original_status: row
            .try_get::<_, Option<i32>>(13)?
            .and_then(|s| u16::try_from(s).ok()),
        rid: row.try_get(14)?,
        fetcher: row.try_get(15)?,
        judge_provider: row.try_get(16)?,
        judge_model: row.try_get(17)?,
        prompt_version: row.try_get(18)?,
        content_sha256: row.try_get(19)?,
        fetched_at: row.try_get(20)?,
        detail: row.try_get(21)?,
        input_tokens: tokens(22)?,
        output_tokens: tokens(23)?,
        crawl_cost: row.try_get(24)?,
        evidence_url: row.try_get(25)?,
        evidence_start: tokens(26)?,
        evidence_end: tokens(27)?,
        archive: row.try_get(28)?,
    })
}
