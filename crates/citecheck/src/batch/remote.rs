//! The arguments of `citecheck batch status|export BATCH` (a batch queued in PostgreSQL with
//! `--queue`). Only their shape lives here; the commands run in `queue::command`, dispatched by
//! the command line, so that the local batch and the queue do not import each other.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::config::QueueArg;
use crate::output::Format;

/// What to do with a batch in the queue.
#[derive(Debug, Subcommand)]
pub enum BatchAction {
    /// Progress of a queued batch and its summary figures so far.
    Status(StatusArgs),
    /// Write a queued batch's reports (the same files as a local batch).
    Export(ExportArgs),
}

#[derive(Debug, Args)]
pub struct StatusArgs {
    #[arg(value_name = "BATCH")]
    pub batch: String,
    #[command(flatten)]
    pub queue: QueueArg,
    /// How the status is printed on stdout.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    #[arg(value_name = "BATCH")]
    pub batch: String,
    #[command(flatten)]
    pub queue: QueueArg,
    /// The CSV report: one row per citation.
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// The full verdicts: one JSON object per claim.
    #[arg(long, value_name = "PATH")]
    pub jsonl: Option<PathBuf>,
    /// A self-contained HTML report.
    #[arg(long, value_name = "PATH")]
    pub html: Option<PathBuf>,
    /// Overwrite outputs that already hold results.
    #[arg(long)]
    pub force: bool,
}
