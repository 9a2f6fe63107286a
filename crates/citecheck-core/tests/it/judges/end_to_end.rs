//! An LLM judge inside the real pipeline: a page fetched from 127.0.0.1, ranked, judged by the
//! OpenAI judge against a mock, guarded and aggregated. Shows what reaches the verdict: the
//! judge's provenance and token usage, and a judge failure that reads differently from a judge
//! that found nothing.

use std::sync::Arc;

use citecheck_core::fetch::resolve::GuardPolicy;
use citecheck_core::fetch::{DirectFetcher, FetchOptions};
use citecheck_core::judge::prompt::PROMPT_VERSION;
use citecheck_core::judge::{build_llm_judge, LlmProvider};
use citecheck_core::rank::Bm25Ranker;
use citecheck_core::{Check, Label, Reason, TokenUsage, Verifier};
use serde_json::json;

use super::mock::{Mock, Reply};
use super::{answer, assert_no_key, config_for, CLAIM, SUPPORTING};

/// A plain-text page long enough to be judged (thin pages are rejected before any judge).
const PAGE: &str = "Boiling points of common liquids\n\n\
Water boils at 100 degrees Celsius at sea level. At higher altitudes the boiling point is \
lower, because the air pressure is lower; in a mountain town at two thousand metres water boils \
at roughly 93 degrees.\n\n\
Dissolving salt in water raises its boiling point slightly, by far less than most cooks \
believe: a spoonful in a large pot changes it by a fraction of a degree.\n\n\
Ethanol boils at about 78 degrees Celsius, which is why it evaporates from a sauce long before \
the water does, although some of it always remains after a short simmer.\n";

fn completion(content: &str) -> serde_json::Value {
    json!({
        "id": "chatcmpl-e2e",
        "object": "chat.completion",
        "model": "gpt-4o-mini",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content, "refusal": null}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 300, "completion_tokens": 20, "total_tokens": 320}
    })
}

async fn verifier(mock: &Mock) -> Verifier {
    let fetcher = DirectFetcher::new(FetchOptions {
        guard: GuardPolicy {
            enabled: false,
            ..GuardPolicy::default()
        },
        ..FetchOptions::default()
    })
    .expect("fetcher");
    let judge = build_llm_judge(&config_for(
        LlmProvider::OpenAi,
        format!("{}/v1", mock.url()),
    ))
    .expect("judge");
    Verifier::builder(Arc::new(fetcher), Arc::new(Bm25Ranker), judge)
        .build()
        .expect("verifier")
}

#[tokio::test]
async fn a_verdict_from_an_llm_judge_carries_its_provenance_and_usage() {
    let mock = Mock::start(vec![Reply::json(
        200,
        &completion(&answer("supported", Some(SUPPORTING), 0.9).to_string()),
    )])
    .await;
    mock.page("/boiling", PAGE);
    let url = format!("{}/boiling", mock.url());
    let result = verifier(&mock).await.verify(Check::new(CLAIM, [url])).await;

    assert_eq!(result.overall, Label::Supported);
    let citation = &result.citations[0];
    assert_eq!(citation.label, Label::Supported);
    assert_eq!(citation.evidence_quote.as_deref(), Some(SUPPORTING));
    assert_eq!(citation.reason, None);
    let meta = citation.meta.as_ref().expect("provenance");
    let judge = meta.judge.as_ref().expect("judge info");
    assert_eq!(judge.provider, "openai");
    assert_eq!(judge.prompt_version, PROMPT_VERSION);
    assert_eq!(
        meta.usage,
        Some(TokenUsage {
            input_tokens: 300,
            output_tokens: 20
        })
    );
    assert_eq!(result.usage().input_tokens, 300);
    // The page's text reached the model as a passage.
    let user = mock.only_request().body["messages"][1]["content"]
        .as_str()
        .expect("user text")
        .to_string();
    assert!(user.contains("Water boils at 100 degrees Celsius at sea level."));
}

#[tokio::test]
async fn a_judge_failure_is_not_found_with_judge_error_unlike_a_genuine_not_found() {
    let mock = Mock::start(vec![
        Reply::json(200, &completion("The claim looks right to me.")),
        Reply::json(
            200,
            &completion(&answer("not_found", None, 0.6).to_string()),
        ),
    ])
    .await;
    mock.page("/boiling", PAGE);
    let url = format!("{}/boiling", mock.url());
    let verifier = verifier(&mock).await;

    let failed = verifier.verify(Check::new(CLAIM, [url.clone()])).await;
    let citation = &failed.citations[0];
    assert_eq!(citation.label, Label::NotFound);
    assert_eq!(citation.reason, Some(Reason::JudgeError));
    assert_eq!(citation.confidence, 0.0);
    let detail = citation.detail.as_deref().expect("the cause is kept");
    assert!(detail.contains("not valid JSON"), "{detail}");
    assert_no_key(&serde_json::to_string(citation).expect("serialises"));

    let genuine = verifier.verify(Check::new(CLAIM, [url])).await;
    let citation = &genuine.citations[0];
    assert_eq!(citation.label, Label::NotFound);
    assert_eq!(citation.reason, None);
    assert_eq!(citation.confidence, 0.6);
}
