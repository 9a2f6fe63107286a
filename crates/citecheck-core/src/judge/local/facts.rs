//! A claim that states several facts at once, cut into one claim per fact (pure).
//!
//! Answers join facts that a page states far apart: "The commission was set up in 1948 and has
//! been based in Budapest since 1954" rests on two sentences paragraphs apart, and neither
//! covers the whole claim. Each fact is judged on its own and the claim is read from the facts
//! (`mod.rs`): supported when every fact is, contradicted when one is and the rest are
//! supported.
//!
//! The cut is deliberately narrow. It happens only where a new predicate starts: at ";", at
//! "and" followed by a verb ("... in 1948 and has been ..."), and at ", and", ", but",
//! ", while", ", whereas" followed by a clause with a verb of its own. A fact whose own subject
//! is left out ("and has been based in Budapest") borrows the claim's. Lists of names or
//! places ("flows through Austria and Hungary") and ranges ("between 1990 and 2000") are left
//! whole: what follows their "and" is no predicate.

use super::lex::{lex, LexKind, Lexeme};
use super::lexicon;

/// Facts a claim may be cut into at most: more is a list, not a sentence of facts.
const MOST_FACTS: usize = 4;

/// Words (lexemes) a fact must have after its subject to stand on its own.
const LEAST_PREDICATE_WORDS: usize = 2;

/// How far after ", and" a verb may come for the words between to be a subject of its own.
const SUBJECT_REACH: usize = 5;

/// The claim's facts, each a claim of its own; empty when the claim states one fact (or its
/// facts cannot be told apart safely).
pub fn split(claim: &str) -> Vec<String> {
    let lexemes = lex(claim);
    let lower: Vec<String> = lexemes.iter().map(|l| l.text.to_lowercase()).collect();
    let verb = |i: usize| is_verb(&lexemes, &lower, i);
    // The subject: what comes before the first verb, less an opening adverbial ("In 1948, ").
    let Some(first_verb) = (1..lexemes.len()).find(|&i| verb(i)) else {
        return Vec::new();
    };
    let opening = opening_adverbial(&lexemes, &lower, first_verb);
    if opening >= first_verb {
        return Vec::new();
    }
    let subject = claim[lexemes[opening].start..lexemes[first_verb].start].trim_end();
    // A subject of function words only ("The" before a misread verb) would let a fact match
    // any sentence: no cut then.
    let named = (opening..first_verb).any(|i| {
        lexemes[i].kind != LexKind::Punct && !lexicon::STOPWORDS.contains(&lower[i].as_str())
    });
    if !named {
        return Vec::new();
    }
    // Where each later fact starts, and whether it names its own subject.
    let mut cuts: Vec<(usize, bool)> = Vec::new();
    for i in first_verb + 1..lexemes.len().saturating_sub(1) {
        let after_comma = lexemes[i - 1].text == ",";
        let next = i + 1;
        match lower[i].as_str() {
            ";" => cuts.push((next, !verb(next))),
            "and" if verb(next) || (is_adverb(&lower[next]) && verb(next + 1)) => {
                cuts.push((next, false));
            }
            "and" | "but" | "while" | "whereas" if after_comma => {
                if verb(next) {
                    cuts.push((next, false));
                } else if own_clause(&lexemes, &lower, next) {
                    cuts.push((next, true));
                }
            }
            _ => {}
        }
    }
    if cuts.is_empty() || cuts.len() >= MOST_FACTS {
        return Vec::new();
    }
    let mut facts = Vec::with_capacity(cuts.len() + 1);
    // The first fact runs from the start to the word that joins the second.
    let ends: Vec<usize> = cuts.iter().map(|&(start, _)| start - 1).collect();
    let mut start = 0;
    let mut own_subject = true;
    for (k, &end) in ends.iter().chain([&lexemes.len()]).enumerate() {
        let words = &lexemes[start..end];
        let text = span(claim, words);
        if words.iter().filter(|l| l.kind != LexKind::Punct).count() < LEAST_PREDICATE_WORDS {
            return Vec::new();
        }
        facts.push(if own_subject {
            text.to_string()
        } else {
            format!("{subject} {text}")
        });
        if let Some(&(next, own)) = cuts.get(k) {
            start = next;
            own_subject = own;
        }
    }
    facts
}

/// The text from the first lexeme to the last, without a trailing comma or full stop.
fn span<'a>(claim: &'a str, words: &[Lexeme<'a>]) -> &'a str {
    match (words.first(), words.last()) {
        (Some(first), Some(last)) => claim[first.start..last.start + last.text.len()]
            .trim_end_matches([',', '.', ';', ' '])
            .trim(),
        _ => "",
    }
}

/// Where the subject starts: after an opening adverbial that ends in a comma before the first
/// verb ("In 1948, the commission was ..."), else at the first word.
fn opening_adverbial(lexemes: &[Lexeme<'_>], lower: &[String], first_verb: usize) -> usize {
    let opens_adverbial = lower
        .first()
        .is_some_and(|w| ADVERBIAL_OPENERS.contains(&w.as_str()));
    if !opens_adverbial {
        return 0;
    }
    lexemes[..first_verb]
        .iter()
        .position(|l| l.text == ",")
        .map_or(first_verb, |comma| comma + 1)
}

/// Whether the words from `start` are a clause with a subject of its own ("the rest lies in
/// Ukraine"): a verb within a few words, and no comma or "and" on the way (which would make
/// them one more item of a list).
fn own_clause(lexemes: &[Lexeme<'_>], lower: &[String], start: usize) -> bool {
    (start + 1..(start + SUBJECT_REACH).min(lexemes.len()))
        .take_while(|&i| lexemes[i].text != "," && lower[i] != "and")
        .any(|i| is_verb(lexemes, lower, i))
}

/// Whether lexeme `i` is (very likely) a finite verb or an auxiliary: a word of the closed
/// list, an irregular past, or a lower-case word ending in "-ed". Nouns ending in "-ed" are
/// rare ("bed", "seed", "need"), and the ones there are do not follow "and" in a claim.
fn is_verb(lexemes: &[Lexeme<'_>], lower: &[String], i: usize) -> bool {
    let (Some(lexeme), Some(word)) = (lexemes.get(i), lower.get(i)) else {
        return false;
    };
    if lexeme.kind != LexKind::Word || lexeme.hyphenated {
        return false;
    }
    let capitalised = lexeme.text.chars().next().is_some_and(char::is_uppercase);
    if capitalised && i > 0 {
        return false;
    }
    // After a determiner a participle is an adjective ("the reviewed model").
    let after_determiner = i
        .checked_sub(1)
        .is_some_and(|p| DETERMINERS.contains(&lower[p].as_str()));
    if after_determiner {
        return false;
    }
    let word = word.as_str();
    lexicon::FINITE_VERBS.contains(&word)
        || lexicon::IRREGULAR_PASTS.contains(&word)
        || (word.len() >= 5 && word.ends_with("ed") && !word.ends_with("eed"))
        || present_after_name(lexemes, word, i)
}

/// A present-tense verb straight after a name ("the Danube flows", "HTTP 410 Gone means"):
/// a lower-case word in "-s" there is the name's verb, as a plural noun does not follow a
/// name that is not possessive.
fn present_after_name(lexemes: &[Lexeme<'_>], word: &str, i: usize) -> bool {
    let name_before = i
        .checked_sub(1)
        .and_then(|p| lexemes.get(p))
        .is_some_and(|l| {
            l.kind == LexKind::Word
                && l.text.chars().next().is_some_and(char::is_uppercase)
                && !l.text.ends_with("'s")
                && !l.text.ends_with("\u{2019}s")
                && i > 1
        });
    name_before
        && word.len() >= 4
        && word.ends_with('s')
        && !["ss", "us", "is", "ous"].iter().any(|e| word.ends_with(e))
}

/// Words after which a participle or an "-s" word is part of a noun phrase.
const DETERMINERS: &[&str] = &[
    "the", "a", "an", "its", "their", "his", "her", "this", "that",
];

/// An adverb that may stand between "and" and its verb ("and later moved").
fn is_adverb(word: &str) -> bool {
    (word.len() > 4 && word.ends_with("ly"))
        || ["later", "then", "also", "now", "still", "soon"].contains(&word)
}

/// Words that open an adverbial before a claim's subject ("In 1948, ...", "By 2020, ...").
const ADVERBIAL_OPENERS: &[&str] = &[
    "in",
    "by",
    "on",
    "at",
    "after",
    "before",
    "since",
    "during",
    "until",
    "from",
    "for",
    "following",
    "according",
    "as",
    "when",
    "with",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_predicate_after_and_borrows_the_claim_s_subject() {
        assert_eq!(
            split(
                "The Danube Commission was established in 1948 and has been headquartered in \
                 Budapest since 1954."
            ),
            [
                "The Danube Commission was established in 1948",
                "The Danube Commission has been headquartered in Budapest since 1954",
            ]
        );
        assert_eq!(
            split("Halvern opened the plant in 2019 and later moved its head office to Leeds."),
            [
                "Halvern opened the plant in 2019",
                "Halvern later moved its head office to Leeds",
            ]
        );
    }

    #[test]
    fn a_clause_with_its_own_subject_stands_alone() {
        assert_eq!(
            split("Most of the delta lies in Romania, while the remainder is in Ukraine."),
            [
                "Most of the delta lies in Romania",
                "the remainder is in Ukraine"
            ]
        );
        assert_eq!(
            split("The bridge opened in 1932; its twin followed in 1961."),
            ["The bridge opened in 1932", "its twin followed in 1961"]
        );
    }

    #[test]
    fn the_subject_ends_at_its_verb_not_at_a_participle_or_a_plural() {
        assert_eq!(
            split("The reviewed Orrin S7 configuration cost $1,299 and came with 32 GB of memory."),
            Vec::<String>::new(),
            "'reviewed' after 'The' is no verb and 'cost' no verb it knows: no verb before 'and'"
        );
        assert_eq!(
            split("The Danube flows through ten countries and is Europe's second-longest river."),
            [
                "The Danube flows through ten countries",
                "The Danube is Europe's second-longest river",
            ]
        );
        assert_eq!(
            split("Brannock's shares rose 4% and were the index's best performer."),
            [
                "Brannock's shares rose 4%",
                "Brannock's shares were the index's best performer",
            ]
        );
    }

    #[test]
    fn an_opening_adverbial_is_not_part_of_the_borrowed_subject() {
        assert_eq!(
            split("In 1948, the commission was founded and was based in Galați."),
            [
                "In 1948, the commission was founded",
                "the commission was based in Galați",
            ]
        );
    }

    #[test]
    fn lists_ranges_and_single_facts_stay_whole() {
        for claim in [
            "The Danube flows through Austria and Hungary before reaching the Black Sea.",
            "Revenue grew between 1990 and 2000.",
            "Sales rose 9% to £412 million in the first half.",
            "The council approved the plan by 27 votes to 16.",
            "Rust and Go are both compiled languages.",
            "The tower was built for the 1889 World's Fair.",
            "It rained and snowed.",
            "",
            "and and and",
        ] {
            assert!(split(claim).is_empty(), "{claim:?} -> {:?}", split(claim));
        }
    }

    #[test]
    fn a_list_after_a_comma_is_not_a_clause() {
        assert!(split("The park has lakes, woods, and meadows.").is_empty());
        assert!(split("The line serves Kestrel Bay, Aldmoor, and the airport.").is_empty());
    }

    #[test]
    fn odd_text_never_panics() {
        for claim in [
            ";",
            "a; b",
            "x and",
            "and was",
            ", and was",
            "Was it; and had",
            "é and ed; ,",
            "The 1,642 ft tower was, and is; tall",
        ] {
            let _ = split(claim);
        }
    }
}
