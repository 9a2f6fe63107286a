//! Rendering script-built pages, and the address guard on every request the browser makes.

use std::collections::HashSet;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use citecheck_core::fetch::resolve::{GuardPolicy, StaticResolver};
use citecheck_core::fetch::{
    DirectFetcher, Escalation, FetchOptions, FetchOutcome, Fetcher, RenderFetcher,
};
use citecheck_core::{Label, Reason};
use citecheck_render::{ChromiumOptions, ChromiumRenderer, SetupError};

use crate::fixture::{self, chromium, CLAIM};

/// The policy the tests run under: the guard on, the fixture site's address exempt (as
/// `--allow-host 127.0.0.1`), so that every other loopback name or address is refused.
fn policy() -> GuardPolicy {
    GuardPolicy {
        enabled: true,
        allowed_hosts: HashSet::from(["127.0.0.1".to_string()]),
    }
}

/// No DNS query leaves the machine: `localhost` is the only name, and it is loopback.
fn resolver() -> Arc<StaticResolver> {
    let loopback: IpAddr = "127.0.0.1".parse().expect("ip");
    Arc::new(StaticResolver::new().with("localhost", &[loopback]))
}

fn renderer(deadline: Duration) -> Option<Arc<ChromiumRenderer>> {
    let options = ChromiumOptions {
        deadline,
        guard: policy(),
        ..ChromiumOptions::new(chromium()?)
    };
    Some(Arc::new(
        ChromiumRenderer::with_resolver(options, resolver()).expect("renderer builds"),
    ))
}

fn direct() -> Arc<DirectFetcher> {
    let options = FetchOptions {
        guard: policy(),
        attempts: 1,
        ..FetchOptions::default()
    };
    Arc::new(DirectFetcher::with_resolver(options, resolver()).expect("fetcher builds"))
}

fn rejection(outcome: &FetchOutcome) -> (Label, Reason) {
    match outcome {
        FetchOutcome::Rejected(r) => (r.label, r.reason.clone()),
        FetchOutcome::Page(page) => panic!("expected a rejection, got a page: {page:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_script_built_article_needs_javascript_directly_and_is_read_once_rendered() {
    let Some(renderer) = renderer(Duration::from_secs(30)) else {
        return;
    };
    let site = fixture::serve().await;
    let url = site.url("/page/article");

    let direct_only = direct().fetch(&url).await;
    assert_eq!(
        rejection(&direct_only),
        (Label::NotFound, Reason::NeedsJavascript)
    );

    let chain = Escalation::new(direct()).then(Arc::new(RenderFetcher::new(renderer.clone())));
    assert_eq!(chain.name(), "direct+chromium");
    let started = Instant::now();
    let outcome = chain.fetch(&url).await;
    eprintln!(
        "direct fetch + first render (browser start included): {:?}",
        started.elapsed()
    );
    let FetchOutcome::Page(page) = outcome else {
        panic!("expected the rendered article, got {outcome:?}");
    };
    assert!(page.markdown.contains(CLAIM), "{}", page.markdown);
    assert!(page.markdown.contains("Danube Delta"), "{}", page.markdown);
    assert_eq!(page.final_url, url);
    assert_eq!(page.original_status, 200);

    // The browser is reused: a second render starts no new one.
    let started = Instant::now();
    let again = RenderFetcher::new(renderer.clone()).fetch(&url).await;
    eprintln!("second render (browser running): {:?}", started.elapsed());
    assert!(matches!(again, FetchOutcome::Page(_)), "{again:?}");
    assert!(
        renderer.blocked_requests().is_empty(),
        "{:?}",
        renderer.blocked_requests()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_a_page_makes_to_refused_addresses_are_refused_before_leaving_the_browser() {
    let Some(renderer) = renderer(Duration::from_secs(30)) else {
        return;
    };
    let site = fixture::serve().await;
    let outcome = RenderFetcher::new(renderer.clone())
        .fetch(&site.url("/page/leaky"))
        .await;
    let FetchOutcome::Page(page) = outcome else {
        panic!("expected the rendered article, got {outcome:?}");
    };
    assert!(page.markdown.contains(CLAIM), "{}", page.markdown);

    // The sentinel is reachable (the allowed request arrived) but nothing refused reached it:
    // not fetch(), not XHR, not a frame, not an image redirected to it, not a popup (which
    // Chromium's popup blocker stops before the guard would see it).
    assert!(
        site.hits.allowed() >= 1,
        "the page's allowed request never arrived"
    );
    assert_eq!(
        site.hits.refused(),
        0,
        "a refused request reached the sentinel"
    );
    let blocked: Vec<String> = renderer
        .blocked_requests()
        .into_iter()
        .map(|b| b.url)
        .collect();
    let port = site.sentinel.port();
    for expected in [
        "http://10.0.0.1/steal".to_string(),
        "http://169.254.169.254/latest/meta-data/".to_string(),
        format!("http://localhost:{port}/beacon-fetch"),
        format!("http://localhost:{port}/beacon-xhr"),
        format!("http://localhost:{port}/beacon-frame"),
        format!("http://localhost:{port}/beacon-sentinel-image"),
    ] {
        assert!(
            blocked.contains(&expected),
            "{expected} not refused: {blocked:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_sent_through_a_redirect_to_a_refused_address_is_refused() {
    let Some(renderer) = renderer(Duration::from_secs(30)) else {
        return;
    };
    let site = fixture::serve().await;
    let outcome = RenderFetcher::new(renderer.clone())
        .fetch(&site.url("/page/runaway"))
        .await;
    assert_eq!(
        rejection(&outcome),
        (Label::NotFound, Reason::BlockedAddress)
    );
    assert_eq!(site.hits.refused(), 0);
    let port = site.sentinel.port();
    let blocked = renderer.blocked_requests();
    assert!(
        blocked
            .iter()
            .any(|b| b.url == format!("http://localhost:{port}/beacon-sentinel-page")),
        "{blocked:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_that_never_finishes_loading_ends_at_the_render_deadline() {
    let Some(renderer) = renderer(Duration::from_secs(4)) else {
        return;
    };
    let site = fixture::serve().await;
    let outcome = RenderFetcher::new(renderer.clone())
        .fetch(&site.url("/page/stuck"))
        .await;
    assert_eq!(
        rejection(&outcome),
        (Label::Unreachable, Reason::RenderTimeout)
    );
    // The browser survives a timed-out render and serves the next one.
    let next = RenderFetcher::new(renderer)
        .fetch(&site.url("/page/article"))
        .await;
    assert!(matches!(next, FetchOutcome::Page(_)), "{next:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_still_empty_when_rendered_keeps_needs_javascript_and_says_so() {
    let Some(renderer) = renderer(Duration::from_secs(30)) else {
        return;
    };
    let site = fixture::serve().await;
    let outcome = RenderFetcher::new(renderer)
        .fetch(&site.url("/page/empty"))
        .await;
    assert_eq!(
        rejection(&outcome),
        (Label::NotFound, Reason::NeedsJavascript)
    );
    let FetchOutcome::Rejected(rejection) = outcome else {
        unreachable!("checked above")
    };
    let detail = rejection.detail.unwrap_or_default();
    assert!(detail.contains("rendered in chromium"), "{detail}");
}

#[test]
fn a_chromium_path_that_does_not_exist_is_a_clear_error() {
    let err = ChromiumRenderer::new(ChromiumOptions::new("/nonexistent/chromium".into()))
        .err()
        .expect("a missing executable is refused");
    assert!(matches!(err, SetupError::Locate(_)), "{err:?}");
    let message = err.to_string();
    for needle in ["/nonexistent/chromium", "--chromium", "CITECHECK_CHROMIUM"] {
        assert!(message.contains(needle), "{message}");
    }
}
