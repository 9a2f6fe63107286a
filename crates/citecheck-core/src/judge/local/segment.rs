//! Passage -> sentences (pure). Markdown headings, list items and table rows are units of their
//! own; paragraphs are cut at sentence ends, but not after abbreviations ("Dr.", "e.g.",
//! initials) or inside decimals. Every unit is a byte range of the passage, so its text is a
//! verbatim quote.

use std::ops::Range;

use super::lex::footnote_chars;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Sentence,
    Heading,
    ListItem,
    TableRow,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    pub range: Range<usize>,
    pub kind: Kind,
    /// Index (in the returned list) of the nearest heading above, if any.
    pub heading: Option<usize>,
    /// For a table row: the index of the table's header row.
    pub header: Option<usize>,
    /// Index of the first unit of the paragraph (or list item) this unit belongs to: the
    /// paragraph's topic sentence, which later sentences refer back to with "it" and "they".
    pub paragraph: usize,
}

/// A middle dot and a bullet, which separate the items of a summary line when spaces stand
/// on both sides ("revenue £318.4m · operating profit £52.1m").
pub const ITEM_SEPARATORS: [char; 2] = ['\u{b7}', '\u{2022}'];

/// Words that end with a period without ending a sentence.
const ABBREVIATIONS: &[&str] = &[
    "mr", "mrs", "ms", "dr", "prof", "st", "sr", "jr", "vs", "no", "nos", "fig", "figs", "approx",
    "ca", "inc", "ltd", "co", "corp", "mt", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
    "sept", "oct", "nov", "dec", "gen", "gov", "sen", "rep", "rev", "vol", "pp", "ed", "est",
    "dept", "univ",
    // A court case's "v." ("Dobbs v. Jackson Women's Health Organization").
    "v",
];

/// Splits a passage into units, in order.
pub fn split(passage: &str) -> Vec<Segment> {
    let mut out: Vec<Segment> = Vec::new();
    let mut heading: Option<usize> = None;
    let mut paragraph: Option<Range<usize>> = None;
    let mut table_header: Option<usize> = None;
    let mut previous_row: Option<usize> = None;
    let mut offset = 0;

    let flush = |out: &mut Vec<Segment>, paragraph: &mut Option<Range<usize>>, heading| {
        if let Some(range) = paragraph.take() {
            push_sentences(out, passage, range, Kind::Sentence, heading);
        }
    };

    for line in passage.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let body = line.trim_end();
        let indent = body.len() - body.trim_start().len();
        let trimmed = body.trim_start();
        let at = start + indent;
        if !trimmed.starts_with('|') {
            table_header = None;
            previous_row = None;
        }
        if trimmed.is_empty() {
            flush(&mut out, &mut paragraph, heading);
            continue;
        }
        if let Some(content) = heading_content(trimmed) {
            flush(&mut out, &mut paragraph, heading);
            let range = sub_range(passage, at, trimmed, content);
            if has_text(&passage[range.clone()]) {
                out.push(Segment {
                    range,
                    kind: Kind::Heading,
                    heading,
                    header: None,
                    paragraph: out.len(),
                });
                heading = Some(out.len() - 1);
            }
            continue;
        }
        if trimmed.starts_with('|') {
            flush(&mut out, &mut paragraph, heading);
            if is_table_rule(trimmed) {
                table_header = previous_row;
                continue;
            }
            let inner = trimmed.trim_matches('|').trim();
            let range = sub_range(passage, at, trimmed, inner);
            if has_text(inner) {
                out.push(Segment {
                    range,
                    kind: Kind::TableRow,
                    heading,
                    header: table_header,
                    paragraph: out.len(),
                });
                previous_row = Some(out.len() - 1);
            }
            continue;
        }
        if let Some(content) = list_item_content(trimmed) {
            flush(&mut out, &mut paragraph, heading);
            let range = sub_range(passage, at, trimmed, content);
            push_sentences(&mut out, passage, range, Kind::ListItem, heading);
            continue;
        }
        if is_rule(trimmed) {
            flush(&mut out, &mut paragraph, heading);
            continue;
        }
        let content = trimmed.trim_start_matches('>').trim_start();
        let range = sub_range(passage, at, trimmed, content);
        paragraph = Some(match paragraph.take() {
            Some(open) => open.start..range.end,
            None => range,
        });
    }
    flush(&mut out, &mut paragraph, heading);
    out
}

/// The byte range of `content` (a subslice of `line`, which starts at `at` in the passage).
fn sub_range(passage: &str, at: usize, line: &str, content: &str) -> Range<usize> {
    let skip = content.as_ptr() as usize - line.as_ptr() as usize;
    debug_assert!(passage.is_char_boundary(at + skip));
    at + skip..at + skip + content.len()
}

fn heading_content(line: &str) -> Option<&str> {
    let hashes = line.chars().take_while(|&c| c == '#').count();
    if !(1..=6).contains(&hashes) {
        return None;
    }
    let rest = &line[hashes..];
    if !rest.is_empty() && !rest.starts_with(char::is_whitespace) {
        return None;
    }
    Some(rest.trim().trim_end_matches('#').trim_end())
}

fn list_item_content(line: &str) -> Option<&str> {
    let marker = if line.starts_with(['*', '-', '+']) {
        1
    } else {
        let digits = line.chars().take_while(char::is_ascii_digit).count();
        if (1..=3).contains(&digits) && line[digits..].starts_with(['.', ')']) {
            digits + 1
        } else {
            return None;
        }
    };
    let rest = &line[marker..];
    rest.starts_with(char::is_whitespace)
        .then(|| rest.trim_start())
        .filter(|r| !r.is_empty())
}

fn is_table_rule(line: &str) -> bool {
    line.contains('-') && line.chars().all(|c| matches!(c, '|' | '-' | ':' | ' '))
}

fn is_rule(line: &str) -> bool {
    let compact: String = line.chars().filter(|c| !c.is_whitespace()).collect();
    compact.len() >= 3
        && (compact.chars().all(|c| c == '-')
            || compact.chars().all(|c| c == '*')
            || compact.chars().all(|c| c == '_'))
}

fn has_text(text: &str) -> bool {
    text.chars().any(char::is_alphanumeric)
}

/// Cuts `range` of `passage` into sentences and appends them.
fn push_sentences(
    out: &mut Vec<Segment>,
    passage: &str,
    range: Range<usize>,
    kind: Kind,
    heading: Option<usize>,
) {
    let text = &passage[range.clone()];
    let first = out.len();
    let mut start = 0;
    for end in sentence_ends(text) {
        let part = range.start + start..range.start + end;
        push_trimmed(out, passage, part, kind, heading, first);
        start = end;
    }
    push_trimmed(
        out,
        passage,
        range.start + start..range.end,
        kind,
        heading,
        first,
    );
}

fn push_trimmed(
    out: &mut Vec<Segment>,
    passage: &str,
    range: Range<usize>,
    kind: Kind,
    heading: Option<usize>,
    paragraph: usize,
) {
    let text = &passage[range.clone()];
    // The separator a summary line's item starts with is not part of it.
    let opened =
        text.trim_start_matches(|c: char| c.is_whitespace() || ITEM_SEPARATORS.contains(&c));
    let lead = text.len() - opened.len();
    let trimmed = opened.trim_end();
    if has_text(trimmed) {
        out.push(Segment {
            range: range.start + lead..range.start + lead + trimmed.len(),
            kind,
            heading,
            header: None,
            paragraph,
        });
    }
}

/// Byte offsets just after each sentence end in `text` (the terminal punctuation and any
/// closing quotes or brackets included).
fn sentence_ends(text: &str) -> Vec<usize> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut ends = Vec::new();
    let spaced = |k: Option<usize>| k.and_then(|k| chars.get(k)).is_some_and(|&(_, n)| n == ' ');
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        // A middle dot or bullet between spaces separates the items of a summary line
        // ("operating profit £52.1m (-9%) · net profit £31.7m (-23%)"): each item is a unit,
        // so one item's figure is not read as another's.
        if ITEM_SEPARATORS.contains(&c) && spaced(i.checked_sub(1)) && spaced(Some(i + 1)) {
            ends.push(at);
            i += 1;
            continue;
        }
        if !matches!(c, '.' | '!' | '?' | '\u{2026}') {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        while j < chars.len() && matches!(chars[j].1, '.' | '!' | '?') {
            j += 1;
        }
        loop {
            if let Some(skip) = footnote_chars(&chars, j) {
                // "tall.[3] It was": the note marker belongs to the sentence it closes.
                j += skip;
            } else if j < chars.len()
                && matches!(
                    chars[j].1,
                    ')' | ']' | '"' | '\'' | '\u{201D}' | '\u{2019}' | '*' | '_'
                )
            {
                j += 1;
            } else {
                break;
            }
        }
        let end = chars.get(j).map_or(text.len(), |&(b, _)| b);
        let followed_by_space = chars.get(j).is_some_and(|&(_, n)| n.is_whitespace());
        let next_visible = chars[j..]
            .iter()
            .map(|&(_, n)| n)
            .find(|n| !n.is_whitespace());
        let opens_sentence = next_visible.is_some_and(|n| {
            n.is_uppercase()
                || n.is_ascii_digit()
                || matches!(
                    n,
                    '"' | '\u{201C}' | '\'' | '\u{2018}' | '(' | '[' | '*' | '_'
                )
        });
        if followed_by_space
            && opens_sentence
            && (c != '.' || !after_abbreviation(text, chars[i].0))
        {
            ends.push(end);
        }
        i = j.max(i + 1);
    }
    ends
}

/// Whether the period at byte `dot` closes an abbreviation or an initial rather than a sentence.
fn after_abbreviation(text: &str, dot: usize) -> bool {
    let before = &text[..dot];
    let word_start = before
        .rfind(|c: char| c.is_whitespace() || matches!(c, '(' | '[' | '"' | '\u{201C}'))
        .map_or(0, |p| {
            p + before[p..].chars().next().map_or(1, char::len_utf8)
        });
    let word = &before[word_start..];
    if word.is_empty() {
        return false;
    }
    // "J." (an initial), "e.g." / "U.S." (dotted abbreviations).
    if word.chars().count() == 1 && word.starts_with(char::is_uppercase) {
        return true;
    }
    if word.contains('.') && word.chars().all(|c| c.is_alphabetic() || c == '.') {
        return true;
    }
    ABBREVIATIONS.contains(&word.to_lowercase().as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(passage: &str) -> Vec<(&str, Kind)> {
        split(passage)
            .into_iter()
            .map(|s| (&passage[s.range], s.kind))
            .collect()
    }

    #[test]
    fn paragraphs_are_cut_at_sentence_ends_only() {
        let table: &[(&str, &[&str])] = &[
            (
                "Water boils at 100 °C. At altitude it boils sooner!",
                &["Water boils at 100 °C.", "At altitude it boils sooner!"],
            ),
            (
                "In Dobbs v. Jackson Women's Health Organization the Court ruled. Roe fell.",
                &[
                    "In Dobbs v. Jackson Women's Health Organization the Court ruled.",
                    "Roe fell.",
                ],
            ),
            // A summary line's items, each its own unit; a dot inside a word is none.
            (
                "Revenue £318.4m (+6.2%) · operating profit £52.1m (-9%) • jobs cut 420",
                &[
                    "Revenue £318.4m (+6.2%)",
                    "operating profit £52.1m (-9%)",
                    "jobs cut 420",
                ],
            ),
            ("The ca·ble snapped.", &["The ca·ble snapped."]),
            (
                "Dr. Smith met J. R. R. Tolkien in the U.S. in 1950. They spoke.",
                &[
                    "Dr. Smith met J. R. R. Tolkien in the U.S. in 1950.",
                    "They spoke.",
                ],
            ),
            (
                "It is 412 m long.[3] It opened in 1911.[4][a] Next.",
                &["It is 412 m long.[3]", "It opened in 1911.[4][a]", "Next."],
            ),
            (
                "It holds 2.5 million rivets, e.g. the big ones. Next.",
                &["It holds 2.5 million rivets, e.g. the big ones.", "Next."],
            ),
            (
                "He said \u{201C}it is done.\u{201D} Then he left.",
                &["He said \u{201C}it is done.\u{201D}", "Then he left."],
            ),
            (
                "A line\nthat wraps. And ends",
                &["A line\nthat wraps.", "And ends"],
            ),
            (
                "ends with lower case. then continues.",
                &["ends with lower case. then continues."],
            ),
        ];
        for (passage, expected) in table {
            let got: Vec<&str> = texts(passage).into_iter().map(|(t, _)| t).collect();
            assert_eq!(got, *expected, "{passage}");
        }
    }

    #[test]
    fn markdown_blocks_are_units_without_their_markers() {
        let passage = "## The dough\n\n*   500 g flour\n*   10 g salt\n\n1. Mix. Rest.\n\n| Code | Name |\n| ---- | ---- |\n| 404  | Not Found |\n\n---\n\n> Quoted text here.";
        assert_eq!(
            texts(passage),
            vec![
                ("The dough", Kind::Heading),
                ("500 g flour", Kind::ListItem),
                ("10 g salt", Kind::ListItem),
                ("Mix.", Kind::ListItem),
                ("Rest.", Kind::ListItem),
                ("Code | Name", Kind::TableRow),
                ("404  | Not Found", Kind::TableRow),
                ("Quoted text here.", Kind::Sentence),
            ]
        );
    }

    #[test]
    fn rows_know_their_header_and_units_their_heading() {
        let passage = "## Codes\n\n| Code | Name |\n| --- | --- |\n| 429 | Too Many Requests |\n\nA sentence.";
        let segments = split(passage);
        assert_eq!(segments[2].header, Some(1));
        assert_eq!(segments[2].heading, Some(0));
        assert_eq!(segments[3].heading, Some(0));
        assert_eq!(segments[1].header, None);
    }

    #[test]
    fn sentences_know_the_first_sentence_of_their_paragraph() {
        let segments = split("One. Two. Three.\n\nFour. Five.");
        let firsts: Vec<usize> = segments.iter().map(|s| s.paragraph).collect();
        assert_eq!(firsts, vec![0, 0, 0, 3, 3]);
    }

    #[test]
    fn every_unit_is_a_verbatim_slice() {
        let passage =
            "# Caf\u{e9} \u{2014} history\n\nThe caf\u{e9} opened in 1905. It closed.\n- item one";
        for segment in split(passage) {
            assert!(passage.get(segment.range.clone()).is_some());
        }
    }
}
