//! The Ollama judge: a local model through `/api/chat`, its output constrained by the shared
//! answer schema.
//!
//! Sends `POST {host}/api/chat` with the system prompt and the user message, `stream: false`,
//! `format` = the answer schema and `options` `{temperature: 0, num_predict}`. Reads
//! `message.content`; `done_reason` `length` is a truncated, invalid answer. Token usage comes
//! from `prompt_eval_count` / `eval_count`. Ollama takes no key.

use async_trait::async_trait;
use reqwest::header::HeaderMap;
use serde_json::{json, Value};
use tracing::Instrument;
use url::Url;

use super::answer::{self, snippet};
use super::config::{self, JudgeConfigError, LlmJudgeConfig, LlmProvider};
use super::http::JsonClient;
use super::prompt::{self, PROMPT_VERSION, SYSTEM_PROMPT};
use super::{Judge, JudgeError, Judgement};
use crate::model::{JudgeInfo, TokenUsage};

pub struct OllamaJudge {
    client: JsonClient,
    endpoint: Url,
    model: String,
    max_tokens: u32,
}

impl OllamaJudge {
    /// The host comes from `OLLAMA_HOST` (default `http://127.0.0.1:11434`); `api_key` is ignored.
    pub fn new(config: &LlmJudgeConfig) -> Result<Self, JudgeConfigError> {
        let prepared = config::prepare(config, LlmProvider::Ollama, |_| false)?;
        Ok(OllamaJudge {
            endpoint: config::endpoint(&prepared.base, "api/chat"),
            client: prepared.client,
            model: prepared.model,
            max_tokens: prepared.max_tokens,
        })
    }

    /// The request body for one judgement.
    pub fn request_body(&self, claim: &str, passages: &[String]) -> Value {
        json!({
            "model": self.model,
            "messages": [
                {"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": prompt::user_message(claim, passages)},
            ],
            "stream": false,
            "format": prompt::answer_schema(),
            "options": {"temperature": 0, "num_predict": self.max_tokens},
        })
    }
}

#[async_trait]
impl Judge for OllamaJudge {
    fn info(&self) -> JudgeInfo {
        JudgeInfo {
            provider: LlmProvider::Ollama.as_str().to_string(),
            model: self.model.clone(),
            prompt_version: PROMPT_VERSION.to_string(),
        }
    }

    async fn judge(&self, claim: &str, passages: &[String]) -> Result<Judgement, JudgeError> {
        let body = self.request_body(claim, passages);
        let span = tracing::debug_span!("judge_call", provider = "ollama", model = %self.model);
        let response = self
            .client
            .post_json(&self.endpoint, HeaderMap::new(), &body)
            .instrument(span)
            .await?;
        read_response(&response)
    }
}

/// Turns an `/api/chat` response into a judgement.
fn read_response(response: &Value) -> Result<Judgement, JudgeError> {
    if let Some(error) = response.get("error").and_then(Value::as_str) {
        return Err(JudgeError::InvalidAnswer(format!(
            "the server reported an error: {}",
            snippet(error)
        )));
    }
    if response.get("done_reason").and_then(Value::as_str) == Some("length") {
        return Err(JudgeError::InvalidAnswer(
            "the answer was cut off at the token limit (done_reason `length`)".to_string(),
        ));
    }
    let content = response
        .get("message")
        .and_then(|m| m.get("content"))
        .and_then(Value::as_str)
        .ok_or_else(|| {
            JudgeError::InvalidAnswer("the response has no message content".to_string())
        })?;
    let mut judgement = answer::parse_text(content)?;
    judgement.usage = usage(response);
    Ok(judgement)
}

fn usage(response: &Value) -> Option<TokenUsage> {
    // Ollama leaves `prompt_eval_count` out when the whole prompt came from its cache.
    let output_tokens = response.get("eval_count")?.as_u64()?;
    let input_tokens = response
        .get("prompt_eval_count")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    Some(TokenUsage {
        input_tokens,
        output_tokens,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::JudgeLabel;

    #[test]
    fn content_and_counts_are_read() {
        let r = json!({
            "model": "llama3.1",
            "created_at": "2025-01-01T00:00:00Z",
            "message": {"role": "assistant", "content": "{\"label\":\"supported\",\"evidence_quote\":\"q\",\"confidence\":0.9}"},
            "done": true,
            "done_reason": "stop",
            "prompt_eval_count": 300,
            "eval_count": 25
        });
        let j = read_response(&r).expect("valid");
        assert_eq!(j.label, JudgeLabel::Supported);
        assert_eq!(
            j.usage,
            Some(TokenUsage {
                input_tokens: 300,
                output_tokens: 25
            })
        );
    }

    #[test]
    fn truncated_and_empty_answers_are_errors() {
        let cut = json!({"message": {"role": "assistant", "content": "{\"label\":"}, "done": true, "done_reason": "length"});
        assert!(
            matches!(read_response(&cut), Err(JudgeError::InvalidAnswer(m)) if m.contains("cut off"))
        );
        let empty = json!({"message": {"role": "assistant", "content": ""}, "done": true, "done_reason": "stop"});
        assert!(
            matches!(read_response(&empty), Err(JudgeError::InvalidAnswer(m)) if m.contains("empty"))
        );
        let none = json!({"done": true});
        assert!(matches!(
            read_response(&none),
            Err(JudgeError::InvalidAnswer(_))
        ));
    }
}
