//! Which of two events comes first (pure): "the hubs will only open once the branches have
//! closed" against "the hubs will open before the branches close"; "will wait for the study to
//! report before it applies for a licence" against "plans to apply for a licence ... before
//! the results of the study are published". Each text orders two events with a word of time
//! between them; the events are told apart by the words on each side. The same events on the
//! same sides with opposite words, or traded sides with the same word, flip the claim.

use std::sync::OnceLock;

use super::analyse::Analysis;
use super::lex::{forms_of, normalise};

/// How many content words on each side of the word of time make up its events.
const EVENT_WORDS: usize = 8;

/// Which way a word of time orders the event before it against the one after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Order {
    /// "A before B": A comes first.
    Before,
    /// "A after B", "A once B": B comes first.
    After,
}

/// The folded forms of the single words of time: before, after, once ("following" is as often
/// "the following backup").
fn words() -> &'static (Vec<String>, Vec<String>) {
    static WORDS: OnceLock<(Vec<String>, Vec<String>)> = OnceLock::new();
    WORDS.get_or_init(|| (forms_of(&["before"]), forms_of(&["after", "once"])))
}

/// The folded form of "once", which is also an adverb ("once before", "once the town's largest
/// employer").
fn once() -> &'static str {
    static ONCE: OnceLock<String> = OnceLock::new();
    ONCE.get_or_init(|| normalise("once").form)
}

/// The folded forms of seasons and holidays, which date an event as a year does.
fn seasons() -> &'static [String] {
    static WORDS: OnceLock<Vec<String>> = OnceLock::new();
    WORDS.get_or_init(|| {
        forms_of(&[
            "summer",
            "winter",
            "spring",
            "autumn",
            "christmas",
            "easter",
            "holidays",
            "weekend",
            "break",
            "season",
        ])
    })
}

/// The folded forms of verbs after which "before" names a body one stands in front of
/// ("appeared before the committee", "gave evidence before the inquiry").
fn bodies() -> &'static [String] {
    static WORDS: OnceLock<Vec<String>> = OnceLock::new();
    WORDS.get_or_init(|| {
        forms_of(&[
            "appeared",
            "appear",
            "testified",
            "testify",
            "evidence",
            "came",
            "come",
            "brought",
            "bring",
            "stood",
            "went",
            "go",
        ])
    })
}

/// The folded forms of the nouns of time that measure a span before a word of time.
fn time_nouns() -> &'static [String] {
    static NOUNS: OnceLock<Vec<String>> = OnceLock::new();
    NOUNS.get_or_init(|| {
        forms_of(&[
            "day", "days", "week", "weeks", "month", "months", "year", "years", "night", "hour",
            "hours", "decade", "decades", "minutes",
        ])
    })
}

/// The first word of time in `text` that orders two events, with where it stands and how far
/// it reaches (two words for "ahead of", "prior to"). A date right after it ("before 2010",
/// "after March") bounds one event in time; it orders none.
fn order_word(text: &Analysis) -> Option<(usize, usize, Order)> {
    let (before, after) = words();
    (1..text.forms.len()).find_map(|i| {
        let form = text.form(i)?;
        let next = text.form(i + 1);
        let (order, width) = if before.iter().any(|w| w == form) {
            (Order::Before, 1)
        } else if after.iter().any(|w| w == form) {
            (Order::After, 1)
        } else if matches!((form, next), ("ahead", Some("of")) | ("prior", Some("to"))) {
            (Order::Before, 2)
        } else {
            return None;
        };
        // A season or a holiday is a date too ("after the summer").
        let dated = text
            .quantities
            .iter()
            .any(|q| q.span.start == i + width || q.span.start == i + width + 1)
            || [i + width, i + width + 1].iter().any(|&k| {
                text.form(k)
                    .is_some_and(|f| seasons().iter().any(|t| t == f))
            });
        // "four days before the eruption", "the week before the fire": a span measured from
        // the event, which the figures' reading weighs.
        let offset = text.quantities.iter().any(|q| q.span.end == i)
            || text
                .form(i - 1)
                .is_some_and(|f| time_nouns().iter().any(|t| t == f));
        // A phrase set off by commas ("Harwood's mill, once the town's largest employer,";
        // "In the Senate, shortly before the vote, Reyes resigned") orders nothing the claim's
        // way; nor does "before" a body ("appeared before the committee").
        let previous = (0..i).rev().find(|&p| {
            !matches!(
                text.form(p),
                Some("short" | "shortly" | "just" | "soon" | "long" | "well")
            )
        });
        let closed = (i + 1..(i + 7).min(text.forms.len())).any(|k| text.form(k).is_none())
            && text.breaks.iter().skip(i + 1).take(6).any(Option::is_some);
        let set_off = previous.is_none_or(|p| text.form(p).is_none()) && closed;
        let before_a_body = order == Order::Before
            && previous
                .and_then(|p| text.form(p))
                .is_some_and(|f| bodies().iter().any(|b| b == f));
        if set_off || before_a_body {
            return None;
        }
        // An adverb orders nothing: "succeeded once before;", "had been made before."
        let adverb = text.form(i + width).is_none()
            || (form == once()
                && next.is_some_and(|n| {
                    before.iter().any(|w| w == n) || matches!(n, "again" | "more" | "a" | "an")
                }));
        (!dated && !offset && !adverb).then_some((i, width, order))
    })
}

/// The content words on each side of the word of time at `at`.
fn sides(text: &Analysis, at: usize, width: usize) -> (Vec<&str>, Vec<&str>) {
    let content = |i: usize| text.form(i).filter(|f| text.is_content(f));
    let before: Vec<&str> = (0..at)
        .rev()
        .filter_map(content)
        .take(EVENT_WORDS)
        .collect();
    let after: Vec<&str> = (at + width..text.forms.len())
        .filter_map(content)
        .take(EVENT_WORDS)
        .collect();
    (before, after)
}

/// The claim's word of time, when the sentence orders the same two events the other way.
pub fn reversed(claim: &Analysis, sentence: &Analysis) -> Option<String> {
    let (at, width, ours) = order_word(claim)?;
    let (at_s, width_s, theirs) = order_word(sentence)?;
    let (first, second) = sides(claim, at, width);
    let (their_first, their_second) = sides(sentence, at_s, width_s);
    let shared = |a: &[&str], b: &[&str]| a.iter().filter(|w| b.contains(w)).count();
    let (a, b) = (shared(&first, &their_first), shared(&second, &their_second));
    let (c, d) = (shared(&first, &their_second), shared(&second, &their_first));
    let straight = a >= 1 && b >= 1 && a + b >= 3;
    let crossed = c >= 1 && d >= 1 && c + d >= 3;
    // The events must sit one way only: words of both on both sides tell nothing.
    let flipped = if ours == theirs {
        crossed && a + b <= 1
    } else {
        straight && c + d <= 1
    };
    flipped.then(|| claim.form(at).unwrap_or_default().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flip(claim: &str, sentence: &str) -> Option<String> {
        reversed(&Analysis::new(claim), &Analysis::new(sentence))
    }

    #[test]
    fn opposite_words_of_time_between_the_same_events_flip() {
        let claim = "The shared banking hubs will only open once the branches in their towns \
                     have closed.";
        assert!(flip(
            claim,
            "The hubs will open before the branches in their towns close, the bank said."
        )
        .is_some());
        assert_eq!(
            flip(
                claim,
                "The hubs will open after the branches in their towns close, the bank said."
            ),
            None
        );
    }

    #[test]
    fn traded_events_around_one_word_of_time_flip() {
        let claim = "Brightmoor will wait for the extension study to report before it applies \
                     for a licence.";
        assert!(flip(
            claim,
            "Brightmoor plans to apply for a licence in 2028, before the results of the \
             extension study are reported."
        )
        .is_some());
        assert_eq!(
            flip(
                claim,
                "Brightmoor will wait for the extension study to report, and only then apply \
                 for a licence, before the end of 2028."
            ),
            None
        );
    }

    #[test]
    fn a_span_before_the_word_or_an_adverb_orders_no_events() {
        assert_eq!(
            flip(
                "The roughly 2,400 inhabitants of Brekka and the surrounding farms had been \
                 evacuated four days before the eruption, once the observatory moved to an \
                 orange alert.",
                "They had left their homes in the fishing town of Brekka and the farms around \
                 it four days earlier, after the Sorne Volcano Observatory raised its alert to \
                 orange."
            ),
            None
        );
        assert_eq!(
            flip(
                "In 1803 Bonaparte had it exhibited in Paris to recall that such an invasion \
                 had succeeded once before; it went home to Bayeux a year later.",
                "In 1803 Napoleon had it brought to Paris and exhibited as a reminder that the \
                 crossing had been made before; it went back to Bayeux in 1804."
            ),
            None
        );
    }

    #[test]
    fn a_date_after_the_word_orders_no_events() {
        assert_eq!(
            flip(
                "The new bridge over the river opened before 1990.",
                "The new bridge over the river opened after 1990."
            ),
            None
        );
    }
}
