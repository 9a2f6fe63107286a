//! Plain-text helpers shared by every format (pure): offset conversion between the units the
//! providers use, sentence boundaries, and the claim a cited sentence makes once its citation
//! markup is removed.
//!
//! Internally every range is a UTF-8 byte range into the answer's text that lies on character
//! boundaries; [`to_chars`] turns one into the documented output unit (Unicode scalar values,
//! end exclusive).

use std::ops::Range;

/// The byte offset of the `index`-th character (Unicode scalar value) of `text`; `index` equal to
/// the number of characters gives `text.len()`. `None` past the end.
pub fn char_to_byte(text: &str, index: usize) -> Option<usize> {
    if index == 0 {
        return Some(0);
    }
    let mut seen = 0;
    for (byte, _) in text.char_indices() {
        if seen == index {
            return Some(byte);
        }
        seen += 1;
    }
    (seen == index).then_some(text.len())
}

/// A provider's range in characters, as bytes; `Err` says why it cannot be one.
pub fn chars_range(text: &str, start: u64, end: u64) -> Result<Range<usize>, String> {
    let (Ok(s), Ok(e)) = (usize::try_from(start), usize::try_from(end)) else {
        return Err(format!("offsets {start}..{end} are out of range"));
    };
    if s > e {
        return Err(format!("start {start} is after end {end}"));
    }
    let count = text.chars().count();
    match (char_to_byte(text, s), char_to_byte(text, e)) {
        (Some(a), Some(b)) => Ok(a..b),
        _ => Err(format!(
            "offsets {start}..{end} fall outside the text ({count} characters)"
        )),
    }
}

/// A provider's range in UTF-8 bytes; `Err` when it leaves the text or splits a character.
pub fn bytes_range(text: &str, start: u64, end: u64) -> Result<Range<usize>, String> {
    let (Ok(s), Ok(e)) = (usize::try_from(start), usize::try_from(end)) else {
        return Err(format!("offsets {start}..{end} are out of range"));
    };
    if s > e {
        return Err(format!("start {start} is after end {end}"));
    }
    if e > text.len() {
        return Err(format!(
            "byte offsets {start}..{end} fall outside the text ({} bytes)",
            text.len()
        ));
    }
    for b in [s, e] {
        if !text.is_char_boundary(b) {
            return Err(format!("byte offset {b} is inside a multi-byte character"));
        }
    }
    Ok(s..e)
}

/// A byte range (on character boundaries) as a character range.
pub fn to_chars(text: &str, range: &Range<usize>) -> (usize, usize) {
    let start = text.get(..range.start).map_or(0, |t| t.chars().count());
    let len = text.get(range.clone()).map_or(0, |t| t.chars().count());
    (start, start + len)
}

/// `range` without the whitespace at either end.
pub fn trim_range(text: &str, range: Range<usize>) -> Range<usize> {
    let Some(slice) = text.get(range.clone()) else {
        return range;
    };
    let start = range.start + (slice.len() - slice.trim_start().len());
    let end = range.end - (slice.len() - slice.trim_end().len());
    start..end.max(start)
}

/// The sentences of `text[within]`, as byte ranges of `text`, trimmed. A segment that holds only
/// citation markup (`([site](url))` after a full stop) joins the sentence before it, because it
/// cites that sentence.
pub fn sentences(text: &str, within: Range<usize>) -> Vec<Range<usize>> {
    let Some(slice) = text.get(within.clone()) else {
        return Vec::new();
    };
    let base = within.start;
    let mut cuts = vec![0];
    let chars: Vec<(usize, char)> = slice.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let (_, c) = chars[i];
        if c == '\n' {
            cuts.push(chars[i].0 + 1);
        } else if matches!(c, '.' | '!' | '?' | '。' | '！' | '？') {
            let mut j = i + 1;
            // Closing quotes, brackets and markers right after the stop belong to the sentence.
            while j < chars.len() {
                let (_, n) = chars[j];
                if matches!(n, ')' | '"' | '\'' | '”' | '’' | '»' | '*' | '_') {
                    j += 1;
                } else if n == '[' {
                    match marker_len(&chars[j..]) {
                        Some(len) => j += len,
                        None => break,
                    }
                } else {
                    break;
                }
            }
            let at_end = j >= chars.len();
            let ideographic = matches!(c, '。' | '！' | '？');
            if at_end || ideographic || chars[j].1.is_whitespace() {
                let cut = if at_end { slice.len() } else { chars[j].0 };
                cuts.push(cut);
                i = j;
                continue;
            }
        }
        i += 1;
    }
    cuts.push(slice.len());
    let mut out: Vec<Range<usize>> = Vec::new();
    for pair in cuts.windows(2) {
        let range = trim_range(text, base + pair[0]..base + pair[1]);
        let Some(piece) = text.get(range.clone()) else {
            continue;
        };
        if !piece.chars().any(char::is_alphanumeric) {
            continue;
        }
        if claim(piece).chars().any(char::is_alphanumeric) {
            out.push(range);
        } else if let Some(last) = out.last_mut() {
            last.end = range.end;
        }
    }
    out
}

/// Characters taken by a `[...]` marker at the start of `chars` (`[3]`, `[^a]`, `[1, 2]`).
fn marker_len(chars: &[(usize, char)]) -> Option<usize> {
    let close = chars.iter().take(16).position(|&(_, c)| c == ']')?;
    let inner: String = chars[1..close].iter().map(|&(_, c)| c).collect();
    let ok = !inner.is_empty()
        && (inner.starts_with('^')
            || inner
                .chars()
                .all(|c| c.is_ascii_digit() || c == ',' || c == ' '));
    ok.then_some(close + 1)
}

/// The smallest run of whole sentences that covers `range`; `range` itself when no sentence
/// touches it.
pub fn sentence_around(sentences: &[Range<usize>], range: &Range<usize>) -> Range<usize> {
    let touching: Vec<&Range<usize>> = sentences
        .iter()
        .filter(|s| overlaps(s, range) || (range.is_empty() && s.contains(&range.start)))
        .collect();
    match (touching.first(), touching.last()) {
        (Some(first), Some(last)) => first.start.min(range.start)..last.end.max(range.end),
        _ => range.clone(),
    }
}

/// True when the two ranges share at least one byte.
pub fn overlaps(a: &Range<usize>, b: &Range<usize>) -> bool {
    a.start < b.end && b.start < a.end
}

/// The statement a cited piece of text makes: citation markers (`[1]`, `[^a]`), parenthesised
/// links and bare URLs removed, inline links reduced to their text, emphasis and list or heading
/// markers dropped, whitespace collapsed.
pub fn claim(piece: &str) -> String {
    let chars: Vec<char> = piece.chars().collect();
    let mut out = String::with_capacity(piece.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '(' {
            if let Some(end) = link_group_end(&chars, i) {
                i = end;
                continue;
            }
        }
        if c == '[' {
            let close = find(&chars, i + 1, ']');
            if let Some(close) = close {
                let inner: String = chars[i + 1..close].iter().collect();
                let is_marker = !inner.is_empty()
                    && (inner.starts_with('^')
                        || inner
                            .chars()
                            .all(|c| c.is_ascii_digit() || c == ',' || c == ' '));
                if chars.get(close + 1) == Some(&'(') {
                    if let Some(end) = find(&chars, close + 2, ')') {
                        out.push_str(&inner);
                        i = end + 1;
                        continue;
                    }
                }
                if is_marker {
                    i = close + 1;
                    continue;
                }
                if chars.get(close + 1) == Some(&'[') {
                    if let Some(end) = find(&chars, close + 2, ']') {
                        out.push_str(&inner);
                        i = end + 1;
                        continue;
                    }
                }
            }
        }
        if c == 'h' && (starts_with(&chars, i, "http://") || starts_with(&chars, i, "https://")) {
            while i < chars.len() && !chars[i].is_whitespace() && chars[i] != ')' {
                i += 1;
            }
            continue;
        }
        if c == '<' && (starts_with(&chars, i + 1, "http")) {
            if let Some(end) = find(&chars, i + 1, '>') {
                i = end + 1;
                continue;
            }
        }
        if matches!(c, '*' | '_' | '`') {
            i += 1;
            continue;
        }
        out.push(c);
        i += 1;
    }
    let collapsed = out.split_whitespace().collect::<Vec<_>>().join(" ");
    let trimmed = collapsed
        .trim_start_matches(|c: char| matches!(c, '#' | '-' | '>' | '•') || c.is_whitespace())
        .trim();
    // "Water boils at 100 °C ." after a marker went: glue the stop back.
    trimmed
        .replace(" .", ".")
        .replace(" ,", ",")
        .replace("( )", "")
        .replace("()", "")
        .trim()
        .to_string()
}

/// The end (exclusive) of `(...)` at `open` when it holds only links or URLs.
fn link_group_end(chars: &[char], open: usize) -> Option<usize> {
    let close = {
        let mut depth = 0usize;
        let mut found = None;
        for (k, &c) in chars.iter().enumerate().skip(open) {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        found = Some(k);
                        break;
                    }
                }
                _ => {}
            }
        }
        found?
    };
    let inner: String = chars[open + 1..close].iter().collect();
    let inner = inner.trim();
    let only_links = inner.starts_with("http://")
        || inner.starts_with("https://")
        || (inner.starts_with('[') && inner.ends_with(')') && inner.contains("](http"));
    only_links.then_some(close + 1)
}

fn find(chars: &[char], from: usize, wanted: char) -> Option<usize> {
    chars
        .iter()
        .enumerate()
        .skip(from)
        .find(|&(_, &c)| c == wanted || c == '\n')
        .filter(|&(_, &c)| c == wanted)
        .map(|(k, _)| k)
}

fn starts_with(chars: &[char], at: usize, prefix: &str) -> bool {
    (at..)
        .zip(prefix.chars())
        .all(|(k, p)| chars.get(k) == Some(&p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn character_and_byte_offsets_convert_both_ways() {
        let text = "Größe 😀 ok";
        assert_eq!(char_to_byte(text, 0), Some(0));
        assert_eq!(char_to_byte(text, 3), Some(4));
        assert_eq!(char_to_byte(text, 10), Some(text.len()));
        assert_eq!(char_to_byte(text, 11), None);
        let r = chars_range(text, 6, 7).expect("in range");
        assert_eq!(&text[r.clone()], "😀");
        assert_eq!(to_chars(text, &r), (6, 7));
        assert!(bytes_range(text, 3, 4).is_err(), "inside ö");
        assert!(bytes_range(text, 0, 99).is_err());
        assert!(chars_range(text, 5, 4).is_err());
    }

    #[test]
    fn sentences_keep_their_markers_and_absorb_a_trailing_link() {
        let text = "Water boils at 100 °C.[1] It freezes at 0 °C. ([site](https://a.example/x))\nNext line";
        let found: Vec<&str> = sentences(text, 0..text.len())
            .into_iter()
            .map(|r| &text[r])
            .collect();
        assert_eq!(
            found,
            [
                "Water boils at 100 °C.[1]",
                "It freezes at 0 °C. ([site](https://a.example/x))",
                "Next line"
            ]
        );
    }

    #[test]
    fn a_claim_drops_citation_markup() {
        let table = [
            ("Water boils at 100 °C.[1][2]", "Water boils at 100 °C."),
            (
                "It freezes ([site](https://a.example/x)) at 0 °C.",
                "It freezes at 0 °C.",
            ),
            (
                "- According to [the survey](https://s.example) **most** agree[^3].",
                "According to the survey most agree.",
            ),
            ("Seen here (https://x.example/p).", "Seen here."),
        ];
        for (input, want) in table {
            assert_eq!(claim(input), want, "{input}");
        }
    }
}
