//! Dead links, rot or fabrication: asks the Internet Archive whether a dead URL was ever
//! captured.
//!
//! Takes a URL that ended dead (see [`Reason::is_archive_candidate`](crate::Reason)); gives an
//! [`ArchiveInfo`]: `archived` (a capture that answered 200 exists: the page existed, the link
//! rotted), `never_archived` (no such capture: the citation is *possibly* fabricated, since the
//! archive does not hold every page) or `lookup_failed`. The CDX server is the authority
//! (`/cdx/search/cdx?url=...&output=json&filter=statuscode:200&limit=-1&fastLatest=true`); the
//! availability API is not used because it answers empty for pages that are archived.
//!
//! Guarantees: a lookup never fails a verification (every failure is `lookup_failed` with a
//! note); it has short timeouts and backs off on 429/503 honouring `Retry-After` up to a bound
//! (the verifier also holds one of the archive host's permits from its per-host limit). The
//! base URL is configurable ([`ARCHIVE_URL_VAR`]), which is how tests point it at a mock on
//! 127.0.0.1; and a URL on a
//! private or loopback address, or under a name reserved for tests and documentation, is never
//! looked up on a public archive ([`worth_asking`]), so test fixtures never reach the internet.

pub mod cdx;

use std::net::IpAddr;
use std::time::Duration;

use reqwest::StatusCode;
use url::{Host, Url};

use crate::fetch::address::classify;
use crate::model::{ArchiveInfo, ArchiveStatus};
use crate::retry::{backoff, retry_after};

/// The Internet Archive's Wayback Machine.
pub const DEFAULT_ARCHIVE_URL: &str = "https://web.archive.org";
/// The environment variable that overrides the archive's base URL.
pub const ARCHIVE_URL_VAR: &str = "CITECHECK_ARCHIVE_URL";
/// One lookup's bound; the archive is a courtesy check, not worth holding a verdict up for.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(8);
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(4);
/// Attempts per lookup, the first included (only 429, 503 and connection failures retry).
pub const DEFAULT_ATTEMPTS: u32 = 3;
pub const DEFAULT_RETRY_BASE: Duration = Duration::from_millis(500);
/// A `Retry-After` longer than this ends the lookup as `lookup_failed`.
pub const DEFAULT_MAX_RETRY_WAIT: Duration = Duration::from_secs(10);

/// Settings of the archive client.
#[derive(Debug, Clone)]
pub struct ArchiveOptions {
    /// The archive's base URL (scheme, host, optional path prefix).
    pub base_url: String,
    pub timeout: Duration,
    pub connect_timeout: Duration,
    pub attempts: u32,
    pub retry_base: Duration,
    pub max_retry_wait: Duration,
    pub user_agent: String,
}

impl Default for ArchiveOptions {
    fn default() -> Self {
        ArchiveOptions {
            base_url: DEFAULT_ARCHIVE_URL.to_string(),
            timeout: DEFAULT_TIMEOUT,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            attempts: DEFAULT_ATTEMPTS,
            retry_base: DEFAULT_RETRY_BASE,
            max_retry_wait: DEFAULT_MAX_RETRY_WAIT,
            user_agent: crate::fetch::direct::DEFAULT_USER_AGENT.to_string(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ArchiveBuildError {
    #[error("invalid archive URL `{0}`")]
    BaseUrl(String),
    #[error("archive attempts must be at least 1")]
    NoAttempts,
    #[error("could not build the archive's HTTP client")]
    Client(#[source] reqwest::Error),
}

/// The outcome of one lookup: what the verdict shows, and where the raw archived page is.
#[derive(Debug, Clone, PartialEq)]
pub struct Lookup {
    pub info: ArchiveInfo,
    /// The capture as it was served, without the archive's replay banner (for re-judging).
    pub raw_snapshot_url: Option<String>,
}

/// Asks one archive about dead URLs.
pub struct ArchiveClient {
    http: reqwest::Client,
    base: Url,
    options: ArchiveOptions,
}

impl ArchiveClient {
    pub fn new(options: ArchiveOptions) -> Result<Self, ArchiveBuildError> {
        let trimmed = options.base_url.trim().trim_end_matches('/');
        let base = Url::parse(trimmed)
            .ok()
            .filter(|u| matches!(u.scheme(), "http" | "https") && u.host().is_some())
            .ok_or_else(|| ArchiveBuildError::BaseUrl(options.base_url.clone()))?;
        if options.attempts < 1 {
            return Err(ArchiveBuildError::NoAttempts);
        }
        let http = reqwest::Client::builder()
            .timeout(options.timeout)
            .connect_timeout(options.connect_timeout)
            .user_agent(options.user_agent.clone())
            .build()
            .map_err(ArchiveBuildError::Client)?;
        Ok(ArchiveClient {
            http,
            base,
            options,
        })
    }

    pub fn base_url(&self) -> &Url {
        &self.base
    }

    /// Whether `url` should be looked up on this archive at all (see [`worth_asking`]).
    pub fn applies_to(&self, url: &str) -> bool {
        worth_asking(url, &self.base)
    }

    /// Asks the archive about `url`. Never fails: a failure is `lookup_failed`.
    pub async fn lookup(&self, url: &str) -> Lookup {
        match self.latest_capture(url).await {
            Ok(Some(capture)) => {
                let prefix = self.base.as_str().trim_end_matches('/');
                let original = if capture.original.is_empty() {
                    url.to_string()
                } else {
                    capture.original.clone()
                };
                let captured_at = capture.captured_at();
                let when = captured_at
                    .clone()
                    .unwrap_or_else(|| "an unknown date".to_string());
                Lookup {
                    info: ArchiveInfo {
                        status: ArchiveStatus::Archived,
                        snapshot_url: Some(format!(
                            "{prefix}/web/{}/{original}",
                            capture.timestamp
                        )),
                        captured_at,
                        verdict: None,
                        evidence_quote: None,
                        note: format!(
                            "link rot: the Internet Archive captured this page ({when}); it \
                             existed and has gone since"
                        ),
                    },
                    raw_snapshot_url: Some(format!(
                        "{prefix}/web/{}id_/{original}",
                        capture.timestamp
                    )),
                }
            }
            Ok(None) => Lookup {
                info: ArchiveInfo {
                    status: ArchiveStatus::NeverArchived,
                    snapshot_url: None,
                    captured_at: None,
                    verdict: None,
                    evidence_quote: None,
                    note: "the Internet Archive never captured this URL: possibly fabricated \
                           (the archive does not hold every page)"
                        .to_string(),
                },
                raw_snapshot_url: None,
            },
            Err(problem) => {
                tracing::info!(%url, %problem, "archive lookup failed");
                Lookup {
                    info: ArchiveInfo {
                        status: ArchiveStatus::LookupFailed,
                        snapshot_url: None,
                        captured_at: None,
                        verdict: None,
                        evidence_quote: None,
                        note: format!(
                            "the Internet Archive could not be asked ({problem}); nothing is \
                             concluded"
                        ),
                    },
                    raw_snapshot_url: None,
                }
            }
        }
    }

    fn query_url(&self, url: &str) -> Url {
        let mut query = self.base.clone();
        let path = format!("{}/cdx/search/cdx", self.base.path().trim_end_matches('/'));
        query.set_path(&path);
        query
            .query_pairs_mut()
            .clear()
            .append_pair("url", url)
            .append_pair("output", "json")
            .append_pair("filter", "statuscode:200")
            .append_pair("limit", "-1")
            .append_pair("fastLatest", "true");
        query
    }

    /// The latest 200 capture, with retries on 429/503 and connection failures.
    async fn latest_capture(&self, url: &str) -> Result<Option<cdx::Capture>, String> {
        let query = self.query_url(url);
        let mut retry = 0u32;
        loop {
            retry += 1;
            let (problem, wait) = match self.http.get(query.clone()).send().await {
                Ok(response) => {
                    let status = response.status();
                    let wait = retry_after(response.headers());
                    if status.is_success() {
                        let body = response
                            .bytes()
                            .await
                            .map_err(|err| format!("reading the answer: {err}"))?;
                        return cdx::latest_capture(&body).map_err(|err| err.to_string());
                    }
                    if status != StatusCode::TOO_MANY_REQUESTS
                        && status != StatusCode::SERVICE_UNAVAILABLE
                    {
                        return Err(format!("the archive answered {status}"));
                    }
                    (format!("the archive answered {status}"), wait)
                }
                Err(err) if err.is_timeout() => return Err("timed out".to_string()),
                Err(err) if err.is_connect() => ("could not connect".to_string(), None),
                Err(err) => return Err(format!("request failed: {err}")),
            };
            if retry >= self.options.attempts {
                return Err(problem);
            }
            let wait = match wait {
                Some(wait) if wait > self.options.max_retry_wait => {
                    return Err(format!("{problem}, retry after {}s", wait.as_secs()));
                }
                Some(wait) => wait,
                None => backoff(self.options.retry_base, retry),
            };
            tokio::time::sleep(wait).await;
        }
    }
}

/// Whether an archive at `base` could hold `url`. A public archive is never asked about a URL
/// on a loopback, private or otherwise non-public address, nor under a name reserved for tests
/// and documentation (`localhost`, `.test`, `.invalid`, `.example`, `.local`, `.internal`,
/// `example.com`/`.net`/`.org`, single-label intranet names): it cannot have captured them,
/// and asking would send test traffic to the internet. An archive on a non-public address (a
/// mock, a local mirror) is asked about anything.
pub fn worth_asking(url: &str, base: &Url) -> bool {
    if !base.host().is_some_and(|h| is_public_host(&h)) {
        return true;
    }
    Url::parse(url)
        .ok()
        .and_then(|u| u.host().map(|h| is_public_host(&h)))
        .unwrap_or(false)
}

fn is_public_host(host: &Host<&str>) -> bool {
    match host {
        Host::Ipv4(ip) => classify(IpAddr::V4(*ip)).is_public(),
        Host::Ipv6(ip) => classify(IpAddr::V6(*ip)).is_public(),
        Host::Domain(name) => {
            let name = name.trim_end_matches('.').to_ascii_lowercase();
            let reserved_suffix = [
                "localhost",
                "test",
                "invalid",
                "example",
                "local",
                "internal",
                "home.arpa",
                "example.com",
                "example.net",
                "example.org",
            ]
            .iter()
            .any(|r| name == *r || name.ends_with(&format!(".{r}")));
            name.contains('.') && !reserved_suffix
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_public_archive_is_never_asked_about_test_addresses() {
        let public = Url::parse(DEFAULT_ARCHIVE_URL).expect("valid");
        for url in [
            "http://127.0.0.1:8080/gone",
            "http://[::1]/x",
            "http://10.1.2.3/x",
            "http://localhost/x",
            "https://a.example/w",
            "https://no-such-host.invalid/",
            "https://example.com/old-report",
            "https://www.example.org/x",
            "http://intranet/x",
            "not a url",
        ] {
            assert!(!worth_asking(url, &public), "{url}");
        }
        for url in ["https://www.nature.com/articles/x", "http://93.184.215.14/"] {
            assert!(worth_asking(url, &public), "{url}");
        }
    }

    #[test]
    fn a_local_archive_is_asked_about_anything() {
        let mock = Url::parse("http://127.0.0.1:4000").expect("valid");
        assert!(worth_asking("http://127.0.0.1:8080/gone", &mock));
        assert!(worth_asking("https://www.nature.com/articles/x", &mock));
    }

    #[test]
    fn the_query_is_the_documented_cdx_query() {
        let client = ArchiveClient::new(ArchiveOptions {
            base_url: "http://127.0.0.1:4000/wayback/".into(),
            ..ArchiveOptions::default()
        })
        .expect("valid");
        assert_eq!(
            client.query_url("https://a.example/x?q=1&r=2").as_str(),
            "http://127.0.0.1:4000/wayback/cdx/search/cdx?url=https%3A%2F%2Fa.example%2Fx%3Fq%3D1%26r%3D2&output=json&filter=statuscode%3A200&limit=-1&fastLatest=true"
        );
    }

    #[test]
    fn a_bad_base_url_is_refused_when_building() {
        for base in ["", "web.archive.org", "ftp://x.example", "http://"] {
            assert!(
                ArchiveClient::new(ArchiveOptions {
                    base_url: base.into(),
                    ..ArchiveOptions::default()
                })
                .is_err(),
                "{base}"
            );
        }
    }
}
