//! The embedding model as the local judge's sentence encoder ([`SentenceEncoder`]): short texts
//! (a claim, a sentence, two adjacent sentences) become unit vectors. Texts are tokenised with the
//! model's own tokeniser, sorted by token length so that a batch pads little, run in passes of
//! at most [`SENTENCE_BATCH_TOKENS`] tokens, and kept in a bounded in-memory cache: a page's
//! sentences come back claim after claim.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use citecheck_core::judge::{EncodeError, SentenceEncoder};

use crate::embedder::{Embedder, Embedding};

/// Tokens per forward pass: sentences are short, so a pass holds many.
pub const SENTENCE_BATCH_TOKENS: usize = 1024;
/// Sentences kept in the cache; past it, the cache starts again empty (a simple bound that
/// costs nothing per hit, where an LRU would cost a little on each).
pub const SENTENCE_CACHE_ENTRIES: usize = 16_384;

/// Encodes sentences with a loaded [`Embedder`], caching each text's vector.
#[derive(Debug)]
pub struct SentenceEmbedder {
    embedder: Arc<Embedder>,
    cache: Mutex<HashMap<String, Embedding>>,
}

impl SentenceEmbedder {
    pub fn new(embedder: Arc<Embedder>) -> Self {
        SentenceEmbedder {
            embedder,
            cache: Mutex::new(HashMap::new()),
        }
    }

    fn cached(&self, text: &str) -> Option<Embedding> {
        self.cache.lock().ok()?.get(text).copied()
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
            let vectors = self
                .embedder
                .embed_ids_by_tokens(&ids, SENTENCE_BATCH_TOKENS);
            let mut cache = self.cache.lock().ok();
            for ((k, _), vector) in missing.iter().zip(vectors) {
                if let Some(cache) = cache.as_mut() {
                    if cache.len() >= SENTENCE_CACHE_ENTRIES {
                        cache.clear();
                    }
                    cache.insert(texts[*k].to_string(), vector);
                }
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

    fn name(&self) -> &str {
        "all-MiniLM-L6-v2"
    }
}
