//! Where things sit in a sentence (pure): a claim's number or name is tied to a sentence's
//! number or name when the claim words around it sit around that one too. This keeps "63 mg for
//! espresso, 95 mg for drip coffee" from matching "espresso has 95 mg", and a name elsewhere in
//! the sentence from counting as a replaced name.

use std::ops::Range;

use super::analyse::{Analysis, Entity};
use super::compare::{self, NumberFit};
use super::numbers::Quantity;

/// Claim words either side of an entity that anchor it to a place in the sentence.
const ANCHOR_WORDS: usize = 3;
/// How far (in lexemes) from a sentence's entity an anchor may sit on the claim's side of it.
const ANCHOR_REACH: usize = 4;
/// How far an anchor may sit on the other side.
const ANCHOR_FLIP_REACH: usize = 2;
/// How far (in lexemes) from a sentence's number a claim word may sit to tie the two.
const NUMBER_REACH: usize = 5;

/// The claim's quantity against the sentence's. A sentence may hold the claim's number in
/// another role ("63 mg for espresso, 95 mg for drip coffee"), so a number next to the claim's
/// own neighbouring words decides first; any comparable number decides after that.
pub fn number_fit(claim: &Analysis, q: &Quantity, sentence: &Analysis) -> NumberFit {
    let anchors = neighbours(claim, q.span.clone(), &[]);
    let anchored = |p: &Quantity| {
        anchors.iter().any(|(form, _)| {
            sentence.forms.iter().enumerate().any(|(i, f)| {
                f.as_deref() == Some(form.as_str())
                    && i + NUMBER_REACH >= p.span.start
                    && i < p.span.end + NUMBER_REACH
            })
        })
    };
    let same = |p: &&Quantity| compare::same(q, p);
    // A sentence number that another of the claim's numbers matches is spoken for.
    let spoken_for = |p: &&Quantity| {
        claim
            .quantities
            .iter()
            .any(|other| !std::ptr::eq(other, q) && compare::same(other, p))
    };
    let rival = |p: &&Quantity| {
        !compare::same(q, p) && !spoken_for(p) && compare::same_slot(q, p, true) && anchored(p)
    };
    if sentence.quantities.iter().filter(same).any(anchored) {
        NumberFit::Match
    } else if sentence.quantities.iter().any(|p| rival(&p)) {
        NumberFit::Conflict
    } else {
        compare::fit(q, &sentence.quantities)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Before,
    After,
}

/// The claim's content words nearest to the lexemes `span` on either side, with their side.
fn neighbours(claim: &Analysis, span: Range<usize>, skip: &[String]) -> Vec<(String, Side)> {
    let content = |i: usize| {
        claim.forms[i]
            .as_ref()
            .filter(|f| claim.content.iter().any(|(c, _)| c == *f) && !skip.contains(f))
    };
    let before = (0..span.start)
        .rev()
        .filter_map(&content)
        .take(ANCHOR_WORDS)
        .map(|f| (f.clone(), Side::Before));
    let after = (span.end..claim.forms.len())
        .filter_map(content)
        .take(ANCHOR_WORDS)
        .map(|f| (f.clone(), Side::After));
    before.chain(after).collect()
}

/// Whether lexeme `i` of the sentence sits on `side` of `span`, close enough to anchor it; the
/// other side counts only right next to it (passive and active voice swap sides).
fn fits(i: usize, span: &Range<usize>, side: Side) -> bool {
    let (at, distance) = if i < span.start {
        (Side::Before, span.start - i)
    } else if i >= span.end {
        (Side::After, i + 1 - span.end)
    } else {
        return false;
    };
    distance
        <= if at == side {
            ANCHOR_REACH
        } else {
            ANCHOR_FLIP_REACH
        }
}

/// Whether the sentence's entity `s` stands where the claim's entity `c` stands: a claim word
/// next to `c` (or a number the sentence shares) sits next to `s` in the sentence too.
pub fn anchored(
    claim: &Analysis,
    c: &Entity,
    sentence: &Analysis,
    s: &Entity,
    numbers: &[NumberFit],
) -> bool {
    let word_anchor =
        neighbours(claim, c.span.clone(), &c.forms)
            .into_iter()
            .any(|(form, side)| {
                sentence
                    .forms
                    .iter()
                    .enumerate()
                    .any(|(i, f)| f.as_ref() == Some(&form) && fits(i, &s.span, side))
            });
    let number_anchor = claim
        .quantities
        .iter()
        .zip(numbers)
        .filter(|(q, fit)| {
            **fit == NumberFit::Match
                && q.span.end + ANCHOR_REACH >= c.span.start
                && q.at < c.span.end + ANCHOR_REACH
        })
        // Dates and amounts move freely around a sentence: either side will do.
        .any(|(q, _)| {
            sentence.quantities.iter().any(|p| {
                compare::same(q, p)
                    && (fits(p.at, &s.span, Side::Before) || fits(p.at, &s.span, Side::After))
                    && p.at + ANCHOR_REACH >= s.span.start
                    && p.at < s.span.end + ANCHOR_REACH
            })
        });
    word_anchor || number_anchor
}
