//! A rank below the first in the claim word's place (pure): "the largest lake" against "the
//! second-largest lake", "the first woman to win" against "the third woman to win". A flip of
//! polarity like an opposite word (see `opposite`), read only where the sentence does not also
//! give the claim's rank in that place ("the first leg ..., the second leg ...").

use super::analyse::{Analysis, Entity};
use super::place::{best_placement, neighbour, ordinal, placement};
use super::roles;

/// Whether the claim counts which one of a series it means ("his first French Open title",
/// "the second season") and the sentence speaks only of another of the same series ("his 14th
/// and final French Open title"): the sentence is about another item, so its figures and dates
/// neither state nor gainsay the claim's.
pub fn other_item(claim: &Analysis, sentence: &Analysis) -> bool {
    claim.forms.iter().enumerate().any(|(at, form)| {
        let Some(rank) = form.as_deref().and_then(ordinal) else {
            return false;
        };
        let noun = neighbour(claim, at, true);
        let before = at.checked_sub(1).and_then(|p| claim.form(p));
        if !identifying(before, noun) || noun.is_none() {
            return false;
        }
        // The sentence's ordinals before the claim's noun, a few words between ("his 14th and
        // final French Open title" for "his first French Open title").
        let follows = |j: usize| {
            (j + 1..(j + 1 + ITEM_REACH).min(sentence.forms.len()))
                .any(|i| sentence.form(i).is_some() && sentence.form(i) == noun)
        };
        let ranks: Vec<u32> = sentence
            .forms
            .iter()
            .enumerate()
            .filter(|(j, _)| follows(*j))
            .filter_map(|(_, f)| f.as_deref().and_then(ordinal))
            .collect();
        !ranks.is_empty() && !ranks.contains(&rank)
    })
}

/// How far after a sentence's ordinal the claim's counted noun may sit ("14th and final French").
const ITEM_REACH: usize = 4;

/// Whether an ordinal, with the word `before` it and the `noun` after it, says which one of a
/// series it means rather than a rank: after a possessive ("his first title") or before a noun
/// of a sequence ("the first season").
fn identifying(before: Option<&str>, noun: Option<&str>) -> bool {
    before.is_some_and(|b| POSSESSIVES.contains(&b))
        || noun.is_some_and(|n| SEQUENCE_NOUNS.contains(&n))
}

/// Possessives before an ordinal that count someone's own series ("his first title").
const POSSESSIVES: &[&str] = &["his", "her", "its", "their", "our", "my", "your"];
/// Nouns of a sequence, whose ordinal says which one ("the second season", "the first leg").
const SEQUENCE_NOUNS: &[&str] = &[
    "season", "series", "edition", "episode", "round", "leg", "stage", "quarter", "half", "term",
    "album", "volume", "chapter", "game", "match", "set", "inning", "period", "day", "week",
    "month", "year", "phase", "semester", "lap",
];

/// The claim's word that the sentence ranks lower: "the largest lake" against "the
/// second-largest lake", "the first woman to win" against "the second woman to win". Only a
/// superlative the claim puts first ("the" before it), or the claim's "first", that the
/// sentence puts second or lower, in the same place.
pub fn outranked(claim: &Analysis, sentence: &Analysis) -> Option<String> {
    for (at, form) in claim.forms.iter().enumerate() {
        let Some(form) = form.as_deref() else {
            continue;
        };
        let before = at.checked_sub(1).and_then(|p| claim.form(p));
        if form == "1st" {
            // The noun after the ordinal must be the claim's ("the first woman" against "the
            // third woman"), not only a word around it ("first elected mayor" against "a
            // second term"); "the first leg" beside "the second leg" has the claim's too.
            let noun = neighbour(claim, at, true);
            // Only a ranking ("the first woman to win", "the first woman elected"): an
            // ordinal that says which one of someone's series ("his first French Open title")
            // or of a sequence ("the first season") names another thing than the sentence's
            // "14th title" or "second season", not another rank of the same.
            if identifying(before, noun) {
                continue;
            }
            let placed = |rank: fn(u32) -> bool| {
                best_placement(claim, at, sentence, |j, f| {
                    ordinal(f).is_some_and(rank)
                        && noun.is_some()
                        && neighbour(sentence, j, true) == noun
                })
            };
            if placed(|n| n > 1) > placed(|n| n == 1) {
                return Some(form.to_string());
            }
        } else if claim.superlative.get(at).copied().unwrap_or(false)
            && claim.ranks_over_all(at)
            && !ranks_behind(claim, at)
        {
            // A superlative the sentence ranks lower, glued to the same word ("the
            // second-largest"), where the sentence does not also give it first place there.
            let ranked_at = |j: usize| {
                j.checked_sub(1)
                    .and_then(|p| sentence.form(p).map(|f| (p, f)))
            };
            let lower = sentence
                .forms
                .iter()
                .enumerate()
                .filter(|(_, f)| f.as_deref() == Some(form))
                .filter_map(|(j, _)| {
                    let (p, before) = ranked_at(j)?;
                    ordinal(before).filter(|&n| n > 1)?;
                    // The ordinal stands where the claim's "the" does: either may be the
                    // place ("Brae, the second-largest").
                    let own =
                        placement(claim, at, sentence, j).max(placement(claim, at, sentence, p));
                    // A rank with its noun left out ("the largest river in the world by
                    // volume, and the second longest after the Nile") ranks within the
                    // ranking the sentence named before it, so it stands where that one does.
                    Some(own.max(elided_rank(claim, at, sentence, j).unwrap_or(0)))
                })
                .max()
                .unwrap_or(0);
            let first = best_placement(claim, at, sentence, |j, f| {
                f == form && sentence.ranks_over_all(j)
            });
            if lower > first || ranked_lower(claim, at, form, sentence) {
                return Some(form.to_string());
            }
        }
    }
    None
}

/// The claim's superlative given a lower rank ("Vatican City is the world's second-smallest
/// country") that the sentence gives its subject first ("Vatican City is the smallest
/// sovereign state in the world"): the claim ranks it lower than the page does. Read only where
/// the nearest name before the sentence's superlative, in its clause, is the claim's subject
/// (the name opening the claim), and the sentence gives that superlative no lower rank.
pub fn ranked_first_instead(claim: &Analysis, sentence: &Analysis) -> Option<String> {
    // Most claims rank nothing below the first: no names are gathered for them.
    if !(0..claim.forms.len())
        .any(|at| claim.superlative.get(at).copied().unwrap_or(false) && ranked_below(claim, at))
    {
        return None;
    }
    let subject = roles::names(claim)
        .into_iter()
        .next()
        .filter(|e| e.span.start <= 1)?;
    claim.forms.iter().enumerate().find_map(|(at, form)| {
        let form = form.as_deref()?;
        if !claim.superlative.get(at).copied().unwrap_or(false) || !ranked_below(claim, at) {
            return None;
        }
        let occurrences: Vec<usize> = (0..sentence.forms.len())
            .filter(|&j| sentence.form(j) == Some(form))
            .collect();
        if occurrences.iter().any(|&j| ranked_below(sentence, j)) {
            return None;
        }
        let names = roles::names(sentence);
        let first_for_subject = occurrences.iter().any(|&j| {
            sentence.superlative.get(j).copied().unwrap_or(false)
                && !ranks_behind(sentence, j)
                && holder(sentence, &names, j).is_some_and(|n| roles::same(n, subject))
        });
        first_for_subject.then(|| form.to_string())
    })
}

/// The claim's subject and the sentence's other name that holds the claim's extreme: "Canada is
/// the largest country in the world" against "Russia is the largest country in the world ...,
/// followed by Canada". Read only when the sentence names the claim's subject after that
/// superlative (a runner-up, or something else) and nowhere gives it the same superlative, and
/// names every name the claim sets the ranking in ("in North America"): the entity rival
/// reading (`align`) covers a sentence that leaves the claim's subject out.
pub fn extreme_held_by_another<'a>(
    claim: &'a Analysis,
    sentence: &'a Analysis,
) -> Option<(&'a Entity, &'a Entity)> {
    // Most claims rank nothing: no names are gathered for them.
    let ranks = claim.superlative.iter().any(|&s| s)
        || claim.forms.iter().any(|f| f.as_deref() == Some("1st"));
    if !ranks {
        return None;
    }
    let subject = claim.clauses.subject()?;
    let ours = roles::names(claim)
        .into_iter()
        .find(|e| e.forms.iter().any(|f| f == subject))?;
    let their_names = roles::names(sentence);
    (ours.span.end..claim.forms.len()).find_map(|at| {
        let form = claim.form(at)?;
        // "the most populous country": the extreme is "most" with its adjective, read where
        // the adjective stands.
        let graded = matches!(form, "most" | "least");
        let (word_at, word) = if graded {
            let next = claim.form(at + 1).filter(|f| claim.is_content(f))?;
            (at + 1, next)
        } else {
            (at, form)
        };
        let extreme = claim.superlative.get(at).copied().unwrap_or(false) || form == "1st";
        if !extreme || !claim.ranks_over_all(at) || ranks_behind(claim, at) {
            return None;
        }
        let noun = neighbour(claim, word_at, true)?;
        let scope_named = claim
            .entities
            .iter()
            .filter(|e| e.span.start > at)
            .all(|e| sentence.mentions(e));
        if !scope_named {
            return None;
        }
        // Who holds the superlative in the sentence: the nearest name before it in its clause.
        // `j` is where the sentence's superlative starts ("most" of "most populous").
        let holders: Vec<(usize, &Entity)> = (0..sentence.forms.len())
            .filter(|&j| {
                let word_j = if graded { j + 1 } else { j };
                sentence.form(j) == Some(form)
                    && sentence.form(word_j) == Some(word)
                    && neighbour(sentence, word_j, true) == Some(noun)
            })
            .filter(|&j| !ranked_below(sentence, j))
            .filter_map(|j| holder(sentence, &their_names, j).map(|e| (j, e)))
            .collect();
        if holders.iter().any(|(_, e)| roles::same(e, ours)) {
            return None;
        }
        let (j, theirs) = holders.first().copied()?;
        let named_after = their_names
            .iter()
            .any(|e| e.span.start > j && roles::same(e, ours));
        // The holder may be named in the claim only as what the claim ranks below its subject
        // ("slightly ahead of India").
        let ranked_below_ours = claim.entities.iter().any(|e| {
            roles::same(e, theirs)
                && (e.span.start.saturating_sub(3)..e.span.start)
                    .any(|i| matches!(claim.form(i), Some("ahead" | "than" | "over")))
        });
        (named_after && (!claim.names(theirs) || ranked_below_ours)).then_some((ours, theirs))
    })
}

/// Who holds the sentence's superlative at `j`: the nearest of its `names` (in text order)
/// before it in its clause.
fn holder<'a>(sentence: &Analysis, names: &[&'a Entity], j: usize) -> Option<&'a Entity> {
    names
        .iter()
        .copied()
        .rfind(|e| e.span.end <= j && sentence.clauses.of(e.span.start) == sentence.clauses.of(j))
}

/// Whether an ordinal above one stands right before the sentence's superlative at `j` ("the
/// second-largest").
fn ranked_below(sentence: &Analysis, j: usize) -> bool {
    j.checked_sub(1)
        .and_then(|p| sentence.form(p))
        .and_then(ordinal)
        .is_some_and(|n| n > 1)
}

/// How far after its superlative a claim may set something before it ("the most plentiful
/// element in the universe after hydrogen").
const BEHIND_REACH: usize = 8;

/// Whether the claim puts something before its own superlative ("the most plentiful element
/// in the universe after hydrogen", "the largest city behind Sydney"): it claims a lower rank,
/// which the sentence's "second most abundant" states rather than lowers.
fn ranks_behind(claim: &Analysis, at: usize) -> bool {
    let clause = claim.clauses.of(at);
    (at + 1..(at + 1 + BEHIND_REACH).min(claim.forms.len()))
        .take_while(|&i| claim.clauses.of(i) == clause)
        .any(|i| matches!(claim.form(i), Some("after" | "behind")))
}

/// Where the sentence's superlative at `j`, given a lower rank with its noun left out ("and
/// the second longest after the Nile"), stands against the claim's at `at`: where the
/// superlative the sentence put first before it does ("the largest river in the world"), as
/// the left-out noun is that one's. `None` when a content word follows the rank (its own
/// noun) or no superlative after "the" comes before it.
fn elided_rank(claim: &Analysis, at: usize, sentence: &Analysis, j: usize) -> Option<u8> {
    if sentence.form(j + 1).is_some_and(|f| sentence.is_content(f)) {
        return None;
    }
    let earlier = (1..j.saturating_sub(1)).rev().find(|&k| {
        sentence.superlative.get(k).copied().unwrap_or(false) && sentence.ranks_over_all(k)
    })?;
    Some(placement(claim, at, sentence, earlier))
}

/// Verbs (normalised) that give a rank to the ordinal after them: "ranks only fourth",
/// "placed second", "came third".
const RANKING_VERBS: &[&str] = &["rank", "place", "come", "finish", "stand"];

/// Content words a rank's clause must share with the claim's superlative phrase for the rank
/// to be about the same ranking: the thing ranked and what it is ranked among or by.
const SAME_RANKING: usize = 2;

/// The claim's superlative (at `at`, after "the") against a rank below the first given in
/// words: "ranks only seventh among the world's lakes" against "the largest lake in the world
/// by surface area". The rank's clause must share more of the claim's phrase (the words after
/// the superlative: what is ranked, among what, by what) than any clause giving the
/// superlative itself, and at least [`SAME_RANKING`] of them; and it must not be led by a name
/// the claim does not use ("Lake Superior ranks second ...").
fn ranked_lower(claim: &Analysis, at: usize, form: &str, sentence: &Analysis) -> bool {
    let claim_clause = claim.clauses.of(at);
    let phrase: Vec<&str> = (at + 1..claim.forms.len())
        .filter(|&i| claim.clauses.of(i) == claim_clause)
        .filter_map(|i| claim.form(i))
        .filter(|f| claim.is_content(f) && ordinal(f).is_none())
        .collect();
    let shared = |clause: Option<usize>| {
        let mut seen: Vec<&str> = Vec::new();
        for j in 0..sentence.forms.len() {
            if let Some(f) = sentence.form(j) {
                if sentence.clauses.of(j) == clause && phrase.contains(&f) && !seen.contains(&f) {
                    seen.push(f);
                }
            }
        }
        seen.len()
    };
    let led_by_other_name = |j: usize| {
        let clause = sentence.clauses.of(j);
        sentence.entities.iter().any(|e| {
            e.span.start < j && sentence.clauses.of(e.span.start) == clause && !claim.names(e)
        })
    };
    // A ranking by another measure is no ranking of the claim's: "the largest lake by volume"
    // and "ranks only seventh ... by surface area" are both true of one lake.
    let criterion = |text: &Analysis, from: usize| -> Vec<String> {
        (from..text.forms.len())
            .filter(|&i| text.form(i) == Some("by"))
            .filter_map(|i| text.form(i + 1).filter(|f| text.is_content(f)))
            .map(str::to_string)
            .collect()
    };
    let claimed = criterion(claim, at);
    let measured_otherwise =
        !claimed.is_empty() && criterion(sentence, 0).iter().any(|c| !claimed.contains(c));
    if measured_otherwise {
        return false;
    }
    let is_ranking_verb = |k: usize| sentence.form(k).is_some_and(|f| RANKING_VERBS.contains(&f));
    let lower = (0..sentence.forms.len())
        .filter(|&j| sentence.form(j).and_then(ordinal).is_some_and(|n| n > 1))
        .filter(|&j| {
            // "ranks fourth", "ranks only fourth"; or "fourth among"; or the claim's own
            // superlative ranked lower where the sentence words the ranking its own way ("is
            // the country's second-busiest" against "the busiest airport in the country").
            let verb_before = (j.saturating_sub(2)..j).any(is_ranking_verb);
            let among_after = sentence.form(j + 1) == Some("among");
            let glued = sentence.form(j + 1) == Some(form);
            verb_before || among_after || glued
        })
        .filter(|&j| !led_by_other_name(j))
        .map(|j| shared(sentence.clauses.of(j)))
        .max()
        .unwrap_or(0);
    let first = (1..sentence.forms.len())
        .filter(|&j| sentence.form(j) == Some(form) && sentence.ranks_over_all(j))
        .map(|j| shared(sentence.clauses.of(j)))
        .max()
        .unwrap_or(0);
    lower >= SAME_RANKING && lower > first
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flips(claim: &str, sentence: &str) -> bool {
        outranked(&Analysis::new(claim), &Analysis::new(sentence)).is_some()
    }

    fn held(claim: &str, sentence: &str) -> Option<(String, String)> {
        let (c, s) = (Analysis::new(claim), Analysis::new(sentence));
        extreme_held_by_another(&c, &s).map(|(a, b)| (a.text.clone(), b.text.clone()))
    }

    #[test]
    fn another_name_holding_the_claim_s_most_after_a_possessive_is_a_rival() {
        let page = "India is the most populous country in the world, having overtaken China in \
                    April 2023. China, with about 1.41 billion people, is now the second most \
                    populous country.";
        assert_eq!(
            held(
                "China remains the world's most populous country, slightly ahead of India.",
                page
            ),
            Some(("China".to_string(), "India".to_string()))
        );
        assert_eq!(
            held("India is the world's most populous country.", page),
            None
        );
    }

    #[test]
    fn a_superlative_after_a_possessive_ranks_over_its_field() {
        assert!(flips(
            "Lake Huron is North America's largest lake.",
            "Lake Huron is North America's second-largest lake."
        ));
        // The sentence gives it first place after a possessive too.
        assert!(!flips(
            "Lake Superior is North America's largest lake.",
            "Lake Superior is North America's largest lake, and Lake Huron is the \
             second-largest."
        ));
    }

    #[test]
    fn a_lower_rank_against_the_first_place_for_the_same_subject_flips() {
        let claim = "Vatican City is the world's second-smallest country, behind Monaco.";
        let first = |sentence: &str| {
            ranked_first_instead(&Analysis::new(claim), &Analysis::new(sentence)).is_some()
        };
        assert!(first(
            "Covering about 0.44 square kilometres, Vatican City is the smallest sovereign \
             state in the world, while Monaco, at roughly 2 square kilometres, ranks second."
        ));
        // Another subject holds first place, or the sentence gives the lower rank too.
        assert!(!first(
            "Monaco is the smallest state on the Riviera, and Vatican City is a tiny enclave."
        ));
        assert!(!first(
            "Vatican City is the smallest state, and Nauru is the second-smallest country."
        ));
    }

    #[test]
    fn another_name_holding_the_claim_s_extreme_ahead_of_the_claim_s_is_a_rival() {
        let page = "Russia is the largest country in the world by area, followed by Canada and \
                    the United States.";
        assert_eq!(
            held("Canada is the largest country in the world.", page),
            Some(("Canada".to_string(), "Russia".to_string()))
        );
        // The claim's own subject holds it.
        assert_eq!(
            held("Russia is the largest country in the world.", page),
            None
        );
        // A ranking in a place the sentence does not name.
        assert_eq!(
            held("Canada is the largest country in North America.", page),
            None
        );
        // The claim's subject given the same extreme in its own clause too.
        assert_eq!(
            held(
                "Montreal is the largest city in Quebec.",
                "Toronto is the largest city in Canada, while Montreal is the largest city in \
                 Quebec."
            ),
            None
        );
    }

    #[test]
    fn the_claim_s_superlative_ranked_lower_in_the_sentence_s_own_words_is_a_flip() {
        let claim = "Brennstadt Airport is the busiest airport in the country.";
        assert!(flips(
            claim,
            "Brennstadt Airport, which handles about 19 million passengers a year, is the \
             country's second-busiest after Ostmark International."
        ));
        // Not where another name leads the lower rank, nor where the claim's rank is given.
        assert!(!flips(
            claim,
            "Ostmark International, which handles 12 million passengers, is the country's \
             second-busiest after Brennstadt."
        ));
        assert!(!flips(
            claim,
            "Brennstadt Airport is the busiest airport in the country; Ostmark is the \
             second-busiest."
        ));
    }

    #[test]
    fn an_ordinal_that_says_which_one_is_no_rank() {
        // Which title of someone's, which season of a show: another item, not another rank.
        let titles = "Nadal won his 14th and final French Open title in June 2022.";
        assert!(!flips(
            "Nadal won his first French Open title in 2005.",
            titles
        ));
        let seasons = "The second season of the show was shot in Newfoundland.";
        assert!(!flips(
            "The first season of the show was shot in Nova Scotia.",
            seasons
        ));
        let other = |claim: &str, sentence: &str| {
            other_item(&Analysis::new(claim), &Analysis::new(sentence))
        };
        assert!(other(
            "Nadal won his first French Open title in 2005.",
            titles
        ));
        assert!(!other(
            "Nadal won his first French Open title in 2005.",
            "Nadal won his first French Open title in 2006."
        ));
        // A ranking still flips.
        assert!(flips(
            "In 1889 Lisle became the first woman elected a fellow of the society.",
            "In 1889 Lisle became the third woman to be elected a fellow of the society."
        ));
    }

    #[test]
    fn a_rank_below_the_first_is_a_flip() {
        let page = "Lake Orm is the second-largest lake in the region by area.";
        assert!(flips("Lake Orm is the largest lake in the region.", page));
        assert!(!flips(
            "Lake Orm is the second-largest lake in the region.",
            page
        ));
        assert!(!flips("Lake Orm is a large lake.", page));
        let page = "Ida Marsh was the third woman to win the Carrow Prize.";
        assert!(flips(
            "Ida Marsh was the first woman to win the Carrow Prize.",
            page
        ));
        assert!(!flips(
            "Ida Marsh won the Carrow Prize in her first year.",
            page
        ));
        // Only a superlative is ranked, and "first" only before the same noun.
        assert!(!flips(
            "Ida Marsh won the title in 1950.",
            "In 1950 Ida Marsh won her second title."
        ));
        assert!(!flips(
            "Hale was first elected mayor in 1990.",
            "Hale was elected mayor in 1990 and was elected to a second term in 1994."
        ));
        // The sentence has the claim's rank as well as another.
        let legs = "They won the first leg 2-1 but lost the second leg 3-1.";
        assert!(!flips("The first leg drew 11,482 fans.", legs));
        let both = "Orm is the largest lake in the region; Tarn is the second-largest lake.";
        assert!(!flips("Orm is the largest lake in the region.", both));
        // A rank given in words, in the same ranking.
        let seventh = "By surface area, however, it ranks only seventh among the world's lakes.";
        assert!(flips(
            "Lake Orm is the largest lake in the world by surface area.",
            seventh
        ));
        assert!(!flips("Lake Orm is the deepest lake in Asia.", seventh));
        assert!(!flips(
            "Lake Orm is the largest lake in the world by volume.",
            seventh
        ));
        let fourth = "It is the longest river in the islands but ranks only fourth among the \
                      rivers of the county, behind the Brack.";
        assert!(flips(
            "The Tarran is the longest river in the county.",
            fourth
        ));
        assert!(!flips(
            "The Tarran is the longest river in the islands.",
            fourth
        ));
        // Another's rank is not the claim's subject's.
        let rival = "Lake Superior ranks second among the world's lakes by surface area.";
        assert!(!flips(
            "Lake Orm is the largest lake in the world by surface area.",
            rival
        ));
        // The claim's rank about something else does not cancel the lower one in its place.
        let other = "Lund, the largest island, covers 40 km²; Brae, the second-largest, covers 9.";
        assert!(flips("Brae is the largest of the Wend Isles.", other));
    }

    #[test]
    fn a_rank_with_its_noun_left_out_ranks_within_the_ranking_before_it() {
        let page = "The Tarran is the largest river in the county by volume, and the second \
                    longest after the Brack.";
        assert!(flips(
            "The Tarran is the longest river in the county.",
            page
        ));
        assert!(!flips(
            "The Tarran is the largest river in the county.",
            page
        ));
        // A rank with a noun of its own is not the earlier ranking's.
        let page = "The Tarran is the largest river in the county, and the second longest \
                    canal feeder.";
        assert!(!flips(
            "The Tarran is the longest river in the county.",
            page
        ));
    }
}
