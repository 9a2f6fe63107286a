//! A claim's word against its opposite in the sentence (pure): "revenue rose 9%" against
//! "revenue fell 9%", "won their semi-final" against "lost their semi-final", "flows south"
//! against "flows north". The opposite counts only where it stands in the claim word's place:
//! next to the same word (its subject or its object) or before the same quantity, and more
//! firmly than the claim's own word does there. An opposite elsewhere in the sentence is about
//! something else ("sales to restaurants fell 3%" beside a claim that sales to supermarkets
//! grew 12%). Comparisons the other way round (`comparison`) and lower ranks (`rank`) are read
//! as the same kind of flip, with the same measure of place (`place`).

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::sync::OnceLock;

use super::analyse::Analysis;
use super::clause;
use super::lex::{forms_of, normalise};
use super::lexicon::OPPOSITES;
use super::place::{best_placement, neighbour};

/// Normalised forms of each side of each pair in [`OPPOSITES`].
fn table() -> &'static [(Vec<String>, Vec<String>)] {
    static TABLE: OnceLock<Vec<(Vec<String>, Vec<String>)>> = OnceLock::new();
    TABLE.get_or_init(|| {
        OPPOSITES
            .iter()
            .map(|(a, b)| (forms_of(a), forms_of(b)))
            .collect()
    })
}

/// The pairs of [`OPPOSITES`] a normalised word belongs to, in the table's order, each with
/// whether the word is on the pair's first side: one lookup per word of the claim instead of a
/// pass over the whole table for every sentence weighed.
fn sides_of(form: &str) -> &'static [(usize, bool)] {
    static INDEX: OnceLock<HashMap<String, Vec<(usize, bool)>>> = OnceLock::new();
    let index = INDEX.get_or_init(|| {
        let mut index: HashMap<String, Vec<(usize, bool)>> = HashMap::default();
        for (k, (a, b)) in table().iter().enumerate() {
            let words: HashSet<&String> = a.iter().chain(b).collect();
            for word in words {
                // A word on both sides of one pair counts as the first side's, as a scan that
                // tries the first side first would read it.
                index
                    .entry(word.clone())
                    .or_default()
                    .push((k, a.contains(word)));
            }
        }
        index
    });
    index.get(form).map_or(&[], Vec::as_slice)
}

/// Whether a side of an [`OPPOSITES`] pair is one of two converses, which tell one event from
/// its two parties: buying and selling. (A place's imports and exports are two flows, not one
/// seen from two sides: "timber imports" against "exports of timber" is a flip.)
fn is_converse(side: &[String]) -> bool {
    static CONVERSES: OnceLock<Vec<String>> = OnceLock::new();
    let converses = CONVERSES.get_or_init(|| forms_of(&["buy", "sell"]));
    side.iter().any(|w| converses.contains(w))
}

/// The claim's word of direction whose opposite the sentence sets in its place.
///
/// With `bound`, the sentence's clause the claim is about, a word in another clause about
/// something else ("the west coast, facing the Atlantic, has no harbour") stands in no place
/// of the claim's.
pub fn reversed(claim: &Analysis, sentence: &Analysis, bound: Option<usize>) -> Option<String> {
    let elsewhere = |j: usize| {
        bound.is_some_and(|b| {
            sentence
                .clauses
                .of(j)
                .is_some_and(|c| c != b && clause::about_else(claim, sentence, c))
        })
    };
    for (at, form) in claim.forms.iter().enumerate() {
        let Some(form) = form else { continue };
        let form = direction(claim, at).unwrap_or(form.as_str());
        for &(k, first) in sides_of(form) {
            let (a, b) = &table()[k];
            let (same, other) = if first { (a, b) } else { (b, a) };
            // A pair of converses (one buys what another sells) flips only with the same
            // doer before both words: "Amsel bought the landscape" and "the landscape sold for
            // $18 million" tell one sale.
            let converse = is_converse(same);
            let subject = neighbour(claim, at, false);
            let placed = |words: &[String]| {
                best_placement(claim, at, sentence, |j, f| {
                    let f = direction(sentence, j).unwrap_or(f);
                    words.iter().any(|w| w == f)
                        && !sentence.aside.get(j).copied().unwrap_or(false)
                        && !elsewhere(j)
                        && (!converse
                            || (subject.is_some() && neighbour(sentence, j, false) == subject))
                })
            };
            // "£2.1 billion for 2024, up 34%": a trailing "up" or "down" is about the clause's
            // figure, so it stands in the claim word's place when the clause, before it, holds
            // the word the claim puts before its own (the thing that moved: "profit").
            let trailing = |words: &[String]| {
                let Some(mover) = neighbour(claim, at, false) else {
                    return 0;
                };
                let moved = |j: usize| {
                    let clause = sentence.clauses.of(j);
                    (0..j).any(|i| {
                        sentence.clauses.of(i) == clause && sentence.form(i) == Some(mover)
                    })
                };
                let trails = |j: usize| {
                    j.checked_sub(1).is_some_and(|p| {
                        sentence.form(p).is_none()
                            && !sentence.quantities.iter().any(|q| q.span.contains(&p))
                    })
                };
                let found = (0..sentence.forms.len()).any(|j| {
                    direction(sentence, j).is_some_and(|d| words.iter().any(|w| w == d))
                        && trails(j)
                        && moved(j)
                        && !elsewhere(j)
                });
                2 * u8::from(found)
            };
            let placed = |words: &[String]| placed(words).max(trailing(words));
            // The sentence may say it the claim's way too: the opposite flips only where it
            // stands in the claim word's place more firmly than the claim's own word does
            // ("rose 9%, while costs fell" is no flip; "rises in the south ..., and flows north"
            // is one against "flows south").
            if placed(other) > placed(same) {
                return Some(form.to_string());
            }
        }
    }
    None
}

/// "up" or "down" straight before a quantity says which way it moved, as "rose" and "fell"
/// do: "profit of £2.1 billion, up 34%". Elsewhere they are no direction ("set up", "up to 30",
/// "shut down").
fn direction(text: &Analysis, j: usize) -> Option<&'static str> {
    static FORMS: OnceLock<(String, String)> = OnceLock::new();
    // Normalised once: this runs for every word of every sentence weighed, and normalising the
    // verb list on each call made the whole judge ten times slower.
    static PHRASAL: OnceLock<HashSet<String>> = OnceLock::new();
    // A vote's "for" and "against" are its approval and its rejection: "voted against the
    // scheme" flips "voted for the scheme", and so does "voters rejected the scheme" (the words
    // alone are too common to be opposites).
    static VOTE: OnceLock<(String, String, String)> = OnceLock::new();
    let (vote, support, oppose) = VOTE.get_or_init(|| {
        (
            normalise("voted").form,
            normalise("approve").form,
            normalise("reject").form,
        )
    });
    if let Some(side @ ("for" | "against")) = text.form(j) {
        let after_vote = j.checked_sub(1).and_then(|p| text.form(p)) == Some(vote.as_str());
        return after_vote.then(|| {
            if side == "for" {
                support.as_str()
            } else {
                oppose.as_str()
            }
        });
    }
    let forms = || FORMS.get_or_init(|| (normalise("rise").form, normalise("fall").form));
    // "lowered its deposit rate": the verb, which normalises as the comparative "lower" does
    // but carries no degree as written (see `Analysis::degree`), is a fall.
    if text.form(j) == Some("lower") && text.degree.get(j).copied() == Some(0) {
        return Some(forms().1.as_str());
    }
    let moved = match text.form(j)? {
        "up" | "down" => text.form(j)?,
        _ => return None,
    };
    if !text.quantities.iter().any(|q| q.span.start == j + 1) {
        return None;
    }
    // A particle of a phrasal verb is no direction: "women make up 30% of the board", "signed
    // up 500 members", "shut down 12 stores".
    let phrasal = PHRASAL.get_or_init(|| PHRASAL_VERBS.iter().map(|v| normalise(v).form).collect());
    if j.checked_sub(1)
        .and_then(|p| text.form(p))
        .is_some_and(|f| phrasal.contains(f))
    {
        return None;
    }
    let (rise, fall) = forms();
    Some(if moved == "up" {
        rise.as_str()
    } else {
        fall.as_str()
    })
}

/// Verbs whose "up" or "down" is a particle, not a rise or a fall ("closed up 2%" and "ended
/// down 1%" are market moves, so those verbs are not here).
const PHRASAL_VERBS: &[&str] = &[
    "make", "makes", "made", "take", "takes", "took", "set", "sets", "pick", "picked", "sign",
    "signed", "shut", "shuts", "break", "broke", "turn", "turned", "put", "puts", "use", "used",
    "give", "gave", "bring", "brought", "step", "stepped", "back", "backed", "add", "added", "cut",
    "cuts", "wind", "wound",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn flips(claim: &str, sentence: &str) -> bool {
        let (claim, sentence) = (Analysis::new(claim), Analysis::new(sentence));
        let bound = clause::bound(&claim, &sentence);
        reversed(&claim, &sentence, bound).is_some()
    }

    #[test]
    fn the_opposite_in_the_claim_word_s_place_is_a_flip() {
        for (claim, sentence) in [
            (
                "Harbourside Rovers won their play-off semi-final.",
                "The Rovers lost their play-off semi-final to Dunmore 4-3 on aggregate.",
            ),
            (
                "Pre-tax profit rose to £31.5 million.",
                "Pre-tax profit fell to £31.5 million.",
            ),
            ("The council raised 40 jobs.", "The council cut 40 jobs."),
            // A market's words for a rise and a fall.
            (
                "Tamsin Biotech shares surged after the FDA's decision.",
                "Tamsin Biotech shares tumbled 31 percent after the FDA's decision.",
            ),
            ("Brent crude soared on Monday.", "Brent crude slid 3.2 percent on Monday."),
            // Living through an event against dying in it.
            (
                "All five passengers survived the crash.",
                "All five passengers died in the crash.",
            ),
            // A setting's state, a feature's fate, a gap's direction, a vote's outcome.
            (
                "The caching feature is enabled by default.",
                "This feature is disabled by default; set enable_cache to turn it on.",
            ),
            (
                "Version 3.0 added support for the legacy XML format.",
                "Version 3.0 removes support for the legacy XML format.",
            ),
            (
                "The trade surplus widened in the second quarter.",
                "The trade surplus narrowed sharply in the second quarter.",
            ),
            (
                "The Labour Party gained seats in the local elections.",
                "The Labour Party lost 312 seats in the local elections.",
            ),
            // A forecast trimmed against one raised (round thirty-three, aurelle-09).
            (
                "Aurelle Air trimmed its full-year revenue guidance.",
                "It has raised its full-year revenue guidance, reflecting stronger demand.",
            ),
            // One holder against several (round thirty-three, meitner-14).
            (
                "The Enrico Fermi Award went to Meitner alone in 1966.",
                "In 1966 the commission gave its Enrico Fermi Award jointly to Meitner, Hahn and \
                 Strassmann.",
            ),
            // A vote's sides.
            (
                "Alan Drummond voted against the Copse Farm scheme.",
                "Alan Drummond voted for the scheme, arguing that the town needed homes.",
            ),
            // Voting for is approving, so rejecting flips it.
            (
                "Scotland voted for independence in the 2014 referendum.",
                "In the 2014 referendum Scottish voters rejected independence by 55% to 45%.",
            ),
            // The claim's word elsewhere, about something else.
            (
                "The Calder flows south into the sound.",
                "The Calder rises in the south of the island and flows north into the sound.",
            ),
            // The claim's word only in a clause about something else.
            (
                "The ferry from Orton docks at Ness on Brae's west coast.",
                "The ferry from Orton lands at Ness on the east coast; the west coast, facing \
                 the Atlantic, has no harbour.",
            ),
            // A phrase turned around.
            (
                "Timber imports fell by a quarter.",
                "Exports of timber fell by a quarter.",
            ),
            // "up" before a quantity is a rise.
            (
                "Solvik's operating profit fell in 2024.",
                "Solvik reported an operating profit of NOK 2.1 billion for 2024, up 34% from \
                 NOK 1.57 billion in 2023.",
            ),
            (
                "Exports were up 5% in March.",
                "Exports were down 5% in March.",
            ),
            // The claim's verb on another object, its opposite on the claim's object.
            (
                "Kestrel Bay councillors approved the Tidewater Group's proposal to buy the terminal.",
                "Councillors approved the museum's funding by 31 votes to 12, and rejected a \
                 proposal from the Tidewater Group to buy the terminal.",
            ),
            // Jobs made against jobs done away with.
            (
                "Marlow Steel plans to create around 400 new jobs at its rolling mill.",
                "Marlow Steel said it would cut around 400 jobs at its rolling mill.",
            ),
            // Taking people on against letting them go.
            (
                "Dunlin Foods will hire 500 new workers at its Pemberton plant.",
                "Dunlin Foods will lay off 500 workers at its Pemberton frozen-meals plant.",
            ),
            // The verb "lower", not the comparative.
            (
                "The European Central Bank raised its deposit rate in June 2024.",
                "The European Central Bank lowered its deposit rate by a quarter point to 3.75 \
                 percent on 6 June 2024, its first cut since 2019.",
            ),
            // An executive's two answers to a bill; a service kept or scrapped.
            (
                "Mayor Jonah Whitcombe vetoed Dalmoor's $412 million budget.",
                "Mayor Jonah Whitcombe signed Dalmoor's $412 million budget into law on Friday, \
                 despite earlier threatening a veto.",
            ),
            (
                "Tollbridge Council has decided to keep weekly general-waste collections.",
                "Tollbridge Council will scrap weekly general-waste collections from October.",
            ),
            // A court's two answers.
            (
                "The Court of Appeal upheld the fraud conviction of Richard Tolland.",
                "The Court of Appeal on Friday quashed the fraud conviction of Richard Tolland.",
            ),
            // An irregular participle of the other side.
            (
                "The glacier has grown in size since 1980.",
                "Surveys show that the glacier has shrunk by roughly 40% since 1980.",
            ),
        ] {
            assert!(flips(claim, sentence), "{claim} / {sentence}");
        }
    }

    #[test]
    fn an_opposite_elsewhere_or_the_same_direction_is_no_flip() {
        for (claim, sentence) in [
            // One sale told from its two parties.
            (
                "Collector Victor Amsel bought an 1876 Renoir landscape for $18 million.",
                "An 1876 landscape by Renoir sold for $18 million at Sotheby's on Tuesday.",
            ),
            // About another thing, with another number.
            (
                "Sales to supermarkets grew 12%.",
                "Sales to supermarkets grew 12%, but sales to restaurants fell 3%.",
            ),
            (
                "Sales to supermarkets grew 12%.",
                "Sales to restaurants fell 3% as diners cut back.",
            ),
            // The same direction in other words.
            ("Revenue rose 9%.", "Revenue increased 9% while costs fell."),
            ("Revenue rose 9%.", "Revenue was up 9% on the year."),
            // "up" and "down" as a verb's particle are no direction.
            (
                "The share of women on the board fell to 30%.",
                "Women make up 30% of the board.",
            ),
            (
                "Membership of the club fell in 2020.",
                "In 2020 the club signed up 500 new members.",
            ),
            // "up" and "down" before no quantity are no direction.
            (
                "Visitor numbers fell last year.",
                "Visitor numbers fell last year, and the café was shut down.",
            ),
            (
                "The fund's value fell in 2023.",
                "The fund's value fell in 2023; it can hold up to 30 stocks.",
            ),
            // Nothing ties the opposite to the claim's word.
            (
                "The team won the cup in 1998.",
                "In 1998 the club lost its manager to a rival.",
            ),
            // A claim with both directions, each of its own thing.
            (
                "Revenue climbed just over 6%, even as operating profit fell.",
                "Revenue rose 6.2% to £318.4 million, £18.6 million more than a year earlier, \
                 but operating profit fell 9% to £52.1 million.",
            ),
            // A fall that shares only one word with the claim's rise.
            (
                "Revenue at the Ohio plant rose in 2023.",
                "In 2023 the company's shares fell sharply after a warning about its Texas plant.",
            ),
        ] {
            assert!(!flips(claim, sentence), "{claim} / {sentence}");
        }
    }
}
