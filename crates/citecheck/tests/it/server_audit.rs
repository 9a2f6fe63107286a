//! The HTTP service writes every verdict it serves to the audit index, and keeps the page.

use citecheck::audit::{AuditFilter, AuditStore};
use citecheck::evidence::EvidenceStore;
use citecheck::server::{self, AuditStatus, ServerConfig};
use citecheck::storage::Stores;

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
