//! The quote guard (pure): a judge's verdict counts only if its evidence quote is really in the
//! passages the judge was shown.
//!
//! Both sides are normalised the same way before the substring test: curly quotes and primes are
//! straightened and every run of whitespace becomes one space. A quote that still does not match
//! gets one more chance with inline Markdown markup removed from both sides (`**bold**`,
//! `[text](link)`, backslash escapes), because the passages are Markdown while a judge often
//! quotes the text a reader sees. Each passage is tested on its own: a quote that only exists by
//! gluing two passages together was not on the page as one piece.
//!
//! A quote that is on the page must also be able to carry the claim ([`carries_claim`]): a judge
//! answering `supported` with the quote "Water" quotes the page, but not evidence. The bounds were
//! chosen by measurement on `fixtures/devset` (see README, "The quote guard").

use crate::judge::{JudgeLabel, Judgement};
use crate::model::{Label, Reason};

/// A judgement after the guard: what the citation's verdict will carry.
#[derive(Debug, Clone, PartialEq)]
pub struct Guarded {
    pub label: Label,
    pub evidence_quote: Option<String>,
    pub confidence: f64,
    pub reason: Option<Reason>,
}

/// Accepts the judgement when its quote is in `passages`; downgrades it otherwise.
///
/// `supported`/`contradicted` need a matching quote; without one they become `not_found` with
/// confidence 0 and `evidence_quote_not_in_source`. A `not_found` that carries a quote which is
/// not there is downgraded the same way. A `not_found` keeps its confidence and carries no quote,
/// as in the reference design.
pub fn check(judgement: &Judgement, passages: &[String]) -> Guarded {
    let quote = judgement
        .evidence_quote
        .as_deref()
        .filter(|q| !q.trim().is_empty());
    let found = quote.is_some_and(|q| quote_in_passages(q, passages));
    let downgraded = Guarded {
        label: Label::NotFound,
        evidence_quote: None,
        confidence: 0.0,
        reason: Some(Reason::EvidenceQuoteNotInSource),
    };
    match judgement.label {
        JudgeLabel::Supported | JudgeLabel::Contradicted => {
            if found {
                Guarded {
                    label: if judgement.label == JudgeLabel::Supported {
                        Label::Supported
                    } else {
                        Label::Contradicted
                    },
                    evidence_quote: quote.map(str::to_string),
                    confidence: judgement.confidence,
                    reason: None,
                }
            } else {
                downgraded
            }
        }
        JudgeLabel::NotFound => {
            if quote.is_some() && !found {
                downgraded
            } else {
                Guarded {
                    label: Label::NotFound,
                    evidence_quote: None,
                    confidence: judgement.confidence,
                    reason: None,
                }
            }
        }
    }
}

/// Fewest words a `supported`/`contradicted` quote may have. On the development set no verdict
/// changes up to 4 (5 costs one); 3 leaves room for the shorter quotes LLM judges give.
pub const MIN_QUOTE_WORDS: usize = 3;
/// Smallest share of the claim's content words a `supported` quote must contain. On the
/// development set no verdict changes up to 0.5 (0.6 costs four); a third leaves room for
/// paraphrase. Not asked of `contradicted`: a contradicting quote states the page's version and
/// may share few words (a different name in the same slot).
pub const MIN_CLAIM_SHARE: f64 = 1.0 / 3.0;

/// [`check`], and then the verdict's quote must be able to carry `claim`: a `supported` quote
/// [`carries_claim`], a `contradicted` one is [`long_enough`]. One that is not downgrades to
/// `not_found` with confidence 0 and `evidence_quote_too_short`.
pub fn check_with_claim(claim: &str, judgement: &Judgement, passages: &[String]) -> Guarded {
    let guarded = check(judgement, passages);
    let carried = match (&guarded.label, &guarded.evidence_quote) {
        (Label::Supported, Some(quote)) => carries_claim(claim, quote),
        (Label::Contradicted, Some(quote)) => long_enough(quote),
        _ => true,
    };
    match &guarded.evidence_quote {
        Some(_) if !carried => Guarded {
            label: Label::NotFound,
            evidence_quote: None,
            confidence: 0.0,
            reason: Some(Reason::EvidenceQuoteTooShort),
        },
        _ => guarded,
    }
}

/// Whether `quote` is long enough to be evidence for `claim`: at least [`MIN_QUOTE_WORDS`]
/// words, holding at least [`MIN_CLAIM_SHARE`] of the claim's content words (words of three or
/// more letters, or with a digit, that are not function words; matched on their first four
/// letters so that "boils" meets "boiling"). A claim with no content word asks only the length.
pub fn carries_claim(claim: &str, quote: &str) -> bool {
    if !long_enough(quote) {
        return false;
    }
    let wanted = content_words(claim);
    if wanted.is_empty() {
        return true;
    }
    let have = content_words(quote);
    let present = wanted
        .iter()
        .filter(|w| have.iter().any(|h| same_word(w, h)))
        .count();
    present as f64 >= MIN_CLAIM_SHARE * wanted.len() as f64
}

/// At least [`MIN_QUOTE_WORDS`] words: the one bound a contradicting quote must meet, since it
/// states the page's version of the fact and may share few of the claim's words.
pub fn long_enough(quote: &str) -> bool {
    quote.split_whitespace().count() >= MIN_QUOTE_WORDS
}

/// Words that carry no claim on their own.
const FUNCTION_WORDS: &[&str] = &[
    "the", "and", "for", "are", "was", "were", "has", "have", "had", "its", "his", "her", "their",
    "our", "this", "that", "these", "those", "with", "from", "into", "onto", "than", "then", "but",
    "not", "all", "any", "can", "may", "will", "would", "should", "could", "been", "being",
    "which", "who", "whom", "what", "when", "where", "there", "here", "also", "about", "over",
    "under", "more", "most", "such", "only", "very", "each", "per", "via", "off", "out",
];

/// The lower-cased content words of `text`.
fn content_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .filter(|w| {
            let has_digit = w.chars().any(|c| c.is_ascii_digit());
            has_digit || (w.chars().count() >= 3 && !FUNCTION_WORDS.contains(&w.as_str()))
        })
        .collect()
}

/// Equal, or (both four letters or longer) the same first four letters.
fn same_word(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let prefix = |w: &str| w.chars().take(4).collect::<String>();
    a.chars().count() >= 4 && b.chars().count() >= 4 && prefix(a) == prefix(b)
}

/// True when `quote`, normalised, is a substring of one of the normalised passages.
pub fn quote_in_passages(quote: &str, passages: &[String]) -> bool {
    let wanted = normalise(quote);
    if wanted.is_empty() {
        return false;
    }
    if passages.iter().any(|p| normalise(p).contains(&wanted)) {
        return true;
    }
    let wanted = normalise(&strip_inline_markdown(quote));
    !wanted.is_empty()
        && passages
            .iter()
            .any(|p| normalise(&strip_inline_markdown(p)).contains(&wanted))
}

/// Straightens curly quotes and primes and collapses whitespace runs into single spaces.
pub fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.extend(word.chars().map(straighten));
    }
    out
}

/// Curly quotes and primes as their ASCII forms; every other character unchanged.
pub fn straighten(c: char) -> char {
    match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' => '\'',
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' => '"',
        _ => c,
    }
}

/// Removes the inline Markdown a converter adds around visible text: emphasis and code markers,
/// link and image syntax (keeping the visible text), and backslash escapes.
pub fn strip_inline_markdown(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' if chars.get(i + 1).is_some_and(|n| n.is_ascii_punctuation()) => {
                out.push(chars[i + 1]);
                i += 2;
                continue;
            }
            '*' | '`' => {}
            '_' if is_emphasis_underscore(&chars, i) => {}
            '!' if chars.get(i + 1) == Some(&'[') => {}
            '[' => {}
            ']' if chars.get(i + 1) == Some(&'(') => {
                // Skip the link target up to its closing parenthesis.
                if let Some(close) = chars[i + 2..].iter().position(|&c| c == ')') {
                    i += close + 3;
                    continue;
                }
            }
            ']' => {}
            _ => out.push(c),
        }
        i += 1;
    }
    out
}

/// An underscore is emphasis when it does not sit between two word characters (`snake_case`).
fn is_emphasis_underscore(chars: &[char], i: usize) -> bool {
    let before = i.checked_sub(1).and_then(|j| chars.get(j));
    let after = chars.get(i + 1);
    !(before.is_some_and(|c| c.is_alphanumeric()) && after.is_some_and(|c| c.is_alphanumeric()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judgement(label: JudgeLabel, quote: Option<&str>, confidence: f64) -> Judgement {
        Judgement {
            label,
            evidence_quote: quote.map(str::to_string),
            confidence,
            usage: None,
            detail: None,
        }
    }

    fn passages() -> Vec<String> {
        vec![
            "Water boils at 100 degrees Celsius at sea level.\n\nAt altitude it boils  sooner."
                .to_string(),
            "The **Eiffel Tower** is 330 metres tall, says [the operator](https://example.com/x)."
                .to_string(),
            "He said \u{201C}it\u{2019}s done\u{201D} and left.".to_string(),
        ]
    }

    #[test]
    fn a_real_quote_keeps_its_label_and_confidence() {
        let g = check(
            &judgement(
                JudgeLabel::Supported,
                Some("Water boils at 100 degrees Celsius at sea level."),
                0.9,
            ),
            &passages(),
        );
        assert_eq!(g.label, Label::Supported);
        assert_eq!(g.confidence, 0.9);
        assert_eq!(g.reason, None);
        assert!(g.evidence_quote.is_some());
    }

    #[test]
    fn an_invented_quote_downgrades_to_not_found_with_zero_confidence() {
        for label in [
            JudgeLabel::Supported,
            JudgeLabel::Contradicted,
            JudgeLabel::NotFound,
        ] {
            let g = check(
                &judgement(label, Some("Water boils at 50 degrees Celsius."), 0.8),
                &passages(),
            );
            assert_eq!(g.label, Label::NotFound, "{label:?}");
            assert_eq!(g.confidence, 0.0);
            assert_eq!(g.reason, Some(Reason::EvidenceQuoteNotInSource));
            assert_eq!(g.evidence_quote, None);
        }
    }

    #[test]
    fn a_verdict_without_a_quote_is_downgraded() {
        for quote in [None, Some(""), Some("   ")] {
            let g = check(
                &judgement(JudgeLabel::Contradicted, quote, 0.7),
                &passages(),
            );
            assert_eq!(g.label, Label::NotFound);
            assert_eq!(g.reason, Some(Reason::EvidenceQuoteNotInSource));
        }
    }

    #[test]
    fn a_plain_not_found_keeps_its_confidence_and_no_quote() {
        let g = check(&judgement(JudgeLabel::NotFound, None, 0.6), &passages());
        assert_eq!(g.label, Label::NotFound);
        assert_eq!(g.confidence, 0.6);
        assert_eq!(g.reason, None);
    }

    #[test]
    fn curly_quotes_and_odd_whitespace_still_match() {
        assert!(quote_in_passages("it's done", &passages()));
        assert!(quote_in_passages("\u{201C}it's done\u{201D}", &passages()));
        assert!(quote_in_passages(
            "At altitude it\n boils sooner.",
            &passages()
        ));
    }

    #[test]
    fn markdown_markup_around_the_visible_text_does_not_block_a_match() {
        assert!(quote_in_passages(
            "The Eiffel Tower is 330 metres tall",
            &passages()
        ));
        assert!(quote_in_passages("says the operator.", &passages()));
        assert!(quote_in_passages("The **Eiffel Tower** is", &passages()));
    }

    #[test]
    fn a_quote_spanning_two_passages_does_not_match() {
        assert!(!quote_in_passages("boils sooner. The Eiffel", &passages()));
    }

    #[test]
    fn underscores_inside_words_are_kept() {
        assert!(!quote_in_passages("snakecase", &["snake_case".to_string()]));
        assert!(quote_in_passages(
            "snake_case",
            &["_snake_case_".to_string()]
        ));
    }

    #[test]
    fn a_one_word_quote_cannot_carry_a_claim() {
        let claim = "Water boils at 100 degrees Celsius at sea level.";
        let passages = vec!["Water boils at 100 degrees Celsius at sea level.".to_string()];
        for (label, quote, kept) in [
            (JudgeLabel::Supported, "Water", false),
            (JudgeLabel::Supported, "at sea level", false),
            (JudgeLabel::Supported, "Water boils at 100 degrees", true),
            (JudgeLabel::Contradicted, "Water", false),
            (JudgeLabel::Contradicted, "at sea level", true),
        ] {
            let guarded = check_with_claim(claim, &judgement(label, Some(quote), 0.9), &passages);
            if kept {
                assert_eq!(guarded.reason, None, "{quote}");
                assert_eq!(guarded.evidence_quote.as_deref(), Some(quote));
            } else {
                assert_eq!(guarded.label, Label::NotFound, "{quote}");
                assert_eq!(
                    guarded.reason,
                    Some(Reason::EvidenceQuoteTooShort),
                    "{quote}"
                );
                assert_eq!(guarded.confidence, 0.0);
            }
        }
        // A quote not on the page is still that first.
        let guarded = check_with_claim(
            claim,
            &judgement(
                JudgeLabel::Supported,
                Some("Water boils at 50 degrees."),
                0.9,
            ),
            &passages,
        );
        assert_eq!(guarded.reason, Some(Reason::EvidenceQuoteNotInSource));
    }

    #[test]
    fn content_words_match_on_their_stem_and_skip_function_words() {
        assert!(carries_claim(
            "The tower opened in 1889.",
            "It was opening day in 1889 for the tower"
        ));
        assert!(!carries_claim(
            "The Eiffel tower opened to visitors in 1889 after two years of building.",
            "It is in Paris, France"
        ));
        // A claim of function words only asks the length.
        assert!(carries_claim("It is what it is.", "and so on then"));
    }
}
