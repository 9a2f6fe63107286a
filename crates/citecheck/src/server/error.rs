//! The one error every route answers with: a status and a JSON body
//! `{"error": {"code", "message"}}` (plus `field` when one request field is at fault).
//!
//! Messages name the field and the problem in words a client can act on. Nothing internal leaks:
//! a 500 says only that something failed and points at the request id in the logs.

use std::time::Duration;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

/// The JSON body of every error response.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorDetail {
    /// A stable, machine-readable code (`invalid_url`, `too_many_urls`, `busy`, ...).
    #[schema(example = "invalid_url")]
    pub code: &'static str,
    /// What is wrong, naming the field: meant for people.
    #[schema(example = "urls[1]: `ftp://example.com/a` is not an http(s) URL (scheme `ftp`)")]
    pub message: String,
    /// The request field at fault, as a path (`claim`, `urls[1]`), when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "urls[1]")]
    pub field: Option<String>,
}

/// A failed request.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: String,
    field: Option<String>,
    retry_after: Option<Duration>,
}

impl ApiError {
    fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            message: message.into(),
            field: None,
            retry_after: None,
        }
    }

    /// 400: the body is not JSON at all (syntax error, truncated, not UTF-8).
    pub fn malformed_json(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "malformed_json", message)
    }

    /// 400: the body could not be read.
    pub fn unreadable_body(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "unreadable_body", message)
    }

    /// 415: the request does not say it carries JSON.
    pub fn unsupported_media_type(message: impl Into<String>) -> Self {
        Self::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            message,
        )
    }

    /// 413: the body is larger than the configured limit.
    pub fn payload_too_large(limit: usize) -> Self {
        Self::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            format!("the request body is larger than the limit of {limit} bytes"),
        )
    }

    /// 422: valid JSON, but a field is missing, unknown, of the wrong type or out of bounds.
    pub fn invalid_field(code: &'static str, field: impl Into<String>, problem: &str) -> Self {
        let field = field.into();
        let mut error = Self::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            code,
            format!("{field}: {problem}"),
        );
        error.field = Some(field);
        error
    }

    /// 422 about the request as a whole (e.g. the body is a JSON array, not an object).
    pub fn invalid_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, "invalid_request", message)
    }

    /// 401, with `WWW-Authenticate: Bearer`.
    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, "unauthorized", message)
    }

    /// 429: every verification slot is taken; retry after the given time.
    pub fn busy(max_concurrent: usize, retry_after: Duration) -> Self {
        let mut error = Self::new(
            StatusCode::TOO_MANY_REQUESTS,
            "busy",
            format!(
                "{max_concurrent} verifications are already running, the most this server runs at once; retry later"
            ),
        );
        error.retry_after = Some(retry_after);
        error
    }

    /// 503: the pipeline cannot run because configuration is missing. Names the variable to set,
    /// never a value.
    pub fn not_configured(message: impl Into<String>) -> Self {
        Self::new(StatusCode::SERVICE_UNAVAILABLE, "not_configured", message)
    }

    /// 504: the verification did not finish within the per-request deadline.
    pub fn deadline_exceeded(deadline: Duration) -> Self {
        Self::new(
            StatusCode::GATEWAY_TIMEOUT,
            "deadline_exceeded",
            format!(
                "the verification did not finish within the deadline of {}; its work was cancelled",
                humantime::format_duration(deadline)
            ),
        )
    }

    /// 404 for a path no route serves.
    pub fn no_route(method: &str, path: &str) -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!(
                "no route for {} {}; see GET /openapi.json",
                shorten(method),
                shorten(path)
            ),
        )
    }

    /// 405 for a known path asked with the wrong method.
    pub fn method_not_allowed(method: &str, path: &str) -> Self {
        Self::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            format!(
                "{} does not accept {}; see GET /openapi.json",
                shorten(path),
                shorten(method)
            ),
        )
    }

    /// 500: something failed that the client cannot fix. The cause goes to the log only.
    pub fn internal() -> Self {
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal_error",
            "the server failed to answer; the log has the details under this request's x-request-id",
        )
    }

    pub fn status(&self) -> StatusCode {
        self.status
    }

    pub fn code(&self) -> &'static str {
        self.code
    }

    pub fn message(&self) -> &str {
        &self.message
    }
}

/// Client-chosen text (a path, a method) is repeated in a message only up to this many characters.
const SHOWN_CHARS: usize = 120;

pub(super) fn shorten(text: &str) -> String {
    if text.chars().count() <= SHOWN_CHARS {
        text.to_string()
    } else {
        let head: String = text.chars().take(SHOWN_CHARS).collect();
        format!("{head}...")
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status;
        let retry_after = self.retry_after;
        let body = ErrorBody {
            error: ErrorDetail {
                code: self.code,
                message: self.message,
                field: self.field,
            },
        };
        let mut response = (status, axum::Json(body)).into_response();
        let headers = response.headers_mut();
        if status == StatusCode::UNAUTHORIZED {
            headers.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        if let Some(wait) = retry_after {
            // Retry-After is whole seconds; round up so a client never retries too early.
            let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
            headers.insert(header::RETRY_AFTER, HeaderValue::from(secs.max(1)));
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn body_json(error: ApiError) -> (StatusCode, axum::http::HeaderMap, serde_json::Value) {
        let response = error.into_response();
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 16)
            .await
            .expect("body");
        (
            status,
            headers,
            serde_json::from_slice(&bytes).expect("json"),
        )
    }

    #[tokio::test]
    async fn errors_have_the_documented_shape() {
        let (status, _, body) = body_json(ApiError::invalid_field(
            "invalid_url",
            "urls[0]",
            "`x` is not a URL",
        ))
        .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(body["error"]["code"], "invalid_url");
        assert_eq!(body["error"]["message"], "urls[0]: `x` is not a URL");
        assert_eq!(body["error"]["field"], "urls[0]");

        let (_, _, body) = body_json(ApiError::malformed_json("eof")).await;
        assert!(body["error"].get("field").is_none(), "{body}");
    }

    #[tokio::test]
    async fn busy_rounds_retry_after_up_to_whole_seconds() {
        let (status, headers, _) = body_json(ApiError::busy(4, Duration::from_millis(1_200))).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(headers[header::RETRY_AFTER], "2");
        let (_, headers, _) = body_json(ApiError::busy(4, Duration::ZERO)).await;
        assert_eq!(headers[header::RETRY_AFTER], "1");
    }

    #[test]
    fn a_long_path_is_not_repeated_in_full() {
        let path = format!("/{}", "a".repeat(5_000));
        let error = ApiError::no_route("GET", &path);
        assert!(error.message().len() < 200, "{}", error.message());
        assert!(error.message().contains("..."));
    }

    #[tokio::test]
    async fn unauthorized_names_the_scheme() {
        let (_, headers, _) = body_json(ApiError::unauthorized("no key")).await;
        assert_eq!(headers[header::WWW_AUTHENTICATE], "Bearer");
    }
}
