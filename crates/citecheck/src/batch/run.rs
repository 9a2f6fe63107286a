//! The batch loop: streams the input, verifies up to `concurrency` claims at once through one
//! verifier that shares fetched pages across claims, writes each claim as it completes, and
//! stops cleanly on interruption keeping everything already finished. Verification itself
//! (dedupe, concurrency, aggregation, the audit row) is the verifier's: this loop only feeds it
//! and writes what it returns. File work runs on tokio's blocking pool.

use std::collections::HashMap;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context;
use citecheck_core::{Check, Origin, VerifierBuilder};
use futures::stream::{self, StreamExt};
use tokio::io::{AsyncBufReadExt, BufReader};

use super::input::{parse_line, BadLine, IdSet, InputRecord};
use super::output::{self, BatchResult, Mode, Outputs, Prior};
use super::progress::Progress;
use crate::config::ConfigError;
use crate::error::AppError;
use crate::results::Summary;

/// One batch run, fully resolved.
#[derive(Debug, Clone)]
pub struct BatchJob {
    pub input: PathBuf,
    /// The CSV report (`--out`).
    pub csv: Option<PathBuf>,
    /// The full verdicts (`--jsonl`).
    pub jsonl: Option<PathBuf>,
    /// The HTML report (`--html`), written at the end.
    pub html: Option<PathBuf>,
    pub resume: bool,
    pub retry_failed: bool,
    pub force: bool,
    /// Claims in flight.
    pub concurrency: usize,
    /// Fetches in flight per host.
    pub per_host: usize,
    /// Prepared pages kept in memory.
    pub cache_pages: usize,
    pub quiet: bool,
    /// Groups this run's audit rows.
    pub run_id: String,
}

/// Claims queued for `--retry-failed`: id -> offset of the old result in `--jsonl`. An entry
/// leaves only once its new result is written, so a claim in flight at Ctrl-C keeps its old line.
type RetryMap = Arc<Mutex<HashMap<String, u64>>>;

enum Item {
    Bad(BadLine),
    AlreadyDone,
    Verify(InputRecord),
    Retry(InputRecord, u64),
    ReadError(std::io::Error),
}

enum Outcome {
    Bad(BadLine),
    Skipped,
    Verified(BatchResult),
    Retried(BatchResult),
    Failed(anyhow::Error),
}

/// Runs `job` with the verifier `builder` describes (this adds the page cache shared across
/// claims) until the input ends or `interrupt` resolves. Returns the figures (with
/// `interrupted` set when stopped early).
pub async fn execute(
    job: &BatchJob,
    builder: VerifierBuilder,
    interrupt: impl Future<Output = ()>,
) -> Result<Summary, AppError> {
    if job.retry_failed && job.jsonl.is_none() {
        return Err(AppError::usage(
            "--retry-failed needs --jsonl: the full verdicts say which fetches failed",
        ));
    }
    if job.resume && job.csv.is_none() && job.jsonl.is_none() {
        return Err(AppError::usage(
            "--resume needs --out or --jsonl to resume from",
        ));
    }
    let verifier = Arc::new(
        builder
            .shared_pages(job.cache_pages, job.per_host)
            .build()
            .map_err(ConfigError::from)?,
    );
    let input = tokio::fs::File::open(&job.input)
        .await
        .with_context(|| format!("opening the batch input {}", job.input.display()))?;
    let spool = job.html.is_some() && job.jsonl.is_none();

    let (outputs, prior) = {
        let job = job.clone();
        blocking(move || open_outputs(&job, spool)).await??
    };
    let mut outputs = Some(outputs);
    let Prior {
        done,
        retry,
        summary: mut figures,
    } = prior;
    let total = {
        let path = job.input.clone();
        blocking(move || count_lines(&path)).await??
    };
    let mut progress = Progress::new(Some(total), job.quiet);
    if figures.claims_resumed > 0 {
        progress.message(&format!(
            "resuming: {} claims already in the output are skipped",
            figures.claims_resumed
        ));
    }
    let retry: RetryMap = Arc::new(Mutex::new(retry));

    let items = read_items(input, done, Arc::clone(&retry));
    let jsonl = job.jsonl.clone();
    let origin = Origin::new("batch").with_run_id(job.run_id.clone());
    let work = items
        .map(|item| {
            let verifier = Arc::clone(&verifier);
            let jsonl = jsonl.clone();
            let origin = origin.clone();
            async move {
                match item {
                    Item::Bad(bad) => Outcome::Bad(bad),
                    Item::AlreadyDone => Outcome::Skipped,
                    Item::ReadError(err) => {
                        Outcome::Failed(anyhow::Error::new(err).context("reading the batch input"))
                    }
                    Item::Verify(record) => {
                        let check = Check::new(record.claim, record.urls)
                            .origin(origin.with_claim_id(record.id.clone()));
                        Outcome::Verified(BatchResult {
                            id: record.id,
                            verdict: verifier.verify(check).await,
                        })
                    }
                    Item::Retry(record, offset) => {
                        let Some(path) = jsonl else {
                            return Outcome::Failed(anyhow::anyhow!("retry without --jsonl"));
                        };
                        let old = blocking(move || output::read_result_at(&path, offset)).await;
                        match old.and_then(|read| read) {
                            Ok((old, _)) => {
                                let check = Check::retrying(old.verdict)
                                    .origin(origin.with_claim_id(record.id.clone()));
                                Outcome::Retried(BatchResult {
                                    id: record.id,
                                    verdict: verifier.verify(check).await,
                                })
                            }
                            Err(err) => Outcome::Failed(err),
                        }
                    }
                }
            }
        })
        .buffer_unordered(job.concurrency.max(1));
    let mut work = Box::pin(work);

    let mut interrupt = std::pin::pin!(interrupt);
    let mut ticker = tokio::time::interval(Duration::from_secs(1));
    loop {
        let outcome = tokio::select! {
            biased;
            _ = &mut interrupt => {
                figures.interrupted = true;
                progress.message("interrupted: stopping; claims already finished are kept");
                break;
            }
            next = work.next() => match next {
                Some(outcome) => outcome,
                None => break,
            },
            _ = ticker.tick() => {
                progress.tick();
                continue;
            }
        };
        let outcome_kind = match &outcome {
            Outcome::Retried(_) => Kind::Retried,
            _ => Kind::Other,
        };
        match outcome {
            Outcome::Bad(bad) => {
                figures.bad_lines += 1;
                progress.skipped();
                progress.message(&format!("warning: {}: {bad}; skipped", job.input.display()));
            }
            Outcome::Skipped => progress.skipped(),
            Outcome::Failed(err) => return Err(err.into()),
            Outcome::Verified(result) | Outcome::Retried(result) => {
                // Retried claims were left out of the figures when the old output was read.
                let retried = matches!(outcome_kind, Kind::Retried);
                let result = {
                    let mut out = outputs.take().context("the outputs were lost")?;
                    let (out, result, written) = blocking(move || {
                        let written = out.write(&result);
                        (out, result, written)
                    })
                    .await?;
                    outputs = Some(out);
                    written?;
                    result
                };
                if retried {
                    // Its new line is out: the old one is no longer needed.
                    lock(&retry).remove(&result.id);
                }
                for c in &result.verdict.citations {
                    figures.add(c);
                }
                if retried {
                    figures.claims_retried += 1;
                } else {
                    figures.claims_verified += 1;
                }
                progress.claim_done(result.verdict.citations.len() as u64);
            }
        }
    }
    // Claims in flight when interrupted are dropped here: none was written; a retried one is
    // still in the retry map and keeps its old line below.
    drop(work);

    // Claims queued for retry but not rewritten (never reached, or in flight at Ctrl-C) keep
    // their old verdicts.
    let leftovers: Vec<(String, u64)> = {
        let mut left: Vec<(String, u64)> = lock(&retry).drain().collect();
        left.sort_by_key(|(_, offset)| *offset);
        left
    };
    let mut outputs = outputs.context("the outputs were lost")?;
    let jsonl = job.jsonl.clone();
    let html = job.html.clone();
    let (figures, spooled) = blocking(move || -> anyhow::Result<_> {
        if let Some(path) = &jsonl {
            for (_, offset) in leftovers {
                let (old, line) = output::read_result_at(path, offset)?;
                outputs.write_parts(&old, &line)?;
                figures.claims_resumed += 1;
                for c in &old.verdict.citations {
                    figures.add(c);
                }
            }
        }
        let spooled = outputs.finish()?;
        Ok((figures, spooled))
    })
    .await??;
    let mut figures = figures;
    let stats = verifier.page_stats().unwrap_or_default();
    figures.pages_fetched = stats.fetches;
    figures.cache_hits = stats.hits;
    progress.finish();
    if let Some(html) = html {
        // The full results when they are kept, else this run's spool (always made for --html).
        let source = job
            .jsonl
            .clone()
            .or_else(|| spooled.as_ref().map(|spool| spool.path().to_path_buf()))
            .context("no results to build the HTML report from")?;
        blocking(move || {
            crate::report::write_html_from_results(&source, &html)
                .with_context(|| format!("writing the HTML report {}", html.display()))
        })
        .await??;
        drop(spooled);
    }
    Ok(figures)
}

/// Runs blocking file work on tokio's blocking pool.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> anyhow::Result<T> {
    tokio::task::spawn_blocking(work)
        .await
        .context("a batch file task failed")
}

fn lock(map: &RetryMap) -> std::sync::MutexGuard<'_, HashMap<String, u64>> {
    map.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

enum Kind {
    Retried,
    Other,
}

fn open_outputs(job: &BatchJob, spool: bool) -> Result<(Outputs, Prior), AppError> {
    let csv = job.csv.as_deref();
    let jsonl = job.jsonl.as_deref();
    if job.retry_failed {
        let path = jsonl.unwrap_or(Path::new(""));
        if !path.exists() {
            return Err(AppError::usage(format!(
                "--retry-failed: {} does not exist (nothing to retry)",
                path.display()
            )));
        }
        let mut outputs = Outputs::open(csv, jsonl, Mode::Rewrite, spool)?;
        let prior =
            output::scan_jsonl(path, true, |result, line| outputs.write_parts(result, line))?;
        return Ok((outputs, prior));
    }
    if job.resume {
        let prior = match (jsonl, csv) {
            (Some(path), _) if path.exists() => output::scan_jsonl(path, false, |_, _| Ok(()))?,
            (_, Some(path)) => output::scan_csv(path)?,
            _ => Prior::default(),
        };
        return Ok((Outputs::open(csv, jsonl, Mode::Append, spool)?, prior));
    }
    let outputs = Outputs::open(csv, jsonl, Mode::Fresh { force: job.force }, spool)?;
    Ok((outputs, Prior::default()))
}

/// The input as a stream of items, read lazily: memory does not depend on its length.
fn read_items(
    file: tokio::fs::File,
    done: IdSet,
    retry: RetryMap,
) -> impl futures::Stream<Item = Item> {
    struct State {
        reader: BufReader<tokio::fs::File>,
        line: u64,
        buf: Vec<u8>,
        seen: IdSet,
        done: IdSet,
        retry: RetryMap,
        failed: bool,
    }
    let state = State {
        reader: BufReader::new(file),
        line: 0,
        buf: Vec::new(),
        seen: IdSet::default(),
        done,
        retry,
        failed: false,
    };
    stream::unfold(state, |mut st| async move {
        if st.failed {
            return None;
        }
        loop {
            st.buf.clear();
            match st.reader.read_until(b'\n', &mut st.buf).await {
                Ok(0) => return None,
                Ok(_) => {}
                Err(err) => {
                    st.failed = true;
                    return Some((Item::ReadError(err), st));
                }
            }
            st.line += 1;
            let item = match parse_line(st.line, &st.buf, &mut st.seen) {
                None => continue,
                Some(Err(bad)) => Item::Bad(bad),
                Some(Ok(record)) if st.done.contains(&record.id) => Item::AlreadyDone,
                Some(Ok(record)) => match lock(&st.retry).get(&record.id).copied() {
                    Some(offset) => Item::Retry(record, offset),
                    None => Item::Verify(record),
                },
            };
            return Some((item, st));
        }
    })
}

/// Non-blank lines in the input, for the progress total. Streams the file.
fn count_lines(path: &Path) -> anyhow::Result<u64> {
    use std::io::BufRead;
    let file = std::fs::File::open(path)
        .with_context(|| format!("opening the batch input {}", path.display()))?;
    let mut reader = std::io::BufReader::new(file);
    let mut buf = Vec::new();
    let mut count = 0;
    loop {
        buf.clear();
        if reader.read_until(b'\n', &mut buf)? == 0 {
            return Ok(count);
        }
        if !buf.iter().all(u8::is_ascii_whitespace) {
            count += 1;
        }
    }
}
