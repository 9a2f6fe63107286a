//! The Ollama judge against a mock `/api/chat`.

use std::time::Duration;

use citecheck_core::guard;
use citecheck_core::judge::config::DEFAULT_OLLAMA_MODEL;
use citecheck_core::judge::prompt::{self, PROMPT_VERSION, SYSTEM_PROMPT};
use citecheck_core::judge::{build_llm_judge, JudgeError, JudgeLabel, LlmJudgeConfig, LlmProvider};
use citecheck_core::{Label, Reason, TokenUsage};
use serde_json::{json, Value};

use super::mock::{Mock, Reply};
use super::{
    answer, assert_a_slow_server_times_out, assert_user_message, config_for,
    contradicting_passages, judge_with, passages, CLAIM, CONTRADICTING, SUPPORTING,
};

/// A non-streamed `/api/chat` response whose message content is `content`.
fn chat(content: &str, done_reason: &str) -> Value {
    json!({
        "model": "llama3.1",
        "created_at": "2025-03-01T10:00:00.000000Z",
        "message": {"role": "assistant", "content": content},
        "done": true,
        "done_reason": done_reason,
        "total_duration": 4_883_583_458u64,
        "load_duration": 1_334_875,
        "prompt_eval_count": 388,
        "prompt_eval_duration": 342_546_000,
        "eval_count": 29,
        "eval_duration": 4_535_599_000u64
    })
}

fn ok(answer: Value) -> Reply {
    Reply::json(200, &chat(&answer.to_string(), "stop"))
}

/// `OLLAMA_HOST` written as `127.0.0.1:PORT`, without a scheme, as people often set it.
fn config(mock: &Mock) -> LlmJudgeConfig {
    let mut config = config_for(LlmProvider::Ollama, mock.host_port());
    config.api_key = None;
    config
}

#[tokio::test]
async fn a_supported_verdict_carries_its_quote_and_the_request_has_the_ollama_shape() {
    let mock = Mock::start(vec![ok(answer("supported", Some(SUPPORTING), 0.85))]).await;
    let judgement = judge_with(config(&mock), &passages())
        .await
        .expect("a verdict");

    assert_eq!(judgement.label, JudgeLabel::Supported);
    assert_eq!(judgement.evidence_quote.as_deref(), Some(SUPPORTING));
    assert_eq!(
        judgement.usage,
        Some(TokenUsage {
            input_tokens: 388,
            output_tokens: 29
        })
    );
    assert_eq!(
        guard::check(&judgement, &passages()).label,
        Label::Supported
    );

    let request = mock.only_request();
    assert_eq!(request.method, "POST");
    assert_eq!(request.path, "/api/chat");
    assert_eq!(request.header("authorization"), None);
    let body = &request.body;
    assert_eq!(body["model"], DEFAULT_OLLAMA_MODEL);
    assert_eq!(body["stream"], false);
    assert_eq!(body["format"], prompt::answer_schema());
    assert_eq!(body["options"]["temperature"], 0);
    assert!(body["options"]["num_predict"]
        .as_u64()
        .is_some_and(|n| n > 0));
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
}

#[tokio::test]
async fn a_contradiction_comes_back_as_contradicted_with_its_quote() {
    let mock = Mock::start(vec![ok(answer("contradicted", Some(CONTRADICTING), 0.8))]).await;
    let judgement = judge_with(config(&mock), &contradicting_passages())
        .await
        .expect("a verdict");
    let guarded = guard::check(&judgement, &contradicting_passages());
    assert_eq!(guarded.label, Label::Contradicted);
    assert_eq!(guarded.evidence_quote.as_deref(), Some(CONTRADICTING));
}

#[tokio::test]
async fn not_found_comes_back_without_a_quote() {
    let mock = Mock::start(vec![ok(answer("not_found", None, 0.55))]).await;
    let judgement = judge_with(config(&mock), &passages())
        .await
        .expect("a verdict");
    assert_eq!(judgement.label, JudgeLabel::NotFound);
    assert_eq!(judgement.evidence_quote, None);
    assert_eq!(guard::check(&judgement, &passages()).confidence, 0.55);
}

#[tokio::test]
async fn a_quote_that_is_not_in_the_passages_is_returned_and_then_downgraded_by_the_guard() {
    let invented = "Water boils at 50 degrees Celsius at sea level.";
    let mock = Mock::start(vec![ok(answer("contradicted", Some(invented), 0.9))]).await;
    let judgement = judge_with(config(&mock), &passages())
        .await
        .expect("the judge reports what the model said");
    assert_eq!(judgement.evidence_quote.as_deref(), Some(invented));
    let guarded = guard::check(&judgement, &passages());
    assert_eq!(guarded.label, Label::NotFound);
    assert_eq!(guarded.reason, Some(Reason::EvidenceQuoteNotInSource));
}

#[tokio::test]
async fn a_busy_server_is_retried_until_the_answer_arrives() {
    let mock = Mock::start(vec![
        Reply::json(
            503,
            &json!({"error": "server busy, please try again. maximum pending requests exceeded"}),
        ),
        Reply::json(429, &json!({"error": "too many requests"})),
        ok(answer("supported", Some(SUPPORTING), 0.9)),
    ])
    .await;
    let judgement = judge_with(config(&mock), &passages())
        .await
        .expect("the third attempt succeeds");
    assert_eq!(judgement.label, JudgeLabel::Supported);
    assert_eq!(mock.hits(), 3);
}

#[tokio::test]
async fn retry_after_is_waited_out_before_the_next_attempt() {
    let mock = Mock::start(vec![
        Reply::json(503, &json!({"error": "server busy"})).header("retry-after", "1"),
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
        &json!({"error": "llama runner process has terminated: signal: killed"}),
    )])
    .await;
    let mut config = config(&mock);
    config.attempts = 2;
    let err = judge_with(config, &passages())
        .await
        .expect_err("the runner keeps dying");
    assert_eq!(mock.hits(), 2);
    assert!(
        matches!(err, JudgeError::Status { status: 500, .. }),
        "{err}"
    );
    let text = err.to_string();
    assert!(
        text.contains("llama runner process has terminated"),
        "{text}"
    );
    assert!(text.contains("after 2 attempts"), "{text}");
}

#[tokio::test]
async fn a_missing_model_is_reported_at_once_with_the_servers_words() {
    let mock = Mock::start(vec![Reply::json(
        404,
        &json!({"error": "model \"llama3.1\" not found, try pulling it first"}),
    )])
    .await;
    let err = judge_with(config(&mock), &passages())
        .await
        .expect_err("no such model");
    assert!(
        matches!(err, JudgeError::Status { status: 404, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("try pulling it first"), "{err}");
    assert_eq!(mock.hits(), 1);
}

#[tokio::test]
async fn a_server_slower_than_the_timeout_fails_as_a_transport_error() {
    assert_a_slow_server_times_out(ok(answer("supported", Some(SUPPORTING), 0.9)), config).await;
}

#[tokio::test]
async fn malformed_json_in_the_answer_is_an_invalid_answer() {
    let mock = Mock::start(vec![Reply::json(
        200,
        &chat("{\"label\": \"supported\", \"evidence_quote\": ", "stop"),
    )])
    .await;
    let err = judge_with(config(&mock), &passages())
        .await
        .expect_err("not JSON");
    assert!(matches!(err, JudgeError::InvalidAnswer(_)), "{err}");
    assert!(err.to_string().contains("not valid JSON"), "{err}");
}

#[tokio::test]
async fn a_refusal_in_plain_words_is_an_invalid_answer_not_a_verdict() {
    // Ollama has no refusal field: a model that declines answers in prose, which fails parsing.
    let mock = Mock::start(vec![Reply::json(
        200,
        &chat(
            "I'm sorry, but I can't help with evaluating this content.",
            "stop",
        ),
    )])
    .await;
    let err = judge_with(config(&mock), &passages())
        .await
        .expect_err("prose is no answer");
    assert!(matches!(err, JudgeError::InvalidAnswer(_)), "{err}");
    assert!(err.to_string().contains("can't help"), "{err}");
}

#[tokio::test]
async fn an_answer_cut_off_at_the_token_limit_is_an_invalid_answer() {
    let mock = Mock::start(vec![Reply::json(
        200,
        &chat(
            "{\"label\": \"supported\", \"evidence_quote\": \"Water boils",
            "length",
        ),
    )])
    .await;
    let err = judge_with(config(&mock), &passages())
        .await
        .expect_err("truncated");
    assert!(err.to_string().contains("cut off"), "{err}");
}

#[tokio::test]
async fn an_empty_answer_is_an_invalid_answer() {
    let mock = Mock::start(vec![Reply::json(200, &chat("", "stop"))]).await;
    let err = judge_with(config(&mock), &passages())
        .await
        .expect_err("empty");
    assert!(matches!(err, JudgeError::InvalidAnswer(_)), "{err}");
    assert!(err.to_string().contains("empty"), "{err}");
}

#[tokio::test]
async fn schema_violations_are_invalid_answers() {
    let violations = [
        (answer("supported", Some(SUPPORTING), 2.0), "outside [0, 1]"),
        (answer("yes", Some(SUPPORTING), 0.5), "unknown label"),
        (
            json!({"label": "not_found", "evidence_quote": null, "confidence": 0.5, "notes": ""}),
            "unexpected field `notes`",
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
async fn a_host_with_a_scheme_and_a_chosen_model_are_used_as_given() {
    let mock = Mock::start(vec![ok(answer("not_found", None, 0.5))]).await;
    let mut config = config(&mock);
    config.base_url = Some(format!("{}/", mock.url()));
    config.model = Some("qwen2.5:7b-instruct".to_string());
    let judge = build_llm_judge(&config).expect("no key needed");
    assert_eq!(judge.info().provider, "ollama");
    assert_eq!(judge.info().model, "qwen2.5:7b-instruct");
    assert_eq!(judge.info().prompt_version, PROMPT_VERSION);
    judge.judge(CLAIM, &passages()).await.expect("a verdict");
    let request = mock.only_request();
    assert_eq!(request.path, "/api/chat");
    assert_eq!(request.body["model"], "qwen2.5:7b-instruct");
}
