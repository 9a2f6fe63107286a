//! Where a browser would land (pure): the specification's "find a range from a text directive"
//! run over a [`Rendered`](super::rendered::Rendered) text.
//!
//! Takes the visible text (blocks separated by `'\n'`) and a [`TextDirective`]; gives the
//! character range the directive selects, or `None`. It follows the specification's steps:
//! terms match case-insensitively and word-bounded, never across a block, context terms may be
//! separated from the match by any whitespace (block breaks included), and an exact match whose
//! suffix does not follow moves on to the next candidate. The comparison folds case only; a
//! browser also ignores accents, so on pages where two spellings differ only in accents this is
//! stricter than the browser, never looser in what it accepts as a match of the intended text.
//! The directive builder uses it to check a link before handing it out.

use std::ops::Range;

use crate::fragment::TextDirective;

/// The range `directive` selects in `text`, as a browser would find it.
pub fn find(text: &[char], directive: &TextDirective) -> Option<Range<usize>> {
    let text: Vec<char> = text.iter().map(|&c| fold(c)).collect();
    let term = |t: &str| t.chars().map(fold).collect::<Vec<char>>();
    let start = term(&directive.start);
    let prefix = directive.prefix.as_deref().map(term);
    let end = directive.end.as_deref().map(term);
    let suffix = directive.suffix.as_deref().map(term);
    let len = text.len();
    let start_must_end_at_word = end.is_some() || suffix.is_none();

    let mut search_from = 0;
    while search_from < len {
        let mut potential = match &prefix {
            Some(prefix) => {
                let found = find_term(&text, prefix, search_from, true, false, false)?;
                search_from = found.start + 1;
                let at = skip_whitespace(&text, found.end);
                if at >= len {
                    return None;
                }
                match find_term(&text, &start, at, false, start_must_end_at_word, true) {
                    Some(m) => m,
                    None => continue,
                }
            }
            None => {
                let m = find_term(
                    &text,
                    &start,
                    search_from,
                    true,
                    start_must_end_at_word,
                    false,
                )?;
                search_from = m.start + 1;
                m
            }
        };
        let mut end_from = potential.end;
        loop {
            if let Some(end) = &end {
                let m = find_term(&text, end, end_from, true, suffix.is_none(), false)?;
                potential.end = m.end;
            }
            let Some(suffix) = &suffix else {
                return Some(potential);
            };
            let at = skip_whitespace(&text, potential.end);
            if find_term(&text, suffix, at, false, true, true).is_some() {
                return Some(potential);
            }
            if end.is_none() {
                break;
            }
            end_from = potential.end;
            if end_from >= len {
                return None;
            }
        }
    }
    None
}

/// Case folding, one character for one so that indices stay aligned.
fn fold(c: char) -> char {
    c.to_lowercase().next().unwrap_or(c)
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric()
}

/// A position is a word boundary unless it sits between two word characters.
pub(crate) fn at_word_boundary(text: &[char], at: usize) -> bool {
    at == 0 || at >= text.len() || !(is_word(text[at - 1]) && is_word(text[at]))
}

fn skip_whitespace(text: &[char], mut at: usize) -> usize {
    while at < text.len() && text[at].is_whitespace() {
        at += 1;
    }
    at
}

/// The specification's "find a string in range": the first instance of `query` at or after
/// `from`, inside one block, with the requested word bounds.
fn find_term(
    text: &[char],
    query: &[char],
    from: usize,
    start_bounded: bool,
    end_bounded: bool,
    at_beginning: bool,
) -> Option<Range<usize>> {
    if query.is_empty() || query.len() > text.len() {
        return None;
    }
    let last = text.len() - query.len();
    let mut at = from;
    while at <= last {
        // A query never contains a block break, so a match can never cross one.
        if text[at..at + query.len()] == *query
            && (!start_bounded || at_word_boundary(text, at))
            && (!end_bounded || at_word_boundary(text, at + query.len()))
        {
            return Some(at..at + query.len());
        }
        if at_beginning {
            return None;
        }
        at += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    fn found(text: &str, directive: &str) -> Option<String> {
        let d = TextDirective::parse(directive).expect("valid directive");
        let t = chars(text);
        find(&t, &d).map(|r| t[r].iter().collect())
    }

    fn at(text: &str, directive: &str) -> Option<usize> {
        let d = TextDirective::parse(directive).expect("valid directive");
        find(&chars(text), &d).map(|r| r.start)
    }

    #[test]
    fn the_specifications_context_example_matches_only_with_its_context() {
        let d = "this%20is-,an%20example,-text%20fragment";
        assert_eq!(
            found("this is an example text fragment", d).as_deref(),
            Some("an example")
        );
        assert_eq!(found("here is an example text", d), None);
    }

    #[test]
    fn a_range_runs_from_start_to_the_first_end_after_it() {
        let text = "an example of a text fragment and another text fragment";
        assert_eq!(
            found(text, "an%20example,text%20fragment").as_deref(),
            Some("an example of a text fragment")
        );
    }

    #[test]
    fn the_specifications_block_example() {
        // "The quick" split by a block does not match; in one block it does.
        assert_eq!(
            found(
                "The\nquick brown fox\njumped over the lazy dog",
                "The%20quick,lazy%20dog"
            ),
            None
        );
        assert_eq!(
            found(
                "The quick brown fox\njumped over the lazy dog",
                "The%20quick,lazy%20dog"
            )
            .as_deref(),
            Some("The quick brown fox\njumped over the lazy dog")
        );
    }

    #[test]
    fn matching_ignores_case_and_needs_word_bounds() {
        assert_eq!(at("Forest ranger. A range.", "range"), Some(17));
        assert_eq!(at("color orange", "range"), None);
        assert_eq!(at("WATER boils", "water%20boils"), Some(0));
    }

    #[test]
    fn context_may_sit_across_a_block_break() {
        assert_eq!(
            at(
                "Intro\nText to quote. HEADER\nText to quote",
                "HEADER-,Text%20to%20quote"
            ),
            Some(28)
        );
    }

    #[test]
    fn an_exact_match_without_its_suffix_moves_on() {
        let text = "boils at sea. Water boils at altitude.";
        assert_eq!(at(text, "boils,-at%20altitude"), Some(20));
        assert_eq!(at(text, "boils,-on%20mars"), None);
    }
}
