//! `citecheck batch --answers`: a JSONL of whole answers (`{"id", "answer", "input_format"?}`)
//! turned into the batch's own input, one claim per cited statement with the id
//! `ID#START..END`, so the batch's metrics, outputs, audit rows and `--resume` apply to cited
//! statements unchanged. A line that cannot be read is reported with its number and skipped,
//! as the batch does with its own input.

use std::collections::HashMap;
use std::io::{BufRead as _, BufReader, Write as _};
use std::path::Path;

use anyhow::Context;
use citecheck_answer::{Answer, Format, Statement};
use citecheck_core::ClaimVerdict;
use serde_json::{json, Value};
use tempfile::NamedTempFile;

use crate::answer::{assemble, statement_verdict};
use crate::error::AppError;
use crate::report::AnswerEntry;
use crate::results::summary::AnswerFigures;
use crate::results::BatchResult;

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
    let Some((id, answer)) = read_answer(line)? else {
        return Ok(None);
    };
    let claims = answer
        .statements
        .iter()
        .map(|s| {
            json!({
                "id": statement_id(&id, s),
                "claim": s.claim,
                "urls": s.sources.iter().map(|s| s.url.as_str()).collect::<Vec<_>>(),
            })
        })
        .collect();
    Ok(Some((claims, answer.unchecked.len())))
}

/// The batch id of one statement: the answer's id and the statement's span.
fn statement_id(answer_id: &str, statement: &Statement) -> String {
    format!(
        "{answer_id}#{}..{}",
        statement.span.start, statement.span.end
    )
}

/// One answer line read: its id and the answer; `None` for a blank line.
fn read_answer(line: &[u8]) -> Result<Option<(String, Answer)>, String> {
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
    Ok(Some((id, answer)))
}

/// Every answer of `answers` put back together from the statements' verdicts in `results` (a
/// batch's `--jsonl`), in the answers' order, and their figures. An answer none of whose
/// statements is in the results (an interrupted run) is left out; one partly verified holds
/// the statements verified. Lines that cannot be read were reported when the claims were made.
/// The answers themselves are kept only when `keep` is set (for the HTML report).
pub fn entries(
    answers: &Path,
    results: &Path,
    keep: bool,
) -> anyhow::Result<(Vec<AnswerEntry>, AnswerFigures)> {
    let mut verdicts: HashMap<String, ClaimVerdict> = HashMap::new();
    let file =
        std::fs::File::open(results).with_context(|| format!("opening {}", results.display()))?;
    for line in BufReader::new(file).lines() {
        let line = line.with_context(|| format!("reading {}", results.display()))?;
        if let Ok(result) = serde_json::from_str::<BatchResult>(&line) {
            if result.id.contains('#') {
                verdicts.insert(result.id, result.verdict);
            }
        }
    }
    let file =
        std::fs::File::open(answers).with_context(|| format!("opening {}", answers.display()))?;
    let (mut entries, mut figures) = (Vec::new(), AnswerFigures::default());
    for line in BufReader::new(file).split(b'\n') {
        let line = line.with_context(|| format!("reading {}", answers.display()))?;
        let Ok(Some((id, answer))) = read_answer(&line) else {
            continue;
        };
        let (mut statements, mut spans) = (Vec::new(), Vec::new());
        for statement in &answer.statements {
            if let Some(verdict) = verdicts.remove(&statement_id(&id, statement)) {
                // The page is not at hand after a batch: cited_text is shown, not looked for.
                statements.push(statement_verdict(statement, verdict, |_| None));
                spans.push(statement.bytes.clone());
            }
        }
        if statements.is_empty() {
            continue;
        }
        let verdict = assemble(&answer, statements, 0);
        figures.add(&verdict);
        if !keep {
            continue;
        }
        entries.push(AnswerEntry {
            id: Some(id),
            text: answer.text,
            spans,
            verdict,
        });
    }
    Ok((entries, figures))
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
