//! The PostgreSQL queue (issue 15): enqueue idempotently, workers sharing a batch, a worker
//! killed mid-batch, a claim recorded exactly once even when its lease is lost, status and
//! export, and the errors that exit 3. Needs the throwaway server scripts/test.sh starts.

use std::collections::BTreeMap;
use std::time::Duration;

use citecheck::batch::input::InputRecord;
use citecheck::queue::{Queue, QueueUrl};
use citecheck::results::BatchResult;
use citecheck_core::{ClaimVerdict, Label, Reason, UrlVerdict};

use crate::batch_support::write_input;
use crate::queue_support::*;

/// Every claim id of `n` claims, each expected with two audit rows (its two URLs).
fn two_rows_each(n: u32) -> BTreeMap<String, i64> {
    (0..n).map(|i| (format!("c{i}"), 2)).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_workers_share_a_batch_and_verify_every_claim_exactly_once() {
    let Some(url) = fresh_database().await else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let site = slow_site(Duration::from_millis(150), Default::default()).await;
    let input = write_input(dir.path(), "facts.jsonl", &claims(&site, 20));

    let (stdout, stderr) = enqueue(dir.path(), &url, &input, "facts");
    assert_eq!(stdout.trim(), "facts", "the batch id is printed: {stderr}");
    assert!(stderr.contains("20 claims added"), "{stderr}");
    // The same file again adds nothing.
    let (_, stderr) = enqueue(dir.path(), &url, &input, "facts");
    assert!(
        stderr.contains("0 claims added, 20 already queued"),
        "{stderr}"
    );

    let flags = ["--until-empty", "--concurrency", "2"];
    let a = worker(dir.path(), &url, &flags);
    let b = worker(dir.path(), &url, &flags);
    let (status_a, err_a) = finish(a, Duration::from_secs(120)).await;
    let (status_b, err_b) = finish(b, Duration::from_secs(120)).await;
    assert!(status_a.success(), "{err_a}");
    assert!(status_b.success(), "{err_b}");

    let client = connect(&url).await;
    assert_eq!(audit_rows_per_claim(&client).await, two_rows_each(20));
    let rows = client
        .query(
            "SELECT finished_by, count(*) FROM citecheck_claims WHERE state = 'done' GROUP BY 1",
            &[],
        )
        .await
        .expect("claims");
    let done: i64 = rows.iter().map(|r| r.get::<_, i64>(1)).sum();
    assert_eq!(done, 20);
    assert_eq!(rows.len(), 2, "both workers took claims: {err_a}\n{err_b}");

    // The status and the exported reports cover the whole batch.
    let status = citecheck(dir.path())
        .args([
            "batch", "status", "facts", "--queue", &url, "--format", "json",
        ])
        .output()
        .expect("runs");
    assert!(status.status.success());
    let status: serde_json::Value = serde_json::from_slice(&status.stdout).expect("JSON status");
    assert_eq!(status["claims"]["done"], 20);
    assert_eq!(status["claims"]["total"], 20);
    assert_eq!(status["summary"]["precision"]["total"], 40);

    let (jsonl, csv, html) = (
        dir.path().join("out.jsonl"),
        dir.path().join("out.csv"),
        dir.path().join("out.html"),
    );
    let export = citecheck(dir.path())
        .args(["batch", "export", "facts", "--queue", &url])
        .arg("--jsonl")
        .arg(&jsonl)
        .arg("--out")
        .arg(&csv)
        .arg("--html")
        .arg(&html)
        .output()
        .expect("runs");
    assert!(
        export.status.success(),
        "{}",
        String::from_utf8_lossy(&export.stderr)
    );
    let ids = crate::batch_support::result_ids(&jsonl);
    assert_eq!(ids, (0..20).map(|i| format!("c{i}")).collect::<Vec<_>>());
    let csv = std::fs::read_to_string(&csv).expect("csv");
    assert_eq!(csv.lines().count(), 41, "a header and one row per citation");
    assert!(std::fs::read_to_string(&html)
        .expect("html")
        .contains("<html"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_killed_mid_batch_leaves_its_claims_to_another_after_the_lease() {
    let Some(url) = fresh_database().await else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let site = slow_site(Duration::from_millis(400), Default::default()).await;
    let input = write_input(dir.path(), "facts.jsonl", &claims(&site, 12));
    enqueue(dir.path(), &url, &input, "facts");
    let client = connect(&url).await;

    let mut doomed = worker(dir.path(), &url, &["--concurrency", "3", "--lease", "2"]);
    // Wait until it holds claims (and has finished at least one).
    let start = std::time::Instant::now();
    loop {
        let row = client
            .query_one(
                "SELECT count(*) FILTER (WHERE state = 'pending' AND lease_owner IS NOT NULL),
                        count(*) FILTER (WHERE state = 'done')
                 FROM citecheck_claims",
                &[],
            )
            .await
            .expect("counts");
        if row.get::<_, i64>(0) > 0 && row.get::<_, i64>(1) > 0 {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the worker never took claims"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // kill -9: no chance to give anything back.
    let killed = std::process::Command::new("kill")
        .args(["-9", &doomed.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let _ = doomed.wait();
    // What it held when it died (read after the kill: nothing can finish any more).
    let owner = format!("%-{}-%", doomed.id());
    let held: Vec<String> = client
        .query(
            "SELECT id FROM citecheck_claims WHERE state = 'pending' AND lease_owner LIKE $1",
            &[&owner],
        )
        .await
        .expect("claims")
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert!(!held.is_empty(), "the killed worker held claims");

    let rescuer = worker(
        dir.path(),
        &url,
        &["--until-empty", "--concurrency", "3", "--lease", "2"],
    );
    let (status, stderr) = finish(rescuer, Duration::from_secs(120)).await;
    assert!(status.success(), "{stderr}");

    // Nothing lost, nothing doubled.
    assert_eq!(audit_rows_per_claim(&client).await, two_rows_each(12));
    let done: i64 = client
        .query_one(
            "SELECT count(*) FROM citecheck_claims WHERE state = 'done'",
            &[],
        )
        .await
        .expect("count")
        .get(0);
    assert_eq!(done, 12);
    // The claims the dead worker held were taken again, and finished by the other.
    for id in &held {
        let row = client
            .query_one(
                "SELECT attempts, finished_by FROM citecheck_claims WHERE id = $1",
                &[id],
            )
            .await
            .expect("claim");
        let attempts: i32 = row.get(0);
        assert!(attempts >= 2, "claim {id} was taken {attempts} time(s)");
        let by: String = row.get(1);
        assert!(
            !by.contains(&format!("-{}-", doomed.id())),
            "claim {id} finished by {by}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_per_host_limit_holds_across_all_workers() {
    let Some(url) = fresh_database().await else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let in_flight = std::sync::Arc::new(InFlight::default());
    let site = slow_site(
        Duration::from_millis(100),
        std::sync::Arc::clone(&in_flight),
    )
    .await;
    let input = write_input(dir.path(), "facts.jsonl", &claims(&site, 10));
    enqueue(dir.path(), &url, &input, "facts");

    // Each worker alone would fetch up to 4 pages of this host at once; together, 2 at most.
    let flags = ["--until-empty", "--concurrency", "4", "--per-host", "2"];
    let a = worker(dir.path(), &url, &flags);
    let b = worker(dir.path(), &url, &flags);
    let (status_a, err_a) = finish(a, Duration::from_secs(120)).await;
    let (status_b, err_b) = finish(b, Duration::from_secs(120)).await;
    assert!(status_a.success() && status_b.success(), "{err_a}\n{err_b}");
    let max = in_flight.max.load(std::sync::atomic::Ordering::SeqCst);
    assert_eq!(max, 2, "fetches at once on the one host, over both workers");
    let client = connect(&url).await;
    assert_eq!(audit_rows_per_claim(&client).await, two_rows_each(10));
}

fn record(id: &str) -> InputRecord {
    InputRecord {
        line: 1,
        id: id.to_string(),
        claim: "Water boils at 100 degrees Celsius.".to_string(),
        urls: vec!["http://127.0.0.1:9/water".to_string()],
    }
}

fn result(id: &str) -> BatchResult {
    BatchResult {
        id: id.to_string(),
        verdict: ClaimVerdict {
            claim: "Water boils at 100 degrees Celsius.".to_string(),
            overall: Label::NotFound,
            citations: vec![UrlVerdict::without_judge(
                "http://127.0.0.1:9/water",
                Label::NotFound,
                Reason::Timeout,
            )],
        },
    }
}

#[tokio::test]
async fn a_claim_whose_lease_ran_out_is_recorded_once_by_the_worker_that_took_it_again() {
    let Some(url) = fresh_database().await else {
        return;
    };
    let queue = Queue::open(&QueueUrl::parse(&url).expect("url"))
        .await
        .expect("queue");
    queue
        .enqueue("b", "test", &[record("x")])
        .await
        .expect("enqueued");
    let short = Duration::from_millis(100);
    let first = queue.take("slow", short, None, 5).await.expect("taken");
    assert_eq!(first.len(), 1);
    // Held: nobody else gets it.
    assert!(queue
        .take("fast", short, None, 5)
        .await
        .expect("take")
        .is_empty());
    tokio::time::sleep(Duration::from_millis(250)).await;
    let second = queue
        .take("fast", short, None, 5)
        .await
        .expect("taken again");
    assert_eq!(second.len(), 1, "an expired lease is taken again");

    // The slow worker's late result is refused; the one holding the lease records it.
    assert!(!queue
        .finish("slow", &first[0], &result("x"))
        .await
        .expect("finish"));
    assert!(queue
        .finish("fast", &second[0], &result("x"))
        .await
        .expect("finish"));
    assert!(!queue
        .finish("fast", &second[0], &result("x"))
        .await
        .expect("finish"));
    let client = connect(&url).await;
    assert_eq!(
        audit_rows_per_claim(&client).await,
        BTreeMap::from([("x".to_string(), 1)])
    );

    // `citecheck audit --queue` lists the PostgreSQL rows with the SQLite index's columns and
    // filters (the claim match is case-insensitive in both).
    let dir = tempfile::tempdir().expect("temp dir");
    let listed = citecheck(dir.path())
        .args(["audit", "--queue", &url, "--format", "json", "--run", "b"])
        .args(["--claim", "WATER BOILS", "--reason", "timeout"])
        .output()
        .expect("runs");
    assert!(
        listed.status.success(),
        "{}",
        String::from_utf8_lossy(&listed.stderr)
    );
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&listed.stdout).expect("JSON rows");
    assert_eq!(rows.len(), 1);
    let columns: Vec<&str> = rows[0]
        .as_object()
        .expect("a row")
        .keys()
        .map(String::as_str)
        .collect();
    let mut expected = citecheck::audit::COLUMN_NAMES.to_vec();
    expected.sort_unstable();
    let mut columns = columns;
    columns.sort_unstable();
    assert_eq!(columns, expected);
    assert_eq!(rows[0]["claim_id"], "x");
    assert_eq!(rows[0]["source"], "batch");
    let none = citecheck(dir.path())
        .args([
            "audit",
            "--queue",
            &url,
            "--format",
            "json",
            "--label",
            "supported",
        ])
        .output()
        .expect("runs");
    assert_eq!(
        serde_json::from_slice::<Vec<serde_json::Value>>(&none.stdout)
            .expect("JSON")
            .len(),
        0
    );

    // --retry-failed queues again the claim whose fetch failed, with its old verdict.
    assert_eq!(queue.requeue_failed("b").await.expect("requeued"), 1);
    let retried = queue.take("fast", short, None, 5).await.expect("taken");
    assert_eq!(retried.len(), 1);
    assert!(retried[0].previous.is_some(), "the old verdict comes along");
}

#[test]
fn an_unreachable_queue_exits_3_without_showing_the_password() {
    let dir = tempfile::tempdir().expect("temp dir");
    // A port nothing listens on (bound, then released).
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("binds")
        .local_addr()
        .expect("addr")
        .port();
    let url = format!("postgres://alice:s3cret-pw@127.0.0.1:{port}/db");
    let out = citecheck(dir.path())
        .args(["worker", "--queue", &url])
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("cannot reach the queue at postgres://alice@127.0.0.1"),
        "{stderr}"
    );
    assert!(!stderr.contains("s3cret-pw"), "{stderr}");
}

#[tokio::test]
async fn a_queue_with_a_newer_schema_is_refused_with_exit_3() {
    let Some(url) = fresh_database().await else {
        return;
    };
    drop(
        Queue::open(&QueueUrl::parse(&url).expect("url"))
            .await
            .expect("migrated"),
    );
    let client = connect(&url).await;
    client
        .execute(
            "INSERT INTO citecheck_migrations (version) VALUES (999)",
            &[],
        )
        .await
        .expect("a future migration");
    let dir = tempfile::tempdir().expect("temp dir");
    let out = citecheck(dir.path())
        .args(["batch", "status", "any", "--queue", &url])
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("schema version 999, newer than this citecheck"),
        "{stderr}"
    );
}
