//! The service's audit writer: takes verdicts from requests and writes them to the audit index
//! off the requests' latency path.
//!
//! A request reserves its rows' ids (from a block the index hands out, so only one request in
//! [`ID_BLOCK`] rows waits for SQLite), queues the verdict on a bounded channel and answers with
//! the ids; a single task writes what has queued up, many verdicts per transaction.
//!
//! Guarantees: a verdict whose ids were handed out is written exactly once unless its write
//! fails or shutdown's grace period ends first, and either is logged and counted
//! (`citecheck_audit_rows_failed`). A full queue makes requests wait (backpressure); nothing is
//! dropped to make room. [`AuditWriter::finish`] stops accepting and writes what is queued.
//! The price of answering first: a process killed outright (SIGKILL, a crash) loses the rows
//! still queued, at most [`QUEUE_CAPACITY`] verdicts and the batch being written.

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

/// Verdicts that may wait to be written before requests wait for room.
pub const QUEUE_CAPACITY: usize = 1024;

/// Ids reserved from the index at a time.
pub const ID_BLOCK: usize = 1024;

/// Verdicts written in one transaction at most.
const MAX_BATCH: usize = 256;

/// The recorder requests use: reserves ids, queues the verdict, delivers the ids.
#[derive(Clone)]
pub struct QueuedRecorder {
    queue: mpsc::Sender<Reserved>,
    ids: Arc<Mutex<Range<i64>>>,
    store: AuditStore,
    reader: AuditStore,
    queued_rows: Arc<AtomicUsize>,
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
        let ids = self.reserve(rows).await?;
        let record = Reserved {
            ids: ids.clone(),
            recorded_at: now_rfc3339(),
            verdict: verdict.clone(),
            run: origin.clone(),
        };
        // Counted before it is sent, so that the writer never takes away more than was added.
        self.queued_rows.fetch_add(rows, Ordering::SeqCst);
        if self.queue.send(record).await.is_err() {
            self.queued_rows.fetch_sub(rows, Ordering::SeqCst);
            return Err("the audit writer has stopped (the service is shutting down)".into());
        }
        receipt::deliver(&ids);
        Ok(())
    }

    async fn last_seen(&self, url: &str) -> Result<Option<LastSeen>, StoreError> {
        Ok(self.reader.last_seen(url).await?)
    }
}

/// The writing task: waits for a verdict, writes it with whatever else has queued up, until
/// stopped (then writes what is queued) or until every recorder is gone.
async fn write_until_stopped(
    mut incoming: mpsc::Receiver<Reserved>,
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
        let rows: usize = batch.iter().map(|r| r.ids.len()).sum();
        let (written, failed) = write_batch(&store, batch).await;
        queued_rows.fetch_sub(rows, Ordering::SeqCst);
        metrics.audit_rows_written(written as u64);
        metrics.audit_rows_failed(failed as u64);
    }
}

/// Writes `batch` in one transaction; if that fails, each verdict on its own, so that one bad
/// verdict costs only its own rows. Returns the rows written and failed.
async fn write_batch(store: &AuditStore, batch: Vec<Reserved>) -> (usize, usize) {
    let store = store.clone();
    let rows: usize = batch.iter().map(|r| r.ids.len()).sum();
    let outcome = tokio::task::spawn_blocking(move || {
        if store.write_reserved(&batch).is_ok() {
            return (rows, 0);
        }
        let (mut written, mut failed) = (0, 0);
        for record in batch {
            match store.write_reserved(std::slice::from_ref(&record)) {
                Ok(()) => written += record.ids.len(),
                Err(err) => {
                    failed += record.ids.len();
                    // The ids and the error only: the verdict holds the client's text.
                    tracing::error!(
                        ids = ?record.ids,
                        error = %format!("{err:#}"),
                        "audit rows could not be written"
                    );
                }
            }
        }
        (written, failed)
    })
    .await;
    outcome.unwrap_or_else(|err| {
        tracing::error!(error = %err, rows, "the audit writer's write panicked");
        (0, rows)
    })
}
