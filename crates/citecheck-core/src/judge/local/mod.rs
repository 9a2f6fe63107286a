//! The `local` judge: offline, no key, no network, deterministic. A heuristic, and it says so.
//!
//! It cuts the passages into sentences (`segment`), analyses the claim and each sentence
//! (`analyse`: content words, quantities, negation cues, named entities) and aligns them
//! (`align`, `anchor`, `compare`). A sentence that covers most of the claim's content words with the same numbers,
//! the same polarity and no other name in the claim's name's place *supports* it; one that covers
//! most of the rest but flips a number, the polarity or a name *contradicts* it; otherwise the
//! claim is *not found*. A claim of several facts that the page states apart ("founded in 1921
//! and based in Ostrava since 1962") is read fact by fact (`facts`) when the whole finds
//! nothing. The answer always quotes a sentence copied from the passages (for
//! `not_found`, the best-aligned one), so the quote guard accepts it.
//!
//! With a sentence encoder (the embedding model, when loaded) it also reads the few near misses
//! for meaning: word by word (`soft`: a claim word matched to the sentence's most similar
//! token) and as a whole; a near miss that both covers the claim that way and is close as a
//! whole supports it.
//!
//! What it cannot do: paraphrases beyond its small synonym table, inference ("meant to stand
//! for only 20 years" does not contradict "always intended to be permanent" for it), pronouns
//! whose antecedent is more than one sentence away, and numbers that appear in the sentence in
//! another role.

use std::sync::Arc;

use async_trait::async_trait;

use super::meaning::{similarity, SentenceEncoder};
use super::{Judge, JudgeError, JudgeLabel, Judgement};
use crate::model::JudgeInfo;

mod align;
mod analyse;
mod anchor;
mod attribution;
mod calibrate;
mod clause;
mod compare;
mod comparison;
mod facts;
mod lex;
mod lexicon;
mod numbers;
mod opposite;
mod pairing;
mod place;
mod placing;
mod prospect;
mod rank;
mod roles;
mod segment;
mod sequence;
mod soft;
mod swap;
mod vocabulary;

use align::{align, Alignment, Topic, Weights};
use analyse::Analysis;
use compare::NumberFit;

/// Coverage of the claim's content words a consistent sentence needs to support it.
pub const DEFAULT_SUPPORT_THRESHOLD: f64 = 0.7;
/// Coverage of the rest of the claim a sentence with a flipped slot needs to contradict it.
pub const DEFAULT_CONTRADICT_THRESHOLD: f64 = 0.55;
/// Coverage a pair of adjacent sentences must add over its better half to be the evidence.
pub const PAIR_GAIN: f64 = 0.1;
/// Share of the claim's own words under which a sentence that states some of the claim's
/// figures and differs from it in another is not the claim's statement on its own: when its
/// neighbour carries the missing figure, the two together are read instead ("Corvid cut it to
/// 4.35% ... includes a bonus of 0.85 points" and "After that it falls to 3.50%" for a claim
/// of all three figures). A sentence that states the claim's act in full with another figure
/// ("The 2018 edition introduced non-lexical lifetimes") still contradicts it whatever its
/// neighbour says.
pub const PARTIAL_STATEMENT: f64 = 0.8;
/// Coverage of the claim a pair's two sentences must reach between them before the pair is
/// analysed and aligned: a pair decides a label only from the support threshold less
/// [`MEANING_MARGIN`] (a near miss read for meaning) or at the contradiction threshold, and it
/// covers about no more than its halves together. Kept at or below both: on the development
/// and test sets no label changed and one quote did (a weak conflict of a skipped pair had
/// steered which near miss was read for meaning), and the words-only judge took about 15%
/// less CPU (most of a page's pairs concern no one claim).
pub const PAIR_WORTH: f64 = 0.4;
/// How much less coverage a sentence needs when it states one of the claim's telling figures
/// as it is ("€300 million", "6,500 cubic metres", "27 votes to 16"): such a figure is rarely
/// shared by chance, and the words around it are the ones paraphrased. Was 0.1 until issue
/// 18's twenty-eighth round; on the development set with that round, 0.15 gained 6 supported
/// citations and lost 2 `not_found` ones (meaning; +7 with words only), and 0.2 gained 8 and
/// lost 5.
pub const NUMBER_MARGIN: f64 = 0.15;
/// How much less coverage a sentence needs when it states two or more of the claim's telling
/// figures as they are ("bought some 177,000 himself, which left Egypt holding about 44 per
/// cent" for "about 177,000 shares, ... roughly 44% of the canal company"): two rare figures
/// together, and nothing against the claim, are the claim's facts however the words around
/// them are paraphrased. Set on the development set (issue 18's twenty-eighth round): margins
/// of 0.2, 0.3, 0.35 and 0.4 gained 2, 4, 4 and 5 supported citations and cost none; 0.3
/// keeps the bar at the floor below which no near miss is read at all.
pub const NUMBERS_MARGIN: f64 = 0.3;
/// How much of the claim's own words (what it says happened) a sentence needs for
/// [`NUMBERS_MARGIN`]: two figures with another act around them ("recruited 1,200 seasonal
/// packers, 15% of its staff" against "cut about 1,200 jobs, roughly 15% of the workforce")
/// are not the claim's facts. The development set's gains stood at 0.30 to 0.35.
pub const NUMBERS_PREDICATE_FLOOR: f64 = 0.25;
/// The heuristic's version, reported as the judge's `prompt_version`.
pub const HEURISTIC_VERSION: &str = "local-v1";
pub const MODEL: &str = "heuristic-v1";
/// How far below the support threshold a consistent sentence's coverage may fall and still be
/// read for its meaning: paraphrases share few words, but not none. The best such sentence is
/// read, and it must still reach the support threshold with its words matched by meaning, or
/// half of it beside a sentence close to the claim as a whole ([`CLOSE_SOFT_COVERAGE`]). At
/// 0.3 (from 0.2) no verdict of the development or frozen test set changed; three more of 1,030
/// probe pairs were supported (two on sets read for rules, one on a set never read), none was
/// lost, and the encoder read 0.78 sentences a citation instead of 0.62 (BENCHMARKS.md). At
/// 0.4, with [`CLOSE_SOFT_COVERAGE`], the development set gained 4 more citations, but the
/// encoder read 0.97 sentences a citation instead of 0.81 and the judge took 5.5 ms of CPU a
/// citation with an empty cache on the `avx2-int8` backend, over its 5 ms budget.
pub const MEANING_MARGIN: f64 = 0.3;
/// How far below the contradiction threshold the rest of the claim, beside a flipped figure,
/// may be covered by a sentence's words and still be read for its meaning.
pub const FLIP_MEANING_MARGIN: f64 = 0.2;
/// Similarity of meaning (all-MiniLM-L6-v2 cosine) at which such a near miss supports the
/// claim. Set on the development set: at 0.75 near misses that the page contradicts or leaves
/// open came through as well; from 0.85 none did.
pub const MEANING_SUPPORT: f32 = 0.85;
/// Similarity of meaning a near miss needs, beside a soft coverage at the support threshold
/// (its words matched by meaning, see `soft.rs`), to support the claim. Set on the development
/// set: with soft coverage alone (0.70), two near misses the page leaves open came through;
/// from 0.60 one did, and above 0.65 true paraphrases were lost.
pub const SOFT_MEANING_FLOOR: f32 = 0.6;
/// Soft coverage (the claim's words matched by meaning) at which a near miss whose sentence is
/// close to the claim as a whole ([`CLOSE_MEANING`]) supports it: two readings of meaning that
/// each fall short alone, a sentence about the claim's matter that states half its words
/// ("had the fine ... reduced from £21.4 million to £13.9 million" for "the penalty ... was
/// trimmed ... leaving it just under £14m instead of £21.4m"). Set in issue 18's twenty-ninth
/// round, whose 100 claims scored 31 right with meaning before it: the development set gained
/// 18 citations and lost 8 (not_found and contradicted claims called supported), 8 of the
/// gains in that round; at 0.55 it gained 15 and lost 6. The probe sets never read for rules
/// went from 0.701 to 0.716 (790 pairs) and from 0.487 to 0.512 (160), supported recall from
/// 0.81 to 0.88 and 0.42 to 0.50, with no more supported pairs called contradicted. Round
/// thirty, written after it and measured once, had three claims promoted by it, all wrongly.
/// Soft coverage is never below the words' coverage, and near misses are read from coverage
/// 0.4, so this bar only gates those between 0.4 and 0.5: above, closeness decides alone.
/// Such supports are scored at the support threshold, so their confidence (0.72) is that of
/// the words' weakest supports, likely too high for them.
pub const CLOSE_SOFT_COVERAGE: f64 = 0.5;
/// Similarity of meaning (all-MiniLM-L6-v2 cosine) a near miss needs beside
/// [`CLOSE_SOFT_COVERAGE`]. At 0.75 the development set gained 9 and lost 7.
pub const CLOSE_MEANING: f32 = 0.7;
/// Similarity of meaning a sentence that flips one of the claim's figures needs, beside a soft
/// rest at the contradiction threshold and a soft predicate at the predicate floor, to
/// contradict the claim when its words alone cover too little. Lower than
/// [`SOFT_MEANING_FLOOR`]: a sentence that gives a figure among several others ("sank in
/// about 18 minutes, killing 1,198 of the 1,959 people aboard") is far from a one-fact claim
/// as a whole. Set on the development set and on 160 number-heavy probe pairs written for it
/// (100 supported, 60 contradicted by a figure): at 0.5 two more true contradictions than at
/// 0.6 on the probes and one on the development set, and no supported pair called
/// contradicted at either.
pub const CONFLICT_MEANING_FLOOR: f32 = 0.5;
/// The share of the claim's own words a sentence that flips one of its figures must cover, its
/// words matched by meaning, to contradict it when its words alone cover too little (the words'
/// floor is `align::PREDICATE_FLOOR`, 0.4). Lower than the words' floor: a paraphrased verb earns
/// partial credit between the token floor and full ("broke apart" for "broke up", "valuing" for
/// "valued" come to 0.39). At 0.33 four more true contradictions of the probe sets, none on the
/// development, frozen test or never-read set, and no pair called contradicted that was not;
/// at 0.28 a supported pair was.
pub const SOFT_PREDICATE_FLOOR: f64 = 0.33;
/// The near misses read for their meaning, best coverage first: bounds the encoder's work per
/// citation. One: reading the best four instead changed no verdict on either set (741
/// development and 146 test citations) and cost about 0.4 ms more per citation with an empty
/// sentence cache (5.5 against 5.2 ms on the development set, 3.7 against 3.3 on the test set).
pub const MEANING_CANDIDATES: usize = 1;

/// The two decision thresholds, each in `[0, 1]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Thresholds {
    pub support: f64,
    pub contradict: f64,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            support: DEFAULT_SUPPORT_THRESHOLD,
            contradict: DEFAULT_CONTRADICT_THRESHOLD,
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct LocalJudge {
    thresholds: Thresholds,
    /// Reads sentences for meaning beside their words, when the embedding model is loaded.
    encoder: Option<Arc<dyn SentenceEncoder>>,
}

impl LocalJudge {
    /// A judge with the given thresholds, each clamped to `[0, 1]`.
    pub fn new(thresholds: Thresholds) -> Self {
        let clamp = |v: f64| if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) };
        LocalJudge {
            thresholds: Thresholds {
                support: clamp(thresholds.support),
                contradict: clamp(thresholds.contradict),
            },
            encoder: None,
        }
    }

    /// The same judge, also weighing how close in meaning the claim and each candidate sentence
    /// are (see [`MEANING_SUPPORT`], [`SOFT_MEANING_FLOOR`]).
    pub fn with_encoder(mut self, encoder: Arc<dyn SentenceEncoder>) -> Self {
        self.encoder = Some(encoder);
        self
    }

    pub fn thresholds(&self) -> Thresholds {
        self.thresholds
    }

    /// The judgement, computed synchronously (the [`Judge`] impl only wraps this).
    ///
    /// A claim the page does not support as a whole may state several facts that the page
    /// states apart (`facts`): it is then read from its facts, except that a contradiction of
    /// the whole stands unless the page supports every fact.
    pub fn assess(&self, claim: &str, passages: &[String]) -> Judgement {
        let page = Page::read(passages);
        let whole = self.assess_on(claim, &page).judgement;
        if whole.label == JudgeLabel::Supported {
            return whole;
        }
        let facts = facts::split(claim);
        if facts.len() < 2 {
            return whole;
        }
        let judged = self.read_facts(&facts, &page);
        // A conflict found in a claim of several facts may be one fact's name or number set
        // against the sentence that states another fact ("won by 38 seconds after taking the
        // lead on Scarrow Edge" against "won the Tour of the Brack Valley, 38 seconds ahead").
        // It stands unless the page supports every fact on its own: then nothing was
        // contradicted.
        let every_fact_supported = judged
            .iter()
            .all(|a| a.judgement.label == JudgeLabel::Supported);
        if whole.label == JudgeLabel::Contradicted && !every_fact_supported {
            return whole;
        }
        self.read_from_facts(&facts, judged).unwrap_or(whole)
    }

    /// A claim of several facts read from its facts alone (see [`LocalJudge::read_from_facts`]).
    #[cfg(test)]
    fn assess_facts(&self, facts: &[String], page: &Page<'_>) -> Option<Judgement> {
        self.read_from_facts(facts, self.read_facts(facts, page))
    }

    /// Each fact of a claim, read on its own against the page.
    fn read_facts(&self, facts: &[String], page: &Page<'_>) -> Vec<Assessed> {
        facts
            .iter()
            .map(|fact| self.assess_on(fact, page))
            .collect()
    }

    /// A claim of several facts: supported when every fact is (the weakest fact's sentence is
    /// the quote and its score the confidence's), contradicted when one fact is and every other
    /// is supported (the page is then plainly about the claim, and says otherwise on one
    /// point). `None` otherwise: a fact the page is silent on leaves the claim not found.
    fn read_from_facts(&self, facts: &[String], judged: Vec<Assessed>) -> Option<Judgement> {
        let count =
            |label: JudgeLabel| judged.iter().filter(|a| a.judgement.label == label).count();
        let (supported, contradicted) = (
            count(JudgeLabel::Supported),
            count(JudgeLabel::Contradicted),
        );
        let deciding = if supported == judged.len() {
            judged
                .into_iter()
                .enumerate()
                .min_by(|a, b| a.1.score.total_cmp(&b.1.score))?
        } else if contradicted == 1 && supported + 1 == judged.len() {
            judged
                .into_iter()
                .enumerate()
                .find(|(_, a)| a.judgement.label == JudgeLabel::Contradicted)
                // A fact is short: its conflict must also cover most of it with the slot
                // counted as missing, not only most of the rest ("employed 40 engineers by
                // 1900" against "about 300 people today" covers little of it).
                .filter(|(_, a)| a.coverage >= self.thresholds.contradict)?
        } else {
            return None;
        };
        // The fact's own confidence stands: it was read from the deciding score.
        let (k, Assessed { judgement, .. }) = deciding;
        Some(Judgement {
            detail: judgement.detail.map(|d| {
                format!(
                    "facts={} deciding=fact {} of {}: {d}",
                    facts.len(),
                    k + 1,
                    facts.len()
                )
            }),
            ..judgement
        })
    }

    /// The judgement of one claim against passages already read, its decisive score and the
    /// coverage of the sentence it quotes.
    fn assess_on(&self, claim: &str, page: &Page<'_>) -> Assessed {
        let claim_text = claim;
        let mut claim = Analysis::new(claim);
        let Page {
            split,
            pairs,
            weights,
            names,
            lowercase,
        } = page;
        claim.name_opener(|form| names.contains(form), |form| lowercase.contains(form));
        let claim = claim;
        let topic = Topic::of(&claim, split.iter().flat_map(|(_, _, a)| a));
        // A pair's halves are read without the figures that other sentences state: the pair
        // must add to what its halves state themselves, or it is not read.
        let words_topic = topic.without_stated();
        let align_half = |sentence: &Analysis, context: &[&Analysis]| {
            align(&claim, sentence, context, &words_topic, weights)
        };
        let align = |sentence: &Analysis, context: &[&Analysis]| {
            align(&claim, sentence, context, &topic, weights)
        };
        let mut best_support: Option<Candidate<'_>> = None;
        let mut best_conflict: Option<Candidate<'_>> = None;
        let mut best_any: Option<Candidate<'_>> = None;
        // Consistent sentences and pairs, for the encoder to read when words fall short.
        let mut near: Vec<Candidate<'_>> = Vec::new();
        // The sentence that flips one of the claim's figures but whose words cover too little
        // of the rest to contradict it, for the encoder to read as well.
        let mut near_conflict: Option<Candidate<'_>> = None;
        let conflict_floor = self.thresholds.contradict - FLIP_MEANING_MARGIN;
        for (passage, segments, analyses) in split {
            for (k, segment) in segments.iter().enumerate() {
                let mut context: Vec<&Analysis> = Vec::new();
                let previous = k.checked_sub(1);
                context.extend(previous.map(|p| &analyses[p]));
                let topic = Some(segment.paragraph).filter(|&p| p != k);
                for extra in [topic, segment.heading, segment.header]
                    .into_iter()
                    .flatten()
                {
                    if Some(extra) != previous {
                        context.push(&analyses[extra]);
                    }
                }
                let candidate = Candidate {
                    quote: &passage[segment.range.clone()],
                    alignment: align(&analyses[k], &context),
                    heading: segment.kind == segment::Kind::Heading,
                    by_meaning: false,
                    soft: None,
                    soft_conflict: None,
                };
                let a = &candidate.alignment;
                trace_candidate(claim_text, &candidate, "sentence");
                if a.consistent() && better(&best_support, a.support_key(), |b| b.support_key()) {
                    best_support = Some(candidate.clone());
                }
                if a.consistent() && !candidate.heading {
                    near.push(candidate.clone());
                }
                if a.conflict_strength() > 0.0
                    && better(&best_conflict, a.conflict_strength(), |b| {
                        b.conflict_strength()
                    })
                {
                    best_conflict = Some(candidate.clone());
                }
                if a.only_a_number_conflicts()
                    && a.conflict_strength() < self.thresholds.contradict
                    && a.rest_coverage >= conflict_floor
                    && !candidate.heading
                    && better(&near_conflict, a.rest_coverage, |b| b.rest_coverage)
                {
                    near_conflict = Some(candidate.clone());
                }
                // A heading is a poor quote for "not found": any sentence as close beats it.
                let replaces_heading = best_any.as_ref().is_some_and(|b| {
                    b.heading && !candidate.heading && a.coverage >= b.alignment.coverage
                });
                if replaces_heading || better(&best_any, a.coverage, |b| b.coverage) {
                    best_any = Some(candidate);
                }
            }
        }
        for pair in pairs {
            let (quote, p, first, second) = (pair.text, &pair.passage, &pair.first, &pair.second);
            let (_, segments, analyses) = &split[*p];
            let mut context: Vec<&Analysis> = Vec::new();
            context.extend(first.checked_sub(1).map(|b| &analyses[b]));
            for extra in [segments[*first].heading].into_iter().flatten() {
                context.push(&analyses[extra]);
            }
            // A pair must add what neither sentence has alone, or it only dilutes the quote; and
            // a sentence that contradicts the claim on its own is not rescued by its neighbour,
            // unless the two share out the claim's figures (see `PARTIAL_STATEMENT`).
            let alone = [*first, *second].map(|k| align_half(&analyses[k], &context));
            // A pair covers no more of the claim than its halves together: one that cannot
            // reach what a pair needs to count is not read at all (most of a page's pairs, for
            // any one claim).
            if alone[0].coverage + alone[1].coverage < PAIR_WORTH {
                continue;
            }
            let alignment = align(page.pair_analysis(pair), &context);
            let gain = alignment.coverage - alone[0].coverage.max(alone[1].coverage);
            let pair_has_every_figure = !alignment.numbers.is_empty()
                && alignment.numbers.iter().all(|n| *n == NumberFit::Match);
            // A year the first sentence gives dates what the second goes on to tell: the
            // second's other year ("In 1871 ... proposed Oswin. The council ruled ...; the
            // Society admitted its first women fellows in 1908") is another event's. A year
            // in the second sentence does not date the first ("The 2018 edition introduced
            // ... The 2021 edition changed ...").
            let flips = alone.iter().enumerate().any(|(k, a)| {
                a.conflict_strength() >= self.thresholds.contradict
                    && !(pair_has_every_figure
                        && a.only_a_number_conflicts()
                        && (a.numbers.contains(&NumberFit::Match) || (k == 1 && a.year_conflict))
                        && a.predicate_coverage() < PARTIAL_STATEMENT)
            });
            if flips || gain < PAIR_GAIN {
                continue;
            }
            // A consistent pair may support the claim. A pair whose polarity differs, while
            // neither half contradicts alone and one half states the claim's particulars, may
            // contradict it: the claim's predicate denied in one sentence, its particulars in
            // the next ("The business was never sold. Offers came ...; the largest, from
            // Delmont in 1999, was refused").
            let supports = alignment.consistent();
            // Only the page's denial spreads so: a claim's own denial ("it doesn't delete the
            // file") is not gainsaid by an act one sentence states of something else ("support
            // for YAML was removed") beside the claim's particulars in the other.
            let denies = alignment.polarity_differs()
                && (!alignment.claim_negated || alignment.sentence_negated)
                && !alignment.number_conflict()
                && alignment.entity_conflict.is_none()
                && alone.iter().any(|a| a.consistent());
            if !supports && !denies {
                continue;
            }
            let candidate = Candidate {
                quote,
                alignment,
                heading: false,
                by_meaning: false,
                soft: None,
                soft_conflict: None,
            };
            trace_candidate(claim_text, &candidate, "pair");
            let a = &candidate.alignment;
            if supports {
                if better(&best_support, a.support_key(), |b| b.support_key()) {
                    best_support = Some(candidate.clone());
                }
                near.push(candidate);
            } else if better(&best_conflict, a.conflict_strength(), |b| {
                b.conflict_strength()
            }) {
                best_conflict = Some(candidate);
            }
        }
        let (best_support, best_conflict) =
            self.read_meaning(claim_text, best_support, best_conflict, near, near_conflict);
        self.decide(best_support, best_conflict, best_any)
    }

    /// With an encoder: a consistent near miss that means the claim supports it, and a sentence
    /// that flips one of the claim's figures contradicts it when its words, read for meaning,
    /// cover the rest ("was awarded the 2009 Nobel Peace Prize" against "received the Nobel
    /// Peace Prize in 2012"). Without an encoder, or when it fails, the words decide alone. A
    /// contradiction the words decide is not read again: a floor of meaning under a flipped
    /// slot (cosine 0.25) changed no verdict on either set, 645 claims, while its forward
    /// passes were over half of the encoder's work per citation.
    fn read_meaning<'a>(
        &self,
        claim: &str,
        support: Option<Candidate<'a>>,
        conflict: Option<Candidate<'a>>,
        mut near: Vec<Candidate<'a>>,
        near_conflict: Option<Candidate<'a>>,
    ) -> (Option<Candidate<'a>>, Option<Candidate<'a>>) {
        let Some(encoder) = &self.encoder else {
            return (support, conflict);
        };
        let words_support = support
            .as_ref()
            .is_some_and(|c| c.alignment.coverage >= self.thresholds.support);
        let conflict = conflict.filter(|c| c.alignment.conflict_strength() > 0.0);
        let floor = self.thresholds.support - MEANING_MARGIN;
        // A sentence that leaves out the claim's rank, or has its act only in prospect, supports
        // nothing, however close.
        near.retain(|c| c.alignment.coverage >= floor && !c.alignment.leaves_out_a_qualifier());
        near.sort_by(|a, b| b.alignment.coverage.total_cmp(&a.alignment.coverage));
        near.dedup_by(|a, b| a.quote == b.quote);
        near.truncate(if words_support { 0 } else { MEANING_CANDIDATES });
        // Words that state the claim leave nothing for a weak conflict to change; nor does a
        // conflict the words already decide.
        let near_conflict = near_conflict.filter(|_| !words_support && conflict.is_none());
        if near.is_empty() && near_conflict.is_none() {
            return (support, conflict);
        }
        let mut texts = vec![claim];
        texts.extend(near.iter().map(|c| c.quote));
        texts.extend(near_conflict.iter().map(|c| c.quote));
        // Token by token first: one pass gives the soft coverages and fills the encoder's
        // sentence cache for the whole-sentence similarities below.
        let mut soft_conflict = None;
        if let Ok(tokens) = encoder.encode_tokens(&texts) {
            if tokens.len() == texts.len() {
                let lexemes: Vec<std::ops::Range<usize>> = lex::lex(claim)
                    .iter()
                    .map(|l| l.start..l.start + l.text.len())
                    .collect();
                for (c, sentence) in near.iter_mut().zip(&tokens[1..]) {
                    c.soft = Some(soft::coverage(&c.alignment, &lexemes, &tokens[0], sentence));
                }
                if let (Some(c), Some(sentence)) = (&near_conflict, tokens.last()) {
                    soft_conflict = Some(soft::conflict_coverage(
                        &c.alignment,
                        &lexemes,
                        &tokens[0],
                        sentence,
                    ));
                }
            }
        }
        let vectors = match encoder.encode(&texts) {
            Ok(v) if v.len() == texts.len() => v,
            Ok(_) | Err(_) => {
                tracing::warn!("the sentence encoder failed; the local judge reads words only");
                return (support, conflict);
            }
        };
        let meaning = |k: usize| similarity(&vectors[0], &vectors[k]);
        // A near miss supports the claim when its words, read for meaning, cover it (soft
        // coverage at the support threshold), or when the whole sentence means the claim.
        let support_at = self.thresholds.support;
        let promoted = near
            .into_iter()
            .zip(1..)
            .filter_map(|(mut c, k)| {
                let meaning = meaning(k);
                let soft = c
                    .soft
                    .filter(|s| *s >= support_at && meaning >= SOFT_MEANING_FLOOR);
                // Close as a whole with half its words matched by meaning, or very close.
                let close = meaning >= MEANING_SUPPORT
                    || (meaning >= CLOSE_MEANING
                        && c.soft.is_some_and(|s| s >= CLOSE_SOFT_COVERAGE));
                if soft.is_none() && !close {
                    return None;
                }
                c.by_meaning = true;
                c.soft = Some(soft.unwrap_or(support_at));
                c.soft.map(|s| (s, c))
            })
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, c)| c);
        // A flipped figure contradicts when the rest, its words read for meaning, is covered as
        // a contradiction must be, the claim's own words (what happened) as a figure's
        // conflict needs them, and the sentence is close to the claim as a whole.
        let conflict = near_conflict
            .zip(soft_conflict)
            .map(|(c, soft)| {
                let meaning = meaning(texts.len() - 1);
                tracing::trace!(
                    claim,
                    quote = c.quote,
                    rest = soft.rest,
                    predicate = soft.predicate,
                    meaning,
                    "judge flipped figure read for meaning"
                );
                (c, soft, meaning)
            })
            .filter(|(_, soft, meaning)| self.flipped_by_meaning(soft, *meaning))
            .map(|(mut c, soft, meaning)| {
                c.soft_conflict = Some((soft, meaning));
                c
            })
            .or(conflict);
        (promoted.or(support), conflict)
    }

    /// Whether a sentence that flips one of the claim's figures contradicts it, read for meaning:
    /// the rest covered as a contradiction must be, the claim's own words as
    /// [`SOFT_PREDICATE_FLOOR`] asks, and the sentence close to the claim as a whole.
    fn flipped_by_meaning(&self, soft: &soft::SoftConflict, meaning: f32) -> bool {
        soft.rest >= self.thresholds.contradict
            && soft.predicate >= SOFT_PREDICATE_FLOOR
            && meaning >= CONFLICT_MEANING_FLOOR
    }

    /// The coverage a consistent sentence needs to support the claim: the support threshold,
    /// less [`NUMBER_MARGIN`] when it states one of the claim's telling figures as it is, less
    /// [`NUMBERS_MARGIN`] when it states two or more and enough of the claim's own words
    /// ([`NUMBERS_PREDICATE_FLOOR`]).
    fn support_bar(&self, alignment: &Alignment) -> f64 {
        if alignment.telling_numbers > 1
            && alignment.predicate_coverage() >= NUMBERS_PREDICATE_FLOOR
        {
            self.thresholds.support - NUMBERS_MARGIN
        } else if alignment.telling_numbers > 0 {
            self.thresholds.support - NUMBER_MARGIN
        } else {
            self.thresholds.support
        }
    }

    fn decide(
        &self,
        support: Option<Candidate<'_>>,
        conflict: Option<Candidate<'_>>,
        any: Option<Candidate<'_>>,
    ) -> Assessed {
        // A sentence that means the claim counts as covering it, at the threshold.
        let s = support.as_ref().map_or(0.0, |c| {
            if c.by_meaning {
                c.alignment
                    .coverage
                    .max(c.soft.unwrap_or(self.thresholds.support))
            } else {
                c.alignment.coverage
            }
        });
        let c = conflict.as_ref().map_or(0.0, Candidate::conflict_strength);
        // A sentence that states the claim's figures as the claim has them outweighs one that
        // differs from the claim only in a figure and covers less of it: the page then gives
        // the claim's figure in its place, and the other figure is another event's ("moved in
        // 1897 to offices in Brackenford" against "renamed in 1952").
        let figures_outweigh = match (&support, &conflict) {
            (Some(sup), Some(con)) => {
                let a = &con.alignment;
                a.only_a_number_conflicts()
                    && !sup.alignment.numbers.is_empty()
                    && sup.alignment.numbers.iter().all(|n| *n == NumberFit::Match)
                    && sup.alignment.coverage > a.coverage
            }
            _ => false,
        };
        let (label, chosen, score) = match (support, conflict) {
            // Against a contradiction, the support is read without the page's subject, as
            // the contradiction is: the subject alone must not tip the balance.
            (Some(sup), _)
                if !sup.alignment.leaves_out_a_qualifier()
                    && s >= self.support_bar(&sup.alignment)
                    // A tie goes to the sentence with the claim's figures: "Python 2.0 was
                    // released in 2000" against "Python 3.0, released in 2008" covers the claim
                    // as fully as the other conflicts with it.
                    && (s > c || (figures_outweigh && s >= c))
                    // Closeness in meaning cannot tell a denial from a statement (a sentence
                    // that gainsays the claim is as near to it as one that states it), so a
                    // support by meaning outweighs only a conflict too weak to contradict.
                    && (c == 0.0
                        || (sup.by_meaning && c < self.thresholds.contradict)
                        || sup.alignment.plain_coverage > c
                        || figures_outweigh) =>
            {
                (JudgeLabel::Supported, Some(sup), s)
            }
            // Another sentence states the claim in full: the page is not plainly against it,
            // and calling a true citation contradicted is the worst error this tool can make.
            // A sentence that leaves out the claim's rank does not state it ("Canberra is the
            // capital city of Australia" for "the largest city in Australia").
            // Stating it means stating it in words, not only being near in meaning, and stating
            // what happened: a sentence that only carries the claim's names ("The Nova 3 Pro
            // is Tessel's smallest flagship") says nothing against a
            // sentence that negates the claim's predicate; nor does one that needs the page's
            // subject to reach the threshold ("Former residents of Scarrow End held a reunion
            // beside the water" for "Hollin Reservoir holds more water than Scarrow"). Nor does
            // a sentence whose neighbour denies what it tells of: the pair of the two is the
            // contradiction ("The firm was never sold. ... Delmont's offer was refused").
            (Some(sup), Some(con))
                if s >= self.thresholds.support
                    && !sup.alignment.leaves_out_a_qualifier()
                    && !con.quote.contains(sup.quote)
                    && sup.alignment.predicate_coverage() >= align::PREDICATE_FLOOR
                    && sup.alignment.plain_coverage >= self.thresholds.support =>
            {
                let best = any.as_ref().map_or(0.0, |a| a.alignment.coverage);
                (JudgeLabel::NotFound, any, best)
            }
            (_, Some(con)) if c >= self.thresholds.contradict => {
                (JudgeLabel::Contradicted, Some(con), c)
            }
            _ => {
                let best = any.as_ref().map_or(0.0, |a| a.alignment.coverage);
                (JudgeLabel::NotFound, any, best)
            }
        };
        let basis = match &chosen {
            Some(c) if c.by_meaning && label == JudgeLabel::Supported => calibrate::Basis::Meaning,
            _ => calibrate::Basis::Words,
        };
        let confidence = calibrate::confidence(label, score, basis);
        let judgement = Judgement {
            label,
            evidence_quote: chosen.as_ref().map(|c| c.quote.to_string()),
            confidence: confidence.clamp(0.0, 1.0),
            usage: None,
            // The decisive score first: what the confidence was read from.
            detail: Some(match &chosen {
                Some(c) if c.by_meaning => format!(
                    "score={score:.3} {} soft={:.2} meaning=close",
                    c.alignment.describe(),
                    c.soft.unwrap_or(0.0)
                ),
                Some(
                    c @ Candidate {
                        soft_conflict: Some((soft, meaning)),
                        ..
                    },
                ) if label == JudgeLabel::Contradicted => format!(
                    "score={score:.3} {} soft_rest={:.2} soft_predicate={:.2} meaning={meaning:.2}",
                    c.alignment.describe(),
                    soft.rest,
                    soft.predicate
                ),
                Some(c) => format!("score={score:.3} {}", c.alignment.describe()),
                None => format!("score={score:.3} no sentence in the passages"),
            }),
        };
        let coverage = chosen.as_ref().map_or(0.0, |c| c.alignment.coverage);
        Assessed {
            judgement,
            score,
            coverage,
        }
    }
}

/// One claim's judgement with what decided it: the decisive score (the confidence was read
/// from it) and the coverage of the sentence quoted.
struct Assessed {
    judgement: Judgement,
    score: f64,
    coverage: f64,
}

/// The passages cut into sentences and analysed once, whatever claim they are asked about.
struct Page<'p> {
    split: Vec<(&'p str, Vec<segment::Segment>, Vec<Analysis>)>,
    /// Adjacent sentences of one paragraph (or adjacent list items) read together: evidence is
    /// often split over two ("... opened in 1889. It stood 300 metres tall."). The pair is one
    /// contiguous span of the passage, so it is still a verbatim quote.
    pairs: Vec<Pair<'p>>,
    weights: Weights,
    /// The forms of the one-word names the passages write mid-sentence.
    names: rustc_hash::FxHashSet<String>,
    /// The forms of the words the passages write in lower case.
    lowercase: rustc_hash::FxHashSet<String>,
}

/// Two adjacent sentences of a passage, analysed when a claim first needs them.
struct Pair<'p> {
    text: &'p str,
    analysis: std::cell::OnceCell<Analysis>,
    /// The passage and its two segments.
    passage: usize,
    first: usize,
    second: usize,
}

impl<'p> Page<'p> {
    /// The pair's analysis, made at its first use: most pairs never concern the claim.
    fn pair_analysis<'a>(&'a self, pair: &'a Pair<'p>) -> &'a Analysis {
        pair.analysis.get_or_init(|| {
            let mut analysis = Analysis::new(pair.text);
            analysis.name_opener(
                |form| self.names.contains(form),
                |form| self.lowercase.contains(form),
            );
            analysis
        })
    }

    fn read(passages: &'p [String]) -> Page<'p> {
        let mut split: Vec<(&str, Vec<segment::Segment>, Vec<Analysis>)> = passages
            .iter()
            .map(|passage| {
                let segments = segment::split(passage);
                let analyses = segments
                    .iter()
                    .map(|s| Analysis::new(&passage[s.range.clone()]))
                    .collect();
                (passage.as_str(), segments, analyses)
            })
            .collect();
        let names: rustc_hash::FxHashSet<String> = split
            .iter()
            .flat_map(|(_, _, a)| a.iter().flat_map(|a| a.name_forms().map(str::to_string)))
            .collect();
        let lowercase: rustc_hash::FxHashSet<String> = split
            .iter()
            .flat_map(|(_, _, a)| {
                a.iter()
                    .flat_map(|a| a.lowercase_forms().map(str::to_string))
            })
            .collect();
        for (_, _, analyses) in &mut split {
            for analysis in analyses {
                analysis.name_opener(|form| names.contains(form), |form| lowercase.contains(form));
            }
        }
        let weights = Weights::over(split.iter().flat_map(|(_, _, a)| a));
        let pairs = split
            .iter()
            .enumerate()
            .flat_map(|(p, (passage, segments, _))| {
                segments.windows(2).enumerate().filter_map(move |(k, w)| {
                    let joined = match (w[0].kind, w[1].kind) {
                        // Not two items of a summary line ("operating profit £52.1m (-9%)
                        // · net profit £31.7m (-23%)"): each figure is its own item's.
                        (segment::Kind::Sentence, segment::Kind::Sentence) => {
                            w[0].paragraph == w[1].paragraph
                                && !passage[w[0].range.end..w[1].range.start]
                                    .contains(segment::ITEM_SEPARATORS)
                        }
                        (segment::Kind::ListItem, segment::Kind::ListItem) => {
                            w[0].heading == w[1].heading
                        }
                        _ => false,
                    };
                    joined.then(|| Pair {
                        text: &passage[w[0].range.start..w[1].range.end],
                        analysis: std::cell::OnceCell::new(),
                        passage: p,
                        first: k,
                        second: k + 1,
                    })
                })
            })
            .collect();
        Page {
            split,
            pairs,
            weights,
            names,
            lowercase,
        }
    }
}

/// A sentence and its alignment with the claim.
#[derive(Debug, Clone)]
struct Candidate<'a> {
    quote: &'a str,
    alignment: Alignment,
    heading: bool,
    /// Chosen as support for its meaning, its words falling short.
    by_meaning: bool,
    /// Its coverage with words matched by meaning as well (`soft`), when the encoder read it.
    soft: Option<f64>,
    /// Its strength as a contradiction when its words, read for meaning, cover the rest of
    /// the claim around a flipped figure (see `read_meaning`).
    soft_conflict: Option<(soft::SoftConflict, f32)>,
}

impl Candidate<'_> {
    /// How strongly it contradicts the claim: by its words, or by their meaning.
    fn conflict_strength(&self) -> f64 {
        self.soft_conflict
            .map_or_else(|| self.alignment.conflict_strength(), |(soft, _)| soft.rest)
    }
}

/// A sentence (or a joined pair that adds to either half) the judge weighed, at trace level
/// (`RUST_LOG=citecheck_core::judge=trace`), when it shares anything with the claim or
/// conflicts with it: how a verdict came about when the chosen quote alone does not explain it.
fn trace_candidate(claim: &str, candidate: &Candidate<'_>, kind: &str) {
    let a = &candidate.alignment;
    // Only sentences that share something with the claim: not the lift that the page's
    // subject or a figure stated elsewhere lends every sentence.
    if a.plain_coverage > 0.0 || a.conflicting() {
        tracing::trace!(
            claim,
            kind,
            quote = candidate.quote,
            conflict = a.conflict_strength(),
            detail = %a.describe(),
            "judge candidate"
        );
    }
}

/// Whether `score` beats the best so far (ties keep the earlier sentence).
fn better(best: &Option<Candidate<'_>>, score: f64, key: fn(&Alignment) -> f64) -> bool {
    best.as_ref().is_none_or(|b| score > key(&b.alignment))
}

#[async_trait]
impl Judge for LocalJudge {
    fn info(&self) -> JudgeInfo {
        let mut prompt_version = if self.thresholds == Thresholds::default() {
            HEURISTIC_VERSION.to_string()
        } else {
            format!(
                "{HEURISTIC_VERSION}+support={}+contradict={}",
                self.thresholds.support, self.thresholds.contradict
            )
        };
        if let Some(encoder) = &self.encoder {
            prompt_version.push_str("+meaning=");
            prompt_version.push_str(encoder.name());
        }
        JudgeInfo {
            provider: "local".to_string(),
            model: MODEL.to_string(),
            prompt_version,
        }
    }

    async fn judge(&self, claim: &str, passages: &[String]) -> Result<Judgement, JudgeError> {
        // The heuristic is CPU work (milliseconds on long passages): keep it off the executor.
        let judge = self.clone();
        let claim = claim.to_string();
        let passages = passages.to_vec();
        tokio::task::spawn_blocking(move || judge.assess(&claim, &passages))
            .await
            .map_err(JudgeError::Panicked)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guard;
    use crate::model::Label;

    const WATER: &str = "## Boiling point\n\nWater boils at 100 degrees Celsius at sea level. At \
        this temperature the vapour pressure of water equals the pressure of the atmosphere.\n\n\
        At higher altitudes the air pressure is lower, so water boils at a lower temperature.";

    fn judged(claim: &str, passages: &[&str]) -> Judgement {
        let passages: Vec<String> = passages.iter().map(|p| p.to_string()).collect();
        LocalJudge::default().assess(claim, &passages)
    }

    #[test]
    fn a_sentence_with_all_the_claim_s_figures_wins_a_tie_with_one_that_differs() {
        let page = "Python 2.0 was released in 2000. Python 3.0, released in 2008, was a major \
                    revision not completely backward-compatible with earlier versions.";
        for claim in [
            "Python 2.0 was released in 2000.",
            "Python 3.0 was released in 2008.",
        ] {
            let j = judged(claim, &[page]);
            assert_eq!(j.label, JudgeLabel::Supported, "{claim}: {:?}", j.detail);
        }
        let j = judged("Python 3.0 was released in 2009.", &[page]);
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    #[test]
    fn a_money_figure_s_glued_scale_and_a_summary_line_s_items_are_read_as_written() {
        let page = "Corvane raised £40m from investors led by Halden Capital.";
        let j = judged("Corvane raised £40 million from investors.", &[page]);
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
        // The claim's fall is the next item's, not operating profit's.
        let page = "**Tessaly, third quarter:** revenue £318.4m (+6.2%) · operating profit \
                    £52.1m (-9%) · net profit £31.7m (-23%) · jobs to go 420";
        let j = judged(
            "Tessaly's operating profit for the third quarter fell 23%, to about £52 million.",
            &[page],
        );
        assert_ne!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
    }

    #[test]
    fn what_the_claim_sets_aside_or_denies_by_a_prefix_is_no_conflict() {
        // "rather than Sweden": Stockholm in Sweden's place agrees with the claim.
        let page = "The Peace Prize is awarded by a committee chosen by the Norwegian \
                    Parliament and presented annually in Oslo, while the other prizes are \
                    presented in Stockholm.";
        let j = judged(
            "The Peace Prize is presented in Norway rather than Sweden.",
            &[page],
        );
        assert_ne!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        // "non-English" and "not in English" deny the same thing.
        let page = "Parasite became the first film not in English to win the Academy Award \
                    for Best Picture.";
        let j = judged(
            "Parasite was the first non-English-language film to win the Academy Award for \
             Best Picture.",
            &[page],
        );
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
    }

    #[test]
    fn a_denial_beside_a_rank_the_sentence_leaves_out_denies_something_else() {
        let page = "Lake Baikal is home to more than 1,700 species of plants and animals, \
                    two-thirds of which are found nowhere else in the world.";
        let j = judged("Lake Baikal is the deepest lake in the world.", &[page]);
        assert_ne!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        // A denial of the rank itself still contradicts it.
        let page = "Lake Baikal is not the deepest lake in the world.";
        let j = judged("Lake Baikal is the deepest lake in the world.", &[page]);
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    #[test]
    fn a_season_is_dated_by_the_year_it_ends_in() {
        let page = "Leicester City won the 2015-16 Premier League title as 5,000-1 outsiders.";
        let j = judged(
            "Leicester City won the Premier League title in 2016.",
            &[page],
        );
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
    }

    #[test]
    fn names_traded_around_the_claim_s_verb_contradict_it() {
        let page = "Germany defeated Argentina 1-0 after extra time in the 2014 World Cup \
                    final at the Maracana. Mario Gotze scored the winning goal.";
        let j = judged(
            "Argentina defeated Germany in the 2014 World Cup final.",
            &[page],
        );
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        // The same roles in the passive voice are a support.
        let page = "Argentina was defeated by Germany in the 2014 World Cup final.";
        let j = judged(
            "Germany defeated Argentina in the 2014 World Cup final.",
            &[page],
        );
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
    }

    #[test]
    fn a_common_word_opening_the_claim_is_no_name_a_named_body_replaces() {
        let page = "The state Public Utilities Commission ordered Tolland Water Company on \
                    Tuesday to return $6 million to roughly 48,000 customers as bill credits.";
        let j = judged(
            "Regulators ordered Tolland Water to refund customers about $6 million.",
            &[page],
        );
        assert_ne!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        // A place opening the claim is still a name, whatever the dictionary holds.
        let j = judged(
            "Sydney is the capital city of Australia.",
            &["Canberra is the capital city of Australia and its largest inland city."],
        );
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    #[test]
    fn their_stands_for_the_claim_s_owner_that_the_page_names() {
        // The band is named two paragraphs up, so neither the sentence nor its context holds
        // it; "Their" does, and Kit Lawless is no rival of Greyburn's.
        let claim = "Greyburn's second drummer, Joe Tamsin, played on the band's first two albums \
                     and left in 2021.";
        let page = "# Review\n\nGreyburn's new record is long and slow, and it rewards \
                    patience.\n\n## The band\n\nThe line-up has changed often over the years. \
                    Their first drummer, Kit Lawless, lasted until 2016; his successor, Joe \
                    Tamsin, played on both earlier albums before leaving in 2021 in circumstances \
                    the band have never fully explained, although Tamsin has said in interviews \
                    that he was not sacked.";
        let j = judged(claim, &[page]);
        assert_ne!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    /// Two facts of one claim, stated paragraphs apart with other sentences between.
    const COMMISSION: &str = "## History\n\nThe Harwick River Commission was founded in 1921 \
        by the riparian states. Its first chairman was an engineer from Lyon. Early meetings \
        dealt mostly with dredging and with tolls.\n\n## Today\n\nThe river carries grain, \
        ore and timber. Barges of up to 3,000 tonnes reach the upper port. Since 1962 the \
        commission has been based in Ostrava, in a former customs house.";

    #[test]
    fn a_claim_of_two_facts_stated_apart_is_read_from_its_facts() {
        let claim = "The Harwick River Commission was founded in 1921 and has been based in \
            Ostrava since 1962.";
        let j = judged(claim, &[COMMISSION]);
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
        let detail = j.detail.unwrap_or_default();
        assert!(detail.starts_with("facts=2 deciding=fact "), "{detail}");
        let quote = j.evidence_quote.unwrap_or_default();
        assert!(COMMISSION.contains(&quote), "{quote}");

        // One fact stated otherwise, the other supported: contradicted, quoting the conflict.
        let wrong = "The Harwick River Commission was founded in 1921 and has been based in \
            Ostrava since 1978.";
        let j = judged(wrong, &[COMMISSION]);
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        assert!(j.evidence_quote.unwrap_or_default().contains("Since 1962"));

        // One fact the page is silent on: the claim is not found, whatever the other says.
        let silent = "The Harwick River Commission was founded in 1921 and has been chaired by \
            a Czech diplomat since 1990.";
        assert_eq!(judged(silent, &[COMMISSION]).label, JudgeLabel::NotFound);
    }

    #[test]
    fn a_conflict_between_one_fact_and_another_fact_s_sentence_contradicts_nothing() {
        // The first sentence states the founding and names another city in the place of the
        // claim's second fact; the page supports each fact on its own.
        let page = "## History\n\nThe Harwick River Commission was founded in 1921 in Brno by \
            the riparian states. Its first chairman was an engineer from Lyon.\n\n## Today\n\n\
            The river carries grain, ore and timber. Since 1962 the commission has been based \
            in Ostrava, in a former customs house.";
        let claim = "The Harwick River Commission was founded in 1921 and has been based in \
            Ostrava since 1962.";
        let page_passages = [page.to_string()];
        let judge = LocalJudge::default();
        let whole = judge
            .assess_on(claim, &Page::read(&page_passages))
            .judgement;
        assert_eq!(whole.label, JudgeLabel::Contradicted, "{:?}", whole.detail);
        let j = judged(claim, &[page]);
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
        assert!(j.detail.unwrap_or_default().starts_with("facts=2 "));
        // A fact the page states otherwise still contradicts the claim.
        let wrong = "The Harwick River Commission was founded in 1921 and has been based in \
            Ostrava since 1978.";
        assert_eq!(judged(wrong, &[page]).label, JudgeLabel::Contradicted);
    }

    #[test]
    fn a_telling_figure_stated_as_it_is_lowers_the_support_bar() {
        let judge = LocalJudge::default();
        let claim = Analysis::new("About 6,500 cubic metres of water flow out each second.");
        let sentence = Analysis::new("The river carries 6,500 cubic metres a second.");
        let alignment = align(
            &claim,
            &sentence,
            &[],
            &Topic::default(),
            &Weights::default(),
        );
        assert_eq!(alignment.telling_numbers, 1);
        let bar = judge.support_bar(&alignment);
        assert!((bar - (DEFAULT_SUPPORT_THRESHOLD - NUMBER_MARGIN)).abs() < 1e-9);
        // The development set's paraphrases around one telling figure reach 0.55 (issue 18's
        // twenty-eighth round: "Lindahl expects two more cuts ... leave the rate at 3.25%").
        assert!(bar <= 0.55 + 1e-9, "{bar}");
        let year = Analysis::new("The river carries water in 1990.");
        let alignment = align(&claim, &year, &[], &Topic::default(), &Weights::default());
        assert_eq!(judge.support_bar(&alignment), DEFAULT_SUPPORT_THRESHOLD);
    }

    #[test]
    fn two_telling_figures_stated_as_they_are_support_a_paraphrase() {
        let claim = "Egypt's viceroy Said absorbed the unsold remainder of the company's stock, \
                     about 177,000 shares, so that his country ended up owning roughly 44% of \
                     the canal company.";
        let sentence = "The Universal Company of the Maritime Canal of Suez was incorporated in \
                        December 1858 with a capital of 200 million francs, divided into 400,000 \
                        shares of 500 francs each; French investors, many of them small savers, \
                        took up more than half, and Said, when the rest went unsold, bought some \
                        177,000 himself, which left Egypt holding about 44 per cent of the \
                        company.";
        let j = judged(claim, &[sentence]);
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
        // One of the two figures otherwise leaves the paraphrase short of support.
        let one = sentence.replace("some 177,000", "most of the remainder");
        let j = judged(claim, &[one.as_str()]);
        assert_eq!(j.label, JudgeLabel::NotFound, "{:?}", j.detail);
        // Two figures with another act around them are not the claim's facts.
        let j = judged(
            "Halvorsen Foods cut about 1,200 jobs at its three plants last year, roughly 15% of \
             the workforce.",
            &["Halvorsen Foods recruited 1,200 seasonal packers, 15% of its staff."],
        );
        assert_ne!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
    }

    #[test]
    fn a_claim_opening_with_a_name_the_page_uses_is_contradicted_by_a_rival_in_its_place() {
        let page = "## Towns\n\nThe largest town in the hills is Veskstad, with 23,000 people. \
            The provincial capital, Tarmen, lies on the plain to the east of the hills.";
        let j = judged("Veskstad is the provincial capital.", &[page]);
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        assert!(j
            .detail
            .unwrap_or_default()
            .contains("conflict(Veskstad vs Tarmen)"));
        // A page that writes the name only at the start of sentences: no dictionary holds it,
        // so it is a name all the same.
        let page = "## Towns\n\nDornvik, with about 9,000 inhabitants, is the largest town in \
            the hills. The provincial capital, Selmar, lies on the plain to the east.";
        let j = judged("Dornvik is the provincial capital.", &[page]);
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        // A word the page never writes as a name stays the first word of the claim.
        let page = "## Prices\n\nIn the town, rents rose by 9% last year. The council said \
            rents would be reviewed, and Tarmen said nothing.";
        let j = judged("Rents rose by 9% last year.", &[page]);
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
        // A word of a longer name is no name of its own: "Revenue" of "the Inland Revenue".
        let page = "## Results\n\nTurnover at Brannock rose 9% in 2024. The Inland Revenue \
            fined the firm in 2023.";
        let j = judged("Revenue rose 9% in 2024.", &[page]);
        assert_ne!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    #[test]
    fn a_phrasal_verb_states_what_its_one_word_synonym_states() {
        let page = "## Navigation\n\nNavigation on the river is overseen by the Harl \
            Commission, set up by the Belgrade Convention of 1948.";
        let j = judged("The Harl Commission was established in 1948.", &[page]);
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
        // A setting switched off is one disabled, and so the opposite of one enabled.
        let notes = "Meridian 7.0 release notes: dark mode is now enabled by default on all \
            platforms and follows the system theme.";
        let j = judged(
            "Dark mode is switched off by default in Meridian 7.0.",
            &[notes],
        );
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        let j = judged(
            "Dark mode is turned on by default in Meridian 7.0.",
            &[notes],
        );
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
    }

    #[test]
    fn a_pair_of_the_claim_s_figures_side_by_side_is_the_claim_s_however_a_later_verb_reads() {
        let page = "At 10:35 a.m. on 17 December 1903 Orville Wright piloted the Flyer for 12 \
            seconds over 120 feet, the first of four flights that day, the longest of which, by \
            Wilbur, covered 852 feet in 59 seconds.";
        let j = judged(
            "Orville Wright's first powered flight in December 1903 lasted 12 seconds and \
             covered 120 feet.",
            &[page],
        );
        assert_ne!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    #[test]
    fn a_release_that_drops_support_says_what_no_longer_supported_says() {
        let notes = "Wrenly 2.0 ships with experimental HTTP/3 over QUIC, alongside connection \
            pooling improvements; Python 3.8 is no longer supported.";
        for claim in [
            "Wrenly 2.0 introduces experimental HTTP/3 support and drops support for Python 3.8.",
            "Wrenly 2.0 removed support for Python 3.8.",
        ] {
            let j = judged(claim, &[notes]);
            assert_eq!(j.label, JudgeLabel::Supported, "{claim}: {:?}", j.detail);
        }
    }

    #[test]
    fn what_someone_still_does_they_no_longer_do_once_they_have_died() {
        let j = judged(
            "Crime novelist Peter Malloy, 81, is still writing at his home in Galway.",
            &[
                "Peter Malloy, whose crime novels featuring Inspector Ruth Garvan sold more than \
               9 million copies, died at his home in Galway on Tuesday at the age of 81.",
            ],
        );
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        // Another person's death.
        let j = judged(
            "Peter Malloy is still writing crime novels.",
            &[
                "Peter Malloy, whose mentor Ruth Garvan died in 2019, is still writing crime \
               novels.",
            ],
        );
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
    }

    #[test]
    fn a_share_of_change_is_worked_out_from_the_change_s_two_ends() {
        let page = "Average waiting times in Ferncliff Hospital's emergency department fell from \
            4 hours 8 minutes to 3 hours 6 minutes over the past 12 months.";
        let j = judged(
            "Average emergency department waits at Ferncliff Hospital fell by a quarter over the \
             past year.",
            &[page],
        );
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
        let j = judged(
            "Average emergency department waits at Ferncliff Hospital fell by 40% over the past \
             year.",
            &[page],
        );
        assert_ne!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
    }

    #[test]
    fn a_split_tally_is_no_unanimous_vote() {
        let j = judged(
            "The council unanimously approved the plan.",
            &["The council approved the plan 7-2 on Monday."],
        );
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        let j = judged(
            "The council unanimously approved the plan.",
            &["The council approved the plan 9-0 on Monday."],
        );
        assert_ne!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    #[test]
    fn a_vote_written_with_its_noun_is_read_as_a_whole() {
        // "by 11 votes to four" against "by nine votes to six": the tally differs, though each
        // of its numbers has two candidates in the sentence.
        let j = judged(
            "The councillors approved the housing scheme by 11 votes to four.",
            &[
                "The councillors approved the housing scheme by nine votes to six, with one \
                abstention, after a four-hour meeting.",
            ],
        );
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        // Its second figure is a vote, no rival of another count.
        let j = judged(
            "The two new ferries will be built in Scotland.",
            &[
                "The council voted by 11 votes to 9 to build a ferry depot, ending two years \
                of argument.",
            ],
        );
        assert_ne!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    #[test]
    fn a_value_a_change_started_from_is_no_rival_of_the_claim_s() {
        let page = "From Sunday 8 September, Route 42 will run four times an hour during the \
            daytime on weekdays, up from every 20 minutes.";
        let j = judged(
            "Route 42 will run every 15 minutes on weekday daytimes from 8 September.",
            &[page],
        );
        assert_ne!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        // The earlier value where the claim puts the current one still conflicts.
        let j = judged(
            "Route 42 will run every 20 minutes on weekday daytimes from 8 September.",
            &[
                "From Sunday 8 September, Route 42 will run every 15 minutes on weekdays, up \
               from every 20 minutes.",
            ],
        );
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    #[test]
    fn a_footnote_marker_is_no_figure_of_its_sentence() {
        let page = "## Tarn Bridge\n\nThe Tarn Bridge has five spans.[3] Its builders were \
            not paid until 1913.[4] It was opened in 1911 by the Orland Railway Company,[5][a] \
            which ran it until 1948.";
        let j = judged("The Tarn Bridge has 3 spans.", &[page]);
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        for claim in [
            "The Tarn Bridge was opened in 1911.",
            "The Orland Railway Company opened the Tarn Bridge in 1911.",
            "The Tarn Bridge's builders were paid in 1913.",
        ] {
            let j = judged(claim, &[page]);
            assert_eq!(j.label, JudgeLabel::Supported, "{claim}: {:?}", j.detail);
        }
    }

    #[test]
    fn a_biography_s_common_paraphrases_state_the_claim() {
        let page = "## Dora Whitcombe\n\nDora Whitcombe grew up in Selmar, the daughter of a \
            miller. She studied at the University of Tarn and later taught there. She passed \
            away in Selmar in 1941.";
        for claim in [
            "Dora Whitcombe was raised in Selmar.",
            "Whitcombe was educated at the University of Tarn.",
            "Dora Whitcombe died in Selmar in 1941.",
        ] {
            let j = judged(claim, &[page]);
            assert_eq!(j.label, JudgeLabel::Supported, "{claim}: {:?}", j.detail);
        }
    }

    #[test]
    fn a_figure_under_the_claim_s_word_is_the_claim_s_even_when_its_value_is_elsewhere() {
        let lifespan = "## Dora Whitcombe\n\nDora Whitcombe (1870 \u{2013} 1941) was an Orland \
            civil engineer who designed the Tarn Bridge.";
        let dams = "## Dams\n\nIron Gate I, built jointly by Yugoslavia and Romania, was \
            completed in 1972; Iron Gate II followed downstream in 1984.";
        for (claim, page) in [
            ("Dora Whitcombe died in 1870.", lifespan),
            ("Iron Gate I was completed in 1984.", dams),
        ] {
            let j = judged(claim, &[page]);
            assert_eq!(j.label, JudgeLabel::Contradicted, "{claim}: {:?}", j.detail);
        }
        // One word over a list of values, or the claim's value under another of its words,
        // leaves the claim's value its own.
        let titles = "## Club\n\nTarn United won the title in 1978, 1981 and 1994.";
        let pledge = "## Pledge\n\nAldmoor refused to sign the living-wage pledge in 2022, but \
            Kestrel Bay signed it in 2021.";
        for (claim, page) in [
            ("Tarn United won the title in 1981.", titles),
            ("Kestrel Bay signed the living-wage pledge in 2021.", pledge),
        ] {
            let j = judged(claim, &[page]);
            assert_eq!(j.label, JudgeLabel::Supported, "{claim}: {:?}", j.detail);
        }
    }

    #[test]
    fn a_denial_in_one_sentence_and_the_particulars_in_the_next_contradict_the_claim() {
        let page = "## Ollerton Pumps\n\nThe family firm was never sold. Offers came in the \
            late 1990s; the largest, £40 million from the American pump maker Delmont in 1999, \
            was refused in a letter of four lines.";
        let j = judged(
            "Ollerton Pumps was sold to the American pump maker Delmont in 1999.",
            &[page],
        );
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        let quote = j.evidence_quote.unwrap_or_default();
        assert!(
            quote.starts_with("The family firm was never sold."),
            "{quote}"
        );
        // A denial next door about something else leaves the claim's sentence standing.
        let page = "## Ollerton Pumps\n\nThe family home was never sold. In 1999 the firm \
            was sold to the American pump maker Delmont for £40 million.";
        let j = judged("Ollerton Pumps was sold to Delmont in 1999.", &[page]);
        assert_ne!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    #[test]
    fn a_figure_the_next_sentence_gives_is_read_with_it() {
        // The first sentence has two of the claim's figures and another rate; the claim's
        // third figure is in the next one.
        let page = "## Savings\n\nWhen I opened it in January it paid 4.60%; in February \
            Corvid cut it to 4.35%, and that figure includes a bonus of 0.85 percentage points \
            for the first year. After the first year the rate falls to 3.50%.";
        let claim = "Corvid's 4.35% includes a bonus of 0.85 points for the first year, after \
            which the rate falls to 3.50%.";
        let j = judged(claim, &[page]);
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
        // A sentence that states the claim's act in full with another figure still
        // contradicts it, whatever its neighbour says.
        let page = "## Editions\n\nThe 2018 edition introduced non-lexical lifetimes. The \
            2021 edition changed how closures capture variables.";
        let j = judged(
            "Rust's 2021 edition introduced non-lexical lifetimes.",
            &[page],
        );
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        // The claim's year in the sentence before, another event's year in this one: the two
        // are read together (round thirty-four, oswin-07).
        let page = "## Honours\n\nIn 1871 Whitcombe and two other fellows proposed Oswin for \
            fellowship of the Royal Society of Botanists. The Society's council ruled that its \
            charter did not permit the election of women, and the nomination was never put to \
            a vote; the Society admitted its first women fellows in 1908, fifteen years after \
            her death.";
        let claim = "Her 1871 nomination to the Royal Society of Botanists never reached a vote, \
            because the Society's charter did not allow women to be elected.";
        let j = judged(claim, &[page]);
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
    }

    #[test]
    fn a_claim_s_denial_is_not_gainsaid_by_an_act_next_door() {
        // Round thirty-three (skiff-12): the removal is of YAML support, not of the file.
        let page = "## Migrating\n\nSkiff 2.0 and 2.1 could still read a 1.x skiff.yml file, \
            with a warning, but support for YAML configuration was removed in 2.2. The skiff \
            migrate-config command, added in 2.0, reads skiff.yml and writes an equivalent \
            skiff.toml, renaming the options listed above and leaving a comment wherever it \
            had to guess. It does not delete the old file.";
        let claim = "Running skiff migrate-config converts skiff.yml into skiff.toml, but it \
            doesn't delete the original YAML file.";
        let j = judged(claim, &[page]);
        assert_ne!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    #[test]
    fn a_denial_is_contradicted_only_by_a_sentence_that_states_what_it_denies() {
        let page = "## The vote\n\nTwo members, Tobias Rennick and Anjali Dorne, voted to keep \
            the rate at 4%, while Conrad Vyse voted for a half-point cut.";
        let claim = "Neither of the two members who voted to hold, Dorne and Rennick, called \
            for an increase in rates.";
        let j = judged(claim, &[page]);
        assert_ne!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        // The denied act on the page is a contradiction still.
        let page = "## The vote\n\nTwo members, Tobias Rennick and Anjali Dorne, called for an \
            increase in rates.";
        let j = judged(claim, &[page]);
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    #[test]
    fn another_model_or_another_year_s_figure_is_about_something_else() {
        let cases = [
            (
                "The Nvidia RTX 4080 launched in October 2022 at a price of $1,199.",
                "The Nvidia RTX 4090 launched in October 2022 at a price of $1,599.",
                JudgeLabel::NotFound,
            ),
            (
                "Tesla delivered 1.31 million vehicles in 2022.",
                "Tesla delivered 1.81 million vehicles in 2023.",
                JudgeLabel::NotFound,
            ),
            // The same year with another figure, and a model in the claim's slot, gainsay it.
            (
                "Tesla delivered 1.31 million vehicles in 2022.",
                "Tesla delivered 1.81 million vehicles in 2022.",
                JudgeLabel::Contradicted,
            ),
            (
                "The Rust 2024 edition was stabilised with Rust 1.82.",
                "The Rust 2024 edition was stabilised with Rust 1.85.",
                JudgeLabel::Contradicted,
            ),
        ];
        for (claim, sentence, want) in cases {
            let j = judged(claim, &[&format!("## Notes\n\n{sentence}")]);
            assert_eq!(j.label, want, "{claim}: {:?}", j.detail);
        }
    }

    #[test]
    fn a_halt_in_both_texts_is_no_flip() {
        let claim = "The library stopped receiving updates in 2021.";
        for page in [
            "## Status\n\nThe library stopped receiving updates in 2021.",
            "## Status\n\nThe library has no longer received updates since 2021.",
        ] {
            let j = judged(claim, &[page]);
            assert_eq!(j.label, JudgeLabel::Supported, "{page}: {:?}", j.detail);
        }
        // A page that says it stopped still denies a claim that it goes on.
        let j = judged(
            "The library still receives updates.",
            &["## Status\n\nThe library stopped receiving updates in 2021."],
        );
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    #[test]
    fn another_subject_with_another_figure_is_about_something_else() {
        let claim = "Esk has an area of 61 square kilometres.";
        let page = "## Islands\n\nHolm has an area of 19 square kilometres.";
        let j = judged(claim, &[page]);
        assert_eq!(j.label, JudgeLabel::NotFound, "{:?}", j.detail);
        // A name replaced outside the subject, with its figure, still gainsays the claim.
        let claim = "The Harbour Bridge was designed by John Smith in 1890.";
        let page = "## History\n\nThe Harbour Bridge was designed by Henry Jones in 1885.";
        let j = judged(claim, &[page]);
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    #[test]
    fn a_possessive_pronoun_before_what_the_owner_owns_stands_for_the_owner() {
        let claim = "Marrable's 1952 painting Low Tide at Wrenmouth sold at auction in 2024 for \
                     £1.26 million, a record for her work.";
        let page = "## Sales\n\nIn 2024 her Low Tide at Wrenmouth, painted in 1952, sold at \
                    Corder & Finch for £1.26 million, an auction record for the artist.";
        let j = judged(claim, &[page]);
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
        // Before something the claim's owner does not own, the pronoun may be anyone's.
        let page = "## Sales\n\nIn 2024 a Low Tide at Wrenmouth, painted in 1952, sold at \
                    Corder & Finch for £1.26 million, an auction record for her dealer.";
        let j = judged(claim, &[page]);
        assert_ne!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
    }

    #[test]
    fn a_correction_of_a_myth_states_the_correction() {
        let claim = "The Orm Wall can be seen from orbit with the naked eye.";
        let page = "## The wall\n\nContrary to a popular myth, the Orm Wall cannot be seen \
            with the naked eye from orbit.";
        let j = judged(claim, &[page]);
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        // The myth itself, stated as one, is still denied.
        let page = "## The wall\n\nIt is a popular myth that the Orm Wall can be seen from \
            orbit with the naked eye.";
        let j = judged(claim, &[page]);
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    #[test]
    fn a_report_called_untrue_or_a_likeness_mistaken_denies_the_claim() {
        let cases = [
            (
                "The hoverfly is a wasp.",
                "## Hoverflies\n\nThe hoverfly is often mistaken for a wasp.",
            ),
            (
                "Mount Sorn is the highest peak of the Veskar Mountains.",
                "## Peaks\n\nMount Sorn is often wrongly described as the highest peak of the \
                 Veskar Mountains.",
            ),
        ];
        for (claim, page) in cases {
            let j = judged(claim, &[page]);
            assert_eq!(j.label, JudgeLabel::Contradicted, "{claim}: {:?}", j.detail);
        }
        // "Taken for" and "confused with" are mistakes only when common; a patient taken for
        // treatment went there.
        let page = "## Peaks\n\nFrom the plain Mount Sorn is often taken for the highest peak \
            of the Veskar Mountains.";
        let j = judged(
            "Mount Sorn is the highest peak of the Veskar Mountains.",
            &[page],
        );
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        let page = "## Hoverflies\n\nThe hoverfly is easily confused with a wasp.";
        let j = judged("The hoverfly is a wasp.", &[page]);
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        let page = "## Brennan\n\nAfter the crash Brennan was taken for treatment to the \
            Royal Infirmary in Halvern, where he recovered.";
        let j = judged(
            "Brennan recovered at the Royal Infirmary in Halvern.",
            &[page],
        );
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
        // A wrongful conviction is still a conviction.
        let page = "## Brennan\n\nBrennan was wrongly convicted of the robbery in 1974 and \
            freed in 1981.";
        let j = judged("Brennan was convicted of the robbery in 1974.", &[page]);
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
    }

    #[test]
    fn a_refusal_of_the_act_s_noun_after_a_light_verb_denies_the_act() {
        let page = "## Greyside\n\nThe bill for a third dam at Greyside failed to win \
            parliamentary approval in 1972 after a long campaign by the valley's farmers.";
        let j = judged(
            "Parliament approved the bill for a third dam at Greyside in 1972.",
            &[page],
        );
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        // The same verb with an object that is no act of the claim denies nothing of it.
        let page = "## Greyside\n\nParliament approved the bill for a third dam at Greyside \
            in 1972, although it failed to win the support of the valley's farmers.";
        let j = judged(
            "Parliament approved the bill for a third dam at Greyside in 1972.",
            &[page],
        );
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
        // A noun of the act is the act: "her marriage to" states "married".
        let page = "## Isobel Marrick\n\nHer marriage to the surveyor Tom Hale in 1889 \
            ended with his death in 1901.";
        let j = judged("Isobel Marrick married Tom Hale in 1889.", &[page]);
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
    }

    #[test]
    fn common_paraphrases_of_news_and_history_state_the_claim() {
        let cases = [
            (
                "## History\n\nThe company was founded in 1923 by the brothers Karl and Otto \
                 Brenner in Selmar.",
                "The company was established in 1923.",
            ),
            (
                "## Kestrel\n\nThe Kestrel was a single-engine monoplane designed by Harlan \
                 Aircraft in 1936. Only 42 were built before production ended in 1939.",
                "Production of the Kestrel stopped in 1939.",
            ),
            (
                "## Strike\n\nThousands of rail workers walked out on Monday. The union is \
                 demanding a 9% raise; the company has offered 4%.",
                "The rail union is asking for a 9% pay increase.",
            ),
        ];
        for (page, claim) in cases {
            let j = judged(claim, &[page]);
            assert_eq!(j.label, JudgeLabel::Supported, "{claim}: {:?}", j.detail);
        }
        // "Found" as the past of "find" is no founding.
        let j = judged(
            "Divers established the wreck in 1923.",
            &["## Wreck\n\nDivers found the wreck in 1923, off the coast of Selmar."],
        );
        assert_ne!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
        let j = judged(
            "The measure failed in the Senate.",
            &[
                "## Vote\n\nThe measure passed the Senate 52-48 on Thursday, with two \
               Republicans joining Democrats in support.",
            ],
        );
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    #[test]
    fn a_lifespan_in_brackets_states_the_birth_and_the_death() {
        let page = "## Dora Whitcombe\n\nDora Whitcombe (3 May 1870 \u{2013} 9 June 1941) was \
            an Orland civil engineer who designed the Tarn Bridge.";
        for claim in [
            "Dora Whitcombe was born in 1870.",
            "Dora Whitcombe died in 1941.",
        ] {
            let j = judged(claim, &[page]);
            assert_eq!(j.label, JudgeLabel::Supported, "{claim}: {:?}", j.detail);
        }
        let j = judged("Dora Whitcombe was born in 1871.", &[page]);
        assert_ne!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
        // A pronunciation and the name in another language may come first.
        let page = "## Dora Whitcombe\n\nDora Whitcombe (/\u{2C8}d\u{254}\u{2D0}r\u{259}/; \
            Orlish: [do\u{2D0}ra vitkom]; 3 May 1870 \u{2013} 9 June 1941) was an Orland civil \
            engineer who designed the Tarn Bridge.";
        for claim in [
            "Dora Whitcombe was born in 1870.",
            "Dora Whitcombe died in 1941.",
        ] {
            let j = judged(claim, &[page]);
            assert_eq!(j.label, JudgeLabel::Supported, "{claim}: {:?}", j.detail);
        }
    }

    #[test]
    fn a_sentence_with_the_claim_s_figure_outweighs_one_that_differs_only_in_a_figure() {
        let page = "## Isobel Marrick\n\nIsobel Marrick was an engineer, and a partner in \
            Carrow & Marrick.\n\n## Practice\n\nThe partnership moved in 1897 to offices on Mill \
            Street in Brackenford, and it has been based in the city ever since. Renamed \
            Marrick Carrow Partners in 1952, the firm now employs about 300 people.";
        let j = judged(
            "Carrow & Marrick has had its base in Brackenford since 1897.",
            &[page],
        );
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
    }

    #[test]
    fn a_sentence_with_the_claim_s_telling_figures_supports_below_the_word_threshold() {
        let page = "## Results\n\nBrannock Foods, the frozen-meals maker, reported revenue of \
            £412 million for the six months to 30 June, up 9% from a year earlier.";
        let claim =
            "Brannock Foods' revenue rose 9% to £412 million in the first half of the year.";
        let j = judged(claim, &[page]);
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
        let score: f64 = j
            .detail
            .as_deref()
            .and_then(|d| d.strip_prefix("score="))
            .and_then(|d| d.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap_or(1.0);
        assert!(score < DEFAULT_SUPPORT_THRESHOLD, "{:?}", j.detail);
    }

    #[test]
    fn a_fact_contradicts_only_with_a_sentence_that_covers_most_of_it() {
        let passages = vec![
            "## The firm\n\nCarrow & Marrick was founded in 1889 by two \
            engineers. Its early work was bridges.\n\n## Today\n\nThe firm now has about 300 \
            staff."
                .to_string(),
        ];
        let page = Page::read(&passages);
        let judge = LocalJudge::default();
        let facts = [
            "Carrow & Marrick was founded in 1889".to_string(),
            "Carrow & Marrick employed 40 engineers".to_string(),
        ];
        // The second fact's conflict covers little of it.
        let second = judge.assess_on(&facts[1], &page);
        assert_eq!(second.judgement.label, JudgeLabel::Contradicted);
        assert!(second.coverage < judge.thresholds.contradict);
        assert!(judge.assess_facts(&facts, &page).is_none());
    }

    #[test]
    fn a_sentence_without_the_claim_s_rank_supports_nothing_and_contradicts_nothing() {
        const MILL: &str = "## The mill\n\nMillbrook Tide Mill was built in 1784 for the \
                            Hollin estate. It is one of four tide mills that survive in Orland, \
                            and the only one that still grinds.";
        let ranked = judged(
            "Millbrook Tide Mill is the oldest surviving tide mill in Orland.",
            &[MILL],
        );
        assert_eq!(ranked.label, JudgeLabel::NotFound, "{ranked:?}");
        // Without the rank the same sentence supports the claim.
        let plain = judged(
            "Millbrook Tide Mill is a surviving tide mill in Orland.",
            &[MILL],
        );
        assert_eq!(plain.label, JudgeLabel::Supported, "{plain:?}");
    }

    #[test]
    fn an_act_the_page_has_only_in_prospect_is_not_stated_by_it() {
        const FESTIVAL: &str = "## The festival\n\nLast spring the Ashby Ledger reported that \
                                the Ashby Book Festival was in talks to move to the new riverside \
                                arts centre. The festival began in 1987 in a church hall.";
        let claim = "The Ashby Book Festival will move to the new riverside arts centre.";
        let prospect = judged(claim, &[FESTIVAL]);
        assert_eq!(prospect.label, JudgeLabel::NotFound, "{prospect:?}");
        for (framed, plain) in [
            ("is considering closing", "will close"),
            ("could close", "will close"),
            ("hopes to open", "opened"),
            ("will vote in June on whether to close", "has closed"),
        ] {
            let page = format!(
                "## Libraries\n\nThe council {framed} the library on Mill Lane in the spring, \
                 a spokesman said."
            );
            let j = judged(
                &format!("The council {plain} the library on Mill Lane."),
                &[&page],
            );
            assert_eq!(j.label, JudgeLabel::NotFound, "{framed}: {j:?}");
            assert!(
                j.detail.unwrap_or_default().contains("in_prospect"),
                "{framed}"
            );
        }
        // The same sentence states the act outright, or states the claim's own prospect.
        let stated = FESTIVAL.replace("was in talks to move", "would move");
        assert_eq!(judged(claim, &[&stated]).label, JudgeLabel::Supported);
        let hedged = judged(
            "The Ashby Book Festival was in talks to move to the new riverside arts centre.",
            &[FESTIVAL],
        );
        assert_eq!(hedged.label, JudgeLabel::Supported, "{hedged:?}");
    }

    #[test]
    fn a_sentence_with_only_the_claim_s_names_does_not_outweigh_a_negation() {
        // Issue 18, seventh round: the first sentence carries the claim's names and nothing of
        // what the claim says happened; the second denies it.
        let j = judged(
            "The Korvel Lumen 3 Pro has a telephoto lens.",
            &[concat!(
                "The Korvel Lumen 3 Pro is the smallest flagship yet, with a 6.1-inch 120Hz ",
                "OLED screen, and it runs on the company's own K4 Pro chip. Korvel did not put ",
                "a telephoto lens on the Pro, which is the one thing rivals such as the Pell Z9 ",
                "Ultra do better.\n\n**Against:** no telephoto camera, slow port on the cheaper ",
                "model\n\nRivals fit a telephoto lens and a periscope lens to their phones."
            )],
        );
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    #[test]
    fn every_sentence_weighed_is_traced_with_its_alignment() {
        #[derive(Clone, Default)]
        struct Captured(Arc<std::sync::Mutex<Vec<u8>>>);
        impl std::io::Write for Captured {
            fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
                self.0
                    .lock()
                    .expect("not poisoned")
                    .extend_from_slice(bytes);
                Ok(bytes.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let captured = Captured::default();
        let writer = captured.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_max_level(tracing::Level::TRACE)
            .with_writer(move || writer.clone())
            .finish();
        let logged = || {
            String::from_utf8(captured.0.lock().expect("not poisoned").clone()).expect("UTF-8 log")
        };
        tracing::subscriber::with_default(subscriber, || {
            // Another test thread may cache the judge's callsites as uninteresting (it has no
            // subscriber) while this one is being set up, even after the cache is rebuilt: a
            // race of the tracing crate's global interest cache, seen once in about thirty
            // runs. So the cache is rebuilt and the judge asked again, a few times at most.
            for _ in 0..5 {
                tracing::callsite::rebuild_interest_cache();
                judged(
                    "Water boils at 100 degrees Celsius at sea level.",
                    &[WATER, "Ice melts at 0 degrees. Unrelated words here."],
                );
                if logged().contains("judge candidate") {
                    break;
                }
            }
        });
        let text = logged();
        assert!(text.contains("judge candidate"), "{text}");
        assert!(
            text.contains("Water boils at 100 degrees Celsius"),
            "{text}"
        );
        assert!(text.contains("predicate="), "{text}");
        // A sentence that shares nothing with the claim is not traced.
        assert!(!text.contains("Unrelated words here"), "{text}");
    }

    #[test]
    fn claims_get_the_label_and_the_sentence_that_decides_them() {
        let table: &[(&str, &str, JudgeLabel, &str)] = &[
            (
                "Water boils at 100 degrees Celsius at sea level.",
                WATER,
                JudgeLabel::Supported,
                "Water boils at 100 degrees Celsius at sea level.",
            ),
            (
                "At sea level, water boils at 100 °C.",
                WATER,
                JudgeLabel::Supported,
                "Water boils at 100 degrees Celsius at sea level.",
            ),
            (
                "Water boils at 50 degrees Celsius at sea level.",
                WATER,
                JudgeLabel::Contradicted,
                "Water boils at 100 degrees Celsius at sea level.",
            ),
            (
                "Drones collect food for the colony.",
                "Workers live for six weeks. Drones have no sting and do not collect food; \
                 their role is to mate.",
                JudgeLabel::Contradicted,
                "Drones have no sting and do not collect food; their role is to mate.",
            ),
            (
                "The Eiffel Tower lost its title to the Empire State Building in 1930.",
                "When it opened, the tower stood 300 metres tall. It lost that title in 1930 \
                 to the Chrysler Building in New York.",
                JudgeLabel::Contradicted,
                "It lost that title in 1930 to the Chrysler Building in New York.",
            ),
            (
                "The Eiffel Tower has a Michelin-starred restaurant.",
                WATER,
                JudgeLabel::NotFound,
                "Water boils at 100 degrees Celsius at sea level.",
            ),
        ];
        for (claim, passage, label, quote) in table {
            let j = judged(claim, &[passage]);
            assert_eq!(j.label, *label, "{claim}: {:?}", j.detail);
            assert_eq!(j.evidence_quote.as_deref(), Some(*quote), "{claim}");
        }
    }

    #[test]
    fn every_quote_passes_the_guard() {
        let passages = [
            "# Title\n\n*   500 g **strong** flour\n*   10 g salt\n\n| Code | Name |\n| --- | --- |\n| 429 | Too Many Requests |",
            WATER,
        ];
        let owned: Vec<String> = passages.iter().map(|p| p.to_string()).collect();
        for claim in [
            "The recipe uses 500 g of strong flour.",
            "Too Many Requests is status 503.",
            "Water boils at 100 degrees Celsius at sea level.",
            "Nothing here matches at all.",
        ] {
            let j = judged(claim, &passages);
            let quote = j.evidence_quote.clone().expect("a quote");
            assert!(guard::quote_in_passages(&quote, &owned), "{claim}: {quote}");
            let guarded = guard::check(&j, &owned);
            assert_ne!(
                guarded.reason,
                Some(crate::model::Reason::EvidenceQuoteNotInSource)
            );
            if j.label == JudgeLabel::Supported {
                assert_eq!(guarded.label, Label::Supported);
            }
        }
    }

    #[test]
    fn confidence_stays_in_range_and_detail_explains() {
        for claim in [
            "Water boils at 100 degrees Celsius at sea level.",
            "Unrelated words.",
        ] {
            let j = judged(claim, &[WATER]);
            assert!((0.0..=1.0).contains(&j.confidence), "{}", j.confidence);
            assert!(j.detail.as_deref().is_some_and(|d| d.contains("coverage=")));
        }
    }

    #[test]
    fn no_passages_means_not_found_without_a_quote() {
        let j = judged("Water boils at 100 degrees Celsius.", &[]);
        assert_eq!(j.label, JudgeLabel::NotFound);
        assert_eq!(j.evidence_quote, None);
    }

    #[test]
    fn thresholds_are_clamped_and_reported() {
        let judge = LocalJudge::new(Thresholds {
            support: 1.5,
            contradict: f64::NAN,
        });
        assert_eq!(judge.thresholds().support, 1.0);
        assert_eq!(judge.thresholds().contradict, 0.0);
        assert_eq!(
            LocalJudge::default().info().prompt_version,
            HEURISTIC_VERSION
        );
        assert!(judge.info().prompt_version.contains("support=1"));
        assert_eq!(judge.info().provider, "local");
    }

    #[test]
    fn odd_text_never_panics_and_quotes_stay_verbatim() {
        const PIECES: &[&str] = &[
            "Water",
            "boils",
            "at",
            "100",
            "°C",
            "1,2,3",
            "1.2.3",
            "2:00:35",
            "€",
            "£5",
            "%",
            "one",
            "a",
            "fifth",
            "of",
            "in",
            "twenty",
            "-",
            "\u{2013}",
            "n't",
            "isn't",
            "not",
            "rather",
            "than",
            "Myth:",
            "|",
            "| --- |",
            "#",
            "##",
            "*",
            "1.",
            "Dr.",
            "e.g.",
            "J.",
            "\u{201C}",
            "\u{201D}",
            "\u{2019}s",
            "caf\u{e9}",
            "\u{1F600}",
            "\n",
            "\n\n",
            "  ",
            ".",
            "!",
            "?",
            "...",
            "(",
            ")",
            "[x](http://a.b/c)",
            "]",
            "[",
            "0.000000000000001",
            "99999999999999999999999",
            "million",
            "billion",
            "between",
            "and",
            "to",
            "up",
        ];
        // A small deterministic generator: the test must not depend on a random seed.
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut text = |len: u64| -> String {
            (0..len)
                .map(|_| PIECES[(next() % PIECES.len() as u64) as usize])
                .collect::<Vec<_>>()
                .join(" ")
        };
        for round in 0..300 {
            let claim = text(1 + round % 12);
            let passages: Vec<String> = (0..1 + round % 3).map(|_| text(5 + round % 40)).collect();
            let j = LocalJudge::default().assess(&claim, &passages);
            assert!((0.0..=1.0).contains(&j.confidence), "{claim:?}");
            if let Some(quote) = &j.evidence_quote {
                assert!(
                    passages.iter().any(|p| p.contains(quote.as_str())),
                    "{quote:?}"
                );
            }
        }
    }

    /// Texts that share a marker word mean the same; a text with "50" means nothing like the
    /// rest. Counts the texts it is asked for, to check the judge asks for few.
    #[derive(Debug, Default)]
    struct MarkerEncoder {
        asked: std::sync::atomic::AtomicUsize,
    }

    impl SentenceEncoder for MarkerEncoder {
        fn encode(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, crate::judge::EncodeError> {
            self.asked
                .fetch_add(texts.len(), std::sync::atomic::Ordering::Relaxed);
            Ok(texts
                .iter()
                .map(|t| {
                    if t.contains("vapour") || t.contains("evaporates") {
                        vec![1.0, 0.0, 0.0]
                    } else if t.contains("50") {
                        vec![0.0, 1.0, 0.0]
                    } else {
                        vec![0.0, 0.0, 1.0]
                    }
                })
                .collect())
        }
        fn name(&self) -> &str {
            "marker"
        }
    }

    #[test]
    fn a_near_miss_that_means_the_claim_supports_it_only_with_an_encoder() {
        // Few shared words: the words alone leave it open.
        let claim =
            "Water evaporates at 100 degrees Celsius at sea level on sunny coasts and beaches.";
        let passage = "Pure water turns to vapour at 100 degrees Celsius at sea level.";
        let words = judged(claim, &[passage]);
        assert_eq!(words.label, JudgeLabel::NotFound, "{:?}", words.detail);
        let encoder = Arc::new(MarkerEncoder::default());
        let judge = LocalJudge::default().with_encoder(encoder.clone());
        let j = judge.assess(claim, &[passage.to_string()]);
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
        assert_eq!(j.evidence_quote.as_deref(), Some(passage));
        // Its confidence comes from the curve of supports that meaning decided.
        let detail = j.detail.clone().unwrap_or_default();
        let score: f64 = detail
            .strip_prefix("score=")
            .and_then(|d| d.split(' ').next())
            .and_then(|s| s.parse().ok())
            .unwrap_or(f64::NAN);
        let by_meaning =
            calibrate::confidence(JudgeLabel::Supported, score, calibrate::Basis::Meaning);
        assert!(
            (j.confidence - by_meaning).abs() < 1e-3,
            "{} vs {by_meaning}",
            j.confidence
        );
        assert!(detail.contains("meaning=close"));
        assert!(encoder.asked.load(std::sync::atomic::Ordering::Relaxed) <= 1 + MEANING_CANDIDATES);
        assert!(judge.info().prompt_version.ends_with("+meaning=marker"));
    }

    #[test]
    fn a_conflict_is_read_by_its_words_and_asks_the_encoder_nothing() {
        // A flipped figure with nothing near enough to be read for meaning: the words decide,
        // and no forward pass is spent on it (the encoder only promotes near misses).
        let claim = "Water boils at 50 degrees Celsius at sea level.";
        let encoder = Arc::new(MarkerEncoder::default());
        let judge = LocalJudge::default().with_encoder(encoder.clone());
        let j = judge.assess(claim, &[WATER.to_string()]);
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        assert_eq!(encoder.asked.load(std::sync::atomic::Ordering::Relaxed), 0);
    }

    #[test]
    fn a_than_inside_a_hyphenated_adjective_compares_nothing() {
        // "stronger-than-expected" describes the figure; it opens no other arm to set it aside.
        let j = judged(
            "Employers added 275,000 jobs in February.",
            &[
                "In February employers added a stronger-than-expected 275,000 jobs, the \
               Labor Department said.",
            ],
        );
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
        // Written apart, "than" still opens the other arm.
        let j = judged(
            "Employers added 275,000 jobs in February.",
            &["In February employers added more jobs than the 275,000 economists expected."],
        );
        assert_ne!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
    }

    #[test]
    fn a_denial_stands_against_the_same_act_affirmed_of_something_else() {
        let claim = "The novel won the Pulitzer Prize.";
        let j = judged(
            claim,
            &[
                "The novel was a finalist for the Pulitzer Prize but did not win, although it \
               went on to win the National Book Award.",
            ],
        );
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        // The act affirmed of the claim's own object is the claim's.
        let j = judged(
            claim,
            &[
                "The novel did not win the National Book Award, although it went on to win the \
               Pulitzer Prize.",
            ],
        );
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
        // A claim that denies the act itself, beside affirming it, says what the page says.
        let j = judged(
            "People who napped for more than an hour had a 38% higher risk of heart failure \
             than those who never napped.",
            &[
                "After accounting for age and smoking, people who napped for more than an hour \
               had a 38% higher risk of heart failure than those who never napped.",
            ],
        );
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
    }

    #[test]
    fn a_name_after_the_verb_of_a_clause_without_a_subject_leads_nothing() {
        // "but did not win, losing out to ..." goes on about the novel: the names after its
        // verb do not make the denial about something else.
        let j = judged(
            "The novel won the Pulitzer Prize.",
            &[
                "The novel was a finalist for the Pulitzer Prize but did not win, losing out to \
               Colson Whitehead's The Underground Railroad.",
            ],
        );
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    #[test]
    fn a_flipped_figure_read_for_meaning_needs_a_third_of_the_claim_s_own_words() {
        let judge = LocalJudge::default();
        let soft = |rest, predicate| soft::SoftConflict { rest, predicate };
        // A paraphrased verb earns partial credit ("broke apart" for "broke up": 0.39).
        assert!(judge.flipped_by_meaning(&soft(0.56, 0.39), 0.54));
        assert!(judge.flipped_by_meaning(&soft(0.69, 0.34), 0.58));
        // Less of what happened is another act's figure.
        assert!(!judge.flipped_by_meaning(&soft(0.65, 0.20), 0.74));
        // The rest and the whole sentence must still be close.
        assert!(!judge.flipped_by_meaning(&soft(0.49, 0.60), 0.70));
        assert!(!judge.flipped_by_meaning(&soft(0.70, 0.60), 0.45));
    }

    #[test]
    fn a_denial_covers_a_second_verb_joined_to_its_infinitive() {
        let j = judged(
            "Tolland blamed the referee for the defeat.",
            &[
                "Tolland said he was not going to stand here and blame the referee for the \
               defeat.",
            ],
        );
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        // An "and" before a new subject starts another clause, which the denial leaves alone.
        let j = judged(
            "The board approved the merger.",
            &["Shareholders voted not to sell, and the board approved the merger."],
        );
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
    }

    #[test]
    fn a_speaker_quoted_after_being_named_is_the_named_subject() {
        // "I" in the quote is Tolland: the denial is about him, not about someone else.
        let j = judged(
            "Foresters director of rugby Graham Tolland blamed the referee for his side's defeat.",
            &[
                "Graham Tolland, the Foresters' director of rugby, was gracious in defeat. \
               \u{201c}I'm not going to stand here and blame the referee,\u{201d} he said.",
            ],
        );
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    #[test]
    fn a_state_after_a_linking_verb_stands_in_the_place_of_the_act() {
        let j = judged(
            "The library will close at the end of the year.",
            &["The library will stay open at the end of the year."],
        );
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        // The opposite of another subject's state is no flip of the claim's.
        let page = ["The museum will stay open, but its café will close, the council decided."];
        let j = judged("The museum's café will stay open.", &page);
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        let j = judged("The museum will stay open.", &page);
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
    }

    #[test]
    fn a_million_glued_to_a_count_is_no_length() {
        let j = judged(
            "The city has a population of 1.5 million.",
            &["The city, founded in 1721, has a population of 1.5m."],
        );
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
    }

    #[test]
    fn a_denial_that_shares_only_a_month_with_the_claim_is_about_something_else() {
        let claim = "Hartfield United manager Dave Crane has ruled out selling club captain Leon \
                     Moyo in the January window.";
        let page = r#""Leon isn't going anywhere in January, and I've told the board that," Crane told reporters on Friday when asked about the future of his captain, Leon Moyo. The Hartfield United manager added that the 29-year-old midfielder, who joined from Sheffield Wednesday in 2019, had "at least two more years" left at the club."#;
        let j = judged(claim, &[page]);
        assert_ne!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    #[test]
    fn a_claim_s_rather_than_and_a_page_s_avoiding_deny_one_thing() {
        let claim =
            "The prize was awarded for the photoelectric effect rather than for relativity.";
        let j = judged(
            claim,
            &[
                "The prize was awarded for the photoelectric effect; the committee deliberately \
               avoided citing relativity.",
            ],
        );
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
        // Avoiding an act denies it.
        let j = judged(
            "The committee cited relativity.",
            &["The committee deliberately avoided citing relativity."],
        );
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        let j = judged(
            "The minister named the buyer.",
            &["The minister refrained from naming the buyer."],
        );
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    #[test]
    fn a_spanish_name_s_two_surnames_are_one_name() {
        let j = judged(
            "Frida Kahlo was born in Coyoacán in 1907.",
            &[
                "Magdalena Carmen Frida Kahlo y Calderón (6 July 1907 – 13 July 1954) was a \
               Mexican painter. Born in Coyoacán, she died in the same house at the age of 47.",
            ],
        );
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
    }

    #[test]
    fn a_year_and_a_figure_of_one_clause_flipped_together_are_another_occasion() {
        let j = judged(
            "According to the 2011 census, Ardmore Glen had about 2,500 residents.",
            &["According to the 2001 census, Ardmore Glen had a population of 2,215."],
        );
        assert_eq!(j.label, JudgeLabel::NotFound, "{:?}", j.detail);
        // The year alone flipped still contradicts.
        let j = judged(
            "According to the 2011 census, Ardmore Glen had 2,215 residents.",
            &["According to the 2001 census, Ardmore Glen had a population of 2,215."],
        );
        assert_ne!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
    }

    #[test]
    fn a_sentence_without_the_claim_s_rank_does_not_outweigh_one_that_lowers_it() {
        let page = "Canberra is the capital city of Australia. Founded following the federation \
                    of the colonies of Australia as the seat of government for the new nation, \
                    it is the country's largest inland city and eighth-largest city overall.[4]";
        let j = judged("Canberra is the largest city in Australia.", &[page]);
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    #[test]
    fn a_span_of_years_is_worked_out_from_two_years_of_the_page() {
        let page = "In 1897, Felix Hoffmann, a Bayer chemist, produced acetylsalicylic acid in a \
                    chemically pure and stable form.[18] Bayer registered the name Aspirin as a \
                    trademark in 1899.";
        let claim = "Bayer registered Aspirin as a trademark two years after its chemist Felix \
                     Hoffmann produced a pure, stable form of acetylsalicylic acid.";
        let j = judged(claim, &[page]);
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
        let claim = "Bayer registered Aspirin as a trademark five years after its chemist Felix \
                     Hoffmann produced a pure, stable form of acetylsalicylic acid.";
        let j = judged(claim, &[page]);
        assert_ne!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
    }

    #[test]
    fn a_superlative_after_another_thing_is_the_second_rank() {
        let j = judged(
            "Helium is the most plentiful element in the universe after hydrogen.",
            &[
                "Helium is the second lightest and second most abundant element in the \
               observable universe, after hydrogen.",
            ],
        );
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
        let j = judged(
            "Lake Tessa is the largest lake in Orland.",
            &["Lake Tessa is the second-largest lake in Orland."],
        );
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    #[test]
    fn a_name_sharing_a_word_with_another_claim_name_is_still_a_rival() {
        let j = judged(
            "Toyota Motor Corporation is headquartered in Tokyo.",
            &[
                "Toyota Motor Corporation is a Japanese multinational automotive manufacturer \
               headquartered in Toyota City, Aichi, Japan.",
            ],
        );
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        // A shorter form of the claim's own name is that name.
        let j = judged(
            "The Snapdragon 8 Gen 3 is made by Qualcomm.",
            &["Qualcomm makes the Snapdragon chips."],
        );
        assert_ne!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    #[test]
    fn a_claim_name_only_in_the_other_arm_of_a_comparison_is_not_the_subject() {
        let page = "At 64°08′ N, Reykjavík is the world's northernmost capital of a sovereign \
                    state, lying further north than Helsinki (60°10′ N) and Oslo (59°55′ N).[7]";
        let j = judged(
            "Oslo is the northernmost capital of any sovereign state.",
            &[page],
        );
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        // A parallel clause states its own subject.
        let j = judged(
            "Scarrow Dam is 27 metres high and 610 metres long.",
            &[
                "Hollin Dam is a masonry gravity dam 38 metres high and 320 metres long, whereas \
               Scarrow Dam is 27 metres high and 610 metres long.",
            ],
        );
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
    }

    /// Reads every text as meaning the same as every other.
    #[derive(Debug)]
    struct SameEncoder;

    impl SentenceEncoder for SameEncoder {
        fn encode(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, crate::judge::EncodeError> {
            Ok(texts.iter().map(|_| vec![1.0, 0.0]).collect())
        }
        fn name(&self) -> &str {
            "same"
        }
    }

    #[test]
    fn closeness_in_meaning_does_not_outweigh_a_contradiction_in_words() {
        // The next sentence, about the function by its context, is as close to the claim as
        // any text can be; but closeness reads a denial as a statement, so the denial stands.
        let claim = "The write_buffer function is thread-safe.";
        let page = [
            "Warning: write_buffer is not thread-safe. Calling it concurrently from \
                     multiple threads may corrupt the internal buffer."
                .to_string(),
        ];
        let words = judged(claim, &[&page[0]]);
        assert_eq!(words.label, JudgeLabel::Contradicted, "{:?}", words.detail);
        let j = LocalJudge::default()
            .with_encoder(Arc::new(SameEncoder))
            .assess(claim, &page);
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        assert_eq!(
            j.evidence_quote.as_deref(),
            Some("Warning: write_buffer is not thread-safe.")
        );
    }

    /// Reads every text as `closeness` in meaning to the claim and gives each word a one-hot
    /// token vector of its own (hashed into enough slots that test sentences do not collide),
    /// except that the two words of each pair of `synonyms` share a vector.
    #[derive(Debug)]
    struct WordEncoder {
        synonyms: &'static [(&'static str, &'static str)],
        closeness: f32,
    }

    impl WordEncoder {
        /// Close in meaning, but below [`CLOSE_MEANING`] and [`MEANING_SUPPORT`].
        fn new(synonyms: &'static [(&'static str, &'static str)]) -> Self {
            WordEncoder {
                synonyms,
                closeness: CLOSE_MEANING - 0.01,
            }
        }
    }

    impl SentenceEncoder for WordEncoder {
        fn encode(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, crate::judge::EncodeError> {
            Ok(texts
                .iter()
                .enumerate()
                .map(|(k, _)| {
                    if k == 0 {
                        vec![1.0, 0.0]
                    } else {
                        let c = self.closeness;
                        vec![c, (1.0 - c * c).sqrt()]
                    }
                })
                .collect())
        }

        fn encode_tokens(
            &self,
            texts: &[&str],
        ) -> Result<Vec<crate::judge::meaning::Tokens>, crate::judge::EncodeError> {
            const WIDTH: usize = 4096;
            let slot = |word: &str| {
                let word = self
                    .synonyms
                    .iter()
                    .find(|(_, other)| *other == word)
                    .map_or(word, |(first, _)| first);
                word.bytes().fold(7usize, |h, b| {
                    h.wrapping_mul(31).wrapping_add(usize::from(b))
                }) % WIDTH
            };
            Ok(texts
                .iter()
                .map(|text| {
                    let mut tokens = crate::judge::meaning::Tokens {
                        width: WIDTH,
                        ..Default::default()
                    };
                    for l in lex::lex(text) {
                        tokens.spans.push(l.start..l.start + l.text.len());
                        let mut v = vec![0.0; WIDTH];
                        v[slot(&l.text.to_lowercase())] = 1.0;
                        tokens.vectors.extend(v);
                    }
                    tokens
                })
                .collect())
        }

        fn name(&self) -> &str {
            "words"
        }
    }

    #[test]
    fn a_near_miss_whose_words_match_in_meaning_supports_the_claim() {
        let claim = "The river's drainage catchment spans 801,000 square kilometres.";
        let passage = "The river's drainage basin covers 801,000 square kilometres.".to_string();
        let words = judged(claim, &[&passage]);
        assert_eq!(words.label, JudgeLabel::NotFound, "{:?}", words.detail);
        let judge = |synonyms| {
            LocalJudge::default()
                .with_encoder(Arc::new(WordEncoder::new(synonyms)))
                .assess(claim, std::slice::from_ref(&passage))
        };
        let j = judge(&[("spans", "covers")]);
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
        assert!(
            j.detail
                .as_deref()
                .is_some_and(|d| d.contains(" soft=0.77 meaning=close")),
            "{:?}",
            j.detail
        );
        // Without the synonym the words fall short, and closeness alone is not enough.
        let j = judge(&[]);
        assert_eq!(j.label, JudgeLabel::NotFound, "{:?}", j.detail);
    }

    #[test]
    fn a_sentence_close_in_meaning_with_half_the_words_matched_supports_the_claim() {
        let claim = "Rangers shut the coastal footpath below the lighthouse after a storm wrecked \
                     its wooden steps.";
        let passage = "Rangers closed the coastal footpath below the lighthouse once the gale had \
                       broken its wooden stairs."
            .to_string();
        let words = judged(claim, &[&passage]);
        assert_eq!(words.label, JudgeLabel::NotFound, "{:?}", words.detail);
        let judge = |synonyms, closeness| {
            LocalJudge::default()
                .with_encoder(Arc::new(WordEncoder {
                    synonyms,
                    closeness,
                }))
                .assess(claim, std::slice::from_ref(&passage))
        };
        // Half the claim's words matched by meaning (short of the support threshold), and the
        // sentence close as a whole.
        let wrecked: &'static [(&str, &str)] = &[("wrecked", "broken")];
        let j = judge(wrecked, CLOSE_MEANING + 0.02);
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
        assert!(
            j.detail
                .as_deref()
                .is_some_and(|d| d.ends_with("meaning=close")),
            "{:?}",
            j.detail
        );
        // Neither reading alone is enough: below CLOSE_MEANING (yet above SOFT_MEANING_FLOOR,
        // so a soft coverage at the support threshold would have supported it), nor under
        // half the words matched however close the sentence.
        let j = judge(wrecked, CLOSE_MEANING - 0.02);
        assert_eq!(j.label, JudgeLabel::NotFound, "{:?}", j.detail);
        let j = judge(&[], CLOSE_MEANING + 0.02);
        assert_eq!(j.label, JudgeLabel::NotFound, "{:?}", j.detail);
    }

    #[test]
    fn a_paraphrase_that_shares_under_half_the_words_is_read_for_meaning() {
        let claim = "The river's vast catchment spans 801,000 square kilometres of farmland.";
        let passage =
            "The river's huge basin covers 801,000 square kilometres of fields.".to_string();
        let words = judged(claim, &[&passage]);
        assert_eq!(words.label, JudgeLabel::NotFound, "{:?}", words.detail);
        // Its words cover less than half of the claim's.
        assert!(
            words
                .detail
                .as_deref()
                .is_some_and(|d| d.contains(" coverage=0.4")),
            "{:?}",
            words.detail
        );
        let j = LocalJudge::default()
            .with_encoder(Arc::new(WordEncoder::new(&[
                ("vast", "huge"),
                ("catchment", "basin"),
                ("spans", "covers"),
                ("farmland", "fields"),
            ])))
            .assess(claim, std::slice::from_ref(&passage));
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
    }

    #[test]
    fn a_flipped_figure_whose_rest_matches_in_meaning_contradicts_the_claim() {
        let claim = "The Marlow floods drove 4,000 residents from their homes.";
        let passage = "The Marlow floods forced 2,500 residents out of their houses.".to_string();
        // By its words the sentence covers too little of the rest to gainsay the figure.
        let words = judged(claim, &[&passage]);
        assert_eq!(words.label, JudgeLabel::NotFound, "{:?}", words.detail);
        let judge = |synonyms| {
            LocalJudge::default()
                .with_encoder(Arc::new(WordEncoder::new(synonyms)))
                .assess(claim, std::slice::from_ref(&passage))
        };
        let j = judge(&[("drove", "forced"), ("homes", "houses")]);
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        assert_eq!(j.evidence_quote.as_deref(), Some(passage.as_str()));
        assert!(
            j.detail
                .as_deref()
                .is_some_and(|d| d.contains(" soft_rest=")),
            "{:?}",
            j.detail
        );
        // Words that mean nothing like the claim's leave it not found.
        let j = judge(&[]);
        assert_eq!(j.label, JudgeLabel::NotFound, "{:?}", j.detail);
        // Nor is a figure the sentence dates by another year a flipped one, however the words
        // match in meaning.
        let claim = "Solvane Airlines flew 18.4 million passengers in 2023.";
        let passage = "Solvane Airlines carried 16.9 million passengers in 2022, while its cargo \
                       volumes in 2023 rose 12%."
            .to_string();
        let j = LocalJudge::default()
            .with_encoder(Arc::new(WordEncoder::new(&[("flew", "carried")])))
            .assess(claim, std::slice::from_ref(&passage));
        assert_ne!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    #[test]
    fn a_quantity_said_to_go_the_other_way_contradicts_the_claim() {
        let j = judged(
            "The study found that coffee drinkers had a higher risk of liver disease.",
            &["Coffee drinkers in the study had a 21 percent lower risk of liver disease."],
        );
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    #[test]
    fn a_change_s_two_ends_are_two_slots() {
        let page = [
            "Castellan's profit fell 18% to $3.1bn from $3.8bn, as oil prices dropped to \
                     $79 a barrel from $96.",
        ];
        // The claim's end of the change holds the sentence's other value.
        let j = judged("Castellan's profit declined to $3.8bn.", &page);
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        let j = judged("Castellan's profit declined from $3.1bn.", &page);
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        // The same end states it, in either order of the two ends.
        let j = judged("Castellan's profit declined to $3.1bn.", &page);
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
        let j = judged(
            "Castellan's profit declined from $3.8bn.",
            &["Castellan's profit fell from $3.8bn to $3.1bn."],
        );
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
    }

    #[test]
    fn a_name_wrapped_in_the_people_of_stands_in_the_claim_name_s_place() {
        let page = ["The statue was a gift to the United States from the people of France."];
        let j = judged(
            "The statue was a gift to the United States from Britain.",
            &page,
        );
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        let j = judged(
            "The statue was a gift to the United States from France.",
            &page,
        );
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
    }

    #[test]
    fn another_occasion_s_figure_or_another_item_s_date_contradicts_nothing() {
        // The sentence dates its figure by another year (these two hold by the predicate floor
        // and the contradiction threshold; a rule for the figure's own year changed no verdict).
        let j = judged(
            "Solvane Airlines flew 18.4 million passengers in 2023.",
            &[
                "Solvane Airlines carried a record 16.9 million passengers in 2022, and its \
               cargo volumes in 2023 rose 12% to 210,000 tonnes.",
            ],
        );
        assert_ne!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        let j = judged(
            "Atlas Biotech employed 2,300 people at the end of 2023.",
            &[
                "Atlas Biotech ended 2023 with $2.3 billion in cash and had 1,950 employees at \
               the end of 2022.",
            ],
        );
        assert_ne!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        // Another title of the series.
        let j = judged(
            "Rafael Nadal won his first French Open title in 2005.",
            &["Rafael Nadal won his 14th and final French Open title in June 2022."],
        );
        assert_ne!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        // The same year's figure still conflicts.
        let j = judged(
            "Solvane Airlines carried 18.4 million passengers in 2023.",
            &["Solvane Airlines carried a record 16.9 million passengers in 2023."],
        );
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    #[test]
    fn a_denial_of_the_claim_s_act_on_another_object_denies_nothing_of_the_claim() {
        let j = judged(
            "Hazel Okoro has been appointed CEO of Brightline Insurance.",
            &[
                "Brightline Insurance named Hazel Okoro as chief executive on Monday, and said it \
               would not appoint a separate chief operating officer.",
            ],
        );
        assert_ne!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
        // On the claim's own object, it does.
        let j = judged(
            "The board appointed a new chief executive.",
            &["The board did not appoint a new chief executive."],
        );
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    #[test]
    fn the_claim_s_figure_that_the_page_dates_otherwise_is_another_occasion_s() {
        // The figure beside another year or month only: neither stated nor gainsaid.
        let j = judged(
            "Kestrel Air's average domestic fare in 2023 was €71.",
            &[
                "Kestrel Air's average fare on international routes rose to €112 in 2023, while \
               its average domestic fare had been €71 in 2021, the airline said.",
            ],
        );
        assert_eq!(j.label, JudgeLabel::NotFound, "{:?}", j.detail);
        let j = judged(
            "Brightwater Reservoir was 61% full in August.",
            &[
                "The Brightwater Reservoir was 61% full in July, the regional water board said \
               in its report for August.",
            ],
        );
        assert_eq!(j.label, JudgeLabel::NotFound, "{:?}", j.detail);
        let j = judged(
            "Meadowbrook County recorded 41 traffic deaths in 2023.",
            &["Meadowbrook County recorded 41 traffic deaths in 2021, the highest in a decade."],
        );
        assert_eq!(j.label, JudgeLabel::NotFound, "{:?}", j.detail);
        // A year after a conjunction dates the other item ("in 2019 and about 2,040").
        let j = judged(
            "Numbers recovered to around 2,040 pairs by 2024.",
            &["Numbers rose to 1,870 pairs in 2019 and about 2,040 pairs in the count of 2024."],
        );
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
        // Another year with another figure of the claim's kind, even when the sentence names
        // the claim's year for something else.
        let j = judged(
            "Solvane Airlines carried 18.4 million passengers in 2023.",
            &[
                "Solvane Airlines carried 16.9 million passengers in 2022, and its cargo volumes \
               in 2023 rose 12% to 210,000 tonnes.",
            ],
        );
        assert_eq!(j.label, JudgeLabel::NotFound, "{:?}", j.detail);
        // Another year and the other way is another occasion too.
        let j = judged(
            "Tarrow County voters approved the sales tax increase in the 2022 referendum.",
            &["Voters in Tarrow County rejected a sales tax increase in a 2020 referendum."],
        );
        assert_eq!(j.label, JudgeLabel::NotFound, "{:?}", j.detail);
        // A date's day is no figure of its own: another year is another date.
        let j = judged(
            "The United Kingdom formally left the European Union on 31 January 2021.",
            &["The United Kingdom left the European Union on 31 January 2020."],
        );
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    #[test]
    fn a_score_is_read_as_a_whole_and_only_against_a_score() {
        let contradicted = judged(
            "Portland beat Leeds 3-1 in the final.",
            &["Portland beat Leeds 3-2 in the final on Sunday."],
        );
        assert_eq!(
            contradicted.label,
            JudgeLabel::Contradicted,
            "{:?}",
            contradicted.detail
        );
        let supported = judged(
            "Portland lost 1-3 to Leeds.",
            &["Leeds beat Portland 3-1 at Elm Park."],
        );
        assert_eq!(
            supported.label,
            JudgeLabel::Supported,
            "{:?}",
            supported.detail
        );
        // "game seven" is no number of the score beside it.
        let open = judged(
            "Portland won game seven against the Harbour Hawks.",
            &["Portland beat the Harbour Hawks 3-2 in the deciding seventh game."],
        );
        assert_ne!(open.label, JudgeLabel::Contradicted, "{:?}", open.detail);
    }

    #[test]
    fn another_part_of_the_fuller_name_the_page_gives_is_the_same_person() {
        let claim = "Born in Leeds in 1871, Whitcombe was the second of five children of a \
            schoolmaster.";
        let birth = "Mary Ellen Dorsey was born on 3 March 1871 in Leeds, the second of five \
            children of a schoolmaster, and the only one to go to university.";
        let lead = "Mary Ellen Dorsey Whitcombe (1871-1950) was an English botanist.";
        let page = format!("# Mary Whitcombe\n\n{lead}\n\n{birth}");
        let j = judged(claim, &[&page]);
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
        // Without the fuller name, the birth name is someone else in the claim's place.
        let j = judged(claim, &[birth]);
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    #[test]
    fn a_denial_beside_a_word_of_its_stem_the_claim_lacks_still_denies() {
        let j = judged(
            "Jones played in the 2019 final.",
            &["Jones, the club's player of the year, did not play in the 2019 final."],
        );
        assert_ne!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
    }

    #[test]
    fn a_denial_of_what_another_clause_states_by_its_stem_flips_nothing() {
        let j = judged(
            "Nearly three in five residents who replied favoured the tram, while under a third \
                preferred a bus lane.",
            &[
                "In the survey, 2,310 residents replied, 58% of whom favoured the tram. A \
                further 30% preferred a bus lane and the rest gave no preference.",
            ],
        );
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
    }

    #[test]
    fn a_close_bound_reaches_only_figures_near_it() {
        // "Just over a minute" is the 71 seconds, not the third runner's 2:14:30, so the
        // third runner is not in the winner's place.
        let j = judged(
            "Lena Brandt finished second, just over a minute behind Okafor.",
            &[
                "Okafor won in 2:10:04. Lena Brandt was second in 2:11:15, 71 seconds behind \
                the winner, and Halvor Lien was third in 2:14:30.",
            ],
        );
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
    }

    #[test]
    fn an_adverb_after_a_place_does_not_make_it_name_a_kind() {
        // "from Bath together with" is a place, not a Bath of some kind of "together": London
        // in its place, after the same words, replaces it.
        let j = judged(
            "She had moved to Lyme Regis from Bath together with her sisters.",
            &[
                "She was a collector who had moved to Lyme Regis from London with her two \
                sisters.",
            ],
        );
        assert_eq!(j.label, JudgeLabel::Contradicted, "{:?}", j.detail);
    }

    #[test]
    fn a_claim_s_instead_of_is_stated_by_a_page_that_states_its_act() {
        let page = "The distribution still ships version 2.1, which is old, so I downloaded \
            the 3.4 installer from the project's site and later upgraded to 3.5.";
        let j = judged(
            "Instead of the version 2.1 packaged by the distribution, she used the 3.4 \
                installer from the project's site and later upgraded to 3.5.",
            &[page],
        );
        assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
        // The act done to the other arm instead still flips the claim.
        let j = judged(
            "The council chose the electric depot instead of the hydrogen hub.",
            &["After a long debate the council chose the hydrogen hub for the harbour."],
        );
        assert_ne!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
        let j = judged(
            "The team took the coach from Leeds on Friday instead of the train.",
            &["The team took the train from Leeds on Friday."],
        );
        assert_ne!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
    }

    #[test]
    fn the_same_input_gives_the_same_answer() {
        let claim = "Water boils at 50 degrees Celsius at sea level.";
        assert_eq!(judged(claim, &[WATER]), judged(claim, &[WATER]));
    }
}
