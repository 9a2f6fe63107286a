//! A verifier for tests against sites on 127.0.0.1: the direct fetcher with the address guard
//! off, the BM25 ranker and the local judge, all with their defaults.

use std::path::PathBuf;
use std::sync::Arc;

use citecheck_core::fetch::resolve::GuardPolicy;
use citecheck_core::fetch::{DirectFetcher, FetchOptions};
use citecheck_core::judge::LocalJudge;
use citecheck_core::rank::Bm25Ranker;
use citecheck_core::Verifier;

pub fn local_verifier() -> Verifier {
    let options = FetchOptions {
        guard: GuardPolicy {
            enabled: false,
            ..GuardPolicy::default()
        },
        ..FetchOptions::default()
    };
    Verifier::builder(
        Arc::new(DirectFetcher::new(options).expect("the fetcher builds")),
        Arc::new(Bm25Ranker),
        Arc::new(LocalJudge::default()),
    )
    .build()
    .expect("the verifier builds")
}

/// `fixtures/<name>` at the workspace root.
pub fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures")
        .join(name)
}
