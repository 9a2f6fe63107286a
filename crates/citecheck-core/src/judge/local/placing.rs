//! A finishing place (pure): "Elif Demir won the 1500 metres title" against "Elif Demir ...
//! faded ... to finish fourth in the 1500 metres", "Ibarra finished second in the time trial"
//! against "Ibarra won the time trial". Where a competitor ended up is one slot: winning is
//! first place, and the sentence that puts the claim's competitor in another place flips the
//! claim like an opposite word (see `opposite`).
//!
//! A place is read only where a text states one in so many words: an ordinal right after a verb
//! of finishing ("finished fourth", "came in second", "placed third"), or winning with an
//! article after it ("won the title", "claimed the race"), so "won 24 titles" or "won 3-2"
//! places no one. Its competitor is the nearest name before it with no other name between.

use std::sync::OnceLock;

use super::analyse::{Analysis, Entity};
use super::lex::forms_of;
use super::lexicon;
use super::place::ordinal;
use super::roles::same;

/// Verbs an ordinal follows to give a finishing place ("finished fourth", "came second").
const FINISHING: &[&str] = &["finish", "finished", "come", "came", "place", "placed"];
/// Verbs of winning, when an article follows them ("won the title", "claimed the race").
const WINNING: &[&str] = &["win", "won", "claim", "claimed"];
/// How many lexemes after a verb of finishing its ordinal may sit ("came home in second").
const ORDINAL_REACH: usize = 3;

/// Normalised [`FINISHING`] and [`WINNING`].
fn verbs() -> &'static (Vec<String>, Vec<String>) {
    static VERBS: OnceLock<(Vec<String>, Vec<String>)> = OnceLock::new();
    VERBS.get_or_init(|| (forms_of(FINISHING), forms_of(WINNING)))
}

/// A competitor's finishing place, and the lexeme of the word that gives it.
#[derive(Debug, Clone, Copy)]
struct Placing<'a> {
    who: &'a Entity,
    rank: u32,
    at: usize,
}

/// Whether the words from lexeme `at` open the name of an event won: an article ("won the
/// title") or a day's possessive ("won Sunday's closing time trial").
fn names_an_event(text: &Analysis, at: usize) -> bool {
    match text.form(at) {
        Some("the") => true,
        // The possessive's "'s" is no lexeme of its own.
        Some(day) => lexicon::WEEKDAYS.contains(&day),
        None => false,
    }
}

/// How far before "ahead of" its verb of finishing may sit ("finishing 7 minutes 29 seconds
/// ahead of").
const AHEAD_REACH: usize = 8;

/// The rank of a competitor some other finished ahead of: anything but first.
const BEHIND: u32 = 0;

/// Whether two ranks cannot both be a competitor's: two places, or first place against a place
/// behind someone.
fn differ(a: u32, b: u32) -> bool {
    match (a, b) {
        (BEHIND, other) | (other, BEHIND) => other == 1,
        _ => a != b,
    }
}

/// The finishing places a text states.
fn placings(text: &Analysis) -> Vec<Placing<'_>> {
    let (finishing, winning) = verbs();
    let mut out = Vec::new();
    for (at, form) in text.forms.iter().enumerate() {
        let Some(form) = form.as_deref() else {
            continue;
        };
        let rank = if finishing.iter().any(|f| f == form) {
            (at + 1..(at + 1 + ORDINAL_REACH).min(text.forms.len()))
                .find_map(|j| text.form(j).and_then(ordinal))
        } else if winning.iter().any(|w| w == form) && names_an_event(text, at + 1) {
            Some(1)
        } else {
            None
        };
        // "finishing 7 minutes ahead of Tadej Pogačar": the name after it did not win. Only
        // after a verb of finishing or winning: "whose 17 titles are three ahead of Edvin
        // Ralle" counts titles, not places.
        let finished_before = || {
            (at.saturating_sub(AHEAD_REACH)..at).any(|i| {
                text.form(i).is_some_and(|f| {
                    finishing.iter().any(|v| v == f) || winning.iter().any(|v| v == f)
                })
            })
        };
        if form == "ahead" && text.form(at + 1) == Some("of") && finished_before() {
            if let Some(who) = text.entities.iter().find(|e| e.span.start == at + 2) {
                out.push(Placing {
                    who,
                    rank: BEHIND,
                    at,
                });
            }
            continue;
        }
        let Some(rank) = rank else { continue };
        // The competitor: the nearest name that ends before the verb.
        let who = text
            .entities
            .iter()
            .filter(|e| e.span.end <= at)
            .max_by_key(|e| e.span.end);
        if let Some(who) = who {
            out.push(Placing { who, rank, at });
        }
    }
    out
}

/// The claim's word of placing when the sentence puts the claim's competitor in another place
/// and never in the claim's.
pub fn misplaced(claim: &Analysis, sentence: &Analysis) -> Option<String> {
    let ours = placings(claim);
    if ours.is_empty() {
        return None;
    }
    let theirs = placings(sentence);
    ours.iter().find_map(|c| {
        let same_competitor: Vec<&Placing<'_>> =
            theirs.iter().filter(|s| same(s.who, c.who)).collect();
        (!same_competitor.is_empty() && same_competitor.iter().all(|s| differ(s.rank, c.rank)))
            .then(|| claim.form(c.at).map(str::to_string))
            .flatten()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flips(claim: &str, sentence: &str) -> bool {
        misplaced(&Analysis::new(claim), &Analysis::new(sentence)).is_some()
    }

    #[test]
    fn another_place_for_the_claim_s_competitor_is_a_flip() {
        let page = "Elif Demir led into the final bend but faded over the last 80 metres to \
                    finish fourth in the 1500 metres in Rome, as Norway's Ingrid Solberg \
                    claimed the title in 3:58.21.";
        assert!(flips("Elif Demir won the 1500 metres title in Rome.", page));
        assert!(flips("Ingrid Solberg finished second in Rome.", page));
        assert!(flips(
            "Tomás Ibarra finished second in the closing time trial.",
            "Tomás Ibarra won the closing time trial in Zurich by 14 seconds."
        ));
        assert!(flips(
            "Tomás Ibarra finished second in the closing time trial.",
            "Tomás Ibarra won Sunday's closing time trial in Zurich by 14 seconds."
        ));
        // Someone finished ahead of the claim's winner.
        let tour = "Jonas Vingegaard rode into Paris to secure his second Tour de France \
                    title, finishing 7 minutes 29 seconds ahead of Tadej Pogačar.";
        assert!(flips("Tadej Pogačar won the 2023 Tour de France.", tour));
        assert!(!flips(
            "Tadej Pogačar finished second in the 2023 Tour de France.",
            tour
        ));
    }

    #[test]
    fn the_same_place_another_competitor_or_no_stated_place_is_no_flip() {
        let page = "Elif Demir faded to finish fourth in the 1500 metres, as Ingrid Solberg \
                    claimed the title.";
        assert!(!flips("Ingrid Solberg won the 1500 metres title.", page));
        assert!(!flips(
            "Elif Demir finished fourth in the 1500 metres.",
            page
        ));
        // Winning without an article places no one: a tally of titles, a score.
        assert!(!flips(
            "Serena Williams won 23 Grand Slam singles titles.",
            "Serena Williams finished second at the WTA Finals."
        ));
        // A competitor the sentence does not place.
        assert!(!flips("Mads Kjær won the time trial.", page));
    }
}
