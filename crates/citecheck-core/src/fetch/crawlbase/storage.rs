//! Replay: reading a stored page back from Crawlbase's Storage API by its rid.
//!
//! `GET {api}/storage?token=..&rid=..&format=json` answers the page wrapped with its metadata
//! (`stored_at`, `original_status`, `cb_status`/`pc_status`, `rid`, `url`, `body`); numbers may
//! come as numbers or strings. Should the answer not be JSON, the same fields are read from the
//! headers and the body is the page. Reading back is free; either of the account's tokens works.

use serde::Serialize;
use serde_json::Value;

use super::answer::{self, Answer};
use super::client::{describe_exhausted, Client, Try};
use super::config::{CrawlbaseConfig, Token};
use super::cost::Meter;
use super::error::AccountProblem;
use super::CrawlbaseError;

/// A page Crawlbase kept, as the Storage API returns it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StoredPage {
    pub rid: String,
    /// The URL that was crawled (after redirects).
    pub url: Option<String>,
    pub original_status: Option<u16>,
    /// Crawlbase's status for the crawl that stored it.
    pub crawl_status: Option<u16>,
    /// When it was stored, as Crawlbase writes it.
    pub stored_at: Option<String>,
    /// The stored page: Markdown for pages citecheck crawled.
    pub body: String,
}

/// Reads the stored page `rid` with the configuration's token (see
/// [`CrawlbaseConfig::for_replay`]). The same call as [`super::CrawlbaseFetcher::fetch_stored`],
/// for callers that do not crawl.
pub async fn fetch_stored(
    config: &CrawlbaseConfig,
    rid: &str,
) -> Result<StoredPage, CrawlbaseError> {
    let client = Client::new(config)?;
    read_stored(&client, &config.token, rid, None).await
}

pub(crate) async fn read_stored(
    client: &Client,
    token: &Token,
    rid: &str,
    meter: Option<&Meter<'_>>,
) -> Result<StoredPage, CrawlbaseError> {
    let rid = rid.trim();
    if rid.is_empty() {
        return Err(CrawlbaseError::EmptyRid);
    }
    let request = client.storage_url(token, rid);
    let request = &request;
    let result = client
        .retrying(move || async move {
            if let Some(meter) = meter {
                meter.storage_read();
            }
            let raw = match client.get(request.clone()).await {
                Ok(raw) => raw,
                Err(message) => {
                    return Try::Retry {
                        error: CrawlbaseError::Transport { message },
                        retry_after: None,
                    }
                }
            };
            match raw.status {
                429 | 500..=599 => Try::Retry {
                    retry_after: answer::retry_after(&raw.headers),
                    error: CrawlbaseError::Api {
                        status: raw.status,
                        detail: "the Storage API did not answer; try again later".to_string(),
                    },
                },
                _ => Try::Done(raw),
            }
        })
        .await;
    let raw = match result {
        Ok(raw) => raw,
        Err(exhausted) => {
            return Err(match exhausted.error {
                CrawlbaseError::Transport { .. } => CrawlbaseError::Transport {
                    message: describe_exhausted(&exhausted),
                },
                other => other,
            })
        }
    };
    match raw.status {
        200 => parse(rid, &raw.headers, &raw.body),
        404 => Err(CrawlbaseError::NotStored {
            rid: rid.to_string(),
        }),
        status => Err(match AccountProblem::from_status(status) {
            Some(problem) => problem.error(token.variable(), "the Storage API"),
            None => CrawlbaseError::Api {
                status,
                detail: "unexpected answer from the Storage API".to_string(),
            },
        }),
    }
}

/// The stored page from a `format=json` body, or from headers and a raw body.
fn parse(
    rid: &str,
    headers: &reqwest::header::HeaderMap,
    body: &[u8],
) -> Result<StoredPage, CrawlbaseError> {
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(fields)) => {
            let text = |name: &str| match fields.get(name) {
                Some(Value::String(s)) => Some(s.clone()),
                Some(Value::Number(n)) => Some(n.to_string()),
                _ => None,
            };
            let status = |name: &str| text(name).and_then(|s| s.trim().parse::<u16>().ok());
            let body = text("body").ok_or_else(|| {
                CrawlbaseError::InvalidAnswer("the stored page has no `body`".to_string())
            })?;
            Ok(StoredPage {
                rid: text("rid").unwrap_or_else(|| rid.to_string()),
                url: text("url"),
                original_status: status("original_status"),
                crawl_status: status("cb_status").or_else(|| status("pc_status")),
                stored_at: text("stored_at"),
                body,
            })
        }
        _ => {
            let meta = Answer::read(200, headers);
            Ok(StoredPage {
                rid: meta.rid.unwrap_or_else(|| rid.to_string()),
                url: meta.final_url.map(String::from),
                original_status: meta.original_status,
                crawl_status: meta.crawl_status,
                stored_at: headers
                    .get("stored_at")
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_string),
                body: String::from_utf8_lossy(body).into_owned(),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderMap;

    #[test]
    fn the_json_envelope_is_read_with_numbers_or_strings() {
        let body = br##"{"stored_at":"2026-03-01T14:22:58+02:00","original_status":"200",
            "cb_status":200,"pc_status":503,"rid":"r1","url":"https://a.example/x",
            "body":"# Title\n\nText."}"##;
        let page = parse("r1", &HeaderMap::new(), body).expect("parses");
        assert_eq!(
            page,
            StoredPage {
                rid: "r1".into(),
                url: Some("https://a.example/x".into()),
                original_status: Some(200),
                crawl_status: Some(200),
                stored_at: Some("2026-03-01T14:22:58+02:00".into()),
                body: "# Title\n\nText.".into(),
            }
        );
    }

    #[test]
    fn a_plain_answer_is_read_from_its_headers() {
        let mut headers = HeaderMap::new();
        headers.insert("original_status", "404".parse().expect("valid"));
        headers.insert("pc_status", "200".parse().expect("valid"));
        headers.insert("url", "https://a.example/gone".parse().expect("valid"));
        let page = parse("r2", &headers, b"# Not here").expect("parses");
        assert_eq!(page.original_status, Some(404));
        assert_eq!(page.crawl_status, Some(200));
        assert_eq!(page.rid, "r2");
        assert_eq!(page.body, "# Not here");
    }

    #[test]
    fn a_json_answer_without_a_body_is_an_error() {
        let err = parse("r3", &HeaderMap::new(), br#"{"rid":"r3"}"#).expect_err("no body");
        assert!(matches!(err, CrawlbaseError::InvalidAnswer(_)));
    }
}
