//! The PostgreSQL audit index read by `audit`, `replay --audit-id` and `report` exactly as the
//! SQLite one is (issue 15): the same claims verified by a worker into PostgreSQL and by a local
//! batch into SQLite give the same rows, the same replayed page and the same report; an index of
//! either kind written by a newer citecheck is refused with exit 3 by all three. Also the
//! `[queue]` config section's url. The PostgreSQL tests need the throwaway server
//! scripts/test.sh starts.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use crate::batch_support::write_input;
use crate::queue_support::*;

/// Runs the binary with `args` in `dir`; its stdout, after asserting success.
fn stdout_of(dir: &Path, args: &[&str]) -> String {
    let out = citecheck(dir).args(args).output().expect("runs");
    assert!(
        out.status.success(),
        "citecheck {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Audit rows as JSON, keyed by (claim id, cited URL).
fn rows_by_citation(json: &str) -> BTreeMap<(String, String), Value> {
    let rows: Vec<Value> = serde_json::from_str(json).expect("JSON rows");
    rows.into_iter()
        .map(|row| {
            let key = (
                row["claim_id"].as_str().unwrap_or_default().to_string(),
                row["url"].as_str().unwrap_or_default().to_string(),
            );
            (key, row)
        })
        .collect()
}

/// A report without its header line (which names the source and the time it was made).
fn without_header(html: &str) -> String {
    let start = html.find("<p class=\"meta\">").expect("a header");
    let end = start + html[start..].find("</p>").expect("closed");
    format!("{}{}", &html[..start], &html[end..])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replay_and_report_read_the_postgresql_index_as_they_read_sqlite() {
    let Some(url) = fresh_database().await else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    let site = slow_site(Duration::from_millis(10), Default::default()).await;
    let input = write_input(d, "facts.jsonl", &claims(&site, 4));

    // The batch verified by a worker (rows in PostgreSQL, pages in this evidence store) ...
    enqueue(d, &url, &input, "facts");
    let one_at_a_time = ["--until-empty", "--concurrency", "1"];
    let (status, stderr) = finish(worker(d, &url, &one_at_a_time), Duration::from_secs(120)).await;
    assert!(status.success(), "{stderr}");
    // ... and the same claims verified here, into the SQLite index.
    let input_path = input.to_str().expect("a UTF-8 path");
    stdout_of(d, &["batch", input_path, "--concurrency", "1"]);

    // `audit`: the same columns and values from both (ids and times aside).
    let pg = rows_by_citation(&stdout_of(
        d,
        &[
            "audit", "--queue", &url, "--run", "facts", "--format", "json", "--limit", "0",
        ],
    ));
    let sqlite = rows_by_citation(&stdout_of(
        d,
        &["audit", "--format", "json", "--limit", "0"],
    ));
    assert_eq!(pg.len(), 8, "two citations per claim");
    assert_eq!(
        pg.keys().collect::<Vec<_>>(),
        sqlite.keys().collect::<Vec<_>>()
    );
    for (key, row) in &pg {
        let local = &sqlite[key];
        for column in [
            "claim",
            "overall",
            "label",
            "reason",
            "confidence",
            "evidence_quote",
            "rid",
            "content_sha256",
            "evidence_url",
            "evidence_start",
            "evidence_end",
            "source",
        ] {
            assert_eq!(row[column], local[column], "{column} of {key:?}");
        }
    }

    // `replay --audit-id`: the same verdict's page, with the same quote highlighted.
    let key = ("c1".to_string(), format!("{site}/page/1"));
    let (pg_row, sqlite_row) = (&pg[&key], &sqlite[&key]);
    assert_eq!(pg_row["label"], "supported", "{pg_row}");
    let quote = pg_row["evidence_quote"].as_str().expect("a quote");
    let pg_id = pg_row["id"].to_string();
    let sqlite_id = sqlite_row["id"].to_string();
    let from_pg = stdout_of(d, &["replay", "--audit-id", &pg_id, "--queue", &url]);
    let from_sqlite = stdout_of(d, &["replay", "--audit-id", &sqlite_id]);
    assert!(from_pg.contains(&format!(">>>{quote}<<<")), "{from_pg}");
    assert_eq!(from_pg, from_sqlite);
    // A row the PostgreSQL index does not have is a usage error, as in SQLite.
    let missing = citecheck(d)
        .args(["replay", "--audit-id", "999999", "--queue", &url])
        .output()
        .expect("runs");
    assert_eq!(missing.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no audit row 999999"));

    // `report`: the same sections and figures; only the header names another source.
    let pg_report = stdout_of(
        d,
        &["report", "--queue", &url, "--run", "facts", "--out", "-"],
    );
    let sqlite_report = stdout_of(d, &["report", "--out", "-"]);
    let target = url.split('@').nth(1).expect("a host");
    assert!(
        pg_report.contains(&format!(
            "From audit index postgres://citecheck@{target}, run facts"
        )),
        "{}",
        &pg_report[..pg_report.len().min(2000)]
    );
    assert!(pg_report.contains("id=\"citation-precision\""));
    assert_eq!(without_header(&pg_report), without_header(&sqlite_report));
}

#[test]
fn the_config_files_queue_url_is_used_and_the_flag_overrides_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Two ports nothing listens on: which one the error names shows which URL was used.
    let free_port = || {
        std::net::TcpListener::bind("127.0.0.1:0")
            .expect("binds")
            .local_addr()
            .expect("addr")
            .port()
    };
    let (file_port, flag_port) = (free_port(), free_port());
    let config = dir.path().join("citecheck.toml");
    std::fs::write(
        &config,
        format!("[queue]\nurl = \"postgres://filed@127.0.0.1:{file_port}/q\"\n"),
    )
    .expect("config written");
    let status = |extra: &[&str]| {
        let out = citecheck(dir.path())
            .arg("--config")
            .arg(&config)
            .args(["batch", "status", "b"])
            .args(extra)
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(3));
        String::from_utf8_lossy(&out.stderr).to_string()
    };
    let from_file = status(&[]);
    assert!(
        from_file.contains(&format!("postgres://filed@127.0.0.1:{file_port}/q")),
        "{from_file}"
    );
    let flagged = format!("postgres://flagged@127.0.0.1:{flag_port}/q");
    let from_flag = status(&["--queue", &flagged]);
    assert!(from_flag.contains(&flagged), "{from_flag}");

    // A password in the config file is refused, and not repeated.
    std::fs::write(
        &config,
        "[queue]\nurl = \"postgres://filed:s3cret-pw@127.0.0.1/q\"\n",
    )
    .expect("config written");
    let refused = status(&[]);
    assert!(refused.contains("CITECHECK_QUEUE_URL"), "{refused}");
    assert!(!refused.contains("s3cret-pw"), "{refused}");
}

/// The three reading commands over whichever index `extra` selects; each exit code and stderr.
fn reading_commands(dir: &Path, extra: &[&str]) -> Vec<(Option<i32>, String)> {
    [
        &["audit"][..],
        &["replay", "--audit-id", "1"][..],
        &["report", "--out", "-"][..],
    ]
    .iter()
    .map(|command| {
        let out = citecheck(dir)
            .args(*command)
            .args(extra)
            .output()
            .expect("runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    })
    .collect()
}

#[test]
fn a_sqlite_index_from_a_newer_citecheck_exits_3_from_every_reading_command() {
    let dir = tempfile::tempdir().expect("temp dir");
    {
        let conn = rusqlite::Connection::open(dir.path().join("audit.sqlite3")).expect("sqlite");
        conn.pragma_update(None, "user_version", 99).expect("set");
    }
    for (code, stderr) in reading_commands(dir.path(), &[]) {
        assert_eq!(code, Some(3), "{stderr}");
        assert!(
            stderr.contains("schema version 99, newer than this citecheck knows"),
            "{stderr}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgresql_index_from_a_newer_citecheck_exits_3_from_every_reading_command() {
    let Some(url) = fresh_database().await else {
        return;
    };
    drop(
        citecheck::queue::Queue::open(&citecheck::queue::QueueUrl::parse(&url).expect("url"))
            .await
            .expect("migrated"),
    );
    connect(&url)
        .await
        .execute(
            "INSERT INTO citecheck_migrations (version) VALUES (999)",
            &[],
        )
        .await
        .expect("a future migration");
    let dir = tempfile::tempdir().expect("temp dir");
    let results = tokio::task::spawn_blocking(move || {
        let results = reading_commands(dir.path(), &["--queue", &url]);
        drop(dir);
        results
    })
    .await
    .expect("ran");
    for (code, stderr) in results {
        assert_eq!(code, Some(3), "{stderr}");
        assert!(
            stderr.contains("schema version 999, newer than this citecheck"),
            "{stderr}"
        );
    }
}
