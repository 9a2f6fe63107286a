//! Two named parties, each with its own clause, traded between clauses (pure): "Ketterley Land
//! conceded the ground before the hearing, while the Secretary of State contested it" against
//! "The Secretary of State conceded this ground before the hearing; Ketterley Land contested
//! it to the end". Every word of the claim is there, so coverage calls it a support, and
//! `roles` reads only a name, its verb and a second name in one tight frame. Here each of the
//! claim's clauses is matched, by its own words, to the sentence's clause that says most of
//! them; the trade is when each lands in a clause led by the other party's name.

use std::sync::OnceLock;

use super::analyse::{Analysis, Entity};
use super::clause::{holds, PREPOSITIONS};
use super::lex::forms_of;
use super::lexicon;
use super::roles;

/// How far into its clause a name may start and still lead it ("while her brother Silas
/// kept the books").
const LEAD_REACH: usize = 4;

/// Whether each of two of the claim's clauses, led by two different names, is said in the
/// sentence by a clause that the other name leads. Returns the claim's name and the
/// sentence's name in its place.
pub fn traded<'a>(claim: &'a Analysis, sentence: &'a Analysis) -> Option<(&'a Entity, &'a Entity)> {
    if claim.clauses.count() < 2 || sentence.clauses.count() < 2 {
        return None;
    }
    let ours: Vec<(usize, &Entity, Vec<&str>)> = (0..claim.clauses.count())
        .filter_map(|c| {
            let name = leader(claim, c)?;
            let words = own_words(claim, c);
            (words.len() >= 2).then_some((c, name, words))
        })
        .collect();
    // A clause that names the other party acts on it ("Apple sued Samsung ..., and Samsung
    // countersued Apple"): each party is in both clauses, and no trade can be read.
    let names_in = |c: usize, e: &Entity| {
        claim
            .entities
            .iter()
            .any(|n| claim.clauses.of(n.span.start) == Some(c) && roles::same(n, e))
    };
    let leaders: Vec<Option<&Entity>> = leaders(sentence);
    let said_in = |words: &[&str]| -> Option<usize> {
        let counts: Vec<usize> = (0..sentence.clauses.count())
            .map(|k| words.iter().filter(|w| holds(sentence, k, w)).count())
            .collect();
        let best = *counts.iter().max()?;
        let need = 2.max(words.len().div_ceil(2));
        (best >= need && counts.iter().filter(|&&n| n == best).count() == 1)
            .then(|| counts.iter().position(|&n| n == best))
            .flatten()
    };
    for (i, (ca, a, words_a)) in ours.iter().enumerate() {
        for (cb, b, words_b) in &ours[i + 1..] {
            if roles::same(a, b) || names_in(*ca, b) || names_in(*cb, a) {
                continue;
            }
            let (Some(ka), Some(kb)) = (said_in(words_a), said_in(words_b)) else {
                continue;
            };
            if ka == kb {
                continue;
            }
            let (Some(led_a), Some(led_b)) = (leaders[ka], leaders[kb]) else {
                continue;
            };
            if roles::same(led_a, b) && roles::same(led_b, a) {
                return Some((a, led_a));
            }
        }
    }
    None
}

/// The name that leads clause `c`: the first name within [`LEAD_REACH`] of its start that no
/// preposition governs.
fn leader(text: &Analysis, c: usize) -> Option<&Entity> {
    let start = (0..text.forms.len()).find(|&i| text.clauses.of(i) == Some(c))?;
    // A capitalised word opening the text counts ("Silas had served ..."), as in `roles`.
    roles::names(text)
        .into_iter()
        .filter(|e| text.clauses.of(e.span.start) == Some(c))
        .filter(|e| e.span.start < start + LEAD_REACH)
        .find(|e| {
            e.span
                .start
                .checked_sub(1)
                .and_then(|p| text.form(p))
                .is_none_or(|f| !PREPOSITIONS.contains(&f))
        })
}

/// Each clause's leading name; a clause without one that opens on a pronoun ("and he ran the
/// mill floor") goes on about the name before it.
/// A name that says something ("McCartney said Lennon wrote the lyrics") reports another's
/// act and leads nothing; nor does a pronoun go on about the name before when that clause
/// names two ("Mills hired Okafor, and she led the team": either may be "she").
fn leaders(text: &Analysis) -> Vec<Option<&Entity>> {
    let saying = |e: &Entity| {
        text.form(e.span.end)
            .is_some_and(|f| lexicon::SAYING_VERBS.contains(&f) || says().iter().any(|s| s == f))
    };
    let names_in = |c: usize| {
        text.entities
            .iter()
            .filter(|e| text.clauses.of(e.span.start) == Some(c))
            .count()
    };
    let mut out: Vec<Option<&Entity>> = Vec::with_capacity(text.clauses.count());
    for c in 0..text.clauses.count() {
        let led = leader(text, c).filter(|e| !saying(e)).or_else(|| {
            (text.clauses.subject_of(c).is_none() && c > 0 && names_in(c - 1) < 2)
                .then(|| out.last().copied().flatten())
                .flatten()
        });
        out.push(led);
    }
    out
}

/// The folded forms of verbs of saying and crediting that report another's act.
fn says() -> &'static [String] {
    static WORDS: OnceLock<Vec<String>> = OnceLock::new();
    WORDS.get_or_init(|| {
        forms_of(&[
            "said",
            "says",
            "told",
            "confirmed",
            "credits",
            "credited",
            "claimed",
            "claims",
            "insisted",
            "believes",
            "recalled",
            "added",
            "noted",
            "argued",
        ])
    })
}

/// The content words of clause `c` outside its names.
fn own_words(text: &Analysis, c: usize) -> Vec<&str> {
    let mut words: Vec<&str> = Vec::new();
    for (i, form) in text.forms.iter().enumerate() {
        let Some(form) = form.as_deref() else {
            continue;
        };
        let in_name = text.entities.iter().any(|e| e.span.contains(&i));
        if text.clauses.of(i) == Some(c)
            && !in_name
            && text.is_content(form)
            && !words.contains(&form)
        {
            words.push(form);
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trade(claim: &str, sentence: &str) -> Option<(String, String)> {
        let (claim, sentence) = (Analysis::new(claim), Analysis::new(sentence));
        traded(&claim, &sentence).map(|(c, s)| (c.text.clone(), s.text.clone()))
    }

    #[test]
    fn two_parties_traded_between_clauses_are_a_conflict() {
        let claim = "Ketterley Land conceded the flood-risk ground before the hearing, while the \
                     Secretary of State contested it to the end.";
        assert!(trade(
            claim,
            "The Secretary of State conceded this ground before the hearing; Ketterley Land \
             contested it to the end."
        )
        .is_some());
        // Each in its own clause, as the claim has them: no trade.
        assert_eq!(
            trade(
                claim,
                "Ketterley Land conceded this ground before the hearing; the Secretary of State \
                 contested it to the end."
            ),
            None
        );
    }

    #[test]
    fn a_clause_that_opens_on_a_pronoun_goes_on_about_the_name_before() {
        let claim = "Martha Gilroy ran the machinery and the mill floor, while her brother Silas \
                     kept the books and dealt with the banks.";
        assert!(trade(
            claim,
            "Silas had served his apprenticeship in Lancashire, and he ran the machinery and \
             the mill floor; Martha kept the books and dealt with the banks."
        )
        .is_some());
        assert_eq!(
            trade(
                claim,
                "Martha had served her apprenticeship in Lancashire, and she ran the machinery \
                 and the mill floor; Silas kept the books and dealt with the banks."
            ),
            None
        );
    }
}
