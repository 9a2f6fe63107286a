//! Rendering script-built pages, and the address guard on every request the browser makes.

use std::collections::HashSet;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
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
    renderer_in(deadline, std::env::temp_dir())
}

/// A renderer whose browser profiles go under `profile_parent`.
fn renderer_in(deadline: Duration, profile_parent: PathBuf) -> Option<Arc<ChromiumRenderer>> {
    let options = ChromiumOptions {
        deadline,
        guard: policy(),
        profile_parent,
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

/// What is left in a profile parent directory.
fn leftovers(parent: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(parent)
        .expect("the profile parent is readable")
        .map(|entry| entry.expect("a readable entry").path())
        .collect()
}

/// Waits up to `bound` for `parent` to be empty, then for it to stay empty a moment longer
/// (a helper process of a killed browser that is still exiting can create files again).
/// Returns what is left.
async fn left_after(parent: &Path, bound: Duration) -> Vec<PathBuf> {
    let end = tokio::time::Instant::now() + bound;
    while !leftovers(parent).is_empty() && tokio::time::Instant::now() < end {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    leftovers(parent)
}

/// Renders the fixture article once, starting the browser.
async fn render_article(renderer: &Arc<ChromiumRenderer>, site: &fixture::Fixture) {
    let outcome = RenderFetcher::new(renderer.clone())
        .fetch(&site.url("/page/article"))
        .await;
    assert!(matches!(outcome, FetchOutcome::Page(_)), "{outcome:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_removes_the_browser_profile_before_it_returns() {
    let parent = tempfile::tempdir().expect("a temporary directory");
    let Some(renderer) = renderer_in(Duration::from_secs(30), parent.path().to_path_buf()) else {
        return;
    };
    let site = fixture::serve().await;
    render_article(&renderer, &site).await;
    let profiles = leftovers(parent.path());
    assert_eq!(profiles.len(), 1, "one profile while running");
    // Chromium's singleton socket lives in a directory of its own under TMPDIR.
    let socket = std::fs::read_link(profiles[0].join("SingletonSocket"))
        .expect("the profile links to its singleton socket");

    renderer.shutdown().await;
    assert_eq!(leftovers(parent.path()), Vec::<PathBuf>::new());
    let sockets = socket.parent().expect("the socket is in a directory");
    assert!(!sockets.exists(), "{} is left", sockets.display());
    assert_eq!(
        left_after(parent.path(), Duration::ZERO).await,
        Vec::<PathBuf>::new(),
        "the profile came back after shutdown"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_a_renderer_that_was_not_shut_down_still_removes_its_profile() {
    let parent = tempfile::tempdir().expect("a temporary directory");
    let Some(renderer) = renderer_in(Duration::from_secs(30), parent.path().to_path_buf()) else {
        return;
    };
    let site = fixture::serve().await;
    render_article(&renderer, &site).await;
    assert_eq!(
        leftovers(parent.path()).len(),
        1,
        "one profile while running"
    );

    drop(renderer);
    assert_eq!(
        left_after(parent.path(), Duration::from_secs(5)).await,
        Vec::<PathBuf>::new()
    );
}

/// The browser this test process started with its profile in `profile`, killed as a crash
/// would (SIGKILL), so that the renderer finds it gone on the next render.
#[cfg(target_os = "linux")]
fn kill_browser_using(profile: &Path) {
    let flag = format!("--user-data-dir={}", profile.display());
    let ours = std::process::id().to_string();
    let mut killed = 0;
    for entry in std::fs::read_dir("/proc")
        .expect("/proc is readable")
        .flatten()
    {
        let dir = entry.path();
        let Ok(cmdline) = std::fs::read(dir.join("cmdline")) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(dir.join("stat")) else {
            continue;
        };
        // `pid (comm) state ppid ...`: the name may hold spaces, so read after the last ')'.
        let parent = stat
            .rsplit(')')
            .next()
            .and_then(|rest| rest.split_whitespace().nth(1));
        let uses_profile = cmdline
            .split(|&byte| byte == 0)
            .any(|arg| arg == flag.as_bytes());
        if uses_profile && parent == Some(ours.as_str()) {
            let pid = entry.file_name().to_string_lossy().into_owned();
            let status = std::process::Command::new("kill")
                .args(["-KILL", &pid])
                .status()
                .expect("kill runs");
            assert!(status.success(), "kill -KILL {pid}");
            killed += 1;
        }
    }
    assert_eq!(killed, 1, "the browser using {}", profile.display());
}

#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_that_died_is_replaced_and_its_profile_removed() {
    let parent = tempfile::tempdir().expect("a temporary directory");
    let Some(renderer) = renderer_in(Duration::from_secs(30), parent.path().to_path_buf()) else {
        return;
    };
    let site = fixture::serve().await;
    render_article(&renderer, &site).await;
    let first = leftovers(parent.path());
    assert_eq!(first.len(), 1, "one profile while running");

    kill_browser_using(&first[0]);
    // The render that finds the browser gone may fail (the renderer then restarts it); within
    // a few attempts one is served by a new browser.
    let mut rendered = false;
    for _ in 0..3 {
        let outcome = RenderFetcher::new(renderer.clone())
            .fetch(&site.url("/page/article"))
            .await;
        if matches!(outcome, FetchOutcome::Page(_)) {
            rendered = true;
            break;
        }
    }
    assert!(rendered, "no render after the browser died");
    let now = leftovers(parent.path());
    assert_eq!(now.len(), 1, "only the new browser's profile: {now:?}");
    assert_ne!(now, first, "the dead browser's profile is still there");

    renderer.shutdown().await;
    assert_eq!(
        left_after(parent.path(), Duration::ZERO).await,
        Vec::<PathBuf>::new()
    );
}
