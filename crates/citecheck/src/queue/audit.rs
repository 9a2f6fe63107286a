//! The audit index's rows in PostgreSQL: the same columns as the SQLite index
//! (`audit::schema`), written inside the transaction that marks a claim done, so a claim's rows
//! exist exactly when its result does.

use citecheck_core::{ClaimVerdict, Origin};
use tokio_postgres::Transaction;

const INSERT: &str =
    "INSERT INTO citecheck_citations (recorded_at, source, run_id, claim_id, claim,
    overall, url, final_url, label, reason, confidence, evidence_quote, original_status, rid,
    fetcher, judge_provider, judge_model, prompt_version, content_sha256, fetched_at, detail,
    input_tokens, output_tokens, crawl_cost)
 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19,
    $20, $21, $22, $23, $24)";

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
            ],
        )
        .await?;
    }
    Ok(())
}
