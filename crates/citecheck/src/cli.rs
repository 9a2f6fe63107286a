//! The command line: the shared flags ([`GlobalArgs`], which feed the [`Config`]) and one
//! subcommand per command module, each of which owns its flags and its `run`. This module only
//! composes them; nothing imports it back.
//!
//! Every setting that has a flag also has an environment variable (shown in `--help`, values
//! hidden) and, where it makes sense, a key in the config file; precedence is defaults < config
//! file < environment < flags.

use clap::{Parser, Subcommand};

use crate::config::{Config, GlobalArgs};
use crate::error::{AppError, EXIT_CODES};
use crate::{
    answer_command, audit_command, batch, cache, demo, eval, model, queue, replay, report, server,
    verify,
};

/// Check whether the sources an LLM cited say what it claimed.
#[derive(Debug, Parser)]
#[command(name = "citecheck", version, about, long_about = None, after_help = EXIT_CODES)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check one claim against the URLs cited for it.
    Verify(verify::VerifyArgs),
    /// Verify a whole LLM answer (an API's JSON response or Markdown) citation by citation.
    Answer(answer_command::AnswerArgs),
    /// Serve a few bundled example pages on 127.0.0.1 and verify example claims against them.
    Demo(demo::DemoArgs),
    /// Measure the judge on a labelled development set (per-label precision/recall, accuracy).
    Eval(eval::EvalArgs),
    /// Run the verifier as an HTTP service (POST /verify, GET /health, /openapi.json, /metrics).
    Serve(server::ServeArgs),
    /// Score a JSONL file of claims: precision figures, CSV/JSONL/HTML reports, resumable.
    Batch(batch::BatchArgs),
    /// Take claims from a PostgreSQL queue (`batch --queue`), verify them, record the results.
    Worker(queue::worker::WorkerArgs),
    /// List and filter the audit index (one row per verified citation).
    Audit(audit_command::AuditArgs),
    /// Print a stored page as it was judged, optionally with a quote highlighted.
    Replay(replay::ReplayArgs),
    /// Write a self-contained HTML report from the audit index or a batch's results.
    Report(report::ReportArgs),
    /// The embedding model's files: `model fetch` obtains them, `model info` shows where they
    /// are and whether each matches its pinned SHA-256.
    Model(model::ModelArgs),
    /// The on-disk caches: `cache prune` brings the evidence store and the embedding cache
    /// within their size budgets.
    Cache(cache::CacheArgs),
}

impl Cli {
    /// Resolves the configuration once and runs the command; returns the exit code.
    pub async fn run(self) -> Result<u8, AppError> {
        let config = Config::load(&self.global)?;
        match &self.command {
            Command::Verify(args) => verify::run(args, &config).await,
            Command::Answer(args) => answer_command::run(args, &config).await,
            Command::Demo(args) => demo::command(args, &config).await,
            Command::Eval(args) => eval::command(args, &config).await,
            Command::Serve(args) => server::run(args, &config).await.map(|()| 0),
            Command::Batch(args) => match &args.action {
                Some(action) => queue::command::run(action, &config).await,
                // Only --queue / CITECHECK_QUEUE_URL sends a batch to the queue; `[queue] url`
                // in a shared config file does not (see `Config::require_queue_url`).
                None if args.queue.queue.is_some() => queue::enqueue::command(args, &config).await,
                None => batch::run(args, &config).await,
            },
            Command::Worker(args) => queue::worker::run(args, &config).await,
            Command::Audit(args) => audit_command::run(args, &config).await,
            Command::Replay(args) => replay::run(args, &config).await,
            Command::Report(args) => report::run(args, &config).await,
            Command::Model(args) => model::run(args, &config).await,
            Command::Cache(args) => cache::run(args, &config).await,
        }
    }
}
