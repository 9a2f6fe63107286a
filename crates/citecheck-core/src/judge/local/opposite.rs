//! A claim's word against its opposite in the sentence (pure): "revenue rose 9%" against
//! "revenue fell 9%", "won their semi-final" against "lost their semi-final", "flows south"
//! against "flows north". The opposite counts only where it stands in the claim word's place:
//! next to the same word (its subject or its object) or before the same quantity, and more
//! firmly than the claim's own word does there. An opposite elsewhere in the sentence is about
//! something else ("sales to restaurants fell 3%" beside a claim that sales to supermarkets
//! grew 12%). Comparisons the other way round (`comparison`) and lower ranks (`rank`) are read
//! as the same kind of flip, with the same measure of place (`place`).

use std::sync::OnceLock;

use super::analyse::Analysis;
use super::clause;
use super::lex::normalise;
use super::lexicon::OPPOSITES;
use super::place::best_placement;

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

/// The claim's word of direction whose opposite the sentence sets in its place.
///
/// With `bound`, the sentence's clause the claim is about, a word in another clause about
/// something else ("the west coast, facing the Atlantic, has no harbour") stands in no place
/// of the claim's.
pub fn reversed(claim: &Analysis, sentence: &Analysis, bound: Option<usize>) -> Option<String> {
    let elsewhere = |j: usize| {
        bound.is_some_and(|b| {
            sentence
                .clauses
                .of(j)
                .is_some_and(|c| c != b && clause::about_else(claim, sentence, c))
        })
    };
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
            let placed = |words: &[String]| {
                best_placement(claim, at, sentence, |j, f| {
                    words.iter().any(|w| w == f)
                        && !sentence.aside.get(j).copied().unwrap_or(false)
                        && !elsewhere(j)
                })
            };
            // The sentence may say it the claim's way too: the opposite flips only where it
            // stands in the claim word's place more firmly than the claim's own word does
            // ("rose 9%, while costs fell" is no flip; "rises in the south ..., and flows north"
            // is one against "flows south").
            if placed(other) > placed(same) {
                return Some(form.clone());
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flips(claim: &str, sentence: &str) -> bool {
        let (claim, sentence) = (Analysis::new(claim), Analysis::new(sentence));
        let bound = clause::bound(&claim, &sentence);
        reversed(&claim, &sentence, bound).is_some()
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
            // The claim's word elsewhere, about something else.
            (
                "The Calder flows south into the sound.",
                "The Calder rises in the south of the island and flows north into the sound.",
            ),
            // The claim's word only in a clause about something else.
            (
                "The ferry from Orton docks at Ness on Brae's west coast.",
                "The ferry from Orton lands at Ness on the east coast; the west coast, facing \
                 the Atlantic, has no harbour.",
            ),
            // A phrase turned around.
            (
                "Timber imports fell by a quarter.",
                "Exports of timber fell by a quarter.",
            ),
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
