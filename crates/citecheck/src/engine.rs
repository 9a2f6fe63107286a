//! Builds the pipeline from resolved settings: the one place that knows which fetcher, ranker
//! and judge each setting means. It hands back a [`VerifierBuilder`], so each front end attaches
//! what it needs (stores, a shared page cache, metrics) before building; nothing is rebuilt from
//! a running verifier's parts.

use std::sync::Arc;

use anyhow::Context;
use citecheck_core::archive::ArchiveClient;
use citecheck_core::fetch::crawlbase::{CrawlbaseConfig, CrawlbaseFetcher};
use citecheck_core::fetch::{DirectFetcher, Escalation, FetchOptions, RenderFetcher};
use citecheck_core::judge::{build_llm_judge, LocalJudge};
use citecheck_core::rank::Bm25Ranker;
use citecheck_core::verifier::ArchiveCheck;
use citecheck_core::{Fetcher, Judge, Ranker, Verifier, VerifierBuilder};

use citecheck_render::{find_chromium, ChromiumOptions, ChromiumRenderer};

use crate::config::{
    ConfigError, FetcherKind, JudgeProvider, JudgeReading, RankerKind, RenderSettings, Settings,
};
use crate::error::AppError;

/// The pipeline, not yet built, plus the handles a front end needs beside it.
pub struct Engine {
    pub builder: VerifierBuilder,
    /// The Crawlbase fetcher, when it is the backend: its account problems (bad token, no
    /// credits) surface as `crawl_failed` verdicts, and front ends call
    /// [`account_error`] after a run to stop loudly instead.
    pub crawlbase: Option<Arc<CrawlbaseFetcher>>,
    /// The local renderer, when `--render chromium` is on (its browser starts on first use).
    pub renderer: Option<Arc<ChromiumRenderer>>,
}

/// A Crawlbase account problem seen while working, as a configuration error.
pub fn account_error(crawlbase: Option<&Arc<CrawlbaseFetcher>>) -> Option<AppError> {
    crawlbase?.config_error().map(AppError::from)
}

/// Stops what the engine started that outlives a run: the renderer's browser, killed and its
/// profile directory removed. Front ends call it when a run or the server ends; a renderer only
/// dropped is cleaned up in the background, which the exiting process may cut short.
pub async fn shutdown(renderer: Option<&Arc<ChromiumRenderer>>) {
    if let Some(renderer) = renderer {
        renderer.shutdown().await;
    }
}

/// The verifier the settings describe, keeping nothing (demo, eval, tests).
pub fn build_verifier(settings: &Settings) -> Result<Verifier, AppError> {
    Ok(build(settings)?
        .builder
        .build()
        .map_err(ConfigError::from)?)
}

/// The engine the settings describe. Blocking: the embedding ranker loads (and on first use
/// fetches) its model here; call from `spawn_blocking` inside an async context.
pub fn build(settings: &Settings) -> Result<Engine, AppError> {
    // Cheap checks first: a missing key should be reported before a model is loaded.
    let llm_judge: Option<Arc<dyn Judge>> = match (&settings.judge, &settings.llm) {
        (JudgeProvider::Llm(_), Some(config)) => Some(build_llm_judge(config)?),
        _ => None,
    };
    // The escalation order (README, "JavaScript pages"): the direct fetch, then the local
    // renderer if enabled, then Crawlbase if configured. Without the renderer Crawlbase stays
    // the whole backend, as it always was.
    let renderer = match &settings.render {
        Some(render) => Some(build_renderer(render, &settings.fetch)?),
        None => None,
    };
    let mut crawlbase = None;
    let vendor: Option<Arc<dyn Fetcher>> = match settings.fetcher {
        FetcherKind::Direct => None,
        FetcherKind::Crawlbase => {
            let env = &settings.crawlbase;
            let config = CrawlbaseConfig::from_values(
                env.token.as_deref(),
                env.js_token.as_deref(),
                env.api_url.as_deref(),
            )?;
            let fetcher = Arc::new(CrawlbaseFetcher::new(config)?);
            crawlbase = Some(Arc::clone(&fetcher));
            Some(fetcher)
        }
    };
    let fetcher: Arc<dyn Fetcher> = match (&renderer, vendor) {
        (None, Some(vendor)) => vendor,
        (renderer, vendor) => {
            let direct: Arc<dyn Fetcher> = Arc::new(
                DirectFetcher::new(settings.fetch.clone())
                    .context("building the direct fetcher")?,
            );
            let mut chain = Escalation::new(direct);
            if let Some(renderer) = renderer {
                let stage = RenderFetcher::new(Arc::clone(renderer) as _)
                    .conversion_budget(settings.fetch.conversion_budget);
                chain = chain.then(Arc::new(stage));
            }
            if let Some(vendor) = vendor {
                chain = chain.then(vendor);
            }
            Arc::new(chain)
        }
    };
    // The local judge reads sentences for meaning with the embedding model when it is loaded
    // for ranking anyway (unless told to read words only); with the lexical ranker it reads
    // words only.
    let read_meaning = settings.judge_reading == JudgeReading::Meaning;
    let mut local = LocalJudge::default();
    let ranker: Arc<dyn Ranker> = match settings.ranker {
        RankerKind::Lexical => Arc::new(Bm25Ranker),
        RankerKind::Embedding => {
            announce_first_fetch(settings.model_dir.as_deref());
            let options = citecheck_embed::EmbeddingOptions {
                model_dir: settings.model_dir.clone(),
                ..citecheck_embed::EmbeddingOptions::from_env_with_threads(settings.embed_threads)
                    .context("reading the embedding settings from the environment")?
            };
            if let Some(dir) = &options.cache_dir {
                keep_cache_within_budget(dir, settings.embedding_cache_max_bytes);
            }
            let mut ranker = citecheck_embed::EmbeddingRanker::open(&options)
                .context("loading the embedding ranker's model")?;
            if llm_judge.is_none() && read_meaning {
                let sentences = Arc::new(citecheck_embed::sentences::SentenceEmbedder::new(
                    Arc::clone(ranker.embedder()),
                ));
                // The ranker embeds every claim; through the judge's encoder, that one pass
                // also leaves the claim's token rows where the local judge reads them.
                ranker = ranker.with_sentences(Arc::clone(&sentences));
                local = local.with_encoder(sentences);
            }
            Arc::new(ranker)
        }
    };
    let judge = llm_judge.unwrap_or_else(|| Arc::new(local));
    let mut builder = Verifier::builder(fetcher, ranker, judge).options(settings.verify.clone());
    if let Some(archive) = &settings.archive {
        let client = ArchiveClient::new(archive.options.clone())
            .map_err(|err| ConfigError::Invalid(err.to_string()))?;
        builder = builder.archive(ArchiveCheck {
            client: Arc::new(client),
            judge_archived: archive.judge_archived,
        });
    }
    Ok(Engine {
        builder,
        crawlbase,
        renderer,
    })
}

/// The Chromium renderer: the executable is looked for now (a missing one is a configuration
/// error naming `--chromium` and `CITECHECK_CHROMIUM`), the browser started on first use. Its
/// requests pass the same address policy as the direct fetcher's.
fn build_renderer(
    render: &RenderSettings,
    fetch: &FetchOptions,
) -> Result<Arc<ChromiumRenderer>, ConfigError> {
    let path = std::env::var_os("PATH");
    let executable = find_chromium(render.chromium.as_deref(), path.as_deref())
        .map_err(|err| ConfigError::Render(err.into()))?;
    let options = ChromiumOptions {
        deadline: render.deadline,
        concurrency: render.concurrency,
        guard: fetch.guard.clone(),
        ..ChromiumOptions::new(executable)
    };
    Ok(Arc::new(
        ChromiumRenderer::new(options).map_err(ConfigError::Render)?,
    ))
}

/// [`build`] on tokio's blocking pool: loading (or downloading) a model must not stall the
/// executor.
pub async fn build_off_executor(settings: &Settings) -> Result<Engine, AppError> {
    let settings = settings.clone();
    tokio::task::spawn_blocking(move || build(&settings))
        .await
        .context("the engine's build task failed")?
}

/// The file names of cached page embeddings.
pub const EMBEDDING_SUFFIX: &str = ".emb";

/// Deletes the embedding cache's oldest entries when it is over its budget (at most hourly).
fn keep_cache_within_budget(dir: &std::path::Path, max_bytes: u64) {
    match crate::prune::prune_if_due(dir, EMBEDDING_SUFFIX, max_bytes, crate::prune::PRUNE_EVERY) {
        Ok(Some(pruned)) if pruned.files_removed > 0 => {
            tracing::info!("embedding cache over its budget: {pruned}");
        }
        Ok(_) => {}
        Err(err) => tracing::warn!("could not prune the embedding cache: {err}"),
    }
}

/// A first run downloads the model; say so rather than sit silent for the length of it.
fn announce_first_fetch(model_dir: Option<&std::path::Path>) {
    if let Ok(dir) = citecheck_embed::files::resolve_model_dir(model_dir) {
        if !citecheck_embed::files::inspect(&dir).is_complete() {
            tracing::warn!(
                "the embedding model is not in {} yet: fetching it once (about 87 MB); \
                 `--ranker lexical` needs no model",
                dir.display()
            );
        }
    }
}
