//! Where a word stands (pure): how firmly a sentence's word sits in the place of a claim's
//! word, by the content words and quantities around each. Shared by the readings of opposite
//! words, reversed comparisons and ranks.

use super::analyse::Analysis;
use super::compare;
use super::lex::{forms_of, is_stopword};
use super::numbers::Quantity;
use std::sync::OnceLock;

/// How many lexemes away the neighbour word or the quantity may sit.
const REACH: usize = 3;

/// The rank of an ordinal form ("2nd" -> 2).
pub fn ordinal(form: &str) -> Option<u32> {
    let digits = form.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let suffix = &form[digits.len()..];
    matches!(suffix, "st" | "nd" | "rd" | "th")
        .then(|| digits.parse().ok())
        .flatten()
}

/// How firmly lexeme `j` of the sentence stands where lexeme `at` of the claim does (0: not
/// at all): the same content word right before or right after it, or the same quantity just
/// after it.
pub fn placement(claim: &Analysis, at: usize, sentence: &Analysis, j: usize) -> u8 {
    let same_word = |a: Option<&str>, b: Option<&str>| u8::from(a.is_some() && a == b);
    let (here_before, here_after) = (neighbour(claim, at, false), neighbour(claim, at, true));
    let (there_before, there_after) = (neighbour(sentence, j, false), neighbour(sentence, j, true));
    let number = after(claim, at).any(|c| after(sentence, j).any(|s| compare::same(c, s)));
    // Two or more of the words that follow it follow the sentence's word too, in any order:
    // the same object ("approved the Tidewater Group's proposal" against "rejected a proposal
    // from the Tidewater Group"), which ties a verb to its act more firmly than one word does.
    let object = u8::from(shared(&phrase(claim, at), &phrase(sentence, j)) >= 2);
    // The same side counts double; the other side once, as a phrase may turn around ("timber
    // imports" against "exports of timber").
    2 * (same_word(here_before, there_before)
        + same_word(here_after, there_after)
        + u8::from(number))
        + same_word(here_before, there_after)
        + same_word(here_after, there_before)
        + 3 * object
}

/// Lexemes after a word in which its object phrase is read.
const PHRASE_REACH: usize = 6;

/// The content words within [`PHRASE_REACH`] lexemes after `k`, up to the clause's end.
fn phrase(text: &Analysis, k: usize) -> Vec<&str> {
    let clause = text.clauses.of(k);
    (k + 1..=k + PHRASE_REACH)
        .take_while(|&i| text.clauses.of(i) == clause)
        .filter_map(|i| text.form(i))
        .filter(|f| !is_stopword(f) && ordinal(f).is_none())
        .collect()
}

/// How many words of `a` are in `b`.
fn shared(a: &[&str], b: &[&str]) -> usize {
    a.iter().filter(|w| b.contains(w)).count()
}

/// The firmest place among the sentence's words that `keep` (by lexeme index and form)
/// selects, 0 when it selects none.
pub fn best_placement(
    claim: &Analysis,
    at: usize,
    sentence: &Analysis,
    keep: impl Fn(usize, &str) -> bool,
) -> u8 {
    (0..sentence.forms.len())
        .filter(|&j| sentence.form(j).is_some_and(|f| keep(j, f)))
        .map(|j| placement(claim, at, sentence, j))
        .max()
        .unwrap_or(0)
}

/// The quantities that start within [`REACH`] lexemes after `k`.
fn after(text: &Analysis, k: usize) -> impl Iterator<Item = &Quantity> {
    text.quantities
        .iter()
        .filter(move |q| q.span.start > k && q.span.start <= k + REACH)
}

/// Verbs that link a subject to a state as "is" does ("will stay open", "remained closed"): no
/// neighbour of the state's word, which stands in the place of "will close" all the same.
const LINKING_VERBS: &[&str] = &["stay", "remain", "become", "keep"];

fn linking(form: &str) -> bool {
    static FORMS: OnceLock<Vec<String>> = OnceLock::new();
    FORMS
        .get_or_init(|| forms_of(LINKING_VERBS))
        .iter()
        .any(|f| f == form)
}

/// The nearest content word within [`REACH`] lexemes before (`forward` false) or after `k`,
/// linking verbs aside.
pub fn neighbour(text: &Analysis, k: usize, forward: bool) -> Option<&str> {
    let steps: Vec<usize> = if forward {
        (k + 1..=k + REACH).collect()
    } else {
        (k.saturating_sub(REACH)..k).rev().collect()
    };
    steps
        .into_iter()
        .filter_map(|i| text.form(i))
        .find(|f| !is_stopword(f) && ordinal(f).is_none() && !linking(f))
}
