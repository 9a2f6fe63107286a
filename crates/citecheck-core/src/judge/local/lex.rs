//! Lexing and word normalisation (pure): text -> lexemes with byte offsets, and a word -> the
//! normalised form both sides of a comparison agree on (lower case, British/American spelling
//! folded, irregular forms mapped, light suffix stripping, synonyms merged).

use rustc_hash::FxHashMap as HashMap;
use std::sync::OnceLock;

use super::lexicon;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LexKind {
    /// Letters (and digits after the first letter), apostrophes inside.
    Word,
    /// Digits with `,` `.` `:` between digits ("1,642", "2.5", "2:00:35").
    Number,
    /// `%`, `°`, currency signs, `/`.
    Symbol,
    /// Sentence and clause punctuation, quotes, brackets, dashes.
    Punct,
}

/// One lexeme; `text` is a slice of the lexed string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lexeme<'a> {
    pub text: &'a str,
    pub start: usize,
    pub kind: LexKind,
    /// Joined to the previous lexeme by a hyphen ("forty-nine", "90-sol").
    pub hyphenated: bool,
}

/// The length in chars of the footnote markers starting at `chars[i]`, when there are any: one
/// or more "[3]", "[12]", "[a]" or "[note 4]" glued to the word or punctuation before them
/// ("tall.[3]", "Ulm,[5][6]"), as an encyclopedia's text reads when copied without its
/// superscripts. A bracket after a space ("see [3]") is left alone, and so is anything longer.
pub fn footnote_chars(chars: &[(usize, char)], i: usize) -> Option<usize> {
    let glued = i > 0 && !chars[i - 1].1.is_whitespace() && chars[i - 1].1 != '[';
    if !glued {
        return None;
    }
    let mut j = i;
    while chars.get(j).is_some_and(|&(_, c)| c == '[') {
        let close = chars[j + 1..].iter().take(9).position(|&(_, c)| c == ']')?;
        let label: String = chars[j + 1..j + 1 + close]
            .iter()
            .map(|&(_, c)| c)
            .collect();
        let number = |t: &str| (1..=3).contains(&t.len()) && t.bytes().all(|b| b.is_ascii_digit());
        let note = number(&label)
            || (label.len() == 1 && label.bytes().all(|b| b.is_ascii_lowercase()))
            || ["note ", "nb ", "n "]
                .iter()
                .any(|p| label.strip_prefix(p).is_some_and(number));
        if !note {
            break;
        }
        j += close + 2;
    }
    (j > i).then_some(j - i)
}

/// Lexes `text`. Markdown link targets (`](...)`) are skipped: they are addresses, not prose;
/// so are footnote markers glued to the text ([`footnote_chars`]).
pub fn lex(text: &str) -> Vec<Lexeme<'_>> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let end_of = |i: usize| chars.get(i).map_or(text.len(), |&(b, _)| b);
    let mut out = Vec::new();
    let mut i = 0;
    let mut hyphen_pending = false;
    while i < chars.len() {
        let (start, c) = chars[i];
        if c == ']' && chars.get(i + 1).is_some_and(|&(_, n)| n == '(') {
            // Skip the link target up to its closing parenthesis.
            match chars[i + 2..].iter().position(|&(_, c)| c == ')') {
                Some(close) => i += close + 3,
                None => i += 1,
            }
            hyphen_pending = false;
            continue;
        }
        if c == '[' {
            if let Some(skip) = footnote_chars(&chars, i) {
                i += skip;
                hyphen_pending = false;
                continue;
            }
        }
        // A version's "v" glued to its number ("v1.24") is a word of its own, so that the
        // number reads as "version 1.24" does, not as "v1" and a stray ".24".
        let version_prefix = matches!(c, 'v' | 'V')
            && chars.get(i + 1).is_some_and(|&(_, n)| n.is_ascii_digit())
            && (i == 0 || !chars[i - 1].1.is_alphanumeric());
        if version_prefix {
            out.push(Lexeme {
                text: &text[start..end_of(i + 1)],
                start,
                kind: LexKind::Word,
                hyphenated: hyphen_pending,
            });
            hyphen_pending = false;
            i += 1;
            continue;
        }
        if c.is_alphabetic() {
            let mut j = i + 1;
            while j < chars.len() {
                let (_, d) = chars[j];
                let apostrophe_inside = matches!(d, '\'' | '\u{2019}')
                    && chars.get(j + 1).is_some_and(|&(_, n)| n.is_alphabetic());
                if d.is_alphanumeric() || apostrophe_inside {
                    j += 1;
                } else {
                    break;
                }
            }
            out.push(Lexeme {
                text: &text[start..end_of(j)],
                start,
                kind: LexKind::Word,
                hyphenated: hyphen_pending,
            });
            hyphen_pending = false;
            i = j;
            continue;
        }
        if c.is_ascii_digit() {
            let mut j = i + 1;
            while j < chars.len() {
                let (_, d) = chars[j];
                let joins_digits = matches!(d, ',' | '.' | ':')
                    && chars.get(j + 1).is_some_and(|&(_, n)| n.is_ascii_digit());
                if d.is_ascii_digit() || joins_digits {
                    j += 1;
                } else {
                    break;
                }
            }
            // "15th", "1st": an ordinal is a word; "1450s" is a decade of a number.
            let mut k = j;
            while k < chars.len() && chars[k].1.is_ascii_alphabetic() {
                k += 1;
            }
            let suffix = &text[end_of(j)..end_of(k)];
            let (kind, stop, next) = match suffix.to_ascii_lowercase().as_str() {
                "st" | "nd" | "rd" | "th" => (LexKind::Word, k, k),
                // The decade keeps its "s" ("1940s"), which the numbers read as a span.
                "s" => (LexKind::Number, k, k),
                _ => (LexKind::Number, j, j),
            };
            out.push(Lexeme {
                text: &text[start..end_of(stop)],
                start,
                kind,
                hyphenated: hyphen_pending,
            });
            hyphen_pending = false;
            i = next;
            continue;
        }
        if c == '-' || c == '\u{2010}' || c == '\u{2011}' {
            let glued_before = i > 0 && chars[i - 1].1.is_alphanumeric();
            let glued_after = chars.get(i + 1).is_some_and(|&(_, n)| n.is_alphanumeric());
            if glued_before && glued_after {
                hyphen_pending = true;
                i += 1;
                continue;
            }
        }
        hyphen_pending = false;
        let kind = match c {
            // The minus sign signs a value ("\u{2212}23 \u{b0}C"): see `numbers`.
            '%' | '°' | '€' | '£' | '$' | '/' | '\u{b1}' | '\u{2212}' => Some(LexKind::Symbol),
            '.' | ',' | ';' | ':' | '!' | '?' | '(' | ')' | '[' | ']' | '"' | '\u{201C}'
            | '\u{201D}' | '\u{2014}' | '\u{2013}' | '-' | '|' | '\u{2026}' => Some(LexKind::Punct),
            _ => None,
        };
        if let Some(kind) = kind {
            out.push(Lexeme {
                text: &text[start..end_of(i + 1)],
                start,
                kind,
                hyphenated: false,
            });
        }
        i += 1;
    }
    out
}

/// A normalised word and whether it carries a negation ("isn't" -> "is", negated).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Normalised {
    pub form: String,
    pub negated: bool,
}

/// Normalises a word: lower case, straight apostrophes, contractions and possessives resolved,
/// ordinals to digits, irregular forms and demonyms mapped, spelling folded, stemmed, synonyms
/// merged.
pub fn normalise(word: &str) -> Normalised {
    let mut w: String = word
        .chars()
        .map(|c| if c == '\u{2019}' { '\'' } else { c })
        .collect::<String>()
        .to_lowercase();
    let mut negated = false;
    if let Some(base) = w.strip_suffix("n't") {
        negated = true;
        w = match base {
            "wo" => "will".to_string(),
            "ca" => "can".to_string(),
            "sha" => "shall".to_string(),
            other => other.to_string(),
        };
    } else if w == "cannot" {
        return Normalised {
            form: "cannot".to_string(),
            negated: false,
        };
    }
    if let Some(base) = w.strip_suffix("'s") {
        w = base.to_string();
    }
    w.retain(|c| c != '\'');
    Normalised {
        form: fold(&w),
        negated,
    }
}

/// Words whose folded form [`fold`] keeps per thread before it starts again empty: a page's
/// words recur sentence after sentence (and again in each pair of sentences), and folding one
/// costs several table scans and allocations where a lookup costs one hash.
const FOLD_CACHE_ENTRIES: usize = 1 << 16;

/// The normalised form of an already lower-cased, apostrophe-free word.
pub fn fold(lower: &str) -> String {
    thread_local! {
        static FOLDED: std::cell::RefCell<HashMap<String, String>> =
            std::cell::RefCell::new(HashMap::default());
    }
    FOLDED.with(|cache| {
        if let Some(form) = cache.borrow().get(lower) {
            return form.clone();
        }
        let form = fold_uncached(lower);
        let mut cache = cache.borrow_mut();
        if cache.len() >= FOLD_CACHE_ENTRIES {
            cache.clear();
        }
        cache.insert(lower.to_string(), form.clone());
        form
    })
}

fn fold_uncached(lower: &str) -> String {
    if let Some(&(_, digits)) = lexicon::ORDINALS.iter().find(|(w, _)| *w == lower) {
        return digits.to_string();
    }
    if let Some(&(_, place)) = lexicon::DEMONYMS.iter().find(|(w, _)| *w == lower) {
        return stem(place);
    }
    let base = lexicon::IRREGULAR
        .iter()
        .find(|(w, _)| *w == lower)
        .map_or(lower, |&(_, base)| base);
    let stemmed = stem(&respell(base));
    synonyms().get(stemmed.as_str()).cloned().unwrap_or(stemmed)
}

/// The normalised form of each of a lexicon list's words: what the judge's tables of cue
/// words are matched in, built once per table.
pub fn forms_of(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| normalise(w).form).collect()
}

/// Folds the plural `s` only: the form unit names are matched in.
pub fn fold_plural(lower: &str) -> &str {
    plural(lower)
}

fn synonyms() -> &'static HashMap<String, String> {
    static MAP: OnceLock<HashMap<String, String>> = OnceLock::new();
    MAP.get_or_init(|| {
        let mut map = HashMap::default();
        for group in lexicon::SYNONYMS {
            let head = stem(&respell(group[0]));
            for member in *group {
                map.insert(stem(&respell(member)), head.clone());
            }
        }
        map
    })
}

/// British and American spellings folded to one: -our/-or, -tre/-ter, -ise/-ize, -yse/-yze,
/// ae/e ("haemoglobin").
fn respell(word: &str) -> String {
    let mut w = word.to_string();
    if w.chars().count() > 5 {
        for (from, to) in [("ours", "ors"), ("our", "or"), ("oured", "ored")] {
            if let Some(stem) = w.strip_suffix(from) {
                w = format!("{stem}{to}");
                break;
            }
        }
    }
    if w.chars().count() >= 5 {
        for (from, to) in [("tres", "ters"), ("tre", "ter")] {
            if let Some(stem) = w.strip_suffix(from) {
                w = format!("{stem}{to}");
                break;
            }
        }
    }
    for (from, to) in [
        ("isation", "ization"),
        ("ising", "izing"),
        ("ised", "ized"),
        ("ises", "izes"),
        ("ise", "ize"),
        ("ysing", "yzing"),
        ("ysed", "yzed"),
        ("yse", "yze"),
    ] {
        if w.len() > from.len() + 2 {
            if let Some(stem) = w.strip_suffix(from) {
                w = format!("{stem}{to}");
                break;
            }
        }
    }
    if w.len() > 4 && w.contains("ae") {
        w = w.replace("ae", "e");
    }
    w
}

fn plural(w: &str) -> &str {
    let n = w.len();
    if n <= 3 || !w.is_ascii() && !w.ends_with('s') {
        return w;
    }
    if w.ends_with("sses") {
        return &w[..n - 2];
    }
    for suffix in ["ches", "shes", "xes", "zes"] {
        if w.ends_with(suffix) {
            return &w[..n - 2];
        }
    }
    if w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") && !w.ends_with("is") {
        return &w[..n - 1];
    }
    w
}

/// A light stemmer: plural, -ing, -ed, -ly and a final -e are stripped, so that "boils",
/// "boiling" and "boiled" meet at "boil" and "live", "lives", "lived" at "liv". Crude on
/// purpose: both sides of every comparison go through it, so consistency matters more than
/// linguistic accuracy.
pub fn stem(word: &str) -> String {
    if word.chars().count() <= 3 || !word.is_ascii() {
        return plural(word).to_string();
    }
    let mut w = if let Some(base) = word.strip_suffix("ies").filter(|b| b.len() >= 2) {
        format!("{base}y")
    } else {
        plural(word).to_string()
    };
    let has_vowel = |s: &str| s.chars().any(|c| "aeiouy".contains(c));
    if let Some(base) = w.strip_suffix("ied").filter(|b| b.len() >= 2) {
        w = format!("{base}y");
    } else {
        for suffix in ["ing", "ed"] {
            if let Some(base) = w.strip_suffix(suffix) {
                if base.len() >= 3 && has_vowel(base) {
                    w = undouble(base).to_string();
                    break;
                }
            }
        }
    }
    if let Some(base) = w.strip_suffix("ly") {
        if base.len() >= 4 {
            w = base.to_string();
        }
    }
    if w.len() > 3 && w.ends_with('e') {
        w.pop();
    }
    w
}

fn undouble(w: &str) -> &str {
    let b = w.as_bytes();
    let n = b.len();
    if n >= 2 && b[n - 1] == b[n - 2] && !b"aeioulsz".contains(&b[n - 1]) {
        &w[..n - 1]
    } else {
        w
    }
}

/// Whether a word is written as a name: capitalised ("Apple"), or with a capital after a
/// lower-case first letter, as brands write theirs ("iPhone", "eBay", "iOS").
pub fn written_as_name(word: &str) -> bool {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) if first.is_uppercase() => true,
        Some(first) if first.is_lowercase() => chars
            .take_while(|c| c.is_alphabetic())
            .any(char::is_uppercase),
        _ => false,
    }
}

/// Whether `form` is one of [`lexicon::STOPWORDS`]: a hash lookup, since the judge asks it for
/// every word of every sentence it weighs (a binary search was 2% of its time).
pub fn is_stopword(form: &str) -> bool {
    static SET: OnceLock<rustc_hash::FxHashSet<&'static str>> = OnceLock::new();
    SET.get_or_init(|| lexicon::STOPWORDS.iter().copied().collect())
        .contains(form)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comparative_takes_its_adjective_s_synonyms() {
        // Round thirty-four (volcsat-01): "grew quicker" against "and then faster".
        assert_eq!(normalise("quicker").form, normalise("faster").form);
        assert_eq!(normalise("tiniest").form, normalise("smallest").form);
        assert_eq!(normalise("wealthier").form, normalise("richer").form);
    }

    #[test]
    fn a_folded_word_from_the_cache_is_the_word_folded_afresh() {
        for word in [
            "colours",
            "fourth",
            "romanian",
            "centres",
            "travelled",
            "ran",
            "tonnes",
        ] {
            let first = fold(word);
            assert_eq!(first, fold_uncached(word), "{word}");
            assert_eq!(fold(word), first, "{word}, from the cache");
        }
    }

    #[test]
    fn the_stopword_list_is_sorted_for_binary_search() {
        let mut sorted = lexicon::STOPWORDS.to_vec();
        sorted.sort_unstable();
        assert_eq!(sorted, lexicon::STOPWORDS);
    }

    #[test]
    fn lexemes_keep_numbers_whole_and_skip_link_targets() {
        let text = "It held 1,642 m (2.5 million) at 2:00:35 in the 1450s, see [the page](https://x.org/a-b).";
        let got: Vec<(&str, LexKind)> = lex(text).iter().map(|l| (l.text, l.kind)).collect();
        let words: Vec<&str> = got.iter().map(|(t, _)| *t).collect();
        assert_eq!(
            words,
            vec![
                "It", "held", "1,642", "m", "(", "2.5", "million", ")", "at", "2:00:35", "in",
                "the", "1450s", ",", "see", "[", "the", "page", "."
            ]
        );
        assert_eq!(got[2].1, LexKind::Number);
    }

    #[test]
    fn a_version_s_v_is_lexed_apart_from_its_number() {
        let words = |text| lex(text).iter().map(|l| l.text).collect::<Vec<_>>();
        assert_eq!(
            words("Kubernetes v1.24 removed it (deprecated in V1.20)."),
            vec![
                "Kubernetes",
                "v",
                "1.24",
                "removed",
                "it",
                "(",
                "deprecated",
                "in",
                "V",
                "1.20",
                ")",
                "."
            ]
        );
        // Inside a word it stays: "dev1", "mov2".
        assert_eq!(words("dev1.2"), vec!["dev1", ".", "2"]);
    }

    #[test]
    fn footnote_markers_glued_to_the_text_are_not_lexed() {
        let words = |text| lex(text).iter().map(|l| l.text).collect::<Vec<_>>();
        assert_eq!(
            words("It is 412 m long.[3][14] Born in Ulm,[a] he [note 2] left."),
            vec![
                "It", "is", "412", "m", "long", ".", "Born", "in", "Ulm", ",", "he", "[", "note",
                "2", "]", "left", "."
            ]
        );
        // After a space, or with more than a note in it, a bracket is text.
        assert_eq!(words("see [3]"), vec!["see", "[", "3", "]"]);
        assert_eq!(
            words("the group[1984 list]"),
            vec!["the", "group", "[", "1984", "list", "]"]
        );
    }

    #[test]
    fn hyphens_join_words_and_ordinals_are_words() {
        let lexemes = lex("Forty-nine copies of the 15th-century 42-line Bible");
        let forty_nine: Vec<bool> = lexemes.iter().map(|l| l.hyphenated).collect();
        assert_eq!(
            forty_nine,
            vec![false, true, false, false, false, false, true, false, true, false]
        );
        assert_eq!(lexemes[5].text, "15th");
        assert_eq!(lexemes[5].kind, LexKind::Word);
    }

    #[test]
    fn words_in_different_forms_meet_at_one_form() {
        let table: &[(&str, &str)] = &[
            ("boils", "boiling"),
            ("boiled", "boil"),
            ("lives", "lived"),
            ("colours", "color"),
            ("metres", "meter"),
            ("recognised", "recognized"),
            ("haemoglobin", "hemoglobin"),
            ("built", "construction"),
            ("wealthy", "rich"),
            ("Chinese", "China"),
            ("children", "child"),
            ("first", "1st"),
            ("stopped", "stop"),
            ("copies", "copy"),
            ("world's", "world"),
            ("frozen", "freezes"),
            ("stolen", "stole"),
            ("withdrawn", "withdrawing"),
            ("heard", "hears"),
            // Synonym groups of common usage.
            ("movie", "films"),
            ("physicians", "doctor"),
            ("manufactured", "produces"),
            ("acquired", "bought"),
            ("renowned", "famous"),
            ("matches", "games"),
            ("postponed", "delayed"),
            ("staff", "workforce"),
            ("frontier", "border"),
            ("mandatory", "compulsory"),
            ("voluntary", "optional"),
            ("outlook", "forecast"),
            ("earnings", "profit"),
            ("eliminated", "eradicated"),
            ("reunited", "reunification"),
            ("voyage", "journey"),
        ];
        for (a, b) in table {
            assert_eq!(normalise(a).form, normalise(b).form, "{a} vs {b}");
        }
    }

    #[test]
    fn different_words_stay_apart() {
        for (a, b) in [
            ("bee", "be"),
            ("status", "stat"),
            ("king", "k"),
            ("later", "late"),
        ] {
            assert_ne!(normalise(a).form, normalise(b).form, "{a} vs {b}");
        }
    }

    #[test]
    fn contractions_carry_their_negation() {
        let n = normalise("isn\u{2019}t");
        assert_eq!(
            n,
            Normalised {
                form: "is".into(),
                negated: true
            }
        );
        assert!(normalise("won't").negated);
        assert_eq!(normalise("won't").form, "will");
        assert!(!normalise("world's").negated);
    }
}
