//! The Anthropic judge: the Messages API, with the answer forced through a tool whose input
//! schema is the shared answer schema.
//!
//! Sends `POST {base}/v1/messages` with `x-api-key`, `anthropic-version: 2023-06-01`, the system
//! prompt as `system`, the user message, temperature 0, `max_tokens`, one tool and `tool_choice`
//! `{type: tool, name}`. Reads the `tool_use` block of that name and validates its `input`.
//! `stop_reason` `max_tokens` (or a full context window) is a truncated, invalid answer;
//! `refusal` is a [`JudgeError::Refusal`]. Token usage comes from `usage.input_tokens` /
//! `usage.output_tokens`.

use async_trait::async_trait;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use serde_json::{json, Value};
use tracing::Instrument;
use url::Url;

use super::answer::{self, snippet};
use super::config::{self, JudgeConfigError, LlmJudgeConfig, LlmProvider};
use super::http::JsonClient;
use super::prompt::{self, ANSWER_NAME, PROMPT_VERSION, SYSTEM_PROMPT};
use super::{Judge, JudgeError, Judgement};
use crate::model::{JudgeInfo, TokenUsage};

/// The API version this judge speaks.
pub const ANTHROPIC_VERSION: &str = "2023-06-01";

const TOOL_DESCRIPTION: &str =
    "Record the verdict on the claim: its label, the verbatim evidence quote (or null) and the \
     confidence. Call this exactly once.";

pub struct AnthropicJudge {
    client: JsonClient,
    endpoint: Url,
    model: String,
    max_tokens: u32,
}

impl AnthropicJudge {
    /// Needs `ANTHROPIC_API_KEY`, whatever the base URL.
    pub fn new(config: &LlmJudgeConfig) -> Result<Self, JudgeConfigError> {
        let prepared = config::prepare(config, LlmProvider::Anthropic, |_| true)?;
        Ok(AnthropicJudge {
            endpoint: config::endpoint(&prepared.base, "v1/messages"),
            client: prepared.client,
            model: prepared.model,
            max_tokens: prepared.max_tokens,
        })
    }

    /// The request body for one judgement.
    pub fn request_body(&self, claim: &str, passages: &[String]) -> Value {
        json!({
            "model": self.model,
            "max_tokens": self.max_tokens,
            "temperature": 0,
            "system": SYSTEM_PROMPT,
            "messages": [
                {"role": "user", "content": prompt::user_message(claim, passages)},
            ],
            "tools": [{
                "name": ANSWER_NAME,
                "description": TOOL_DESCRIPTION,
                "input_schema": prompt::answer_schema(),
            }],
            "tool_choice": {"type": "tool", "name": ANSWER_NAME},
        })
    }
}

#[async_trait]
impl Judge for AnthropicJudge {
    fn info(&self) -> JudgeInfo {
        JudgeInfo {
            provider: LlmProvider::Anthropic.as_str().to_string(),
            model: self.model.clone(),
            prompt_version: PROMPT_VERSION.to_string(),
        }
    }

    async fn judge(&self, claim: &str, passages: &[String]) -> Result<Judgement, JudgeError> {
        let mut headers = HeaderMap::new();
        if let Some(value) = self.client.key_header("") {
            headers.insert(HeaderName::from_static("x-api-key"), value);
        }
        headers.insert(
            HeaderName::from_static("anthropic-version"),
            HeaderValue::from_static(ANTHROPIC_VERSION),
        );
        let body = self.request_body(claim, passages);
        let span = tracing::debug_span!("judge_call", provider = "anthropic", model = %self.model);
        let response = self
            .client
            .post_json(&self.endpoint, headers, &body)
            .instrument(span)
            .await?;
        read_response(&response)
    }
}

/// Turns a Messages API response into a judgement.
fn read_response(response: &Value) -> Result<Judgement, JudgeError> {
    let stop_reason = response.get("stop_reason").and_then(Value::as_str);
    let blocks = response
        .get("content")
        .and_then(Value::as_array)
        .ok_or_else(|| JudgeError::InvalidAnswer("the response has no content".to_string()))?;
    match stop_reason {
        Some("refusal") => {
            return Err(JudgeError::Refusal(match text_of(blocks) {
                text if text.is_empty() => "the model declined to answer".to_string(),
                text => snippet(&text),
            }))
        }
        Some(reason @ ("max_tokens" | "model_context_window_exceeded")) => {
            return Err(JudgeError::InvalidAnswer(format!(
                "the answer was cut off (stop_reason `{reason}`)"
            )))
        }
        _ => {}
    }
    let input = blocks
        .iter()
        .find(|b| {
            b.get("type").and_then(Value::as_str) == Some("tool_use")
                && b.get("name").and_then(Value::as_str) == Some(ANSWER_NAME)
        })
        .and_then(|b| b.get("input"))
        .ok_or_else(|| {
            let text = text_of(blocks);
            JudgeError::InvalidAnswer(if text.is_empty() {
                format!("the answer has no `{ANSWER_NAME}` tool call")
            } else {
                format!(
                    "the answer has no `{ANSWER_NAME}` tool call, only text: {}",
                    snippet(&text)
                )
            })
        })?;
    let mut judgement = answer::parse_value(input)?;
    judgement.usage = usage(response);
    Ok(judgement)
}

/// The text blocks of a response, joined.
fn text_of(blocks: &[Value]) -> String {
    blocks
        .iter()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .collect::<Vec<_>>()
        .join(" ")
        .trim()
        .to_string()
}

fn usage(response: &Value) -> Option<TokenUsage> {
    let usage = response.get("usage")?;
    Some(TokenUsage {
        input_tokens: usage.get("input_tokens")?.as_u64()?,
        output_tokens: usage.get("output_tokens")?.as_u64()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::JudgeLabel;

    fn response(content: Value, stop_reason: &str) -> Value {
        json!({
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-haiku-4-5",
            "content": content,
            "stop_reason": stop_reason,
            "stop_sequence": null,
            "usage": {"input_tokens": 210, "output_tokens": 41}
        })
    }

    #[test]
    fn the_tool_input_and_usage_are_read() {
        let r = response(
            json!([{"type": "tool_use", "id": "toolu_1", "name": ANSWER_NAME,
                    "input": {"label": "contradicted", "evidence_quote": "q", "confidence": 0.8}}]),
            "tool_use",
        );
        let j = read_response(&r).expect("valid");
        assert_eq!(j.label, JudgeLabel::Contradicted);
        assert_eq!(
            j.usage,
            Some(TokenUsage {
                input_tokens: 210,
                output_tokens: 41
            })
        );
    }

    #[test]
    fn refusal_truncation_and_missing_tool_calls_are_errors() {
        let refused = response(json!([]), "refusal");
        assert!(matches!(
            read_response(&refused),
            Err(JudgeError::Refusal(_))
        ));
        let cut = response(
            json!([{"type": "tool_use", "id": "toolu_1", "name": ANSWER_NAME, "input": {}}]),
            "max_tokens",
        );
        assert!(
            matches!(read_response(&cut), Err(JudgeError::InvalidAnswer(m)) if m.contains("cut off"))
        );
        let chatty = response(
            json!([{"type": "text", "text": "It is supported."}]),
            "end_turn",
        );
        assert!(
            matches!(read_response(&chatty), Err(JudgeError::InvalidAnswer(m)) if m.contains("only text"))
        );
        let other_tool = response(
            json!([{"type": "tool_use", "id": "toolu_1", "name": "something_else", "input": {}}]),
            "tool_use",
        );
        assert!(matches!(
            read_response(&other_tool),
            Err(JudgeError::InvalidAnswer(_))
        ));
    }
}
