//! A comparison of the same two things the other way round (pure): "B holds more water than A"
//! or "A holds less water than B" against a claim that A holds more water than B. A flip of
//! polarity like an opposite word (see `opposite`), read only when both compare the same
//! thing ("more water") and their comparatives are the same word or kin of "more" and "less".

use std::sync::OnceLock;

use super::analyse::{Analysis, Entity};
use super::compare;
use super::lex::forms_of;
use super::lexicon::{LESS, MORE, OPPOSITE_COMPARATIVES};
use super::numbers::{is_percent, Measure, Quantity};
use super::place;

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
    /// Where the comparative stands.
    at: usize,
}

/// Normalised forms of [`MORE`] and [`LESS`].
fn kin() -> &'static (Vec<String>, Vec<String>) {
    static KIN: OnceLock<(Vec<String>, Vec<String>)> = OnceLock::new();
    KIN.get_or_init(|| (forms_of(MORE), forms_of(LESS)))
}

/// [`OPPOSITE_COMPARATIVES`] normalised: each pair's "more" side and "less" side.
fn opposite_comparatives() -> &'static Vec<(String, String)> {
    static PAIRS: OnceLock<Vec<(String, String)>> = OnceLock::new();
    PAIRS.get_or_init(|| {
        OPPOSITE_COMPARATIVES
            .iter()
            .filter_map(|(more, less)| {
                let more = forms_of(&[more]).into_iter().next()?;
                let less = forms_of(&[less]).into_iter().next()?;
                (more != less).then_some((more, less))
            })
            .collect()
    })
}

/// Whether a normalised form is kin of "more" or of "less".
fn is_kin(form: &str) -> bool {
    let (more, less) = kin();
    more.iter().chain(less).any(|w| w == form)
}

/// Whether two comparatives are the two senses of one scale ("heavier", "lighter").
fn opposite_senses(a: &str, b: &str) -> bool {
    opposite_comparatives()
        .iter()
        .any(|(more, less)| (a == more && b == less) || (a == less && b == more))
}

/// The claim's comparative right after one of its figures, when the sentence puts the
/// opposite comparative right after the same figure: "run about 9% faster" against "ran about
/// 9% slower", "a third more" against "a third less". The figure says how much; the word after
/// it, which way, as "rose 9%" and "fell 9%" do. Both words must be comparatives as written.
pub fn reversed_after_figure(claim: &Analysis, sentence: &Analysis) -> Option<String> {
    let (more, less) = kin();
    let opposed = |a: &str, b: &str| {
        opposite_senses(a, b)
            || (more.iter().any(|w| w == a) && less.iter().any(|w| w == b))
            || (less.iter().any(|w| w == a) && more.iter().any(|w| w == b))
    };
    // A comparative with "than" after it sets two things side by side, and which is which
    // is [`reversed`]'s to read: "40 metres taller than Gallow Rigg's" and "40 metres shorter
    // than those at Carn Hollow" agree.
    let compares = |text: &Analysis, at: usize| {
        (at + 1..text.forms.len().min(at + 4)).any(|i| text.form(i) == Some("than"))
    };
    claim.quantities.iter().find_map(|q| {
        let (word, degree) =
            comparative_at(claim, q.span.end).filter(|_| !compares(claim, q.span.end))?;
        let senses: Vec<(&str, i8)> = sentence
            .quantities
            .iter()
            .filter(|p| compare::same(q, p))
            .filter(|p| !compares(sentence, p.span.end))
            .filter_map(|p| comparative_at(sentence, p.span.end))
            .collect();
        // A sentence that also gives the claim's way ("closed 0.5% higher, while the Dax
        // ended 0.5% lower") speaks of two things, one of them the claim's.
        let said_alike = senses
            .iter()
            .any(|&(theirs, d)| d == degree && theirs == word);
        let opposite = senses
            .iter()
            .any(|&(theirs, d)| d == -degree && opposed(word, theirs));
        (opposite && !said_alike).then(|| word.to_string())
    })
}

/// The comparative as written at lexeme `at` ("faster", "more"; not "fast"), with its sense:
/// +1 for the "more" side of its scale, -1 for the "less" side.
fn comparative_at(text: &Analysis, at: usize) -> Option<(&str, i8)> {
    let form = text.form(at)?;
    let degree = text.degree.get(at).copied().unwrap_or(0);
    (degree != 0 && (is_scale(form) || is_kin(form))).then_some((form, degree))
}

/// Where "than" first stands in `text`.
fn than_at(text: &Analysis) -> Option<usize> {
    text.forms.iter().position(|f| f.as_deref() == Some("than"))
}

/// The nearest kin of "more" or "less", or comparative of [`OPPOSITE_COMPARATIVES`] as
/// written ("faster", not "fast"), up to `reach` words before lexeme `than`: "travels faster
/// through air than through water" compares air and water.
fn kin_before(text: &Analysis, than: usize, reach: usize) -> Option<usize> {
    let (more, less) = kin();
    (than.saturating_sub(reach)..than).rev().find(|&i| {
        text.forms[i].as_ref().is_some_and(|f| {
            more.contains(f)
                || less.contains(f)
                || (text.degree.get(i).copied().unwrap_or(0) != 0 && is_scale(f))
        })
    })
}

/// Whether a normalised form is a side of one of [`OPPOSITE_COMPARATIVES`].
fn is_scale(form: &str) -> bool {
    opposite_comparatives()
        .iter()
        .any(|(more, less)| more == form || less == form)
}

/// The first comparison in `text`, if it has the shape "A <comparative> ... than B".
fn comparison(text: &Analysis) -> Option<Comparison<'_>> {
    let (_, less) = kin();
    let than = than_at(text)?;
    // "More" and "less" and their kin may stand a few words before "than" ("more water
    // than"); any other comparative ("deeper than") stands right before it.
    let kin_at = kin_before(text, than, COMPARATIVE_REACH);
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
        at,
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
    // "Lighter than the X3" against "heavier than the X3": opposite senses of one scale are
    // a reversal in the same order of arms, as "more" against "less" is.
    let opposite = opposite_senses(&c.word, &s.word);
    if c.word != s.word && !(is_kin(&c.word) && is_kin(&s.word)) && !opposite {
        return None;
    }
    let senses = if opposite { -1 } else { 1 };
    // One subject compared in two settings, the settings crossed: "sound travels faster
    // through air than through water" against "faster in water than in air".
    if let ([ours], [theirs]) = (c.between.as_slice(), s.between.as_slice()) {
        if ours != theirs && *ours == s.after && c.after == *theirs && c.before == s.before {
            return (c.direction * s.direction * senses > 0).then(|| c.word.clone());
        }
    }
    if c.between != s.between {
        return None;
    }
    // An arm leads the sentence's comparison when it is its clause's subject, or stands
    // before the comparative in its clause behind a fronted phrase ("At 512 g with battery and
    // card, the X4 is 27 g heavier than the X3").
    let leads = |word: &str| {
        s.before == word
            || (0..s.at).any(|i| {
                sentence.form(i) == Some(word)
                    && sentence.clauses.of(i) == sentence.clauses.of(s.at)
            })
    };
    let order = if leads(c.before) && c.after == s.after {
        1
    } else if c.before == s.after && leads(c.after) {
        -1
    } else {
        return None;
    };
    (c.direction * s.direction * order * senses < 0).then_some(c.word)
}

/// The claim's kin of "more" or "less" right before a noun ("a higher risk of liver disease",
/// "more jobs") when the sentence sets a kin of the other direction right before the same noun
/// ("a 21 percent lower risk", "fewer jobs"): the same quantity said to go the other way. Read
/// only when the two compare with the same thing or either compares with nothing (the first
/// content word after "than"); arms the other way round are [`reversed`]'s.
pub fn reversed_attribute(claim: &Analysis, sentence: &Analysis) -> Option<String> {
    // The claim's other arm among the sentence's first words after "than" ("than neighbouring
    // Sweden" for "than Sweden").
    if let (Some(a), Some(than)) = (other_arm(claim), than_at(sentence)) {
        let arm = sentence.forms[than + 1..].iter().take(ARM_REACH).flatten();
        if !arm.clone().any(|f| f == a) && arm.clone().any(|f| sentence.is_content(f)) {
            return None;
        }
    }
    let theirs: Vec<(i8, &str)> = (0..sentence.forms.len())
        .filter_map(|j| attribute(sentence, j))
        .collect();
    // The sentence must say the noun goes only the other way: "a lower risk of liver disease,
    // but a higher risk of stroke" is about two risks.
    (0..claim.forms.len()).find_map(|i| {
        let (d, noun) = attribute(claim, i)?;
        let of_noun = || theirs.iter().filter(|(_, n)| *n == noun);
        (of_noun().any(|(e, _)| *e != d) && of_noun().all(|(e, _)| *e != d))
            .then(|| claim.form(i).map(str::to_string))
            .flatten()
    })
}

/// The first content word after "than", within [`ARM_REACH`]: what the text compares with.
fn other_arm(text: &Analysis) -> Option<&str> {
    let than = than_at(text)?;
    text.forms[than + 1..]
        .iter()
        .take(ARM_REACH)
        .flatten()
        .find(|f| text.is_content(f))
        .map(String::as_str)
}

/// A word of "more" (+1) or "less" (-1) at lexeme `i`, as written (not "small" or "large"),
/// and the content word right after it.
fn attribute(text: &Analysis, i: usize) -> Option<(i8, &str)> {
    let direction = text.degree.get(i).copied().filter(|d| *d != 0)?;
    let noun = text.form(i + 1).filter(|f| text.is_content(f))?;
    Some((direction, noun))
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

/// The words of an arm of the claim's comparison: the forms of its name, or its one word when
/// no name holds it. The caller drops those both arms share ("Lake Superior" and "Lake Michigan" differ by
/// "superior" and "michigan"); the arm's one word when no name holds it.
fn arm_words<'a>(word: &'a str, name: Option<&'a Entity>) -> Vec<&'a str> {
    match name {
        Some(e) => e.forms.iter().map(String::as_str).collect(),
        None => vec![word],
    }
}

/// The claim's comparative when the sentence gives one of the claim's two arms the extreme of
/// the same scale the other way: "Lake Superior is smaller than Lake Michigan" against "Lake
/// Superior is the largest of the Great Lakes ..., well ahead of Lake Michigan"; "Saturn is
/// larger than Jupiter" against "Jupiter is the largest planet ..., Saturn the second". The
/// superlative must be its clause's word about the arm that stands before it in that clause,
/// and the other arm must be named in the sentence but not before the superlative.
pub fn against_superlative(claim: &Analysis, sentence: &Analysis) -> Option<String> {
    let c = comparison(claim)?;
    let (_, less) = kin();
    // The claim's two arms as names where it has them.
    let than = than_at(claim)?;
    let first_name = claim.entities.iter().rev().find(|e| e.span.end <= c.at);
    let second_name = claim
        .entities
        .iter()
        .find(|e| e.span.start > than && e.span.start <= than + ARM_REACH);
    let mut a = arm_words(c.before, first_name);
    let mut b = arm_words(c.after, second_name);
    let shared: Vec<&str> = a.iter().filter(|w| b.contains(w)).copied().collect();
    a.retain(|w| !shared.contains(w));
    b.retain(|w| !shared.contains(w));
    if a.is_empty() || b.is_empty() {
        return None;
    }
    let direction_of = |w: &str| if less.iter().any(|l| l == w) { -1 } else { 1 };
    (0..sentence.forms.len()).find_map(|i| {
        if !sentence.superlative.get(i).copied().unwrap_or(false)
            || sentence.aside.get(i).copied().unwrap_or(false)
        {
            return None;
        }
        // A rank below the first ("the second-largest") or one of several ("one of the
        // largest") is no extreme.
        let ranked_below = (i.saturating_sub(3)..i).any(|k| {
            sentence.form(k).is_some_and(|f| {
                place::ordinal(f).is_some_and(|n| n > 1)
                    || (f == "one" && sentence.form(k + 1) == Some("of"))
            })
        });
        if ranked_below {
            return None;
        }
        let form = sentence.form(i)?;
        // The superlative's scale and direction: "most massive", "least salty", "largest".
        let (scale, direction) = match form {
            "most" | "least" => {
                let next = sentence.form(i + 1)?;
                (next, if form == "most" { 1 } else { -1 })
            }
            _ => (form, direction_of(form)),
        };
        let senses = if c.between.is_empty() {
            let kin_words = is_kin(&c.word) && is_kin(scale) && !matches!(form, "most" | "least");
            if kin_words || c.word == scale {
                1
            } else if opposite_senses(&c.word, scale) {
                -1
            } else {
                return None;
            }
        } else if is_kin(&c.word) && c.between.first() == Some(&scale) {
            1
        } else {
            return None;
        };
        let clause = sentence.clauses.of(i);
        let before_it = |words: &[&str]| {
            (0..i).any(|k| {
                sentence.clauses.of(k) == clause
                    && sentence.form(k).is_some_and(|f| words.contains(&f))
            })
        };
        let named = |words: &[&str]| words.iter().any(|w| sentence.vocabulary.contains(*w));
        let order = match (before_it(&a), before_it(&b)) {
            (true, false) if named(&b) => 1,
            (false, true) if named(&a) => -1,
            _ => return None,
        };
        (c.direction * direction * senses * order < 0).then(|| c.word.clone())
    })
}

/// How far before "than" a comparative may sit when the sentence's figures decide it ("less
/// common among participants taking corvaline than").
const FIGURE_COMPARATIVE_REACH: usize = 6;

/// Adjectives after "more" or "less" that say how often something happens ("more common
/// among ... than"), which two shares of the sentence decide.
const RATE_WORDS: &[&str] = &["common", "likely", "frequent", "prevalent"];

/// Normalised forms of [`RATE_WORDS`].
fn rate_forms() -> &'static [String] {
    static FORMS: OnceLock<Vec<String>> = OnceLock::new();
    FORMS.get_or_init(|| forms_of(RATE_WORDS))
}

/// A claim's comparison of two arms read off two figures of the sentence ("dropout was higher on
/// corvaline than on placebo" against "18% in the corvaline group and 14% in the placebo
/// group"): the claim's comparative and whether the figures order the arms its way. News and
/// reference pages state both values and leave the comparison to the reader; answers state
/// the comparison.
///
/// Read narrowly, as a wrong reading flips a statement: the claim states no number of its own
/// and the sentence states every one of its words but the comparative; the sentence has two
/// figures of one kind next to each other (no year, no compound, no difference); the other arm
/// (what follows "than") is named on one side of the pair and the claim's own arm on the other,
/// so that only one reading assigns them; and what is compared is named before the pair's
/// second figure, not only after it (a list "dementia in 14.2% and 19.0% ... dropout 16%").
pub fn by_figures(claim: &Analysis, sentence: &Analysis) -> Option<(String, bool)> {
    if !claim.quantities.is_empty() {
        return None;
    }
    let (_, less) = kin();
    let than = than_at(claim)?;
    let at = kin_before(claim, than, FIGURE_COMPARATIVE_REACH)?;
    let word = claim.forms[at].clone()?;
    let direction = if less.contains(&word) { -1.0 } else { 1.0 };
    // "More common", "less likely": a rate, which only shares state.
    let rate_word = claim
        .form(at + 1)
        .filter(|f| rate_forms().iter().any(|w| w == f));
    let mut own: Vec<&str> = Vec::new();
    let mut other: Vec<&str> = Vec::new();
    for (i, form) in claim.forms.iter().enumerate() {
        let Some(form) = form.as_deref() else {
            continue;
        };
        if i == at || Some(form) == rate_word || !claim.is_content(form) {
            continue;
        }
        if i < than {
            own.push(form);
        } else if !own.contains(&form) {
            other.push(form);
        }
    }
    if other.is_empty() || own.is_empty() {
        return None;
    }
    let stated =
        |form: &&str| sentence.vocabulary.contains(*form) || sentence.compounds.contains(*form);
    if !own.iter().chain(&other).all(stated) {
        return None;
    }
    // A name of the claim's own arm marks it better than a word of what is compared, which
    // is often named first in the sentence ("Unemployment stood at 6.1% in Ostwick").
    let names: Vec<&str> = own
        .iter()
        .copied()
        .filter(|f| {
            claim
                .entities
                .iter()
                .any(|e| e.forms.iter().any(|n| n == f))
        })
        .collect();
    let arm = if names.is_empty() { own.clone() } else { names };
    // What is compared: the claim's own words but its arm's name. Without a name, all of them.
    let compared: Vec<&str> = if arm.len() == own.len() {
        own.clone()
    } else {
        own.iter().copied().filter(|f| !arm.contains(f)).collect()
    };
    let figures: Vec<&Quantity> = sentence
        .quantities
        .iter()
        .filter(|q| {
            !q.compound
                && !q.identifier
                && !q.difference
                && q.measure != Measure::Year
                && (rate_word.is_none() || is_percent(&q.measure))
        })
        .collect();
    let mut found = None;
    for (k, pair) in figures.windows(2).enumerate() {
        let (first, second) = (pair[0], pair[1]);
        if !compare::same_slot(first, second, false) || first.value == second.value {
            continue;
        }
        let start = k.checked_sub(1).map_or(0, |p| figures[p].span.end);
        let end = figures.get(k + 2).map_or(sentence.forms.len(), |q| q.at);
        // Where a word stands against the pair: before its first figure, between the two or
        // after the second.
        let side = |forms: &[&str]| -> Vec<u8> {
            let mut sides: Vec<u8> = (start..end)
                .filter(|&i| sentence.form(i).is_some_and(|f| forms.contains(&f)))
                .map(|i| {
                    if i < first.at {
                        0
                    } else if i < second.at {
                        1
                    } else {
                        2
                    }
                })
                .collect();
            sides.dedup();
            sides
        };
        let (theirs, ours) = (side(&other), side(&arm));
        // The other arm's figure, by where it and the claim's arm are named: before the first
        // figure or after the second each name one figure; between the two names the figure
        // the other arm does not take.
        let other_takes_second = match (theirs.as_slice(), ours.as_slice()) {
            ([2], [0] | [1] | [0, 1]) | ([1], [0]) => true,
            ([0], [1] | [2] | [1, 2]) | ([1], [2]) => false,
            _ => continue,
        };
        // What is compared must be named before the second figure.
        let compared_first = compared.iter().all(|f| {
            (0..second.at).any(|i| sentence.form(i) == Some(*f))
                || !(0..sentence.forms.len()).any(|i| sentence.form(i) == Some(*f))
        });
        if !compared_first {
            continue;
        }
        let (mine, theirs) = if other_takes_second {
            (first.value, second.value)
        } else {
            (second.value, first.value)
        };
        if found.is_some() {
            return None;
        }
        found = Some((word.clone(), (mine - theirs) * direction > 0.0));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flips(claim: &str, sentence: &str) -> bool {
        reversed(&Analysis::new(claim), &Analysis::new(sentence)).is_some()
    }

    fn against_extreme(claim: &str, sentence: &str) -> bool {
        against_superlative(&Analysis::new(claim), &Analysis::new(sentence)).is_some()
    }

    #[test]
    fn an_arm_given_the_other_extreme_of_the_scale_flips_the_comparison() {
        let lakes = "Lake Superior is the largest of the Great Lakes by surface area, well \
                     ahead of Lake Huron and Lake Michigan.";
        assert!(against_extreme(
            "Lake Superior is smaller than Lake Michigan.",
            lakes
        ));
        assert!(!against_extreme(
            "Lake Superior is larger than Lake Michigan.",
            lakes
        ));
        // The other arm given the extreme.
        let planets = "Jupiter is the largest planet in the Solar System, and Saturn is the \
                       second-largest.";
        assert!(against_extreme("Saturn is larger than Jupiter.", planets));
        assert!(!against_extreme("Saturn is smaller than Jupiter.", planets));
        // Opposite senses of one scale.
        assert!(against_extreme(
            "The Dead Sea is deeper than Lake Baikal.",
            "Lake Baikal is the deepest lake in the world; the Dead Sea is far shallower."
        ));
        // One of several is no extreme; an arm the sentence does not name is not compared.
        assert!(!against_extreme(
            "Lake Erie is smaller than Lake Ontario.",
            "Lake Erie is one of the largest lakes in North America, and Lake Ontario lies \
             downstream of it."
        ));
        assert!(!against_extreme(
            "Lake Superior is smaller than Lake Michigan.",
            "Lake Superior is the largest of the Great Lakes by surface area."
        ));
    }

    #[test]
    fn one_subject_in_two_settings_crossed_is_a_flip() {
        let page = "Sound travels about 4.3 times faster in water than in air.";
        assert!(flips(
            "Sound travels faster through air than through water.",
            page
        ));
        assert!(!flips(
            "Sound travels faster through water than through air.",
            page
        ));
        assert!(flips(
            "Sound travels slower through water than through air.",
            page
        ));
    }

    #[test]
    fn opposite_comparatives_on_one_scale_are_a_flip() {
        let page = "At 512 g with battery and card, the X4 is 27 g heavier than the X3.";
        // The sentence's subject stands behind a fronted phrase.
        assert!(flips("The X4 is lighter than the X3.", page));
        assert!(!flips("The X4 is heavier than the X3.", page));
        assert!(flips(
            "The X3 is heavier than the X4.",
            "The X3 is lighter than the X4."
        ));
        assert!(!flips(
            "The X3 is lighter than the X4.",
            "The X4 is heavier than the X3."
        ));
    }

    #[test]
    fn a_word_of_more_against_one_of_less_before_the_same_noun_is_a_flip() {
        let attribute = |claim: &str, sentence: &str| {
            reversed_attribute(&Analysis::new(claim), &Analysis::new(sentence))
        };
        let page = "Drinkers had a 21 percent lower risk of liver disease than non-drinkers.";
        assert!(attribute(
            "Drinkers had a higher risk of liver disease than non-drinkers.",
            page
        )
        .is_some());
        assert!(attribute(
            "The plant created more jobs.",
            "The plant created fewer jobs."
        )
        .is_some());
        // The same direction, another noun, a positive adjective ("small files" against "smaller
        // for large files"), or a sentence that has the noun both ways.
        assert!(attribute("Drinkers had a lower risk of liver disease.", page).is_none());
        assert!(attribute("Drinkers had a higher rate of liver disease.", page).is_none());
        assert!(attribute(
            "Backups of small files are faster.",
            "The gain is much smaller for large files."
        )
        .is_none());
        assert!(attribute(
            "Drinkers had a lower risk of liver disease.",
            "Drinkers had a lower risk of liver disease but a higher risk of gout."
        )
        .is_none());
        assert!(attribute(
            "Finland has a larger population than Sweden.",
            "Finland has a considerably smaller population than neighbouring Sweden."
        )
        .is_some());
        // Another thing compared with is another comparison.
        assert!(attribute(
            "Drinkers had a higher risk of gout than smokers.",
            "Drinkers had a lower risk of gout than abstainers."
        )
        .is_none());
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

    fn by_figures_of(claim: &str, sentence: &str) -> Option<bool> {
        by_figures(&Analysis::new(claim), &Analysis::new(sentence)).map(|(_, agrees)| agrees)
    }

    #[test]
    fn two_figures_decide_a_comparison_of_their_arms() {
        let rates = "Unemployment stood at 6.1% in Ostwick and 4.3% in Dunstrand last year.";
        assert_eq!(
            by_figures_of(
                "Unemployment in Ostwick is higher than in Dunstrand.",
                rates
            ),
            Some(true)
        );
        assert_eq!(
            by_figures_of("Unemployment in Ostwick is lower than in Dunstrand.", rates),
            Some(false)
        );
        assert_eq!(
            by_figures_of(
                "Unemployment in Dunstrand is higher than in Ostwick.",
                rates
            ),
            Some(false)
        );
        // Each arm named before its figure, or one before and one after.
        assert_eq!(
            by_figures_of(
                "Ostwick has fewer residents than Dunstrand.",
                "Ostwick has 131,000 residents, against 104,000 in Dunstrand."
            ),
            Some(false)
        );
        assert_eq!(
            by_figures_of(
                "Side effects were more common on the drug than on placebo.",
                "Side effects were reported by 23% of those on the drug and 9% of those on placebo."
            ),
            Some(true)
        );
    }

    #[test]
    fn figures_that_do_not_tie_to_the_arms_decide_nothing() {
        // The other arm is not named.
        assert_eq!(
            by_figures_of(
                "Unemployment in Ostwick is higher than in Halvern.",
                "Unemployment stood at 6.1% in Ostwick and 4.3% in Dunstrand last year."
            ),
            None
        );
        // Both arms between the two figures: no reading ties each to one.
        assert_eq!(
            by_figures_of(
                "Unemployment in Ostwick is higher than in Dunstrand.",
                "Unemployment rose from 4.3% in Ostwick and Dunstrand to 6.1% last year."
            ),
            None
        );
        // Figures of another kind, or a year.
        assert_eq!(
            by_figures_of(
                "Ostwick has fewer residents than Dunstrand.",
                "Ostwick has 131,000 residents and 42 schools, Dunstrand 104,000 residents."
            ),
            None
        );
        assert_eq!(
            by_figures_of(
                "Ostwick has fewer residents than Dunstrand.",
                "Ostwick had its charter in 1124 and Dunstrand in 1189, and both have many residents."
            ),
            None
        );
        // What is compared is named only after the pair: the figures measure something else.
        assert_eq!(
            by_figures_of(
                "Dropout was higher on corvaline than on placebo.",
                "Dementia in 14.2% (corvaline) and 19.0% (placebo), dropout 16%."
            ),
            None
        );
        // A claim with a number of its own is read by its numbers.
        assert_eq!(
            by_figures_of(
                "Unemployment in Ostwick is 2 points higher than in Dunstrand.",
                "Unemployment stood at 6.1% in Ostwick and 4.3% in Dunstrand last year."
            ),
            None
        );
    }
}
