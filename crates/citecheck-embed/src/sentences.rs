//! The embedding model as the local judge's sentence encoder ([`SentenceEncoder`]): short texts
//! (a claim, a sentence, two adjacent sentences) become unit vectors. Texts are tokenised with the
//! model's own tokeniser, sorted by token length so that a batch pads little, run in passes of
//! at most [`SENTENCE_BATCH_TOKENS`] tokens, and kept in a bounded in-memory cache: a page's
//! sentences come back claim after claim.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use citecheck_core::judge::meaning::Tokens;
use citecheck_core::judge::{EncodeError, SentenceEncoder};

use crate::embedder::{Embedder, Embedding};
use crate::error::EmbedError;

/// Tokens per forward pass: sentences are short, so a pass holds many.
pub const SENTENCE_BATCH_TOKENS: usize = 1024;
/// Sentences kept in the cache; past it, the cache starts again empty (a simple bound that
/// costs nothing per hit, where an LRU would cost a little on each).
pub const SENTENCE_CACHE_ENTRIES: usize = 16_384;
/// Texts whose token vectors are kept: a sentence's tokens weigh 1.5 KB each, so this cache is
/// smaller (at most about 40 MB for long sentences) and holds what a page's claims share.
pub const TOKEN_CACHE_ENTRIES: usize = 1024;

/// Encodes sentences with a loaded [`Embedder`], caching each text's vector.
#[derive(Debug)]
pub struct SentenceEmbedder {
    embedder: Arc<Embedder>,
    cache: Mutex<HashMap<String, Embedding>>,
    tokens: Mutex<HashMap<String, Arc<Tokens>>>,
    /// Texts run through the model, for tests and benches to see what a cache saved.
    encoded: AtomicU64,
}

impl SentenceEmbedder {
    pub fn new(embedder: Arc<Embedder>) -> Self {
        SentenceEmbedder {
            embedder,
            cache: Mutex::new(HashMap::new()),
            tokens: Mutex::new(HashMap::new()),
            encoded: AtomicU64::new(0),
        }
    }

    pub fn embedder(&self) -> &Arc<Embedder> {
        &self.embedder
    }

    /// How many texts this encoder has run through the model (cache hits are not counted).
    pub fn texts_encoded(&self) -> u64 {
        self.encoded.load(Ordering::Relaxed)
    }

    fn remember(&self, text: &str, vector: Embedding) {
        if let Ok(mut cache) = self.cache.lock() {
            if cache.len() >= SENTENCE_CACHE_ENTRIES {
                cache.clear();
            }
            cache.insert(text.to_string(), vector);
        }
    }

    fn cached(&self, text: &str) -> Option<Embedding> {
        self.cache.lock().ok()?.get(text).copied()
    }

    /// A claim's pooled vector, from the forward pass that also gives its last-layer rows, and
    /// both kept: the embedding ranker embeds each claim to rank its pages, and the judge then
    /// reads the same claim token by token, so one pass serves both (see
    /// `EmbeddingRanker::with_sentences`).
    pub fn claim_vector(&self, text: &str) -> Result<Embedding, EmbedError> {
        self.token_rows(&[text])?;
        match self.cached(text) {
            Some(vector) => Ok(vector),
            // Another thread's insert filled the cache and cleared it in between.
            None => Ok(self.embedder.embed(&[text], 1)?.remove(0)),
        }
    }

    /// Each text's last-layer token rows (the `[CLS]` and `[SEP]` rows left out), from the
    /// token cache or one forward pass per group of new texts; their pooled vectors go to the
    /// sentence cache.
    fn token_rows(&self, texts: &[&str]) -> Result<Vec<Arc<Tokens>>, EmbedError> {
        let cached = |text: &str| self.tokens.lock().ok()?.get(text).cloned();
        let mut out: Vec<Option<Arc<Tokens>>> = texts.iter().map(|t| cached(t)).collect();
        let mut missing: Vec<(usize, Vec<u32>, Vec<std::ops::Range<usize>>)> = Vec::new();
        for (k, text) in texts.iter().enumerate() {
            if out[k].is_none() && !missing.iter().any(|(j, _, _)| texts[*j] == *text) {
                let encoded = self.embedder.tokenizer().encode_with_offsets(text)?;
                missing.push((k, encoded.ids, encoded.offsets));
            }
        }
        if !missing.is_empty() {
            missing.sort_by_key(|(_, ids, _)| ids.len());
            let ids: Vec<Vec<u32>> = missing.iter().map(|(_, ids, _)| ids.clone()).collect();
            self.encoded.fetch_add(ids.len() as u64, Ordering::Relaxed);
            let encoded = self.embedder.embed_tokens(&ids, SENTENCE_BATCH_TOKENS);
            for ((k, _, offsets), (pooled, rows)) in missing.iter().zip(encoded) {
                self.remember(texts[*k], pooled);
                // `[CLS]`, `[SEP]` (empty ranges) carry no word of the text.
                let mut tokens = Tokens {
                    width: crate::DIMENSIONS,
                    ..Tokens::default()
                };
                for (span, row) in offsets.iter().zip(&rows) {
                    if !span.is_empty() {
                        tokens.spans.push(span.clone());
                        tokens.vectors.extend_from_slice(row);
                    }
                }
                let tokens = Arc::new(tokens);
                if let Ok(mut cache) = self.tokens.lock() {
                    if cache.len() >= TOKEN_CACHE_ENTRIES {
                        cache.clear();
                    }
                    cache.insert(texts[*k].to_string(), Arc::clone(&tokens));
                }
                for (j, text) in texts.iter().enumerate() {
                    if *text == texts[*k] {
                        out[j] = Some(Arc::clone(&tokens));
                    }
                }
            }
        }
        Ok(out.into_iter().map(|t| t.unwrap_or_default()).collect())
    }
}

impl SentenceEncoder for SentenceEmbedder {
    fn encode(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EncodeError> {
        let mut out: Vec<Option<Embedding>> = texts.iter().map(|t| self.cached(t)).collect();
        let mut missing: Vec<(usize, Vec<u32>)> = Vec::new();
        for (k, text) in texts.iter().enumerate() {
            if out[k].is_none() && !missing.iter().any(|(j, _)| texts[*j] == *text) {
                let ids = self
                    .embedder
                    .tokenizer()
                    .encode(text)
                    .map_err(|err| EncodeError::Encoder(Box::new(err)))?;
                missing.push((k, ids));
            }
        }
        if !missing.is_empty() {
            missing.sort_by_key(|(_, ids)| ids.len());
            let ids: Vec<Vec<u32>> = missing.iter().map(|(_, ids)| ids.clone()).collect();
            self.encoded.fetch_add(ids.len() as u64, Ordering::Relaxed);
            let vectors = self
                .embedder
                .embed_ids_by_tokens(&ids, SENTENCE_BATCH_TOKENS);
            for ((k, _), vector) in missing.iter().zip(vectors) {
                self.remember(texts[*k], vector);
                for (j, text) in texts.iter().enumerate() {
                    if *text == texts[*k] {
                        out[j] = Some(vector);
                    }
                }
            }
        }
        Ok(out
            .into_iter()
            .map(|v| v.map_or_else(Vec::new, |v| v.to_vec()))
            .collect())
    }

    /// One forward pass gives both the token vectors and the pooled vector, so the pooled one
    /// goes to the sentence cache too: the judge asks for a text's tokens, then its vector.
    fn encode_tokens(&self, texts: &[&str]) -> Result<Vec<Tokens>, EncodeError> {
        Ok(self
            .token_rows(texts)
            .map_err(|err| EncodeError::Encoder(Box::new(err)))?
            .into_iter()
            .map(|t| (*t).clone())
            .collect())
    }

    fn name(&self) -> &str {
        "all-MiniLM-L6-v2"
    }
}
