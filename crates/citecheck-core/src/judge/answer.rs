//! Reading a model's answer: JSON text (OpenAI, Ollama) or an already parsed value (Anthropic's
//! tool input) in, a [`Judgement`] or a [`JudgeError`] out.
//!
//! Validation is strict and never fills a gap: the answer must be an object with exactly
//! `label`, `evidence_quote` and `confidence`, a known label, a string or null quote and a finite
//! confidence in `[0, 1]`. Anything else is [`JudgeError::InvalidAnswer`], which the verifier
//! turns into `not_found` / `judge_error`, visibly apart from a judge that found nothing.

use serde_json::{Map, Value};

use super::{JudgeError, JudgeLabel, Judgement};

/// How much of a bad answer is kept in the error message, for the audit.
const SNIPPET_CHARS: usize = 200;

/// Parses the text a model produced as its answer.
///
/// One surrounding Markdown code fence (```` ```json ... ``` ````) is tolerated, because servers
/// that ignore the response format often add one; nothing else is repaired.
pub fn parse_text(text: &str) -> Result<Judgement, JudgeError> {
    let trimmed = strip_fence(text.trim());
    if trimmed.is_empty() {
        return Err(JudgeError::InvalidAnswer("the answer is empty".to_string()));
    }
    let value: Value = serde_json::from_str(trimmed).map_err(|err| {
        JudgeError::InvalidAnswer(format!(
            "the answer is not valid JSON ({err}): {}",
            snippet(trimmed)
        ))
    })?;
    parse_value(&value)
}

/// Validates an answer that is already JSON.
pub fn parse_value(value: &Value) -> Result<Judgement, JudgeError> {
    let object = value.as_object().ok_or_else(|| {
        invalid(format!(
            "the answer is not a JSON object: {}",
            snippet(&value.to_string())
        ))
    })?;
    if let Some(extra) = object
        .keys()
        .find(|k| !matches!(k.as_str(), "label" | "evidence_quote" | "confidence"))
    {
        return Err(invalid(format!(
            "the answer has an unexpected field `{extra}`"
        )));
    }
    let label = match field(object, "label")? {
        Value::String(s) => match s.as_str() {
            "supported" => JudgeLabel::Supported,
            "contradicted" => JudgeLabel::Contradicted,
            "not_found" => JudgeLabel::NotFound,
            other => return Err(invalid(format!("unknown label `{}`", snippet(other)))),
        },
        other => return Err(invalid(format!("`label` is not a string: {other}"))),
    };
    let evidence_quote = match field(object, "evidence_quote")? {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        other => {
            return Err(invalid(format!(
                "`evidence_quote` is neither a string nor null: {}",
                snippet(&other.to_string())
            )))
        }
    };
    let confidence = match field(object, "confidence")? {
        Value::Number(n) => n
            .as_f64()
            .ok_or_else(|| invalid(format!("`confidence` is not a usable number: {n}")))?,
        other => {
            return Err(invalid(format!(
                "`confidence` is not a number: {}",
                snippet(&other.to_string())
            )))
        }
    };
    if !confidence.is_finite() || !(0.0..=1.0).contains(&confidence) {
        return Err(invalid(format!(
            "`confidence` {confidence} is outside [0, 1]"
        )));
    }
    Ok(Judgement {
        label,
        evidence_quote,
        confidence,
        usage: None,
        detail: None,
    })
}

fn field<'a>(object: &'a Map<String, Value>, name: &str) -> Result<&'a Value, JudgeError> {
    object
        .get(name)
        .ok_or_else(|| invalid(format!("the answer has no `{name}` field")))
}

fn invalid(message: String) -> JudgeError {
    JudgeError::InvalidAnswer(message)
}

/// Removes one Markdown code fence around the whole text, with or without a language tag.
fn strip_fence(text: &str) -> &str {
    let Some(rest) = text.strip_prefix("```") else {
        return text;
    };
    let Some(body) = rest.strip_suffix("```") else {
        return text;
    };
    // The opening line may carry a language tag (`json`); the body starts after it.
    match body.split_once('\n') {
        Some((tag, inner)) if !tag.contains(['{', '[']) => inner.trim(),
        _ => body.trim(),
    }
}

/// The first [`SNIPPET_CHARS`] characters of `text`, marked when cut.
pub(crate) fn snippet(text: &str) -> String {
    let mut out: String = text.chars().take(SNIPPET_CHARS).collect();
    if text.chars().nth(SNIPPET_CHARS).is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn invalid_message(text: &str) -> String {
        match parse_text(text) {
            Err(JudgeError::InvalidAnswer(message)) => message,
            other => panic!("expected an invalid answer for {text:?}, got {other:?}"),
        }
    }

    #[test]
    fn a_well_formed_answer_becomes_a_judgement() {
        let j = parse_text(
            r#"{"label":"supported","evidence_quote":"Water boils at 100 °C.","confidence":0.93}"#,
        )
        .expect("valid");
        assert_eq!(j.label, JudgeLabel::Supported);
        assert_eq!(j.evidence_quote.as_deref(), Some("Water boils at 100 °C."));
        assert_eq!(j.confidence, 0.93);

        let j = parse_text(r#"{"label":"not_found","evidence_quote":null,"confidence":0}"#)
            .expect("valid");
        assert_eq!(j.label, JudgeLabel::NotFound);
        assert_eq!(j.evidence_quote, None);
        assert_eq!(j.confidence, 0.0);

        let j = parse_text(r#"{"label":"contradicted","evidence_quote":"x","confidence":1}"#)
            .expect("valid");
        assert_eq!(j.label, JudgeLabel::Contradicted);
        assert_eq!(j.confidence, 1.0);
    }

    #[test]
    fn one_code_fence_around_the_answer_is_tolerated() {
        for text in [
            "```json\n{\"label\":\"not_found\",\"evidence_quote\":null,\"confidence\":0.5}\n```",
            "```\n{\"label\":\"not_found\",\"evidence_quote\":null,\"confidence\":0.5}\n```",
            "```{\"label\":\"not_found\",\"evidence_quote\":null,\"confidence\":0.5}```",
        ] {
            let j = parse_text(text).expect(text);
            assert_eq!(j.label, JudgeLabel::NotFound);
        }
    }

    #[test]
    fn bad_answers_are_rejected_with_a_reason_and_never_guessed() {
        let cases = [
            ("", "empty"),
            ("   \n ", "empty"),
            ("```json\n```", "empty"),
            ("I think it is supported.", "not valid JSON"),
            (
                r#"{"label":"supported","evidence_quote":"x","confid"#,
                "not valid JSON",
            ),
            (r#"["supported","x",0.5]"#, "not a JSON object"),
            (
                r#"{"label":"true","evidence_quote":null,"confidence":0.5}"#,
                "unknown label",
            ),
            (
                r#"{"label":"unreachable","evidence_quote":null,"confidence":0.5}"#,
                "unknown label",
            ),
            (
                r#"{"label":"Supported","evidence_quote":"x","confidence":0.5}"#,
                "unknown label",
            ),
            (
                r#"{"label":1,"evidence_quote":null,"confidence":0.5}"#,
                "`label` is not a string",
            ),
            (
                r#"{"evidence_quote":null,"confidence":0.5}"#,
                "no `label` field",
            ),
            (
                r#"{"label":"not_found","confidence":0.5}"#,
                "no `evidence_quote` field",
            ),
            (
                r#"{"label":"not_found","evidence_quote":null}"#,
                "no `confidence` field",
            ),
            (
                r#"{"label":"supported","evidence_quote":["x"],"confidence":0.5}"#,
                "neither a string nor null",
            ),
            (
                r#"{"label":"supported","evidence_quote":"x","confidence":"high"}"#,
                "not a number",
            ),
            (
                r#"{"label":"supported","evidence_quote":"x","confidence":"NaN"}"#,
                "not a number",
            ),
            (
                r#"{"label":"supported","evidence_quote":"x","confidence":null}"#,
                "not a number",
            ),
            (
                r#"{"label":"supported","evidence_quote":"x","confidence":1.5}"#,
                "outside [0, 1]",
            ),
            (
                r#"{"label":"supported","evidence_quote":"x","confidence":-0.1}"#,
                "outside [0, 1]",
            ),
            (
                r#"{"label":"supported","evidence_quote":"x","confidence":95}"#,
                "outside [0, 1]",
            ),
            (
                r#"{"label":"supported","evidence_quote":"x","confidence":0.5,"reasoning":"..."}"#,
                "unexpected field `reasoning`",
            ),
        ];
        for (text, expected) in cases {
            let message = invalid_message(text);
            assert!(message.contains(expected), "{text:?}: {message}");
        }
    }

    #[test]
    fn a_long_bad_answer_is_cut_in_the_message() {
        let text = "x".repeat(5000);
        let message = invalid_message(&text);
        assert!(message.len() < 600, "{}", message.len());
        assert!(message.ends_with('…'));
    }

    #[test]
    fn a_parsed_value_is_validated_the_same_way() {
        let ok =
            serde_json::json!({"label": "supported", "evidence_quote": "q", "confidence": 0.7});
        assert_eq!(
            parse_value(&ok).expect("valid").label,
            JudgeLabel::Supported
        );
        let bad = serde_json::json!({"label": "supported", "evidence_quote": "q", "confidence": 7});
        assert!(matches!(
            parse_value(&bad),
            Err(JudgeError::InvalidAnswer(_))
        ));
    }
}
