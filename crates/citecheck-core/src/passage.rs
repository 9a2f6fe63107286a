//! Markdown -> passages of at most `max_words` words (pure).
//!
//! Newlines are normalised, the text is split on blank lines, and whole paragraphs are packed
//! together until the next one would overflow the budget. A paragraph longer than the budget is
//! cut at word boundaries into chunks of its own (joined by single spaces). Blank blocks vanish.
//! Words are counted by whitespace, so no tokenizer is needed to keep passages even.

use thiserror::Error;

/// The reference design's passage budget.
pub const DEFAULT_MAX_WORDS: usize = 200;

#[derive(Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum PassageError {
    #[error("max_words must be at least 1, got {0}")]
    ZeroBudget(usize),
}

/// Splits Markdown into passages of at most `max_words` words each, in page order.
pub fn split(markdown: &str, max_words: usize) -> Result<Vec<String>, PassageError> {
    if max_words < 1 {
        return Err(PassageError::ZeroBudget(max_words));
    }
    let text = markdown.replace("\r\n", "\n").replace('\r', "\n");
    let mut passages = Vec::new();
    let mut pending: Vec<&str> = Vec::new();
    let mut pending_words = 0usize;

    for paragraph in paragraphs(&text) {
        let words: Vec<&str> = paragraph.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        if words.len() > max_words {
            flush(&mut passages, &mut pending, &mut pending_words);
            passages.extend(words.chunks(max_words).map(|chunk| chunk.join(" ")));
            continue;
        }
        if pending_words + words.len() > max_words {
            flush(&mut passages, &mut pending, &mut pending_words);
        }
        pending.push(paragraph.trim());
        pending_words += words.len();
    }
    flush(&mut passages, &mut pending, &mut pending_words);
    Ok(passages)
}

fn flush(passages: &mut Vec<String>, pending: &mut Vec<&str>, pending_words: &mut usize) {
    if !pending.is_empty() {
        passages.push(pending.join("\n\n"));
        pending.clear();
        *pending_words = 0;
    }
}

/// Blocks separated by a line that is empty or only whitespace.
fn paragraphs(text: &str) -> impl Iterator<Item = &str> {
    let mut blocks = Vec::new();
    let mut start = 0usize;
    let mut offset = 0usize;
    let mut in_block = false;
    for line in text.split_inclusive('\n') {
        if line.trim().is_empty() {
            if in_block {
                blocks.push(&text[start..offset]);
                in_block = false;
            }
        } else if !in_block {
            start = offset;
            in_block = true;
        }
        offset += line.len();
    }
    if in_block {
        blocks.push(&text[start..]);
    }
    blocks.into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(n: usize, tag: &str) -> String {
        (0..n)
            .map(|i| format!("{tag}{i}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn a_zero_budget_is_an_error() {
        assert_eq!(split("text", 0), Err(PassageError::ZeroBudget(0)));
    }

    #[test]
    fn short_paragraphs_are_packed_until_the_next_would_overflow() {
        let text = format!(
            "{}\n\n{}\n\n{}",
            words(3, "a"),
            words(3, "b"),
            words(3, "c")
        );
        let got = split(&text, 6).expect("valid budget");
        assert_eq!(
            got,
            vec![
                format!("{}\n\n{}", words(3, "a"), words(3, "b")),
                words(3, "c")
            ]
        );
    }

    #[test]
    fn a_long_paragraph_is_cut_at_word_boundaries_into_its_own_chunks() {
        let text = format!(
            "{}\n\n{}\n\n{}",
            words(2, "a"),
            words(7, "b"),
            words(2, "c")
        );
        let got = split(&text, 3).expect("valid budget");
        assert_eq!(
            got,
            vec![
                words(2, "a"),
                "b0 b1 b2".to_string(),
                "b3 b4 b5".to_string(),
                "b6".to_string(),
                words(2, "c"),
            ]
        );
    }

    #[test]
    fn windows_and_old_mac_newlines_and_blank_blocks_are_normalised() {
        let text = "one two\r\n\r\nthree\r\r  \n\t\n\nfour";
        let got = split(text, 1).expect("valid budget");
        assert_eq!(got, vec!["one", "two", "three", "four"]);
        assert!(split(" \n\n \t\n", 5).expect("valid").is_empty());
    }

    #[test]
    fn single_newlines_stay_inside_a_paragraph() {
        let got = split("line one\nline two\n\nnext", 200).expect("valid");
        assert_eq!(got, vec!["line one\nline two\n\nnext"]);
    }

    #[test]
    fn no_word_is_lost_or_duplicated() {
        let text = format!(
            "{}\n\n{}\n\n\n{}\n\n{}",
            words(150, "a"),
            words(120, "b"),
            words(450, "c"),
            words(5, "d")
        );
        let got = split(&text, 200).expect("valid");
        let joined: Vec<String> = got
            .iter()
            .flat_map(|p| p.split_whitespace().map(str::to_string))
            .collect();
        let original: Vec<String> = text.split_whitespace().map(str::to_string).collect();
        assert_eq!(joined, original);
        assert!(got.iter().all(|p| p.split_whitespace().count() <= 200));
    }
}
