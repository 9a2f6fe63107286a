//! The batch loop: streams the input, verifies up to `concurrency` claims at once through the
//! shared page cache, writes each claim as it completes, records it in the audit index, and
//! stops cleanly on interruption keeping everything already finished.

use std::collections::HashMap;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context;
use citecheck_core::aggregate;
use citecheck_core::{ClaimVerdict, UrlVerdict, Verifier};
use futures::stream::{self, StreamExt};
use tokio::io::{AsyncBufReadExt, BufReader};

use super::cache::PageCache;
use super::input::{parse_line, BadLine, IdSet, InputRecord};
use super::output::{self, BatchResult, Mode, Outputs, Prior};
use super::progress::Progress;
use super::summary::Summary;
use crate::audit::{AuditStore, RunInfo};
use crate::settings::ConfigError;

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

/// Runs `job` with `verifier` until the input ends or `interrupt` resolves. Returns the figures
/// (with `interrupted` set when stopped early).
pub async fn execute(
    job: &BatchJob,
    verifier: Arc<Verifier>,
    audit: Option<AuditStore>,
    interrupt: impl Future<Output = ()>,
) -> anyhow::Result<Summary> {
    if job.retry_failed && job.jsonl.is_none() {
        return Err(ConfigError(
            "--retry-failed needs --jsonl: the full verdicts say which fetches failed".into(),
        )
        .into());
    }
    if job.resume && job.csv.is_none() && job.jsonl.is_none() {
        return Err(ConfigError("--resume needs --out or --jsonl to resume from".into()).into());
    }
    let input = tokio::fs::File::open(&job.input)
        .await
        .with_context(|| format!("opening the batch input {}", job.input.display()))?;
    let spool = job.html.is_some() && job.jsonl.is_none();

    let (mut outputs, prior) = open_outputs(job, spool)?;
    let Prior {
        done,
        retry,
        summary: mut figures,
    } = prior;
    let total = count_lines(&job.input)?;
    let mut progress = Progress::new(Some(total), job.quiet);
    if figures.claims_resumed > 0 {
        progress.message(&format!(
            "resuming: {} claims already in the output are skipped",
            figures.claims_resumed
        ));
    }
    let retry = Arc::new(Mutex::new(retry));
    let cache = Arc::new(PageCache::new(
        Arc::clone(&verifier),
        job.cache_pages,
        job.per_host,
    ));

    let items = read_items(input, done, Arc::clone(&retry));
    let jsonl = job.jsonl.clone();
    let work = items
        .map(|item| {
            let cache = Arc::clone(&cache);
            let jsonl = jsonl.clone();
            async move {
                match item {
                    Item::Bad(bad) => Outcome::Bad(bad),
                    Item::AlreadyDone => Outcome::Skipped,
                    Item::ReadError(err) => {
                        Outcome::Failed(anyhow::Error::new(err).context("reading the batch input"))
                    }
                    Item::Verify(record) => {
                        let verdict = verify_claim(&cache, &record.claim, &record.urls).await;
                        Outcome::Verified(BatchResult {
                            id: record.id,
                            verdict,
                        })
                    }
                    Item::Retry(record, offset) => {
                        let Some(path) = jsonl else {
                            return Outcome::Failed(anyhow::anyhow!("retry without --jsonl"));
                        };
                        match output::read_result_at(&path, offset) {
                            Ok((old, _)) => Outcome::Retried(BatchResult {
                                id: record.id,
                                verdict: retry_claim(&cache, old.verdict).await,
                            }),
                            Err(err) => Outcome::Failed(err),
                        }
                    }
                }
            }
        })
        .buffer_unordered(job.concurrency.max(1));
    let mut work = Box::pin(work);

    let run = RunInfo::new("batch").with_run_id(job.run_id.clone());
    let mut audit_failed = false;
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
            Outcome::Failed(err) => return Err(err),
            Outcome::Verified(result) | Outcome::Retried(result) => {
                // Retried claims were left out of the figures when the old output was read.
                let retried = matches!(outcome_kind, Kind::Retried);
                outputs.write(&result)?;
                if let Some(store) = &audit {
                    let run = run.clone().with_claim_id(result.id.clone());
                    if let Err(err) = store.record(&result.verdict, &run).await {
                        if !audit_failed {
                            progress.message(&format!(
                                "warning: audit rows are not being kept: {err:#}"
                            ));
                        }
                        audit_failed = true;
                    }
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
    // Claims in flight when interrupted are dropped here: none was written, none is lost.
    drop(work);

    // Claims queued for retry but not reached keep their old verdicts.
    let leftovers: Vec<(String, u64)> = {
        let mut map = retry.lock().unwrap_or_else(|p| p.into_inner());
        let mut left: Vec<(String, u64)> = map.drain().collect();
        left.sort_by_key(|(_, offset)| *offset);
        left
    };
    if let Some(path) = &job.jsonl {
        for (_, offset) in leftovers {
            let (old, line) = output::read_result_at(path, offset)?;
            outputs.write_parts(&old, &line)?;
            figures.claims_resumed += 1;
            for c in &old.verdict.citations {
                figures.add(c);
            }
        }
    }

    let stats = cache.stats();
    figures.pages_fetched = stats.fetches;
    figures.cache_hits = stats.hits;
    progress.finish();
    let spooled = outputs.finish()?;
    if let Some(html) = &job.html {
        // The full results when they are kept, else this run's spool (always made for --html).
        let source = job
            .jsonl
            .clone()
            .or_else(|| spooled.as_ref().map(|spool| spool.path().to_path_buf()))
            .context("no results to build the HTML report from")?;
        crate::report::write_html_from_results(&source, html)
            .with_context(|| format!("writing the HTML report {}", html.display()))?;
    }
    Ok(figures)
}

enum Kind {
    Retried,
    Other,
}

fn open_outputs(job: &BatchJob, spool: bool) -> anyhow::Result<(Outputs, Prior)> {
    let csv = job.csv.as_deref();
    let jsonl = job.jsonl.as_deref();
    if job.retry_failed {
        let path = jsonl.unwrap_or(Path::new(""));
        if !path.exists() {
            return Err(ConfigError(format!(
                "--retry-failed: {} does not exist (nothing to retry)",
                path.display()
            ))
            .into());
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
    retry: Arc<Mutex<HashMap<String, u64>>>,
) -> impl futures::Stream<Item = Item> {
    struct State {
        reader: BufReader<tokio::fs::File>,
        line: u64,
        buf: Vec<u8>,
        seen: IdSet,
        done: IdSet,
        retry: Arc<Mutex<HashMap<String, u64>>>,
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
                Some(Ok(record)) => {
                    let mut retry = st.retry.lock().unwrap_or_else(|p| p.into_inner());
                    match retry.remove(&record.id) {
                        Some(offset) => Item::Retry(record, offset),
                        None => Item::Verify(record),
                    }
                }
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

/// Verifies one claim through the shared cache: one verdict per URL, in citation order.
pub async fn verify_claim(cache: &PageCache, claim: &str, urls: &[String]) -> ClaimVerdict {
    let verifier = cache.verifier();
    let mut distinct: Vec<&str> = Vec::new();
    for url in urls {
        if !distinct.contains(&url.as_str()) {
            distinct.push(url);
        }
    }
    let verdicts: HashMap<&str, UrlVerdict> = stream::iter(distinct)
        .map(|url| async move {
            let fetched = cache.get(url).await;
            (url, verifier.judge_fetched(claim, url, &fetched).await)
        })
        .buffer_unordered(verifier.options().fetch_concurrency.max(1))
        .collect()
        .await;
    let citations: Vec<UrlVerdict> = urls
        .iter()
        .filter_map(|url| verdicts.get(url.as_str()).cloned())
        .collect();
    ClaimVerdict {
        claim: claim.to_string(),
        overall: aggregate::claim_label(citations.iter().map(|c| c.label)),
        citations,
    }
}

/// Re-verifies only the citations of `old` whose fetch failed; the others keep their verdicts.
pub async fn retry_claim(cache: &PageCache, old: ClaimVerdict) -> ClaimVerdict {
    let verifier = cache.verifier();
    let claim = old.claim.clone();
    let citations: Vec<UrlVerdict> = stream::iter(old.citations)
        .map(|c| {
            let claim = claim.as_str();
            async move {
                if c.reason.as_ref().is_some_and(|r| r.is_fetch_failure()) {
                    let fetched = cache.get(&c.url).await;
                    verifier.judge_fetched(claim, &c.url, &fetched).await
                } else {
                    c
                }
            }
        })
        .buffered(verifier.options().fetch_concurrency.max(1))
        .collect()
        .await;
    ClaimVerdict {
        overall: aggregate::claim_label(citations.iter().map(|c| c.label)),
        claim,
        citations,
    }
}
