//! `POST /verify-answer` through the router: fixture answers against the demo site on
//! 127.0.0.1 (direct fetcher, BM25, local judge), and every refusal in the `/verify` error shape.

use std::path::PathBuf;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use citecheck::server::{self, config::ServerConfig, state::AppState};
use citecheck::static_site::StaticSite;
use citecheck_core::fetch::resolve::GuardPolicy;
use citecheck_core::fetch::{DirectFetcher, FetchOptions};
use citecheck_core::judge::LocalJudge;
use citecheck_core::rank::Bm25Ranker;
use citecheck_core::Verifier;
use serde_json::{json, Value};

use crate::server_support::{error_of, send};

/// The service as `citecheck serve` assembles it, with the guard off for the loopback site.
fn app() -> axum::Router {
    let options = FetchOptions {
        guard: GuardPolicy {
            enabled: false,
            ..GuardPolicy::default()
        },
        ..FetchOptions::default()
    };
    let builder = Verifier::builder(
        Arc::new(DirectFetcher::new(options).expect("fetcher")),
        Arc::new(Bm25Ranker),
        Arc::new(LocalJudge::default()),
    );
    server::router(AppState::new(Ok(builder), &ServerConfig::default()).expect("state"))
}

fn post(body: Value) -> Request<Body> {
    Request::post("/verify-answer")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .expect("request")
}

fn fixture(name: &str, site: &StaticSite) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/answers")
        .join(name);
    std::fs::read_to_string(path)
        .expect("fixture")
        .replace("{{SITE}}", &site.base_url())
}

#[tokio::test]
async fn a_provider_response_sent_as_an_object_is_verified_statement_by_statement() {
    let site = StaticSite::serve(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("demo"))
        .await
        .expect("site");
    let app = app();
    let response: Value = serde_json::from_str(&fixture("anthropic.json", &site)).expect("json");
    let (status, _, body) = send(&app, post(json!({"answer": response, "id": "a-1"}))).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["format"], "anthropic");
    assert_eq!(body["overall"], "contradicted");
    let labels: Vec<&str> = body["statements"]
        .as_array()
        .expect("statements")
        .iter()
        .map(|s| s["overall"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        labels,
        ["supported", "contradicted", "unreachable", "unreachable"]
    );
    assert_eq!(
        body["statements"][0]["citations"][0]["cited_text_found"],
        true
    );
    assert_eq!(
        body["statements"][1]["citations"][0]["cited_text_found"],
        false
    );
    assert_eq!(body["summary"]["pages_fetched"], 3);
    assert_eq!(body["unchecked"][0]["kind"], "char_location");

    // Markdown as a string, the format named.
    let markdown = fixture("markdown.md", &site);
    let (status, _, body) = send(
        &app,
        post(json!({"answer": markdown, "input_format": "markdown"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["summary"]["by_label"]["supported"], 1);
    assert_eq!(body["summary"]["uncited_sentences"], 3);
}

#[tokio::test]
async fn refusals_use_the_verify_error_shape() {
    let app = app();
    let cases = [
        (
            json!({"answer": "No citation here. None at all."}),
            "no_citations",
        ),
        (json!({"answer": {"reply": "x"}}), "unreadable_answer"),
        (json!({"answer": 42}), "invalid_answer"),
        (json!({"answer": "x".repeat(50_001)}), "answer_too_long"),
        (
            json!({"answer": (0..51).map(|i| format!("Fact {i} holds [1]. ")).collect::<String>()
                + "\n\n[1]: https://a.example/"}),
            "too_many_statements",
        ),
    ];
    for (body, code) in cases {
        let (status, _, reply) = send(&app, post(body)).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{code}: {reply}");
        assert_eq!(error_of(&reply).0, code);
    }
    // Past the body limit the request is refused before it is read, as on /verify.
    let (status, _, reply) = send(&app, post(json!({"answer": "x".repeat(70_000)}))).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{reply}");
    let (status, _, reply) = send(&app, post(json!({"answer": "x", "extra": 1}))).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{reply}");
}

#[tokio::test]
async fn the_openapi_document_describes_the_answer_route() {
    let doc = server::openapi::document();
    let json = serde_json::to_value(&doc).expect("json");
    assert!(json["paths"]["/verify-answer"]["post"].is_object());
    for schema in [
        "AnswerRequest",
        "AnswerVerdict",
        "StatementVerdict",
        "CitationVerdict",
    ] {
        assert!(
            json["components"]["schemas"][schema].is_object(),
            "{schema}"
        );
    }
}

async fn metrics_text(app: &axum::Router) -> String {
    let response = tower::ServiceExt::oneshot(
        app.clone(),
        Request::get("/metrics")
            .body(Body::empty())
            .expect("request"),
    )
    .await
    .expect("infallible");
    assert_eq!(response.status(), StatusCode::OK);
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .expect("body");
    String::from_utf8(bytes.to_vec()).expect("utf-8")
}

#[tokio::test]
async fn metrics_count_answers_their_statements_refusals_and_latency() {
    let site = StaticSite::serve(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("demo"))
        .await
        .expect("site");
    let app = app();
    let markdown = fixture("markdown.md", &site);
    let (status, _, body) = send(&app, post(json!({"answer": markdown}))).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _, _) = send(&app, post(json!({"answer": "No citation here."}))).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (status, _, _) = send(&app, post(json!({"answer": "x".repeat(50_001)}))).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);

    let text = metrics_text(&app).await;
    for line in [
        "citecheck_http_requests_total{route=\"/verify-answer\",method=\"POST\",status=\"200\"} 1",
        "citecheck_http_requests_total{route=\"/verify-answer\",method=\"POST\",status=\"422\"} 2",
        "citecheck_http_request_duration_seconds_count{route=\"/verify-answer\"} 3",
        "citecheck_answers_total{overall=\"contradicted\"} 1",
        "citecheck_answer_statements_total{overall=\"supported\"} 1",
        "citecheck_answer_statements_total{overall=\"contradicted\"} 1",
        "citecheck_answer_statements_total{overall=\"unreachable\"} 2",
        "citecheck_answer_errors_total{code=\"no_citations\"} 1",
        "citecheck_answer_errors_total{code=\"answer_too_long\"} 1",
        "citecheck_citations_total{label=\"supported\",reason=\"none\"} 1",
        "citecheck_citations_total{label=\"unreachable\",reason=\"http_404\"} 2",
        "citecheck_verifications_in_flight 0",
        // Three distinct URLs, the article cited by two statements: one real fetch each.
        "citecheck_fetches_total{fetcher=\"direct\",outcome=\"page\"} 1",
        "citecheck_fetches_total{fetcher=\"direct\",outcome=\"http_404\"} 2",
    ] {
        assert!(text.contains(line), "missing {line} in\n{text}");
    }
    // /verify's claim counter is its own: statements are not counted twice.
    assert!(!text.contains("citecheck_claims_total{"), "{text}");
}
