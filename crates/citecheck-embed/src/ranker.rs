//! The embedding ranker, in two stages so that a page's cost is bounded: BM25 over every passage
//! shortlists the [`EmbeddingOptions::shortlist`] best, the model embeds only those (each passage
//! scored by its best token window, so that evidence in the tail of a long passage counts), and
//! the two orders are fused ([`Fusion`]). Passages left off the shortlist follow in BM25 order.
//! The judge still receives whole passages; windows exist only for scoring.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use citecheck_core::rank::{best_indices, bm25, PagePassages, RankError, Ranker};

use crate::cache::{self, PageCache, PageWindows, Source};
use crate::embedder::{cosine, Embedder, EmbedderOptions, Embedding};
use crate::error::EmbedError;
use crate::fetch::{ensure_model, FetchOptions};
use crate::files;
use crate::sentences::SentenceEmbedder;
use crate::tokenize::WindowParams;

/// Tokens per forward pass when embedding a page's windows. The forward pass does not pad, so a
/// batch only makes the dense layers' matrices taller: measured on the 2-vCPU box, one 256-token
/// window per pass is fastest (the activations stay in cache) and 2048 tokens per pass is ~10%
/// slower; 512 keeps short windows from running as skinny matrices.
pub const DEFAULT_BATCH_TOKENS: usize = 512;

/// Passages of a page that the model embeds (the BM25 best). A page with no more passages than
/// this is embedded whole (every page of the ranking fixtures). Set by cost, BENCHMARKS.md: 24
/// took 1.3 CPU seconds for the 23,000-word page on AVX2, 12 took 0.8. With the fused order,
/// `rank-bench` finds 6, 12 and every passage within one quoted citation of each other on the
/// development set (738, 737, 737 of 752).
pub const DEFAULT_SHORTLIST: usize = 12;

/// Overrides [`DEFAULT_SHORTLIST`] (`0`: embed every passage).
pub const SHORTLIST_ENV: &str = "CITECHECK_EMBED_SHORTLIST";

/// Overrides the default [`Fusion`] (`embedding`, `rrf` or `rrf:K`).
pub const FUSION_ENV: &str = "CITECHECK_EMBED_FUSION";

/// How the shortlist's embedding order and BM25 order become one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fusion {
    /// The embedding order alone (BM25 only chose the shortlist).
    Embedding,
    /// Reciprocal-rank fusion: each passage scores `1/(k + rank)` in each order (ranks from 1),
    /// summed.
    Rrf { k: u32 },
}

/// The fusion the development set favoured: its quoted citations keep their deciding quote in
/// the top three 737 times of 752 with it, 702 with the embedding order alone, 739 with BM25
/// alone (`rank-bench`, BENCHMARKS.md); fused, the embeddings still lift a paraphrase BM25
/// misses (`tests/ranking.rs`).
pub const DEFAULT_FUSION: Fusion = Fusion::Rrf { k: 60 };

impl Fusion {
    /// `embedding`, `rrf` (k = 60) or `rrf:K`.
    pub fn parse(value: &str) -> Result<Self, EmbedError> {
        let value = value.trim();
        let bad = || EmbedError::InvalidSetting {
            name: FUSION_ENV,
            value: value.to_string(),
            expected: "embedding, rrf or rrf:K (K a whole number)",
        };
        match value {
            "embedding" => Ok(Self::Embedding),
            "rrf" => Ok(Self::Rrf { k: 60 }),
            other => other
                .strip_prefix("rrf:")
                .and_then(|k| k.parse().ok())
                .map(|k| Self::Rrf { k })
                .ok_or_else(bad),
        }
    }
}

impl std::fmt::Display for Fusion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Embedding => f.write_str("embedding"),
            Self::Rrf { k } => write!(f, "rrf:{k}"),
        }
    }
}

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
    /// Passages per page the model embeds ([`DEFAULT_SHORTLIST`]; 0: all).
    pub shortlist: usize,
    pub fusion: Fusion,
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
            shortlist: DEFAULT_SHORTLIST,
            fusion: DEFAULT_FUSION,
        }
    }
}

impl EmbeddingOptions {
    /// [`EmbeddingOptions::from_env`], then `threads` (a command-line flag) when given.
    pub fn from_env_with_threads(threads: Option<usize>) -> Result<Self, EmbedError> {
        let mut options = Self::from_env()?;
        options.embedder = options.embedder.with_threads(threads)?;
        Ok(options)
    }

    /// The defaults with the environment applied: `CITECHECK_EMBED_BACKEND`,
    /// `CITECHECK_EMBED_THREADS`, `CITECHECK_EMBED_SHORTLIST`, `CITECHECK_EMBED_FUSION` (a bad
    /// value is an error naming the variable or value).
    pub fn from_env() -> Result<Self, EmbedError> {
        let mut options = Self {
            embedder: EmbedderOptions::from_env()?,
            ..Self::default()
        };
        if let Some(v) = non_empty_env(SHORTLIST_ENV) {
            options.shortlist = v.trim().parse().map_err(|_| EmbedError::InvalidSetting {
                name: SHORTLIST_ENV,
                value: v.clone(),
                expected: "a whole number of passages (0: all)",
            })?;
        }
        if let Some(v) = non_empty_env(FUSION_ENV) {
            options.fusion = Fusion::parse(&v)?;
        }
        Ok(options)
    }
}

fn non_empty_env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
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
    /// Claims embedded by this process (a claim already in the cache costs nothing).
    pub claims_embedded: u64,
}

pub struct EmbeddingRanker {
    embedder: Arc<Embedder>,
    window: WindowParams,
    batch_tokens: usize,
    shortlist: usize,
    fusion: Fusion,
    cache: PageCache,
    /// Claim vectors, beside the pages' windows in the same directory: a claim cited with
    /// several URLs, or checked again in a later run, is embedded once. (Measured: in a re-run
    /// of the Python baseline's 300-citation batch with every page cached, embedding the claims
    /// again was a third of citecheck's CPU time.)
    claims: PageCache,
    /// The local judge's sentence encoder, when it shares this ranker's model: a claim is then
    /// embedded through it, so that the one forward pass also leaves the claim's last-layer
    /// rows where the judge reads them (see [`EmbeddingRanker::with_sentences`]).
    sentences: Option<Arc<SentenceEmbedder>>,
    pages_embedded: AtomicU64,
    windows_embedded: AtomicU64,
    pages_from_disk: AtomicU64,
    pages_from_memory: AtomicU64,
    claims_embedded: AtomicU64,
}

/// Claim vectors kept in memory (1.5 KiB each).
const MEMORY_CLAIMS: usize = 4096;

impl std::fmt::Debug for EmbeddingRanker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EmbeddingRanker")
            .field("embedder", &self.embedder)
            .field("window", &self.window)
            .field("shortlist", &self.shortlist)
            .field("fusion", &self.fusion)
            .field("cache_dir", &self.cache.dir())
            .finish_non_exhaustive()
    }
}

impl EmbeddingRanker {
    /// Finds the model (fetching it when missing and `options.fetch` allows), loads it and
    /// opens the cache. Blocking: call it off the async executor.
    ///
    /// Loading verifies every file against its pin, so the directory is inspected (which hashes
    /// every file again, 90 MB of weights) only when a load fails: hashing the weights twice
    /// was a tenth of the CPU time of a first verification of a 23,000-word page, and a third
    /// of a cached one (BENCHMARKS.md).
    pub fn open(options: &EmbeddingOptions) -> Result<Self, EmbedError> {
        let dir = files::resolve_model_dir(options.model_dir.as_deref())?;
        let embedder = match Embedder::load(&dir, options.embedder) {
            Ok(embedder) => embedder,
            Err(err) if files::inspect(&dir).is_complete() => return Err(err),
            Err(_) => {
                let Some(fetch) = &options.fetch else {
                    return Err(EmbedError::ModelUnavailable {
                        dir,
                        reasons: "fetching is disabled".into(),
                    });
                };
                let source = ensure_model(&dir, fetch)?;
                if source != crate::fetch::FetchSource::AlreadyPresent {
                    tracing::info!(dir = %dir.display(), %source, "embedding model fetched");
                }
                Embedder::load(&dir, options.embedder)?
            }
        };
        Ok(Self::with_options(Arc::new(embedder), options))
    }

    /// A ranker over an already loaded model, with `options`' window, batch size, cache and
    /// stages (their model directory and fetching are for [`EmbeddingRanker::open`]).
    pub fn with_options(embedder: Arc<Embedder>, options: &EmbeddingOptions) -> Self {
        Self::new(
            embedder,
            options.window,
            options.batch_tokens,
            options.cache_dir.clone(),
        )
        .with_stages(options.shortlist, options.fusion)
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
            shortlist: DEFAULT_SHORTLIST,
            fusion: DEFAULT_FUSION,
            cache: PageCache::new(cache_dir.clone(), cache::MEMORY_PAGES),
            claims: PageCache::new(cache_dir, MEMORY_CLAIMS),
            sentences: None,
            pages_embedded: AtomicU64::new(0),
            windows_embedded: AtomicU64::new(0),
            pages_from_disk: AtomicU64::new(0),
            pages_from_memory: AtomicU64::new(0),
            claims_embedded: AtomicU64::new(0),
        }
    }

    /// This ranker with another shortlist size (0: embed every passage) and fusion.
    pub fn with_stages(mut self, shortlist: usize, fusion: Fusion) -> Self {
        self.shortlist = shortlist;
        self.fusion = fusion;
        self
    }

    /// This ranker embedding each new claim through `sentences`, the local judge's encoder, so
    /// that the judge finds the claim's token rows in its cache instead of running the claim
    /// through the model a second time (whenever the judge reads meaning, the claim is one of
    /// its two texts: on the development set 0.41 of the 0.84 texts a citation). The vector is
    /// the same, bit for bit. An encoder over another model or arithmetic is not used: its vectors
    /// would not match the pages'.
    pub fn with_sentences(mut self, sentences: Arc<SentenceEmbedder>) -> Self {
        if sentences.embedder().backend().numerics() == self.embedder.backend().numerics()
            && sentences.embedder().model_dir() == self.embedder.model_dir()
        {
            self.sentences = Some(sentences);
        } else {
            tracing::warn!("the sentence encoder runs another model or arithmetic; not shared");
        }
        self
    }

    pub fn embedder(&self) -> &Arc<Embedder> {
        &self.embedder
    }

    pub fn shortlist(&self) -> usize {
        self.shortlist
    }

    pub fn fusion(&self) -> Fusion {
        self.fusion
    }

    pub fn stats(&self) -> RankerStats {
        RankerStats {
            pages_embedded: self.pages_embedded.load(Ordering::Relaxed),
            windows_embedded: self.windows_embedded.load(Ordering::Relaxed),
            pages_from_disk: self.pages_from_disk.load(Ordering::Relaxed),
            pages_from_memory: self.pages_from_memory.load(Ordering::Relaxed),
            claims_embedded: self.claims_embedded.load(Ordering::Relaxed),
        }
    }

    /// The claim's vector: from memory, else from the on-disk cache, else from the model (and
    /// then kept in both).
    fn claim_vector(&self, claim: &str) -> Result<Embedding, EmbedError> {
        let key = cache::claim_key(claim, self.embedder.backend().numerics());
        let embed = || -> Result<Embedding, EmbedError> {
            self.claims_embedded.fetch_add(1, Ordering::Relaxed);
            match &self.sentences {
                Some(sentences) => sentences.claim_vector(claim),
                None => Ok(self.embedder.embed(&[claim], 1)?.remove(0)),
            }
        };
        let (entry, _) = self
            .claims
            .get_or_compute(&key, 1, &[0], |_| Ok::<_, EmbedError>(vec![vec![embed()?]]))?;
        match entry
            .first()
            .and_then(Option::as_ref)
            .and_then(|w| w.first())
        {
            Some(vector) => Ok(*vector),
            // A cache file that decoded to an empty entry: recompute, never fail for it.
            None => embed(),
        }
    }

    /// The page's window embeddings with at least the passages `wanted` embedded, each passage
    /// computed at most once per content.
    pub fn page_windows(
        &self,
        page: &PagePassages,
        wanted: &[usize],
    ) -> Result<Arc<PageWindows>, EmbedError> {
        let numerics = self.embedder.backend().numerics();
        let key = cache::key(&page.content_sha256, &page.passages, numerics, self.window);
        let n = page.passages.len();
        let (windows, source) = self.cache.get_or_compute(&key, n, wanted, |missing| {
            let texts: Vec<&str> = missing.iter().map(|&i| page.passages[i].as_str()).collect();
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

    /// The embedding score of each passage in `which`, in that order: the best cosine between
    /// the claim and one of its windows (-1 for a passage with no text).
    fn embedding_scores(
        &self,
        claim: &Embedding,
        page: &PagePassages,
        which: &[usize],
    ) -> Result<Vec<f32>, EmbedError> {
        let windows = self.page_windows(page, which)?;
        Ok(which
            .iter()
            .map(|&i| {
                windows[i]
                    .iter()
                    .flatten()
                    .map(|w| cosine(claim, w))
                    .fold(-1.0f32, f32::max)
            })
            .collect())
    }

    /// Every passage's embedding score, embedding the whole page whatever the shortlist (for
    /// tests and diagnostics; ranking uses [`EmbeddingRanker::rank`]).
    pub fn scores(&self, claim: &str, page: &PagePassages) -> Result<Vec<f32>, EmbedError> {
        let claim = self.claim_vector(claim)?;
        let all: Vec<usize> = (0..page.passages.len()).collect();
        self.embedding_scores(&claim, page, &all)
    }

    /// Every passage index, best first: the fused order of the shortlist, then the rest in BM25
    /// order. Embeds at most [`EmbeddingRanker::shortlist`] passages of the page.
    pub fn rank(&self, claim: &str, page: &PagePassages) -> Result<Vec<usize>, EmbedError> {
        let n = page.passages.len();
        if n == 0 {
            return Ok(Vec::new());
        }
        let lexical = bm25::scores(claim, &page.passages);
        let bm25_order = best_indices(lexical.into_iter().zip(0..).collect(), n);
        let cut = if self.shortlist == 0 {
            n
        } else {
            self.shortlist.min(n)
        };
        let shortlist = &bm25_order[..cut];
        let claim = self.claim_vector(claim)?;
        let semantic = self.embedding_scores(&claim, page, shortlist)?;
        let semantic_order = best_indices(
            semantic
                .iter()
                .zip(shortlist)
                .map(|(s, &i)| (f64::from(*s), i))
                .collect(),
            cut,
        );
        let mut order = match self.fusion {
            Fusion::Embedding => semantic_order,
            Fusion::Rrf { k } => {
                let mut fused = vec![0f64; n];
                for order in [&semantic_order[..], shortlist] {
                    for (rank, &i) in order.iter().enumerate() {
                        fused[i] += 1.0 / (f64::from(k) + rank as f64 + 1.0);
                    }
                }
                best_indices(shortlist.iter().map(|&i| (fused[i], i)).collect(), cut)
            }
        };
        order.extend_from_slice(&bm25_order[cut..]);
        Ok(order)
    }
}

impl Ranker for EmbeddingRanker {
    fn name(&self) -> &str {
        "embedding"
    }

    fn runtime(&self) -> Option<String> {
        Some(format!(
            "{}; shortlist {}, fusion {}",
            self.embedder.runtime(),
            self.shortlist,
            self.fusion
        ))
    }

    fn model_loaded(&self) -> Option<bool> {
        // The weights are read when the ranker opens; say whether they are held now.
        Some(self.embedder.weight_bytes() > 0)
    }

    fn top_k(&self, claim: &str, page: &PagePassages, k: usize) -> Result<Vec<usize>, RankError> {
        if k == 0 || page.passages.is_empty() {
            return Ok(Vec::new());
        }
        let mut order = self.rank(claim, page).map_err(|e| match e {
            EmbedError::ModelUnavailable { .. } => RankError::ModelUnavailable(Box::new(e)),
            other => RankError::Failed(Box::new(other)),
        })?;
        order.truncate(k);
        Ok(order)
    }
}
