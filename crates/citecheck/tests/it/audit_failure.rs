//! An audit index that refuses to write (README, "Batches, the audit index, replay and
//! reports"). `citecheck serve`, as a process: the verdict is still answered, without audit ids;
//! the failure is logged (by id) and counted in `citecheck_audit_rows_failed`; rows committed
//! before stay; once the index accepts rows again the service records as before, and nothing
//! panics. `citecheck batch`: every result reaches the outputs, the rows the index took stay,
//! and the run ends with exit 1 and an error saying what is missing. `citecheck verify`: the
//! verdict is printed whole, then exit 1 with an error naming the index and the cause.
//!
//! The index refuses for real: SQLite triggers that `RAISE(ABORT)`, installed and dropped from a
//! second connection, at each of the two places a writer touches: the id reservation
//! (`id_reservations`) and the rows themselves (`citations`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use citecheck::audit::AuditStore;
use citecheck::static_site::StaticSite;

use crate::batch_support::{run_binary, SampleSite};

const WATER: &str = "Water boils at 100 degrees Celsius at sea level.";

const REFUSE_RESERVATIONS: &str = "CREATE TRIGGER refuse_reservations
    BEFORE UPDATE ON id_reservations
    BEGIN SELECT RAISE(ABORT, 'id reservation refused by the test'); END;";

const REFUSE_ROWS: &str = "CREATE TRIGGER refuse_rows BEFORE INSERT ON citations
    BEGIN SELECT RAISE(ABORT, 'audit row refused by the test'); END;";

/// The service process, killed if the test ends before it exits.
struct Serving(Option<Child>);

impl Serving {
    fn child(&mut self) -> &mut Child {
        self.0.as_mut().expect("still running")
    }

    /// Sends SIGTERM and waits for the process to exit.
    async fn stop(mut self) -> std::process::ExitStatus {
        let mut child = self.0.take().expect("still running");
        let signalled = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(signalled.success());
        tokio::task::spawn_blocking(move || child.wait())
            .await
            .expect("joined")
            .expect("waited")
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        if let Some(child) = &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// `citecheck serve` on `port`, recording to `dir/audit.sqlite3`, its log going to `log`,
/// with nothing read from the user's environment.
fn serve(dir: &Path, port: u16, log: &Path) -> Serving {
    let log = std::fs::File::create(log).expect("log file");
    let child = Command::new(assert_cmd::cargo::cargo_bin("citecheck"))
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", dir)
        .env("CITECHECK_AUDIT_DB", dir.join("audit.sqlite3"))
        .env("CITECHECK_EVIDENCE_DIR", dir.join("evidence"))
        .env("CITECHECK_RANKER", "lexical")
        .env("JUDGE_PROVIDER", "local")
        .env("NO_COLOR", "1")
        .args([
            "--allow-private-hosts",
            "serve",
            "--listen",
            &format!("127.0.0.1:{port}"),
        ])
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .expect("serve starts");
    Serving(Some(child))
}

/// Waits until the service accepts connections (it opens its audit index before it listens).
async fn until_listening(serving: &mut Serving, port: u16) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        if let Ok(Some(status)) = serving.child().try_wait() {
            panic!("serve exited with {status}");
        }
        assert!(Instant::now() < deadline, "serve never listened");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A statement on the audit index from a second connection, as an operator or another process
/// would run it.
fn on_index(db: &Path, sql: &str) {
    rusqlite::Connection::open(db)
        .expect("a second connection to the index")
        .execute_batch(sql)
        .unwrap_or_else(|err| panic!("{sql}: {err}"));
}

/// The ids of the rows in the index.
fn stored_ids(db: &Path) -> BTreeSet<i64> {
    let conn = rusqlite::Connection::open(db).expect("sqlite");
    let mut statement = conn.prepare("SELECT id FROM citations").expect("prepare");
    let ids = statement
        .query_map([], |row| row.get(0))
        .expect("query")
        .map(|id| id.expect("an id"))
        .collect();
    ids
}

struct Service {
    base: String,
    client: reqwest::Client,
    urls: [String; 2],
}

impl Service {
    /// Verifies the water claim against the article and a dead link: asserts a 200 with the
    /// verdict, and returns the audit ids it names (none when the field is absent).
    async fn verify(&self) -> Vec<i64> {
        let response = self
            .client
            .post(format!("{}/verify", self.base))
            .json(&serde_json::json!({"claim": WATER, "urls": self.urls}))
            .send()
            .await
            .expect("the service answers");
        assert_eq!(response.status(), 200);
        let body: serde_json::Value = response.json().await.expect("JSON");
        assert_eq!(body["claim"], WATER, "{body}");
        assert_eq!(body["overall"], "supported", "{body}");
        assert_eq!(body["citations"][0]["label"], "supported", "{body}");
        assert_eq!(body["citations"][1]["reason"], "http_404", "{body}");
        match body.get("audit_ids") {
            None => Vec::new(),
            Some(ids) => ids
                .as_array()
                .unwrap_or_else(|| panic!("audit ids are a list: {body}"))
                .iter()
                .map(|id| id.as_i64().expect("an integer id"))
                .collect(),
        }
    }

    /// `citecheck_audit_rows_{which}_total` from `/metrics`.
    async fn audit_rows(&self, which: &str) -> u64 {
        let text = self
            .client
            .get(format!("{}/metrics", self.base))
            .send()
            .await
            .expect("the service answers")
            .text()
            .await
            .expect("text");
        let name = format!("citecheck_audit_rows_{which}_total ");
        text.lines()
            .find_map(|line| line.strip_prefix(&name))
            .unwrap_or_else(|| panic!("no {name} in\n{text}"))
            .trim()
            .parse()
            .expect("a count")
    }
}

/// The service's JSON log lines with `message`.
fn logged(log: &str, message: &str) -> Vec<serde_json::Value> {
    log.lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|event| event["message"] == message)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_audit_write_still_answers_the_verdict_counts_the_rows_and_loses_nothing_committed(
) {
    let dir = tempfile::tempdir().expect("temp dir");
    let site = StaticSite::serve(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("demo"))
        .await
        .expect("fixture site");
    let site_base = site.base_url().trim_end_matches('/').to_string();
    let db = dir.path().join("audit.sqlite3");
    let log = dir.path().join("serve.log");
    let port = free_port();
    let mut serving = serve(dir.path(), port, &log);
    until_listening(&mut serving, port).await;
    let service = Service {
        base: format!("http://127.0.0.1:{port}"),
        client: reqwest::Client::builder()
            .no_proxy()
            .build()
            .expect("client"),
        urls: [
            format!("{site_base}/articles/water-boiling-point"),
            format!("{site_base}/old-report"),
        ],
    };

    // 1. No id can be reserved: the verdict comes without ids, its rows are counted as failed.
    on_index(&db, REFUSE_RESERVATIONS);
    assert_eq!(service.verify().await, Vec::<i64>::new());
    assert_eq!(service.audit_rows("failed").await, 2);
    assert_eq!(service.audit_rows("written").await, 0);
    assert!(stored_ids(&db).is_empty());

    // 2. The index takes ids again: the next verdict is recorded under the ids it names.
    on_index(&db, "DROP TRIGGER refuse_reservations;");
    let first = service.verify().await;
    assert_eq!(first.len(), 2, "one id per citation");
    assert_eq!(stored_ids(&db), first.iter().copied().collect());
    assert_eq!(service.audit_rows("written").await, 2);

    // 3. The rows themselves are refused (ids come from the block already reserved).
    on_index(&db, REFUSE_ROWS);
    assert_eq!(service.verify().await, Vec::<i64>::new());
    assert_eq!(service.audit_rows("failed").await, 4);
    assert_eq!(service.audit_rows("written").await, 2);
    assert_eq!(
        stored_ids(&db),
        first.iter().copied().collect(),
        "rows committed before the failure are still there"
    );

    // 4. Writable again: recorded as before. The refused verdict's ids are never reused.
    on_index(&db, "DROP TRIGGER refuse_rows;");
    let last = service.verify().await;
    assert_eq!(last.len(), 2, "one id per citation");
    let refused = [first[1] + 1, first[1] + 2];
    assert_eq!(last, vec![first[1] + 3, first[1] + 4]);
    assert_eq!(
        stored_ids(&db),
        first.iter().chain(&last).copied().collect(),
        "every id answered is in the index, and nothing else"
    );
    assert_eq!(service.audit_rows("written").await, 4);
    assert_eq!(service.audit_rows("failed").await, 4);

    // A clean stop, and a log that names what failed and holds no panic.
    let status = serving.stop().await;
    assert!(status.success(), "serve exited with {status}");
    let log = std::fs::read_to_string(&log).expect("the service's log");
    assert!(!log.contains("panicked"), "{log}");
    let reservations = logged(
        &log,
        "audit row ids could not be reserved; the verdict's rows are not written",
    );
    assert_eq!(reservations.len(), 1, "{log}");
    assert!(
        reservations[0]["error"]
            .as_str()
            .is_some_and(|e| e.contains("id reservation refused by the test")),
        "{log}"
    );
    let writes = logged(&log, "audit rows could not be written");
    assert_eq!(writes.len(), 1, "{log}");
    assert_eq!(
        writes[0]["ids"],
        format!("{refused:?}"),
        "logged by id: {log}"
    );
    assert!(
        writes[0]["error"]
            .as_str()
            .is_some_and(|e| e.contains("audit row refused by the test")),
        "{log}"
    );
}

/// The sample batch (five claims, nine citations) with claim 2's rows refused by the index.
#[tokio::test]
async fn a_batch_whose_audit_rows_are_refused_keeps_every_result_and_fails_saying_so() {
    let sample = SampleSite::start().await;
    let db = sample.path("audit.sqlite3");
    drop(AuditStore::open(&db).expect("the index is created"));
    on_index(
        &db,
        "CREATE TRIGGER refuse_claim_2 BEFORE INSERT ON citations WHEN NEW.claim_id = '2'
         BEGIN SELECT RAISE(ABORT, 'audit row refused by the test'); END;",
    );
    let (csv, jsonl) = (sample.path("report.csv"), sample.path("results.jsonl"));
    let out = run_binary(
        sample.dir.path(),
        vec![
            "batch".into(),
            sample.input.clone().into(),
            "--out".into(),
            csv.clone().into(),
            "--jsonl".into(),
            jsonl.clone().into(),
        ],
    )
    .await;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);

    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    let error = stderr
        .lines()
        .find(|line| line.starts_with("error: "))
        .unwrap_or_else(|| panic!("no error line in\n{stderr}"));
    for part in [
        "refused the rows of 1 claim(s), 2 citations in all, of run batch-",
        &db.display().to_string(),
        "audit row refused by the test",
        "every result is in the batch's outputs",
    ] {
        assert!(error.contains(part), "{part:?} not in {error}");
    }
    // The run went on: the summary covers every claim, and every result is written.
    assert!(
        stdout.contains("\ncitation_precision=0.2222 (2/9)\n"),
        "{stdout}"
    );
    let csv = std::fs::read_to_string(&csv).expect("csv");
    assert_eq!(csv.lines().count(), 1 + 9, "{csv}");
    let results: BTreeSet<String> = std::fs::read_to_string(&jsonl)
        .expect("jsonl")
        .lines()
        .map(|line| {
            let result: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            result["id"].as_str().expect("an id").to_string()
        })
        .collect();
    assert_eq!(results, ["1", "2", "3", "4", "5"].map(String::from).into());
    // The index holds every row but the refused claim's.
    let conn = rusqlite::Connection::open(&db).expect("sqlite");
    let mut statement = conn
        .prepare("SELECT claim_id, COUNT(*) FROM citations GROUP BY claim_id ORDER BY claim_id")
        .expect("prepare");
    let rows: Vec<(String, i64)> = statement
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
        .expect("query")
        .map(|row| row.expect("row"))
        .collect();
    let expected: Vec<(String, i64)> = [("1", 2), ("3", 1), ("4", 2), ("5", 2)]
        .map(|(id, n)| (id.to_string(), n))
        .into();
    assert_eq!(rows, expected);
}

/// `citecheck verify` with the index refusing every row: the verdict is printed whole, and the
/// run ends with exit 1 (not 0 or 2) and an error naming the index and why.
#[tokio::test]
async fn a_verify_whose_rows_are_refused_prints_the_verdict_and_fails_saying_so() {
    let sample = SampleSite::start().await;
    let db = sample.path("audit.sqlite3");
    drop(AuditStore::open(&db).expect("the index is created"));
    on_index(&db, REFUSE_ROWS);
    let url = format!("{}/water.html", sample.site.base_url());
    let out = run_binary(
        sample.dir.path(),
        vec![
            "verify".into(),
            "--judge".into(),
            "local".into(),
            "--ranker".into(),
            "lexical".into(),
            "--claim".into(),
            WATER.into(),
            url.clone().into(),
        ],
    )
    .await;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    let verdict: serde_json::Value = serde_json::from_str(&stdout).expect("the verdict as JSON");
    assert_eq!(verdict["overall"], "supported", "{stdout}");
    assert_eq!(verdict["citations"][0]["url"], url.as_str());
    let error = stderr
        .lines()
        .find(|line| line.starts_with("error: "))
        .unwrap_or_else(|| panic!("no error line in\n{stderr}"));
    for part in [
        "refused the verdict's 1 citation row(s) (",
        &db.display().to_string(),
        "audit row refused by the test",
        "the verdict printed above is complete",
    ] {
        assert!(error.contains(part), "{part:?} not in {error}");
    }
    let conn = rusqlite::Connection::open(&db).expect("sqlite");
    let rows: i64 = conn
        .query_row("SELECT COUNT(*) FROM citations", [], |row| row.get(0))
        .expect("count");
    assert_eq!(rows, 0);
}
