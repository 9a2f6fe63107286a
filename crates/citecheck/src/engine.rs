//! Builds the pipeline from resolved settings: the one place that knows which fetcher, ranker
//! and judge each setting means.

use std::sync::Arc;

use anyhow::Context;
use citecheck_core::fetch::DirectFetcher;
use citecheck_core::judge::LocalJudge;
use citecheck_core::rank::Bm25Ranker;
use citecheck_core::{Fetcher, Judge, Ranker, Verifier};

use crate::settings::{FetcherKind, JudgeProvider, RankerKind, Settings};

/// The verifier the settings describe.
pub fn build_verifier(settings: &Settings) -> anyhow::Result<Verifier> {
    let fetcher: Arc<dyn Fetcher> = match settings.fetcher {
        FetcherKind::Direct => Arc::new(
            DirectFetcher::new(settings.fetch.clone()).context("building the direct fetcher")?,
        ),
    };
    let ranker: Arc<dyn Ranker> = match settings.ranker {
        RankerKind::Lexical => Arc::new(Bm25Ranker),
    };
    let judge: Arc<dyn Judge> = match settings.judge {
        JudgeProvider::Local => Arc::new(LocalJudge::default()),
    };
    Verifier::new(fetcher, ranker, judge, settings.verify.clone())
        .map_err(|err| crate::settings::ConfigError(err.to_string()).into())
}
