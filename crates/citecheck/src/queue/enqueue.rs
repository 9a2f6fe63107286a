//! `citecheck batch IN.jsonl --queue URL`: reads the input (the same lines as a local batch,
//! bad ones reported and skipped), adds its claims to a batch in PostgreSQL, idempotently on
//! `id`, and prints the batch id on stdout.

use std::path::Path;

use anyhow::Context;

use super::{Queue, QueueUrl};
use crate::batch::input::{parse_line, IdSet, InputRecord};
use crate::batch::BatchArgs;
use crate::config::Config;
use crate::error::AppError;

/// Claims sent per transaction.
const CHUNK: usize = 1000;

/// `citecheck batch INPUT --queue URL`.
pub async fn command(args: &BatchArgs, config: &Config) -> Result<u8, AppError> {
    let url = super::url_from(config, &args.queue, "batch --queue")?;
    let input = args
        .input
        .as_deref()
        .ok_or_else(|| AppError::usage("batch --queue needs an INPUT file"))?;
    let batch_id = match &args.batch_id {
        Some(id) if !id.trim().is_empty() => id.clone(),
        Some(_) => return Err(AppError::usage("--batch-id must not be empty")),
        None => default_batch_id(input)?,
    };
    run(&url, input, &batch_id, args.retry_failed).await
}

/// The batch id used when none is given: the input's file name without its extension.
pub fn default_batch_id(input: &Path) -> Result<String, AppError> {
    input
        .file_stem()
        .and_then(|stem| stem.to_str())
        .filter(|stem| !stem.is_empty())
        .map(str::to_string)
        .ok_or_else(|| AppError::usage("cannot name a batch after this input: pass --batch-id"))
}

/// Enqueues `input` as batch `batch_id`; with `retry_failed`, also queues again the batch's done
/// claims whose fetches failed. Returns the exit code.
pub async fn run(
    url: &QueueUrl,
    input: &Path,
    batch_id: &str,
    retry_failed: bool,
) -> Result<u8, AppError> {
    let queue = Queue::open(url)
        .await
        .map_err(crate::config::ConfigError::from)?;
    let text = tokio::fs::read(input)
        .await
        .with_context(|| format!("reading the batch input {}", input.display()))?;
    let mut seen = IdSet::default();
    let mut records: Vec<InputRecord> = Vec::new();
    let mut bad = 0u64;
    for (index, line) in text.split(|b| *b == b'\n').enumerate() {
        match parse_line(index as u64 + 1, line, &mut seen) {
            None => {}
            Some(Ok(record)) => records.push(record),
            Some(Err(problem)) => {
                bad += 1;
                eprintln!("warning: {}: {problem}; skipped", input.display());
            }
        }
    }
    let source = input.display().to_string();
    let mut added = 0;
    let mut already = 0;
    for chunk in records.chunks(CHUNK) {
        let outcome = queue
            .enqueue(batch_id, &source, chunk)
            .await
            .context("enqueuing claims")?;
        added += outcome.added;
        already += outcome.already_queued;
    }
    if records.is_empty() {
        // An empty input still names a batch, so status and export work on it.
        queue
            .enqueue(batch_id, &source, &[])
            .await
            .context("creating the batch")?;
    }
    let requeued = if retry_failed {
        queue
            .requeue_failed(batch_id)
            .await
            .context("queueing failed fetches again")?
    } else {
        0
    };
    eprintln!(
        "batch {batch_id} on {}: {added} claims added, {already} already queued, \
         {requeued} queued again for failed fetches, {bad} bad lines skipped",
        url.target()
    );
    println!("{batch_id}");
    Ok(0)
}
