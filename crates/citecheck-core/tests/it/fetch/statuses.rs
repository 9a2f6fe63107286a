//! Status codes and transport failures: dead links, retried failures, timeouts, DNS.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use citecheck_core::fetch::resolve::StaticResolver;
use citecheck_core::fetch::{FetchOptions, Fetcher};
use citecheck_core::{Label, Reason};

use super::{fetch, fetcher_with, names, options, page, rejection, summary, CountingResolver};
use crate::site::{closed_port, raw_server, Site, ARTICLE_SENTENCE};

#[tokio::test]
async fn a_404_is_unreachable_with_its_status_as_the_reason_and_is_not_retried() {
    let site = Site::start().await;
    let url = site.url("/gone-404");

    let rejection = rejection(fetch(options(), &url).await);

    assert_eq!(
        summary(&rejection),
        (
            Label::Unreachable,
            Reason::Http(404),
            Some(url.as_str()),
            Some(404)
        )
    );
    assert_eq!(site.hits("/gone-404"), 1);
}

#[tokio::test]
async fn a_410_is_unreachable_with_its_status_as_the_reason_and_is_not_retried() {
    let site = Site::start().await;
    let url = site.url("/gone-410");

    let rejection = rejection(fetch(options(), &url).await);

    assert_eq!(
        summary(&rejection),
        (
            Label::Unreachable,
            Reason::Http(410),
            Some(url.as_str()),
            Some(410)
        )
    );
    assert_eq!(site.hits("/gone-410"), 1);
}

#[tokio::test]
async fn a_403_is_a_failed_fetch_named_by_its_status() {
    let site = Site::start().await;
    let url = site.url("/forbidden");

    let rejection = rejection(fetch(options(), &url).await);

    assert_eq!(
        summary(&rejection),
        (
            Label::Unreachable,
            Reason::Http(403),
            Some(url.as_str()),
            Some(403)
        )
    );
    assert_eq!(site.hits("/forbidden"), 1);
}

#[tokio::test]
async fn a_500_followed_by_a_200_is_retried_into_a_page() {
    let site = Site::start().await;

    let page = page(fetch(options(), &site.url("/flaky")).await);

    assert_eq!(page.final_url, site.url("/flaky"));
    assert_eq!(page.original_status, 200);
    assert!(page.markdown.contains(ARTICLE_SENTENCE));
    assert_eq!(site.hits("/flaky"), 2);
}

#[tokio::test]
async fn a_persistent_503_is_requested_once_per_attempt_then_given_up() {
    let site = Site::start().await;
    let url = site.url("/always-503");
    let options = FetchOptions {
        attempts: 4,
        ..options()
    };

    let rejection = rejection(fetch(options, &url).await);

    assert_eq!(
        summary(&rejection),
        (
            Label::Unreachable,
            Reason::Http(503),
            Some(url.as_str()),
            Some(503)
        )
    );
    assert_eq!(site.hits("/always-503"), 4);
    let detail = rejection.detail.unwrap_or_default();
    assert!(detail.contains("after 4 attempts"), "{detail}");
}

#[tokio::test]
async fn a_429_is_retried_after_the_wait_the_server_asked_for() {
    let site = Site::start().await;
    let started = Instant::now();

    let page = page(fetch(options(), &site.url("/rate-limited")).await);

    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    assert!(page.markdown.contains(ARTICLE_SENTENCE));
    assert_eq!(site.hits("/rate-limited"), 2);
}

#[tokio::test]
async fn a_retry_after_longer_than_the_allowed_wait_gives_up_at_once() {
    let site = Site::start().await;
    let url = site.url("/rate-limited-long");
    let options = FetchOptions {
        max_retry_wait: Duration::from_millis(500),
        ..options()
    };
    let started = Instant::now();

    let rejection = rejection(fetch(options, &url).await);

    assert!(
        started.elapsed() < Duration::from_millis(500),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        summary(&rejection),
        (
            Label::Unreachable,
            Reason::Http(429),
            Some(url.as_str()),
            Some(429)
        )
    );
    assert_eq!(site.hits("/rate-limited-long"), 1);
}

#[tokio::test]
async fn a_server_too_slow_for_the_timeout_is_unreachable_with_reason_timeout() {
    let site = Site::start().await;
    let url = site.url("/slow");
    let options = FetchOptions {
        timeout: Duration::from_millis(300),
        attempts: 2,
        ..options()
    };
    let started = Instant::now();

    let rejection = rejection(fetch(options, &url).await);

    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        summary(&rejection),
        (
            Label::Unreachable,
            Reason::Timeout,
            Some(url.as_str()),
            None
        )
    );
    assert_eq!(site.hits("/slow"), 2);
}

#[tokio::test]
async fn a_body_that_trickles_past_the_timeout_is_a_timeout() {
    let site = Site::start().await;
    let url = site.url("/trickle");
    let options = FetchOptions {
        timeout: Duration::from_millis(300),
        attempts: 1,
        ..options()
    };

    let rejection = rejection(fetch(options, &url).await);

    assert_eq!(
        summary(&rejection),
        (
            Label::Unreachable,
            Reason::Timeout,
            Some(url.as_str()),
            Some(200)
        )
    );
    assert_eq!(site.hits("/trickle"), 1);
}

#[tokio::test]
async fn a_refused_connection_is_a_connect_error() {
    let url = format!("http://127.0.0.1:{}/story/boiling", closed_port());

    let rejection = rejection(fetch(options(), &url).await);

    assert_eq!(
        summary(&rejection),
        (
            Label::Unreachable,
            Reason::ConnectError,
            Some(url.as_str()),
            None
        )
    );
    let detail = rejection.detail.unwrap_or_default();
    assert!(detail.contains("after 3 attempts"), "{detail}");
}

#[tokio::test]
async fn a_refused_connection_to_a_url_that_mentions_certificates_is_not_a_tls_error() {
    let url = format!("http://127.0.0.1:{}/ssl-certificate-guide", closed_port());

    let rejection = rejection(fetch(options(), &url).await);

    assert_eq!(rejection.reason, Reason::ConnectError, "{rejection:?}");
}

#[tokio::test]
async fn a_name_that_does_not_exist_is_a_dead_link_and_is_not_retried() {
    let resolver = CountingResolver::answering(names());
    let fetcher = fetcher_with(options(), resolver.clone());
    let url = "http://no-such-host.test/story";

    let rejection = rejection(fetcher.fetch(url).await);

    assert_eq!(
        summary(&rejection),
        (Label::Unreachable, Reason::NoSuchDomain, Some(url), None)
    );
    assert_eq!(resolver.lookups(), 1);
}

#[tokio::test]
async fn a_resolver_failure_is_a_dns_error_and_is_retried() {
    let resolver = CountingResolver::failing();
    let fetcher = fetcher_with(options(), resolver.clone());
    let url = "http://flaky-dns.test/story";

    let rejection = rejection(fetcher.fetch(url).await);

    assert_eq!(
        summary(&rejection),
        (Label::Unreachable, Reason::DnsError, Some(url), None)
    );
    assert_eq!(resolver.lookups(), 3);
}

#[tokio::test]
async fn a_name_from_the_resolver_table_is_fetched() {
    let site = Site::start().await;
    let resolver = StaticResolver::new().with("gazette.test", &[super::LOOPBACK]);
    let url = format!("http://gazette.test:{}/story/boiling", site.port());

    let page = page(
        fetcher_with(options(), Arc::new(resolver))
            .fetch(&url)
            .await,
    );

    assert_eq!(page.final_url, url);
    assert_eq!(site.hits("/story/boiling"), 1);
}

#[tokio::test]
async fn a_server_that_does_not_speak_http_is_a_bad_response() {
    let (port, connections) = raw_server(b"SSH-2.0-OpenSSH_9.6\r\n").await;
    let url = format!("http://127.0.0.1:{port}/story");

    let rejection = rejection(fetch(options(), &url).await);

    assert_eq!(
        summary(&rejection),
        (
            Label::Unreachable,
            Reason::BadResponse,
            Some(url.as_str()),
            None
        ),
        "{rejection:?}"
    );
    assert_eq!(connections.load(Ordering::SeqCst), 1, "not retried");
}

#[tokio::test]
async fn https_to_a_server_that_answers_in_plain_http_is_a_tls_error() {
    let (port, _) = raw_server(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n").await;
    let url = format!("https://127.0.0.1:{port}/story");

    let rejection = rejection(fetch(options(), &url).await);

    assert_eq!(
        summary(&rejection),
        (
            Label::Unreachable,
            Reason::TlsError,
            Some(url.as_str()),
            None
        ),
        "{rejection:?}"
    );
}

#[tokio::test]
async fn https_to_a_closed_port_is_a_connect_error_not_a_tls_error() {
    let url = format!("https://127.0.0.1:{}/story", closed_port());

    let rejection = rejection(fetch(options(), &url).await);

    assert_eq!(
        summary(&rejection),
        (
            Label::Unreachable,
            Reason::ConnectError,
            Some(url.as_str()),
            None
        ),
        "{rejection:?}"
    );
}
