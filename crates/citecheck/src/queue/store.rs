//! The queue's operations on PostgreSQL: enqueue, take claims under a lease, keep leases alive,
//! finish a claim exactly once, and read a batch back.
//!
//! A claim is taken with `FOR UPDATE SKIP LOCKED` (workers never wait on each other's rows) and
//! a lease: `lease_owner` and `lease_until`. A claim whose lease ran out (its worker died) is
//! taken again. Finishing a claim is one transaction that marks it done only if this worker still
//! holds its lease, and writes its audit rows in the same transaction: a claim taken twice is
//! still recorded once, by whichever worker finishes first under a valid lease.

use std::time::Duration;

use citecheck_core::Origin;
use serde_json::Value;
use tokio::sync::Mutex;
use tokio_postgres::Client;

use super::{QueueError, QueueUrl};
use crate::batch::input::InputRecord;
use crate::results::BatchResult;

/// A connected, migrated queue.
pub struct Queue {
    url: QueueUrl,
    /// Reads, claims and lease renewals (pipelined by the driver, no transactions).
    client: Client,
    /// Transactions (enqueue, finishing a claim) need a connection of their own.
    writer: Mutex<Client>,
}

/// A claim taken by a worker.
#[derive(Debug, Clone)]
pub struct Lease {
    pub batch_id: String,
    pub id: String,
    pub claim: String,
    pub urls: Vec<String>,
    /// Queued again by `--retry-failed`: the previous result, whose failed fetches to retry.
    pub previous: Option<BatchResult>,
}

/// A batch's progress.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct ClaimCounts {
    pub total: u64,
    pub done: u64,
    /// Pending and held under a live lease by some worker.
    pub in_progress: u64,
    /// Pending and free to take (never taken, or its lease ran out).
    pub waiting: u64,
    /// Claims taken more than once (a worker died or lost its lease).
    pub retaken: u64,
}

/// What enqueuing a file did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Enqueued {
    pub added: u64,
    pub already_queued: u64,
    /// Done claims queued again because a fetch had failed (`--retry-failed`).
    pub requeued: u64,
}

type Db<T> = Result<T, tokio_postgres::Error>;

impl Queue {
    /// Connects (two connections) and brings the schema up to date.
    pub async fn open(url: &QueueUrl) -> Result<Queue, QueueError> {
        let mut writer = url.connect().await?;
        super::schema::migrate(&mut writer, url.target()).await?;
        let client = url.connect().await?;
        Ok(Queue {
            url: url.clone(),
            client,
            writer: Mutex::new(writer),
        })
    }

    pub fn url(&self) -> &QueueUrl {
        &self.url
    }

    /// Adds `records` to batch `batch_id` (created if new); ids already in the batch are left
    /// alone, so enqueuing the same file twice adds nothing.
    pub async fn enqueue(
        &self,
        batch_id: &str,
        source: &str,
        records: &[InputRecord],
    ) -> Db<Enqueued> {
        let mut writer = self.writer.lock().await;
        let tx = writer.transaction().await?;
        tx.execute(
            "INSERT INTO citecheck_batches (id, source) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING",
            &[&batch_id, &source],
        )
        .await?;
        let insert = tx
            .prepare(
                "INSERT INTO citecheck_claims (batch_id, id, line, claim, urls)
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (batch_id, id) DO NOTHING",
            )
            .await?;
        let mut outcome = Enqueued::default();
        for record in records {
            let line = record.line as i64;
            let urls = Value::from(record.urls.clone());
            let added = tx
                .execute(
                    &insert,
                    &[&batch_id, &record.id, &line, &record.claim, &urls],
                )
                .await?;
            if added == 1 {
                outcome.added += 1;
            } else {
                outcome.already_queued += 1;
            }
        }
        tx.commit().await?;
        Ok(outcome)
    }

    /// Queues again every done claim of `batch_id` that has a failed fetch (timeouts, 5xx, 429,
    /// connection errors; not dead links). Their old results stay until the new ones replace them.
    pub async fn requeue_failed(&self, batch_id: &str) -> Db<u64> {
        let mut requeued = 0;
        for result in self.results(batch_id).await? {
            if !result.has_fetch_failure() {
                continue;
            }
            requeued += self
                .client
                .execute(
                    "UPDATE citecheck_claims SET state = 'pending', retry = true,
                        lease_owner = NULL, lease_until = NULL
                     WHERE batch_id = $1 AND id = $2 AND state = 'done'",
                    &[&batch_id, &result.id],
                )
                .await?;
        }
        Ok(requeued)
    }

    /// Takes up to `limit` free claims (of `batch`, or of any batch) for `lease`.
    pub async fn take(
        &self,
        owner: &str,
        lease: Duration,
        batch: Option<&str>,
        limit: usize,
    ) -> Db<Vec<Lease>> {
        let seconds = lease.as_secs_f64();
        let limit = limit as i64;
        let rows = self
            .client
            .query(
                "UPDATE citecheck_claims c
                 SET lease_owner = $1, lease_until = now() + make_interval(secs => $2),
                     attempts = c.attempts + 1
                 FROM (SELECT batch_id, id FROM citecheck_claims
                       WHERE state = 'pending'
                         AND (lease_until IS NULL OR lease_until < now())
                         AND ($3::text IS NULL OR batch_id = $3)
                       ORDER BY batch_id, line
                       LIMIT $4
                       FOR UPDATE SKIP LOCKED) free
                 WHERE c.batch_id = free.batch_id AND c.id = free.id
                 RETURNING c.batch_id, c.id, c.claim, c.urls, c.retry, c.result",
                &[&owner, &seconds, &batch, &limit],
            )
            .await?;
        let mut leases = Vec::with_capacity(rows.len());
        for row in rows {
            let urls: Value = row.get("urls");
            let retry: bool = row.get("retry");
            let previous: Option<Value> = row.get("result");
            leases.push(Lease {
                batch_id: row.get("batch_id"),
                id: row.get("id"),
                claim: row.get("claim"),
                urls: serde_json::from_value(urls).unwrap_or_default(),
                previous: previous
                    .filter(|_| retry)
                    .and_then(|value| serde_json::from_value(value).ok()),
            });
        }
        Ok(leases)
    }

    /// Extends every lease `owner` holds; returns how many.
    pub async fn renew(&self, owner: &str, lease: Duration) -> Db<u64> {
        let seconds = lease.as_secs_f64();
        self.client
            .execute(
                "UPDATE citecheck_claims SET lease_until = now() + make_interval(secs => $2)
                 WHERE lease_owner = $1 AND state = 'pending'",
                &[&owner, &seconds],
            )
            .await
    }

    /// Gives back every claim `owner` holds (a worker stopping early).
    pub async fn release(&self, owner: &str) -> Db<u64> {
        self.client
            .execute(
                "UPDATE citecheck_claims SET lease_owner = NULL, lease_until = NULL
                 WHERE lease_owner = $1 AND state = 'pending'",
                &[&owner],
            )
            .await
    }

    /// Records `result` for the claim `lease` names, with its audit rows, in one transaction,
    /// if `owner` still holds the lease. Returns false (and writes nothing) when it does not: the
    /// claim was taken again after the lease ran out.
    pub async fn finish(&self, owner: &str, lease: &Lease, result: &BatchResult) -> Db<bool> {
        let json = serde_json::to_value(result).unwrap_or(Value::Null);
        let mut writer = self.writer.lock().await;
        let tx = writer.transaction().await?;
        let marked = tx
            .execute(
                "UPDATE citecheck_claims SET state = 'done', result = $4, retry = false,
                    finished_by = $3, finished_at = now(), lease_owner = NULL, lease_until = NULL
                 WHERE batch_id = $1 AND id = $2 AND lease_owner = $3 AND state = 'pending'",
                &[&lease.batch_id, &lease.id, &owner, &json],
            )
            .await?;
        if marked != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        let origin = Origin::new("batch")
            .with_run_id(lease.batch_id.clone())
            .with_claim_id(lease.id.clone());
        super::audit::insert_rows(&tx, &result.verdict, &origin).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Whether batch `batch_id` exists.
    pub async fn has_batch(&self, batch_id: &str) -> Db<bool> {
        let row = self
            .client
            .query_opt(
                "SELECT 1 FROM citecheck_batches WHERE id = $1",
                &[&batch_id],
            )
            .await?;
        Ok(row.is_some())
    }

    /// Progress of `batch` (or of every batch).
    pub async fn counts(&self, batch: Option<&str>) -> Db<ClaimCounts> {
        let row = self
            .client
            .query_one(
                "SELECT count(*),
                    count(*) FILTER (WHERE state = 'done'),
                    count(*) FILTER (WHERE state = 'pending' AND lease_until >= now()),
                    count(*) FILTER (WHERE state = 'pending'
                                     AND (lease_until IS NULL OR lease_until < now())),
                    count(*) FILTER (WHERE attempts > 1)
                 FROM citecheck_claims WHERE ($1::text IS NULL OR batch_id = $1)",
                &[&batch],
            )
            .await?;
        let n = |i: usize| row.get::<_, i64>(i).max(0) as u64;
        Ok(ClaimCounts {
            total: n(0),
            done: n(1),
            in_progress: n(2),
            waiting: n(3),
            retaken: n(4),
        })
    }

    /// The finished claims of `batch_id`, in input order. A result that no longer parses (written
    /// by another version) is skipped with a warning.
    pub async fn results(&self, batch_id: &str) -> Db<Vec<BatchResult>> {
        let rows = self
            .client
            .query(
                "SELECT id, result FROM citecheck_claims
                 WHERE batch_id = $1 AND result IS NOT NULL ORDER BY line",
                &[&batch_id],
            )
            .await?;
        let mut results = Vec::with_capacity(rows.len());
        for row in rows {
            let id: String = row.get(0);
            match serde_json::from_value(row.get::<_, Value>(1)) {
                Ok(result) => results.push(result),
                Err(err) => tracing::warn!("claim {id}: unreadable result skipped: {err}"),
            }
        }
        Ok(results)
    }

    /// The connection for reads that need no transaction (the per-host limit's advisory locks
    /// live on a connection of their own, see `hosts`).
    pub fn client(&self) -> &Client {
        &self.client
    }
}
