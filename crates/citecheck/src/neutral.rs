//! Text from pages and callers made inert for the places it is shown (pure).
//!
//! Claims, ids, URLs, details and evidence quotes all come from outside: a quote is copied from
//! a page anyone can write. Two renderings would let such text act:
//! - a spreadsheet opening a CSV runs a cell that starts with `=`, `+`, `-` or `@` (also after
//!   a leading tab or carriage return, which some trim) as a formula: [`csv_cell`] puts a `'`
//!   in front, the convention spreadsheets show as a literal;
//! - a terminal obeys escape and control characters (clear the screen, retitle the window,
//!   reorder text with bidi overrides): [`terminal`] replaces each with a visible `\u{..}`
//!   escape.
//!
//! JSON output is never passed through here: it stays exact.

use std::borrow::Cow;

/// A CSV cell that a spreadsheet shows as text, never evaluates.
pub fn csv_cell(value: &str) -> Cow<'_, str> {
    let starts_like_a_formula = value
        .chars()
        .next()
        .is_some_and(|c| matches!(c, '=' | '+' | '-' | '@' | '\t' | '\r'));
    if starts_like_a_formula {
        Cow::Owned(format!("'{value}"))
    } else {
        Cow::Borrowed(value)
    }
}

/// `fields`, each made a [`csv_cell`].
pub fn csv_fields<I, S>(fields: I) -> Vec<String>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    fields
        .into_iter()
        .map(|field| csv_cell(field.as_ref()).into_owned())
        .collect()
}

/// The CSV record `row` serialises to, each field made a [`csv_cell`]: every column of a
/// serialisable row is covered, whatever columns it gains later.
pub fn csv_record<S: serde::Serialize>(row: &S) -> Result<Vec<String>, csv::Error> {
    let mut scratch = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    scratch.serialize(row)?;
    let bytes = scratch
        .into_inner()
        .map_err(|err| csv::Error::from(std::io::Error::other(err.to_string())))?;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(bytes.as_slice());
    let mut record = csv::StringRecord::new();
    reader.read_record(&mut record)?;
    Ok(csv_fields(record.iter()))
}

/// Text safe to print to a terminal: C0 and C1 control characters (ESC and BEL among them),
/// DEL, and the bidirectional overrides and isolates are escaped; newlines and tabs are kept
/// when `keep_lines` is set, and escaped otherwise.
pub fn terminal(text: &str, keep_lines: bool) -> Cow<'_, str> {
    let acts = |c: char| is_control(c) && !(keep_lines && (c == '\n' || c == '\t'));
    if !text.chars().any(acts) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if acts(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// One line of terminal text: newlines escaped as well.
pub fn terminal_line(text: &str) -> Cow<'_, str> {
    terminal(text, false)
}

fn is_control(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            // Bidirectional embeddings, overrides, isolates and marks.
            '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{61c}'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_cells_that_start_like_a_formula_are_quoted_as_text() {
        let table = [
            ("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"),
            ("+1+1", "'+1+1"),
            ("-2+3", "'-2+3"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\t=1+1", "'\t=1+1"),
            ("\r=1+1", "'\r=1+1"),
            ("Water boils at 100 degrees.", "Water boils at 100 degrees."),
            ("a=b", "a=b"),
            ("", ""),
        ];
        for (value, expected) in table {
            assert_eq!(csv_cell(value), expected, "{value:?}");
        }
    }

    #[test]
    fn every_column_of_a_serialised_row_is_neutralised() {
        #[derive(serde::Serialize)]
        struct Row {
            id: i64,
            claim: String,
            quote: Option<String>,
            confidence: f64,
        }
        let row = Row {
            id: 7,
            claim: "=cmd|' /C calc'!A0".into(),
            quote: Some("@SUM(1,2)".into()),
            confidence: 0.5,
        };
        assert_eq!(
            csv_record(&row).expect("serialises"),
            ["7", "'=cmd|' /C calc'!A0", "'@SUM(1,2)", "0.5"]
        );
    }

    #[test]
    fn escapes_bells_and_bidi_overrides_become_visible_text() {
        let table = [
            (
                "\u{1b}[2J\u{1b}]0;owned\u{7}",
                "\\u{1b}[2J\\u{1b}]0;owned\\u{7}",
            ),
            ("abc\u{202e}fdp.exe", "abc\\u{202e}fdp.exe"),
            ("C1: \u{9b}31m", "C1: \\u{9b}31m"),
            ("del\u{7f}", "del\\u{7f}"),
            ("isolate \u{2066}x\u{2069}", "isolate \\u{2066}x\\u{2069}"),
            ("plain text, café, 日本", "plain text, café, 日本"),
        ];
        for (text, expected) in table {
            assert_eq!(terminal_line(text), expected, "{text:?}");
        }
    }

    #[test]
    fn lines_are_kept_only_when_asked() {
        assert_eq!(terminal("a\nb\tc\r", true), "a\nb\tc\\u{d}");
        assert_eq!(terminal_line("a\nb"), "a\\u{a}b");
    }
}
