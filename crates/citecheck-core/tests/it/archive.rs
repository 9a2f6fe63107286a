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
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use citecheck_core::archive::{ArchiveClient, ArchiveOptions};
use citecheck_core::model::ArchiveStatus;

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

/// Starts the mock with `answers` per URL, and `pages` served as raw captures (`id_` form).
pub async fn start(
    answers: Vec<(&str, Answer)>,
    pages: Vec<(String, String)>,
) -> (SocketAddr, MockArchive) {
    let mock = MockArchive {
        answers: Arc::new(
            answers
                .into_iter()
                .map(|(u, a)| (u.to_string(), a))
                .collect(),
        ),
        seen: Arc::new(Mutex::new(Vec::new())),
        throttled: Arc::new(AtomicUsize::new(0)),
    };
    let mut app = Router::new().route("/cdx/search/cdx", get(cdx));
    for (path, html) in pages {
        app = app.route(
            &path,
            get(move || {
                let html = html.clone();
                async move { axum::response::Html(html) }
            }),
        );
    }
    let app = app.with_state(mock.clone());
    let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .await
        .expect("binds");
    let addr = listener.local_addr().expect("has an address");
    tokio::spawn(async move {
        axum::serve(listener, app).await.ok();
    });
    (addr, mock)
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
    let (addr, mock) = start(
        vec![(
            GONE,
            Answer::Captures(vec![("20190301120000", "200"), ("20210715083000", "200")]),
        )],
        vec![],
    )
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
    let (addr, _) = start(vec![], vec![]).await;
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
    let (addr, mock) = start(
        vec![(GONE, Answer::Throttled(2, vec![("20200101000000", "200")]))],
        vec![],
    )
    .await;
    let lookup = client(addr).lookup(GONE).await;
    assert_eq!(lookup.info.status, ArchiveStatus::Archived);
    assert_eq!(mock.queries().len(), 3, "two 429s, then the answer");
}

#[tokio::test]
async fn failures_are_lookup_failed_never_errors() {
    let (addr, mock) = start(
        vec![
            ("https://a.example/500", Answer::Status(500)),
            ("https://a.example/garbage", Answer::Garbage),
            ("https://a.example/slow", Answer::Slow),
            ("https://a.example/busy", Answer::Throttled(99, vec![])),
        ],
        vec![],
    )
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
