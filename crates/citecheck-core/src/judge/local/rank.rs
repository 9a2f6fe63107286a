//! A rank below the first in the claim word's place (pure): "the largest lake" against "the
//! second-largest lake", "the first woman to win" against "the third woman to win". A flip of
//! polarity like an opposite word (see `opposite`), read only where the sentence does not also
//! give the claim's rank in that place ("the first leg ..., the second leg ...").

use super::analyse::Analysis;
use super::place::{best_placement, neighbour, ordinal, placement};

/// The claim's word that the sentence ranks lower: "the largest lake" against "the
/// second-largest lake", "the first woman to win" against "the second woman to win". Only a
/// superlative the claim puts first ("the" before it), or the claim's "first", that the
/// sentence puts second or lower, in the same place.
pub fn outranked(claim: &Analysis, sentence: &Analysis) -> Option<String> {
    for (at, form) in claim.forms.iter().enumerate() {
        let Some(form) = form.as_deref() else {
            continue;
        };
        let before = at.checked_sub(1).and_then(|p| claim.form(p));
        if form == "1st" {
            // The noun after the ordinal must be the claim's ("the first woman" against "the
            // third woman"), not only a word around it ("first elected mayor" against "a
            // second term"); "the first leg" beside "the second leg" has the claim's too.
            let noun = neighbour(claim, at, true);
            let placed = |rank: fn(u32) -> bool| {
                best_placement(claim, at, sentence, |j, f| {
                    ordinal(f).is_some_and(rank)
                        && noun.is_some()
                        && neighbour(sentence, j, true) == noun
                })
            };
            if placed(|n| n > 1) > placed(|n| n == 1) {
                return Some(form.to_string());
            }
        } else if before == Some("the") && claim.superlative.get(at).copied().unwrap_or(false) {
            // A superlative the sentence ranks lower, glued to the same word ("the
            // second-largest"), where the sentence does not also give it first place there.
            let ranked_at = |j: usize| {
                j.checked_sub(1)
                    .and_then(|p| sentence.form(p).map(|f| (p, f)))
            };
            let lower = sentence
                .forms
                .iter()
                .enumerate()
                .filter(|(_, f)| f.as_deref() == Some(form))
                .filter_map(|(j, _)| {
                    let (p, before) = ranked_at(j)?;
                    ordinal(before).filter(|&n| n > 1)?;
                    // The ordinal stands where the claim's "the" does: either may be the
                    // place ("Brae, the second-largest").
                    Some(placement(claim, at, sentence, j).max(placement(claim, at, sentence, p)))
                })
                .max()
                .unwrap_or(0);
            let first = best_placement(claim, at, sentence, |j, f| {
                f == form && ranked_at(j).is_some_and(|(_, before)| before == "the")
            });
            if lower > first {
                return Some(form.to_string());
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flips(claim: &str, sentence: &str) -> bool {
        outranked(&Analysis::new(claim), &Analysis::new(sentence)).is_some()
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
        // Only a superlative is ranked, and "first" only before the same noun.
        assert!(!flips(
            "Ida Marsh won the title in 1950.",
            "In 1950 Ida Marsh won her second title."
        ));
        assert!(!flips(
            "Hale was first elected mayor in 1990.",
            "Hale was elected mayor in 1990 and was elected to a second term in 1994."
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
}
