//! Reading one Crawling API answer (pure): the API call's own status, the crawl status, the
//! origin's status, the final URL, the stored page's rid, and what they mean together.
//!
//! With a non-JSON `format` the response parameters travel as headers: `url`,
//! `original_status`, and the crawl status as `cb_status` (newer) or `pc_status` (legacy).
//! A stored page is identified by `storage_url`, whose query string carries the rid and also
//! the token: only the rid is ever taken from it.

use std::time::Duration;

use reqwest::header::HeaderMap;
use url::Url;

use super::error::AccountProblem;

/// The facts an answer carries, whatever its status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Answer {
    /// The HTTP status of the API call itself.
    pub api_status: u16,
    /// Crawlbase's status for the crawl (`cb_status`, else `pc_status`).
    pub crawl_status: Option<u16>,
    /// What the cited site answered.
    pub original_status: Option<u16>,
    /// The URL after the redirects Crawlbase followed.
    pub final_url: Option<Url>,
    pub rid: Option<String>,
    pub retry_after: Option<Duration>,
}

impl Answer {
    pub(crate) fn read(api_status: u16, headers: &HeaderMap) -> Answer {
        Answer {
            api_status,
            crawl_status: crawl_status(headers),
            original_status: header_u16(headers, "original_status"),
            final_url: header_str(headers, "url").and_then(|u| Url::parse(u).ok()),
            rid: rid(headers),
            retry_after: retry_after(headers),
        }
    }

    /// What the answer means for the fetch.
    pub(crate) fn meaning(&self) -> Meaning {
        match self.api_status {
            200 => self.crawl_meaning(),
            520 => Meaning::CrawlFailed,
            429 => Meaning::Transient(
                "Crawlbase's concurrency limit was reached (HTTP 429)".to_string(),
            ),
            401 => Meaning::Account(AccountProblem::Unauthorized),
            402 => Meaning::Account(AccountProblem::OutOfCredits),
            403 => Meaning::Account(AccountProblem::Forbidden),
            422 => {
                Meaning::Failed("Crawlbase refused the request as malformed (HTTP 422)".to_string())
            }
            500..=599 => Meaning::Transient(format!(
                "the Crawlbase API failed (HTTP {})",
                self.api_status
            )),
            status => Meaning::Failed(format!("the Crawlbase API answered HTTP {status}")),
        }
    }

    fn crawl_meaning(&self) -> Meaning {
        match (self.crawl_status, self.original_status) {
            (Some(200), _) => Meaning::Crawled,
            // A missing page: some answers say so in the crawl status as well.
            (Some(404 | 410), _) => Meaning::Crawled,
            (Some(207), _) => Meaning::EmptyPage,
            (Some(status), origin) => Meaning::Transient(format!(
                "Crawlbase could not crawl the page (crawl status {status}, origin status {})",
                origin.map_or_else(|| "unknown".to_string(), |o| o.to_string())
            )),
            // No crawl status at all: trust the origin's status when there is one.
            (None, Some(_)) => Meaning::Crawled,
            (None, None) => Meaning::Failed(
                "the Crawlbase answer carries neither a crawl status nor an origin status"
                    .to_string(),
            ),
        }
    }

    /// The origin's status as the verdict reports it: `original_status`, else the crawl
    /// status when that names a missing page, else 200.
    pub(crate) fn origin_status(&self) -> u16 {
        self.original_status
            .or(self.crawl_status.filter(|s| matches!(s, 404 | 410)))
            .unwrap_or(200)
    }

    /// Whether Crawlbase bills this answer: a processed call whose crawl succeeded and whose
    /// origin answered content, a followed redirect, or 404/410. Failed crawls are free.
    pub(crate) fn is_billed(&self) -> bool {
        self.api_status == 200
            && matches!(self.crawl_status, Some(200) | None)
            && matches!(
                self.origin_status(),
                200 | 201 | 204 | 301 | 302 | 404 | 410
            )
    }
}

/// What an answer means for the fetch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Meaning {
    /// The page (or the origin's 404/410) came back: interpret it.
    Crawled,
    /// API status 520: the crawl failed; a browser may succeed.
    CrawlFailed,
    /// Crawl status 207: the origin answered 200 with an empty page; a browser may fill it.
    EmptyPage,
    /// Worth another attempt (429, 5xx, a crawl that failed upstream).
    Transient(String),
    /// The token or the account is the problem (401, 402, 403).
    Account(AccountProblem),
    /// Final, for this URL only.
    Failed(String),
}

fn header_str<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|v| !v.is_empty())
}

fn header_u16(headers: &HeaderMap, name: &str) -> Option<u16> {
    header_str(headers, name).and_then(|v| v.parse().ok())
}

/// `cb_status`, falling back to the legacy `pc_status`.
pub(crate) fn crawl_status(headers: &HeaderMap) -> Option<u16> {
    header_u16(headers, "cb_status").or_else(|| header_u16(headers, "pc_status"))
}

/// The stored page's rid: from `storage_url`'s query string, else an `rid` header.
pub(crate) fn rid(headers: &HeaderMap) -> Option<String> {
    header_str(headers, "storage_url")
        .and_then(rid_from_storage_url)
        .or_else(|| header_str(headers, "rid").map(str::to_string))
}

/// The `rid` query parameter of a storage URL, absolute or not. Nothing else of the URL (its
/// token above all) is kept.
pub(crate) fn rid_from_storage_url(storage_url: &str) -> Option<String> {
    let query = storage_url.split_once('?')?.1;
    let query = query.split('#').next().unwrap_or_default();
    url::form_urlencoded::parse(query.as_bytes())
        .find(|(key, _)| key == "rid")
        .map(|(_, value)| value.trim().to_string())
        .filter(|value| !value.is_empty())
}

pub(crate) use crate::retry::retry_after;

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, value.parse().expect("valid header value"));
        }
        map
    }

    #[test]
    fn the_rid_is_taken_from_the_storage_urls_query_and_nothing_else() {
        let table = [
            (
                "https://api.crawlbase.com/storage?token=SECRET&rid=abc123",
                Some("abc123"),
            ),
            (
                "https://api.crawlbase.com/storage?rid=x%2By&token=SECRET",
                Some("x+y"),
            ),
            ("/storage?token=SECRET&rid=r1#frag", Some("r1")),
            ("https://api.crawlbase.com/storage?token=SECRET", None),
            ("https://api.crawlbase.com/storage?rid=", None),
            ("no query at all", None),
        ];
        for (storage_url, expected) in table {
            assert_eq!(
                rid_from_storage_url(storage_url).as_deref(),
                expected,
                "{storage_url}"
            );
        }
    }

    #[test]
    fn the_storage_url_wins_over_an_rid_header_which_is_the_fallback() {
        let both = headers(&[
            (
                "storage_url",
                "https://api.crawlbase.com/storage?token=T&rid=from-url",
            ),
            ("rid", "from-header"),
        ]);
        assert_eq!(rid(&both).as_deref(), Some("from-url"));
        assert_eq!(
            rid(&headers(&[("rid", "from-header")])).as_deref(),
            Some("from-header")
        );
        assert_eq!(rid(&HeaderMap::new()), None);
    }

    #[test]
    fn cb_status_is_preferred_and_pc_status_is_the_fallback() {
        let both = headers(&[("cb_status", "207"), ("pc_status", "200")]);
        assert_eq!(crawl_status(&both), Some(207));
        assert_eq!(crawl_status(&headers(&[("pc_status", "200")])), Some(200));
        assert_eq!(
            crawl_status(&headers(&[("cb_status", ""), ("pc_status", "404")])),
            Some(404)
        );
        assert_eq!(crawl_status(&HeaderMap::new()), None);
    }

    fn answer(api_status: u16, crawl: Option<u16>, origin: Option<u16>) -> Answer {
        Answer {
            api_status,
            crawl_status: crawl,
            original_status: origin,
            final_url: None,
            rid: None,
            retry_after: None,
        }
    }

    #[test]
    fn statuses_mean_what_the_api_documents() {
        use Meaning::*;
        let table = [
            (answer(200, Some(200), Some(200)), "crawled"),
            (answer(200, Some(200), Some(404)), "crawled"),
            (answer(200, Some(404), Some(404)), "crawled"),
            (answer(200, None, Some(200)), "crawled"),
            (answer(200, Some(207), Some(200)), "empty"),
            (answer(520, None, None), "crawl failed"),
            (answer(200, Some(503), Some(200)), "transient"),
            (answer(429, None, None), "transient"),
            (answer(500, None, None), "transient"),
            (answer(503, None, None), "transient"),
            (answer(401, None, None), "account"),
            (answer(402, None, None), "account"),
            (answer(403, None, None), "account"),
            (answer(422, None, None), "failed"),
            (answer(200, None, None), "failed"),
            (answer(418, None, None), "failed"),
        ];
        for (answer, expected) in table {
            let got = match answer.meaning() {
                Crawled => "crawled",
                EmptyPage => "empty",
                CrawlFailed => "crawl failed",
                Transient(_) => "transient",
                Account(_) => "account",
                Failed(_) => "failed",
            };
            assert_eq!(got, expected, "{answer:?}");
        }
    }

    #[test]
    fn only_successful_crawls_and_missing_pages_are_billed() {
        assert!(answer(200, Some(200), Some(200)).is_billed());
        assert!(answer(200, Some(200), Some(404)).is_billed());
        assert!(answer(200, Some(200), Some(410)).is_billed());
        assert!(answer(200, Some(200), Some(301)).is_billed());
        assert!(!answer(200, Some(207), Some(200)).is_billed());
        assert!(!answer(200, Some(503), Some(200)).is_billed());
        assert!(!answer(200, Some(200), Some(500)).is_billed());
        assert!(!answer(520, None, None).is_billed());
        assert!(!answer(429, None, None).is_billed());
    }

    #[test]
    fn the_origin_status_falls_back_to_a_missing_page_crawl_status_then_200() {
        assert_eq!(answer(200, Some(200), Some(301)).origin_status(), 301);
        assert_eq!(answer(200, Some(410), None).origin_status(), 410);
        assert_eq!(answer(200, Some(200), None).origin_status(), 200);
    }

    #[test]
    fn headers_are_read_into_an_answer() {
        let got = Answer::read(
            200,
            &headers(&[
                ("url", "https://example.com/final"),
                ("original_status", "200"),
                ("pc_status", "200"),
                ("rid", "r-9"),
                ("retry-after", "3"),
            ]),
        );
        assert_eq!(got.crawl_status, Some(200));
        assert_eq!(got.original_status, Some(200));
        assert_eq!(
            got.final_url.as_ref().map(Url::as_str),
            Some("https://example.com/final")
        );
        assert_eq!(got.rid.as_deref(), Some("r-9"));
        assert_eq!(got.retry_after, Some(Duration::from_secs(3)));
    }
}
