//! `citecheck batch --answers`: a JSONL of whole answers (`{"id", "answer", "input_format"?}`)
//! turned into the batch's own input, one claim per cited statement with the id
//! `ID#START..END`, so the batch's metrics, outputs, audit rows and `--resume` apply to cited
//! statements unchanged. A line that cannot be read is reported with its number and skipped,
//! as the batch does with its own input.

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::Path;

use anyhow::Context;
use citecheck_answer::Format;
use serde_json::{json, Value};
use tempfile::NamedTempFile;

use crate::error::AppError;

/// Reads `answers` and writes the claims of every answer to a temporary JSONL file, deleted
/// when the returned handle is dropped.
pub fn claims_file(answers: &Path) -> Result<NamedTempFile, AppError> {
    let file = std::fs::File::open(answers)
        .map_err(|err| AppError::usage(format!("cannot read {}: {err}", answers.display())))?;
    let mut out = NamedTempFile::new().context("creating the claims file for --answers")?;
    let (mut read, mut statements, mut unchecked) = (0usize, 0usize, 0usize);
    for (n, line) in BufReader::new(file).split(b'\n').enumerate() {
        let line = line.with_context(|| format!("reading {}", answers.display()))?;
        let number = n + 1;
        match claims_of(&line) {
            Ok(None) => {}
            Ok(Some((claims, listed))) => {
                read += 1;
                unchecked += listed;
                for claim in claims {
                    statements += 1;
                    writeln!(out, "{claim}").context("writing the claims file")?;
                }
            }
            Err(problem) => eprintln!("{}: line {number}: {problem}", answers.display()),
        }
    }
    out.flush().context("writing the claims file")?;
    eprintln!(
        "{read} answers, {statements} cited statements to verify, {unchecked} citations not checkable (invalid span or no URL)"
    );
    Ok(out)
}

/// The claim lines of one answer line and the number of citations it lists as not checkable;
/// `None` for a blank line.
fn claims_of(line: &[u8]) -> Result<Option<(Vec<Value>, usize)>, String> {
    let text = std::str::from_utf8(line).map_err(|_| "not valid UTF-8".to_string())?;
    if text.trim().is_empty() {
        return Ok(None);
    }
    let value: Value = serde_json::from_str(text).map_err(|e| format!("invalid JSON: {e}"))?;
    let id = match value.get("id") {
        Some(Value::String(id)) if !id.trim().is_empty() => id.trim().to_string(),
        Some(Value::Number(n)) => n.to_string(),
        _ => return Err("missing or empty `id`".to_string()),
    };
    let format = match value.get("input_format") {
        None | Some(Value::Null) => None,
        Some(Value::String(f)) => Some(f.parse::<Format>().map_err(|e| format!("{e} (id {id})"))?),
        Some(_) => return Err(format!("`input_format` must be a string (id {id})")),
    };
    let answer = match value.get("answer") {
        Some(Value::String(text)) => text.clone(),
        Some(object @ Value::Object(_)) => object.to_string(),
        _ => return Err(format!("`answer` must be a string or an object (id {id})")),
    };
    let answer = citecheck_answer::parse(&answer, format).map_err(|e| format!("{e} (id {id})"))?;
    if answer.statements.is_empty() {
        return Err(format!(
            "the answer carries no citation checkable by URL (id {id})"
        ));
    }
    let claims = answer
        .statements
        .iter()
        .map(|s| {
            json!({
                "id": format!("{id}#{}..{}", s.span.start, s.span.end),
                "claim": s.claim,
                "urls": s.sources.iter().map(|s| s.url.as_str()).collect::<Vec<_>>(),
            })
        })
        .collect();
    Ok(Some((claims, answer.unchecked.len())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_statement_becomes_a_claim_keyed_by_the_answer_and_its_span() {
        let line = br#"{"id": "a1", "answer": "Water is wet [1]. Fire is hot.\n\n[1]: https://a.example/"}"#;
        let (claims, unchecked) = claims_of(line).expect("readable").expect("not blank");
        assert_eq!(unchecked, 0);
        assert_eq!(claims.len(), 1);
        assert_eq!(claims[0]["id"], "a1#0..17");
        assert_eq!(claims[0]["claim"], "Water is wet.");
        assert_eq!(claims[0]["urls"][0], "https://a.example/");
        assert!(claims_of(b"   ").expect("blank").is_none());
        for bad in [
            &b"{\"answer\": \"x [1]\"}"[..],
            b"{\"id\": 1, \"answer\": 5}",
            b"nope",
        ] {
            assert!(claims_of(bad).is_err());
        }
    }
}
