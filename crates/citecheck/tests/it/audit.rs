//! The audit index on real SQLite in a temp dir (real migrations), the `audit` command, and
//! `verify` + `replay` through the binary.

use citecheck::audit::{schema, AuditFilter, AuditStore, RunInfo};
use citecheck_core::{ClaimVerdict, JudgeInfo, Label, Reason, TokenUsage, UrlVerdict, VerdictMeta};

use crate::batch_support::*;

fn verdict(claim: &str) -> ClaimVerdict {
    let judged = UrlVerdict {
        url: "https://a.example/water".into(),
        label: Label::Supported,
        evidence_quote: Some(WATER.into()),
        confidence: 0.9,
        final_url: Some("https://a.example/water/".into()),
        original_status: Some(200),
        rid: Some("ab".repeat(32)),
        reason: None,
        detail: Some("aligned".into()),
        meta: Some(VerdictMeta {
            fetcher: Some("direct".into()),
            judge: Some(JudgeInfo {
                provider: "openai".into(),
                model: "gpt-test".into(),
                prompt_version: "v3".into(),
            }),
            usage: Some(TokenUsage {
                input_tokens: 120,
                output_tokens: 30,
            }),
            content_sha256: Some("ab".repeat(32)),
            fetched_at: Some("2025-03-01T12:00:00Z".into()),
            crawl_cost: Some(citecheck_core::model::CrawlCost {
                normal_requests: 1,
                ..Default::default()
            }),
        }),
        follow_up: Default::default(),
    };
    let pdf = UrlVerdict::without_judge(
        "https://a.example/report.pdf",
        Label::NotFound,
        Reason::PdfUnsupported,
    );
    ClaimVerdict {
        claim: claim.into(),
        overall: Label::Supported,
        citations: vec![judged, pdf],
    }
}

#[tokio::test]
async fn every_citation_gets_a_row_even_without_a_page_to_replay() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = AuditStore::open(dir.path().join("nested/dir/audit.sqlite3")).expect("opens");
    let ids = store
        .record(&verdict(WATER), &RunInfo::new("api").with_claim_id("c-1"))
        .await
        .expect("recorded");
    assert_eq!(ids.len(), 2);
    let rows = store
        .query(AuditFilter {
            oldest_first: true,
            ..AuditFilter::default()
        })
        .await
        .expect("rows");
    assert_eq!(rows.len(), 2);
    let judged = &rows[0];
    assert_eq!(judged.id, ids[0]);
    assert_eq!(judged.source, "api");
    assert_eq!(judged.claim_id.as_deref(), Some("c-1"));
    assert_eq!(judged.claim, WATER);
    assert_eq!(judged.overall, "supported");
    assert_eq!(
        judged.final_url.as_deref(),
        Some("https://a.example/water/")
    );
    assert_eq!(judged.evidence_quote.as_deref(), Some(WATER));
    assert_eq!(judged.original_status, Some(200));
    assert_eq!(judged.rid, "ab".repeat(32));
    assert_eq!(judged.fetcher.as_deref(), Some("direct"));
    assert_eq!(judged.judge_provider.as_deref(), Some("openai"));
    assert_eq!(judged.judge_model.as_deref(), Some("gpt-test"));
    assert_eq!(judged.prompt_version.as_deref(), Some("v3"));
    assert_eq!(judged.fetched_at.as_deref(), Some("2025-03-01T12:00:00Z"));
    assert_eq!(judged.detail.as_deref(), Some("aligned"));
    assert_eq!(
        (judged.input_tokens, judged.output_tokens),
        (Some(120), Some(30))
    );
    assert!((judged.confidence - 0.9).abs() < 1e-9);
    assert_eq!(judged.recorded_at.len(), 20, "{}", judged.recorded_at);
    let cost: serde_json::Value =
        serde_json::from_str(judged.crawl_cost.as_deref().expect("a crawl cost")).expect("JSON");
    assert_eq!(cost["normal_requests"], 1);
    let pdf = &rows[1];
    assert_eq!(pdf.rid, "");
    assert_eq!(pdf.reason.as_deref(), Some("pdf_unsupported"));
    assert_eq!(pdf.label, "not_found");
}

#[test]
fn the_index_uses_wal_and_versioned_migrations_and_reopens_cleanly() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("audit.sqlite3");
    AuditStore::open(&path).expect("creates");
    AuditStore::open(&path).expect("reopens without re-running migrations");
    let conn = rusqlite::Connection::open(&path).expect("sqlite");
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .expect("version");
    assert_eq!(version, schema::MIGRATIONS.len() as i64);
    let mode: String = conn
        .pragma_query_value(None, "journal_mode", |r| r.get(0))
        .expect("mode");
    assert_eq!(mode, "wal");
}

#[test]
fn an_index_from_a_newer_citecheck_is_refused_not_misread() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("audit.sqlite3");
    {
        let conn = rusqlite::Connection::open(&path).expect("sqlite");
        conn.pragma_update(None, "user_version", 99).expect("set");
    }
    let err = AuditStore::open(&path).expect_err("refused");
    assert!(format!("{err:#}").contains("newer"), "{err:#}");
}

#[tokio::test]
async fn filters_select_by_label_reason_claim_url_and_time() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("audit.sqlite3");
    let store = AuditStore::open(&path).expect("opens");
    store
        .record(
            &verdict("Water boils at 100 degrees."),
            &RunInfo::new("verify"),
        )
        .await
        .expect("first");
    store
        .record(
            &verdict("Everest is tall."),
            &RunInfo::new("batch").with_run_id("r2"),
        )
        .await
        .expect("second");
    {
        // Age the first claim's rows by a day.
        let conn = rusqlite::Connection::open(&path).expect("sqlite");
        conn.execute(
            "UPDATE citations SET recorded_at = '2025-01-01T00:00:00Z' WHERE claim LIKE 'Water%'",
            [],
        )
        .expect("aged");
    }
    let count = |filter: AuditFilter| {
        let mut n = 0;
        store
            .scan(&filter, |_| {
                n += 1;
                Ok(())
            })
            .expect("scan");
        n
    };
    assert_eq!(count(AuditFilter::default()), 4);
    assert_eq!(
        count(AuditFilter {
            labels: vec!["not_found".into()],
            ..Default::default()
        }),
        2
    );
    assert_eq!(
        count(AuditFilter {
            reasons: vec!["pdf_unsupported".into(), "http_404".into()],
            ..Default::default()
        }),
        2
    );
    assert_eq!(
        count(AuditFilter {
            claim_contains: Some("WATER".into()),
            ..Default::default()
        }),
        2
    );
    assert_eq!(
        count(AuditFilter {
            url_contains: Some("report.pdf".into()),
            ..Default::default()
        }),
        2
    );
    assert_eq!(
        count(AuditFilter {
            url_contains: Some("%".into()),
            ..Default::default()
        }),
        0
    );
    assert_eq!(
        count(AuditFilter {
            since: Some("2025-01-02T00:00:00Z".into()),
            ..Default::default()
        }),
        2
    );
    assert_eq!(
        count(AuditFilter {
            until: Some("2025-01-02T00:00:00Z".into()),
            ..Default::default()
        }),
        2
    );
    assert_eq!(
        count(AuditFilter {
            run_id: Some("r2".into()),
            labels: vec!["supported".into()],
            ..Default::default()
        }),
        1
    );
    assert_eq!(
        count(AuditFilter {
            limit: Some(3),
            ..Default::default()
        }),
        3
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_writers_from_async_code_lose_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = AuditStore::open(dir.path().join("audit.sqlite3")).expect("opens");
    let tasks: Vec<_> = (0..16)
        .map(|i| {
            let store = store.clone();
            tokio::spawn(async move {
                store
                    .record(&verdict(&format!("claim {i}")), &RunInfo::new("api"))
                    .await
            })
        })
        .collect();
    for task in tasks {
        task.await.expect("joined").expect("recorded");
    }
    let rows = store.query(AuditFilter::default()).await.expect("rows");
    assert_eq!(rows.len(), 32);
}

#[tokio::test]
async fn verify_records_its_verdict_and_replay_shows_the_quote_in_the_page() {
    let sample = SampleSite::start().await;
    let dir = sample.dir.path().to_path_buf();
    let water = format!("{}/water", sample.site.base_url().trim_end_matches('/'));
    let d = dir.clone();
    let verify = tokio::task::spawn_blocking(move || {
        citecheck(&d)
            .args(["verify", "--claim", WATER, &water])
            .output()
            .expect("runs")
    })
    .await
    .expect("joined");
    assert_eq!(
        verify.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&verify.stderr)
    );

    let d = dir.clone();
    let listed = tokio::task::spawn_blocking(move || {
        citecheck(&d)
            .args(["audit", "--format", "json", "--label", "supported"])
            .output()
            .expect("runs")
    })
    .await
    .expect("joined");
    assert!(listed.status.success());
    let rows: serde_json::Value = serde_json::from_slice(&listed.stdout).expect("JSON rows");
    let row = &rows.as_array().expect("an array")[0];
    assert_eq!(row["source"], "verify");
    let id = row["id"].as_i64().expect("an id");
    let rid = row["rid"].as_str().expect("a rid").to_string();
    assert_eq!(rid.len(), 64);

    let d = dir.clone();
    let replay = tokio::task::spawn_blocking(move || {
        citecheck(&d)
            .args(["replay", "--audit-id", &id.to_string()])
            .output()
            .expect("runs")
    })
    .await
    .expect("joined");
    let page = String::from_utf8_lossy(&replay.stdout);
    assert_eq!(replay.status.code(), Some(0), "{page}");
    assert!(page.contains(&format!(">>>{WATER}<<<")), "{page}");

    let d = dir.clone();
    let missing_quote = tokio::task::spawn_blocking(move || {
        citecheck(&d)
            .args(["replay", &rid, "--quote", "Water boils at 50 degrees"])
            .output()
            .expect("runs")
    })
    .await
    .expect("joined");
    assert_eq!(missing_quote.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing_quote.stdout).contains(WATER));

    let d = dir.clone();
    let table = tokio::task::spawn_blocking(move || {
        citecheck(&d)
            .args(["audit", "--claim", "boils", "--since", "1h"])
            .output()
            .expect("runs")
    })
    .await
    .expect("joined");
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(text.starts_with("    ID  TIME"), "{text}");
    assert!(text.contains("supported"), "{text}");

    let d = dir.clone();
    let csv = tokio::task::spawn_blocking(move || {
        citecheck(&d)
            .args(["audit", "--format", "csv", "--url", "nowhere"])
            .output()
            .expect("runs")
    })
    .await
    .expect("joined");
    // No matching rows: a header and nothing else.
    assert!(csv.status.success());
    let text = String::from_utf8_lossy(&csv.stdout);
    assert_eq!(text.lines().collect::<Vec<_>>().len(), 1, "{text}");
    assert!(text.starts_with("id,recorded_at,source,"), "{text}");
}

#[test]
fn replay_tells_a_missing_local_page_from_a_crawlbase_rid_without_a_token() {
    let dir = tempfile::tempdir().expect("temp dir");
    let local = citecheck(dir.path())
        .args(["replay", &"0".repeat(64)])
        .output()
        .expect("runs");
    assert_eq!(local.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&local.stderr).contains("not in the evidence store"));

    // Only a Crawlbase user is told about the token (the default fetcher has no such rids).
    let remote = citecheck(dir.path())
        .args(["--fetcher", "crawlbase", "replay", "rid-from-crawlbase"])
        .output()
        .expect("runs");
    assert_eq!(remote.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&remote.stderr).contains("CRAWLBASE_TOKEN"));
}

#[test]
fn a_verify_whose_audit_index_cannot_be_written_still_prints_its_verdict() {
    let dir = tempfile::tempdir().expect("temp dir");
    // A directory where the index file should be: opening it fails.
    std::fs::create_dir_all(dir.path().join("audit.sqlite3")).expect("dir");
    let out = citecheck(dir.path())
        .args(["verify", "--claim", WATER, "http://127.0.0.1:9/never"])
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let verdict: serde_json::Value = serde_json::from_str(&stdout).expect("the verdict on stdout");
    assert_eq!(verdict["overall"], "unreachable");
    assert!(String::from_utf8_lossy(&out.stderr).contains("audit"));
}

#[tokio::test]
async fn a_rid_not_kept_locally_is_read_from_crawlbase_storage() {
    use axum::extract::Query;
    use axum::routing::get;
    use std::collections::HashMap;

    let app = axum::Router::new().route(
        "/storage",
        get(|Query(q): Query<HashMap<String, String>>| async move {
            let known = q.get("token").map(String::as_str) == Some("replay-token")
                && q.get("rid").map(String::as_str) == Some("rid-77")
                && q.get("format").map(String::as_str) == Some("json");
            if known {
                (
                    axum::http::StatusCode::OK,
                    serde_json::json!({
                        "rid": "rid-77",
                        "url": "https://a.example/water",
                        "original_status": "200",
                        "body": format!("# Water\n\n{WATER}\n"),
                    })
                    .to_string(),
                )
            } else {
                (axum::http::StatusCode::NOT_FOUND, String::new())
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("binds");
    let api = format!("http://{}/", listener.local_addr().expect("address"));
    tokio::spawn(async move { axum::serve(listener, app).await });

    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path().to_path_buf();
    let out = tokio::task::spawn_blocking(move || {
        citecheck(&d)
            .env("CRAWLBASE_TOKEN", "replay-token")
            .env("CRAWLBASE_API_URL", &api)
            .args(["replay", "rid-77", "--quote", "boils at 100 degrees"])
            .output()
            .expect("runs")
    })
    .await
    .expect("joined");
    let page = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{page}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        page.contains("Water >>>boils at 100 degrees<<< Celsius"),
        "{page}"
    );
    assert!(!String::from_utf8_lossy(&out.stderr).contains("replay-token"));
}

/// An index at `path` as a citecheck knowing only the first `version` migrations left it, with
/// one row (claim "old claim").
fn old_index(path: &std::path::Path, version: usize) {
    let conn = rusqlite::Connection::open(path).expect("sqlite");
    for migration in &schema::MIGRATIONS[..version] {
        conn.execute_batch(migration).expect("an earlier migration");
    }
    conn.pragma_update(None, "user_version", version as i64)
        .expect("version");
    conn.execute(
        "INSERT INTO citations (recorded_at, source, claim, overall, url, label, confidence)
         VALUES ('2025-01-01T00:00:00Z', 'verify', 'old claim', 'supported',
                 'https://a.example/', 'supported', 0.9)",
        [],
    )
    .expect("old row");
}

#[tokio::test]
async fn an_index_from_an_older_citecheck_is_migrated_and_keeps_its_rows() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("audit.sqlite3");
    // The index as the first schema version left it, with one row.
    old_index(&path, 1);
    let store = AuditStore::open(&path).expect("migrates");
    let rows = store.query(AuditFilter::default()).await.expect("rows");
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].claim, "old claim");
    assert_eq!(rows[0].crawl_cost, None);
    let conn = rusqlite::Connection::open(&path).expect("sqlite");
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .expect("version");
    assert_eq!(version, schema::MIGRATIONS.len() as i64);
}

/// After an upgrade the reading commands read an index left by the previous citecheck: `audit`
/// migrates it instead of refusing it until some writing command has run.
#[test]
fn the_audit_command_reads_an_index_from_an_older_citecheck() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("audit.sqlite3");
    old_index(&path, schema::MIGRATIONS.len() - 1);
    let out = citecheck(dir.path())
        .args(["audit", "--format", "json", "--audit-db"])
        .arg(&path)
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("old claim"), "{stdout}");
    let conn = rusqlite::Connection::open(&path).expect("sqlite");
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .expect("version");
    assert_eq!(version, schema::MIGRATIONS.len() as i64);
}

/// Issue 11: a claim and a quote written to act (a spreadsheet formula, terminal escapes)
/// come out of `audit` inert in CSV and in the table, and exact in JSON.
#[tokio::test]
async fn hostile_text_is_inert_in_the_csv_and_the_table_and_exact_in_json() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = AuditStore::open(dir.path().join("audit.sqlite3")).expect("opens");
    let claim = "=HYPERLINK(\"http://evil.example\",\"x\")\u{1b}]0;owned\u{7}\u{1b}[2J";
    let mut hostile = verdict(claim);
    hostile.citations[0].evidence_quote = Some("@SUM(1+1)\u{202e}".into());
    hostile.citations[0].url = "-2+3".into();
    store
        .record(&hostile, &RunInfo::new("api"))
        .await
        .expect("recorded");
    let d = dir.path().to_path_buf();
    let run = move |format: &'static str| {
        let d = d.clone();
        tokio::task::spawn_blocking(move || {
            citecheck(&d)
                .args(["audit", "--format", format])
                .output()
                .expect("runs")
        })
    };
    let csv = run("csv").await.expect("joined");
    assert!(csv.status.success());
    let mut reader = csv::Reader::from_reader(csv.stdout.as_slice());
    let headers = reader.headers().expect("headers").clone();
    let column = |name: &str| headers.iter().position(|h| h == name).expect(name);
    for record in reader.records() {
        let record = record.expect("a record");
        for field in &record {
            assert!(
                !field.starts_with(['=', '+', '-', '@', '\t', '\r']),
                "an active cell: {field:?}"
            );
        }
        assert_eq!(&record[column("claim")], format!("'{claim}"));
    }

    let table = run("table").await.expect("joined");
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "{text:?}"
    );
    assert!(text.contains("\\u{1b}]0;owned\\u{7}"), "{text}");

    let json = run("json").await.expect("joined");
    let rows: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(rows[0]["claim"], claim);
}
