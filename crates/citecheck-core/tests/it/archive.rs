//! The archive client against a mock Wayback server on 127.0.0.1 that speaks the CDX server's
//! real JSON format (a header row, then one row per capture; `[]` for none) and serves the
//! raw captures under `/web/<timestamp>id_/<url>`.

use std::collections::HashMap;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Query, State};
use axum::http::header::RETRY_AFTER;
use axum::http::{StatusCode, Uri};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use citecheck_core::archive::{ArchiveClient, ArchiveOptions};
use citecheck_core::fetch::resolve::GuardPolicy;
use citecheck_core::fetch::{DirectFetcher, FetchOptions};
use citecheck_core::fragment::parse_fragment_directive;
use citecheck_core::judge::LocalJudge;
use citecheck_core::model::ArchiveStatus;
use citecheck_core::rank::Bm25Ranker;
use citecheck_core::verifier::ArchiveCheck;
use citecheck_core::{Check, Label, Reason, Verifier};

/// How the mock answers a CDX query for one URL.
#[derive(Clone)]
pub enum Answer {
    /// Captures as (timestamp, statuscode).
    Captures(Vec<(&'static str, &'static str)>),
    /// `429 Too Many Requests` this many times (with `Retry-After: 0`), then the captures.
    Throttled(usize, Vec<(&'static str, &'static str)>),
    Status(u16),
    Garbage,
    Slow,
}

#[derive(Clone)]
pub struct MockArchive {
    answers: Arc<HashMap<String, Answer>>,
    pages: Arc<HashMap<String, String>>,
    seen: Arc<Mutex<Vec<HashMap<String, String>>>>,
    throttled: Arc<AtomicUsize>,
}

impl MockArchive {
    /// Queries received, as their parameters.
    pub fn queries(&self) -> Vec<HashMap<String, String>> {
        self.seen.lock().expect("not poisoned").clone()
    }
}

async fn cdx(
    State(mock): State<MockArchive>,
    Query(params): Query<HashMap<String, String>>,
) -> Response {
    mock.seen.lock().expect("not poisoned").push(params.clone());
    let url = params.get("url").cloned().unwrap_or_default();
    let rows = |captures: &[(&str, &str)]| {
        if captures.is_empty() {
            return "[]".to_string();
        }
        let mut rows = vec![serde_json::json!([
            "urlkey",
            "timestamp",
            "original",
            "mimetype",
            "statuscode",
            "digest",
            "length"
        ])];
        for (timestamp, status) in captures {
            rows.push(serde_json::json!([
                "example,key)/",
                timestamp,
                url,
                "text/html",
                status,
                "Q4YULN754FHV2U6Q5JUT6Q2P57WEWNNY",
                "1415"
            ]));
        }
        serde_json::Value::Array(rows).to_string()
    };
    match mock
        .answers
        .get(&url)
        .cloned()
        .unwrap_or(Answer::Captures(vec![]))
    {
        Answer::Captures(captures) => rows(&captures).into_response(),
        Answer::Throttled(times, captures) => {
            if mock.throttled.fetch_add(1, Ordering::SeqCst) < times {
                (
                    StatusCode::TOO_MANY_REQUESTS,
                    [(RETRY_AFTER, "0")],
                    "slow down",
                )
                    .into_response()
            } else {
                rows(&captures).into_response()
            }
        }
        Answer::Status(code) => StatusCode::from_u16(code)
            .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
            .into_response(),
        Answer::Garbage => "<html>The Wayback Machine is busy</html>".into_response(),
        Answer::Slow => {
            tokio::time::sleep(Duration::from_secs(5)).await;
            "[]".into_response()
        }
    }
}

/// Serves the pages given by path (raw captures, `/web/<timestamp>id_/<url>`); 404 otherwise,
/// which is also how the "live" URLs of these tests are dead.
async fn page(State(mock): State<MockArchive>, uri: Uri) -> Response {
    match mock.pages.get(uri.path()) {
        Some(html) => Html(html.clone()).into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// Starts the mock on a port it picks; `setup` gets the address first, so that answers and
/// pages can name URLs on the mock itself.
pub async fn start_with(
    setup: impl FnOnce(SocketAddr) -> (Vec<(String, Answer)>, Vec<(String, String)>),
) -> (SocketAddr, MockArchive) {
    let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .await
        .expect("binds");
    let addr = listener.local_addr().expect("has an address");
    let (answers, pages) = setup(addr);
    let mock = MockArchive {
        answers: Arc::new(answers.into_iter().collect()),
        pages: Arc::new(pages.into_iter().collect()),
        seen: Arc::new(Mutex::new(Vec::new())),
        throttled: Arc::new(AtomicUsize::new(0)),
    };
    let app = Router::new()
        .route("/cdx/search/cdx", get(cdx))
        .fallback(page)
        .with_state(mock.clone());
    tokio::spawn(async move {
        axum::serve(listener, app).await.ok();
    });
    (addr, mock)
}

/// Starts the mock with fixed `answers` per URL and no pages.
pub async fn start(answers: Vec<(&str, Answer)>) -> (SocketAddr, MockArchive) {
    let answers: Vec<(String, Answer)> = answers
        .into_iter()
        .map(|(u, a)| (u.to_string(), a))
        .collect();
    start_with(|_| (answers, Vec::new())).await
}

fn client(addr: SocketAddr) -> ArchiveClient {
    ArchiveClient::new(ArchiveOptions {
        base_url: format!("http://{addr}"),
        timeout: Duration::from_millis(800),
        retry_base: Duration::from_millis(10),
        ..ArchiveOptions::default()
    })
    .expect("valid options")
}

const GONE: &str = "https://journal.example/articles/gone";

#[tokio::test]
async fn a_captured_url_is_link_rot_with_its_latest_snapshot() {
    let (addr, mock) = start(vec![(
        GONE,
        Answer::Captures(vec![("20190301120000", "200"), ("20210715083000", "200")]),
    )])
    .await;
    let lookup = client(addr).lookup(GONE).await;
    assert_eq!(lookup.info.status, ArchiveStatus::Archived);
    assert_eq!(
        lookup.info.snapshot_url.as_deref(),
        Some(format!("http://{addr}/web/20210715083000/{GONE}").as_str())
    );
    assert_eq!(
        lookup.info.captured_at.as_deref(),
        Some("2021-07-15T08:30:00Z")
    );
    assert_eq!(
        lookup.raw_snapshot_url.as_deref(),
        Some(format!("http://{addr}/web/20210715083000id_/{GONE}").as_str())
    );
    let queries = mock.queries();
    assert_eq!(queries.len(), 1);
    let q = &queries[0];
    assert_eq!(q.get("url").map(String::as_str), Some(GONE));
    assert_eq!(q.get("output").map(String::as_str), Some("json"));
    assert_eq!(q.get("filter").map(String::as_str), Some("statuscode:200"));
    assert_eq!(q.get("limit").map(String::as_str), Some("-1"));
    assert_eq!(q.get("fastLatest").map(String::as_str), Some("true"));
}

#[tokio::test]
async fn an_uncaptured_url_is_possibly_fabricated() {
    let (addr, _) = start(vec![]).await;
    let lookup = client(addr).lookup(GONE).await;
    assert_eq!(lookup.info.status, ArchiveStatus::NeverArchived);
    assert!(
        lookup.info.note.contains("possibly fabricated"),
        "{}",
        lookup.info.note
    );
    assert_eq!(lookup.info.snapshot_url, None);
}

#[tokio::test]
async fn a_throttled_lookup_backs_off_and_succeeds() {
    let (addr, mock) = start(vec![(
        GONE,
        Answer::Throttled(2, vec![("20200101000000", "200")]),
    )])
    .await;
    let lookup = client(addr).lookup(GONE).await;
    assert_eq!(lookup.info.status, ArchiveStatus::Archived);
    assert_eq!(mock.queries().len(), 3, "two 429s, then the answer");
}

#[tokio::test]
async fn failures_are_lookup_failed_never_errors() {
    let (addr, mock) = start(vec![
        ("https://a.example/500", Answer::Status(500)),
        ("https://a.example/garbage", Answer::Garbage),
        ("https://a.example/slow", Answer::Slow),
        ("https://a.example/busy", Answer::Throttled(99, vec![])),
    ])
    .await;
    let client = client(addr);
    for (url, says) in [
        ("https://a.example/500", "500"),
        ("https://a.example/garbage", "not JSON"),
        ("https://a.example/slow", "timed out"),
        ("https://a.example/busy", "429"),
    ] {
        let lookup = client.lookup(url).await;
        assert_eq!(lookup.info.status, ArchiveStatus::LookupFailed, "{url}");
        assert!(
            lookup.info.note.contains(says),
            "{url}: {}",
            lookup.info.note
        );
    }
    let busy = mock
        .queries()
        .iter()
        .filter(|q| q.get("url").map(String::as_str) == Some("https://a.example/busy"))
        .count();
    assert_eq!(busy, 3, "429 is retried up to the attempt bound");
}

#[tokio::test]
async fn an_unreachable_archive_is_lookup_failed() {
    // Bind a port, then free it: nothing listens there.
    let listener = std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).expect("binds");
    let addr = listener.local_addr().expect("address");
    drop(listener);
    let lookup = client(addr).lookup(GONE).await;
    assert_eq!(lookup.info.status, ArchiveStatus::LookupFailed);
}

/// An archived article long enough to be judged.
const ARCHIVED_PAGE: &str = "<html><head><title>Boiling points</title></head><body><article>\
<h1>Boiling points of common liquids</h1>\
<p>Water boils at 100 degrees Celsius at sea level. At higher altitudes the boiling point is \
lower, because the air pressure is lower; in a mountain town at two thousand metres water boils \
at roughly 93 degrees.</p>\
<p>Dissolving salt in water raises its boiling point slightly, by far less than most cooks \
believe: a spoonful in a large pot changes it by a fraction of a degree.</p>\
<p>Ethanol boils at about 78 degrees Celsius, which is why it evaporates from a sauce long \
before the water does, although some of it always remains after a short simmer.</p>\
</article></body></html>";

const CLAIM: &str = "Water boils at 100 degrees Celsius at sea level.";

fn verifier(addr: SocketAddr, judge_archived: bool) -> Verifier {
    let fetcher = DirectFetcher::new(FetchOptions {
        guard: GuardPolicy {
            enabled: false,
            ..GuardPolicy::default()
        },
        attempts: 1,
        ..FetchOptions::default()
    })
    .expect("fetcher");
    Verifier::builder(
        Arc::new(fetcher),
        Arc::new(Bm25Ranker),
        Arc::new(LocalJudge::default()),
    )
    .shared_pages(16, 2)
    .archive(ArchiveCheck {
        client: Arc::new(client(addr)),
        judge_archived,
    })
    .build()
    .expect("verifier")
}

#[tokio::test]
async fn a_dead_citation_says_whether_it_rotted_and_what_the_archived_copy_says() {
    let (addr, _) = start_with(|addr| {
        let rotted = format!("http://{addr}/articles/boiling");
        (
            vec![(
                rotted.clone(),
                Answer::Captures(vec![("20200101000000", "200")]),
            )],
            vec![(
                format!("/web/20200101000000id_/{rotted}"),
                ARCHIVED_PAGE.to_string(),
            )],
        )
    })
    .await;
    let rotted = format!("http://{addr}/articles/boiling");
    let invented = format!("http://{addr}/articles/never-was");

    let result = verifier(addr, true)
        .verify(Check::new(CLAIM, [rotted.clone(), invented.clone()]))
        .await;
    let (rot, fake) = (&result.citations[0], &result.citations[1]);
    // The live labels do not change.
    assert_eq!(rot.label, Label::Unreachable);
    assert_eq!(rot.reason, Some(Reason::Http(404)));
    let archive = rot.follow_up.archive.as_ref().expect("looked up");
    assert_eq!(archive.status, ArchiveStatus::Archived);
    assert_eq!(archive.captured_at.as_deref(), Some("2020-01-01T00:00:00Z"));
    assert_eq!(archive.verdict, Some(Label::Supported), "{archive:?}");
    assert!(archive
        .evidence_quote
        .as_deref()
        .is_some_and(|q| q.contains("100 degrees")));
    assert_eq!(fake.label, Label::Unreachable);
    let archive = fake.follow_up.archive.as_ref().expect("looked up");
    assert_eq!(archive.status, ArchiveStatus::NeverArchived);
    assert_eq!(archive.verdict, None);

    // Without --archive-verify the archived copy is not judged.
    let plain = verifier(addr, false)
        .verify(Check::new(CLAIM, [rotted]))
        .await;
    let archive = plain.citations[0]
        .follow_up
        .archive
        .as_ref()
        .expect("looked up");
    assert_eq!(archive.status, ArchiveStatus::Archived);
    assert_eq!(archive.verdict, None);
}

#[tokio::test]
async fn a_failed_lookup_never_fails_the_verification() {
    let (addr, _) = start_with(|addr| {
        (
            vec![(format!("http://{addr}/articles/x"), Answer::Status(502))],
            vec![],
        )
    })
    .await;
    let result = verifier(addr, true)
        .verify(Check::new(CLAIM, [format!("http://{addr}/articles/x")]))
        .await;
    let c = &result.citations[0];
    assert_eq!(c.label, Label::Unreachable);
    let archive = c.follow_up.archive.as_ref().expect("looked up");
    assert_eq!(archive.status, ArchiveStatus::LookupFailed);
    assert_eq!(archive.verdict, None);
}

#[tokio::test]
async fn a_judged_quote_links_to_its_place_on_the_page() {
    let (addr, _) = start_with(|_| {
        (
            vec![],
            vec![("/articles/live".to_string(), ARCHIVED_PAGE.to_string())],
        )
    })
    .await;
    let url = format!("http://{addr}/articles/live");
    let result = verifier(addr, false)
        .verify(Check::new(CLAIM, [url.clone()]))
        .await;
    let c = &result.citations[0];
    assert_eq!(c.label, Label::Supported, "{c:?}");
    assert_eq!(c.follow_up.archive, None, "a live page is not looked up");
    let link = c.follow_up.evidence_url.as_deref().expect("linked");
    let (page_url, directive) = link.split_once("#:~:").expect("a fragment directive");
    assert_eq!(page_url, url);
    let parsed = parse_fragment_directive(directive);
    assert_eq!(parsed.len(), 1, "{link}");
    let quote = c.evidence_quote.as_deref().expect("quoted");
    assert!(
        parsed[0].start.contains(quote.trim()),
        "{quote} vs {:?}",
        parsed[0]
    );
    assert!(c.follow_up.evidence_offsets.is_some());
}
