//! Reading a JSON request body into a type, with every failure mapped to an [`ApiError`]:
//! no `Content-Type: application/json` -> 415, a body over the limit -> 413, not JSON -> 400,
//! JSON of the wrong shape (missing, unknown or mistyped field) -> 422 naming the field.
//!
//! axum's own `Json` extractor draws the same lines but answers in plain text and hides the
//! field path inside its message; this one keeps the path and what serde reported as data
//! ([`field_error`]), so the error can name the field.

use axum::body::Body;
use axum::extract::{FromRequest, Request};
use axum::http::{header, HeaderMap};
use serde::de::DeserializeOwned;

use super::error::ApiError;
use super::field_error::{self, FieldError, OneOf};
use super::state::AppState;

/// A request body parsed as JSON into `T`, within the server's body size limit.
#[derive(Debug)]
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned> FromRequest<AppState> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, ApiError> {
        check_content_type(request.headers())?;
        let limit = state.limits().max_request_bytes;
        let declared = request
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        if declared.is_some_and(|len| len > limit as u64) {
            return Err(ApiError::payload_too_large(limit));
        }
        let bytes = read_body(request.into_body(), limit).await?;
        parse(&bytes).map(ApiJson)
    }
}

fn check_content_type(headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(value) = headers.get(header::CONTENT_TYPE) else {
        return Err(ApiError::unsupported_media_type(
            "the request has no Content-Type; send the body as `Content-Type: application/json`",
        ));
    };
    let text = value.to_str().unwrap_or("");
    // `application/json`, or a `+json` type such as `application/vnd.api+json`; parameters
    // (charset) are allowed, case does not matter.
    let is_json = text.parse::<mime::Mime>().is_ok_and(|m| {
        m.type_() == mime::APPLICATION
            && (m.subtype() == mime::JSON || m.suffix() == Some(mime::JSON))
    });
    if is_json {
        Ok(())
    } else {
        let shown: String = text.chars().take(80).collect();
        Err(ApiError::unsupported_media_type(format!(
            "Content-Type `{shown}` is not JSON; send `Content-Type: application/json`"
        )))
    }
}

async fn read_body(body: Body, limit: usize) -> Result<axum::body::Bytes, ApiError> {
    axum::body::to_bytes(body, limit).await.map_err(|err| {
        let too_large = std::error::Error::source(&err)
            .is_some_and(|source| source.is::<http_body_util::LengthLimitError>());
        if too_large {
            ApiError::payload_too_large(limit)
        } else {
            ApiError::unreadable_body(format!("the request body could not be read: {err}"))
        }
    })
}

/// Parses `bytes` as one JSON document of type `T`. The syntax is checked over the whole body
/// first, so a body that is not JSON is a 400 even when its start would already fail the shape.
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let value: serde_json::Value = serde_json::from_slice(bytes)
        .map_err(|err| ApiError::malformed_json(format!("the body is not valid JSON: {err}")))?;
    // serde would also read a struct from an array of its fields in order; a request is an
    // object with named fields, nothing else.
    if !value.is_object() {
        return Err(ApiError::invalid_request(format!(
            "the body must be a JSON object, not {}",
            kind_of(&value)
        )));
    }
    field_error::from_value(value).map_err(|err| {
        let path = err.path().to_string();
        data_error(&path, err.into_inner())
    })
}

/// Turns what serde found wrong into a code and the field it concerns. serde reports a missing
/// or unknown field at the enclosing object's path, with the field's name beside it.
fn data_error(path: &str, error: FieldError) -> ApiError {
    let field_at = |name: &str| {
        if path == "." {
            name.to_string()
        } else if path == name || path.ends_with(&format!(".{name}")) {
            path.to_string()
        } else {
            format!("{path}.{name}")
        }
    };
    match error {
        FieldError::Missing { field } => {
            ApiError::invalid_field("missing_field", field_at(field), "this field is required")
        }
        FieldError::Unknown { field, expected } => ApiError::invalid_field(
            "unknown_field",
            field_at(&field),
            &format!(
                "this field is not part of the request; the known fields are {}",
                OneOf(expected)
            ),
        ),
        other @ (FieldError::InvalidType(_) | FieldError::Other(_)) => {
            ApiError::invalid_field("invalid_type", path, &other.to_string())
        }
    }
}

fn kind_of(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::StatusCode;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Shape {
        claim: String,
        urls: Vec<String>,
    }

    #[test]
    fn each_kind_of_bad_body_gets_its_status_code_and_field() {
        let cases: [(&str, StatusCode, &str, Option<&str>); 8] = [
            (
                "{\"claim\": ",
                StatusCode::BAD_REQUEST,
                "malformed_json",
                None,
            ),
            ("{} {}", StatusCode::BAD_REQUEST, "malformed_json", None),
            ("not json", StatusCode::BAD_REQUEST, "malformed_json", None),
            (
                "{\"claim\": \"c\"}",
                StatusCode::UNPROCESSABLE_ENTITY,
                "missing_field",
                Some("urls"),
            ),
            (
                "{\"claim\": \"c\", \"urls\": [], \"k\": 1}",
                StatusCode::UNPROCESSABLE_ENTITY,
                "unknown_field",
                Some("k"),
            ),
            (
                "{\"claim\": 3, \"urls\": []}",
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid_type",
                Some("claim"),
            ),
            (
                "{\"claim\": \"c\", \"urls\": [\"a\", 7]}",
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid_type",
                Some("urls[1]"),
            ),
            (
                "[1, 2]",
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid_request",
                None,
            ),
        ];
        // An array of the fields in order is not a request either.
        let err = parse::<Shape>(b"[\"c\", [\"https://a.example\"]]").expect_err("array");
        assert_eq!(err.code(), "invalid_request");
        assert!(err.message().contains("not an array"), "{}", err.message());
        for (body, status, code, field) in cases {
            let err = parse::<Shape>(body.as_bytes()).expect_err(body);
            assert_eq!(err.status(), status, "{body}: {}", err.message());
            assert_eq!(err.code(), code, "{body}: {}", err.message());
            if let Some(field) = field {
                assert!(
                    err.message().starts_with(&format!("{field}: ")),
                    "{body}: {}",
                    err.message()
                );
            }
            // A syntax error keeps its position; a field error has the field's path instead.
            if status == StatusCode::UNPROCESSABLE_ENTITY {
                assert!(!err.message().contains(" at line "), "{}", err.message());
            }
        }
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Options {
        top_k: usize,
        #[serde(default)]
        ranker: Option<String>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct NestedShape {
        claim: String,
        urls: Vec<String>,
        #[serde(default)]
        options: Option<Options>,
    }

    #[test]
    fn fields_inside_lists_and_nested_objects_are_named_by_their_path() {
        let cases: [(&str, &str, &str); 7] = [
            (
                r#"{"claim": "c", "urls": ["a", null]}"#,
                "invalid_type",
                "urls[1]: invalid type: null, expected a string",
            ),
            (
                r#"{"claim": "c", "urls": "https://a.example"}"#,
                "invalid_type",
                "urls: invalid type: string \"https://a.example\", expected a sequence",
            ),
            (
                r#"{"claim": ["c"], "urls": []}"#,
                "invalid_type",
                "claim: invalid type: sequence, expected a string",
            ),
            (
                r#"{"claim": "c", "urls": [], "options": {}}"#,
                "missing_field",
                "options.top_k: this field is required",
            ),
            (
                r#"{"claim": "c", "urls": [], "options": {"top_k": 2, "k": 1}}"#,
                "unknown_field",
                "options.k: this field is not part of the request; the known fields are \
                 `top_k` or `ranker`",
            ),
            (
                r#"{"claim": "c", "urls": [], "options": {"top_k": "3"}}"#,
                "invalid_type",
                "options.top_k: invalid type: string \"3\", expected usize",
            ),
            (
                r#"{"claim": "c", "urls": [], "options": {"top_k": -3}}"#,
                "invalid_type",
                "options.top_k: invalid value: integer `-3`, expected usize",
            ),
        ];
        for (body, code, message) in cases {
            let err = parse::<NestedShape>(body.as_bytes()).expect_err(body);
            assert_eq!(err.status(), StatusCode::UNPROCESSABLE_ENTITY, "{body}");
            assert_eq!(err.code(), code, "{body}: {}", err.message());
            assert_eq!(err.message(), message, "{body}");
        }
    }

    #[test]
    fn unknown_fields_list_the_known_ones() {
        let err =
            parse::<Shape>(b"{\"claim\": \"c\", \"urls\": [], \"k\": 1}").expect_err("unknown");
        assert!(err.message().contains("`claim`"), "{}", err.message());
        assert!(err.message().contains("`urls`"), "{}", err.message());
    }

    #[test]
    fn json_content_types_are_recognised_with_parameters_and_suffixes() {
        for (value, ok) in [
            ("application/json", true),
            ("Application/JSON; charset=utf-8", true),
            ("application/vnd.api+json", true),
            ("text/plain", false),
            ("application/x-www-form-urlencoded", false),
            ("", false),
        ] {
            let mut headers = HeaderMap::new();
            headers.insert(header::CONTENT_TYPE, value.parse().expect("header value"));
            assert_eq!(check_content_type(&headers).is_ok(), ok, "{value}");
        }
        assert!(check_content_type(&HeaderMap::new()).is_err());
    }
}
