//! The HTTP plumbing every client in the pipeline shares (the direct fetcher, Crawlbase, the LLM
//! judges): the retry loop ([`run`]: attempts, exponential backoff with jitter, the server's own
//! `Retry-After`, and a cap past which a requested wait ends the retries), a body read that stops
//! at a byte cap ([`read_capped`]), and a transport error described without its URL
//! ([`describe_transport`]).
//!
//! Why not backon: the loop is forty lines, and what it must do beyond backoff (obey a
//! server-chosen wait, refuse one past a bound, report how many attempts were made in the
//! verdict) would be custom code around backon too.

use std::fmt;
use std::future::Future;
use std::time::Duration;

use futures::StreamExt;
use reqwest::header::{HeaderMap, RETRY_AFTER};

/// How many times a client tries, and how long it may wait in between.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    /// Attempts per call, the first included (at least 1).
    pub attempts: u32,
    /// First backoff delay; doubles per retry, with jitter.
    pub base: Duration,
    /// A wait the server asks for beyond this ends the retries at once.
    pub max_wait: Duration,
}

/// One attempt's result: final, or worth another try after `retry_after` (else backoff).
pub enum Try<T, E> {
    Done(T),
    Retry {
        error: E,
        retry_after: Option<Duration>,
    },
}

/// Why retrying stopped: the last attempt's error and how it ended.
#[derive(Debug)]
pub struct Exhausted<E> {
    pub error: E,
    pub note: Note,
}

/// How a retried call ended, appended to its error message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Note {
    /// Not retried (or not a retried call).
    #[default]
    None,
    /// Every attempt failed.
    Attempts(u32),
    /// The server asked to wait longer than allowed.
    WaitRefused { asked: Duration, allowed: Duration },
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::None => Ok(()),
            Note::Attempts(n) => {
                write!(f, " (after {n} attempt{})", if *n == 1 { "" } else { "s" })
            }
            Note::WaitRefused { asked, allowed } => write!(
                f,
                "; the server asked to wait {}s, more than the {}s allowed",
                asked.as_secs(),
                allowed.as_secs()
            ),
        }
    }
}

/// Runs `once` until it is done, the attempts run out, or the server asks for too long a wait.
pub async fn run<T, E, F, Fut>(policy: &Policy, mut once: F) -> Result<T, Exhausted<E>>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Try<T, E>>,
{
    let mut attempt = 1;
    loop {
        let (error, retry_after) = match once().await {
            Try::Done(value) => return Ok(value),
            Try::Retry { error, retry_after } => (error, retry_after),
        };
        if attempt >= policy.attempts {
            return Err(Exhausted {
                error,
                note: Note::Attempts(attempt),
            });
        }
        let wait = retry_after.unwrap_or_else(|| backoff(policy.base, attempt));
        if wait > policy.max_wait {
            return Err(Exhausted {
                error,
                note: Note::WaitRefused {
                    asked: wait,
                    allowed: policy.max_wait,
                },
            });
        }
        tracing::debug!(attempt, wait_ms = wait.as_millis() as u64, "retrying");
        tokio::time::sleep(wait).await;
        attempt += 1;
    }
}

/// Why a body could not be read whole.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("the body is larger than the {cap}-byte limit")]
    TooLarge { cap: u64 },
    #[error("reading the body failed")]
    Body(#[source] reqwest::Error),
}

/// Reads `response`'s body, refusing it as soon as it exceeds `cap` bytes (a declared length
/// over the cap is refused before reading).
pub async fn read_capped(response: reqwest::Response, cap: u64) -> Result<Vec<u8>, ReadError> {
    if response.content_length().is_some_and(|len| len > cap) {
        return Err(ReadError::TooLarge { cap });
    }
    let mut body = Vec::new();
    let mut stream = response.bytes_stream();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(ReadError::Body)?;
        if body.len() as u64 + chunk.len() as u64 > cap {
            return Err(ReadError::TooLarge { cap });
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// How a request failed before any answer, in the words messages use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransportFailure {
    TimedOut,
    Connect,
    Other,
}

impl TransportFailure {
    pub fn of(err: &reqwest::Error) -> TransportFailure {
        if err.is_timeout() {
            TransportFailure::TimedOut
        } else if err.is_connect() {
            TransportFailure::Connect
        } else {
            TransportFailure::Other
        }
    }
}

impl fmt::Display for TransportFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TransportFailure::TimedOut => "timed out",
            TransportFailure::Connect => "could not connect",
            TransportFailure::Other => "failed",
        })
    }
}

/// `the request <how>: <cause>: <cause>...` for a client error, without the request URL (which
/// may carry a token) and without repeating a cause.
pub fn describe_transport(err: reqwest::Error) -> String {
    let failure = TransportFailure::of(&err);
    let err = err.without_url();
    let mut text = format!("the request {failure}");
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(&err);
    let mut last = String::new();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !cause_text.is_empty() && cause_text != last && !text.ends_with(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
            last = cause_text;
        }
        source = cause.source();
    }
    text
}

/// The delay before retry number `retry` (1 = the first retry): `base * 2^(retry-1)`, drawn from
/// its upper half so that concurrent clients do not retry in step.
pub fn backoff(base: Duration, retry: u32) -> Duration {
    let full = base.saturating_mul(1 << retry.saturating_sub(1).min(16));
    full / 2 + full.mul_f64(0.5 * random_fraction())
}

/// `Retry-After` as seconds or an HTTP date (a date in the past means now).
pub fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let value = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let when = httpdate::parse_http_date(value).ok()?;
    Some(
        when.duration_since(std::time::SystemTime::now())
            .unwrap_or(Duration::ZERO),
    )
}

/// A fraction in [0, 1) for jitter; quality does not matter, independence between calls does.
fn random_fraction() -> f64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default(),
    );
    (hasher.finish() >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(attempts: u32, max_wait: Duration) -> Policy {
        Policy {
            attempts,
            base: Duration::from_millis(1),
            max_wait,
        }
    }

    #[tokio::test]
    async fn the_loop_stops_at_success_at_the_last_attempt_or_at_a_refused_wait() {
        let mut calls = 0;
        let done = run(&policy(5, Duration::from_secs(1)), || {
            calls += 1;
            let n = calls;
            async move {
                if n < 3 {
                    Try::Retry {
                        error: "busy",
                        retry_after: None,
                    }
                } else {
                    Try::Done(n)
                }
            }
        })
        .await
        .expect("the third attempt succeeds");
        assert_eq!(done, 3);

        let err = run(&policy(2, Duration::from_secs(1)), || async {
            Try::<(), _>::Retry {
                error: "down",
                retry_after: None,
            }
        })
        .await
        .expect_err("never succeeds");
        assert_eq!(err.note, Note::Attempts(2));
        assert_eq!(
            format!("{}{}", err.error, err.note),
            "down (after 2 attempts)"
        );

        let err = run(&policy(5, Duration::from_secs(10)), || async {
            Try::<(), _>::Retry {
                error: "quota",
                retry_after: Some(Duration::from_secs(3600)),
            }
        })
        .await
        .expect_err("no hour-long wait");
        assert!(err.note.to_string().contains("3600s"), "{}", err.note);
    }

    #[test]
    fn backoff_doubles_and_stays_in_the_upper_half_of_each_step() {
        let base = Duration::from_millis(100);
        for retry in 1..6u32 {
            let step = base * (1 << (retry - 1));
            let wait = backoff(base, retry);
            assert!(wait >= step / 2 && wait <= step, "{retry}: {wait:?}");
        }
    }
}
