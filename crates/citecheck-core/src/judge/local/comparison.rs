//! A comparison of the same two things the other way round (pure): "B holds more water than A"
//! or "A holds less water than B" against a claim that A holds more water than B. A flip of
//! polarity like an opposite word (see `opposite`), read only when both compare the same
//! thing ("more water") and their comparatives are the same word or kin of "more" and "less".

use std::sync::OnceLock;

use super::analyse::Analysis;
use super::lex::forms_of;
use super::lexicon::{LESS, MORE};

/// How far before "than" a comparative may sit ("a larger volume of water than").
const COMPARATIVE_REACH: usize = 4;
/// How far after "than" the other arm's first word may sit ("than the Fell Lake").
const ARM_REACH: usize = 3;

/// A comparison "A <comparative> ... than B": the comparative's form, its direction (+1 for
/// "more" and its kin, -1 for "less" and its kin, +1 for any other word) and what is compared:
/// the subject of the comparative's clause and the first content word after "than".
struct Comparison<'a> {
    word: String,
    direction: i8,
    /// What is compared: the content words between the comparative and "than" ("water" in
    /// "more water than"), which must be the same on both sides.
    between: Vec<&'a str>,
    before: &'a str,
    after: &'a str,
}

/// Normalised forms of [`MORE`] and [`LESS`].
fn kin() -> &'static (Vec<String>, Vec<String>) {
    static KIN: OnceLock<(Vec<String>, Vec<String>)> = OnceLock::new();
    KIN.get_or_init(|| (forms_of(MORE), forms_of(LESS)))
}

/// The first comparison in `text`, if it has the shape "A <comparative> ... than B".
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
    let plain_at = than
        .checked_sub(1)
        .filter(|&i| text.form(i).is_some_and(|f| text.is_content(f)));
    let at = kin_at.or(plain_at)?;
    let word = text.forms[at].clone()?;
    let direction = if less.contains(&word) { -1 } else { 1 };
    let before = text
        .clauses
        .of(at)
        .and_then(|c| text.clauses.subject_of(c))?;
    let is_content = |f: &&String| text.is_content(f);
    // The other arm follows "than" at once ("than Fell Lake"), not a number ("more than 300",
    // a hedge) or a clause.
    let after = text.forms[than + 1..]
        .iter()
        .take(ARM_REACH)
        .flatten()
        .find(is_content)?;
    let between = text.forms[at + 1..than]
        .iter()
        .flatten()
        .filter(is_content)
        .map(String::as_str)
        .collect();
    Some(Comparison {
        word,
        direction,
        between,
        before,
        after,
    })
}

/// The claim's comparative when the sentence compares the same two names in the opposite
/// sense: "A holds more than B" against "B holds more than A" (or "A holds less than B").
/// Comparatives other than "more" and "less" must be the same word: "deeper" against
/// "older" compares different things.
pub fn reversed(claim: &Analysis, sentence: &Analysis) -> Option<String> {
    let c = comparison(claim)?;
    let Some(s) = comparison(sentence) else {
        return one_armed(&c, sentence);
    };
    let (more, less) = kin();
    let related = |w: &String| more.contains(w) || less.contains(w);
    if c.word != s.word && !(related(&c.word) && related(&s.word)) || c.between != s.between {
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

/// The claim's comparative when the sentence, comparing without "than", gives the claim's
/// other arm the lead: "a light roast holds more caffeine" against "dark roast contains more
/// caffeine than light roast". Only "more" and "less" and their kin, with what the claim
/// compares right after them and the other arm before them in their clause, in a sentence
/// that does not name the claim's own subject.
fn one_armed(c: &Comparison<'_>, sentence: &Analysis) -> Option<String> {
    let (more, less) = kin();
    if c.between.is_empty() || sentence.vocabulary.contains(c.before) {
        return None;
    }
    let at = sentence.forms.iter().position(|f| {
        f.as_ref()
            .is_some_and(|f| more.contains(f) || less.contains(f))
    })?;
    // The other arm leads: it stands before the comparative, in its clause ("Measured by the
    // scoop, a light roast holds more").
    let clause = sentence.clauses.of(at);
    let leads =
        (0..at).any(|i| sentence.form(i) == Some(c.after) && sentence.clauses.of(i) == clause);
    let compared: Vec<&str> = sentence.forms[at + 1..]
        .iter()
        .flatten()
        .filter(|f| sentence.is_content(f))
        .take(c.between.len())
        .map(String::as_str)
        .collect();
    let direction = if less.contains(sentence.forms[at].as_ref()?) {
        -1
    } else {
        1
    };
    (leads && compared == c.between && c.direction * direction > 0).then(|| c.word.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flips(claim: &str, sentence: &str) -> bool {
        reversed(&Analysis::new(claim), &Analysis::new(sentence)).is_some()
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
        // What is compared differs: no flip.
        assert!(!flips(
            "Wages rose more slowly than prices.",
            "Prices rose more quickly than wages."
        ));
        assert!(!flips(
            "Orton has more schools than Leeford.",
            "Leeford has more hospitals than Orton."
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
    fn the_other_arm_leading_a_comparison_without_than_is_a_flip() {
        let page = "Measured by the scoop, a light roast actually holds slightly more caffeine.";
        assert!(flips(
            "Dark roast coffee contains more caffeine than light roast.",
            page
        ));
        // The same sense: "light holds less" says what "dark holds more" says.
        assert!(!flips(
            "Dark roast coffee contains more caffeine than light roast.",
            "A light roast holds slightly less caffeine."
        ));
        assert!(flips(
            "Dark roast coffee contains less caffeine than light roast.",
            "A light roast holds slightly less caffeine."
        ));
        // Something else compared, or the claim's own subject named: no flip.
        assert!(!flips(
            "Dark roast coffee contains more caffeine than light roast.",
            "A light roast holds more flavour."
        ));
        assert!(!flips(
            "Dark roast coffee contains more caffeine than light roast.",
            "A light roast holds more caffeine per bean, and a dark roast more per cup."
        ));
    }
}
