//! Evidence a reader can follow (pure): where an accepted quote sits in the page, and a link
//! that takes a browser there.
//!
//! Takes the page's Markdown (the stored snapshot the quote guard checked), the passages the
//! judge was shown, and the quote; gives the quote's character range in the Markdown and a
//! [`TextDirective`] built from the page's *visible* text, as a browser matches it (markup gone,
//! whitespace collapsed, no term across a block).
//!
//! Guarantees: the quote is found the way the guard compares (curly quotes straightened,
//! whitespace runs as one space, inline Markdown ignored). When the quote occurs more than once,
//! the occurrence inside the passage the judge saw is the one located. The directive is checked
//! with [`search::find`] before it is returned: a plain `start` (or `start,end` for a quote
//! longer than [`EXACT_LIMIT`] characters or spanning blocks) when that already selects the
//! quote, `prefix-,` / `,-suffix` context words only when the plain form would land on an
//! earlier occurrence. Terms are widened to whole words, since a browser only matches whole
//! words.

pub mod rendered;
pub mod search;

use std::ops::Range;

use crate::fragment::{self, TextDirective};
use crate::guard;
use crate::model::EvidenceOffsets;
use rendered::{Rendered, BLOCK_BREAK};

/// Quotes up to this many characters are linked as one exact term; longer ones as a range (the
/// specification's advice for generated links).
pub const EXACT_LIMIT: usize = 300;
/// Words in each term of a range, before more are added to make the link land right.
const RANGE_WORDS: usize = 4;
/// The most context words tried on each side.
const MAX_CONTEXT_WORDS: usize = 6;

/// Where a quote is, in the stored Markdown and in the visible text.
#[derive(Debug, Clone, PartialEq)]
pub struct Anchor {
    /// The quote's range in the Markdown, in characters (Unicode scalar values).
    pub offsets: Range<usize>,
    /// The directive that selects the quote in the rendered page.
    pub directive: TextDirective,
}

/// Finds `quote` in `markdown`, preferring the occurrence inside one of `passages` (the text
/// the judge was shown, best first). `None` when the quote is not in the page.
pub fn locate(markdown: &str, passages: &[String], quote: &str) -> Option<Anchor> {
    let page = rendered::render(markdown);
    let target = locate_rendered(&page, passages, quote)?;
    let bytes = page.source_range(target.clone())?;
    let offsets = char_offset(markdown, bytes.start)..char_offset(markdown, bytes.end);
    let directive = directive_for(&page.text, target)?;
    Some(Anchor { offsets, directive })
}

/// The evidence link and offsets for a verdict's quote: `final_url` with the quote's text
/// directive, and the quote's range in `markdown`. `None` when the quote is not in the page
/// (the guard found it in the passages, so this only happens when rendering loses it).
pub fn evidence(
    final_url: &str,
    markdown: &str,
    passages: &[String],
    quote: &str,
) -> Option<(String, EvidenceOffsets)> {
    let anchor = locate(markdown, passages, quote)?;
    Some((
        fragment::link(final_url, &anchor.directive),
        EvidenceOffsets {
            start: anchor.offsets.start,
            end: anchor.offsets.end,
        },
    ))
}

/// The character range of the quote in the rendered text.
fn locate_rendered(page: &Rendered, passages: &[String], quote: &str) -> Option<Range<usize>> {
    let hay = comparable(&page.text);
    for wanted in [
        guard::normalise(quote),
        guard::normalise(&guard::strip_inline_markdown(quote)),
    ] {
        let wanted: Vec<char> = wanted.chars().collect();
        let hits = occurrences(&hay, &wanted);
        let Some(&first) = hits.first() else {
            continue;
        };
        let chosen = if hits.len() == 1 {
            first
        } else {
            seen_occurrence(&hay, &wanted, passages, quote).unwrap_or(first)
        };
        return Some(chosen..chosen + wanted.len());
    }
    None
}

/// Among several occurrences, the one the judge saw: the quote with the text around it in the
/// first passage that holds it, searched for in the page.
fn seen_occurrence(
    hay: &[char],
    wanted: &[char],
    passages: &[String],
    quote: &str,
) -> Option<usize> {
    let passage = passages
        .iter()
        .find(|p| guard::quote_in_passages(quote, std::slice::from_ref(*p)))?;
    let seen = comparable(&rendered::render(passage).text);
    let at = occurrences(&seen, wanted).into_iter().next()?;
    // Widen the window until it is unique in the page (or the passage runs out).
    for margin in [40usize, 120, 400, usize::MAX] {
        let from = at.saturating_sub(margin);
        let to = at
            .saturating_add(wanted.len())
            .saturating_add(margin)
            .min(seen.len());
        let hits = occurrences(hay, &seen[from..to]);
        if hits.len() == 1 {
            return Some(hits[0] + (at - from));
        }
        if hits.is_empty() {
            return None;
        }
    }
    None
}

/// The text as the guard compares it: quotes straightened, block breaks as spaces.
fn comparable(text: &[char]) -> Vec<char> {
    text.iter()
        .map(|&c| {
            if c == BLOCK_BREAK {
                ' '
            } else {
                guard::straighten(c)
            }
        })
        .collect()
}

fn occurrences(hay: &[char], wanted: &[char]) -> Vec<usize> {
    if wanted.is_empty() || wanted.len() > hay.len() {
        return Vec::new();
    }
    hay.windows(wanted.len())
        .enumerate()
        .filter(|(_, w)| *w == wanted)
        .map(|(i, _)| i)
        .collect()
}

fn char_offset(text: &str, byte: usize) -> usize {
    text.get(..byte)
        .map(|s| s.chars().count())
        .unwrap_or_else(|| text.chars().count())
}

/// A directive that lands on `target` in `text`, or the best plain one when none does.
pub fn directive_for(text: &[char], target: Range<usize>) -> Option<TextDirective> {
    let target = widen_to_words(text, target);
    let matched = &text[target.clone()];
    if matched.is_empty() {
        return None;
    }
    let one_block = !matched.contains(&BLOCK_BREAK);
    let mut plain = Vec::new();
    if one_block && matched.len() <= EXACT_LIMIT {
        plain.push(TextDirective::exact(collect(matched)).ok()?);
    } else {
        let first_block = block_segments(matched).next().unwrap_or(matched);
        let last_block = block_segments(matched).last().unwrap_or(matched);
        for words in RANGE_WORDS..=RANGE_WORDS * 4 {
            let start = first_words(first_block, words);
            let end = last_words(last_block, words);
            if let Ok(d) = TextDirective::range(collect(start), collect(end)) {
                if !plain.contains(&d) {
                    plain.push(d);
                }
            }
        }
    }
    let before = &text[..target.start];
    let after = &text[target.end..];
    for base in &plain {
        if search::find(text, base) == Some(target.clone()) {
            return Some(base.clone());
        }
        for words in 1..=MAX_CONTEXT_WORDS {
            let prefix = context_before(before, words).map(collect);
            let suffix = context_after(after, words).map(collect);
            let Ok(d) = base.clone().with_context(prefix, suffix) else {
                continue;
            };
            if search::find(text, &d) == Some(target.clone()) {
                return Some(d);
            }
        }
    }
    plain.into_iter().next()
}

fn collect(chars: &[char]) -> String {
    chars.iter().collect()
}

/// `target` grown to whole words and trimmed of surrounding whitespace.
fn widen_to_words(text: &[char], target: Range<usize>) -> Range<usize> {
    let (mut start, mut end) = (target.start.min(text.len()), target.end.min(text.len()));
    while start > 0 && !search::at_word_boundary(text, start) {
        start -= 1;
    }
    while end < text.len() && !search::at_word_boundary(text, end) {
        end += 1;
    }
    while start < end && text[start].is_whitespace() {
        start += 1;
    }
    while end > start && text[end - 1].is_whitespace() {
        end -= 1;
    }
    start..end
}

fn block_segments(chars: &[char]) -> impl DoubleEndedIterator<Item = &[char]> {
    chars
        .split(|&c| c == BLOCK_BREAK)
        .filter(|s| s.iter().any(|c| !c.is_whitespace()))
}

/// The first `n` space-separated words of a block segment.
fn first_words(segment: &[char], n: usize) -> &[char] {
    let mut spaces = 0;
    for (i, &c) in segment.iter().enumerate() {
        if c == ' ' {
            spaces += 1;
            if spaces == n {
                return &segment[..i];
            }
        }
    }
    segment
}

/// The last `n` space-separated words of a block segment.
fn last_words(segment: &[char], n: usize) -> &[char] {
    let mut spaces = 0;
    for (i, &c) in segment.iter().enumerate().rev() {
        if c == ' ' {
            spaces += 1;
            if spaces == n {
                return &segment[i + 1..];
            }
        }
    }
    segment
}

/// The `n` words right before the match, from one block (the match's own, or the previous one
/// when the match opens its block: context may sit across a block break, a term may not).
fn context_before(before: &[char], n: usize) -> Option<&[char]> {
    let trimmed_end = before.iter().rposition(|c| !c.is_whitespace())? + 1;
    let block_start = before[..trimmed_end]
        .iter()
        .rposition(|&c| c == BLOCK_BREAK)
        .map_or(0, |i| i + 1);
    let block = &before[block_start..trimmed_end];
    (!block.is_empty()).then(|| last_words(block, n))
}

/// The `n` words right after the match, from one block.
fn context_after(after: &[char], n: usize) -> Option<&[char]> {
    let trimmed_start = after.iter().position(|c| !c.is_whitespace())?;
    let rest = &after[trimmed_start..];
    let block_end = rest
        .iter()
        .position(|&c| c == BLOCK_BREAK)
        .unwrap_or(rest.len());
    let block = &rest[..block_end];
    (!block.is_empty()).then(|| first_words(block, n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fragment::link;

    fn anchor(markdown: &str, quote: &str) -> Anchor {
        locate(markdown, &[markdown.to_string()], quote).expect("located")
    }

    fn slice(markdown: &str, offsets: &Range<usize>) -> String {
        markdown
            .chars()
            .skip(offsets.start)
            .take(offsets.len())
            .collect()
    }

    #[test]
    fn a_unique_quote_is_one_exact_term_over_the_visible_text() {
        let md = "# Water\n\nWater **boils** at [100 °C](https://x.example/c) at sea level.";
        let a = anchor(md, "Water boils at 100 °C at sea level.");
        assert_eq!(
            a.directive,
            TextDirective::exact("Water boils at 100 °C at sea level.").expect("valid")
        );
        assert_eq!(
            slice(md, &a.offsets),
            "Water **boils** at [100 °C](https://x.example/c) at sea level."
        );
        assert_eq!(
            link("https://x.example/w#top", &a.directive),
            "https://x.example/w#top:~:text=Water%20boils%20at%20100%20%C2%B0C%20at%20sea%20level."
        );
    }

    #[test]
    fn the_page_spelling_is_used_not_the_judges() {
        // The judge straightened the quotes and broke a word; the link uses the page's text.
        let md = "He said \u{201C}it\u{2019}s done\u{201D} and left.";
        let a = anchor(md, "said \"it's do");
        assert_eq!(
            a.directive.start, "said \u{201C}it\u{2019}s done",
            "widened to whole words, page characters kept"
        );
    }

    #[test]
    fn a_repeated_quote_gets_context_that_lands_on_the_seen_occurrence() {
        let first = "The first study found that sleep improves memory.";
        let second = "A later trial also found that sleep improves memory.";
        let md = format!("{first}\n\n{second}");
        let a = locate(&md, &[second.to_string()], "sleep improves memory").expect("found");
        assert_eq!(a.directive.start, "sleep improves memory");
        assert!(a.directive.prefix.is_some(), "{:?}", a.directive);
        assert_eq!(slice(&md, &a.offsets), "sleep improves memory");
        let text = rendered::render(&md).text;
        let landed = search::find(&text, &a.directive).expect("lands");
        let landed: String = text[landed].iter().collect();
        assert_eq!(landed, "sleep improves memory");
        let at = search::find(&text, &a.directive).expect("lands").start;
        assert!(at > first.chars().count(), "the second occurrence");
        // Without the seen passage the first occurrence needs no context.
        let plain = locate(&md, &[first.to_string()], "sleep improves memory").expect("found");
        assert_eq!(plain.directive.prefix, None);
    }

    #[test]
    fn a_long_quote_becomes_a_range_that_lands_on_it() {
        let sentence = "Measurements taken over many decades by independent laboratories \
                        across several continents consistently show the same boiling point \
                        for pure water at standard atmospheric pressure";
        let quote = format!("{sentence}, {sentence} again, and {sentence} once more.");
        assert!(quote.len() > EXACT_LIMIT);
        let md = format!("Intro.\n\n{quote}\n\nOutro.");
        let a = anchor(&md, &quote);
        assert!(a.directive.end.is_some(), "{:?}", a.directive);
        let text = rendered::render(&md).text;
        let landed = search::find(&text, &a.directive).expect("lands");
        assert_eq!(text[landed].iter().collect::<String>(), quote);
        assert_eq!(slice(&md, &a.offsets), quote);
    }

    #[test]
    fn a_quote_across_two_paragraphs_is_a_range_with_one_term_per_block() {
        let md = "Water boils at 100 degrees.\n\nAt altitude it boils sooner.";
        let a = anchor(md, "100 degrees. At altitude");
        assert_eq!(
            a.directive,
            TextDirective::range("100 degrees.", "At altitude").expect("valid")
        );
    }

    #[test]
    fn the_evidence_link_is_the_final_url_with_the_directive() {
        let md = "Intro.\n\nWater boils at 100 degrees Celsius at sea level.";
        let (url, offsets) = evidence(
            "https://site.example/final#section",
            md,
            &[md.to_string()],
            "boils at 100 degrees",
        )
        .expect("found");
        assert_eq!(
            url,
            "https://site.example/final#section:~:text=boils%20at%20100%20degrees"
        );
        assert_eq!(
            slice(md, &(offsets.start..offsets.end)),
            "boils at 100 degrees"
        );
    }

    mod property {
        use proptest::prelude::*;

        use super::super::*;

        /// Word offsets (start char of each word) of a single-block text of single spaces.
        fn word_starts(text: &[char]) -> Vec<usize> {
            (0..text.len())
                .filter(|&i| i == 0 || text[i - 1] == ' ')
                .collect()
        }

        proptest! {
            // Pages from a four-word vocabulary repeat themselves a lot: the directive must land
            // on the chosen words, unless even six words of context on each side cannot tell
            // this occurrence from another.
            #[test]
            fn a_directive_lands_on_its_target_or_the_target_is_truly_ambiguous(
                words in proptest::collection::vec(
                    prop_oneof![Just("salt"), Just("water"), Just("boils"), Just("fast")],
                    3..60,
                ),
                pick in (0usize..1000, 1usize..8),
            ) {
                let text: Vec<char> = words.join(" ").chars().collect();
                let starts = word_starts(&text);
                let first = pick.0 % starts.len();
                let last = (first + pick.1).min(starts.len()) - 1;
                let start = starts[first];
                let end = starts
                    .get(last + 1)
                    .map_or(text.len(), |next| next - 1);
                let d = directive_for(&text, start..end).expect("a directive");
                let landed = search::find(&text, &d);
                if landed != Some(start..end) {
                    let from = starts[first.saturating_sub(MAX_CONTEXT_WORDS)];
                    let to = starts
                        .get(last + 1 + MAX_CONTEXT_WORDS)
                        .map_or(text.len(), |next| next - 1);
                    let window = &text[from..to];
                    let elsewhere = text
                        .windows(window.len())
                        .enumerate()
                        .any(|(i, w)| i != from && w == window);
                    prop_assert!(elsewhere, "{d:?} landed on {landed:?}, wanted {:?}", start..end);
                }
            }
        }
    }

    #[test]
    fn an_absent_quote_has_no_anchor() {
        assert_eq!(locate("Water boils.", &[], "Water freezes."), None);
        assert_eq!(locate("", &[], "anything"), None);
    }
}
