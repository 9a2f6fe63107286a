//! Writing rows to the audit index: ids are taken from the index's reservation counter
//! (migration 4), either in the writing transaction itself ([`AuditStore::record_blocking`]) or
//! ahead of it, in blocks ([`AuditStore::reserve_ids`]), by a writer that answers with the ids
//! before it writes ([`Reserved`] rows, written by [`AuditStore::write_reserved`]).
//!
//! Guarantees: an id is handed out once per index, across processes, whether or not its row is
//! ever written (so ids are unique and increasing, not dense); a batch of reserved records is
//! one transaction, all or nothing.

use std::ops::Range;

use anyhow::Context;
use citecheck_core::ClaimVerdict;
use rusqlite::{params, Transaction, TransactionBehavior};

use super::{now_rfc3339, AuditStore, RunInfo};

/// A verdict whose rows' ids were reserved before it was written: `ids[i]` is the id of the
/// row of `verdict.citations[i]`.
#[derive(Debug, Clone)]
pub struct Reserved {
    pub ids: Vec<i64>,
    /// When the verdict was given (not when it is written), RFC 3339.
    pub recorded_at: String,
    pub verdict: ClaimVerdict,
    pub run: RunInfo,
}

impl AuditStore {
    /// Records every citation of `verdict` in one transaction; returns the new rows' ids in
    /// citation order. Blocking.
    pub fn record_blocking(
        &self,
        verdict: &ClaimVerdict,
        run: &RunInfo,
    ) -> anyhow::Result<Vec<i64>> {
        let recorded_at = now_rfc3339();
        let mut conn = self.lock();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let ids: Vec<i64> = take_ids(&tx, verdict.citations.len())?.collect();
        insert_rows(&tx, &ids, &recorded_at, verdict, run)?;
        tx.commit().context("committing audit rows")?;
        Ok(ids)
    }

    /// Hands out `count` ids that no other writer of this index will use. Blocking.
    pub fn reserve_ids(&self, count: usize) -> anyhow::Result<Range<i64>> {
        let mut conn = self.lock();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let ids = take_ids(&tx, count)?;
        tx.commit().context("committing an id reservation")?;
        Ok(ids)
    }

    /// Writes `records`, whose ids were reserved with [`AuditStore::reserve_ids`], in one
    /// transaction. Blocking.
    pub fn write_reserved(&self, records: &[Reserved]) -> anyhow::Result<()> {
        let mut conn = self.lock();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        for record in records {
            anyhow::ensure!(
                record.ids.len() == record.verdict.citations.len(),
                "{} ids reserved for {} citations",
                record.ids.len(),
                record.verdict.citations.len()
            );
            insert_rows(
                &tx,
                &record.ids,
                &record.recorded_at,
                &record.verdict,
                &record.run,
            )?;
        }
        tx.commit().context("committing audit rows")
    }
}

/// Advances the reservation counter by `count` inside `tx`. The counter never goes below the
/// highest id present, so rows inserted without it (by hand, or by a test) are never collided
/// with.
fn take_ids(tx: &Transaction<'_>, count: usize) -> anyhow::Result<Range<i64>> {
    let count = i64::try_from(count).context("too many ids to reserve")?;
    let end: i64 = tx
        .query_row(
            "UPDATE id_reservations
             SET next_id = max(next_id, (SELECT COALESCE(MAX(id), 0) + 1 FROM citations)) + ?1
             RETURNING next_id",
            params![count],
            |row| row.get(0),
        )
        .context("reserving audit row ids")?;
    Ok(end - count..end)
}

fn insert_rows(
    tx: &Transaction<'_>,
    ids: &[i64],
    recorded_at: &str,
    verdict: &ClaimVerdict,
    run: &RunInfo,
) -> anyhow::Result<()> {
    let mut insert = tx.prepare_cached(
        "INSERT INTO citations (id, recorded_at, source, run_id, claim_id, claim, overall,
            url, final_url, label, reason, confidence, evidence_quote, original_status,
            rid, fetcher, judge_provider, judge_model, prompt_version, content_sha256,
            fetched_at, detail, input_tokens, output_tokens, crawl_cost, evidence_url,
            evidence_start, evidence_end, archive)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,
            ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29)",
    )?;
    for (id, c) in ids.iter().zip(&verdict.citations) {
        let meta = c.meta.clone().unwrap_or_default();
        let judge = meta.judge.as_ref();
        let usage = meta.usage;
        insert
            .execute(params![
                id,
                recorded_at,
                run.source,
                run.run_id,
                run.claim_id,
                verdict.claim,
                verdict.overall.as_str(),
                c.url,
                c.final_url,
                c.label.as_str(),
                c.reason.as_ref().map(|r| r.as_string()),
                c.confidence,
                c.evidence_quote,
                c.original_status,
                c.rid.clone().unwrap_or_default(),
                meta.fetcher,
                judge.map(|j| j.provider.as_str()),
                judge.map(|j| j.model.as_str()),
                judge.map(|j| j.prompt_version.as_str()),
                meta.content_sha256,
                meta.fetched_at,
                c.detail,
                usage.map(|u| u.input_tokens as i64),
                usage.map(|u| u.output_tokens as i64),
                meta.crawl_cost
                    .as_ref()
                    .and_then(|cost| serde_json::to_string(cost).ok()),
                c.follow_up.evidence_url,
                c.follow_up.evidence_offsets.map(|o| o.start as i64),
                c.follow_up.evidence_offsets.map(|o| o.end as i64),
                c.follow_up
                    .archive
                    .as_ref()
                    .and_then(|archive| serde_json::to_string(archive).ok()),
            ])
            .with_context(|| format!("writing audit row {id}"))?;
    }
    Ok(())
}
