//! The handlers: `GET /health`, `POST /verify`, `GET /openapi.json`, `GET /metrics`, and the JSON
//! answers for unknown routes and wrong methods.

use axum::extract::State;
use axum::http::{header, Method, Uri};
use axum::response::{IntoResponse, Response};
use axum::Json;
use citecheck_core::{Check, ClaimVerdict, Origin};
use serde::Serialize;
use utoipa::ToSchema;

use super::error::{ApiError, ErrorBody};
use super::extract::ApiJson;
use super::limits::within_deadline;
use super::metrics;
use super::openapi;
use super::request::VerifyRequest;
use super::state::AppState;
use crate::audit::receipt;

/// What an operator needs to see, without secrets.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok`, or `degraded` when verification cannot run until a setting is provided (see
    /// `missing`). The process is alive either way.
    #[schema(example = "ok")]
    pub status: &'static str,
    #[schema(example = "0.1.0")]
    pub version: &'static str,
    /// The setting verification waits for, when `status` is `degraded`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missing: Option<MissingSetting>,
    pub fetcher: FetcherHealth,
    pub judge: Option<JudgeHealth>,
    pub ranker: Option<RankerHealth>,
    pub audit: AuditHealth,
    pub verifications: WorkHealth,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MissingSetting {
    /// The environment variable to set.
    #[schema(example = "OPENAI_API_KEY")]
    pub variable: String,
    pub message: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct FetcherHealth {
    /// `direct` or `crawlbase`; absent while the pipeline cannot be built.
    pub name: Option<String>,
    /// Whether fetches to loopback, private, link-local and metadata addresses are refused.
    pub address_guard: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct JudgeHealth {
    #[schema(example = "local")]
    pub provider: String,
    pub model: String,
    pub prompt_version: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RankerHealth {
    #[schema(example = "lexical")]
    pub name: String,
    /// Passages shown to the judge per citation.
    pub top_k: usize,
    /// Whether the ranker's model is loaded, as the ranker reports it (the embedding ranker
    /// checks it holds its weights); null for a ranker that uses no model (lexical).
    pub model_loaded: Option<bool>,
    /// The embedding ranker's kernels and inference threads; null for lexical.
    #[schema(example = "backend avx2, 2 threads (measured: 2 cores give 1.93x one)")]
    pub runtime: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AuditHealth {
    /// Whether served verdicts are written to an audit index.
    #[schema(example = "not configured")]
    pub status: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct WorkHealth {
    pub in_flight: usize,
    pub max_concurrent: usize,
}

/// `POST /verify`'s answer: the claim's verdict, the same JSON as `citecheck verify`, and where
/// the service's audit index keeps it.
#[derive(Debug, Serialize, ToSchema)]
pub struct VerifyResponse {
    #[serde(flatten)]
    pub verdict: ClaimVerdict,
    /// The audit index's row id of each citation, in citation order (for
    /// `citecheck replay --audit-id`); every id given is committed in the index before the
    /// answer is sent. Absent when the service keeps no audit index, or when the verdict's rows
    /// could not be written (logged, and counted in `citecheck_audit_rows_failed`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub audit_ids: Vec<i64>,
}

/// Liveness and configuration, open even when API keys are required.
#[utoipa::path(
    get,
    path = "/health",
    tag = "service",
    responses((status = 200, description = "The service is up", body = Health))
)]
pub async fn health(State(state): State<AppState>) -> Json<Health> {
    let missing = state.verifier().err().map(|u| MissingSetting {
        variable: u.variable.clone(),
        message: u.message.clone(),
    });
    let components = state.components();
    Json(Health {
        status: if missing.is_some() { "degraded" } else { "ok" },
        version: env!("CARGO_PKG_VERSION"),
        missing,
        fetcher: FetcherHealth {
            name: components.map(|c| c.fetcher.clone()),
            address_guard: state.address_guard(),
        },
        judge: components.map(|c| JudgeHealth {
            provider: c.judge_provider.clone(),
            model: c.judge_model.clone(),
            prompt_version: c.prompt_version.clone(),
        }),
        ranker: components.map(|c| RankerHealth {
            name: c.ranker.clone(),
            top_k: c.top_k,
            model_loaded: c.ranker_model_loaded,
            runtime: c.ranker_runtime.clone(),
        }),
        audit: AuditHealth {
            status: state.audit().describe(),
        },
        verifications: WorkHealth {
            in_flight: state.limiter().in_use(),
            max_concurrent: state.limiter().max_concurrent(),
        },
    })
}

/// Verifies a claim against the URLs cited for it: one verdict per URL, in order, and the
/// claim's overall label. The same JSON as `citecheck verify`, with the audit ids.
#[utoipa::path(
    post,
    path = "/verify",
    tag = "verify",
    request_body(content = VerifyRequest, content_type = "application/json"),
    security((), ("api_key" = [])),
    responses(
        (status = 200, description = "The claim's verdict", body = VerifyResponse),
        (status = 400, description = "The body is not valid JSON", body = ErrorBody),
        (status = 401, description = "API keys are configured and none valid was sent", body = ErrorBody),
        (status = 413, description = "The body is larger than the limit", body = ErrorBody),
        (status = 415, description = "The body is not declared as JSON", body = ErrorBody),
        (status = 422, description = "A field is missing, unknown, mistyped or out of bounds", body = ErrorBody),
        (status = 429, description = "Every verification slot is taken; see Retry-After", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait before retrying"))),
        (status = 503, description = "A setting the pipeline needs is missing; the message names it", body = ErrorBody),
        (status = 504, description = "The verification did not finish within the deadline", body = ErrorBody),
    )
)]
pub async fn verify(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<VerifyRequest>,
) -> Result<Json<VerifyResponse>, ApiError> {
    let request = request.validate(state.limits())?;
    let verifier = state.verifier().map_err(|unavailable| {
        ApiError::not_configured(format!(
            "verification is unavailable: {}",
            unavailable.message
        ))
    })?;
    let _slot = state.limiter().try_acquire()?;
    let _in_flight = state.metrics().verification_started();
    let mut check = Check::new(request.claim, request.urls).origin(Origin::new("api"));
    if let Some(top_k) = request.top_k {
        check = check.top_k(top_k);
    }
    // The verifier records the verdict when the service keeps an audit index (best effort: a
    // failure is logged, and the client still gets its verdict) and delivers the rows' ids.
    let (verdict, audit_ids) = receipt::collect(within_deadline(
        state.limits().request_deadline,
        verifier.verify(check),
    ))
    .await;
    let verdict = verdict?;
    state.metrics().record_verdict(&verdict);
    tracing::info!(
        overall = %verdict.overall,
        citations = verdict.citations.len(),
        "verified"
    );
    Ok(Json(VerifyResponse { verdict, audit_ids }))
}

/// This document.
#[utoipa::path(
    get,
    path = "/openapi.json",
    tag = "service",
    responses((status = 200, description = "The OpenAPI 3 document", content_type = "application/json"))
)]
pub async fn openapi_json() -> Response {
    match openapi::document().to_pretty_json() {
        Ok(json) => ([(header::CONTENT_TYPE, "application/json")], json).into_response(),
        Err(err) => {
            tracing::error!(error = %err, "cannot render the OpenAPI document");
            ApiError::internal().into_response()
        }
    }
}

/// Prometheus metrics (OpenMetrics text).
#[utoipa::path(
    get,
    path = "/metrics",
    tag = "service",
    security((), ("api_key" = [])),
    responses(
        (status = 200, description = "Metrics in the OpenMetrics text format", content_type = "application/openmetrics-text"),
        (status = 401, description = "API keys are configured and none valid was sent", body = ErrorBody),
    )
)]
pub async fn metrics(State(state): State<AppState>) -> Response {
    match state.metrics().render() {
        Ok(text) => ([(header::CONTENT_TYPE, metrics::CONTENT_TYPE)], text).into_response(),
        Err(err) => {
            tracing::error!(error = %err, "cannot render the metrics");
            ApiError::internal().into_response()
        }
    }
}

pub async fn no_route(method: Method, uri: Uri) -> ApiError {
    ApiError::no_route(method.as_str(), uri.path())
}

pub async fn method_not_allowed(method: Method, uri: Uri) -> ApiError {
    ApiError::method_not_allowed(method.as_str(), uri.path())
}
