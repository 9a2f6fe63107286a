//! Reading a batch input: JSONL records `{id, claim, urls}`, one per line, streamed.
//!
//! A line that cannot be used (not JSON, not UTF-8, a missing or empty field, a URL that is not
//! http(s), an id seen before) becomes a [`BadLine`] with its line number; the run skips it and
//! goes on. Blank lines are ignored. Only a 128-bit digest of each id is remembered, so checking
//! for duplicates costs a few bytes per claim however long the lines are.

use std::collections::HashSet;

use serde_json::Value;
use sha2::{Digest, Sha256};

/// One usable input record.
#[derive(Debug, Clone, PartialEq)]
pub struct InputRecord {
    /// 1-based line number in the input.
    pub line: u64,
    pub id: String,
    pub claim: String,
    pub urls: Vec<String>,
}

/// A line that was skipped, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct BadLine {
    pub line: u64,
    pub problem: String,
}

impl std::fmt::Display for BadLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.problem)
    }
}

/// A compact set of ids.
#[derive(Debug, Default, Clone)]
pub struct IdSet(HashSet<u128>);

impl IdSet {
    fn key(id: &str) -> u128 {
        let digest = Sha256::digest(id.as_bytes());
        let mut bytes = [0u8; 16];
        bytes.copy_from_slice(&digest[..16]);
        u128::from_le_bytes(bytes)
    }

    /// Adds `id`; false when it was already there.
    pub fn insert(&mut self, id: &str) -> bool {
        self.0.insert(Self::key(id))
    }

    pub fn contains(&self, id: &str) -> bool {
        self.0.contains(&Self::key(id))
    }

    pub fn remove(&mut self, id: &str) -> bool {
        self.0.remove(&Self::key(id))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Parses line `line` (1-based) of the input. `None` for a blank line. `seen` collects the ids
/// of usable records, to refuse duplicates.
pub fn parse_line(
    line: u64,
    bytes: &[u8],
    seen: &mut IdSet,
) -> Option<Result<InputRecord, BadLine>> {
    let bad = |problem: String| Some(Err(BadLine { line, problem }));
    let Ok(text) = std::str::from_utf8(bytes) else {
        return bad("not valid UTF-8".into());
    };
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(err) => return bad(format!("invalid JSON: {err}")),
    };
    let Some(object) = value.as_object() else {
        return bad("expected a JSON object {\"id\", \"claim\", \"urls\"}".into());
    };
    let id = match object.get("id") {
        Some(Value::String(id)) if !id.trim().is_empty() => id.trim().to_string(),
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::String(_)) => return bad("`id` is empty".into()),
        Some(_) => return bad("`id` must be a string or a number".into()),
        None => return bad("missing field `id`".into()),
    };
    let claim = match object.get("claim") {
        Some(Value::String(claim)) if !claim.trim().is_empty() => claim.trim().to_string(),
        Some(Value::String(_)) => return bad(format!("`claim` is empty (id {id})")),
        Some(_) => return bad(format!("`claim` must be a string (id {id})")),
        None => return bad(format!("missing field `claim` (id {id})")),
    };
    let urls = match object.get("urls") {
        Some(Value::Array(urls)) if urls.is_empty() => {
            return bad(format!("`urls` is empty (id {id})"))
        }
        Some(Value::Array(urls)) => urls,
        Some(_) => return bad(format!("`urls` must be an array of strings (id {id})")),
        None => return bad(format!("missing field `urls` (id {id})")),
    };
    let mut checked = Vec::with_capacity(urls.len());
    for url in urls {
        let Some(url) = url.as_str() else {
            return bad(format!("`urls` must be an array of strings (id {id})"));
        };
        let url = url.trim();
        if let Err(problem) = check_url(url) {
            return bad(format!("{problem} (id {id})"));
        }
        checked.push(url.to_string());
    }
    if !seen.insert(&id) {
        return bad(format!("duplicate id {id}"));
    }
    Some(Ok(InputRecord {
        line,
        id,
        claim,
        urls: checked,
    }))
}

fn check_url(url: &str) -> Result<(), String> {
    match url::Url::parse(url) {
        Ok(parsed) if !matches!(parsed.scheme(), "http" | "https") => Err(format!(
            "`{url}` is not an http(s) URL (scheme `{}`)",
            parsed.scheme()
        )),
        Ok(parsed) if parsed.host_str().is_none_or(str::is_empty) => {
            Err(format!("`{url}` has no host"))
        }
        Ok(_) => Ok(()),
        Err(err) => Err(format!("`{url}` is not a valid URL: {err}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(lines: &[&str]) -> Vec<Result<InputRecord, BadLine>> {
        let mut seen = IdSet::default();
        lines
            .iter()
            .enumerate()
            .filter_map(|(i, l)| parse_line(i as u64 + 1, l.as_bytes(), &mut seen))
            .collect()
    }

    #[test]
    fn each_kind_of_bad_line_is_named_with_its_line_number() {
        let cases: &[(&str, &str)] = &[
            ("{not json", "invalid JSON"),
            ("[1, 2]", "expected a JSON object"),
            (
                r#"{"claim": "c", "urls": ["http://a.example/"]}"#,
                "missing field `id`",
            ),
            (
                r#"{"id": "", "claim": "c", "urls": ["http://a.example/"]}"#,
                "`id` is empty",
            ),
            (
                r#"{"id": "1", "urls": ["http://a.example/"]}"#,
                "missing field `claim`",
            ),
            (
                r#"{"id": "1", "claim": "  ", "urls": ["http://a.example/"]}"#,
                "`claim` is empty",
            ),
            (r#"{"id": "1", "claim": "c"}"#, "missing field `urls`"),
            (
                r#"{"id": "1", "claim": "c", "urls": []}"#,
                "`urls` is empty",
            ),
            (
                r#"{"id": "1", "claim": "c", "urls": "http://a.example/"}"#,
                "must be an array",
            ),
            (
                r#"{"id": "1", "claim": "c", "urls": [3]}"#,
                "must be an array",
            ),
            (
                r#"{"id": "1", "claim": "c", "urls": ["ftp://a.example/x"]}"#,
                "not an http(s) URL",
            ),
            (
                r#"{"id": "1", "claim": "c", "urls": ["file:///etc/passwd"]}"#,
                "not an http(s) URL",
            ),
            (
                r#"{"id": "1", "claim": "c", "urls": ["not a url"]}"#,
                "not a valid URL",
            ),
        ];
        for (text, expected) in cases {
            let got = parse(&["", text]);
            assert_eq!(got.len(), 1, "{text}");
            let bad = got[0].clone().expect_err(text);
            assert_eq!(bad.line, 2, "{text}");
            assert!(bad.problem.contains(expected), "{text}: {}", bad.problem);
        }
    }

    #[test]
    fn a_duplicate_id_is_refused_but_the_first_record_is_kept() {
        let got = parse(&[
            r#"{"id": 7, "claim": "a", "urls": ["https://a.example/1"]}"#,
            r#"{"id": "7", "claim": "b", "urls": ["https://a.example/2"]}"#,
            r#"{"id": "8", "claim": "c", "urls": [" https://a.example/3 "]}"#,
        ]);
        let first = got[0].clone().expect("first is fine");
        assert_eq!((first.id.as_str(), first.line), ("7", 1));
        let dup = got[1].clone().expect_err("duplicate");
        assert_eq!(dup.line, 2);
        assert!(dup.problem.contains("duplicate id 7"));
        assert_eq!(
            got[2].clone().expect("third is fine").urls,
            vec!["https://a.example/3"]
        );
    }

    #[test]
    fn invalid_utf8_is_a_bad_line_not_a_crash() {
        let mut seen = IdSet::default();
        let bad = parse_line(4, b"{\"id\": \"\xff\"}", &mut seen)
            .expect("not blank")
            .expect_err("bad");
        assert_eq!(bad.line, 4);
        assert!(bad.problem.contains("UTF-8"));
    }
}
