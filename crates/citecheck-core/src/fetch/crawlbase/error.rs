//! Errors of the Crawlbase backend: building it, and calls whose failure is the caller's to
//! report (replay). Crawling never fails with one of these: a citation that could not be crawled
//! is a rejection whose detail is this error's message.
//!
//! No message ever contains a token: variants name the variable a token came from, and
//! transport errors are rendered without the request URL (which carries the token).

use thiserror::Error;

use super::config::{API_URL_VAR, TOKEN_VAR};

#[derive(Debug, Error)]
#[non_exhaustive]
pub enum CrawlbaseError {
    #[error("{TOKEN_VAR} is not set: the Crawlbase fetcher and replay need a Crawlbase token")]
    MissingToken,
    #[error("{API_URL_VAR} is not a usable http(s) URL: {reason}")]
    InvalidApiUrl { reason: String },
    #[error(
        "Crawlbase rejected the token in {variable} (HTTP 401): it is missing, invalid or was reset"
    )]
    Unauthorized { variable: &'static str },
    #[error(
        "the token in {variable} may not be used for {product} (HTTP 403): check that it is the \
         right kind of Crawlbase token (normal or JavaScript)"
    )]
    Forbidden {
        variable: &'static str,
        product: &'static str,
    },
    #[error(
        "the Crawlbase account behind {variable} is out of credits or its trial has ended (HTTP 402)"
    )]
    OutOfCredits { variable: &'static str },
    #[error("no stored page has the rid `{rid}` (Crawlbase keeps stored pages for 30 days)")]
    NotStored { rid: String },
    #[error("a rid is required")]
    EmptyRid,
    #[error("the Crawlbase API answered HTTP {status}: {detail}")]
    Api { status: u16, detail: String },
    #[error("could not reach the Crawlbase API: {message}")]
    Transport { message: String },
    #[error("the Crawlbase answer could not be read: {0}")]
    InvalidAnswer(String),
    #[error("could not build the HTTP client for Crawlbase")]
    Client(#[source] reqwest::Error),
    #[error("attempts must be at least 1")]
    NoAttempts,
}

impl CrawlbaseError {
    /// True for errors that only a person can fix (token, account, address): a caller should
    /// stop rather than carry on with other URLs.
    pub fn is_configuration(&self) -> bool {
        matches!(
            self,
            CrawlbaseError::MissingToken
                | CrawlbaseError::InvalidApiUrl { .. }
                | CrawlbaseError::Unauthorized { .. }
                | CrawlbaseError::Forbidden { .. }
                | CrawlbaseError::OutOfCredits { .. }
        )
    }
}

/// A problem with the account or a token, seen in an API status. Remembered by the fetcher so
/// that a front end can fail fast (see [`super::CrawlbaseFetcher::config_error`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AccountProblem {
    /// 401: this token is not valid at all.
    Unauthorized,
    /// 403: this token may not be used for this kind of request.
    Forbidden,
    /// 402: the whole account is out of credits.
    OutOfCredits,
}

impl AccountProblem {
    pub(crate) fn from_status(status: u16) -> Option<AccountProblem> {
        match status {
            401 => Some(AccountProblem::Unauthorized),
            402 => Some(AccountProblem::OutOfCredits),
            403 => Some(AccountProblem::Forbidden),
            _ => None,
        }
    }

    pub(crate) fn error(self, variable: &'static str, product: &'static str) -> CrawlbaseError {
        match self {
            AccountProblem::Unauthorized => CrawlbaseError::Unauthorized { variable },
            AccountProblem::Forbidden => CrawlbaseError::Forbidden { variable, product },
            AccountProblem::OutOfCredits => CrawlbaseError::OutOfCredits { variable },
        }
    }
}
