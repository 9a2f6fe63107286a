//! One piece of text (a claim, a sentence) as the aligner sees it (pure): its content words,
//! every word form, its quantities, its negation cues with their scopes, and its named entities.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::ops::Range;
use std::sync::OnceLock;

use super::clause::Clauses;
use super::facts;
use super::lex::{forms_of, is_stopword, lex, normalise, written_as_name, LexKind, Lexeme};
use super::lexicon;
use super::lexicon::Dimension;
use super::numbers::{quantities, Measure, Quantity};
use super::vocabulary;

/// How a cue negates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CueKind {
    /// "not", "no", "never", "n't", "without": the rest of the clause.
    Negation,
    /// "rather than", "instead of": the phrase after it.
    Contrast,
    /// "myth", "misconception": the whole sentence.
    Denial,
    /// "stopped working", "ceased trading": the activity no longer goes on, which a text that
    /// has it go on "until" a time says as well.
    Halt,
    /// "failed to qualify", "declined to renew": the act after "to" did not happen.
    Refusal,
    /// "rejected a proposal to contribute": the act proposed did not happen. Read as a refusal,
    /// except against a text that names the proposal itself ("approved the proposal to buy"),
    /// which the rejecting verb answers as an opposite word, not as a denial of the act.
    Rejection,
    /// "ended support", "ceased production": what the noun names no longer goes on. A text
    /// may say that without any denial ("production ended in 1927"), so this reads as a denial
    /// only beside one in the other text ("stopped supporting"), never as a flip by itself.
    Ending,
}

impl CueKind {
    /// Whether the cue denies what it scopes over, as "not" does: a negation, a refusal, a
    /// rejected proposal or a halt (a contrast's arm and an ending are read apart).
    pub fn denies(self) -> bool {
        matches!(
            self,
            CueKind::Negation | CueKind::Refusal | CueKind::Rejection | CueKind::Halt
        )
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cue {
    pub kind: CueKind,
    /// Lexeme indices the cue negates.
    pub scope: Range<usize>,
}

/// A run of capitalised words ("Karl von Frisch", "Chrysler Building", "AWS").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entity {
    /// Normalised forms of its words, connectors left out.
    pub forms: Vec<String>,
    /// Lexeme indices it covers.
    pub span: Range<usize>,
    pub text: String,
    /// The common noun the name stands before and classifies ("Grand Slam title", "Gale
    /// crater"), if any: such a name says which title or crater, so only a name before the
    /// same noun can stand in its place.
    pub modifies: Option<String>,
    /// Initials of the whole capitalised run it came from ("ufda" for "US Food and Drug
    /// Administration"), so that an acronym elsewhere can name it.
    run_initials: String,
}

#[derive(Debug, Clone)]
pub struct Analysis {
    /// Normalised form of each word lexeme, by lexeme index (`None` for numbers, punctuation and
    /// the words a quantity consumed, such as its unit).
    pub forms: Vec<Option<String>>,
    /// Content words (form, lexeme index), first occurrence of each form only.
    pub content: Vec<(String, usize)>,
    /// Every word form present, stopwords included.
    pub vocabulary: HashSet<String>,
    /// Forms of adjacent word pairs glued together ("fresh water" -> "freshwater").
    pub compounds: HashSet<String>,
    pub quantities: Vec<Quantity>,
    pub cues: Vec<Cue>,
    pub entities: Vec<Entity>,
    /// Holds a pronoun that refers back ("it", "they", "his"): its subject may be named only in
    /// the sentences around it.
    pub anaphoric: bool,
    /// Sets two things side by side ("older than", "unlike", "compared with"): it names both
    /// arms of a contrast, so a claim's "X rather than Y" is no flipped polarity against it.
    pub comparative: bool,
    /// By lexeme index: whether it sits in the other arm of a comparison ("whereas the Velt Air
    /// spins its fan up"), where names and negations are about the thing compared with.
    pub aside: Vec<bool>,
    /// Its clauses and their subjects.
    pub clauses: Clauses,
    /// By lexeme index: punctuation that sets a phrase off, across which a number's
    /// neighbouring words may be another clause's.
    pub breaks: Vec<Option<Break>>,
    /// By lexeme index: whether it is a superlative ("largest", "most", "best"), whose degree
    /// the normalised form loses.
    pub superlative: Vec<bool>,
    /// By lexeme index: +1 for a word of "more" as written ("higher", "more", "larger") or the
    /// "more" side of a scale ("heavier", "faster"), -1 for one of "less" ("lower", "fewer",
    /// "lighter"), 0 otherwise; normalised forms lose the degree
    /// ("smaller" and "small" are one form).
    pub degree: Vec<i8>,
    /// Holds "until" or "till": says something went on until a time, the same as saying it
    /// stopped then (read loosely: any "until" in the text counts).
    pub continues_until: bool,
    /// A lone capitalised word opening the text, which may be a name or only the first word
    /// (see [`Analysis::name_opener`]).
    opener: Option<Entity>,
    /// By lexeme index: whether it is a word written in lower case.
    lowercase: Vec<bool>,
    /// Lexeme indices of the words written in the possessive ("world's", "Europe's").
    possessives: Vec<usize>,
    /// Lexeme ranges inside quotation marks, the marks left out ("Ask not what your country
    /// can do for you").
    pub quotes: Vec<Range<usize>>,
    /// Whether the text reads as German ([`Analysis::capitalises_nouns`]), worked out the first
    /// time it is asked: a claim is asked once for each sentence it is aligned with.
    german: OnceLock<bool>,
    /// Forms written with "-free" after them ("oxygen" of "oxygen-free brine"): what the text
    /// says is absent, as "no oxygen" does.
    pub free_of: Vec<String>,
    /// Initials of each run of capitalised words, for acronyms ("Food and Drug Administration").
    initials: Vec<String>,
    /// Words written in capitals ("FDA", "AWS"), lower-cased.
    acronyms: Vec<String>,
}

/// What a place name gains to become its people's adjective ("Romania" -> "Romanian", "Japan"
/// -> "Japanese", "Israel" -> "Israeli"), or a point of the compass its adjective ("West" ->
/// "Western").
const DEMONYM_ENDINGS: &[&str] = &["n", "an", "ian", "ese", "ish", "i", "ern"];

/// The lexeme ranges between quotation marks: curly marks by their side, straight ones in
/// turn. An unclosed quotation quotes nothing.
fn quoted_spans(lexemes: &[Lexeme<'_>]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut open: Option<usize> = None;
    for (i, l) in lexemes.iter().enumerate() {
        match (l.text, open) {
            ("\u{201C}", _) => open = Some(i + 1),
            ("\"", None) => open = Some(i + 1),
            ("\u{201D}" | "\"", Some(start)) => {
                if start < i {
                    out.push(start..i);
                }
                open = None;
            }
            _ => {}
        }
    }
    out
}

/// Names of one place or body, written in lower case without dots, articles or a possessive.
/// Acronyms with their long forms are here too: a page may give only one of them.
const ALIASES: &[&[&str]] = &[
    &["uk", "britain", "great britain", "united kingdom"],
    &[
        "us",
        "usa",
        "united states",
        "united states of america",
        "america",
    ],
    &["earth", "world"],
    &["netherlands", "holland"],
    &["eu", "european union"],
    &["un", "united nations"],
    &["uae", "united arab emirates"],
    &["moon"],
    &["sun"],
    // The building names the department in news writing as often as its own name does.
    &[
        "pentagon",
        "dod",
        "department of defense",
        "us department of defense",
        "united states department of defense",
    ],
];

/// The letters names of [`ALIASES`] start with, and "t" of "the".
const ALIAS_LEADS: &str = "abdeghmnpstuw";

/// Words in lower case that name what a name of [`ALIASES`] names: "the world" for Earth,
/// "lunar orbit" for the Moon's, "the solar system" for the Sun's.
const ALIAS_WORDS: &[(&str, &str)] = &[("earth", "world"), ("moon", "lunar"), ("sun", "solar")];

/// [`ALIAS_WORDS`] as (group of [`ALIASES`], normalised form).
fn alias_word_forms() -> &'static [(usize, String)] {
    static FORMS: OnceLock<Vec<(usize, String)>> = OnceLock::new();
    FORMS.get_or_init(|| {
        ALIAS_WORDS
            .iter()
            .filter_map(|(name, word)| {
                let group = ALIASES.iter().position(|g| g.contains(name))?;
                Some((group, normalise(word).form))
            })
            .collect()
    })
}

/// Which group of [`ALIASES`] a name belongs to ("Britain's" and "the United Kingdom" to the
/// first), compared without building a string: this runs for every name a text is asked about.
fn alias_group(name: &str) -> Option<usize> {
    // Most names start with a letter no alias (nor "the") starts with: settled at once.
    let lead = name
        .trim_start()
        .chars()
        .next()
        .map(|c| c.to_ascii_lowercase());
    if !lead.is_some_and(|c| ALIAS_LEADS.contains(c)) {
        return None;
    }
    let name = without_possessive(name.trim());
    let name = ["The ", "the "]
        .iter()
        .find_map(|article| name.strip_prefix(article))
        .unwrap_or(name);
    let key = || {
        name.chars()
            .filter(|c| *c != '.')
            .flat_map(char::to_lowercase)
    };
    ALIASES
        .iter()
        .position(|group| group.iter().any(|alias| key().eq(alias.chars())))
}

/// Words that may sit inside a name between capitalised words.
const CONNECTORS: &[&str] = &[
    "of", "de", "da", "do", "von", "van", "der", "del", "la", "le", "du",
    // Spanish names join the two surnames with "y" ("Frida Kahlo y Calderón").
    "y",
];

/// Punctuation that sets a phrase off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Break {
    /// A comma, which joins an apposition as often as it ends a clause.
    Comma,
    /// A semicolon, colon, dash or bracket.
    Strong,
}

impl Break {
    fn of(text: &str) -> Option<Break> {
        match text {
            "," => Some(Break::Comma),
            ";" | ":" | "(" | ")" | "\u{2014}" | "\u{2013}" => Some(Break::Strong),
            _ => None,
        }
    }
}

/// Punctuation that ends a negation's scope.
/// Whether the "and" at `j` joins a second verb to an infinitive the scope from `start` holds
/// ("not going to stand here and blame the referee"): the denial covers both verbs. An "and"
/// before a new subject ("not to sell, and the board agreed") starts another clause.
fn joins_infinitives(lexemes: &[Lexeme<'_>], lower: &[String], start: usize, j: usize) -> bool {
    const NEW_SUBJECT: &[&str] = &[
        "the", "a", "an", "he", "she", "it", "they", "we", "i", "you", "his", "her", "its",
        "their", "this", "that", "these", "those", "there", "our", "my", "your",
    ];
    lower[j] == "and"
        && lower[start..j].iter().any(|w| w == "to")
        && lexemes.get(j + 1).is_some_and(|next| {
            next.kind == LexKind::Word
                && next.text.chars().next().is_some_and(char::is_lowercase)
                && !NEW_SUBJECT.contains(&lower[j + 1].as_str())
        })
}

const SCOPE_BREAKS: &[&str] = &[
    ".", ",", ";", ":", "!", "?", "(", ")", "|", "\u{2014}", "\u{2013}", "-",
];

impl Analysis {
    pub fn new(text: &str) -> Analysis {
        let lexemes = lex(text);
        let quantities = quantities(&lexemes);
        let mut consumed = vec![false; lexemes.len()];
        for q in &quantities {
            for flag in &mut consumed[q.span.clone()] {
                *flag = true;
            }
        }
        let lower: Vec<String> = lexemes.iter().map(|l| l.text.to_lowercase()).collect();
        let initial: Vec<bool> = (0..lexemes.len())
            .map(|i| is_initial(&lexemes, i))
            .collect();

        let mut forms = vec![None; lexemes.len()];
        let mut content: Vec<(String, usize)> = Vec::new();
        let mut cue_starts: Vec<(CueKind, usize)> = Vec::new();
        // Once a comparison turns to its other arm ("compared with B, who didn't"), a negation
        // there is about B, not about what the text states of its subject.
        let mut other_arm = false;
        // A comparison that opens the sentence ("Unlike the earlier rovers, it ...") ends at the
        // first comma, where the sentence's own subject takes over.
        let mut fronted = false;
        let mut seen_word = false;
        let mut comparative = false;
        let mut aside = vec![false; lexemes.len()];
        // A non-restrictive relative clause (", which ...", ", who ...") describes the noun before
        // it; a negation there ("Fenwick Rovers, who are not related to Harbourside") is a side
        // remark about that noun, not the sentence's predicate, so it makes no flipped polarity.
        let mut relative = false;
        // A comparison with a value ("shorter than half an hour") sets that value aside, not
        // the rest of its sentence: a negation after it is the sentence's own.
        let mut value_arm_end: Option<usize> = None;
        // A figure set against another ("5.9% ..., against 4.1% of people who never napped"):
        // a negation there describes the other figure's group, up to the next comma.
        let mut versus = false;
        let mut particle_taken = false;
        let mut sentence_opening = 0;
        for (i, lexeme) in lexemes.iter().enumerate() {
            if fronted && lexeme.text == "," {
                other_arm = false;
                fronted = false;
            }
            // "cost more than any of us wanted, and I apologise for that": a comma, a
            // conjunction and a subject pronoun open a clause of the sentence's own, which the
            // comparison's other arm does not reach.
            if other_arm && lexeme.text == "," && new_clause_at(&lower, i + 1) {
                other_arm = false;
            }
            if relative && SCOPE_BREAKS.contains(&lexeme.text) {
                relative = false;
            }
            // A comparison ends with its sentence: two adjacent sentences read as one span keep
            // the second's subject its own.
            if matches!(lexeme.text, "," | "." | "!" | "?" | ";" | ":") {
                versus = false;
            }
            if matches!(lexeme.text, "." | "!" | "?" | ";") {
                other_arm = false;
                fronted = false;
                value_arm_end = None;
                // The next sentence of a pair opens afresh: "Unlike the Bank of Orland, it
                // does not publish ..." is fronted there too.
                if lexeme.text != ";" {
                    seen_word = false;
                }
            }
            if lexeme.kind != LexKind::Word || consumed[i] {
                aside[i] = other_arm;
                continue;
            }
            relative |= matches!(lower[i].as_str(), "which" | "who")
                && i.checked_sub(1).is_some_and(|p| lexemes[p].text == ",");
            let opening = !seen_word;
            if opening {
                sentence_opening = i;
            }
            seen_word = true;
            let word = lower[i].as_str();
            if opening && lexicon::COMPARISONS.contains(&word) {
                fronted = true;
            }
            // ", unlike the old command, makes no attempt ...": a parenthetical comparison
            // ends at its comma too.
            if word == "unlike" && i.checked_sub(1).is_some_and(|p| lexemes[p].text == ",") {
                fronted = true;
            }
            let mut normalised = normalise(lexeme.text);
            let next = lower.get(i + 1).map(String::as_str);
            // The particle of a phrasal verb read as one word ("set up"): the verb carries it.
            if particle_taken {
                particle_taken = false;
                continue;
            }
            if let Some(word) = phrasal_synonym(&normalised.form, next) {
                normalised.form = word.to_string();
                particle_taken = true;
            }
            let contrast = lexicon::CONTRASTS
                .iter()
                .any(|&(a, b)| word == a && next == Some(b));
            let previous = i.checked_sub(1).map(|p| lower[p].as_str());
            let implicative = implicative_negation(word, &lower, i);
            // The value right after "than", looked up only there (this loop runs over every
            // word of every sentence).
            let compared = (word == "than")
                .then(|| quantities.iter().find(|q| q.at == i + 1))
                .flatten();
            // "more than a century" is a bound on a span of time, as "more than 100 years"
            // is, and compares with nothing else.
            let bounded_value = compared.is_some_and(|q| {
                q.bound.is_some()
                    && matches!(&q.measure, Measure::Unit(u) if u.dimension == Dimension::Time)
            });
            // "a stronger-than-expected 275,000 jobs": a "than" hyphenated on both sides is a
            // word of one adjective, and what follows is the sentence's own.
            let compound = lexeme.hyphenated && lexemes.get(i + 1).is_some_and(|n| n.hyphenated);
            other_arm |= lexicon::COMPARISONS.contains(&word)
                || (word == "than"
                    && !compound
                    && !matches!(previous, Some("rather"))
                    && !bounded_value
                    && lexemes.get(i + 1).is_some_and(|n| n.kind == LexKind::Word));
            if let Some(q) = compared {
                value_arm_end = Some(q.span.end);
            }
            if matches!(word, "versus" | "vs")
                || (word == "against" && consumed.get(i + 1).copied().unwrap_or(false))
            {
                versus = true;
            }
            comparative |= other_arm;
            aside[i] = other_arm;
            let arm_for_cues = (other_arm && value_arm_end.is_none_or(|end| i < end)) || versus;
            // "No 1", "No. 34": the abbreviation of "number", before a figure.
            // A lower-case "no" before a bare figure is a denial ("there is no 1TB option",
            // "no 5G"): the abbreviation is written "No" or "no.".
            let number_sign = word == "no"
                && (lexeme.text.starts_with('N') || next == Some("."))
                && lexemes
                    .get(i + 1)
                    .filter(|n| n.text != ".")
                    .or_else(|| lexemes.get(i + 2).filter(|_| next == Some(".")))
                    .is_some_and(|n| n.kind == LexKind::Number);
            // "None of this would happen without the volunteers", "would not have been
            // possible without": a denial of what could happen without something affirms that
            // something. The two cancel, when a word of possibility stands between them and no
            // new clause opens ("is not clear whether the club can survive without", "did not
            // finish and left without"); a plain condition ("will not lend without a
            // guarantee") still denies.
            let denied_without = word == "without"
                && cue_starts.last().is_some_and(|&(kind, start)| {
                    let between = &lower[start.min(i)..i];
                    kind == CueKind::Negation
                        && start <= i
                        && i - start < DOUBLE_NEGATION_REACH
                        && between
                            .iter()
                            .all(|w| !CLAUSE_OPENERS.contains(&w.as_str()))
                        && lower[start.saturating_sub(3)..i]
                            .iter()
                            .any(|w| POSSIBILITY.contains(&w.as_str()))
                });
            if denied_without {
                cue_starts.pop();
            } else if (lexicon::NEGATIONS.contains(&word) || normalised.negated)
                && !arm_for_cues
                && !relative
                && !number_sign
                && !in_bare_relative(&lower, sentence_opening, i)
                && !counterfactual(&lower, i)
                && !ensured(&lower, i)
            {
                // "sold none of them", "said nothing": a pronoun of denial as the object
                // denies the act before it, as "did not sell any" does.
                // Not "none other than", "nothing but", "nothing less than", "nothing short
                // of", which affirm.
                let affirming = matches!(next, Some("other" | "but" | "less" | "short"));
                let object = matches!(word, "none" | "nothing" | "nobody")
                    && !affirming
                    && i.checked_sub(1).is_some_and(|p| {
                        lexemes[p].kind == LexKind::Word && !is_stopword(&lower[p])
                    });
                cue_starts.push((CueKind::Negation, if object { i - 1 } else { i + 1 }));
            } else if let Some(cue) = implicative.filter(|_| !arm_for_cues && !relative) {
                // "never failed to qualify", "did not once fail", "did not stop working": two
                // denials affirm.
                let denied = cue_starts.last().is_some_and(|&(kind, start)| {
                    kind == CueKind::Negation
                        && start <= i
                        && lower[start..i].iter().all(|w| is_stopword(w))
                });
                if denied {
                    cue_starts.pop();
                } else {
                    cue_starts.push(cue);
                }
            } else if contrast && !other_arm {
                cue_starts.push((CueKind::Contrast, i + 2));
            } else if (lexicon::DENIALS.contains(&normalised.form.as_str())
                || lexicon::DENIALS.contains(&word))
                && !corrects_it(&lower, i)
            {
                cue_starts.push((CueKind::Denial, 0));
            }
            // "May" the month is content; "may" the verb is not.
            let month = word == "may" && !initial[i] && lexeme.text.starts_with('M');
            // "is located in Paris", "is situated on the Seine": the preposition says where,
            // and the verb adds nothing a sentence that only says "in Paris" leaves out.
            let placing = matches!(word, "located" | "situated")
                && lower
                    .get(i + 1)
                    .is_some_and(|w| matches!(w.as_str(), "in" | "on" | "at" | "near"));
            let is_content = (month || !is_stopword(word))
                && !placing
                && !lexicon::NEGATIONS.contains(&word)
                && !contrast
                && !lexicon::DENIALS.contains(&word)
                // An ending verb is the claim's act as much as a cue ("ended support").
                && implicative.is_none_or(|(kind, _)| kind == CueKind::Ending)
                && !word.chars().all(|c| c.is_ascii_digit());
            if is_content && !content.iter().any(|(f, _)| *f == normalised.form) {
                content.push((normalised.form.clone(), i));
            }
            forms[i] = Some(normalised.form);
        }

        let cues = cue_starts
            .iter()
            .map(|&(kind, start)| {
                let scope = if kind == CueKind::Denial {
                    0..lexemes.len()
                } else {
                    let end = (start..lexemes.len())
                        .find(|&j| {
                            SCOPE_BREAKS.contains(&lower[j].as_str())
                                // "not yet opened": "yet" right after the cue is no new clause.
                                || (lexicon::CLAUSE_BREAKS.contains(&lower[j].as_str())
                                    && !(j == start && lower[j] == "yet")
                                    && !joins_infinitives(&lexemes, &lower, start, j))
                                || cue_starts.iter().any(|&(_, s)| s == j + 1 && j >= start)
                        })
                        .unwrap_or(lexemes.len());
                    start.min(end)..end
                };
                Cue { kind, scope }
            })
            .filter(|cue| !(cue.kind == CueKind::Negation && affirms(&lower, cue)))
            .collect();

        let mut name_numbers = vec![false; lexemes.len()];
        for q in quantities.iter().filter(|q| q.identifier) {
            name_numbers[q.at] = true;
        }
        let (entities, initials, acronyms) =
            names(&lexemes, &lower, &forms, &initial, &consumed, &name_numbers);
        // "Isobel Marrick (14 March 1861 – 2 October 1934) was ...": the dates after a name
        // are when the person was born and died, as a reference work writes it. The bracket
        // reads as "born" and the dash as "died", each right before its date, so that each
        // date sits where the claim's word for it does.
        if let Some((open, dash)) = lifespan(&lexemes, &quantities, &entities) {
            for (at, word) in [(open, "born"), (dash, "died")] {
                let form = normalise(word).form;
                if !content.iter().any(|(f, _)| *f == form) {
                    content.push((form.clone(), at));
                }
                forms[at] = Some(form);
            }
        }
        let vocabulary: HashSet<String> = forms.iter().flatten().cloned().collect();
        let compounds = forms
            .windows(2)
            .filter_map(|pair| match pair {
                [Some(a), Some(b)] => Some(format!("{a}{b}")),
                _ => None,
            })
            .collect();
        let anaphoric = lower
            .iter()
            .any(|w| lexicon::ANAPHORS.contains(&w.as_str()));
        let clauses = Clauses::split(&lexemes, &lower, &forms, |form| {
            content.iter().any(|(f, _)| f == form)
        });
        // A lone capitalised word opening the text may be a name ("Veskstad is ...") or just
        // the first word ("Rents rose ..."): kept aside until the page says which.
        let opener = lexemes
            .first()
            .filter(|l| is_capitalised(l) && !is_acronym(l.text))
            .filter(|_| !lexemes.get(1).is_some_and(is_capitalised))
            .filter(|_| !entities.iter().any(|e| e.span.contains(&0)))
            .and_then(|l| {
                let form = forms.first().cloned().flatten()?;
                // A conjunction that opens a comparison or a clause ("Whereas the novel
                // ...") is no name, whatever the dictionary lacks.
                let conjunction = lexicon::COMPARISONS.contains(&lower[0].as_str())
                    || lexicon::CLAUSE_BREAKS.contains(&lower[0].as_str());
                (!is_stopword(&lower[0]) && !conjunction).then(|| Entity {
                    forms: vec![form],
                    span: 0..1,
                    text: l.text.to_string(),
                    modifies: modified_noun(&lexemes, &lower, &forms, 1),
                    run_initials: String::new(),
                })
            });
        let superlative = lower.iter().map(|w| is_superlative(w)).collect();
        let degree = lower.iter().map(|w| degree_of(w)).collect();
        let lowercase = lexemes
            .iter()
            .map(|l| l.kind == LexKind::Word && !written_as_name(l.text))
            .collect();
        let continues_until = lower.iter().any(|w| matches!(w.as_str(), "until" | "till"));
        let free_of = (1..lexemes.len())
            .filter(|&i| lexemes[i].hyphenated && lower[i] == "free")
            .filter_map(|i| forms[i - 1].clone())
            .collect();
        let possessives = lexemes
            .iter()
            .enumerate()
            .filter(|(_, l)| l.kind == LexKind::Word && possessive(l.text))
            .map(|(i, _)| i)
            .collect();
        Analysis {
            anaphoric,
            opener,
            lowercase,
            possessives,
            quotes: quoted_spans(&lexemes),
            german: OnceLock::new(),
            continues_until,
            superlative,
            degree,
            clauses,
            comparative,
            aside,
            forms,
            content,
            vocabulary,
            compounds,
            breaks: lexemes.iter().map(|l| Break::of(l.text)).collect(),
            quantities,
            cues,
            entities,
            initials,
            acronyms,
            free_of,
        }
    }

    /// Takes the word opening the text for a name when the page says it is one: `is_name`
    /// says the page writes its form capitalised mid-sentence ("... founded at Veskstad"),
    /// `written_lower` that it writes it in lower case ("... as rents rose"). A word the page
    /// writes neither way is a name when it is no dictionary word. "Veskstad is the capital
    /// ..." then names Veskstad, and another name in its place contradicts it.
    pub fn name_opener(
        &mut self,
        is_name: impl Fn(&str) -> bool,
        written_lower: impl Fn(&str) -> bool,
    ) {
        if let Some(opener) = self.opener.take() {
            let coined = || {
                !opener.forms.iter().any(|f| written_lower(f))
                    && !vocabulary::is_english_word(&opener.text)
            };
            if opener.forms.iter().all(|f| is_name(f)) || coined() {
                self.entities.insert(0, opener);
            } else {
                self.opener = Some(opener);
            }
        }
    }

    /// The capitalised word opening the text that is not (or not yet) taken for a name: a
    /// reader that matches it against names it already knows ("Germany defeated Argentina" for
    /// a claim naming both) may still read it as one.
    pub fn unconfirmed_opener(&self) -> Option<&Entity> {
        self.opener.as_ref()
    }

    /// The forms of its words written in lower case.
    pub fn lowercase_forms(&self) -> impl Iterator<Item = &str> {
        self.forms
            .iter()
            .zip(&self.lowercase)
            .filter(|(_, &lower)| lower)
            .filter_map(|(f, _)| f.as_deref())
    }

    /// The forms of its one-word names. A word of a longer name is often a common word
    /// ("Inland Revenue", "Prices Board"): it does not make "Revenue rose 9%" open with a name.
    pub fn name_forms(&self) -> impl Iterator<Item = &str> {
        self.entities
            .iter()
            .filter(|e| e.forms.len() == 1)
            .flat_map(|e| e.forms.iter().map(String::as_str))
    }

    /// Whether lexeme `i` is a word written in lower case.
    pub fn is_lowercase(&self, i: usize) -> bool {
        self.lowercase.get(i).copied().unwrap_or(false)
    }

    /// Whether lexeme `i` is written in the possessive ("the world's", "Europe's").
    pub fn is_possessive(&self, i: usize) -> bool {
        self.possessives.contains(&i)
    }

    /// Whether a superlative at lexeme `at` ranks its noun over a whole field: after "the" or
    /// a possessive ("the largest", "the world's largest", "Europe's busiest").
    pub fn ranks_over_all(&self, at: usize) -> bool {
        at.checked_sub(1)
            .is_some_and(|p| self.form(p) == Some("the") || self.is_possessive(p))
    }

    /// The normalised form of lexeme `i`, if it is a word.
    pub fn form(&self, i: usize) -> Option<&str> {
        self.forms.get(i).and_then(|f| f.as_deref())
    }

    /// The form `back` lexemes before lexeme `at`, or "" when there is none (the text's start,
    /// a number, punctuation): for rules that look at the words right before a figure.
    pub fn form_before(&self, at: usize, back: usize) -> &str {
        at.checked_sub(back)
            .and_then(|i| self.form(i))
            .unwrap_or("")
    }

    /// Whether `form` is one of this text's content words.
    pub fn is_content(&self, form: &str) -> bool {
        self.content.iter().any(|(c, _)| c == form)
    }

    /// Whether this text names `entity` in full (all of its words, or its acronym, or the name
    /// an acronym stands for).
    pub fn names(&self, entity: &Entity) -> bool {
        self.refers_to(entity, entity.forms.len())
    }

    /// Whether this text refers to `entity`, perhaps by part of its name ("Baikal" for "Lake
    /// Baikal", "von Frisch" for "Karl von Frisch"): at least half of its words.
    pub fn mentions(&self, entity: &Entity) -> bool {
        self.refers_to(entity, entity.forms.len().div_ceil(2)) || self.names_alias_of(entity)
    }

    /// Whether the text reads as German, which writes every noun with a capital: its
    /// capitalised words are then no sign of a name ("die deutsche Meisterschaft"). German
    /// function words written in lower case: two that are no English word nor the form of one,
    /// or one of those and two of the words English shares ("die" is also the form of "died",
    /// "von" and "der" stand inside names).
    pub fn capitalises_nouns(&self) -> bool {
        *self.german.get_or_init(|| self.reads_as_german())
    }

    /// See [`Analysis::capitalises_nouns`].
    fn reads_as_german(&self) -> bool {
        const GERMAN: &[&str] = &[
            "und", "das", "nicht", "ist", "ein", "einen", "einer", "dem", "wurd", "auf", "sich",
            "zum", "zur", "bei", "nach", "mit", "oder", "wird", "auch", "vom", "seit", "gegen",
            "durch", "aus",
        ];
        const SHARED: &[&str] = &["die", "der", "den", "des", "von", "im"];
        let (mut german, mut shared): (Vec<&str>, Vec<&str>) = (Vec::new(), Vec::new());
        for form in self.lowercase_forms() {
            if GERMAN.contains(&form) && !german.contains(&form) {
                german.push(form);
            } else if SHARED.contains(&form) && !shared.contains(&form) {
                shared.push(form);
            }
        }
        german.len() >= 2 || (german.len() == 1 && shared.len() >= 2)
    }

    /// Whether this text calls `entity` by another of its usual names ("the UK" for
    /// "Britain", "the United States" for "the US", "the world" for "Earth", "lunar" for the
    /// Moon). A word in lower case counts only as written so: "the World Bank" mentions no
    /// Earth.
    fn names_alias_of(&self, entity: &Entity) -> bool {
        let Some(group) = alias_group(&entity.text) else {
            return false;
        };
        self.entities
            .iter()
            .chain(&self.opener)
            .any(|e| alias_group(&e.text) == Some(group))
            || alias_word_forms()
                .iter()
                .any(|(g, form)| *g == group && self.lowercase_forms().any(|f| f == form))
    }

    /// Whether a word of this text is `form`'s adjective or the name it comes from ("Romanian"
    /// and "Romania", "Japanese" and "Japan"): the same place, not a rival name.
    ///
    /// Looked up ending by ending (a word of the text is `form` plus an ending, or `form` is a
    /// word of at least four letters plus one), not by a pass over the whole vocabulary.
    fn has_demonym_of(&self, form: &str) -> bool {
        let long_enough = |short: &str| short.chars().count() >= 4;
        let mut longer = String::with_capacity(form.len() + 3);
        DEMONYM_ENDINGS.iter().any(|ending| {
            longer.clear();
            longer.push_str(form);
            longer.push_str(ending);
            (long_enough(form) && self.vocabulary.contains(&longer))
                || form
                    .strip_suffix(ending)
                    .is_some_and(|short| long_enough(short) && self.vocabulary.contains(short))
        })
    }

    /// Whether this text names another thing of `entity`'s kind: a name as long as it that
    /// shares a word with it in the same place but has another word where `entity` has one
    /// this text never uses ("the Black Sea" for "the Caspian Sea", "River Severn" for "River
    /// Thames", "Agnes Farrant" for "Walter Farrant"). The shared word is then the kind (a sea,
    /// a river, a family), not the name. A title is no such word: "President Biden" and "Joe
    /// Biden" are one man.
    fn names_a_sibling(&self, entity: &Entity) -> bool {
        // "The University of Brackenford" names another university than "Halvard
        // University", so its "University" mentions no part of the claim's name.
        self.entities.iter().any(|other| {
            self.sibling_of(other, entity, other.forms.iter())
                || self.another_of_its_kind_reversed(other, entity)
        })
    }

    /// Whether `other`, one of this text's names, is another place, building, body or event
    /// of `entity`'s kind: a sibling (see [`Analysis::names_a_sibling`]) whose shared word is
    /// one of [`lexicon::NAME_HEADS`] ("University", "Sea", "Party"), read in either order
    /// for a two-word name with "of" against one without ("the University of Brackenford" is
    /// of the kind of "Halvard University"). A shared place or first name is no kind: "London
    /// Bridge" is no rival of "the Tower of London", nor "Joe Manchin" of "Joe Biden".
    pub fn names_another_of_its_kind(&self, other: &Entity, entity: &Entity) -> bool {
        (shares_only_heads(other.forms.iter(), entity)
            && self.sibling_of(other, entity, other.forms.iter()))
            || self.another_of_its_kind_reversed(other, entity)
    }

    /// [`Analysis::names_another_of_its_kind`] for two two-word names, one with "of" and one
    /// without, read the other way round.
    fn another_of_its_kind_reversed(&self, other: &Entity, entity: &Entity) -> bool {
        let of = |e: &Entity| e.text.contains(" of ");
        other.forms.len() == 2
            && entity.forms.len() == 2
            && of(other) != of(entity)
            && shares_only_heads(other.forms.iter().rev(), entity)
            && self.sibling_of(other, entity, other.forms.iter().rev())
    }

    /// Whether `other`, one of this text's names, is another thing of `entity`'s kind (see
    /// [`Analysis::names_a_sibling`]), with `forms` the words of `other` in the order to
    /// compare them in.
    fn sibling_of<'f>(
        &self,
        other: &Entity,
        entity: &Entity,
        forms: impl Iterator<Item = &'f String> + Clone,
    ) -> bool {
        // A short form of the name beside the other ("Oskarsson was born in Skelby, the eldest
        // of five children of Anders Oskarsson") is the name itself.
        // Not inside another name that is not the claim's ("the Black Sea and the Red Sea").
        let elsewhere_in_a_name = |i: usize| {
            self.entities
                .iter()
                .any(|e| e.span.contains(&i) && !e.forms.iter().all(|f| entity.forms.contains(f)))
        };
        let alone = |form: &String| {
            self.forms.iter().enumerate().any(|(i, f)| {
                f.as_ref() == Some(form)
                    && !self.lowercase.get(i).copied().unwrap_or(true)
                    && !elsewhere_in_a_name(i)
            })
        };
        let title = |f: &str| titles().contains(f);
        let pairs = || forms.clone().zip(&entity.forms);
        if pairs().filter(|(a, b)| a == b).any(|(a, _)| alone(a)) {
            return false;
        }
        other.forms.len() == entity.forms.len()
            && pairs().any(|(a, b)| a == b)
            && pairs().enumerate().any(|(i, (a, b))| {
                a != b
                    && !title(a)
                    && !title(b)
                    && !self.vocabulary.contains(b)
                    && !(i == 0 && (opening_verb(other) || opening_verb(entity)))
            })
    }

    fn refers_to(&self, entity: &Entity, needed: usize) -> bool {
        // Part of a longer name is mentioned by a word written as a name, or by its common word
        // with a definite article ("the lake" for "Lake Baikal"); "a record made for £6,000"
        // does not mention "Tidewrack Records".
        let partial = needed < entity.forms.len();
        let as_name = |f: &str| {
            self.forms
                .iter()
                .zip(&self.lowercase)
                .enumerate()
                .any(|(i, (g, &lower))| {
                    g.as_deref() == Some(f)
                        && (!lower
                            || i.checked_sub(1).is_some_and(|p| {
                                matches!(self.form(p), Some("the" | "this" | "that" | "its"))
                            }))
                })
        };
        let present = entity
            .forms
            .iter()
            // A title alone mentions no one: "Queen Elizabeth II" does not mention "Queen
            // Victoria".
            .filter(|f| !partial || !titles().contains(*f))
            .filter(|f| {
                (self.vocabulary.contains(*f) && (!partial || as_name(f))) || self.has_demonym_of(f)
            })
            .count();
        // A name of three words or more, none of them a connector ("Johann Sebastian Bach",
        // "Amara Singh", not "University of Auckland"), is mentioned by its last word written
        // as a name: the surname an article uses after its first mention ("Bach spent the last
        // 27 years of his life in Leipzig"). Not when that word says what kind of place or body
        // the name is ("Empire State Building" is not mentioned by "Chrysler Building").
        let by_surname = || {
            let words: Vec<&str> = entity.text.split_whitespace().collect();
            entity.forms.len() >= 3
                && !words
                    .iter()
                    .any(|w| CONNECTORS.contains(&w.to_lowercase().as_str()))
                && words
                    .last()
                    .is_some_and(|w| !lexicon::NAME_HEADS.contains(&w.to_lowercase().as_str()))
                && entity.forms.last().is_some_and(|last| {
                    self.forms
                        .iter()
                        .zip(&self.lowercase)
                        .any(|(g, &lower)| !lower && g.as_deref() == Some(last.as_str()))
                })
        };
        if present >= needed.max(1) || (partial && by_surname()) {
            if present == entity.forms.len() {
                return true;
            }
            // "the German Democratic Republic" does not mention "West Germany": the word of
            // direction it leaves out is what names the place.
            let direction_left_out = entity
                .forms
                .iter()
                .any(|f| compass_points().contains(f) && !self.vocabulary.contains(f));
            return !direction_left_out && !self.names_a_sibling(entity);
        }
        let written = entity.text.trim();
        if is_acronym(written) {
            let wanted = written.to_lowercase();
            return self.initials.iter().any(|run| run.contains(&wanted));
        }
        self.acronyms
            .iter()
            .any(|a| entity.run_initials.contains(a.as_str()))
    }
}

/// Whether `entity` opens its sentence with a verb's "-ing" or "-ed" form ("Building
/// Lantern needs ...", "Compiling Lantern 4.0 takes ..."): a sentence's first word is
/// capitalised whatever it is, and such a word is no part of the name after it.
fn opening_verb(entity: &Entity) -> bool {
    let first = entity.text.split_whitespace().next().unwrap_or_default();
    entity.span.start == 0 && (first.ends_with("ing") || first.ends_with("ed"))
}

/// The normalised forms of a word list of the lexicon.
fn normalised_set(words: &[&str]) -> HashSet<String> {
    words.iter().map(|w| normalise(w).form).collect()
}

/// The normalised forms of [`lexicon::COMPASS_POINTS`].
fn compass_points() -> &'static HashSet<String> {
    static POINTS: std::sync::OnceLock<HashSet<String>> = std::sync::OnceLock::new();
    POINTS.get_or_init(|| normalised_set(lexicon::COMPASS_POINTS))
}

/// The normalised forms of [`lexicon::TITLES`].
/// Whether the normalised `form` is a title ("queen", "president", "dr").
pub(super) fn is_title(form: &str) -> bool {
    titles().contains(form)
}

fn titles() -> &'static HashSet<String> {
    static TITLES: std::sync::OnceLock<HashSet<String>> = std::sync::OnceLock::new();
    TITLES.get_or_init(|| normalised_set(lexicon::TITLES))
}

/// The one word a phrasal verb means, when the verb of normalised form `verb` is followed by
/// its particle `next` (see [`lexicon::PHRASAL_SYNONYMS`]), normalised.
fn phrasal_synonym(verb: &str, next: Option<&str>) -> Option<&'static str> {
    struct Table {
        /// The particles, each once: most words are followed by none, and are settled here.
        particles: Vec<&'static str>,
        /// (verb, particle, word), verb and word normalised.
        entries: Vec<(String, &'static str, String)>,
    }
    static TABLE: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    let next = next?;
    let table = TABLE.get_or_init(|| {
        let mut particles: Vec<&str> = lexicon::PHRASAL_SYNONYMS.iter().map(|e| e.1).collect();
        particles.sort_unstable();
        particles.dedup();
        let entries = lexicon::PHRASAL_SYNONYMS
            .iter()
            .map(|(v, p, w)| (normalise(v).form, *p, normalise(w).form))
            .collect();
        Table { particles, entries }
    });
    if !table.particles.contains(&next) {
        return None;
    }
    table
        .entries
        .iter()
        .find(|(v, p, _)| v == verb && *p == next)
        .map(|(_, _, w)| w.as_str())
}

/// Whether a negation cue, for all its "not" or "no", affirms the act in its scope: "not until
/// 1972" says it happened in 1972; "no other river crosses as many" and "no woman had been a
/// member before her" say the subject is the one that does or the first that did. Read as a
/// denial, each would flip the polarity of a claim that states the act plainly.
fn affirms(lower: &[String], cue: &Cue) -> bool {
    let Some(at) = cue.scope.start.checked_sub(1) else {
        return false;
    };
    let scope = &lower[cue.scope.clone()];
    let has = |word: &str| scope.iter().any(|w| w == word);
    if has("until") || has("till") {
        return true;
    }
    // "will not arrive before February 2027" and "won't open earlier than 2030" say when the
    // act comes at the earliest, as "not until" does: a prospect (after will, would, shall,
    // can or could) bounded by a date right after its verb. In the past ("did not score
    // before 2010") or before anything but a date ("did not score before the break") it
    // denies the act in that time.
    let word = |k: usize| lower.get(k).map_or("", String::as_str);
    let cue_word = word(at).replace('\u{2019}', "'");
    let prospect = matches!(
        cue_word.as_str(),
        "won't" | "wouldn't" | "shan't" | "can't" | "couldn't" | "cannot"
    ) || (cue_word == "not"
        // "will now not arrive": an adverb may stand between.
        && [at.checked_sub(1), at.checked_sub(2)]
            .into_iter()
            .flatten()
            .any(|p| matches!(word(p), "will" | "would" | "shall" | "can" | "could")));
    // A year, not a count before its noun ("before 2000 people").
    let year = |k: usize| {
        let w = word(k);
        let next = word(k + 1);
        w.len() == 4
            && w.parse::<u32>().is_ok_and(|y| (1000..=2100).contains(&y))
            && (!next.starts_with(char::is_alphabetic) || is_stopword(next))
    };
    let month = |k: usize| lexicon::MONTHS.contains(&word(k));
    let day = |k: usize| word(k).parse::<u32>().is_ok_and(|d| (1..=31).contains(&d));
    let dated = |k: usize| month(k) || year(k) || (day(k) && month(k + 1));
    let bounded = |k: usize| {
        (word(k) == "before" && dated(k + 1))
            || (matches!(word(k), "earlier" | "sooner") && word(k + 1) == "than" && dated(k + 2))
    };
    let start = cue.scope.start;
    if prospect && (start..cue.scope.end.min(start + 3)).any(bounded) {
        return true;
    }
    // "was not found for another 23 years" says it was found 23 years later; "for 23 years"
    // alone is a span of time in which it did not happen.
    let delayed = (cue.scope.start..lower.len().min(cue.scope.end + 3)).any(|k| {
        let mut j = k + 1;
        if word(j) == "a" {
            j += 1;
        }
        word(k) == "for"
            && matches!(word(j), "another" | "further")
            && matches!(
                word(j + 2).trim_end_matches('s'),
                "year" | "month" | "week" | "day" | "decade" | "hour" | "centurie" | "century"
            )
    });
    if delayed {
        return true;
    }
    // "does nothing apart from printing a notice", "nobody except the captain": a pronoun of
    // denial with an exception affirms the act of what it excepts, as "all it does is print a
    // notice" does.
    let no_one = lower[at] == "no" && scope.first().is_some_and(|w| w == "one");
    let pronoun = no_one || matches!(lower[at].as_str(), "nothing" | "nobody" | "none");
    let mut after = scope
        .iter()
        .map(String::as_str)
        .skip(usize::from(no_one))
        .skip_while(|w| *w == "else");
    let excepts = match after.next() {
        Some("except" | "besides" | "save") => true,
        Some("apart" | "other" | "aside") => {
            after.next().is_some_and(|w| matches!(w, "from" | "than"))
        }
        _ => false,
    };
    // The exception may stand elsewhere in the sentence: fronted ("Apart from the pilot,
    // nobody survived") or after the act ("No one survived except the pilot"), as long as no
    // sentence end comes between.
    let marker_at = |k: usize| match word(k) {
        "except" | "besides" => true,
        "apart" | "aside" => word(k + 1) == "from",
        _ => false,
    };
    let sentence_end = |k: usize| matches!(word(k), "." | "!" | "?" | ";");
    let fronted = (0..at)
        .rev()
        .take_while(|&k| !sentence_end(k))
        .any(marker_at);
    let trailing = (at + 1..lower.len())
        .take_while(|&k| !sentence_end(k))
        .any(marker_at);
    if pronoun && (excepts || fronted || trailing) {
        return true;
    }
    // Only a determiner's "no" ("no woman", "nobody", "no one") makes a uniqueness: "did not
    // score before his thirtieth birthday" denies the act before that time.
    let determiner = matches!(lower[at].as_str(), "no" | "nobody" | "none");
    // "No one else", "nobody else": "else" right after the pronoun. Further on it belongs to
    // the act ("had no interest in propping up anyone else" denies the interest).
    let else_after = match lower[at].as_str() {
        "no" => {
            scope.first().is_some_and(|w| w == "one") && scope.get(1).is_some_and(|w| w == "else")
        }
        _ => scope.first().is_some_and(|w| w == "else"),
    };
    // "No Orland player has won more titles than Torvell": no one outdoes her, so she is the
    // one who does.
    let outdone = lower[at..]
        .iter()
        .take_while(|w| !matches!(w.as_str(), "." | ";" | "!" | "?"))
        .any(|w| w == "than");
    // "were no more susceptible than the men", "won no more titles than she did": a "no"
    // right before a comparative denies the comparison; it determines no subject. Not "no
    // more than 40", "no fewer than 40": a bound on a figure, which the figure's reading has.
    let comparative = |w: &str| lexicon::MORE.contains(&w) || lexicon::LESS.contains(&w);
    let denied_comparison =
        scope.first().is_some_and(|w| comparative(w)) && scope.get(1).is_some_and(|w| w != "than");
    let outdone = outdone && !denied_comparison;
    determiner
        && (scope.first().is_some_and(|w| w == "other") || else_after || has("before") || outdone)
}

/// Whether a name is followed by a parenthesised span of two dates ("(14 March 1861 – 2
/// October 1934)", "(1861–1934)"): the convention for a person's birth and death. A reference
/// work may put a pronunciation or the name in another language first, ended by a semicolon
/// ("(/ˈaɪnstaɪn/; German: [...]; 14 March 1879 – 18 April 1955)"): the dates are then the
/// last part. Gives the lexeme indices of what opens the dates (the bracket or that semicolon)
/// and of the dash.
fn lifespan(
    lexemes: &[Lexeme<'_>],
    quantities: &[Quantity],
    entities: &[Entity],
) -> Option<(usize, usize)> {
    /// How many lexemes the parentheses may hold.
    const REACH: usize = 40;
    let dated = |range: std::ops::Range<usize>| {
        quantities
            .iter()
            .any(|q| range.contains(&q.at) && matches!(q.measure, Measure::Year | Measure::Day(_)))
    };
    entities.iter().find_map(|e| {
        let open = e.span.end;
        if lexemes.get(open).map(|l| l.text) != Some("(") {
            return None;
        }
        let close =
            (open + 1..lexemes.len().min(open + REACH)).find(|&i| lexemes[i].text == ")")?;
        (open + 1..close)
            .filter(|&i| matches!(lexemes[i].text, "\u{2013}" | "-" | "\u{2014}"))
            .find_map(|dash| {
                let start = (open + 1..dash)
                    .rev()
                    .find(|&i| lexemes[i].text == ";")
                    .unwrap_or(open);
                (dated(start + 1..dash) && dated(dash + 1..close)).then_some((start, dash))
            })
    })
}

/// Whether the denial word at `i` is what the sentence sets itself against ("Contrary to a
/// popular myth, the wall is not visible from orbit"): the sentence then states the
/// correction, which the word does not deny.
fn corrects_it(lower: &[String], i: usize) -> bool {
    (i.saturating_sub(4)..i).any(|p| {
        (lower[p] == "contrary" && lower.get(p + 1).is_some_and(|w| w == "to"))
            || lower[p] == "despite"
    })
}

/// Determiners that open a noun phrase a relative clause without "that" may follow at the
/// start of a sentence. The definite "the" and the demonstratives are left out: "The next day
/// I did not ..." and "That week we never ..." open a main clause with a time.
const BARE_RELATIVE_DETERMINERS: &[&str] = &["a", "an", "any", "every", "each"];

/// Subject pronouns that open such a clause ("a backup you have never restored").
const RELATIVE_SUBJECTS: &[&str] = &["i", "you", "we", "they", "he", "she"];

/// Auxiliaries that may stand between that subject and its negation.
const RELATIVE_AUXILIARIES: &[&str] = &[
    "have", "has", "had", "do", "does", "did", "can", "could", "will", "would", "should",
];

/// Words that make the words before a subject pronoun a time rather than a noun it describes:
/// "A week later we did not ...", "An hour ago I could not ...".
const TIME_WORDS: &[&str] = &[
    "later",
    "ago",
    "earlier",
    "after",
    "before",
    "then",
    "moment",
    "minute",
    "hour",
    "day",
    "night",
    "morning",
    "afternoon",
    "evening",
    "week",
    "fortnight",
    "month",
    "season",
    "year",
    "decade",
    "time",
    "while",
];

/// Whether a coordinated clause with a pronoun subject opens at lexeme `at`: "and I",
/// "but they", "so we".
fn new_clause_at(lower: &[String], at: usize) -> bool {
    let word = |k: usize| lower.get(k).map_or("", String::as_str);
    // ", according to ...": the source of the whole sentence, no part of what is compared.
    let attribution = word(at) == "according" && word(at + 1) == "to";
    attribution
        || (matches!(word(at), "and" | "but" | "so" | "yet" | "while" | "whereas")
            && matches!(
                word(at + 1),
                "i" | "we" | "he" | "she" | "they" | "it" | "you"
            ))
}

/// Whether the negation at lexeme `at` sits in a relative clause without "that" on the noun
/// phrase that opens its sentence at `opening`: "A backup you have never restored from is a
/// rumour". The negation describes the noun (which backups), not what the sentence states,
/// so it flips nothing; a negation of the main verb after it ("... is not a backup") still
/// counts. Only an indefinite or universal determiner, one to three words of the noun, a
/// subject pronoun and at most two auxiliaries qualify.
fn in_bare_relative(lower: &[String], opening: usize, at: usize) -> bool {
    if !lower
        .get(opening)
        .is_some_and(|w| BARE_RELATIVE_DETERMINERS.contains(&w.as_str()))
    {
        return false;
    }
    let Some(subject) = (opening + 2..at.min(opening + 5)).find(|&p| {
        let w = lower[p].as_str();
        let bare = w
            .trim_end_matches("'ve")
            .trim_end_matches("'d")
            .trim_end_matches("\u{2019}ve")
            .trim_end_matches("\u{2019}d");
        RELATIVE_SUBJECTS.contains(&bare)
    }) else {
        return false;
    };
    let noun_words = lower[opening + 1..subject].iter().all(|w| {
        let singular = w.strip_suffix('s').unwrap_or(w);
        w.chars().all(char::is_alphabetic)
            && !is_stopword(w)
            && !TIME_WORDS.contains(&w.as_str())
            && !TIME_WORDS.contains(&singular)
            && !lexicon::MONTHS.contains(&w.as_str())
            && !lexicon::WEEKDAYS.contains(&w.as_str())
    });
    let auxiliaries = &lower[subject + 1..at];
    noun_words
        && auxiliaries.len() <= 2
        && auxiliaries
            .iter()
            .all(|w| RELATIVE_AUXILIARIES.contains(&w.as_str()))
}

/// Words that open a new clause between a negation and a "without": the "without" is then
/// that clause's.
const CLAUSE_OPENERS: &[&str] = &[
    ",", ";", ":", "whether", "how", "when", "if", "and", "or", "but", "that", "which", "who",
    "where", "why", "because", "while", "as", "since", "until", "unless",
];

/// Words of what could happen, which a "without" after a negation makes a condition of.
const POSSIBILITY: &[&str] = &["would", "could", "possible", "might", "happen", "happened"];

/// How many lexemes after a negation a "without" may stand and still be denied by it ("None of
/// this would have been possible without").
const DOUBLE_NEGATION_REACH: usize = 8;

/// Whether the negation at lexeme `i` opens a counterfactual condition: "had it not been for the
/// strike", "were it not for", "if it hadn't been for", "if not for". It sets a cause aside
/// ("excluding the strike"), and denies nothing the sentence states.
fn counterfactual(lower: &[String], i: usize) -> bool {
    let mut next = i + 1;
    if lower.get(next).is_some_and(|w| w == "been") {
        next += 1;
    }
    lower.get(next).is_some_and(|w| w == "for")
        && (i.saturating_sub(3)..=i).any(|p| {
            matches!(
                lower[p].as_str(),
                "had" | "were" | "if" | "hadn't" | "weren't" | "hadn\u{2019}t" | "weren\u{2019}t"
            )
        })
}

/// Whether the negation at lexeme `i` is part of what a check is meant to find: "used to
/// check that volunteers were not missing females". The checked statement is the check's
/// purpose, not a statement that the act did or did not happen. Only "check" or "verify"
/// followed by "that", with no "and", "but" or comma between it and the negation: "checked the
/// dam and it did not leak" denies the leak.
fn ensured(lower: &[String], i: usize) -> bool {
    let word = |k: usize| lower.get(k).map_or("", String::as_str);
    let checking = |k: usize| {
        matches!(
            word(k),
            "check" | "checks" | "checked" | "checking" | "verify" | "verifies" | "verified"
        ) && word(k + 1) == "that"
    };
    (i.saturating_sub(ENSURE_REACH)..i)
        .rev()
        .take_while(|&k| {
            word(k).chars().any(char::is_alphanumeric) && !matches!(word(k), "and" | "but")
        })
        .any(checking)
}

/// How many lexemes before a negation its verb of ensuring may stand ("checked that the
/// level of the water in the tank had not").
const ENSURE_REACH: usize = 8;

/// Whether `word` is a verb's "-ing" form: not a function word ("during", "nothing") nor one of
/// the common nouns in "-ing" ("stopped in the morning").
fn is_gerund(word: &str) -> bool {
    word.len() > 4
        && word.ends_with("ing")
        && word.chars().all(char::is_alphabetic)
        && !is_stopword(word)
        && !lexicon::NEGATIONS.contains(&word)
        && !lexicon::ING_NOUNS.contains(&word)
}

/// Where the negation starts when `word` (at lexeme `i`) is a verb that denies what follows it:
/// "stopped eating" (at the "-ing" word), "failed to qualify" (after the "to").
fn implicative_negation(word: &str, lower: &[String], i: usize) -> Option<(CueKind, usize)> {
    let next = lower.get(i + 1).map(String::as_str)?;
    let gerund = is_gerund(next);
    let noun = next.chars().all(char::is_alphabetic)
        && !is_stopword(next)
        && !lexicon::NEGATIONS.contains(&next);
    if lexicon::HALTING_VERBS.contains(&word) && gerund {
        Some((CueKind::Halt, i + 1))
    } else if lexicon::ENDING_VERBS.contains(&word) && noun {
        Some((CueKind::Ending, i + 1))
    } else if lexicon::MISTAKINGS
        .iter()
        .any(|&(verb, particle, needs_frequency)| {
            word == verb && next == particle && (!needs_frequency || after_frequency(lower, i))
        })
        // "The bird it is most often mistaken for is the hooded sand plover" names what it is
        // mistaken for; it denies nothing.
        && !lower.get(i + 2).is_none_or(|w| {
            matches!(w.as_str(), "is" | "was" | "are" | "were" | "be" | "," | "." | ";")
        })
    {
        // "is often taken for the highest", "is mistaken for a wasp": it is not that.
        Some((CueKind::Negation, i + 2))
    } else if lexicon::MISREPORTING_ADVERBS.contains(&word) && lexicon::SAYING_VERBS.contains(&next)
    {
        // "is wrongly described as the oldest", "falsely attributed to Twain": what is said
        // is untrue (while "wrongly convicted" still has the conviction happen).
        Some((CueKind::Negation, i + 2))
    } else if word == "yet" && next == "to" && after_auxiliary(lower, i) {
        // "has yet to score", "is yet to open": the act has not happened.
        Some((CueKind::Negation, i + 2))
    } else if lexicon::FAILING_VERBS.contains(&word) && next == "to" {
        // The infinitive is a verb: a word that is no function word ("failed to the ground",
        // "refused to their faces").
        let verb = lower.get(i + 2)?;
        let is_verb = verb.chars().all(char::is_alphabetic) && !is_stopword(verb);
        is_verb.then_some((CueKind::Refusal, i + 2))
    } else if matches!(word, "rule" | "rules" | "ruled" | "ruling")
        && next == "out"
        && lower
            .get(i + 2)
            .is_some_and(|w| matches!(w.as_str(), "a" | "an" | "any" | "the" | "that"))
    {
        // "ruled out a run for governor": the run will not happen; "ruled out that the clouds
        // are debris": they are not. Only a noun's phrase or a clause: "has
        // ruled out selling his captain" states the refusal that a page's "isn't going
        // anywhere" states, and read as a denial it would set the two against each other.
        Some((CueKind::Refusal, i + 3))
    } else if let Some(verb) = rejected_proposal(word, lower, i) {
        // "rejected a proposal to contribute $640 million", "rejecting a motion that would
        // have made the ban permanent": what was proposed did not happen.
        Some((CueKind::Rejection, verb))
    } else if matches!(word, "avoid" | "avoids" | "avoided") && gerund {
        // "avoided citing relativity": the citing did not happen.
        Some((CueKind::Refusal, i + 1))
    } else if matches!(word, "refrain" | "refrains" | "refrained")
        && next == "from"
        && lower.get(i + 2).is_some_and(|w| is_gerund(w))
    {
        // "refrained from naming the buyer".
        Some((CueKind::Refusal, i + 2))
    } else {
        None
    }
}

/// The verb of a proposal that the word at `i` turns down: a rejecting verb, at most twice
/// [`PROPOSAL_REACH`] lexemes to a proposal's noun (a tally may stand between), then "to" or "that would (have)" and the
/// verb ("rejected, by nine votes to four, a proposal to contribute", "rejecting a motion
/// that would have made").
fn rejected_proposal(word: &str, lower: &[String], i: usize) -> Option<usize> {
    const REJECTING: &[&str] = &[
        "reject",
        "rejects",
        "rejected",
        "rejecting",
        "veto",
        "vetoes",
        "vetoed",
        "vetoing",
        "block",
        "blocks",
        "blocked",
        "blocking",
        "dismiss",
        "dismissed",
        "dismissing",
    ];
    // This runs for every word of every text: a first letter settles most.
    if !matches!(word.as_bytes().first(), Some(b'r' | b'v' | b'b' | b'd'))
        || !REJECTING.contains(&word)
    {
        return None;
    }
    let noun = (i + 1..(i + 1 + 2 * PROPOSAL_REACH).min(lower.len()))
        .find(|&k| PROPOSALS.contains(&lower[k].as_str()))?;
    let at = |k: usize| lower.get(k).map(String::as_str);
    // A few words naming whose proposal it was may stand between ("a motion from councillor
    // Dev Patel that would have").
    let joint = (noun + 1..(noun + 1 + PROPOSAL_REACH).min(lower.len()))
        .find(|&k| matches!(at(k), Some("to" | "that" | "which")) || lower[k] == ",")?;
    let verb = match at(joint)? {
        "to" => joint + 1,
        "that" | "which" if at(joint + 1) == Some("would") => {
            if at(joint + 2) == Some("have") {
                joint + 3
            } else {
                joint + 2
            }
        }
        _ => return None,
    };
    let is_verb = at(verb).is_some_and(|v| v.chars().all(char::is_alphabetic) && !is_stopword(v));
    is_verb.then_some(verb)
}

/// Nouns of a proposal that a vote or a veto may turn down.
pub const PROPOSALS: &[&str] = &[
    "proposal",
    "proposals",
    "plan",
    "plans",
    "motion",
    "motions",
    "bid",
    "bill",
    "measure",
    "request",
    "application",
    "amendment",
    "offer",
    "scheme",
    "attempt",
    "call",
    "calls",
    "demand",
    "demands",
    "suggestion",
];

/// How many lexemes may stand between a proposal and its "to" or "that would".
const PROPOSAL_REACH: usize = 7;

/// Whether a word of frequency comes one or two words before lexeme `i` ("is often taken for", "is easily
/// confused with"): without it "was taken for treatment" is a trip, not a mistake.
fn after_frequency(lower: &[String], i: usize) -> bool {
    (1..=2).any(|k| {
        i.checked_sub(k)
            .is_some_and(|p| lexicon::FREQUENCY_WORDS.contains(&lower[p].as_str()))
    })
}

/// Whether the word before lexeme `i` is a form of "have" or "be" ("has yet to", "are yet to").
fn after_auxiliary(lower: &[String], i: usize) -> bool {
    i.checked_sub(1).is_some_and(|p| {
        matches!(
            lower[p].as_str(),
            "has" | "have" | "had" | "is" | "are" | "was" | "were" | "am"
        )
    })
}

/// +1 for a word of "more" as written or the "more" side of a scale, -1 for one of "less",
/// 0 otherwise (see [`Analysis::degree`]): one lookup per word of every text analysed.
fn degree_of(word: &str) -> i8 {
    static DEGREES: OnceLock<HashMap<&'static str, i8>> = OnceLock::new();
    let degrees = DEGREES.get_or_init(|| {
        let more = lexicon::MORE
            .iter()
            .chain(lexicon::OPPOSITE_COMPARATIVES.iter().map(|(more, _)| more));
        let less = lexicon::LESS
            .iter()
            .chain(lexicon::OPPOSITE_COMPARATIVES.iter().map(|(_, less)| less));
        // No word is on both sides, so the order of insertion does not matter.
        more.map(|w| (*w, 1))
            .chain(less.map(|w| (*w, -1)))
            .collect()
    });
    degrees.get(word).copied().unwrap_or(0)
}

/// "largest", "most", "best": a superlative by its ending or its word, short of the common
/// words that merely end in "-est" ("forest", "interest").
pub(super) fn is_superlative(word: &str) -> bool {
    matches!(word, "most" | "least" | "best" | "worst")
        || (word.len() >= 6
            && word.ends_with("est")
            && word.chars().all(char::is_alphabetic)
            && !lexicon::NOT_SUPERLATIVES.contains(&word))
}

fn is_initial(lexemes: &[Lexeme<'_>], i: usize) -> bool {
    match i.checked_sub(1).map(|p| &lexemes[p]) {
        None => true,
        Some(prev) => {
            prev.kind == LexKind::Punct
                && matches!(
                    prev.text,
                    ":" | "\u{201C}" | "\"" | "(" | "." | "!" | "?" | "|" | "\u{2014}"
                )
        }
    }
}

fn is_capitalised(lexeme: &Lexeme<'_>) -> bool {
    lexeme.kind == LexKind::Word && written_as_name(lexeme.text)
}

fn possessive(word: &str) -> bool {
    word.ends_with("'s") || word.ends_with("\u{2019}s")
}

/// Whether the words `forms` shares with `entity` in the same places are all kind words of
/// [`lexicon::NAME_HEADS`] ("University", not "London" or "Joe"), and there is one at least.
fn shares_only_heads<'f>(forms: impl Iterator<Item = &'f String>, entity: &Entity) -> bool {
    static HEADS: OnceLock<Vec<String>> = OnceLock::new();
    let heads = HEADS.get_or_init(|| forms_of(lexicon::NAME_HEADS));
    let mut shared = forms.zip(&entity.forms).filter(|(a, b)| a == b).peekable();
    shared.peek().is_some() && shared.all(|(f, _)| heads.contains(f))
}

/// `word` without its possessive "'s", if it has one.
fn without_possessive(word: &str) -> &str {
    word.strip_suffix("'s")
        .or_else(|| word.strip_suffix("\u{2019}s"))
        .unwrap_or(word)
}

pub(super) fn is_acronym(word: &str) -> bool {
    // The possessive is no part of it: "the CEO's pay".
    let word = without_possessive(word);
    let letters = word.chars().filter(|c| c.is_alphabetic()).count();
    (2..=6).contains(&letters) && word.chars().all(|c| c.is_uppercase() || !c.is_alphabetic())
}

fn initials_of(text: &str) -> String {
    text.split_whitespace()
        .filter(|w| !CONNECTORS.contains(w) && !matches!(*w, "and" | "for" | "the"))
        .filter_map(|w| w.chars().next())
        .flat_map(char::to_lowercase)
        .collect()
}

type Names = (Vec<Entity>, Vec<String>, Vec<String>);

/// Named entities, the initials of capitalised runs, and the acronyms in the text.
fn names(
    lexemes: &[Lexeme<'_>],
    lower: &[String],
    forms: &[Option<String>],
    initial: &[bool],
    consumed: &[bool],
    name_numbers: &[bool],
) -> Names {
    let capital = |i: usize| {
        is_capitalised(&lexemes[i])
            && !consumed[i]
            && !lexicon::MONTHS.contains(&lower[i].as_str())
            && !lexicon::WEEKDAYS.contains(&lower[i].as_str())
            && lower[i] != "i"
    };
    let mut entities = Vec::new();
    let mut initials = Vec::new();
    let mut i = 0;
    while i < lexemes.len() {
        if !capital(i) {
            i += 1;
            continue;
        }
        let mut end = i + 1;
        loop {
            // A possessive ends a name: "Lisbon's Tram 28" is Lisbon's, then Tram.
            if possessive(lexemes[end - 1].text) {
                break;
            }
            // A number inside a name ("Nova 3 Pro", "Snapdragon 8 Gen 3") keeps the run going.
            if end < lexemes.len() && (capital(end) || name_numbers[end]) {
                end += 1;
            } else if end + 1 < lexemes.len()
                && (CONNECTORS.contains(&lower[end].as_str()) || lower[end] == "and")
                && capital(end + 1)
            {
                end += 2;
            } else if end + 2 < lexemes.len()
                && CONNECTORS.contains(&lower[end].as_str())
                && lower[end + 1] == "the"
                && capital(end + 2)
            {
                // "Tour of the Brack Valley", "Bank of the North": one name.
                end += 3;
            } else {
                break;
            }
        }
        let run_text: Vec<&str> = lexemes[i..end].iter().map(|l| l.text).collect();
        let run_initials = initials_of(&run_text.join(" "));
        initials.push(run_initials.clone());
        // Split the run at "and" (lists of names), drop leading stopwords ("The Eiffel Tower").
        let mut start = i;
        for k in i..=end {
            if k == end || lower[k] == "and" {
                let span = start..k;
                if let Some(entity) = entity(lexemes, lower, forms, initial, span, &run_initials) {
                    entities.push(entity);
                }
                start = k + 1;
            }
        }
        i = end;
    }
    let acronyms = lexemes
        .iter()
        .filter(|l| l.kind == LexKind::Word && is_acronym(l.text))
        .map(|l| l.text.to_lowercase())
        .collect();
    (entities, initials, acronyms)
}

fn entity(
    lexemes: &[Lexeme<'_>],
    lower: &[String],
    forms: &[Option<String>],
    initial: &[bool],
    span: Range<usize>,
    run_initials: &str,
) -> Option<Entity> {
    let (mut start, end) = (span.start, span.end);
    while start < end && is_stopword(&lower[start]) {
        start += 1;
    }
    if start >= end {
        return None;
    }
    let words: Vec<&Lexeme<'_>> = lexemes[start..end].iter().collect();
    // A lone capitalised word opening a sentence is usually just the first word.
    if words.len() == 1 && initial[start] && !is_acronym(words[0].text) {
        return None;
    }
    let entity_forms: Vec<String> = (start..end)
        .filter(|&k| !CONNECTORS.contains(&lower[k].as_str()) && !is_stopword(&lower[k]))
        .filter_map(|k| forms[k].clone())
        .collect();
    if entity_forms.is_empty() {
        return None;
    }
    Some(Entity {
        forms: entity_forms,
        span: start..end,
        text: words.iter().map(|l| l.text).collect::<Vec<_>>().join(" "),
        modifies: modified_noun(lexemes, lower, forms, end),
        run_initials: run_initials.to_string(),
    })
}

/// The form of the word at `i` when it is a common noun a name right before it classifies:
/// a lower-case word that is neither a stopword nor a verb ("title" in "Grand Slam title",
/// not "shared" in "Norman Heatley shared"). A word followed by a determiner, a name or a
/// number has an object, so it is a verb however it is spelt ("the Chiefs beat the 49ers").
/// An owner ("Greyburn's albums") does not classify what it owns.
fn modified_noun(
    lexemes: &[Lexeme<'_>],
    lower: &[String],
    forms: &[Option<String>],
    i: usize,
) -> Option<String> {
    let lexeme = lexemes.get(i)?;
    let word = lower.get(i)?;
    let owner = i
        .checked_sub(1)
        .is_some_and(|p| possessive(lexemes[p].text));
    let has_object = lexemes.get(i + 1).is_some_and(|next| {
        next.kind == LexKind::Number
            || is_capitalised(next)
            || matches!(
                lower[i + 1].as_str(),
                "the" | "a" | "an" | "his" | "her" | "its" | "their" | "this" | "that"
            )
    });
    let noun_like = lexeme.kind == LexKind::Word
        && lexeme.text.starts_with(|c: char| c.is_lowercase())
        && !owner
        && !has_object
        && !is_stopword(word)
        && !word.ends_with("ing")
        && !ADVERBS_AFTER_NAMES.contains(&word.as_str())
        && !facts::is_verb(lexemes, lower, i);
    noun_like.then(|| forms.get(i).cloned().flatten()).flatten()
}

/// Adverbs that follow a name without classifying it: "moved from Bath together with her
/// sisters", "left Paris again", "lived in Rome alone".
const ADVERBS_AFTER_NAMES: &[&str] = &[
    "together",
    "again",
    "alone",
    "abroad",
    "apart",
    "away",
    "ahead",
    "instead",
    "overnight",
    "afterwards",
    "ago",
    "later",
    "earlier",
    "too",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_with_of_is_of_the_kind_of_one_without() {
        let claim = Analysis::new("It began at Halvard University.");
        let sentence = Analysis::new("It began at the University of Brackenford.");
        let ours = &claim.entities[0];
        let theirs = &sentence.entities[0];
        assert!(
            sentence.names_another_of_its_kind(theirs, ours),
            "{theirs:?} / {ours:?}"
        );
        // The same university either way round is no other one; nor is a name that shares a
        // place or a first name rather than a kind.
        let same = Analysis::new("It began at the University of Halvard.");
        assert!(!same.names_another_of_its_kind(&same.entities[0], ours));
        for (claim, sentence) in [
            (
                "They keep the Crown Jewels at the Tower of London.",
                "It is a short walk from London Bridge.",
            ),
            (
                "It drains into the Gulf of Mexico.",
                "Crews came from Mexico City.",
            ),
            (
                "Joe Biden signed the bill.",
                "It was a deal with Joe Manchin.",
            ),
        ] {
            let (claim, sentence) = (Analysis::new(claim), Analysis::new(sentence));
            let ours = claim
                .entities
                .iter()
                .find(|e| e.forms.len() == 2)
                .expect("name");
            assert!(
                !sentence
                    .entities
                    .iter()
                    .any(|s| sentence.names_another_of_its_kind(s, ours)),
                "{ours:?}"
            );
        }
    }

    #[test]
    fn a_name_sharing_only_its_kind_word_with_another_is_not_mentioned_by_it() {
        let claim = Analysis::new("The Danube flows into the Caspian Sea near Astrakhan.");
        let caspian = &claim.entities[1];
        assert_eq!(caspian.text, "Caspian Sea");
        assert!(!Analysis::new("The Danube flows into the Black Sea.").mentions(caspian));
        assert!(Analysis::new("The Caspian is the largest inland sea.").mentions(caspian));
        assert!(Analysis::new("The Caspian Sea and the Black Sea.").mentions(caspian));
        assert!(!Analysis::new("It links the Black Sea and the Red Sea.").mentions(caspian));
        let walter = &Analysis::new("Walter Farrant ran the firm.").entities[0];
        assert!(!Analysis::new("Agnes Farrant ran the firm from 1908.").mentions(walter));
        assert!(Analysis::new("Farrant ran the firm from 1908.").mentions(walter));
        // The short form beside the other name is the name itself.
        let marten = &Analysis::new("Marten Oskarsson was born in Skelby.").entities[0];
        let sentence = "Oskarsson was born in Skelby, the eldest of five children of Anders \
                        Oskarsson, the organist.";
        assert!(
            Analysis::new(sentence).mentions(marten),
            "{:?}",
            entity_texts(sentence)
        );
        // A title is no word of who is named, and a sentence's first word is capitalised
        // whatever it is.
        let biden = &Analysis::new("In 2021 President Biden signed it.").entities[0];
        assert_eq!(biden.text, "President Biden");
        assert!(Analysis::new("In 2021 Joe Biden signed it.").mentions(biden));
        let compiling = &Analysis::new("Compiling Lantern needs Rust 1.80.").entities[0];
        assert!(Analysis::new("Building Lantern needs Rust 1.80.").mentions(compiling));
    }

    fn entity_texts(text: &str) -> Vec<String> {
        Analysis::new(text)
            .entities
            .into_iter()
            .map(|e| e.text)
            .collect()
    }

    #[test]
    fn a_name_runs_on_through_of_the() {
        assert_eq!(
            entity_texts("In 2025 Tomas Reyn won the Tour of the Brack Valley on Sunday."),
            vec!["Tomas Reyn", "Tour of the Brack Valley"]
        );
    }

    #[test]
    fn a_phrasal_verb_reads_as_the_word_it_means() {
        let form = |w: &str| normalise(w).form;
        let a = Analysis::new("The park was set up in 1962, and it turned down the offer.");
        for word in ["established", "rejected"] {
            assert!(a.vocabulary.contains(&form(word)), "{word}");
        }
        assert!(!a.content.iter().any(|(f, _)| *f == form("set")));
        let a = Analysis::new("Fares went up by 5% and then went down again.");
        for word in ["rose", "fell"] {
            assert!(a.vocabulary.contains(&form(word)), "{word}");
        }
        let a = Analysis::new(
            "The games were pushed back a year; the rocket lifted off and Bloomsbury brought out \
             the novel.",
        );
        for word in ["postponed", "launched", "released"] {
            assert!(a.vocabulary.contains(&form(word)), "{word}");
        }
        // Without its particle the verb is itself.
        let a = Analysis::new("They set the table and turned the page.");
        assert!(!a.vocabulary.contains(&form("established")));
        assert!(a.vocabulary.contains(&form("turn")));
    }

    #[test]
    fn dates_in_brackets_after_a_name_say_when_the_person_was_born_and_died() {
        let says = |text: &str| {
            let a = Analysis::new(text);
            ["born", "died"].map(|w| a.vocabulary.contains(&normalise(w).form))
        };
        assert_eq!(
            says("Isobel Marrick (14 March 1861 \u{2013} 2 October 1934) was an engineer."),
            [true, true]
        );
        assert_eq!(
            says("Ada Merrow (1901\u{2013}1988) founded the firm."),
            [true, true]
        );
        assert_eq!(says("Ada Merrow founded the firm in 1975."), [false, false]);
        assert_eq!(
            says("The mill (rebuilt in 1784) ground corn."),
            [false, false]
        );
    }

    #[test]
    fn an_opener_is_a_name_when_the_page_says_so_or_no_dictionary_holds_it() {
        let named = |text: &str, page_name: bool, page_lower: bool| {
            let mut a = Analysis::new(text);
            a.name_opener(|_| page_name, |_| page_lower);
            a.entities.iter().any(|e| e.span.start == 0)
        };
        assert!(named("Rents rose by 9%.", true, false));
        assert!(!named("Rents rose by 9%.", false, false));
        assert!(named("Dornvik lies on the plain.", false, false));
        // The page writes it in lower case: a word of some language, not a name.
        assert!(!named("Dornvik lies on the plain.", false, true));
        assert!(!named("Charging took 47 minutes.", false, false));
    }

    #[test]
    fn entities_are_capitalised_runs_without_sentence_openers() {
        let table: &[(&str, &[&str])] = &[
            (
                "The Austrian scientist Karl von Frisch decoded the dance.",
                &["Austrian", "Karl von Frisch"],
            ),
            (
                "It lost that title in 1930 to the Chrysler Building in New York.",
                &["Chrysler Building", "New York"],
            ),
            ("Visitors can climb the steps in May.", &[]),
            ("The Harbour Line opened on Monday.", &["Harbour Line"]),
            (
                "Its founding members were AWS, Google, Huawei, Microsoft and Mozilla.",
                &["AWS", "Google", "Huawei", "Microsoft", "Mozilla"],
            ),
            ("Myth 1: Dark roasts have more caffeine", &[]),
            (
                "Lisbon's Tram 28 passes through Gra\u{e7}a.",
                &["Tram 28", "Gra\u{e7}a"],
            ),
            // Issue 18: a number inside a name keeps the name whole.
            (
                "It beat the Varo X15 Ultra's Snapdragon 8 Gen 3 by 11%.",
                &["Varo X15 Ultra's", "Snapdragon 8 Gen 3"],
            ),
            ("In 2019 the Nova 3 Pro sold well.", &["Nova 3 Pro"]),
        ];
        for (text, expected) in table {
            assert_eq!(entity_texts(text), *expected, "{text}");
        }
    }

    #[test]
    fn negation_scopes_end_at_the_clause() {
        let a =
            Analysis::new("Drones have no sting and do not collect food; their role is to mate.");
        let scoped: Vec<Vec<String>> = a
            .cues
            .iter()
            .map(|c| a.forms[c.scope.clone()].iter().flatten().cloned().collect())
            .collect();
        assert_eq!(
            scoped,
            vec![
                vec!["sting".to_string()],
                vec!["collect".into(), "food".into()]
            ]
        );
    }

    /// The content words under `text`'s cues of the given kinds.
    fn words_denied(text: &str, kinds: &[CueKind]) -> Vec<String> {
        let a = Analysis::new(text);
        a.cues
            .iter()
            .filter(|c| kinds.contains(&c.kind))
            .flat_map(|c| a.forms[c.scope.clone()].iter().flatten().cloned())
            .filter(|f| !is_stopword(f))
            .collect()
    }

    #[test]
    fn every_alias_word_names_a_group() {
        for alias in ALIASES.iter().flat_map(|group| group.iter()) {
            let lead = alias.chars().next();
            assert!(lead.is_some_and(|c| ALIAS_LEADS.contains(c)), "{alias}");
        }
        assert_eq!(alias_word_forms().len(), ALIAS_WORDS.len());
        assert_eq!(alias_group("the United Kingdom's"), alias_group("Britain"));
        assert_eq!(alias_group("U.S."), alias_group("the United States"));
        assert_eq!(alias_group("France"), None);
        assert_eq!(alias_group("the EU"), alias_group("European Union"));
        assert_eq!(alias_group("UAE"), alias_group("the United Arab Emirates"));
        assert_eq!(
            alias_group("The Pentagon's"),
            alias_group("United States Department of Defense")
        );
        assert_ne!(alias_group("Pentagon"), None);
    }

    #[test]
    fn a_german_text_is_told_from_an_english_one() {
        let german = Analysis::new(
            "Bayer Leverkusen gewann 2024 erstmals die deutsche Meisterschaft und beendete eine \
             Serie von elf Titeln.",
        );
        assert!(german.capitalises_nouns());
        assert!(Analysis::new(
            "Die Stadt ist mit dem Fahrrad und der Bahn gut erreichbar, sagte sie."
        )
        .capitalises_nouns());
        // "died", "death" and "MIT" are no German words.
        assert!(!Analysis::new(
            "Wernher von Braun, who advised MIT until his death, died in 1977 and is buried \
             in Alexandria; den mothers die too."
        )
        .capitalises_nouns());
    }

    #[test]
    fn verbs_that_deny_what_follows_are_negations() {
        let negated_words = |text: &str| {
            words_denied(
                text,
                &[
                    CueKind::Negation,
                    CueKind::Halt,
                    CueKind::Refusal,
                    CueKind::Rejection,
                ],
            )
        };
        assert_eq!(
            negated_words("The paper stopped printing on Sundays in 2019."),
            ["print", "sunday"]
        );
        assert_eq!(
            negated_words("The club failed to qualify for Europe, but it kept its manager."),
            ["qualify", "europ"]
        );
        assert_eq!(
            negated_words("Mayor Hale refused to sign the order."),
            ["sign", "order"]
        );
        assert_eq!(
            negated_words("The mayor ruled out a run for governor next year."),
            ["run", "governor", "next", "year"]
        );
        // A proposal turned down did not happen.
        assert_eq!(
            negated_words(
                "The council rejected, by nine votes to four, a proposal to contribute funds."
            ),
            ["contribut", "fund"]
        );
        assert_eq!(
            negated_words("It rejected a motion that would have made the ban permanent."),
            ["mak", "ban", "permanent"]
        );
        // A proposal that is only mentioned near a rejection is not turned down.
        assert!(negated_words("The board rejected claims of bias in its plan.").is_empty());
        // To lack something is not to have it.
        assert!(!negated_words("The phone lacks a headphone jack.").is_empty());
        // "Has yet to" denies that the act has happened; "yet" elsewhere denies nothing.
        assert_eq!(
            negated_words("He has yet to score for his country."),
            ["scor", "country"]
        );
        assert!(negated_words("Sales rose, yet profits fell to a low.").is_empty());
        assert!(negated_words("He scored, yet to little effect.").is_empty());
        // A fall to a value and a stop at a place deny nothing.
        assert!(negated_words("Sales declined to 4% of revenue.").is_empty());
        assert!(negated_words("The train stopped at Aldmoor.").is_empty());
        // In a relative clause the verb is about the noun it describes.
        assert!(negated_words("The mayor, who refused to sign, lost the vote.").is_empty());
    }

    #[test]
    fn a_comparison_s_arm_ends_at_its_comma_wherever_the_sentence_starts() {
        let negated_words = |text: &str| words_denied(text, &[CueKind::Negation]);
        // The second sentence of a pair opens with its comparison as the first does.
        assert_eq!(
            negated_words(
                "The bank left its rate at 2.5%. Unlike the Bank of Orland, it does not publish \
                 the votes."
            ),
            ["releas", "vot"]
        );
        // A parenthetical ", unlike the old command," ends at its comma.
        assert_eq!(
            negated_words(
                "It was replaced by check, which, unlike the old command, makes no attempt to \
                 recover rows."
            ),
            ["attempt", "recover", "row"]
        );
        // Without the comma the comparison runs on, as before.
        assert!(negated_words("The new one works unlike the old one, which did not.").is_empty());
    }

    #[test]
    fn a_comparison_s_arm_ends_where_a_clause_with_its_own_subject_opens() {
        let negated_words = |text: &str| words_denied(text, &[CueKind::Negation]);
        // Round thirty-nine (tramway-12).
        assert_eq!(
            negated_words(
                "It has cost more than any of us wanted, and I apologise for that without \
                 reservation."
            ),
            ["reservation"]
        );
        // Without a subject of its own the arm runs on, as before.
        assert!(negated_words(
            "It is faster than the old model, and than rivals that do not use the chip."
        )
        .is_empty());
    }

    #[test]
    fn a_negation_of_what_a_check_is_meant_to_find_denies_nothing() {
        let negated_words = |text: &str| words_denied(text, &[CueKind::Negation]);
        // Round forty (glen-11).
        assert!(negated_words(
            "It also lent the team two thermal cameras, used to check that volunteers were not \
             missing females hidden in long grass."
        )
        .is_empty());
        // A check with a denial of its own after it, or a purpose that is ensured, denies.
        assert!(!negated_words("Inspectors checked the dam and it did not leak.").is_empty());
        assert!(!negated_words("Staff make sure the pumps do not run dry.").is_empty());
        // A plain denial after a check is still one.
        assert_eq!(
            negated_words("The team checked the verges. Volunteers did not find any females."),
            ["find", "femal"]
        );
    }

    #[test]
    fn a_conjunction_opening_the_text_is_no_name() {
        let mut a = Analysis::new("Whereas the novel is narrated by Will, the film is not.");
        a.name_opener(|_| false, |_| false);
        assert!(
            a.entities.iter().all(|e| e.text != "Whereas"),
            "{:?}",
            a.entities
        );
        // A coined word opening the text still is.
        let mut a = Analysis::new("Veskstad is the capital.");
        a.name_opener(|_| false, |_| false);
        assert!(
            a.entities.iter().any(|e| e.text == "Veskstad"),
            "{:?}",
            a.entities
        );
    }

    #[test]
    fn a_bound_on_a_span_of_time_is_no_compared_arm() {
        let a = Analysis::new("It was first written down more than a century after the battle.");
        let century = a.quantities.iter().find(|q| q.text.contains("century"));
        assert!(century.is_some_and(|q| !a.aside[q.span.start]));
    }

    #[test]
    fn a_compared_value_or_group_is_set_aside_and_no_more() {
        let negated = |text: &str| !Analysis::new(text).cues.is_empty();
        // After a value compared with, the sentence's own negation stands.
        assert!(negated(
            "Naps shorter than half an hour were not associated with any increase in risk."
        ));
        // A group set against a figure carries its own description.
        assert!(!negated(
            "Of the long nappers, 5.9% developed heart failure, against 4.1% of people who \
             never napped."
        ));
        // "Against" before a word is no comparison of figures.
        assert!(negated(
            "The council voted against the plan and did not fund it."
        ));
    }

    #[test]
    fn else_makes_a_uniqueness_only_right_after_its_pronoun() {
        let negated = |text: &str| !Analysis::new(text).cues.is_empty();
        assert!(negated(
            "Its leader said the party had no interest in propping up anyone else."
        ));
        assert!(!negated("No one else has won the race three times."));
        assert!(!negated("Nobody else had held the post before her."));
    }

    #[test]
    fn no_one_who_outdoes_a_name_makes_it_the_one_that_does() {
        let negated = |text: &str| !Analysis::new(text).cues.is_empty();
        assert!(!negated(
            "No Orland player, man or woman, has won more singles titles than Torvell."
        ));
        assert!(negated(
            "No Orland player won a title in 2024. Torvell won more than Ralle."
        ));
    }

    #[test]
    fn what_a_thing_is_mistaken_for_is_named_not_denied() {
        let negated = |text: &str| !Analysis::new(text).cues.is_empty();
        assert!(!negated(
            "The bird it is most often mistaken for is the hooded sand plover."
        ));
        assert!(negated("The hoverfly is often mistaken for a wasp."));
    }

    #[test]
    fn double_denials_and_look_alikes_are_no_negation() {
        let negated = |text: &str| {
            let a = Analysis::new(text);
            a.cues
                .iter()
                .flat_map(|c| a.forms[c.scope.clone()].iter().flatten().cloned())
                .filter(|f| !is_stopword(f))
                .collect::<Vec<String>>()
        };
        assert!(negated("The club has never failed to qualify for Europe.").is_empty());
        assert!(negated("The rover did not stop working until 2018.").is_empty());
        assert!(negated("Production stopped during the war.").is_empty());
        assert!(negated("Membership declined to its lowest level in 2019.").is_empty());
        assert!(negated("The reader did not once fail to recognise us.").is_empty());
        assert_eq!(negated("The minister declined to comment."), ["comment"]);
        assert_eq!(negated("The bridge has not yet opened."), ["open"]);
    }

    #[test]
    fn a_negation_that_affirms_the_act_is_no_negation() {
        let cues = |text: &str| Analysis::new(text).cues.len();
        // It happened, later: "not until".
        assert_eq!(cues("It was not until the 87th minute that he scored."), 0);
        assert_eq!(cues("The bridge did not open till 1902."), 0);
        assert_eq!(cues("The stern was not found for another 23 years."), 0);
        assert_eq!(
            cues("The mine did not reopen for a further two decades."),
            0
        );
        // Uniqueness: the subject is the one that does it, or the first that did.
        assert_eq!(cues("No other river crosses as many countries."), 0);
        assert_eq!(cues("No woman had been a member before Marrick."), 0);
        assert_eq!(cues("Nobody else has won it twice."), 0);
        // Before a date, "not ... before" says when at the earliest (round thirty-three,
        // aurelle-11); a plain "not ... before" still denies the act before that time.
        assert_eq!(
            cues("The first pair will now not arrive before February 2027."),
            0
        );
        assert_eq!(cues("The bridge will not open before 2028."), 0);
        assert_eq!(cues("The line won't open earlier than 3 March 2030."), 0);
        assert_eq!(cues("He did not score before his 30th birthday."), 1);
        assert_eq!(cues("Smith did not score before 2010."), 1);
        assert_eq!(
            cues("The law does not apply to contracts signed before 2020."),
            1
        );
        assert_eq!(cues("The band will not play before 2000 people."), 1);
        assert_eq!(cues("No woman has been a member."), 1);
        assert_eq!(cues("The river does not cross other countries."), 1);
        // A span of time with no act in it is a denial.
        assert_eq!(cues("The firm paid no dividend for ten years."), 1);
        assert_eq!(cues("He did not play for another club."), 1);
    }

    #[test]
    fn part_of_a_name_is_mentioned_as_a_name_or_with_the() {
        let claim = Analysis::new("The album came out on Tidewrack Records in April 2019.");
        let label = &claim.entities[0];
        assert_eq!(label.text, "Tidewrack Records");
        let common = Analysis::new("It was a record made for £6,000 in a fortnight.");
        assert!(!common.mentions(label));
        assert!(Analysis::new("Records of the session survive.").mentions(label));
        assert!(Analysis::new("Tidewrack signed them in 2018.").mentions(label));
        let lake = Analysis::new("Lake Baikal is the deepest lake in the world.");
        let baikal = &lake.entities[0];
        assert!(Analysis::new("In winter the lake freezes over.").mentions(baikal));
        assert!(!Analysis::new("In winter a lake freezes over.").mentions(baikal));
    }

    #[test]
    fn a_person_s_surname_mentions_the_full_name() {
        let claim = Analysis::new("In 1750 Johann Sebastian Bach died in Leipzig.");
        let bach = &claim.entities[0];
        assert_eq!(bach.text, "Johann Sebastian Bach");
        assert!(Analysis::new("In Leipzig, where Bach died, he was cantor.").mentions(bach));
        // Not a kind of place or body sharing only its kind word.
        let claim = Analysis::new("In 1931 the Empire State Building opened.");
        let empire = &claim.entities[0];
        assert!(!Analysis::new("In 1930 the Chrysler Building opened.").mentions(empire));
    }

    #[test]
    fn no_before_a_figure_is_the_abbreviation_of_number() {
        let cues = |text: &str| Analysis::new(text).cues.len();
        assert_eq!(cues("The week's No 1 was their fourth album."), 0);
        assert_eq!(cues("It reached No. 34 in the chart."), 0);
        assert_eq!(cues("No album sold more copies that week."), 1);
    }

    #[test]
    fn contrasts_and_denials_are_cues() {
        let a = Analysis::new("It uses haemocyanin rather than haemoglobin, like squid.");
        assert_eq!(a.cues.len(), 1);
        assert_eq!(a.cues[0].kind, CueKind::Contrast);
        let a = Analysis::new("Myth 3: Coffee dehydrates you");
        assert_eq!(a.cues[0].kind, CueKind::Denial);
        assert!(Analysis::new("It isn't blue.").cues.len() == 1);
    }

    #[test]
    fn acronyms_match_the_names_they_stand_for() {
        let page = Analysis::new("according to the US Food and Drug Administration.");
        let claim = Analysis::new("According to the FDA, adults can drink coffee.");
        let fda = claim
            .entities
            .iter()
            .find(|e| e.text == "FDA")
            .expect("FDA");
        assert!(page.names(fda));
        let back = page
            .entities
            .iter()
            .find(|e| e.text.contains("Drug"))
            .expect("the agency");
        assert!(claim.names(back));
    }

    #[test]
    fn a_verb_of_placing_before_its_preposition_is_not_content() {
        let a = Analysis::new("The Eiffel Tower is located in Paris.");
        assert!(!a.content.iter().any(|(f, _)| f.starts_with("locat")));
        let a = Analysis::new("Police located the suspect in Paris.");
        assert!(a.content.iter().any(|(f, _)| f.starts_with("locat")));
    }

    #[test]
    fn unit_words_are_not_content() {
        let a = Analysis::new("Water boils at 100 degrees Celsius at sea level.");
        let content: Vec<&str> = a.content.iter().map(|(f, _)| f.as_str()).collect();
        assert_eq!(content, vec!["water", "boil", "sea", "level"]);
    }
}
