//! A claim's word of direction against its opposite in the sentence (pure): "revenue rose 9%"
//! against "revenue fell 9%", "won their semi-final" against "lost their semi-final". The
//! opposite counts only where it stands in the claim word's place: next to the same word
//! (its subject or its object) or before the same quantity. An opposite elsewhere in the
//! sentence is about something else ("sales to restaurants fell 3%" beside a claim that sales to
//! supermarkets grew 12%).

use std::sync::OnceLock;

use super::analyse::Analysis;
use super::compare;
use super::lex::{is_stopword, normalise};
use super::lexicon::OPPOSITES;
use super::numbers::Quantity;

/// How many lexemes away the neighbour word or the quantity may sit.
const REACH: usize = 3;

/// Normalised forms of each side of each pair in [`OPPOSITES`].
fn table() -> &'static [(Vec<String>, Vec<String>)] {
    static TABLE: OnceLock<Vec<(Vec<String>, Vec<String>)>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let forms = |words: &[&str]| words.iter().map(|w| normalise(w).form).collect();
        OPPOSITES
            .iter()
            .map(|(a, b)| (forms(a), forms(b)))
            .collect()
    })
}

/// The form of the claim's word whose opposite the sentence sets in its place, if any.
pub fn reversed(claim: &Analysis, sentence: &Analysis) -> Option<String> {
    for (at, form) in claim.forms.iter().enumerate() {
        let Some(form) = form else { continue };
        for (a, b) in table() {
            let (same, other) = if a.contains(form) {
                (a, b)
            } else if b.contains(form) {
                (b, a)
            } else {
                continue;
            };
            // The sentence says it the claim's way somewhere: no flip.
            if same.iter().any(|f| sentence.vocabulary.contains(f)) {
                continue;
            }
            let placed = sentence.forms.iter().enumerate().any(|(j, f)| {
                f.as_ref().is_some_and(|f| other.contains(f))
                    && !sentence.aside.get(j).copied().unwrap_or(false)
                    && in_place(claim, at, sentence, j)
            });
            if placed {
                return Some(form.clone());
            }
        }
    }
    None
}

/// Whether lexeme `j` of the sentence stands where lexeme `at` of the claim does: the same
/// content word right before or right after it, or the same quantity just after it.
fn in_place(claim: &Analysis, at: usize, sentence: &Analysis, j: usize) -> bool {
    let same_word = |a: Option<&str>, b: Option<&str>| a.is_some() && a == b;
    if same_word(neighbour(claim, at, false), neighbour(sentence, j, false))
        || same_word(neighbour(claim, at, true), neighbour(sentence, j, true))
    {
        return true;
    }
    after(claim, at).any(|c| after(sentence, j).any(|s| compare::same(c, s)))
}

/// The quantities that start within [`REACH`] lexemes after `k`.
fn after(text: &Analysis, k: usize) -> impl Iterator<Item = &Quantity> {
    text.quantities
        .iter()
        .filter(move |q| q.span.start > k && q.span.start <= k + REACH)
}

/// The nearest content word within [`REACH`] lexemes before (`forward` false) or after `k`.
fn neighbour(text: &Analysis, k: usize, forward: bool) -> Option<&str> {
    let steps: Vec<usize> = if forward {
        (k + 1..=k + REACH).collect()
    } else {
        (k.saturating_sub(REACH)..k).rev().collect()
    };
    steps
        .into_iter()
        .filter_map(|i| text.forms.get(i).and_then(|f| f.as_deref()))
        .find(|f| !is_stopword(f))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flips(claim: &str, sentence: &str) -> bool {
        reversed(&Analysis::new(claim), &Analysis::new(sentence)).is_some()
    }

    #[test]
    fn the_opposite_in_the_claim_word_s_place_is_a_flip() {
        for (claim, sentence) in [
            (
                "Harbourside Rovers won their play-off semi-final.",
                "The Rovers lost their play-off semi-final to Dunmore 4-3 on aggregate.",
            ),
            (
                "Pre-tax profit rose to £31.5 million.",
                "Pre-tax profit fell to £31.5 million.",
            ),
            ("The council raised 40 jobs.", "The council cut 40 jobs."),
        ] {
            assert!(flips(claim, sentence), "{claim} / {sentence}");
        }
    }

    #[test]
    fn an_opposite_elsewhere_or_the_same_direction_is_no_flip() {
        for (claim, sentence) in [
            // About another thing, with another number.
            (
                "Sales to supermarkets grew 12%.",
                "Sales to supermarkets grew 12%, but sales to restaurants fell 3%.",
            ),
            (
                "Sales to supermarkets grew 12%.",
                "Sales to restaurants fell 3% as diners cut back.",
            ),
            // The same direction in other words.
            ("Revenue rose 9%.", "Revenue increased 9% while costs fell."),
            // Nothing ties the opposite to the claim's word.
            (
                "The team won the cup in 1998.",
                "In 1998 the club lost its manager to a rival.",
            ),
        ] {
            assert!(!flips(claim, sentence), "{claim} / {sentence}");
        }
    }
}
