//! The HTTP service through its router (`router(state).oneshot(request)`): one test per answer
//! the API documents, with fake fetcher and judge.

use std::time::Duration;

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use citecheck::server::{self, AppState, Limits, ServerConfig};
use citecheck_core::{Check, ClaimVerdict};

use crate::server_support::*;

fn default_app() -> axum::Router {
    app(water_fetcher(), &ServerConfig::default())
}

#[tokio::test]
async fn health_reports_the_pipeline_without_secrets() {
    let (status, _, body) = send(
        &default_app(),
        Request::get("/health")
            .body(Body::empty())
            .expect("request"),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["status"], "ok");
    assert_eq!(body["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(body["fetcher"]["name"], "fake");
    assert_eq!(body["fetcher"]["address_guard"], true);
    assert_eq!(body["judge"]["provider"], "echo");
    assert_eq!(body["judge"]["model"], "verbatim");
    assert_eq!(body["ranker"]["name"], "lexical");
    assert!(body["ranker"]["model_loaded"].is_null(), "{body}");
    assert_eq!(body["audit"]["status"], "not configured");
    assert_eq!(body["verifications"]["in_flight"], 0);
    assert_eq!(body["verifications"]["max_concurrent"], 32);
    assert!(body.get("missing").is_none(), "{body}");
}

#[tokio::test]
async fn verify_answers_exactly_what_the_verifier_returns() {
    let app = default_app();
    let (status, headers, body) =
        send(&app, post_json(verify_body(WATER, &[WATER_URL, GONE_URL]))).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(headers[header::CONTENT_TYPE]
        .to_str()
        .expect("ascii")
        .starts_with("application/json"));

    let direct = verifier_with(water_fetcher())
        .build()
        .expect("valid")
        .verify(Check::new(WATER, [WATER_URL, GONE_URL]))
        .await;
    let mut expected = serde_json::to_value(&direct).expect("serialises");
    let mut served = body.clone();
    for value in [&mut expected, &mut served] {
        for citation in value["citations"].as_array_mut().expect("citations") {
            if let Some(meta) = citation.get_mut("meta").and_then(|m| m.as_object_mut()) {
                meta.remove("fetched_at");
            }
        }
    }
    assert_eq!(served, expected);

    // The reference design's fields are all there, nulls included.
    assert_eq!(body["overall"], "supported");
    let gone = &body["citations"][1];
    for field in [
        "url",
        "label",
        "evidence_quote",
        "confidence",
        "final_url",
        "original_status",
        "rid",
        "reason",
    ] {
        assert!(gone.get(field).is_some(), "{field} missing from {gone}");
    }
    assert_eq!(gone["reason"], "http_404");
    assert!(gone["evidence_quote"].is_null());
    let _: ClaimVerdict = serde_json::from_value(body).expect("reads back as a ClaimVerdict");
}

#[tokio::test]
async fn an_optional_top_k_is_accepted_beside_the_reference_fields() {
    let app = default_app();
    let body = serde_json::json!({ "claim": WATER, "urls": [WATER_URL], "top_k": 1 }).to_string();
    let (status, _, body) = send(&app, post_json(body)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["overall"], "supported");
}

#[tokio::test]
async fn each_kind_of_bad_request_gets_its_status_and_a_json_error_naming_the_problem() {
    let app = app(
        water_fetcher(),
        &config_with(Limits {
            max_urls: 2,
            max_claim_chars: 40,
            max_request_bytes: 1_000,
            ..Limits::default()
        }),
    );
    let ok_urls = [WATER_URL];
    let cases: Vec<(Request<Body>, StatusCode, &str, &str)> = vec![
        (
            post_json("{\"claim\": \"x\", \"urls\": ["),
            StatusCode::BAD_REQUEST,
            "malformed_json",
            "not valid JSON",
        ),
        (
            Request::post("/verify")
                .body(Body::from(verify_body("c", &ok_urls)))
                .expect("request"),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "Content-Type",
        ),
        (
            Request::post("/verify")
                .header(header::CONTENT_TYPE, "text/plain")
                .body(Body::from(verify_body("c", &ok_urls)))
                .expect("request"),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "text/plain",
        ),
        (
            post_json(verify_body(&"c".repeat(2_000), &ok_urls)),
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            "1000 bytes",
        ),
        (
            // No Content-Length: the limit holds while streaming too.
            post_json(Body::from_stream(futures::stream::iter(
                (0..20).map(|_| Ok::<_, std::io::Error>(" ".repeat(100))),
            ))),
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            "1000 bytes",
        ),
        (
            post_json(verify_body("   ", &ok_urls)),
            StatusCode::UNPROCESSABLE_ENTITY,
            "empty_claim",
            "claim: ",
        ),
        (
            post_json(verify_body(&"c".repeat(41), &ok_urls)),
            StatusCode::UNPROCESSABLE_ENTITY,
            "claim_too_long",
            "claim: is 41 characters long; the limit is 40",
        ),
        (
            post_json("{\"claim\": \"c\"}"),
            StatusCode::UNPROCESSABLE_ENTITY,
            "missing_field",
            "urls: this field is required",
        ),
        (
            post_json("{\"urls\": [\"https://a.example\"]}"),
            StatusCode::UNPROCESSABLE_ENTITY,
            "missing_field",
            "claim: this field is required",
        ),
        (
            post_json(verify_body("c", &[])),
            StatusCode::UNPROCESSABLE_ENTITY,
            "empty_urls",
            "urls: must list at least one URL",
        ),
        (
            post_json(verify_body(
                "c",
                &[
                    "https://a.example",
                    "https://b.example",
                    "https://c.example",
                ],
            )),
            StatusCode::UNPROCESSABLE_ENTITY,
            "too_many_urls",
            "urls: lists 3 URLs; the limit is 2",
        ),
        (
            post_json(verify_body("c", &["https://a.example", "example.com/page"])),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_url",
            "urls[1]: `example.com/page` is not a valid URL",
        ),
        (
            post_json(verify_body("c", &["ftp://a.example/f"])),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_url",
            "urls[0]: `ftp://a.example/f` is not an http(s) URL",
        ),
        (
            post_json("{\"claim\": \"c\", \"urls\": [\"https://a.example\"], \"top_n\": 3}"),
            StatusCode::UNPROCESSABLE_ENTITY,
            "unknown_field",
            "top_n: this field is not part of the request",
        ),
        (
            post_json("{\"claim\": \"c\", \"urls\": [\"https://a.example\"], \"top_k\": 0}"),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_top_k",
            "top_k: is 0; it must be between 1 and 20",
        ),
        (
            post_json("{\"claim\": \"c\", \"urls\": \"https://a.example\"}"),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_type",
            "urls: invalid type",
        ),
        (
            post_json("[\"c\", [\"https://a.example\"]]"),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_request",
            "must be a JSON object",
        ),
        (
            Request::get("/verify")
                .body(Body::empty())
                .expect("request"),
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            "/verify does not accept GET",
        ),
        (
            Request::get("/nowhere")
                .body(Body::empty())
                .expect("request"),
            StatusCode::NOT_FOUND,
            "not_found",
            "no route for GET /nowhere",
        ),
    ];
    for (request, status, code, message_part) in cases {
        let what = format!("{} {}", request.method(), request.uri());
        let (got_status, headers, body) = send(&app, request).await;
        assert_eq!(got_status, status, "{what}: {body}");
        let (got_code, message) = error_of(&body);
        assert_eq!(got_code, code, "{what}: {message}");
        assert!(
            message.contains(message_part),
            "{what}: `{message}` lacks `{message_part}`"
        );
        assert!(headers.contains_key("x-request-id"), "{what}");
    }
}

#[tokio::test]
async fn a_missing_judge_key_is_a_503_naming_the_variable_and_health_says_degraded() {
    let app = unavailable_app(&ServerConfig::default());
    let (status, _, body) = send(&app, post_json(verify_body(WATER, &[WATER_URL]))).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    let (code, message) = error_of(&body);
    assert_eq!(code, "not_configured");
    assert!(message.contains("OPENAI_API_KEY"), "{message}");

    let (status, _, health) = send(
        &app,
        Request::get("/health")
            .body(Body::empty())
            .expect("request"),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(health["status"], "degraded");
    assert_eq!(health["missing"]["variable"], "OPENAI_API_KEY");
    assert!(health["judge"].is_null(), "{health}");
}

#[tokio::test]
async fn a_verification_past_its_deadline_is_a_504() {
    let (gate, _started) = Gate::new();
    let app = app(
        water_fetcher().gated(gate),
        &config_with(Limits {
            request_deadline: Duration::from_millis(50),
            ..Limits::default()
        }),
    );
    let (status, _, body) = send(&app, post_json(verify_body(WATER, &[WATER_URL]))).await;
    assert_eq!(status, StatusCode::GATEWAY_TIMEOUT);
    let (code, message) = error_of(&body);
    assert_eq!(code, "deadline_exceeded");
    assert!(message.contains("50ms"), "{message}");

    // The cancelled verification gave its slot back.
    let (_, _, health) = send(
        &app,
        Request::get("/health")
            .body(Body::empty())
            .expect("request"),
    )
    .await;
    assert_eq!(health["verifications"]["in_flight"], 0);
}

#[tokio::test]
async fn past_the_concurrency_limit_the_answer_is_429_with_retry_after() {
    let (gate, mut started) = Gate::new();
    let app = app(
        water_fetcher().gated(gate.clone()),
        &config_with(Limits {
            max_concurrent: 1,
            ..Limits::default()
        }),
    );
    let first = tokio::spawn({
        let app = app.clone();
        async move { send(&app, post_json(verify_body(WATER, &[WATER_URL]))).await }
    });
    started
        .recv()
        .await
        .expect("the first verification is fetching");

    let (status, headers, body) = send(&app, post_json(verify_body(WATER, &[WATER_URL]))).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(error_of(&body).0, "busy");
    let retry_after: u64 = headers[header::RETRY_AFTER]
        .to_str()
        .expect("ascii")
        .parse()
        .expect("whole seconds");
    assert!(retry_after >= 1);

    gate.release(1);
    let (status, _, body) = first.await.expect("joins");
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["overall"], "supported");
}

#[tokio::test]
async fn api_keys_guard_verify_and_metrics_but_not_health() {
    let config = ServerConfig {
        api_keys: server::auth::ApiKeys::from_list(["k-one", "k-two"]),
        ..ServerConfig::default()
    };
    let app = app(water_fetcher(), &config);
    let with_auth = |value: Option<&str>| {
        let mut request = post_json(verify_body(WATER, &[WATER_URL]));
        if let Some(value) = value {
            request
                .headers_mut()
                .insert(header::AUTHORIZATION, value.parse().expect("header"));
        }
        request
    };
    for (value, expected) in [
        (None, StatusCode::UNAUTHORIZED),
        (Some("Bearer wrong"), StatusCode::UNAUTHORIZED),
        (Some("Basic k-one"), StatusCode::UNAUTHORIZED),
        (Some("Bearer "), StatusCode::UNAUTHORIZED),
        (Some("Bearer k-two"), StatusCode::OK),
        (Some("bearer k-one"), StatusCode::OK),
    ] {
        let (status, headers, body) = send(&app, with_auth(value)).await;
        assert_eq!(status, expected, "{value:?}: {body}");
        if status == StatusCode::UNAUTHORIZED {
            assert_eq!(error_of(&body).0, "unauthorized");
            assert_eq!(headers[header::WWW_AUTHENTICATE], "Bearer");
        }
    }
    let get = |path: &str| Request::get(path).body(Body::empty()).expect("request");
    assert_eq!(
        send(&app, get("/metrics")).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(send(&app, get("/health")).await.0, StatusCode::OK);
    assert_eq!(send(&app, get("/openapi.json")).await.0, StatusCode::OK);
}

#[tokio::test]
async fn metrics_count_requests_citations_fetches_and_judge_tokens() {
    let app = default_app();
    let (status, _, _) = send(&app, post_json(verify_body(WATER, &[WATER_URL, GONE_URL]))).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _, _) = send(&app, post_json("{")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    let response = tower::ServiceExt::oneshot(
        app.clone(),
        Request::get("/metrics")
            .body(Body::empty())
            .expect("request"),
    )
    .await
    .expect("infallible");
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers()[header::CONTENT_TYPE]
        .to_str()
        .expect("ascii")
        .starts_with("application/openmetrics-text"));
    let text = String::from_utf8(
        axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .expect("body")
            .to_vec(),
    )
    .expect("utf-8");
    for line in [
        "citecheck_http_requests_total{route=\"/verify\",method=\"POST\",status=\"200\"} 1",
        "citecheck_http_requests_total{route=\"/verify\",method=\"POST\",status=\"400\"} 1",
        "citecheck_citations_total{label=\"supported\",reason=\"none\"} 1",
        "citecheck_citations_total{label=\"unreachable\",reason=\"http_404\"} 1",
        "citecheck_claims_total{overall=\"supported\"} 1",
        "citecheck_fetches_total{fetcher=\"fake\",outcome=\"page\"} 1",
        "citecheck_fetches_total{fetcher=\"fake\",outcome=\"http_404\"} 1",
        "citecheck_judge_calls_total{provider=\"echo\",outcome=\"ok\"} 1",
        "citecheck_judge_tokens_total{provider=\"echo\",direction=\"input\"} 50",
        "citecheck_verifications_in_flight 0",
    ] {
        assert!(text.lines().any(|l| l == line), "`{line}` not in\n{text}");
    }
    assert!(text.contains("citecheck_http_request_duration_seconds_bucket{"));
}

#[tokio::test]
async fn the_openapi_document_is_served_and_describes_verify() {
    let (status, _, doc) = send(
        &default_app(),
        Request::get("/openapi.json")
            .body(Body::empty())
            .expect("request"),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let verify = &doc["paths"]["/verify"]["post"];
    for code in ["200", "400", "413", "415", "422", "429", "503", "504"] {
        assert!(
            verify["responses"].get(code).is_some(),
            "{code} undocumented"
        );
    }
    assert_eq!(doc["info"]["version"], env!("CARGO_PKG_VERSION"));
}

#[tokio::test]
async fn a_request_id_is_echoed_or_made_up() {
    let app = default_app();
    let mut request = Request::get("/health")
        .body(Body::empty())
        .expect("request");
    request
        .headers_mut()
        .insert("x-request-id", "trace-42".parse().expect("header"));
    let (_, headers, _) = send(&app, request).await;
    assert_eq!(headers["x-request-id"], "trace-42");

    let mut request = Request::get("/health")
        .body(Body::empty())
        .expect("request");
    request
        .headers_mut()
        .insert("x-request-id", "has spaces".parse().expect("header"));
    let (_, headers, _) = send(&app, request).await;
    let made_up = headers["x-request-id"].to_str().expect("ascii");
    assert_ne!(made_up, "has spaces");
    assert_eq!(made_up.len(), 36, "a UUID: {made_up}");
}

#[tokio::test]
async fn cors_is_off_by_default_and_answers_only_configured_origins() {
    let preflight = || {
        Request::builder()
            .method(Method::OPTIONS)
            .uri("/verify")
            .header(header::ORIGIN, "https://app.example")
            .header(header::ACCESS_CONTROL_REQUEST_METHOD, "POST")
            .header(header::ACCESS_CONTROL_REQUEST_HEADERS, "content-type")
            .body(Body::empty())
            .expect("request")
    };
    let (_, headers, _) = send(&default_app(), preflight()).await;
    assert!(!headers.contains_key(header::ACCESS_CONTROL_ALLOW_ORIGIN));

    let state = || state(water_fetcher(), &ServerConfig::default());
    let allowed = server::router_with_cors(state(), &["https://app.example".to_string()]);
    let (status, headers, _) = send(&allowed, preflight()).await;
    assert!(status.is_success(), "{status}");
    assert_eq!(
        headers[header::ACCESS_CONTROL_ALLOW_ORIGIN],
        "https://app.example"
    );

    let other = server::router_with_cors(state(), &["https://other.example".to_string()]);
    let (_, headers, _) = send(&other, preflight()).await;
    assert!(!headers.contains_key(header::ACCESS_CONTROL_ALLOW_ORIGIN));
}

#[tokio::test]
async fn a_state_can_be_built_around_any_verifier() {
    // The state wraps the verifier's fetcher and judge for metrics without changing verdicts.
    let state =
        AppState::new(Ok(verifier_with(water_fetcher())), &ServerConfig::default()).expect("state");
    let verifier = state.verifier().expect("available");
    let verdict = verifier.verify(Check::new(WATER, [WATER_URL])).await;
    assert_eq!(verdict.overall, citecheck_core::Label::Supported);
    assert_eq!(state.components().map(|c| c.fetcher.as_str()), Some("fake"));
}
