//! Per-request observability: a request id (the client's `x-request-id` when it sent a sane one,
//! else a new UUID) echoed in the response, a tracing span carrying it (so the pipeline's logs
//! for this request carry it too), one structured log line per request, and the request metrics.

use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use tracing::Instrument;

use super::state::AppState;

pub static REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Longest client-supplied request id kept; longer ones are replaced.
const MAX_REQUEST_ID_LEN: usize = 128;

/// The route label for requests no route matched, so stray paths cannot multiply series.
const UNMATCHED: &str = "unmatched";

pub async fn observe(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let started = Instant::now();
    let id = request
        .headers()
        .get(&REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .filter(|v| is_sane_id(v))
        .map(str::to_string)
        .unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or(UNMATCHED, MatchedPath::as_str)
        .to_string();
    let method = request.method().clone();
    let span = tracing::info_span!("request", id = %id, method = %method, route = %route);
    let in_flight = state.metrics().request_started();
    let mut response = next.run(request).instrument(span.clone()).await;
    drop(in_flight);

    let status = response.status();
    let seconds = started.elapsed().as_secs_f64();
    state
        .metrics()
        .record_request(&route, method.as_str(), status.as_u16(), seconds);
    span.in_scope(|| {
        let latency_ms = (seconds * 1000.0 * 10.0).round() / 10.0;
        if status.is_server_error() {
            tracing::warn!(status = status.as_u16(), latency_ms, "answered");
        } else {
            tracing::info!(status = status.as_u16(), latency_ms, "answered");
        }
    });
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(REQUEST_ID.clone(), value);
    }
    response
}

/// A client's id is kept only if it is short and made of characters safe in logs and headers.
fn is_sane_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_REQUEST_ID_LEN
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_short_plain_request_ids_are_kept() {
        assert!(is_sane_id("3f2a-17:b_c.d"));
        assert!(!is_sane_id(""));
        assert!(!is_sane_id("has space"));
        assert!(!is_sane_id("line\nbreak"));
        assert!(!is_sane_id(&"a".repeat(MAX_REQUEST_ID_LEN + 1)));
    }
}
