//! Builds the pipeline from resolved settings: the one place that knows which fetcher, ranker
//! and judge each setting means.

use std::sync::Arc;

use anyhow::Context;
use citecheck_core::fetch::crawlbase::{
    CrawlbaseConfig, CrawlbaseError, CrawlbaseFetcher, TOKEN_VAR,
};
use citecheck_core::fetch::DirectFetcher;
use citecheck_core::judge::{build_llm_judge, JudgeConfigError, LocalJudge};
use citecheck_core::rank::Bm25Ranker;
use citecheck_core::{Fetcher, Judge, Ranker, Verifier};

use crate::settings::{
    ConfigError, FetcherKind, JudgeProvider, MissingSecret, RankerKind, Settings,
};

/// The pipeline plus the handles a front end needs beside it.
pub struct Engine {
    pub verifier: Verifier,
    /// The Crawlbase fetcher, when it is the backend: its account problems (bad token, no
    /// credits) surface as `crawl_failed` verdicts, and front ends check `config_error()` to
    /// stop loudly instead.
    pub crawlbase: Option<Arc<CrawlbaseFetcher>>,
}

impl Engine {
    /// A Crawlbase account problem seen while working, as a configuration error.
    pub fn fetcher_config_error(&self) -> Option<anyhow::Error> {
        let err = self.crawlbase.as_ref()?.config_error()?;
        Some(ConfigError(err.to_string()).into())
    }
}

/// The verifier the settings describe.
pub fn build_verifier(settings: &Settings) -> anyhow::Result<Verifier> {
    build(settings).map(|engine| engine.verifier)
}

/// The engine the settings describe.
pub fn build(settings: &Settings) -> anyhow::Result<Engine> {
    // Cheap checks first: a missing key should be reported before a model is loaded.
    let judge: Arc<dyn Judge> = match (&settings.judge, &settings.llm) {
        (JudgeProvider::Llm(_), Some(config)) => build_llm_judge(config).map_err(judge_error)?,
        _ => Arc::new(LocalJudge::default()),
    };
    let mut crawlbase = None;
    let fetcher: Arc<dyn Fetcher> = match settings.fetcher {
        FetcherKind::Direct => Arc::new(
            DirectFetcher::new(settings.fetch.clone()).context("building the direct fetcher")?,
        ),
        FetcherKind::Crawlbase => {
            let env = &settings.crawlbase;
            let config = CrawlbaseConfig::from_values(
                env.token.as_deref(),
                env.js_token.as_deref(),
                env.api_url.as_deref(),
            )
            .map_err(crawlbase_error)?;
            let fetcher = Arc::new(CrawlbaseFetcher::new(config).map_err(crawlbase_error)?);
            crawlbase = Some(Arc::clone(&fetcher));
            fetcher
        }
    };
    let ranker: Arc<dyn Ranker> = match settings.ranker {
        RankerKind::Lexical => Arc::new(Bm25Ranker),
        // Loads (and on first use fetches) the model: blocking, once, before any request.
        RankerKind::Embedding => {
            announce_first_fetch(settings.model_dir.as_deref());
            Arc::new(
                citecheck_embed::EmbeddingRanker::open(&citecheck_embed::EmbeddingOptions {
                    model_dir: settings.model_dir.clone(),
                    ..citecheck_embed::EmbeddingOptions::from_env_with_threads(
                        settings.embed_threads,
                    )?
                })
                .context("loading the embedding ranker's model")?,
            )
        }
    };
    let verifier = Verifier::new(fetcher, ranker, judge, settings.verify.clone())
        .map_err(|err| anyhow::Error::from(ConfigError(err.to_string())))?;
    Ok(Engine {
        verifier,
        crawlbase,
    })
}

fn crawlbase_error(err: CrawlbaseError) -> anyhow::Error {
    match err {
        CrawlbaseError::MissingToken => MissingSecret {
            variable: TOKEN_VAR,
            message: err.to_string(),
        }
        .into(),
        other => ConfigError(other.to_string()).into(),
    }
}

/// A missing key is its own error (the server answers 503 naming it); any other judge problem
/// is a configuration error.
fn judge_error(err: JudgeConfigError) -> anyhow::Error {
    match err {
        JudgeConfigError::MissingKey { variable, .. } => MissingSecret {
            variable,
            message: err.to_string(),
        }
        .into(),
        other => ConfigError(other.to_string()).into(),
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
