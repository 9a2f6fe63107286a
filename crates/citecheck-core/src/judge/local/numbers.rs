//! Quantities in text (pure): digits, number words and fractions, with scale ("2.5 million"),
//! unit ("100 degrees Celsius", "€300"), hedge ("about"), bound ("more than") and ranges ("25 to
//! 30 million years"). [`super::compare`] decides whether two of them agree.

use super::lex::{fold, fold_plural, is_stopword, written_as_name, LexKind, Lexeme};
use super::lexicon::{self, Bound, Dimension, Unit};

/// What a number counts or measures.
#[derive(Debug, Clone, PartialEq)]
pub enum Measure {
    /// A unit with a dimension; the value is in the dimension's base unit.
    Unit(Unit),
    /// The word that follows the number ("11 stations", "72 times"), normalised.
    Noun(String),
    /// A day of a month ("6 August").
    Day(String),
    /// A four-digit year.
    Year,
    /// Someone's age in years ("22 years old", "a 22-year-old", "aged 22", "turned 22", "at
    /// the age of 22"): not a span of time, so "was 45 years old" and "served 12 years" are
    /// two slots that cannot conflict.
    Age,
    /// A race or clock time ("2:00:35"), compared as written.
    Clock(String),
    /// Nothing says what it is.
    Bare,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Quantity {
    pub value: f64,
    /// Half a unit of the last written digit, in base units: "1.2 billion" is 1.15..1.25 billion.
    pub tolerance: f64,
    pub measure: Measure,
    pub bound: Option<Bound>,
    /// The bound is a close one ("just over", "slightly less than"): the value lies on the
    /// bound's side of the number and near it.
    pub near: bool,
    pub hedged: bool,
    /// Index of the number's first lexeme.
    pub at: usize,
    /// The lexemes the quantity consumed: currency sign, number, scale and unit words.
    pub span: std::ops::Range<usize>,
    /// The number as written, for explanations.
    pub text: String,
    /// Written glued to a word that is not a unit ("3.2GHz", "64-bit", "8-core", "1080p",
    /// "12GB") or written after a name ("Nova 3", "RTX 4090"): part of a name or a
    /// specification, which conflicts only with a number of the same word.
    pub compound: bool,
    /// Hyphened to the word before it ("carbon-12", "COVID-19"): a number of a name, which
    /// states only the same name's number.
    pub hyphened_name: bool,
    /// Written after a capitalised word inside a sentence ("Nova 3 Pro", "Snapdragon 8 Gen 3",
    /// "USB 3.2"): a word of a name, not a quantity of anything.
    pub identifier: bool,
    /// Followed by a comparative and "than" ("nearly three minutes longer than anything on
    /// the last album", "40 more than in 2023"), or a ratio ("four times larger"): a
    /// comparison of two values, which fills another slot than either value; or an amount on
    /// top of another ("a further 70 jobs").
    pub difference: bool,
    /// A ratio of two values ("seven times as many", "twice as long", "doubled", "nearly
    /// quadruples"): a difference whose value is how many times one value is the other.
    pub ratio: bool,
    /// A part of a whole the text gives beside it ("420 of the 1,150 jobs"): the part's share
    /// of the whole in percent, which a claim's share ("more than a third of the jobs") states.
    pub share: Option<f64>,
    /// One of two whole numbers joined by a dash ("won 3-2", "voted 7-2", "a 4\u{2013}1
    /// defeat"): a score or a tally, which conflicts only with another score or tally, not
    /// with a count that happens to be bare ("game seven").
    pub tally: bool,
    /// The larger unit's part of an amount written in two units ("5 hours" of "5 hours 48
    /// minutes"), in base units with its tolerance: a claim may round the amount down to it.
    pub whole: Option<(f64, f64)>,
    /// Says which one of a numbered series it is ("stage nine", "Version 2", "the ninth
    /// stage"), not how many: it fills only the slot of another position of the same kind.
    pub position: bool,
}

/// How far a part of one unit ("a third of a mile") may be from the exact fraction: a writer
/// rounds it ("0.33 miles") or reads it off a rounder figure.
const FRACTION_ROUNDING: f64 = 0.05;

/// Finds the quantities in `lexemes`, in order.
pub fn quantities(lexemes: &[Lexeme<'_>]) -> Vec<Quantity> {
    let lower: Vec<String> = lexemes.iter().map(|l| l.text.to_lowercase()).collect();
    let mut out: Vec<(Quantity, f64, usize)> = Vec::new();
    let mut i = 0;
    while i < lexemes.len() {
        if let Some((share, next)) = fraction_at(lexemes, &lower, i) {
            // "a quarter of a percentage point", "half a mile": a part of one unit.
            let of_a_unit = {
                let a = if lower.get(next).is_some_and(|w| w == "of") {
                    next + 1
                } else {
                    next
                };
                lower
                    .get(a)
                    .filter(|w| matches!(w.as_str(), "a" | "an"))
                    .and_then(|_| unit_at(&lower, a + 1))
                    .filter(|(u, _)| u.dimension != Dimension::Percent)
            };
            let (value, tolerance, measure, next) = match of_a_unit {
                Some((unit, end)) => {
                    let value = share / 100.0 * unit.factor;
                    (value, value * FRACTION_ROUNDING, Measure::Unit(unit), end)
                }
                // "a fifth" is 20 %, give or take the rounding a writer would do.
                None => (share, 1.0, Measure::Unit(percent()), next),
            };
            let relative = relative_at(&lower, next, &measure);
            let (bound, near) = bound_at(&lower, i);
            out.push((
                Quantity {
                    value,
                    tolerance,
                    measure,
                    bound,
                    near,
                    hedged: hedged_at(&lower, i),
                    at: i,
                    span: i..next,
                    text: lexemes[i..next]
                        .iter()
                        .map(|l| l.text)
                        .collect::<Vec<_>>()
                        .join(" "),
                    compound: false,
                    hyphened_name: false,
                    identifier: false,
                    difference: difference_at(&lower, next) || relative,
                    ratio: false,
                    share: None,
                    tally: false,
                    whole: None,
                    position: false,
                },
                1.0,
                next,
            ));
            i = next;
            continue;
        }
        let Some((value, decimals, scale, clock, next)) = number_at(lexemes, &lower, i) else {
            i += 1;
            continue;
        };
        let currency = i
            .checked_sub(1)
            .filter(|&p| lexicon::CURRENCY_PREFIXES.contains(&lower[p].as_str()))
            .and_then(|p| unit_at(&lower, p).map(|(u, _)| u));
        let meridiem = meridiem_at(&lower, next);
        let (measure, after) = if let Some(text) = clock {
            match meridiem {
                Some(pm) => (Measure::Clock(time_of_day(&text, Some(pm))), next + 1),
                None => (Measure::Clock(time_of_day(&text, None)), next),
            }
        } else if let Some(pm) = meridiem.filter(|_| currency.is_none()) {
            // "10am", "5.30pm": a time of day, read as the 24-hour clock writes it.
            let text = if decimals == 2 {
                format!("{}:{:02}", value.trunc(), (value.fract() * 100.0).round())
            } else {
                format!("{value}")
            };
            (Measure::Clock(time_of_day(&text, Some(pm))), next + 1)
        } else if let Some(unit) = currency {
            (Measure::Unit(unit), next)
        } else if let Some(unit) = glued_unit(lexemes, &lower, next) {
            (Measure::Unit(unit), next + 1)
        } else if let Some((unit, after)) = unit_at(&lower, next) {
            (Measure::Unit(unit), after)
        } else {
            (follower(lexemes, &lower, next), next)
        };
        let written_as_year = lexemes[i].kind == LexKind::Number
            && !lexemes[i].text.contains([',', '.'])
            && scale == 1.0;
        let glued = lexemes[i].kind == LexKind::Number
            && lexemes.get(i + 1).is_some_and(|n| {
                n.kind == LexKind::Word && (n.hyphenated || touches(&lexemes[i], n))
            });
        // A number glued to letters that are no unit ("1080p", "12GB", "64-bit") is a token of
        // its own, read with its letters, not a year or a bare count. Plural and ordinal endings
        // ("1980s", "21st") keep the number what it was.
        let glued_token = glued
            && next == i + 1
            && matches!(measure, Measure::Bare | Measure::Noun(_))
            && !matches!(lower[next].as_str(), "s" | "st" | "nd" | "rd" | "th");
        // A number hyphened to the word before it ("carbon-12", "COVID-19") is part of a name,
        // as one glued to the word after it is; not a prefix of time or rank ("mid-1990s",
        // "under-21", "top-10").
        let glued_after_word = lexemes[i].hyphenated
            && i.checked_sub(1).is_some_and(|p| {
                lexemes[p].kind == LexKind::Word
                    && !matches!(
                        lower[p].as_str(),
                        "mid"
                            | "pre"
                            | "post"
                            | "early"
                            | "late"
                            | "under"
                            | "over"
                            | "top"
                            | "non"
                            | "circa"
                            | "c"
                            | "ca"
                    )
            })
            && matches!(measure, Measure::Bare | Measure::Noun(_));
        // "September 4, 1998": a day after its month, written the American way, is a date's
        // day, not a model number after a name nor a count.
        // A word after the day does not count it ("on March 3 approved the project", "the
        // June 12 deadline"); "May" opening a text may be the verb ("May 5 people ...").
        let month_before = i.checked_sub(1).is_some_and(|p| {
            lexicon::MONTHS.contains(&lower[p].as_str())
                && lexemes[p].text.starts_with(char::is_uppercase)
                && !(p == 0 && lower[p] == "may")
        });
        let day_after_month = month_before
            && matches!(measure, Measure::Bare | Measure::Noun(_))
            && currency.is_none()
            && scale == 1.0
            && value.fract() == 0.0
            && (1.0..=31.0).contains(&value);
        let identifier = !glued_token
            && !day_after_month
            && currency.is_none()
            && scale == 1.0
            && matches!(measure, Measure::Bare | Measure::Noun(_))
            && !(written_as_year && (1000.0..=2100.0).contains(&value))
            && after_name(lexemes, &lower, i)
            // "lost to Dunmore 4-3", "beat Rovers 3 \u{2013} 1": a score, not a model number.
            && !score_at(lexemes, next);
        let before = |back: usize| i.checked_sub(back).map(|p| lower[p].as_str());
        let years_old = matches!(&measure, Measure::Unit(u) if u.name == "year")
            && lower.get(after).is_some_and(|w| w == "old");
        // "died at 77": a bare number after "at" right after a death is the age at it.
        let age_word = matches!(measure, Measure::Bare)
            && (matches!(before(1), Some("aged" | "turned" | "age"))
                || (before(2) == Some("age") && before(1) == Some("of"))
                || (before(1) == Some("at") && matches!(before(2), Some("died" | "dies"))));
        // "at week 68", "until year 5": a number after a unit of time counts that unit from
        // the start ("at week 68" is 68 weeks in), unless it is a calendar year ("the year
        // 2020").
        let counted_time = i
            .checked_sub(1)
            .filter(|_| matches!(measure, Measure::Bare) && currency.is_none() && scale == 1.0)
            .filter(|_| !(written_as_year && (1000.0..=2100.0).contains(&value)))
            .filter(|&p| lexemes[p].kind == LexKind::Word && !lower[p].ends_with('s'))
            .and_then(|p| unit_at(&lower, p).filter(|(_, after)| *after == i))
            .map(|(u, _)| u)
            .filter(|u| u.dimension == Dimension::Time);
        let measure = match counted_time {
            Some(unit) => Measure::Unit(unit),
            None => measure,
        };
        let measure = match measure {
            _ if years_old || age_word => Measure::Age,
            _ if day_after_month => Measure::Day(lower[i - 1].clone()),
            _ if glued_token => Measure::Noun(fold(&lower[next])),
            _ if identifier || glued_after_word => Measure::Noun(fold(&lower[i - 1])),
            Measure::Bare | Measure::Noun(_)
                if written_as_year && (1000.0..=2100.0).contains(&value) =>
            {
                Measure::Year
            }
            Measure::Day(_) if value > 31.0 || value.fract() != 0.0 => Measure::Bare,
            other => other,
        };
        let (factor, offset) = match &measure {
            Measure::Unit(u) if u.name == "°F" => (5.0 / 9.0, -32.0),
            Measure::Unit(u) => (u.factor, 0.0),
            _ => (1.0, 0.0),
        };
        let mut raw = value * scale;
        let mut tolerance = 0.5 * 10f64.powi(-(decimals as i32)) * scale * factor;
        // "the 1940s" is any year from 1940 to 1949.
        if measure == Measure::Year && lexemes[i].text.ends_with('s') && value % 10.0 == 0.0 {
            raw += 4.5;
            tolerance = 4.5;
        }
        // A currency sign opens the quantity: what bounds or hedges it stands before the sign
        // ("just under £430", "more than $2 billion", "a further €70m").
        let start = if currency.is_some() { i - 1 } else { i };
        let (bound, near) = bound_at(&lower, start);
        let hedged = hedged_at(&lower, start);
        let compound =
            (glued && matches!(measure, Measure::Noun(_))) || identifier || glued_after_word;
        let text = lexemes[i..after.max(i + 1)]
            .iter()
            .map(|l| l.text)
            .collect::<Vec<_>>()
            .join(" ");
        let relative = relative_at(&lower, after.max(i + 1), &measure);
        let ratio = ratio_at(&lower, after.max(i + 1))
            || lower[i] == "twice"
            || multiplier(&lower[i]).is_some();
        // The noun a number counts is not in its span: "400 mAh more than" is a difference.
        let counted_difference =
            matches!(measure, Measure::Noun(_)) && difference_at(&lower, after.max(i + 1) + 1);
        out.push((
            Quantity {
                value: (raw + offset) * factor,
                tolerance,
                measure,
                bound,
                near,
                hedged,
                at: i,
                span: start..after.max(i + 1),
                text,
                compound,
                hyphened_name: glued_after_word,
                identifier,
                difference: difference_at(&lower, after.max(i + 1))
                    || counted_difference
                    || ratio
                    || relative
                    || increment_at(&lower, start)
                    || named_difference_at(&lower, start),
                ratio,
                share: None,
                tally: false,
                whole: None,
                position: false,
            },
            scale,
            next,
        ));
        i = after.max(i + 1);
    }
    spread_ranges(lexemes, &lower, &mut out);
    read_signs(lexemes, &lower, &mut out);
    join_mixed_units(&lower, &mut out);
    absorb_margins(&lower, &mut out);
    carry_units_forward(&lower, &mut out);
    resolve_later_years(&lower, &mut out);
    resolve_seasons(lexemes, &mut out);
    mark_shares(&lower, &mut out);
    mark_tallies(lexemes, &mut out);
    continue_identifiers(lexemes, &mut out);
    mark_positions(lexemes, &lower, &mut out);
    out.into_iter().map(|(q, _, _)| q).collect()
}

/// "5 hours 48 minutes", "4 days and 6 hours", "6 feet 2 inches": one amount written in two
/// units, the smaller after the larger, is their sum, not two quantities (read apart, "5
/// hours" met a claim's "under five hours"). The larger part is kept as the amount's
/// [`Quantity::whole`], which a claim that rounds down ("lasted 11 hours") still states.
fn join_mixed_units(lower: &[String], found: &mut Vec<(Quantity, f64, usize)>) {
    let mut k = 0;
    while k + 1 < found.len() {
        let (larger, smaller) = (&found[k].0, &found[k + 1].0);
        let adjacent = smaller.at == larger.span.end
            || (smaller.at == larger.span.end + 1
                && lower.get(larger.span.end).is_some_and(|w| w == "and"));
        let mixed = match (&larger.measure, &smaller.measure) {
            (Measure::Unit(a), Measure::Unit(b)) => {
                a.dimension == b.dimension
                    && !matches!(a.dimension, Dimension::Percent | Dimension::Currency)
                    && b.factor < a.factor
            }
            _ => false,
        };
        let plain = |q: &Quantity| q.bound.is_none() && !q.difference && q.share.is_none();
        if adjacent && mixed && smaller.bound.is_none() && plain(smaller) {
            let (smaller, _, _) = found.remove(k + 1);
            let larger = &mut found[k].0;
            larger.whole = Some((larger.value, larger.tolerance));
            larger.value += smaller.value;
            larger.tolerance = smaller.tolerance;
            larger.text = format!("{} {}", larger.text, smaller.text);
            larger.span.end = smaller.span.end;
            larger.difference |= smaller.difference;
        } else {
            k += 1;
        }
    }
}

/// Temperatures below zero: after a minus sign ("\u{2212}23 \u{b0}C") or the word "minus"
/// ("minus two degrees"), and degrees "below zero" ("23 degrees below zero"); degrees signed
/// so, or "above zero", are a temperature (Celsius). A hyphen before a number signs it only
/// when it is glued to the number alone ("from -3.1\u{b0}C", as a keyboard writes the minus
/// sign) and the number is a temperature: it joins ranges and names far more often.
fn read_signs(lexemes: &[Lexeme<'_>], lower: &[String], found: &mut Vec<(Quantity, f64, usize)>) {
    let mut zeros = Vec::new();
    for (q, _, _) in found.iter_mut() {
        let before = q.span.start.checked_sub(1);
        let typed_minus = |p: usize| {
            let hyphen = &lexemes[p];
            hyphen.text == "-"
                && hyphen.start + 1 == lexemes[q.span.start].start
                && p.checked_sub(1).is_none_or(|o| {
                    let before = &lexemes[o];
                    // "12 -15°C" is a range typed loosely, not minus 15.
                    before.kind != LexKind::Number
                        && (before.start + before.text.len() < hyphen.start
                            || before.text.chars().all(|c| "([\u{201c}\"".contains(c)))
                })
        };
        let minus_sign =
            before.is_some_and(|p| lexemes[p].text == "\u{2212}" || lower[p] == "minus");
        let signed = minus_sign || before.is_some_and(typed_minus);
        let zero = |side: &str| {
            lower.get(q.span.end).is_some_and(|w| w == side)
                && lower.get(q.span.end + 1).is_some_and(|w| w == "zero")
        };
        let degrees = matches!(&q.measure, Measure::Unit(u) if u.dimension == Dimension::Angle);
        let (below, above) = (degrees && zero("below"), degrees && zero("above"));
        if below || above {
            q.measure = Measure::Unit(base_unit(Dimension::Temperature, "\u{b0}C"));
            q.span.end += 2;
            zeros.push(q.span.end - 1);
        } else if minus_sign && degrees {
            q.measure = Measure::Unit(base_unit(Dimension::Temperature, "\u{b0}C"));
        }
        // Only a temperature takes the sign: a change written "\u{2212}14.9%" is the loss a
        // claim states as "lost 15%".
        let temperature =
            matches!(&q.measure, Measure::Unit(u) if u.dimension == Dimension::Temperature);
        if temperature && (signed || below) && q.value > 0.0 {
            q.value = -q.value;
            if let Some(p) = before.filter(|_| signed) {
                q.span.start = p;
            }
        }
    }
    // The "zero" of "below zero" is no quantity of its own.
    found.retain(|(q, _, _)| !zeros.contains(&q.at));
}

/// "10,984 \u{b1} 25 m": the margin after "\u{b1}" is how far the value may be off, not a
/// quantity of its own (the value has taken its unit in `spread_ranges`).
fn absorb_margins(lower: &[String], found: &mut Vec<(Quantity, f64, usize)>) {
    let mut k = 0;
    while k + 1 < found.len() {
        let (value, margin) = (&found[k].0, &found[k + 1].0);
        let joined = lower.get(value.span.end).is_some_and(|w| w == "\u{b1}")
            && margin.at == value.span.end + 1
            && value.measure == margin.measure;
        if joined {
            let (margin, _, _) = found.remove(k + 1);
            let value = &mut found[k].0;
            value.tolerance = value.tolerance.max(margin.value.abs());
            value.span.end = margin.span.end;
        }
        k += 1;
    }
}

/// "3-2", "7\u{2013}2": two whole numbers with nothing but a dash between them, neither a year
/// nor a measure with a unit, are a score or a tally (see [`Quantity::tally`]).
fn mark_tallies(lexemes: &[Lexeme<'_>], found: &mut [(Quantity, f64, usize)]) {
    let plain = |q: &Quantity| {
        matches!(q.measure, Measure::Bare | Measure::Noun(_))
            && !q.compound
            && q.value.fract() == 0.0
            && q.value >= 0.0
            && q.bound.is_none()
    };
    let dash = |at: usize| {
        lexemes
            .get(at)
            .is_some_and(|l| matches!(l.text, "-" | "\u{2013}" | "\u{2014}"))
    };
    for k in 1..found.len() {
        let (before, after) = found.split_at_mut(k);
        let (first, _, _) = &mut before[k - 1];
        let (second, _, _) = &mut after[0];
        let end = first.span.end;
        let joined = (second.at == end && lexemes.get(end).is_some_and(|l| l.hyphenated))
            || (second.at == end + 1 && dash(end));
        if joined && first.at + 1 == end && plain(first) && plain(second) {
            first.tally = true;
            second.tally = true;
        }
    }
}

/// "Phase 1/2", "USB 3.2/4": a number joined by a slash to an identifier's number is part of
/// that identifier, not a count of the noun after it ("2 trial").
fn continue_identifiers(lexemes: &[Lexeme<'_>], found: &mut [(Quantity, f64, usize)]) {
    for k in 1..found.len() {
        let (before, after) = found.split_at_mut(k);
        let (first, _, _) = &before[k - 1];
        let (second, _, _) = &mut after[0];
        let slash = lexemes.get(first.span.end).is_some_and(|l| l.text == "/");
        if first.identifier && slash && second.at == first.span.end + 1 {
            second.identifier = true;
            second.compound = true;
            second.measure = first.measure.clone();
        }
    }
}

/// Whether the lower-cased `word` is one of [`lexicon::SERIES_NOUNS`].
fn series_noun(word: &str) -> bool {
    lexicon::SERIES_NOUNS.contains(&word)
}

/// The numbers that say which one of a numbered series a thing is (see
/// [`Quantity::position`]): a whole number right after such a noun ("won stage nine", "Game
/// 7"), and an ordinal a few words before one ("the ninth and hardest stage", "the 9th
/// stage"), which is added as a quantity of its own. A claim's "stage nine" then meets the
/// page's "ninth stage" and no other figure of the sentence ("2.8 kilometres", "14 seconds").
fn mark_positions(
    lexemes: &[Lexeme<'_>],
    lower: &[String],
    found: &mut Vec<(Quantity, f64, usize)>,
) {
    /// How far after an ordinal its noun may stand ("the ninth and hardest stage").
    const ORDINAL_REACH: usize = 3;
    // Every ordinal ends so, in words ("ninth", "second") or after its digits ("9th").
    const ENDINGS: [&str; 4] = ["st", "nd", "rd", "th"];
    for (q, scale, _) in found.iter_mut() {
        let kind = q.at.checked_sub(1).map(|p| lower[p].as_str());
        let whole = *scale == 1.0 && q.value.fract() == 0.0 && q.value >= 1.0;
        let countable = matches!(q.measure, Measure::Bare)
            || (q.identifier && matches!(q.measure, Measure::Noun(_)));
        if let Some(kind) = kind.filter(|k| series_noun(k)) {
            // A score is no position: "won the game 3-1" (see `mark_tallies`).
            if whole && countable && q.bound.is_none() && !q.tally && !q.text.contains('.') {
                make_position(q, kind);
            }
        }
    }
    // "9th" (one lexeme: the lexer keeps an ordinal's digits and ending together) or "ninth".
    let ordinal_value = |j: usize| -> Option<f64> {
        let word = lower[j].as_str();
        if !ENDINGS.iter().any(|e| word.ends_with(e)) {
            return None;
        }
        let digits = &word[..word.len() - 2];
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            return digits.parse().ok();
        }
        let &(_, digits) = lexicon::ORDINALS.iter().find(|(w, _)| *w == word)?;
        digits.trim_end_matches(char::is_alphabetic).parse().ok()
    };
    let mut added = Vec::new();
    for j in 0..lexemes.len() {
        // "the second-longest day" is a rank of its own (see `rank`), no position.
        let hyphened = lexemes.get(j + 1).is_some_and(|n| n.hyphenated);
        let Some(value) = ordinal_value(j).filter(|_| !hyphened) else {
            continue;
        };
        // The noun within reach, past words that may describe it ("the ninth and hardest
        // stage"): in lower case ("their first World Series title" names no series), no
        // function word but "and" ("his 20th goal of the season", "the third time this
        // season" number goals and times), and no superlative right after the ordinal ("the
        // third largest stage" is a rank).
        let describes = |k: usize| {
            lexemes[k].kind == LexKind::Word
                && !lexemes[k].text.starts_with(char::is_uppercase)
                && (lower[k] == "and" || !is_stopword(&lower[k]))
                && !(k == j + 1 && (lower[k].ends_with("est") || lower[k] == "most"))
        };
        let reach = lexemes.len().min(j + 1 + ORDINAL_REACH);
        let Some(noun) = (j + 1..reach)
            .take_while(|&k| describes(k))
            .find(|&k| series_noun(&lower[k]))
        else {
            continue;
        };
        if let Some((q, _, _)) = found.iter_mut().find(|(q, _, _)| q.at == j) {
            make_position(q, &lower[noun]);
            continue;
        }
        let mut q = Quantity {
            value,
            tolerance: 0.5,
            measure: Measure::Bare,
            bound: None,
            near: false,
            hedged: false,
            at: j,
            span: j..j + 1,
            text: lexemes[j].text.to_string(),
            compound: false,
            hyphened_name: false,
            identifier: false,
            difference: false,
            ratio: false,
            share: None,
            tally: false,
            whole: None,
            position: false,
        };
        make_position(&mut q, &lower[noun]);
        added.push((q, 1.0, j + 1));
    }
    if !added.is_empty() {
        found.extend(added);
        found.sort_by_key(|(q, _, _)| q.at);
    }
}

/// Makes `q` the position in the series the lower-cased noun `kind` names.
fn make_position(q: &mut Quantity, kind: &str) {
    q.measure = Measure::Noun(fold(kind));
    q.position = true;
    q.compound = true;
    q.identifier = true;
}

/// The scores or tallies among `quantities` (see [`Quantity::tally`]): the indices of each
/// one's two numbers.
pub fn tally_pairs(quantities: &[Quantity]) -> Vec<(usize, usize)> {
    (1..quantities.len())
        .filter(|&k| {
            let (first, second) = (&quantities[k - 1], &quantities[k]);
            // "9-6", or "nine votes to six" with its noun and "to" between.
            let reach = if matches!(first.measure, Measure::Noun(_)) {
                3
            } else {
                1
            };
            first.tally && second.tally && second.at <= first.span.end + reach
        })
        .map(|k| (k - 1, k))
        .collect()
}

/// Words that may stand between a part and its whole: "420 of the 1,150", "three of its five".
const PART_OF: &[&str] = &["the", "its", "their", "his", "her", "our", "all"];

/// "About 420 of the 1,150 jobs", "three of its five plants": a count followed by "of" and a
/// larger count of the same kind is a part of that whole; its share is kept.
fn mark_shares(lower: &[String], found: &mut [(Quantity, f64, usize)]) {
    for k in 0..found.len().saturating_sub(1) {
        let (left, right) = found.split_at_mut(k + 1);
        let (part, whole) = (&mut left[k].0, &right[0].0);
        let between = &lower[part.span.end.min(whole.at)..whole.at];
        let joined = between.first().is_some_and(|w| w == "of")
            && between.len() <= 2
            && between[1..].iter().all(|w| PART_OF.contains(&w.as_str()));
        if joined && counts(&part.measure) && counts(&whole.measure) {
            part.share = share(part, whole);
        }
    }
    // The whole first: "Of the 417 discharges in the case, 289 took place in dry weather",
    // "cost £3.2 million, of which £2.6 million came from the lottery". A part the text already
    // gives its whole ("300 of the 600") keeps that share.
    for k in 1..found.len() {
        let (left, right) = found.split_at_mut(k);
        let (whole, part) = (&left[k - 1].0, &mut right[0].0);
        if part.share.is_some() {
            continue;
        }
        let between = lower
            .get(whole.span.end..part.span.start)
            .unwrap_or_default();
        let between: Vec<&str> = between.iter().map(String::as_str).collect();
        let of_which = matches!(
            between.as_slice(),
            ["of", "which" | "whom"] | [",", "of", "which" | "whom"]
        );
        let both_counts = counts(&part.measure) && counts(&whole.measure);
        // "..., of which": the part is of the whole whatever it counts or measures in one unit.
        let of_which = of_which && (both_counts || part.measure == whole.measure);
        // "Of the 417 discharges ..., 289": the part counts what the whole counts.
        let of_first = opens_with_of(lower, whole)
            && closes_the_of_phrase(&between)
            && both_counts
            && counts_the_same(lower, part, whole);
        if of_which || of_first {
            part.share = share(part, whole);
        }
    }
}

/// The part's share of the whole in percent, for a part that is a plain amount smaller than
/// its whole (not a model number, nor an amount added on top: "a further 30", "30 more").
fn share(part: &Quantity, whole: &Quantity) -> Option<f64> {
    let plain = |q: &Quantity| !q.compound && !q.difference;
    (plain(part) && plain(whole) && whole.value > 0.0 && part.value < whole.value)
        .then(|| 100.0 * part.value / whole.value)
}

/// Whether "Of the ..." before `whole` opens its sentence, or a clause after a semicolon or a
/// colon: the whole is then what the sentence counts from. A comma is no such opening ("He
/// thanked the chair, of the 12 regional committees, and 5 volunteers").
fn opens_with_of(lower: &[String], whole: &Quantity) -> bool {
    let word = |back: usize| {
        whole
            .span
            .start
            .checked_sub(back)
            .map(|p| (p, lower[p].as_str()))
    };
    let of_at = match word(1) {
        Some((p, "of")) => Some(p),
        Some((_, w)) if PART_OF.contains(&w) => word(2).filter(|(_, w)| *w == "of").map(|(p, _)| p),
        _ => None,
    };
    of_at.is_some_and(|p| p == 0 || matches!(lower[p - 1].as_str(), ";" | ":"))
}

/// Whether the words between a whole that opens its sentence and the part close the "Of ..."
/// phrase with a comma, within [`WHOLE_FIRST_REACH`] and before any end of a clause.
fn closes_the_of_phrase(between: &[&str]) -> bool {
    between.len() <= WHOLE_FIRST_REACH
        && between.contains(&",")
        && !between
            .iter()
            .any(|w| matches!(*w, "." | ";" | ":" | "!" | "?"))
}

/// Whether the part counts what the whole counts: a bare part, the same noun, or a part
/// followed by its verb rather than by another noun ("289 took place", not "289 residents").
fn counts_the_same(lower: &[String], part: &Quantity, whole: &Quantity) -> bool {
    if !matches!(part.measure, Measure::Noun(_)) {
        return true;
    }
    if part.measure == whole.measure {
        return true;
    }
    let after = lower.get(part.span.end).map_or("", String::as_str);
    lexicon::FINITE_VERBS.contains(&after)
        || after.ends_with("ed")
        || lexicon::IRREGULAR_PASTS.contains(&after)
}

/// How many lexemes may separate a whole that opens its sentence ("Of the 1,211 participants
/// who were given corvaline,") from the part counted out of it.
const WHOLE_FIRST_REACH: usize = 12;

/// A count of things, not a measure: the parts and wholes of a share.
fn counts(measure: &Measure) -> bool {
    matches!(measure, Measure::Bare | Measure::Noun(_))
}

/// "the 2015-16 season", "fiscal 2023/24": a year and the next written with its last two
/// digits name a season or a financial year that ends in the second, which is read as that
/// year (2016), so a claim that dates the season by either year finds it.
fn resolve_seasons(lexemes: &[Lexeme<'_>], found: &mut [(Quantity, f64, usize)]) {
    for k in 1..found.len() {
        let (before, after) = found.split_at_mut(k);
        let (year, _, _) = &before[k - 1];
        let (next, _, _) = &mut after[0];
        let dash = year.span.end;
        let two_digits = |at: usize| lexemes.get(at).is_some_and(|l| l.text.len() == 2);
        let by_dash = next.span.start == dash + 1
            && lexemes
                .get(dash)
                .is_some_and(|l| matches!(l.text, "-" | "\u{2013}" | "/"))
            && two_digits(dash + 1);
        let by_hyphen = next.span.start == dash
            && lexemes.get(dash).is_some_and(|l| l.hyphenated)
            && two_digits(dash);
        let joined = by_dash || by_hyphen;
        let following = (year.value + 1.0) % 100.0 == next.value;
        if year.measure == Measure::Year
            && matches!(next.measure, Measure::Bare | Measure::Noun(_))
            && joined
            && following
        {
            next.value = year.value + 1.0;
            next.tolerance = 0.5;
            next.measure = Measure::Year;
        }
    }
}

/// "in 1960, and they were married two years later": a whole number of years "later" (or
/// "afterwards") after a year of the same text names a year, 1962, and is read as that year.
/// Narratives chain them, so the year found is the next one's starting point.
fn resolve_later_years(lower: &[String], found: &mut [(Quantity, f64, usize)]) {
    let mut last_year: Option<f64> = None;
    for (q, _, _) in found.iter_mut() {
        match &q.measure {
            Measure::Year => last_year = Some(q.value),
            Measure::Unit(u) if u.name == "year" && q.bound.is_none() => {
                // The value is in the dimension's base unit; the unit's factor gives years.
                let years = q.value / u.factor;
                let later = lower
                    .get(q.span.end)
                    .is_some_and(|w| matches!(w.as_str(), "later" | "afterwards"));
                let whole = (years - years.round()).abs() < 1e-6 && years >= 1.0;
                if let Some(start) = last_year.filter(|_| later && whole) {
                    let year = start + years.round();
                    q.value = year;
                    q.tolerance = 0.5;
                    q.measure = Measure::Year;
                    q.text = format!("{} later ({year})", q.text);
                    last_year = Some(year);
                }
            }
            _ => {}
        }
    }
}

/// Whether the number at `i` follows a capitalised word that is part of a name: not the
/// sentence's first word ("In 2019", "About 40"), not a month, weekday, currency or unit.
fn after_name(lexemes: &[Lexeme<'_>], lower: &[String], i: usize) -> bool {
    let Some(p) = i.checked_sub(1) else {
        return false;
    };
    let prev = &lexemes[p];
    let opens_sentence = p.checked_sub(1).map(|b| &lexemes[b]).is_none_or(|b| {
        b.kind == LexKind::Punct
            && matches!(
                b.text,
                ":" | "\u{201C}" | "\"" | "(" | "." | "!" | "?" | "|" | "\u{2014}"
            )
    });
    let word = lower[p].as_str();
    // An opening word that may be a name: an opening function word, hedge or bound leads an
    // amount ("In 2.5 hours", "Roughly 4.5 tonnes").
    let opening_name = opens_sentence
        && !is_stopword(word)
        && !lexicon::HEDGES.contains(&word)
        && !lexicon::COMPARATORS
            .iter()
            .any(|&(first, _, _)| first == word);
    // "Lantern 4.0 contains", "Python 3.12 adds": a number with a point straight after a name
    // that opens the sentence is its version, as inside a sentence.
    let version_at_opening = opening_name && lexemes[i].text.contains('.');
    // "Voyager 2 can be commanded", "Python 3 was released": a whole number between a name
    // that opens the sentence and a verb that is singular or shows no number is the name's
    // number. A count opening a sentence comes after an adverb ("Exactly 40 had been hurt",
    // "Barely 40 will come") or takes a plural verb ("Forty were hurt").
    let name_at_opening = opening_name
        && !word.ends_with("ly")
        && lower.get(i + 1).is_some_and(|next| {
            matches!(
                next.as_str(),
                "is" | "was" | "has" | "had" | "can" | "could" | "will" | "would" | "does" | "did"
            )
        });
    // "Apple's 150 stores" and "5,000 cars" are amounts: a possessive owns the quantity, and
    // model numbers are not written with thousands separators.
    let possessive = word.ends_with("'s") || word.ends_with("\u{2019}s");
    prev.kind == LexKind::Word
        && written_as_name(prev.text)
        && !possessive
        && !lexemes[i].text.contains(',')
        && prev.start + prev.text.len() < lexemes[i].start
        && (!opens_sentence || version_at_opening || name_at_opening)
        && !lexicon::MONTHS.contains(&word)
        && !lexicon::WEEKDAYS.contains(&word)
        && !lexicon::CURRENCY_PREFIXES.contains(&word)
        && unit_at(lower, p).is_none()
}

/// Whether a score's second number starts at `next` ("4-3", "3 \u{2013} 1").
fn score_at(lexemes: &[Lexeme<'_>], next: usize) -> bool {
    let number = |k: usize| lexemes.get(k).is_some_and(|l| l.kind == LexKind::Number);
    let dash = lexemes
        .get(next)
        .is_some_and(|l| matches!(l.text, "-" | "\u{2013}" | "\u{2014}"));
    (number(next) && lexemes[next].hyphenated) || (dash && number(next + 1))
}

/// Whether a denial stands right before the comparator whose first word is at `first`: "no
/// more than 32 GiB" and "not less than a year" state the opposite bound. Not "never above
/// 5%" or "not under surveillance", which deny as often as they bound.
fn denied_comparator(lower: &[String], first: usize) -> bool {
    let denial = first
        .checked_sub(1)
        .is_some_and(|p| matches!(lower[p].as_str(), "no" | "not" | "never"));
    denial && matches!(lower[first].as_str(), "more" | "less" | "fewer")
}

/// The comparator before the number at lexeme `i`, with the index of its first word.
fn comparator_at(lower: &[String], i: usize) -> Option<(Bound, usize)> {
    let before = |back: usize| i.checked_sub(back).map(|p| lower[p].as_str());
    lexicon::COMPARATORS
        .iter()
        .find_map(|&(first, second, bound)| {
            let (hit, back) = match second {
                Some(second) => (before(2) == Some(first) && before(1) == Some(second), 2),
                None => (before(1) == Some(first), 1),
            };
            hit.then(|| (bound, i - back))
        })
}

/// The bound written before the number at lexeme `i` ("more than", "over", "at most") and
/// whether it is a close one: "just over a minute", "slightly more than 40%", "a shade under
/// 13 minutes". The value is then near the bound, on its side ([`Quantity::near`]), not
/// anywhere past it.
fn bound_at(lower: &[String], i: usize) -> (Option<Bound>, bool) {
    match comparator_at(lower, i) {
        Some((bound, first)) if denied_comparator(lower, first) => (Some(bound.flipped()), false),
        Some((bound, first)) => {
            let near = first
                .checked_sub(1)
                .is_some_and(|p| lexicon::NEAR_BOUNDS.contains(&lower[p].as_str()));
            (Some(bound), near)
        }
        None => (None, false),
    }
}

/// Whether a comparative and "than" follow the quantity ending before `end`: "three minutes
/// longer than", "40 more than", "£2 million less than"; a few words may name what is counted
/// between the two ("eight more dates than", "three years more security support than").
fn difference_at(lower: &[String], end: usize) -> bool {
    let comparative = lower.get(end).is_some_and(|w| is_comparative(w));
    let word = |k: usize| {
        lower.get(k).is_some_and(|w| {
            w.chars().all(char::is_alphabetic) && !matches!(w.as_str(), "and" | "or" | "but")
        })
    };
    comparative
        && (end + 1..=end + 1 + THAN_REACH)
            .any(|k| lower.get(k).is_some_and(|w| w == "than") && (end + 1..k).all(word))
}

/// How many words may stand between a difference's comparative and its "than".
const THAN_REACH: usize = 3;

/// Whether a share ending before `end` is a change relative to another value: a comparative
/// right after it, "than" or not ("two-thirds more messages per second than", "30% fewer
/// staff", "a fifth cheaper"). A share never counts the compared things themselves, so, as
/// with "40% higher than", it fills the slot of a comparison, not of either value.
fn relative_at(lower: &[String], end: usize, measure: &Measure) -> bool {
    let word = |k: usize| lower.get(k).map_or("", String::as_str);
    is_percent(measure) && (is_comparative(word(end)) || as_much_again(lower, end))
}

/// Whether "as much again" (or "as many", "as large" ... "again") starts at lexeme `k`: after
/// a share ("half as much again", "a third as many again") it says that much more.
fn as_much_again(lower: &[String], k: usize) -> bool {
    lower.get(k).is_some_and(|w| w == "as") && lower.get(k + 2).is_some_and(|w| w == "again")
}

/// Whether the number at lexeme `i` is named a difference ("a difference of 2.2 days", "a gap
/// of 14 seconds", "a margin of 312 votes"): it is how far apart two values are, not either.
fn named_difference_at(lower: &[String], i: usize) -> bool {
    let word = |back: usize| i.checked_sub(back).map_or("", |p| lower[p].as_str());
    word(1) == "of" && matches!(word(2), "difference" | "gap" | "margin")
}

/// Whether the number at lexeme `i` is an amount added to another ("a further 70 jobs will
/// go", "another 3 years"): the part that comes on top fills another slot than the whole.
fn increment_at(lower: &[String], i: usize) -> bool {
    i.checked_sub(1).is_some_and(|p| {
        matches!(
            lower[p].as_str(),
            "further" | "another" | "additional" | "extra"
        )
    })
}

/// The ratio a verb of multiplying states ("doubled", "trebles", "quadrupling", "halved": the
/// larger value over the smaller). Not "double" or "doubles" alone, which are as often a room,
/// a drink or a game of tennis.
fn multiplier(word: &str) -> Option<f64> {
    let stem = ["ed", "ing", "es"]
        .iter()
        .find_map(|end| word.strip_suffix(end))?;
    match stem {
        "doubl" if word != "doubles" => Some(2.0),
        "tripl" | "trebl" => Some(3.0),
        "quadrupl" => Some(4.0),
        "halv" => Some(2.0),
        _ => None,
    }
}

/// Whether the quantity ending before `end` is a ratio of two values: "four times larger",
/// "three times as many", "twice as long" is no count of anything.
fn ratio_at(lower: &[String], end: usize) -> bool {
    // The counted noun is not consumed: "times" is at `end`, or just before it.
    let word = |k: usize| lower.get(k).map_or("", String::as_str);
    let next = if word(end) == "times" {
        word(end + 1)
    } else if end.checked_sub(1).is_some_and(|p| word(p) == "times") {
        word(end)
    } else {
        return false;
    };
    next == "as" || is_comparative(next)
}

/// Comparatives of increase beyond [`lexicon::MORE`] that a share before them changes by
/// ("a fifth dearer").
pub const MORE_BY: &[&str] = &["dearer", "longer", "faster", "heavier"];
/// Comparatives of decrease beyond [`lexicon::LESS`] ("a third cheaper").
pub const LESS_BY: &[&str] = &["cheaper", "shorter", "slower", "lighter"];

/// A comparative that a share before it changes ("a fifth fewer", "a third cheaper"): not
/// every word in "-er", since "a third quarter" is no change.
fn changes_by(word: &str) -> bool {
    [lexicon::MORE, MORE_BY, lexicon::LESS, LESS_BY]
        .iter()
        .any(|words| words.contains(&word))
}

/// "more", "fewer", "larger", "longer": a word that compares two values.
fn is_comparative(word: &str) -> bool {
    lexicon::MORE.contains(&word)
        || lexicon::LESS.contains(&word)
        || (word.ends_with("er") && word.len() > 4)
}

fn hedged_at(lower: &[String], i: usize) -> bool {
    let before = |back: usize| i.checked_sub(back).map(|p| lower[p].as_str());
    [before(1), before(2)]
        .into_iter()
        .flatten()
        .any(|w| lexicon::HEDGES.contains(&w))
        // "close to forty ships", as "nearly forty".
        || (before(2) == Some("close") && before(1) == Some("to"))
}

/// The percentage unit.
pub fn percent() -> Unit {
    base_unit(Dimension::Percent, "%")
}

/// The unit of `dimension` named `name` with factor 1, as the lexicon spells it.
fn base_unit(dimension: Dimension, name: &'static str) -> Unit {
    lexicon::UNITS
        .iter()
        .find(|(_, u)| u.dimension == dimension && u.name == name)
        .map(|&(_, u)| u)
        .unwrap_or(Unit {
            name,
            dimension,
            factor: 1.0,
        })
}

/// A fraction as a percentage: "a fifth of", "two-thirds of", "half of", "one in twenty",
/// "1 in 20". A fraction word needs "of" after it, so that "the fifth edition" stays an
/// ordinal.
fn fraction_at(lexemes: &[Lexeme<'_>], lower: &[String], i: usize) -> Option<(f64, usize)> {
    let count = |k: usize| -> Option<f64> {
        let w = lower.get(k)?.as_str();
        match lexemes[k].kind {
            LexKind::Number if !w.contains([',', '.', ':']) => w.parse().ok(),
            LexKind::Word if w == "a" || w == "one" => Some(1.0),
            LexKind::Word => lexicon::UNITS_WORDS
                .iter()
                .find(|(name, _)| *name == w)
                .map(|&(_, v)| v as f64),
            _ => None,
        }
    };
    let part = |k: usize| -> Option<f64> {
        let w = lower.get(k)?.as_str();
        lexicon::FRACTIONS
            .iter()
            .find(|(name, _)| *name == w || format!("{name}s") == w)
            .map(|&(_, d)| d)
    };
    // "the first half of the year" is a period, not 50 % of it; "his half of the business"
    // is what someone owns, however a page words it ("his half share").
    let period = i.checked_sub(1).is_some_and(|p| {
        matches!(
            lower[p].as_str(),
            "first"
                | "second"
                | "latter"
                | "other"
                | "his"
                | "her"
                | "their"
                | "its"
                | "my"
                | "our"
        )
    });
    if lower[i] == "half" && lower.get(i + 1).is_some_and(|w| w == "of") && !period {
        return Some((50.0, i + 1));
    }
    // "fell by two-thirds", "cut by nearly a third", "rose by half": a change by a share
    // needs no "of".
    let after_by = [i.checked_sub(1), i.checked_sub(2)]
        .into_iter()
        .flatten()
        .find(|&p| !lexicon::HEDGES.contains(&lower[p].as_str()))
        .is_some_and(|p| lower[p] == "by");
    let again = |k: usize| as_much_again(lower, k);
    if lower[i] == "half" && (after_by || again(i + 1)) {
        return Some((50.0, i + 1));
    }
    let numerator = count(i)?;
    if let Some(denominator) = part(i + 1) {
        // "nine-tenths full", "two thirds": a plural part is no ordinal, "of" or not.
        let plural = numerator > 1.0 && lower[i + 1].ends_with('s');
        // "a fifth fewer", "a third cheaper": a change by a share, as after "by".
        let change = lower.get(i + 2).is_some_and(|w| changes_by(w));
        if after_by || plural || change || again(i + 2) {
            return Some((100.0 * numerator / denominator, i + 2));
        }
        return lower
            .get(i + 2)
            .filter(|w| *w == "of")
            .map(|_| (100.0 * numerator / denominator, i + 2));
    }
    let of = match (
        lower.get(i + 1).map(String::as_str),
        lower.get(i + 2).map(String::as_str),
    ) {
        (Some("in"), _) => 2,
        (Some("out"), Some("of")) => 3,
        // "one entry in ten", "one adult in five": the counted noun between (not after "a":
        // "scored a goal in seven matches" counts matches).
        (Some(noun), Some("in"))
            if matches!(lower[i].as_str(), "one" | "1")
                && lexemes[i + 1].kind == LexKind::Word
                && !is_stopword(noun)
                && unit_at(lower, i + 1).is_none() =>
        {
            3
        }
        _ => return None,
    };
    let denominator = count(i + of).filter(|d| (2.0..1000.0).contains(d))?;
    // "one goal in five minutes" is a rate in time, not a share.
    if of == 3 && lower[i + 2] == "in" && unit_at(lower, i + of + 1).is_some() {
        return None;
    }
    (numerator < denominator).then_some((100.0 * numerator / denominator, i + of + 1))
}

/// "five to six weeks", "between 20,000 and 80,000 individuals", "25 to 30 million years": the
/// first number takes the second's scale and unit when it has none of its own.
fn spread_ranges(lexemes: &[Lexeme<'_>], lower: &[String], found: &mut [(Quantity, f64, usize)]) {
    for k in (0..found.len().saturating_sub(1)).rev() {
        let (left, right) = found.split_at_mut(k + 1);
        let (a, a_scale, a_end) = &mut left[k];
        let (b, b_scale, _) = &mut right[0];
        let joined = *a_end + 1 == b.at
            && matches!(
                lower[*a_end].as_str(),
                "to" | "-" | "\u{2013}" | "and" | "or" | "\u{b1}"
            )
            || *a_end == b.at && lexemes[b.at].hyphenated;
        if !joined || *a_scale != 1.0 {
            continue;
        }
        // "€80-88 million": the currency sign stands before the first number and the scale
        // after the second, and each belongs to both.
        if let Measure::Unit(unit) = &a.measure {
            if unit.dimension == Dimension::Currency
                && b.measure == Measure::Bare
                && *b_scale != 1.0
                && a.value * *b_scale < b.value * unit.factor
            {
                a.value *= *b_scale;
                a.tolerance *= *b_scale;
                *a_scale = *b_scale;
                b.value *= unit.factor;
                b.tolerance *= unit.factor;
                b.measure = a.measure.clone();
            }
            continue;
        }
        if a.measure != Measure::Bare {
            continue;
        }
        let factor = match &b.measure {
            Measure::Unit(u) if u.name != "°F" => u.factor,
            Measure::Unit(_) => continue,
            _ => 1.0,
        };
        a.value *= *b_scale * factor;
        a.tolerance *= *b_scale * factor;
        a.measure = b.measure.clone();
        *a_scale = *b_scale;
    }
}

/// "from 1,950 tonnes to about 700", "from 42% to 35", "from roughly ten miles to almost
/// fifteen": the second number of a "from ... to" takes the first's unit when it has none of
/// its own. So does the second of a count "from 20 stalls to 35" or a vote "by 11 votes to
/// 9" take the first's noun: the 9 are votes, no rival of a claim's "two new ferries".
fn carry_units_forward(lower: &[String], found: &mut [(Quantity, f64, usize)]) {
    for k in 1..found.len() {
        let (left, right) = found.split_at_mut(k);
        let (a, _, _) = &mut left[k - 1];
        let (b, b_scale, _) = &mut right[0];
        let word_before = |back: usize| a.span.start.checked_sub(back).map(|p| lower[p].as_str());
        let from = word_before(1) == Some("from")
            || (word_before(2) == Some("from")
                && word_before(1).is_some_and(|w| lexicon::HEDGES.contains(&w)));
        let to = a.span.end;
        let joined = lower.get(to).is_some_and(|w| w == "to")
            && (to + 1 == b.at
                || (to + 2 == b.at && lexicon::HEDGES.contains(&lower[to + 1].as_str())));
        if let Measure::Noun(_) = &a.measure {
            // The counted noun stands between the number and "to", outside its span.
            let to = a.span.end + 1;
            let joined = lower.get(to).is_some_and(|w| w == "to")
                && (to + 1 == b.at
                    || (to + 2 == b.at && lexicon::HEDGES.contains(&lower[to + 1].as_str())));
            let by = word_before(1) == Some("by");
            if (from || by) && joined && b.measure == Measure::Bare && *b_scale == 1.0 {
                b.measure = a.measure.clone();
                // "by nine votes to six" is a tally, read as a whole like "voted 9-6"; "fell by
                // 3 seats to 47" or "by three points to ten" is a change and where it ended,
                // whose second figure is the larger.
                if by && a.value.fract() == 0.0 && b.value.fract() == 0.0 && a.value >= b.value {
                    a.tally = true;
                    b.tally = true;
                }
            }
            continue;
        }
        let Measure::Unit(unit) = &a.measure else {
            continue;
        };
        if !from || !joined || b.measure != Measure::Bare || *b_scale != 1.0 || unit.name == "°F" {
            continue;
        }
        b.value *= unit.factor;
        b.tolerance *= unit.factor;
        b.measure = a.measure.clone();
    }
}

/// Whether "am" or "pm" stands at `i` (glued or apart: "10am", "5 pm", "10 a.m." whose
/// stops the lexer keeps in the word): `Some(true)` for the afternoon.
fn meridiem_at(lower: &[String], i: usize) -> Option<bool> {
    match lower.get(i).map(String::as_str) {
        Some("am" | "a.m" | "a.m.") => Some(false),
        Some("pm" | "p.m" | "p.m.") => Some(true),
        _ => None,
    }
}

/// A time of day or a clock reading as the 24-hour clock writes it, without a leading zero:
/// "17:00" for "5pm" and "17:00", "9:30" for "09:30" and "9.30am". Readings of three parts
/// ("2:00:35") are kept as written. `pm`: `Some(true)` after "pm", `Some(false)` after "am".
fn time_of_day(text: &str, pm: Option<bool>) -> String {
    let parts: Vec<&str> = text.split(':').collect();
    let (hours, minutes) = match parts.as_slice() {
        [h] => (h.parse::<u32>().ok(), Some(0)),
        [h, m] if m.len() == 2 => (h.parse::<u32>().ok(), m.parse::<u32>().ok()),
        _ => return text.to_string(),
    };
    let (Some(mut hours), Some(minutes)) = (hours, minutes) else {
        return text.to_string();
    };
    match pm {
        Some(afternoon) if (1..=12).contains(&hours) => {
            hours %= 12;
            if afternoon {
                hours += 12;
            }
        }
        Some(_) => return text.to_string(),
        None => {}
    }
    format!("{hours}:{minutes:02}")
}

type NumberAt = (f64, u32, f64, Option<String>, usize);

/// The number starting at `i`: value, decimals written, scale, clock text, next index.
fn number_at(lexemes: &[Lexeme<'_>], lower: &[String], i: usize) -> Option<NumberAt> {
    let lexeme = &lexemes[i];
    let (value, decimals, mut next) = match lexeme.kind {
        LexKind::Number if lexeme.text.contains(':') => {
            return Some((0.0, 0, 1.0, Some(lexeme.text.to_string()), i + 1));
        }
        LexKind::Number => {
            let text = lexeme.text.trim_end_matches(['s', 'S']);
            // "1,5 million", "6,5 %": a lone comma before one or two final digits is a decimal
            // comma, as much of Europe writes it; a thousands separator has three after it.
            let decimal_comma = !text.contains('.')
                && text.matches(',').count() == 1
                && text
                    .rsplit_once(',')
                    .is_some_and(|(_, tail)| (1..=2).contains(&tail.len()));
            let digits: String = if decimal_comma {
                text.replace(',', ".")
            } else {
                text.chars().filter(|&c| c != ',').collect()
            };
            let decimals = digits.split_once('.').map_or(0, |(_, d)| d.len() as u32);
            let value = digits.parse::<f64>().ok()?;
            match and_a_part(lower, i + 1) {
                Some((part, next)) if decimals == 0 => (value + part, 1, next),
                _ => (value, decimals, i + 1),
            }
        }
        LexKind::Word => {
            let (mut value, mut next) = number_words(lexemes, lower, i)?;
            if let Some((part, after)) = and_a_part(lower, next) {
                value += part;
                next = after;
            }
            // "half an hour" is written to the half: 30 minutes give or take a few.
            (value, u32::from(value.fract() != 0.0), next)
        }
        _ => return None,
    };
    let mut scale = 1.0;
    while let Some(&(_, s)) = lower
        .get(next)
        .and_then(|w| lexicon::SCALES.iter().find(|(name, _)| name == w))
    {
        scale *= s;
        next += 1;
    }
    // A money figure's glued letters are its scale, as newspapers abbreviate it ("£40m",
    // "$3tn", "€250k"), not a unit: forty metres is not what "£40m" means.
    let after_currency = i
        .checked_sub(1)
        .is_some_and(|p| lexicon::CURRENCY_PREFIXES.contains(&lower[p].as_str()));
    let glued_letters = lexemes
        .get(next)
        .is_some_and(|n| n.kind == LexKind::Word && touches(lexeme, n));
    if scale == 1.0 && after_currency && glued_letters {
        if let Some(&(_, s)) = lexicon::MONEY_SCALES
            .iter()
            .find(|(name, _)| *name == lower[next])
        {
            scale = s;
            next += 1;
        }
    }
    // "1.5m people", "a population of 1.5m": newspapers glue the million to counts as well.
    // Only a counted noun after it, or a count's noun before it, says so: "the 100m final" and
    // "1.5m tall" are metres.
    if scale == 1.0 && !after_currency && glued_letters && lower[next] == "m" {
        let counted_after = lower
            .get(next + 1)
            .is_some_and(|w| COUNTED.contains(&fold_plural(w)));
        let counted_before = i
            .checked_sub(2)
            .is_some_and(|p| lower[p + 1] == "of" && COUNTED_TOTALS.contains(&lower[p].as_str()));
        if counted_after || counted_before {
            scale = 1e6;
            next += 1;
        }
    }
    Some((value, decimals, scale, None, next))
}

/// Nouns counted in millions that newspapers write after a glued "m" ("1.5m people"), in the
/// singular.
const COUNTED: &[&str] = &[
    "people",
    "person",
    "resident",
    "viewer",
    "user",
    "customer",
    "passenger",
    "visitor",
    "subscriber",
    "vote",
    "voter",
    "copy",
    "unit",
    "barrel",
    "tonne",
    "household",
    "home",
    "job",
    "worker",
    "member",
    "follower",
    "download",
    "listener",
    "reader",
    "tourist",
    "inhabitant",
    "patient",
    "child",
    "adult",
    "case",
    "dose",
    "vehicle",
    "car",
    "tree",
    "animal",
    "bird",
    "ticket",
    "fan",
    "student",
];

/// Totals whose figure a glued "m" gives in millions ("a population of 1.5m").
const COUNTED_TOTALS: &[&str] = &[
    "population",
    "audience",
    "attendance",
    "turnout",
    "membership",
    "readership",
    "workforce",
];

/// Whether `b` is written right after `a`, with no space between ("12GB", "£40m").
fn touches(a: &Lexeme<'_>, b: &Lexeme<'_>) -> bool {
    b.start == a.start + a.text.len()
}

/// A unit letter glued to the figure before it, as newspapers abbreviate: "40C", "104F",
/// "10pc". Apart, "C" and "F" are more often grades, names or notes.
fn glued_unit(lexemes: &[Lexeme<'_>], lower: &[String], at: usize) -> Option<Unit> {
    let (before, lexeme) = (lexemes.get(at.checked_sub(1)?)?, lexemes.get(at)?);
    let glued = lexeme.kind == LexKind::Word && touches(before, lexeme);
    if !glued || before.kind != LexKind::Number {
        return None;
    }
    let spelling: &[&str] = match lower[at].as_str() {
        "c" => &["°c"],
        "f" => &["°f"],
        "pc" => &["%"],
        _ => return None,
    };
    lexicon::UNITS
        .iter()
        .find(|(s, _)| *s == spelling)
        .map(|(_, unit)| *unit)
}

/// "and a half", "and a quarter" or "and three-quarters" from `i`, after a whole number
/// ("three and a half months", "2 and a half years", "twelve and three-quarter minutes", whose
/// hyphen the lexer splits): the part it adds and where the number goes on.
fn and_a_part(lower: &[String], i: usize) -> Option<(f64, usize)> {
    let at = |k: usize| lower.get(i + k).map(String::as_str);
    if at(0) != Some("and") {
        return None;
    }
    match (at(1), at(2)) {
        (Some("three"), Some("quarter" | "quarters")) => return Some((0.75, i + 3)),
        (Some("a" | "one"), _) => {}
        _ => return None,
    }
    match at(2) {
        Some("half") => Some((0.5, i + 3)),
        Some("quarter") => Some((0.25, i + 3)),
        _ => None,
    }
}

/// Number words from `i` ("forty-nine", "two hundred", "seven million", "a dozen"). "one" and
/// "a" alone are not numbers: they are far more often pronouns and articles.
fn number_words(lexemes: &[Lexeme<'_>], lower: &[String], i: usize) -> Option<(f64, usize)> {
    let small = |w: &str| {
        lexicon::UNITS_WORDS
            .iter()
            .find(|(name, _)| *name == w)
            .map(|&(_, v)| v as f64)
    };
    let big = |w: &str| {
        lexicon::SCALES
            .iter()
            .find(|(name, _)| *name == w)
            .map(|&(_, v)| v)
    };
    let first = lower[i].as_str();
    // "twice as many", "twice larger": a ratio of two (see [`ratio_at`]); "won twice" counts
    // times, which are no quantity here.
    if first == "twice"
        && lower
            .get(i + 1)
            .is_some_and(|w| w == "as" || is_comparative(w))
    {
        return Some((2.0, i + 1));
    }
    // "doubled", "nearly quadruples", "halved": a change by that ratio.
    if let Some(factor) = multiplier(first) {
        return Some((factor, i + 1));
    }
    // "half an hour", "half a second", "half a million".
    if first == "half"
        && lower
            .get(i + 1)
            .is_some_and(|w| matches!(w.as_str(), "a" | "an"))
        && (unit_at(lower, i + 2).is_some() || lower.get(i + 2).is_some_and(|w| big(w).is_some()))
    {
        return Some((0.5, i + 2));
    }
    // "within a decade", "for an hour": one unit of time, after a word that opens a span (not
    // "£80 a year", a rate).
    let spans = i
        .checked_sub(1)
        .is_some_and(|p| SPAN_OPENERS.contains(&lower[p].as_str()))
        && !compares_a_time(lexemes, lower, i);
    if matches!(first, "a" | "an")
        && spans
        && unit_at(lower, i + 1).is_some_and(|(u, _)| u.dimension == Dimension::Time)
    {
        return Some((1.0, i + 1));
    }
    // "an hour and 37 minutes": one of the larger unit, before its smaller part (the two are
    // joined as one amount later).
    let number_at = |k: usize| {
        lexemes.get(k).is_some_and(|l| l.kind == LexKind::Number)
            || lower.get(k).is_some_and(|w| small(w).is_some())
    };
    if matches!(first, "a" | "an")
        && unit_at(lower, i + 1).is_some_and(|(u, end)| {
            u.dimension == Dimension::Time
                && lower.get(end).is_some_and(|w| w == "and")
                && number_at(end + 1)
        })
    {
        return Some((1.0, i + 1));
    }
    if first == "a" || first == "one" {
        let next = lower.get(i + 1).map(String::as_str).unwrap_or("");
        let scaled = big(next).is_some() || next == "dozen";
        // "one-hundred", "one-day"; not "one-off", "one-way" or "one-sided", which are no
        // amounts.
        let compound = first == "one"
            && lexemes.get(i + 1).is_some_and(|l| l.hyphenated)
            && (small(next).is_some()
                || big(next).is_some()
                || next == "dozen"
                || unit_at(lower, i + 1).is_some());
        let measured = first == "one" && unit_at(lower, i + 1).is_some();
        // "one and a half hours".
        let and_part = first == "one" && and_a_part(lower, i + 1).is_some();
        if !(scaled || compound || measured || and_part) {
            return None;
        }
        if first == "a" {
            let (v, n) = number_words(lexemes, lower, i + 1).unwrap_or((1.0, i + 1));
            return Some((v, n));
        }
    }
    small(first)?;
    let (mut total, mut current): (f64, f64) = (0.0, 0.0);
    let mut j = i;
    while j < lexemes.len() && lexemes[j].kind == LexKind::Word {
        let w = lower[j].as_str();
        if w == "dozen" {
            // "two dozen" is 24, not 2 and 12; "a dozen" starts here at 12.
            current = current.max(1.0) * 12.0;
        } else if let Some(v) = small(w) {
            current += v;
        } else if w == "hundred" {
            current = current.max(1.0) * 100.0;
        } else if w == "thousand" {
            total += current.max(1.0) * 1e3;
            current = 0.0;
        } else if w == "and"
            && lower.get(j + 1).is_some_and(|n| small(n).is_some())
            && j > i
            && (current >= 100.0 || total > 0.0)
        {
            // "one hundred and five"; not "twelve and three-quarter minutes", whose "and" adds
            // a part of the unit (see `and_a_part`).
        } else {
            break;
        }
        j += 1;
    }
    Some((total + current, j))
}

/// Whether `measure` is a percentage.
pub fn is_percent(measure: &Measure) -> bool {
    matches!(measure, Measure::Unit(u) if u.dimension == Dimension::Percent)
}

/// Whether "than" before the "a" at `i` compares a figure with a time ("8% more than a year
/// earlier", "£19 million more than a year before"): a figure stands before "more" or "less".
fn compares_a_time(lexemes: &[Lexeme<'_>], lower: &[String], i: usize) -> bool {
    let Some(figure) = i.checked_sub(3) else {
        return false;
    };
    lower[i - 1] == "than"
        && (lexemes[figure].kind == LexKind::Number
            || lexicon::SCALES
                .iter()
                .any(|(name, _)| *name == lower[figure])
            || matches!(lower[figure].as_str(), "%" | "cent" | "percent" | "points"))
}

/// Words before "a" or "an" and a unit of time that make it one such unit: "within a decade",
/// "more than a century", "nearly a year".
const SPAN_OPENERS: &[&str] = &["within", "inside", "for", "over", "after", "under", "than"];

/// A unit spelled at `i`, and the index after it.
fn unit_at(lower: &[String], i: usize) -> Option<(Unit, usize)> {
    lexicon::UNITS.iter().find_map(|(spelling, unit)| {
        let fits = spelling
            .iter()
            .enumerate()
            .all(|(k, part)| lower.get(i + k).is_some_and(|w| fold_plural(w) == *part));
        fits.then_some((*unit, i + spelling.len()))
    })
}

/// What follows a number when it is not a unit: a month (a date), a counted noun, or nothing.
fn follower(lexemes: &[Lexeme<'_>], lower: &[String], i: usize) -> Measure {
    let Some(next) = lexemes.get(i).filter(|l| l.kind == LexKind::Word) else {
        return Measure::Bare;
    };
    let word = lower[i].as_str();
    if lexicon::MONTHS.contains(&word) {
        return Measure::Day(word.to_string());
    }
    if super::lex::is_stopword(word) || next.text.starts_with(char::is_uppercase) {
        return Measure::Bare;
    }
    Measure::Noun(fold(word))
}

#[cfg(test)]
mod tests {
    use super::super::compare::{same, same_slot};
    use super::super::lex::lex;
    use super::*;

    #[test]
    fn a_figure_named_a_difference_is_one() {
        // Round thirty-five (migraine-04): "a difference of 2.2 days" is no reduction of 2.1.
        let page = quantities(&lex(
            "against 2.1 fewer among those on placebo, a difference of 2.2 days",
        ));
        let difference = page.last().expect("a quantity");
        assert!(difference.difference, "{difference:?}");
        assert!(!same_slot(
            &first("the 2.1-day reduction"),
            difference,
            true
        ));
        assert!(!first("a reduction of 2.2 days").difference);
    }

    #[test]
    fn half_as_much_again_is_half_as_much_more() {
        // Round thirty-four (ouzel-06).
        let page = first("The final cost was more than half as much again as the estimate");
        assert!(page.difference, "{page:?}");
        assert!(same(
            &first("cost over 50% more than its engineer had forecast"),
            &page
        ));
        assert!(!same_slot(
            &first("cost 50% of what was forecast"),
            &page,
            true
        ));
    }

    #[test]
    fn a_number_of_a_numbered_series_is_a_position_not_a_count() {
        // Round thirty-four (stage-01): "stage nine" is the ninth stage, not nine of anything.
        let claim = first("Lykke won stage nine of the Tour of the Northern Fells");
        assert!(claim.position, "{claim:?}");
        let page = quantities(&lex(
            "Lykke won the ninth and hardest stage, attacking 2.8 kilometres from the summit",
        ));
        let ninth = page.iter().find(|q| q.position).expect("the ninth stage");
        assert!(same(&claim, ninth), "{ninth:?}");
        assert!(page
            .iter()
            .filter(|q| !q.position)
            .all(|q| !same_slot(&claim, q, true)));
        assert!(same(&claim, &first("the 9th stage")));
        assert!(same(&claim, &first("Stage 9 was the hardest")));
        // Another stage is a rival; a count of stages is not.
        assert!(same_slot(&claim, &first("won stage two"), false));
        assert!(!same(&claim, &first("won stage two")));
        assert!(!same_slot(&claim, &first("won nine stages"), true));
        // A rank is no position, nor is a version a part of a series.
        assert!(quantities(&lex("the second-longest day of the walk")).is_empty());
        assert!(!first("Starting with version 5, Quarry enforces it").position);
        // An ordinal numbers the noun it describes, not a series noun further on.
        for text in [
            "his 20th goal of the season",
            "the fourth quarter of the game",
            "the third time this season",
            "the first half of the season",
            "the third largest stage",
        ] {
            assert!(!quantities(&lex(text)).iter().any(|q| q.position), "{text}");
        }
        // Nor is a score a position.
        assert!(!quantities(&lex("won the game 3-1"))
            .iter()
            .any(|q| q.position));
    }

    #[test]
    fn an_amount_in_two_units_is_one_quantity_a_claim_may_round_down() {
        let mixed = first("finished in 5 hours 48 minutes");
        assert!(
            (mixed.value - (5.0 * 3600.0 + 48.0 * 60.0)).abs() < 1.0,
            "{mixed:?}"
        );
        assert!(same(&first("in 348 minutes"), &mixed));
        assert!(same(&first("in 5 hours"), &mixed));
        // A bound is read against the whole amount.
        assert!(!same(&first("in under five hours"), &mixed));
        assert!(same(
            &first("lasted 100 hours"),
            &first("lasted 4 days and 4 hours")
        ));
        // Two amounts of money are two quantities.
        let text = "cost £5 and £3 a month";
        let lexemes = lex(text);
        assert_eq!(quantities(&lexemes).len(), 2);
    }

    #[test]
    fn letters_glued_to_a_figure_are_its_scale_or_unit_as_newspapers_write_them() {
        assert!(same(&first("1.5m people"), &first("1.5 million people")));
        assert!(same(
            &first("a population of 1.5m"),
            &first("a population of 1.5 million")
        ));
        assert!(same(
            &first("40C in the shade"),
            &first("40 degrees Celsius")
        ));
        assert!(same(&first("104F"), &first("104 degrees Fahrenheit")));
        assert!(same(&first("up 10pc"), &first("up 10 per cent")));
        // A glued "m" before anything but a counted noun is metres.
        for text in ["the 100m final", "a 1.5m statue", "1.5m tall"] {
            assert!(
                matches!(&first(text).measure, Measure::Unit(u) if u.dimension == Dimension::Length),
                "{text}"
            );
        }
    }

    #[test]
    fn a_whole_number_and_a_half_or_a_quarter_is_one_value() {
        assert!(same(
            &first("lasted roughly three and a half months"),
            &first("lasted 108 days")
        ));
        assert!(same(
            &first("took 2 and a half years"),
            &first("took 30 months")
        ));
        assert!(same(&first("one and a half hours"), &first("90 minutes")));
        assert!(same(
            &first("in a shade under twelve and three-quarter minutes"),
            &first("in 12 minutes 41.3 seconds")
        ));
        assert!(same(
            &first("two and three quarters miles"),
            &first("2.75 miles")
        ));
        assert!(same(
            &first("three and a quarter million copies"),
            &first("3.25 million copies")
        ));
        assert!(!same(
            &first("lasted three and a half months"),
            &first("lasted 150 days")
        ));
    }

    #[test]
    fn basis_and_percentage_points_are_one_measure() {
        assert!(same(
            &first("raised rates by 50 basis points"),
            &first("raised rates by 0.5 percentage points")
        ));
        assert!(!same(
            &first("cut rates by 25 basis points"),
            &first("cut rates by 0.5 percentage points")
        ));
        // "points" alone after a rate's figure may meet percentage points, never conflict.
        let points = first("a bonus of 0.85 points");
        let percentage_points = first("a bonus of 0.85 percentage points");
        assert!(same(&points, &percentage_points));
        assert!(!same_slot(
            &first("a bonus of 0.5 points"),
            &percentage_points,
            false
        ));
    }

    #[test]
    fn a_part_of_one_unit_is_that_much_of_the_unit() {
        assert!(same(
            &first("lowered its rate by a quarter of a percentage point"),
            &first("lowered its rate by 25 basis points")
        ));
        assert!(same(
            &first("raised rates by half a percentage point"),
            &first("raised rates by 50 basis points")
        ));
        assert!(same(&first("a third of a mile"), &first("0.33 miles")));
        assert!(!same(&first("a third of a mile"), &first("0.5 miles")));
        // A share of a whole stays a percentage.
        assert_eq!(first("a third of the jobs").value, 100.0 / 3.0);
    }

    #[test]
    fn a_bound_on_one_unit_of_time_is_a_span() {
        assert!(same(
            &first("more than a century after the battle"),
            &first("well over a hundred years after the battle")
        ));
        assert_eq!(first("less than an hour").bound, Some(Bound::AtMost));
        // A figure compared with a time ago is no span: "more than" there binds the figure.
        for text in [
            "Sales were 8% more than a year earlier.",
            "Revenue was £19 million more than a year before.",
        ] {
            let time = |q: &Quantity| matches!(&q.measure, Measure::Unit(u) if u.dimension == Dimension::Time);
            assert!(!quantities(&lex(text)).iter().any(time), "{text}");
        }
    }

    fn first(text: &str) -> Quantity {
        quantities(&lex(text))
            .into_iter()
            .next()
            .expect("a quantity")
    }

    #[test]
    fn power_energy_and_land_are_measured_in_their_units() {
        for (a, b) in [
            ("a 1.2 GW wind farm", "a 1,200-megawatt project"),
            ("about 3.1 TWh a year", "3,100 gigawatt-hours a year"),
            ("a 75 kWh battery", "a 75-kilowatt-hour battery"),
            ("clocked at 3.2 GHz", "a 3,200 MHz clock"),
            ("about 44 hectares", "roughly 0.44 square kilometres"),
            ("109 acres", "about 44 hectares"),
        ] {
            assert!(same(&first(a), &first(b)), "{a} / {b}");
        }
        // Power is no energy, and another capacity is a rival.
        assert!(!same_slot(
            &first("a 75 kW charger"),
            &first("a 75 kWh battery"),
            false
        ));
        assert!(!same(
            &first("a 1.2 GW wind farm"),
            &first("a 1,500-megawatt project")
        ));
        // A threshold crossed is a lower bound.
        let crossed = first("CO2 topped 420 parts per million");
        assert_eq!(crossed.bound, Some(Bound::AtLeast), "{crossed:?}");
    }

    #[test]
    fn a_day_after_its_month_is_a_day() {
        let all = quantities(&lex(
            "Google was founded on September 4, 1998, by two students.",
        ));
        assert_eq!(all[0].measure, Measure::Day("september".to_string()));
        assert_eq!(all[0].value, 4.0);
        assert_eq!(all[1].measure, Measure::Year);
        // "May" opening a text may be the verb: its number counts what follows.
        assert!(!matches!(
            first("May 5 people join the board?").measure,
            Measure::Day(_)
        ));
        // A word after the day counts nothing: the date dates it.
        for text in [
            "The board on March 3 approved the project.",
            "before the June 12 deadline",
        ] {
            assert!(matches!(first(text).measure, Measure::Day(_)), "{text}");
        }
        // A number after a name that is no month stays the name's ("Model 3").
        assert!(first("The Model 3 went on sale.").identifier);
    }

    #[test]
    fn a_whole_number_after_an_opening_name_and_before_a_singular_verb_is_the_name_s() {
        for text in [
            "Voyager 2 can be commanded only from Canberra.",
            "Python 3 was released.",
        ] {
            assert!(first(text).identifier, "{text}");
        }
        // A count takes a plural verb; a hedge or a bound leads an amount.
        for text in [
            "Exactly 40 were hurt.",
            "Exactly 40 had been hurt.",
            "Barely 40 will come.",
            "Roughly 40 was the count.",
            "In 2019 was ...",
        ] {
            assert!(!first(text).identifier, "{text}");
        }
    }

    #[test]
    fn close_to_a_number_hedges_it() {
        assert!(first("close to forty ships were waiting").hedged);
        assert!(!first("close by, forty ships were waiting").hedged);
    }

    #[test]
    fn an_age_is_read_as_an_age_and_not_as_a_span_of_years() {
        for text in [
            "She was 22 years old",
            "a 22-year-old rider",
            "died aged 22",
            "who turned 22 in March",
            "at the age of 22",
            "She died at 22 in Leiden",
        ] {
            let q = first(text);
            assert_eq!(q.measure, Measure::Age, "{text}");
            assert_eq!(q.value, 22.0, "{text}");
        }
        // "at 22" after anything but a death is no age ("arrived at 22 Baker Street").
        assert_ne!(
            first("She arrived at 22 Baker Street").measure,
            Measure::Age
        );
        // A span of years stays a duration, and the two are different slots.
        let (age, span) = (
            first("She was 45 years old"),
            first("She served for 12 years"),
        );
        assert!(matches!(span.measure, Measure::Unit(_)));
        assert!(!same_slot(&age, &span, false) && !same_slot(&age, &span, true));
        // A bare number beside a name ("Reyn, 24, won") states the age a claim gives.
        assert!(same(
            &first("Reyn is 24 years old"),
            &first("Reyn, 24, won")
        ));
        assert!(!same(
            &first("Reyn is 22 years old"),
            &first("who turned 24 in March")
        ));
        assert!(same_slot(
            &first("Reyn is 22 years old"),
            &first("who turned 24"),
            false
        ));
    }

    #[test]
    fn values_are_read_with_scale_units_and_words() {
        let table: &[(&str, f64)] = &[
            ("1,642 metres", 1642.0),
            ("2.5 million rivets", 2_500_000.0),
            ("seven million people", 7_000_000.0),
            ("Forty-nine copies", 49.0),
            ("twenty-one copies", 21.0),
            ("a dozen eggs", 12.0),
            ("two dozen oil lamps", 24.0),
            // Below zero, by sign, word or phrase.
            ("it was \u{2212}23 \u{b0}C on the platform", -23.0),
            ("it was 23 degrees below zero", -23.0),
            ("minus two degrees", -2.0),
            // A hyphen typed for the minus sign, glued to a temperature only.
            ("warmed from -3.1\u{b0}C in 2015", -3.1),
            ("(-3.1\u{b0}C)", -3.1),
            // A change's minus is the loss a claim states without it.
            ("a mean change of \u{2212}14.9% in body weight", 14.9),
            // One of the larger unit before the smaller part: 97 minutes.
            ("an hour and 37 minutes late", 5820.0),
            ("three dozen", 36.0),
            ("42-kilometre route", 42_000.0),
            ("1.2 billion euros", 1.2e9),
            ("€300 million", 3e8),
            // A money figure's glued scale letters; a length's "m" stays a metre.
            ("£40m raised", 4e7),
            ("$3tn valuation", 3e12),
            ("€250k budget", 250_000.0),
            ("a 40m tower", 40.0),
            ("4.99 per cent", 4.99),
            ("two hundred and five", 205.0),
        ];
        for (text, value) in table {
            let q = first(text);
            assert!((q.value - value).abs() < 1e-6, "{text}: {}", q.value);
        }
        // A hyphen spaced from the number, or before a number that is no temperature, is no
        // sign.
        for text in [
            "between 12 - 15 \u{b0}C",
            "stayed at 12 -15\u{b0}C",
            "pages 3 -4",
            "a score of -2 on the scale",
        ] {
            let values: Vec<f64> = quantities(&lex(text)).iter().map(|q| q.value).collect();
            assert!(values.iter().all(|v| *v >= 0.0), "{text}: {values:?}");
        }
    }

    #[test]
    fn a_time_of_day_reads_as_the_24_hour_clock_writes_it() {
        let clocks = |text: &str| -> Vec<String> {
            quantities(&lex(text))
                .into_iter()
                .filter_map(|q| match q.measure {
                    Measure::Clock(c) => Some(c),
                    _ => None,
                })
                .collect()
        };
        assert_eq!(clocks("open 10am to 5pm"), ["10:00", "17:00"]);
        assert_eq!(clocks("open 10:00 to 17:00"), ["10:00", "17:00"]);
        assert_eq!(clocks("confirmed at 5.09pm"), ["17:09"]);
        assert_eq!(clocks("from 09:30 until 12 pm"), ["9:30", "12:00"]);
        assert_eq!(clocks("at 12am"), ["0:00"]);
        // A race time keeps its three parts; a sum of money before "pm" is none.
        assert_eq!(clocks("won in 2:00:35"), ["2:00:35"]);
        assert!(clocks("costs \u{a3}5 pm").is_empty());
    }

    #[test]
    fn a_numbered_place_is_a_position() {
        for text in ["steered out of lane 3", "the train leaves from platform 9"] {
            let found = quantities(&lex(text));
            assert!(found.iter().all(|q| q.position), "{text}: {found:?}");
        }
    }

    #[test]
    fn a_moment_of_a_match_is_a_position() {
        for text in ["came on in the 74th minute", "crashed on the 12th lap"] {
            let found = quantities(&lex(text));
            assert!(
                !found.is_empty() && found.iter().all(|q| q.position),
                "{text}: {found:?}"
            );
        }
    }

    #[test]
    fn a_season_s_short_second_year_is_the_next_year() {
        let years = |text: &str| -> Vec<(Measure, f64)> {
            quantities(&lex(text))
                .into_iter()
                .map(|q| (q.measure, q.value))
                .collect()
        };
        for text in [
            "They won the 2015-16 title.",
            "They won the 2015\u{2013}16 title.",
            "In fiscal 2015/16 it grew.",
        ] {
            assert_eq!(
                years(text),
                [(Measure::Year, 2015.0), (Measure::Year, 2016.0)],
                "{text}"
            );
        }
        // Not the year after: a count, as before.
        assert_ne!(years("The 2015-40 plan.")[1].0, Measure::Year);
    }

    #[test]
    fn years_later_after_a_year_name_a_year() {
        let years: Vec<(Measure, f64)> = quantities(&lex(
            "They met in 1960 and married two years later; three years later they moved.",
        ))
        .into_iter()
        .map(|q| (q.measure, q.value))
        .collect();
        assert_eq!(
            years,
            [
                (Measure::Year, 1960.0),
                (Measure::Year, 1962.0),
                (Measure::Year, 1965.0)
            ]
        );
        // Without a year before it, or not "later", a span of years stays a duration.
        for text in [
            "He retired two years later.",
            "In 1960 she worked two years there.",
        ] {
            let spans: Vec<Quantity> = quantities(&lex(text))
                .into_iter()
                .filter(|q| q.measure != Measure::Year)
                .collect();
            assert_eq!(spans.len(), 1, "{text}");
            assert!(
                matches!(&spans[0].measure, Measure::Unit(u) if u.name == "year"),
                "{text}"
            );
        }
    }

    #[test]
    fn fractions_are_percentages() {
        let table: &[(&str, f64)] = &[
            ("roughly a fifth of all water", 20.0),
            ("two-thirds of those neurons", 66.67),
            ("half of the votes", 50.0),
            ("about one in twenty cherries", 5.0),
            ("roughly one entry in ten pulled out", 10.0),
            ("1 in 4 adults", 25.0),
            // A change by a share needs no "of".
            ("landings fell by nearly two-thirds", 66.67),
            ("cut by a third", 33.33),
            ("sales rose by half", 50.0),
        ];
        for (text, value) in table {
            let q = first(text);
            assert!((q.value - value).abs() < 0.01, "{text}: {q:?}");
            assert!(same(&q, &first(&format!("{value}%"))), "{text}");
        }
        // A rate in time is no share: "one goal in five minutes"; nor is "a goal in seven".
        assert!(!is_percent(&first("one goal in five minutes").measure));
        assert!(!is_percent(
            &first("scored a goal in seven consecutive matches").measure
        ));
        // A plural part needs no "of"; a singular one does ("the fifth edition").
        assert!((first("close to nine-tenths full").value - 90.0).abs() < 0.01);
        // "within", "inside": at most.
        assert!(same(&first("inside 20 minutes"), &first("in 19 minutes")));
        assert!(!same(&first("inside 20 minutes"), &first("in 24 minutes")));
        // "a decade" after a word that opens a span is one decade; "£80 a year" is a rate.
        assert!(same(&first("within ten years"), &first("within a decade")));
        assert_eq!(quantities(&lex("a salary of £80 a year")).len(), 1);
        // "half an hour", "half a million".
        assert!(same(&first("just over half an hour"), &first("35 minutes")));
        assert!(!same(&first("half an hour"), &first("35 minutes")));
        assert!(same(&first("half a second"), &first("0.5 seconds")));
        assert!(same(
            &first("half a million people"),
            &first("500,000 people")
        ));
        // A share is no count above a hundred.
        assert!(!super::super::compare::same_slot(
            &first("nine-tenths full"),
            &first("a ground that holds 12,400"),
            true
        ));
        // A bound before a fraction bounds it: "more than a third" is at least 33%.
        let bounded = first("more than a third of the jobs");
        assert_eq!(bounded.bound, Some(Bound::AtLeast), "{bounded:?}");
        assert!(same(&bounded, &first("36.5%")));
        assert!(!same(
            &first("less than a third of the jobs"),
            &first("36.5%")
        ));
        // A part of a whole states its share.
        let part = first("about 420 of the 1,150 jobs will go");
        assert!((part.share.unwrap_or(0.0) - 36.52).abs() < 0.01, "{part:?}");
        assert!(same(&first("more than a third of the jobs"), &part));
        assert!(!same(&first("a quarter of the jobs"), &part));
        assert!(!same(&first("a third of the jobs"), &part));
        assert!(same(
            &first("three in ten jobs"),
            &first("3 of its 10 plants")
        ));
        assert_eq!(first("420 of 2025's").share, None);
        // The whole may come first, opening its sentence or clause.
        let found = quantities(&lex("Of the 417 discharges in the case, 289 took place"));
        assert!(
            (found[1].share.unwrap_or(0.0) - 69.30).abs() < 0.01,
            "{found:?}"
        );
        assert!(same(&first("more than two-thirds of them"), &found[1]));
        let found = quantities(&lex("Sales rose; of the 900 shops, 40 closed"));
        assert!(found[1].share.is_some(), "{found:?}");
        // "Of which" after the whole, also for sums of money in one currency.
        let found = quantities(&lex(
            "it cost £3.2 million, of which £2.6 million came from",
        ));
        assert!(
            (found[1].share.unwrap_or(0.0) - 81.25).abs() < 0.01,
            "{found:?}"
        );
        let found = quantities(&lex(
            "it cost £3.2 million, of which $2.6 million came from",
        ));
        assert_eq!(found[1].share, None, "{found:?}");
        // Not a whole in passing, after a list's comma, past the end of its clause, nor a part
        // that counts something else or comes on top.
        for text in [
            "The head of the 417 staff, Ms Reid, said 289 had left",
            "He thanked the chair, of the 12 regional committees, and 5 volunteers",
            "Of the 417 discharges, most were small; 289 firms were fined",
            "Of the 417 discharges, 289 residents complained",
            "Of the 200 employees, a further 30 were hired",
        ] {
            let found = quantities(&lex(text));
            assert!(found.iter().all(|q| q.share.is_none()), "{text}: {found:?}");
        }
        // A part the text gives its own whole keeps that share.
        let found = quantities(&lex(
            "Of the 1,211 participants, 300 of the 600 given it improved",
        ));
        assert!(
            (found[1].share.unwrap_or(0.0) - 50.0).abs() < 0.01,
            "{found:?}"
        );
        assert!(quantities(&lex("it ranks only seventh among lakes")).is_empty());
        assert!(quantities(&lex("the third of the four"))
            .iter()
            .all(|q| !matches!(&q.measure, Measure::Unit(u) if u.name == "%")));
        assert!(quantities(&lex("born in 1960"))
            .iter()
            .all(|q| q.measure == Measure::Year));
    }

    #[test]
    fn the_second_number_of_from_to_takes_the_first_ones_unit() {
        let found = quantities(&lex("landings fell from 1,950 tonnes to about 700, while"));
        assert_eq!(found[1].measure, found[0].measure, "{found:?}");
        assert!(same(&found[1], &first("around 700 tonnes")));
        // Only a bare second number, and only after "from".
        let found = quantities(&lex("it carried 1,950 tonnes to 700, or more"));
        assert_eq!(found[1].measure, Measure::Bare, "{found:?}");
        // A hedge may stand between "from" and the first number, and a currency sign opens
        // the first number.
        let found = quantities(&lex(
            "the day grew from roughly ten miles to almost fifteen",
        ));
        assert_eq!(found[1].measure, found[0].measure, "{found:?}");
        let found = quantities(&lex("the fee rose from £20 to 30 this year"));
        assert_eq!(found[1].measure, found[0].measure, "{found:?}");
        // A count's noun carries too, after "from" or a vote's "by"; not after another word.
        let found = quantities(&lex("the council voted by 11 votes to 9 on Tuesday"));
        assert_eq!(found[1].measure, found[0].measure, "{found:?}");
        assert!(
            found[0].tally && found[1].tally,
            "a vote is a tally: {found:?}"
        );
        assert_eq!(tally_pairs(&found), vec![(0, 1)]);
        let found = quantities(&lex("the market grew from 20 stalls to 35 in a year"));
        assert_eq!(found[1].measure, found[0].measure, "{found:?}");
        let found = quantities(&lex("she gave 20 stalls to 35 traders"));
        assert_ne!(found[1].measure, found[0].measure, "{found:?}");
        // A change and where it ended is no tally, though its end is a count of the noun.
        let found = quantities(&lex("the party fell by 3 seats to 47 at the election"));
        assert_eq!(found[1].measure, found[0].measure, "{found:?}");
        assert!(!found[0].tally && !found[1].tally, "{found:?}");
    }

    #[test]
    fn a_bound_or_hedge_before_a_currency_sign_bounds_the_amount() {
        for (text, bound) in [
            ("it cost just under £430 in all", Some(Bound::AtMost)),
            ("a deal worth more than $2 billion", Some(Bound::AtLeast)),
            ("it cost £430 in all", None),
        ] {
            assert_eq!(first(text).bound, bound, "{text}");
        }
        assert!(first("close to £40 million was raised").hedged);
        assert!(first("a further €70m was spent").difference);
    }

    #[test]
    fn a_denied_comparator_is_the_opposite_bound() {
        for (text, bound) in [
            ("never more than 32 GiB", Some(Bound::AtMost)),
            ("no more than £5 a month", Some(Bound::AtMost)),
            ("not less than a year", Some(Bound::AtLeast)),
            ("no fewer than 40 stations", Some(Bound::AtLeast)),
            ("more than 32 GiB", Some(Bound::AtLeast)),
        ] {
            let q = first(text);
            assert_eq!(q.bound, bound, "{text}");
            assert!(!q.near, "{text}");
        }
        // "never above" and "not under" deny as often as they bound.
        assert_eq!(first("it was never above 5%").bound, Some(Bound::AtLeast));
        assert_eq!(first("not under 24-hour watch").bound, Some(Bound::AtMost));
    }

    #[test]
    fn a_difference_between_values_is_marked() {
        let found = quantities(&lex("at 9:47, nearly three minutes longer than the rest"));
        assert!(found
            .iter()
            .any(|q| q.difference && q.text.contains("three")));
        assert!(!first("it runs for three minutes").difference);
        // A few words may name what is counted between the comparative and "than".
        assert!(first("eight more dates than her 2023 tour").difference);
        assert!(first("three years more security support than the Lyra 3").difference);
        assert!(!first("eight more dates, and fewer than before").difference);
        assert!(!first("640 staff, 40 more than in 2023").difference);
        let found = quantities(&lex("640 staff, 40 more than in 2023"));
        assert!(found[1].difference, "{found:?}");
        assert!(first("the pack is four times larger").difference);
        // A share before a comparative is a change relative to another value, "than" or not.
        assert!(first("about two-thirds more messages a second than before").difference);
        assert!(first("30% fewer staff").difference);
        // "below zero" makes degrees a temperature, and its "zero" no quantity of its own.
        let cold = quantities(&lex("23 degrees below zero"));
        assert_eq!(cold.len(), 1, "{cold:?}");
        assert!(
            matches!(&cold[0].measure, Measure::Unit(u) if u.dimension == Dimension::Temperature)
        );
        let fifth = first("a fifth fewer staff");
        assert!(
            fifth.difference && (fifth.value - 20.0).abs() < 1e-9,
            "{fifth:?}"
        );
        assert!(quantities(&lex("in a third quarter")).is_empty());
        assert!(!first("30% of staff").difference);
        assert!(!first("30 more staff arrived").difference);
        assert!(first("three times as many visitors").difference);
        assert!(!first("he won it four times in a row").difference);
        // An amount on top of another is a difference from the whole.
        assert!(first("and a further 70 jobs will go").difference);
        assert!(first("another 3 years").difference);
        assert!(!first("70 jobs will go").difference);
    }

    #[test]
    fn numbers_in_names_and_glued_tokens_are_identifiers() {
        // Issue 18: model numbers, standards and specifications are words of a name, read
        // with the word they belong to, so that they conflict only with the same kind of token.
        for (text, word) in [
            ("the Nova 3 Pro", "nova"),
            ("runs at USB 3.2 speeds", "usb"),
            ("beat the RTX 4090 easily", "rtx"),
            ("Lantern 4.0 contains work from 143 people", "lantern"),
        ] {
            let q = first(text);
            assert!(q.identifier && q.compound, "{text}: {q:?}");
            assert_eq!(q.measure, Measure::Noun(word.to_string()), "{text}");
        }
        // A number joined to an identifier's by a slash belongs to it.
        let phase = quantities(&lex("dosed in its Phase 1/2 trial"));
        assert!(
            phase.iter().all(|q| q.identifier && q.compound),
            "{phase:?}"
        );
        for (text, word) in [
            ("at 1080p", "p"),
            ("with 12GB of RAM", "gb"),
            ("a 64-bit chip", "bit"),
            ("its commonest isotope, carbon-12, makes up", "carbon"),
        ] {
            let q = first(text);
            assert!(q.compound && !q.identifier, "{text}: {q:?}");
            assert_eq!(q.measure, Measure::Noun(word.to_string()), "{text}");
        }
        // A number hyphened into a name states no count, and the name's own number written
        // apart still states it; a prefix of time or rank makes no name.
        let isotope = first("its commonest isotope, carbon-12, makes up");
        assert!(!same(&first("atomic number 12"), &isotope));
        assert!(same(
            &first("the COVID 19 pandemic"),
            &first("the COVID-19 pandemic")
        ));
        for text in ["in the mid-1990s", "an under-21 side", "a top-10 finish"] {
            assert!(!first(text).hyphened_name, "{text}");
        }
        // Sentence openers, months, currencies, years and scores stay quantities.
        for text in [
            "In 12 days",
            "In 2.5 hours",
            "Roughly 4.5 tonnes",
            "About 1.5 metres",
            "in June 2019",
            "NOK 2.1 billion",
            "the Rust 2024 edition",
            "lost to Dunmore 4-3",
            "beat Fenwick Rovers 3 \u{2013} 1",
            "in the 1980s",
            "the Varo's 5,000 mAh cell",
            "Apple's 150 stores",
        ] {
            assert!(
                quantities(&lex(text)).iter().all(|q| !q.identifier),
                "{text}"
            );
        }
        // The first half of a year is a period, not a share.
        assert!(quantities(&lex("in the first half of the year")).is_empty());
        // Nor is someone's half of a thing: it is what they own, however a page words it.
        assert!(quantities(&lex("selling his half of the business")).is_empty());
    }

    #[test]
    fn a_margin_is_part_of_its_value() {
        let found = quantities(&lex(
            "its maximum known depth is 10,984 \u{b1} 25 m at the deep",
        ));
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(same(&found[0], &first("10,984 metres")), "{found:?}");
        assert!(same(&found[0], &first("11,000 metres")), "{found:?}");
        assert!(!same(&found[0], &first("11,100 metres")), "{found:?}");
    }

    #[test]
    fn a_number_after_a_unit_of_time_counts_that_unit() {
        let found = quantities(&lex("participants lost 15% of their weight at week 68"));
        assert!(same(&found[1], &first("over 68 weeks")), "{found:?}");
        assert!(same(&first("until year 5"), &first("for 5 years")));
        assert_eq!(first("in the year 2020").measure, Measure::Year);
        assert!(!same(&first("until year 5"), &first("for 6 years")));
    }

    #[test]
    fn a_lone_one_or_a_is_not_a_number() {
        assert!(quantities(&lex("only one, the Angara, flows out")).is_empty());
        assert!(quantities(&lex("a one-off bonus on a one-way ticket")).is_empty());
        assert_eq!(first("a one-day strike").value, 86_400.0);
        assert!(quantities(&lex("a seal that lives in one lake")).is_empty());
        assert_eq!(first("one hundred").value, 100.0);
    }
}
