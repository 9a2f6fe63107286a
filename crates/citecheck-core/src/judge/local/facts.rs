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

use super::lex::{is_stopword, lex, LexKind, Lexeme};
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
    let comma = |i: usize| lexemes.get(i).is_some_and(|l| l.text == ",");
    // Appositive clauses between the subject and its verb ("The park, set up in 1962, takes
    // in ..."; "Marrick, who retired in 1926, died ..."): each is a fact about the subject.
    let mut appositives: Vec<(usize, std::ops::Range<usize>)> = Vec::new();
    let mut first_verb = None;
    let mut i = 1;
    while i < lexemes.len() {
        if comma(i) {
            let close = (i + 1..lexemes.len()).find(|&j| comma(j));
            if let (Some(open), Some(close)) = (appositive_start(&lexemes, &lower, i + 1), close) {
                appositives.push((i, open..close));
                i = close + 1;
                // Right after the appositive comes the subject's verb ("..., takes in").
                let lower_word = lexemes.get(i).is_some_and(|l| {
                    l.kind == LexKind::Word && !l.text.starts_with(char::is_uppercase)
                });
                if lower_word {
                    first_verb = Some(i);
                    break;
                }
                continue;
            }
        }
        if verb(i) {
            first_verb = Some(i);
            break;
        }
        i += 1;
    }
    let Some(first_verb) = first_verb else {
        return Vec::new();
    };
    // An opening participle phrase ("Completed in 1894, the viaduct ...") is one more.
    let opening_participle = lower
        .first()
        .is_some_and(|w| gerund_form(w) || participle_form(w));
    if opening_participle {
        if let Some(close) = (1..first_verb).find(|&j| comma(j)) {
            if appositives.first().is_none_or(|(c, _)| *c > close) {
                appositives.insert(0, (close, 0..close));
            }
        }
    }
    let (subject_start, subject_end) = match appositives.as_slice() {
        [(close, range), rest @ ..] if range.start == 0 => (
            close + 1,
            rest.first().map_or(first_verb, |(comma, _)| *comma),
        ),
        [(comma, _), ..] => (0, *comma),
        [] => (0, first_verb),
    };
    let opening = opening_adverbial(&lexemes, &lower, subject_end).max(subject_start);
    if opening >= subject_end {
        return Vec::new();
    }
    let subject = claim[lexemes[opening].start..lexemes[subject_end].start].trim_end();
    // A subject of function words only ("The" before a misread verb) would let a fact match
    // any sentence: no cut then.
    let named = (opening..subject_end)
        .any(|i| lexemes[i].kind != LexKind::Punct && !is_stopword(&lower[i]));
    // Nor may it end in a conjunction: the verb before it went unread ("Given the data, the
    // firm cut jobs and closed plants" would borrow "the firm cut jobs and").
    let dangling = matches!(lower[subject_end - 1].as_str(), "and" | "or" | "but");
    if !named || dangling {
        return Vec::new();
    }
    // "X is a centre-back who has captained ...": the description and the relative clause
    // are two facts about the subject, unless the description ranks ("the first woman who
    // ...", "the only club that ..."), where the clause is what makes the rank.
    let copular = matches!(
        lower[first_verb].as_str(),
        "is" | "was" | "are" | "were" | "became" | "becomes" | "remains" | "remained"
    ) || (matches!(lower[first_verb].as_str(), "has" | "had" | "have")
        && lower.get(first_verb + 1).is_some_and(|w| w == "been"));
    let describes = |who: usize| {
        copular
            && !(first_verb..who).any(|j| {
                matches!(lower[j].as_str(), "first" | "only" | "last")
                    || super::analyse::is_superlative(&lower[j])
            })
    };
    // Where each later fact starts, and whether it names its own subject.
    let mut cuts: Vec<(usize, bool)> = Vec::new();
    for i in first_verb + 1..lexemes.len().saturating_sub(1) {
        let after_comma = comma(i - 1);
        let next = i + 1;
        match lower[i].as_str() {
            ";" => cuts.push((next, !verb(next))),
            "who"
                if describes(i)
                    && lexemes[i - 1].kind == LexKind::Word
                    && (verb(next) || (is_adverb(&lower[next]) && verb(next + 1))) =>
            {
                cuts.push((next, false));
            }
            "and" if verb(next) || (is_adverb(&lower[next]) && verb(next + 1)) => {
                cuts.push((next, false));
            }
            "and" | "but" | "while" | "whereas" if after_comma => {
                if verb(next) {
                    cuts.push((next, false));
                } else if own_clause(&lexemes, &lower, next) || !listed(&lexemes, first_verb, i - 1)
                {
                    cuts.push((next, true));
                }
            }
            // A trailing participle phrase borrows the subject ("..., setting off from
            // Aldmoor"); a noun phrase stands alone, as it may be about the object before it
            // ("uses the K9, an eight-core processor").
            "," if trailing_phrase(&lexemes, &lower, next) => {
                let noun_phrase = matches!(lower[next].as_str(), "the" | "a" | "an");
                cuts.push((next, noun_phrase));
            }
            _ => {}
        }
    }
    let count = cuts.len() + appositives.len();
    if count == 0 || count >= MOST_FACTS {
        return Vec::new();
    }
    let enough = |words: &[Lexeme<'_>]| {
        words.iter().filter(|l| l.kind != LexKind::Punct).count() >= LEAST_PREDICATE_WORDS
    };
    let mut facts = Vec::with_capacity(count + 1);
    for (_, range) in &appositives {
        let words = &lexemes[range.clone()];
        if !enough(words) {
            return Vec::new();
        }
        facts.push(format!("{subject} {}", span(claim, words)));
    }
    // The main clause runs from the subject (its appositives left out) to the first cut.
    let ends: Vec<usize> = cuts.iter().map(|&(start, _)| start - 1).collect();
    let mut start = if appositives.is_empty() {
        0
    } else {
        first_verb
    };
    let mut own_subject = appositives.is_empty();
    // What the main clause's text follows when it has no subject of its own: the subject with
    // an opening adverbial ("In 1948, the commission ..."), the appositives left out.
    let lead = claim[lexemes[subject_start].start..lexemes[subject_end].start].trim_end();
    for (k, &end) in ends.iter().chain([&lexemes.len()]).enumerate() {
        let words = &lexemes[start..end.max(start)];
        if !enough(words) {
            return Vec::new();
        }
        let text = span(claim, words);
        facts.push(match (own_subject, k) {
            (true, _) => text.to_string(),
            (false, 0) => format!("{lead} {text}"),
            (false, _) => format!("{subject} {text}"),
        });
        if let Some(&(next, own)) = cuts.get(k) {
            start = next;
            own_subject = own;
        }
    }
    facts
}

/// Where an appositive clause's words start when one opens at `k` (after a comma): a
/// participle ("set up in 1962", "first held in 1962") or "who"/"which" ("who retired in
/// 1926", the pronoun left out).
fn appositive_start(lexemes: &[Lexeme<'_>], lower: &[String], k: usize) -> Option<usize> {
    let word = lower.get(k)?.as_str();
    if matches!(word, "who" | "which") {
        return Some(k + 1);
    }
    if is_participle(lexemes, lower, k) {
        return Some(k);
    }
    let modifier = matches!(word, "first" | "originally" | "once" | "later");
    (modifier && is_participle(lexemes, lower, k + 1)).then_some(k)
}

/// Whether a phrase about the subject starts at `k` after a comma: a participle or an "-ing"
/// verb ("setting off from Aldmoor"), or a noun phrase with no verb of its own up to the next
/// comma or the end ("the daughter of a shipwright").
fn trailing_phrase(lexemes: &[Lexeme<'_>], lower: &[String], k: usize) -> bool {
    let Some(word) = lower.get(k).map(String::as_str) else {
        return false;
    };
    let gerund = gerund_form(word) && lexemes[k].kind == LexKind::Word;
    if gerund || (is_participle(lexemes, lower, k) && !NOT_PREDICATES.contains(&word)) {
        return true;
    }
    matches!(word, "the" | "a" | "an")
        && (k + 1..lexemes.len())
            .take_while(|&j| lexemes[j].text != ",")
            .all(|j| !is_verb(lexemes, lower, j))
}

/// Whether the comma at `comma` closes a list ("lakes, woods, and meadows"): an earlier item
/// after the verb of a few words only, between two commas.
fn listed(lexemes: &[Lexeme<'_>], verb: usize, comma: usize) -> bool {
    let mut commas: Vec<usize> = (verb..comma).filter(|&i| lexemes[i].text == ",").collect();
    commas.push(comma);
    commas
        .windows(2)
        .any(|w| w[1] - w[0] <= LIST_ITEM_WORDS + 1)
}

/// Words an item of a list has at most.
const LIST_ITEM_WORDS: usize = 3;

/// "-ing" words and participles that open no predicate of the subject after a comma.
const NOT_PREDICATES: &[&str] = &[
    "including",
    "according",
    "excluding",
    "following",
    "compared",
    "making",
    "meaning",
    "depending",
    "regarding",
    "starting",
    "beginning",
    "ending",
];

/// A past participle: a lower-case word in "-ed", an irregular past, or a participle that
/// differs from its past ("born", "known", "written").
fn is_participle(lexemes: &[Lexeme<'_>], lower: &[String], k: usize) -> bool {
    let (Some(lexeme), Some(word)) = (lexemes.get(k), lower.get(k)) else {
        return false;
    };
    if lexeme.kind != LexKind::Word || lexeme.text.chars().next().is_some_and(char::is_uppercase) {
        return false;
    }
    participle_form(word)
}

/// A past participle by its form: "-ed", an irregular past, or a participle that differs from
/// its past.
fn participle_form(word: &str) -> bool {
    ed_form(word) || lexicon::IRREGULAR_PASTS.contains(&word) || PARTICIPLES.contains(&word)
}

/// A regular past in "-ed" ("opened"), short of the nouns in "-eed" ("speed", "seed").
fn ed_form(word: &str) -> bool {
    word.len() >= 5 && word.ends_with("ed") && !word.ends_with("eed")
}

/// An "-ing" verb that opens a predicate ("setting off"), short of "including" and the like.
fn gerund_form(word: &str) -> bool {
    word.len() > 5 && word.ends_with("ing") && !NOT_PREDICATES.contains(&word)
}

/// Past participles that are not also past tenses (those are in `IRREGULAR_PASTS`).
const PARTICIPLES: &[&str] = &[
    "set", "born", "known", "begun", "written", "given", "taken", "seen", "grown", "shown",
    "chosen", "drawn", "found", "run", "left", "held",
];

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
pub(super) fn is_verb(lexemes: &[Lexeme<'_>], lower: &[String], i: usize) -> bool {
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
        || ed_form(word)
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
    fn a_description_and_its_relative_clause_are_two_facts() {
        assert_eq!(
            split(
                "Born on the Morvane Isles in 1994, Callum Rooke is a centre-back who has \
                 captained Aldmoor Town since 2021."
            ),
            [
                "Callum Rooke Born on the Morvane Isles in 1994",
                "Callum Rooke is a centre-back",
                "Callum Rooke has captained Aldmoor Town since 2021",
            ]
        );
        // A rank needs its clause: "the first woman" alone says nothing.
        assert!(split("Hanna Lind was the first woman who reached the summit.").is_empty());
        // "Who" after a verb that is no copula is an object's clause ("met a man who ...").
        assert!(split("Tarrow met a bookseller who opened a shop in 1988.").is_empty());
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
    fn appositive_and_trailing_phrases_are_facts_of_their_own() {
        assert_eq!(
            split(
                "The race, first held in 1962, has had Brannock Foods as its sponsor since 2016."
            ),
            [
                "The race first held in 1962",
                "The race has had Brannock Foods as its sponsor since 2016",
            ]
        );
        assert_eq!(
            split("Marrick, who retired in 1926, died in Halvern."),
            ["Marrick retired in 1926", "Marrick died in Halvern"]
        );
        assert_eq!(
            split("Completed in 1894, the viaduct has 27 arches."),
            ["the viaduct Completed in 1894", "the viaduct has 27 arches"]
        );
        assert_eq!(
            split("The race covered 812 km, setting off from Aldmoor."),
            [
                "The race covered 812 km",
                "The race setting off from Aldmoor"
            ]
        );
        // A noun phrase after a comma may be about the object: it stands alone.
        assert_eq!(
            split("Marrick was born in Halvern in 1861, the daughter of a shipwright."),
            [
                "Marrick was born in Halvern in 1861",
                "the daughter of a shipwright"
            ]
        );
        // ", and" before a clause whose verb it does not know, when no list comes before.
        assert_eq!(
            split("The range stretched for 340 km, and nineteen of its peaks top 3,000 m."),
            [
                "The range stretched for 340 km",
                "nineteen of its peaks top 3,000 m"
            ]
        );
        // "including" and the like open no predicate.
        assert!(split("The park has 40 lakes, including Orla.").is_empty());
        // A subject that would end in "and" means its verb went unread: no cut.
        assert!(split("Given the data, the firm cut jobs and closed plants.").is_empty());
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
