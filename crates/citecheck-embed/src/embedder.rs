//! The loaded model: tokenizer plus encoder, verified against the pinned hashes, shared by every
//! caller (`Send + Sync`) and run on a bounded number of threads at once. A call with many
//! sequences (a page's windows) spreads them over the threads that are free.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::error::EmbedError;
use crate::files::{self, SAFETENSORS, TOKENIZER};
use crate::kernels::{Backend, Precision};
use crate::model::{Encoder, Scratch, HIDDEN};
use crate::threads::{self, ThreadSource};
use crate::tokenize::{Tokenizer, WindowParams};

/// One embedding: a unit vector.
pub type Embedding = [f32; HIDDEN];

/// How the model runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EmbedderOptions {
    /// The precision wanted when no backend is forced. The default, [`Precision::Bf16`], allows
    /// reduced precision: bf16 where the CPU has AVX-512 BF16, f32 on other AVX-512 CPUs, 8-bit
    /// products on AVX2 (see [`Backend::best`]); [`Precision::F32`] asks for f32 throughout.
    pub precision: Precision,
    /// Force a backend (an error at load if the CPU lacks it); `None` picks the fastest.
    pub backend: Option<Backend>,
    /// Forward passes allowed at once; `None` fits the machine (see [`crate::threads`]).
    pub threads: Option<usize>,
}

impl Default for EmbedderOptions {
    fn default() -> Self {
        Self {
            precision: Precision::Bf16,
            backend: None,
            threads: None,
        }
    }
}

impl EmbedderOptions {
    /// The defaults, with `CITECHECK_EMBED_BACKEND` and `CITECHECK_EMBED_THREADS` applied when
    /// set (a bad value is an error naming it).
    pub fn from_env() -> Result<Self, EmbedError> {
        Ok(Self {
            backend: Backend::from_env()?,
            threads: threads::threads_from_env()?,
            ..Self::default()
        })
    }

    /// The backend and thread count a load with these options runs on, decided without loading
    /// the weights (the thread probe, when needed, takes ~50 ms): for `citecheck model info`.
    pub fn resolve(&self) -> Result<Runtime, EmbedError> {
        let backend = match self.backend {
            Some(b) if !b.is_supported() => {
                return Err(EmbedError::BackendUnsupported { name: b.name() })
            }
            Some(b) => b,
            None => Backend::best(self.precision),
        };
        let (threads, thread_source) = match self.threads {
            Some(n) => (n.clamp(1, threads::MAX_THREADS), ThreadSource::Configured),
            None => threads::fit_machine(backend),
        };
        Ok(Runtime {
            backend,
            threads,
            thread_source,
        })
    }

    /// These options with `threads` when it is `Some` (a command-line flag over the
    /// environment); `0` or more than 256 is an error.
    pub fn with_threads(mut self, threads: Option<usize>) -> Result<Self, EmbedError> {
        if let Some(n) = threads {
            self.threads = Some(threads::parse_threads(&n.to_string())?);
        }
        Ok(self)
    }
}

/// The kernels and threads a model runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Runtime {
    pub backend: Backend,
    pub threads: usize,
    pub thread_source: ThreadSource,
}

impl std::fmt::Display for Runtime {
    /// `backend avx2, 2 threads (measured: 2 cores give 1.93x one)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "backend {}, {} thread{} ({})",
            self.backend,
            self.threads,
            if self.threads == 1 { "" } else { "s" },
            self.thread_source
        )
    }
}

/// all-MiniLM-L6-v2, loaded once.
pub struct Embedder {
    dir: PathBuf,
    tokenizer: Tokenizer,
    encoder: Encoder,
    threads: usize,
    thread_source: ThreadSource,
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
            .field("threads", &self.threads)
            .finish_non_exhaustive()
    }
}

impl Embedder {
    /// Loads the model from `dir`, checking every file against its pinned SHA-256. Downloads
    /// nothing: see [`crate::fetch::ensure_model`] for that.
    pub fn load(dir: &Path, options: EmbedderOptions) -> Result<Self, EmbedError> {
        let backend = match options.backend {
            Some(b) if !b.is_supported() => {
                return Err(EmbedError::BackendUnsupported { name: b.name() })
            }
            Some(b) => b,
            None => Backend::best(options.precision),
        };
        let options = EmbedderOptions {
            backend: Some(backend),
            ..options
        };
        let started = Instant::now();
        for file in &files::MODEL_FILES[2..] {
            files::read_verified(dir, file)?;
        }
        let tokenizer = Tokenizer::from_bytes(&files::read_verified(dir, &TOKENIZER)?)?;
        let weights = files::read_verified(dir, &SAFETENSORS)?;
        let encoder = Encoder::load(&weights, backend)?;
        drop(weights);
        let Runtime {
            threads,
            thread_source,
            ..
        } = options.resolve()?;
        let load_time = started.elapsed();
        tracing::info!(
            dir = %dir.display(),
            backend = backend.name(),
            threads,
            threads_from = %thread_source,
            load_ms = load_time.as_millis() as u64,
            "embedding model loaded"
        );
        Ok(Self {
            dir: dir.to_path_buf(),
            tokenizer,
            encoder,
            threads,
            thread_source,
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

    /// The kernel set in use (`avx512-bf16`, `avx512`, `avx-vnni-int8`, `avx2-int8`, `avx2` or
    /// `portable` by name).
    pub fn backend(&self) -> Backend {
        self.encoder.backend()
    }

    /// Forward passes that may run at once (a page's windows are spread over them).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Backend and threads together, for logs, `citecheck model info` and `/health`.
    pub fn runtime(&self) -> Runtime {
        Runtime {
            backend: self.backend(),
            threads: self.threads,
            thread_source: self.thread_source,
        }
    }

    /// How [`Embedder::threads`] was decided.
    pub fn thread_source(&self) -> ThreadSource {
        self.thread_source
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

    /// Embeds each text as sentence-transformers would (first 256 tokens), at most `batch`
    /// sequences per forward pass.
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
        self.run_groups(sequences, &token_groups(sequences, batch_tokens))
    }

    /// Per sequence, its pooled unit vector and one unit vector per token of the last layer,
    /// in passes of at most `batch_tokens` tokens on one thread: for the few short texts a
    /// judge reads token by token, where spreading passes would cost more than it saves.
    pub fn embed_tokens(
        &self,
        sequences: &[Vec<u32>],
        batch_tokens: usize,
    ) -> Vec<(Embedding, Vec<Embedding>)> {
        let mut scratches = self.take_scratches(1);
        let mut scratch = scratches.pop().unwrap_or_default();
        let mut out = Vec::with_capacity(sequences.len());
        for group in token_groups(sequences, batch_tokens) {
            let refs: Vec<&[u32]> = sequences[group].iter().map(Vec::as_slice).collect();
            out.extend(self.encoder.embed_tokens(&refs, &mut scratch));
        }
        self.return_scratches(vec![scratch]);
        out
    }

    /// Embeds token sequences (each `[CLS] ... [SEP]`, at most 256), at most `batch` per forward
    /// pass.
    pub fn embed_ids(&self, sequences: &[Vec<u32>], batch: usize) -> Vec<Embedding> {
        let batch = batch.max(1);
        let groups: Vec<Range<usize>> = (0..sequences.len())
            .step_by(batch)
            .map(|s| s..(s + batch).min(sequences.len()))
            .collect();
        self.run_groups(sequences, &groups)
    }

    /// One forward pass per group, spread over as many threads as there are free scratches
    /// (at least one: waits for it), results in sequence order. With several threads, groups
    /// too few to keep them busy are split (see [`share_out`]).
    fn run_groups(&self, sequences: &[Vec<u32>], groups: &[Range<usize>]) -> Vec<Embedding> {
        let pass = |group: &Range<usize>, scratch: &mut Scratch| {
            let refs: Vec<&[u32]> = sequences[group.clone()].iter().map(Vec::as_slice).collect();
            self.encoder.embed(&refs, scratch)
        };
        let mut scratches = self.take_scratches(groups.len());
        let shared;
        let groups = if scratches.len() > 1 {
            shared = share_out(groups, scratches.len());
            &shared[..]
        } else {
            groups
        };
        let mut out = Vec::with_capacity(sequences.len());
        if scratches.len() <= 1 {
            let mut scratch = scratches.pop().unwrap_or_default();
            for group in groups {
                out.extend(pass(group, &mut scratch));
            }
            self.return_scratches(vec![scratch]);
            return out;
        }
        // Workers take the next group as they finish one, so uneven windows balance out.
        let next = AtomicUsize::new(0);
        let mut done: Vec<(usize, Vec<Embedding>)> = std::thread::scope(|s| {
            let workers: Vec<_> = scratches
                .iter_mut()
                .map(|scratch| {
                    let next = &next;
                    s.spawn(move || {
                        let mut mine = Vec::new();
                        loop {
                            let g = next.fetch_add(1, Ordering::Relaxed);
                            let Some(group) = groups.get(g) else { break };
                            mine.push((g, pass(group, scratch)));
                        }
                        mine
                    })
                })
                .collect();
            workers
                .into_iter()
                .flat_map(|w| match w.join() {
                    Ok(mine) => mine,
                    Err(panic) => std::panic::resume_unwind(panic),
                })
                .collect()
        });
        self.return_scratches(scratches);
        done.sort_unstable_by_key(|(g, _)| *g);
        for (_, embeddings) in done {
            out.extend(embeddings);
        }
        out
    }

    /// Up to `wanted` scratches: waits until one is free, then takes whatever else is free.
    fn take_scratches(&self, wanted: usize) -> Vec<Scratch> {
        let mut pool = self.pool.lock().unwrap_or_else(PoisonError::into_inner);
        while pool.is_empty() {
            pool = self
                .returned
                .wait(pool)
                .unwrap_or_else(PoisonError::into_inner);
        }
        let keep = pool.len().saturating_sub(wanted.max(1));
        pool.split_off(keep)
    }

    fn return_scratches(&self, scratches: Vec<Scratch>) {
        let n = scratches.len();
        self.pool
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend(scratches);
        for _ in 0..n {
            self.returned.notify_one();
        }
    }
}

/// Consecutive sequences grouped into passes of at most `batch_tokens` tokens (a longer sequence
/// forms a pass alone).
fn token_groups(sequences: &[Vec<u32>], batch_tokens: usize) -> Vec<Range<usize>> {
    let mut groups = Vec::new();
    let mut start = 0;
    while start < sequences.len() {
        let mut end = start + 1;
        let mut tokens = sequences[start].len();
        while end < sequences.len() && tokens + sequences[end].len() <= batch_tokens {
            tokens += sequences[end].len();
            end += 1;
        }
        groups.push(start..end);
        start = end;
    }
    groups
}

/// Passes per thread below which [`share_out`] splits passes.
const PASSES_PER_THREAD: usize = 4;

/// `groups` cut into smaller passes when there are fewer than [`PASSES_PER_THREAD`] per thread:
/// three passes of 32 on two threads would keep one thread busy for two passes while the other
/// waits after one (measured: 1.5x one thread instead of 1.9x). Splitting changes no vector:
/// every sequence runs at its own length, unpadded, and each output row of a product depends
/// only on its own input row, so a sequence's embedding does not depend on its pass-mates.
/// A pass stays within its group, so a caller's bound on a pass's size still holds.
fn share_out(groups: &[Range<usize>], threads: usize) -> Vec<Range<usize>> {
    let wanted = threads * PASSES_PER_THREAD;
    if threads <= 1 || groups.len() >= wanted {
        return groups.to_vec();
    }
    let sequences: usize = groups.iter().map(ExactSizeIterator::len).sum();
    let most = sequences.div_ceil(wanted).max(1);
    groups
        .iter()
        .flat_map(|group| {
            let end = group.end;
            group
                .clone()
                .step_by(most)
                .map(move |start| start..(start + most).min(end))
        })
        .collect()
}

/// Cosine similarity of two unit vectors.
pub fn cosine(a: &Embedding, b: &Embedding) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences_are_grouped_by_their_token_budget_and_a_long_one_runs_alone() {
        let seqs: Vec<Vec<u32>> = [3usize, 4, 2, 10, 1, 1]
            .iter()
            .map(|&n| vec![0; n])
            .collect();
        assert_eq!(token_groups(&seqs, 8), vec![0..2, 2..3, 3..4, 4..6]);
        assert_eq!(token_groups(&seqs, 100), vec![0..6]);
        assert!(token_groups(&[], 8).is_empty());
    }

    /// Every sequence once, in order, each pass inside one of the caller's groups.
    fn assert_covers(groups: &[Range<usize>], passes: &[Range<usize>]) {
        let flat: Vec<usize> = passes.iter().flat_map(Clone::clone).collect();
        let expected: Vec<usize> = groups.iter().flat_map(Clone::clone).collect();
        assert_eq!(flat, expected);
        for pass in passes {
            assert!(!pass.is_empty());
            assert!(
                groups
                    .iter()
                    .any(|g| g.start <= pass.start && pass.end <= g.end),
                "{pass:?} crosses a group of {groups:?}"
            );
        }
    }

    #[test]
    fn few_large_passes_are_split_so_every_thread_gets_work() {
        let groups: Vec<Range<usize>> = vec![0..32, 32..64, 64..96];
        let passes = share_out(&groups, 2);
        assert_covers(&groups, &passes);
        // At most ceil(96 / (2 x 4)) = 12 a pass: 12 + 12 + 8 per group of 32.
        assert_eq!(passes.len(), 9, "{passes:?}");
        assert!(passes.iter().all(|p| p.len() <= 12), "{passes:?}");
        // Uneven groups (a token budget's) stay inside their bounds.
        let uneven = vec![0..1, 1..9, 9..10];
        let passes = share_out(&uneven, 3);
        assert_covers(&uneven, &passes);
        assert!(passes.len() > uneven.len());
    }

    #[test]
    fn enough_passes_or_one_thread_are_left_as_they_are() {
        let many: Vec<Range<usize>> = (0..8).map(|i| i * 2..i * 2 + 2).collect();
        assert_eq!(share_out(&many, 2), many);
        let few = vec![0..32, 32..40];
        assert_eq!(share_out(&few, 1), few);
        let single: Vec<Range<usize>> = std::iter::once(0..1).collect();
        assert_eq!(share_out(&single, 4), single);
        assert!(share_out(&[], 4).is_empty());
    }
}
