//! Claim against one sentence (pure): how much of the claim the sentence covers, and whether
//! the slots that can flip a statement (numbers, negation, named entities) agree.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::fmt::Write as _;
use std::sync::OnceLock;

use super::analyse::{is_acronym, is_title, Analysis, Break, Cue, CueKind, Entity};
use super::anchor::{self, anchored, anchored_by_words, close, number_fit, opens};
use super::attribution;
use super::clause;
use super::compare::{self, NumberFit};
use super::lex::{fold, forms_of, is_stopword};
use super::lexicon::{self, Bound, Dimension};
use super::numbers::{self, tally_pairs, Measure, Quantity};
use super::opposite;
use super::pairing;
use super::placing;
use super::prospect;
use super::sequence;
use super::swap;
use super::{comparison, rank, roles};

/// Credit for a claim word found only in the sentence's context (the sentence before it, the
/// section heading, a table's header row): it resolves "it" and "they" without letting the
/// context carry the claim.
pub const CONTEXT_CREDIT: f64 = 0.5;
/// Credit for a word of a claim's name that the sentence leaves out but the passages name
/// elsewhere: a review or a report names its subject in the title and first lines and then
/// writes "the chassis weighs 1.32 kg" or "revenue rose 9%". The same as context, so the page's
/// subject resolves the sentence's implicit one without carrying the claim.
pub const TOPIC_CREDIT: f64 = CONTEXT_CREDIT;
/// Credit for a word that only shares a stem prefix ("construct"/"construction").
pub const PARTIAL_CREDIT: f64 = 0.8;
/// How many of the claim's words after a possessive name may be what the name owns.
const OWNED_WORDS: usize = 3;

/// Coverage, the conflicting name's words included, a sentence needs before a replaced name
/// can contradict the claim.
pub const ENTITY_FLOOR: f64 = 0.5;
/// Share of the claim's own words (names and numbers aside) a sentence must state before a
/// number in it can contradict the claim's. Set on the development set, where it removed one
/// supported citation called contradicted (a year of another event) and no true contradiction
/// up to 0.5; kept at the low end.
pub const PREDICATE_FLOOR: f64 = 0.4;
/// Share of a negated claim's own words a sentence without that negation must state before
/// it contradicts the claim: a claim that denies something is contradicted by a sentence that
/// states what it denies, not by one that only names what it is about ("Neither of the two
/// members who voted to hold called for an increase" against "Two members voted to keep the
/// rate at 4%"). Set on the development set, where 0.5 for every flipped polarity cost five
/// true contradictions and this, for the claim's side only, none.
pub const NEGATED_CLAIM_PREDICATE_FLOOR: f64 = 0.5;
/// The alignment of a claim with one sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct Alignment {
    /// Share of the claim's content words the sentence (or its context) covers, in `[0, 1]`.
    pub coverage: f64,
    /// Coverage without the credit the page's subject lends ([`Topic`]): what a support must
    /// beat a contradiction by, since the contradiction's strength has no such credit.
    pub plain_coverage: f64,
    /// Coverage without the words of the conflicting entity, when there is one.
    pub rest_coverage: f64,
    pub numbers: Vec<NumberFit>,
    pub claim_negated: bool,
    pub sentence_negated: bool,
    /// The claim's word of direction whose opposite the sentence sets in its place ("rose"
    /// against "fell"): a flip of polarity like a negation.
    pub reversed: Option<String>,
    /// The claim's entity and the sentence's entity standing in its place.
    pub entity_conflict: Option<(String, String)>,
    /// What `coverage` is the weighted share of, item by item: lets a reader of meaning
    /// (`soft`) credit a word the sentence states in other words.
    pub items: Vec<Credit>,
    /// How many of the claim's telling quantities the sentence states as they are: a figure
    /// with a unit, a currency or a percentage, or a count above a dozen; not a year, a day or
    /// a small count ("two years"), which many sentences share by chance.
    pub telling_numbers: usize,
    /// One of the numbers that conflict is a year: the sentence may be about another occasion.
    pub year_conflict: bool,
    /// The claim's superlative ("the oldest surviving mill") that neither the sentence nor its
    /// context states: a rank is a claim of its own, which no amount of shared words makes.
    pub rank_unstated: Option<String>,
    /// The claim's act that the sentence has only in prospect ("was in talks to move" for
    /// "will move"): see `prospect`.
    pub prospect: Option<String>,
}

/// Whether `s` opens its sentence with a common noun of a numbered series followed by a
/// number of `c`'s ("Version 2.0" against "Tern 2.0", "Stage 9" against "Tour 9"): the number
/// says which one, and the noun is capitalised only as the sentence's first word.
fn numbered_kind_of(s: &Entity, c: &Entity) -> bool {
    if s.span.start != 0 {
        return false;
    }
    // Read off the written words: a name's number has no normalised form.
    let words = |e: &Entity| {
        e.text
            .split_whitespace()
            .map(str::to_lowercase)
            .collect::<Vec<_>>()
    };
    let (ours, theirs) = (words(c), words(s));
    let numbered = |w: &str| w.starts_with(|ch: char| ch.is_ascii_digit());
    matches!(theirs.as_slice(), [kind, number]
        if lexicon::NUMBERED_KINDS.contains(&kind.as_str())
            && numbered(number)
            && ours.contains(number)
            && !ours.contains(kind))
}

/// Whether `s` stands in apposition to a name of the sentence that the claim names: right
/// after it and a comma, and followed by a comma or the end ("Stage 2, Helm, takes ...").
fn apposed_to_claim_name(claim: &Analysis, sentence: &Analysis, s: &Entity) -> bool {
    let comma = |i: usize| sentence.breaks.get(i).copied().flatten() == Some(Break::Comma);
    let closed = s.span.end >= sentence.forms.len() || comma(s.span.end);
    closed
        && s.span.start.checked_sub(1).is_some_and(comma)
        && sentence
            .entities
            .iter()
            .any(|e| e.span.end + 1 == s.span.start && claim.names(e))
}

/// One item of the claim's coverage: a content word or a quantity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Credit {
    pub weight: f64,
    /// In `[0, 1]`.
    pub credit: f64,
    /// The credit without the lift of the page's subject ([`Topic`]): what a conflict's
    /// coverage counts.
    pub plain: f64,
    /// The claim lexeme of a content word that may be matched by meaning; `None` for a
    /// quantity or a word of a name, which must match as written.
    pub word: Option<usize>,
    /// Part of the slot the sentence flips (a conflicting number, the replaced name's words,
    /// the word stated the other way round): left out of the rest a conflict must cover.
    pub in_slot: bool,
}

impl Alignment {
    pub fn numbers_agree(&self) -> bool {
        self.numbers.iter().all(|n| {
            matches!(
                n,
                NumberFit::Match
                    | NumberFit::InContext
                    | NumberFit::Elsewhere
                    | NumberFit::NameOnly
            )
        })
    }

    pub fn number_conflict(&self) -> bool {
        self.numbers.contains(&NumberFit::Conflict)
    }

    pub fn polarity_differs(&self) -> bool {
        (self.claim_negated != self.sentence_negated) != self.reversed.is_some()
    }

    /// The sentence states the claim, given enough coverage.
    pub fn consistent(&self) -> bool {
        self.numbers_agree() && !self.polarity_differs() && self.entity_conflict.is_none()
    }

    /// What a candidate for support is ranked by: its coverage, behind every sentence that
    /// states the claim's rank when it leaves the rank out (it may still show that the page
    /// is not against the claim, but it cannot support it).
    pub fn support_key(&self) -> f64 {
        if self.leaves_out_a_qualifier() {
            self.coverage - 1.0
        } else {
            self.coverage
        }
    }

    /// The sentence leaves out what the claim asserts besides its words: its rank, or that its
    /// act is done or decided rather than in prospect.
    pub fn leaves_out_a_qualifier(&self) -> bool {
        self.rank_unstated.is_some() || self.prospect.is_some()
    }

    /// The sentence differs from the claim in a number only: no flipped polarity, no rival name.
    pub fn only_a_number_conflicts(&self) -> bool {
        self.number_conflict() && !self.polarity_differs() && self.entity_conflict.is_none()
    }

    /// The sentence states the same thing with a slot flipped, given enough coverage.
    pub fn conflicting(&self) -> bool {
        self.number_conflict() || self.polarity_differs() || self.entity_conflict.is_some()
    }

    /// How strongly the sentence contradicts the claim, in `[0, 1]`: the coverage of the rest of
    /// the claim when a slot is flipped. A name counts as standing in the claim entity's place
    /// only when it has the same shape (one word against one word, a full name against a full
    /// name: "Bremen" for "Hamburg", "Karl von Frisch" for "Konrad Lorenz"), or when the
    /// sentence is about the claim even without the name (coverage reaches [`ENTITY_FLOOR`]); a
    /// person's name against a lone place name is a sentence about something else.
    pub fn conflict_strength(&self) -> f64 {
        if !self.conflicting() {
            return 0.0;
        }
        // A number fills a slot of what happened: a year of another event ("wrote it in 1866"
        // against "premiered in 1867") is not the claim's, however many names they share.
        if self.only_a_number_conflicts() && self.predicate_coverage() < PREDICATE_FLOOR {
            return 0.0;
        }
        // Two slots flipped at once (a negated claim against a sentence that affirms with
        // another number: "failed to score in the last seven games" against "scored 24 goals")
        // is a sentence about another occasion: its strength is the coverage with both slots
        // counted as missing (the number and, for an opposite word, that word).
        if self.number_conflict() && self.polarity_differs() {
            // Another year and the other way: another occasion ("rejected in a 2020
            // referendum" against "approved in the 2022 referendum"), which gainsays nothing.
            if self.year_conflict {
                return 0.0;
            }
            return self.rest_coverage.min(self.plain_coverage);
        }
        if self.polarity_differs()
            && self.claim_negated
            && !self.sentence_negated
            && !self.number_conflict()
            && self.entity_conflict.is_none()
            && self.predicate_coverage() < NEGATED_CLAIM_PREDICATE_FLOOR
        {
            return 0.0;
        }
        // A denial in a sentence that leaves out the claim's rank denies something else: "found
        // nowhere else in the world" says nothing against "the deepest lake in the world".
        if self.polarity_differs()
            && self.reversed.is_none()
            && self.rank_unstated.is_some()
            && !self.number_conflict()
            && self.entity_conflict.is_none()
        {
            return 0.0;
        }
        if self.number_conflict() || self.polarity_differs() {
            return self.rest_coverage;
        }
        match &self.entity_conflict {
            Some((claim, page)) => {
                let single = |name: &str| name.split_whitespace().count() == 1;
                if single(claim) == single(page) || self.coverage >= ENTITY_FLOOR {
                    self.rest_coverage
                } else {
                    0.0
                }
            }
            None => 0.0,
        }
    }

    /// The weighted share of the claim's own words (not its names, not its numbers) that the
    /// sentence states: what it says happened, as opposed to whom or how much.
    pub fn predicate_coverage(&self) -> f64 {
        let (mut got, mut total) = (0.0, 0.0);
        for item in self.items.iter().filter(|i| i.word.is_some()) {
            got += item.weight * item.credit;
            total += item.weight;
        }
        if total > 0.0 {
            got / total
        } else {
            1.0
        }
    }

    /// `coverage=0.83 numbers=ok polarity=same entities=ok`
    pub fn describe(&self) -> String {
        let numbers = if self.numbers.is_empty() {
            "none"
        } else if self.number_conflict() {
            "conflict"
        } else if self.numbers.contains(&NumberFit::Elsewhere) && self.numbers_agree() {
            "elsewhere"
        } else if self.numbers_agree() {
            "ok"
        } else {
            "missing"
        };
        let mut text = format!(
            "coverage={:.2} rest={:.2} predicate={:.2} numbers={numbers} polarity={}",
            self.coverage,
            self.rest_coverage,
            self.predicate_coverage(),
            if self.polarity_differs() {
                "differs"
            } else {
                "same"
            }
        );
        match &self.entity_conflict {
            Some((claim, page)) => {
                let _ = write!(text, " entities=conflict({claim} vs {page})");
            }
            None => text.push_str(" entities=ok"),
        }
        if let Some(rank) = &self.rank_unstated {
            let _ = write!(text, " rank=unstated({rank})");
        }
        if let Some(act) = &self.prospect {
            let _ = write!(text, " act=in_prospect({act})");
        }
        text
    }
}

/// The words of the claim's names that the passages mention somewhere: what the page is about
/// (its title, its first lines), and so the implicit subject of its sentences.
#[derive(Debug, Clone, Default)]
pub struct Topic {
    forms: HashSet<String>,
    /// The words of each longer name the passages give one of the claim's names in ("Dorothy
    /// Mary Crowfoot Hodgkin" for "Hodgkin"): a person's fuller name, from which the page may
    /// take another part ("Dorothy Mary Crowfoot was born in Cairo").
    fuller: Vec<HashSet<String>>,
    /// Per quantity of the claim, whether a sentence of the passages states it, tied to the
    /// claim's words ([`NumberFit::Elsewhere`]).
    stated: Vec<bool>,
}

impl Topic {
    /// The forms of every name of `claim` that one of `texts` mentions. Only names: a common
    /// word found elsewhere on the page says nothing about what a sentence is about.
    pub fn of<'a>(claim: &Analysis, texts: impl IntoIterator<Item = &'a Analysis>) -> Topic {
        let texts: Vec<&Analysis> = texts.into_iter().collect();
        let forms = claim
            .entities
            .iter()
            .filter(|e| texts.iter().any(|t| t.mentions(e)))
            .flat_map(|e| e.forms.iter().cloned())
            .collect();
        let mut fuller: Vec<HashSet<String>> = Vec::new();
        for name in texts.iter().flat_map(|t| &t.entities) {
            let longer = claim.entities.iter().any(|c| {
                c.forms.len() < name.forms.len() && c.forms.iter().all(|f| name.forms.contains(f))
            });
            let words: HashSet<String> = name.forms.iter().cloned().collect();
            if longer && !fuller.contains(&words) {
                fuller.push(words);
            }
        }
        // A year or a date is left out: a page dates many events, and the claim's year found
        // beside one of its words elsewhere is more often another event's (the development
        // set gained 10 and 17 citations with them left out, 5 and 7 with them in). The
        // figure must stand beside a claim word other than the noun it counts ("will create
        // 300 jobs" states nothing of "cut 300 jobs"), in a sentence that gives no other
        // value of its kind ("budgeted at £200 million, but the bill came to £350 million").
        let stated = claim
            .quantities
            .iter()
            .map(|q| {
                !matches!(q.measure, Measure::Year | Measure::Day(_))
                    && texts.iter().any(|t| {
                        anchor::stated_beside_claim_words(claim, q, t)
                            && !rival_beside(claim, q, t)
                            && number_fit(claim, q, t, clause::bound(claim, t)) == NumberFit::Match
                    })
            })
            .collect();
        Topic {
            forms,
            fuller,
            stated,
        }
    }

    /// Whether `rival` is another part of a fuller name the page gives `name` in: the same
    /// one, not someone else in that one's place.
    fn part_of_fuller_name(&self, name: &Entity, rival: &Entity) -> bool {
        self.fuller.iter().any(|words| {
            name.forms.iter().all(|f| words.contains(f))
                && rival.forms.iter().all(|f| words.contains(f))
        })
    }

    /// The same topic without the figures stated elsewhere.
    pub fn without_stated(&self) -> Topic {
        Topic {
            stated: Vec::new(),
            ..self.clone()
        }
    }

    /// Whether a sentence of the passages states the claim's `k`th quantity.
    fn states(&self, k: usize) -> bool {
        self.stated.get(k).copied().unwrap_or(false)
    }

    fn holds(&self, form: &str) -> bool {
        self.forms.contains(form)
    }
}

/// Aligns `claim` with `sentence`; `context` lends partial credit for words the sentence leaves
/// to its surroundings, `topic` for the claim's names that the page is about.
pub fn align(
    claim: &Analysis,
    sentence: &Analysis,
    context: &[&Analysis],
    topic: &Topic,
    weights: &Weights,
) -> Alignment {
    // The clause the claim is about, when the sentence sets subjects side by side.
    let bound = clause::bound(claim, sentence);
    let mut numbers: Vec<NumberFit> = claim
        .quantities
        .iter()
        .enumerate()
        .map(|(k, q)| match number_fit(claim, q, sentence, bound) {
            NumberFit::Missing
                if context
                    .iter()
                    .any(|c| c.quantities.iter().any(|p| compare::same(q, p))) =>
            {
                NumberFit::InContext
            }
            NumberFit::Missing if q.identifier => NumberFit::NameOnly,
            NumberFit::Missing if topic.states(k) || year_of_dated_day(claim, q, sentence) => {
                NumberFit::Elsewhere
            }
            NumberFit::Missing
                if spans_years(q, sentence)
                    || years_apart(claim, q, sentence)
                    || years_between(claim, q, sentence)
                    || between_own_days(claim, q, sentence)
                    || age_at_death(claim, q, sentence)
                    || change_worked_out(claim, q, sentence)
                    || ratio_of_two(q, sentence)
                    || share_of_two(claim, q, sentence)
                    || sum_of_parts(claim, q, sentence)
                    || whole_of_two(claim, q, sentence)
                    || mean_of_two(claim, q, sentence)
                    || product_of_parts(claim, q, sentence)
                    || remainder_of(claim, q, sentence)
                    || remaining_share(claim, q, sentence)
                    || stated_difference(claim, q)
                        .is_some_and(|rising| difference_of_two(q, sentence, rising, false)) =>
            {
                NumberFit::Match
            }
            // A span the claim puts between two of its own years ("for half a century, ...
            // in 1972 and ... in 2022"), both of which the sentence states: another span there
            // ("five years before launch") is about something else.
            NumberFit::Conflict if between_own_years(claim, q, sentence) => NumberFit::Match,
            // Likewise a span between two of its own days ("just over five weeks, from 9
            // April to 16 May").
            NumberFit::Conflict if between_own_days(claim, q, sentence) => NumberFit::Match,
            NumberFit::Conflict if within_a_range(q, sentence) => NumberFit::Missing,
            // The claim's whole or average of two of the sentence's figures, one of which
            // would otherwise be its rival: the sentence states it by its parts.
            NumberFit::Conflict
                if whole_of_two(claim, q, sentence) || mean_of_two(claim, q, sentence) =>
            {
                NumberFit::Match
            }
            // The rival is the claim's value multiplied: the sentence's equal value, if any,
            // is the claim's.
            NumberFit::Conflict if multiplied_in_claim(claim, q, sentence) => {
                if sentence.quantities.iter().any(|p| compare::same(q, p)) {
                    NumberFit::Match
                } else {
                    NumberFit::Missing
                }
            }
            // The claim states a difference ("six decibels over the licence limit") that two
            // of the sentence's values make, one of which would otherwise be its rival.
            NumberFit::Conflict
                if stated_difference(claim, q)
                    .flatten()
                    .is_some_and(|rising| difference_of_two(q, sentence, Some(rising), true)) =>
            {
                NumberFit::Match
            }
            // Read exactly, as before bounds reached past themselves: a bound ("fewer than
            // 100 bikes") against two values that differ by less is still gainsaid.
            NumberFit::Conflict
                if difference_of_two(
                    &Quantity {
                        bound: None,
                        ..q.clone()
                    },
                    sentence,
                    None,
                    false,
                ) =>
            {
                NumberFit::Missing
            }
            NumberFit::Conflict if whole_of_a_share(claim, q, sentence) => NumberFit::Missing,
            // "The two sides conceded the same number": a small count after "the" or "both"
            // names a set the text already has in mind, and only a count of the same noun
            // gainsays it ("the three judges" against "five judges"), not a score or a total.
            NumberFit::Conflict
                if definite_count(claim, q)
                    && !sentence.quantities.iter().any(|p| p.measure == q.measure) =>
            {
                NumberFit::NameOnly
            }
            // A share two of the sentence's amounts make ("about three-quarters of the 318p
            // offer is paid in cash" against "240p in cash and 0.05 of a new share ..., worth
            // 318p in total") is stated, whatever other figure stands beside them.
            // Not against a share the sentence gives itself ("up 9%" against "a 19% rise").
            NumberFit::Conflict
                if !sentence
                    .quantities
                    .iter()
                    .any(|p| numbers::is_percent(&p.measure))
                    && share_of_two(claim, q, sentence) =>
            {
                NumberFit::Match
            }
            NumberFit::Conflict if year_before_named(claim, q, sentence) => NumberFit::Missing,
            fit => fit,
        })
        .collect();
    fit_tallies(claim, sentence, &mut numbers);
    // Another model of the claim's name ("the RTX 4090 launched at $1,599" against "the RTX
    // 4080 launched at $1,199"), or another year with another figure ("1.81 million vehicles
    // in 2023" against "1.31 million in 2022"): the sentence is about another thing or
    // occasion, and none of its figures gainsays the claim's.
    // Only a model that names the claim's subject (nothing but names and articles before it)
    // makes it another thing: "stabilised with Rust 1.82" against "with Rust 1.85" is the
    // claim's slot. Only a year that dates the figure beside it makes another occasion.
    let conflicts: Vec<&Quantity> = claim
        .quantities
        .iter()
        .zip(&numbers)
        .filter(|(_, fit)| **fit == NumberFit::Conflict)
        .map(|(q, _)| q)
        .collect();
    let in_subject = |q: &Quantity| {
        (0..q.span.start.saturating_sub(1)).all(|i| {
            matches!(claim.form(i), None | Some("the" | "a" | "an"))
                || claim.entities.iter().any(|e| e.span.contains(&i))
        })
    };
    // A model's name that the sentence carries on with a word the claim does not have ("the
    // iPhone 15 Pro" for "the iPhone 15", "Galaxy S24 Ultra" for "Galaxy S24") names another
    // model of the line.
    let model_name = |e: &Entity| {
        claim
            .quantities
            .iter()
            .any(|q| q.identifier && e.span.contains(&q.at))
    };
    let variant_named = claim.entities.iter().filter(|c| model_name(c)).any(|c| {
        sentence.entities.iter().any(|s| {
            s.forms.len() > c.forms.len()
                && s.forms.starts_with(&c.forms)
                && s.forms[c.forms.len()..]
                    .iter()
                    .all(|f| !claim.vocabulary.contains(f))
        })
    });
    // So does another size or spec in the subject's place ("the 13-inch MacBook Air" for "the
    // 15-inch MacBook Air").
    let other_model = variant_named
        || conflicts
            .iter()
            .any(|q| (q.identifier || q.compound) && in_subject(q));
    // No "and", "but" or "or" of the claim between two of its figures.
    let not_joined = |y: &Quantity, v: &Quantity| {
        let (from, to) = (y.span.end.min(v.span.end), y.span.start.max(v.span.start));
        (from..to).all(|i| !matches!(claim.form(i), Some("and" | "but" | "or")))
    };
    let dates = |y: &Quantity, v: &Quantity| close(&y.span, &v.span) && not_joined(y, v);
    // So does the claim's figure, or another of its kind, that the sentence gives beside
    // another year only ("48,000 applications for fall 2023" against "48,000 applications for
    // fall 2024"; "16.9 million passengers in 2022, and cargo in 2023" against "18.4 million
    // passengers in 2023"): the page says nothing of the claim's year.
    let dated_elsewhere = |y: &Quantity, v: &Quantity| {
        let dating = |p: &Quantity, r: &Quantity| {
            r.measure == Measure::Year
                && r.span != p.span
                && anchor::dates(sentence, &r.span, &p.span)
        };
        sentence.quantities.iter().any(|p| {
            (compare::same(v, p) || compare::same_slot(v, p, false))
                && sentence.quantities.iter().any(|r| dating(p, r))
                && !sentence
                    .quantities
                    .iter()
                    .any(|r| dating(p, r) && compare::same(y, r))
        })
    };
    // A year and a figure of one clause of the claim flipped together ("According to the 2011
    // census, it had about 2,500 residents" against "According to the 2001 census, it had
    // 2,215") are another occasion's, however far apart the claim writes them.
    let one_clause = |y: &Quantity, v: &Quantity| {
        claim.clauses.of(y.span.start) == claim.clauses.of(v.span.start) && not_joined(y, v)
    };
    let other_occasion = conflicts.iter().any(|y| {
        y.measure == Measure::Year
            && claim.quantities.iter().any(|v| {
                let flipped_too = conflicts.iter().any(|c| std::ptr::eq(*c, v));
                v.measure != Measure::Year
                    && (dates(y, v) || (flipped_too && one_clause(y, v)))
                    && (flipped_too
                        // A day of the month is part of the year's date, not a figure of
                        // another occasion ("31 January 2020").
                        || (!matches!(v.measure, Measure::Day(_))
                            && anchor::dates(claim, &y.span, &v.span)
                            && dated_elsewhere(y, v)))
            })
    });
    // Another item of a series the claim counts ("his 14th title" for "his first title").
    let other_item = rank::other_item(claim, sentence);
    let numbers = if other_model || other_occasion || other_item {
        set_aside_conflicts(numbers)
    } else {
        numbers
    };
    // A comparison the sentence's two figures decide: its comparative is stated, or flipped.
    let figures = comparison::by_figures(claim, sentence);
    // The claim's numbers count like its words: a shared number is strong evidence of alignment.
    // A name the page is about that classifies a noun ("the CORVAL-MEM study") is what a
    // sentence opening on "The study" is about: its words are the sentence's.
    let opening_noun = match sentence.forms.as_slice() {
        [Some(article), Some(noun), ..] if matches!(article.as_str(), "the" | "this") => {
            Some(noun.as_str())
        }
        _ => None,
    };
    let referred_by_noun: Vec<&Entity> = claim
        .entities
        .iter()
        .filter(|e| e.forms.iter().all(|f| topic.holds(f)))
        .filter(|e| opening_noun.is_some() && e.modifies.as_deref() == opening_noun)
        .collect();
    let mut plain: Vec<(Item, f64)> = claim
        .content
        .iter()
        .enumerate()
        .map(|(k, (form, _))| {
            let credit = match &figures {
                Some((word, true)) if word == form => 1.0,
                _ if referred_by_noun.iter().any(|e| e.forms.contains(form)) => 1.0,
                _ => credit(claim, k, sentence, context),
            };
            (Item::Word(form.clone()), credit)
        })
        .collect();
    plain.extend(numbers.iter().enumerate().filter_map(|(k, fit)| {
        let credit = match fit {
            NumberFit::Match => 1.0,
            NumberFit::InContext => CONTEXT_CREDIT,
            NumberFit::Elsewhere | NumberFit::Conflict | NumberFit::Missing => 0.0,
            NumberFit::NameOnly => return None,
        };
        Some((Item::Number(k), credit))
    }));
    // The page's subject lifts a word of the claim's names the sentence leaves out. It helps a
    // sentence support the claim, not contradict it: a flipped slot counts only against a
    // sentence that names what the claim is about, or whose surroundings do (`plain`, without
    // it). Contradicted precision comes first, and the frozen test set lost it with topic
    // credit in the conflict's coverage (0.88 to 0.85).
    let credits: Vec<(Item, f64)> = plain
        .iter()
        .map(|(item, credit)| match item {
            Item::Word(form) if topic.holds(form) => (item.clone(), credit.max(TOPIC_CREDIT)),
            Item::Number(k) if numbers[*k] == NumberFit::Elsewhere => (item.clone(), TOPIC_CREDIT),
            _ => (item.clone(), *credit),
        })
        .collect();
    let mut coverage = share(&credits, weights, |_| true);

    // An opposite word, a comparison the other way round or a lower rank in the claim word's
    // place: a flip of polarity, like a negation.
    let reversed = opposite::reversed(claim, sentence, bound)
        .or_else(|| comparison::reversed(claim, sentence))
        .or_else(|| comparison::reversed_attribute(claim, sentence))
        .or_else(|| comparison::reversed_after_figure(claim, sentence))
        .or_else(|| sequence::reversed(claim, sentence))
        .or_else(|| comparison::against_superlative(claim, sentence))
        .or_else(|| figures.and_then(|(word, agrees)| (!agrees).then_some(word)))
        .or_else(|| rank::outranked(claim, sentence))
        .or_else(|| rank::ranked_first_instead(claim, sentence))
        .or_else(|| placing::misplaced(claim, sentence))
        .or_else(|| contrast_swapped(claim, sentence))
        .or_else(|| figures_swapped(claim, sentence))
        .or_else(|| swap::traded(claim, sentence))
        .or_else(|| split_vote(claim, sentence))
        .or_else(|| ordinal_swapped(claim, sentence))
        .or_else(|| still_but_died(claim, sentence));
    // The slot that conflicts is not part of the "rest" that must align: a conflicting name's
    // words, a number that conflicts, a word the sentence states the opposite of.
    let rest = |conflict: Option<&Entity>| {
        share(&plain, weights, |item| match item {
            Item::Word(form) => {
                conflict.is_none_or(|c| !c.forms.contains(form))
                    && reversed.as_deref() != Some(form.as_str())
            }
            Item::Number(k) => numbers[*k] != NumberFit::Conflict,
        })
    };
    // Of the claim's names the sentence replaces, the one whose removal leaves the best
    // alignment is the slot.
    let mut entity_conflict: Option<(&Entity, &Entity)> = None;
    let mut rest_coverage = rest(None);
    // A claim name the sentence's surroundings carry is what its "it" or "they" refers to, so
    // another name in a sentence with such a pronoun does not stand in its place.
    // A claim name in the possessive ("Greyburn's second drummer") that the page names is
    // what the sentence's "their" or "its" stands for ("Their first drummer, ...; his
    // successor, Joe Tamsin"). Not "his" or "her", which are as likely the claim's person's.
    let owner_referred = |c: &Entity| {
        possessive(c)
            && c.forms.iter().all(|f| topic.holds(f))
            && sentence
                .forms
                .iter()
                .flatten()
                .any(|f| matches!(f.as_str(), "their" | "its"))
    };
    // Any possessive pronoun stands for the claim's owner when it stands right before what the
    // claim says the owner owns: "her Low Tide at Wrenmouth" for "Marrable's 1952 painting Low
    // Tide at Wrenmouth".
    let owner_pronoun = |c: &Entity| {
        if !possessive(c) {
            return false;
        }
        let owned: Vec<&str> = claim.forms[c.span.end.min(claim.forms.len())..]
            .iter()
            .flatten()
            .map(String::as_str)
            .filter(|f| !is_stopword(f))
            .take(OWNED_WORDS)
            .collect();
        sentence.forms.windows(2).any(|pair| {
            matches!(pair[0].as_deref(), Some("his" | "her" | "their" | "its"))
                && pair[1].as_deref().is_some_and(|f| owned.contains(&f))
        })
    };
    // A claim name the sentence gives only in a comparison's other arm ("Reykjavík is the
    // northernmost capital, further north than Helsinki and Oslo" for "Oslo is the northernmost
    // capital") is what the sentence sets its subject against, not its subject.
    let only_compared = |c: &Entity| {
        // After "than" ("further north than Helsinki and Oslo"), not in a parallel clause
        // ("..., whereas Scarrow Dam is 27 metres high"), which states its own subject.
        let aside = |i: usize| sentence.aside.get(i).copied().unwrap_or(false);
        let arm = |e: &&Entity| {
            aside(e.span.start)
                && (0..e.span.start)
                    .rev()
                    .take_while(|&i| aside(i))
                    .any(|i| sentence.form(i) == Some("than"))
        };
        let named: Vec<&Entity> = sentence
            .entities
            .iter()
            .filter(|e| roles::same(e, c))
            .collect();
        !claim.comparative && !named.is_empty() && named.iter().all(arm)
    };
    let absent = |c: &&Entity| {
        let referred = sentence.anaphoric && context.iter().any(|x| x.mentions(c));
        only_compared(c)
            || !(sentence.mentions(c) || referred || owner_referred(c) || owner_pronoun(c))
    };
    // A name is no rival when the sentence gives it another title than the claim's: "the
    // first woman to reach the summit" is not "the first person to", however many words the
    // two share.
    // Read only when a claim name is missing, as for most sentences none is.
    // A name the claim sets aside ("in Norway rather than Sweden", "instead of Oslo") is what
    // the claim says is not the case: another name in its place agrees with the claim.
    let set_aside = |c: &&Entity| {
        claim
            .cues
            .iter()
            .any(|cue| cue.kind == CueKind::Contrast && cue.scope.contains(&c.span.start))
    };
    let absent_names: Vec<&Entity> = claim
        .entities
        .iter()
        .filter(absent)
        .filter(|c| !set_aside(c))
        .collect();
    // In German every noun is capitalised, so a capitalised word there is no rival name.
    let rivals_possible =
        !absent_names.is_empty() && !other_title(claim, sentence) && !claim.capitalises_nouns();
    for c in absent_names.into_iter().filter(|_| rivals_possible) {
        let replaced = sentence
            .entities
            .iter()
            .filter(|s| !claim.names(s))
            // A name the claim uses in part elsewhere ("Snapdragon" for "Snapdragon 8 Gen 3") is
            // the same name, not a rival; words shared only with the replaced name itself
            // ("Building" of "Empire State Building" against "Chrysler Building") do not count.
            // Nor do words the claim has only inside another, different name ("Toyota" of
            // "Toyota Motor Corporation" against "headquartered in Toyota City").
            .filter(|s| {
                let in_other_name = |f: &String| {
                    let holders = claim.entities.iter().filter(|e| e.forms.contains(f));
                    let mut holders = holders.peekable();
                    holders.peek().is_some() && holders.all(|e| !roles::same(e, s))
                };
                let shared = s
                    .forms
                    .iter()
                    .filter(|f| {
                        claim.vocabulary.contains(*f) && !c.forms.contains(f) && !in_other_name(f)
                    })
                    .count();
                shared < s.forms.len().div_ceil(2)
            })
            // An acronym set against a name that is not one ("GPU" against "Tessel Nova", "USB
            // C" against "Nova") is a part or a standard, not another maker or person: rivals
            // have the same shape.
            // A longer form of another of the claim's names ("the Tour of the Brack Valley"
            // for the claim's "the Tour") is that name, not a rival of this one.
            .filter(|s| {
                !claim.entities.iter().any(|other| {
                    !std::ptr::eq(other, c) && other.forms.iter().all(|f| s.forms.contains(f))
                })
            })
            .filter(|s| is_acronym(&s.text) == is_acronym(&c.text))
            // A numbered kind with the claim name's number ("Version 2.0" for "Tern 2.0") is
            // that thing named by its number.
            .filter(|s| !numbered_kind_of(s, c))
            // A name set off by commas right after one the claim names ("Stage 2, Helm,
            // takes three days") is that one's other name, in its place, not in another's.
            .filter(|s| !apposed_to_claim_name(claim, sentence, s))
            // Another part of the claim name's fuller form on the page (a birth name, a first
            // name) names the same one.
            .filter(|s| !topic.part_of_fuller_name(c, s))
            // A people's adjective ("their Dutch rider", "the Scottish bacteriologist") says
            // where someone is from: it stands in the place of a country, not of a race or a
            // person ("Dutch" is no rival of "Tour of the Brack Valley").
            .filter(|s| !is_demonym(s) || is_country(c))
            // An address ("Mill Street", "Harbour Road") stands only in the place of another
            // address: "offices on Mill Street" is no rival of the firm that has them.
            .filter(|s| is_address(s) == is_address(c))
            // A title alone ("the Queen", "the President") names whoever holds it: a name
            // without a title can be that person ("Elizabeth II reigned ..."); a name with
            // another title ("King Charles") is a rival.
            .filter(|s| !c.forms.iter().all(|f| is_title(f)) || s.forms.iter().any(|f| is_title(f)))
            // A name before a common noun ("his 24th Grand Slam title", "the Champions League
            // final") says which one; a person or a place elsewhere in the sentence ("Daniil
            // Medvedev", "Wembley Stadium") is no other one. "Jezero crater" is. A people's
            // adjective before its noun ("Romanian territory", "British prime minister") says
            // which country, so another country (or a one-word name) is its rival and a person
            // ("Margaret Thatcher") is not.
            .filter(|s| match &c.modifies {
                None => true,
                Some(_) if people_adjective(c) => is_country(s) || s.forms.len() == 1,
                Some(_) => s.modifies == c.modifies,
            })
            // A name in the other arm of a comparison is what the sentence sets against its
            // subject, so it cannot be the sentence saying the claim of someone else.
            .filter(|s| !sentence.aside.get(s.span.start).copied().unwrap_or(false))
            // Two names that each open their text are in one role, the subject's, however
            // long an apposition after the sentence's ("Rosalind Petherick, a retired teacher
            // who chairs the campaign, told the meeting" against "Priya Castellane told the
            // meeting"); below, such a rival still needs the sentence to say what the claim
            // says.
            // Another name of the claim name's kind ("the University of Brackenford" for
            // "Halvard University") stands in its place wherever it is, when the sentence uses
            // none of the claim name's own words ("Hubble was launched ... from Kennedy Space
            // Center" still says "Hubble").
            .find(|s| {
                anchored(claim, c, sentence, s, &numbers)
                    || (opens(claim, c) && opens(sentence, s))
                    || (sentence.names_another_of_its_kind(s, c)
                        && c.forms
                            .iter()
                            .all(|f| s.forms.contains(f) || !sentence.vocabulary.contains(f)))
            });
        // A name tied to the claim's place by a shared date or figure alone stands in it only
        // when the sentence states what the claim says happened: "served as president of the
        // United States from 2009" does not put the United States in the place of the Nobel
        // Peace Prize the claim says was awarded in 2009.
        let said_alike = || {
            let in_a_name = |form: &str| {
                claim.clauses.subject() == Some(form)
                    || claim
                        .entities
                        .iter()
                        .any(|e| e.forms.iter().any(|f| f == form))
            };
            share(
                &plain,
                weights,
                |item| matches!(item, Item::Word(form) if !in_a_name(form)),
            ) >= PREDICATE_FLOOR
        };
        let replaced =
            replaced.filter(|s| anchored_by_words(claim, c, sentence, s) || said_alike());
        if let Some(s) = replaced {
            let without = rest(Some(c));
            if entity_conflict.is_none() || without > rest_coverage {
                entity_conflict = Some((c, s));
                rest_coverage = without;
            }
        }
    }

    // The claim's names there, but another name in one of their roles around the claim's verb
    // ("LinkedIn acquired Microsoft" or "Google acquired Beats, outbidding Apple" against
    // "Microsoft acquired LinkedIn", "Apple acquired Beats"): see `roles`.
    if entity_conflict.is_none() {
        if let Some((c, s)) = roles::conflict(claim, sentence)
            .filter(|(c, s)| !numbered_kind_of(s, c))
            .or_else(|| rank::extreme_held_by_another(claim, sentence))
            .or_else(|| attribution::misattributed(claim, sentence))
            .or_else(|| pairing::traded(claim, sentence))
        {
            rest_coverage = rest(Some(c));
            entity_conflict = Some((c, s));
        }
    }

    // Another name as the sentence's subject where the claim's subject is, and another value
    // in its figure's slot: the sentence speaks of something else ("Holm has an area of 19
    // square kilometres" against "Esk has an area of 61"), and neither difference gainsays
    // the claim. A name replaced elsewhere ("designed by Jones in 1885" against "designed by
    // Smith in 1890", "The study, published in the Northern Journal, followed ... for three
    // years" against "The CORVAL-MEM study followed ... for five") still does, with its figure.
    let subject_replaced =
        entity_conflict.is_some_and(|(c, s)| opens(claim, c) && opens(sentence, s));
    let numbers = if subject_replaced && numbers.contains(&NumberFit::Conflict) {
        entity_conflict = None;
        rest_coverage = share(&plain, weights, |item| match item {
            Item::Word(form) => reversed.as_deref() != Some(form.as_str()),
            Item::Number(_) => true,
        });
        set_aside_conflicts(numbers)
    } else {
        numbers
    };

    // Nor does it lift the coverage that lets a rival of another shape (a place against a
    // person) count as replacing a name.
    let plain_coverage = share(&plain, weights, |_| true);
    if entity_conflict.is_some() {
        coverage = plain_coverage;
    }

    // Both deny one thing: their polarity agrees, whatever else either denies.
    let shared_denial = shared_denial(claim, sentence);
    let sentence_negated = shared_denial
        || negated(sentence, claim, bound, true, true)
        || denied_elsewhere_too(claim, sentence, bound);
    let in_name = |at: usize| claim.entities.iter().any(|e| e.span.contains(&at));
    let slot_name = entity_conflict.map(|(c, _)| c);
    let items = credits
        .iter()
        .zip(&plain)
        .map(|((item, credit), (_, plain))| match item {
            Item::Word(form) => Credit {
                weight: weights.of(form),
                credit: *credit,
                plain: *plain,
                word: claim
                    .content
                    .iter()
                    .find(|(f, _)| f == form)
                    .map(|(_, at)| *at)
                    .filter(|at| !in_name(*at)),
                in_slot: slot_name.is_some_and(|c| c.forms.contains(form))
                    || reversed.as_deref() == Some(form.as_str()),
            },
            Item::Number(k) => Credit {
                weight: weights.rare(),
                credit: *credit,
                plain: *plain,
                word: None,
                in_slot: numbers[*k] == NumberFit::Conflict,
            },
        })
        .collect();
    Alignment {
        coverage,
        plain_coverage,
        rest_coverage,
        items,
        claim_negated: shared_denial || negated(claim, sentence, None, false, sentence_negated),
        sentence_negated,
        reversed,
        entity_conflict: entity_conflict.map(|(c, s)| (c.text.clone(), s.text.clone())),
        telling_numbers: telling_matches(claim, sentence, &numbers),
        year_conflict: claim
            .quantities
            .iter()
            .zip(&numbers)
            .any(|(q, fit)| *fit == NumberFit::Conflict && q.measure == Measure::Year),
        rank_unstated: rank_unstated(claim, sentence, context),
        prospect: prospect::act_in_prospect(claim, sentence),
        numbers,
    }
}

/// The claim's "still" when the sentence says its subject has died ("Crime novelist Peter
/// Malloy, 81, is still writing" against "Peter Malloy ... died at his home in Galway on
/// Tuesday"): what someone still does, they no longer do. The claim's name before its "still"
/// must open the clause of the sentence's "died", and the sentence must say nothing "still".
fn still_but_died(claim: &Analysis, sentence: &Analysis) -> Option<String> {
    let at = claim
        .forms
        .iter()
        .position(|f| f.as_deref() == Some("still"))?;
    if claim.vocabulary.contains("die") || sentence.vocabulary.contains("still") {
        return None;
    }
    let person = claim.entities.iter().find(|e| e.span.end <= at)?;
    (0..sentence.forms.len())
        .filter(|&j| sentence.form(j) == Some("die"))
        .any(|j| {
            sentence
                .entities
                .iter()
                .find(|e| sentence.clauses.of(e.span.start) == sentence.clauses.of(j))
                .is_some_and(|e| e.span.end <= j && roles::same(e, person))
        })
        .then(|| "still".to_string())
}

/// The claim's "unanimous" when the sentence gives a split tally instead ("ruled 5-4", "voted
/// 7-2"), and no tally with nobody against: a split vote is no unanimous one.
fn split_vote(claim: &Analysis, sentence: &Analysis) -> Option<String> {
    let word = claim
        .forms
        .iter()
        .flatten()
        .find(|f| f.as_str() == "unanimous")?;
    if sentence.vocabulary.contains("unanimous") {
        return None;
    }
    let tallies: Vec<(f64, f64)> = tally_pairs(&sentence.quantities)
        .into_iter()
        .map(|(a, b)| (sentence.quantities[a].value, sentence.quantities[b].value))
        .collect();
    let split = |(a, b): &(f64, f64)| *a > 0.0 && *b > 0.0;
    (!tallies.is_empty() && tallies.iter().all(split)).then(|| word.clone())
}

/// The claim's word that a contrast sets aside while the sentence's contrast sets aside the
/// other arm: "treated with rest rather than surgery" against "Rather than rest it ..., she
/// chose surgery". Both deny something, so their polarity agrees, but not over the same thing.
/// A score or a tally ("won 3-1", "voted 7-2") is read as a whole against the sentence's:
/// the same two numbers (in either order: "lost 1-3") state it, and another score, when it is
/// the sentence's only one, conflicts with it in the numbers that differ. Read number by
/// number, "3-1" against "3-2" had two candidates for its 1 and conflicted with nothing.
fn fit_tallies(claim: &Analysis, sentence: &Analysis, numbers: &mut [NumberFit]) {
    let theirs = tally_pairs(&sentence.quantities);
    let values =
        |(a, b): (usize, usize)| (sentence.quantities[a].value, sentence.quantities[b].value);
    for (a, b) in tally_pairs(&claim.quantities) {
        let (x, y) = (claim.quantities[a].value, claim.quantities[b].value);
        let fits = |p: f64, q: f64| {
            if p == q {
                NumberFit::Match
            } else {
                NumberFit::Conflict
            }
        };
        if theirs
            .iter()
            .map(|&pair| values(pair))
            .any(|pair| pair == (x, y) || pair == (y, x))
        {
            numbers[a] = NumberFit::Match;
            numbers[b] = NumberFit::Match;
        } else if let [only] = theirs[..] {
            let (p, q) = values(only);
            numbers[a] = fits(x, p);
            numbers[b] = fits(y, q);
        }
    }
}

/// Two of the claim's figures that the sentence gives with each other's words after them
/// ("51 will be offered as shared ownership and 34 for social rent" against "51 will be for
/// social rent and 34 for shared ownership"): the figures are right and what they count is
/// swapped. Gives a word of the swapped label. Only figures that each match one figure of
/// the sentence, and labels that share no word with their own figure's label there.
fn figures_swapped(claim: &Analysis, sentence: &Analysis) -> Option<String> {
    // The content words after a figure, up to the next figure or break.
    let label = |text: &Analysis, q: &Quantity| -> Vec<String> {
        (q.span.end..text.forms.len())
            .take_while(|&i| {
                !text.quantities.iter().any(|p| p.span.contains(&i))
                    && text.breaks.get(i).copied().flatten().is_none()
                    && !matches!(text.form(i), Some("and" | "or" | "while" | "whereas"))
            })
            .filter_map(|i| text.form(i).filter(|f| text.is_content(f)))
            .take(SWAP_LABEL_WORDS)
            .map(str::to_string)
            .collect()
    };
    let sole_match = |q: &Quantity| {
        let mut matching = sentence.quantities.iter().filter(|p| compare::same(q, p));
        match (matching.next(), matching.next()) {
            (Some(p), None) => Some(p),
            _ => None,
        }
    };
    let shares = |a: &[String], b: &[String]| a.iter().find(|w| b.contains(w)).cloned();
    let figures: Vec<(&Quantity, &Quantity)> = claim
        .quantities
        .iter()
        .filter(|q| q.measure != Measure::Year && !q.identifier)
        .filter_map(|q| sole_match(q).map(|p| (q, p)))
        .collect();
    for (k, &(q1, p1)) in figures.iter().enumerate() {
        for &(q2, p2) in &figures[k + 1..] {
            if std::ptr::eq(p1, p2) || !compare::same_slot(q1, q2, false) {
                continue;
            }
            let (w1, w2) = (label(claim, q1), label(claim, q2));
            let (s1, s2) = (label(sentence, p1), label(sentence, p2));
            if shares(&w1, &s1).is_some() || shares(&w2, &s2).is_some() {
                continue;
            }
            if let (Some(word), Some(_)) = (shares(&w1, &s2), shares(&w2, &s1)) {
                return Some(word);
            }
        }
    }
    None
}

/// How many content words after a figure are read as what it counts, for
/// [`figures_swapped`].
const SWAP_LABEL_WORDS: usize = 4;

fn contrast_swapped(claim: &Analysis, sentence: &Analysis) -> Option<String> {
    let contrasted = |text: &Analysis| -> Vec<(String, usize)> {
        text.cues
            .iter()
            .filter(|c| c.kind == CueKind::Contrast)
            .flat_map(|c| c.scope.clone())
            .filter_map(|i| {
                text.form(i)
                    .filter(|f| text.is_content(f))
                    .map(|f| (f.to_string(), i))
            })
            .collect()
    };
    let (c, s) = (contrasted(claim), contrasted(sentence));
    if c.is_empty() || s.is_empty() {
        return None;
    }
    let outside = |text: &Analysis, set_aside: &[(String, usize)], word: &str| {
        text.forms
            .iter()
            .enumerate()
            .any(|(i, f)| f.as_deref() == Some(word) && !set_aside.iter().any(|(_, k)| *k == i))
    };
    // The claim sets aside a word the sentence keeps, and the sentence sets aside a word the
    // claim keeps, and none is set aside by both.
    let shared = c.iter().any(|(w, _)| s.iter().any(|(v, _)| v == w));
    let claim_kept_by_page = c.iter().find(|(w, _)| outside(sentence, &s, w));
    let page_kept_by_claim = s.iter().any(|(w, _)| outside(claim, &c, w));
    (!shared && page_kept_by_claim)
        .then(|| claim_kept_by_page.map(|(w, _)| w.clone()))
        .flatten()
}

/// Whether the sentence's year one before the claim's year `q` is the year the claim compares
/// with in words ("fell to £21.7 million in the first half of 2026 from £34.9 million a year
/// earlier" against "... down from £34.9 million in the same period of 2025"): the sentence
/// names the comparison's year and leaves the claim's own unstated.
fn year_before_named(claim: &Analysis, q: &Quantity, sentence: &Analysis) -> bool {
    const YEAR_BEFORE: &[&[&str]] = &[
        &["a", "year", "earlier"],
        &["a", "year", "before"],
        &["a", "year", "ago"],
        &["the", "previous", "year"],
        &["the", "year", "before"],
        &["last", "year"],
    ];
    if q.measure != Measure::Year {
        return false;
    }
    let words: Vec<&str> = (0..claim.forms.len())
        .filter_map(|i| claim.form(i))
        .collect();
    let compared = YEAR_BEFORE.iter().any(|phrase| {
        let phrase: Vec<String> = forms_of(phrase);
        words
            .windows(phrase.len())
            .any(|w| w.iter().zip(&phrase).all(|(a, b)| a == b))
    });
    compared
        && sentence
            .quantities
            .iter()
            .any(|y| y.measure == Measure::Year && y.value == q.value - 1.0)
        && !sentence
            .quantities
            .iter()
            .any(|y| y.measure == Measure::Year && y.value == q.value)
}

/// Whether the claim's value falls inside a range the sentence gives of the same kind
/// ("aged between 40 and 74", "from 20 to 30 metres"): the sentence neither states the value
/// nor gainsays it.
fn within_a_range(q: &Quantity, sentence: &Analysis) -> bool {
    sentence.quantities.windows(2).any(|pair| {
        let (low, high) = (&pair[0], &pair[1]);
        let joined = high.at == low.span.end + 1
            && matches!(
                sentence.form(low.span.end),
                Some("to" | "and" | "-" | "\u{2013}")
            );
        joined
            && compare::same_slot(q, low, true)
            && compare::same_slot(q, high, true)
            && low.value < q.value
            && q.value < high.value
    })
}

/// Whether `text` gives a value of the kind of the claim's `q` that no figure of the claim
/// accounts for: a rival beside the claim's figure.
fn rival_beside(claim: &Analysis, q: &Quantity, text: &Analysis) -> bool {
    text.quantities.iter().any(|p| {
        compare::same_slot(q, p, false) && !claim.quantities.iter().any(|c| compare::same(c, p))
    })
}

/// The fits with every conflict set aside as missing: the sentence speaks of another thing or
/// occasion, so its figures neither state the claim's nor gainsay them.
fn set_aside_conflicts(numbers: Vec<NumberFit>) -> Vec<NumberFit> {
    numbers
        .into_iter()
        .map(|fit| match fit {
            NumberFit::Conflict => NumberFit::Missing,
            fit => fit,
        })
        .collect()
}

/// Whether the claim's value is the difference between two of the sentence's values of its
/// kind ("the kit lens adds $300" against "with the kit lens for $1,699; the body alone costs
/// $1,399"): worked out from the sentence, not gainsaid by it. Years are left out: the time
/// between two years is `spans_years`'s, and a value less a difference the sentence gives
/// ("640 people, 40 more than in 2023") is the value before, another slot.
fn difference_of_two(
    q: &Quantity,
    sentence: &Analysis,
    rising: Option<bool>,
    compared_only: bool,
) -> bool {
    if q.measure == Measure::Year {
        return false;
    }
    let kin: Vec<&Quantity> = sentence
        .quantities
        .iter()
        .filter(|p| {
            p.measure != Measure::Year
                && !p.difference
                && (compare::comparable(&q.measure, &p.measure, false)
                    || points_between_shares(q, p))
                // The claim's own value less a sum far below rounding is that value again
                // ("$3.8bn" and "$79 a barrel"), not a difference worked out.
                && !compare::same(q, p)
        })
        .collect();
    // "roughly 400 mAh more": a hedged difference may be off by a hedge's share.
    let hedge = if q.hedged {
        q.value.abs() * compare::HEDGE_TOLERANCE
    } else {
        0.0
    };
    kin.iter().enumerate().any(|(k, a)| {
        kin[k + 1..].iter().any(|b| {
            // Points between two shares: only shares the sentence compares, and as written
            // ("from 38% to 36%" is two points, not anything within their rounding).
            let points = points_between_shares(q, a);
            if points && !compared_pair(sentence, a, b) {
                return false;
            }
            let tolerance = if points {
                q.tolerance + hedge
            } else {
                q.tolerance + a.tolerance + b.tolerance + hedge
            };
            // The first value given is the subject's, now ("£189, up from £159", "5,100 mAh,
            // where the old one had 4,700"), unless the two are a change "from a to b".
            let change = if anchor::change_from_to(sentence, a, b) {
                b.value - a.value
            } else {
                a.value - b.value
            };
            let direction_ok = match rising {
                Some(true) => change > 0.0,
                Some(false) => change < 0.0,
                None => true,
            };
            let compared = !compared_only || compared_pair(sentence, a, b);
            compared && direction_ok && fits_difference(q, change.abs(), tolerance)
        })
    })
}

/// Whether a difference worked out as `change` (within `tolerance`) is the claim's value `q`:
/// within the tolerance, or on the side of a bound and within [`SHARE_BOUND_REACH`] of it
/// ("just under 100 kg" for 96 kg; "more than 150" for 160, not for 600).
fn fits_difference(q: &Quantity, change: f64, tolerance: f64) -> bool {
    let reach = q.value * SHARE_BOUND_REACH;
    match q.bound {
        Some(Bound::AtMost) => {
            change < q.value + tolerance && change >= q.value - reach - tolerance
        }
        Some(Bound::AtLeast) => {
            change > q.value - tolerance && change <= q.value + reach + tolerance
        }
        _ => (change - q.value).abs() <= tolerance,
    }
}

/// Whether the sentence itself sets its two values `a` and `b` (in order) against each other as
/// a change or a comparison: "from a to b", "a, up from b", "a, compared with b", "a, against
/// b". Two values merely listed ("cost £30 in 2010 and costs £80 today") are not.
fn compared_pair(sentence: &Analysis, a: &Quantity, b: &Quantity) -> bool {
    anchor::change_from_to(sentence, a, b)
        || anchor::change_from_to(sentence, b, a)
        || anchor::measured_against(sentence, a, b)
        || anchor::measured_against(sentence, b, a)
        || set_against(sentence, b, 3)
}

/// Whether the claim's value `q` is what remains of a whole ("leaving it with just under 100
/// kg", "the remaining 30 staff") that the sentence marks as one, less a part of it of the same
/// kind ("It has used 214 kilograms of the 310 kilograms"). Two values the sentence merely
/// lists, or gives as a change, are no whole and part.
fn remainder_of(claim: &Analysis, q: &Quantity, sentence: &Analysis) -> bool {
    if !word_before(claim, q, |f| f == "left" || one_of(REMAINS, f)) || !amount(q) {
        return false;
    }
    sentence
        .quantities
        .iter()
        .filter(|w| amount(w) && marked_whole(sentence, w))
        .any(|whole| {
            sentence.quantities.iter().any(|part| {
                amount(part)
                    && part.value < whole.value
                    && compare::same_slot(part, whole, false)
                    && compare::comparable(&q.measure, &part.measure, false)
                    && fits_difference(
                        q,
                        whole.value - part.value,
                        q.tolerance + part.tolerance + whole.tolerance,
                    )
            })
        })
}

/// Whether the claim's year dates a day the sentence gives without one ("published on 4 March
/// 2027" against "published on 4 March"): a news page leaves its own year to its date line,
/// so the year is the page's to state, not the sentence's to gainsay.
fn year_of_dated_day(claim: &Analysis, q: &Quantity, sentence: &Analysis) -> bool {
    if q.measure != Measure::Year {
        return false;
    }
    let Some(day) = claim
        .quantities
        .iter()
        // "4 March 2027": the month's word may stand between the day's figure and the year.
        .find(|d| {
            matches!(d.measure, Measure::Day(_))
                && d.span.end <= q.span.start
                && q.span.start - d.span.end <= 1
        })
    else {
        return false;
    };
    sentence.quantities.iter().enumerate().any(|(k, d)| {
        d.measure == day.measure
            && d.value == day.value
            && sentence
                .quantities
                .get(k + 1)
                .is_none_or(|y| y.measure != Measure::Year || y.span.start > d.span.end)
    })
}

/// Whether the claim's ratio ("roughly seven times as many males", "three times higher") is
/// the one between two of the sentence's values of one kind ("4.3 males a night; those under
/// streetlamps caught 0.6"): the larger over the smaller, within the claim's rounding (and a
/// hedge's share, for a hedged ratio) and the two values' own. Years and shares of a whole
/// are left out.
fn ratio_of_two(q: &Quantity, sentence: &Analysis) -> bool {
    if !q.ratio || q.value <= 1.0 {
        return false;
    }
    let slack = own_slack(q);
    let kin: Vec<&Quantity> = sentence
        .quantities
        .iter()
        .filter(|p| {
            p.measure != Measure::Year
                && !p.difference
                && !p.identifier
                && !p.compound
                && p.value > 0.0
                && p.share.is_none()
        })
        .collect();
    kin.iter().enumerate().any(|(k, a)| {
        kin[k + 1..].iter().any(|b| {
            if !compare::same_slot(a, b, true) {
                return false;
            }
            let (big, small) = if a.value > b.value { (a, b) } else { (b, a) };
            // The ratio's range over the two values' rounding.
            let low = (big.value - big.tolerance) / (small.value + small.tolerance);
            let high = (big.value + big.tolerance) / (small.value - small.tolerance).max(1e-9);
            let (from, to) = (q.value - slack, q.value + slack);
            match q.bound {
                Some(Bound::AtLeast) => high > q.value,
                Some(Bound::AtMost) => low < q.value,
                _ => high >= from && low <= to,
            }
        })
    })
}

/// Whether the claim's share is the rest of a whole whose other shares the sentence gives
/// ("Pinot Meunier accounting for the remaining 16%" against "Chardonnay accounts for 46 per
/// cent ... and Pinot Noir for 38 per cent, with Pinot Meunier making up the rest"): a word of
/// remaining before it, and the sentence's shares and it adding up to the whole, within their
/// rounding and a hedge's slack.
fn remaining_share(claim: &Analysis, q: &Quantity, sentence: &Analysis) -> bool {
    if !word_before(claim, q, |f| f == "rest" || one_of(REMAINS, f)) || !is_plain_share(claim, q) {
        return false;
    }
    let shares: Vec<&Quantity> = sentence
        .quantities
        .iter()
        .filter(|p| numbers::is_percent(&p.measure) && !p.difference && p.bound.is_none())
        .collect();
    let hedge = if q.hedged {
        q.value * compare::HEDGE_TOLERANCE
    } else {
        0.0
    };
    let sum: f64 = shares.iter().map(|p| p.value).sum::<f64>() + q.value;
    let tolerance = q.tolerance + hedge + shares.iter().map(|p| p.tolerance).sum::<f64>();
    !shares.is_empty() && (sum - 100.0).abs() <= tolerance
}

/// Whether the claim's figure `q` is a small count of a noun after "the", "both", "these" or
/// "those" ("the two sides", "the three judges"): a set the text names, not a figure it states.
fn definite_count(claim: &Analysis, q: &Quantity) -> bool {
    matches!(q.measure, Measure::Noun(_))
        && q.value.fract() == 0.0
        && (2.0..=12.0).contains(&q.value)
        && q.bound.is_none()
        && matches!(
            claim.form_before(q.span.start, 1),
            "the" | "both" | "these" | "those"
        )
}

/// Whether the claim's share of something ("about a fifth of its normal April rainfall",
/// "close to three-quarters of the project's £5.4m bill", "nine-tenths full") is one of
/// the sentence's amounts over a larger one of the same kind: over a whole the sentence marks
/// as one ("against an average of 61 mm", "of the 310 kilograms", "in total"), or over a whole
/// the claim itself names after the share. The part must stand near a word of the claim, so
/// that another item of a list ("the council £4m and the lottery fund £1.4m") is not
/// taken for it, and two items of a list are never part and whole. Within the share's
/// rounding and a hedge's slack; a bound ("less than a fifth") holds on its side and within
/// [`SHARE_BOUND_REACH`] of the bound. Not a share the claim gives as a change ("cut by a
/// quarter", "grew 80%"), a rate or a chance ("taxed at 40%", "a 60% chance of rain").
fn share_of_two(claim: &Analysis, q: &Quantity, sentence: &Analysis) -> bool {
    let plain =
        is_plain_share(claim, q) || (numbers::is_percent(&q.measure) && past_a_mark(claim, q));
    if !plain || !shares_out(claim, q) {
        return false;
    }
    let tied = |p: &Quantity| {
        claim
            .content
            .iter()
            .any(|(form, _)| anchor::form_near(sentence, p, form))
    };
    let parts: Vec<&Quantity> = sentence.quantities.iter().filter(|p| amount(p)).collect();
    // Two items of a list ("Smith received 30,000 votes and Jones 50,000") are no part and
    // whole, unless the sentence marks the larger as a whole.
    let listed = |part: &Quantity, whole: &Quantity| {
        let (first, second) = if part.span.start < whole.span.start {
            (part, whole)
        } else {
            (whole, part)
        };
        (first.span.end..second.span.start).any(|i| {
            matches!(
                sentence.form(i),
                Some("and" | "or" | "while" | "whereas" | "but")
            )
        })
    };
    // The whole is the claim's own, named after the share, or one of the sentence's amounts.
    let claim_wholes: Vec<&Quantity> = claim
        .quantities
        .iter()
        .filter(|w| w.span.start >= q.span.end && amount(w))
        .collect();
    // The part stands near a word of the claim, or right before its whole that does ("229 of
    // the 1,207 in the placebo group").
    let joined = |part: &Quantity, whole: &Quantity| {
        whole.span.start >= part.span.end && whole.span.start <= part.span.end + 3
    };
    let fits = |part: &Quantity, whole: &Quantity| {
        (tied(part) || (joined(part, whole) && tied(whole))) && share_over(q, part, whole)
    };
    parts.iter().any(|part| {
        claim_wholes.iter().any(|whole| fits(part, whole))
            || parts.iter().any(|whole| {
                (marked_whole(sentence, whole) || !listed(part, whole)) && fits(part, whole)
            })
    })
}

/// Whether the claim's share is of something: "of" or "out of" after it ("a fifth of its
/// normal rainfall"), "full" ("nine-tenths full"), a share written "one in seven", or an
/// excess past a mark ("50% above its budget"); and no word of rate, chance or price stands
/// just before it ("taxed at 40%", "a 60% chance", "interest rate of 25%", "a 20%
/// discount").
fn shares_out(claim: &Analysis, q: &Quantity) -> bool {
    let after = claim.form(q.span.end);
    // "one in seven participants": a share of those it counts.
    let one_in = q.text.split_whitespace().any(|w| w == "in");
    let of = matches!(after, Some("of" | "full"))
        || (after == Some("out") && claim.form(q.span.end + 1) == Some("of"))
        || one_in
        || past_a_mark(claim, q);
    let rated = (q.span.start.saturating_sub(3)..q.span.start)
        .chain(q.span.end..q.span.end + 2)
        .any(|i| claim.form(i).is_some_and(|f| one_of(RATE_WORDS, f)));
    of && !rated
}

/// Whether the claim's figure `q` lies over or under a mark it names ("more than 50% above its
/// original budget"): as a share, the excess is that share of the mark.
fn past_a_mark(claim: &Analysis, q: &Quantity) -> bool {
    matches!(
        claim.form(q.span.end),
        Some("over" | "abov" | "below" | "under")
    ) && (q.span.end + 1..q.span.end + 5).any(|i| claim.form(i).is_some_and(|f| one_of(MARKS, f)))
}

/// Words that make a share a rate, a chance, a price cut or a yield rather than a part of a
/// whole, as folded forms or their starts.
const RATE_WORDS: &[&str] = &[
    "rate", "tax", "chance", "odds", "probabil", "likel", "discount", "off", "interest",
    "efficien", "convert", "yield", "return", "margin", "premium",
];

/// Whether the sentence marks its amount `p` as a whole or a reference another is measured
/// against: "of" ("of the 310 kilograms"), "against", "average" or a capacity ("a ground that
/// holds 12,400") just before it, or "in total" or "in all" after it.
fn marked_whole(sentence: &Analysis, p: &Quantity) -> bool {
    let before = (p.span.start.saturating_sub(3)..p.span.start).any(|i| {
        sentence.form(i).is_some_and(|f| {
            f == "of" || one_of(&["against", "averag", "total", "hold", "capacit"], f)
        })
    });
    let after = sentence.form(p.span.end) == Some("in")
        && matches!(sentence.form(p.span.end + 1), Some("total" | "all"));
    before || after
}

/// Whether the claim's value `q` is the whole of a share the claim gives before it and works
/// out from a part in the sentence ("roughly 40% of the reserve's £312,000 running costs"
/// against "Members and donors gave £128,000 of that"): the sentence's other amounts are
/// parts of that whole, not rivals of it. Not when the sentence gives a whole of its own that
/// differs ("£128,000 of the reserve's £350,000 running costs").
fn whole_of_a_share(claim: &Analysis, q: &Quantity, sentence: &Analysis) -> bool {
    let own_whole = sentence.quantities.iter().any(|w| {
        amount(w)
            && marked_whole(sentence, w)
            && compare::same_slot(q, w, false)
            && w.value > q.value * 0.5
            && !compare::same(q, w)
    });
    amount(q)
        && !own_whole
        && claim.quantities.iter().any(|share| {
            share.span.end <= q.span.start
                && is_plain_share(claim, share)
                && shares_out(claim, share)
                && sentence
                    .quantities
                    .iter()
                    .any(|part| amount(part) && share_over(share, part, q))
        })
}

/// Whether the claim's value `q` is the total it says it is of all of the claim's own figures
/// of its kind, each of which the sentence states ("came to roughly £2.3 million: £2.1 million
/// from the institute and £180,000 from the charity"). The claim must say it adds up (a word
/// of totalling, or the parts listed after a colon), so that a difference ("a profit of ...")
/// is not read as a sum; and the sentence's own figures that happen to add up are no parts.
/// Within the total's rounding and a hedge's slack.
fn sum_of_parts(claim: &Analysis, q: &Quantity, sentence: &Analysis) -> bool {
    if !amount(q) || q.bound.is_some() || !totals(claim, q) {
        return false;
    }
    let hedge = if q.hedged {
        q.value * compare::HEDGE_TOLERANCE
    } else {
        0.0
    };
    let of_its_kind = |p: &&Quantity| {
        !std::ptr::eq(*p, q) && amount(p) && p.measure == q.measure && p.value < q.value
    };
    let parts: Vec<&Quantity> = claim.quantities.iter().filter(of_its_kind).collect();
    let stated = |p: &&Quantity| sentence.quantities.iter().any(|s| compare::same(p, s));
    let sum: f64 = parts.iter().map(|p| p.value).sum();
    // The total rounds the sum of the parts as written: its own precision, not theirs added up
    // ("£3m, £2m and £1m" are no "£5m").
    let tolerance = q.tolerance + hedge;
    parts.len() >= 2 && parts.iter().all(stated) && (sum - q.value).abs() <= tolerance
}

/// Whether the claim's amount is the whole that two of the sentence's amounts of its measure
/// make up ("the survey's £5.3 million cost was met by the council, with a charity paying the
/// rest" against "the council provided £4.2 million ... and the charity paid the remaining
/// £1.1 million"), when the claim says that parts make it up: a word of totalling or of the
/// rest, and they are the sentence's only two. Within the whole's rounding and a hedge's
/// slack, as [`sum_of_parts`] reads it.
fn whole_of_two(claim: &Analysis, q: &Quantity, sentence: &Analysis) -> bool {
    if !amount(q) || q.bound.is_some() {
        return false;
    }
    // A word of the rest on the claim's own figure ("the remaining £5.3 million") makes it a
    // part, not the whole.
    let rest_word = |i: usize| {
        claim
            .form(i)
            .is_some_and(|f| f == "rest" || one_of(REMAINS, f))
    };
    if (q.span.start.saturating_sub(3)..q.span.start).any(rest_word) {
        return false;
    }
    let rest = (0..claim.forms.len()).any(rest_word);
    if !rest && !totals(claim, q) {
        return false;
    }
    let parts: Vec<&Quantity> = sentence
        .quantities
        .iter()
        .filter(|p| amount(p) && p.measure == q.measure && p.value < q.value)
        .collect();
    // The two must be all the sentence's parts: two of three ("£3m, £2m and £1m") that add
    // up to the claim's figure make no whole of it.
    match parts.as_slice() {
        [a, b] => (a.value + b.value - q.value).abs() <= own_slack(q),
        _ => false,
    }
}

/// Whether the claim's amount for each one ("averages a little over £7,000 per firm", "£7,000
/// each", "£90 a night") is one of the sentence's amounts of its measure shared out over one
/// of its counts ("paid £410,000 in compensation to 57 businesses", "£640 for the seven
/// nights"). A word of averaging or of each must stand by the claim's figure, or a rate whose
/// noun the sentence counts.
fn mean_of_two(claim: &Analysis, q: &Quantity, sentence: &Analysis) -> bool {
    if !amount(q) || !matches!(q.measure, Measure::Unit(_)) {
        return false;
    }
    let each = (q.span.start.saturating_sub(3)..q.span.end + 3)
        .any(|i| matches!(claim.form(i), Some("averag" | "per" | "each" | "apiec")));
    // "a little over £90 a night": the rate's noun, which must be what the sentence counts
    // ("£640 for the seven nights").
    let per = matches!(claim.form(q.span.end), Some("a" | "an" | "per"))
        .then(|| claim.form(q.span.end + 1))
        .flatten();
    if !each && per.is_none() {
        return false;
    }
    // A sentence that gives the amount for each itself ("at £25 each") has said it.
    let per_unit = sentence.quantities.iter().any(|p| {
        p.measure == q.measure
            && matches!(
                sentence.form(p.span.end),
                Some("each" | "apiec" | "a" | "an" | "per")
            )
    });
    if per_unit {
        return false;
    }
    let counts: Vec<&Quantity> = sentence
        .quantities
        .iter()
        .filter(|c| match (&c.measure, per) {
            (measure, _) if each => matches!(measure, Measure::Noun(_) | Measure::Bare),
            (Measure::Noun(noun), Some(per)) => noun == per,
            _ => false,
        })
        .filter(|c| amount(c) && c.value >= 2.0 && c.value.fract() == 0.0)
        .collect();
    let slack = own_slack(q);
    sentence
        .quantities
        .iter()
        .filter(|t| amount(t) && t.measure == q.measure && t.value > q.value)
        .any(|total| {
            counts.iter().any(|count| {
                let mean = total.value / count.value;
                match q.bound {
                    // "a little over £7,000": above it, within a rounding's reach.
                    Some(Bound::AtLeast) => {
                        mean >= q.value && mean <= q.value * (1.0 + compare::ROUNDING_CAP)
                    }
                    Some(Bound::AtMost) => {
                        mean <= q.value && mean >= q.value * (1.0 - compare::ROUNDING_CAP)
                    }
                    _ => (mean - q.value).abs() <= slack,
                }
            })
        })
}

/// Whether the claim says its value `q` is a total: a word of totalling in the claim ("in
/// total", "altogether", "combined", "came to", "amounted to"), or a colon right after the
/// value that opens its parts.
fn totals(claim: &Analysis, q: &Quantity) -> bool {
    let word = (0..claim.forms.len()).any(|i| {
        comes_to_at(claim, i)
            || match claim.form(i) {
                Some("in") => claim.form(i + 1) == Some("all"),
                Some(f) => one_of(&["combin"], f),
                None => false,
            }
    });
    word || matches!(claim.breaks.get(q.span.end), Some(Some(Break::Strong)))
}

/// Whether the claim's word at `i` says what figures come to: "came to", "comes to", "amounts
/// to", "total", "altogether".
fn comes_to_at(claim: &Analysis, i: usize) -> bool {
    match claim.form(i) {
        Some(f) if one_of(&["came", "come", "amount"], f) => claim.form(i + 1) == Some("to"),
        Some(f) => one_of(&["total", "altogether"], f),
        None => false,
    }
}

/// Whether "against", "versus" or "vs" stands within `reach` words before the figure `p`: what
/// the sentence sets it against.
fn set_against(sentence: &Analysis, p: &Quantity, reach: usize) -> bool {
    (p.span.start.saturating_sub(reach)..p.span.start)
        .any(|i| matches!(sentence.form(i), Some("against" | "versus" | "vs")))
}

/// Whether `q` is a share the claim states plainly, neither as a change ("cut by a quarter")
/// nor as a comparison, and below the whole.
fn is_plain_share(claim: &Analysis, q: &Quantity) -> bool {
    numbers::is_percent(&q.measure)
        && !q.difference
        && !q.ratio
        && q.value > 0.0
        && q.value < 100.0
        && stated_difference(claim, q).is_none()
}

/// An amount that may be a part or a whole of a share: a count or a measure, not a year, a
/// date, a time, an age, a share itself, nor a number of a name, a position or a tally. A
/// figure glued to its word ("240p") is one, against a figure glued to the same word only
/// ([`compare::same_slot`]).
fn amount(p: &Quantity) -> bool {
    p.measure != Measure::Year
        && !numbers::is_percent(&p.measure)
        && !matches!(
            p.measure,
            Measure::Day(_) | Measure::Clock(_) | Measure::Age
        )
        && !p.difference
        && !p.identifier
        && !p.position
        && !p.tally
        && p.value > 0.0
}

/// Whether `part` over `whole`, two amounts of one kind, is the share `q`: within the share's
/// rounding (and a hedge's slack) and the two amounts' own; a bound ("less than a fifth")
/// holds on its side and within [`SHARE_BOUND_REACH`] of the bound.
fn share_over(q: &Quantity, part: &Quantity, whole: &Quantity) -> bool {
    if part.value >= whole.value || !compare::same_slot(part, whole, false) {
        return false;
    }
    let slack = own_slack(q);
    // The share's range over the two values' rounding, in percent.
    let low = 100.0 * (part.value - part.tolerance) / (whole.value + whole.tolerance);
    let high = 100.0 * (part.value + part.tolerance) / (whole.value - whole.tolerance).max(1e-9);
    let reach = q.value * SHARE_BOUND_REACH;
    match q.bound {
        Some(Bound::AtLeast) => high > q.value && low <= q.value + reach + slack,
        Some(Bound::AtMost) => low < q.value && high >= q.value - reach - slack,
        _ => high >= q.value - slack && low <= q.value + slack,
    }
}

/// How far beyond a bound a worked-out share may lie, as a share of the bound: "less than a
/// fifth" for 18%, not for 2%.
const SHARE_BOUND_REACH: f64 = 0.25;

/// Whether the claim multiplies its value `q` by a ratio it states ("a population of around
/// 6,400 nearly quadruples in August") and the sentence gives the result ("in August the town
/// holds something like 25,000"): that figure is the value after the change, not a rival.
fn multiplied_in_claim(claim: &Analysis, q: &Quantity, sentence: &Analysis) -> bool {
    let ratios: Vec<f64> = claim
        .quantities
        .iter()
        // The claim's value is what is multiplied: it stands before the ratio ("6,400 nearly
        // quadruples"), not after it ("quadrupled to 400", the product).
        .filter(|r| r.ratio && q.span.end <= r.span.start)
        .map(|r| r.value)
        .collect();
    !ratios.is_empty()
        && q.value > 0.0
        && sentence.quantities.iter().any(|p| {
            p.measure != Measure::Year
                && !p.difference
                && ratios.iter().any(|r| {
                    let ratio = (p.value / q.value).max(q.value / p.value);
                    (ratio - r).abs() <= r * MULTIPLIED_SLACK
                })
        })
}

/// How far a value after a stated multiplying may be from the exact product, as a share of the
/// ratio: "nearly quadruples" for 6,400 to 25,000 (3.9 times).
const MULTIPLIED_SLACK: f64 = 0.15;

/// Words of a change upwards and downwards, as folded forms or their starts ("up", "down"
/// and "cut" are read whole): "rose by", "was reduced by".
const RISES: &[&str] = &[
    "rose", "risen", "rise", "grew", "grown", "grow", "increas", "climb", "rais", "jump", "widen",
    "surg", "soar", "deepen", "lengthen", "expand",
];
const FALLS: &[&str] = &[
    "fell", "fallen", "fall", "decreas", "drop", "reduc", "shrank", "shrunk", "slip", "lower",
    "narrow", "shorten",
];

/// Whether the folded form `f` is one of `words` (the word itself, or a form it starts).
fn one_of(words: &[&str], f: &str) -> bool {
    words.iter().any(|w| f.starts_with(w) || fold(w) == f)
}

/// The claim's value `q` as a difference it states, with its direction: a comparative after
/// it ("400 mAh more than", "£30 less than") or a change with "by" before it ("rose by about
/// 8,700", "was cut by £2m"). `Some(Some(true))` for more or a rise, `Some(Some(false))` for
/// less or a fall, `Some(None)` for a difference the claim gives no direction of; `None` when
/// the claim states no difference.
fn stated_difference(claim: &Analysis, q: &Quantity) -> Option<Option<bool>> {
    // Percentage points are a difference of two shares by their nature ("nine percentage
    // points lower").
    let points = matches!(&q.measure, Measure::Unit(u) if u.dimension == Dimension::Points);
    if q.difference || points {
        let after = [q.span.end, q.span.end + 1].into_iter().find_map(|i| {
            claim.form(i).and_then(|f| {
                if one_of(lexicon::MORE, f) {
                    Some(true)
                } else if one_of(lexicon::LESS, f) {
                    Some(false)
                } else {
                    None
                }
            })
        });
        return Some(after);
    }
    // A difference from a mark the claim names after the figure: "six decibels over the
    // licence limit", "140 metres below the top". A determiner must follow, so that an age
    // ("aged 18 and over") or a height above sea level is no difference.
    let past = match claim.form(q.span.end) {
        Some("over" | "abov" | "beyond") => Some(true),
        Some("below" | "under") => Some(false),
        Some("short") if claim.form(q.span.end + 1) == Some("of") => Some(false),
        _ => None,
    };
    if let Some(up) = past {
        let mark = if claim.form(q.span.end + 1) == Some("of") {
            q.span.end + 2
        } else {
            q.span.end + 1
        };
        // Only a word that names a mark ("the licence limit", "the 684-metre top"): "over the
        // decade", "under the new scheme" and "over the breach" are no difference.
        let names_a_mark =
            (mark + 1..mark + 4).any(|i| claim.form(i).is_some_and(|f| one_of(MARKS, f)));
        if claim
            .form(mark)
            .is_some_and(|f| MARK_DETERMINERS.contains(&f))
            && names_a_mark
        {
            return Some(Some(up));
        }
    }
    // A saving ("save about £600,000 a year, bringing them down to £1.3m"): the later
    // value is the lower.
    if word_before(claim, q, |f| f.starts_with("sav")) {
        return Some(Some(false));
    }
    let mut i = q.span.start;
    while i > 0 && claim.form(i - 1).is_some_and(anchor::is_hedge) {
        i -= 1;
    }
    if i < 2 || claim.form(i - 1) != Some("by") {
        return None;
    }
    // "overrunning Welburn's estimate by": the verb of passing stands before its object.
    let passes = (i.saturating_sub(2 + EXCEEDS_REACH)..i - 1).any(|k| {
        claim.form(k).is_some_and(|f| one_of(EXCEEDS, f))
            && (k + 1..i - 1).all(|j| claim.breaks.get(j).is_none_or(Option::is_none))
    });
    if passes {
        return Some(None);
    }
    match claim.form(i - 2)? {
        "up" => Some(Some(true)),
        "down" | "cut" => Some(Some(false)),
        f if one_of(RISES, f) => Some(Some(true)),
        f if one_of(FALLS, f) => Some(Some(false)),
        _ => None,
    }
}

/// Words that open the mark a difference is measured from ("over the limit", "below its
/// peak").
const MARK_DETERMINERS: &[&str] = &[
    "the", "its", "their", "his", "her", "a", "an", "our", "this", "that",
];

/// Words that name a mark a difference is measured from, as folded forms or their starts
/// ("six decibels over the licence limit", "140 metres below the top").
const MARKS: &[&str] = &[
    "limit",
    "target",
    "estimat",
    "forecast",
    "averag",
    "threshold",
    "budget",
    "price",
    "record",
    "peak",
    "top",
    "level",
    "cap",
    "ceiling",
    "minimum",
    "maximum",
    "guideline",
    "summit",
    "mark",
    "norm",
    "goal",
    "quota",
    "benchmark",
    "baselin",
    "standard",
];

/// Whether a word `is_one` stands within [`REMAINDER_REACH`] lexemes before the claim's figure
/// `q` ("leaving it with just under 100 kg", "the remaining 16%", "save about £600,000").
fn word_before(claim: &Analysis, q: &Quantity, is_one: impl Fn(&str) -> bool) -> bool {
    (q.span.start.saturating_sub(REMAINDER_REACH)..q.span.start)
        .any(|i| claim.form(i).is_some_and(&is_one))
}

/// The slack of a figure the claim worked out: its own rounding, or for a hedged one a hedge's
/// share of it if that is more ("about a fifth", "roughly seven times").
/// Whether `q` is a difference in percentage points and `p` a percentage: "nine percentage
/// points lower (29% versus 38%)" is the distance between two shares.
fn points_between_shares(q: &Quantity, p: &Quantity) -> bool {
    let dimension = |m: &Measure| match m {
        Measure::Unit(u) => Some(u.dimension),
        _ => None,
    };
    dimension(&q.measure) == Some(Dimension::Points)
        && dimension(&p.measure) == Some(Dimension::Percent)
}

/// Whether the claim's amount `q` is the product of two of its own figures that the sentence
/// states, when the claim says it is what they come to: "12 grams a week at £7 a gram, which
/// comes to £84 a week" against "I pay about £7 a gram, and I use 12 grams a week".
fn product_of_parts(claim: &Analysis, q: &Quantity, sentence: &Analysis) -> bool {
    // The claim says what the figures come to right before the product ("which comes to
    // around £84"), not anywhere ("In all, 6 killed ... in 24 attacks").
    let comes_to =
        (q.span.start.saturating_sub(PRODUCT_REACH)..q.span.start).any(|i| comes_to_at(claim, i));
    if !amount(q) || q.bound.is_some() || !comes_to {
        return false;
    }
    let stated = |p: &Quantity| sentence.quantities.iter().any(|s| compare::same(p, s));
    let factors: Vec<&Quantity> = claim
        .quantities
        .iter()
        .filter(|p| !std::ptr::eq(*p, q) && p.measure != Measure::Year && stated(p))
        .collect();
    // The claim multiplies the figures as written: the product rounds to its own precision.
    // A rate times an amount: one factor in the product's own measure ("£7 a gram"), the other
    // in another ("12 grams").
    factors.iter().enumerate().any(|(k, a)| {
        factors[k + 1..].iter().any(|b| {
            if (a.measure == q.measure) == (b.measure == q.measure) {
                return false;
            }
            let product = a.value * b.value;
            product != 0.0 && (product - q.value).abs() <= own_slack(q)
        })
    })
}

/// How many words before a product the words saying it is one may stand ("which comes to
/// around £84").
const PRODUCT_REACH: usize = 4;

fn own_slack(q: &Quantity) -> f64 {
    if q.hedged {
        q.tolerance.max(q.value.abs() * compare::HEDGE_TOLERANCE)
    } else {
        q.tolerance
    }
}

/// Words of what remains of a whole, as folded forms or their starts; and how far before a
/// figure they (or a word of saving) may stand ("leaving it with just under 100 kg").
const REMAINS: &[&str] = &["leav", "remain"];
const REMAINDER_REACH: usize = 5;

/// Verbs that one value passes or falls short of another by a difference ("overran by",
/// "exceeded by", "beat by", "missed by"), as folded forms or their starts.
/// Which value the sentence gives first is not the claim's to say, so they give no direction.
/// The verb may stand up to [`EXCEEDS_REACH`] words before "by", past its object.
const EXCEEDS_REACH: usize = 4;
const EXCEEDS: &[&str] = &[
    "overr",
    "exceed",
    "beat",
    "outstrip",
    "overshot",
    "overshoot",
    "miss",
];

/// Whether the claim's span of years ("took about three years to build") is the distance
/// between two years the sentence joins ("built between 1909 and 1912", "from 1909 to 1912",
/// "1909\u{2013}1912"): exactly, or within a year when either side hedges.
fn spans_years(q: &Quantity, sentence: &Analysis) -> bool {
    let Some(span) = year_span(q) else {
        return false;
    };
    let word = |i: usize| sentence.form(i).unwrap_or("");
    sentence.quantities.windows(2).any(|pair| {
        let (a, b) = (&pair[0], &pair[1]);
        if a.measure != Measure::Year || b.measure != Measure::Year || b.value <= a.value {
            return false;
        }
        let opener = a.span.start.checked_sub(1).map_or("", word);
        let joined = match b.span.start.checked_sub(a.span.end) {
            Some(0) => true,
            Some(1) => {
                let link = word(a.span.end);
                (opener == "between" && link == "and")
                    || (opener == "from" && link == "to")
                    || matches!(link, "-" | "\u{2013}")
            }
            _ => false,
        };
        joined && span.fits(b.value - a.value)
    })
}

/// A span of years, decades or centuries ("three years", "about seven years", "almost four
/// decades", "over eight years"), in years, with the slack its hedge allows (a tenth of the
/// span either way, at least a year, when hedged; none when not) and its bound: "over eight
/// years" (at least eight) is stated by "1872\u{2013}1880" as "eight years" is.
struct YearSpan {
    years: f64,
    slack: f64,
    bound: Option<lexicon::Bound>,
}

impl YearSpan {
    /// Whether two years `distance` apart lie this span apart.
    fn fits(&self, distance: f64) -> bool {
        match self.bound {
            None => (distance - self.years).abs() <= self.slack,
            Some(lexicon::Bound::AtLeast) => distance >= self.years - self.slack,
            Some(lexicon::Bound::AtMost) => distance <= self.years + self.slack,
        }
    }
}

/// Whether the claim's span of time `q` ("just over five weeks", "38 days") is the distance
/// between two of its own dates in the year ("from 9 April to 16 May"), both of which the
/// sentence states. The two dates are read within one year, the later after the earlier.
fn between_own_days(claim: &Analysis, q: &Quantity, sentence: &Analysis) -> bool {
    let Measure::Unit(unit) = &q.measure else {
        return false;
    };
    if unit.dimension != Dimension::Time
        || !(DAY_SECONDS..lexicon::YEAR_SECONDS).contains(&unit.factor)
    {
        return false;
    }
    let day_of_year = |p: &Quantity| -> Option<f64> {
        let Measure::Day(month) = &p.measure else {
            return None;
        };
        let m = lexicon::MONTHS.iter().position(|name| name == month)?;
        Some(DAYS_BEFORE_MONTH[m % 12] + p.value)
    };
    let stated = |p: &Quantity| sentence.quantities.iter().any(|s| compare::same(p, s));
    let days: Vec<(usize, f64)> = claim
        .quantities
        .iter()
        .enumerate()
        .filter(|(_, p)| stated(p))
        .filter_map(|(k, p)| day_of_year(p).map(|d| (k, d)))
        .collect();
    days.iter().any(|&(k, a)| {
        days.iter().any(|&(j, b)| {
            let span = b - a;
            j > k
                && span > 0.0
                && compare::same(
                    q,
                    &Quantity {
                        value: span * DAY_SECONDS,
                        tolerance: 0.0,
                        bound: None,
                        near: false,
                        hedged: false,
                        ..q.clone()
                    },
                )
        })
    })
}

/// Seconds in a day, the unit the spans between dates are counted in.
const DAY_SECONDS: f64 = 86_400.0;

/// Days of a common year before each month.
const DAYS_BEFORE_MONTH: [f64; 12] = [
    0.0, 31.0, 59.0, 90.0, 120.0, 151.0, 181.0, 212.0, 243.0, 273.0, 304.0, 334.0,
];

fn year_span(q: &Quantity) -> Option<YearSpan> {
    let Measure::Unit(unit) = &q.measure else {
        return None;
    };
    if !matches!(unit.name, "year" | "decade" | "century") {
        return None;
    }
    // "almost four decades" is 39 years as well as 40.
    let years = q.value / lexicon::YEAR_SECONDS;
    let slack = if q.hedged {
        (years / 10.0).max(1.0)
    } else {
        0.0
    };
    Some(YearSpan {
        years,
        slack,
        bound: q.bound,
    })
}

/// The years a text names, in order.
fn years_of(text: &Analysis) -> Vec<f64> {
    text.quantities
        .iter()
        .filter(|y| y.measure == Measure::Year)
        .map(|y| y.value)
        .collect()
}

/// Whether two years the sentence gives lie the claim's span of years apart, when the claim
/// ties the span to them: it dates one event from another and names no year of its own
/// ("registered it two years after Hoffmann produced it" against "In 1897 ... in 1899"), or
/// it names both years itself ("stood for about 28 years, from August 1961 until November
/// 1989"). A span the claim ties to nothing ("took three years to build" against "designed in
/// 1909 and rebuilt in 1912") is not worked out from any two years.
fn years_between(claim: &Analysis, q: &Quantity, sentence: &Analysis) -> bool {
    if years_of(claim).is_empty() {
        let Some(span) = year_span(q).filter(|s| s.bound.is_none()) else {
            return false;
        };
        let stated = years_of(sentence);
        dated_span(claim, q)
            && stated.iter().enumerate().any(|(k, &a)| {
                stated[k + 1..]
                    .iter()
                    .any(|&b| a != b && span.fits((a - b).abs()))
            })
    } else {
        between_own_years(claim, q, sentence)
    }
}

/// Whether the claim's span of years lies between two of its own years, both of which the
/// sentence states ("stood for about 28 years, from August 1961 until November 1989").
fn between_own_years(claim: &Analysis, q: &Quantity, sentence: &Analysis) -> bool {
    let Some(span) = year_span(q) else {
        return false;
    };
    let (ours, stated) = (years_of(claim), years_of(sentence));
    ours.iter().enumerate().any(|(k, &a)| {
        ours[k + 1..].iter().any(|&b| {
            a != b && span.fits((a - b).abs()) && stated.contains(&a) && stated.contains(&b)
        })
    })
}

/// Whether the claim's share of change ("fell by a quarter", "rose 27%") is the one the
/// sentence's two ends of the change give ("fell from 4 hours 8 minutes to 3 hours 6
/// minutes", "38 grams in 2025, compared with 21 grams in 2016"): the difference of the two
/// over the earlier, to the precision the claim writes (a hedged share within
/// [`compare::HEDGE_TOLERANCE`] of itself as well), running the way the claim says when it
/// says ("rose by", "fell by"). Only two amounts of one kind that the sentence gives as a
/// change or a comparison with an earlier value; not years, not shares themselves (a change
/// of a share is in points as often as in percent).
fn change_worked_out(claim: &Analysis, q: &Quantity, sentence: &Analysis) -> bool {
    let Measure::Unit(unit) = &q.measure else {
        return false;
    };
    // A share marked as a difference ("a sixth fewer than the 5,100", "a third less space
    // than") is relative to the value it is compared with, as "down 17%" is.
    if unit.dimension != Dimension::Percent || q.bound.is_some() {
        return false;
    }
    let slack = own_slack(q);
    let rising = stated_difference(claim, q).flatten();
    let kind_ok = |a: &Quantity| match &a.measure {
        Measure::Unit(u) => u.dimension != Dimension::Percent,
        Measure::Noun(_) | Measure::Bare => !a.identifier,
        _ => false,
    };
    // A value set "against" another ("1.4 bytes, against 2.1 bytes for lz4", "142 pairs,
    // against 97 in 2025") is what a claim's comparison measures from ("a third less than"),
    // or an earlier value when a year dates it; not what a change goes from ("imports fell by
    // a quarter" against "300,000 tonnes, against 400,000 tonnes of exports").
    let base_against = |b: &Quantity| {
        let dated = sentence.quantities.iter().any(|y| {
            y.measure == Measure::Year
                && y.span.start >= b.span.end
                && y.span.start <= b.span.end + 3
        });
        set_against(sentence, b, 1) && (q.difference || dated)
    };
    let worked_out = |earlier: &Quantity, later: &Quantity| {
        let change = later.value - earlier.value;
        let direction_ok = rising.is_none_or(|up| (change > 0.0) == up);
        direction_ok
            && ((change.abs() / earlier.value.abs()) * 100.0 - q.value.abs()).abs() <= slack
    };
    sentence.quantities.iter().enumerate().any(|(k, a)| {
        kind_ok(a)
            && sentence.quantities[k + 1..].iter().any(|b| {
                b.measure == a.measure
                    && b.value != 0.0
                    && a.value != 0.0
                    && if anchor::change_from_to(sentence, a, b) {
                        worked_out(a, b)
                    } else {
                        (anchor::measured_against(sentence, a, b) || base_against(b))
                            && worked_out(b, a)
                    }
            })
    })
}

/// Whether the claim's age at death ("died in 1958 at the age of 77", "died aged 77") is the
/// one the sentence's lifespan gives ("(3 February 1881 \u{2013} 19 June 1958)"): the years
/// apart, less one when the death's day and month come before the birth's in the year; with
/// either day unknown, either of the two ages. Only an age the claim ties to a death.
fn age_at_death(claim: &Analysis, q: &Quantity, sentence: &Analysis) -> bool {
    if q.measure != Measure::Age || !death_forms().iter().any(|d| claim.vocabulary.contains(d)) {
        return false;
    }
    let slack = q.tolerance.max(0.5);
    lifespans(sentence)
        .into_iter()
        .any(|(youngest, oldest)| youngest - slack <= q.value && q.value <= oldest + slack)
}

/// The forms of "died", "dies" and "death".
fn death_forms() -> &'static [String] {
    static DEATH: OnceLock<Vec<String>> = OnceLock::new();
    DEATH.get_or_init(|| forms_of(&["died", "dies", "death"]))
}

/// The oldest a person lives to: a lifespan longer than this is two other years.
const LONGEST_LIFE: f64 = 125.0;

/// The ages at death each lifespan of the sentence allows, youngest and oldest: a birth date and
/// a death date joined by a dash, each a year with, maybe, its day and month before it.
fn lifespans(sentence: &Analysis) -> Vec<(f64, f64)> {
    let death = death_forms();
    let qs = &sentence.quantities;
    // The day and month of the year at `k`, when written right before it.
    let day_of = |k: usize| -> Option<(usize, f64)> {
        let day = qs.get(k.checked_sub(1)?)?;
        let Measure::Day(month) = &day.measure else {
            return None;
        };
        let gap = qs[k].span.start.checked_sub(day.span.end)?;
        let month = lexicon::MONTHS.iter().position(|m| m == month)?;
        (gap <= 1).then_some((month, day.value))
    };
    let mut out = Vec::new();
    for (k, birth) in qs.iter().enumerate() {
        if birth.measure != Measure::Year {
            continue;
        }
        // The death's date starts right after a dash: its day (if any), then its year.
        let next = k + 1;
        let (death_at, death_day) = match qs.get(next) {
            Some(d) if matches!(d.measure, Measure::Day(_)) => (next + 1, day_of(next + 1)),
            Some(_) => (next, None),
            None => continue,
        };
        let Some(died) = qs.get(death_at).filter(|d| d.measure == Measure::Year) else {
            continue;
        };
        // The analysis reads a bracketed lifespan's dash as "died" (see `analyse`).
        let start = qs[next].span.start;
        let dashed = start == birth.span.end + 1
            && sentence.form(birth.span.end).is_some_and(|f| {
                matches!(f, "-" | "\u{2013}" | "\u{2014}") || death.iter().any(|d| d == f)
            });
        let years = died.value - birth.value;
        if !dashed || !(0.0..=LONGEST_LIFE).contains(&years) {
            continue;
        }
        out.push(match (day_of(k), death_day) {
            (Some(born), Some(dead)) if dead < born => (years - 1.0, years - 1.0),
            (Some(_), Some(_)) => (years, years),
            _ => (years - 1.0, years),
        });
    }
    out
}

/// Words after a span of years that date one event from another: "seven years after".
const RELATIVE_TIME: &[&str] = &["after", "later", "before", "earlier"];

/// Whether the claim dates something by its span from another time: "seven years after",
/// "two years later", or "another 23 years" ("... in 1971, but the stern was not found for
/// another 23 years": a span after "another" or "a further" runs on from the time before it),
/// or "the first ... in 108 years" (the span runs back from the claim's event to the last
/// one: "their first World Series title in 108 years" against "... the 2016 World Series ...
/// its first championship since 1908").
fn dated_span(claim: &Analysis, q: &Quantity) -> bool {
    static RELATIVE: OnceLock<Vec<String>> = OnceLock::new();
    let relative = RELATIVE.get_or_init(|| forms_of(RELATIVE_TIME));
    let before = |back: usize| claim.form_before(q.span.start, back);
    let continued = matches!(before(1), "another" | "further");
    continued
        || first_in(claim, q, before(1))
        || claim
            .form(q.span.end)
            .is_some_and(|f| relative.iter().any(|r| r == f))
}

/// Words a "first ... in N years" may put between "first" and "in": a short noun phrase,
/// within the clause.
const FIRST_REACH: usize = 6;

/// Whether the span follows "in" after "first" in its clause: "the first title in 108 years",
/// "for the first time in 30 years". Only right before the span ("in"), and only with "first"
/// a few words back and no punctuation between.
fn first_in(claim: &Analysis, q: &Quantity, previous: &str) -> bool {
    static FIRST: OnceLock<String> = OnceLock::new();
    let first = FIRST.get_or_init(|| forms_of(&["first"]).remove(0));
    if previous != "in" {
        return false;
    }
    let at_in = q.span.start - 1;
    (at_in.saturating_sub(FIRST_REACH)..at_in)
        .rev()
        .take_while(|&i| claim.breaks.get(i).copied().flatten().is_none())
        .any(|i| claim.form(i) == Some(first.as_str()))
}

/// Whether the claim's span of years dates one of its years from another event ("scrapped in
/// 2019, seven years after Transport Orland took it over") and the sentence gives both years
/// ("took the bridge over in 2012 ... abolished in 2019"): the claim's year and another that
/// lies the span away from it, exactly, or within the slack a hedge allows (see [`year_span`]).
fn years_apart(claim: &Analysis, q: &Quantity, sentence: &Analysis) -> bool {
    let Some(span) = year_span(q).filter(|s| s.bound.is_none() && dated_span(claim, q)) else {
        return false;
    };
    let stated = years_of(sentence);
    years_of(claim)
        .iter()
        .filter(|y| stated.contains(y))
        .any(|y| stated.iter().any(|z| z != y && span.fits((y - z).abs())))
}

/// The claim's superlative that the sentence and its context leave out: "Millbrook Tide Mill is
/// the oldest surviving tide mill" is not stated by "one of four tide mills that survive", nor
/// "the largest rope maker" by "one of only three rope makers". Only a superlative that ranks
/// ("the" or "its" before it), in "-est" or "best"/"worst": "most" and "least" qualify another
/// word, which must be stated anyway, and "latest" means recent. The sentence may say it in
/// other words with a superlative of its own or a record ("a record for the stadium").
fn rank_unstated(claim: &Analysis, sentence: &Analysis, context: &[&Analysis]) -> Option<String> {
    // "The strongest to hit Orland since 1957" ranks within a span of time; a claim that
    // does not bound its superlative so ("the strongest ever recorded") ranks over all of it.
    let since = forms_of(&["since"]);
    let bounded = |text: &Analysis| {
        text.superlative.iter().enumerate().any(|(at, &s)| {
            s && (at + 1..text.forms.len().min(at + 8))
                .take_while(|&i| !matches!(text.form(i), Some("." | ";")))
                .any(|i| text.form(i).is_some_and(|f| since.iter().any(|s| s == f)))
        })
    };
    if bounded(sentence) && !bounded(claim) {
        if let Some(at) = claim.superlative.iter().position(|&s| s) {
            return claim.form(at).map(str::to_string);
        }
    }
    if sentence.superlative.iter().any(|&s| s) || sentence.vocabulary.contains("record") {
        return None;
    }
    claim
        .superlative
        .iter()
        .enumerate()
        .filter(|(_, &superlative)| superlative)
        .filter(|&(at, _)| {
            at.checked_sub(1)
                .is_some_and(|p| matches!(claim.form(p), Some("the" | "its")))
        })
        .filter_map(|(at, _)| claim.form(at))
        .filter(|form| !matches!(*form, "most" | "least" | "latest" | "lat"))
        .find(|form| !context.iter().any(|c| c.vocabulary.contains(*form)))
        .map(str::to_string)
}

/// How many of the claim's telling quantities the sentence states as they are. A lone one
/// counts only when the sentence gives no other figure of its kind: beside one ("spent £1.4
/// billion, against a budget of £900 million"), the claim's may fill another role.
fn telling_matches(claim: &Analysis, sentence: &Analysis, numbers: &[NumberFit]) -> usize {
    let matched: Vec<&Quantity> = claim
        .quantities
        .iter()
        .zip(numbers)
        .filter(|(q, fit)| **fit == NumberFit::Match && telling(q))
        .map(|(q, _)| q)
        .collect();
    if let [lone] = matched.as_slice() {
        let rival = sentence.quantities.iter().any(|p| {
            compare::comparable(&lone.measure, &p.measure, false)
                && !claim.quantities.iter().any(|c| compare::same(c, p))
        });
        if rival {
            return 0;
        }
    }
    matched.len()
}

/// Whether the sentence's "first" or superlative ("first woman", "largest city") ranks
/// another kind of thing than the claim's ("first person", "largest lake"), and never the
/// claim's: the noun after it differs.
fn other_title(claim: &Analysis, sentence: &Analysis) -> bool {
    let titled = |text: &Analysis| -> Vec<(String, String)> {
        (0..text.forms.len())
            .filter(|&i| {
                text.form(i) == Some("1st") || text.superlative.get(i).copied().unwrap_or(false)
            })
            .filter_map(|i| {
                let rank = text.form(i)?.to_string();
                // The noun right after it: "the first to reach" and "the largest and oldest
                // city" name no kind, and so no other title.
                let noun = text.form(i + 1).filter(|f| text.is_content(f))?;
                Some((rank, noun.to_string()))
            })
            .collect()
    };
    let (claimed, stated) = (titled(claim), titled(sentence));
    claimed.iter().any(|(rank, noun)| {
        let same_rank: Vec<&String> = stated
            .iter()
            .filter(|(r, _)| r == rank)
            .map(|(_, n)| n)
            .collect();
        !same_rank.is_empty() && !same_rank.contains(&noun)
    })
}

/// A name written in the possessive ("Greyburn's", "the Danube's").
fn possessive(entity: &Entity) -> bool {
    let text = entity.text.trim_end();
    text.ends_with("'s") || text.ends_with("\u{2019}s") || text.ends_with("s'")
}

/// A name written as a people's adjective ("Dutch", "Scottish").
fn is_demonym(entity: &Entity) -> bool {
    let text = entity.text.trim().to_lowercase();
    lexicon::DEMONYMS
        .iter()
        .any(|(demonym, _)| *demonym == text)
}

/// A people's adjective, listed ("Dutch", "British") or of the usual shape ("Romanian",
/// "Maltese", "Kurdish").
pub(super) fn people_adjective(entity: &Entity) -> bool {
    let text = entity.text.trim().to_lowercase();
    is_demonym(entity)
        || (!text.contains(' ') && ["ian", "ese", "ish"].iter().any(|e| text.ends_with(e)))
}

/// A name that is a street or a square ("Mill Street", "Harbour Road", "Quay Square").
pub(super) fn is_address(entity: &Entity) -> bool {
    const KINDS: &[&str] = &[
        "street",
        "road",
        "avenue",
        "lane",
        "square",
        "boulevard",
        "row",
        "terrace",
        "place",
    ];
    entity
        .text
        .rsplit(' ')
        .next()
        .is_some_and(|last| KINDS.contains(&last.to_lowercase().as_str()))
}

/// A name that is a country (or its people's adjective, normalised to the country).
pub(super) fn is_country(entity: &Entity) -> bool {
    entity
        .forms
        .iter()
        .all(|f| lexicon::DEMONYMS.iter().any(|(_, place)| place == f))
}

/// A quantity unlikely to be shared by chance (see [`Alignment::telling_numbers`]).
fn telling(q: &Quantity) -> bool {
    match &q.measure {
        // A duration or a distance of a few units ("two years", "5 km") is common; a share or
        // a sum of money is not.
        Measure::Unit(unit) => {
            matches!(unit.dimension, Dimension::Percent | Dimension::Currency)
                || q.value.abs() / unit.factor > 12.0
        }
        Measure::Noun(_) | Measure::Bare => !q.identifier && q.value.abs() > 12.0,
        Measure::Clock(_) => true,
        // Ages cluster: many people of a page are in their twenties or sixties.
        Measure::Year | Measure::Day(_) | Measure::Age => false,
    }
}

/// What the claim's coverage is counted over: its content words and its quantities.
#[derive(Debug, Clone, PartialEq)]
enum Item {
    Word(String),
    Number(usize),
}

/// The weighted share of `credits` among the items `keep` selects.
fn share(credits: &[(Item, f64)], weights: &Weights, keep: impl Fn(&Item) -> bool) -> f64 {
    let (mut got, mut total) = (0.0, 0.0);
    for (item, credit) in credits.iter().filter(|(item, _)| keep(item)) {
        let weight = match item {
            Item::Word(form) => weights.of(form),
            Item::Number(_) => weights.rare(),
        };
        got += weight * credit;
        total += weight;
    }
    if total > 0.0 {
        got / total
    } else {
        0.0
    }
}

/// How much each claim word counts: words found in many of the passages' sentences (the page's
/// topic, which a sentence often leaves to "it") count less than rare ones, like IDF.
#[derive(Debug, Clone, Default)]
pub struct Weights {
    sentences: usize,
    frequency: HashMap<String, usize>,
}

impl Weights {
    /// Document frequencies over the given sentences.
    pub fn over<'a>(sentences: impl IntoIterator<Item = &'a Analysis>) -> Weights {
        let mut weights = Weights::default();
        for sentence in sentences {
            weights.sentences += 1;
            for form in &sentence.vocabulary {
                *weights.frequency.entry(form.clone()).or_default() += 1;
            }
        }
        weights
    }

    fn of(&self, form: &str) -> f64 {
        let df = self.frequency.get(form).copied().unwrap_or(0);
        (1.0 + (self.sentences as f64 + 1.0) / (df as f64 + 1.0)).ln()
    }

    /// The weight of a word no sentence has.
    fn rare(&self) -> f64 {
        (2.0 + self.sentences as f64).ln()
    }
}

/// Credit for the claim's `k`th content word from the sentence and its context.
fn credit(claim: &Analysis, k: usize, sentence: &Analysis, context: &[&Analysis]) -> f64 {
    let (form, at) = &claim.content[k];
    let found_in = |text: &Analysis| {
        if text.vocabulary.contains(form)
            || text.compounds.contains(form)
            || glued(claim, *at, text)
        {
            1.0
        } else if text.vocabulary.iter().any(|w| shares_stem(form, w)) {
            PARTIAL_CREDIT
        } else {
            0.0
        }
    };
    let here = found_in(sentence);
    if here >= 1.0 {
        return here;
    }
    let around = context
        .iter()
        .map(|c| found_in(c) * CONTEXT_CREDIT)
        .fold(0.0, f64::max);
    here.max(around)
}

/// The claim word at lexeme `at` glued to its neighbour is a word of `text` ("fresh water" vs
/// "freshwater").
fn glued(claim: &Analysis, at: usize, text: &Analysis) -> bool {
    let form = |i: usize| claim.forms.get(i).cloned().flatten();
    let Some(me) = form(at) else { return false };
    let before = at.checked_sub(1).and_then(form).map(|b| format!("{b}{me}"));
    let after = form(at + 1).map(|a| format!("{me}{a}"));
    [before, after]
        .into_iter()
        .flatten()
        .any(|w| text.vocabulary.contains(&w))
}

/// Verbs whose "un-" undoes the act rather than denying it: "unlocked the door" is not "did not
/// lock the door", nor "uncovered the fraud" "did not cover" it.
const REVERSIBLE_VERBS: &[&str] = &[
    "lock",
    "pack",
    "load",
    "veil",
    "tie",
    "wrap",
    "plug",
    "fold",
    "zip",
    "cover",
    "dress",
    "screw",
    "block",
    "seal",
    "install",
    "subscribe",
    "mute",
    "tangle",
    "bolt",
    "button",
    "hook",
    "earth",
    "do",
    "wind",
    "roll",
    "freez",
    "bundl",
    "link",
    "mask",
    "pin",
];

/// Whether the folded word `prefixed` is "un-" before `form` ("unrecogniz" and "recogniz",
/// "unpaid" and "pay"), as an adjective or participle denies it: not a verb whose "un-" undoes
/// the act.
fn negative_prefix_of(prefixed: &str, form: &str) -> bool {
    prefixed.strip_prefix("un").is_some_and(|rest| {
        rest.len() >= 4 && (rest == form || fold(rest) == form) && !REVERSIBLE_VERBS.contains(&form)
    })
}

/// Whether the claim and the sentence deny one thing: a negation in each, the first content
/// word after one of them standing in the other's scope too ("apologised without
/// reservation" and "I apologise for that without reservation"; "finding no cracks or
/// measurable movement" and "with no cracks and no measurable movement"). The two agree
/// there, whatever else either denies or in whichever clause.
fn shared_denial(claim: &Analysis, sentence: &Analysis) -> bool {
    fn words<'a>(
        a: &'a Analysis,
        scope: &std::ops::Range<usize>,
    ) -> impl Iterator<Item = &'a str> + 'a {
        a.forms[scope.clone()]
            .iter()
            .flatten()
            .map(String::as_str)
            .filter(|f| a.is_content(f) && !NEGATION_ADVERBS.contains(f))
    }
    // Each negation's scope and the first content word in it; "is not lead-free" denies the
    // absence, not the lead, and is left out.
    fn negations(a: &Analysis) -> Vec<(&std::ops::Range<usize>, &str)> {
        a.cues
            .iter()
            .filter(|c| c.kind == CueKind::Negation)
            .filter_map(|c| words(a, &c.scope).next().map(|head| (&c.scope, head)))
            .filter(|(_, head)| !a.free_of.iter().any(|f| f == head))
            .collect()
    }
    let within = |word: &str, a: &Analysis, scope: &std::ops::Range<usize>| {
        words(a, scope).any(|w| w == word || shares_stem(w, word))
    };
    // Denials of one thing, not only of one verb: most of the shorter scope's words stand in
    // the longer ("did not reduce mortality" denies no "did not reduce hospital admissions").
    let overlap = |c: &std::ops::Range<usize>, p: &std::ops::Range<usize>| {
        let ours: Vec<&str> = words(claim, c).collect();
        let theirs: Vec<&str> = words(sentence, p).collect();
        let (short, long_text, long_scope) = if ours.len() <= theirs.len() {
            (ours, sentence, p)
        } else {
            (theirs, claim, c)
        };
        let held = short
            .iter()
            .filter(|w| within(w, long_text, long_scope))
            .count();
        !short.is_empty() && held * 3 >= short.len() * 2
    };
    let theirs = negations(sentence);
    negations(claim).into_iter().any(|(c, claim_head)| {
        theirs.iter().any(|&(p, page_head)| {
            (within(claim_head, sentence, p) || within(page_head, claim, c)) && overlap(c, p)
        })
    })
}

/// One word is the other plus a short suffix ("decod"/"decoder", "grow"/"growth").
fn shares_stem(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    short.len() >= 4 && long.len() - short.len() <= 4 && long.starts_with(short)
}

/// Whether `form` also occurs in `text` outside every negation's scope: a shared word that an
/// unnegated clause states ("Freight volumes were flat ..., and it would not raise freight
/// rates") aligns with that clause, so the negated clause is about something else and cannot by
/// that word alone flip the claim. Denials, which cover the whole text, leave nothing outside.
///
/// The unnegated occurrence must stand among as many of the other text's words as the negated
/// one: "was a finalist for the Pulitzer Prize but did not win, although it went on to win the
/// National Book Award" denies the Pulitzer, whatever it won besides. So it is read for the
/// page's denial (`scope`, its scope) when the claim denies nothing itself; otherwise any
/// unnegated occurrence stands: "people who napped ... than those who never napped" on both
/// sides is one statement, whichever occurrence has more words around it.
///
/// For the page's denial a word of the same stem stands as well, when the other text uses that
/// word itself: "22% preferred the hydrogen option and the rest expressed no preference" states
/// the claim's preferring. Not a word the other text lacks ("Jones, the club's player of the
/// year, did not play" denies the playing), nor for the claim's own denial ("a bass player"
/// does not affirm "could not play the bass").
fn affirmed_elsewhere(
    text: &Analysis,
    other: &Analysis,
    form: &str,
    scope: Option<&std::ops::Range<usize>>,
) -> bool {
    // The other text's words, the form aside, within a few lexemes of position `at`.
    let around = |at: usize| {
        (at.saturating_sub(AFFIRMED_REACH)..(at + AFFIRMED_REACH + 1).min(text.forms.len()))
            .filter_map(|i| text.form(i))
            .filter(|f| *f != form && text.is_content(f) && other.vocabulary.contains(*f))
            .count()
    };
    let occurrences = |negated: bool| {
        text.forms.iter().enumerate().filter(move |(i, f)| {
            f.as_deref().is_some_and(|f| {
                f == form
                    || (scope.is_some() && shares_stem(f, form) && other.vocabulary.contains(f))
            }) && text.cues.iter().any(|cue| cue.scope.contains(i)) == negated
        })
    };
    let denied = scope.map_or(0, |scope| {
        occurrences(true)
            .filter(|(i, _)| scope.contains(i))
            .map(|(i, _)| around(i))
            .max()
            .unwrap_or(0)
    });
    occurrences(false).any(|(i, _)| around(i) >= denied && !done_by_another(text, other, i))
}

/// Whether the act at lexeme `i` of `text` is someone else's, by a name `other` does not
/// mention: its subject just before it ("Graham, who did buy one last winter") or its agent
/// after "by" ("the work was completed by his son, Sir Hugh de Vaux"). Such an act affirms
/// nothing of the claim's subject, whose denial elsewhere in the sentence stands.
fn done_by_another(text: &Analysis, other: &Analysis, i: usize) -> bool {
    /// How many lexemes a subject or an agent may stand from the act.
    const AGENT_REACH: usize = 4;
    let strong = |k: usize| text.breaks.get(k).copied().flatten() == Some(Break::Strong);
    let stranger = |e: &Entity| !other.mentions(e);
    let subject = text.entities.iter().any(|e| {
        e.span.end <= i
            && i - e.span.end <= AGENT_REACH
            && !(e.span.end..i).any(strong)
            && stranger(e)
    });
    let by = (i + 1..(i + 3).min(text.forms.len())).find(|&k| text.form(k) == Some("by"));
    let agent = by.is_some_and(|b| {
        text.entities
            .iter()
            .any(|e| e.span.start > b && e.span.start <= b + AGENT_REACH + 1 && stranger(e))
    });
    subject || agent
}

/// How many lexemes either side of a shared word [`affirmed_elsewhere`] reads for the other
/// text's words.
const AFFIRMED_REACH: usize = 7;

/// Words of a negation itself, not of what it negates ("no longer used": the act is "used").
const NEGATION_ADVERBS: &[&str] = &["long", "longer"];

/// The claim's ordinal of a first act ("the second woman to be principal conductor") that the
/// sentence gives another ordinal ("the first woman to be principal conductor"). A numbered
/// series ("the ninth stage") is a position among the figures instead (`numbers`); a sentence
/// that has the claim's own rank as well sets nothing against it.
fn ordinal_swapped(claim: &Analysis, sentence: &Analysis) -> Option<String> {
    fn ordinal(form: &str) -> bool {
        let digits = form.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        !digits.is_empty()
            && digits.len() < form.len()
            && digits.bytes().all(|b| b.is_ascii_digit())
            && matches!(&form[digits.len()..], "st" | "nd" | "rd" | "th")
    }
    let pairs = |text: &Analysis| -> Vec<(String, String, usize)> {
        (0..text.forms.len().saturating_sub(1))
            .filter_map(|i| {
                let o = text.form(i).filter(|f| ordinal(f))?;
                let noun = text
                    .form(i + 1)
                    .filter(|f| text.is_content(f) && !lexicon::SERIES_NOUNS.contains(f))?;
                // The rank of a first act: "the first woman to", "the second person to".
                // Other ordinals name an item of a series ("the second half", "his second
                // title"), which the sentence may leave out beside an earlier item.
                (text.form(i + 2) == Some("to")).then(|| (o.to_string(), noun.to_string(), i))
            })
            .collect()
    };
    // The other ordinal fills the claim's slot only with another of the claim's words beside
    // it ("named in memory of his first wife" for "named after his second wife"): "a goalless
    // first half" is no rival of "scored in the second half".
    // Within the phrase: a comma or a stronger break ends it ("After a goalless first half,
    // Saltby scored").
    let beside = |text: &Analysis, at: usize, form: &str| {
        let open = |i: &usize| text.breaks.get(*i).is_none_or(Option::is_none);
        let before = (at.saturating_sub(ORDINAL_REACH)..at)
            .rev()
            .take_while(open);
        let after = (at + 2..(at + 2 + ORDINAL_REACH).min(text.forms.len())).take_while(open);
        before.chain(after).any(|i| text.form(i) == Some(form))
    };
    let stated = pairs(sentence);
    pairs(claim).into_iter().find_map(|(o, noun, at)| {
        let same_noun = stated.iter().filter(|(_, n, _)| *n == noun);
        let own = same_noun.clone().any(|(p, _, _)| *p == o);
        let other = same_noun.clone().any(|(p, _, j)| {
            *p != o
                && claim.content.iter().any(|(f, i)| {
                    *f != noun
                        && *f != o
                        && beside(claim, at, f)
                        && *i != at
                        && beside(sentence, *j, f)
                })
        });
        (other && !own).then_some(o)
    })
}

/// How many words either side of an ordinal and its noun another word may stand and still
/// share its slot.
const ORDINAL_REACH: usize = 5;

/// Whether a page's negation denies only a universal the claim does not state: "did not write
/// every song alone" says that some songs were written with others, not that none was
/// written; "not only won the league" affirms the winning. Against a claim that states a
/// universal of the same kind ("wrote all the songs", "the sole author") the negation still
/// counts. Fixed phrases are no universals ("all-time", "after all", "each other"). A
/// claim's own negated universal is left alone: a page states its universal in too many words
/// ("daily", "in every case") to tell.
fn denies_only_a_universal(text: &Analysis, cue: &Cue, other: &Analysis, page: bool) -> bool {
    static KINDS: OnceLock<Vec<Vec<String>>> = OnceLock::new();
    let kinds = KINDS.get_or_init(|| {
        [
            &[
                "every",
                "all",
                "each",
                "whole",
                "everything",
                "everyone",
                "everybody",
                "everywhere",
                "entire",
                "entirely",
                "fully",
                "completely",
                "unanimous",
                "unanimously",
                "throughout",
            ][..],
            &["only", "sole", "solely", "alone", "exclusively"][..],
            &["always", "invariably"][..],
        ]
        .iter()
        .map(|kind| forms_of(kind))
        .collect()
    });
    if !page || cue.kind != CueKind::Negation {
        return false;
    }
    static ALL_PHRASES: OnceLock<Vec<String>> = OnceLock::new();
    let all_phrases =
        ALL_PHRASES.get_or_init(|| forms_of(&["time", "share", "out", "round", "but"]));
    let fixed = |i: usize| {
        let (before, after) = (text.form(i.wrapping_sub(1)), text.form(i + 1));
        match text.form(i) {
            Some("all") => {
                matches!(before, Some("at" | "after"))
                    || after.is_some_and(|a| all_phrases.iter().any(|p| p == a))
            }
            Some("each") => after == Some("other"),
            _ => false,
        }
    };
    let head = cue.scope.start..(cue.scope.start + UNIVERSAL_REACH).min(cue.scope.end);
    let stated = |kind: &Vec<String>| {
        other
            .forms
            .iter()
            .flatten()
            .any(|g| kind.iter().any(|k| k == g))
    };
    head.filter(|&i| !fixed(i)).any(|i| {
        text.form(i).is_some_and(|f| {
            kinds
                .iter()
                .any(|kind| kind.iter().any(|k| k == f) && !stated(kind))
        })
    })
}

/// How many words into a negation's scope a universal may stand and still be what it denies
/// ("not every", "did not write every song").
const UNIVERSAL_REACH: usize = 3;

/// Whether a negation of a comparison states a superlative: "no one in the division scored
/// more" makes her the top scorer, "nothing sells better" makes it the best seller. The
/// comparative is written as one (its degree, not its normalised form: "big" is no "bigger")
/// and closes the scope or comes before "than"; against a text that makes the same
/// comparison ("Heald scored more than her") it is still a denial.
fn superlative_by_denial(text: &Analysis, cue: &Cue, other: &Analysis) -> bool {
    static DENIED_SUBJECTS: OnceLock<Vec<String>> = OnceLock::new();
    let denied_subjects =
        DENIED_SUBJECTS.get_or_init(|| forms_of(&["nobody", "nothing", "none", "no"]));
    // The denial is of the subject: "no one", "nobody", "nothing", "no other", "none".
    let before = cue.scope.start.checked_sub(1).and_then(|p| text.form(p));
    let subject_denied = before.is_some_and(|w| denied_subjects.iter().any(|d| d == w))
        && (before != Some("no") || matches!(text.form(cue.scope.start), Some("one" | "other")));
    let last_word = cue.scope.clone().rev().find(|&i| text.form(i).is_some());
    let comparative = |i: usize| {
        text.degree.get(i).is_some_and(|&d| d != 0)
            && (Some(i) == last_word || text.form(i + 1) == Some("than"))
            && text
                .form(i)
                .is_some_and(|f| !other.forms.iter().flatten().any(|g| g == f))
    };
    cue.kind == CueKind::Negation && subject_denied && cue.scope.clone().any(comparative)
}

/// Whether a negation only turns the bound of the figure after it ("no more than 32 GiB" is
/// "at most 32 GiB", "never more than"): no denial, unless the other text states the bound
/// it turns ("more than 500" against "no more than 500").
fn denies_a_bound(text: &Analysis, cue: &Cue, other: &Analysis) -> bool {
    let at = cue.scope.start;
    let comparator = text.form(at);
    let bound = matches!(comparator, Some("mor" | "more" | "less" | "fewer" | "few"))
        && text.form(at + 1) == Some("than")
        && text
            .quantities
            .iter()
            .any(|q| (at + 2..=at + 3).contains(&q.span.start));
    // The bound the denial turns, as the other text states it ("more than 500").
    let turned = if matches!(comparator, Some("mor" | "more")) {
        Bound::AtLeast
    } else {
        Bound::AtMost
    };
    let stated_by_other = other.quantities.iter().any(|q| q.bound == Some(turned));
    cue.kind == CueKind::Negation && bound && !stated_by_other
}

/// Whether the other text denies a content word of `cue`'s scope with a denial of its own.
fn denied_alike(text: &Analysis, cue: &Cue, other: &Analysis) -> bool {
    text.forms[cue.scope.clone()]
        .iter()
        .flatten()
        .filter(|f| text.is_content(f))
        .any(|f| {
            other.cues.iter().any(|c| {
                c.kind.denies()
                    && other.forms[c.scope.clone()]
                        .iter()
                        .flatten()
                        .any(|g| g == f)
            })
        })
}

/// Verbs whose object carries the act ("failed to win approval", "refused to give permission"):
/// the head of a denied act is the word after them, so "failed to win parliamentary approval"
/// denies the approving.
const LIGHT_VERBS: &[&str] = &["win", "get", "gain", "obtain", "secure", "receive", "give"];

/// Whether a text names a proposal ("the proposal to buy", "Tidewater's bid"). Not by a noun
/// whose form common verbs share in another sense: "called" and "measured" name none.
fn names_a_proposal(text: &Analysis) -> bool {
    static FORMS: OnceLock<Vec<String>> = OnceLock::new();
    FORMS
        .get_or_init(|| {
            let nouns: Vec<&str> = super::analyse::PROPOSALS
                .iter()
                .copied()
                .filter(|n| !matches!(*n, "call" | "calls" | "measure"))
                .collect();
            forms_of(&nouns)
        })
        .iter()
        .any(|f| text.vocabulary.contains(f))
}

/// Whether the sentence denies, in a clause set aside as about something else, what the claim
/// denies ("finding no cracks or measurable movement" against "..., and the company said the
/// structure was safe, with no cracks and no measurable movement"): the binding that set the
/// page's denial aside would leave the claim's alone.
fn denied_elsewhere_too(claim: &Analysis, sentence: &Analysis, bound: Option<usize>) -> bool {
    let Some(b) = bound else {
        return false;
    };
    // The claim's "rather than" denies its arm as a negation would.
    let claim_denial = |kind: CueKind| kind.denies() || kind == CueKind::Contrast;
    let content = |t: &Analysis, scope: &std::ops::Range<usize>| -> Vec<String> {
        t.forms[scope.clone()]
            .iter()
            .flatten()
            .filter(|f| t.is_content(f))
            .cloned()
            .collect()
    };
    let claim_denied: Vec<String> = claim
        .cues
        .iter()
        .filter(|c| claim_denial(c.kind))
        .flat_map(|c| content(claim, &c.scope))
        .collect();
    sentence
        .cues
        .iter()
        .filter(|c| c.kind.denies())
        .filter(|c| {
            sentence
                .clauses
                .of(c.scope.start)
                .is_some_and(|k| k != b && clause::about_else(claim, sentence, k))
        })
        .any(|c| {
            content(sentence, &c.scope)
                .iter()
                .any(|f| claim_denied.contains(f))
        })
}

/// Whether `text` is negated where it meets `other`: the parity of its cues whose scope holds a
/// content word `other` shares (a denial covers the whole sentence). With `bound`, the clause of
/// `text` that `other` is about, a negation in another clause is about another subject
/// ("Aldmoor council refused to sign the pledge, but Kestrel Bay council signed it").
///
/// `page` is whether `text` is the page's sentence; `halts` whether a halt ("stopped
/// printing") counts as a denial: always on the page's side, in the claim only when the page
/// denies the act too. A claim that something stopped agrees with a page that has it go on
/// until then or names its last time ("printed its last Sunday edition in 2019"), and with one
/// that says it stopped or no longer happens; a page that says it stopped denies a claim that
/// it goes on.
fn negated(
    text: &Analysis,
    other: &Analysis,
    bound: Option<usize>,
    page: bool,
    halts: bool,
) -> bool {
    // "rather than for relativity" denies relativity as "avoided citing relativity" does.
    let other_denies = other
        .cues
        .iter()
        .any(|cue| cue.kind.denies() || cue.kind == CueKind::Contrast);
    let denied = text
        .cues
        .iter()
        .filter(|cue| {
            cue.kind == CueKind::Denial
                || bound.is_none_or(|b| match text.clauses.of(cue.scope.start) {
                    Some(c) => c == b || !clause::about_else(other, text, c),
                    None => true,
                })
        })
        // A contrast ("X rather than Y") against a text that itself compares the two arms is
        // not a flipped polarity: which arm is affirmed of what is a question of alignment that
        // words alone cannot settle, so it must not make a contradiction.
        // Unless the other text denies the same thing itself: "an order of magnitude rather
        // than a measurement" and "an order of magnitude, not a measurement" agree however
        // much else the page compares.
        .filter(|cue| {
            !(cue.kind == CueKind::Contrast && other.comparative) || denied_alike(text, cue, other)
        })
        .filter(|cue| !denies_only_a_universal(text, cue, other, page))
        .filter(|cue| !superlative_by_denial(text, cue, other))
        .filter(|cue| !denies_a_bound(text, cue, other))
        // "Stopped working in June 2018" and "kept working until June 2018" say one thing.
        .filter(|cue| cue.kind != CueKind::Halt || (halts && !other.continues_until))
        .filter(|cue| cue.kind != CueKind::Ending || other_denies)
        // A proposal turned down, against a text that names a proposal itself ("approved the
        // Tidewater Group's proposal to buy" against "rejected a proposal from the Tidewater
        // Group to buy"): the rejecting verb answers the other's verb as its opposite word,
        // and read as a denial too it would cancel that flip.
        .filter(|cue| cue.kind != CueKind::Rejection || !names_a_proposal(other))
        // A verb that denies the act after it denies that act only: "declined to renew the
        // freeze" says nothing against "let the freeze lapse" unless the other text has the
        // renewing (the head of the scope) too.
        // The claim's own "not" or "no longer" (the claim is the side without `page`) denies
        // its head in the same way: "no longer publishes the price index it had compiled since
        // 1987" says nothing against a sentence with the compiling and not the publishing. A
        // page's negation keeps the looser reading (any shared word in its scope): read by its
        // head too, it lost five true contradictions of the development set and two of the
        // test set.
        // When the other text denies something itself ("did not reach the final" against
        // "failed to qualify for the final"), the two denials are read as one, as before.
        .filter(|cue| {
            let claim_side = !page;
            let head_needed =
                matches!(cue.kind, CueKind::Halt | CueKind::Refusal | CueKind::Ending)
                    || (cue.kind == CueKind::Negation && claim_side);
            !head_needed
                || other_denies
                || text.forms[cue.scope.clone()]
                    .iter()
                    .flatten()
                    .find(|f| {
                        text.is_content(f)
                            && !NEGATION_ADVERBS.contains(&f.as_str())
                            && !LIGHT_VERBS.contains(&f.as_str())
                    })
                    .is_some_and(|f| other.vocabulary.contains(f))
        })
        // A page's negation in a clause of its own, beside the clause that holds the claim's
        // figures, is about that clause's thing: "did not change its forecast for revenue in
        // 2027, but raised its range for operating profit to £44 million to £50 million" says
        // nothing against raised profit guidance of £44m–£50m, however many words the denied
        // clause shares. Only within one sentence, and only when the figures (other than
        // years) tell the clauses apart.
        .filter(|cue| {
            !page
                || cue.kind != CueKind::Negation
                || other_denies
                || !clause::figures_elsewhere(text, other, cue.scope.start)
        })
        // The claim's "instead of X" denies X only the act it affirms: a page that states that
        // act (most of the claim's words outside the contrast, and the word before it) and
        // denies nothing says what the claim says, when it names X only in part ("Debian 12
        // ships 0.14.0, so I downloaded the 0.16.4 binary" for "instead of the 0.14.0 packaged
        // in Debian 12, she used the 0.16.4 binary"). A page that names all of X may be doing
        // the act to it ("took the train from Leeds on Friday" against "took the coach from
        // Leeds on Friday instead of the train"), and still flips the claim.
        .filter(|cue| {
            if page || cue.kind != CueKind::Contrast || other_denies {
                return true;
            }
            let content = |i: usize| text.form(i).filter(|f| text.is_content(f));
            let outside: Vec<&str> = (0..text.forms.len())
                .filter(|i| !text.cues.iter().any(|c| c.scope.contains(i)))
                .filter_map(content)
                .collect();
            let stated = outside
                .iter()
                .filter(|f| other.vocabulary.contains(**f))
                .count();
            // "with haemocyanin rather than haemoglobin": the arm the claim affirms stands
            // right before its contrast, and the page must state it too.
            let arm = (cue.scope.start.saturating_sub(4)..cue.scope.start)
                .rev()
                .find_map(content);
            let arm_stated = arm.is_none_or(|f| other.vocabulary.contains(f));
            let denied: Vec<&str> = cue.scope.clone().filter_map(content).collect();
            let names_all_denied =
                !denied.is_empty() && denied.iter().all(|f| other.vocabulary.contains(*f));
            outside.len() < 2 || stated * 3 < outside.len() * 2 || !arm_stated || names_all_denied
        })
        // The other text's "non-" before a word of the scope denies it as well: "a film not in
        // English" and "a non-English film" say one thing; so does its "un-" word of that stem
        // ("a key that Skiff does not recognise" and "an unrecognised key"), and its "-free"
        // after the word ("holds no oxygen" and "oxygen-free brine").
        .filter(|cue| {
            !text.forms[cue.scope.clone()].iter().flatten().any(|f| {
                let before = |w: &[Option<String>], first: &str, second: &str| {
                    w[0].as_deref() == Some(first) && w[1].as_deref() == Some(second)
                };
                text.is_content(f)
                    && (other.forms.windows(2).any(|w| before(w, "non", f))
                        || (other.free_of.contains(f) && !text.free_of.contains(f))
                        || other.vocabulary.iter().any(|g| negative_prefix_of(g, f)))
            })
        })
        // A word of the scope counts when the other text has it or a word of its stem ("no
        // expiry" against "do not expire").
        // A day or a month is when, not what: "isn't going anywhere in January" shares only
        // the time with "ruled out selling him in January".
        .filter(|cue| {
            cue.kind == CueKind::Denial
                || text.forms[cue.scope.clone()].iter().flatten().any(|f| {
                    (other.vocabulary.contains(f)
                        || other.vocabulary.iter().any(|w| shares_stem(f, w)))
                        && text.is_content(f)
                        && !lexicon::MONTHS.contains(&f.as_str())
                        && !lexicon::WEEKDAYS.contains(&f.as_str())
                        && !affirmed_elsewhere(
                            text,
                            other,
                            f,
                            (page && !other_denies).then_some(&cue.scope),
                        )
                })
        })
        // A page's denial of the claim's act on another object denies that object only: "would
        // not appoint a separate chief operating officer" says nothing against "appointed CEO".
        // Read so only when the scope names an object of two words or more, none of them the
        // claim's, and the claim denies nothing itself (two denials are read as one).
        .filter(|cue| {
            if !page || cue.kind != CueKind::Negation || other_denies {
                return true;
            }
            let content: Vec<&String> = text.forms[cue.scope.clone()]
                .iter()
                .flatten()
                .filter(|f| text.is_content(f) && !NEGATION_ADVERBS.contains(&f.as_str()))
                .collect();
            let shared = |f: &&String| {
                other.vocabulary.contains(*f) || other.vocabulary.iter().any(|w| shares_stem(f, w))
            };
            match content.split_first() {
                Some((head, object)) if object.len() >= 2 && shared(head) => {
                    object.iter().any(shared)
                }
                _ => true,
            }
        })
        .map(|cue| cue.scope.clone())
        .collect::<Vec<_>>();
    // Two denials cancel only over one act ("never failed to qualify"); over two acts ("refused
    // to award damages, saying the yard had not acted in bad faith") each denies its own, and
    // one denied act is enough.
    let mut scopes = denied;
    scopes.sort_by_key(|s| s.start);
    let mut odd = false;
    let mut group: Option<(usize, usize)> = None;
    for scope in scopes {
        group = match group {
            Some((end, n)) if scope.start < end => Some((end.max(scope.end), n + 1)),
            Some((_, n)) => {
                odd |= n % 2 == 1;
                Some((scope.end, 1))
            }
            None => Some((scope.end, 1)),
        };
    }
    odd || group.is_some_and(|(_, n)| n % 2 == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_span_between_two_of_the_claim_s_years_the_sentence_states_is_stated() {
        let claim = "Ed Stone was the mission's chief scientist for half a century, taking on \
                     the role in 1972 and relinquishing it in 2022.";
        let a = aligned(
            claim,
            "Ed Stone became project scientist in 1972, five years before launch, and did not \
             step down until 2022.",
        );
        assert!(!a.number_conflict(), "{}", a.describe());
        // A claim that names no year of its own takes no two years of the sentence as its
        // span's ends.
        let a = aligned(
            "The bridge opened five years after construction began.",
            "Construction began in 1927 and the bridge opened in 1937, ten years after work \
             started; the design was revised in 1932.",
        );
        assert!(a.number_conflict(), "{}", a.describe());
        // Without both years the other span still conflicts.
        let a = aligned(
            "Ed Stone was the mission's chief scientist for half a century.",
            "Ed Stone was the mission's chief scientist for five years.",
        );
        assert!(a.number_conflict(), "{}", a.describe());
    }

    #[test]
    fn another_name_of_the_claim_name_s_kind_is_its_rival_wherever_it_stands() {
        let a = aligned(
            "Meridian started out in 2008 as a spin-off from Halvard University's immunology \
             department.",
            "Meridian was set up in 2008 by Raman and Professor Hugh Lindqvist as a spin-out \
             from the department of immunology at the University of Brackenford.",
        );
        assert_eq!(
            a.entity_conflict,
            Some((
                "Halvard University's".to_string(),
                "University of Brackenford".to_string()
            )),
            "{}",
            a.describe()
        );
        // Not when the sentence still uses one of the claim name's own words.
        let a = aligned(
            "The Hubble Space Telescope was launched in 1990 aboard the Space Shuttle Discovery.",
            "Hubble was launched on April 24, 1990, aboard the Space Shuttle Discovery from \
             Kennedy Space Center in Florida.",
        );
        assert_eq!(a.entity_conflict, None, "{}", a.describe());
    }

    #[test]
    fn a_place_reached_through_a_preposition_has_no_rival_in_the_sentence_s_subject() {
        let sentence = "Maria Salomea Skłodowska (7 November 1867 – 4 July 1934), known as Marie \
                        Curie, was a Polish and naturalised-French physicist and chemist.";
        let a = aligned("Marie Curie was born in Warsaw in 1867.", sentence);
        assert_eq!(a.entity_conflict, None, "{}", a.describe());
        // A place against a place is still a rival.
        let a = aligned(
            "Einstein was born in Munich.",
            "Albert Einstein was born in Ulm, in the Kingdom of Württemberg, on 14 March 1879.",
        );
        assert!(a.entity_conflict.is_some(), "{}", a.describe());
    }

    #[test]
    fn a_name_after_a_preposition_of_place_is_no_rival_of_an_agent() {
        let claim = "The wheat genome study was led by the University of Aldermoor.";
        let a = aligned(
            claim,
            "For the study, published in Nature Plants, a consortium of 17 institutions \
             sequenced the genomes of 322 wheat cultivars.",
        );
        assert_eq!(a.entity_conflict, None, "{}", a.describe());
        // Another agent is still a rival.
        let a = aligned(
            claim,
            "The wheat genome study was led by the University of Tervel.",
        );
        assert!(a.entity_conflict.is_some(), "{}", a.describe());
    }

    #[test]
    fn a_place_called_by_another_of_its_names_is_mentioned() {
        let a = aligned(
            "Microsoft closed its purchase of Activision Blizzard once Britain's competition \
             watchdog had signed off.",
            "Microsoft completed its acquisition of Activision Blizzard hours after the UK's \
             Competition and Markets Authority cleared a restructured deal.",
        );
        assert_eq!(a.entity_conflict, None, "{}", a.describe());
        let a = aligned(
            "Michael Collins remained in orbit around the Moon while Armstrong and Aldrin \
             touched down in July 1969.",
            "Armstrong and Aldrin landed the module Eagle on July 20, 1969, while Michael \
             Collins flew the Command Module Columbia in lunar orbit.",
        );
        assert_eq!(a.entity_conflict, None, "{}", a.describe());
        let a = aligned(
            "The Nile, generally regarded as Earth's longest river, empties into the \
             Mediterranean.",
            "The Nile is generally regarded as the longest river in the world, though some \
             argue that the Amazon is longer; it empties into the Mediterranean.",
        );
        assert_eq!(a.entity_conflict, None, "{}", a.describe());
        // Another country is still a rival.
        let a = aligned(
            "The deal was cleared by Britain's competition watchdog.",
            "The deal was cleared by France's competition watchdog.",
        );
        assert!(a.entity_conflict.is_some(), "{}", a.describe());
        // A word of a name is no lower-case alias: "the World Bank" does not mention Earth.
        let a = aligned(
            "The atmosphere of Earth is mostly nitrogen, a World Bank report says.",
            "The atmosphere of Mars is mostly nitrogen, a World Bank report says.",
        );
        assert!(a.entity_conflict.is_some(), "{}", a.describe());
    }

    #[test]
    fn a_lower_rank_against_the_subject_s_first_place_flips_the_alignment() {
        let a = aligned(
            "Vatican City is the world's second-smallest country, behind Monaco.",
            "Covering about 0.44 square kilometres, Vatican City is the smallest sovereign \
             state in the world, while Monaco ranks second.",
        );
        assert!(a.polarity_differs(), "{}", a.describe());
    }

    #[test]
    fn a_proposal_turned_down_did_not_happen() {
        let page = "The city council on Tuesday rejected, by nine votes to four, a proposal to \
                    contribute $640 million in public funds to a new downtown stadium.";
        let a = aligned(
            "The city council voted on Tuesday to contribute $640 million in public funds to a \
             new downtown stadium.",
            page,
        );
        assert!(a.polarity_differs(), "{}", a.describe());
        // A verb whose form a proposal's noun shares in another sense ("called") names no
        // proposal.
        let a = aligned(
            "The city council voted to build the stadium it called essential.",
            "The city council rejected a proposal to build the stadium it called essential.",
        );
        assert!(a.polarity_differs(), "{}", a.describe());
        // A claim about the proposal itself meets the rejecting verb as an opposite word.
        let a = aligned(
            "The city council approved the proposal to contribute $640 million to a new \
             downtown stadium.",
            "The city council on Tuesday rejected a proposal to contribute $640 million in \
             public funds to a new downtown stadium.",
        );
        assert!(a.polarity_differs(), "{}", a.describe());
    }

    #[test]
    fn a_german_noun_is_no_rival_name() {
        let a = aligned(
            "Bayer Leverkusen gewann 2024 erstmals die deutsche Meisterschaft und beendete eine \
             Serie von elf Bayern-Titeln in Folge.",
            "Mit dem 5:0 gegen Werder Bremen sicherte sich Bayer 04 Leverkusen den ersten \
             Meistertitel der Vereinsgeschichte und beendete die Serie des FC Bayern München.",
        );
        assert_eq!(a.entity_conflict, None, "{}", a.describe());
    }

    #[test]
    fn an_acronym_in_the_possessive_is_no_rival_of_a_person() {
        let a = aligned(
            "Talmor Holdings shareholders rejected the CEO's pay package.",
            "At Tuesday's annual meeting in Rotterdam, 57 percent of votes cast by Talmor \
             Holdings shareholders opposed the remuneration report, which would have awarded \
             chief executive Henrik Aasland a package worth up to €11 million.",
        );
        assert_eq!(a.entity_conflict, None, "{}", a.describe());
    }

    #[test]
    fn two_names_opening_their_texts_are_rivals_across_an_apposition() {
        let claim = "Priya Castellane, who chairs the Save Copse Farm campaign, told the meeting \
                     that the new flood modelling had been paid for by the developer.";
        let sentence = "Rosalind Petherick, a retired geography teacher who chairs the campaign, \
                        told the meeting that the new flood modelling had been paid for by the \
                        developer.";
        let a = aligned(claim, sentence);
        assert!(a.entity_conflict.is_some(), "{}", a.describe());
        // The subject's place alone is not enough: the sentence must say what the claim says.
        let a = aligned(
            "Priya Castellane, who chairs the campaign, told the meeting that the modelling \
             had been paid for by the developer.",
            "Rosalind Petherick, a retired teacher, has lived in Westerby since 1990.",
        );
        assert_eq!(a.entity_conflict, None, "{}", a.describe());
    }

    #[test]
    fn the_year_a_claim_compares_with_in_words_is_no_conflict() {
        let sentence = "Pre-tax profit for the six months to 30 June was £21.7 million, down from \
                        £34.9 million in the same period of 2025, even though revenue rose by 6% \
                        to £318.4 million.";
        let claim = |year: &str| {
            format!(
                "Skelda Line's pre-tax profit for the first half of {year} fell to £21.7 million \
                 from £34.9 million a year earlier, even though revenue grew 6% to £318.4 \
                 million."
            )
        };
        let a = aligned(&claim("2026"), sentence);
        assert!(!a.number_conflict(), "{}", a.describe());
        // Two years apart, the sentence's year is not the one the claim compares with.
        let a = aligned(&claim("2027"), sentence);
        assert!(a.number_conflict(), "{}", a.describe());
    }

    #[test]
    fn another_name_of_the_same_kind_is_a_rival_not_a_mention() {
        for (claim, sentence) in [
            // A title alone mentions no one.
            (
                "The hall was opened by Queen Isolde.",
                "The hall was opened by Queen Maren II in 1973.",
            ),
            // The word of direction is what names the place.
            (
                "The wall was built by West Varnia.",
                "The wall was built by the Varnian Democratic Republic.",
            ),
            (
                "The Danube flows into the Caspian Sea.",
                "The Danube flows into the Black Sea.",
            ),
            (
                "She studied at Oxford University.",
                "She studied at Cambridge University.",
            ),
            (
                "The bridge crosses the River Thames.",
                "The bridge crosses the River Severn.",
            ),
            // Round forty-one (ember-11): a kind of place that names many a one.
            (
                "The helicopters scooped their water from Scarrow Reservoir, a short flight \
                 from the western edge of the fire.",
                "The helicopters filled their buckets at Hollin Reservoir, a two-minute flight \
                 from the fire's western edge, and dropped more than 1,100 loads of water \
                 between them.",
            ),
            (
                "Boat trips round the rock set off from South Quay.",
                "Boats for the trip round the rock leave from North Quay.",
            ),
        ] {
            let a = aligned(claim, sentence);
            assert!(a.entity_conflict.is_some(), "{claim}: {}", a.describe());
        }
    }

    #[test]
    fn a_word_of_the_same_stem_affirms_only_when_the_claim_uses_it() {
        let page = Analysis::new(
            "Jones was the best player of the 2019 final for Leeds but did not play again.",
        );
        let denial = page.cues.first().expect("a denial").scope.clone();
        let play = super::super::lex::normalise("play").form;
        // "player" is no playing the claim speaks of.
        let claim = Analysis::new("Jones played again for Leeds after the 2019 final.");
        assert!(!affirmed_elsewhere(&page, &claim, &play, Some(&denial)));
        // "players" in the claim too: the page's word of that stem states it.
        let claim = Analysis::new(
            "Jones, one of the players, played again for Leeds after the 2019 final.",
        );
        assert!(affirmed_elsewhere(&page, &claim, &play, Some(&denial)));
    }

    fn aligned(claim: &str, sentence: &str) -> Alignment {
        align(
            &Analysis::new(claim),
            &Analysis::new(sentence),
            &[],
            &Topic::default(),
            &Weights::default(),
        )
    }

    #[test]
    fn a_figure_whose_words_sit_around_another_value_is_that_value_s_slot() {
        let claim = "Valdane's offer represents a 62% premium to Meridian's closing share price.";
        let a = aligned(
            claim,
            "The offer is 47% above Meridian's closing price of 1,252p on Friday and 62% above \
             its average price over the past three months.",
        );
        assert!(a.number_conflict(), "{}", a.describe());
        // The equal value with the claim's words around it is the claim's.
        let a = aligned(
            claim,
            "The offer is 62% above Meridian's closing price of 1,252p on Friday and 47% above \
             its average price over the past three months.",
        );
        assert!(!a.number_conflict(), "{}", a.describe());
        // Words that describe the claim's other figure do not move this one: the equal value
        // in a clause of its own stays the claim's.
        let a = aligned(
            "About 26.8 million vehicles crossed in 2024, more than a fifth more than in 2018, \
             the final full year of tolling.",
            "In 2018, the last full year of tolls, 21.9 million vehicles crossed; in 2024 the \
             figure was 26.8 million, about 22% more.",
        );
        assert!(!a.number_conflict(), "{}", a.describe());
    }

    #[test]
    fn a_whole_or_an_average_of_two_of_the_sentence_s_figures_is_stated() {
        let page = "The Orland Science Council provided £4.2 million through a five-year grant, \
                    and the Velmar Foundation, a private charity, paid the remaining £1.1 million.";
        let a = aligned(
            "Most of the survey's £5.3 million cost was met by the Orland Science Council, \
             with the Velmar Foundation paying the rest.",
            page,
        );
        assert!(!a.number_conflict(), "{}", a.describe());
        // Without a word of the rest or of a total, the sum is no reading of the claim.
        let a = aligned(
            "The Orland Science Council provided £5.3 million through a five-year grant.",
            page,
        );
        assert!(a.number_conflict(), "{}", a.describe());
        let page = "The council has so far paid £410,000 in compensation to 57 businesses on the \
                    route.";
        let a = aligned(
            "Compensation paid so far to businesses on the route averages a little over £7,000 \
             per firm.",
            page,
        );
        assert!(!a.number_conflict(), "{}", a.describe());
        // A rate whose noun the sentence counts ("£640 for the seven nights").
        let a = aligned(
            "Their cottage in Porthkell worked out at a little over £90 a night.",
            "We rented a cottage in Porthkell for £640 for the seven nights.",
        );
        assert!(!a.number_conflict(), "{}", a.describe());
        // An average the division does not give still conflicts.
        let a = aligned(
            "Compensation paid so far to businesses on the route averages about £9,000 per \
             firm.",
            page,
        );
        assert!(a.number_conflict(), "{}", a.describe());
    }

    #[test]
    fn a_comparison_s_other_arm_ends_where_the_sentence_gives_its_source() {
        let a = aligned(
            "A revised business case released on Tuesday by Castlemere Metro puts the line's \
             cost at £407m, some £89m above the budget councillors signed off.",
            "Castlemere's Eastern tram line will cost £407 million, £89 million more than the \
             budget councillors approved five years ago, according to a revised business case \
             published by the city's transport authority, Castlemere Metro, on Tuesday.",
        );
        assert_eq!(a.entity_conflict, None, "{}", a.describe());
    }

    #[test]
    fn a_comparative_right_after_a_figure_flips_against_its_opposite() {
        let claim = "Phrase queries of five words or more run about 9% faster in 4.0.";
        let a = aligned(
            claim,
            "Phrase queries of five or more words ran about 9% slower in 4.0, because \
             positions are now decoded a block at a time.",
        );
        assert!(a.reversed.is_some(), "{}", a.describe());
        let a = aligned(
            claim,
            "Phrase queries of five or more words ran about 9% faster in 4.0.",
        );
        assert_eq!(a.reversed, None, "{}", a.describe());
        // With "than", the two things compared say which is which.
        let a = aligned(
            "Carn Hollow's turbines would be nearly 40 metres taller than Gallow Rigg's, which \
             stand 110 metres high.",
            "Its turbines are 110 metres tall, almost 40 metres shorter than those proposed at \
             Carn Hollow.",
        );
        assert_eq!(a.reversed, None, "{}", a.describe());
    }

    #[test]
    fn not_everything_denies_only_a_universal_and_not_ruled_out_affirms() {
        // "Not everything got quicker" says some things did not; nothing of one benchmark.
        let a = aligned(
            "The binary_trees benchmark got quicker in 1.4.",
            "Not everything got quicker in 1.4.",
        );
        assert!(!a.sentence_negated, "{}", a.describe());
        // "ruled out that ..." denies what follows.
        let a = aligned(
            "Some of the clouds are tidal debris, the team says.",
            "The team has ruled out that any of the clouds are tidal debris.",
        );
        assert!(a.polarity_differs(), "{}", a.describe());
    }

    #[test]
    fn two_parties_traded_between_clauses_conflict_in_the_alignment() {
        let a = aligned(
            "Ketterley Land conceded the flood-risk ground before the hearing, while the \
             Secretary of State contested it to the end.",
            "The Secretary of State conceded this ground before the hearing; Ketterley Land \
             contested it to the end.",
        );
        assert!(a.entity_conflict.is_some(), "{}", a.describe());
    }

    #[test]
    fn two_events_ordered_the_other_way_flip_the_claim() {
        let a = aligned(
            "The shared banking hubs will only open once the branches in their towns have \
             closed.",
            "The hubs will open before the branches in their towns close, the bank said.",
        );
        assert!(a.reversed.is_some(), "{}", a.describe());
    }

    #[test]
    fn a_reviewer_s_counterexamples_to_the_nineteenth_session_s_rules_hold() {
        // Flips that must stand.
        for (claim, page) in [
            (
                "Revenue rose 12% while costs fell 3%.",
                "Revenue fell 12% while costs rose 3%.",
            ),
            (
                "The Senate approved the bill, but the House rejected it.",
                "The Senate rejected the bill, but the House approved it.",
            ),
        ] {
            assert!(aligned(claim, page).reversed.is_some(), "{claim} / {page}");
        }
        // Denials that must still count.
        for (claim, page) in [
            (
                "Tickets cost between £12 and £15 and are refundable.",
                "Tickets cost between £12 and £15, but they are not refundable.",
            ),
            (
                "The entire crew was rescued.",
                "Not everyone in the crew was rescued.",
            ),
            (
                "The board voted unanimously to approve the merger.",
                "Not everyone on the board voted to approve the merger.",
            ),
        ] {
            assert!(aligned(claim, page).polarity_differs(), "{claim} / {page}");
        }
        // No flip.
        for (claim, page) in [
            (
                "The FTSE 100 closed 0.5% higher on Tuesday.",
                "The FTSE 100 closed 0.5% higher on Tuesday, while Germany's Dax ended 0.5% \
                 lower.",
            ),
            (
                "The Harwood textile mill shut before the station closed.",
                "Harwood's textile mill, once the town's largest employer, shut before the \
                 station closed.",
            ),
            (
                "The chief executive resigned after the company's collapse.",
                "The chief executive appeared before the committee to explain the company's \
                 collapse, and resigned two days later.",
            ),
            (
                "The hubs will open before the branches in their towns close.",
                "The hubs will open after the summer, before the branches in their towns close.",
            ),
            (
                "Reyes resigned from the committee before the Senate vote.",
                "In the Senate, shortly before the vote, Reyes resigned from the committee.",
            ),
        ] {
            let a = aligned(claim, page);
            assert!(!a.polarity_differs(), "{claim} / {page}: {}", a.describe());
        }
        // No traded parties.
        for (claim, page) in [
            (
                "Apple sued Samsung in April 2011, and Samsung countersued Apple a week later.",
                "Samsung was sued by Apple in April 2011, and Apple was countersued by Samsung a \
                 week later.",
            ),
            (
                "Lennon wrote the lyrics, while McCartney composed the melody.",
                "McCartney said Lennon wrote the lyrics, and Lennon said McCartney composed the \
                 melody.",
            ),
        ] {
            let a = aligned(claim, page);
            assert_eq!(
                a.entity_conflict,
                None,
                "{claim} / {page}: {}",
                a.describe()
            );
        }
        // Figures: conflicts that must stand, and equal values that must not conflict.
        for (claim, page, conflict) in [
            (
                "The council will provide the remaining £5.3 million.",
                "The council will provide £4.2 million, and the charity will pay the remaining \
                 £1.1 million.",
                true,
            ),
            (
                "Season tickets cost £50 each.",
                "The club sold 2,000 season tickets at £25 each, bringing in £100,000.",
                true,
            ),
            (
                "The Eiffel Tower is 330 metres tall.",
                "It now stands 330 metres high; when completed in 1889 the Eiffel Tower was 312 \
                 metres tall.",
                false,
            ),
            (
                "Lake Baikal's maximum depth is 1,642 metres.",
                "At its deepest point it reaches 1,642 metres, while the average depth of Lake \
                 Baikal is 744 metres.",
                false,
            ),
        ] {
            let a = aligned(claim, page);
            assert_eq!(
                a.number_conflict(),
                conflict,
                "{claim} / {page}: {}",
                a.describe()
            );
        }
        // An exception fronted or trailing reads as the one after the pronoun.
        let a = aligned(
            "Apart from the pilot, nobody survived the crash.",
            "Nobody except the pilot survived the crash.",
        );
        assert!(!a.polarity_differs(), "{}", a.describe());
    }

    #[test]
    fn a_denial_with_an_exception_affirms_what_it_excepts() {
        for page in [
            "That flag now does nothing apart from printing a deprecation notice.",
            "That flag now does nothing except print a deprecation notice.",
            "That flag now does nothing other than print a deprecation notice.",
        ] {
            let a = aligned("All the flag does now is print a deprecation notice.", page);
            assert!(!a.sentence_negated, "{page}: {}", a.describe());
        }
        // No one but the one excepted: he did take part.
        let a = aligned(
            "The captain took part in the final.",
            "No one apart from the captain took part in the final.",
        );
        assert!(!a.sentence_negated, "{}", a.describe());
        // Without an exception the pronoun still denies.
        let a = aligned(
            "The flag prints a deprecation notice.",
            "The flag now prints nothing, not even a deprecation notice.",
        );
        assert!(a.sentence_negated, "{}", a.describe());
    }

    #[test]
    fn a_negation_beside_the_clause_with_the_claim_s_figures_is_about_its_own_clause() {
        let claim = "Falconbrook now expects operating profit of £44m–£50m for 2027, up from \
                     its earlier guidance of £38m–£46m.";
        let a = aligned(
            claim,
            "Falconbrook did not change its forecast for revenue in 2027, of £560 million to \
             £590 million, but raised its range for operating profit to £44 million to £50 \
             million, from £38 million to £46 million.",
        );
        assert!(!a.sentence_negated, "{}", a.describe());
        // The clause with the figures denied itself: a flip.
        let a = aligned(
            claim,
            "Falconbrook did not raise its range for operating profit to £44 million to £50 \
             million, from £38 million to £46 million.",
        );
        assert!(a.sentence_negated, "{}", a.describe());
        // The figures in another sentence tell nothing of this one's clause.
        let a = aligned(
            claim,
            "Falconbrook did not change its forecast. It raised its range for operating \
             profit to £44 million to £50 million, from £38 million to £46 million.",
        );
        assert!(a.sentence_negated, "{}", a.describe());
    }

    #[test]
    fn a_denial_the_sentence_shares_in_another_clause_keeps_the_polarity() {
        let claim =
            "Engineers from Northern Water inspected the Lannock Dam and declared it safe, \
            finding no cracks or measurable movement.";
        let sentence =
            "Engineers from Northern Water, which owns the dam, inspected the wall, its \
            foundations and the spillway through the morning, and at 11.30am the company said \
            the structure was safe, with no cracks and no measurable movement.";
        let a = aligned(claim, sentence);
        assert!(!a.polarity_differs(), "{}", a.describe());
        // The page affirming what the claim denies is still a flip.
        let sentence =
            "Engineers from Northern Water, which owns the dam, inspected the wall, its \
            foundations and the spillway through the morning, and at 11.30am the company said \
            the structure was safe, despite cracks and some measurable movement.";
        let a = aligned(claim, sentence);
        assert!(a.polarity_differs(), "{}", a.describe());
    }

    #[test]
    fn a_superlative_bounded_in_time_does_not_state_one_that_is_not() {
        let sentence = "Wednesday's earthquake was the strongest to hit Orland since 1957, when a \
            magnitude 6.2 quake killed 38 people.";
        let a = aligned(
            "Wednesday's quake was the strongest ever recorded in Orland.",
            sentence,
        );
        assert_eq!(
            a.rank_unstated.as_deref(),
            Some("strongest"),
            "{}",
            a.describe()
        );
        let a = aligned(
            "Wednesday's quake was the strongest to hit Orland since 1957.",
            sentence,
        );
        assert_eq!(a.rank_unstated, None, "{}", a.describe());
    }

    #[test]
    fn a_contrast_with_its_arms_swapped_is_a_flip() {
        let sentence = "Rather than rest it and risk a recurrence, she chose surgery in March.";
        let a = aligned(
            "Her wrist injury was treated with rest rather than surgery.",
            sentence,
        );
        assert!(a.polarity_differs(), "{}", a.describe());
        let a = aligned(
            "Her wrist injury was treated with surgery rather than rest.",
            sentence,
        );
        assert!(!a.polarity_differs(), "{}", a.describe());
    }

    #[test]
    fn a_difference_of_two_of_the_sentence_s_values_is_no_conflict() {
        let a = aligned(
            "The X4 body costs $1,399 on its own, and buying it with the kit lens adds $300.",
            "Our review unit came with the kit lens for $1,699; the body alone costs $1,399.",
        );
        assert!(!a.number_conflict(), "{}", a.describe());
        // A value less the difference the sentence gives is the value before: another slot.
        let a = aligned(
            "Solvik employs 600 people at its Kestrel Bay terminal.",
            "The company employs 640 people at the Kestrel Bay terminal, 40 more than in 2023.",
        );
        assert!(a.number_conflict(), "{}", a.describe());
    }

    #[test]
    fn a_difference_runs_the_way_a_loose_from_to_change_runs() {
        // Round thirty-nine (tundra-06): "from" a few words before the first value.
        let sentence = "The active layer deepened from an average of 62 centimetres across the \
            four sites in 2016 to 81 centimetres in 2025.";
        let a = aligned(
            "The active layer has deepened by almost 20 cm, from 62 cm to 81 cm.",
            sentence,
        );
        assert!(a.numbers_agree(), "{}", a.describe());
        let a = aligned(
            "The active layer has shrunk by almost 20 cm, from 62 cm to 81 cm.",
            sentence,
        );
        assert!(!a.numbers_agree(), "{}", a.describe());
    }

    #[test]
    fn a_share_of_change_is_worked_out_against_a_compared_earlier_value() {
        let sentence = "The ground released 38 grams of carbon per square metre in 2025, \
            compared with 21 grams in 2016.";
        let a = aligned(
            "Carbon released by the ground rose by roughly 80%.",
            sentence,
        );
        assert!(a.numbers_agree(), "{}", a.describe());
        // The other way, or another share, is not worked out.
        for claim in [
            "Carbon released by the ground fell by roughly 80%.",
            "Carbon released by the ground rose by roughly 40%.",
        ] {
            let a = aligned(claim, sentence);
            assert!(!a.numbers_agree(), "{claim}: {}", a.describe());
        }
    }

    #[test]
    fn two_denials_of_one_thing_agree() {
        // Round thirty-nine (tramway-12): the page's denial sits in a clause of its own.
        let a = aligned(
            "The mayor apologised without reservation for the project taking longer and \
             costing more than anyone had wanted.",
            "\u{201c}It has taken longer and cost more than any of us wanted, and I apologise \
             for that without reservation,\u{201d} she said.",
        );
        assert!(!a.polarity_differs(), "{}", a.describe());
        // The page's denial in a clause the claim's other words are not in (quake-04, keel-05).
        let a = aligned(
            "Engineers from Northern Water inspected the Lannock Dam and declared it safe, \
             finding no cracks or measurable movement.",
            "Engineers from Northern Water, which owns the dam, inspected the wall, its \
             foundations and the spillway through the morning, and at 11.30am the company said \
             the structure was safe, with no cracks and no measurable movement.",
        );
        assert!(!a.polarity_differs(), "{}", a.describe());
        let a = aligned(
            "You're allowed to change the chunk size of an existing repository, but the \
             following backup will upload everything again because it shares almost no chunks \
             with earlier snapshots.",
            "Be aware, though, that the next backup will share almost no chunks with the older \
             snapshots, so it will upload everything once more and the repository will briefly \
             need about twice its usual space, until `keel prune` removes the old snapshots' \
             chunks.",
        );
        assert!(!a.polarity_differs(), "{}", a.describe());
        // One denial against two of the same things.
        let page = "The engineers said the structure was safe, with no cracks and no \
            measurable movement.";
        let a = aligned(
            "The engineers declared the structure safe, finding no cracks or measurable \
             movement.",
            page,
        );
        assert!(!a.polarity_differs(), "{}", a.describe());
        let a = aligned(
            "The engineers found cracks and measurable movement in the structure.",
            page,
        );
        assert!(a.polarity_differs(), "{}", a.describe());
    }

    #[test]
    fn a_word_made_free_denies_what_it_names() {
        let page = "The brine holds no oxygen at all, and its temperature is 21.5 degrees.";
        let a = aligned("The oxygen-free brine is at 21.5 degrees.", page);
        assert!(!a.polarity_differs(), "{}", a.describe());
        let page = "The paint contains no lead.";
        let a = aligned("The paint is lead-free.", page);
        assert!(!a.polarity_differs(), "{}", a.describe());
        // "Not lead-free" says the lead is there.
        let a = aligned("The paint is not lead-free.", page);
        assert!(a.polarity_differs(), "{}", a.describe());
    }

    #[test]
    fn a_year_dating_a_day_the_sentence_gives_without_one_is_the_page_s() {
        // Round forty (glen-01): a news page leaves its year to the date line.
        let sentence = "The study was published on 4 March in the journal Insect Ecology.";
        let a = aligned(
            "The study was published in Insect Ecology on 4 March 2027.",
            sentence,
        );
        assert!(a.numbers_agree(), "{}", a.describe());
        assert!(
            a.numbers.contains(&NumberFit::Elsewhere),
            "{}",
            a.describe()
        );
        // Another day is no help, nor is a year the sentence gives itself.
        let a = aligned(
            "The study was published in Insect Ecology on 5 March 2027.",
            sentence,
        );
        assert!(!a.numbers_agree(), "{}", a.describe());
        let a = aligned(
            "The study was published in Insect Ecology on 4 March 2027.",
            "The study was published on 4 March 2026 in the journal Insect Ecology.",
        );
        assert!(!a.numbers_agree(), "{}", a.describe());
    }

    #[test]
    fn a_difference_from_a_mark_or_a_remainder_is_worked_out() {
        // Round forty-one (fern-02): "below the" a mark the sentence gives.
        let sentence = "The Askel rises at Askel Well, a spring at 541 metres on the eastern \
            flank of Tarrock Fell, which at 684 metres is the highest point in Carthshire.";
        let claim = |gap: &str| {
            format!(
                "Askel Well lies at 541 metres, roughly {gap} metres below the 684-metre top of \
                 Tarrock Fell."
            )
        };
        assert!(aligned(&claim("140"), sentence).numbers_agree());
        assert!(!aligned(&claim("240"), sentence).numbers_agree());
        // "over the" a stretch of time opens no mark.
        let a = aligned(
            "The fell's lead over the spring grew 143 metres over the decade.",
            "Tarrock Fell stands at 684 metres and the spring at 541 metres.",
        );
        assert!(!a.numbers_agree(), "{}", a.describe());
        // What is left (round thirty-six, probe-04), with a close bound.
        let sentence = "It has used 214 kilograms of the 310 kilograms of xenon it carried at \
            launch.";
        let claim = |left: &str| {
            format!(
                "Kittiwake has burned 214 kg of its 310 kg of xenon, leaving it with {left} kg."
            )
        };
        assert!(aligned(&claim("just under 100"), sentence).numbers_agree());
        assert!(!aligned(&claim("just under 60"), sentence).numbers_agree());
        assert!(!aligned(&claim("just over 100"), sentence).numbers_agree());
        // A verb of passing a mark "by" a difference.
        let sentence = "The final cost was \u{a3}87,400, against Welburn's estimate of \
            \u{a3}54,000.";
        let claim = |by: &str| {
            format!(
                "The canal cost \u{a3}87,400, overrunning Welburn's \u{a3}54,000 estimate by \
                 roughly \u{a3}{by}."
            )
        };
        assert!(aligned(&claim("33,000"), sentence).numbers_agree());
        assert!(!aligned(&claim("45,000"), sentence).numbers_agree());
    }

    #[test]
    fn a_stated_change_that_two_values_make_is_no_conflict_with_either() {
        // Round thirty-six (marsh-03): the claim's count of birds against the sentence's two
        // bare counts, the way the claim says.
        let sentence = "Lapwing numbers fell again, to a peak of 1,480, against 2,600 in the \
            survey's first winter.";
        let a = aligned(
            "Compared with the first winter of the survey, the lapwing peak is down by about \
             1,100 birds, to 1,480.",
            sentence,
        );
        assert!(a.numbers_agree(), "{}", a.describe());
        let a = aligned(
            "Compared with the first winter of the survey, the lapwing peak is up by about 1,100 \
             birds, to 1,480.",
            sentence,
        );
        assert!(!a.numbers_agree(), "{}", a.describe());
    }

    #[test]
    fn a_total_of_the_claim_s_own_stated_parts_is_worked_out() {
        // Round forty-one (delta-07).
        let sentence = "The trial was funded with \u{a3}2.1 million from the institute's \
            programme, and with \u{a3}180,000 from the charity Age Forward.";
        let claim = |total: &str| {
            format!(
                "The trial's funding came to roughly \u{a3}{total} million: \u{a3}2.1 million \
                 from the institute and \u{a3}180,000 from the charity Age Forward."
            )
        };
        assert!(aligned(&claim("2.3"), sentence).numbers_agree());
        assert!(!aligned(&claim("2.6"), sentence).numbers_agree());
        // The sentence's only two amounts make the whole the claim names by itself (see
        // `whole_of_two`); three that the sentence lists are no such whole.
        let a = aligned(
            "The trial's funding came to roughly \u{a3}2.3 million.",
            sentence,
        );
        assert!(a.numbers_agree(), "{}", a.describe());
        let a = aligned(
            "The trial's funding came to roughly \u{a3}2.3 million.",
            "The trial was funded with \u{a3}2.1 million from the institute's programme, with \
             \u{a3}180,000 from the charity Age Forward and with \u{a3}90,000 from the council.",
        );
        assert!(!a.numbers_agree(), "{}", a.describe());
    }

    #[test]
    fn a_reviewer_s_counterexamples_to_the_seventeenth_session_s_arithmetic_hold() {
        // A helper session's adversarial pairs against the worked-out shares, differences,
        // remainders and totals: each must not agree (`false`) or must (`true`).
        for (claim, sentence, agrees) in [
            // Two items of a list are no part and whole.
            (
                "Smith won about 60% of the vote.",
                "Smith received 30,000 votes and Jones 50,000.",
                false,
            ),
            (
                "Women make up about 80% of the board.",
                "The board has 9 women and 11 men.",
                false,
            ),
            (
                "About 40% of the council's budget goes to schools.",
                "The council spends \u{a3}40m on roads and \u{a3}100m on social care.",
                false,
            ),
            // A change, a discount or a rate is no plain share.
            (
                "The town's population grew 80% between 2000 and 2020.",
                "The town had 40,000 residents in 2000 and 50,000 in 2020.",
                false,
            ),
            (
                "The jacket is now sold at a 20% discount.",
                "The jacket was reduced from \u{a3}100 to \u{a3}20.",
                false,
            ),
            (
                "The loan carries an interest rate of 25%.",
                "She borrowed \u{a3}200,000 to buy a flat worth \u{a3}800,000.",
                false,
            ),
            // "Over the" a stretch of time, "under the" a scheme: no mark.
            (
                "Temperatures hit 15C over the bank holiday.",
                "Temperatures rose from 25C on Friday to 40C over the bank holiday.",
                false,
            ),
            // What remains needs a whole the sentence marks.
            (
                "After the cuts, the remaining budget is \u{a3}3m.",
                "The budget was cut from \u{a3}8m to \u{a3}5m.",
                false,
            ),
            // Direction is not read from two values the sentence merely lists.
            (
                "Ticket prices fell by \u{a3}50 to \u{a3}30.",
                "A ticket cost \u{a3}30 in 2010 and costs \u{a3}80 today.",
                false,
            ),
            // A total is of all the claim's parts, to the total's own precision.
            (
                "The plan costs \u{a3}5m: \u{a3}3m for roads, \u{a3}2m for schools and \u{a3}1m \
                 for parks.",
                "The plan funds roads (\u{a3}3m), schools (\u{a3}2m) and parks (\u{a3}1m).",
                false,
            ),
            // Still worked out.
            (
                "Rent takes up about a third of the average salary.",
                "The average rent is \u{a3}900 a month, and the average salary is \u{a3}2,700 a \
                 month.",
                true,
            ),
            (
                "Women are paid about 85% of what men are paid.",
                "Median pay for women was \u{a3}27,000 against \u{a3}31,500 for men.",
                true,
            ),
            (
                "The canal cost \u{a3}87,400, exceeding the \u{a3}54,000 estimate by about \
                 \u{a3}33,000.",
                "The final cost was \u{a3}87,400, against an estimate of \u{a3}54,000.",
                true,
            ),
        ] {
            let a = aligned(claim, sentence);
            assert_eq!(
                a.numbers_agree(),
                agrees,
                "{claim} / {sentence}: {}",
                a.describe()
            );
        }
        // A donor's share of a whole the sentence gives otherwise leaves the claim's whole a
        // rival.
        let a = aligned(
            "Donors covered roughly 40% of the reserve's \u{a3}312,000 running costs.",
            "Donors gave \u{a3}128,000 of the reserve's \u{a3}350,000 running costs.",
        );
        assert!(a.number_conflict(), "{}", a.describe());
    }

    #[test]
    fn a_set_named_by_its_count_is_gainsaid_only_by_a_count_of_its_noun() {
        // Round forty (pylon-04): "the two sides" against a sentence of goals.
        let a = aligned(
            "Saltby scored more league goals than Cranmoor, although the two sides conceded the \
             same number.",
            "Saltby scored 52 league goals and Cranmoor 47, and both conceded 14, the fewest in \
             the division.",
        );
        assert!(!a.number_conflict(), "{}", a.describe());
        // A count of the same noun still conflicts.
        let a = aligned(
            "The appeal was heard by the three judges of the court.",
            "The appeal was heard by five judges of the court.",
        );
        assert!(a.number_conflict(), "{}", a.describe());
    }

    #[test]
    fn a_share_in_words_is_round_and_a_remaining_share_is_worked_out() {
        // Round thirty-eight (vinery-03).
        let sentence = "Chardonnay accounts for 46 per cent of the vines at Marlstone and Pinot \
            Noir for 38 per cent, with Pinot Meunier making up the rest.";
        let claim = |rest: &str| {
            format!(
                "Almost half of Marlstone's vines are Chardonnay, with Pinot Noir at 38% and \
                 Pinot Meunier accounting for the remaining {rest}%."
            )
        };
        let a = aligned(&claim("16"), sentence);
        assert!(a.numbers_agree(), "{}", a.describe());
        assert!(!aligned(&claim("26"), sentence).numbers_agree());
        // A share in words reaches a tenth of itself, not further.
        let a = aligned(
            "Almost a third of Marlstone's vines are Chardonnay.",
            "Chardonnay accounts for 46 per cent of the vines at Marlstone.",
        );
        assert!(a.number_conflict(), "{}", a.describe());
    }

    #[test]
    fn a_share_is_worked_out_from_a_part_and_its_whole() {
        // Round forty-one (ember-04): a bounded share of two amounts of one unit.
        let sentence = "The weather station at Hollin recorded 11 mm of rain in April, against an \
            average of 61 mm for the month.";
        let a = aligned(
            "Hollin had only 11 mm of rain in April, less than a fifth of the 61 mm the month \
             normally brings.",
            sentence,
        );
        assert!(a.numbers_agree(), "{}", a.describe());
        let a = aligned(
            "Hollin had only 11 mm of rain in April, about half of the 61 mm the month \
             normally brings.",
            sentence,
        );
        assert!(!a.numbers_agree(), "{}", a.describe());
        // Without the part in the claim: the share alone is worked out.
        let sentence = "He bought the oven in 2018 from a bakery that was closing down, for \
            \u{a3}6,500; a new one was \u{a3}38,000.";
        let a = aligned(
            "He bought the oven second-hand in 2018 for around a sixth of the price of a new one.",
            sentence,
        );
        assert!(a.numbers_agree(), "{}", a.describe());
        let a = aligned(
            "He bought the oven second-hand in 2018 for around a third of the price of a new one.",
            sentence,
        );
        assert!(!a.numbers_agree(), "{}", a.describe());
        // A bound reaches only so far: 18% is no "more than a tenth".
        let a = aligned(
            "He bought the oven second-hand in 2018 for more than a tenth of the price of a new \
             one.",
            sentence,
        );
        assert!(!a.numbers_agree(), "{}", a.describe());
        // Round forty-one (quartz-03): figures glued to their word, and another figure of
        // another kind beside them.
        let sentence =
            "Shareholders will receive 240p in cash and 0.05 of a new Ardvale share for \
            each share they own, worth 318p in total at Ardvale's closing price of 1,560p.";
        let a = aligned(
            "About three-quarters of the 318p offer is paid in cash, with the rest in new \
             Ardvale shares.",
            sentence,
        );
        assert!(a.numbers_agree(), "{}", a.describe());
        let a = aligned(
            "About half of the 318p offer is paid in cash, with the rest in new Ardvale shares.",
            sentence,
        );
        assert!(!a.numbers_agree(), "{}", a.describe());
        // A share given as a change is no part of a whole.
        let a = aligned(
            "The price of the oven was cut by around a sixth in 2018.",
            sentence,
        );
        assert!(!a.numbers_agree(), "{}", a.describe());
    }

    #[test]
    fn a_whole_the_claim_works_a_share_out_of_has_no_rival_in_its_parts() {
        // Round forty-one (heron-08): the claim names the whole after its share; the sentence
        // lists the parts.
        let sentence = "Members and donors gave \u{a3}128,000 of that, the scheme paid \
            \u{a3}88,000 for managing the grassland, and the remaining \u{a3}42,000 came from \
            grants.";
        let a = aligned(
            "Members and donors covered roughly 40% of the reserve's \u{a3}312,000 running \
             costs.",
            sentence,
        );
        assert!(!a.number_conflict(), "{}", a.describe());
        // A share that no part gives leaves the whole a rival.
        let a = aligned(
            "Members and donors covered roughly 60% of the reserve's \u{a3}312,000 running \
             costs.",
            sentence,
        );
        assert!(a.number_conflict(), "{}", a.describe());
    }

    #[test]
    fn a_ratio_is_worked_out_from_two_values_of_one_kind() {
        // Round forty (beacon-08): a verb of multiplying.
        let sentence = "About 6,400 people live here all year, but in August the town holds \
            something like 25,000.";
        let a = aligned(
            "The town's population of around 6,400 nearly quadruples in August.",
            sentence,
        );
        assert!(a.numbers_agree(), "{}", a.describe());
        let a = aligned(
            "The town's population of around 6,400 doubles in August.",
            sentence,
        );
        assert!(!a.numbers_agree(), "{}", a.describe());
        // Round forty (sorrel-05): "twice" is a ratio of two.
        let sentence = "Of those taking a tablet every day, 31% stopped within eight weeks, \
            compared with 12% of those taking one on alternate days.";
        let a = aligned(
            "Patients taking it every day were more than twice as likely to stop within eight \
             weeks as those taking it on alternate days.",
            sentence,
        );
        assert!(a.numbers_agree(), "{}", a.describe());
        let a = aligned(
            "Patients taking it every day were more than four times as likely to stop within \
             eight weeks as those taking it on alternate days.",
            sentence,
        );
        assert!(!a.numbers_agree(), "{}", a.describe());
        // Round forty (glen-06).
        let sentence = "Traps on the dark verges caught an average of 4.3 males a night; those \
            under streetlamps caught 0.6.";
        let a = aligned(
            "Traps caught roughly seven times as many males on dark verges as under \
             streetlamps.",
            sentence,
        );
        assert!(a.numbers_agree(), "{}", a.describe());
        let a = aligned(
            "Traps caught three times as many males on dark verges as under streetlamps.",
            sentence,
        );
        assert!(!a.numbers_agree(), "{}", a.describe());
    }

    #[test]
    fn figures_given_each_other_s_labels_are_swapped() {
        // Round forty (cinder-14).
        let sentence = "Of the 85, 51 will be for social rent and 34 for shared ownership.";
        let a = aligned(
            "Of the 85 affordable homes, 51 will be offered as shared ownership and 34 for \
             social rent.",
            sentence,
        );
        assert!(a.polarity_differs(), "{}", a.describe());
        let a = aligned(
            "Of the 85 affordable homes, 51 will be for social rent and 34 for shared \
             ownership.",
            sentence,
        );
        assert!(!a.polarity_differs(), "{}", a.describe());
        // Labels the sentence does not set against each other swap nothing.
        let a = aligned(
            "Of the 85 homes, 51 are for families and 34 for shared ownership.",
            sentence,
        );
        assert!(!a.polarity_differs(), "{}", a.describe());
    }

    #[test]
    fn a_reviewer_s_counterexamples_to_the_sixteenth_session_s_rules_hold() {
        // Two denials of one verb over different things still differ.
        let a = aligned(
            "The drug did not reduce mortality.",
            "The drug reduced mortality, although it did not reduce hospital admissions.",
        );
        assert!(a.polarity_differs(), "{}", a.describe());
        // A sentence that denies the "-free" word itself still flips the claim.
        let a = aligned("The bonds are tax-free.", "The bonds are not tax-free.");
        assert!(a.polarity_differs(), "{}", a.describe());
        // A check followed by a denial of its own is a denial.
        let a = aligned(
            "The dam leaked.",
            "Inspectors checked the dam and it did not leak.",
        );
        assert!(a.polarity_differs(), "{}", a.describe());
        // The product a claim multiplies to is its value, and the sentence's other value a
        // rival.
        let a = aligned(
            "Sales quadrupled to 400 units.",
            "Sales quadrupled to 100 units.",
        );
        assert!(a.number_conflict(), "{}", a.describe());
        // A label before each figure is no label of the figure before it.
        let a = aligned(
            "The fund gave 51 million to schools and 34 million to hospitals.",
            "Schools received 51 million and hospitals 34 million from the fund.",
        );
        assert!(!a.polarity_differs(), "{}", a.describe());
    }

    #[test]
    fn a_value_inside_a_range_the_sentence_gives_is_no_conflict() {
        let sentence = "Researchers at the University of Portaskel followed 48,316 people aged \
            between 40 and 74 who had joined the Orland Health Survey between 2009 and 2012, \
            tracking them for an average of 11.4 years through hospital and GP records.";
        let claim = "The participants' average age when they joined the Orland Health Survey \
            was 56.";
        let a = aligned(claim, sentence);
        assert!(!a.number_conflict(), "{}", a.describe());
        // A value outside the range still conflicts.
        let a = aligned(
            "The participants' average age when they joined the Orland Health Survey was 81.",
            sentence,
        );
        assert!(a.number_conflict(), "{}", a.describe());
    }

    #[test]
    fn a_rank_the_sentence_leaves_out_is_unstated() {
        let claim = "Millbrook Tide Mill is the oldest surviving tide mill in Orland.";
        let one_of = aligned(
            claim,
            "Millbrook Tide Mill is one of four tide mills that survive in Orland.",
        );
        assert!(one_of.rank_unstated.is_some(), "{}", one_of.describe());
        assert!(one_of.support_key() < 0.0);
        // The rank as written, in another superlative, or as a record, is stated.
        for sentence in [
            "Millbrook Tide Mill is the oldest tide mill that survives in Orland.",
            "Of the four tide mills that survive in Orland, Millbrook's is the earliest.",
            "Millbrook Tide Mill holds the record as the surviving tide mill of longest \
             standing in Orland.",
        ] {
            let a = aligned(claim, sentence);
            assert_eq!(a.rank_unstated, None, "{sentence}");
            assert_eq!(a.support_key(), a.coverage);
        }
        // Only a rank: "latest" dates, "most" qualifies, and a superlative without "the" or
        // "its" before it ranks nothing the claim states as its own.
        for claim in [
            "The plant uses a 28-nanometre process, not the latest one.",
            "The mill is the most visited site in Millbrook.",
            "The mill grinds at lowest tide.",
        ] {
            let a = aligned(
                claim,
                "The mill is a site in Millbrook that grinds at low tide.",
            );
            assert_eq!(a.rank_unstated, None, "{claim}");
        }
    }

    #[test]
    fn a_name_with_another_title_is_no_rival() {
        let claim = "The surveyor Jonas Brekke was the first person to reach the summit of Kaldr.";
        let other = "In 1903 the schoolteacher Hanna Lind became the first woman to reach the \
                     summit of Kaldr.";
        assert_eq!(aligned(claim, other).entity_conflict, None);
        let same = "In 1903 the schoolteacher Hanna Lind became the first person to reach the \
                    summit of Kaldr.";
        assert!(aligned(claim, same).entity_conflict.is_some());
        // A rank with no kind after it is no other title.
        let bare = "The surveyor Jonas Brekke was the first to reach the summit of Kaldr.";
        assert!(aligned(bare, same).entity_conflict.is_some());
        let claim = "The surveyor Jonas Brekke was the first person to reach the summit of Kaldr.";
        let listed = "In 1903 the schoolteacher Hanna Lind became the first and only person to \
                      reach the summit of Kaldr.";
        assert!(aligned(claim, listed).entity_conflict.is_some());
    }

    #[test]
    fn a_people_s_adjective_is_no_rival_of_a_name_that_is_no_country() {
        let a = aligned(
            "Lena Vos won the Tour of the Brack Valley.",
            "Their Dutch rider won the Tour in 2024.",
        );
        assert_eq!(a.entity_conflict, None);
    }

    #[test]
    fn a_verb_that_denies_an_act_flips_only_a_claim_with_that_act() {
        let page = "The association declined to renew its rent freeze in April.";
        let differs = |claim: &str| aligned(claim, page).polarity_differs();
        assert!(differs("The association renewed its rent freeze in April."));
        assert!(!differs(
            "The association let its rent freeze lapse in April."
        ));
        // Against a text that denies too, the two denials agree.
        let same = |claim: &str, sentence: &str| !aligned(claim, sentence).polarity_differs();
        assert!(same(
            "The team failed to qualify for the final.",
            "The team did not reach the final."
        ));
        assert!(same(
            "The team did not qualify for the final.",
            "The team failed to reach the final."
        ));
        let page = "The paper stopped printing its price index in 2022.";
        let differs = |claim: &str| aligned(claim, page).polarity_differs();
        assert!(differs("The paper still prints its price index."));
        assert!(!differs("The paper's price index ended in 2022."));
    }

    #[test]
    fn telling_figures_are_counted_unless_a_rival_of_their_kind_stands_beside_them() {
        let telling = |claim: &str, sentence: &str| aligned(claim, sentence).telling_numbers;
        let claim = "About 6,500 cubic metres of water flow out of the river each second.";
        assert_eq!(
            telling(
                claim,
                "At its mouth it carries 6,500 cubic metres a second."
            ),
            1
        );
        // Another figure of the kind: the claim's may fill another role.
        let rival = "It carries 9,000 cubic metres a second in spring, 6,500 on average.";
        assert_eq!(telling(claim, rival), 0);
        // Two telling figures count whatever stands beside them.
        let claim = "Revenue rose 9% to £412 million.";
        let sentence = "Revenue was £412 million, up 9% from £378 million.";
        assert_eq!(telling(claim, sentence), 2);
        // Years, days and small counts are shared by chance.
        assert_eq!(
            telling("The plant opened in 2021.", "The plant opened in 2021."),
            0
        );
        assert_eq!(telling("It took two years.", "It took two years."), 0);
        assert_eq!(telling("It has 11 stations.", "It has 11 stations."), 0);
        assert_eq!(telling("It has 240 beds.", "It has 240 beds."), 1);
    }

    #[test]
    fn model_numbers_acronyms_and_shared_names_are_no_conflict() {
        // Issue 18: a phone's model number, a chip's bit width and resolution, a part named by
        // an acronym, and a name the claim itself uses in part.
        for (claim, sentence) in [
            (
                "The Tessel Nova 3 Pro runs Genshin Impact at a steady 60 frames per second.",
                "The 64-bit chip's six-core GPU ran Genshin Impact at a steady 60 frames per \
                 second at 1080p.",
            ),
            (
                "The Nova 3 Pro's T4 Pro chip was about 11% faster in Geekbench 6 than the \
                 Snapdragon chip in the Varo X15 Ultra.",
                "In Geekbench 6 the T4 Pro scored 2,940 in the single-core test and 8,120 in the \
                 multi-core test, about 11% ahead of the Varo X15 Ultra's Snapdragon 8 Gen 3.",
            ),
        ] {
            let a = aligned(claim, sentence);
            assert!(a.consistent(), "{claim}: {}", a.describe());
        }
        // A rival of the same shape in the claim entity's place still conflicts.
        let a = aligned(
            "The Nova 3 Pro was about 11% faster in Geekbench 6 than the Varo X15 Ultra.",
            "The Orrin Z2 was about 11% faster in Geekbench 6 than the Varo X15 Ultra.",
        );
        assert!(a.entity_conflict.is_some(), "{}", a.describe());
    }

    #[test]
    fn a_place_and_its_people_s_adjective_are_one_name() {
        for (claim, sentence) in [
            (
                "Most of the delta is Romanian territory.",
                "Most of the delta lies in Romania.",
            ),
            (
                "The firm moved its plant to Japan.",
                "The firm moved its plant to a Japanese town.",
            ),
            // A point of the compass and its adjective.
            (
                "The Roman Empire in the West ended in 476.",
                "The Western Roman Empire ended in 476 under Odoacer.",
            ),
        ] {
            let a = aligned(claim, sentence);
            assert_eq!(a.entity_conflict, None, "{claim}: {}", a.describe());
        }
        // A different country is still a rival name.
        let a = aligned(
            "Most of the delta is Romanian territory.",
            "Most of the delta lies in Bulgaria.",
        );
        assert!(a.entity_conflict.is_some(), "{}", a.describe());
    }

    #[test]
    fn a_figure_or_a_negation_in_another_subject_s_clause_is_that_subject_s() {
        // Issue 18, seventh round: the claim is bound to the clause of its own subject.
        let a = aligned(
            "Salaries in Leeford grew by 9% last year.",
            "Rents in Leeford rose by 9% last year, while salaries in the city grew by 2%.",
        );
        assert!(a.number_conflict(), "{}", a.describe());
        let a = aligned(
            "Rents in Leeford rose by 9% last year.",
            "Rents in Leeford rose by 9% last year, while salaries in the city grew by 2%.",
        );
        assert!(a.consistent(), "{}", a.describe());
        let a = aligned(
            "Orton council signed the regional pledge in 2021.",
            "Wexley council refused to sign the regional pledge, but Orton council signed it in \
             2021.",
        );
        assert!(!a.polarity_differs(), "{}", a.describe());
    }

    #[test]
    fn a_claim_s_negation_denies_its_own_act_only() {
        let differs = |claim: &str, sentence: &str| aligned(claim, sentence).polarity_differs();
        let claim = "The Courier no longer publishes the price index it had compiled since 1987.";
        // The compiling is on the page, the publishing is not: nothing is denied against it.
        assert!(!differs(
            claim,
            "The Courier had compiled its price index since 1987 by visiting 40 shops."
        ));
        // The act itself, stated by the page, is flipped.
        assert!(differs(
            "The Courier no longer publishes its price index.",
            "The Courier still publishes its price index every month."
        ));
        assert!(differs(
            "Penicillin is no longer used to treat bacterial infections.",
            "Penicillin is still widely used against infections caused by bacteria."
        ));
    }

    #[test]
    fn a_longer_form_of_another_claim_name_is_no_rival() {
        let a = aligned(
            "Reyn won the 2025 Tour by 38 seconds after taking the lead on the Scarrow Edge \
             summit finish.",
            "Tomas Reyn won the 63rd Tour of the Brack Valley on Sunday, finishing 38 seconds \
             ahead of Jakob Ennis.",
        );
        assert_eq!(a.entity_conflict, None, "{}", a.describe());
        // A rival that is no form of a claim name still stands in the claim name's place.
        let a = aligned(
            "Reyn took the lead on the Scarrow Edge summit finish.",
            "Reyn took the lead on the Hollin Moor summit finish.",
        );
        assert!(a.entity_conflict.is_some(), "{}", a.describe());
    }

    #[test]
    fn an_address_is_a_rival_only_of_an_address() {
        let a = aligned(
            "Carrow & Marrick has been based in Brackenford since 1897.",
            "In 1897 the partnership moved to offices on Mill Street in Brackenford.",
        );
        assert_eq!(a.entity_conflict, None, "{}", a.describe());
        let a = aligned(
            "The practice has its offices on Mill Street in Brackenford.",
            "The practice has its offices on Harbour Road in Brackenford.",
        );
        assert!(a.entity_conflict.is_some(), "{}", a.describe());
        // A row is a street too.
        let a = aligned(
            "The band played its last set in London in January 1969.",
            "The band played its last set at Savile Row in January 1969.",
        );
        assert_eq!(a.entity_conflict, None, "{}", a.describe());
    }

    #[test]
    fn a_halt_denies_only_from_the_page_and_not_against_until() {
        let page = "The paper stopped printing its Sunday edition in 2019.";
        let a = aligned("The paper still prints its Sunday edition.", page);
        assert!(a.polarity_differs(), "{}", a.describe());
        // The claim's own halt agrees with a page that names the last time or goes on until it.
        let a = aligned(
            "The paper stopped printing its Sunday edition in 2019.",
            "The paper printed its last Sunday edition in 2019.",
        );
        assert!(!a.polarity_differs(), "{}", a.describe());
        let a = aligned(
            "The paper still prints its Sunday edition.",
            "The paper printed a Sunday edition until 2019, then stopped printing it.",
        );
        assert!(!a.polarity_differs(), "{}", a.describe());
    }

    #[test]
    fn an_ended_noun_agrees_with_a_halt_and_flips_nothing_alone() {
        let a = aligned(
            "Adobe ended support for Flash Player at the end of 2020.",
            "Adobe stopped supporting Flash Player after December 31, 2020.",
        );
        assert!(a.claim_negated, "{}", a.describe());
        assert!(!a.polarity_differs(), "{}", a.describe());
        // Said without a denial on the other side, the end is no denial.
        for (claim, sentence) in [
            (
                "Ford ended production of the Model T in 1927.",
                "Production of the Model T ended in 1927.",
            ),
            (
                "Production of the Model T ended in 1927.",
                "Ford ceased production of the Model T in 1927.",
            ),
        ] {
            let a = aligned(claim, sentence);
            assert!(!a.polarity_differs(), "{claim}: {}", a.describe());
        }
    }

    #[test]
    fn a_negation_reaches_the_other_text_s_word_of_the_same_stem() {
        let sentence = "By default, sessions do not expire.";
        let a = aligned("Sessions have no expiry by default.", sentence);
        assert!(!a.polarity_differs(), "{}", a.describe());
        let a = aligned("Sessions have an expiry by default.", sentence);
        assert!(a.polarity_differs(), "{}", a.describe());
    }

    #[test]
    fn a_model_name_carried_on_names_another_model() {
        let claim = "The iPhone 15 starts at $799.";
        let a = aligned(claim, "The iPhone 15 Pro starts at $999 for 128GB.");
        assert!(!a.number_conflict(), "{}", a.describe());
        let a = aligned(claim, "The iPhone 15 starts at $829 in the US.");
        assert!(a.number_conflict(), "{}", a.describe());
        // Another size in the subject's place is another model too.
        let claim = "The 15-inch MacBook Air with M3 weighs 1.51 kg.";
        let a = aligned(claim, "The 13-inch MacBook Air with M3 weighs 1.24 kg.");
        assert!(!a.number_conflict(), "{}", a.describe());
        let a = aligned(claim, "The 15-inch MacBook Air with M3 weighs 1.24 kg.");
        assert!(a.number_conflict(), "{}", a.describe());
        // The claim's own longer name is no other model.
        let a = aligned(
            "The iPhone 15 Pro starts at $799.",
            "The iPhone 15 Pro starts at $999 for 128GB.",
        );
        assert!(a.number_conflict(), "{}", a.describe());
    }

    #[test]
    fn a_title_alone_is_filled_by_a_name_but_not_by_another_title() {
        let claim = "The Queen reigned for 70 years.";
        let a = aligned(claim, "Elizabeth II reigned for 70 years.");
        assert_eq!(a.entity_conflict, None, "{}", a.describe());
        let a = aligned(claim, "King George III reigned for 70 years.");
        assert!(a.entity_conflict.is_some(), "{}", a.describe());
    }

    #[test]
    fn a_name_tied_by_a_date_alone_needs_the_claim_s_act() {
        let claim = "Obama was awarded the Nobel Peace Prize in 2009.";
        let a = aligned(
            claim,
            "Obama served as the 44th president of the United States from 2009 to 2017.",
        );
        assert_eq!(a.entity_conflict, None, "{}", a.describe());
        let a = aligned(
            claim,
            "In 2009 Obama was awarded the Congressional Gold Medal.",
        );
        assert!(a.entity_conflict.is_some(), "{}", a.describe());
    }

    #[test]
    fn two_flipped_slots_count_one_as_missing() {
        // A negated claim against a sentence that affirms with another number.
        let claim = "Amankwah failed to score in the final seven matches.";
        let a = aligned(claim, "Amankwah scored in 24 matches.");
        assert!(
            a.number_conflict() && a.polarity_differs(),
            "{}",
            a.describe()
        );
        assert!(a.conflict_strength() < a.rest_coverage, "{}", a.describe());
        assert_eq!(a.conflict_strength(), a.rest_coverage.min(a.plain_coverage));
    }

    #[test]
    fn a_year_of_another_event_contradicts_nothing() {
        let claim = "Johann Strauss's Blue Danube waltz was premiered in Vienna in 1867.";
        let other = aligned(claim, "Johann Strauss wrote The Blue Danube in 1866.");
        assert!(other.number_conflict(), "{}", other.describe());
        assert!(other.predicate_coverage() < PREDICATE_FLOOR);
        assert_eq!(other.conflict_strength(), 0.0, "{}", other.describe());
        let same = aligned(
            claim,
            "The Blue Danube waltz was premiered in Vienna in 1866.",
        );
        assert!(same.conflict_strength() > 0.5, "{}", same.describe());
    }

    #[test]
    fn a_verbatim_sentence_covers_everything_and_agrees() {
        let a = aligned(
            "Water boils at 100 degrees Celsius at sea level.",
            "Water boils at 100 °C at sea level.",
        );
        assert_eq!(a.coverage, 1.0);
        assert!(a.consistent(), "{}", a.describe());
    }

    #[test]
    fn flipped_slots_are_seen() {
        type Check = fn(&Alignment) -> bool;
        let table: &[(&str, &str, Check)] = &[
            (
                "Water boils at 50 degrees Celsius at sea level.",
                "Water boils at 100 degrees Celsius at sea level.",
                Alignment::number_conflict,
            ),
            (
                "Honey bee drones collect food for the colony.",
                "Drones have no sting and do not collect food; their role is to mate.",
                Alignment::polarity_differs,
            ),
            (
                "The waggle dance was decoded by Konrad Lorenz.",
                "The Austrian scientist Karl von Frisch decoded the dance.",
                |a| a.entity_conflict.is_some(),
            ),
            (
                "Octopus blood carries oxygen with haemoglobin.",
                "It carries oxygen with haemocyanin rather than haemoglobin.",
                Alignment::polarity_differs,
            ),
        ];
        for (claim, sentence, check) in table {
            let a = aligned(claim, sentence);
            assert!(check(&a), "{claim} / {sentence}: {}", a.describe());
        }
    }

    #[test]
    fn negations_on_both_sides_cancel() {
        let a = aligned(
            "Women could not officially enter the race until 1972.",
            "Women were not allowed to enter officially until 1972.",
        );
        assert!(!a.polarity_differs(), "{}", a.describe());
        let a = aligned(
            "Most neurons are in the arms, not in the central brain.",
            "Two-thirds of neurons are in the arms rather than in the central brain.",
        );
        assert!(!a.polarity_differs(), "{}", a.describe());
    }

    #[test]
    fn a_denial_of_a_universal_a_comparison_or_a_bound_is_no_denial_of_the_act() {
        // A universal denied: some of the songs were written with others.
        let page = "It is the first of her records on which she did not write every song \
            alone: five of the twelve were co-written, two with Benedict Arnholt.";
        let a = aligned(
            "Benedict Arnholt co-wrote two of the songs on her record.",
            page,
        );
        assert!(!a.polarity_differs(), "{}", a.describe());
        let a = aligned("She wrote every song on her records alone.", page);
        assert!(a.polarity_differs(), "{}", a.describe());
        // "Not only" affirms; "at all" only strengthens a denial.
        let a = aligned(
            "The club won the league in 2019.",
            "The club not only won the league in 2019 but also the cup.",
        );
        assert!(!a.polarity_differs(), "{}", a.describe());
        let a = aligned(
            "The probe received instructions in 2020.",
            "In 2020 the probe could receive no instructions at all.",
        );
        assert!(a.polarity_differs(), "{}", a.describe());
        // A comparison denied of everyone else is a superlative.
        let page = "Her 21 league goals won the title. No one in the division scored more; \
            the next best had 17.";
        let a = aligned(
            "Oyelaran was the division's top scorer with 21 league goals.",
            page,
        );
        assert!(!a.polarity_differs(), "{}", a.describe());
        let a = aligned("Heald scored more league goals than Oyelaran's 21.", page);
        assert!(a.polarity_differs(), "{}", a.describe());
        // A denied comparator bounds the figure ("never more than" is "capped at").
        let a = aligned(
            "The cache takes a quarter of the RAM, never more than 32 GiB.",
            "By default the cache takes a quarter of the RAM, capped at 32 GiB.",
        );
        assert!(!a.polarity_differs(), "{}", a.describe());
        assert!(!a.number_conflict(), "{}", a.describe());
    }

    #[test]
    fn products_points_and_relative_differences_are_worked_out() {
        let numbers = |claim: &str, sentence: &str| aligned(claim, sentence).numbers;
        let all_match = |fits: &[NumberFit]| fits.iter().all(|f| *f == NumberFit::Match);
        // A product of two of the claim's stated figures, when the claim says what they come
        // to; not a product it does not say is one, nor a wrong one.
        let sentence = "\"I pay about £7 a gram, and I use 12 grams a week,\" she said.";
        let fits = numbers(
            "She uses about 12 grams of saffron a week at roughly £7 a gram, which comes to \
             around £84 a week.",
            sentence,
        );
        assert!(all_match(&fits), "{fits:?}");
        let fits = numbers(
            "She uses about 12 grams of saffron a week at roughly £7 a gram, which comes to \
             around £96 a week.",
            sentence,
        );
        assert!(!all_match(&fits), "{fits:?}");
        let fits = numbers(
            "She uses about 12 grams of saffron a week at roughly £7 a gram and £84 a week.",
            sentence,
        );
        assert!(!all_match(&fits), "{fits:?}");
        // Percentage points between two shares, one of them in the other arm of a comparison
        // that the claim sets side by side with "versus".
        let sentence = "Over 12 months, 29% of the exercise group fell at least once, compared \
            with 38% of the usual-care group.";
        let fits = numbers(
            "The share who fell at least once was nine percentage points lower with the \
             programme (29% versus 38%).",
            sentence,
        );
        assert!(all_match(&fits), "{fits:?}");
        let fits = numbers(
            "The share who fell at least once was twelve percentage points lower with the \
             programme (29% versus 38%).",
            sentence,
        );
        assert!(!all_match(&fits), "{fits:?}");
        // A share marked as a difference is relative to the value it is compared with, given
        // "against" or "down from" in the sentence.
        let fits = numbers(
            "In the benchmark zstd needed roughly a third less space per point than lz4, at 1.4 \
             bytes against 2.1.",
            "In the benchmark zstd stored each point in 1.4 bytes on average, against 2.1 bytes \
             for lz4.",
        );
        assert!(all_match(&fits), "{fits:?}");
        let fits = numbers(
            "Brent geese peaked at 4,250 in early February 2026, roughly a sixth fewer than \
             the 5,100 of the winter before.",
            "Dark-bellied brent geese peaked at 4,250 on 2 February, down from 5,100 the winter \
             before, a fall that matches counts elsewhere along the coast after a poor breeding \
             summer in Siberia.",
        );
        assert_eq!(fits[2], NumberFit::Match, "{fits:?}");
        let fits = numbers(
            "Brent geese peaked at 4,250, roughly a third fewer than the 5,100 of the winter \
             before.",
            "Brent geese peaked at 4,250 on 2 February, down from 5,100 the winter before.",
        );
        assert!(!all_match(&fits), "{fits:?}");
    }

    #[test]
    fn a_span_between_two_of_the_claim_s_own_dates_is_worked_out() {
        let sentence = "The tour runs to 24 dates between 9 April and 16 May, reaching its \
            largest room, capacity 3,200, on 2 May.";
        let numbers = |claim: &str| aligned(claim, sentence).numbers;
        let fits =
            numbers("The tour packs 24 shows into just over five weeks, from 9 April to 16 May.");
        assert!(fits.iter().all(|f| *f == NumberFit::Match), "{fits:?}");
        let fits = numbers("The tour packs 24 shows into 37 days, from 9 April to 16 May.");
        assert!(fits.iter().all(|f| *f == NumberFit::Match), "{fits:?}");
        for claim in [
            "The tour packs 24 shows into just over six weeks, from 9 April to 16 May.",
            "The tour packs 24 shows into about three weeks, from 9 April to 16 May.",
        ] {
            let fits = numbers(claim);
            assert!(
                !fits.iter().all(|f| *f == NumberFit::Match),
                "{claim}: {fits:?}"
            );
        }
    }

    #[test]
    fn a_reviewer_s_counterexamples_to_the_eighteenth_session_s_denials_hold() {
        // Each page denies the claim: the polarity must still differ.
        for (claim, page) in [
            (
                "Police have identified every victim of the crash.",
                "Not all of the victims of the crash have been identified.",
            ),
            (
                "Each member of the board voted for the merger.",
                "Not all members of the board voted for the merger.",
            ),
            (
                "Kaczynski was the sole author of the report.",
                "Kaczynski was not the only author of the report.",
            ),
            (
                "The board approved the deal in March.",
                "The board did not approve the all-share deal in March.",
            ),
            (
                "The concert will take place on Friday.",
                "The concert will not after all take place on Friday.",
            ),
            (
                "Several major banks failed during the crisis.",
                "None of the big banks failed during the crisis.",
            ),
            (
                "Divers found the flight recorder.",
                "Nothing was found during the long search for the flight recorder.",
            ),
            (
                "The unemployment rate rose above 5% last year.",
                "The unemployment rate was never above 5% last year.",
            ),
            (
                "The suspect was under 24-hour police surveillance.",
                "The suspect was not under 24-hour police surveillance.",
            ),
        ] {
            let a = aligned(claim, page);
            assert!(a.polarity_differs(), "{claim}: {}", a.describe());
        }
        // A claim's own negated universal still differs from a page's universal.
        let a = aligned(
            "The museum on the quay is not open every day.",
            "The museum on the quay is open daily.",
        );
        assert!(a.polarity_differs(), "{}", a.describe());
        // A bound the sentence turns is the opposite bound, which gainsays the claim's.
        let a = aligned(
            "The rally drew more than 500 people.",
            "The rally drew no more than 500 people.",
        );
        assert!(a.number_conflict(), "{}", a.describe());
        // "none other than" affirms.
        let a = aligned(
            "She married Prince Albert in 1840.",
            "In 1840 she married none other than Prince Albert.",
        );
        assert!(!a.polarity_differs(), "{}", a.describe());
    }

    #[test]
    fn a_reviewer_s_counterexamples_to_the_eighteenth_session_s_arithmetic_hold() {
        let all_match = |claim: &str, page: &str| {
            aligned(claim, page)
                .numbers
                .iter()
                .all(|f| *f == NumberFit::Match)
        };
        for (claim, page) in [
            // A year the claim's own event word dates too.
            (
                "Born in Vienna to a family of doctors, she moved to London in 1938.",
                "She moved to London from Vienna in 1939.",
            ),
            // The claim's subject owns its figure, however it opens.
            (
                "At the Paris motor show, Renault's €20,000 car drew crowds.",
                "At the Paris motor show, the new car priced at €25,000 drew crowds.",
            ),
        ] {
            let a = aligned(claim, page);
            assert!(a.number_conflict(), "{claim}: {}", a.describe());
        }
        for (claim, page) in [
            // Two shares the sentence does not compare, or a change within their rounding.
            (
                "Unemployment rose 2 percentage points this year.",
                "This year unemployment was 7%, while inflation was 5%.",
            ),
            (
                "Support fell 3 points to 36%.",
                "Support fell from 38% to 36%.",
            ),
            // What a change goes from is no other group's value.
            (
                "Imports fell by a quarter to 300,000 tonnes.",
                "Imports were 300,000 tonnes, against 400,000 tonnes of exports.",
            ),
            // A product needs its own words before it and a rate times an amount.
            (
                "In all, 6 people were killed and 4 injured in 24 attacks.",
                "Six people were killed and four injured in the attacks.",
            ),
        ] {
            assert!(!all_match(claim, page), "{claim}");
        }
        // A claim's "versus" reaches the other arm only between two figures.
        let a = aligned(
            "In the 2019 final versus Spurs, Liverpool had 39% of possession.",
            "Liverpool had 35% of possession in the final, compared with 39% in the semi-final.",
        );
        assert!(a.number_conflict(), "{}", a.describe());
    }

    #[test]
    fn another_ordinal_of_an_item_in_a_series_is_no_rival() {
        // A reviewer's counterexamples: an earlier item of a series beside the claim's.
        for (claim, page) in [
            (
                "Sales picked up in the second half of 2023.",
                "Sales in the first half of 2023 were weak, but picked up later.",
            ),
            (
                "Hamilton won his second world title in 2014.",
                "Hamilton won his first world title in 2008 and won it again in 2014.",
            ),
            (
                "The second vaccine dose was given in March.",
                "The first dose was given in January and the second in March.",
            ),
        ] {
            let a = aligned(claim, page);
            assert_eq!(a.reversed, None, "{claim}: {}", a.describe());
        }
    }

    #[test]
    fn another_ordinal_before_the_claim_s_noun_in_its_slot_flips_it() {
        let page = "When its founder died in 1934, the board appointed her to succeed him, \
            making her the first woman to be principal conductor of a professional orchestra \
            in the Netherlands.";
        let a = aligned(
            "In 1934 she became the second woman to be principal conductor of a professional \
             Dutch orchestra.",
            page,
        );
        assert_eq!(a.reversed.as_deref(), Some("2nd"), "{}", a.describe());
        assert!(a.polarity_differs(), "{}", a.describe());
        let a = aligned(
            "In 1934 she became the first woman to be principal conductor of a professional \
             orchestra in the Netherlands.",
            page,
        );
        assert!(!a.polarity_differs(), "{}", a.describe());
        // Another ordinal of the noun without the claim's words beside it fills another slot.
        let a = aligned(
            "Saltby scored twice in the second half to win the final.",
            "After a goalless first half, Saltby scored twice to win the final.",
        );
        assert_eq!(a.reversed, None, "{}", a.describe());
        // Nor does a sentence that has the claim's own ordinal of the noun as well.
        let a = aligned(
            "In 1990 she became the second woman to lead the party.",
            "In 1990 she became the second woman to lead the party; the first woman to lead it \
             was Ann Grey, in 1975.",
        );
        assert_eq!(a.reversed, None, "{}", a.describe());
    }

    #[test]
    fn a_pronoun_of_denial_as_object_denies_the_verb_before_it() {
        let a = aligned(
            "She showed her paintings only once, in 1958, and never sold a single one.",
            "She exhibited her paintings only once, in 1958, and sold none of them.",
        );
        assert!(!a.polarity_differs(), "{}", a.describe());
        let a = aligned(
            "The city council helped fund the £1.9 million exhibition.",
            "The exhibition cost £1.9 million, of which the foundation gave £350,000 and the \
             city council nothing at all.",
        );
        assert!(a.polarity_differs(), "{}", a.describe());
    }

    #[test]
    fn a_contrast_against_a_comparing_page_that_denies_the_same_thing_agrees() {
        let a = aligned(
            "The authors put the extra carbon loss at around 400,000 tonnes a year, though \
             Ommundsen described this as an order of magnitude rather than a measurement.",
            "The area would now be losing about 0.4 million tonnes of carbon a year more than \
             it was a decade ago. Ommundsen stressed that the figure was \"an order of \
             magnitude, not a measurement\".",
        );
        assert!(!a.polarity_differs(), "{}", a.describe());
    }

    #[test]
    fn a_span_of_years_is_the_distance_between_two_joined_years() {
        let built = "The lighthouse was built between 1909 and 1912 and first lit in 1912.";
        for claim in [
            "The lighthouse took about three years to build.",
            "The lighthouse took three years to build.",
            "The lighthouse took roughly four years to build.",
        ] {
            let a = aligned(claim, built);
            assert_eq!(a.numbers, [NumberFit::Match], "{claim}: {}", a.describe());
        }
        for claim in [
            "The lighthouse took four years to build.",
            "The lighthouse took about ten years to build.",
        ] {
            let a = aligned(claim, built);
            assert_ne!(a.numbers, [NumberFit::Match], "{claim}: {}", a.describe());
        }
        let a = aligned(
            "The lighthouse took three years to build.",
            "The lighthouse was designed in 1909 and rebuilt in 1912.",
        );
        assert_ne!(a.numbers, [NumberFit::Match], "{}", a.describe());
        // A bound span: "over eight years" is at least eight (round thirty-four, oswin-08).
        let book = "Illustrations of Succulent Plants, 4 vols, 240 plates (1872\u{2013}1880)";
        let a = aligned(
            "Illustrations of Succulent Plants appeared over eight years, from 1872 to 1880.",
            book,
        );
        assert!(a.numbers_agree(), "{}", a.describe());
        let a = aligned(
            "Illustrations of Succulent Plants took over ten years, from 1872 to 1880.",
            book,
        );
        assert!(!a.numbers_agree(), "{}", a.describe());
        let a = aligned("The lighthouse took over two years to build.", built);
        assert_eq!(a.numbers, [NumberFit::Match], "{}", a.describe());
        let a = aligned("The lighthouse took under two years to build.", built);
        assert_ne!(a.numbers, [NumberFit::Match], "{}", a.describe());
    }

    /// "The first ... in N years" runs back from the claim's year to the one before; without
    /// "first", "in 108 years" dates nothing ("the biggest crowd in 108 years").
    #[test]
    fn the_first_in_a_span_of_years_runs_back_from_the_claims_year() {
        let page = "The Cubs beat Cleveland in seven games to win the 2016 World Series, the \
                    franchise's first championship since 1908.";
        for (claim, stated) in [
            (
                "The Cubs' victory in 2016 gave them their first World Series title in 108 years.",
                true,
            ),
            (
                "The Cubs' victory in 2016 gave them their first World Series title in 100 years.",
                false,
            ),
            (
                "The Cubs' victory in 2016 drew the biggest crowd in 108 years.",
                false,
            ),
        ] {
            let a = aligned(claim, page);
            assert_eq!(
                a.numbers[1] == NumberFit::Match,
                stated,
                "{claim}: {}",
                a.describe()
            );
        }
    }

    /// A lifespan gives the age at death: the years apart, one less for a birthday after the
    /// day of death, either of the two with no days; only for a claim that names a death.
    #[test]
    fn an_age_at_death_is_stated_by_a_lifespan() {
        let dated = "Henrietta Maria Voss (3 February 1881 \u{2013} 19 June 1958) was a Dutch \
                     botanist and mycologist.";
        let undated = "Henrietta Maria Voss (1881\u{2013}1958) was a botanist.";
        let late_birthday =
            "Henrietta Maria Voss (30 June 1881 \u{2013} 19 June 1958) was a botanist.";
        for (claim, page, stated) in [
            ("Henrietta Voss died in 1958 at the age of 77.", dated, true),
            ("Henrietta Voss died aged 77.", dated, true),
            (
                "Henrietta Voss died in 1958 at the age of 78.",
                dated,
                false,
            ),
            ("Henrietta Voss retired at the age of 77.", dated, false),
            ("Voss died aged 76.", undated, true),
            ("Voss died aged 77.", late_birthday, false),
        ] {
            let a = aligned(claim, page);
            let age = a.numbers.last().copied();
            assert_eq!(
                age == Some(NumberFit::Match),
                stated,
                "{claim}: {}",
                a.describe()
            );
        }
    }

    #[test]
    fn a_span_of_years_after_an_event_is_the_distance_from_the_claims_year() {
        let page = "Transport Orland took the bridge over in 2012, when the debt was paid off, \
                    and the tolls were abolished in 2019.";
        let a = aligned(
            "Tolls were scrapped in 2019, seven years after Transport Orland took the bridge over.",
            page,
        );
        assert_eq!(
            a.numbers,
            [NumberFit::Match, NumberFit::Match],
            "{}",
            a.describe()
        );
        // Another distance, or a span the claim does not date from an event, is not stated.
        let a = aligned(
            "Tolls were scrapped in 2019, five years after Transport Orland took the bridge over.",
            page,
        );
        assert_ne!(a.numbers[1], NumberFit::Match, "{}", a.describe());
        let a = aligned(
            "Tolls were scrapped in 2019 after seven years of Transport Orland's ownership.",
            page,
        );
        assert_ne!(a.numbers[1], NumberFit::Match, "{}", a.describe());
        // A span after "another" runs on from the claim's year.
        let a = aligned(
            "Divers found the bow in 1971, but the stern was not found for another 23 years.",
            "The bow was found by divers in 1971; the stern was not located until 1994.",
        );
        assert_eq!(
            a.numbers,
            [NumberFit::Match, NumberFit::Match],
            "{}",
            a.describe()
        );
    }

    #[test]
    fn two_denials_of_two_acts_do_not_cancel() {
        let a = aligned(
            "The court awarded aggravated damages because the yard had acted in bad faith.",
            "The court refused to award aggravated damages, saying the yard had not acted in \
             bad faith.",
        );
        assert!(a.polarity_differs(), "{}", a.describe());
        // Over one act they do.
        let a = aligned(
            "The club has qualified for Europe every season.",
            "The club has never failed to qualify for Europe.",
        );
        assert!(!a.polarity_differs(), "{}", a.describe());
    }

    #[test]
    fn a_contrast_against_a_comparison_is_no_flipped_polarity() {
        // Issue 18: the sentence names both arms of the claim's contrast itself.
        let a = aligned(
            "The factory uses a 28-nanometre process rather than the 5-nanometre technology of \
             the newest phone processors.",
            "The factory makes chips on a 28-nanometre process, an older technology than the \
             5-nanometre one used for the newest phone processors.",
        );
        assert!(!a.polarity_differs(), "{}", a.describe());
        // Against a plain statement of the other arm, the contrast still flips it.
        let a = aligned(
            "Octopus blood carries oxygen with haemocyanin rather than haemoglobin.",
            "Octopus blood carries oxygen with haemoglobin.",
        );
        assert!(a.polarity_differs(), "{}", a.describe());
    }

    #[test]
    fn a_different_name_elsewhere_in_the_sentence_is_no_conflict() {
        let a = aligned(
            "The Harbour Line was built by a consortium led by Siemens.",
            "The Harbour Line, a route linking Kestrel Bay to the airport at Aldmoor, opened after six years of construction.",
        );
        assert_eq!(a.entity_conflict, None, "{}", a.describe());
    }

    #[test]
    fn context_lends_partial_credit() {
        let claim = Analysis::new("Spirit and Opportunity were designed for 90 sols.");
        let sentence = Analysis::new("They were designed for a 90-sol mission.");
        let before = Analysis::new("The twin rovers Spirit and Opportunity arrived in 2004.");
        let weights = Weights::default();
        let alone = align(&claim, &sentence, &[], &Topic::default(), &weights);
        let helped = align(&claim, &sentence, &[&before], &Topic::default(), &weights);
        assert!(helped.coverage > alone.coverage);
        assert!(helped.coverage < 1.0);
        assert!(helped.consistent());
    }

    #[test]
    fn an_opposite_in_the_claim_word_s_place_flips_the_polarity_and_leaves_the_rest() {
        let flipped = aligned(
            "Analysts cut their target price for Brannock to 340p.",
            "Analysts raised their target price for Brannock to 340p.",
        );
        assert!(flipped.polarity_differs(), "{flipped:?}");
        assert_eq!(flipped.rest_coverage, 1.0, "{flipped:?}");
        assert!(flipped.conflict_strength() >= 0.9);
        // A negated opposite ("did not raise") flips twice: no contradiction of "cut".
        let twice = aligned(
            "Analysts cut their target price for Brannock to 340p.",
            "Analysts did not raise their target price for Brannock to 340p.",
        );
        assert!(!twice.polarity_differs(), "{twice:?}");
    }

    #[test]
    fn the_page_s_subject_fills_a_sentence_that_omits_it() {
        let claim = Analysis::new("The Orrin S7 weighs 1.32 kg.");
        let sentence = Analysis::new("The chassis is made of aluminium and weighs 1.32 kg.");
        let title = Analysis::new("Orrin S7 review: a thin laptop built to last");
        let weights = Weights::default();
        let alone = align(&claim, &sentence, &[], &Topic::default(), &weights);
        let topic = Topic::of(&claim, [&title, &sentence]);
        let helped = align(&claim, &sentence, &[], &topic, &weights);
        assert!(helped.coverage > alone.coverage);
        assert!(helped.coverage < 1.0);
        assert!(helped.consistent());
        // A name the page never mentions lends nothing.
        let unrelated = Topic::of(&claim, [&sentence]);
        let same = align(&claim, &sentence, &[], &unrelated, &weights);
        assert_eq!(same.coverage, alone.coverage);
    }

    #[test]
    fn a_name_before_a_noun_has_rivals_only_before_that_noun() {
        for (claim, sentence) in [
            (
                "Novak Djokovic won his 24th Grand Slam title at the 2023 US Open.",
                "Novak Djokovic defeated Daniil Medvedev in the final of the 2023 US Open, \
                 claiming a record-equalling 24th major singles title.",
            ),
            (
                "Real Madrid beat Borussia Dortmund 2-0 in the 2024 Champions League final.",
                "Real Madrid beat Borussia Dortmund 2-0 at Wembley to win a record-extending \
                 15th European Cup.",
            ),
            (
                "The Iron Lady served as British prime minister from 1979 to 1990.",
                "Margaret Thatcher was Prime Minister of the United Kingdom from 1979 to 1990; \
                 a Soviet journalist dubbed her the Iron Lady.",
            ),
        ] {
            let a = aligned(claim, sentence);
            assert_eq!(a.entity_conflict, None, "{claim}: {}", a.describe());
        }
        for (claim, sentence) in [
            // Another name before the same noun.
            (
                "Perseverance landed in Gale crater in February 2021.",
                "Perseverance landed in Jezero crater in February 2021.",
            ),
            // A word with an object after a name is its verb, not a noun it classifies.
            (
                "In the final the Kansas City Chiefs beat the 49ers in overtime.",
                "In the final the Baltimore Ravens overcame the 49ers in overtime.",
            ),
            (
                "Norman Heatley shared the prize with Florey.",
                "Ernst Chain shared the prize with Florey.",
            ),
            // Another country in a people's adjective's place.
            (
                "The Iron Lady served as British prime minister from 1979 to 1990.",
                "The Iron Lady served as Irish prime minister from 1979 to 1990.",
            ),
        ] {
            let a = aligned(claim, sentence);
            assert!(a.entity_conflict.is_some(), "{claim}: {}", a.describe());
        }
    }

    #[test]
    fn a_sentence_opening_on_the_noun_a_name_classifies_refers_to_the_name() {
        let claim =
            Analysis::new("The CORVAL-MEM study followed its 2,418 participants for five years.");
        let sentence = Analysis::new(
            "The study, published on Wednesday in the Northern Journal of Medicine, followed \
             2,418 people aged between 60 and 85 for three years.",
        );
        let title = Analysis::new("CORVAL-MEM: the study in numbers");
        let weights = Weights::default();
        let topic = Topic::of(&claim, [&title]);
        let referred = align(&claim, &sentence, &[], &topic, &weights);
        let unnamed = align(&claim, &sentence, &[], &Topic::default(), &weights);
        assert_eq!(referred.entity_conflict, None, "{}", referred.describe());
        assert!(referred.number_conflict(), "{}", referred.describe());
        assert!(
            referred.rest_coverage > unnamed.rest_coverage,
            "{} against {}",
            referred.describe(),
            unnamed.describe()
        );
    }

    #[test]
    fn a_figure_another_sentence_states_lets_a_sentence_state_the_rest() {
        // Round thirty-five (wren-07): the release the page is about is stated elsewhere, not
        // in the sentence that states the rest of the claim.
        let claim = Analysis::new(
            "Fiber.suspend(), deprecated since 1.1, has been removed in version 1.4; use \
             Fiber.yield() instead.",
        );
        let sentence = Analysis::new(
            "Fiber.suspend(), deprecated since 1.1, has been removed; use Fiber.yield() instead.",
        );
        let elsewhere = Analysis::new("Version 1.4 was released on Monday.");
        let weights = Weights::default();
        let alone = align(&claim, &sentence, &[], &Topic::default(), &weights);
        assert!(!alone.consistent(), "{}", alone.describe());
        let topic = Topic::of(&claim, [&elsewhere, &sentence]);
        let with_page = align(&claim, &sentence, &[], &topic, &weights);
        assert!(with_page.consistent(), "{}", with_page.describe());
        assert!(
            with_page.coverage > alone.coverage,
            "{}",
            with_page.describe()
        );
        assert!(with_page.describe().contains("numbers=elsewhere"));
        // It lends the sentence no strength to contradict: a flipped name covers as little.
        let rival = Analysis::new("Fiber.halt(), deprecated since 1.1, has been removed.");
        let flipped = align(&claim, &rival, &[], &topic, &weights);
        let flipped_alone = align(&claim, &rival, &[], &Topic::default(), &weights);
        assert_eq!(
            flipped.conflict_strength(),
            flipped_alone.conflict_strength()
        );
        // Found by a review: a figure beside a rival of its kind, or beside nothing of the
        // claim's but the noun it counts, states nothing of the claim.
        let cost = Analysis::new("The stadium cost £200 million to build.");
        let cost_sentence = Analysis::new("The stadium cost far more to build than planned.");
        let budget = Analysis::new(
            "The stadium was budgeted at £200 million, but the final bill came to £350 million.",
        );
        let topic = Topic::of(&cost, [&budget, &cost_sentence]);
        let a = align(&cost, &cost_sentence, &[], &topic, &weights);
        assert!(!a.consistent(), "{}", a.describe());
        let jobs = Analysis::new("The company cut 300 jobs last year.");
        let jobs_sentence = Analysis::new("The company cut jobs last year as sales fell.");
        let plant = Analysis::new("A new plant in Wakefield will create 300 jobs.");
        let topic = Topic::of(&jobs, [&plant, &jobs_sentence]);
        let a = align(&jobs, &jobs_sentence, &[], &topic, &weights);
        assert!(!a.consistent(), "{}", a.describe());
        // A figure another sentence gives in another role is no statement of the claim's.
        let unrelated = Analysis::new("Its 1.4 megabyte binary is small.");
        let topic = Topic::of(&claim, [&unrelated, &sentence]);
        let not_stated = align(&claim, &sentence, &[], &topic, &weights);
        assert!(!not_stated.consistent(), "{}", not_stated.describe());
    }

    #[test]
    fn a_year_another_sentence_gives_is_not_read_as_the_claim_s() {
        // A page dates many events: the claim's year beside one of its words elsewhere is
        // too often another event's.
        let claim = Analysis::new("The bridge was repainted in 1998 at a cost of £2 million.");
        let sentence = Analysis::new("The bridge was repainted at a cost of £2 million.");
        let elsewhere = Analysis::new("In 1998 the bridge was closed for a month.");
        let topic = Topic::of(&claim, [&elsewhere, &sentence]);
        let a = align(&claim, &sentence, &[], &topic, &Weights::default());
        assert!(!a.consistent(), "{}", a.describe());
    }

    #[test]
    fn the_page_s_subject_does_not_let_a_place_replace_a_person() {
        let claim = Analysis::new("Eliud Kipchoge has won the marathon twice.");
        let sentence = Analysis::new("The marathon was won in Athens.");
        let elsewhere = Analysis::new("Eliud Kipchoge of Kenya ran 2:01:09 in Berlin in 2022.");
        let weights = Weights::default();
        let topic = Topic::of(&claim, [&elsewhere, &sentence]);
        let alone = align(&claim, &sentence, &[], &Topic::default(), &weights);
        let with_topic = align(&claim, &sentence, &[], &topic, &weights);
        assert!(alone.entity_conflict.is_some(), "{alone:?}");
        assert_eq!(with_topic.coverage, alone.coverage, "{with_topic:?}");
        assert_eq!(with_topic.conflict_strength(), 0.0, "{with_topic:?}");
    }

    #[test]
    fn a_negation_in_another_clause_about_something_else_keeps_the_polarity() {
        // Issue 18: "freight" is stated in the unnegated clause, so the negated one is not the
        // claim's predicate; a relative clause's negation describes the noun before it.
        let cases = [
            (
                "Freight volumes stayed flat at 412,000 lorry crossings.",
                "Freight volumes were flat at 412,000 lorry crossings, and the company said it \
                 would not raise freight rates before 2026.",
            ),
            (
                "Fenwick Rovers play the first home game of the season.",
                "The season begins with a home game against Fenwick Rovers, who are not playing \
                 in the cup.",
            ),
        ];
        for (claim, sentence) in cases {
            assert!(!aligned(claim, sentence).polarity_differs(), "{sentence}");
        }
        // The word only in the negated clause still flips it.
        let flipped = aligned(
            "The council approved the budget.",
            "The council met on Monday and did not approve the budget.",
        );
        assert!(flipped.polarity_differs());
    }

    #[test]
    fn a_negation_in_a_relative_clause_without_that_describes_its_noun() {
        // Round thirty-two (restic-05): the opening noun phrase's relative clause says which
        // backups the sentence is about; the sentence itself states the drill.
        let claim = "Her March restore drill failed at once because the B2 key printed for the \
                     fire safe had been revoked when she rotated keys in January.";
        for sentence in [
            "A backup you have never restored from is a rumour, so in March I ran a drill: \
             pretend the server is dead and get the photos back using only what is in the fire \
             safe, which is a printed sheet with the B2 key.",
            "Any backup you haven't restored from is a rumour, so in March I ran a drill: \
             pretend the server is dead and get the photos back using only what is in the fire \
             safe, which is a printed sheet with the B2 key.",
        ] {
            assert!(!aligned(claim, sentence).polarity_differs(), "{sentence}");
        }
        // A time before the pronoun opens a main clause, whose negation still flips the claim;
        // so does a negation of the main verb after the relative clause.
        for sentence in [
            "A week later I did not restore the backup from the key in the fire safe.",
            "A backup you restored from is not a rumour, so in March I never ran a restore \
             drill with the key in the fire safe.",
        ] {
            let a = aligned(
                "In March she ran a restore drill with the key in the fire safe.",
                sentence,
            );
            assert!(a.polarity_differs(), "{sentence}: {}", a.describe());
        }
    }

    #[test]
    fn an_un_word_states_the_negation_of_its_stem() {
        // Round thirty-three (skiff-15): "an unrecognised key" is "a key that Skiff does not
        // recognise", on either side.
        let claim = "Since Skiff 2.1, an unrecognised key in the file stops the build.";
        let sentence =
            "Since 2.1, a key in the file that Skiff does not recognise stops the build.";
        assert!(!aligned(claim, sentence).polarity_differs());
        assert!(!aligned(sentence, claim).polarity_differs());
        // Without the "un-" word, or with a verb whose "un-" undoes the act, the denial stands.
        let plain = "Since Skiff 2.1, a key in the file that Skiff recognises stops the build.";
        assert!(aligned(plain, sentence).polarity_differs());
        let undone = aligned(
            "The guard unlocked the north gate at dawn.",
            "The guard did not lock the north gate at dawn.",
        );
        assert!(undone.polarity_differs(), "{}", undone.describe());
    }

    #[test]
    fn a_counterfactual_condition_denies_nothing() {
        // Round thirty-three (aurelle-05): "had it not been for the strike" sets the strike
        // aside as "excluding" does.
        let sentence = "Excluding the cost of the strike, operating profit would have been about \
                        59.6 million euros, ahead of the prior-year quarter.";
        for claim in [
            "Had it not been for the strike, operating profit would have been roughly 59.6 \
             million euros, ahead of the prior-year quarter.",
            "Were it not for the strike, operating profit would have been roughly 59.6 million \
             euros, ahead of the prior-year quarter.",
            "If it hadn't been for the strike, operating profit would have been roughly 59.6 \
             million euros, ahead of the prior-year quarter.",
        ] {
            let a = aligned(claim, sentence);
            assert!(!a.polarity_differs(), "{claim}: {}", a.describe());
        }
        let denied = aligned(
            "The strike did not cost the airline its operating profit for the quarter.",
            "The strike cost the airline its operating profit for the quarter.",
        );
        assert!(denied.polarity_differs(), "{}", denied.describe());
    }

    #[test]
    fn a_denial_of_what_happens_without_something_affirms_it() {
        // Round thirty-six (marsh-06): "None of this would happen without the 64 volunteers
        // who took part" states that they took part.
        let claim = "Some 40 volunteers took part in the count this year.";
        for sentence in [
            "None of this would happen without the 40 volunteers who took part in the count \
             this year.",
            "The count would not have been possible without the 40 volunteers who took part \
             this year.",
        ] {
            let a = aligned(claim, sentence);
            assert!(!a.polarity_differs(), "{sentence}: {}", a.describe());
        }
        // A "without" on its own, or after a break, still denies.
        for sentence in [
            "The count went ahead this year without the 40 volunteers who usually take part.",
            "Nobody expected it, but the count went ahead this year without the 40 volunteers \
             who usually take part.",
        ] {
            let a = aligned(claim, sentence);
            assert!(a.polarity_differs(), "{sentence}: {}", a.describe());
        }
        // A "without" of a new clause, or of a plain condition, leaves the denial standing
        // (found by a review of the rule).
        for (claim, sentence) in [
            (
                "It is not clear whether the club can survive.",
                "It is not clear whether the club can survive without its owner's money.",
            ),
            (
                "He did not finish the race.",
                "He did not finish the race and left without speaking to reporters.",
            ),
            (
                "The bank will not lend to the club.",
                "The bank will not lend to the club without a guarantee from its owner.",
            ),
        ] {
            let a = aligned(claim, sentence);
            assert!(!a.polarity_differs(), "{sentence}: {}", a.describe());
        }
    }

    #[test]
    fn a_claim_s_difference_worked_out_from_the_sentence_s_two_values_is_stated() {
        // Round thirty-five (festival-03): "£30 more than" last year, from £189 against £159.
        let a = aligned(
            "A weekend ticket cost £30 more than last year.",
            "Weekend tickets cost £189, up from £159 last year, and day tickets £79.",
        );
        assert_eq!(a.numbers, vec![NumberFit::Match], "{}", a.describe());
        // A difference no two of its values make is not stated.
        let b = aligned(
            "A weekend ticket cost £40 more than last year.",
            "Weekend tickets cost £189, up from £159 last year, and day tickets £79.",
        );
        assert_ne!(b.numbers, vec![NumberFit::Match], "{}", b.describe());
        // Round thirty-seven: the amount of a change ("rose by about 8,700"), a difference of
        // counted things ("roughly 400 mAh more than"), each within its hedge.
        let rose = aligned(
            "Visitor numbers rose by about 8,700 from 2024 to 2025, reaching 58,400.",
            "In 2025 we welcomed 58,400 visitors, up from 49,700 in 2024.",
        );
        assert!(
            rose.numbers.iter().all(|n| *n == NumberFit::Match),
            "{}",
            rose.describe()
        );
        let more = aligned(
            "Its battery holds roughly 400 mAh more than the old one.",
            "Its battery holds 5,100 mAh, where the old one held 4,700 mAh.",
        );
        assert_eq!(more.numbers, vec![NumberFit::Match], "{}", more.describe());
        // An amount not said to be a change is no difference.
        let plain = aligned(
            "Roughly 8,700 visitors came in 2025, reaching 58,400.",
            "In 2025 we welcomed 58,400 visitors, up from 49,700 in 2024.",
        );
        assert!(!plain.numbers_agree(), "{}", plain.describe());
        // The difference the other way round is no statement of it (found by a review).
        for (claim, sentence) in [
            (
                "Its battery holds about 400 mAh more than the old one.",
                "Its battery holds 4,700 mAh, where the old one held 5,100 mAh.",
            ),
            (
                "Visitor numbers fell by about 8,700 to 49,700.",
                "The museum welcomed 49,700 visitors in 2025, up from 41,000 in 2024.",
            ),
            (
                "Ticket prices were cut by £30 to £159.",
                "Weekend tickets now cost £159, up from £129.",
            ),
        ] {
            let a = aligned(claim, sentence);
            assert!(!a.numbers_agree(), "{claim}: {}", a.describe());
        }
    }

    #[test]
    fn no_before_a_comparative_denies_the_comparison() {
        // Round thirty-seven (orrin-09): "were no more susceptible than the men" denies that
        // they were more susceptible.
        let a = aligned(
            "The study found that women were more susceptible to mountain sickness than men.",
            "The study found that the women were no more susceptible to mountain sickness than \
             the men.",
        );
        assert!(a.polarity_differs(), "{}", a.describe());
        // "No" that determines a subject still makes the one outdone the first; a bound on a
        // figure is no denial.
        let first = aligned(
            "Torvell has won the most titles of any Orland player.",
            "No Orland player has won more titles than Torvell.",
        );
        assert!(!first.polarity_differs(), "{}", first.describe());
        let bound = aligned(
            "At least 40 people attended the meeting.",
            "No fewer than 40 people attended the meeting.",
        );
        assert!(!bound.polarity_differs(), "{}", bound.describe());
    }

    #[test]
    fn a_lower_case_no_before_a_figure_denies() {
        // Round thirty-seven (vault-04): "There is no 1TB option" is no "number 1".
        let a = aligned(
            "Buyers can get the phone in a 1TB version.",
            "There is no 1TB option for the phone this year.",
        );
        assert!(a.polarity_differs(), "{}", a.describe());
        // "No. 1" and "No 1" stay numbers.
        let b = aligned(
            "She was ranked world No. 1 in 2019.",
            "She was ranked world No. 1 in 2019 and 2020.",
        );
        assert!(!b.polarity_differs(), "{}", b.describe());
    }

    #[test]
    fn a_currency_range_gives_its_sign_and_scale_to_both_ends() {
        // Round thirty-three (aurelle-08): "€80-88 million" is €80 million to €88 million.
        let claim = "Aurelle lowered its 2026 operating profit forecast to €80-88 million from \
                     €95-105 million.";
        let sentence = "Aurelle Air now expects operating profit for 2026 of €80 million to €88 \
                        million, down from its previous guidance of €95 million to €105 million.";
        let a = aligned(claim, sentence);
        assert!(a.numbers_agree(), "{}", a.describe());
        let wrong = aligned(
            "Aurelle lowered its 2026 operating profit forecast to €70-78 million.",
            sentence,
        );
        assert!(wrong.number_conflict(), "{}", wrong.describe());
    }

    #[test]
    fn the_whole_of_a_part_that_states_the_claim_s_count_is_no_rival() {
        // Round thirty-three (saltrial-07): "Two of the 14 authors" states "two authors"; the 14
        // is what the two are counted from.
        let claim = "Castellari was one of two authors who disclosed past speaker fees.";
        let sentence = "Two of the 14 authors, including Castellari, declared that they had \
                        received speaker fees in the past.";
        let a = aligned(claim, sentence);
        assert!(a.numbers_agree(), "{}", a.describe());
        let wrong = aligned(
            "Castellari was one of three authors who disclosed past speaker fees.",
            sentence,
        );
        assert!(wrong.number_conflict(), "{}", wrong.describe());
    }

    #[test]
    fn a_numbered_kind_with_the_claim_name_s_number_is_that_name() {
        // Round thirty-four (tern-01): "Version 2.0" opening the page's sentence is Tern 2.0.
        let a = aligned(
            "Tern 2.0, which came out in May 2022, reorganised the flat key list of the 1.x \
             configuration into named tables.",
            "Version 2.0, published on 11 May 2022, replaced the flat list of keys used by 1.x \
             with named tables.",
        );
        assert!(a.entity_conflict.is_none(), "{}", a.describe());
        // Another product with the claim's number still stands in its place.
        let other = aligned(
            "Tern 2.0 replaced the flat list of keys used by 1.x with named tables.",
            "Heron 2.0 replaced the flat list of keys used by 1.x with named tables.",
        );
        assert!(other.entity_conflict.is_some(), "{}", other.describe());
    }

    #[test]
    fn a_stage_named_by_its_number_is_no_count() {
        // Round thirty-four (stage-01): "stage nine" against "the ninth ... stage".
        let sentence = "Anders Lykke of Denmark won the ninth and hardest stage of the Tour of \
                        the Northern Fells on Saturday, attacking 2.8 kilometres from the summit \
                        of Scarth Pike.";
        let a = aligned(
            "Denmark's Anders Lykke won stage nine of the Tour of the Northern Fells.",
            sentence,
        );
        assert!(a.numbers_agree(), "{}", a.describe());
        let b = aligned(
            "Denmark's Anders Lykke won stage two of the Tour of the Northern Fells.",
            sentence,
        );
        assert!(b.number_conflict(), "{}", b.describe());
    }

    #[test]
    fn a_name_in_apposition_to_a_claim_name_is_its_other_name() {
        // Round thirty-five (sail-03): "Helm" is Stage 2's name, no rival of the Federation.
        let claim = "In the Federation's scheme, Stage 2 is a three-day course that adds gybing.";
        let a = aligned(
            claim,
            "Stage 2, Helm, takes three days and adds gybing, capsize recovery and sailing a \
             set course on your own.",
        );
        assert!(a.entity_conflict.is_none(), "{}", a.describe());
        // Another body's scheme still stands in the Federation's place.
        let b = aligned(
            claim,
            "In the Association's scheme, Stage 2 is a three-day course that adds gybing.",
        );
        assert!(b.entity_conflict.is_some(), "{}", b.describe());
    }

    #[test]
    fn someone_else_s_act_does_not_lift_a_denial() {
        // Round thirty-five (sail-14, dunmore-05): Graham's buying and the son's completing
        // are theirs; the page still denies the claim's subject the act.
        let a = aligned(
            "She has since bought a second-hand Tern 14 of her own.",
            "I haven't bought a boat of my own, and I'm not going to: a second-hand Tern 14 \
             goes for about £3,000, and Graham, who did buy one last winter, pays £180 a year \
             to keep it.",
        );
        assert!(a.polarity_differs(), "{}", a.describe());
        let b = aligned(
            "Sir Roger de Vaux saw his castle through to completion in 1289.",
            "De Vaux did not live to see it completed; the work was completed by his son, \
             Hugh, in 1289.",
        );
        assert!(b.polarity_differs(), "{}", b.describe());
    }

    #[test]
    fn a_figure_after_a_possessive_name_is_that_one_s() {
        // Round thirty-five (sail-12): the writer took 25 minutes, Rohan 9.
        let sentence = "I was by some distance the slowest at rigging, taking 25 minutes on the \
                        first morning against Rohan's 9.";
        let a = aligned("Rohan needed 25 minutes to rig his boat.", sentence);
        assert!(a.number_conflict(), "{}", a.describe());
        let b = aligned("Rohan needed 9 minutes to rig his boat.", sentence);
        assert!(!b.number_conflict(), "{}", b.describe());
        // A claim that gives both figures, each to its own side, is no conflict.
        let c = aligned(
            "Rigging took the writer 25 minutes on the first morning and Rohan 9.",
            sentence,
        );
        assert!(!c.number_conflict(), "{}", c.describe());
    }

    #[test]
    fn a_rate_is_no_rival_of_a_count() {
        // Round thirty-three (cricket-05): "six an over" is a rate, not the runs needed.
        let sentence = "That left them 136 to get from the remaining 23 overs, a little under six \
                        an over, with eight wickets in hand.";
        let a = aligned(
            "On the resumption Ambershire needed 136 runs from 23 overs, with eight wickets \
             still standing.",
            sentence,
        );
        assert!(a.numbers_agree(), "{} {:?}", a.describe(), a.numbers);
        // A rate against a rate still conflicts, and so does a year before "a".
        let rate = aligned(
            "Ambershire needed nine an over from the remaining 23 overs.",
            sentence,
        );
        assert!(rate.number_conflict(), "{}", rate.describe());
        // A claim's rate against a page's figure without "a week" still conflicts.
        let rate_then_bare = aligned(
            "The basket of everyday items cost £96.40 a week in Millbrook.",
            "The basket of everyday items cost £96.40 a week in Kestrel Bay; in Millbrook it \
             cost £88.10.",
        );
        assert!(
            rate_then_bare.number_conflict(),
            "{}",
            rate_then_bare.describe()
        );
        let year = aligned(
            "The council passed the new parking law in 2019.",
            "In 2020 a new parking law was passed by the council.",
        );
        assert!(year.number_conflict(), "{}", year.describe());
    }

    #[test]
    fn a_name_in_the_other_arm_of_a_comparison_is_no_conflict() {
        let a = aligned(
            "The Orrin S7 keeps its fans off under light loads.",
            "The fans stay off under light loads, whereas the Velt Air spins its fans up.",
        );
        assert_eq!(a.entity_conflict, None, "{}", a.describe());
    }
}
