//! The address guard, on: loopback, private and metadata addresses are refused before any
//! request, on the first URL, on every redirect hop, and after name resolution.

use std::collections::HashSet;
use std::sync::Arc;

use citecheck_core::fetch::resolve::{GuardPolicy, StaticResolver};
use citecheck_core::fetch::{FetchOptions, Fetcher};
use citecheck_core::{Label, Reason};

use super::{fetch, fetcher_with, names, options, page, rejection, summary, LOOPBACK};
use crate::site::{Site, ARTICLE_SENTENCE};

/// The guard as shipped: on, nothing exempt.
fn guarded() -> FetchOptions {
    FetchOptions {
        guard: GuardPolicy::default(),
        ..options()
    }
}

/// The guard on, with the name `localhost` exempt, so a test can reach the fixture site by name
/// and watch the guard judge the hops that follow.
fn guarded_except_localhost() -> FetchOptions {
    FetchOptions {
        guard: GuardPolicy {
            enabled: true,
            allowed_hosts: HashSet::from(["localhost".to_string()]),
        },
        ..options()
    }
}

#[tokio::test]
async fn a_loopback_address_is_refused_before_any_request() {
    let site = Site::start().await;
    let url = site.url("/story/boiling");

    let rejection = rejection(fetch(guarded(), &url).await);

    assert_eq!(
        summary(&rejection),
        (
            Label::NotFound,
            Reason::BlockedAddress,
            Some(url.as_str()),
            None
        )
    );
    assert_eq!(site.total_hits(), 0);
}

#[tokio::test]
async fn an_exempt_host_is_fetched_with_the_guard_on() {
    let site = Site::start().await;

    let page = page(
        fetch(
            guarded_except_localhost(),
            &site.localhost_url("/story/boiling"),
        )
        .await,
    );

    assert!(page.markdown.contains(ARTICLE_SENTENCE));
}

#[tokio::test]
async fn a_redirect_hop_to_loopback_is_refused() {
    let site = Site::start().await;
    let secret = site.url("/secret");
    let url = site.localhost_url(&Site::redirect_path(&secret));

    let rejection = rejection(fetch(guarded_except_localhost(), &url).await);

    assert_eq!(
        summary(&rejection),
        (
            Label::NotFound,
            Reason::BlockedAddress,
            Some(secret.as_str()),
            None
        )
    );
    assert_eq!(site.hits("/redirect"), 1);
    assert_eq!(site.hits("/secret"), 0);
}

#[tokio::test]
async fn redirect_hops_to_every_private_form_are_refused() {
    let site = Site::start().await;
    let port = site.port();
    let targets = [
        format!("http://[::1]:{port}/secret"),
        "http://169.254.169.254/latest/meta-data".to_string(),
        format!("http://[::ffff:127.0.0.1]:{port}/secret"),
        // Shorthand and decimal spellings of 127.0.0.1.
        format!("http://127.1:{port}/secret"),
        format!("http://2130706433:{port}/secret"),
        format!("http://0.0.0.0:{port}/secret"),
        // A name that resolves to loopback: refused once resolved, before connecting.
        format!("http://rebind.test:{port}/secret"),
    ];
    let resolver = names().with("rebind.test", &[LOOPBACK]);
    let fetcher = fetcher_with(guarded_except_localhost(), Arc::new(resolver));

    for target in &targets {
        let url = site.localhost_url(&Site::redirect_path(target));

        let rejection = rejection(fetcher.fetch(&url).await);

        assert_eq!(
            (rejection.label, rejection.reason.clone()),
            (Label::NotFound, Reason::BlockedAddress),
            "{target}: {rejection:?}"
        );
    }
    assert_eq!(site.hits("/redirect"), targets.len());
    assert_eq!(site.hits("/secret"), 0);
}

#[tokio::test]
async fn a_name_that_resolves_to_loopback_is_refused() {
    let site = Site::start().await;
    let resolver = StaticResolver::new().with("rebind.test", &[LOOPBACK]);
    let url = format!("http://rebind.test:{}/story/boiling", site.port());

    let rejection = rejection(
        fetcher_with(guarded(), Arc::new(resolver))
            .fetch(&url)
            .await,
    );

    assert_eq!(
        summary(&rejection),
        (
            Label::NotFound,
            Reason::BlockedAddress,
            Some(url.as_str()),
            None
        )
    );
    assert_eq!(site.total_hits(), 0);
}

#[tokio::test]
async fn the_metadata_address_is_refused() {
    let url = "http://169.254.169.254/latest/meta-data";

    let rejection = rejection(fetch(guarded(), url).await);

    assert_eq!(
        summary(&rejection),
        (Label::NotFound, Reason::BlockedAddress, Some(url), None)
    );
}

#[tokio::test]
async fn schemes_other_than_http_and_https_are_refused_with_or_without_the_guard() {
    for options in [guarded(), options()] {
        for url in ["file:///etc/passwd", "ftp://127.0.0.1/pub/file.txt"] {
            let rejection = rejection(fetch(options.clone(), url).await);

            assert_eq!(
                (rejection.label, rejection.reason),
                (Label::NotFound, Reason::BlockedAddress),
                "{url}"
            );
        }
    }
}
