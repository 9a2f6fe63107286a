//! The Crawlbase backend: cited pages read through Crawlbase's Crawling API, for the pages the
//! direct fetcher cannot read (bot walls, pages built by JavaScript), and stored pages read
//! back from its Storage API.
//!
//! Takes a URL, gives the same [`FetchOutcome`](super::FetchOutcome)s as the direct fetcher,
//! decided by the same shared rules ([`super::interpret`]), plus what the crawl cost. Every
//! request asks for Markdown (`format=md`) and storage (`store=true`); the stored page's rid is
//! the only part of the storage URL that is kept.
//!
//! Configuration comes from three environment variables, read by the binary (never by this
//! crate) and passed to [`CrawlbaseConfig::from_values`] / [`CrawlbaseConfig::for_replay`]:
//!
//! | variable | meaning |
//! |---|---|
//! | `CRAWLBASE_TOKEN` | the normal token; required to crawl |
//! | `CRAWLBASE_JS_TOKEN` | the JavaScript token; optional (without it, rendering sends `javascript=true` on the normal token) |
//! | `CRAWLBASE_API_URL` | the API's base URL; default `https://api.crawlbase.com` |
//!
//! Tokens are never logged, never part of an error or a detail, and never stored.

mod answer;
mod client;
mod config;
mod cost;
mod error;
mod fetcher;
mod storage;

pub use config::{
    CrawlbaseConfig, Token, API_URL_VAR, DEFAULT_API_URL, DEFAULT_ATTEMPTS,
    DEFAULT_CONNECT_TIMEOUT, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_RETRY_WAIT, DEFAULT_RETRY_BASE,
    DEFAULT_TIMEOUT, JS_TOKEN_VAR, TOKEN_VAR,
};
pub use error::CrawlbaseError;
pub use fetcher::CrawlbaseFetcher;
pub use storage::{fetch_stored, StoredPage};
