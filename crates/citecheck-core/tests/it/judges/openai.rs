//! The OpenAI judge against a mock Chat Completions server.

use std::time::Duration;

use citecheck_core::guard;
use citecheck_core::judge::config::DEFAULT_OPENAI_MODEL;
use citecheck_core::judge::prompt::{self, ANSWER_NAME, PROMPT_VERSION, SYSTEM_PROMPT};
use citecheck_core::judge::{build_llm_judge, JudgeError, JudgeLabel, LlmJudgeConfig, LlmProvider};
use citecheck_core::{Label, Reason, TokenUsage};
use serde_json::{json, Value};

use super::mock::{closed_port, Mock, Reply};
use super::{
    answer, assert_a_slow_server_times_out, assert_no_key, assert_user_message, config_for,
    contradicting_passages, judge_with, passages, CLAIM, CONTRADICTING, KEY, SUPPORTING,
};

/// A Chat Completions response whose message content is `content`.
fn completion(content: &str) -> Value {
    json!({
        "id": "chatcmpl-abc123",
        "object": "chat.completion",
        "created": 1_730_000_000,
        "model": "gpt-4o-mini-2024-07-18",
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": content, "refusal": null, "annotations": []},
            "logprobs": null,
            "finish_reason": "stop"
        }],
        "usage": {"prompt_tokens": 412, "completion_tokens": 37, "total_tokens": 449},
        "system_fingerprint": "fp_test"
    })
}

fn ok(answer: Value) -> Reply {
    Reply::json(200, &completion(&answer.to_string()))
}

fn config(mock: &Mock) -> LlmJudgeConfig {
    config_for(LlmProvider::OpenAi, format!("{}/v1", mock.url()))
}

#[tokio::test]
async fn a_supported_verdict_carries_its_quote_and_the_request_has_the_openai_shape() {
    let mock = Mock::start(vec![ok(answer("supported", Some(SUPPORTING), 0.92))]).await;
    let judgement = judge_with(config(&mock), &passages())
        .await
        .expect("a verdict");

    assert_eq!(judgement.label, JudgeLabel::Supported);
    assert_eq!(judgement.evidence_quote.as_deref(), Some(SUPPORTING));
    assert_eq!(judgement.confidence, 0.92);
    assert_eq!(
        judgement.usage,
        Some(TokenUsage {
            input_tokens: 412,
            output_tokens: 37
        })
    );
    let guarded = guard::check(&judgement, &passages());
    assert_eq!(guarded.label, Label::Supported);
    assert_eq!(guarded.reason, None);

    let request = mock.only_request();
    assert_eq!(request.method, "POST");
    assert_eq!(request.path, "/v1/chat/completions");
    assert_eq!(
        request.header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    assert!(request
        .header("content-type")
        .is_some_and(|v| v.starts_with("application/json")));
    let body = &request.body;
    assert_eq!(body["model"], DEFAULT_OPENAI_MODEL);
    assert_eq!(body["temperature"], 0);
    let messages = body["messages"].as_array().expect("messages");
    assert_eq!(messages.len(), 2);
    assert_eq!(messages[0]["role"], "system");
    assert_eq!(messages[0]["content"], SYSTEM_PROMPT);
    assert_eq!(messages[1]["role"], "user");
    assert_user_message(
        messages[1]["content"].as_str().expect("user text"),
        CLAIM,
        &passages(),
    );
    let format = &body["response_format"];
    assert_eq!(format["type"], "json_schema");
    assert_eq!(format["json_schema"]["name"], ANSWER_NAME);
    assert_eq!(format["json_schema"]["strict"], true);
    assert_eq!(format["json_schema"]["schema"], prompt::answer_schema());
    assert_eq!(
        format["json_schema"]["schema"]["additionalProperties"],
        false
    );
}

#[tokio::test]
async fn a_contradiction_comes_back_as_contradicted_with_its_quote() {
    let mock = Mock::start(vec![ok(answer("contradicted", Some(CONTRADICTING), 0.88))]).await;
    let judgement = judge_with(config(&mock), &contradicting_passages())
        .await
        .expect("a verdict");
    assert_eq!(judgement.label, JudgeLabel::Contradicted);
    let guarded = guard::check(&judgement, &contradicting_passages());
    assert_eq!(guarded.label, Label::Contradicted);
    assert_eq!(guarded.evidence_quote.as_deref(), Some(CONTRADICTING));
    assert_eq!(guarded.confidence, 0.88);
}

#[tokio::test]
async fn not_found_comes_back_without_a_quote() {
    let mock = Mock::start(vec![ok(answer("not_found", None, 0.7))]).await;
    let judgement = judge_with(config(&mock), &passages())
        .await
        .expect("a verdict");
    assert_eq!(judgement.label, JudgeLabel::NotFound);
    assert_eq!(judgement.evidence_quote, None);
    let guarded = guard::check(&judgement, &passages());
    assert_eq!(guarded.label, Label::NotFound);
    assert_eq!(guarded.reason, None);
    assert_eq!(guarded.confidence, 0.7);
}

#[tokio::test]
async fn a_quote_that_is_not_in_the_passages_is_returned_and_then_downgraded_by_the_guard() {
    let invented = "Water always boils at exactly 100 degrees, everywhere.";
    let mock = Mock::start(vec![ok(answer("supported", Some(invented), 0.99))]).await;
    let judgement = judge_with(config(&mock), &passages())
        .await
        .expect("the judge reports what the model said");
    assert_eq!(judgement.evidence_quote.as_deref(), Some(invented));
    let guarded = guard::check(&judgement, &passages());
    assert_eq!(guarded.label, Label::NotFound);
    assert_eq!(guarded.confidence, 0.0);
    assert_eq!(guarded.reason, Some(Reason::EvidenceQuoteNotInSource));
}

#[tokio::test]
async fn a_rate_limit_is_retried_until_the_answer_arrives() {
    let rate_limited = json!({"error": {"message": "Rate limit reached for gpt-4o-mini", "type": "requests", "code": "rate_limit_exceeded"}});
    let mock = Mock::start(vec![
        Reply::json(429, &rate_limited),
        ok(answer("supported", Some(SUPPORTING), 0.9)),
    ])
    .await;
    let judgement = judge_with(config(&mock), &passages())
        .await
        .expect("the retry succeeds");
    assert_eq!(judgement.label, JudgeLabel::Supported);
    assert_eq!(mock.hits(), 2);
}

#[tokio::test]
async fn retry_after_is_waited_out_before_the_next_attempt() {
    let mock = Mock::start(vec![
        Reply::json(429, &json!({"error": {"message": "slow down"}})).header("retry-after", "1"),
        ok(answer("not_found", None, 0.5)),
    ])
    .await;
    judge_with(config(&mock), &passages())
        .await
        .expect("the retry succeeds");
    let requests = mock.requests();
    assert_eq!(requests.len(), 2);
    let waited = requests[1].at.duration_since(requests[0].at);
    // The backoff alone would be about 10 ms; only Retry-After explains a wait near a second.
    assert!(waited >= Duration::from_millis(900), "waited {waited:?}");
}

#[tokio::test]
async fn a_retry_after_beyond_the_allowed_wait_ends_the_retries_at_once() {
    let mock = Mock::start(vec![
        Reply::json(429, &json!({"error": {"message": "quota"}})).header("retry-after", "3600"),
        ok(answer("not_found", None, 0.5)),
    ])
    .await;
    let err = judge_with(config(&mock), &passages())
        .await
        .expect_err("no hour-long wait");
    assert!(
        matches!(err, JudgeError::Status { status: 429, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("3600s"), "{err}");
    assert_eq!(mock.hits(), 1);
}

#[tokio::test]
async fn a_persistent_server_error_stops_after_the_configured_attempts() {
    let mock = Mock::start(vec![Reply::json(
        500,
        &json!({"error": {"message": "The server had an error while processing your request.", "type": "server_error"}}),
    )])
    .await;
    let err = judge_with(config(&mock), &passages())
        .await
        .expect_err("the server never recovers");
    assert_eq!(mock.hits(), 3);
    assert!(
        matches!(err, JudgeError::Status { status: 500, .. }),
        "{err}"
    );
    let text = err.to_string();
    assert!(text.contains("after 3 attempts"), "{text}");
    assert!(text.contains("The server had an error"), "{text}");
}

#[tokio::test]
async fn a_server_slower_than_the_timeout_fails_as_a_transport_error() {
    assert_a_slow_server_times_out(ok(answer("supported", Some(SUPPORTING), 0.9)), config).await;
}

#[tokio::test]
async fn a_refused_connection_is_retried_then_reported() {
    let port = closed_port().await;
    let mut config = config_for(LlmProvider::OpenAi, format!("http://127.0.0.1:{port}/v1"));
    config.attempts = 2;
    let err = build_llm_judge(&config)
        .expect("judge builds")
        .judge(CLAIM, &passages())
        .await
        .expect_err("nothing listens");
    assert!(matches!(err, JudgeError::Transport { .. }), "{err}");
    let text = err.to_string();
    assert!(text.contains("could not connect"), "{text}");
    assert!(text.contains("after 2 attempts"), "{text}");
    assert_no_key(&text);
}

#[tokio::test]
async fn malformed_json_in_the_answer_is_an_invalid_answer() {
    let mock = Mock::start(vec![Reply::json(
        200,
        &completion("{\"label\": \"supported\", \"evidence_quote\": \"Water boils"),
    )])
    .await;
    let err = judge_with(config(&mock), &passages())
        .await
        .expect_err("not JSON");
    assert!(matches!(err, JudgeError::InvalidAnswer(_)), "{err}");
    assert!(err.to_string().contains("not valid JSON"), "{err}");
    // A bad answer is not retried: the same prompt at temperature 0 gives the same answer.
    assert_eq!(mock.hits(), 1);
}

#[tokio::test]
async fn a_response_body_that_is_not_json_is_an_invalid_answer() {
    let mock = Mock::start(vec![
        Reply::raw(200, "<html>Bad gateway page</html>").header("content-type", "text/html")
    ])
    .await;
    let err = judge_with(config(&mock), &passages())
        .await
        .expect_err("HTML is no answer");
    assert!(matches!(err, JudgeError::InvalidAnswer(_)), "{err}");
    assert!(err.to_string().contains("not JSON"), "{err}");
}

#[tokio::test]
async fn a_refusal_is_reported_as_a_refusal() {
    let mut refused = completion("");
    refused["choices"][0]["message"] = json!({
        "role": "assistant",
        "content": null,
        "refusal": "I'm sorry, I can't assist with that request."
    });
    let mock = Mock::start(vec![Reply::json(200, &refused)]).await;
    let err = judge_with(config(&mock), &passages())
        .await
        .expect_err("refused");
    assert!(matches!(err, JudgeError::Refusal(_)), "{err}");
    assert!(err.to_string().contains("can't assist"), "{err}");
}

#[tokio::test]
async fn an_answer_cut_off_at_the_token_limit_is_an_invalid_answer() {
    let mut truncated = completion("{\"label\": \"supported\", \"evidence_quote\": \"Water");
    truncated["choices"][0]["finish_reason"] = json!("length");
    let mock = Mock::start(vec![Reply::json(200, &truncated)]).await;
    let err = judge_with(config(&mock), &passages())
        .await
        .expect_err("truncated");
    assert!(matches!(err, JudgeError::InvalidAnswer(_)), "{err}");
    assert!(err.to_string().contains("cut off"), "{err}");
}

#[tokio::test]
async fn schema_violations_are_invalid_answers_and_never_verdicts() {
    let violations = [
        (answer("supported", Some(SUPPORTING), 1.7), "outside [0, 1]"),
        (answer("probably", Some(SUPPORTING), 0.5), "unknown label"),
        (
            json!({"label": "supported", "evidence_quote": SUPPORTING, "confidence": 0.5, "why": "because"}),
            "unexpected field `why`",
        ),
        (
            json!({"label": "supported", "confidence": 0.5}),
            "no `evidence_quote`",
        ),
        (
            json!({"label": "supported", "evidence_quote": SUPPORTING, "confidence": "0.5"}),
            "not a number",
        ),
    ];
    for (bad, expected) in violations {
        let mock = Mock::start(vec![ok(bad.clone())]).await;
        let err = judge_with(config(&mock), &passages())
            .await
            .expect_err("invalid");
        assert!(matches!(err, JudgeError::InvalidAnswer(_)), "{bad}: {err}");
        assert!(err.to_string().contains(expected), "{bad}: {err}");
    }
}

#[tokio::test]
async fn a_rejected_key_is_reported_without_the_key_and_not_retried() {
    let echoed = json!({"error": {
        "message": format!("Incorrect API key provided: {KEY}. You can find your API key at https://platform.openai.com/account/api-keys."),
        "type": "invalid_request_error",
        "code": "invalid_api_key"
    }});
    let mock = Mock::start(vec![Reply::json(401, &echoed)]).await;
    let err = judge_with(config(&mock), &passages())
        .await
        .expect_err("unauthorised");
    assert!(
        matches!(err, JudgeError::Status { status: 401, .. }),
        "{err}"
    );
    let text = err.to_string();
    assert!(text.contains("OPENAI_API_KEY"), "{text}");
    assert_no_key(&text);
    assert_no_key(&format!("{err:?}"));
    assert_eq!(mock.hits(), 1);
}

#[tokio::test]
async fn a_key_echoed_in_another_error_is_scrubbed() {
    let echoed = json!({"error": {"message": format!("model not available for key {KEY}"), "type": "invalid_request_error"}});
    let mock = Mock::start(vec![Reply::json(400, &echoed)]).await;
    let err = judge_with(config(&mock), &passages())
        .await
        .expect_err("bad request");
    let text = err.to_string();
    assert!(text.contains("[redacted]"), "{text}");
    assert_no_key(&text);
}

#[tokio::test]
async fn a_compatible_server_is_reached_through_its_base_url_with_the_chosen_model() {
    let mock = Mock::start(vec![ok(answer("not_found", None, 0.3))]).await;
    let mut config = config_for(LlmProvider::OpenAi, format!("{}/openai/v1/", mock.url()));
    config.api_key = None;
    config.model = Some("Qwen/Qwen2.5-7B-Instruct".to_string());
    let judge = build_llm_judge(&config).expect("a self-hosted server needs no key");
    let info = judge.info();
    assert_eq!(info.provider, "openai");
    assert_eq!(info.model, "Qwen/Qwen2.5-7B-Instruct");
    assert_eq!(info.prompt_version, PROMPT_VERSION);
    judge.judge(CLAIM, &passages()).await.expect("a verdict");
    let request = mock.only_request();
    assert_eq!(request.path, "/openai/v1/chat/completions");
    assert_eq!(request.header("authorization"), None);
    assert_eq!(request.body["model"], "Qwen/Qwen2.5-7B-Instruct");
}
