//! Two quantities against each other (pure): the same value within the written precision (and
//! a hedge's slack), a different value of the same kind (a conflict), or nothing to compare.

use super::lexicon::{Bound, Dimension, Unit};
use super::numbers::{is_percent, percent, Measure, Quantity};

/// How a claim's number fares against a passage's numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumberFit {
    Match,
    /// Not in the sentence but in the sentence before it or its paragraph's first sentence
    /// ("approved its 2025 budget on Thursday. The budget totals 640 million pounds.").
    InContext,
    /// Not in the sentence nor its context, but stated, tied to the claim's words, by another
    /// sentence of the passages: a claim of several facts that the page gives apart ("the
    /// siege that began on 4 December 1645 ended when the garrison surrendered on 19 March
    /// 1646"). It lets the sentence state the rest of the claim; it lends the sentence no
    /// strength to contradict it.
    Elsewhere,
    Conflict,
    Missing,
    /// A number that is a word of a name ("Nova 3 Pro") where the sentence gives no number of
    /// that name: the name's words carry the alignment, so it neither counts nor contradicts.
    NameOnly,
}

/// Extra relative tolerance when either side hedges ("about 7 million").
pub const HEDGE_TOLERANCE: f64 = 0.05;

/// How far past a close bound ("just over a minute", "slightly less than 40%") a value may
/// lie, as a share of the number (the number's own rounding and hedge come on top): 69 seconds
/// is "just over a minute", two hours is not.
pub const NEAR_SLACK: f64 = 0.25;

/// The most a hedged round number may be from what it rounds ("roughly 1,000 feet" for 1,083).
pub const ROUNDING_CAP: f64 = 0.1;

/// Whether `page` states the same quantity as `claim`.
pub fn same(claim: &Quantity, page: &Quantity) -> bool {
    // A number hyphened into a name ("carbon-12") states no count or measure of the claim's
    // ("atomic number 12"), and a bare count states no such number; the same name's number
    // written without the hyphen ("COVID 19") still does.
    if claim.hyphened_name != page.hyphened_name && claim.measure != page.measure {
        return false;
    }
    same_as_read(claim, page)
        || thousands_read(page).is_some_and(|page| same_as_read(claim, &page))
        || thousands_read(claim).is_some_and(|claim| same_as_read(&claim, page))
        || clock_read(page)
            .iter()
            .any(|page| same_as_read(claim, page))
        || clock_read(claim)
            .iter()
            .any(|claim| same_as_read(claim, page))
        || whole_read(claim, page).is_some_and(|page| same_as_read(claim, &page))
        || as_written(page, claim).is_some_and(|page| same_as_read(claim, &page))
        || as_written(claim, page).is_some_and(|claim| same_as_read(&claim, page))
}

/// An amount in a unit read as written, for a bare figure to meet it: "tonnage fell to
/// 96,000" states the page's "96,000 tons", which is kept in kilograms. Not a temperature,
/// whose scales have offsets; only figure against figure, since a bound ("more than 12
/// hours") read without its unit would take in any larger count. (A number that is part of
/// a name, "Boeing 777", is no bare figure: see [`Quantity::identifier`].)
fn as_written(q: &Quantity, other: &Quantity) -> Option<Quantity> {
    if q.bound.is_some() || other.bound.is_some() {
        return None;
    }
    match (&q.measure, &other.measure) {
        (Measure::Unit(u), Measure::Bare)
            if u.factor > 0.0 && u.dimension != Dimension::Temperature =>
        {
            Some(Quantity {
                value: q.value / u.factor,
                tolerance: q.tolerance / u.factor,
                measure: Measure::Bare,
                ..q.clone()
            })
        }
        _ => None,
    }
}

/// The page's amount in two units read as its larger part alone ("11 hours" of "11 hours and
/// 40 minutes"), for a claim without a bound: "lasted 11 hours" rounds it down, while "under
/// 11 hours" is read against the whole amount. Only a claim in the larger part's unit (or a
/// larger one) rounds so: "about 52 minutes" is not "1 hour 52 minutes" rounded, though the
/// hour, written to the unit, would take in 52 minutes.
fn whole_read(claim: &Quantity, page: &Quantity) -> Option<Quantity> {
    let (value, tolerance) = page.whole?;
    let coarse_enough = match (&claim.measure, &page.measure) {
        (Measure::Unit(c), Measure::Unit(p)) => c.factor >= p.factor,
        _ => true,
    };
    (claim.bound.is_none() && coarse_enough).then(|| Quantity {
        value,
        tolerance,
        whole: None,
        text: String::new(),
        ..page.clone()
    })
}

/// A clock reading ("9:47", "2:00:35") read as a span of time, in seconds: hours, minutes
/// and seconds for three parts; minutes and seconds, or hours and minutes, for two ("closes
/// the album at 9:47" is the "almost ten minutes" a claim gives). Only ever a match: a clock
/// is still no rival of a span of time, as it may be the time of day.
fn clock_read(q: &Quantity) -> Vec<Quantity> {
    let Measure::Clock(text) = &q.measure else {
        return Vec::new();
    };
    let parts: Option<Vec<f64>> = text.split(':').map(|p| p.parse().ok()).collect();
    let seconds: Vec<f64> = match parts.as_deref() {
        Some([h, m, s]) => vec![h * 3600.0 + m * 60.0 + s],
        Some([a, b]) => vec![a * 60.0 + b, a * 3600.0 + b * 60.0],
        _ => Vec::new(),
    };
    let second = Unit {
        name: "s",
        dimension: Dimension::Time,
        factor: 1.0,
    };
    seconds
        .into_iter()
        .map(|value| Quantity {
            value,
            tolerance: 0.5,
            measure: Measure::Unit(second),
            text: String::new(),
            ..q.clone()
        })
        .collect()
}

/// The quantity read with its dots as thousands separators, as much of Europe writes them
/// ("3.200 euros" for 3,200), when it is written that way: one to three digits, then groups of
/// three after dots. "3.200" may still be three point two, so this is a second reading, never
/// the only one.
fn thousands_read(q: &Quantity) -> Option<Quantity> {
    if !q.text.contains('.') {
        return None;
    }
    let number: &str = q
        .text
        .trim_start_matches(|c: char| !c.is_ascii_digit())
        .split(|c: char| !c.is_ascii_digit() && c != '.')
        .next()?;
    let mut groups = number.split('.');
    let lead = groups.next()?;
    let rest: Vec<&str> = groups.collect();
    let shaped =
        (1..=3).contains(&lead.len()) && !rest.is_empty() && rest.iter().all(|g| g.len() == 3);
    if !shaped {
        return None;
    }
    let as_decimal: f64 = number.parse().ok().filter(|v: &f64| *v > 0.0)?;
    let as_thousands: f64 = number.replace('.', "").parse().ok()?;
    let ratio = as_thousands / as_decimal;
    Some(Quantity {
        value: q.value * ratio,
        tolerance: q.tolerance * ratio,
        text: String::new(),
        ..q.clone()
    })
}

/// How far a hedged value ("about 7 million", "roughly 1,000 feet", "about $91.2 billion") may
/// be from what it approximates: anything that rounds to it at the precision it is written to
/// (its last significant digit: "1,000" to the thousand) within [`ROUNDING_CAP`] of it, or
/// [`HEDGE_TOLERANCE`] of it but no more than two units of that digit: a value written to a
/// tenth of a billion is not about a figure 1.7 billion away, and "about 10 million" is not
/// 8.9 million.
fn hedge_allowance(q: &Quantity) -> f64 {
    // A share in words ("almost half", "nearly a third") is as round as a share gets: a writer
    // uses it for anything within a tenth of it ("almost half" for 46%).
    // (A share worked out from a part and its whole has no text, and no such roundness.)
    if is_percent(&q.measure) && !q.text.is_empty() && !q.text.chars().any(|c| c.is_ascii_digit()) {
        return ROUNDING_CAP * q.value.abs();
    }
    let digits: &str = q
        .text
        .trim_start_matches(|c: char| !c.is_ascii_digit())
        .split(|c: char| !c.is_ascii_digit() && c != ',' && c != '.')
        .next()
        .unwrap_or("");
    let whole = !digits.contains('.') && digits.chars().any(|c| c != '0' && c != ',');
    let zeros = if whole {
        digits
            .chars()
            .rev()
            .filter(|&c| c != ',')
            .take_while(|&c| c == '0')
            .count()
    } else {
        0
    };
    let unit = 2.0 * q.tolerance * 10f64.powi(zeros as i32);
    let value = q.value.abs();
    // The half unit of the last written digit is in the quantity's own tolerance already.
    let rounding = (unit / 2.0).min(ROUNDING_CAP * value) - q.tolerance;
    rounding.max((HEDGE_TOLERANCE * value).min(2.0 * unit))
}

fn same_as_read(claim: &Quantity, page: &Quantity) -> bool {
    // A share against a part of a whole: "more than a third of the jobs" against "420 of
    // the 1,150 jobs".
    match (as_share(claim), as_share(page)) {
        (None, Some(part)) if is_percent(&claim.measure) => return same(claim, &part),
        (Some(part), None) if is_percent(&page.measure) => return same(&part, page),
        _ => {}
    }
    if !comparable(&claim.measure, &page.measure, true) {
        return false;
    }
    if let (Measure::Clock(a), Measure::Clock(b)) = (&claim.measure, &page.measure) {
        return a == b;
    }
    let hedge = [claim, page]
        .into_iter()
        .filter(|q| q.hedged)
        .map(hedge_allowance)
        .fold(0.0, f64::max);
    let tolerance = claim.tolerance.max(page.tolerance) + hedge;
    // How far past a close bound ("just over a minute") the value may lie.
    let slack = claim.value.abs() * NEAR_SLACK + tolerance;
    match claim.bound {
        Some(Bound::AtLeast) if page.bound != Some(Bound::AtMost) => {
            page.value + tolerance >= claim.value
                && (!claim.near || page.value <= claim.value + slack)
        }
        Some(Bound::AtMost) if page.bound != Some(Bound::AtLeast) => {
            page.value - tolerance <= claim.value
                && (!claim.near || page.value >= claim.value - slack)
        }
        // Opposite bounds ("more than 500" against "no more than 500") leave no value both
        // allow but the mark itself, which neither states.
        Some(_) => false,
        _ => (claim.value - page.value).abs() <= tolerance,
    }
}

/// A part of a whole as its share in percent, to the nearest half point.
fn as_share(q: &Quantity) -> Option<Quantity> {
    let share = q.share?;
    Some(Quantity {
        value: share,
        tolerance: 0.5,
        measure: Measure::Unit(percent()),
        share: None,
        tally: false,
        whole: None,
        position: false,
        // Worked out, not written: no digits of its own to take a precision from.
        text: String::new(),
        ..q.clone()
    })
}

/// Whether two quantities measure the same kind of thing, so that different values conflict.
/// When only checking for a match (`loose`), a counted noun and a bare number may meet.
pub fn comparable(a: &Measure, b: &Measure, loose: bool) -> bool {
    use Measure::*;
    match (a, b) {
        // Two currencies are two slots: an amount in pounds cannot be told apart from one in
        // kroner without an exchange rate, and a story often gives the same sum in both.
        (Unit(x), Unit(y))
            if x.dimension == Dimension::Currency || y.dimension == Dimension::Currency =>
        {
            x.name == y.name
        }
        (Unit(x), Unit(y)) => {
            x.dimension == y.dimension
                || matches!(
                    (x.dimension, y.dimension),
                    (Dimension::Angle, Dimension::Temperature)
                        | (Dimension::Temperature, Dimension::Angle)
                )
        }
        (Year, Year) | (Clock(_), Clock(_)) | (Bare, Bare) | (Age, Age) => true,
        (Day(x), Day(y)) => x == y,
        (Noun(x), Noun(y)) => loose || x == y,
        (Noun(_), Bare) | (Bare, Noun(_)) => true,
        (Unit(_), Bare) | (Bare, Unit(_)) => loose,
        // "a bonus of 0.85 points" on a rate is 0.85 percentage points.
        (Noun(n), Unit(u)) | (Unit(u), Noun(n)) if u.dimension == Dimension::Points => {
            loose && n == "point"
        }
        // "Reyn, 24, won ..." states the age a claim gives in years.
        (Age, Bare) | (Bare, Age) => loose,
        _ => false,
    }
}

/// Whether two quantities can fill the same slot, so that different values conflict: the same
/// kind of measure, and a number glued into a compound token ("3.2GHz", "64-bit") only against
/// one glued to the same word, and a difference ("three minutes longer than") only against a
/// difference. `loose` as in [`comparable`], for numbers already tied to the
/// claim's by the words around them.
pub fn same_slot(a: &Quantity, b: &Quantity, loose: bool) -> bool {
    // "almost ten minutes" against "nearly three minutes longer than": a value and a
    // difference of two values are two slots.
    if a.difference != b.difference {
        return false;
    }
    // A score or a tally is a slot of its own: "game seven" is not the 3 of "a 3-2 win".
    if a.tally != b.tally {
        return false;
    }
    // Which one of a series ("stage nine") is no count or measure ("2.8 kilometres").
    if a.position != b.position {
        return false;
    }
    // A share is no count above a hundred: "nine-tenths full" cannot be the crowd of 10,926.
    let over_a_hundred = |p: &Quantity, q: &Quantity| {
        is_percent(&p.measure) && q.measure == Measure::Bare && q.value.abs() > 100.0
    };
    if over_a_hundred(a, b) || over_a_hundred(b, a) {
        return false;
    }
    // A share worked out from words ("one entry in ten", "a fifth of") is no bare count of the
    // sentence's ("17 that withdrew"): a page writes the share it states as one.
    let worded_share = |p: &Quantity, q: &Quantity| {
        is_percent(&p.measure)
            && !p.text.chars().any(|c| c.is_ascii_digit() || c == '%')
            && !p
                .text
                .split_whitespace()
                .any(|w| matches!(w.to_lowercase().as_str(), "per" | "percent" | "cent"))
            && q.measure == Measure::Bare
            && q.share.is_none()
            && q.value.fract() == 0.0
    };
    if worded_share(a, b) || worded_share(b, a) {
        return false;
    }
    // A count of things is a whole number: "the two groups" is no hazard ratio of 1.02. A
    // fraction before a word counts nothing ("magnitude 9.1 undersea earthquake"): it is no
    // count either.
    let fraction_against_count = |p: &Quantity, q: &Quantity| {
        matches!(p.measure, Measure::Noun(_))
            && p.value.fract() == 0.0
            && q.measure == Measure::Bare
            && q.value.fract() != 0.0
    };
    if fraction_against_count(a, b) || fraction_against_count(b, a) {
        return false;
    }
    if a.compound || b.compound {
        return matches!((&a.measure, &b.measure), (Measure::Noun(x), Measure::Noun(y)) if x == y);
    }
    comparable(&a.measure, &b.measure, loose)
}

/// The claim's quantity against the passage's when nothing ties it to a place in the sentence:
/// stated anywhere, contradicted only by the one number of the sentence that can fill its slot
/// (with two or more candidates, which one is the claim's is unknown), or not addressed.
pub fn fit(claim: &Quantity, page: &[Quantity]) -> NumberFit {
    if page.iter().any(|p| same(claim, p)) {
        return NumberFit::Match;
    }
    let rivals = page.iter().filter(|p| same_slot(claim, p, false)).count();
    if rivals == 1 {
        NumberFit::Conflict
    } else {
        NumberFit::Missing
    }
}

#[cfg(test)]
mod tests {
    use super::super::lex::lex;
    use super::super::numbers::quantities;
    use super::*;

    fn first(text: &str) -> Quantity {
        quantities(&lex(text))
            .into_iter()
            .next()
            .expect("a quantity")
    }

    #[test]
    fn a_bare_figure_states_an_amount_as_written_in_its_unit() {
        // Round thirty-four (ouzel-09): "tonnage had dropped to 96,000" against "96,000 tons".
        assert!(same(
            &first("had dropped to 96,000"),
            &first("had fallen to 96,000 tons")
        ));
        assert!(same(
            &first("had fallen to 96,000 tons"),
            &first("had dropped to 96,000")
        ));
        assert!(!same(
            &first("had dropped to 69,000"),
            &first("had fallen to 96,000 tons")
        ));
        // A bound keeps its unit: "more than 12 hours" is no count of 240.
        assert!(!same(
            &first("waited more than 12 hours"),
            &first("fell to 240")
        ));
        assert!(!same(
            &first("fell to 240"),
            &first("waited more than 240 hours")
        ));
    }

    #[test]
    fn the_same_quantity_written_differently_matches() {
        let table: &[(&str, &str)] = &[
            ("100 degrees Celsius", "100 °C"),
            ("about 7 million people", "seven million people"),
            ("1.2 billion euros", "1,200,000,000 euros"),
            ("almost 5 per cent", "4.99 per cent"),
            ("5 km", "5,000 metres"),
            ("more than 250 cities", "more than 250 cities"),
            ("2:00:35", "2:00:35"),
            ("in 1889", "the 1889 fair"),
            ("90 sols", "a 90-sol mission"),
            ("1.5 seconds", "1,500 ms"),
            ("every 250 milliseconds", "0.25 seconds"),
            ("in the 1940s", "in 1942"),
            ("in the 1940s", "by 1949"),
            ("1.5 million visitors", "1,5 million visitors"),
            ("6.5 %", "6,5 %"),
            ("3,200 euros", "3.200 euros"),
            ("€2,900", "€2.900"),
            ("almost ten minutes", "9:47"),
            ("roughly 1,000 feet", "1,083 ft"),
            ("nearly 62%", "61.7%"),
            ("just over two hours", "2:00:35"),
            // A claim in the larger unit rounds an amount in two units down to its larger
            // part; one in the smaller unit states the sum.
            ("lasted 11 hours", "11 hours and 40 minutes"),
            ("just over a minute", "69 seconds"),
            ("a shade under 13 minutes", "12 minutes 41.3 seconds"),
            ("slightly more than 40%", "44%"),
            ("more than a minute", "2:26:02"),
            ("112 minutes", "1 hour 52 minutes"),
            ("3.2 litres", "3.200 litres"),
        ];
        for (claim, page) in table {
            let (c, p) = (first(claim), first(page));
            assert!(same(&c, &p), "{claim} vs {page}: {c:?} {p:?}");
        }
    }

    #[test]
    fn amounts_in_two_currencies_do_not_conflict() {
        // Issue 18: a story gives one sum in kroner and again in pounds.
        for (claim, page) in [
            ("£148 million", "NOK 2.1 billion"),
            ("€310 million", "$320 million"),
        ] {
            let pages = quantities(&lex(page));
            assert_eq!(
                fit(&first(claim), &pages),
                NumberFit::Missing,
                "{claim} vs {page}"
            );
        }
        let pages = quantities(&lex("NOK 3.00 a share"));
        assert_eq!(fit(&first("NOK 4.50"), &pages), NumberFit::Conflict);
    }

    #[test]
    fn different_quantities_of_one_kind_conflict() {
        let table: &[(&str, &str)] = &[
            ("50 degrees Celsius", "100 degrees Celsius"),
            ("7 million rivets", "2.5 million rivets"),
            ("30 thousand years", "30 million years"),
            ("1.5 billion euros", "1.2 billion euros"),
            ("in 1775", "in 1755"),
            ("in the 1940s", "in 1950"),
            ("3,300 euros", "3.200 euros"),
            ("4,000 versions", "4.0 versions"),
            // A hedge is as loose as the precision the value is written to.
            ("about $91.2 billion", "$89.5 billion"),
            ("about 10 million visitors", "8.9 million visitors"),
            ("roughly 1,000 feet", "1,130 ft"),
            ("1,500 visitors", "1,5 million visitors"),
            ("27 times", "72 times"),
            ("2:00:35", "2:01:09"),
            ("5 kilometres", "12 kilometres"),
            // An amount in two units is their sum to a claim in the smaller unit; only a
            // claim in the larger unit rounds it down to the larger part.
            ("about 52 minutes", "in 1 hour 52 minutes"),
            ("12 minutes", "in 1 hour 12 minutes"),
            // A close bound keeps the value near it: two hours is more than a minute, but not
            // "just over" one.
            ("just over a minute", "two hours"),
            ("slightly more than 40%", "75%"),
            ("just under 13 minutes", "9 minutes"),
            // A fraction before a word is no count of it.
            (
                "a magnitude of about 8.1",
                "the magnitude 9.1 undersea earthquake",
            ),
        ];
        for (claim, page) in table {
            let c = first(claim);
            let pages = quantities(&lex(page));
            assert_eq!(fit(&c, &pages), NumberFit::Conflict, "{claim} vs {page}");
        }
    }

    #[test]
    fn a_share_in_words_fills_no_slot_of_a_bare_count() {
        // "One entry in ten pulled out" against "most of the 17 that withdrew": a page states
        // a share as one, so a bare count is no rival of it; a share with digits still is.
        let count = first("the 17 that withdrew");
        for share in ["roughly one entry in ten", "a fifth of the crews"] {
            for loose in [false, true] {
                assert!(!same_slot(&first(share), &count, loose), "{share}");
            }
        }
        assert!(same_slot(
            &first("about 20% of the crews"),
            &first("20 of the crews"),
            true
        ));
        // A count the page gives with its whole is a share of its own, and a rival.
        let part = quantities(&lex("Of the 170 crews, 68 of them withdrew"))
            .into_iter()
            .find(|q| q.share.is_some())
            .expect("a part of a whole");
        assert!(same_slot(&first("a fifth of the crews"), &part, true));
    }

    #[test]
    fn unrelated_quantities_are_missing_not_conflicting() {
        let table: &[(&str, &str)] = &[
            ("30 kilometres per hour", "2,000 eggs"),
            ("in 2026", "18 million pounds"),
            ("6 August", "18 February"),
            // Two numbers that could fill the slot, none tied to it: which is the claim's is
            // unknown (issue 18), so neither contradicts it.
            ("80 mg", "63 mg for espresso, 95 mg for drip coffee"),
            // A count of things is no ratio.
            ("the two groups", "a hazard ratio of 1.02"),
            // A difference is not the value it is the difference of.
            (
                "almost ten minutes",
                "nearly three minutes longer than the rest",
            ),
        ];
        for (claim, page) in table {
            let c = first(claim);
            assert_eq!(
                fit(&c, &quantities(&lex(page))),
                NumberFit::Missing,
                "{claim} vs {page}"
            );
        }
    }
}
