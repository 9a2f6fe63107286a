//! HTTP plumbing shared by the LLM judges: one JSON POST with a bounded time per attempt, retried
//! through the pipeline's one retry loop ([`crate::retry`]) on 408/425/429, 5xx (Anthropic's 529
//! included) and connection failures or timeouts, honouring `Retry-After` (seconds or an HTTP
//! date) and OpenAI's `retry-after-ms` up to a bound.
//!
//! Guarantees about secrets: error messages are built from the status, the provider's own error
//! message and the client error without its URL; request headers never appear in them; a 401/403
//! is reported without the provider's text (OpenAI echoes part of the key there); and the key
//! itself is scrubbed from whatever text remains.

use std::time::Duration;

use reqwest::header::{HeaderMap, HeaderValue};
use secrecy::{ExposeSecret, SecretString};
use serde_json::Value;
use url::Url;

use super::answer::snippet;
use super::JudgeError;
use crate::retry::{self, Note, Policy, ReadError, TransportFailure, Try};

/// A provider answer larger than this is not an answer to a three-field question.
const MAX_RESPONSE_BYTES: u64 = 4 * 1024 * 1024;

/// A JSON-over-HTTP client for one provider.
pub(crate) struct JsonClient {
    client: reqwest::Client,
    policy: Policy,
    /// The key, for scrubbing messages; `None` for providers without one.
    key: Option<SecretString>,
    /// The variable the key comes from, named when the provider rejects it.
    key_variable: Option<&'static str>,
}

/// Why one attempt failed, and whether another may help.
struct Failure {
    error: JudgeError,
    retry: bool,
    retry_after: Option<Duration>,
}

impl JsonClient {
    pub fn new(
        timeout: Duration,
        connect_timeout: Duration,
        policy: Policy,
        key: Option<SecretString>,
        key_variable: Option<&'static str>,
    ) -> Result<Self, reqwest::Error> {
        let client = reqwest::Client::builder()
            .user_agent(concat!("citecheck/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(connect_timeout.min(timeout))
            .timeout(timeout)
            .build()?;
        Ok(JsonClient {
            client,
            policy,
            key,
            key_variable,
        })
    }

    /// The key as a header value marked sensitive (so that `Debug` of the headers hides it).
    pub fn key_header(&self, prefix: &str) -> Option<HeaderValue> {
        let key = self.key.as_ref()?;
        let mut value = HeaderValue::from_str(&format!("{prefix}{}", key.expose_secret())).ok()?;
        value.set_sensitive(true);
        Some(value)
    }

    /// POSTs `body` to `url` and returns the parsed JSON of a 2xx answer, retrying as the
    /// policy allows.
    pub async fn post_json(
        &self,
        url: &Url,
        headers: HeaderMap,
        body: &Value,
    ) -> Result<Value, JudgeError> {
        let outcome = retry::run(&self.policy, || {
            let headers = headers.clone();
            async move {
                match self.attempt(url, headers, body).await {
                    Ok(value) => Try::Done(Ok(value)),
                    Err(failure) if failure.retry => Try::Retry {
                        error: failure.error,
                        retry_after: failure.retry_after,
                    },
                    Err(failure) => Try::Done(Err(failure.error)),
                }
            }
        })
        .await;
        match outcome {
            Ok(answer) => answer,
            Err(exhausted) => Err(with_note(exhausted.error, exhausted.note)),
        }
    }

    async fn attempt(&self, url: &Url, headers: HeaderMap, body: &Value) -> Result<Value, Failure> {
        let response = self
            .client
            .post(url.clone())
            .headers(headers)
            .json(body)
            .send()
            .await
            .map_err(|err| self.transport(err))?;
        let status = response.status();
        let retry_after = retry_after(response.headers());
        let bytes = retry::read_capped(response, MAX_RESPONSE_BYTES)
            .await
            .map_err(|err| match err {
                ReadError::Body(err) => self.transport(err),
                ReadError::TooLarge { .. } => Failure {
                    error: JudgeError::InvalidAnswer(format!(
                        "the response is larger than {MAX_RESPONSE_BYTES} bytes"
                    )),
                    retry: false,
                    retry_after: None,
                },
            })?;
        if !status.is_success() {
            let code = status.as_u16();
            return Err(Failure {
                error: JudgeError::Status {
                    status: code,
                    message: self.status_message(code, &bytes),
                    note: Note::None,
                },
                retry: is_transient(code),
                retry_after,
            });
        }
        serde_json::from_slice(&bytes).map_err(|err| Failure {
            error: JudgeError::InvalidAnswer(format!(
                "the response is not JSON ({err}): {}",
                self.scrub(&snippet(&String::from_utf8_lossy(&bytes)))
            )),
            retry: false,
            retry_after: None,
        })
    }

    /// A client error, kept as the source (without its URL, which is all that could carry a
    /// secret: keys travel in headers, which reqwest's errors never show).
    fn transport(&self, err: reqwest::Error) -> Failure {
        Failure {
            error: JudgeError::Transport {
                failure: TransportFailure::of(&err),
                note: Note::None,
                source: err.without_url(),
            },
            retry: true,
            retry_after: None,
        }
    }

    /// The provider's error message for a failed status, or a fixed one for rejected keys.
    fn status_message(&self, status: u16, body: &[u8]) -> String {
        if matches!(status, 401 | 403) {
            return match self.key_variable {
                Some(variable) => {
                    format!("the provider rejected the credentials; check {variable}")
                }
                None => "the provider refused the request as unauthorised".to_string(),
            };
        }
        let text = String::from_utf8_lossy(body);
        let message = serde_json::from_str::<Value>(&text)
            .ok()
            .and_then(|v| provider_error_message(&v))
            .unwrap_or_else(|| text.trim().to_string());
        let message = if message.is_empty() {
            "(no message)".to_string()
        } else {
            message
        };
        self.scrub(&snippet(&message))
    }

    /// Replaces the key, should a provider or a library echo it, with a marker.
    fn scrub(&self, text: &str) -> String {
        match &self.key {
            Some(key) if !key.expose_secret().is_empty() => {
                text.replace(key.expose_secret(), "[redacted]")
            }
            _ => text.to_string(),
        }
    }
}

/// The message in the providers' error bodies: `{"error": {"message": ...}}` (OpenAI,
/// Anthropic) or `{"error": "..."}` (Ollama).
fn provider_error_message(body: &Value) -> Option<String> {
    match body.get("error")? {
        Value::String(s) => Some(s.clone()),
        Value::Object(o) => o.get("message")?.as_str().map(str::to_string),
        _ => None,
    }
}

/// Statuses worth another attempt: timeouts, rate limits, overload and server errors.
fn is_transient(status: u16) -> bool {
    matches!(status, 408 | 425 | 429) || (500..=599).contains(&status)
}

/// `error` with how its retries ended.
fn with_note(error: JudgeError, ended: Note) -> JudgeError {
    match error {
        JudgeError::Transport {
            failure, source, ..
        } => JudgeError::Transport {
            failure,
            note: ended,
            source,
        },
        JudgeError::Status {
            status, message, ..
        } => JudgeError::Status {
            status,
            message,
            note: ended,
        },
        other => other,
    }
}

/// The wait a server asked for: `retry-after-ms` (OpenAI), else `Retry-After` as seconds or as
/// an HTTP date.
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    if let Some(ms) = headers
        .get("retry-after-ms")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|ms| ms.is_finite() && *ms >= 0.0)
    {
        return Some(Duration::from_secs_f64(ms / 1000.0));
    }
    crate::retry::retry_after(headers)
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::RETRY_AFTER;

    #[test]
    fn retry_after_reads_seconds_dates_and_milliseconds() {
        let mut headers = HeaderMap::new();
        headers.insert(RETRY_AFTER, HeaderValue::from_static("7"));
        assert_eq!(retry_after(&headers), Some(Duration::from_secs(7)));

        let later = std::time::SystemTime::now() + Duration::from_secs(120);
        let date = httpdate::fmt_http_date(later);
        headers.insert(RETRY_AFTER, HeaderValue::from_str(&date).expect("header"));
        let wait = retry_after(&headers).expect("a date is read");
        assert!(wait > Duration::from_secs(100) && wait <= Duration::from_secs(120));

        headers.insert(
            RETRY_AFTER,
            HeaderValue::from_static("Wed, 21 Oct 2015 07:28:00 GMT"),
        );
        assert_eq!(retry_after(&headers), Some(Duration::ZERO));

        headers.insert(RETRY_AFTER, HeaderValue::from_static("soon"));
        assert_eq!(retry_after(&headers), None);

        headers.insert("retry-after-ms", HeaderValue::from_static("250"));
        assert_eq!(retry_after(&headers), Some(Duration::from_millis(250)));
    }

    #[test]
    fn backoff_doubles_and_stays_within_its_bounds() {
        let base = Duration::from_millis(100);
        for retry in 1..=5 {
            let full = base * (1 << (retry - 1));
            for _ in 0..20 {
                let wait = crate::retry::backoff(base, retry);
                assert!(wait >= full / 2 && wait <= full, "{retry}: {wait:?}");
            }
        }
        // Huge retry numbers saturate instead of overflowing.
        assert!(crate::retry::backoff(base, u32::MAX) > Duration::ZERO);
    }

    #[test]
    fn transient_statuses_are_retried_and_client_errors_are_not() {
        for status in [408, 425, 429, 500, 502, 503, 504, 529] {
            assert!(is_transient(status), "{status}");
        }
        for status in [400, 401, 403, 404, 422] {
            assert!(!is_transient(status), "{status}");
        }
    }

    #[test]
    fn provider_error_messages_are_read_from_each_shape() {
        let openai =
            serde_json::json!({"error": {"message": "bad model", "type": "invalid_request_error"}});
        let anthropic = serde_json::json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}});
        let ollama = serde_json::json!({"error": "model \"x\" not found, try pulling it first"});
        assert_eq!(
            provider_error_message(&openai).as_deref(),
            Some("bad model")
        );
        assert_eq!(
            provider_error_message(&anthropic).as_deref(),
            Some("Overloaded")
        );
        assert!(provider_error_message(&ollama).is_some_and(|m| m.contains("not found")));
        assert_eq!(provider_error_message(&serde_json::json!({"x": 1})), None);
    }

    #[test]
    fn the_key_is_scrubbed_from_messages() {
        let client = JsonClient::new(
            Duration::from_secs(1),
            Duration::from_secs(1),
            Policy {
                attempts: 1,
                base: Duration::from_millis(1),
                max_wait: Duration::from_secs(1),
            },
            Some(SecretString::from("sk-very-secret")),
            Some("OPENAI_API_KEY"),
        )
        .expect("client");
        let body = br#"{"error": {"message": "key sk-very-secret is over quota"}}"#;
        let message = client.status_message(400, body);
        assert!(!message.contains("sk-very-secret"), "{message}");
        assert!(message.contains("[redacted]"));
        let message = client.status_message(
            401,
            br#"{"error": {"message": "Incorrect API key provided: sk-ve***cret"}}"#,
        );
        assert!(!message.contains("sk-ve"), "{message}");
        assert!(message.contains("OPENAI_API_KEY"));
        let header = client.key_header("Bearer ").expect("header");
        assert!(header.is_sensitive());
    }
}
