//! The Anthropic judge against a mock Messages API.

use std::time::Duration;

use citecheck_core::guard;
use citecheck_core::judge::anthropic::ANTHROPIC_VERSION;
use citecheck_core::judge::config::DEFAULT_ANTHROPIC_MODEL;
use citecheck_core::judge::prompt::{self, ANSWER_NAME, PROMPT_VERSION, SYSTEM_PROMPT};
use citecheck_core::judge::{build_llm_judge, JudgeError, JudgeLabel, LlmJudgeConfig, LlmProvider};
use citecheck_core::{Label, Reason, TokenUsage};
use serde_json::{json, Value};

use super::mock::{Mock, Reply};
use super::{
    answer, assert_a_slow_server_times_out, assert_no_key, assert_user_message, config_for,
    contradicting_passages, judge_with, passages, CLAIM, CONTRADICTING, KEY, SUPPORTING,
};

/// A Messages API response with the given content blocks and stop reason.
fn message(content: Value, stop_reason: &str) -> Value {
    json!({
        "id": "msg_01XFDUDYJgAACzvnptvVoYEL",
        "type": "message",
        "role": "assistant",
        "model": "claude-haiku-4-5-20251001",
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": null,
        "usage": {"input_tokens": 530, "output_tokens": 64}
    })
}

/// The forced tool call carrying `input`.
fn tool_call(input: Value) -> Value {
    message(
        json!([{"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": ANSWER_NAME, "input": input}]),
        "tool_use",
    )
}

fn ok(input: Value) -> Reply {
    Reply::json(200, &tool_call(input))
}

/// Anthropic's error body.
fn api_error(kind: &str, text: &str) -> Value {
    json!({"type": "error", "error": {"type": kind, "message": text}})
}

fn config(mock: &Mock) -> LlmJudgeConfig {
    config_for(LlmProvider::Anthropic, mock.url())
}

#[tokio::test]
async fn a_supported_verdict_carries_its_quote_and_the_request_has_the_anthropic_shape() {
    let mock = Mock::start(vec![ok(answer("supported", Some(SUPPORTING), 0.95))]).await;
    let judgement = judge_with(config(&mock), &passages())
        .await
        .expect("a verdict");

    assert_eq!(judgement.label, JudgeLabel::Supported);
    assert_eq!(judgement.evidence_quote.as_deref(), Some(SUPPORTING));
    assert_eq!(
        judgement.usage,
        Some(TokenUsage {
            input_tokens: 530,
            output_tokens: 64
        })
    );
    assert_eq!(
        guard::check(&judgement, &passages()).label,
        Label::Supported
    );

    let request = mock.only_request();
    assert_eq!(request.method, "POST");
    assert_eq!(request.path, "/v1/messages");
    assert_eq!(request.header("x-api-key"), Some(KEY));
    assert_eq!(request.header("anthropic-version"), Some(ANTHROPIC_VERSION));
    assert_eq!(ANTHROPIC_VERSION, "2023-06-01");
    assert_eq!(request.header("authorization"), None);
    assert!(request
        .header("content-type")
        .is_some_and(|v| v.starts_with("application/json")));
    let body = &request.body;
    assert_eq!(body["model"], DEFAULT_ANTHROPIC_MODEL);
    assert_eq!(body["temperature"], 0);
    assert!(body["max_tokens"].as_u64().is_some_and(|n| n > 0));
    assert_eq!(body["system"], SYSTEM_PROMPT);
    let messages = body["messages"].as_array().expect("messages");
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0]["role"], "user");
    assert_user_message(
        messages[0]["content"].as_str().expect("user text"),
        CLAIM,
        &passages(),
    );
    let tools = body["tools"].as_array().expect("tools");
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0]["name"], ANSWER_NAME);
    assert!(tools[0]["description"]
        .as_str()
        .is_some_and(|d| !d.is_empty()));
    assert_eq!(tools[0]["input_schema"], prompt::answer_schema());
    assert_eq!(
        body["tool_choice"],
        json!({"type": "tool", "name": ANSWER_NAME})
    );
}

#[tokio::test]
async fn a_contradiction_comes_back_as_contradicted_with_its_quote() {
    let mock = Mock::start(vec![ok(answer("contradicted", Some(CONTRADICTING), 0.9))]).await;
    let judgement = judge_with(config(&mock), &contradicting_passages())
        .await
        .expect("a verdict");
    let guarded = guard::check(&judgement, &contradicting_passages());
    assert_eq!(guarded.label, Label::Contradicted);
    assert_eq!(guarded.evidence_quote.as_deref(), Some(CONTRADICTING));
}

#[tokio::test]
async fn not_found_comes_back_without_a_quote() {
    let mock = Mock::start(vec![ok(answer("not_found", None, 0.6))]).await;
    let judgement = judge_with(config(&mock), &passages())
        .await
        .expect("a verdict");
    assert_eq!(judgement.label, JudgeLabel::NotFound);
    assert_eq!(judgement.evidence_quote, None);
    assert_eq!(guard::check(&judgement, &passages()).reason, None);
}

#[tokio::test]
async fn a_quote_that_is_not_in_the_passages_is_returned_and_then_downgraded_by_the_guard() {
    let invented = "Scientists agree water boils at 100 degrees.";
    let mock = Mock::start(vec![ok(answer("supported", Some(invented), 0.97))]).await;
    let judgement = judge_with(config(&mock), &passages())
        .await
        .expect("the judge reports what the model said");
    assert_eq!(judgement.evidence_quote.as_deref(), Some(invented));
    let guarded = guard::check(&judgement, &passages());
    assert_eq!(guarded.label, Label::NotFound);
    assert_eq!(guarded.reason, Some(Reason::EvidenceQuoteNotInSource));
}

#[tokio::test]
async fn a_rate_limit_and_an_overload_are_retried_until_the_answer_arrives() {
    let mock = Mock::start(vec![
        Reply::json(
            429,
            &api_error(
                "rate_limit_error",
                "Number of request tokens has exceeded your per-minute rate limit",
            ),
        ),
        Reply::json(529, &api_error("overloaded_error", "Overloaded")),
        ok(answer("not_found", None, 0.5)),
    ])
    .await;
    let judgement = judge_with(config(&mock), &passages())
        .await
        .expect("the third attempt succeeds");
    assert_eq!(judgement.label, JudgeLabel::NotFound);
    assert_eq!(mock.hits(), 3);
}

#[tokio::test]
async fn retry_after_is_waited_out_before_the_next_attempt() {
    let mock = Mock::start(vec![
        Reply::json(429, &api_error("rate_limit_error", "slow down")).header("retry-after", "1"),
        ok(answer("not_found", None, 0.5)),
    ])
    .await;
    judge_with(config(&mock), &passages())
        .await
        .expect("the retry succeeds");
    let requests = mock.requests();
    assert_eq!(requests.len(), 2);
    let waited = requests[1].at.duration_since(requests[0].at);
    assert!(waited >= Duration::from_millis(900), "waited {waited:?}");
}

#[tokio::test]
async fn a_persistent_server_error_stops_after_the_configured_attempts() {
    let mock = Mock::start(vec![Reply::json(
        500,
        &api_error("api_error", "Internal server error"),
    )])
    .await;
    let mut config = config(&mock);
    config.attempts = 4;
    let err = judge_with(config, &passages())
        .await
        .expect_err("the server never recovers");
    assert_eq!(mock.hits(), 4);
    assert!(
        matches!(err, JudgeError::Status { status: 500, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("after 4 attempts"), "{err}");
}

#[tokio::test]
async fn a_server_slower_than_the_timeout_fails_as_a_transport_error() {
    assert_a_slow_server_times_out(ok(answer("supported", Some(SUPPORTING), 0.9)), config).await;
}

#[tokio::test]
async fn a_malformed_response_body_is_an_invalid_answer() {
    let mock = Mock::start(vec![Reply::raw(
        200,
        "{\"id\": \"msg_1\", \"type\": \"message\", \"content\": [",
    )
    .header("content-type", "application/json")])
    .await;
    let err = judge_with(config(&mock), &passages())
        .await
        .expect_err("not JSON");
    assert!(matches!(err, JudgeError::InvalidAnswer(_)), "{err}");
    assert_eq!(mock.hits(), 1);
}

#[tokio::test]
async fn an_answer_in_text_instead_of_the_tool_is_an_invalid_answer() {
    let chatty = message(
        json!([{"type": "text", "text": "The claim is supported by passage 1."}]),
        "end_turn",
    );
    let mock = Mock::start(vec![Reply::json(200, &chatty)]).await;
    let err = judge_with(config(&mock), &passages())
        .await
        .expect_err("no tool call");
    assert!(matches!(err, JudgeError::InvalidAnswer(_)), "{err}");
    assert!(err.to_string().contains(ANSWER_NAME), "{err}");
}

#[tokio::test]
async fn a_refusal_is_reported_as_a_refusal() {
    let refused = message(json!([]), "refusal");
    let mock = Mock::start(vec![Reply::json(200, &refused)]).await;
    let err = judge_with(config(&mock), &passages())
        .await
        .expect_err("refused");
    assert!(matches!(err, JudgeError::Refusal(_)), "{err}");
}

#[tokio::test]
async fn an_answer_cut_off_at_max_tokens_is_an_invalid_answer() {
    let truncated = message(
        json!([{"type": "tool_use", "id": "toolu_1", "name": ANSWER_NAME, "input": {"label": "supported"}}]),
        "max_tokens",
    );
    let mock = Mock::start(vec![Reply::json(200, &truncated)]).await;
    let err = judge_with(config(&mock), &passages())
        .await
        .expect_err("truncated");
    assert!(matches!(err, JudgeError::InvalidAnswer(_)), "{err}");
    assert!(err.to_string().contains("max_tokens"), "{err}");
}

#[tokio::test]
async fn schema_violations_in_the_tool_input_are_invalid_answers() {
    let violations = [
        (
            answer("supported", Some(SUPPORTING), -0.2),
            "outside [0, 1]",
        ),
        (answer("unreachable", None, 0.5), "unknown label"),
        (
            json!({"label": "supported", "evidence_quote": 42, "confidence": 0.5}),
            "neither a string nor null",
        ),
        (
            json!({"label": "not_found", "evidence_quote": null}),
            "no `confidence`",
        ),
        (json!("supported"), "not a JSON object"),
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
    let mock = Mock::start(vec![Reply::json(
        401,
        &api_error("authentication_error", &format!("invalid x-api-key {KEY}")),
    )])
    .await;
    let err = judge_with(config(&mock), &passages())
        .await
        .expect_err("unauthorised");
    assert!(
        matches!(err, JudgeError::Status { status: 401, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("ANTHROPIC_API_KEY"), "{err}");
    assert_no_key(&err.to_string());
    assert_eq!(mock.hits(), 1);
}

#[tokio::test]
async fn the_judge_names_its_provider_model_and_prompt_version() {
    let mock = Mock::start(vec![ok(answer("not_found", None, 0.5))]).await;
    let mut config = config(&mock);
    config.model = Some("claude-sonnet-4-5".to_string());
    config.max_tokens = 300;
    let judge = build_llm_judge(&config).expect("judge builds");
    let info = judge.info();
    assert_eq!(
        (
            info.provider.as_str(),
            info.model.as_str(),
            info.prompt_version.as_str()
        ),
        ("anthropic", "claude-sonnet-4-5", PROMPT_VERSION)
    );
    judge.judge(CLAIM, &passages()).await.expect("a verdict");
    let body = mock.only_request().body;
    assert_eq!(body["model"], "claude-sonnet-4-5");
    assert_eq!(body["max_tokens"], 300);
}
