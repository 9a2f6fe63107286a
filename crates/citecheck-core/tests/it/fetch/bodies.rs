//! Bodies on the wire: compression, and the cap on decompressed bytes.

use std::time::{Duration, Instant};

use citecheck_core::fetch::FetchOptions;
use citecheck_core::{Label, Reason};

use super::{fetch, options, page, rejection, summary};
use crate::site::{Site, ARTICLE_SENTENCE, BIG_BODY_BYTES};

/// A cap well below the fixture site's big bodies.
fn capped() -> FetchOptions {
    FetchOptions {
        max_body_bytes: 64 * 1024,
        ..options()
    }
}

#[tokio::test]
async fn gzip_deflate_and_brotli_bodies_are_decompressed() {
    let site = Site::start().await;
    for path in ["/gzip", "/deflate", "/brotli"] {
        let page = page(fetch(options(), &site.url(path)).await);

        assert!(
            page.markdown.contains(ARTICLE_SENTENCE),
            "{path}: {}",
            page.markdown
        );
    }
}

#[tokio::test]
async fn a_compressed_body_that_expands_past_the_cap_is_too_large() {
    let site = Site::start().await;
    let url = site.url("/gzip-bomb");

    let rejection = rejection(fetch(capped(), &url).await);

    assert_eq!(
        summary(&rejection),
        (
            Label::NotFound,
            Reason::BodyTooLarge,
            Some(url.as_str()),
            Some(200)
        )
    );
}

#[tokio::test]
async fn a_corrupt_compressed_body_is_a_bad_response() {
    let site = Site::start().await;
    let url = site.url("/bad-gzip");

    let rejection = rejection(fetch(options(), &url).await);

    assert_eq!(
        summary(&rejection),
        (
            Label::Unreachable,
            Reason::BadResponse,
            Some(url.as_str()),
            Some(200)
        )
    );
}

#[tokio::test]
async fn a_body_over_the_cap_is_too_large() {
    let site = Site::start().await;
    let url = site.url("/big");

    let rejection = rejection(fetch(capped(), &url).await);

    assert_eq!(
        summary(&rejection),
        (
            Label::NotFound,
            Reason::BodyTooLarge,
            Some(url.as_str()),
            Some(200)
        )
    );
    assert_eq!(site.hits("/big"), 1, "a too-large body is not retried");
}

#[tokio::test]
async fn a_body_within_the_cap_is_read() {
    let site = Site::start().await;
    let options = FetchOptions {
        max_body_bytes: BIG_BODY_BYTES as u64,
        ..options()
    };

    let page = page(fetch(options, &site.url("/big")).await);

    assert!(page.markdown.contains("lifeboat station"));
}

#[tokio::test]
async fn a_declared_length_over_the_cap_is_refused_without_reading_the_body() {
    let site = Site::start().await;
    let url = site.url("/big-declared");
    let started = Instant::now();

    // The body never finishes: only the Content-Length check can answer before the timeout.
    let rejection = rejection(fetch(capped(), &url).await);

    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        summary(&rejection),
        (
            Label::NotFound,
            Reason::BodyTooLarge,
            Some(url.as_str()),
            Some(200)
        )
    );
}

#[tokio::test]
async fn a_streamed_body_without_a_length_is_cut_off_at_the_cap() {
    let site = Site::start().await;
    let url = site.url("/big-streamed");

    let rejection = rejection(fetch(capped(), &url).await);

    assert_eq!(
        summary(&rejection),
        (
            Label::NotFound,
            Reason::BodyTooLarge,
            Some(url.as_str()),
            Some(200)
        )
    );
}
