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

/// The demo site (`crates/citecheck/demo`) on 127.0.0.1, on a runtime of its own that serves it
/// for as long as this lives, so that tests running the binary synchronously can cite it.
pub struct DemoSite {
    site: citecheck::static_site::StaticSite,
    runtime: tokio::runtime::Runtime,
}

impl DemoSite {
    pub fn start() -> DemoSite {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("runtime");
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("demo");
        let site = runtime
            .block_on(citecheck::static_site::StaticSite::serve(&root))
            .expect("site");
        DemoSite { site, runtime }
    }

    /// The address of `path` (`/articles/...`) on the site.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.site.base_url())
    }

    /// `http://127.0.0.1:PORT`, without a trailing slash.
    pub fn base_url(&self) -> String {
        self.site.base_url()
    }

    /// The runtime serving the site, for tests that serve more beside it (a mock archive).
    pub fn runtime(&self) -> &tokio::runtime::Runtime {
        &self.runtime
    }
}

/// The built binary with the lexical ranker (no model needed), nothing written to the audit
/// index, and no judge or provider key, nor the address guard's switch, inherited from the
/// environment.
pub fn offline_citecheck() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("citecheck").expect("binary built");
    cmd.env("CITECHECK_NO_AUDIT", "1")
        .env("CITECHECK_RANKER", "lexical")
        .env_remove("JUDGE_PROVIDER")
        .env_remove("OPENAI_API_KEY")
        .env_remove("CITECHECK_ALLOW_PRIVATE_HOSTS");
    cmd
}

/// Runs `cmd`, asserts its exit code, and parses its stdout as JSON.
pub fn json_output(cmd: &mut assert_cmd::Command, code: i32) -> serde_json::Value {
    let output = cmd.assert().code(code).get_output().stdout.clone();
    serde_json::from_slice(&output).expect("stdout is JSON")
}
