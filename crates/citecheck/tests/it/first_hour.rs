//! What a new user meets in the first hour (issue 16): the built binary given wrong or empty
//! input, each time checked for a message that names the problem and the documented exit code
//! (3 for a usage or input error), and for leaving nothing behind on disk.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;

/// The binary in a throwaway home: lexical ranker, no audit index unless a test names one, no
/// provider key or Crawlbase token inherited from the environment.
fn citecheck(home: &Path) -> Command {
    let mut cmd = Command::cargo_bin("citecheck").expect("binary built");
    cmd.current_dir(home)
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_CACHE_HOME", home.join("cache"))
        .env("CITECHECK_RANKER", "lexical")
        .env("CITECHECK_NO_AUDIT", "1")
        .env_remove("CITECHECK_AUDIT_DB")
        .env_remove("CITECHECK_EVIDENCE_DIR")
        .env_remove("FETCHER")
        .env_remove("CRAWLBASE_TOKEN")
        .env_remove("CRAWLBASE_JS_TOKEN")
        .env_remove("JUDGE_PROVIDER")
        .env_remove("OPENAI_API_KEY")
        .env_remove("CITECHECK_ALLOW_PRIVATE_HOSTS")
        .env_remove("CITECHECK_ALLOW_HOSTS")
        .env_remove("RUST_LOG");
    cmd
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("written");
    path
}

/// A claim whose only citation is on loopback: refused by the address guard, no network used.
const LOOPBACK_CLAIM: &str =
    "{\"id\": \"1\", \"claim\": \"Water boils at 100 degrees.\", \"urls\": [\"http://127.0.0.1:9/\"]}\n";

#[test]
fn batch_on_an_empty_file_is_a_usage_error_and_writes_no_output() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "empty.jsonl", "");
    citecheck(dir.path())
        .args(["batch", "empty.jsonl", "--out", "out.csv"])
        .assert()
        .code(3)
        .stderr(contains("empty.jsonl holds no claims (it is empty)"))
        .stderr(contains("unreachable").not());
    assert!(!dir.path().join("out.csv").exists());
}

#[test]
fn batch_on_a_file_with_no_valid_line_quotes_the_first_bad_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "bad.jsonl", "garbage\n\n{\"id\": 1}\n");
    citecheck(dir.path())
        .args(["batch", "bad.jsonl", "--jsonl", "out.jsonl"])
        .assert()
        .code(3)
        .stderr(contains(
            "no line of the batch input bad.jsonl is a usable claim",
        ))
        .stderr(contains("line 1: invalid JSON"))
        .stderr(contains("every citation was unreachable").not());
    assert!(!dir.path().join("out.jsonl").exists());
}

#[test]
fn batch_on_a_directory_names_it_and_leaves_no_header_only_output() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join("claims")).expect("dir");
    citecheck(dir.path())
        .args(["batch", "claims", "--out", "out.csv"])
        .assert()
        .code(3)
        .stderr(contains("the batch input claims is a directory"));
    assert!(!dir.path().join("out.csv").exists());
}

#[test]
fn a_missing_input_is_the_same_usage_error_for_batch_and_report() {
    let dir = tempfile::tempdir().expect("temp dir");
    citecheck(dir.path())
        .args(["batch", "nowhere.jsonl", "--out", "out.csv"])
        .assert()
        .code(3)
        .stderr(contains("nowhere.jsonl"));
    assert!(!dir.path().join("out.csv").exists());
    citecheck(dir.path())
        .args(["report", "--results", "nowhere.jsonl", "--out", "r.html"])
        .assert()
        .code(3)
        .stderr(contains("nowhere.jsonl"));
    assert!(!dir.path().join("r.html").exists());
}

#[test]
fn report_given_a_batch_input_file_says_so_once_and_writes_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "claims.jsonl", LOOPBACK_CLAIM);
    let out = citecheck(dir.path())
        .args(["report", "--results", "claims.jsonl", "--out", "r.html"])
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("looks like a batch input file"), "{stderr}");
    assert!(stderr.contains("--jsonl"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(!dir.path().join("r.html").exists());
}

#[test]
fn quiet_silences_report_written_and_without_it_the_path_is_named() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "claims.jsonl", LOOPBACK_CLAIM);
    citecheck(dir.path())
        .args([
            "-q",
            "batch",
            "claims.jsonl",
            "--jsonl",
            "results.jsonl",
            "--html",
            "b.html",
        ])
        .assert()
        .code(0)
        .stderr("");
    assert!(dir.path().join("b.html").exists());
    citecheck(dir.path())
        .args([
            "-q",
            "report",
            "--results",
            "results.jsonl",
            "--out",
            "r.html",
        ])
        .assert()
        .code(0)
        .stderr("");
    assert!(dir.path().join("r.html").exists());
    citecheck(dir.path())
        .args(["report", "--results", "results.jsonl", "--out", "r2.html"])
        .assert()
        .code(0)
        .stderr(contains("report written to r2.html"));
}

#[test]
fn a_blocked_address_says_how_to_allow_it_in_text_and_in_the_detail() {
    let dir = tempfile::tempdir().expect("temp dir");
    let args = [
        "verify",
        "--claim",
        "Water boils at 100 degrees.",
        "http://127.0.0.1:9/",
    ];
    citecheck(dir.path())
        .args(args)
        .args(["--format", "text"])
        .assert()
        .stdout(contains("[blocked_address]"))
        .stdout(contains("--allow-private-hosts"))
        .stdout(contains("--allow-host"));
    let out = citecheck(dir.path()).args(args).output().expect("runs");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let detail = json["citations"][0]["detail"].as_str().expect("a detail");
    assert!(detail.contains("--allow-private-hosts"), "{detail}");
    assert!(detail.contains("--allow-host"), "{detail}");
}

#[test]
fn replay_of_a_nonsense_rid_checks_its_shape_skips_crawlbase_and_creates_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let evidence = dir.path().join("evidence");
    for rid in ["nonsense", "../etc/passwd", "has space"] {
        citecheck(dir.path())
            .env("CITECHECK_EVIDENCE_DIR", &evidence)
            .args(["replay", rid])
            .assert()
            .code(3)
            .stderr(contains("is not a rid"))
            .stderr(contains("CRAWLBASE_TOKEN").not());
    }
    assert!(!evidence.exists(), "replay created the evidence store");
    // With Crawlbase chosen, a Crawlbase-shaped rid still asks for the token.
    citecheck(dir.path())
        .env("CITECHECK_EVIDENCE_DIR", &evidence)
        .args(["--fetcher", "crawlbase", "replay", "rid-from-crawlbase"])
        .assert()
        .code(3)
        .stderr(contains("CRAWLBASE_TOKEN"));
    assert!(!evidence.exists(), "replay created the evidence store");
}

#[test]
fn audit_on_a_zero_byte_file_says_it_is_not_an_audit_index() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "empty.sqlite3", "");
    citecheck(dir.path())
        .args(["--audit-db", "empty.sqlite3", "audit"])
        .assert()
        .code(1)
        .stderr(contains("empty.sqlite3 is not a citecheck audit index"))
        .stderr(contains("schema version").not());
}

#[test]
fn model_info_without_the_model_names_model_fetch() {
    let dir = tempfile::tempdir().expect("temp dir");
    citecheck(dir.path())
        .args(["--model-dir", "model", "model", "info"])
        .assert()
        .code(1)
        .stdout(contains("status: incomplete"))
        .stderr(contains("citecheck model fetch"));
}

#[test]
fn serve_accepts_a_host_name_in_listen() {
    let dir = tempfile::tempdir().expect("temp dir");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("a free port")
        .local_addr()
        .expect("address")
        .port();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("citecheck"))
        .current_dir(dir.path())
        .env("HOME", dir.path())
        .env("CITECHECK_RANKER", "lexical")
        .env("CITECHECK_NO_AUDIT", "1")
        .env_remove("CITECHECK_LISTEN")
        .env_remove("JUDGE_PROVIDER")
        .args(["serve", "--listen", &format!("localhost:{port}")])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("serve starts");
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut listening = false;
    while Instant::now() < deadline {
        if let Ok(Some(status)) = child.try_wait() {
            panic!("serve exited with {status}");
        }
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            listening = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(listening, "serve never listened on localhost:{port}");
}

#[test]
fn warnings_are_json_lines_when_stderr_is_not_a_terminal() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "claims.jsonl", LOOPBACK_CLAIM);
    let out = citecheck(dir.path())
        .args(["batch", "claims.jsonl"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let line = stderr
        .lines()
        .find(|line| line.contains("only the summary will be kept"))
        .unwrap_or_else(|| panic!("no warning in {stderr}"));
    let event: serde_json::Value = serde_json::from_str(line).expect("a JSON log line");
    assert_eq!(event["level"], "WARN");
    assert!(!stderr.contains(" WARN "), "{stderr}");
}

#[test]
fn subcommand_help_shows_its_own_options_before_the_global_ones() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = citecheck(dir.path())
        .args(["batch", "--help"])
        .output()
        .expect("runs");
    let help = String::from_utf8_lossy(&out.stdout);
    let own = help.find("--resume").expect("batch's own option");
    let heading = help
        .find("Global options:")
        .expect("a heading for global options");
    let global = help.find("--judge-model").expect("a global option");
    assert!(own < heading && heading < global, "{help}");
    let fetcher = &help[help.find("--fetcher").expect("--fetcher")..];
    assert!(fetcher[..400].contains("direct") && fetcher[..400].contains("crawlbase"));
}

#[test]
fn the_demo_ends_with_its_score_the_stages_that_ran_and_what_to_try_next() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = citecheck(dir.path()).args(["demo"]).output().expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let total = citecheck::demo::EXAMPLES.len();
    assert!(
        stdout.contains(&format!(
            "{total} of {total} examples got their expected label"
        )),
        "{stdout}"
    );
    assert!(stdout.contains("judge: local"), "{stdout}");
    assert!(stdout.contains("ranker: lexical"), "{stdout}");
    assert!(
        stdout.contains("Next:") && stdout.contains("citecheck verify"),
        "{stdout}"
    );
}
