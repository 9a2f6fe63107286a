//! The body of `POST /verify` and its validation: what a client may send, and the precise 422 it
//! gets when a value is out of bounds.

use serde::Deserialize;
use utoipa::ToSchema;

use super::config::Limits;
use super::error::{shorten, ApiError};

/// A claim and the URLs cited for it: the reference design's request, unchanged.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VerifyRequest {
    /// The claim to check; surrounding whitespace is ignored.
    #[schema(example = "Water boils at 100 degrees Celsius at sea level.")]
    pub claim: String,
    /// The http(s) URLs cited for the claim, at least one. A URL listed twice is fetched once
    /// and reported twice.
    #[schema(example = json!(["https://example.com/articles/water-boiling-point"]))]
    pub urls: Vec<String>,
    /// Optional, not in the reference design: passages shown to the judge per citation for this
    /// request, 1 to 20 (default: the service's setting, 3 unless configured).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 20, example = 5)]
    pub top_k: Option<usize>,
}

/// The largest per-request `top_k`: past a handful, passages bring back the noise ranking is
/// there to remove, and each one makes the judge's prompt longer.
pub const MAX_TOP_K: usize = 20;

/// A request that passed validation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidRequest {
    pub claim: String,
    pub urls: Vec<String>,
    pub top_k: Option<usize>,
}

impl VerifyRequest {
    /// Checks the request against `limits`; the first problem found is the answer.
    pub fn validate(self, limits: &Limits) -> Result<ValidRequest, ApiError> {
        let claim = self.claim.trim();
        if claim.is_empty() {
            return Err(ApiError::invalid_field(
                "empty_claim",
                "claim",
                "must not be empty or only whitespace",
            ));
        }
        let chars = claim.chars().count();
        if chars > limits.max_claim_chars {
            return Err(ApiError::invalid_field(
                "claim_too_long",
                "claim",
                &format!(
                    "is {chars} characters long; the limit is {}",
                    limits.max_claim_chars
                ),
            ));
        }
        if self.urls.is_empty() {
            return Err(ApiError::invalid_field(
                "empty_urls",
                "urls",
                "must list at least one URL",
            ));
        }
        if self.urls.len() > limits.max_urls {
            return Err(ApiError::invalid_field(
                "too_many_urls",
                "urls",
                &format!(
                    "lists {} URLs; the limit is {} per request",
                    self.urls.len(),
                    limits.max_urls
                ),
            ));
        }
        for (i, url) in self.urls.iter().enumerate() {
            check_url(url).map_err(|problem| {
                ApiError::invalid_field("invalid_url", format!("urls[{i}]"), &problem)
            })?;
        }
        if let Some(k) = self.top_k.filter(|k| !(1..=MAX_TOP_K).contains(k)) {
            return Err(ApiError::invalid_field(
                "invalid_top_k",
                "top_k",
                &format!("is {k}; it must be between 1 and {MAX_TOP_K}"),
            ));
        }
        Ok(ValidRequest {
            claim: claim.to_string(),
            urls: self.urls,
            top_k: self.top_k,
        })
    }
}

fn check_url(url: &str) -> Result<(), String> {
    let shown = shorten(url);
    match url::Url::parse(url) {
        Ok(parsed) if matches!(parsed.scheme(), "http" | "https") => {
            if parsed.host_str().is_some_and(|h| !h.is_empty()) {
                Ok(())
            } else {
                Err(format!("`{shown}` has no host"))
            }
        }
        Ok(parsed) => Err(format!(
            "`{shown}` is not an http(s) URL (scheme `{}`)",
            parsed.scheme()
        )),
        Err(err) => Err(format!("`{shown}` is not a valid URL: {err}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(claim: &str, urls: &[&str]) -> VerifyRequest {
        VerifyRequest {
            claim: claim.to_string(),
            urls: urls.iter().map(|u| u.to_string()).collect(),
            top_k: None,
        }
    }

    fn limits() -> Limits {
        Limits {
            max_urls: 2,
            max_claim_chars: 10,
            ..Limits::default()
        }
    }

    #[test]
    fn a_valid_request_keeps_its_urls_and_trims_its_claim() {
        let valid = request("  Water.  ", &["https://a.example/x", "http://b.example"])
            .validate(&limits())
            .expect("valid");
        assert_eq!(valid.claim, "Water.");
        assert_eq!(valid.urls, ["https://a.example/x", "http://b.example"]);
    }

    #[test]
    fn each_problem_has_its_code_and_names_its_field() {
        let long_url = format!("mailto:{}", "x".repeat(500));
        let cases = [
            (
                request(" \n ", &["https://a.example"]),
                "empty_claim",
                "claim: ",
            ),
            (
                request("abcdefghijk", &["https://a.example"]),
                "claim_too_long",
                "claim: is 11 characters long; the limit is 10",
            ),
            (request("c", &[]), "empty_urls", "urls: "),
            (
                request(
                    "c",
                    &[
                        "https://a.example",
                        "https://b.example",
                        "https://c.example",
                    ],
                ),
                "too_many_urls",
                "urls: lists 3 URLs; the limit is 2",
            ),
            (
                request("c", &["https://a.example", "ftp://b.example/f"]),
                "invalid_url",
                "urls[1]: `ftp://b.example/f` is not an http(s) URL (scheme `ftp`)",
            ),
            (
                request("c", &["not a url"]),
                "invalid_url",
                "urls[0]: `not a url` is not a valid URL",
            ),
            (
                request("c", &["file:///etc/passwd"]),
                "invalid_url",
                "urls[0]: ",
            ),
            (request("c", &[&long_url]), "invalid_url", "urls[0]: "),
        ];
        for (req, code, message_start) in cases {
            let err = req.validate(&limits()).err();
            let err = err.unwrap_or_else(|| panic!("{code} expected"));
            assert_eq!(err.code(), code, "{}", err.message());
            assert!(
                err.message().starts_with(message_start),
                "{} does not start with {message_start}",
                err.message()
            );
            assert!(err.message().len() < 400, "{}", err.message());
        }
    }

    #[test]
    fn claim_length_counts_characters_not_bytes() {
        let claim = "é".repeat(10);
        assert!(request(&claim, &["https://a.example"])
            .validate(&limits())
            .is_ok());
    }
}
