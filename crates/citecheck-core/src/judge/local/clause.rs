//! Clauses and their subjects (pure): which clause of a sentence a claim is about when the
//! sentence sets two subjects side by side ("rents in Brackenford rose by 11%, while wages in
//! the town grew by 4%"; "Hollin Dam was completed in 1934; Scarrow Dam followed in 1961").
//! A claim's number or negation is read in the clause bound to the claim, so that the other
//! clause's figure neither supports it nor stands aside when it differs.

use super::analyse::{Analysis, Entity};
use super::compare;
use super::facts;
use super::lex::{LexKind, Lexeme};
use super::lexicon;
use super::numbers::Measure;

/// Words that open a new clause by themselves.
const OPENERS: &[&str] = &["but", "while", "whereas", "although", "though", "yet"];

/// Words after which a noun is a place, a time or an object rather than a clause's subject.
pub(super) const PREPOSITIONS: &[&str] = &[
    "in", "at", "on", "for", "by", "of", "from", "to", "with", "after", "before", "during",
    "since", "over", "under", "into", "than", "against", "like", "across", "within", "per",
];

/// Pronouns and auxiliaries after which a clause without a subject of its own has started on
/// its act: a name after them is what the act is done to (see [`about_else`]).
const GOES_ON: &[&str] = &[
    "he", "she", "they", "it", "we", "do", "was", "were", "is", "are", "has", "had", "have",
    "will", "would",
];

/// A text cut into clauses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clauses {
    /// The clause of each lexeme.
    of: Vec<usize>,
    /// Each clause's subject: its first content word that no preposition governs; `None` when
    /// a pronoun comes first ("in Aldmoor it was £29,400"), as the subject is then the one
    /// named before.
    subjects: Vec<Option<String>>,
    /// Each clause's sentence, counted from 0: a pair of sentences weighed as one holds two.
    sentences: Vec<usize>,
}

impl Clauses {
    /// Breaks at ";", at sentence ends, at "but", "while", "whereas" and the like, and at ", and".
    pub fn split(
        lexemes: &[Lexeme<'_>],
        lowers: &[String],
        forms: &[Option<String>],
        content: impl Fn(&str) -> bool,
    ) -> Clauses {
        let mut of: Vec<usize> = Vec::with_capacity(lexemes.len());
        let mut subjects: Vec<Option<String>> = vec![None];
        let mut sentences: Vec<usize> = vec![0];
        // Whether the current clause's subject is settled (found, or a pronoun came first).
        let mut settled = false;
        // A sentence end seen: the next lexeme opens a clause.
        let mut ended = false;
        // The lexeme that set `ended` closed a sentence, not only a clause (";").
        let mut was_end = false;
        let mut previous_word: Option<&str> = None;
        for (i, (lexeme, lower)) in lexemes.iter().zip(lowers).enumerate() {
            let lower = lower.as_str();
            let after_comma = i.checked_sub(1).is_some_and(|p| lexemes[p].text == ",");
            let before = i.checked_sub(1).map(|p| lexemes[p].text.to_lowercase());
            // "not yet", "for a while", "all but" are no new clauses.
            let idiom = matches!(
                (before.as_deref(), lower),
                (Some("not" | "never"), "yet") | (Some("a"), "while") | (Some("all"), "but")
            );
            let opens = (OPENERS.contains(&lower) && !idiom) || (lower == "and" && after_comma);
            // A clause opens only after one with something in it ("But ..." starts the first).
            if (opens || ended) && !of.is_empty() {
                let sentence = sentences.last().copied().unwrap_or(0);
                sentences.push(if ended && was_end {
                    sentence + 1
                } else {
                    sentence
                });
                subjects.push(None);
                settled = false;
                previous_word = None;
            }
            ended = matches!(lexeme.text, ";" | "." | "!" | "?");
            was_end = matches!(lexeme.text, "." | "!" | "?");
            of.push(subjects.len() - 1);
            if lexeme.kind != LexKind::Word || opens {
                continue;
            }
            let clause = subjects.len() - 1;
            if !settled {
                // "..., and returned to vulnerable in 2021": a clause that opens on its verb
                // shares the subject named before, as one that opens on a pronoun does.
                let opened_by_conjunction = previous_word.is_none()
                    && i.checked_sub(1)
                        .is_some_and(|p| matches!(lowers[p].as_str(), "and" | "but" | "yet"));
                if lexicon::ANAPHORS.contains(&lower)
                    || (opened_by_conjunction && facts::is_verb(lexemes, lowers, i))
                {
                    settled = true;
                } else if let Some(form) = forms.get(i).and_then(|f| f.as_deref()) {
                    let governed = previous_word.is_some_and(|p| PREPOSITIONS.contains(&p));
                    if content(form) && !governed {
                        // An "-ing" word before a noun modifies it: "the training features
                        // ... work" is about the features, "the housing market" the market.
                        let head = lower
                            .ends_with("ing")
                            .then(|| i + 1)
                            .filter(|&n| {
                                lexemes.get(n).is_some_and(|l| {
                                    l.kind == LexKind::Word
                                        && !l.text.starts_with(char::is_uppercase)
                                }) && !facts::is_verb(lexemes, lowers, n)
                            })
                            .and_then(|n| forms.get(n).and_then(|f| f.as_deref()))
                            .filter(|f| content(f));
                        subjects[clause] = Some(head.unwrap_or(form).to_string());
                        settled = true;
                    }
                }
            }
            previous_word = Some(lower);
        }
        Clauses {
            of,
            subjects,
            sentences,
        }
    }

    /// Whether clauses `a` and `b` belong to one sentence.
    pub fn same_sentence(&self, a: usize, b: usize) -> bool {
        self.sentences.get(a).is_some() && self.sentences.get(a) == self.sentences.get(b)
    }

    /// How many clauses there are.
    pub fn count(&self) -> usize {
        self.subjects.len()
    }

    /// The clause lexeme `i` sits in.
    pub fn of(&self, i: usize) -> Option<usize> {
        self.of.get(i).copied()
    }

    /// Clause `c`'s subject.
    pub fn subject_of(&self, c: usize) -> Option<&str> {
        self.subjects.get(c).and_then(|s| s.as_deref())
    }

    /// The first clause's subject: for a claim, what it is about.
    pub fn subject(&self) -> Option<&str> {
        self.subjects.first().and_then(|s| s.as_deref())
    }
}

/// The clause of `sentence` that the claim is about, when the sentence has several and the
/// claim picks one out: by its subject, when the clauses have different subjects of their own
/// and only one is the claim's ("wages" against "rents ..., while wages ..."); else by a name
/// only one clause carries (the claim's subject's name if it has one, any of its names if
/// not: "in Aldmoor it was £29,400"). `None` when nothing tells the clauses apart.
pub fn bound(claim: &Analysis, sentence: &Analysis) -> Option<usize> {
    let clauses = &sentence.clauses;
    if clauses.count() < 2 {
        return None;
    }
    let subject = claim.clauses.subject();
    if let Some(subject) = subject {
        let own: Vec<usize> = (0..clauses.count())
            .filter(|&c| clauses.subjects[c].as_deref() == Some(subject))
            .collect();
        // Another clause's subject is a rival only if the claim does not use it at all: "that
        // run" in "Kipchoge ran 1:59:40, but that run used pacemakers" is still the claim's.
        let others = clauses
            .subjects
            .iter()
            .flatten()
            .any(|s| s != subject && !claim.vocabulary.contains(s));
        if own.len() == 1 && others {
            return Some(own[0]);
        }
    }
    let subject_name = claim
        .entities
        .iter()
        .find(|e| subject.is_some_and(|s| e.forms.iter().any(|f| f == s)));
    let names: Vec<&Entity> = match subject_name {
        Some(e) => vec![e],
        None => claim.entities.iter().collect(),
    };
    let in_clause = |e: &Entity, c: usize| e.forms.iter().all(|f| holds(sentence, c, f));
    let exclusive: Vec<usize> = (0..clauses.count())
        .filter(|&c| {
            names.iter().any(|e| {
                in_clause(e, c) && (0..clauses.count()).all(|d| d == c || !in_clause(e, d))
            })
        })
        .collect();
    match exclusive.as_slice() {
        [c] => Some(*c),
        _ => None,
    }
}

/// Whether the word at `at` of `text` sits in a clause that holds none of `other`'s figures,
/// while another clause of the same sentence holds two or more of them (years aside, which
/// date several clauses alike).
pub fn figures_elsewhere(text: &Analysis, other: &Analysis, at: usize) -> bool {
    let clauses = &text.clauses;
    let Some(own) = clauses.of(at) else {
        return false;
    };
    let mut held = vec![0usize; clauses.count()];
    for q in text
        .quantities
        .iter()
        .filter(|q| q.measure != Measure::Year)
    {
        if let Some(c) = clauses.of(q.at) {
            if other.quantities.iter().any(|p| compare::same(p, q)) {
                held[c] += 1;
            }
        }
    }
    // The denied clause gives figures of its own (the revenue forecast's "£560 million to £590
    // million") and a subject of its own: one that only sets the scene ("Tickets cost between
    // £12 and £15, but they are not refundable") goes on about the claim's thing.
    let own_figures = text.quantities.iter().any(|q| {
        q.measure != Measure::Year
            && clauses.of(q.at) == Some(own)
            && !other.quantities.iter().any(|p| compare::same(p, q))
    });
    held[own] == 0
        && own_figures
        && clauses.subject_of(own).is_some()
        && (0..clauses.count()).any(|c| c != own && held[c] >= 2 && clauses.same_sentence(own, c))
}

/// Whether clause `c` of `text` holds the word `form`.
pub(super) fn holds(text: &Analysis, c: usize, form: &str) -> bool {
    text.forms
        .iter()
        .enumerate()
        .any(|(i, f)| f.as_deref() == Some(form) && text.clauses.of(i) == Some(c))
}

/// Whether clause `c` of `sentence` is about something other than the claim: its subject is
/// a word the claim never uses (and it does not name the claim's subject elsewhere), or its
/// first name is one the claim does not mention. Only such a clause's figure, negation or
/// opposite word is set aside for the clause the claim is bound to; a clause that goes on
/// about the same subject ("...; its mission was declared over in 2019") still speaks for the
/// claim.
pub fn about_else(claim: &Analysis, sentence: &Analysis, c: usize) -> bool {
    let clauses = &sentence.clauses;
    let rival_subject = clauses
        .subject_of(c)
        .is_some_and(|s| !claim.vocabulary.contains(s));
    // A clause that still names the claim's subject goes on about it under another head ("...,
    // and the increase in rents reached 9%" for a claim about rents).
    let names_claim_subject = claim
        .clauses
        .subject()
        .is_some_and(|s| holds(sentence, c, s));
    // The clause's first name leads it: another than the claim's ("Aldmoor council refused
    // ..."; "the west coast, facing the Atlantic, ...") makes it about something else, a name
    // further on ("... into Morvane Sound at Portaskel") does not. Nor does a place after a
    // preposition that a pronoun subject stands before in the clause: "he added six more in Rio
    // to finish with 28" goes on about "he", while "£96.40 in Kestrel Bay; in Millbrook it
    // cost £88.10" and "highest in Quayside and lowest in Marsh End" set places apart.
    let after_pronoun = |e: &Entity| {
        let before = (0..e.span.start)
            .rev()
            .map(|i| sentence.form(i))
            .find(|f| *f != Some("the"))
            .flatten();
        let placed = matches!(
            before,
            Some("in" | "at" | "on" | "from" | "to" | "into" | "near" | "across" | "outside")
        );
        placed
            && (0..e.span.start).any(|i| {
                clauses.of(i) == Some(c)
                    && matches!(sentence.form(i), Some("he" | "she" | "they" | "it" | "we"))
            })
    };
    // A day or a month ("Friday's arson attack") dates the clause; it leads nothing.
    let date_word = |e: &&Entity| {
        e.forms.iter().all(|f| {
            lexicon::WEEKDAYS.contains(&f.as_str()) || lexicon::MONTHS.contains(&f.as_str())
        })
    };
    // A clause without a subject of its own goes on about the one before ("..., but did not
    // win, losing out to Colson Whitehead's novel"): a name after its pronoun or its auxiliary
    // is what the act is done to, and leads nothing.
    let goes_on = |e: &Entity| {
        clauses.subject_of(c).is_none()
            && (0..e.span.start).any(|i| {
                clauses.of(i) == Some(c) && sentence.form(i).is_some_and(|f| GOES_ON.contains(&f))
            })
    };
    let rival_name = sentence
        .entities
        .iter()
        .filter(|e| !date_word(e))
        .find(|e| clauses.of(e.span.start) == Some(c))
        .filter(|e| !after_pronoun(e) && !goes_on(e))
        .is_some_and(|e| !claim.mentions(e));
    (rival_subject && !names_claim_subject) || rival_name
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bound_to(claim: &str, sentence: &str) -> Option<usize> {
        bound(&Analysis::new(claim), &Analysis::new(sentence))
    }

    #[test]
    fn clauses_break_at_conjunctions_and_semicolons_and_know_their_subjects() {
        let a =
            Analysis::new("Rents in Leeford rose by 9%, while salaries in the city grew by 2%.");
        assert_eq!(a.clauses.subjects[0].as_deref(), Some("rent"));
        assert_eq!(a.clauses.subjects[1].as_deref(), Some("salary"));
        let a = Analysis::new("Pay in Orton reached £30,000, whereas in Wexley it was £26,000.");
        assert_eq!(a.clauses.subjects[1], None, "a pronoun subject refers back");
        let a = Analysis::new(
            "The plover was listed as vulnerable in 1994, and returned to vulnerable in 2021.",
        );
        assert_eq!(a.clauses.count(), 2);
        assert_eq!(
            a.clauses.subjects[1], None,
            "a clause led by its verb refers back"
        );
        let a = Analysis::new("Rents rose by 9%, and wages grew by 2%.");
        assert!(
            a.clauses.subjects[1].is_some(),
            "a noun after \"and\" leads its own clause"
        );
        // An "-ing" word before a noun modifies it: the noun is the subject.
        let a = Analysis::new(
            "The training features work without any subscription, but the adaptive plans \
             now sit behind Coach+.",
        );
        let features = Analysis::new("features");
        assert_eq!(a.clauses.subjects[0], features.forms[0], "{:?}", a.clauses);
        let a = Analysis::new("The training ended in June.");
        assert_eq!(a.clauses.subjects[0], Analysis::new("training").forms[0]);
    }

    #[test]
    fn the_claim_picks_the_clause_of_its_subject_or_of_its_only_name() {
        let split = "Rents in Leeford rose by 9%, while salaries in the city grew by 2%.";
        assert_eq!(bound_to("Salaries in Leeford grew by 9%.", split), Some(1));
        assert_eq!(bound_to("Rents in Leeford went up by 9%.", split), Some(0));
        let pronoun = "Pay in Orton reached £30,000, whereas in Wexley it was £26,000.";
        assert_eq!(
            bound_to("Median pay in Wexley reached £30,000.", pronoun),
            Some(1)
        );
        let dams = "Tarn Dam was finished in 1931; Fell Dam followed in 1958.";
        assert_eq!(bound_to("Fell Dam was finished in 1931.", dams), Some(1));
        assert_eq!(bound_to("Tarn Dam was finished in 1931.", dams), Some(0));
        // One clause, or nothing that tells them apart: no binding.
        assert_eq!(
            bound_to("Tarn Dam cost £2 million.", "Tarn Dam cost £2 million."),
            None
        );
        assert_eq!(
            bound_to("Prices rose.", "Prices rose in May, and they fell in June."),
            None
        );
        // A clause whose subject the claim itself uses is no rival: the name binds the claim
        // to the first clause, but the second still speaks of the claim's subject.
        let same = Analysis::new("Ann ran 2:01:09 in Leeds, but that run was wind-assisted.");
        let claim = Analysis::new("Ann's 2:01:09 run in Leeds was wind-assisted.");
        assert_eq!(bound(&claim, &same), Some(0));
        assert!(!about_else(&claim, &same, 1));
    }

    #[test]
    fn a_clause_is_about_something_else_by_its_subject_or_its_names() {
        let claim = Analysis::new("Salaries in Leeford grew by 9%.");
        let split =
            Analysis::new("Rents in Leeford rose by 9%, while salaries in the city grew by 2%.");
        assert!(about_else(&claim, &split, 0));
        assert!(!about_else(&claim, &split, 1));
        let claim = Analysis::new("The rover's mission was declared over in 2019.");
        let going_on =
            Analysis::new("The rover stopped in June 2018; its mission was declared over in 2019.");
        assert!(
            !about_else(&claim, &going_on, 1),
            "a pronoun goes on about the claim's subject"
        );
        let claim = Analysis::new("Rents in Leeford rose by 9% in 2020.");
        let increase = Analysis::new(
            "Rents in Leeford rose by 4% in 2019, and the increase in rents reached 9% in 2020.",
        );
        assert!(
            !about_else(&claim, &increase, 1),
            "another head, the same subject"
        );
        let claim = Analysis::new("The Tarran Water flows south into Morvane Sound.");
        let river = Analysis::new(
            "The Tarran Water rises below Ben Tarran, and flows north into Morvane Sound at Ness.",
        );
        assert!(!about_else(&claim, &river, 1), "led by the claim's name");
        let claim = Analysis::new("The ferry docks on the west coast.");
        let coast =
            Analysis::new("The ferry docks on the east coast; the west coast, facing the Atlantic, has no harbour.");
        assert!(about_else(&claim, &coast, 1), "led by another name");
        let claim = Analysis::new("Phelps finished his career with 28 medals.");
        let games = Analysis::new(
            "Phelps left London with 22 medals, and he added six more in Rio to finish with 28.",
        );
        let later = games.clauses.of(games.forms.len() - 2);
        assert!(
            later.is_some_and(|c| !about_else(&claim, &games, c)),
            "a place after the clause's pronoun subject leads nothing"
        );
        let claim = Analysis::new("A 27-year-old man was arrested over the arson attack.");
        let arrest = Analysis::new(
            "Police arrested a 27-year-old man in connection with Friday's arson attack, while \
             a 19-year-old woman was released.",
        );
        assert!(!about_else(&claim, &arrest, 0), "a day leads no clause");
        let claim = Analysis::new("The basket cost £96.40 in Millbrook.");
        let towns =
            Analysis::new("The basket cost £96.40 in Kestrel Bay; in Millbrook it cost £88.10.");
        assert!(about_else(&claim, &towns, 0), "a place set against another");
    }
}
