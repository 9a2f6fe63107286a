//! The direct HTTP fetcher, the default: no token, no vendor.
//!
//! Redirects are followed by hand (bounded) so that every hop passes the address guard and the
//! chain's end is known; bodies are decompressed by the client and capped in decompressed bytes;
//! transient failures (timeouts, connection errors, 5xx, 429) are retried with exponential
//! backoff and jitter, honouring `Retry-After` up to a bound.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use reqwest::header::{HeaderMap, ACCEPT, ACCEPT_LANGUAGE, CONTENT_TYPE, LOCATION};
use thiserror::Error;
use url::{Host, Url};

use super::interpret::{self, BodyKind};
use super::resolve::{GuardPolicy, GuardedResolver, HostResolver, ResolveError, SystemResolver};
use super::{charset, FetchOutcome, Fetcher, Rejection};
use crate::error_text::error_chain;
use crate::limits::{Budget, DEFAULT_CONVERSION_BUDGET};
use crate::model::{Label, Reason};
use crate::pdf::{self, PdfLimits};
use crate::retry::{self, retry_after, ReadError, Try};
use crate::workers::{WorkError, WorkerPool};

/// Appended to a `blocked_address` verdict's detail: how to let such fetches through. The
/// flags and variables are the citecheck application's (the library's own switches are
/// `FetchOptions::guard`, a [`GuardPolicy`]).
pub const BLOCKED_ADDRESS_HINT: &str = "loopback, private and link-local addresses are refused; \
     allow them with --allow-private-hosts (CITECHECK_ALLOW_PRIVATE_HOSTS=1) or one host with \
     --allow-host HOST";

pub const DEFAULT_MAX_BODY_BYTES: u64 = 10 * 1024 * 1024;
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
pub const DEFAULT_MAX_REDIRECTS: usize = 10;
pub const DEFAULT_ATTEMPTS: u32 = 3;
pub const DEFAULT_RETRY_BASE: Duration = Duration::from_millis(500);
pub const DEFAULT_MAX_RETRY_WAIT: Duration = Duration::from_secs(30);
pub const DEFAULT_USER_AGENT: &str = concat!(
    "Mozilla/5.0 (compatible; citecheck/",
    env!("CARGO_PKG_VERSION"),
    "; citation verifier)"
);

/// Settings of the direct fetcher.
#[derive(Debug, Clone)]
pub struct FetchOptions {
    pub connect_timeout: Duration,
    /// Bound on one attempt, from the first request to the last body byte, redirects included.
    pub timeout: Duration,
    /// Cap on the decompressed body.
    pub max_body_bytes: u64,
    pub max_redirects: usize,
    /// Attempts per URL, the first included.
    pub attempts: u32,
    /// First backoff delay; doubles per retry, with jitter.
    pub retry_base: Duration,
    /// A `Retry-After` longer than this ends the retries at once.
    pub max_retry_wait: Duration,
    pub user_agent: String,
    pub guard: GuardPolicy,
    /// Bound on converting one page, counted within `timeout`.
    pub conversion_budget: Duration,
    /// How PDFs are read; `None` leaves them unread (`pdf_unsupported`) and undownloaded.
    pub pdf: Option<PdfLimits>,
}

impl Default for FetchOptions {
    fn default() -> Self {
        FetchOptions {
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            timeout: DEFAULT_TIMEOUT,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            max_redirects: DEFAULT_MAX_REDIRECTS,
            attempts: DEFAULT_ATTEMPTS,
            retry_base: DEFAULT_RETRY_BASE,
            max_retry_wait: DEFAULT_MAX_RETRY_WAIT,
            user_agent: DEFAULT_USER_AGENT.to_string(),
            guard: GuardPolicy::default(),
            conversion_budget: DEFAULT_CONVERSION_BUDGET,
            pdf: Some(PdfLimits::default()),
        }
    }
}

#[derive(Debug, Error)]
#[non_exhaustive]
pub enum FetcherBuildError {
    #[error("could not build the HTTP client")]
    Client(#[source] reqwest::Error),
    #[error("attempts must be at least 1")]
    NoAttempts,
}

pub struct DirectFetcher {
    client: reqwest::Client,
    options: FetchOptions,
    policy: Arc<GuardPolicy>,
}

/// One attempt's result: final, or worth another try.
enum Attempt {
    Done(FetchOutcome),
    Retry {
        rejection: Rejection,
        retry_after: Option<Duration>,
    },
}

impl Attempt {
    /// Records the status the origin answered before the failure (one that struck the body).
    fn with_status(self, status: u16) -> Attempt {
        match self {
            Attempt::Done(FetchOutcome::Rejected(rejection)) => {
                Attempt::Done(FetchOutcome::Rejected(Rejection {
                    original_status: Some(status),
                    ..rejection
                }))
            }
            Attempt::Retry {
                rejection,
                retry_after,
            } => Attempt::Retry {
                rejection: Rejection {
                    original_status: Some(status),
                    ..rejection
                },
                retry_after,
            },
            done => done,
        }
    }
}

impl DirectFetcher {
    pub fn new(options: FetchOptions) -> Result<Self, FetcherBuildError> {
        Self::with_resolver(options, Arc::new(SystemResolver))
    }

    /// A fetcher that resolves names with `resolver` (tests use a fixed table, so that no DNS
    /// query leaves the machine).
    pub fn with_resolver(
        options: FetchOptions,
        resolver: Arc<dyn HostResolver>,
    ) -> Result<Self, FetcherBuildError> {
        if options.attempts == 0 {
            return Err(FetcherBuildError::NoAttempts);
        }
        let policy = Arc::new(options.guard.clone());
        let mut headers = HeaderMap::new();
        headers.insert(
            ACCEPT,
            reqwest::header::HeaderValue::from_static(
                "text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.9,*/*;q=0.5",
            ),
        );
        headers.insert(
            ACCEPT_LANGUAGE,
            reqwest::header::HeaderValue::from_static("en;q=0.9,*;q=0.5"),
        );
        let client = reqwest::Client::builder()
            .user_agent(options.user_agent.clone())
            .default_headers(headers)
            .redirect(reqwest::redirect::Policy::none())
            // A proxy would connect on our behalf to addresses the guard never saw.
            .no_proxy()
            .connect_timeout(options.connect_timeout)
            .timeout(options.timeout)
            .dns_resolver(Arc::new(GuardedResolver {
                inner: resolver,
                policy: Arc::clone(&policy),
            }))
            .build()
            .map_err(FetcherBuildError::Client)?;
        Ok(DirectFetcher {
            client,
            options,
            policy,
        })
    }

    async fn attempt(&self, requested: &Url) -> Attempt {
        // The timeout bounds the whole attempt, every redirect hop included; each request gets
        // what is left of it.
        let deadline = tokio::time::Instant::now() + self.options.timeout;
        let mut current = requested.clone();
        for _hop in 0..=self.options.max_redirects {
            if let Some(rejection) = self.destination_refusal(&current) {
                return Attempt::Done(FetchOutcome::Rejected(rejection));
            }
            if self.options.pdf.is_none() && interpret::has_pdf_path(&current) {
                // Its text is not judged, so neither the first URL nor a hop is downloaded.
                return Attempt::Done(FetchOutcome::Rejected(
                    Rejection::new(Label::NotFound, Reason::PdfUnsupported)
                        .at(current.as_str(), None),
                ));
            }
            let remaining = deadline.saturating_duration_since(tokio::time::Instant::now());
            if remaining.is_zero() {
                return Attempt::Retry {
                    rejection: Rejection::new(Label::Unreachable, Reason::Timeout)
                        .at(current.as_str(), None)
                        .detail("the redirects used up the whole timeout"),
                    retry_after: None,
                };
            }
            let request = self.client.get(current.clone()).timeout(remaining);
            let response = match request.send().await {
                Ok(response) => response,
                Err(err) => return transport_failure(&current, &err),
            };
            let status = response.status();
            if status.is_redirection() && status.as_u16() != 304 {
                match redirect_target(&current, response.headers()) {
                    Some(next) => {
                        tracing::debug!(from = %current, to = %next, status = status.as_u16(), "redirect");
                        current = next;
                        continue;
                    }
                    None => {
                        return Attempt::Done(FetchOutcome::Rejected(
                            Rejection::new(Label::Unreachable, Reason::BadResponse)
                                .at(current.as_str(), Some(status.as_u16()))
                                .detail("a redirect without a usable Location header"),
                        ))
                    }
                }
            }
            return self
                .read_final(requested, &current, response, deadline)
                .await;
        }
        Attempt::Done(FetchOutcome::Rejected(
            Rejection::new(Label::Unreachable, Reason::TooManyRedirects)
                .at(current.as_str(), None)
                .detail(format!(
                    "more than {} redirects",
                    self.options.max_redirects
                )),
        ))
    }

    /// Refuses a URL before any connection: wrong scheme, or a literal address the guard
    /// forbids (names are checked when they resolve).
    fn destination_refusal(&self, url: &Url) -> Option<Rejection> {
        let blocked = |detail: String| {
            Some(
                Rejection::new(Label::NotFound, Reason::BlockedAddress)
                    .at(url.as_str(), None)
                    .detail(detail),
            )
        };
        if !matches!(url.scheme(), "http" | "https") {
            return blocked(format!("the scheme `{}` is not fetched", url.scheme()));
        }
        let (host, ip) = match url.host()? {
            Host::Domain(_) => return None,
            Host::Ipv4(ip) => (ip.to_string(), std::net::IpAddr::V4(ip)),
            Host::Ipv6(ip) => (ip.to_string(), std::net::IpAddr::V6(ip)),
        };
        let host_text = url.host_str().unwrap_or(&host);
        if self.policy.is_exempt(host_text) || self.policy.is_exempt(&host) {
            return None;
        }
        self.policy
            .refusal(&host, ip)
            .and_then(|refusal| blocked(format!("{refusal}; {BLOCKED_ADDRESS_HINT}")))
    }

    async fn read_final(
        &self,
        requested: &Url,
        final_url: &Url,
        response: reqwest::Response,
        deadline: tokio::time::Instant,
    ) -> Attempt {
        let status = response.status().as_u16();
        if status >= 400 {
            let rejection = interpret::status_rejection(final_url, status);
            return if is_transient_status(status) {
                Attempt::Retry {
                    rejection,
                    retry_after: retry_after(response.headers()),
                }
            } else {
                Attempt::Done(FetchOutcome::Rejected(rejection))
            };
        }
        let content_type = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let declared = interpret::declared_kind(content_type.as_deref());
        let read_pdfs = self.options.pdf.is_some();
        if let Some(outcome) =
            interpret::rejection_before_body(requested, final_url, status, declared, read_pdfs)
        {
            return Attempt::Done(outcome);
        }
        let body = match self.read_capped(final_url, status, response).await {
            Ok(body) => body,
            Err(attempt) => return attempt,
        };
        if let Some(limits) = self.options.pdf {
            if interpret::body_kind(content_type.as_deref(), &body) == BodyKind::Pdf {
                let read = pdf::read_blocking(body, limits).await;
                return Attempt::Done(interpret::interpret_pdf(final_url, status, read));
            }
        }
        let at = final_url.to_string();
        let requested = requested.clone();
        let final_url = final_url.clone();
        let work = move |budget: &Budget| {
            let kind = interpret::body_kind(content_type.as_deref(), &body);
            let text = match kind {
                BodyKind::Html | BodyKind::Text => {
                    charset::decode(&body, content_type.as_deref(), kind == BodyKind::Html)
                }
                BodyKind::Pdf | BodyKind::Other => String::new(),
            };
            interpret::interpret_body(&requested, &final_url, status, kind, &text, budget)
        };
        // Converting a page is CPU work that hostile markup can make long and deep: it runs on
        // the shared large-stack workers, within what is left of the attempt's timeout, and is
        // abandoned with this future.
        let budget = Budget::within(self.options.conversion_budget, deadline.into_std());
        let converted = match WorkerPool::shared() {
            Ok(pool) => pool.run(budget, work).await,
            Err(err) => Err(err),
        };
        match converted {
            Ok(outcome) => Attempt::Done(outcome),
            // Every worker stayed busy until the timeout: not the page's fault.
            Err(err @ WorkError::Busy) => Attempt::Done(FetchOutcome::Rejected(
                Rejection::new(Label::Unreachable, Reason::Timeout)
                    .at(at, Some(status))
                    .detail(err.to_string()),
            )),
            Err(err) => Attempt::Done(FetchOutcome::Rejected(
                Rejection::new(Label::NotFound, Reason::PageTooComplex)
                    .at(at, Some(status))
                    .detail(err.to_string()),
            )),
        }
    }

    /// Reads the body, stopping as soon as it exceeds the cap.
    async fn read_capped(
        &self,
        final_url: &Url,
        status: u16,
        response: reqwest::Response,
    ) -> Result<Vec<u8>, Attempt> {
        retry::read_capped(response, self.options.max_body_bytes)
            .await
            .map_err(|err| match err {
                ReadError::TooLarge { cap } => too_large(final_url, status, cap),
                ReadError::Body(err) => transport_failure(final_url, &err).with_status(status),
            })
    }

    /// The delay before retry number `retry` with this fetcher's base.
    #[cfg(test)]
    fn backoff(&self, retry: u32) -> Duration {
        crate::retry::backoff(self.options.retry_base, retry)
    }
}

#[async_trait]
impl Fetcher for DirectFetcher {
    fn name(&self) -> &str {
        "direct"
    }

    async fn fetch(&self, url: &str) -> FetchOutcome {
        let requested = match super::parse_cited(url) {
            Ok(url) => url,
            Err(rejected) => return FetchOutcome::Rejected(rejected),
        };
        let policy = retry::Policy {
            attempts: self.options.attempts,
            base: self.options.retry_base,
            max_wait: self.options.max_retry_wait,
        };
        let outcome = retry::run(&policy, || async {
            match self.attempt(&requested).await {
                Attempt::Done(outcome) => Try::Done(outcome),
                Attempt::Retry {
                    rejection,
                    retry_after,
                } => Try::Retry {
                    error: rejection,
                    retry_after,
                },
            }
        })
        .await;
        match outcome {
            Ok(outcome) => outcome,
            Err(exhausted) => {
                let rejection = exhausted.error;
                let detail = format!(
                    "{}{}",
                    rejection.detail.clone().unwrap_or_default(),
                    exhausted.note
                );
                FetchOutcome::Rejected(rejection.detail(detail))
            }
        }
    }
}

fn too_large(final_url: &Url, status: u16, cap: u64) -> Attempt {
    Attempt::Done(FetchOutcome::Rejected(
        Rejection::new(Label::NotFound, Reason::BodyTooLarge)
            .at(final_url.as_str(), Some(status))
            .detail(format!("the body is larger than the {cap}-byte limit")),
    ))
}

/// Statuses worth another attempt: rate limits, gateway trouble, server errors.
fn is_transient_status(status: u16) -> bool {
    matches!(status, 408 | 425 | 429) || (500..=599).contains(&status)
}

fn redirect_target(current: &Url, headers: &HeaderMap) -> Option<Url> {
    // Servers do send raw UTF-8 in `Location`; browsers follow it, and so does this.
    let location = std::str::from_utf8(headers.get(LOCATION)?.as_bytes()).ok()?;
    current.join(location.trim()).ok()
}

/// Maps a client error to a verdict: blocked or dead names are final, the rest worth a retry.
fn transport_failure(url: &Url, err: &reqwest::Error) -> Attempt {
    let chain = error_chain(err);
    let resolve_error = source_of::<ResolveError>(err);
    let (label, reason, retry) = match resolve_error {
        Some(ResolveError::Blocked { .. }) => (Label::NotFound, Reason::BlockedAddress, false),
        Some(ResolveError::NoSuchDomain { .. }) => {
            (Label::Unreachable, Reason::NoSuchDomain, false)
        }
        Some(ResolveError::Failed { .. }) => (Label::Unreachable, Reason::DnsError, true),
        None if err.is_timeout() => (Label::Unreachable, Reason::Timeout, true),
        // A body that does not decompress: the server's fault, and the same next time.
        None if err.is_decode() => (Label::Unreachable, Reason::BadResponse, false),
        None if is_tls_failure(url, err) => (Label::Unreachable, Reason::TlsError, false),
        // Something answered, but not in HTTP: asking again gets the same answer.
        None if is_not_http(err) => (Label::Unreachable, Reason::BadResponse, false),
        None => (Label::Unreachable, Reason::ConnectError, true),
    };
    let chain = if reason == Reason::BlockedAddress {
        format!("{chain}; {BLOCKED_ADDRESS_HINT}")
    } else {
        chain
    };
    let rejection = Rejection::new(label, reason)
        .at(url.as_str(), None)
        .detail(chain);
    if retry {
        Attempt::Retry {
            rejection,
            retry_after: None,
        }
    } else {
        Attempt::Done(FetchOutcome::Rejected(rejection))
    }
}

/// Whether `err` is a failed TLS handshake: a bad certificate, or a peer that does not speak
/// TLS. The TLS library's error types are not ours to name; what tells a handshake failure apart
/// is that it strikes an https connection after the TCP connection was made (TCP and DNS
/// failures say so in their messages).
fn is_tls_failure(url: &Url, err: &reqwest::Error) -> bool {
    let handshake =
        url.scheme() == "https" && err.is_connect() && !causes_mention(err, &["tcp ", "dns error"]);
    handshake || causes_mention(err, &["certificate", "tls", "handshake", "ssl"])
}

/// Whether the answer could not be parsed as HTTP. The HTTP library's error type is not ours to
/// name, so its messages for a malformed status line or head are recognised instead.
fn is_not_http(err: &reqwest::Error) -> bool {
    causes_mention(err, &["invalid http", "message head is too large"])
}

/// Whether the causes of `err` mention one of `needles` (lower-case). The client's own message
/// is skipped: it quotes the URL, and a URL may well mention certificates.
fn causes_mention(err: &reqwest::Error, needles: &[&str]) -> bool {
    let Some(cause) = std::error::Error::source(err) else {
        return false;
    };
    let lower = error_chain(cause).to_ascii_lowercase();
    needles.iter().any(|needle| lower.contains(needle))
}

fn source_of<'a, T: std::error::Error + 'static>(
    err: &'a (dyn std::error::Error + 'static),
) -> Option<&'a T> {
    let mut current: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(e) = current {
        if let Some(found) = e.downcast_ref::<T>() {
            return Some(found);
        }
        current = e.source();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::RETRY_AFTER;

    #[test]
    fn retry_after_reads_seconds_and_dates() {
        let mut headers = HeaderMap::new();
        headers.insert(RETRY_AFTER, "7".parse().expect("header"));
        assert_eq!(retry_after(&headers), Some(Duration::from_secs(7)));
        headers.insert(
            RETRY_AFTER,
            "Wed, 21 Oct 2015 07:28:00 GMT".parse().expect("header"),
        );
        assert_eq!(retry_after(&headers), Some(Duration::ZERO));
        headers.insert(RETRY_AFTER, "soon".parse().expect("header"));
        assert_eq!(retry_after(&headers), None);
    }

    #[test]
    fn only_transient_statuses_are_retried() {
        for status in [429, 500, 502, 503, 504, 408] {
            assert!(is_transient_status(status), "{status}");
        }
        for status in [400, 401, 403, 404, 410, 451] {
            assert!(!is_transient_status(status), "{status}");
        }
    }

    #[test]
    fn backoff_grows_and_stays_within_its_bounds() {
        let fetcher = DirectFetcher::new(FetchOptions {
            retry_base: Duration::from_millis(100),
            ..FetchOptions::default()
        })
        .expect("client builds");
        for retry in 1..5u32 {
            let base = Duration::from_millis(100) * (1 << (retry - 1));
            let wait = fetcher.backoff(retry);
            assert!(wait >= base / 2 && wait <= base, "{retry}: {wait:?}");
        }
    }
}
