//! Property: whatever body, content type or path a client sends, the service answers with a
//! status below 500, and every non-200 answer is the documented JSON error.

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use proptest::prelude::*;
use serde_json::Value;

use citecheck::server::Limits;

use crate::server_support::*;

/// JSON values of any shape, a few levels deep.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        ".{0,40}".prop_map(Value::String),
        prop_oneof![
            Just("https://science.example/water"),
            Just("http://[::1"),
            Just("javascript:alert(1)"),
            Just("https://"),
            Just(""),
        ]
        .prop_map(|s| Value::String(s.to_string())),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(
                prop_oneof![
                    Just("claim".to_string()),
                    Just("urls".to_string()),
                    ".{0,8}"
                ],
                inner,
                0..4
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Request bodies: raw bytes, arbitrary JSON, and near-valid requests with one thing off.
fn body() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..600),
        json_value().prop_map(|v| v.to_string().into_bytes()),
        (".{0,60}", prop::collection::vec(json_value(), 0..4)).prop_map(|(claim, urls)| {
            serde_json::json!({ "claim": claim, "urls": urls })
                .to_string()
                .into_bytes()
        }),
        (".{0,60}", prop::collection::vec(".{0,30}", 0..25)).prop_map(|(claim, urls)| {
            serde_json::json!({ "claim": claim, "urls": urls })
                .to_string()
                .into_bytes()
        }),
    ]
}

fn content_type() -> impl Strategy<Value = Option<&'static str>> {
    prop_oneof![
        Just(Some("application/json")),
        Just(Some("application/json; charset=latin1")),
        Just(Some("application/problem+json")),
        Just(Some("text/plain")),
        Just(Some("multipart/form-data; boundary=x")),
        Just(Some("")),
        Just(None),
    ]
}

fn method_and_path() -> impl Strategy<Value = (Method, &'static str)> {
    prop_oneof![
        6 => Just((Method::POST, "/verify")),
        1 => Just((Method::PUT, "/verify")),
        1 => Just((Method::POST, "/health")),
        1 => Just((Method::DELETE, "/metrics")),
        1 => Just((Method::POST, "/verify/extra")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 300,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn no_body_makes_the_server_fail(
        body in body(),
        content_type in content_type(),
        (method, path) in method_and_path(),
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        let app = app(water_fetcher(), &config_with(Limits {
            max_request_bytes: 400,
            ..Limits::default()
        }));
        let mut request = Request::builder().method(method).uri(path);
        if let Some(value) = content_type {
            request = request.header(header::CONTENT_TYPE, value);
        }
        let request = request.body(Body::from(body)).expect("request");
        let (status, _, json) = runtime.block_on(send(&app, request));
        prop_assert!(status.as_u16() < 500, "{status}: {json}");
        if status != StatusCode::OK {
            let (code, message) = error_of(&json);
            prop_assert!(!code.contains(' ') && message.len() < 600, "{code}: {message}");
        } else {
            prop_assert!(json["overall"].is_string(), "{json}");
        }
    }
}
