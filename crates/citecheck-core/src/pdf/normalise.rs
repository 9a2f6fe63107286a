//! What PDFs do to text, undone (pure): pages of extracted lines in, paragraphs of plain text out.
//!
//! A PDF stores glyphs placed on pages, not prose, so its extracted text carries artefacts that
//! would make a verbatim quote fail to match or a passage read badly: ligature glyphs (`ﬁ` for
//! `fi`), soft hyphens, words hyphenated across line ends, and running headers, footers and page
//! numbers repeated on every page. [`pages_to_text`] removes them and joins the lines of each
//! paragraph with spaces, leaving a blank line between paragraphs so that the passage splitter
//! packs whole paragraphs. The result never contains a ligature or a soft hyphen.

use std::collections::HashMap;

/// How many lines at the top and at the bottom of a page may be a running header or footer.
const MARGIN_LINES: usize = 2;

/// The fewest pages on which a line must repeat (in a margin) to count as a header or footer:
/// on a two-page document a repeated line may well be content.
const MIN_REPEATS: usize = 3;

/// Turns the text of each page (lines separated by `\n`) into normalised plain text.
pub fn pages_to_text(pages: &[String]) -> String {
    let pages: Vec<Vec<String>> = pages.iter().map(|page| page_lines(page)).collect();
    let pages = drop_running_lines(pages);
    let lines: Vec<String> = pages.into_iter().flatten().collect();
    paragraphs(&lines)
}

/// Ligatures expanded, soft hyphens and control characters removed, runs of spaces collapsed.
pub fn clean_chars(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\u{FB00}' => out.push_str("ff"),
            '\u{FB01}' => out.push_str("fi"),
            '\u{FB02}' => out.push_str("fl"),
            '\u{FB03}' => out.push_str("ffi"),
            '\u{FB04}' => out.push_str("ffl"),
            // U+FB05 is the long-s ligature `ſt`; both read as `st` today.
            '\u{FB05}' | '\u{FB06}' => out.push_str("st"),
            '\u{00AD}' | '\u{200B}' | '\u{FEFF}' => {}
            '\n' => out.push('\n'),
            c if c.is_control() || c.is_whitespace() => {
                if !out.ends_with([' ', '\n']) && !out.is_empty() {
                    out.push(' ');
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// Marks a line that ends inside a word (it ended in a soft hyphen).
const WORD_GOES_ON: char = '\u{AD}';

/// The non-empty, trimmed lines of one page after [`clean_chars`]; a line that ended in a soft
/// hyphen keeps one, as [`WORD_GOES_ON`], for [`paragraphs`] to join.
fn page_lines(page: &str) -> Vec<String> {
    page.split(['\n', '\r'])
        .filter_map(|raw| {
            let line = clean_chars(raw).trim().to_string();
            let goes_on = raw.trim_end().ends_with(WORD_GOES_ON);
            match (line.is_empty(), goes_on) {
                (true, _) => None,
                (false, true) => Some(format!("{line}{WORD_GOES_ON}")),
                (false, false) => Some(line),
            }
        })
        .collect()
}

/// What makes two running lines the same: case, spacing and numbers (page numbers, dates)
/// ignored, so that `Page 3` and `Page 4` are one footer.
fn running_key(line: &str) -> String {
    let mut key = String::new();
    let mut in_number = false;
    for c in line.chars().filter(|c| !c.is_whitespace()) {
        if c.is_ascii_digit() {
            if !in_number {
                key.push('#');
            }
            in_number = true;
        } else {
            in_number = false;
            key.extend(c.to_lowercase());
        }
    }
    key
}

/// The indices of the lines of a page that lie in its top or bottom margin.
fn margin_indices(len: usize) -> impl Iterator<Item = usize> {
    let top = 0..MARGIN_LINES.min(len);
    let bottom = len.saturating_sub(MARGIN_LINES).max(MARGIN_LINES.min(len))..len;
    top.chain(bottom)
}

/// Removes the lines that repeat in the margins of at least half the pages (and of at least
/// [`MIN_REPEATS`]): running headers, footers and page numbers.
fn drop_running_lines(pages: Vec<Vec<String>>) -> Vec<Vec<String>> {
    let threshold = MIN_REPEATS.max(pages.len().div_ceil(2));
    if pages.len() < threshold {
        return pages;
    }
    let mut seen: HashMap<String, usize> = HashMap::new();
    for page in &pages {
        let mut keys: Vec<String> = margin_indices(page.len())
            .map(|i| running_key(&page[i]))
            .collect();
        keys.sort();
        keys.dedup();
        for key in keys {
            *seen.entry(key).or_default() += 1;
        }
    }
    pages
        .into_iter()
        .map(|page| {
            let margins: Vec<usize> = margin_indices(page.len()).collect();
            page.into_iter()
                .enumerate()
                .filter(|(i, line)| {
                    !(margins.contains(i)
                        && seen.get(&running_key(line)).copied().unwrap_or(0) >= threshold)
                })
                .map(|(_, line)| line)
                .collect()
        })
        .collect()
}

/// True when `line` ends with a hyphen that splits a word across the line end: a letter before
/// it, and the next line going on in lower case.
fn breaks_word(line: &str, next: &str) -> bool {
    let mut rev = line.chars().rev();
    let hyphen = matches!(rev.next(), Some('-' | '\u{2010}'));
    let letter_before = rev.next().is_some_and(char::is_alphabetic);
    let lower_after = next.chars().next().is_some_and(char::is_lowercase);
    hyphen && letter_before && lower_after
}

/// True when `line` looks like the last line of a paragraph: it ends a sentence and stops well
/// short of the usual line length.
fn ends_paragraph(line: &str, usual: usize) -> bool {
    let ends_sentence = line.ends_with(['.', '!', '?', ':', '"', '\u{201D}', ')']);
    ends_sentence && line.chars().count() * 4 < usual * 3
}

/// Joins lines into paragraphs: words broken at a line end are mended, lines are joined by a
/// space, and a paragraph ends after a short line that ends a sentence.
fn paragraphs(lines: &[String]) -> String {
    let usual = usual_line_length(lines);
    let mut out = String::new();
    let mut glue = "";
    for (i, line) in lines.iter().enumerate() {
        out.push_str(glue);
        let next = lines.get(i + 1).map(String::as_str).unwrap_or("");
        if let Some(start) = line.strip_suffix(WORD_GOES_ON) {
            out.push_str(start);
            glue = "";
        } else if breaks_word(line, next) {
            let cut = line.len() - line.chars().last().map_or(0, char::len_utf8);
            out.push_str(&line[..cut]);
            glue = "";
        } else {
            out.push_str(line);
            glue = if ends_paragraph(line, usual) {
                "\n\n"
            } else {
                " "
            };
        }
    }
    out
}

/// The median length of the lines, in characters: the width of a full line of body text.
fn usual_line_length(lines: &[String]) -> usize {
    let mut lengths: Vec<usize> = lines.iter().map(|line| line.chars().count()).collect();
    lengths.sort_unstable();
    lengths.get(lengths.len() / 2).copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pages(texts: &[&str]) -> Vec<String> {
        texts.iter().map(|t| t.to_string()).collect()
    }

    #[test]
    fn ligatures_and_soft_hyphens_become_plain_letters() {
        let table = [
            ("e\u{FB03}cient", "efficient"),
            ("\u{FB01}rst \u{FB02}ow", "first flow"),
            ("o\u{FB00}er a\u{FB04}uent", "offer affluent"),
            ("\u{FB06}ar", "star"),
            ("extra\u{00AD}ordinary", "extraordinary"),
            ("a\t\u{00A0} b", "a b"),
        ];
        for (raw, want) in table {
            assert_eq!(clean_chars(raw), want, "{raw:?}");
        }
    }

    #[test]
    fn a_word_hyphenated_across_a_line_end_is_mended() {
        let text = pages_to_text(&pages(&["The compiler specia-\nlizes each trace."]));
        assert_eq!(text, "The compiler specializes each trace.");
    }

    #[test]
    fn a_soft_hyphen_ending_a_line_joins_the_word_whatever_follows() {
        let text = pages_to_text(&pages(&["the Inter\u{AD}\nNet and iter\u{AD} \nations"]));
        assert_eq!(text, "the InterNet and iterations");
    }

    #[test]
    fn a_hyphen_before_a_capital_or_a_number_is_kept() {
        let text = pages_to_text(&pages(&["the Anglo-\nSaxon period of 1950-\n1960"]));
        assert_eq!(text, "the Anglo- Saxon period of 1950- 1960");
    }

    #[test]
    fn a_word_hyphenated_across_a_page_break_is_mended() {
        let text = pages_to_text(&pages(&["Results are re-", "produced here."]));
        assert_eq!(text, "Results are reproduced here.");
    }

    #[test]
    fn running_headers_footers_and_page_numbers_are_removed() {
        let body = [
            "The first page opens the argument of the paper.",
            "The second page develops the argument at length.",
            "The third page offers evidence for the claim.",
            "The fourth page closes the argument of the paper.",
        ];
        let raw: Vec<String> = body
            .iter()
            .enumerate()
            .map(|(i, line)| {
                format!(
                    "Journal of Tests, Vol. 3\n{line}\nPage {} of 4\n{}",
                    i + 1,
                    i + 1
                )
            })
            .collect();
        let text = pages_to_text(&raw);
        assert!(!text.contains("Journal of Tests"), "{text}");
        assert!(!text.contains("Page"), "{text}");
        assert!(!text.chars().any(|c| c.is_ascii_digit()), "{text}");
        for line in body {
            assert!(text.contains(line), "{line} missing from {text}");
        }
    }

    #[test]
    fn a_line_repeated_on_two_pages_only_is_content() {
        let raw = pages(&["Chapter One\nText of one.", "Chapter One\nText of two."]);
        let text = pages_to_text(&raw);
        assert_eq!(text.matches("Chapter One").count(), 2, "{text}");
    }

    #[test]
    fn a_repeated_line_in_the_middle_of_pages_is_content() {
        let page =
            "Header A\nHeader B\nThe same sentence.\nMore body text here.\nFooter A\nFooter B";
        let text = pages_to_text(&pages(&[page, page, page, page]));
        assert_eq!(text.matches("The same sentence.").count(), 4, "{text}");
        assert!(
            !text.contains("Header") && !text.contains("Footer"),
            "{text}"
        );
    }

    #[test]
    fn a_short_line_ending_a_sentence_ends_a_paragraph() {
        let raw = pages(&["This is a long line of body text that fills the column\n\
             and this one goes on with the same sentence until it\n\
             stops here.\n\
             A new paragraph begins on this long line of body text\n\
             and ends short."]);
        let text = pages_to_text(&raw);
        let paragraphs: Vec<&str> = text.split("\n\n").collect();
        assert_eq!(paragraphs.len(), 2, "{text}");
        assert!(paragraphs[0].ends_with("until it stops here."), "{text}");
    }

    #[test]
    fn empty_input_gives_empty_text() {
        assert_eq!(pages_to_text(&[]), "");
        assert_eq!(pages_to_text(&pages(&["", "  \n "])), "");
    }
}
