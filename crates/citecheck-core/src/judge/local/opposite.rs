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
use super::lexicon::{LESS, MORE, OPPOSITES};
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

/// The form of the claim's word whose opposite the sentence sets in its place, if any, or of
/// its comparative when the sentence compares the same two things the other way round.
pub fn reversed(claim: &Analysis, sentence: &Analysis) -> Option<String> {
    opposite_word(claim, sentence)
        .or_else(|| reversed_comparison(claim, sentence))
        .or_else(|| outranked(claim, sentence))
}

/// The rank of an ordinal form ("2nd" -> 2).
fn ordinal(form: &str) -> Option<u32> {
    let digits = form.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let suffix = &form[digits.len()..];
    matches!(suffix, "st" | "nd" | "rd" | "th")
        .then(|| digits.parse().ok())
        .flatten()
}

/// The claim's word that the sentence ranks lower: "the largest lake" against "the
/// second-largest lake", "the first woman to win" against "the second woman to win". Only a
/// word the claim puts first ("the" or "first" before it) and the sentence puts second or
/// lower, in the same place.
fn outranked(claim: &Analysis, sentence: &Analysis) -> Option<String> {
    fn form_at(text: &Analysis, i: usize) -> Option<&str> {
        text.forms.get(i).and_then(|f| f.as_deref())
    }
    for (at, form) in claim.forms.iter().enumerate() {
        let Some(form) = form.as_deref() else {
            continue;
        };
        let before = at.checked_sub(1).and_then(|p| form_at(claim, p));
        if form == "1st" {
            // "The first leg" beside "the second leg": the sentence has the claim's too.
            let placed = |rank: fn(u32) -> bool| {
                sentence
                    .forms
                    .iter()
                    .enumerate()
                    .filter(|(_, f)| f.as_deref().and_then(ordinal).is_some_and(rank))
                    .map(|(j, _)| placement(claim, at, sentence, j))
                    .max()
                    .unwrap_or(0)
            };
            let lower = placed(|n| n > 1) > placed(|n| n == 1);
            if lower {
                return Some(form.to_string());
            }
        } else if before == Some("the") && claim.content.iter().any(|(c, _)| c == form) {
            let ranked = |j: usize| {
                j.checked_sub(1)
                    .and_then(|p| form_at(sentence, p))
                    .and_then(ordinal)
            };
            let at_form = |j: usize, f: &Option<String>| f.as_deref() == Some(form) && j > 0;
            // The ordinal stands where the claim's "the" does: either may be the place
            // ("Brae, the second-largest").
            let lower = sentence
                .forms
                .iter()
                .enumerate()
                .filter(|(j, f)| at_form(*j, f) && ranked(*j).is_some_and(|n| n > 1))
                .map(|(j, _)| {
                    placement(claim, at, sentence, j).max(placement(claim, at, sentence, j - 1))
                })
                .max()
                .unwrap_or(0);
            let first = sentence
                .forms
                .iter()
                .enumerate()
                .filter(|(j, f)| at_form(*j, f) && form_at(sentence, j - 1) == Some("the"))
                .map(|(j, _)| placement(claim, at, sentence, j))
                .max()
                .unwrap_or(0);
            let lower = lower > first;
            if lower {
                return Some(form.to_string());
            }
        }
    }
    None
}

/// How far before "than" a comparative may sit ("a larger volume of water than").
const COMPARATIVE_REACH: usize = 4;

/// A comparison "A <comparative> ... than B": the comparative's form, its direction (+1 for
/// "more" and its kin, -1 for "less" and its kin, +1 for any other word) and what is compared:
/// the subject of the comparative's clause and the first content word after "than".
struct Comparison<'a> {
    word: String,
    direction: i8,
    before: &'a str,
    after: &'a str,
}

/// Normalised forms of [`MORE`] and [`LESS`].
fn kin() -> &'static (Vec<String>, Vec<String>) {
    static KIN: OnceLock<(Vec<String>, Vec<String>)> = OnceLock::new();
    KIN.get_or_init(|| {
        let forms = |words: &[&str]| words.iter().map(|w| normalise(w).form).collect();
        (forms(MORE), forms(LESS))
    })
}

fn comparison(text: &Analysis) -> Option<Comparison<'_>> {
    let (more, less) = kin();
    let than = text
        .forms
        .iter()
        .position(|f| f.as_deref() == Some("than"))?;
    // "More" and "less" and their kin may stand a few words before "than" ("more water
    // than"); any other comparative ("deeper than") stands right before it.
    let kin_at = (than.saturating_sub(COMPARATIVE_REACH)..than)
        .rev()
        .find(|&i| {
            text.forms[i]
                .as_ref()
                .is_some_and(|f| more.contains(f) || less.contains(f))
        });
    let plain_at = than.checked_sub(1).filter(|&i| {
        text.forms[i]
            .as_ref()
            .is_some_and(|f| text.content.iter().any(|(c, _)| c == f))
    });
    let at = kin_at.or(plain_at)?;
    let word = text.forms[at].clone()?;
    let direction = if less.contains(&word) { -1 } else { 1 };
    let before = text
        .clauses
        .of(at)
        .and_then(|c| text.clauses.subject_of(c))?;
    let after = text.forms[than + 1..]
        .iter()
        .flatten()
        .find(|f| text.content.iter().any(|(c, _)| c == *f))?;
    Some(Comparison {
        word,
        direction,
        before,
        after,
    })
}

/// The claim's comparative when the sentence compares the same two names in the opposite
/// sense: "A holds more than B" against "B holds more than A" (or "A holds less than B").
/// Comparatives other than "more" and "less" must be the same word: "deeper" against
/// "older" compares different things.
fn reversed_comparison(claim: &Analysis, sentence: &Analysis) -> Option<String> {
    let c = comparison(claim)?;
    let s = comparison(sentence)?;
    let (more, less) = kin();
    let related = |w: &String| more.contains(w) || less.contains(w);
    if c.word != s.word && !(related(&c.word) && related(&s.word)) {
        return None;
    }
    let order = if c.before == s.before && c.after == s.after {
        1
    } else if c.before == s.after && c.after == s.before {
        -1
    } else {
        return None;
    };
    (c.direction * s.direction * order < 0).then_some(c.word)
}

/// The claim's word of direction whose opposite the sentence sets in its place.
fn opposite_word(claim: &Analysis, sentence: &Analysis) -> Option<String> {
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
                sentence
                    .forms
                    .iter()
                    .enumerate()
                    .filter(|(j, f)| {
                        f.as_ref().is_some_and(|f| words.contains(f))
                            && !sentence.aside.get(*j).copied().unwrap_or(false)
                    })
                    .map(|(j, _)| placement(claim, at, sentence, j))
                    .max()
                    .unwrap_or(0)
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

/// How firmly lexeme `j` of the sentence stands where lexeme `at` of the claim does (0: not
/// at all): the same content word right before or right after it, or the same quantity just
/// after it.
fn placement(claim: &Analysis, at: usize, sentence: &Analysis, j: usize) -> u8 {
    let same_word = |a: Option<&str>, b: Option<&str>| u8::from(a.is_some() && a == b);
    let (here_before, here_after) = (neighbour(claim, at, false), neighbour(claim, at, true));
    let (there_before, there_after) = (neighbour(sentence, j, false), neighbour(sentence, j, true));
    let number = after(claim, at).any(|c| after(sentence, j).any(|s| compare::same(c, s)));
    // The same side counts double; the other side once, as a phrase may turn around ("timber
    // imports" against "exports of timber").
    2 * (same_word(here_before, there_before)
        + same_word(here_after, there_after)
        + u8::from(number))
        + same_word(here_before, there_after)
        + same_word(here_after, there_before)
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
        .find(|f| !is_stopword(f) && ordinal(f).is_none())
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
            // The claim's word elsewhere, about something else.
            (
                "The Calder flows south into the sound.",
                "The Calder rises in the south of the island and flows north into the sound.",
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
    fn a_comparison_the_other_way_round_is_a_flip() {
        let page = "Tarn Lake holds more water than Fell Lake, but Fell Lake is deeper.";
        assert!(flips("Fell Lake holds more water than Tarn Lake.", page));
        assert!(flips("Tarn Lake holds less water than Fell Lake.", page));
        assert!(!flips("Tarn Lake holds more water than Fell.", page));
        assert!(flips(
            "Wages rose faster than prices.",
            "Prices rose faster than wages."
        ));
        assert!(!flips(
            "Fell Lake holds fewer litres of water than Tarn Lake.",
            page
        ));
        assert!(!flips(
            "Tarn Lake holds a greater volume of water than Fell Lake.",
            page
        ));
        // Another comparative compares something else.
        assert!(!flips(
            "Fell Lake is older than Tarn Lake.",
            "Tarn Lake is deeper than Fell Lake."
        ));
        // Other names: nothing to set side by side.
        assert!(!flips("Wexley has more homes than Orton.", page));
    }

    #[test]
    fn a_rank_below_the_first_is_a_flip() {
        let page = "Lake Orm is the second-largest lake in the region by area.";
        assert!(flips("Lake Orm is the largest lake in the region.", page));
        assert!(!flips(
            "Lake Orm is the second-largest lake in the region.",
            page
        ));
        assert!(!flips("Lake Orm is a large lake.", page));
        let page = "Ida Marsh was the third woman to win the Carrow Prize.";
        assert!(flips(
            "Ida Marsh was the first woman to win the Carrow Prize.",
            page
        ));
        assert!(!flips(
            "Ida Marsh won the Carrow Prize in her first year.",
            page
        ));
        // The sentence has the claim's rank as well as another.
        let legs = "They won the first leg 2-1 but lost the second leg 3-1.";
        assert!(!flips("The first leg drew 11,482 fans.", legs));
        let both = "Orm is the largest lake in the region; Tarn is the second-largest lake.";
        assert!(!flips("Orm is the largest lake in the region.", both));
        // The claim's rank about something else does not cancel the lower one in its place.
        let other = "Lund, the largest island, covers 40 km²; Brae, the second-largest, covers 9.";
        assert!(flips("Brae is the largest of the Wend Isles.", other));
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
