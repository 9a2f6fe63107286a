//! `citecheck batch`: score how reliably a model cites, over a JSONL file of claims.
//!
//! Every claim-URL pair is one citation. The run is streamed (input read lazily, results written
//! as each claim completes), bounded (`BATCH_CONCURRENCY` claims in flight, a per-host fetch
//! limit, a fixed-size page cache), resumable (`--resume`, `--retry-failed`) and interruptible
//! (Ctrl-C keeps every finished claim). See [`run::execute`] for the loop and
//! [`Summary`] for the figures it prints.

use std::path::PathBuf;
use std::time::SystemTime;

use anyhow::Context as _;
use citecheck_core::verifier::{DEFAULT_CACHE_PAGES, DEFAULT_PER_HOST};
use clap::Args;

use crate::audit::MissedRows;
use crate::config::{at_least_one, BatchSection, Config, QueueArg};
use crate::error::{AppError, EXIT_INTERRUPTED};
use crate::output::Format;
use crate::storage::Stores;

mod answers;
pub mod input;
pub mod output;
pub mod progress;
pub mod remote;
pub mod run;

pub use crate::results::Summary;
pub use run::{execute, BatchJob};

/// Claims verified at once by default (the reference design's `BATCH_CONCURRENCY`).
pub const DEFAULT_CONCURRENCY: usize = 4;

/// `citecheck batch INPUT.jsonl`
#[derive(Debug, Args)]
#[command(after_help = BATCH_HELP, args_conflicts_with_subcommands = true)]
pub struct BatchArgs {
    /// A queued batch's `status` or `export` (with --queue).
    #[command(subcommand)]
    pub action: Option<remote::BatchAction>,

    /// JSONL input: one {"id", "claim", "urls": [...]} per line.
    #[arg(value_name = "INPUT")]
    pub input: Option<PathBuf>,

    /// JSONL of whole LLM answers instead: one {"id", "answer", "input_format"?} per line (the
    /// answer as `citecheck answer` reads it, a provider's response object or a string). Each
    /// cited statement becomes one claim with the id `ID#START..END` (its span, in code points).
    #[arg(long, value_name = "FILE.jsonl", conflicts_with = "input")]
    pub answers: Option<PathBuf>,

    /// Enqueue the claims in a PostgreSQL queue for `citecheck worker` processes instead of
    /// verifying them here; prints the batch id. Idempotent on `id`.
    #[command(flatten)]
    pub queue: QueueArg,

    /// The queued batch's id (default: the input's file name without extension).
    #[arg(long, value_name = "BATCH", requires = "queue")]
    pub batch_id: Option<String>,

    /// The CSV report: one row per citation, written as claims complete.
    #[arg(long, value_name = "PATH", conflicts_with = "queue")]
    pub out: Option<PathBuf>,

    /// The full verdicts: one JSON object per claim ({"id", "claim", "overall", "citations"}).
    #[arg(long, value_name = "PATH", conflicts_with = "queue")]
    pub jsonl: Option<PathBuf>,

    /// Also write a self-contained HTML report at the end.
    #[arg(long, value_name = "PATH", conflicts_with = "queue")]
    pub html: Option<PathBuf>,

    /// Continue a previous run: skip ids already in --jsonl (or --out) and append to it.
    #[arg(long, conflicts_with_all = ["retry_failed", "force", "queue"])]
    pub resume: bool,

    /// Verify again only the citations whose fetch failed (timeouts, 5xx, 429, connection
    /// errors; not dead links) in --jsonl, and verify ids not yet there; rewrites the outputs.
    /// With --queue: queues again the batch's claims whose fetches failed.
    #[arg(long, conflicts_with = "force")]
    pub retry_failed: bool,

    /// Overwrite outputs that already hold results.
    #[arg(long)]
    pub force: bool,

    /// Claims verified at once.
    #[arg(long, env = "BATCH_CONCURRENCY", value_name = "N")]
    pub concurrency: Option<usize>,

    /// Fetches in flight per host (host and port), so no site is hammered.
    #[arg(long, env = "BATCH_PER_HOST", value_name = "N")]
    pub per_host: Option<usize>,

    /// Fetched pages kept in memory for claims that cite the same URL.
    #[arg(long, env = "BATCH_CACHE_PAGES", value_name = "N")]
    pub cache_pages: Option<usize>,

    /// How the closing summary is printed on stdout.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

const BATCH_HELP: &str = "\
Every claim-URL pair is one citation. The summary on stdout prints
  citation_precision=S/N    supported over every citation
  reachable_precision=S/R   supported over citations that were not unreachable
then counts per label and reason, dead links (404, 410, no such domain) apart from fetch
failures (timeouts, 5xx, 429, connection errors: the ones --retry-failed tries again).
Bad input lines are reported with their line numbers on stderr and skipped.

Exit codes (batch):
  0    the input was processed, whatever the labels
  130  interrupted (Ctrl-C): finished claims are kept; continue with --resume
  1    a fatal error (an output could not be written), or audit rows the index
       refused (the run goes on and its outputs are complete; the error says how many)
  3    a configuration or usage error";

impl BatchArgs {
    /// The run these flags describe, with the config file's `[batch]` filling the gaps.
    pub fn job(
        &self,
        input: PathBuf,
        file: &BatchSection,
        quiet: bool,
    ) -> Result<BatchJob, AppError> {
        if self.out.is_none() && self.jsonl.is_none() && self.html.is_none() {
            tracing::warn!("no --out, --jsonl or --html: only the summary will be kept");
        }
        Ok(BatchJob {
            input,
            csv: self.out.clone(),
            jsonl: self.jsonl.clone(),
            html: self.html.clone(),
            resume: self.resume,
            retry_failed: self.retry_failed,
            force: self.force,
            concurrency: at_least_one(
                "batch concurrency (BATCH_CONCURRENCY)",
                self.concurrency.or(file.concurrency),
                DEFAULT_CONCURRENCY,
            )?,
            per_host: at_least_one(
                "per-host limit (BATCH_PER_HOST)",
                self.per_host.or(file.per_host),
                DEFAULT_PER_HOST,
            )?,
            cache_pages: at_least_one(
                "page cache (BATCH_CACHE_PAGES)",
                self.cache_pages.or(file.cache_pages),
                DEFAULT_CACHE_PAGES,
            )?,
            quiet,
            run_id: new_run_id(),
        })
    }
}

/// The figures of the answers whose statements are in `results`, and their report at `html`.
async fn answers_report(
    answers: &std::path::Path,
    results: &std::path::Path,
    html: Option<&std::path::Path>,
) -> Result<crate::results::summary::AnswerFigures, AppError> {
    let (answers, results, html) = (
        answers.to_path_buf(),
        results.to_path_buf(),
        html.map(std::path::Path::to_path_buf),
    );
    let figures = tokio::task::spawn_blocking(move || -> anyhow::Result<_> {
        let (entries, figures) = answers::entries(&answers, &results, html.is_some())?;
        if let Some(html) = &html {
            crate::report::write_answers_report(&results, &entries, &figures, html)
                .with_context(|| format!("writing the HTML report {}", html.display()))?;
        }
        Ok(figures)
    })
    .await
    .map_err(anyhow::Error::from)??;
    Ok(figures)
}

/// A run id that sorts by start time: `batch-20250301T120000Z-4711`.
fn new_run_id() -> String {
    let stamp = crate::audit::format_time(SystemTime::now()).replace([':', '-'], "");
    format!("batch-{stamp}-{}", std::process::id())
}

/// `citecheck batch INPUT` run here (the command line sends `--queue` and `status|export` to
/// the queue): builds the pipeline and stores, runs, prints the summary on stdout.
/// Returns the exit code: 0 when the input was processed, [`EXIT_INTERRUPTED`] after Ctrl-C.
pub async fn run(args: &BatchArgs, config: &Config) -> Result<u8, AppError> {
    // Answers become claims (one per cited statement) in a file of their own, which the batch
    // then reads like any input; their ids are stable, so --resume works on them too.
    let claims_file = match &args.answers {
        Some(answers) => Some(answers::claims_file(answers)?),
        None => None,
    };
    let input = match (&claims_file, &args.input) {
        (Some(file), _) => file.path().to_path_buf(),
        (None, Some(input)) => input.clone(),
        (None, None) => {
            return Err(AppError::usage(
                "batch needs an INPUT file, --answers FILE, or `batch status|export BATCH`",
            ))
        }
    };
    let mut job = args.job(input, &config.batch, config.quiet)?;
    // With answers, the results are read back at the end to put each answer together again
    // (its figures and, for --html, the answers report written here rather than by the loop):
    // without --jsonl they go to a file of their own.
    let mut scratch = None;
    let answers_html = match &args.answers {
        Some(_) => job.html.take(),
        None => None,
    };
    if args.answers.is_some()
        && job.jsonl.is_none()
        && !job.retry_failed
        && !(job.resume && job.csv.is_none())
    {
        let dir = tempfile::tempdir().map_err(anyhow::Error::from)?;
        job.jsonl = Some(dir.path().join("results.jsonl"));
        scratch = Some(dir);
    }
    let engine = crate::engine::build_off_executor(&config.pipeline).await?;
    let stores = match config.store_paths() {
        Ok(paths) => Stores::open_off_executor(&paths).await,
        Err(err) => {
            tracing::warn!("nothing will be kept for the audit: {err}");
            Stores::none()
        }
    };
    let interrupt = async {
        if tokio::signal::ctrl_c().await.is_err() {
            // No signal handler: never interrupt.
            std::future::pending::<()>().await;
        }
    };
    let (builder, missed) = stores.attach_tallied(engine.builder);
    let executed = execute(&job, builder, interrupt).await;
    crate::engine::shutdown(engine.renderer.as_ref()).await;
    let mut summary = executed?;
    summary.crawl = engine.crawlbase.as_ref().map(|fetcher| fetcher.usage());
    if let (Some(answers), Some(results)) = (&args.answers, &job.jsonl) {
        summary.answers = Some(answers_report(answers, results, answers_html.as_deref()).await?);
    }
    drop(scratch);
    let rendered = match args.format {
        Format::Text => summary.render(),
        Format::Json => serde_json::to_string_pretty(&summary).map_err(anyhow::Error::from)? + "\n",
    };
    print!("{rendered}");
    if let (Some(html), false) = (answers_html.as_ref().or(job.html.as_ref()), config.quiet) {
        eprintln!("report written to {}", html.display());
    }
    // Everything finished is written; an account problem, or audit rows the index refused,
    // still fail the run loudly, so that a scripted run does not pass with either unnoticed.
    let audit_failure = missed_rows_error(&stores, &missed, &job.run_id);
    if let Some(err) = crate::engine::account_error(engine.crawlbase.as_ref()) {
        if let Some(audit) = &audit_failure {
            tracing::error!("{}", audit.report());
        }
        return Err(err);
    }
    if let Some(err) = audit_failure {
        if !summary.interrupted {
            return Err(err);
        }
        // Interrupted: the exit code says to resume; the missing rows are still said.
        tracing::error!("{}", err.report());
    }
    Ok(if summary.interrupted {
        EXIT_INTERRUPTED
    } else {
        0
    })
}

/// The error for the verdicts the audit index refused during run `run_id`, if any: how many,
/// where, the first cause, and that the output files are complete all the same.
fn missed_rows_error(stores: &Stores, missed: &MissedRows, run_id: &str) -> Option<AppError> {
    if missed.verdicts() == 0 {
        return None;
    }
    let (index, cause) = (stores.audit_location(), missed.cause());
    Some(
        anyhow::anyhow!(
            "the audit index {index} refused the rows of {claims} claim(s), {rows} citations in \
             all, of run {run_id} (first failure: {cause}); every result is in the batch's \
             outputs, but the index lacks those rows",
            claims = missed.verdicts(),
            rows = missed.rows(),
        )
        .into(),
    )
}
