//! Who did what to whom (pure): "LinkedIn acquired Microsoft" has every word of "Microsoft
//! acquired LinkedIn", so coverage alone calls it a support, but the two names trade places
//! around the same verb. Only a tight frame is read: a name, at most two small words, a verb,
//! at most four words (two of them content words at most), a name; the sentence's frame must
//! hold every content word of the claim's. A passive ("was acquired by Microsoft") swaps agent
//! and patient back, and a verb whose two sides can trade places without changing what
//! happened ("met", "married", "played", anything "with") frames nothing. A passive's agent is
//! also read alone ("was directed by Bong Joon-ho and produced by Kwak Sin-ae"): the act done
//! by another name and never by the claim's is a conflict. A subject before its verb is not
//! read alone: on the development set that cost five verdicts for none gained.

use std::sync::OnceLock;

use super::align::{is_address, is_country, people_adjective};
use super::analyse::{is_acronym, Analysis, Break, Entity};
use super::clause::PREPOSITIONS;
use super::lex::{forms_of, is_stopword};
use super::lexicon::{self, SYMMETRIC_RELATIONS};
use super::numbers::Measure;
use super::vocabulary;

/// Normalised forms of [`SYMMETRIC_RELATIONS`].
pub(super) fn symmetric() -> &'static [String] {
    static FORMS: OnceLock<Vec<String>> = OnceLock::new();
    FORMS.get_or_init(|| forms_of(SYMMETRIC_RELATIONS))
}

/// How many small words may stand between the first name and its verb ("had already
/// acquired"): more, and the name may belong to another clause.
const GAP: usize = 2;
/// How many words may follow the verb before the second name ("licensed the antibody from",
/// "is a wholly owned subsidiary of").
const AFTER_VERB: usize = 4;
/// How many content words the relation between the names may hold, the verb's included.
const RELATION_WORDS: usize = 3;

/// One name doing something to another.
#[derive(Debug, Clone)]
struct Frame<'a> {
    agent: &'a Entity,
    /// The content words between the names, verb first ("licens", "antibody").
    relation: Vec<&'a str>,
    patient: &'a Entity,
}

/// The names of a text in order. A capitalised word opening the text counts as a name here
/// even when the page did not confirm it: a frame is only read when its names are the claim's
/// or stand in the claim's roles.
pub(super) fn names(text: &Analysis) -> Vec<&Entity> {
    text.unconfirmed_opener()
        .into_iter()
        .chain(&text.entities)
        .collect()
}

/// How many words of description may stand between a passive's "by" and its agent ("by
/// English computer scientist Tim Berners-Lee").
const DESCRIPTION: usize = 3;

/// How many lexemes an apposition between a name and its verb may hold ("Castellan Group, the
/// Milan-based maker of luxury leather goods, is a subsidiary of ...").
const APPOSITION: usize = 12;

/// The frames of a text, agent first whatever the voice.
fn frames(text: &Analysis) -> Vec<Frame<'_>> {
    let names = names(text);
    let mut out = Vec::new();
    for (k, (before, after)) in names.iter().zip(names.iter().skip(1)).enumerate() {
        if let Some(frame) = frame_between(text, before, before.span.end, after) {
            out.push(frame);
        } else if let Some(resume) = past_apposition(text, before) {
            // The verb after an apposition is the name's: the frame runs from the first name
            // after the apposition's closing comma.
            if let Some(frame) = names[k + 1..]
                .iter()
                .find(|n| n.span.start > resume)
                .and_then(|after| frame_between(text, before, resume, after))
            {
                out.push(frame);
            }
        }
    }
    out
}

/// Where the text goes on after an apposition that follows `name`: a comma, a description
/// opening on a word in lower case ("the Milan-based maker of ...", "which was founded in
/// 1990"), a closing comma, within [`APPOSITION`] lexemes, and then the name's verb. A comma
/// that opens on another name lists names ("Apple, Google and Microsoft"), a stronger break
/// ends the sentence's part, and a preposition after the closing comma goes on about something
/// else than the name ("Chapel Street Studios, a chapel in Millbrook, with the producer ...").
fn past_apposition(text: &Analysis, name: &Entity) -> Option<usize> {
    let comma = |i: usize| is_comma(text, i);
    let open = name.span.end;
    if !comma(open)
        || !text
            .form(open + 1)
            .is_some_and(|_| text.is_lowercase(open + 1))
    {
        return None;
    }
    (open + 1..(open + 1 + APPOSITION).min(text.forms.len()))
        .take_while(|&i| text.breaks.get(i).copied().flatten() != Some(Break::Strong))
        .find(|&i| comma(i))
        .map(|close| close + 1)
        .filter(|&resume| {
            text.form(resume)
                .is_some_and(|f| text.is_lowercase(resume) && !PREPOSITIONS.contains(&f))
        })
}

/// The frame of two neighbouring names, when small words, a verb and a few words more
/// ("defeated incumbent Democrat Jimmy Carter", "licensed the antibody from") alone stand
/// between them.
fn frame_between<'a>(
    text: &'a Analysis,
    before: &'a Entity,
    from: usize,
    after: &'a Entity,
) -> Option<Frame<'a>> {
    // A date between the verb and what it governs ("agreed on October 9, 2006, to acquire")
    // says when, not who: the frame reads across it.
    // Most neighbouring names stand far apart: settled before any date is looked for.
    if from >= after.span.start || after.span.start - from > GAP + 1 + AFTER_VERB + DATED {
        return None;
    }
    let dated = dated_adjunct(text, from..after.span.start);
    let between: Vec<usize> = (from..after.span.start)
        .filter(|i| !dated.contains(i))
        .collect();
    if between.is_empty() || between.len() > GAP + 1 + AFTER_VERB {
        return None;
    }
    // Every lexeme between is a word in lower case (no comma, bracket, figure or piece of
    // another name) and not in a comparison's other arm.
    if between.iter().any(|&i| {
        text.form(i).is_none()
            || !text.is_lowercase(i)
            || text.aside.get(i).copied().unwrap_or(false)
    }) {
        return None;
    }
    let content: Vec<usize> = between
        .iter()
        .copied()
        .filter(|&i| text.form(i).is_some_and(|f| !is_stopword(f)))
        .collect();
    // The verb is the first word that is not a small one.
    let at = *content.first()?;
    if content.len() > RELATION_WORDS {
        return None;
    }
    // A noun the first name stands before, itself the subject of a verb that follows ("the
    // Low Water tour is at ..."), is what the name classifies, not the verb.
    let auxiliary = |i: usize| {
        matches!(
            text.form(i),
            Some("is" | "was" | "are" | "were" | "has" | "had" | "have" | "will" | "would")
        )
    };
    if from == at && auxiliary(at + 1) {
        return None;
    }
    let (pre, post): (Vec<usize>, Vec<usize>) =
        between.iter().filter(|&&i| i != at).partition(|&&i| i < at);
    if pre.len() > GAP || post.len() > AFTER_VERB {
        return None;
    }
    let relation: Vec<&str> = content.iter().filter_map(|&i| text.form(i)).collect();
    let has = |range: &[usize], words: &[&str]| {
        range
            .iter()
            .any(|&i| text.form(i).is_some_and(|f| words.contains(&f)))
    };
    if relation.iter().any(|r| symmetric().iter().any(|s| s == r))
        || has(&post, &["with", "and", "or"])
        || has(&pre, &["and", "or"])
    {
        return None;
    }
    // A passive names its agent right after "by" ("was acquired by the Walt Disney Company").
    let passive = post
        .iter()
        .rev()
        .find(|&&i| !matches!(text.form(i), Some("the" | "a" | "an")))
        .is_some_and(|&i| text.form(i) == Some("by"));
    let (agent, patient) = if passive {
        (after, before)
    } else {
        (before, after)
    };
    Some(Frame {
        agent,
        relation,
        patient,
    })
}

/// The lexemes of a date set between a verb and its infinitive: "in" or "on", then months,
/// weekdays, days, years and commas only ("agreed on October 9, 2006, to acquire", "agreed in
/// March 2019 to buy"), a comma before it included. Empty when there is none. Only before "to":
/// a date before any word let frames run on into the next clause ("was sworn in in December
/// 2021, succeeding Angela Merkel") and across renamings ("later known as Marie Curie, was born
/// on 7 November 1867 in Warsaw"): seven supported pairs of the read probes were called
/// contradicted.
fn dated_adjunct(text: &Analysis, range: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let comma = |i: usize| is_comma(text, i);
    let dated = |i: usize| {
        text.quantities
            .iter()
            .any(|q| q.span.contains(&i) && matches!(q.measure, Measure::Year | Measure::Day(_)))
            || (!text.is_lowercase(i)
                && text.form(i).is_some_and(|f| {
                    lexicon::MONTHS.contains(&f) || lexicon::WEEKDAYS.contains(&f)
                }))
    };
    for p in range.clone() {
        if !matches!(text.form(p), Some("in" | "on")) || !text.is_lowercase(p) {
            continue;
        }
        let mut end = p + 1;
        let mut any = false;
        while end < range.end && (dated(end) || comma(end)) {
            any |= dated(end);
            end += 1;
        }
        let start = if p > range.start && comma(p - 1) {
            p - 1
        } else {
            p
        };
        let after_verb = start
            .checked_sub(1)
            .is_some_and(|v| text.is_lowercase(v) && text.form(v).is_some_and(|f| !is_stopword(f)));
        if any && after_verb && end < range.end && text.form(end) == Some("to") {
            return start..end;
        }
    }
    range.start..range.start
}

/// How many lexemes a date between a verb and its infinitive may take (", on October 9,
/// 2006,").
const DATED: usize = 7;

/// How many lexemes a loose frame may run from its verb to its second name.
const LOOSE_REACH: usize = 14;
/// How many lexemes of description may stand between a loose frame's last relation word and
/// its second name ("acquisition of cloud software company VMware").
const LOOSE_DESCRIPTION: usize = 4;

/// The sentence's name for `first` when it does `relation` to `second` in a frame looser than
/// [`frame_between`]'s: `first` in a subject's place (not after a preposition, not listed with
/// another name), its verb after at most [`GAP`] small words, then every relation word in
/// order, with figures and lower-case words between but no other name, comma, "by" (a
/// passive's agent), list or relative clause, and `second` at most [`LOOSE_DESCRIPTION`]
/// lexemes after the last relation word.
fn loose_frame<'a>(
    text: &'a Analysis,
    names: &[&'a Entity],
    first: &Entity,
    relation: &[&str],
    second: &Entity,
) -> Option<&'a Entity> {
    let starts_name = |i: usize| names.iter().copied().find(|e| e.span.start == i);
    let stops = |i: usize| {
        text.breaks.get(i).copied().flatten().is_some()
            || matches!(
                text.form(i),
                Some("by" | "and" | "or" | "with" | "which" | "who" | "that" | "whom" | "while")
            )
    };
    names
        .iter()
        .copied()
        .filter(|e| same(e, first) && !coordinated(text, e))
        .filter(|e| {
            e.span
                .start
                .checked_sub(1)
                .and_then(|p| text.form(p))
                .is_none_or(|f| !PREPOSITIONS.contains(&f))
        })
        .find(|e| {
            let mut i = e.span.end;
            while i < e.span.end + GAP
                && text.form(i).is_some_and(is_stopword)
                && text.is_lowercase(i)
                && !stops(i)
            {
                i += 1;
            }
            let Some((verb, _)) = relation.split_first() else {
                return false;
            };
            if text.form(i) != Some(*verb) || !text.is_lowercase(i) {
                return false;
            }
            let mut next = 1;
            let mut last = i;
            for j in i + 1..(i + 1 + LOOSE_REACH).min(text.forms.len()) {
                if let Some(name) = starts_name(j) {
                    return next == relation.len()
                        && j - last - 1 <= LOOSE_DESCRIPTION
                        && same(name, second)
                        && !coordinated(text, name);
                }
                if stops(j) {
                    return false;
                }
                if next < relation.len() && text.form(j) == Some(relation[next]) {
                    next += 1;
                    last = j;
                }
            }
            false
        })
}

/// Whether lexeme `i` of `text` is a comma.
fn is_comma(text: &Analysis, i: usize) -> bool {
    text.breaks.get(i).copied().flatten() == Some(Break::Comma)
}

/// Whether two names are one: the words of one are all words of the other ("Williams" and
/// "Serena Williams", not "Venus Williams" and "Serena Williams").
pub(super) fn same(a: &Entity, b: &Entity) -> bool {
    a.forms.iter().all(|f| b.forms.contains(f)) || b.forms.iter().all(|f| a.forms.contains(f))
}

/// The claim's name and the sentence's name in its role, when the sentence frames the claim's
/// relation with another filler: the two names the other way round ("LinkedIn acquired
/// Microsoft" against "Microsoft acquired LinkedIn"), or one of them replaced by a name the
/// claim does not have ("Google acquired Beats, outbidding Apple" against "Apple acquired
/// Beats"), however the sentence goes on to mention the claim's own.
pub fn conflict<'a>(
    claim: &'a Analysis,
    sentence: &'a Analysis,
) -> Option<(&'a Entity, &'a Entity)> {
    // The claim first: most claims frame nothing, and then no sentence need be read.
    let our_frames = frames(claim);
    let our_acts = acts(claim);
    if our_frames.is_empty() && our_acts.is_empty() {
        return None;
    }
    let claim_names = names(claim);
    // A rival is a name the claim lacks, standing alone in its role ("Apple and Google
    // acquired Beats" shares the acquiring), with the shape of the name it replaces.
    let rival = |theirs: &Entity, ours: &Entity| {
        !claim_names.iter().any(|c| same(c, theirs))
            && !coordinated(sentence, theirs)
            && same_shape(theirs, ours)
    };
    if !our_frames.is_empty() {
        let their_frames = frames(sentence);
        let their_names = names(sentence);
        // The claim's opening word read as a name only for this reading: a plural of a
        // dictionary word ("Regulators ordered Tolland Water to refund ...", "Researchers
        // found") names a kind of people, not one body, unless the sentence names it too;
        // else "The state Public Utilities Commission ordered Tolland Water" would put a rival
        // in its place. The list holds many places and people ("Sydney"), so only plurals.
        let common_opener = |e: &Entity| {
            let plural = e.text.len() > 3
                && e.text.ends_with('s')
                && !e.text.ends_with("ss")
                && vocabulary::is_english_word(&e.text[..e.text.len() - 1]);
            claim
                .unconfirmed_opener()
                .is_some_and(|o| std::ptr::eq(o, e))
                && plural
                && !their_names.iter().any(|s| same(s, e))
        };
        for c in our_frames {
            if same(c.agent, c.patient) || common_opener(c.agent) || common_opener(c.patient) {
                continue;
            }
            let same_relation: Vec<&Frame<'_>> = their_frames
                .iter()
                .filter(|s| c.relation.iter().all(|r| s.relation.contains(r)))
                .collect();
            let agent_elsewhere = same_relation
                .iter()
                .any(|t| same(t.agent, c.agent) && same(t.patient, c.patient));
            // The two names the other way round with words between that the tight frame does
            // not allow ("Broadcom completed its roughly $69 billion acquisition of cloud
            // software company VMware"), unless the sentence frames the claim's way too.
            if !agent_elsewhere
                && !c.relation.is_empty()
                && loose_frame(sentence, &their_names, c.agent, &c.relation, c.patient).is_none()
            {
                if let Some(theirs) =
                    loose_frame(sentence, &their_names, c.patient, &c.relation, c.agent)
                {
                    return Some((c.agent, theirs));
                }
            }
            for s in same_relation {
                if same(s.agent, c.patient) && same(s.patient, c.agent) {
                    return Some((c.agent, s.agent));
                }
                // One filler the same, the other a rival.
                if same(s.patient, c.patient) && rival(s.agent, c.agent) {
                    return Some((c.agent, s.agent));
                }
                // Or by another of the claim's names, which the claim puts in another role
                // ("The Pistons traded Dell to the Hawks" against "The Hawks traded Dell to
                // the Pistons"), unless the claim's agent does the act in the sentence too.
                if same(s.patient, c.patient)
                    && !same(s.agent, c.agent)
                    && !same(s.agent, c.patient)
                    && claim_names.iter().any(|n| same(n, s.agent))
                    && !coordinated(sentence, s.agent)
                    && !agent_elsewhere
                {
                    return Some((c.agent, s.agent));
                }
                if same(s.agent, c.agent) && rival(s.patient, c.patient) {
                    return Some((c.patient, s.patient));
                }
            }
        }
    }
    acts_conflict(&our_acts, sentence, &rival)
}

/// One name doing something, whatever it is done to: the agent after a passive's "by" ("was
/// won by Kiprono", "directed by Bong Joon-ho").
#[derive(Debug, Clone, Copy)]
struct Act<'a> {
    agent: &'a Entity,
    verb: &'a str,
}

/// The acts of a text.
fn acts(text: &Analysis) -> Vec<Act<'_>> {
    let names = names(text);
    let content = |i: usize| {
        text.form(i)
            .filter(|f| !is_stopword(f) && text.is_lowercase(i))
            .filter(|_| !text.aside.get(i).copied().unwrap_or(false))
    };
    let mut out = Vec::new();
    for &name in &names {
        // "<verb> by [the] <name>", a few words of description allowed before the name
        // ("won by Ethiopian runner ...", "led by the economist ...", "invented by English
        // computer scientist Tim Berners-Lee"), a people's adjective among them.
        let mut k = name.span.start;
        for _ in 0..=DESCRIPTION {
            let Some(p) = k.checked_sub(1) else { break };
            match text.form(p) {
                Some("by") => {
                    if let Some(verb) = p.checked_sub(1).and_then(content) {
                        out.push(Act { agent: name, verb });
                    }
                    break;
                }
                Some(_) if text.is_lowercase(p) => k = p,
                Some(_) => match names.iter().find(|e| e.span.end == p + 1) {
                    Some(e) if people_adjective(e) => k = e.span.start,
                    _ => break,
                },
                None => break,
            }
        }
    }
    out
}

/// The claim's agent and the sentence's name in its place, when the sentence has one of the
/// claim's acts done by a rival and never by the claim's agent ("The film was directed by Bong
/// Joon-ho and produced by Kwak Sin-ae" against "The film was directed by Kwak Sin-ae").
fn acts_conflict<'a>(
    ours: &[Act<'a>],
    sentence: &'a Analysis,
    rival: &dyn Fn(&Entity, &Entity) -> bool,
) -> Option<(&'a Entity, &'a Entity)> {
    if ours.is_empty() {
        return None;
    }
    let theirs = acts(sentence);
    ours.iter().find_map(|c| {
        let same_act: Vec<&Act<'_>> = theirs.iter().filter(|s| s.verb == c.verb).collect();
        if same_act.iter().any(|s| same(s.agent, c.agent)) {
            return None;
        }
        // A rival in the claim agent's place, or the agent of another of the claim's acts:
        // the two agents traded ("chosen by the Senate and confirmed by the President"
        // against "nominated by the President and confirmed by the Senate").
        let traded = |s: &Act<'_>| {
            ours.iter()
                .any(|o| o.verb != c.verb && same(o.agent, s.agent) && !same(o.agent, c.agent))
                && !coordinated(sentence, s.agent)
        };
        same_act
            .into_iter()
            .find(|s| rival(s.agent, c.agent) || traded(s))
            .map(|s| (c.agent, s.agent))
    })
}

/// Whether `theirs` can stand in the place of `ours`, as the judge's other rivals must: an
/// acronym only for an acronym ("its GPU runs" names a part, not another maker), a people's
/// adjective only for a country ("their Dutch rider won" names no rival of Lena Vos), an
/// address only for an address.
fn same_shape(theirs: &Entity, ours: &Entity) -> bool {
    is_acronym(&theirs.text) == is_acronym(&ours.text)
        && (!people_adjective(theirs) || is_country(ours))
        && is_address(theirs) == is_address(ours)
}

/// Whether a name stands in a list with another ("Apple and Google", "Beats, Shazam"): it
/// then shares its role rather than filling it alone. A comma lists only between two names
/// ("In 2014, Google acquired Beats" lists nothing).
fn coordinated(text: &Analysis, name: &Entity) -> bool {
    let conjunction = |i: usize| matches!(text.form(i), Some("and" | "or"));
    let comma = |i: usize| is_comma(text, i);
    let in_a_name = |i: usize| text.entities.iter().any(|e| e.span.contains(&i));
    let before = name.span.start.checked_sub(1);
    let after = name.span.end;
    // "directed by Bong Joon-ho and produced by ..." lists acts, not names.
    let name_from = |i: usize| in_a_name(i) || (text.form(i) == Some("the") && in_a_name(i + 1));
    before.is_some_and(|b| (conjunction(b) || comma(b)) && b.checked_sub(1).is_some_and(in_a_name))
        || ((conjunction(after) || comma(after)) && name_from(after + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn swap(claim: &str, sentence: &str) -> Option<(String, String)> {
        let (claim, sentence) = (Analysis::new(claim), Analysis::new(sentence));
        conflict(&claim, &sentence).map(|(c, s)| (c.text.clone(), s.text.clone()))
    }

    #[test]
    fn a_date_between_a_verb_and_its_infinitive_frames_across_it() {
        let claim = "Yahoo acquired YouTube in 2006 for $1.65 billion.";
        for sentence in [
            "Google agreed on October 9, 2006, to acquire YouTube for $1.65 billion in stock.",
            "Google agreed in October 2006 to acquire YouTube.",
            "Google agreed, on Monday, to acquire YouTube.",
        ] {
            assert_eq!(
                swap(claim, sentence),
                Some(("Yahoo".into(), "Google".into())),
                "{sentence}"
            );
        }
        // The claim's own agent across the date is no conflict; nor is a date before any other
        // word, which may close a clause ("in December 2021, succeeding Angela Merkel").
        assert_eq!(
            swap(
                "Google acquired YouTube.",
                "Google agreed on October 9, 2006, to acquire YouTube."
            ),
            None
        );
        assert_eq!(
            swap(
                "Angela Merkel was succeeded as German chancellor by Olaf Scholz.",
                "Olaf Scholz was sworn in as German chancellor in December 2021, succeeding Angela Merkel."
            ),
            None
        );
        assert_eq!(
            swap(
                "Marie Curie was born in Warsaw.",
                "Maria Skłodowska, later known as Marie Curie, was born on 7 November 1867 in Warsaw."
            ),
            None
        );
    }

    #[test]
    fn a_name_s_verb_after_an_apposition_frames_it() {
        let sentence = "Castellan Group, the Milan-based maker of luxury leather goods, is a \
                        wholly owned subsidiary of Vireo Holdings, which bought it in 2014.";
        assert_eq!(
            swap(
                "Vireo Holdings is a subsidiary of Castellan Group.",
                sentence
            ),
            Some(("Vireo Holdings".into(), "Castellan Group".into()))
        );
        assert_eq!(
            swap(
                "Castellan Group is a subsidiary of Vireo Holdings.",
                sentence
            ),
            None
        );
        // A preposition after the apposition goes on about something else than the name.
        assert_eq!(
            swap(
                "The album was recorded at Chapel Street Studios in Millbrook with the producer \
                 Ada Kemp.",
                "It was recorded at Chapel Street Studios, a converted chapel in Millbrook, with \
                 the producer Ada Kemp."
            ),
            None
        );
    }

    #[test]
    fn a_passive_s_agent_may_follow_a_description_with_a_people_s_adjective() {
        let sentence = "The World Wide Web was invented by English computer scientist Tim \
                        Berners-Lee at CERN in 1989; Vint Cerf and Bob Kahn had earlier \
                        designed the TCP/IP protocols.";
        assert_eq!(
            swap("The World Wide Web was invented by Vint Cerf.", sentence),
            Some(("Vint Cerf".into(), "Tim Berners Lee".into()))
        );
        assert_eq!(
            swap(
                "The World Wide Web was invented by Tim Berners-Lee.",
                sentence
            ),
            None
        );
    }

    #[test]
    fn names_traded_across_a_figure_and_a_description_are_swapped() {
        let sentence = "Broadcom completed its roughly $69 billion acquisition of cloud software \
                        company VMware on 22 November 2023 after final approval from China.";
        assert_eq!(
            swap(
                "VMware completed its acquisition of Broadcom in November 2023.",
                sentence
            ),
            Some(("VMware".into(), "Broadcom".into()))
        );
        assert_eq!(
            swap(
                "Broadcom completed its acquisition of VMware in November 2023.",
                sentence
            ),
            None
        );
        // Another name between, a passive's "by" or a list ends the frame.
        for other in [
            "Broadcom completed its acquisition of Symantec's unit and VMware in 2023.",
            "Broadcom was acquired in 2016 by Avago, which later bought VMware.",
            "Broadcom completed its purchase of a stake held by VMware in 2023.",
        ] {
            assert_eq!(
                swap("VMware completed its acquisition of Broadcom.", other),
                None,
                "{other}"
            );
        }
    }

    #[test]
    fn names_that_trade_places_around_the_verb_are_swapped() {
        let claim = "In 2016 Microsoft acquired LinkedIn for $26.2 billion.";
        assert_eq!(
            swap(
                claim,
                "In 2016 LinkedIn acquired Microsoft in a deal worth $26.2 billion."
            ),
            Some(("Microsoft".into(), "LinkedIn".into()))
        );
        // Names opening their texts, which the page has not yet confirmed as names.
        assert!(swap(
            "Argentina defeated Germany in the 2014 World Cup final.",
            "Germany defeated Argentina after extra time in the 2014 World Cup final."
        )
        .is_some());
        assert!(swap(
            "Real Madrid beat Barcelona 3-1 in Sunday's Clásico.",
            "Barcelona beat Real Madrid 3-1 in Sunday's Clásico at the Estadi Olímpic."
        )
        .is_some());
        assert!(swap(
            "In 1939 Germany invaded Poland.",
            "On 1 September 1939 Poland invaded Germany, starting the war."
        )
        .is_some());
        assert!(swap(
            "At Wimbledon Serena Williams defeated Venus Williams in the final.",
            "At Wimbledon Venus Williams defeated Serena Williams in the final."
        )
        .is_some());
    }

    #[test]
    fn a_relation_of_a_few_words_frames_the_names_too() {
        assert!(swap(
            "Halvern Pharma licensed the antibody from Novexa Therapeutics.",
            "Novexa Therapeutics has licensed the antibody from Halvern Pharma in a deal."
        )
        .is_some());
        // The sentence's relation may say more than the claim's.
        assert!(swap(
            "In 1980 Jimmy Carter defeated Ronald Reagan.",
            "In 1980 challenger Ronald Reagan defeated incumbent Democrat Jimmy Carter."
        )
        .is_some());
        assert!(swap(
            "Vireo Holdings is a subsidiary of Castellan Group.",
            "Castellan Group is a wholly owned subsidiary of Vireo Holdings."
        )
        .is_some());
        // Not a relation that holds both ways, nor one the sentence does not state.
        assert_eq!(
            swap(
                "In 2004 Oslo became a twin city of Riga.",
                "In 2004 Riga became a twin city of Oslo."
            ),
            None
        );
        assert_eq!(
            swap(
                "Halvern Pharma licensed the antibody from Novexa Therapeutics.",
                "Novexa Therapeutics has sold the antibody to Halvern Pharma."
            ),
            None
        );
    }

    #[test]
    fn another_name_in_one_of_the_claim_s_roles_conflicts_with_it() {
        let claim = "In 2014 Apple acquired Beats for $3 billion.";
        assert_eq!(
            swap(claim, "In 2014, Google acquired Beats, outbidding Apple."),
            Some(("Apple".into(), "Google".into()))
        );
        assert_eq!(
            swap(claim, "In 2014 Apple acquired Shazam after losing Beats."),
            Some(("Beats".into(), "Shazam".into()))
        );
        // Sharing the role with another name, or the claim's other name in it, is no rival.
        assert_eq!(
            swap(claim, "In 2014 Apple and Google acquired Beats."),
            None
        );
        assert_eq!(
            swap(claim, "In 2014 Apple acquired Shazam and Beats."),
            None
        );
        // Nor a part named by an acronym, nor the noun a name classifies.
        assert_eq!(
            swap(
                "In tests the Tessel Nova runs Genshin Impact at 60 frames per second.",
                "In tests its GPU runs Genshin Impact at 60 frames per second."
            ),
            None
        );
        assert_eq!(
            swap(
                "Its biggest date the Low Water tour is at Brackenford Corn Exchange.",
                "Its first date the Low Water tour opens at Kestrel Bay Pavilion."
            ),
            None
        );
    }

    #[test]
    fn another_agent_of_the_claim_s_passive_act_conflicts_with_it() {
        let claim = "The film was directed by Kwak Sin-ae.";
        assert_eq!(
            swap(
                claim,
                "The film was directed by Bong Joon-ho and produced by Kwak Sin-ae."
            ),
            Some(("Kwak Sin".into(), "Bong Joon".into()))
        );
        // The claim's agent does the act too, or shares it.
        assert_eq!(
            swap(
                "The film was directed by Bong Joon-ho.",
                "The film was directed by Bong Joon-ho and produced by Kwak Sin-ae."
            ),
            None
        );
        assert_eq!(
            swap(
                "The song was written by Paul McCartney.",
                "The song was written by John Lennon and Paul McCartney in 1965."
            ),
            None
        );
    }

    #[test]
    fn another_of_the_claim_s_names_as_the_agent_conflicts() {
        let claim = "The Hawks traded Marcus Dell to the Pistons.";
        assert_eq!(
            swap(
                claim,
                "The Pistons traded guard Marcus Dell to the Hawks on Thursday."
            ),
            Some(("Hawks".into(), "Pistons".into()))
        );
        // The claim's agent does it in the sentence as well.
        assert_eq!(
            swap(
                claim,
                "The Hawks traded Marcus Dell to the Pistons on Thursday."
            ),
            None
        );
    }

    #[test]
    fn two_passive_agents_traded_between_the_claim_s_acts_conflict() {
        let claim = "The Chair is chosen by the Senate and confirmed by the President.";
        assert_eq!(
            swap(
                claim,
                "The Chair is nominated by the President and confirmed by the Senate."
            ),
            Some(("President".into(), "Senate".into()))
        );
        // Each agent in its own act, or the two sharing one.
        assert_eq!(
            swap(
                "The Chair is nominated by the President and confirmed by the Senate.",
                "The Chair is nominated by the President and confirmed by the Senate."
            ),
            None
        );
        assert_eq!(
            swap(
                "The film was written by Ann Lee and directed by Tom Park.",
                "The film was written by Ann Lee and Tom Park and directed by Tom Park."
            ),
            None
        );
    }

    #[test]
    fn the_same_roles_in_either_voice_are_no_swap() {
        let claim = "In 2016 Microsoft acquired LinkedIn for $26.2 billion.";
        assert_eq!(
            swap(
                claim,
                "In 2016 Microsoft acquired LinkedIn for $26.2 billion."
            ),
            None
        );
        assert_eq!(
            swap(
                claim,
                "In 2016 LinkedIn was acquired by Microsoft for $26.2 billion."
            ),
            None
        );
        // The passive swapped is a swap.
        assert!(swap(
            claim,
            "In 2016 Microsoft was acquired by LinkedIn for $26.2 billion."
        )
        .is_some());
    }

    #[test]
    fn a_verb_whose_sides_can_trade_places_frames_nothing() {
        assert_eq!(
            swap(
                "In the final Federer played Nadal at Wimbledon.",
                "In the final Nadal played Federer at Wimbledon."
            ),
            None
        );
        assert_eq!(
            swap(
                "In 1998 Exxon merged with Mobil.",
                "In 1998 Mobil merged with Exxon."
            ),
            None
        );
        assert_eq!(
            swap(
                "The Data Protection Amendment passed the Legislative Assembly.",
                "The Legislative Assembly passed the Data Protection Amendment."
            ),
            None
        );
    }

    #[test]
    fn names_in_other_clauses_frame_nothing() {
        // A comma between the names: "who" opens a clause about Nadal.
        assert_eq!(
            swap(
                "Nadal beat Federer in the 2008 final.",
                "Federer, who beat Nadal in the 2007 final, lost the 2008 one."
            ),
            None
        );
    }
}
