//! Who said it (pure): a claim that puts a quotation in one person's mouth ("'a missed
//! opportunity for working families', Finance Minister Laura Benz called her own budget")
//! against a sentence that gives the same words to another ("... opposition leader Tomás Reyes
//! told reporters"). Only a speaker the sentence names right beside the quotation, with a verb
//! of saying, is read: a name elsewhere in the sentence may be anyone the quotation is about.

use std::sync::OnceLock;

use super::analyse::{Analysis, Entity};
use super::lex::{forms_of, is_stopword};
use super::roles;

/// How many lexemes may stand between a quotation's closing mark and its speaker (", opposition
/// leader Tomás Reyes told"), or between the speaker and the opening mark ("Kennedy urged:").
const SPEAKER_REACH: usize = 5;
/// The share of the claim's quoted content words the sentence's quotation must hold to be the
/// same words.
const SAME_WORDS: f64 = 0.6;

/// Verbs that put words in a speaker's mouth, the speaker before them ("Reyes told reporters",
/// "Kennedy urged").
const SAYING: &[&str] = &[
    "said",
    "says",
    "told",
    "tells",
    "wrote",
    "writes",
    "added",
    "adds",
    "urged",
    "urges",
    "declared",
    "declares",
    "stated",
    "states",
    "asked",
    "asks",
    "insisted",
    "insists",
    "remarked",
    "warned",
    "warns",
    "argued",
    "argues",
    "noted",
    "notes",
    "explained",
];
/// Verbs of saying whose speaker may follow them (", said Reyes"); "told" is not one: its next
/// name is whom it was told to.
const SAYING_BEFORE: &[&str] = &["said", "says", "wrote", "writes", "added", "adds", "asked"];

/// The claim's speaker and the sentence's other speaker of the same quoted words.
pub fn misattributed<'a>(
    claim: &'a Analysis,
    sentence: &'a Analysis,
) -> Option<(&'a Entity, &'a Entity)> {
    let ours = claim.quotes.first()?;
    let words: Vec<&str> = ours
        .clone()
        .filter_map(|i| claim.form(i))
        .filter(|f| !is_stopword(f))
        .collect();
    if words.len() < 2 {
        return None;
    }
    // The claim's speaker: its first name outside the quotation.
    let speaker = roles::names(claim)
        .into_iter()
        .find(|e| !ours.contains(&e.span.start))?;
    let theirs = sentence.quotes.iter().find(|q| {
        let held = words
            .iter()
            .filter(|w| (q.start..q.end).any(|i| sentence.form(i) == Some(**w)))
            .count();
        held as f64 >= SAME_WORDS * words.len() as f64
    })?;
    let other = speaker_of(sentence, theirs)?;
    // The sentence's speaker may be named in the claim too, in another role ("Benz's budget
    // drew a rebuke from Reyes").
    (!roles::same(other, speaker) && !claim.names(other)).then_some((speaker, other))
}

/// The name the sentence gives as the speaker of the quotation at `quote`.
fn speaker_of<'a>(sentence: &'a Analysis, quote: &std::ops::Range<usize>) -> Option<&'a Entity> {
    static FORMS: OnceLock<(Vec<String>, Vec<String>)> = OnceLock::new();
    let (saying_forms, before_forms) =
        FORMS.get_or_init(|| (forms_of(SAYING), forms_of(SAYING_BEFORE)));
    let names = roles::names(sentence);
    let saying = |i: usize, verbs: &[String]| {
        sentence
            .form(i)
            .is_some_and(|f| verbs.iter().any(|v| v == f))
    };
    // After the closing mark: "..., Tomás Reyes told", "..., said Reyes".
    let close = quote.end + 1;
    let after = names
        .iter()
        .copied()
        .filter(|e| e.span.start >= close && e.span.start <= close + SPEAKER_REACH)
        .find(|e| {
            saying(e.span.end, saying_forms)
                || e.span
                    .start
                    .checked_sub(1)
                    .is_some_and(|p| saying(p, before_forms))
        });
    // Before the opening mark: "Kennedy urged: ...".
    let open = quote.start.saturating_sub(1);
    let before = || {
        names
            .iter()
            .copied()
            .filter(|e| e.span.end <= open && e.span.end + SPEAKER_REACH >= open)
            .find(|e| saying(e.span.end, saying_forms))
    };
    after.or_else(before)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn who(claim: &str, sentence: &str) -> Option<(String, String)> {
        let (c, s) = (Analysis::new(claim), Analysis::new(sentence));
        misattributed(&c, &s).map(|(a, b)| (a.text.clone(), b.text.clone()))
    }

    #[test]
    fn the_same_words_given_to_another_speaker_are_misattributed() {
        let sentence = "\"This budget is a missed opportunity for working families,\" \
                        opposition leader Tomás Reyes told reporters on Wednesday, hours after \
                        Finance Minister Laura Benz presented the plan.";
        assert_eq!(
            who(
                "Finance Minister Laura Benz called her own budget \"a missed opportunity for \
                 working families.\"",
                sentence
            ),
            Some(("Finance Minister Laura Benz".into(), "Tomás Reyes".into()))
        );
        assert_eq!(
            who(
                "Opposition leader Tomás Reyes called the budget \"a missed opportunity for \
                 working families.\"",
                sentence
            ),
            None
        );
        // The speaker after "said"; and "told" names whom it was told to, not who spoke.
        assert_eq!(
            who(
                "\"Ask not what your country can do for you\" was Franklin Roosevelt's line.",
                "\"Ask not what your country can do for you,\" said John Kennedy in 1961."
            ),
            Some(("Franklin Roosevelt's".into(), "John Kennedy".into()))
        );
        assert_eq!(
            who(
                "Franklin Roosevelt told Congress \"we have nothing to fear but fear itself.\"",
                "\"We have nothing to fear but fear itself,\" the president told Congress."
            ),
            None
        );
    }
}
