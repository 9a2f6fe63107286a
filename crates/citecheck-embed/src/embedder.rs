//! The loaded model: tokenizer plus encoder, verified against the pinned hashes, shared by every
//! caller (`Send + Sync`) and run on a bounded number of threads at once.

use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::error::EmbedError;
use crate::files::{self, SAFETENSORS, TOKENIZER};
use crate::kernels::{Backend, Precision};
use crate::model::{Encoder, Scratch, HIDDEN};
use crate::tokenize::{Tokenizer, WindowParams};

/// One embedding: a unit vector.
pub type Embedding = [f32; HIDDEN];

/// How many forward passes run at once by default. On the 2-vCPU machines this project targets,
/// one inference thread is fastest (the second vCPU adds no floating-point throughput and is
/// better left to fetching and parsing).
pub const DEFAULT_INFERENCE_THREADS: usize = 1;

/// How the model runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EmbedderOptions {
    /// The precision of the matrix products; bf16 falls back to f32 on CPUs without AVX-512 BF16.
    pub precision: Precision,
    /// Forward passes allowed at once (callers beyond that wait their turn).
    pub threads: usize,
}

impl Default for EmbedderOptions {
    fn default() -> Self {
        Self {
            precision: Precision::Bf16,
            threads: DEFAULT_INFERENCE_THREADS,
        }
    }
}

/// all-MiniLM-L6-v2, loaded once.
pub struct Embedder {
    dir: PathBuf,
    tokenizer: Tokenizer,
    encoder: Encoder,
    /// One scratch per permitted concurrent pass; an empty pool means "wait".
    pool: Mutex<Vec<Scratch>>,
    returned: Condvar,
    load_time: Duration,
}

impl std::fmt::Debug for Embedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Embedder")
            .field("dir", &self.dir)
            .field("backend", &self.encoder.backend())
            .finish_non_exhaustive()
    }
}

impl Embedder {
    /// Loads the model from `dir`, checking every file against its pinned SHA-256. Downloads
    /// nothing: see [`crate::fetch::ensure_model`] for that.
    pub fn load(dir: &Path, options: EmbedderOptions) -> Result<Self, EmbedError> {
        Self::load_on(dir, Backend::select(options.precision), options.threads)
    }

    /// [`Embedder::load`] on the plain-Rust f32 kernels whatever the CPU has, so that tests on
    /// an AVX-512 machine also cover the path other machines take.
    #[doc(hidden)]
    pub fn load_portable(dir: &Path) -> Result<Self, EmbedError> {
        Self::load_on(dir, Backend::Portable, 1)
    }

    fn load_on(dir: &Path, backend: Backend, threads: usize) -> Result<Self, EmbedError> {
        let started = Instant::now();
        for file in &files::MODEL_FILES[2..] {
            files::read_verified(dir, file)?;
        }
        let tokenizer = Tokenizer::from_bytes(&files::read_verified(dir, &TOKENIZER)?)?;
        let weights = files::read_verified(dir, &SAFETENSORS)?;
        let encoder = Encoder::load(&weights, backend)?;
        drop(weights);
        let threads = threads.max(1);
        let load_time = started.elapsed();
        tracing::info!(
            dir = %dir.display(),
            backend = encoder.backend().describe(),
            threads,
            load_ms = load_time.as_millis() as u64,
            "embedding model loaded"
        );
        Ok(Self {
            dir: dir.to_path_buf(),
            tokenizer,
            encoder,
            pool: Mutex::new((0..threads).map(|_| Scratch::default()).collect()),
            returned: Condvar::new(),
            load_time,
        })
    }

    pub fn model_dir(&self) -> &Path {
        &self.dir
    }

    /// The precision the products really run in (bf16 only where the CPU has it).
    pub fn precision(&self) -> Precision {
        self.encoder.backend().precision()
    }

    /// The kernel set in use: `avx512-bf16`, `avx512-f32` or `portable-f32`.
    pub fn backend(&self) -> &'static str {
        self.encoder.backend().describe()
    }

    pub fn load_time(&self) -> Duration {
        self.load_time
    }

    /// Bytes of weights held in memory.
    pub fn weight_bytes(&self) -> usize {
        self.encoder.weight_bytes()
    }

    pub fn tokenizer(&self) -> &Tokenizer {
        &self.tokenizer
    }

    /// Embeds each text as sentence-transformers would (first 256 tokens), `batch` sequences per
    /// forward pass.
    pub fn embed(&self, texts: &[&str], batch: usize) -> Result<Vec<Embedding>, EmbedError> {
        let ids = texts
            .iter()
            .map(|t| self.tokenizer.encode(t))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(self.embed_ids(&ids, batch))
    }

    /// Embeds the windows covering each text (see [`Tokenizer::windows`]): one list per text.
    /// Windows are grouped into forward passes of up to `batch_tokens` tokens.
    pub fn embed_windows(
        &self,
        texts: &[&str],
        params: WindowParams,
        batch_tokens: usize,
    ) -> Result<Vec<Vec<Embedding>>, EmbedError> {
        let mut counts = Vec::with_capacity(texts.len());
        let mut all = Vec::new();
        for text in texts {
            let windows = self.tokenizer.windows(text, params)?;
            counts.push(windows.len());
            all.extend(windows);
        }
        let mut flat = self.embed_ids_by_tokens(&all, batch_tokens).into_iter();
        Ok(counts
            .into_iter()
            .map(|n| flat.by_ref().take(n).collect())
            .collect())
    }

    /// Like [`Embedder::embed_ids`], grouping consecutive sequences into passes of at most
    /// `batch_tokens` tokens (a longer sequence runs alone).
    pub fn embed_ids_by_tokens(
        &self,
        sequences: &[Vec<u32>],
        batch_tokens: usize,
    ) -> Vec<Embedding> {
        let mut scratch = self.take_scratch();
        let mut out = Vec::with_capacity(sequences.len());
        let mut start = 0;
        while start < sequences.len() {
            let mut end = start + 1;
            let mut tokens = sequences[start].len();
            while end < sequences.len() && tokens + sequences[end].len() <= batch_tokens {
                tokens += sequences[end].len();
                end += 1;
            }
            let refs: Vec<&[u32]> = sequences[start..end].iter().map(Vec::as_slice).collect();
            out.extend(self.encoder.embed(&refs, &mut scratch));
            start = end;
        }
        self.return_scratch(scratch);
        out
    }

    /// Embeds token sequences (each `[CLS] ... [SEP]`, at most 256), `batch` per forward pass.
    pub fn embed_ids(&self, sequences: &[Vec<u32>], batch: usize) -> Vec<Embedding> {
        let mut scratch = self.take_scratch();
        let mut out = Vec::with_capacity(sequences.len());
        for chunk in sequences.chunks(batch.max(1)) {
            let refs: Vec<&[u32]> = chunk.iter().map(Vec::as_slice).collect();
            out.extend(self.encoder.embed(&refs, &mut scratch));
        }
        self.return_scratch(scratch);
        out
    }

    fn take_scratch(&self) -> Scratch {
        let mut pool = self.pool.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if let Some(scratch) = pool.pop() {
                return scratch;
            }
            pool = self
                .returned
                .wait(pool)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    fn return_scratch(&self, scratch: Scratch) {
        self.pool
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(scratch);
        self.returned.notify_one();
    }
}

/// Cosine similarity of two unit vectors.
pub fn cosine(a: &Embedding, b: &Embedding) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}
