//! `POST /verify-answer`: a whole LLM answer (an API's JSON response as an object, or Markdown
//! or JSON as a string) verified statement by statement, with the same limits, slots, deadline
//! and error shape as `/verify`, plus bounds of its own on the answer's size and on the cited
//! statements one answer may hold.

use axum::extract::State;
use axum::Json;
use citecheck_answer::Format;
use citecheck_core::Origin;
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::error::{ApiError, ErrorBody};
use super::extract::ApiJson;
use super::limits::within_deadline;
use super::state::AppState;
use crate::answer::{verify_answer, AnswerVerdict, OverLimit};

/// An answer to verify.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnswerRequest {
    /// The answer: the provider's JSON response as an object, or a string (Markdown, plain
    /// text, or a JSON response as text).
    #[schema(value_type = Object, example = json!("Water boils at 100 degrees Celsius at sea level [1].\n\n[1]: https://example.com/water"))]
    pub answer: Value,
    /// The answer's format; detected when absent.
    #[serde(default)]
    pub input_format: Option<Format>,
    /// The caller's id for the answer, stored with each audit row.
    #[serde(default)]
    pub id: Option<String>,
}

/// Verifies every cited statement of an answer: per statement its span, text, claim and the
/// usual verdict for each URL; per answer the counts by label, the share supported, the
/// sentences carrying no citation and an overall label.
#[utoipa::path(
    post,
    path = "/verify-answer",
    tag = "verify",
    request_body(content = AnswerRequest, content_type = "application/json"),
    security((), ("api_key" = [])),
    responses(
        (status = 200, description = "The answer's verdict", body = AnswerVerdict),
        (status = 400, description = "The body is not valid JSON", body = ErrorBody),
        (status = 401, description = "API keys are configured and none valid was sent", body = ErrorBody),
        (status = 413, description = "The body is larger than the limit", body = ErrorBody),
        (status = 415, description = "The body is not declared as JSON", body = ErrorBody),
        (status = 422, description = "The answer is too large, holds too many or no cited statements, or is in no format understood", body = ErrorBody),
        (status = 429, description = "Every verification slot is taken; see Retry-After", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait before retrying"))),
        (status = 503, description = "A setting the pipeline needs is missing; the message names it", body = ErrorBody),
        (status = 504, description = "The verification did not finish within the deadline", body = ErrorBody),
    )
)]
pub async fn verify_answer_route(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<AnswerRequest>,
) -> Result<Json<AnswerVerdict>, ApiError> {
    let result = answer_of(&state, request).await;
    match &result {
        Ok(verdict) => state.metrics().record_answer(verdict),
        Err(err) => state.metrics().record_answer_error(err.code()),
    }
    result.map(Json)
}

/// The verdict on the request's answer, or why there is none.
async fn answer_of(state: &AppState, request: AnswerRequest) -> Result<AnswerVerdict, ApiError> {
    let text = match &request.answer {
        Value::String(text) => text.clone(),
        Value::Object(_) => request.answer.to_string(),
        _ => {
            return Err(ApiError::invalid_field(
                "invalid_answer",
                "answer",
                "must be a JSON object (a provider's response) or a string",
            ))
        }
    };
    // The answer's bounds are the resolved setting `citecheck answer` applies too.
    let limits = state.limits().answer;
    let over = |err: OverLimit| ApiError::invalid_field(err.code, "answer", &err.message);
    limits.check_size(&text).map_err(over)?;
    let answer = citecheck_answer::parse(&text, request.input_format)
        .map_err(|err| ApiError::invalid_field("unreadable_answer", "answer", &err.to_string()))?;
    if answer.statements.is_empty() {
        return Err(ApiError::invalid_field(
            "no_citations",
            "answer",
            &format!(
                "carries no citation that can be checked by URL ({} listed as not checkable)",
                answer.unchecked.len()
            ),
        ));
    }
    limits.check_statements(&answer).map_err(over)?;
    let max_urls = state.limits().max_urls;
    if let Some(s) = answer
        .statements
        .iter()
        .find(|s| s.sources.len() > max_urls)
    {
        return Err(ApiError::invalid_field(
            "too_many_urls",
            "answer",
            &format!(
                "the statement at {}..{} cites {} URLs; the limit is {max_urls}",
                s.span.start,
                s.span.end,
                s.sources.len()
            ),
        ));
    }
    let verifier = state.verifier().map_err(|unavailable| {
        ApiError::not_configured(format!(
            "verification is unavailable: {}",
            unavailable.message
        ))
    })?;
    let _slot = state.limiter().try_acquire()?;
    let _in_flight = state.metrics().verification_started();
    let mut origin = Origin::new("api-answer");
    origin.claim_id = request.id;
    let verdict = within_deadline(
        state.limits().request_deadline,
        verify_answer(verifier, &answer, &origin),
    )
    .await?;
    tracing::info!(
        overall = %verdict.overall,
        statements = verdict.statements.len(),
        "answer verified"
    );
    Ok(verdict)
}
