//! Where things sit in a sentence (pure): a claim's number or name is tied to a sentence's
//! number or name when the claim words around it sit around that one too. This keeps "63 mg for
//! espresso, 95 mg for drip coffee" from matching "espresso has 95 mg", and a name elsewhere in
//! the sentence from counting as a replaced name.

use std::ops::Range;
use std::sync::OnceLock;

use super::analyse::{Analysis, Break, CueKind, Entity};
use super::clause;
use super::compare::{self, NumberFit};
use super::lex::{fold, forms_of, normalise};
use super::lexicon;
use super::numbers::{self, is_percent, Measure, Quantity};

/// Claim words either side of an entity that anchor it to a place in the sentence.
const ANCHOR_WORDS: usize = 3;
/// How far (in lexemes) from a sentence's entity an anchor may sit on the claim's side of it.
const ANCHOR_REACH: usize = 4;
/// How far an anchor may sit on the other side.
const ANCHOR_FLIP_REACH: usize = 2;
/// How far (in lexemes) from a sentence's number a claim word may sit to tie the two.
const NUMBER_REACH: usize = 5;

/// How far before a year a word of birth or death may stand to date a life by it ("born on 6
/// August 1881").
const LIFE_REACH: usize = 4;

/// The normalised forms of a birth ("born", "birth") and of a death ("died", "death").
fn life_forms() -> (&'static str, &'static str) {
    static FORMS: OnceLock<(String, String)> = OnceLock::new();
    let (born, died) = FORMS.get_or_init(|| (normalise("born").form, normalise("died").form));
    (born, died)
}

/// The claim's quantity against the sentence's. A sentence may hold the claim's number in
/// another role ("63 mg for espresso, 95 mg for drip coffee"), so a number next to the claim's
/// own neighbouring words decides first; any comparable number decides after that.
///
/// With `bound`, the sentence's clause the claim is about: the claim's value in another clause
/// belongs to that clause's subject, so a different value of the same kind in the bound clause
/// conflicts ("rents rose by 11%, while wages grew by 4%" against "wages grew by 11%").
/// Whether the claim adds figures up: "between them", "together", "combined", "in all", "in
/// total", "a total of", "altogether".
fn adds_up(claim: &Analysis) -> bool {
    (0..claim.forms.len()).any(|i| match claim.form(i) {
        Some("together" | "combin" | "altogether" | "total") => true,
        Some("between") => matches!(claim.form(i + 1), Some("them" | "us" | "both")),
        Some("in") => claim.form(i + 1) == Some("all"),
        _ => false,
    })
}

/// Whether the span `p` is measured on either side of a moment: "two hours either side of low
/// water", "ten metres on each side".
fn either_side(text: &Analysis, p: &Quantity) -> bool {
    let at = |k: usize| text.form(p.span.end + k);
    let side = |k: usize| matches!(at(k), Some("either" | "each")) && at(k + 1) == Some("sid");
    matches!(&p.measure, Measure::Unit(_)) && (side(0) || (at(0) == Some("on") && side(1)))
}

/// A figure the sentence gives only by arithmetic on `p` (twice it, or its sum with another):
/// `value` within `tolerance`, in `p`'s measure, neither bounded nor a share of anything.
fn restated(p: &Quantity, value: f64, tolerance: f64) -> Quantity {
    Quantity {
        value,
        tolerance,
        bound: None,
        share: None,
        ..p.clone()
    }
}

/// Whether two of the sentence's figures of one kind add up to the claim's `q`.
fn sum_of_two(q: &Quantity, own: &[Quantity]) -> bool {
    let addable = |p: &Quantity| !p.compound && !p.identifier && !p.difference;
    own.iter().enumerate().any(|(k, a)| {
        own[k + 1..].iter().any(|b| {
            addable(a)
                && addable(b)
                && a.measure == b.measure
                && compare::same(
                    q,
                    &Quantity {
                        hedged: false,
                        ..restated(a, a.value + b.value, a.tolerance + b.tolerance)
                    },
                )
        })
    })
}

/// How roughly two figures may be written for their ratio to state a relative change: their
/// relative roundings together at most 5% ("705,000" and "1.18 million", not "1" and "3").
const RELATIVE_ROUNDING: f64 = 0.05;

/// Whether two of the sentence's figures of one kind differ by the claim's relative change
/// `q` ("about two-thirds more messages a second" for 1.18 million against 705,000; "a fifth
/// fewer" for 800 against 1,000): the larger over the smaller, less one, for "more"; one less
/// the smaller over the larger, for "fewer"; either when the claim's comparative is neither.
/// Which of the two figures is the claim's subject the sentence does not say, so a change in
/// the other direction is not read as a conflict.
fn relative_change(claim: &Analysis, q: &Quantity, own: &[Quantity]) -> bool {
    if !q.difference || !is_percent(&q.measure) {
        return false;
    }
    let (up, down) = comparative_forms();
    let (more, less) = match claim.form(q.span.end) {
        Some(f) if up.iter().any(|u| u == f) => (true, false),
        Some(f) if down.iter().any(|d| d == f) => (false, true),
        _ => (true, true),
    };
    let plain = |p: &Quantity| {
        !p.compound && !p.identifier && !p.difference && p.share.is_none() && p.value > 0.0
    };
    own.iter().enumerate().any(|(k, a)| {
        own[k + 1..].iter().any(|b| {
            if !(plain(a) && plain(b) && compare::same_slot(a, b, true)) || a.value == b.value {
                return false;
            }
            let (big, small) = if a.value > b.value { (a, b) } else { (b, a) };
            let ratio = big.value / small.value;
            // The figures' rounding carried into the ratio; a figure as rough as "1" in "1
            // KiB" gives none worth reading.
            let rounding = big.tolerance / big.value + small.tolerance / small.value;
            if rounding > RELATIVE_ROUNDING {
                return false;
            }
            let spread = ratio * rounding;
            let as_change = |value: f64, tolerance: f64| {
                compare::same(q, &restated(q, value, tolerance.max(q.tolerance)))
            };
            (more && as_change(100.0 * (ratio - 1.0), 100.0 * spread))
                || (less && as_change(100.0 * (1.0 - 1.0 / ratio), 100.0 * spread / ratio / ratio))
        })
    })
}

pub fn number_fit(
    claim: &Analysis,
    q: &Quantity,
    sentence: &Analysis,
    bound: Option<usize>,
) -> NumberFit {
    // The counted noun ("400 megawatts") is part of the number's kind, not of its place: any
    // number of megawatts has it beside it. It ties the number to the claim's only when the
    // claim's subject (its first content word) comes before the number in the sentence, where
    // an English subject sits ("Octopuses have ..., with about 500 million neurons"), not
    // when the sentence's number belongs to something else ("The plant draws 90 megawatts").
    let counted: Vec<String> = match &q.measure {
        Measure::Noun(noun) => vec![noun.clone()],
        _ => Vec::new(),
    };
    let subject = claim
        .content
        .iter()
        .map(|(f, _)| f)
        .find(|f| !counted.contains(f));
    let subject_before = |p: &Quantity| {
        subject.is_some_and(|s| {
            sentence.forms[..p.span.start.min(sentence.forms.len())]
                .iter()
                .flatten()
                .any(|f| f == s)
        })
    };
    let near = |p: &Quantity, form: &str| form_near(sentence, p, form);
    let anchors = neighbours(claim, q.span.clone(), &[], true);
    let anchored = |p: &Quantity| {
        anchors
            .iter()
            .any(|(form, _)| near(p, form) && (!counted.contains(form) || subject_before(p)))
    };
    // Any claim word close by ties the claim's own value to its place: the nearest three
    // neighbours may be paraphrased away ("abandoned" for "dropped") while the subject stays
    // ("but Halvern dropped them in 2023"). A rival needs the stricter tie to conflict.
    let near_claim_word = |p: &Quantity| {
        claim
            .content
            .iter()
            .any(|(c, _)| near(p, c) && (!counted.contains(c) || subject_before(p)))
    };
    // A number in the other arm of a comparison ("compared with its rival, which carried 2.9
    // million") is the rival's: it neither states nor flips the claim's value unless the claim
    // itself compares or contrasts ("28 nm rather than 5 nm"), or names something that arm
    // names.
    let arm = |p: &Quantity| sentence.aside.get(p.span.start).copied().unwrap_or(false);
    // A claim that sets two figures side by side ("29% versus 38%", "1.4 bytes against 2.1")
    // compares as much as one with "than".
    let reaches_arm = claim.comparative
        || (0..claim.forms.len()).any(|i| {
            matches!(claim.form(i), Some("versus" | "vs"))
                && claim.quantities.iter().any(|c| c.span.end == i)
                && claim.quantities.iter().any(|c| c.span.start == i + 1)
        })
        || claim.cues.iter().any(|c| c.kind == CueKind::Contrast)
        || sentence
            .entities
            .iter()
            .any(|e| arm_of(sentence, e) && claim.mentions(e));
    // A year of someone's birth or death ("Sir Alexander Fleming (6 August 1881 – 11 March
    // 1955)", "who was born in 1881") dates a life, not the claim's event, unless the claim
    // speaks of a birth or a death itself.
    // A death dates a life only as a lifespan's dash, right after the birth date: "on the
    // anniversary of her death in 1871" dates another event by it (forms do not tell "death"
    // from "died").
    let (born, died) = life_forms();
    let claim_about_life = claim.vocabulary.contains(born) || claim.vocabulary.contains(died);
    let life_date = |p: &Quantity| {
        !claim_about_life
            && p.measure == Measure::Year
            && (p.at.saturating_sub(LIFE_REACH)..p.at).any(|i| match sentence.form(i) {
                Some(f) if f == born => true,
                Some(f) if f == died => sentence.quantities.iter().any(|r| r.span.end == i),
                _ => false,
            })
    };
    let own: Vec<Quantity> = sentence
        .quantities
        .iter()
        .filter(|p| reaches_arm || !arm(p))
        .filter(|p| !life_date(p))
        .cloned()
        .collect();
    let same = |p: &&Quantity| compare::same(q, p);
    // A sentence number that another of the claim's numbers matches is spoken for.
    let spoken_for = |p: &&Quantity| {
        claim
            .quantities
            .iter()
            .any(|other| !std::ptr::eq(other, q) && compare::same(other, p))
    };
    // A figure right after a name the claim gives in the possessive ("taking 25 minutes ...
    // against Rohan's 9") is that one's, when the claim names no other of the sentence's
    // names: the claim's figure for that name is the possessed one, not one the sentence
    // gives another (the writer's 25). Not a figure another of the claim's figures matches.
    let claim_names_only = |e: &Entity| {
        claim.mentions(e)
            && sentence
                .entities
                .iter()
                .all(|other| std::ptr::eq(other, e) || !claim.mentions(other))
    };
    let possessed = |p: &Quantity| {
        sentence.entities.iter().any(|e| {
            e.span.end == p.span.start
                && e.span.end > 0
                && sentence.is_possessive(e.span.end - 1)
                && claim_names_only(e)
        })
    };
    if own
        .iter()
        .any(|p| possessed(p) && compare::same_slot(q, p, true) && !same(&p) && !spoken_for(&p))
    {
        return NumberFit::Conflict;
    }
    // A figure the claim gives as another's by name ("four times Lodestore's 256 MiB limit")
    // is that one's: a sentence that never names it holds no rival of the figure.
    let stated_here = own.iter().any(|p| same(&p));
    if !stated_here && owned_by_unnamed(claim, q, sentence) {
        return NumberFit::Missing;
    }
    // A claim that adds figures up ("between them own close to a fifth of the company") states
    // their sum, which the sentence leaves to its reader ("which owns 11.2% ..., and ...,
    // with 8.4%").
    let stated = own.iter().any(|p| same(&p));
    if !stated && adds_up(claim) && sum_of_two(q, &own) {
        return NumberFit::Match;
    }
    // A relative change the sentence leaves to its reader: it gives the two values.
    if !stated && relative_change(claim, q, &own) {
        return NumberFit::Match;
    }
    // A span on either side of a moment is twice as long in all ("roughly two hours either
    // side of low water" for "about four hours, centred on low water").
    if !stated
        && own.iter().any(|p| {
            either_side(sentence, p)
                && compare::same(q, &restated(p, 2.0 * p.value, 2.0 * p.tolerance))
        })
    {
        return NumberFit::Match;
    }
    // The claim's figure dated by a year or a month ("48,000 applications for fall 2024", "61%
    // full at the end of August") is not the sentence's equal figure that only another year or
    // month dates ("48,000 applications for fall 2023", "61% of capacity at the end of July"):
    // that is another occasion's, however the sentence names the claim's date for something
    // else. Nor is such a figure of another value a rival ("16.9 million passengers in 2022"
    // against "18.4 million passengers in 2023").
    let claim_months = months_near(claim, &q.span);
    let dating_years = |text: &Analysis, at: &Range<usize>| -> Vec<f64> {
        text.quantities
            .iter()
            .filter(|y| y.measure == Measure::Year && y.span != *at && dates(text, &y.span, at))
            .map(|y| y.value)
            .collect()
    };
    let claim_dating_years = dating_years(claim, &q.span);
    let dated_apart = |p: &Quantity| {
        let years = dating_years(sentence, &p.span);
        let months = months_near(sentence, &p.span);
        (!claim_dating_years.is_empty()
            && !years.is_empty()
            && !years.iter().any(|y| claim_dating_years.contains(y)))
            || (!claim_months.is_empty()
                && !months.is_empty()
                && !months.iter().any(|m| claim_months.contains(m)))
    };
    // Read once per number of the sentence: every rival test below asks it again.
    let apart: Vec<Range<usize>> = if matches!(q.measure, Measure::Year | Measure::Day(_))
        || (claim_dating_years.is_empty() && claim_months.is_empty())
    {
        Vec::new()
    } else {
        own.iter()
            .filter(|p| dated_apart(p))
            .map(|p| p.span.clone())
            .collect()
    };
    let dated_otherwise = |p: &Quantity| apart.contains(&p.span);
    // A rate ("a little under six an over", "£2.40 a kilo") is a slot of its own: no rival of
    // a claim's figure that is not one ("needed 136 runs from 23 overs"). Not the other way
    // round: a page gives "a week" with its first figure and leaves it out of the next ("cost
    // £96.40 a week in Kestrel Bay; in Millbrook it cost £88.10").
    let claim_rate = is_rate(claim, q);
    let rate_apart = |p: &Quantity| !claim_rate && is_rate(sentence, p);
    // Another value of the claim's kind that no other claim number accounts for.
    let other_value = |p: &&Quantity| {
        !compare::same(q, p)
            && !spoken_for(p)
            && compare::same_slot(q, p, true)
            && !dated_otherwise(p)
            && !rate_apart(p)
            && !dates_undated_event(claim, q, sentence, p)
    };
    // The other end of a change the claim's value ends or starts ("rose from $2.7 billion to
    // $13.2 billion") is its value at another time, not a rival.
    let matching_end = |p: &Quantity| {
        own.iter()
            .filter(|m| compare::same(q, m))
            .any(|m| from_to(sentence, p, m) || from_to(sentence, m, p))
    };
    // A value a change started from ("up from every 20 minutes") is the earlier one: no rival
    // of a claim's value, unless the claim's too is where a change started.
    let claim_earlier = earlier_value(claim, q);
    let earlier_rival = |p: &Quantity| !claim_earlier && earlier_value(sentence, p);
    // A bare count is no rival of a measured amount that the sentence states ("a population
    // of around 800" beside "0.44 square kilometres" against "44 hectares"): it may count
    // anything. Without the amount, a count close to the claim's words still conflicts.
    // Nor is it a rival of an amount of money, which a text gives with its currency.
    let measured_stated = matches!(q.measure, Measure::Unit(_)) && stated;
    let money =
        matches!(&q.measure, Measure::Unit(u) if u.dimension == lexicon::Dimension::Currency);
    let measured_against_bare =
        |p: &Quantity| (measured_stated || money) && p.measure == Measure::Bare;
    // The whole of a part that states the claim's value ("Two of the 14 authors" for "one of
    // two authors who ...") is where the part is counted from, not a rival of it.
    let whole_of_stated = |p: &Quantity| {
        own.iter().filter(|m| compare::same(q, m)).any(|m| {
            m.share
                .is_some_and(|s| (s - 100.0 * m.value / p.value).abs() < 1e-9)
                && p.at > m.at
                && p.at <= m.span.end + 3
        })
    };
    let rival = |p: &&Quantity| {
        other_value(p)
            && anchored(p)
            && !matching_end(p)
            && !whole_of_stated(p)
            && !earlier_rival(p)
            && !measured_against_bare(p)
    };
    // The claim's value as one end of a change ("declined to $3.8bn") that the sentence gives
    // as the other end ("fell from $3.8bn to $3.1bn", "fell 18% to $3.1bn from $3.8bn"): the
    // claim's end holds the sentence's other value.
    if let Some(end) = change_end(claim, q, true) {
        let ends = |p: &Quantity| change_end(sentence, p, false);
        let matching: Vec<&Quantity> = own.iter().filter(same).collect();
        // The same end of a change states it, whatever the other end ("declined from $3.8bn"
        // and "fell to $3.1bn from $3.8bn").
        if matching.iter().any(|m| ends(m) == Some(end)) {
            return NumberFit::Match;
        }
        let swapped = !matching.is_empty()
            && matching.iter().all(|m| ends(m).is_some_and(|e| e != end))
            && own.iter().any(|r| {
                other_value(&r) && compare::same_slot(q, r, false) && ends(r) == Some(end)
            });
        if swapped {
            return NumberFit::Conflict;
        }
    }
    if let Some(b) = bound {
        let in_bound = |p: &&Quantity| sentence.clauses.of(p.span.start) == Some(b);
        let (here, elsewhere): (Vec<&Quantity>, Vec<&Quantity>) =
            own.iter().filter(same).partition(in_bound);
        let elsewhere_about_else = elsewhere.iter().all(|p| {
            sentence
                .clauses
                .of(p.span.start)
                .is_some_and(|c| clause::about_else(claim, sentence, c))
        });
        let rival_here = own
            .iter()
            .filter(in_bound)
            .any(|p| other_value(&p) && compare::same_slot(q, p, false) && near_claim_word(p));
        if here.is_empty() && !elsewhere.is_empty() && elsewhere_about_else && rival_here {
            return NumberFit::Conflict;
        }
    }
    // Likewise the claim's number beside another of its figures ("grew 38% in 2023") is the
    // sentence's equal number beside that figure's equal ("in 2023, up 38% from 2022"), even
    // when a later clause ties the claim's words to another value ("though deliveries fell
    // in 2024").
    let partners: Vec<&Quantity> = claim
        .quantities
        .iter()
        .filter(|c| c.span != q.span && close(&c.span, &q.span))
        .collect();
    let paired = |p: &Quantity| {
        sentence.quantities.iter().any(|r| {
            r.span != p.span
                && close(&r.span, &p.span)
                && partners.iter().any(|c| compare::same(c, r))
        })
    };
    // The word that governs the claim's number ("died in 1870", "completed in 1984") governs
    // another value in the sentence while the claim's value sits under a word the claim does
    // not use ("(3 May 1870 – 9 June 1941)", "completed in 1972 ...; Iron Gate II followed in
    // 1984"): the claim's slot holds the other value, and its own value is another slot's.
    if let Some(head) = governing_word(claim, q.span.start) {
        let governed = |p: &Quantity| governing_word(sentence, p.span.start) == Some(head);
        let matching: Vec<&Quantity> = own.iter().filter(same).collect();
        // The claim's value under another of the claim's words ("signed it in 2021" for
        // "signed the pledge in 2021") is still the claim's.
        let governed_by_claim = |p: &Quantity| {
            governing_word(sentence, p.span.start).is_some_and(|w| claim.is_content(w))
        };
        // Nor is it another slot's when the claim's words after it follow it there too
        // ("finished 5 points ahead of Arsenal" against "finished on 89 points, 5 points
        // ahead of Arsenal"). Words before it do not count: a name before a lifespan's year
        // ("Curie (1867-1934) died in 1934") is no sign that the year is the death's.
        let followed = |p: &Quantity| {
            anchors.iter().any(|(form, side)| {
                *side == Side::After
                    && !counted.contains(form)
                    && sentence.forms.iter().enumerate().any(|(i, f)| {
                        f.as_deref() == Some(form.as_str())
                            && i >= p.span.end
                            && i < p.span.end + NUMBER_REACH
                    })
            })
        };
        // Nor when the claim's other figure stands beside it there too ("for 12 seconds over
        // 120 feet" for "lasted 12 seconds and covered 120 feet", against a later "covered
        // 852 feet in 59 seconds"): the pair is the claim's.
        if !matching.is_empty()
            && !matching
                .iter()
                .any(|p| governed_by_claim(p) || followed(p) || paired(p))
        {
            // The same word may govern counts of two things ("won 17 singles titles, among
            // them two majors"): only a count of the claim's own thing holds its slot.
            let rival = own
                .iter()
                .filter(|p| {
                    other_value(p)
                        && compare::same_slot(q, p, false)
                        && governed(p)
                        && !matching_end(p)
                })
                .find(|r| !matching.iter().any(|m| listed_together(sentence, r, m)));
            if rival.is_some() {
                return NumberFit::Conflict;
            }
        }
    }
    // The claim's number dated by a year beside it ("26.8 million vehicles crossed in 2024")
    // is the sentence's number beside the same year ("in 2024 the figure was 26.8 million"),
    // whatever words the sentence puts around it.
    let years_near = |text: &Analysis, at: &Range<usize>| -> Vec<f64> {
        text.quantities
            .iter()
            .filter(|y| y.measure == Measure::Year && y.span != *at && close(&y.span, at))
            .map(|y| y.value)
            .collect()
    };
    let claim_years = years_near(claim, &q.span);
    let dated = |p: &Quantity| {
        q.measure != Measure::Year
            && years_near(sentence, &p.span)
                .iter()
                .any(|y| claim_years.contains(y))
    };
    // A word that marks a time's role ("until", "since") before the claim's value and before
    // the sentence's equal value puts both in one slot ("not mass-produced until the 1940s"
    // against "it was not until 1942 that ..."), however far the claim's other words are.
    let marker = time_marker(claim, q.span.start);
    let marked = |p: &Quantity| marker.is_some() && time_marker(sentence, p.span.start) == marker;
    // A value a change started from ("was 2.9% in October, down from 4.3% in September") is
    // the earlier value: it states a claim's value only if the claim too gives it as where a
    // change started ("slowed to 3% from 8.4%").
    // A year beside another value of the kind of the claim's dated figure ("1,870 pairs in
    // 2019" against "2,040 pairs by 2024") dates that other value: a point earlier or later in
    // a series, not another date for the claim's figure.
    let dates_other_value = |p: &Quantity| {
        q.measure == Measure::Year
            && sentence.quantities.iter().any(|r| {
                r.span != p.span
                    && r.measure != Measure::Year
                    && close(&r.span, &p.span)
                    && partners.iter().any(|c| compare::same_slot(c, r, true))
                    && !partners.iter().any(|c| compare::same(c, r))
            })
    };
    let current = |p: &&Quantity| claim_earlier || !earlier_value(sentence, p);
    if described_at_rival(claim, q, sentence, &own, &counted, |r| {
        other_value(&r)
            && compare::same_slot(q, r, false)
            && !matching_end(r)
            && !earlier_rival(r)
            && !dates_other_value(r)
    }) {
        return NumberFit::Conflict;
    }
    if own
        .iter()
        .filter(same)
        .filter(current)
        .filter(|p| !dated_otherwise(p))
        .any(|p| anchored(p) || near_claim_word(p) || dated(p) || paired(p) || marked(p))
    {
        NumberFit::Match
    } else if own.iter().any(|p| rival(&p) && !dates_other_value(p)) {
        NumberFit::Conflict
    } else {
        // The loose fit, too, leaves out the numbers the claim's other numbers account for
        // ("50% in 18 minutes and a full charge in 47 minutes" against a sentence that stops
        // at the 18 minutes).
        let free: Vec<Quantity> = own
            .iter()
            .filter(|p| !spoken_for(p) && !dated_otherwise(p))
            .filter(|p| same(p) || !dates_undated_event(claim, q, sentence, p))
            .cloned()
            .collect();
        match compare::fit(q, &free) {
            // A lone number of the same kind with none of the claim's words near it may measure
            // anything ("the plant draws 90 MW" against a claim about a wind farm's capacity):
            // not an aligned conflict, so nothing is decided by it.
            // Nor does a value a change started from.
            NumberFit::Conflict
                if !free
                    .iter()
                    .filter(|p| compare::same_slot(q, p, false) && !earlier_rival(p))
                    .any(near_claim_word) =>
            {
                NumberFit::Missing
            }
            fit => fit,
        }
    }
}

/// Whether the words that describe the claim's figure sit around another value of its kind,
/// and not around the sentence's equal value: "is 47% above Meridian's closing price ... and
/// 62% above its average price" against "a 62% premium to Meridian's closing share price";
/// "the average temperature at Ashwell was 4.1°C over the three winters of the survey, against
/// 3.2°C over the thirty years" against "over the three winters ... recorded an average of
/// 3.2°C". The equal value is another thing's, and the rival fills the claim's slot.
///
/// The rival must carry at least two more of the claim's words than every equal value, and
/// every word the equal value carries. Dates and counted nouns say when and what kind, not
/// which thing.
fn described_at_rival(
    claim: &Analysis,
    q: &Quantity,
    sentence: &Analysis,
    own: &[Quantity],
    counted: &[String],
    is_rival: impl Fn(&Quantity) -> bool,
) -> bool {
    // Dates and bare figures say too little of themselves to tell whose they are.
    if matches!(
        q.measure,
        Measure::Year | Measure::Day(_) | Measure::Clock(_) | Measure::Bare
    ) {
        return false;
    }
    let equal: Vec<&Quantity> = own.iter().filter(|p| compare::same(q, p)).collect();
    // The rival shares a clause with an equal value ("47% above the closing price ... and 62%
    // above its average price"): across clauses ("it now stands 330 metres high; when
    // completed in 1889 it was 312 metres") each value has its own subject or time.
    let with_equal = |r: &Quantity| {
        equal
            .iter()
            .any(|p| sentence.clauses.of(p.at) == sentence.clauses.of(r.at))
    };
    // The cheap tests first: this runs for every figure of every sentence weighed.
    let rivals: Vec<&Quantity> = own
        .iter()
        .filter(|r| r.measure == q.measure && with_equal(r) && is_rival(r))
        .collect();
    if rivals.is_empty() {
        return false;
    }
    // The claim's words around its figure, in its clause: what the figure is of. Words
    // further off describe the claim's other figures ("..., the final full year of tolling").
    let describing_words: Vec<&str> = claim
        .content
        .iter()
        .filter(|(_, at)| {
            *at + NUMBER_REACH >= q.span.start
                && *at < q.span.end + NUMBER_REACH
                && claim.clauses.of(*at) == claim.clauses.of(q.at)
        })
        .map(|(form, _)| form.as_str())
        .filter(|form| {
            !counted.iter().any(|c| c == form)
                && !lexicon::MONTHS.contains(form)
                && !lexicon::WEEKDAYS.contains(form)
        })
        .collect();
    let claim_years: Vec<f64> = claim
        .quantities
        .iter()
        .filter(|y| y.measure == Measure::Year && close(&y.span, &q.span))
        .map(|y| y.value)
        .collect();
    // Within the figure's own clause: "38 metres high and 320 metres long, whereas Scarrow
    // Dam is 27 metres high" puts "Scarrow" near 320 only across the clause's end.
    let words_near = |p: &Quantity| -> Vec<String> {
        let mut words: Vec<String> = describing_words
            .iter()
            .copied()
            .filter(|form| {
                sentence.forms.iter().enumerate().any(|(i, f)| {
                    f.as_deref() == Some(*form)
                        && i + NUMBER_REACH >= p.span.start
                        && i < p.span.end + NUMBER_REACH
                        && sentence.clauses.of(i) == sentence.clauses.of(p.at)
                })
            })
            .map(str::to_string)
            .collect();
        // A year of the claim's that dates this value ("in 2024 the figure was 26.8 million")
        // describes it as much as a word does.
        words.extend(
            sentence
                .quantities
                .iter()
                .filter(|y| y.measure == Measure::Year && close(&y.span, &p.span))
                .filter(|y| claim_years.contains(&y.value))
                .map(|y| y.value.to_string()),
        );
        words
    };
    let at_equal: Vec<Vec<String>> = equal.iter().map(|p| words_near(p)).collect();
    rivals.into_iter().any(|r| {
        let at_rival = words_near(r);
        at_equal.iter().all(|at_equal| {
            at_equal.iter().all(|w| at_rival.contains(w))
                && at_rival.iter().filter(|w| !at_equal.contains(w)).count() >= 2
        })
    })
}

/// Whether `sentence` gives the claim's value `q` with one of the claim's words close by, not
/// only the noun it counts: tied to what the claim says, not an equal figure that may measure
/// anything ("1.4 litres a minute" for "version 1.4").
pub fn stated_beside_claim_words(claim: &Analysis, q: &Quantity, sentence: &Analysis) -> bool {
    let counted = match &q.measure {
        Measure::Noun(noun) => Some(noun.as_str()),
        _ => None,
    };
    sentence
        .quantities
        .iter()
        .filter(|p| compare::same(q, p))
        .any(|p| {
            claim
                .content
                .iter()
                .map(|(form, _)| form.as_str())
                .filter(|form| Some(*form) != counted)
                .any(|form| form_near(sentence, p, form))
        })
}

/// Whether `text` has `form` within [`NUMBER_REACH`] lexemes of its quantity `p`.
pub(super) fn form_near(text: &Analysis, p: &Quantity, form: &str) -> bool {
    text.forms.iter().enumerate().any(|(i, f)| {
        f.as_deref() == Some(form)
            && i + NUMBER_REACH >= p.span.start
            && i < p.span.end + NUMBER_REACH
    })
}

/// Whether the figure `q` is given per one of something: "six an over", "£2.40 a kilo", "30
/// per day" (the word after "a", "an" or "per" is what it is per, not another number).
/// A year or a date is none ("in 2020 a new law"), nor a figure before a noun phrase that
/// "a" opens ("by 45 a few days later").
fn is_rate(text: &Analysis, q: &Quantity) -> bool {
    !matches!(
        q.measure,
        Measure::Year | Measure::Day(_) | Measure::Clock(_)
    ) && matches!(text.form(q.span.end), Some("a" | "an" | "per"))
        && text.form(q.span.end + 1).is_some_and(|w| {
            w.chars().all(char::is_alphabetic) && !NOUN_PHRASE_OPENERS.contains(&w)
        })
}

/// Words after "a" that open a noun phrase rather than name what a figure is per.
const NOUN_PHRASE_OPENERS: &[&str] = &[
    "new", "few", "lot", "little", "bit", "couple", "number", "further", "total", "record", "more",
    "second", "third", "single", "great", "long", "short", "year", "decade", "the",
];

/// How far from a number a month that dates it may sit ("61% in July"). Eight lexemes ("61%
/// of capacity at the end of July") reached a rival of another clause's in the same month and
/// made a contradiction of a sentence that states neither.
const MONTH_REACH: usize = NUMBER_REACH;

/// The month names that date the number at `at`: within [`MONTH_REACH`] lexemes, with no
/// conjunction or punctuation between ("may" left out: it is more often the verb).
fn months_near<'a>(text: &'a Analysis, at: &Range<usize>) -> Vec<&'a str> {
    let before = (at.start.saturating_sub(MONTH_REACH)..at.start)
        .rev()
        .take_while(|&i| unbroken(text, i));
    let after =
        (at.end..(at.end + MONTH_REACH).min(text.forms.len())).take_while(|&i| unbroken(text, i));
    before
        .chain(after)
        .filter_map(|i| text.form(i))
        .filter(|f| lexicon::MONTHS.contains(f) && *f != "may")
        .collect()
}

/// Whether `q` is the value a change started from: "from" before it (an article or a hedge
/// between), a word of change shortly before that ("down from 4.3%", "up 9% from 168.6
/// million", "fell to 3% from 8.4%"); not "loans from 23 lenders".
fn earlier_value(text: &Analysis, q: &Quantity) -> bool {
    const CHANGES: &[&str] = &[
        "up",
        "down",
        "rose",
        "fell",
        "risen",
        "fallen",
        "increase",
        "decrease",
        "compar",
        // "a slowdown from 3.8%", "cut from 20 to 12", "growth from 3%".
        "slow",
        "declin",
        "drop",
        "grew",
        "grow",
        "climb",
        "jump",
        "slump",
        "surg",
        "soar",
        "plung",
        "cut",
        "reduc",
        "rais",
        "acceler",
        "decelerat",
        // "was halved from 40". Not words of extent ("narrows from 40 cm at the base", "deepens
        // from 2 metres at the mouth"), which run over space as often as over time.
        "halv",
    ];
    let Some(from) = (q.span.start.saturating_sub(3)..q.span.start)
        .rev()
        .find(|&i| text.form(i) == Some("from"))
    else {
        return false;
    };
    // "was doubled from 256 in 3.0": the value right after "from" started the change, not one
    // further on.
    if text
        .quantities
        .iter()
        .any(|r| r.span.start > from && r.span.start < q.span.start)
    {
        return false;
    }
    (from.saturating_sub(4)..from).any(|i| {
        text.form(i)
            .is_some_and(|f| CHANGES.iter().any(|c| f.starts_with(c)))
    }) || text
        .quantities
        // "was doubled from 256": a verb of multiplying is read as a ratio, not a word; only
        // its past or present participle ("doubled", "tripling"), not "double rooms".
        .iter()
        .any(|r| {
            let verb = r.text.to_lowercase();
            r.ratio
                && r.span.end <= from
                && r.span.end + 4 > from
                && (verb.ends_with("ed") || verb.ends_with("ing"))
        })
}

/// The preposition right before the number at lexeme `start` (an article between) when it
/// marks the role of a time: the end or start of a span, or what came before or after.
fn time_marker(a: &Analysis, start: usize) -> Option<&str> {
    const MARKERS: &[&str] = &["until", "till", "since", "before", "after"];
    let mut i = start.checked_sub(1)?;
    if a.form(i) == Some("the") {
        i = i.checked_sub(1)?;
    }
    a.form(i).filter(|f| MARKERS.contains(f))
}

/// Whether two numbers' spans are within reach of each other.
pub(super) fn close(a: &Range<usize>, b: &Range<usize>) -> bool {
    a.start < b.end + NUMBER_REACH && b.start < a.end + NUMBER_REACH
}

/// Whether the year at `year` dates the value at `value` in `text`: close by, with no
/// conjunction or punctuation between ("1,870 pairs in 2019 and about 2,040" dates the 1,870
/// only; "sold it from 1903; within a decade" dates nothing after the semicolon).
pub(super) fn dates(text: &Analysis, year: &Range<usize>, value: &Range<usize>) -> bool {
    let between = if year.start < value.start {
        year.end..value.start
    } else {
        value.end..year.start
    };
    close(year, value) && between.clone().all(|i| unbroken(text, i))
}

/// Whether lexeme `i` of `text` neither joins clauses nor breaks the text: no conjunction and
/// no punctuation, so a date on one side of it may date a figure on the other.
fn unbroken(text: &Analysis, i: usize) -> bool {
    !matches!(text.form(i), Some("and" | "or" | "but" | "while"))
        && text.breaks.get(i).copied().flatten().is_none()
}

/// How many function words may stand between a number and the content word that governs it
/// ("completed in 1984", "died on 9 June 1941").
const GOVERNOR_GAP: usize = 2;

/// The content word right before the number that starts at lexeme `start`, across function
/// words and the lexemes of other quantities ("born 3 May 1870": "born" for 1870), but not
/// across punctuation or a conjunction: in "£6.4 million from the council and £3.2 million
/// from a levy" the council's word does not govern the levy's sum. The noun a number counts
/// is part of that number ("2,040 pairs by 2024": "recovered", not "pairs", governs the year).
fn governing_word(a: &Analysis, start: usize) -> Option<&str> {
    let mut gap = 0;
    for i in (0..start.min(a.forms.len())).rev() {
        let counted = |q: &Quantity| {
            q.span.end == i && matches!(&q.measure, Measure::Noun(n) if a.form(i) == Some(n))
        };
        if a.quantities
            .iter()
            .any(|q| q.span.contains(&i) || counted(q))
        {
            continue;
        }
        match a.forms[i].as_deref() {
            Some("and" | "or" | "but") => return None,
            Some(form) if a.is_content(form) => return Some(form),
            Some(_) if gap < GOVERNOR_GAP => gap += 1,
            _ => return None,
        }
    }
    None
}

/// Whether the claim's figure `q` belongs by name to something it is compared with that
/// `sentence` never names: right after a possessive name ("four times Lodestore's 256 MiB
/// limit"), or as a ratio of such a figure ("four times Lodestore's").
fn owned_by_unnamed(claim: &Analysis, q: &Quantity, sentence: &Analysis) -> bool {
    static TIMES: OnceLock<String> = OnceLock::new();
    let times = TIMES.get_or_init(|| normalise("times").form);
    let ratio = claim.form(q.span.end) == Some(times.as_str());
    let possessive = |at: &dyn Fn(&Entity) -> bool| {
        claim
            .entities
            .iter()
            .find(|e| at(e) && e.span.end > 0 && claim.is_possessive(e.span.end - 1))
    };
    let before = possessive(&|e| e.span.end == q.span.start);
    let after = ratio
        .then(|| possessive(&|e| e.span.start == q.span.end + 1))
        .flatten();
    // Only a party the claim compares with owns a figure apart ("four times Lodestore's",
    // "more than Ferrite's", "against Orland's"): the claim's own subject ("Solvik's 2024
    // profit", "In California, Newsom's $300 billion budget") is what the whole claim is
    // about, which a sentence of its page may leave unnamed.
    let compared = |e: &&Entity| {
        e.span
            .start
            .checked_sub(1)
            .and_then(|p| claim.form(p))
            .is_some_and(|w| {
                w == times.as_str() || matches!(w, "than" | "against" | "versus" | "vs" | "with")
            })
    };
    before
        .or(after)
        .filter(compared)
        .is_some_and(|e| !sentence.mentions(e))
}

/// Whether the sentence's year `p` dates an event the claim names without a year, not the one
/// the claim's year `q` dates: "died in Greece in April 1824" against "after quitting England
/// in 1816, died in Greece" dates the death, which the claim leaves undated, so 1824 is no
/// rival of the claim's 1816 ("until the liberation in 1945" against "gave up her post in 1942
/// and ... until the liberation").
fn dates_undated_event(claim: &Analysis, q: &Quantity, sentence: &Analysis, p: &Quantity) -> bool {
    if q.measure != Measure::Year || p.measure != Measure::Year {
        return false;
    }
    let Some(event) = event_word(sentence, p.span.start) else {
        return false;
    };
    let year_after = |j: usize| {
        claim.quantities.iter().any(|y| {
            y.measure == Measure::Year && y.span.start > j && y.span.start <= j + NUMBER_REACH
        })
    };
    // The undated event stands in another clause of the claim than its year: across a break
    // or a conjunction ("in 1816, died in Greece", "in 1942 and went on ... until the
    // liberation"). In one clause ("travelled to Stockholm to collect the prize in December
    // 1945") the year dates the whole of it.
    let apart = |j: usize| {
        let (from, to) = (j.min(q.span.start), j.max(q.span.start));
        (from..to).any(|i| {
            claim.breaks.get(i).is_some_and(Option::is_some)
                || matches!(claim.form(i), Some("and" | "but" | "while" | "whereas"))
        })
    };
    // A year with no word of its own before it ("In 1995, the company launched ...") dates
    // the whole claim, and any other year of the event is a rival. So is a year that has the
    // claim year's own word before it too ("moved to London from Vienna in 1939" against
    // "Born in Vienna, she moved to London in 1938").
    let Some(own) = event_word(claim, q.span.start) else {
        return false;
    };
    let own_near = (p.span.start.saturating_sub(NUMBER_REACH)..p.span.start)
        .any(|i| sentence.form(i) == Some(own));
    own != event
        && !own_near
        && claim
            .forms
            .iter()
            .enumerate()
            .any(|(j, f)| f.as_deref() == Some(event) && !year_after(j) && apart(j))
}

/// The content word a date's year stands under, past a month or a day before it ("died in
/// Greece in April 1824" gives "greece").
fn event_word(a: &Analysis, start: usize) -> Option<&str> {
    let mut at = start;
    loop {
        let word = governing_word(a, at)?;
        let is_date = lexicon::MONTHS.contains(&word) || lexicon::WEEKDAYS.contains(&word);
        if !is_date {
            return Some(word);
        }
        at = (0..at).rev().find(|&i| a.form(i) == Some(word))?;
    }
}

/// Whether the sentence's numbers `a` and `b` are the two ends of a change: "from a to b"
/// (a hedge may stand before `b`: "from 1,950 tonnes to about 700").
pub(super) fn from_to(sentence: &Analysis, a: &Quantity, b: &Quantity) -> bool {
    joined_by(sentence, a, b, "from", "to")
}

/// Whether the sentence's `a` and `b` are the two ends of a change, read loosely for the
/// direction of a difference: "from a to b", or "from" a few words before `a` and "to" right
/// before `b` ("deepened from an average of 62 centimetres across the four sites in 2016 to
/// 81 centimetres").
pub(super) fn change_from_to(sentence: &Analysis, a: &Quantity, b: &Quantity) -> bool {
    if from_to(sentence, a, b) {
        return true;
    }
    let form = |i: usize| sentence.form(i).unwrap_or("");
    let hedge = |i: usize| is_hedge(form(i));
    let to_before_b = b.span.start > a.span.end
        && (1..=2).any(|back| {
            b.span
                .start
                .checked_sub(back)
                .is_some_and(|i| form(i) == "to" && (i + 1..b.span.start).all(hedge))
        });
    let from_before_a =
        (a.span.start.saturating_sub(FROM_REACH)..a.span.start).any(|i| form(i) == "from");
    to_before_b
        && from_before_a
        && !(a.span.end..b.span.start).any(|i| form(i) == "from" || clause_break(sentence, i))
}

/// Whether `form`, a text's normalised form, is a hedge ("about", "roughly"): the
/// [`lexicon::HEDGES`] as written and as normalised ("roughly" is read as "rough"), folded once.
pub(super) fn is_hedge(form: &str) -> bool {
    static HEDGE_FORMS: OnceLock<Vec<String>> = OnceLock::new();
    HEDGE_FORMS
        .get_or_init(|| {
            lexicon::HEDGES
                .iter()
                .flat_map(|h| [h.to_string(), fold(h)])
                .collect()
        })
        .iter()
        .any(|h| h == form)
}

/// How far before a change's first value its "from" may stand ("from an average of 62").
const FROM_REACH: usize = 4;

/// Whether the sentence's `b`, given after `a`, is the value `a` is measured against: the
/// earlier value of a change ("38 grams in 2025, compared with 21 grams in 2016", "£189, up
/// from £159", "to 48,200 from about 57,900"), so that `a` is the later one.
pub(super) fn measured_against(sentence: &Analysis, a: &Quantity, b: &Quantity) -> bool {
    if b.span.start < a.span.end {
        return false;
    }
    let word = |back: usize| sentence.form_before(b.span.start, back);
    let compared = matches!(word(1), "with" | "to") && word(2).starts_with("compar");
    compared || to_from(sentence, a, b) || earlier_value(sentence, b)
}

/// Whether `first` stands right before `a`, `then` right after it, and `b` one or two
/// lexemes after that (a hedge or an article between).
fn joined_by(sentence: &Analysis, a: &Quantity, b: &Quantity, first: &str, then: &str) -> bool {
    let opens = a
        .span
        .start
        .checked_sub(1)
        .is_some_and(|p| sentence.form(p) == Some(first));
    opens
        && sentence.form(a.span.end) == Some(then)
        && (a.span.end + 1..=a.span.end + 2).contains(&b.span.start)
}

/// Which end of a change the number `q` of `text` is: `To` after "to" ("fell 18% to $3.1bn"),
/// `From` after "from", a hedge allowed between ("to about 700"). In a claim (`claim_side`),
/// "to" counts only after a word of rise or fall ("declined to"), since "to" marks much else
/// ("sold to 40 countries"); in a sentence, each end counts only beside the other end of the
/// same change ("to $3.1bn from $3.8bn", "from 1,950 to 700").
fn change_end(text: &Analysis, q: &Quantity, claim_side: bool) -> Option<ChangeEnd> {
    let mut before = q.span.start.checked_sub(1)?;
    if text.form(before).is_some_and(is_hedge) {
        before = before.checked_sub(1)?;
    }
    let end = match text.form(before)? {
        "to" => ChangeEnd::To,
        "from" => ChangeEnd::From,
        _ => return None,
    };
    if claim_side {
        let changes = change_words();
        let moved = (before.saturating_sub(CHANGE_REACH)..before)
            .any(|i| text.form(i).is_some_and(|f| changes.iter().any(|c| c == f)));
        return (end == ChangeEnd::From || moved).then_some(end);
    }
    // The other end, in either order: "from X to Y" or "to Y from X".
    let other = text.quantities.iter().any(|p| {
        p.span != q.span
            && match end {
                ChangeEnd::To => from_to(text, p, q) || to_from(text, q, p),
                ChangeEnd::From => from_to(text, q, p) || to_from(text, p, q),
            }
    });
    other.then_some(end)
}

/// Whether the sentence's numbers `a` and `b` are a change's new and old value: "to a from b"
/// (a hedge or an article may stand before `b`: "to 48,200 from about 57,900").
fn to_from(sentence: &Analysis, a: &Quantity, b: &Quantity) -> bool {
    joined_by(sentence, a, b, "to", "from")
}

/// The two ends of a change: see [`change_end`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ChangeEnd {
    From,
    To,
}

/// How far before its "to" a claim's word of change may sit ("fell by a fifth to").
const CHANGE_REACH: usize = 4;

/// Normalised comparatives of increase and of decrease ([`lexicon::MORE`] and
/// [`numbers::MORE_BY`], [`lexicon::LESS`] and [`numbers::LESS_BY`]): the direction of a
/// claim's relative change.
fn comparative_forms() -> &'static (Vec<String>, Vec<String>) {
    static FORMS: OnceLock<(Vec<String>, Vec<String>)> = OnceLock::new();
    FORMS.get_or_init(|| {
        let forms = |a: &[&str], b: &[&str]| forms_of(a).into_iter().chain(forms_of(b)).collect();
        (
            forms(lexicon::MORE, numbers::MORE_BY),
            forms(lexicon::LESS, numbers::LESS_BY),
        )
    })
}

/// Words that set a figure to a new value without saying which way: "revised its forecast
/// upward to", "restated to", "adjusted to".
const NEUTRAL_CHANGES: &[&str] = &[
    "revise",
    "restate",
    "adjust",
    "amend",
    "correct",
    "upward",
    "upwards",
    "downward",
    "downwards",
    "lower",
    "trim",
    "lift",
];

/// Normalised words of change: the first pair of [`lexicon::OPPOSITES`] (rise and fall) and
/// [`NEUTRAL_CHANGES`].
fn change_words() -> &'static [String] {
    static WORDS: OnceLock<Vec<String>> = OnceLock::new();
    WORDS.get_or_init(|| {
        let (up, down) = lexicon::OPPOSITES[0];
        forms_of(up)
            .into_iter()
            .chain(forms_of(down))
            .chain(forms_of(NEUTRAL_CHANGES))
            .collect()
    })
}

/// Whether two of the sentence's numbers are items of one list ("in 1978, 1981 and 1994"):
/// nothing but punctuation, "and", "or" and other numbers between them.
fn listed_together(sentence: &Analysis, a: &Quantity, b: &Quantity) -> bool {
    let (first, second) = if a.span.start <= b.span.start {
        (a, b)
    } else {
        (b, a)
    };
    (first.span.end..second.span.start.min(sentence.forms.len())).all(|i| {
        sentence.quantities.iter().any(|q| q.span.contains(&i))
            || matches!(
                sentence.forms[i].as_deref(),
                None | Some("and") | Some("or")
            )
    })
}

/// Whether the sentence's entity `e` sits in the other arm of a comparison.
fn arm_of(sentence: &Analysis, e: &Entity) -> bool {
    sentence.aside.get(e.span.start).copied().unwrap_or(false)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Before,
    After,
}

/// The claim's content words nearest to the lexemes `span` on either side, with their side.
fn neighbours(
    claim: &Analysis,
    span: Range<usize>,
    skip: &[String],
    numeric: bool,
) -> Vec<(String, Side)> {
    let content = |i: usize| {
        claim.forms[i]
            .as_ref()
            .filter(|f| claim.is_content(f) && !skip.contains(f))
    };
    // A number's neighbours stay inside its clause: in "to around £318 million, roughly £19
    // million more than a year before, even as operating profit fell" the operating profit
    // is no neighbour of the £318 million. A comma alone is no boundary ("the Corn Exchange,
    // a venue holding 1,100"), nor is any for a name, which an apposition ties to its words.
    let open = |i: &usize| !(numeric && clause_break(claim, *i));
    let before = (0..span.start)
        .rev()
        .take_while(open)
        .filter_map(&content)
        .take(ANCHOR_WORDS)
        .map(|f| (f.clone(), Side::Before));
    let after = (span.end..claim.forms.len())
        .take_while(open)
        .filter_map(content)
        .take(ANCHOR_WORDS)
        .map(|f| (f.clone(), Side::After));
    before.chain(after).collect()
}

/// Words that open a clause of their own after a comma ("..., even as operating profit
/// fell", "..., while wages grew").
const CLAUSE_OPENERS: &[&str] = &[
    "and", "but", "while", "whereas", "although", "though", "even", "yet", "as",
];

/// Whether lexeme `i` of `text` is a semicolon, a dash or a bracket, or a comma that a clause
/// opener follows.
fn clause_break(text: &Analysis, i: usize) -> bool {
    match text.breaks.get(i).copied().flatten() {
        Some(Break::Strong) => true,
        Some(Break::Comma) => {
            static OPENERS: OnceLock<Vec<String>> = OnceLock::new();
            let openers = OPENERS.get_or_init(|| forms_of(CLAUSE_OPENERS));
            text.form(i + 1)
                .is_some_and(|f| openers.iter().any(|o| o == f))
        }
        None => false,
    }
}

/// Whether lexeme `i` of the sentence sits on `side` of `span`, close enough to anchor it; the
/// other side counts only right next to it (passive and active voice swap sides).
fn fits(i: usize, span: &Range<usize>, side: Side) -> bool {
    let (at, distance) = if i < span.start {
        (Side::Before, span.start - i)
    } else if i >= span.end {
        (Side::After, i + 1 - span.end)
    } else {
        return false;
    };
    distance
        <= if at == side {
            ANCHOR_REACH
        } else {
            ANCHOR_FLIP_REACH
        }
}

/// Whether `entity` follows "by" (the definite article aside): the agent of a passive ("led by
/// the University of Aldermoor").
fn agent(text: &Analysis, entity: &Entity) -> bool {
    word_before(text, entity) == Some("by")
}

/// The word right before `entity`, the definite article aside; `None` at the start of the
/// text or after punctuation.
fn word_before<'a>(text: &'a Analysis, entity: &Entity) -> Option<&'a str> {
    (0..entity.span.start)
        .rev()
        .map(|i| text.form(i))
        .find(|f| *f != Some("the"))
        .flatten()
}

/// Whether `entity` is the object of a preposition ("in Warsaw", "from the Black Sea").
fn after_preposition(text: &Analysis, entity: &Entity) -> bool {
    const PREPOSITIONS: &[&str] = &[
        "in", "at", "from", "to", "into", "near", "on", "of", "for", "with", "across", "through",
        "via", "towards", "toward", "onto", "outside", "inside", "beside",
    ];
    word_before(text, entity).is_some_and(|f| PREPOSITIONS.contains(&f))
}

/// Whether the sentence's entity `s` stands where the claim's entity `c` stands: a claim word
/// next to `c` (or a number the sentence shares) sits next to `s` in the sentence too.
pub fn anchored(
    claim: &Analysis,
    c: &Entity,
    sentence: &Analysis,
    s: &Entity,
    numbers: &[NumberFit],
) -> bool {
    let word_anchor = anchored_by_words(claim, c, sentence, s);
    let number_anchor = claim
        .quantities
        .iter()
        .zip(numbers)
        .filter(|(q, fit)| {
            **fit == NumberFit::Match
                && q.span.end + ANCHOR_REACH >= c.span.start
                && q.at < c.span.end + ANCHOR_REACH
        })
        // Dates and amounts move freely around a sentence: either side will do.
        .any(|(q, _)| {
            sentence.quantities.iter().any(|p| {
                compare::same(q, p)
                    && (fits(p.at, &s.span, Side::Before) || fits(p.at, &s.span, Side::After))
                    && p.at + ANCHOR_REACH >= s.span.start
                    && p.at < s.span.end + ANCHOR_REACH
            })
        });
    // A place or a thing reached through a preposition ("born in Warsaw", "flows into the
    // Caspian") is not in the role of a sentence's subject ("Maria Skłodowska (7 November
    // 1867 - 4 July 1934) was a physicist"). Not "by": an agent is the subject of the active
    // ("led by Holloway" for "Holloway led").
    if after_preposition(claim, c) && opens(sentence, s) {
        return false;
    }
    // Nor is a name reached through a preposition of place or source ("published in Nature
    // Plants") in the role of the claim's agent ("led by the University of Aldermoor").
    if agent(claim, c) && after_preposition(sentence, s) {
        return false;
    }
    word_anchor || number_anchor
}

/// Whether a claim word next to `c` sits next to `s` in the sentence too. A wrapper before `s`
/// ("from the people of France", "the government of Spain") is part of its place.
pub fn anchored_by_words(claim: &Analysis, c: &Entity, sentence: &Analysis, s: &Entity) -> bool {
    let span = wrapped(sentence, s);
    neighbours(claim, c.span.clone(), &c.forms, false)
        .into_iter()
        .any(|(form, side)| {
            sentence
                .forms
                .iter()
                .enumerate()
                .any(|(i, f)| f.as_ref() == Some(&form) && fits(i, &span, side))
        })
}

/// Nouns that wrap a name without changing whose place it fills: "the people of France", "the
/// government of Spain", "the city of Lyon".
const NAME_WRAPPERS: &[&str] = &[
    "people",
    "government",
    "city",
    "town",
    "state",
    "republic",
    "kingdom",
    "citizens",
    "province",
    "county",
    "region",
    "nation",
    "island",
];

/// The span of `entity` with the wrapper before it ("the people of"), if it has one.
fn wrapped(text: &Analysis, entity: &Entity) -> Range<usize> {
    let start = entity.span.start;
    static WRAPPERS: OnceLock<Vec<String>> = OnceLock::new();
    let wrappers = WRAPPERS.get_or_init(|| forms_of(NAME_WRAPPERS));
    let wrapper = start
        .checked_sub(2)
        .filter(|&w| text.form(w + 1) == Some("of"))
        .filter(|&w| {
            text.form(w)
                .is_some_and(|f| wrappers.iter().any(|n| n == f))
        });
    match wrapper {
        Some(w) if w > 0 && text.form(w - 1) == Some("the") => w - 1..entity.span.end,
        Some(w) => w..entity.span.end,
        None => entity.span.clone(),
    }
}

/// Whether `entity` opens `text`, the definite article aside: the sentence's subject.
pub(super) fn opens(text: &Analysis, entity: &Entity) -> bool {
    (0..entity.span.start).all(|i| matches!(text.form(i), None | Some("the")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fit(claim: &str, sentence: &str) -> NumberFit {
        let (claim, sentence) = (Analysis::new(claim), Analysis::new(sentence));
        let bound = clause::bound(&claim, &sentence);
        number_fit(&claim, &claim.quantities[0], &sentence, bound)
    }

    /// The fit of the claim's number of value `value`.
    fn fit_of(claim: &str, value: f64, sentence: &str) -> NumberFit {
        let (claim, sentence) = (Analysis::new(claim), Analysis::new(sentence));
        let bound = clause::bound(&claim, &sentence);
        let q = claim
            .quantities
            .iter()
            .find(|q| (q.value - value).abs() < 1e-9)
            .expect("the test's claim has that number");
        number_fit(&claim, q, &sentence, bound)
    }

    #[test]
    fn a_span_either_side_of_a_moment_states_twice_its_length() {
        let sentence = "He can then grind for roughly two hours either side of low water.";
        assert_eq!(
            fit(
                "The mill can grind for about four hours, centred on low water.",
                sentence
            ),
            NumberFit::Match
        );
        assert_eq!(
            fit(
                "The mill can grind for about four hours, centred on low water.",
                "He can then grind for roughly two hours, until low water."
            ),
            NumberFit::Conflict
        );
    }

    /// A claim's figure that a change without a direction ends at ("revised its profit upward
    /// to £29.3 million") is not stated by the sentence's figure that change started from
    /// ("restated from £29.3 million to £28.1 million"): the sentence's end conflicts.
    #[test]
    fn a_figure_revised_to_is_the_end_of_the_change() {
        let sentence = "The comparative adjusted operating profit for the first half of 2024 has \
                        been restated from £29.3 million to £28.1 million.";
        let claim = |amount: &str| {
            format!(
                "Harrowgate revised its adjusted operating profit for the first half of 2024 \
                 upward to {amount}."
            )
        };
        assert_eq!(
            fit_of(&claim("£29.3 million"), 29.3e6, sentence),
            NumberFit::Conflict
        );
        assert_eq!(
            fit_of(&claim("£28.1 million"), 28.1e6, sentence),
            NumberFit::Match
        );
    }

    /// "About two-thirds more" is the ratio of the sentence's two figures, less one; a rough
    /// figure ("1 KiB") neither states it nor, as a count, conflicts with a relative change.
    #[test]
    fn a_relative_change_is_stated_by_the_ratio_of_two_figures() {
        let two_thirds = 200.0 / 3.0;
        let claim = "One 3.0 node moved about two-thirds more persistent 1 KiB messages a second \
                     than 2.9.4 did.";
        let sentence = |old: &str| {
            format!(
                "One 3.0 node sustained 1.18 million persistent 1 KiB messages a second, \
                 against {old} for 2.9.4 on the same hardware."
            )
        };
        assert_eq!(
            fit_of(claim, two_thirds, &sentence("705,000")),
            NumberFit::Match
        );
        assert_ne!(
            fit_of(claim, two_thirds, &sentence("905,000")),
            NumberFit::Match
        );
        assert_ne!(
            fit_of(claim, two_thirds, &sentence("905,000")),
            NumberFit::Conflict,
            "the 1 of \"1 KiB\" is no rival of a relative change"
        );
        // "Fewer" reads one less the smaller over the larger: 800 is a fifth fewer than 1,000,
        // while 1,000 is a quarter more than 800.
        let fewer = "Staff numbers are a fifth lower than in 2020.";
        let staff = "The firm employs 800 people, against 1,000 in 2020.";
        assert_eq!(fit_of(fewer, 20.0, staff), NumberFit::Match);
        assert_ne!(
            fit_of(
                "Staff numbers are a fifth higher than in 2020.",
                20.0,
                staff
            ),
            NumberFit::Match
        );
    }

    #[test]
    fn a_claim_that_adds_figures_up_is_stated_by_their_sum() {
        let sentence = "The two largest shareholders, a university fund, which owns 11.2% of the \
                        company, and Larkspur Capital, with 8.4%, back the bid.";
        let claim = |share: &str| {
            format!("The two biggest investors, which between them own {share} of the company, back the bid.")
        };
        assert_eq!(
            fit_of(&claim("close to a fifth"), 20.0, sentence),
            NumberFit::Match
        );
        let third = 100.0 / 3.0;
        assert_eq!(
            fit_of(&claim("close to a third"), third, sentence),
            NumberFit::Conflict
        );
        // Only a claim that says it adds up: one investor's fifth is no sum of two.
        assert_ne!(
            fit(
                "The biggest investor owns close to a fifth of the company.",
                sentence
            ),
            NumberFit::Match
        );
    }

    #[test]
    fn a_year_of_birth_or_death_is_no_rival_of_another_event_s_year() {
        let sentence = "Sir Alexander Fleming (6 August 1881 \u{2013} 11 March 1955) was a \
                        Scottish physician, best known for discovering penicillin.";
        assert_eq!(
            fit("Alexander Fleming identified penicillin in 1928.", sentence),
            NumberFit::Missing
        );
        assert_eq!(
            fit(
                "Alexander Fleming identified penicillin in 1928.",
                "Fleming, who was born in 1881, identified penicillin in his laboratory."
            ),
            NumberFit::Missing
        );
        // A death as a noun dates another event by it.
        assert_eq!(
            fit(
                "His Requiem was first performed at St Olave's in 1872.",
                "It was first performed after her death in 1871 at St Olave's."
            ),
            NumberFit::Conflict
        );
        // A claim about the birth itself is read against it.
        assert_eq!(
            fit("Alexander Fleming was born in 1880.", sentence),
            NumberFit::Conflict
        );
    }

    #[test]
    fn a_year_of_an_event_the_claim_leaves_undated_is_no_rival() {
        let sentence = "He died of a fever at Missolonghi in Greece in April 1824, when his \
                        daughter was eight, never having seen her again.";
        assert_eq!(
            fit(
                "Byron, who never saw his daughter again after quitting England in 1816, \
                 died in Greece when she was eight.",
                sentence
            ),
            NumberFit::Missing
        );
        // The same event dated otherwise is a rival.
        assert_eq!(
            fit("Byron died in Greece in 1826.", sentence),
            NumberFit::Conflict
        );
        // A year in the undated event's own clause dates all of it.
        assert_eq!(
            fit(
                "Hahn travelled to Stockholm to collect his Nobel Prize in December 1945.",
                "He received the prize in Stockholm in December 1946."
            ),
            NumberFit::Conflict
        );
    }

    #[test]
    fn a_figure_owned_by_a_party_the_sentence_never_names_has_no_rival() {
        let fits = |claim: &str, sentence: &str| -> Vec<NumberFit> {
            let (claim, sentence) = (Analysis::new(claim), Analysis::new(sentence));
            claim
                .quantities
                .iter()
                .map(|q| number_fit(&claim, q, &sentence, None))
                .collect()
        };
        let claim = "A single value in Quarry 5.0 can be as large as 1 GiB, four times \
                     Lodestore's 256 MiB limit.";
        let found = fits(
            claim,
            "A single value can now be up to 1 GiB, twice the 512 MiB allowed before.",
        );
        assert!(!found.contains(&NumberFit::Conflict), "{found:?}");
        // A party the sentence names is read against it.
        let found = fits(
            claim,
            "A single value can now be up to 1 GiB, twice Lodestore's 512 MiB limit.",
        );
        assert!(found.contains(&NumberFit::Conflict), "{found:?}");
        // The claim's own subject may go unnamed in its page's sentence.
        let found = fits(
            "In 2024 Solvik's £190 million profit was a record.",
            "In 2024 the profit of £148 million was a record.",
        );
        assert!(found.contains(&NumberFit::Conflict), "{found:?}");
    }

    #[test]
    fn a_version_s_glued_v_states_the_version() {
        let sentence = "With the release of Kubernetes v1.24 in May 2022, the dockershim \
                        component, deprecated since v1.20, was removed.";
        assert_eq!(
            fit("Kubernetes dropped dockershim in version 1.24.", sentence),
            NumberFit::Match
        );
    }

    #[test]
    fn a_bare_number_is_no_rival_of_an_amount_of_money() {
        assert_eq!(
            fit(
                "The X9 processor will retail for $399.",
                "The X9 processor clocks up to 3.2 and is built on a 3 nm process, though no \
                 price was given."
            ),
            NumberFit::Missing
        );
        assert_eq!(
            fit(
                "The X9 processor will retail for $399.",
                "The X9 processor will retail for $449."
            ),
            NumberFit::Conflict
        );
    }

    #[test]
    fn a_bare_count_is_no_rival_of_a_measured_amount() {
        let sentence = "With an area of roughly 0.44 square kilometres (109 acres) and a \
                        population of around 800, Vatican City is the smallest state.";
        assert_eq!(
            fit("Vatican City covers about 44 hectares.", sentence),
            NumberFit::Match
        );
        // Another amount of the claim's unit still is.
        assert_eq!(
            fit(
                "Vatican City covers about 44 hectares.",
                "Vatican City covers 61 hectares and has a population of around 800."
            ),
            NumberFit::Conflict
        );
    }

    #[test]
    fn a_hedge_is_read_as_normalised_between_a_change_s_to_and_its_figure() {
        // "roughly" is normalised to another form than the word as written.
        assert!(is_hedge(&fold("roughly")) && is_hedge("about"));
        assert!(!is_hedge("to"));
        let sentence = Analysis::new(
            "The active layer deepened from an average of 62 centimetres in 2016 to roughly 81 \
             centimetres.",
        );
        let (a, b) = (&sentence.quantities[0], &sentence.quantities[2]);
        assert!(change_from_to(&sentence, a, b), "{:?}", sentence.quantities);
    }

    #[test]
    fn the_value_a_change_started_from_is_the_earlier_value() {
        let sentence = "Euro area annual inflation was 2.9% in October 2023, down from 4.3% in \
                        September.";
        assert_eq!(
            fit_of(
                "Euro area inflation stood at 4.3% in October 2023.",
                4.3,
                sentence
            ),
            NumberFit::Conflict
        );
        // A claim that gives it as where the change started states it.
        assert_eq!(
            fit_of("Euro area inflation fell to 2.9% from 4.3%.", 4.3, sentence),
            NumberFit::Match
        );
        // Round forty-one (cobalt-10): a verb of multiplying, read as a ratio, opens the
        // change too.
        let sentence = "The default limit of 512 simultaneous connections was doubled from 256 \
                        in 3.0, and the highest value accepted is 16,384.";
        assert_eq!(
            fit_of(
                "burnetd accepts 256 simultaneous connections by default.",
                256.0,
                sentence
            ),
            NumberFit::Conflict
        );
        assert_eq!(
            fit_of(
                "The limit was doubled from 256 simultaneous connections in 3.0.",
                256.0,
                sentence
            ),
            NumberFit::Match
        );
        // Only the value right after "from" started the change ("doubled from 256 in 3.0").
        assert_eq!(
            fit_of(
                "The limit was doubled from 256 connections in 3.0.",
                3.0,
                "The default limit of 512 connections was doubled from 256 in 3.0."
            ),
            NumberFit::Match
        );
        // "Double" as an adjective multiplies nothing; a width over space is no change in time.
        assert_eq!(
            fit_of(
                "A double room costs \u{a3}80 a night.",
                80.0,
                "Double rooms from \u{a3}80 a night, singles from \u{a3}55."
            ),
            NumberFit::Match
        );
        assert_eq!(
            fit_of(
                "The trunk is 40 cm across at the base.",
                0.4,
                "The trunk narrows from 40 cm at the base to 10 cm at the top."
            ),
            NumberFit::Match
        );
        // "Loans from 23 lenders" is no change.
        assert_eq!(
            fit_of(
                "Forty-nine of the works are loans from 23 lenders.",
                23.0,
                "Of the 126 works, 49 are loans from 23 lenders."
            ),
            NumberFit::Match
        );
    }

    #[test]
    fn a_time_marked_alike_is_the_claim_s_slot() {
        let sentence = "Alexander Fleming discovered penicillin in 1928, but it was not until \
                        1942 that the drug was first used to treat a patient.";
        assert_eq!(
            fit(
                "Penicillin was not mass-produced until the 1940s.",
                sentence
            ),
            NumberFit::Match
        );
        // Without the marker, the year beside the claim's word holds the slot.
        assert_eq!(
            fit("Penicillin was mass-produced in the 1940s.", sentence),
            NumberFit::Conflict
        );
    }

    #[test]
    fn a_number_beside_the_claim_s_other_figure_is_the_claim_s() {
        let sentence = "Tesla delivered 1.81 million vehicles in 2023, up 38% from 2022, though \
                        deliveries fell in 2024.";
        assert_eq!(
            fit_of("Tesla's deliveries grew 38% in 2023.", 2023.0, sentence),
            NumberFit::Match
        );
        // Without the figure beside it, the year the claim's words govern is the slot.
        assert_eq!(
            fit_of("Tesla's deliveries grew in 2023.", 2023.0, sentence),
            NumberFit::Conflict
        );
    }

    #[test]
    fn a_word_before_a_conjunction_governs_no_number_after_it() {
        // "Council and £3.2 million": the council's word does not govern the levy's sum, so
        // the council's £6.4 million under "from" stays the claim's.
        let sentence = "Of the final £48.6 million, £39 million came from the national \
                        government, £6.4 million from Wend Valley District Council and £3.2 \
                        million from a levy on businesses in the town centre.";
        let claim = "The national government paid £39 million towards the scheme and Wend \
                     Valley District Council £6.4 million.";
        assert_eq!(fit_of(claim, 6_400_000.0, sentence), NumberFit::Match);
    }

    #[test]
    fn the_claim_s_words_after_its_value_keep_it_the_claim_s() {
        let sentence = "City finished on 89 points, 5 points ahead of Arsenal.";
        assert_eq!(
            fit_of("City finished 5 points ahead of Arsenal.", 5.0, sentence),
            NumberFit::Match
        );
        // A name before the value ties nothing: the year under the claim's verb is the slot.
        let sentence = "Marie Curie (1867-1934) died in 1934 at Passy.";
        assert_eq!(
            fit_of("Marie Curie died in 1867.", 1867.0, sentence),
            NumberFit::Conflict
        );
    }

    #[test]
    fn a_counted_noun_governs_no_year_after_it() {
        let claim = Analysis::new("Numbers recovered to 2,040 pairs by 2024.");
        let year = claim
            .quantities
            .iter()
            .find(|q| q.measure == Measure::Year)
            .map(|q| q.span.start);
        let verb = claim.forms[1].as_deref();
        assert!(verb.is_some());
        assert_eq!(year.and_then(|y| governing_word(&claim, y)), verb);
    }

    #[test]
    fn a_year_dating_another_value_of_a_series_is_no_rival() {
        let claim = "Numbers recovered to around 2,040 pairs by 2024.";
        let sentence = "Since then numbers have risen, to 1,870 pairs in 2019 and about 2,040 in \
                        the partial count of 2024.";
        assert_ne!(fit_of(claim, 2024.0, sentence), NumberFit::Conflict);
        // The claim's own figure dated by another year still conflicts.
        assert_eq!(
            fit_of(
                "The colony held 2,040 pairs in 2019.",
                2019.0,
                "The colony held 2,040 pairs in 2024."
            ),
            NumberFit::Conflict
        );
    }

    #[test]
    fn a_span_of_time_is_no_rival_of_a_bare_count() {
        // The claim's count sits in the pair's second sentence; the first, the clause the claim
        // is about, has only a span of time, which no bare count can be.
        let claim = "Westerby Town Council has approved 420 homes at Copse Farm, with \
                     councillors voting nine to six in favour.";
        let sentence = "Westerby Town Council has approved plans for 420 homes on farmland at \
                        Copse Farm, on the northern edge of the town, ending a dispute over the \
                        site that has run for more than three years. Councillors voted by nine \
                        votes to six, with one abstention, at a meeting in the Corn Exchange on \
                        Tuesday evening that lasted more than four hours.";
        assert_ne!(fit_of(claim, 9.0, sentence), NumberFit::Conflict);
    }

    #[test]
    fn the_other_end_of_a_change_is_no_rival() {
        let sentence = "Amazon's operating income rose from $2.7 billion to $13.2 billion.";
        assert_eq!(
            fit("Amazon's operating income was $13.2 billion.", sentence),
            NumberFit::Match
        );
        assert_eq!(
            fit("Amazon's operating income was $11.5 billion.", sentence),
            NumberFit::Conflict
        );
    }

    #[test]
    fn a_count_of_another_thing_under_the_same_verb_is_no_rival() {
        let sentence = "She won 17 singles titles on the tour, among them two majors, the \
                        Castellan Championships in 2019 and the Northern Championships in 2021.";
        let claim = "Annika Torvell won two major titles: the Castellan Championships in 2019 \
                     and the Northern Championships in 2021.";
        assert_eq!(fit_of(claim, 2.0, sentence), NumberFit::Match);
        // A count of the claim's own thing under the verb still holds the slot.
        let claim = "Annika Torvell won two singles titles.";
        assert_eq!(fit_of(claim, 2.0, sentence), NumberFit::Conflict);
    }

    #[test]
    fn numbers_conflict_only_in_their_own_slot() {
        let table: &[(&str, &str, NumberFit)] = &[
            // The claim's year sits by its subject, away from its paraphrased verb; the other
            // year belongs to another event of the sentence.
            (
                "Halvern abandoned its phone processor plans in 2023 after Corvane left.",
                "The plan first announced in 2021 promised phone processors, but Halvern \
                 dropped them in 2023 after its main customer left.",
                NumberFit::Match,
            ),
            // The other arm of a comparison holds the rival's number (issue 18): it does not
            // state the claim's, and the subject's own number in the slot flips it.
            (
                "Solvik carried 2.9 million passengers in 2024.",
                "Solvik carried 3.4 million passengers in 2024, compared with its rival \
                 Nordlinje, which carried 2.9 million passengers.",
                NumberFit::Conflict,
            ),
            // A claim about the rival reaches into that arm.
            (
                "Nordlinje carried 2.9 million passengers in 2024.",
                "Solvik carried 3.4 million passengers in 2024, compared with its rival \
                 Nordlinje, which carried 2.9 million passengers.",
                NumberFit::Match,
            ),
            // Another number in the claim's own place still conflicts.
            (
                "A single shot of espresso contains about 95 milligrams of caffeine.",
                "A single shot of espresso contains around 63 milligrams of caffeine, while a \
                 typical 240 ml mug of drip coffee has about 95 milligrams.",
                NumberFit::Conflict,
            ),
            // Only the counted noun ties them, and the number belongs to another subject.
            (
                "The Skerry offshore wind farm has a capacity of 400 megawatts.",
                "The plant draws around 90 megawatts at full load, and the company buys power \
                 from the Skerry offshore wind farm.",
                NumberFit::Missing,
            ),
            // The counted noun with the claim's subject before it: the same slot.
            (
                "Octopuses have about 5 billion neurons.",
                "Octopuses have large nervous systems for invertebrates, with about 500 \
                 million neurons.",
                NumberFit::Conflict,
            ),
            // Issue 18: a number the claim's other numbers account for is no rival, even when
            // the claim's own number is in the next sentence.
            (
                "It reaches a full charge in 47 minutes and 50% in 18 minutes.",
                "Charging at 65W over USB-C, it reached 50% in 18 minutes.",
                NumberFit::Missing,
            ),
            // Issue 18, seventeenth round: the words of the claim's next clause ("even as
            // operating profit fell") are no neighbours of its number, so the profit's figure
            // is no rival of the revenue's; a comma alone does not end the phrase.
            (
                "Tessaly's revenue climbed to around £318 million, roughly £19 million more \
                 than a year before, even as operating profit fell.",
                "Tessaly said that revenue for the three months to 30 September rose 6.2% to \
                 £318.4 million, £18.6 million more than a year earlier, but operating profit \
                 fell 9% to £52.1 million as prices kept falling.",
                NumberFit::Match,
            ),
            (
                "The biggest date is at the Corn Exchange, a venue holding 1,100 people.",
                "The biggest date is at the Corn Exchange (capacity 2,400), with a homecoming \
                 that sold all 1,100 tickets.",
                NumberFit::Conflict,
            ),
            // Issue 18, eighteenth round: the claim's number beside its year is the sentence's
            // number beside that year, whatever words stand around it.
            (
                "About 26.8 million vehicles crossed in 2024.",
                "In 2018, the last full year of tolls, 21.9 million vehicles crossed; in 2024 \
                 the figure was 26.8 million, about 22% more.",
                NumberFit::Match,
            ),
        ];
        for (claim, sentence, want) in table {
            assert_eq!(fit(claim, sentence), *want, "{claim} / {sentence}");
        }
    }
}
