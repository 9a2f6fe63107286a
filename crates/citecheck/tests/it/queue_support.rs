//! Shared pieces of the PostgreSQL queue tests: the throwaway server's URL (started by
//! scripts/pg-test-server.sh, which scripts/test.sh runs), one fresh database per test, a slow
//! fixture site on 127.0.0.1, and worker processes of the built binary.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::Path as UrlPath;
use axum::response::Html;
use axum::routing::get;

use crate::batch_support::article;

/// The variable scripts/test.sh exports with the throwaway server's URL.
pub const PG_URL_VAR: &str = "CITECHECK_TEST_PG_URL";

/// The server's URL. Without it: a failure under CI (these tests must run there), and outside
/// CI a skip that says how to run them.
pub fn server_url() -> Option<String> {
    match std::env::var(PG_URL_VAR) {
        Ok(url) if !url.is_empty() => Some(url),
        _ if std::env::var("CI").is_ok_and(|ci| ci == "true") => panic!(
            "{PG_URL_VAR} is not set: scripts/test.sh starts PostgreSQL with scripts/pg-test-server.sh"
        ),
        _ => {
            eprintln!(
                "skipped: no PostgreSQL; run `eval \"$(scripts/pg-test-server.sh start)\"` first \
                 (scripts/test.sh does)"
            );
            None
        }
    }
}

/// A new, empty database on the test server; its URL.
pub async fn fresh_database() -> Option<String> {
    let server = server_url()?;
    let (client, connection) = tokio_postgres::connect(&server, tokio_postgres::NoTls)
        .await
        .expect("the test PostgreSQL answers");
    tokio::spawn(connection);
    let name = format!("citecheck_{}", uuid::Uuid::new_v4().simple());
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .await
        .expect("database created");
    let mut url = url::Url::parse(&server).expect("a URL");
    url.set_path(&format!("/{name}"));
    Some(url.to_string())
}

/// A client on `url`, for the tests' own queries.
pub async fn connect(url: &str) -> tokio_postgres::Client {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .expect("connects");
    tokio::spawn(connection);
    client
}

/// Requests a site is answering now, and the most it ever answered at once.
#[derive(Default)]
pub struct InFlight {
    now: AtomicUsize,
    pub max: AtomicUsize,
}

/// A site on 127.0.0.1 whose `/page/N` answers after `delay` with an article saying
/// "Fact number N is true."; `in_flight` counts the requests it serves at once.
pub async fn slow_site(delay: Duration, in_flight: Arc<InFlight>) -> String {
    let app = axum::Router::new().route(
        "/page/{n}",
        get(move |UrlPath(n): UrlPath<u32>| async move {
            let now = in_flight.now.fetch_add(1, Ordering::SeqCst) + 1;
            in_flight.max.fetch_max(now, Ordering::SeqCst);
            tokio::time::sleep(delay).await;
            in_flight.now.fetch_sub(1, Ordering::SeqCst);
            Html(format!(
                "<html><head><title>Fact {n}</title></head><body><main><article>{}</article></main></body></html>",
                article(&fact(n))
                    .split("\n\n")
                    .skip(1)
                    .map(|p| format!("<p>{p}</p>"))
                    .collect::<String>()
            ))
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("binds");
    let addr = listener.local_addr().expect("address");
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{addr}")
}

pub fn fact(n: u32) -> String {
    format!("Fact number {n} is true according to the survey.")
}

/// `n` claims, claim i citing `/page/i` and `/page/{i+1}`.
pub fn claims(base: &str, n: u32) -> Vec<String> {
    (0..n)
        .map(|i| {
            crate::batch_support::record(
                &format!("c{i}"),
                &fact(i),
                &[
                    &format!("{base}/page/{i}"),
                    &format!("{base}/page/{}", i + 1),
                ],
            )
        })
        .collect()
}

/// The binary with the offline pipeline and stores in `dir`, as a std command (for workers run
/// side by side and killed).
pub fn citecheck(dir: &Path) -> Command {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("citecheck"));
    cmd.env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", dir)
        .env("CITECHECK_AUDIT_DB", dir.join("audit.sqlite3"))
        .env("CITECHECK_EVIDENCE_DIR", dir.join("evidence"))
        .env("CITECHECK_ALLOW_PRIVATE_HOSTS", "1")
        .env("NO_COLOR", "1")
        .args(["--ranker", "lexical", "--judge", "local", "--quiet"]);
    cmd
}

/// Enqueues `input` as batch `batch`; returns (stdout, stderr).
pub fn enqueue(dir: &Path, url: &str, input: &Path, batch: &str) -> (String, String) {
    let out = citecheck(dir)
        .args(["batch"])
        .arg(input)
        .args(["--queue", url, "--batch-id", batch])
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "enqueue failed: {stderr}");
    (stdout, stderr)
}

/// A worker process on `url` with `extra` flags.
pub fn worker(dir: &Path, url: &str, extra: &[&str]) -> Child {
    citecheck(dir)
        .args(["worker", "--queue", url])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("worker starts")
}

/// Waits for `child` (at most `limit`); its exit status and stderr.
pub async fn finish(mut child: Child, limit: Duration) -> (std::process::ExitStatus, String) {
    let start = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("waits") {
            let out = child.wait_with_output().expect("output");
            return (status, String::from_utf8_lossy(&out.stderr).to_string());
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().expect("output");
            panic!(
                "worker still running after {limit:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Audit rows per claim id in the PostgreSQL index.
pub async fn audit_rows_per_claim(
    client: &tokio_postgres::Client,
) -> std::collections::BTreeMap<String, i64> {
    client
        .query(
            "SELECT claim_id, count(*) FROM citecheck_citations GROUP BY claim_id",
            &[],
        )
        .await
        .expect("audit rows")
        .into_iter()
        .map(|row| (row.get::<_, String>(0), row.get::<_, i64>(1)))
        .collect()
}
