//! Talking to the Crawlbase API: building request URLs, sending them, reading capped bodies,
//! and retrying with backoff.
//!
//! Request URLs carry the token in their query string, so they are never logged and never
//! kept: a transport error is rendered without its URL, and any text that leaves this module
//! is scrubbed of the tokens as a second line of defence.

use std::future::Future;
use std::time::Duration;

use reqwest::header::HeaderMap;
use url::Url;

use super::config::{CrawlbaseConfig, Token};
use super::cost::Render;
use super::CrawlbaseError;
use crate::retry::{self, ReadError};

/// One Crawling API request: which rendering, and whether readability runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pass {
    pub render: Render,
    /// `md_readability=true`: strip navigation, sidebars, footers and ads (first pass only).
    pub readability: bool,
}

/// An answer as it came: status, headers, body.
#[derive(Debug)]
pub(crate) struct Raw {
    pub status: u16,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

pub(crate) use crate::retry::{Exhausted, Try};

/// `exhausted`'s error with how its retries ended.
pub(crate) fn describe_exhausted<E: std::fmt::Display>(exhausted: &Exhausted<E>) -> String {
    format!("{}{}", exhausted.error, exhausted.note)
}

pub(crate) struct Client {
    http: reqwest::Client,
    crawl_endpoint: Url,
    storage_endpoint: Url,
    attempts: u32,
    retry_base: Duration,
    pub(crate) max_retry_wait: Duration,
    max_body_bytes: u64,
    /// Every token value, to scrub from text that leaves the module.
    secrets: Vec<Token>,
}

impl Client {
    pub(crate) fn new(config: &CrawlbaseConfig) -> Result<Self, CrawlbaseError> {
        if config.attempts == 0 {
            return Err(CrawlbaseError::NoAttempts);
        }
        let http = reqwest::Client::builder()
            .user_agent(concat!("citecheck/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(config.connect_timeout)
            .timeout(config.timeout)
            .build()
            .map_err(CrawlbaseError::Client)?;
        Ok(Client {
            http,
            crawl_endpoint: config.crawl_endpoint(),
            storage_endpoint: config.storage_endpoint(),
            attempts: config.attempts,
            retry_base: config.retry_base,
            max_retry_wait: config.max_retry_wait,
            max_body_bytes: config.max_body_bytes,
            secrets: std::iter::once(config.token.clone())
                .chain(config.js_token.clone())
                .collect(),
        })
    }

    /// The Crawling API request for `target`: the token, the fully encoded URL, Markdown, and
    /// storage; readability and rendering as the pass says. `javascript=true` is added only for
    /// a rendered pass on a token that is not the JavaScript one.
    pub(crate) fn crawl_url(&self, token: &Token, target: &Url, pass: Pass, js_token: bool) -> Url {
        let mut url = self.crawl_endpoint.clone();
        {
            let mut query = url.query_pairs_mut();
            query
                .append_pair("token", token.expose())
                .append_pair("url", target.as_str())
                .append_pair("format", "md")
                .append_pair("store", "true");
            if pass.readability {
                query.append_pair("md_readability", "true");
            }
            if pass.render == Render::Javascript && !js_token {
                query.append_pair("javascript", "true");
            }
        }
        url
    }

    /// The Storage API request for a stored page, JSON-wrapped with its metadata.
    pub(crate) fn storage_url(&self, token: &Token, rid: &str) -> Url {
        let mut url = self.storage_endpoint.clone();
        url.query_pairs_mut()
            .append_pair("token", token.expose())
            .append_pair("rid", rid)
            .append_pair("format", "json");
        url
    }

    /// Sends one GET and reads the answer, body capped. The error text never holds the URL.
    pub(crate) async fn get(&self, url: Url) -> Result<Raw, String> {
        let response = self
            .http
            .get(url)
            .send()
            .await
            .map_err(|err| self.describe(err))?;
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let body = retry::read_capped(response, self.max_body_bytes)
            .await
            .map_err(|err| match err {
                ReadError::TooLarge { cap } => {
                    format!("the answer is larger than the {cap}-byte limit")
                }
                ReadError::Body(err) => self.describe(err),
            })?;
        Ok(Raw {
            status,
            headers,
            body,
        })
    }

    /// Runs `once` until it is done, the attempts run out, or the API asks for too long a wait.
    pub(crate) async fn retrying<T, E, F, Fut>(&self, once: F) -> Result<T, Exhausted<E>>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Try<T, E>>,
    {
        let policy = retry::Policy {
            attempts: self.attempts,
            base: self.retry_base,
            max_wait: self.max_retry_wait,
        };
        retry::run(&policy, once).await
    }

    /// The delay before retry number `retry` with this client's base.
    #[cfg(test)]
    fn backoff(&self, retry: u32) -> Duration {
        retry::backoff(self.retry_base, retry)
    }

    /// A client error in words, without the request URL and without any token.
    fn describe(&self, err: reqwest::Error) -> String {
        self.scrub(&retry::describe_transport(err))
    }

    /// `text` with every token value replaced.
    pub(crate) fn scrub(&self, text: &str) -> String {
        self.secrets.iter().fold(text.to_string(), |text, token| {
            text.replace(token.expose(), "[redacted]")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fetch::crawlbase::config::{JS_TOKEN_VAR, TOKEN_VAR};

    fn client() -> (Client, Token, Token) {
        let config = CrawlbaseConfig::from_values(Some("normal-tok"), Some("js-tok"), None)
            .expect("valid")
            .with_api_url(Some("http://127.0.0.1:9/"))
            .expect("valid");
        let normal = config.token.clone();
        let js = config.js_token.clone().expect("set");
        (Client::new(&config).expect("builds"), normal, js)
    }

    fn pairs(url: &Url) -> Vec<(String, String)> {
        url.query_pairs()
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect()
    }

    #[test]
    fn the_first_pass_asks_for_stored_readable_markdown_of_the_encoded_url() {
        let (client, normal, _) = client();
        let target = Url::parse("https://news.example/a b?x=1&y=2").expect("valid");
        let first = Pass {
            render: Render::Normal,
            readability: true,
        };
        let url = client.crawl_url(&normal, &target, first, false);
        assert_eq!(
            url.query(),
            Some(
                "token=normal-tok&url=https%3A%2F%2Fnews.example%2Fa%2520b%3Fx%3D1%26y%3D2\
                 &format=md&store=true&md_readability=true"
            )
        );
        assert_eq!(url.path(), "/");
    }

    #[test]
    fn rendering_uses_the_js_token_or_asks_for_javascript_on_the_normal_one() {
        let (client, normal, js) = client();
        let target = Url::parse("https://news.example/app").expect("valid");
        let rendered = Pass {
            render: Render::Javascript,
            readability: false,
        };
        let with_js = pairs(&client.crawl_url(&js, &target, rendered, true));
        assert!(with_js.contains(&("token".into(), "js-tok".into())));
        assert!(!with_js
            .iter()
            .any(|(k, _)| k == "javascript" || k == "md_readability"));
        let flagged = pairs(&client.crawl_url(&normal, &target, rendered, false));
        assert!(flagged.contains(&("token".into(), "normal-tok".into())));
        assert!(flagged.contains(&("javascript".into(), "true".into())));
        assert!(!flagged.iter().any(|(k, _)| k == "custom_success_codes"));
    }

    #[test]
    fn the_storage_request_names_the_rid_and_asks_for_json() {
        let (client, normal, _) = client();
        let url = client.storage_url(&normal, "r 1&x");
        assert_eq!(url.path(), "/storage");
        assert_eq!(
            url.query(),
            Some("token=normal-tok&rid=r+1%26x&format=json")
        );
    }

    #[test]
    fn scrubbing_removes_every_token() {
        let (client, normal, js) = client();
        assert_eq!(normal.variable(), TOKEN_VAR);
        assert_eq!(js.variable(), JS_TOKEN_VAR);
        assert_eq!(
            client.scrub("GET /?token=normal-tok and js-tok"),
            "GET /?token=[redacted] and [redacted]"
        );
    }

    #[test]
    fn backoff_grows_and_stays_within_its_bounds() {
        let (mut client, _, _) = client();
        client.retry_base = Duration::from_millis(100);
        for retry in 1..5u32 {
            let step = Duration::from_millis(100) * (1 << (retry - 1));
            let wait = client.backoff(retry);
            assert!(wait >= step / 2 && wait <= step, "{retry}: {wait:?}");
        }
    }
}
