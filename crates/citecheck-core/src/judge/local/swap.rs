//! Two common-noun parties traded around one verb (pure): "the student union sued the
//! university" against "the university has sued the student union". `roles` reads such trades
//! between names; this reads them between any two parties written right beside the verb: the
//! run of content words before it (past an auxiliary: "has sued") and the run after it (past
//! a determiner: "the university"), or after a passive's "by". The sentence trades them when,
//! around the same verb, the claim's party from before it stands after it and the one from
//! after it before it; a passive ("was beaten by") trades them back, so the claim's order
//! under one voice against the sentence's under the other is a trade too. Every place of the
//! verb in the sentence must trade them, and a verb whose parties can trade places without
//! changing what happened ("met", "played") trades nothing. A party further from its verb
//! ("Orbis Ltd was ordered to pay damages to Kestrel Media") is not read: a wider reach took
//! reordered paraphrases ("grain imports" against "imports of grain") for trades.

use super::analyse::Analysis;
use super::lex::is_stopword;
use super::roles::symmetric;

/// The most words a party may have ("the regional water authority").
const PARTY_WORDS: usize = 3;

/// Small words that may stand between a subject and its verb ("has sued", "was ordered").
const AUXILIARIES: &[&str] = &[
    "is", "was", "are", "were", "has", "had", "have", "will", "would", "be", "been", "being",
    "did", "does", "do", "also", "then", "later", "since", "now",
    // The first half of a hyphenated verb ("co-wrote", "re-signed").
    "co", "re",
];

/// Forms of "be" that make a participle after them a passive.
const BE: &[&str] = &["is", "was", "are", "were", "be", "been", "being"];

/// Words that may open a party after its verb.
const DETERMINERS: &[&str] = &[
    "the", "a", "an", "its", "their", "his", "her", "this", "that",
];

/// The run of content words right before (or after) lexeme `at`, past the small words that
/// may stand there (auxiliaries before, determiners after), at most [`PARTY_WORDS`]; and the
/// lexeme where the run stops.
fn party(text: &Analysis, at: usize, forward: bool) -> (Vec<&str>, usize) {
    let skip: &[&str] = if forward { DETERMINERS } else { AUXILIARIES };
    let mut words = Vec::new();
    let mut i = at;
    let mut skipping = true;
    loop {
        i = if forward {
            i + 1
        } else {
            match i.checked_sub(1) {
                Some(p) => p,
                None => break,
            }
        };
        let Some(form) = text.form(i) else { break };
        if skipping && skip.contains(&form) {
            continue;
        }
        skipping = false;
        if is_stopword(form) || words.len() == PARTY_WORDS {
            break;
        }
        words.push(form);
    }
    (words, i)
}

/// Whether the party that stops at lexeme `end` goes on there with "and" or "or" ("by Adele
/// and Paul Epworth", "Adele and Paul Epworth wrote"): one of several, whose roles the verb
/// does not tell apart.
fn coordinated(text: &Analysis, end: usize) -> bool {
    matches!(text.form(end), Some("and" | "or"))
}

/// Whether a form of "be" stands before the verb at `at` (past other small words): a passive,
/// whose party after it, without "by", is what it was named or made ("has been named the
/// orchestra's music director"), not what it acted on.
fn be_passive(text: &Analysis, at: usize) -> bool {
    (0..at)
        .rev()
        .map_while(|i| text.form(i).filter(|f| AUXILIARIES.contains(f)))
        .any(|f| BE.contains(&f))
}

/// Whether a passive's "by" and its agent follow the verb at `at` ("was sued by the union"),
/// not a measure ("by 15%") or a manner ("by default").
fn passive(text: &Analysis, at: usize) -> bool {
    text.form(at + 1) == Some("by")
        && !party(text, at + 1, true).0.is_empty()
        && text.form(at + 2) != Some("default")
}

/// The claim's verb around which the sentence trades the claim's two parties, if any.
pub fn traded(claim: &Analysis, sentence: &Analysis) -> Option<String> {
    (0..claim.forms.len()).find_map(|v| {
        let verb = claim.form(v)?;
        // The sentence's vocabulary first: most claim words are not verbs the sentence shares.
        if !sentence.vocabulary.contains(verb)
            || is_stopword(verb)
            || !claim.is_lowercase(v)
            || symmetric().iter().any(|s| s == verb)
        {
            return None;
        }
        let claim_passive = passive(claim, v);
        if be_passive(claim, v) && !claim_passive {
            return None;
        }
        let (x, _) = party(claim, v, false);
        let (y, _) = party(claim, if claim_passive { v + 1 } else { v }, true);
        if x.is_empty() || y.is_empty() || x.iter().any(|w| y.contains(w)) {
            return None;
        }
        let has = |side: &[&str], words: &[&str]| words.iter().any(|w| side.contains(w));
        let traded_at = |j: usize| {
            let sentence_passive = passive(sentence, j);
            if be_passive(sentence, j) && !sentence_passive {
                return false;
            }
            let (before, before_end) = party(sentence, j, false);
            let (after, after_end) =
                party(sentence, if sentence_passive { j + 1 } else { j }, true);
            if coordinated(sentence, before_end) || coordinated(sentence, after_end) {
                return false;
            }
            let swapped =
                has(&before, &y) && has(&after, &x) && !has(&before, &x) && !has(&after, &y);
            let kept = has(&before, &x) && has(&after, &y) && !has(&before, &y) && !has(&after, &x);
            let voice_differs = sentence_passive != claim_passive;
            (swapped && !voice_differs) || (kept && voice_differs)
        };
        let mut places = (0..sentence.forms.len())
            .filter(|&j| sentence.form(j) == Some(verb))
            .peekable();
        // Every place of the verb trades them: one that keeps the claim's order states it.
        (places.peek().is_some() && places.all(traded_at)).then(|| verb.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trades(claim: &str, sentence: &str) -> bool {
        traded(&Analysis::new(claim), &Analysis::new(sentence)).is_some()
    }

    #[test]
    fn two_parties_on_the_other_sides_of_the_same_word_are_traded() {
        for (claim, sentence) in [
            (
                "The student union sued the university over the damage caused during the \
                 occupation.",
                "The university has sued the student union, alleging that its occupation of \
                 the administration building caused more than £150,000 in damage.",
            ),
            // The same order under the other voice.
            (
                "The Celtics were beaten by the Mavericks in the final.",
                "The Celtics beat the Mavericks in the final.",
            ),
        ] {
            assert!(trades(claim, sentence), "{claim} / {sentence}");
        }
    }

    #[test]
    fn the_same_parties_in_the_same_roles_are_no_trade() {
        for (claim, sentence) in [
            (
                "The student union sued the university.",
                "The student union has sued the university over the occupation.",
            ),
            // The other voice and the other order: the same act.
            (
                "The Senate approved the bill.",
                "The bill was approved by the Senate on Tuesday.",
            ),
            // Parties that can trade places.
            (
                "The president met the prime minister in Paris.",
                "The prime minister met the president in Paris.",
            ),
            (
                "Brackenford signed a deal with Aldmoor.",
                "Aldmoor signed a deal with Brackenford.",
            ),
            // One of several agents.
            (
                "Paul Epworth produced and co-wrote Adele's Rolling in the Deep.",
                "Rolling in the Deep, the lead single from Adele's album 21, was co-written by \
                 Adele and Paul Epworth, who also produced it.",
            ),
            // What someone was named, not whom they named.
            (
                "Ivo Marek has been named the Tessaly Orchestra's music director.",
                "The Tessaly Orchestra named Czech conductor Ivo Marek as its next music director.",
            ),
        ] {
            assert!(!trades(claim, sentence), "{claim} / {sentence}");
        }
    }
}
