//! Soft coverage (pure): the claim's coverage by a sentence when a content word the sentence
//! does not state in the same form may be matched by meaning, BERTScore-style. Each word piece
//! of the claim finds its most similar token in the sentence (contextual vectors of the
//! encoder's last layer); a word earns the mean of its pieces' best similarities, rescaled so
//! that what unrelated words reach earns nothing. The word keeps its lexical credit when that is
//! higher, and quantities and words of names keep theirs: a number or a name is not paraphrased.
//!
//! This recall is a word-level alignment, so unlike one similarity of whole sentences it still
//! says *which* of the claim's words the sentence leaves out: a claim with a detail the page
//! lacks keeps a hole in its coverage.

use std::ops::Range;

use super::align::Alignment;
use crate::judge::meaning::Tokens;

/// Token similarity at or below which a match earns nothing. Measured on the development set
/// (all-MiniLM-L6-v2, last layer): a claim word against an unrelated word of the same topic
/// mostly scores 0.1-0.45, a synonym in another sentence 0.4-0.75 ("covers" for "spans" 0.41,
/// "apparatus" for "equipment" 0.52, "supporters" for "fans" 0.63). The two overlap, so a word
/// earns partial credit between the bounds and the sentence must also be close as a whole
/// (`SOFT_MEANING_FLOOR` in `mod.rs`). Swept over 0.3-0.75 on the development set.
pub const TOKEN_FLOOR: f32 = 0.45;
/// Token similarity from which a match earns full credit.
pub const TOKEN_FULL: f32 = 0.7;

/// The coverage of `alignment`'s claim when its words may also be matched by meaning against
/// `sentence`. `claim_lexemes` holds the byte range of each claim lexeme (the indices
/// [`super::align::Credit::word`] refers to), `claim` the claim's tokens.
pub fn coverage(
    alignment: &Alignment,
    claim_lexemes: &[Range<usize>],
    claim: &Tokens,
    sentence: &Tokens,
) -> f64 {
    let soft = credits(alignment, claim_lexemes, claim, sentence);
    weighted(
        alignment
            .items
            .iter()
            .zip(&soft)
            .map(|(item, soft)| (item.weight, item.credit.max(*soft))),
    )
    .unwrap_or(0.0)
}

/// What a sentence that flips one of the claim's slots covers of the rest when its words may be
/// matched by meaning: the rest's coverage (without the page subject's lift, as a conflict's
/// is counted) and the share of the claim's own words (its predicate: "awarded" for
/// "received"). See [`coverage`] for the arguments.
pub fn conflict_coverage(
    alignment: &Alignment,
    claim_lexemes: &[Range<usize>],
    claim: &Tokens,
    sentence: &Tokens,
) -> SoftConflict {
    let soft = credits(alignment, claim_lexemes, claim, sentence);
    let both = || alignment.items.iter().zip(&soft);
    let rest = weighted(
        both()
            .filter(|(item, _)| !item.in_slot)
            .map(|(item, soft)| (item.weight, item.plain.max(*soft))),
    );
    let predicate = weighted(
        both()
            .filter(|(item, _)| item.word.is_some())
            .map(|(item, soft)| (item.weight, item.credit.max(*soft))),
    );
    SoftConflict {
        rest: rest.unwrap_or(0.0),
        predicate: predicate.unwrap_or(1.0),
    }
}

/// A flipped slot's alignment read for meaning: see [`conflict_coverage`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SoftConflict {
    pub rest: f64,
    pub predicate: f64,
}

/// Each item's credit by meaning: 0 for a quantity, a word of a name and a word already
/// matched as written.
fn credits(
    alignment: &Alignment,
    claim_lexemes: &[Range<usize>],
    claim: &Tokens,
    sentence: &Tokens,
) -> Vec<f64> {
    alignment
        .items
        .iter()
        .map(|item| {
            item.word
                .filter(|_| item.credit < 1.0)
                .and_then(|at| claim_lexemes.get(at))
                .map_or(0.0, |word| word_credit(word, claim, sentence))
        })
        .collect()
}

/// The weighted mean of `(weight, credit)` pairs; `None` when they weigh nothing.
fn weighted(items: impl Iterator<Item = (f64, f64)>) -> Option<f64> {
    let (got, total) = items.fold((0.0, 0.0), |(got, total), (weight, credit)| {
        (got + weight * credit, total + weight)
    });
    (total > 0.0).then(|| got / total)
}

/// The credit of the claim word at byte range `word`: its pieces' best matches in `sentence`,
/// averaged and rescaled to `[0, 1]`.
fn word_credit(word: &Range<usize>, claim: &Tokens, sentence: &Tokens) -> f64 {
    let (mut sum, mut pieces) = (0.0f32, 0usize);
    for (k, span) in claim.spans.iter().enumerate() {
        if span.start >= word.start && span.end <= word.end && !span.is_empty() {
            sum += sentence.best_match(claim.vector(k));
            pieces += 1;
        }
    }
    if pieces == 0 {
        return 0.0;
    }
    let similarity = sum / pieces as f32;
    f64::from(((similarity - TOKEN_FLOOR) / (TOKEN_FULL - TOKEN_FLOOR)).clamp(0.0, 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::local::align::Credit;

    fn tokens(spans: &[Range<usize>], vectors: &[[f32; 2]]) -> Tokens {
        Tokens {
            spans: spans.to_vec(),
            vectors: vectors.iter().flatten().copied().collect(),
            width: 2,
        }
    }

    fn alignment(items: Vec<Credit>) -> Alignment {
        Alignment {
            coverage: 0.0,
            plain_coverage: 0.0,
            rest_coverage: 0.0,
            numbers: Vec::new(),
            claim_negated: false,
            sentence_negated: false,
            reversed: None,
            entity_conflict: None,
            items,
            telling_numbers: 0,
            year_conflict: false,
            rank_unstated: None,
            prospect: None,
        }
    }

    #[test]
    fn a_word_matched_in_meaning_earns_credit_and_a_number_or_name_never_does() {
        // Claim "big car 5": lexemes 0..3, 4..7, 8..9; the sentence has a token identical
        // to "big" and nothing like "car".
        let lexemes = [0..3, 4..7, 8..9];
        let claim = tokens(&[0..3, 4..7, 8..9], &[[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]]);
        let sentence = tokens(std::slice::from_ref(&(0..5)), &[[1.0, 0.0]]);
        let word = |at, credit| Credit {
            weight: 1.0,
            credit,
            plain: credit,
            word: Some(at),
            in_slot: false,
        };
        let a = alignment(vec![word(0, 0.0), word(1, 0.5)]);
        // "big" earns 1 by meaning, "car" keeps its lexical 0.5.
        assert!((coverage(&a, &lexemes, &claim, &sentence) - 0.75).abs() < 1e-9);
        let number = Credit {
            weight: 1.0,
            credit: 0.0,
            plain: 0.0,
            word: None,
            in_slot: false,
        };
        let a = alignment(vec![word(0, 1.0), number]);
        assert!((coverage(&a, &lexemes, &claim, &sentence) - 0.5).abs() < 1e-9);
    }

    #[test]
    fn similarity_is_rescaled_between_the_floor_and_full_credit() {
        let word = 0..4;
        let claim = tokens(&[0..2, 2..4], &[[1.0, 0.0], [1.0, 0.0]]);
        let at = |s: f32| tokens(std::slice::from_ref(&(0..1)), &[[s, (1.0 - s * s).sqrt()]]);
        assert_eq!(word_credit(&word, &claim, &at(TOKEN_FLOOR)), 0.0);
        assert_eq!(word_credit(&word, &claim, &at(0.2)), 0.0);
        assert!((word_credit(&word, &claim, &at(TOKEN_FULL)) - 1.0).abs() < 1e-6);
        let mid = (TOKEN_FLOOR + TOKEN_FULL) / 2.0;
        assert!((word_credit(&word, &claim, &at(mid)) - 0.5).abs() < 1e-3);
        assert_eq!(word_credit(&(9..12), &claim, &at(1.0)), 0.0);
    }
}
