//! `citecheck cache prune`: brings the evidence store and the embedding cache within their size
//! budgets now (commands also do it on their own, at most hourly), and says what it removed.

use clap::{Args, Subcommand};

use crate::config::Config;
use crate::engine::EMBEDDING_SUFFIX;
use crate::error::AppError;
use crate::output::print_stdout;
use crate::prune;
use crate::storage::EVIDENCE_SUFFIX;

/// `citecheck cache`
#[derive(Debug, Args)]
pub struct CacheArgs {
    #[command(subcommand)]
    pub action: CacheAction,
}

#[derive(Debug, Clone, Copy, Subcommand)]
pub enum CacheAction {
    /// Delete the oldest entries of the evidence store (--evidence-max-mb) and the embedding
    /// cache (--embedding-cache-max-mb) until each fits its budget.
    Prune,
}

pub async fn run(args: &CacheArgs, config: &Config) -> Result<u8, AppError> {
    let CacheAction::Prune = args.action;
    let paths = config.store_paths()?;
    let embedding_dir = citecheck_embed::cache::default_cache_dir();
    let embedding_max = config.pipeline.embedding_cache_max_bytes;
    let report = tokio::task::spawn_blocking(move || -> anyhow::Result<String> {
        let mut lines = Vec::new();
        let pruned = prune::prune(
            &paths.evidence_dir,
            EVIDENCE_SUFFIX,
            paths.evidence_max_bytes,
        )?;
        lines.push(format!(
            "evidence store {}: {pruned}",
            paths.evidence_dir.display()
        ));
        if let Some(dir) = embedding_dir {
            let pruned = prune::prune(&dir, EMBEDDING_SUFFIX, embedding_max)?;
            lines.push(format!("embedding cache {}: {pruned}", dir.display()));
        }
        Ok(lines.join("\n"))
    })
    .await
    .map_err(anyhow::Error::from)??;
    print_stdout(&report)?;
    Ok(0)
}
