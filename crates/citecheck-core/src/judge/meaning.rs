//! The seam through which a judge reads meaning, not only words: a sentence encoder turns short
//! texts into unit vectors whose dot product says how close their meanings are. The `local`
//! judge takes one optionally (the engine hands it the embedding model when that model is
//! loaded anyway, for `--ranker embedding`) and works, more weakly, without one.

use std::fmt::Debug;
use std::ops::Range;

use thiserror::Error;

/// Why a batch of texts could not be encoded.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum EncodeError {
    #[error("the sentence encoder failed")]
    Encoder(#[source] Box<dyn std::error::Error + Send + Sync>),
    #[error("the sentence encoder gives no token vectors")]
    NoTokens,
}

/// A text read token by token: each word piece's byte range in the text and its contextual unit
/// vector (the model's last layer, before pooling), special tokens left out.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tokens {
    pub spans: Vec<Range<usize>>,
    /// `spans.len()` vectors of `width` each, end to end.
    pub vectors: Vec<f32>,
    pub width: usize,
}

impl Tokens {
    /// The unit vector of the `k`th token.
    pub fn vector(&self, k: usize) -> &[f32] {
        self.vectors
            .get(k * self.width..(k + 1) * self.width)
            .unwrap_or(&[])
    }

    /// The best similarity of `vector` with any of these tokens (0 when there are none).
    pub fn best_match(&self, vector: &[f32]) -> f32 {
        (0..self.spans.len())
            .map(|k| similarity(vector, self.vector(k)))
            .fold(0.0, f32::max)
    }
}

/// Embeds short texts (a claim, a sentence, two adjacent sentences).
pub trait SentenceEncoder: Send + Sync + Debug {
    /// One unit vector per text, in order, all of the same length.
    fn encode(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EncodeError>;

    /// Each text token by token (see [`Tokens`]), for aligning a claim's words with a
    /// sentence's by meaning. An encoder without token vectors says so
    /// ([`EncodeError::NoTokens`]) and the judge reads whole sentences only.
    fn encode_tokens(&self, texts: &[&str]) -> Result<Vec<Tokens>, EncodeError> {
        let _ = texts;
        Err(EncodeError::NoTokens)
    }

    /// Names the encoder in the judge's reported version ("all-MiniLM-L6-v2").
    fn name(&self) -> &str;
}

/// Cosine similarity of two unit vectors (their dot product); 0 for vectors of different length.
pub fn similarity(a: &[f32], b: &[f32]) -> f32 {
    if a.len() != b.len() {
        return 0.0;
    }
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn similarity_is_the_dot_product_of_unit_vectors() {
        assert!((similarity(&[1.0, 0.0], &[1.0, 0.0]) - 1.0).abs() < 1e-6);
        assert!(similarity(&[1.0, 0.0], &[0.0, 1.0]).abs() < 1e-6);
        assert_eq!(similarity(&[1.0], &[1.0, 0.0]), 0.0);
    }
}
