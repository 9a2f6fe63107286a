//! `citecheck report` and `batch --html`: one self-contained HTML file (no external assets) that
//! people read: precision figures, the label distribution and a per-domain breakdown as inline
//! SVG charts, the contradicted citations first (the reference design's advice: read those
//! first), then the rest, filterable in the page.
//!
//! The source (a batch's `--jsonl` results, or the audit index: SQLite, or with `--queue` the
//! PostgreSQL one, through the same [`AuditIndex`]) is read in several passes, one
//! per section, instead of being held in memory: a report of a large batch costs the size of the
//! file, not of the batch.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use anyhow::Context;
use citecheck_core::{ArchiveInfo, Label, Reason};
use clap::Args;

use crate::audit::{parse_time_bound, AuditFilter, AuditIndex};
use crate::config::{Config, ConfigError, QueueArg};
use crate::error::AppError;
use crate::results::summary::AnswerFigures;
use crate::results::{BatchResult, Summary};

mod answer;
mod charts;
mod html;

pub use answer::AnswerEntry;

/// One citation as the report shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportRow {
    pub claim_id: Option<String>,
    pub claim: String,
    pub url: String,
    pub final_url: Option<String>,
    pub label: Label,
    pub reason: Option<String>,
    pub evidence_quote: Option<String>,
    pub confidence: f64,
    pub rid: Option<String>,
    /// The link to the quote on the page.
    pub evidence_url: Option<String>,
    /// What the web archive said about a dead link.
    pub archive: Option<ArchiveInfo>,
}

impl ReportRow {
    /// The host the citation points at, without `www.`.
    pub fn domain(&self) -> String {
        domain_of(&self.url)
    }
}

pub fn domain_of(url: &str) -> String {
    url::Url::parse(url)
        .ok()
        .and_then(|u| {
            u.host_str()
                .map(|h| h.trim_start_matches("www.").to_string())
        })
        .unwrap_or_else(|| "(invalid url)".to_string())
}

/// Where the rows come from.
pub enum Source {
    /// A batch's `--jsonl` output.
    Results(PathBuf),
    /// An audit index (SQLite or PostgreSQL), filtered.
    Audit(Box<dyn AuditIndex>, Box<AuditFilter>),
}

impl Source {
    /// A short description for the report's header.
    pub fn describe(&self) -> String {
        match self {
            Source::Results(path) => format!("results {}", path.display()),
            Source::Audit(store, filter) => {
                let mut text = store.describe();
                if let Some(run) = &filter.run_id {
                    text.push_str(&format!(", run {run}"));
                }
                text
            }
        }
    }

    /// Calls `each` for every row with one of `labels` (all rows when empty).
    pub fn scan(
        &self,
        labels: &[Label],
        mut each: impl FnMut(ReportRow) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        let wanted = |label: Label| labels.is_empty() || labels.contains(&label);
        match self {
            Source::Results(path) => {
                let file = std::fs::File::open(path)
                    .with_context(|| format!("opening {}", path.display()))?;
                for (number, line) in BufReader::new(file).lines().enumerate() {
                    let line = line.with_context(|| format!("reading {}", path.display()))?;
                    if line.trim().is_empty() {
                        continue;
                    }
                    let result: BatchResult = match serde_json::from_str(&line) {
                        Ok(result) => result,
                        Err(err) => {
                            // Warned about once, by `check_results_file`; the report
                            // scans the file several times.
                            tracing::debug!("{}:{}: skipped: {err}", path.display(), number + 1);
                            continue;
                        }
                    };
                    for c in result.verdict.citations {
                        if !wanted(c.label) {
                            continue;
                        }
                        each(ReportRow {
                            claim_id: Some(result.id.clone()),
                            claim: result.verdict.claim.clone(),
                            url: c.url,
                            final_url: c.final_url,
                            label: c.label,
                            reason: c.reason.map(|r| r.as_string()),
                            evidence_quote: c.evidence_quote,
                            confidence: c.confidence,
                            rid: c.rid,
                            evidence_url: c.follow_up.evidence_url,
                            archive: c.follow_up.archive,
                        })?;
                    }
                }
                Ok(())
            }
            Source::Audit(store, filter) => {
                let mut filter = AuditFilter::clone(filter);
                filter.labels = labels.iter().map(|l| l.as_str().to_string()).collect();
                filter.oldest_first = true;
                store.scan_rows(&filter, &mut |row| {
                    let Ok(label) = row.label.parse::<Label>() else {
                        return Ok(());
                    };
                    each(ReportRow {
                        claim_id: row.claim_id,
                        claim: row.claim,
                        url: row.url,
                        final_url: row.final_url,
                        label,
                        reason: row.reason,
                        evidence_quote: row.evidence_quote,
                        confidence: row.confidence,
                        rid: Some(row.rid).filter(|r| !r.is_empty()),
                        evidence_url: row.evidence_url,
                        archive: row
                            .archive
                            .as_deref()
                            .and_then(|json| serde_json::from_str(json).ok()),
                    })
                })
            }
        }
    }
}

/// Citations per label for one domain.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DomainCounts {
    pub by_label: [u64; 4],
}

impl DomainCounts {
    pub fn total(&self) -> u64 {
        self.by_label.iter().sum()
    }
}

pub fn label_index(label: Label) -> usize {
    Label::ALL.iter().position(|l| *l == label).unwrap_or(0)
}

/// The figures of the first pass.
#[derive(Debug, Default)]
pub struct Totals {
    pub summary: Summary,
    pub domains: BTreeMap<String, DomainCounts>,
}

pub fn totals(source: &Source) -> anyhow::Result<Totals> {
    let mut totals = Totals::default();
    source.scan(&[], |row| {
        let reason = row.reason.as_deref().and_then(Reason::parse);
        totals.summary.add_parts(row.label, reason.as_ref());
        if let Some(archive) = &row.archive {
            totals.summary.add_archive(archive.status);
        }
        totals.domains.entry(row.domain()).or_default().by_label[label_index(row.label)] += 1;
        Ok(())
    })?;
    Ok(totals)
}

/// Writes the report for `source` to `out`.
pub fn write_html(source: &Source, title: &str, out: &mut dyn Write) -> anyhow::Result<()> {
    let totals = totals(source)?;
    html::write(source, &totals, &[], title, out)
}

/// Writes `path` atomically (a temporary file renamed into place) with what `write` puts out.
fn write_file(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let tmp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("creating a file in {}", dir.display()))?;
    let mut writer = BufWriter::new(tmp);
    write(&mut writer)?;
    let tmp = writer.into_inner().map_err(|err| err.into_error())?;
    crate::evidence::make_shareable(tmp.as_file())?;
    tmp.persist(path)
        .map_err(|err| err.error)
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

/// Writes the report of `source` to `path` atomically.
pub fn write_html_file(source: &Source, title: &str, path: &Path) -> anyhow::Result<()> {
    write_file(path, |out| write_html(source, title, out))
}

/// The report of a batch's results file (used by `batch --html`).
pub fn write_html_from_results(results: &Path, html: &Path) -> anyhow::Result<()> {
    write_html_file(
        &Source::Results(results.to_path_buf()),
        "citecheck batch report",
        html,
    )
}

/// The report of a batch of whole answers (`batch --answers --html`): the results' report
/// plus the per-answer figures and every answer marked up.
pub fn write_answers_report(
    results: &Path,
    answers: &[AnswerEntry],
    figures: &AnswerFigures,
    html: &Path,
) -> anyhow::Result<()> {
    let source = Source::Results(results.to_path_buf());
    let mut totals = totals(&source)?;
    totals.summary.answers = Some(figures.clone());
    write_file(html, |out| {
        html::write(&source, &totals, answers, "citecheck answers report", out)
    })
}

/// The page of answers alone (`citecheck answer --html`); `-` writes to stdout.
pub fn write_answer_page(answers: &[AnswerEntry], title: &str, path: &Path) -> anyhow::Result<()> {
    if path.as_os_str() == "-" {
        let stdout = std::io::stdout();
        let mut lock = BufWriter::new(stdout.lock());
        html::write_answers(answers, title, &mut lock)?;
        lock.flush().context("writing to stdout")?;
        return Ok(());
    }
    write_file(path, |out| html::write_answers(answers, title, out))
}

/// Reads a `--results` file once before the report is built: a usage error when it is missing,
/// not a file, or has no batch result in it (with a pointer to `--jsonl` when it looks like a
/// batch's input); otherwise one warning per unreadable line.
fn check_results_file(path: &Path) -> Result<(), AppError> {
    let unreadable = |err: std::io::Error| {
        AppError::usage(format!(
            "cannot read the results file {}: {err}",
            path.display()
        ))
    };
    if path.is_dir() {
        return Err(AppError::usage(format!(
            "the results file {} is a directory; give a batch's --jsonl output",
            path.display()
        )));
    }
    let file = std::fs::File::open(path).map_err(unreadable)?;
    let (mut usable, mut bad, mut looks_like_input) = (0u64, Vec::new(), false);
    for (number, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(unreadable)?;
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<BatchResult>(&line) {
            Ok(_) => usable += 1,
            Err(err) => {
                let value = serde_json::from_str::<serde_json::Value>(&line).ok();
                looks_like_input |=
                    value.is_some_and(|v| v.get("urls").is_some() && v.get("citations").is_none());
                bad.push(format!("line {}: {err}", number + 1));
            }
        }
    }
    if usable == 0 {
        let why = if looks_like_input {
            "it looks like a batch input file (claims with urls); --results takes the --jsonl \
             output of `citecheck batch INPUT --jsonl RESULTS`"
                .to_string()
        } else if let Some(first) = bad.first() {
            format!("no line is a batch result ({first})")
        } else {
            "it is empty".to_string()
        };
        return Err(AppError::usage(format!(
            "{} holds no batch results: {why}",
            path.display()
        )));
    }
    for line in bad {
        tracing::warn!("{}: {line}; skipped", path.display());
    }
    Ok(())
}

/// `citecheck report`
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Where to write the HTML file (`-` for stdout).
    #[arg(long, short = 'o', value_name = "PATH")]
    pub out: PathBuf,

    /// Read a batch's --jsonl results instead of the audit index.
    #[arg(long, value_name = "PATH")]
    pub results: Option<PathBuf>,

    /// From the audit index: only the rows of this batch run (with --queue: this batch).
    #[arg(long, value_name = "RUN_ID", conflicts_with = "results")]
    pub run: Option<String>,

    /// From the audit index: only rows recorded at or after this time (2025-03-01, RFC 3339, or an age like 7d).
    #[arg(long, value_name = "TIME", conflicts_with = "results")]
    pub since: Option<String>,

    /// From the audit index: only rows recorded before this time.
    #[arg(long, value_name = "TIME", conflicts_with = "results")]
    pub until: Option<String>,

    /// The report's title.
    #[arg(long, default_value = "citecheck report")]
    pub title: String,

    /// Read the PostgreSQL audit index `citecheck worker` writes instead of the SQLite one.
    #[command(flatten)]
    pub queue: QueueArg,
}

/// `citecheck report`, from the command line.
pub async fn run(args: &ReportArgs, config: &Config) -> Result<u8, AppError> {
    let source = match &args.results {
        // A results file needs no audit index, nor a home directory to find one.
        Some(path) => {
            check_results_file(path)?;
            Source::Results(path.clone())
        }
        None => {
            let filter = audit_filter(args)?;
            let index = crate::audit_index::open(config, &args.queue).await?;
            Source::Audit(index, Box::new(filter))
        }
    };
    let (title, out) = (args.title.clone(), args.out.clone());
    tokio::task::spawn_blocking(move || write_to(&source, &title, &out))
        .await
        .context("the report task failed")??;
    if !config.quiet && args.out.as_os_str() != "-" {
        eprintln!("report written to {}", args.out.display());
    }
    Ok(0)
}

/// The rows `--run`, `--since` and `--until` select from an audit index.
fn audit_filter(args: &ReportArgs) -> Result<AuditFilter, ConfigError> {
    let now = SystemTime::now();
    let bound = |t: &Option<String>| -> Result<Option<String>, ConfigError> {
        t.as_deref().map(|t| parse_time_bound(t, now)).transpose()
    };
    Ok(AuditFilter {
        run_id: args.run.clone(),
        since: bound(&args.since)?,
        until: bound(&args.until)?,
        ..AuditFilter::default()
    })
}

/// Writes the report of `source` to `out` (`-`: stdout). Blocking.
pub fn write_to(source: &Source, title: &str, out: &Path) -> anyhow::Result<()> {
    if out.as_os_str() == "-" {
        let stdout = std::io::stdout();
        let mut lock = BufWriter::new(stdout.lock());
        write_html(source, title, &mut lock)?;
        lock.flush().context("writing to stdout")?;
    } else {
        write_html_file(source, title, out)?;
    }
    Ok(())
}
