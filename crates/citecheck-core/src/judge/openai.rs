//! The OpenAI judge: Chat Completions with Structured Outputs, and through its base URL any
//! OpenAI-compatible server (vLLM, llama.cpp server, LM Studio, ...).
//!
//! Sends `POST {base}/chat/completions` with `Authorization: Bearer KEY`, temperature 0, the
//! system prompt and the user message, and `response_format` = `json_schema` with `strict: true`
//! and the shared answer schema. Reads `choices[0].message`: a `refusal` is a
//! [`JudgeError::Refusal`], `finish_reason` `length` a truncated (invalid) answer,
//! `content_filter` a refusal; otherwise `content` is parsed and validated. Token usage comes
//! from `usage.prompt_tokens` / `usage.completion_tokens`.

use async_trait::async_trait;
use reqwest::header::{HeaderMap, AUTHORIZATION};
use serde_json::{json, Value};
use tracing::Instrument;
use url::Url;

use super::answer::{self, snippet};
use super::config::{self, JudgeConfigError, LlmJudgeConfig, LlmProvider};
use super::http::JsonClient;
use super::prompt::{self, ANSWER_NAME, PROMPT_VERSION, SYSTEM_PROMPT};
use super::{Judge, JudgeError, Judgement};
use crate::model::{JudgeInfo, TokenUsage};

/// OpenAI's own host, where a key is always needed.
const OPENAI_HOST: &str = "api.openai.com";

pub struct OpenAiJudge {
    client: JsonClient,
    endpoint: Url,
    model: String,
    max_tokens: u32,
}

impl OpenAiJudge {
    /// Needs `OPENAI_API_KEY` for the default base URL; a self-hosted compatible server (another
    /// base URL) may run without a key, and then no `Authorization` header is sent.
    pub fn new(config: &LlmJudgeConfig) -> Result<Self, JudgeConfigError> {
        let prepared = config::prepare(config, LlmProvider::OpenAi, |base| {
            base.host_str() == Some(OPENAI_HOST)
        })?;
        Ok(OpenAiJudge {
            endpoint: config::endpoint(&prepared.base, "chat/completions"),
            client: prepared.client,
            model: prepared.model,
            max_tokens: prepared.max_tokens,
        })
    }

    /// The request body for one judgement.
    pub fn request_body(&self, claim: &str, passages: &[String]) -> Value {
        json!({
            "model": self.model,
            "temperature": 0,
            "max_completion_tokens": self.max_tokens,
            "messages": [
                {"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": prompt::user_message(claim, passages)},
            ],
            "response_format": {
                "type": "json_schema",
                "json_schema": {
                    "name": ANSWER_NAME,
                    "strict": true,
                    "schema": prompt::answer_schema(),
                },
            },
        })
    }
}

#[async_trait]
impl Judge for OpenAiJudge {
    fn info(&self) -> JudgeInfo {
        JudgeInfo {
            provider: LlmProvider::OpenAi.as_str().to_string(),
            model: self.model.clone(),
            prompt_version: PROMPT_VERSION.to_string(),
        }
    }

    async fn judge(&self, claim: &str, passages: &[String]) -> Result<Judgement, JudgeError> {
        let mut headers = HeaderMap::new();
        if let Some(value) = self.client.key_header("Bearer ") {
            headers.insert(AUTHORIZATION, value);
        }
        let body = self.request_body(claim, passages);
        let span = tracing::debug_span!("judge_call", provider = "openai", model = %self.model);
        let response = self
            .client
            .post_json(&self.endpoint, headers, &body)
            .instrument(span)
            .await?;
        read_response(&response)
    }
}

/// Turns a Chat Completions response into a judgement.
fn read_response(response: &Value) -> Result<Judgement, JudgeError> {
    let choice = response
        .get("choices")
        .and_then(Value::as_array)
        .and_then(|choices| choices.first())
        .ok_or_else(|| JudgeError::InvalidAnswer("the response has no choices".to_string()))?;
    let message = choice.get("message").ok_or_else(|| {
        JudgeError::InvalidAnswer("the response's first choice has no message".to_string())
    })?;
    if let Some(refusal) = message.get("refusal").and_then(Value::as_str) {
        return Err(JudgeError::Refusal(snippet(refusal)));
    }
    match choice.get("finish_reason").and_then(Value::as_str) {
        Some("length") => {
            return Err(JudgeError::InvalidAnswer(
                "the answer was cut off at the token limit (finish_reason `length`)".to_string(),
            ))
        }
        Some("content_filter") => {
            return Err(JudgeError::Refusal(
                "the provider's content filter withheld the answer".to_string(),
            ))
        }
        _ => {}
    }
    let content = match message.get("content") {
        Some(Value::String(text)) => text.as_str(),
        None | Some(Value::Null) => {
            return Err(JudgeError::InvalidAnswer(
                "the answer has no content".to_string(),
            ))
        }
        Some(other) => {
            return Err(JudgeError::InvalidAnswer(format!(
                "the answer's content is not text: {}",
                snippet(&other.to_string())
            )))
        }
    };
    let mut judgement = answer::parse_text(content)?;
    judgement.usage = usage(response);
    Ok(judgement)
}

fn usage(response: &Value) -> Option<TokenUsage> {
    let usage = response.get("usage")?;
    Some(TokenUsage {
        input_tokens: usage.get("prompt_tokens")?.as_u64()?,
        output_tokens: usage.get("completion_tokens")?.as_u64()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::JudgeLabel;

    fn response(message: Value, finish_reason: &str) -> Value {
        json!({
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "model": "gpt-4o-mini",
            "choices": [{"index": 0, "message": message, "finish_reason": finish_reason, "logprobs": null}],
            "usage": {"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150}
        })
    }

    #[test]
    fn content_and_usage_are_read_from_the_first_choice() {
        let r = response(
            json!({"role": "assistant", "content": "{\"label\":\"not_found\",\"evidence_quote\":null,\"confidence\":0.4}", "refusal": null}),
            "stop",
        );
        let j = read_response(&r).expect("valid");
        assert_eq!(j.label, JudgeLabel::NotFound);
        assert_eq!(
            j.usage,
            Some(TokenUsage {
                input_tokens: 120,
                output_tokens: 30
            })
        );
    }

    #[test]
    fn refusals_truncation_and_filters_are_errors() {
        let refused = response(
            json!({"role": "assistant", "content": null, "refusal": "I can't help with that."}),
            "stop",
        );
        assert!(
            matches!(read_response(&refused), Err(JudgeError::Refusal(m)) if m.contains("can't help"))
        );
        let cut = response(
            json!({"role": "assistant", "content": "{\"label\":\"supp", "refusal": null}),
            "length",
        );
        assert!(
            matches!(read_response(&cut), Err(JudgeError::InvalidAnswer(m)) if m.contains("cut off"))
        );
        let filtered = response(
            json!({"role": "assistant", "content": null}),
            "content_filter",
        );
        assert!(matches!(
            read_response(&filtered),
            Err(JudgeError::Refusal(_))
        ));
        let empty = response(json!({"role": "assistant", "content": null}), "stop");
        assert!(
            matches!(read_response(&empty), Err(JudgeError::InvalidAnswer(m)) if m.contains("no content"))
        );
        assert!(matches!(
            read_response(&json!({"choices": []})),
            Err(JudgeError::InvalidAnswer(m)) if m.contains("no choices")
        ));
    }

    #[test]
    fn a_compatible_server_without_usage_still_answers() {
        let mut r = response(
            json!({"role": "assistant", "content": "{\"label\":\"not_found\",\"evidence_quote\":null,\"confidence\":0.4}"}),
            "stop",
        );
        r.as_object_mut().expect("object").remove("usage");
        assert_eq!(read_response(&r).expect("valid").usage, None);
    }
}
