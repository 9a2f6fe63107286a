//! Which words are common English words (pure): the one-word lemmas of WordNet 3.1, shipped in
//! `data/english-words.txt` (its source, licence and generator are in `data/README.md`).
//!
//! A capitalised word that opens a sentence may be a name or only the first word. The page
//! settles most cases, by writing the word capitalised mid-sentence; when it does not, a word
//! no dictionary holds ("Veskstad", "Kipchoge") is a name, and a dictionary word ("Rents",
//! "Construction") is not.

use std::sync::OnceLock;

use super::lex::fold_plural;

const WORDS: &str = include_str!("../../../data/english-words.txt");

/// The list's words, as a set: the judge asks about every capitalised word that opens a
/// sentence, and a hash lookup costs less than a binary search over 80,000 words.
fn words() -> &'static rustc_hash::FxHashSet<&'static str> {
    static SET: OnceLock<rustc_hash::FxHashSet<&'static str>> = OnceLock::new();
    SET.get_or_init(|| WORDS.lines().filter(|w| !w.is_empty()).collect())
}

fn listed(word: &str) -> bool {
    words().contains(word)
}

/// Whether `word` (any case, possibly inflected, possessive or contracted) is a common English
/// word. The list holds base forms only, so the usual endings are taken off in turn: "Octopuses",
/// "Charging", "Founded", "Don't" and "Tower's" are all found.
pub fn is_english_word(word: &str) -> bool {
    let lower = word.to_lowercase().replace('\u{2019}', "'");
    // "don't", "tower's", "we'll": the word before the apostrophe.
    let bare = lower.split('\'').next().unwrap_or(&lower);
    if bare.is_empty() {
        return false;
    }
    if listed(bare) {
        return true;
    }
    let stem = |suffix: &str| bare.strip_suffix(suffix).filter(|s| s.len() >= 2);
    let base = |suffix: &str, add: &str| stem(suffix).is_some_and(|s| listed(&format!("{s}{add}")));
    // "charging" -> "charge", "running" -> "run", "studies" -> "study".
    let undoubled = |suffix: &str| {
        stem(suffix).is_some_and(|s| {
            let mut chars = s.chars().rev();
            match (chars.next(), chars.next()) {
                (Some(last), Some(before)) if last == before => {
                    listed(&s[..s.len() - last.len_utf8()])
                }
                _ => false,
            }
        })
    };
    [
        ("s", ""),
        ("es", ""),
        ("ies", "y"),
        ("ing", ""),
        ("ing", "e"),
        ("ed", ""),
        ("ed", "e"),
        ("d", ""),
    ]
    .iter()
    .any(|(suffix, add)| base(suffix, add))
        || undoubled("ing")
        || undoubled("ed")
        || listed(fold_plural(bare))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dictionary_words_are_english_and_coined_names_are_not() {
        for word in [
            "Rents",
            "Construction",
            "Octopuses",
            "octopus",
            "Paris",
            "Tower's",
        ] {
            assert!(is_english_word(word), "{word}");
        }
        for word in [
            "Veskstad",
            "Tarmen",
            "Kipchoge",
            "Zhurong",
            "Veskstad's",
            "",
            "'s",
            // Doubled letters outside ASCII: no panic on a byte boundary.
            "\u{e9}\u{e9}ing",
            "\u{f1}\u{f1}ed",
            "\u{2019}",
        ] {
            assert!(!is_english_word(word), "{word}");
        }
    }

    #[test]
    fn the_list_is_sorted_lower_case_words() {
        let list: Vec<&str> = WORDS.lines().collect();
        assert!(list.len() > 50_000, "{} words", list.len());
        assert!(list.windows(2).all(|w| w[0] < w[1]));
        assert!(list
            .iter()
            .all(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase())));
    }
}
