//! The HTTP service writes every verdict it serves to the audit index, and keeps the page.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use citecheck::audit::{AuditFilter, AuditStore, RunInfo};
use citecheck::evidence::EvidenceStore;
use citecheck::server::audit_writer::AuditWriter;
use citecheck::server::metrics::Metrics;
use citecheck::server::{self, AuditStatus, Limits, ServerConfig};
use citecheck::storage::Stores;
use citecheck_core::Check;

use crate::server_support::*;

#[tokio::test]
async fn every_verdict_served_is_written_to_the_audit_index_with_its_page() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("audit.sqlite3");
    let audit = AuditStore::open(&db).expect("audit index opens");
    let evidence = EvidenceStore::open(dir.path().join("evidence")).expect("evidence store");
    let stores = Stores::new(Some(audit.clone()), Some(evidence));
    let builder = stores.attach(verifier_with(water_fetcher()));
    let config = ServerConfig::default();
    let state = server::AppState::new(Ok(builder), &config)
        .expect("state")
        .with_audit_status(AuditStatus::Recording {
            path: db.display().to_string(),
        })
        .expect("not shared yet");
    let app = server::router(state);

    let (status, _, body) = send(&app, post_json(verify_body(WATER, &[WATER_URL, GONE_URL]))).await;
    assert_eq!(status, 200, "{body}");

    let rows = audit.query(AuditFilter::default()).await.expect("query");
    assert_eq!(rows.len(), 2, "one row per citation: {rows:?}");
    for (citation, id) in body["citations"]
        .as_array()
        .expect("citations")
        .iter()
        .zip(body["audit_ids"].as_array().expect("the rows' ids"))
    {
        let row = rows
            .iter()
            .find(|r| Some(r.id) == id.as_i64())
            .expect("row");
        assert_eq!(row.url, citation["url"].as_str().expect("url"));
    }
    let page = rows
        .iter()
        .find(|r| r.url == WATER_URL)
        .expect("the page's row");
    assert_eq!(page.source, "api");
    assert_eq!(page.claim, WATER);
    assert_eq!(
        page.label,
        body["citations"][0]["label"].as_str().expect("label")
    );
    assert!(
        !page.rid.is_empty(),
        "the page was kept, so it has a rid to replay"
    );
    let gone = rows
        .iter()
        .find(|r| r.url == GONE_URL)
        .expect("the dead link's row");
    assert_eq!(gone.reason.as_deref(), Some("http_404"));
    assert!(
        gone.rid.is_empty(),
        "nothing to replay, but the decision is recorded"
    );

    let (_, _, health) = send(
        &app,
        axum::http::Request::get("/health")
            .body(axum::body::Body::empty())
            .expect("request"),
    )
    .await;
    assert!(
        health.to_string().contains("recording to"),
        "health reports the audit index: {health}"
    );
}

/// A live service with the audit writer: its state, server and the index's path.
async fn recording_server(dir: &std::path::Path) -> (LiveServer, std::path::PathBuf, Arc<Metrics>) {
    recording_server_with_queue(dir, server::audit_writer::QUEUE_CAPACITY).await
}

/// [`recording_server`] with room for `capacity` verdicts in the writer's queue.
async fn recording_server_with_queue(
    dir: &std::path::Path,
    capacity: usize,
) -> (LiveServer, std::path::PathBuf, Arc<Metrics>) {
    let db = dir.join("audit.sqlite3");
    let audit = AuditStore::open(&db).expect("audit index opens");
    let metrics = Arc::new(Metrics::new());
    let (recorder, writer) =
        AuditWriter::spawn_with_capacity(audit, Arc::clone(&metrics), capacity).await;
    let builder = verifier_with(water_fetcher()).recorder(Arc::new(recorder));
    let config = config_with(Limits {
        max_concurrent: 256,
        ..Limits::default()
    });
    let state =
        server::AppState::with_metrics(Ok(builder), &config, Arc::clone(&metrics)).expect("state");
    let live =
        LiveServer::start_recording(server::router(state), Duration::from_secs(20), Some(writer))
            .await;
    (live, db, metrics)
}

async fn verify_ids(client: &reqwest::Client, url: &str) -> Vec<i64> {
    let response = client
        .post(url)
        .header("content-type", "application/json")
        .body(verify_body(WATER, &[WATER_URL, GONE_URL]))
        .send()
        .await
        .expect("answered");
    assert_eq!(response.status(), 200);
    let body: serde_json::Value = response.json().await.expect("JSON");
    let ids: Vec<i64> = body["audit_ids"]
        .as_array()
        .unwrap_or_else(|| panic!("audit ids in {body}"))
        .iter()
        .map(|id| id.as_i64().expect("an integer id"))
        .collect();
    assert_eq!(ids.len(), 2, "one id per citation: {body}");
    ids
}

/// Rows with `id`, by id, read straight from the SQLite file.
fn rows_by_id(db: &std::path::Path) -> HashMap<i64, usize> {
    let conn = rusqlite::Connection::open(db).expect("sqlite");
    let mut statement = conn
        .prepare("SELECT id, COUNT(*) FROM citations GROUP BY id")
        .expect("prepare");
    let rows = statement
        .query_map([], |row| Ok((row.get(0)?, row.get::<_, i64>(1)? as usize)))
        .expect("query")
        .map(|row| row.expect("row"))
        .collect();
    rows
}

/// No answer before its audit rows are committed (a crash after answering loses nothing a client
/// was told about), concurrent requests share the writer, and every audit id a client was given
/// is in the index exactly once after a graceful shutdown that began while the index was locked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_audit_id_answered_is_committed_before_the_answer_and_once_after_shutdown() {
    const REQUESTS: usize = 48;
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut live, db, metrics) = recording_server(dir.path()).await;
    let client = client();
    // The first request reserves a block of ids; the rest come from it.
    let url = live.url("/verify");
    let mut answered = verify_ids(&client, &url).await;

    // Another connection holds the index's write lock: no row can be written until it lets go.
    let mut blocker = rusqlite::Connection::open(&db).expect("sqlite");
    let lock = blocker
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .expect("write lock");
    let requests: Vec<_> = (0..REQUESTS)
        .map(|_| {
            let client = client.clone();
            let url = url.clone();
            tokio::spawn(async move { verify_ids(&client, &url).await })
        })
        .collect();
    // The verdicts themselves take milliseconds; their rows cannot be committed while the lock
    // is held, so no answer may come back in that time.
    tokio::time::sleep(Duration::from_millis(700)).await;
    let early = requests.iter().filter(|r| r.is_finished()).count();
    assert_eq!(
        early, 0,
        "{early} answers came back before their rows were written"
    );

    // Shut down with the requests still waiting for the writer, then let the writer in.
    live.shut_down();
    tokio::time::sleep(Duration::from_millis(300)).await;
    lock.commit().expect("release the lock");
    for request in requests {
        answered.extend(request.await.expect("request task"));
    }
    let drained = live.done.await.expect("server task").expect("served");
    assert_eq!(drained, server::Drained::All);

    let rows = rows_by_id(&db);
    for id in &answered {
        assert_eq!(rows.get(id), Some(&1), "audit id {id} is in the index once");
    }
    assert_eq!(rows.len(), answered.len(), "no row without an answered id");
    let exposition = metrics.render().expect("metrics");
    assert!(
        exposition.contains(&format!(
            "citecheck_audit_rows_written_total {}",
            answered.len()
        )),
        "{exposition}"
    );
}

/// Rows written by `citecheck verify` into the same index while the service holds reserved ids
/// take other ids: the service's answers stay true.
#[tokio::test]
async fn a_second_writer_never_takes_an_id_the_service_handed_out() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut live, db, _) = recording_server(dir.path()).await;
    let client = client();
    let url = live.url("/verify");
    let mut served = verify_ids(&client, &url).await;
    let verdict = verifier_with(water_fetcher())
        .build()
        .expect("verifier")
        .verify(Check::new(WATER, vec![WATER_URL.to_string()]))
        .await;
    let other = AuditStore::open(&db).expect("a second handle, as another process would");
    let theirs = other
        .record(&verdict, &RunInfo::new("verify"))
        .await
        .expect("recorded");
    served.extend(verify_ids(&client, &url).await);
    live.shut_down();
    live.done.await.expect("server task").expect("served");

    assert!(
        theirs.iter().all(|id| !served.contains(id)),
        "{theirs:?} and {served:?} overlap"
    );
    let rows = rows_by_id(&db);
    for id in served.iter().chain(&theirs) {
        assert_eq!(rows.get(id), Some(&1), "audit id {id}");
    }
}

/// A full queue holds requests back instead of dropping their verdicts: with room for one verdict
/// and the index locked, every request waits; once it is free, every one is answered and
/// recorded.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_queue_makes_requests_wait_and_drops_nothing() {
    const REQUESTS: usize = 10;
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut live, db, _) = recording_server_with_queue(dir.path(), 1).await;
    let client = client();
    let url = live.url("/verify");
    let mut answered = verify_ids(&client, &url).await;

    let mut blocker = rusqlite::Connection::open(&db).expect("sqlite");
    let lock = blocker
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .expect("write lock");
    let mut requests = tokio::task::JoinSet::new();
    for _ in 0..REQUESTS {
        let client = client.clone();
        let url = url.clone();
        requests.spawn(async move { verify_ids(&client, &url).await });
    }
    // Nothing is answered before its rows are committed, and none can be while the lock is held.
    let mut early = 0;
    let wait = tokio::time::sleep(Duration::from_millis(700));
    tokio::pin!(wait);
    loop {
        tokio::select! {
            () = &mut wait => break,
            done = requests.join_next() => match done {
                Some(ids) => {
                    answered.extend(ids.expect("request task"));
                    early += 1;
                }
                None => break,
            },
        }
    }
    assert_eq!(
        early, 0,
        "{early} requests answered before their rows were written"
    );
    lock.commit().expect("release the lock");
    while let Some(ids) = requests.join_next().await {
        answered.extend(ids.expect("request task"));
    }
    live.shut_down();
    live.done.await.expect("server task").expect("served");

    let rows = rows_by_id(&db);
    assert_eq!(answered.len(), 2 * (REQUESTS + 1));
    for id in &answered {
        assert_eq!(rows.get(id), Some(&1), "audit id {id} is in the index once");
    }
}
