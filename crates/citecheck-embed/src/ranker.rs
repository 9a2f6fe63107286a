//! The embedding ranker: passages ordered by cosine similarity to the claim, each passage scored
//! by its best token window, so that evidence in the tail of a long passage counts. The judge
//! still receives whole passages; windows exist only for scoring.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use citecheck_core::rank::{best_indices, PagePassages, RankError, Ranker};

use crate::cache::{self, PageCache, PageWindows, Source};
use crate::embedder::{cosine, Embedder, EmbedderOptions};
use crate::error::EmbedError;
use crate::fetch::{ensure_model, FetchOptions};
use crate::files;
use crate::kernels::Precision;
use crate::tokenize::WindowParams;

/// Tokens per forward pass when embedding a page's windows. The forward pass does not pad, so a
/// batch only makes the dense layers' matrices taller: measured on the 2-vCPU box, one 256-token
/// window per pass is fastest (the activations stay in cache) and 2048 tokens per pass is ~10%
/// slower; 512 keeps short windows from running as skinny matrices.
pub const DEFAULT_BATCH_TOKENS: usize = 512;

/// Everything needed to open the ranker; `Default` is the production setting.
#[derive(Debug, Clone)]
pub struct EmbeddingOptions {
    /// `--model-dir`; `None` means `$CITECHECK_MODEL_DIR`, else the per-user cache directory.
    pub model_dir: Option<PathBuf>,
    /// Where to obtain missing model files; `None` never downloads (missing files are an error).
    pub fetch: Option<FetchOptions>,
    pub embedder: EmbedderOptions,
    pub window: WindowParams,
    /// Tokens per forward pass ([`DEFAULT_BATCH_TOKENS`]).
    pub batch_tokens: usize,
    /// The on-disk embedding cache; `None` keeps the cache in memory only.
    pub cache_dir: Option<PathBuf>,
}

impl Default for EmbeddingOptions {
    fn default() -> Self {
        Self {
            model_dir: None,
            fetch: Some(FetchOptions::from_env()),
            embedder: EmbedderOptions::default(),
            window: WindowParams::default(),
            batch_tokens: DEFAULT_BATCH_TOKENS,
            cache_dir: cache::default_cache_dir(),
        }
    }
}

/// Counters for logs, `/health` and tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RankerStats {
    /// Pages whose windows were embedded by this process.
    pub pages_embedded: u64,
    /// Windows embedded by this process (claims excluded).
    pub windows_embedded: u64,
    /// Pages found in the on-disk cache.
    pub pages_from_disk: u64,
    /// Pages found in memory.
    pub pages_from_memory: u64,
}

pub struct EmbeddingRanker {
    embedder: Arc<Embedder>,
    window: WindowParams,
    batch_tokens: usize,
    cache: PageCache,
    pages_embedded: AtomicU64,
    windows_embedded: AtomicU64,
    pages_from_disk: AtomicU64,
    pages_from_memory: AtomicU64,
}

impl std::fmt::Debug for EmbeddingRanker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EmbeddingRanker")
            .field("embedder", &self.embedder)
            .field("window", &self.window)
            .field("cache_dir", &self.cache.dir())
            .finish_non_exhaustive()
    }
}

impl EmbeddingRanker {
    /// Finds the model (fetching it when missing and `options.fetch` allows), loads it and
    /// opens the cache. Blocking: call it off the async executor.
    pub fn open(options: &EmbeddingOptions) -> Result<Self, EmbedError> {
        let dir = files::resolve_model_dir(options.model_dir.as_deref())?;
        match &options.fetch {
            Some(fetch) => {
                let source = ensure_model(&dir, fetch)?;
                if source != crate::fetch::FetchSource::AlreadyPresent {
                    tracing::info!(dir = %dir.display(), %source, "embedding model fetched");
                }
            }
            None => {
                if !files::inspect(&dir).is_complete() {
                    return Err(EmbedError::ModelUnavailable {
                        dir,
                        reasons: "fetching is disabled".into(),
                    });
                }
            }
        }
        let embedder = Arc::new(Embedder::load(&dir, options.embedder)?);
        Ok(Self::new(
            embedder,
            options.window,
            options.batch_tokens,
            options.cache_dir.clone(),
        ))
    }

    /// A ranker over an already loaded model.
    pub fn new(
        embedder: Arc<Embedder>,
        window: WindowParams,
        batch_tokens: usize,
        cache_dir: Option<PathBuf>,
    ) -> Self {
        Self {
            embedder,
            window,
            batch_tokens: batch_tokens.max(1),
            cache: PageCache::new(cache_dir),
            pages_embedded: AtomicU64::new(0),
            windows_embedded: AtomicU64::new(0),
            pages_from_disk: AtomicU64::new(0),
            pages_from_memory: AtomicU64::new(0),
        }
    }

    pub fn embedder(&self) -> &Arc<Embedder> {
        &self.embedder
    }

    pub fn stats(&self) -> RankerStats {
        RankerStats {
            pages_embedded: self.pages_embedded.load(Ordering::Relaxed),
            windows_embedded: self.windows_embedded.load(Ordering::Relaxed),
            pages_from_disk: self.pages_from_disk.load(Ordering::Relaxed),
            pages_from_memory: self.pages_from_memory.load(Ordering::Relaxed),
        }
    }

    /// The window embeddings of every passage of `page`, computed at most once per content.
    pub fn page_windows(&self, page: &PagePassages) -> Result<Arc<PageWindows>, EmbedError> {
        let precision: Precision = self.embedder.precision();
        let key = cache::key(&page.content_sha256, &page.passages, precision, self.window);
        let (windows, source) = self.cache.get_or_compute(&key, || {
            let texts: Vec<&str> = page.passages.iter().map(String::as_str).collect();
            let windows = self
                .embedder
                .embed_windows(&texts, self.window, self.batch_tokens)?;
            let count: usize = windows.iter().map(Vec::len).sum();
            self.windows_embedded
                .fetch_add(count as u64, Ordering::Relaxed);
            self.pages_embedded.fetch_add(1, Ordering::Relaxed);
            Ok::<_, EmbedError>(windows)
        })?;
        match source {
            Source::Disk => self.pages_from_disk.fetch_add(1, Ordering::Relaxed),
            Source::Memory => self.pages_from_memory.fetch_add(1, Ordering::Relaxed),
            Source::Computed => 0,
        };
        Ok(windows)
    }

    /// Each passage's score: the best cosine between the claim and one of its windows
    /// (-1 for a passage with no text).
    pub fn scores(&self, claim: &str, page: &PagePassages) -> Result<Vec<f32>, EmbedError> {
        let windows = self.page_windows(page)?;
        let claim = self.embedder.embed(&[claim], 1)?.remove(0);
        Ok(windows
            .iter()
            .map(|ws| ws.iter().map(|w| cosine(&claim, w)).fold(-1.0f32, f32::max))
            .collect())
    }
}

impl Ranker for EmbeddingRanker {
    fn name(&self) -> &str {
        "embedding"
    }

    fn model_loaded(&self) -> Option<bool> {
        // The weights are read when the ranker opens; say whether they are held now.
        Some(self.embedder.weight_bytes() > 0)
    }

    fn top_k(&self, claim: &str, page: &PagePassages, k: usize) -> Result<Vec<usize>, RankError> {
        if k == 0 || page.passages.is_empty() {
            return Ok(Vec::new());
        }
        let scores = self.scores(claim, page).map_err(|e| match e {
            EmbedError::ModelUnavailable { .. } => RankError::ModelUnavailable(Box::new(e)),
            other => RankError::Failed(Box::new(other)),
        })?;
        Ok(best_indices(
            scores
                .into_iter()
                .enumerate()
                .map(|(i, s)| (f64::from(s), i))
                .collect(),
            k,
        ))
    }
}
