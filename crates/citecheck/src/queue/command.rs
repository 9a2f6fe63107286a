//! `citecheck batch status BATCH` and `citecheck batch export BATCH`: a queued batch's progress
//! and summary figures, and the same CSV / JSONL / HTML reports a local batch writes, read from
//! PostgreSQL.

use anyhow::Context;

use super::{ClaimCounts, Queue};
use crate::batch::output::{Mode, Outputs};
use crate::batch::remote::{BatchAction, ExportArgs, StatusArgs};
use crate::config::{Config, ConfigError, QueueArg};
use crate::error::AppError;
use crate::output::Format;
use crate::results::{BatchResult, Summary};

/// A batch's progress and figures, as `status` prints them.
#[derive(Debug, serde::Serialize)]
struct Status {
    batch: String,
    claims: ClaimCounts,
    summary: Summary,
}

pub async fn run(action: &BatchAction, config: &Config) -> Result<u8, AppError> {
    match action {
        BatchAction::Status(args) => status(args, config).await,
        BatchAction::Export(args) => export(args, config).await,
    }
}

async fn open(
    config: &Config,
    arg: &QueueArg,
    command: &str,
    batch: &str,
) -> Result<Queue, AppError> {
    let url = super::url_from(config, arg, command)?;
    let queue = Queue::open(&url).await.map_err(ConfigError::from)?;
    if !queue.has_batch(batch).await.context("reading the queue")? {
        return Err(AppError::usage(format!(
            "no batch `{batch}` in the queue at {}",
            url.target()
        )));
    }
    Ok(queue)
}

fn summarise(results: &[BatchResult]) -> Summary {
    let mut summary = Summary::default();
    for result in results {
        summary.claims_verified += 1;
        for c in &result.verdict.citations {
            summary.add(c);
        }
    }
    summary
}

async fn status(args: &StatusArgs, config: &Config) -> Result<u8, AppError> {
    let queue = open(config, &args.queue, "batch status", &args.batch).await?;
    let claims = queue
        .counts(Some(&args.batch))
        .await
        .context("reading the batch's progress")?;
    let results = queue
        .results(&args.batch)
        .await
        .context("reading the batch's results")?;
    let status = Status {
        batch: args.batch.clone(),
        claims,
        summary: summarise(&results),
    };
    match args.format {
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&status).map_err(anyhow::Error::from)?
        ),
        Format::Text => {
            let c = &status.claims;
            println!(
                "batch {}: {}/{} claims done, {} in progress, {} waiting, {} taken more than once",
                status.batch, c.done, c.total, c.in_progress, c.waiting, c.retaken
            );
            print!("{}", status.summary.render());
        }
    }
    Ok(0)
}

async fn export(args: &ExportArgs, config: &Config) -> Result<u8, AppError> {
    if args.out.is_none() && args.jsonl.is_none() && args.html.is_none() {
        return Err(AppError::usage(
            "batch export needs at least one of --out, --jsonl, --html",
        ));
    }
    let queue = open(config, &args.queue, "batch export", &args.batch).await?;
    let results = queue
        .results(&args.batch)
        .await
        .context("reading the batch's results")?;
    let (csv, jsonl, html, force) = (
        args.out.clone(),
        args.jsonl.clone(),
        args.html.clone(),
        args.force,
    );
    let count = results.len();
    tokio::task::spawn_blocking(move || -> Result<(), AppError> {
        let spool = html.is_some() && jsonl.is_none();
        let mut outputs = Outputs::open(
            csv.as_deref(),
            jsonl.as_deref(),
            Mode::Fresh { force },
            spool,
        )?;
        for result in &results {
            outputs.write(result)?;
        }
        let spooled = outputs.finish()?;
        if let Some(html) = &html {
            let source = jsonl
                .clone()
                .or_else(|| spooled.as_ref().map(|s| s.path().to_path_buf()))
                .context("no results to build the HTML report from")?;
            crate::report::write_html_from_results(&source, html)
                .with_context(|| format!("writing the HTML report {}", html.display()))?;
        }
        Ok(())
    })
    .await
    .context("the export task failed")??;
    eprintln!("batch {}: {count} claims exported", args.batch);
    Ok(0)
}
