//! Settings of the Crawlbase fetcher and of stored-page replay, and the tokens they carry.
//!
//! This crate never reads the environment: the binary reads [`TOKEN_VAR`], [`JS_TOKEN_VAR`]
//! and [`API_URL_VAR`] and passes their values to [`CrawlbaseConfig::from_values`] (crawling)
//! or [`CrawlbaseConfig::for_replay`] (reading a stored page back).

use std::fmt;
use std::time::Duration;

use secrecy::{ExposeSecret, SecretString};
use url::Url;

use super::CrawlbaseError;

/// The variable holding the normal Crawling API token (required for crawling).
pub const TOKEN_VAR: &str = "CRAWLBASE_TOKEN";
/// The variable holding the JavaScript token (optional: without it, escalation sends
/// `javascript=true` on the normal token, billed the same).
pub const JS_TOKEN_VAR: &str = "CRAWLBASE_JS_TOKEN";
/// The variable overriding the API's base URL (tests point it at a mock on 127.0.0.1).
pub const API_URL_VAR: &str = "CRAWLBASE_API_URL";
/// Crawlbase's public endpoint.
pub const DEFAULT_API_URL: &str = "https://api.crawlbase.com";
/// Crawlbase gives one crawl up to 90 seconds; the rest covers the transfer.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(100);
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Attempts per API call, the first included (429 and 5xx are retried).
pub const DEFAULT_ATTEMPTS: u32 = 3;
pub const DEFAULT_RETRY_BASE: Duration = Duration::from_secs(1);
pub const DEFAULT_MAX_RETRY_WAIT: Duration = Duration::from_secs(30);
/// Cap on one answer's body. Markdown of a real page is far smaller.
pub const DEFAULT_MAX_BODY_BYTES: u64 = 10 * 1024 * 1024;

/// A Crawlbase token and the variable it came from, so that every error can name the variable
/// without ever showing the value. Its `Debug` prints the variable only.
#[derive(Clone)]
pub struct Token {
    secret: SecretString,
    variable: &'static str,
}

impl Token {
    /// A token read from `variable`; `None` when the value is blank (an unset variable and an
    /// empty one mean the same thing).
    pub fn new(value: &str, variable: &'static str) -> Option<Token> {
        let value = value.trim();
        (!value.is_empty()).then(|| Token {
            secret: SecretString::from(value.to_string()),
            variable,
        })
    }

    /// The environment variable the token came from, for messages.
    pub fn variable(&self) -> &'static str {
        self.variable
    }

    pub(crate) fn expose(&self) -> &str {
        self.secret.expose_secret()
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Token({}: [redacted])", self.variable)
    }
}

/// Settings of the Crawlbase fetcher. `Debug` is safe to log: tokens are redacted.
#[derive(Debug, Clone)]
pub struct CrawlbaseConfig {
    /// The API's base URL; the Crawling API is its root, the Storage API `storage` under it.
    pub api_url: Url,
    /// The normal token: every first attempt uses it.
    pub token: Token,
    /// The JavaScript token, used only after an answer showed the page needs a browser.
    pub js_token: Option<Token>,
    pub connect_timeout: Duration,
    /// Bound on one API call, from the request to the last body byte.
    pub timeout: Duration,
    /// Attempts per API call, the first included.
    pub attempts: u32,
    /// First backoff delay; doubles per retry, with jitter.
    pub retry_base: Duration,
    /// A `Retry-After` longer than this ends the retries at once.
    pub max_retry_wait: Duration,
    pub max_body_bytes: u64,
}

impl CrawlbaseConfig {
    /// Defaults around a normal token.
    pub fn new(token: Token) -> Self {
        CrawlbaseConfig {
            api_url: default_api_url(),
            token,
            js_token: None,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            timeout: DEFAULT_TIMEOUT,
            attempts: DEFAULT_ATTEMPTS,
            retry_base: DEFAULT_RETRY_BASE,
            max_retry_wait: DEFAULT_MAX_RETRY_WAIT,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
        }
    }

    /// The crawling configuration from the values of `CRAWLBASE_TOKEN`, `CRAWLBASE_JS_TOKEN`
    /// and `CRAWLBASE_API_URL` (each `None` when unset). A missing normal token is an error
    /// naming `CRAWLBASE_TOKEN`: the JavaScript token alone would make every request a
    /// rendered one, at twice the price, so it is not silently promoted.
    pub fn from_values(
        token: Option<&str>,
        js_token: Option<&str>,
        api_url: Option<&str>,
    ) -> Result<Self, CrawlbaseError> {
        let token = token
            .and_then(|t| Token::new(t, TOKEN_VAR))
            .ok_or(CrawlbaseError::MissingToken)?;
        let mut config = CrawlbaseConfig::new(token);
        config.js_token = js_token.and_then(|t| Token::new(t, JS_TOKEN_VAR));
        config.with_api_url(api_url)
    }

    /// The configuration for reading stored pages back: stored pages belong to the account,
    /// so either token will do; the normal one is preferred. Neither set is an error naming
    /// `CRAWLBASE_TOKEN`.
    pub fn for_replay(
        token: Option<&str>,
        js_token: Option<&str>,
        api_url: Option<&str>,
    ) -> Result<Self, CrawlbaseError> {
        let token = token
            .and_then(|t| Token::new(t, TOKEN_VAR))
            .or_else(|| js_token.and_then(|t| Token::new(t, JS_TOKEN_VAR)))
            .ok_or(CrawlbaseError::MissingToken)?;
        CrawlbaseConfig::new(token).with_api_url(api_url)
    }

    /// Replaces the base URL when `api_url` is set and not blank.
    pub fn with_api_url(mut self, api_url: Option<&str>) -> Result<Self, CrawlbaseError> {
        if let Some(text) = api_url.map(str::trim).filter(|t| !t.is_empty()) {
            self.api_url = parse_api_url(text)?;
        }
        Ok(self)
    }

    /// Where Crawling API requests go: the base URL's path, with a trailing slash.
    pub(crate) fn crawl_endpoint(&self) -> Url {
        let mut url = self.api_url.clone();
        url.set_query(None);
        url.set_fragment(None);
        if !url.path().ends_with('/') {
            let path = format!("{}/", url.path());
            url.set_path(&path);
        }
        url
    }

    /// Where Storage API requests go: `storage` under the base URL.
    pub(crate) fn storage_endpoint(&self) -> Url {
        let mut url = self.crawl_endpoint();
        let path = format!("{}storage", url.path());
        url.set_path(&path);
        url
    }
}

fn default_api_url() -> Url {
    Url::parse(DEFAULT_API_URL).expect("the default Crawlbase URL is valid")
}

fn parse_api_url(text: &str) -> Result<Url, CrawlbaseError> {
    let invalid = |reason: &str| CrawlbaseError::InvalidApiUrl {
        reason: reason.to_string(),
    };
    let url = Url::parse(text).map_err(|err| invalid(&err.to_string()))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(invalid("the scheme must be http or https"));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(invalid("it has no host"));
    }
    Ok(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tokens_debug_output_names_the_variable_and_hides_the_value() {
        let token = Token::new("  s3cr3t-value ", TOKEN_VAR).expect("not blank");
        assert_eq!(token.expose(), "s3cr3t-value");
        let printed = format!("{token:?}");
        assert!(printed.contains(TOKEN_VAR), "{printed}");
        assert!(!printed.contains("s3cr3t"), "{printed}");
        let config = CrawlbaseConfig::from_values(Some("s3cr3t-value"), Some("js-s3cr3t"), None)
            .expect("valid");
        let printed = format!("{config:?}");
        assert!(!printed.contains("s3cr3t"), "{printed}");
    }

    #[test]
    fn a_missing_or_blank_token_is_an_error_naming_the_variable() {
        for token in [None, Some(""), Some("   ")] {
            let err = CrawlbaseConfig::from_values(token, Some("js"), None).expect_err("no token");
            assert!(matches!(err, CrawlbaseError::MissingToken));
            assert!(err.to_string().contains("CRAWLBASE_TOKEN"), "{err}");
        }
    }

    #[test]
    fn replay_accepts_either_token_and_prefers_the_normal_one() {
        let both = CrawlbaseConfig::for_replay(Some("n"), Some("j"), None).expect("valid");
        assert_eq!(both.token.variable(), TOKEN_VAR);
        let js_only = CrawlbaseConfig::for_replay(None, Some("j"), None).expect("valid");
        assert_eq!(js_only.token.variable(), JS_TOKEN_VAR);
        let err = CrawlbaseConfig::for_replay(None, Some(" "), None).expect_err("no token");
        assert!(err.to_string().contains("CRAWLBASE_TOKEN"), "{err}");
    }

    #[test]
    fn endpoints_follow_the_configured_base_url() {
        let config = CrawlbaseConfig::from_values(Some("t"), None, None).expect("valid");
        assert_eq!(
            config.crawl_endpoint().as_str(),
            "https://api.crawlbase.com/"
        );
        assert_eq!(
            config.storage_endpoint().as_str(),
            "https://api.crawlbase.com/storage"
        );
        let mock = config
            .with_api_url(Some("http://127.0.0.1:4321/prefix"))
            .expect("valid");
        assert_eq!(
            mock.crawl_endpoint().as_str(),
            "http://127.0.0.1:4321/prefix/"
        );
        assert_eq!(
            mock.storage_endpoint().as_str(),
            "http://127.0.0.1:4321/prefix/storage"
        );
    }

    #[test]
    fn a_base_url_that_is_not_http_is_refused_naming_the_variable() {
        for bad in ["ftp://api.example", "not a url", "file:///tmp/x"] {
            let err = CrawlbaseConfig::from_values(Some("t"), None, Some(bad)).expect_err(bad);
            assert!(err.to_string().contains("CRAWLBASE_API_URL"), "{err}");
        }
    }
}
