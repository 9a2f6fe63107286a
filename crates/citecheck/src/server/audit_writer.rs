//! The service's audit writer: one task writes the verdicts of all requests to the audit index,
//! many per transaction (group commit), so concurrent requests share one SQLite write instead of
//! queueing behind each other's.
//!
//! A request reserves its rows' ids (from a block the index hands out, so only one request in
//! [`ID_BLOCK`] rows waits for SQLite for that), queues the verdict on a bounded channel and
//! waits until the transaction holding it has committed; only then are the ids handed to the
//! response.
//!
//! Guarantees: an audit id a client was given is in the index, committed, before the client sees
//! it, so a process killed outright (SIGKILL, a crash) loses no answered verdict's rows. Rows
//! that cannot be written (no ids could be reserved, or the write failed) are logged (by id, once
//! reserved) and counted in `citecheck_audit_rows_failed` before the request goes on; the
//! request's recording fails, so its verdict is answered without ids rather than with ids that
//! are not there. A full queue makes requests wait (backpressure); nothing is dropped to make
//! room. [`AuditWriter::finish`] stops accepting and writes what is queued.

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use citecheck_core::store::{LastSeen, StoreError, VerdictRecorder};
use citecheck_core::{ClaimVerdict, Origin};
use tokio::sync::{mpsc, oneshot, Mutex};
use tokio::task::JoinHandle;

use super::metrics::Metrics;
use crate::audit::{now_rfc3339, receipt, AuditStore, Reserved};

/// Verdicts that may wait for the writer before requests wait for room in the queue.
pub const QUEUE_CAPACITY: usize = 1024;

/// Ids reserved from the index at a time.
pub const ID_BLOCK: usize = 1024;

/// Verdicts written in one transaction at most.
const MAX_BATCH: usize = 256;

/// The recorder requests use: reserves ids, queues the verdict, delivers the ids.
#[derive(Clone)]
pub struct QueuedRecorder {
    queue: mpsc::Sender<Pending>,
    ids: Arc<Mutex<Range<i64>>>,
    store: AuditStore,
    reader: AuditStore,
    queued_rows: Arc<AtomicUsize>,
    metrics: Arc<Metrics>,
}

/// A verdict waiting for the writer, and where to say whether its rows were committed.
struct Pending {
    record: Reserved,
    committed: oneshot::Sender<bool>,
}

/// The writing task, to stop at shutdown.
pub struct AuditWriter {
    stop: oneshot::Sender<()>,
    task: JoinHandle<()>,
    queued_rows: Arc<AtomicUsize>,
    metrics: Arc<Metrics>,
}

impl AuditWriter {
    /// Starts the writer for `store` (whose rows are counted in `metrics`) and returns it with
    /// the recorder to attach to the verifier. Opens a second, read-only connection for the
    /// drift lookups, so that they do not wait behind a batch being written.
    pub async fn spawn(store: AuditStore, metrics: Arc<Metrics>) -> (QueuedRecorder, AuditWriter) {
        AuditWriter::spawn_with_capacity(store, metrics, QUEUE_CAPACITY).await
    }

    /// [`AuditWriter::spawn`] with room for `capacity` verdicts in the queue.
    pub async fn spawn_with_capacity(
        store: AuditStore,
        metrics: Arc<Metrics>,
        capacity: usize,
    ) -> (QueuedRecorder, AuditWriter) {
        let path = store.path().to_path_buf();
        let reader = match tokio::task::spawn_blocking(move || AuditStore::open_existing(path))
            .await
        {
            Ok(Ok(reader)) => reader,
            Ok(Err(err)) => {
                tracing::debug!(error = %format!("{err:#}"), "drift lookups share the writer's connection");
                store.clone()
            }
            Err(_) => store.clone(),
        };
        let (queue, incoming) = mpsc::channel(capacity.max(1));
        let (stop, stopped) = oneshot::channel();
        let queued_rows = Arc::new(AtomicUsize::new(0));
        let task = tokio::spawn(write_until_stopped(
            incoming,
            stopped,
            store.clone(),
            Arc::clone(&metrics),
            Arc::clone(&queued_rows),
        ));
        let recorder = QueuedRecorder {
            queue,
            ids: Arc::new(Mutex::new(0..0)),
            store,
            reader,
            queued_rows: Arc::clone(&queued_rows),
            metrics: Arc::clone(&metrics),
        };
        let writer = AuditWriter {
            stop,
            task,
            queued_rows,
            metrics,
        };
        (recorder, writer)
    }

    /// Stops accepting verdicts and writes those queued, giving up after `within`. Returns
    /// whether every accepted verdict was written or counted as failed (`false`: the time ran
    /// out, and what was still queued is counted as failed).
    pub async fn finish(self, within: Duration) -> bool {
        let _ = self.stop.send(());
        let mut task = self.task;
        match tokio::time::timeout(within, &mut task).await {
            Ok(_) => true,
            Err(_) => {
                task.abort();
                let left = self.queued_rows.swap(0, Ordering::SeqCst);
                self.metrics.audit_rows_failed(left as u64);
                tracing::error!(
                    rows = left,
                    grace_secs = within.as_secs_f64(),
                    "audit rows still queued when the grace period ended were not written"
                );
                false
            }
        }
    }
}

impl QueuedRecorder {
    /// `count` ids no other writer of the index will use.
    async fn reserve(&self, count: usize) -> anyhow::Result<Vec<i64>> {
        let mut block = self.ids.lock().await;
        if (block.end - block.start) < count as i64 {
            let store = self.store.clone();
            let size = count.max(ID_BLOCK);
            *block = tokio::task::spawn_blocking(move || store.reserve_ids(size)).await??;
        }
        let ids: Vec<i64> = (block.start..block.start + count as i64).collect();
        block.start += count as i64;
        Ok(ids)
    }
}

#[async_trait]
impl VerdictRecorder for QueuedRecorder {
    async fn record(&self, verdict: &ClaimVerdict, origin: &Origin) -> Result<(), StoreError> {
        let rows = verdict.citations.len();
        let ids = match self.reserve(rows).await {
            Ok(ids) => ids,
            Err(err) => {
                // The verdict is still answered (without ids), so its rows are lost like those
                // of a failed write and counted the same way; there are no ids to log.
                self.metrics.audit_rows_failed(rows as u64);
                tracing::error!(
                    rows,
                    error = %format!("{err:#}"),
                    "audit row ids could not be reserved; the verdict's rows are not written"
                );
                return Err(err.into());
            }
        };
        let record = Reserved {
            ids: ids.clone(),
            recorded_at: now_rfc3339(),
            verdict: verdict.clone(),
            run: origin.clone(),
        };
        let (committed, outcome) = oneshot::channel();
        // Counted before it is sent, so that the writer never takes away more than was added.
        self.queued_rows.fetch_add(rows, Ordering::SeqCst);
        if self
            .queue
            .send(Pending { record, committed })
            .await
            .is_err()
        {
            self.queued_rows.fetch_sub(rows, Ordering::SeqCst);
            self.metrics.audit_rows_failed(rows as u64);
            return Err("the audit writer has stopped (the service is shutting down)".into());
        }
        match outcome.await {
            Ok(true) => {
                receipt::deliver(&ids);
                Ok(())
            }
            Ok(false) => Err("the audit rows could not be written (see the service's log)".into()),
            Err(_) => Err("the audit writer stopped before writing these rows".into()),
        }
    }

    async fn last_seen(&self, url: &str) -> Result<Option<LastSeen>, StoreError> {
        Ok(self.reader.last_seen(url).await?)
    }
}

/// The writing task: waits for a verdict, writes it with whatever else has queued up, until
/// stopped (then writes what is queued) or until every recorder is gone.
async fn write_until_stopped(
    mut incoming: mpsc::Receiver<Pending>,
    mut stop: oneshot::Receiver<()>,
    store: AuditStore,
    metrics: Arc<Metrics>,
    queued_rows: Arc<AtomicUsize>,
) {
    let mut stopping = false;
    loop {
        let first = tokio::select! {
            received = incoming.recv() => match received {
                Some(record) => record,
                None => break,
            },
            // A dropped writer handle stops the task the same way.
            _ = &mut stop, if !stopping => {
                stopping = true;
                // Requests still waiting to send get an error; what is queued is still received.
                incoming.close();
                continue;
            }
        };
        // What is queued now, not what arrives while taking it: a batch never holds more than
        // one verdict beyond the queue's capacity.
        let ready = incoming.len().min(MAX_BATCH - 1);
        let mut batch = vec![first];
        for _ in 0..ready {
            match incoming.try_recv() {
                Ok(record) => batch.push(record),
                Err(_) => break,
            }
        }
        let rows: usize = batch.iter().map(|p| p.record.ids.len()).sum();
        let (records, waiting): (Vec<Reserved>, Vec<oneshot::Sender<bool>>) =
            batch.into_iter().map(|p| (p.record, p.committed)).unzip();
        let outcomes = write_batch(&store, records).await;
        queued_rows.fetch_sub(rows, Ordering::SeqCst);
        // Counted before any request hears its outcome, so that a client who reads /metrics
        // after its answer sees its rows there.
        let (written, failed) = outcomes
            .iter()
            .fold((0, 0), |(written, failed), &(ok, count)| {
                if ok {
                    (written + count, failed)
                } else {
                    (written, failed + count)
                }
            });
        metrics.audit_rows_written(written as u64);
        metrics.audit_rows_failed(failed as u64);
        for (committed, (ok, _)) in waiting.into_iter().zip(outcomes) {
            // A request that gave up waiting (its client went away) needs no answer.
            let _ = committed.send(ok);
        }
    }
}

/// Writes `batch` in one transaction; if that fails, each verdict on its own, so that one bad
/// verdict costs only its own rows. Returns, per verdict in order, whether its rows were
/// committed and how many rows it has.
async fn write_batch(store: &AuditStore, batch: Vec<Reserved>) -> Vec<(bool, usize)> {
    let store = store.clone();
    let sizes: Vec<usize> = batch.iter().map(|r| r.ids.len()).collect();
    let rows: usize = sizes.iter().sum();
    let written = sizes.clone();
    let outcome = tokio::task::spawn_blocking(move || {
        if store.write_reserved(&batch).is_ok() {
            return written.into_iter().map(|n| (true, n)).collect();
        }
        let mut outcomes = Vec::with_capacity(batch.len());
        for record in batch {
            match store.write_reserved(std::slice::from_ref(&record)) {
                Ok(()) => outcomes.push((true, record.ids.len())),
                Err(err) => {
                    outcomes.push((false, record.ids.len()));
                    // The ids and the error only: the verdict holds the client's text.
                    tracing::error!(
                        ids = ?record.ids,
                        error = %format!("{err:#}"),
                        "audit rows could not be written"
                    );
                }
            }
        }
        outcomes
    })
    .await;
    outcome.unwrap_or_else(|err| {
        tracing::error!(error = %err, rows, "the audit writer's write panicked");
        sizes.into_iter().map(|n| (false, n)).collect()
    })
}

#[cfg(test)]
mod tests {
    use citecheck_core::{Label, Reason, UrlVerdict};

    use super::*;
    use crate::audit::AuditFilter;

    /// A verdict of `claim` with one dead link per id in `ids`.
    fn reserved(ids: Range<i64>, claim: &str) -> Reserved {
        let citations = ids
            .clone()
            .map(|id| {
                UrlVerdict::without_judge(
                    format!("https://a.example/{id}"),
                    Label::Unreachable,
                    Reason::Http(404),
                )
            })
            .collect();
        Reserved {
            ids: ids.collect(),
            recorded_at: now_rfc3339(),
            verdict: ClaimVerdict {
                claim: claim.into(),
                overall: Label::Unreachable,
                citations,
            },
            run: Origin::new("api"),
        }
    }

    /// Group commit must not make one verdict the index refuses cost the others in its
    /// transaction: the batch is written again verdict by verdict, and only the refused one's
    /// rows are missing.
    #[tokio::test]
    async fn a_verdict_the_index_refuses_costs_only_its_own_rows_in_a_batch() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = AuditStore::open(dir.path().join("audit.sqlite3")).expect("opens");
        // SQLite itself refuses the rows, as it would a constraint or a full disk.
        rusqlite::Connection::open(store.path())
            .expect("a second connection")
            .execute_batch(
                "CREATE TRIGGER refuse_poisoned BEFORE INSERT ON citations
                 WHEN NEW.claim = 'poisoned'
                 BEGIN SELECT RAISE(ABORT, 'refused by the test'); END;",
            )
            .expect("trigger installed");
        let ids = store.reserve_ids(6).expect("ids reserved");
        let start = ids.start;
        let batch = vec![
            reserved(start..start + 2, "first"),
            reserved(start + 2..start + 4, "poisoned"),
            reserved(start + 4..start + 6, "third"),
        ];

        let outcomes = write_batch(&store, batch).await;

        assert_eq!(outcomes, vec![(true, 2), (false, 2), (true, 2)]);
        let mut stored: Vec<i64> = store
            .query(AuditFilter::default())
            .await
            .expect("query")
            .iter()
            .map(|row| row.id)
            .collect();
        stored.sort_unstable();
        assert_eq!(stored, vec![start, start + 1, start + 4, start + 5]);
    }
}
