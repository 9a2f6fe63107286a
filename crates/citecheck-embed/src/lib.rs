//! citecheck-embed: the sentence-transformers model all-MiniLM-L6-v2 inside citecheck, with no
//! Python and no service: the files it needs and how they are obtained and checked ([`files`],
//! [`fetch`]), a BERT forward pass on the fastest kernels the CPU has, chosen at run time
//! ([`Backend`]: AVX-512 BF16, AVX-512, AVX2 + FMA, portable via `matrixmultiply`) on threads
//! that fit the machine ([`threads`]) ([`Embedder`]), and the embedding ranker
//! ([`EmbeddingRanker`]) that scores each passage by its best token window and caches a page's
//! window embeddings by content hash across runs.
//!
//! Nothing downloads when this crate is loaded or an [`Embedder`] is built: fetching happens only
//! through [`fetch::ensure_model`] / [`fetch::fetch_model`] (which [`EmbeddingRanker::open`]
//! calls when asked to).
//!
//! ```no_run
//! # fn demo() -> Result<(), citecheck_embed::EmbedError> {
//! use citecheck_embed::{files, Embedder, EmbedderOptions, cosine};
//!
//! let dir = files::resolve_model_dir(None)?;
//! citecheck_embed::fetch::ensure_model(&dir, &citecheck_embed::fetch::FetchOptions::from_env())?;
//! let model = Embedder::load(&dir, EmbedderOptions::default())?;
//! let v = model.embed(&["Water boils at 100 °C.", "At sea level water boils at 100 degrees."], 8)?;
//! println!("{}", cosine(&v[0], &v[1]));
//! # Ok(()) }
//! ```

pub mod cache;
mod embedder;
mod error;
pub mod fetch;
pub mod files;
mod kernels;
mod model;
mod ranker;
pub mod sentences;
pub mod threads;
pub mod tokenize;

/// For the benchmark binaries only.
#[doc(hidden)]
pub mod bench_support;

pub use embedder::{cosine, Embedder, EmbedderOptions, Embedding, Runtime};
pub use error::EmbedError;
pub use kernels::{Backend, Precision, BACKEND_ENV};
pub use model::HIDDEN as DIMENSIONS;
pub use ranker::{
    EmbeddingOptions, EmbeddingRanker, Fusion, RankerStats, DEFAULT_BATCH_TOKENS, DEFAULT_FUSION,
    DEFAULT_SHORTLIST, FUSION_ENV, SHORTLIST_ENV,
};
pub use threads::{ThreadSource, THREADS_ENV};
pub use tokenize::WindowParams;
