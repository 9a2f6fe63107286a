//! Markdown or plain text: inline links `[text](url)`, reference links `[text][id]` with
//! `[id]: url` definitions, footnotes `[^id]` with `[^id]: ... url` definitions, numbered
//! markers `[1]` with a reference list at the end (`[1] url`, `[1]: url`, `1. Title url`), and
//! bare URLs in parentheses or angle brackets. Each citation cites the sentence it sits in.
//!
//! Offsets are found in the text itself, so no provider unit applies. The reference list and
//! definition lines are not prose: they are neither statements nor counted as sentences.

use std::collections::HashMap;
use std::ops::Range;

use crate::draft::{Cite, Draft, Reach};
use crate::model::{Problem, Source};

pub fn read(input: &str) -> Draft {
    let lines = lines(input);
    let mut defs: HashMap<String, Source> = HashMap::new();
    let mut not_prose = vec![false; lines.len()];
    // Standard definitions (`[id]: url`, `[^id]: ...`) may stand anywhere.
    for (k, line) in lines.iter().enumerate() {
        let trimmed = input[line.clone()].trim();
        // A heading names a section; it states nothing to cite or count.
        if trimmed.starts_with('#') {
            not_prose[k] = true;
        }
        if let Some((id, rest)) = definition(trimmed) {
            not_prose[k] = true;
            if let Some(source) = source_in(rest) {
                defs.insert(id, source);
            }
        }
    }
    // A reference list closes the answer: numbered entries, blank lines, and its heading.
    for k in (0..lines.len()).rev() {
        let trimmed = input[lines[k].clone()].trim();
        if trimmed.is_empty() || not_prose[k] {
            not_prose[k] = true;
            continue;
        }
        if let Some((n, rest)) = numbered_entry(trimmed) {
            if let Some(source) = source_in(rest) {
                defs.entry(n).or_insert(source);
                not_prose[k] = true;
                continue;
            }
        }
        if is_list_heading(trimmed) {
            not_prose[k] = true;
        }
        break;
    }
    let prose: Vec<Range<usize>> = lines
        .iter()
        .zip(&not_prose)
        .filter(|(_, skip)| !**skip)
        .map(|(line, _)| line.clone())
        .collect();
    let mut draft = Draft {
        text: input.to_string(),
        prose: Some(prose.clone()),
        ..Draft::default()
    };
    for range in prose {
        scan(input, range, &defs, &mut draft);
    }
    draft
}

fn lines(input: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, b) in input.bytes().enumerate() {
        if b == b'\n' {
            out.push(start..i);
            start = i + 1;
        }
    }
    out.push(start..input.len());
    out
}

/// `[id]: rest` or `[^id]: rest` (the id keeps its `^`).
fn definition(line: &str) -> Option<(String, &str)> {
    let rest = line.strip_prefix('[')?;
    let close = rest.find("]:")?;
    let id = &rest[..close];
    (!id.is_empty() && !id.contains('[')).then(|| (id.to_lowercase(), &rest[close + 2..]))
}

/// `[1] rest`, `1. rest`, `1) rest`, `- [1] rest`.
fn numbered_entry(line: &str) -> Option<(String, &str)> {
    let line = line.trim_start_matches(['-', '*', ' ']);
    if let Some(rest) = line.strip_prefix('[') {
        let close = rest.find(']')?;
        let n = &rest[..close];
        return (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            .then(|| (n.to_string(), &rest[close + 1..]));
    }
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    let after = line.get(digits..)?;
    let rest = after
        .strip_prefix('.')
        .or_else(|| after.strip_prefix(')'))?;
    (digits > 0).then(|| (line[..digits].to_string(), rest))
}

fn is_list_heading(line: &str) -> bool {
    let plain = line
        .trim_matches(|c: char| matches!(c, '#' | '*' | '_' | ':' | ' '))
        .to_lowercase();
    [
        "sources",
        "references",
        "citations",
        "notes",
        "footnotes",
        "links",
    ]
    .contains(&plain.as_str())
}

/// The first http(s) URL in `rest`, with the words before it as a title.
fn source_in(rest: &str) -> Option<Source> {
    let at = rest.find("https://").or_else(|| rest.find("http://"))?;
    let url: String = rest[at..]
        .chars()
        .take_while(|c| !c.is_whitespace() && !matches!(c, '>' | ')' | '"' | '<'))
        .collect();
    let url = url.trim_end_matches(['.', ',', ';']).to_string();
    let title = rest[..at]
        .trim()
        .trim_matches(|c: char| matches!(c, '[' | ']' | '(' | '<' | '-' | ':' | '"' | ' ' | '*'))
        .trim();
    (url.len() > "https://".len()).then(|| Source {
        url,
        title: (!title.is_empty()).then(|| title.to_string()),
        cited_text: None,
    })
}

/// Finds the citations in one prose line.
fn scan(input: &str, line: Range<usize>, defs: &HashMap<String, Source>, draft: &mut Draft) {
    let text = &input[line.clone()];
    let base = line.start;
    let mut i = 0;
    while i < text.len() {
        let rest = &text[i..];
        let found = if rest.starts_with("![") {
            // An image: skip its alt text, it cites nothing.
            rest.find(')').map(|e| (e + 1, Vec::new()))
        } else if rest.starts_with('[') {
            bracket(rest, defs, draft)
        } else if rest.starts_with("(http://") || rest.starts_with("(https://") {
            rest.find(')')
                .map(|e| (e + 1, source_in(&rest[1..e]).into_iter().collect()))
        } else if rest.starts_with("<http://") || rest.starts_with("<https://") {
            rest.find('>')
                .map(|e| (e + 1, source_in(&rest[1..e]).into_iter().collect()))
        } else {
            None
        };
        match found {
            Some((len, sources)) => {
                for source in sources {
                    draft.cites.push(Cite {
                        range: base + i..base + i + len,
                        reach: Reach::Sentence,
                        source,
                    });
                }
                i += len.max(1);
            }
            None => i += rest.chars().next().map_or(1, char::len_utf8),
        }
    }
}

/// A `[...]` construct at the start of `rest`: its length and the sources it cites.
fn bracket(
    rest: &str,
    defs: &HashMap<String, Source>,
    draft: &mut Draft,
) -> Option<(usize, Vec<Source>)> {
    let close = rest.find(']')?;
    let inner = &rest[1..close];
    if inner.contains('[') {
        return None;
    }
    let after = &rest[close + 1..];
    if after.starts_with('(') {
        let end = after.find(')')?;
        let target = after[1..end].split_whitespace().next().unwrap_or("");
        let len = close + 1 + end + 1;
        if target.starts_with("http://") || target.starts_with("https://") {
            let source = Source {
                url: target.trim_matches(['<', '>']).to_string(),
                title: (!inner.trim().is_empty()).then(|| inner.trim().to_string()),
                cited_text: None,
            };
            return Some((len, vec![source]));
        }
        return Some((len, Vec::new()));
    }
    if after.starts_with('[') {
        let end = after.find(']')?;
        let id = &after[1..end];
        let id = if id.is_empty() { inner } else { id };
        let len = close + 1 + end + 1;
        return Some((
            len,
            defs.get(&id.to_lowercase()).cloned().into_iter().collect(),
        ));
    }
    let len = close + 1;
    let numbers: Vec<&str> = inner.split(',').map(str::trim).collect();
    let numeric = !inner.trim().is_empty()
        && numbers
            .iter()
            .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    let footnote = inner.starts_with('^');
    if numeric || footnote {
        let ids: Vec<String> = if footnote {
            vec![inner.to_lowercase()]
        } else {
            numbers.iter().map(|n| n.to_string()).collect()
        };
        let mut sources = Vec::new();
        for id in ids {
            match defs.get(&id) {
                Some(source) => sources.push(source.clone()),
                None => draft.unchecked(
                    Problem::NotCheckableByUrl,
                    if footnote { "footnote" } else { "marker" },
                    None,
                    None,
                    format!("[{id}] has no entry with a URL in the reference list"),
                ),
            }
        }
        return Some((len, sources));
    }
    defs.get(&inner.to_lowercase())
        .map(|source| (len, vec![source.clone()]))
}
