//! Text -> word-piece ids, with the sentence-transformers settings rather than the shipped ones.
//!
//! The model's tokenizer.json truncates and pads to a fixed 128 tokens; sentence-transformers
//! uses the same vocabulary and normalisation at `max_seq_length` 256, padded to the longest
//! sequence of a batch. Here truncation is 256 (special tokens included) and there is no padding
//! at all: the forward pass runs each sequence at its own length, which is what padding plus the
//! attention mask computes.
//!
//! Long texts are not cut: [`Tokenizer::windows`] covers a whole passage with overlapping
//! windows of at most 256 tokens each.

use tokenizers::{TruncationDirection, TruncationParams, TruncationStrategy};

use crate::error::EmbedError;

/// The model's sequence limit (sentence_bert_config.json), `[CLS]` and `[SEP]` included.
pub const MAX_SEQ_LEN: usize = 256;
const CLS: u32 = 101;
const SEP: u32 = 102;

/// How a long passage is covered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WindowParams {
    /// Tokens per window, `[CLS]` and `[SEP]` included; at most [`MAX_SEQ_LEN`].
    pub max_tokens: usize,
    /// Tokens shared by neighbouring windows, so that a sentence cut by one window's edge is
    /// whole in the next.
    pub overlap: usize,
}

impl Default for WindowParams {
    fn default() -> Self {
        Self {
            max_tokens: MAX_SEQ_LEN,
            overlap: 48,
        }
    }
}

/// Word-piece ids with the byte range of `text` each one came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenIds {
    pub ids: Vec<u32>,
    pub offsets: Vec<std::ops::Range<usize>>,
}

pub struct Tokenizer {
    /// Truncating at 256, with `[CLS]`/`[SEP]`: exactly what sentence-transformers feeds the model.
    truncating: tokenizers::Tokenizer,
    /// No truncation, no special tokens: the raw word pieces of a passage, to cut into windows.
    whole: tokenizers::Tokenizer,
}

impl Tokenizer {
    pub fn from_bytes(json: &[u8]) -> Result<Self, EmbedError> {
        let mut truncating =
            tokenizers::Tokenizer::from_bytes(json).map_err(|e| EmbedError::InvalidModel {
                file: "tokenizer.json".into(),
                message: e.to_string(),
            })?;
        truncating.with_padding(None);
        let mut whole = truncating.clone();
        truncating
            .with_truncation(Some(TruncationParams {
                max_length: MAX_SEQ_LEN,
                strategy: TruncationStrategy::LongestFirst,
                stride: 0,
                direction: TruncationDirection::Right,
            }))
            .map_err(|e| EmbedError::Tokenizer(e.to_string()))?;
        whole
            .with_truncation(None)
            .map_err(|e| EmbedError::Tokenizer(e.to_string()))?;
        Ok(Self { truncating, whole })
    }

    /// The ids sentence-transformers would feed the model for `text` (at most 256).
    pub fn encode(&self, text: &str) -> Result<Vec<u32>, EmbedError> {
        let encoding = self
            .truncating
            .encode(text, true)
            .map_err(|e| EmbedError::Tokenizer(e.to_string()))?;
        Ok(encoding.get_ids().to_vec())
    }

    /// Like [`Tokenizer::encode`], with each id's byte range in `text` (`[CLS]` and `[SEP]`
    /// get an empty range).
    pub fn encode_with_offsets(&self, text: &str) -> Result<TokenIds, EmbedError> {
        let encoding = self
            .truncating
            .encode(text, true)
            .map_err(|e| EmbedError::Tokenizer(e.to_string()))?;
        Ok(TokenIds {
            ids: encoding.get_ids().to_vec(),
            offsets: encoding
                .get_offsets()
                .iter()
                .map(|&(start, end)| start..end)
                .collect(),
        })
    }

    /// Token sequences (each with `[CLS]`/`[SEP]`, at most `params.max_tokens`) that together
    /// cover every word piece of `text`. A text that fits is one window, identical to
    /// [`Tokenizer::encode`]; a longer one gets the fewest windows of equal length that overlap
    /// by at least `params.overlap`, each starting on a word boundary.
    pub fn windows(&self, text: &str, params: WindowParams) -> Result<Vec<Vec<u32>>, EmbedError> {
        let encoding = self
            .whole
            .encode(text, false)
            .map_err(|e| EmbedError::Tokenizer(e.to_string()))?;
        let ids = encoding.get_ids();
        let words = encoding.get_word_ids();
        let spans = window_spans(words, params);
        Ok(spans
            .into_iter()
            .map(|(start, end)| {
                let mut window = Vec::with_capacity(end - start + 2);
                window.push(CLS);
                window.extend_from_slice(&ids[start..end]);
                window.push(SEP);
                window
            })
            .collect())
    }
}

/// `[start, end)` spans over `n = words.len()` word pieces; see [`Tokenizer::windows`].
fn window_spans(words: &[Option<u32>], params: WindowParams) -> Vec<(usize, usize)> {
    let n = words.len();
    let width = params.max_tokens.clamp(3, MAX_SEQ_LEN) - 2;
    if n <= width {
        return vec![(0, n)];
    }
    let overlap = params.overlap.min(width / 2);
    let step = width - overlap;
    let count = (n - overlap).div_ceil(step);
    let len = (n + (count - 1) * overlap).div_ceil(count).min(width);
    let is_word_start = |i: usize| i == 0 || words[i].is_none() || words[i] != words[i - 1];
    let mut spans = Vec::with_capacity(count);
    for j in 0..count {
        let ideal = if j + 1 == count {
            n - len
        } else {
            j * (n - len) / (count - 1)
        };
        // Back up to the start of the word the ideal start falls in (a few pieces at most),
        // unless that would cut into the previous window's coverage or overflow the width.
        let mut start = ideal;
        while start > 0 && !is_word_start(start) && ideal - start < 8 {
            start -= 1;
        }
        if !is_word_start(start) {
            start = ideal;
        }
        let end = if j + 1 == count {
            n
        } else {
            (start + len).min(n)
        };
        let start = start.max(end.saturating_sub(width));
        spans.push((start, end));
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(n: usize, pieces_per_word: usize) -> Vec<Option<u32>> {
        (0..n).map(|i| Some((i / pieces_per_word) as u32)).collect()
    }

    fn check_cover(n: usize, spans: &[(usize, usize)], width: usize, overlap: usize) {
        assert_eq!(spans.first().map(|s| s.0), Some(0), "{spans:?}");
        assert_eq!(spans.last().map(|s| s.1), Some(n), "{spans:?}");
        for (s, e) in spans {
            assert!(e > s && e - s <= width, "{spans:?}");
        }
        for pair in spans.windows(2) {
            let shared = pair[0].1.saturating_sub(pair[1].0);
            assert!(pair[1].0 <= pair[0].1, "gap in {spans:?}");
            assert!(shared + 8 >= overlap, "overlap {shared} in {spans:?}");
        }
    }

    #[test]
    fn a_short_text_is_one_window() {
        assert_eq!(
            window_spans(&words(10, 1), WindowParams::default()),
            vec![(0, 10)]
        );
        assert_eq!(
            window_spans(&words(254, 1), WindowParams::default()),
            vec![(0, 254)]
        );
        assert_eq!(window_spans(&[], WindowParams::default()), vec![(0, 0)]);
    }

    #[test]
    fn long_texts_are_covered_by_overlapping_windows_within_the_limit() {
        for n in [255, 283, 400, 509, 1000, 3000] {
            for pieces in [1, 3] {
                let spans = window_spans(&words(n, pieces), WindowParams::default());
                check_cover(n, &spans, 254, 48);
            }
        }
        assert_eq!(
            window_spans(&words(283, 1), WindowParams::default()).len(),
            2
        );
    }

    #[test]
    fn windows_start_on_word_boundaries() {
        let w = words(600, 3);
        for (start, _) in window_spans(&w, WindowParams::default()) {
            assert!(
                start == 0 || w[start] != w[start - 1],
                "starts mid-word at {start}"
            );
        }
    }
}
