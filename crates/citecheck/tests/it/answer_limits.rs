//! The answer limits are one setting: lowered in a config file (or the environment), the same
//! bound refuses the answer on the command line (exit 3) and in a real `citecheck serve`
//! (422, in `/verify`'s error shape).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use predicates::str::contains;

/// The Markdown fixture: four cited statements (its URLs are never fetched: the limit refuses
/// the answer first).
fn four_statements() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/answers/markdown.md");
    std::fs::read_to_string(path)
        .expect("fixture")
        .replace("{{SITE}}", "http://127.0.0.1:9")
}

fn config_file(dir: &Path) -> PathBuf {
    let path = dir.join("citecheck.toml");
    std::fs::write(&path, "[answer]\nmax_statements = 3\n").expect("write");
    path
}

fn citecheck(dir: &Path) -> std::process::Command {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("citecheck"));
    cmd.current_dir(dir)
        .env("HOME", dir)
        .env("CITECHECK_RANKER", "lexical")
        .env("CITECHECK_NO_AUDIT", "1")
        .env_remove("CITECHECK_LISTEN")
        .env_remove("CITECHECK_MAX_ANSWER_CHARS")
        .env_remove("CITECHECK_MAX_ANSWER_STATEMENTS")
        .env_remove("JUDGE_PROVIDER");
    cmd
}

#[test]
fn a_lowered_answer_limit_refuses_the_answer_on_the_command_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = config_file(dir.path());
    let answer = dir.path().join("answer.md");
    std::fs::write(&answer, four_statements()).expect("write");
    Command::from_std(citecheck(dir.path()))
        .arg("--config")
        .arg(&config)
        .arg("answer")
        .arg(&answer)
        .assert()
        .code(3)
        .stderr(contains(
            "holds 4 cited statements; the limit is 3 per answer",
        ));
    // The environment lowers the size bound the same way.
    Command::from_std(citecheck(dir.path()))
        .env("CITECHECK_MAX_ANSWER_CHARS", "40")
        .arg("answer")
        .arg(&answer)
        .assert()
        .code(3)
        .stderr(contains("characters long; the limit is 40"));
    // At the default bounds the same answer is verified (exit 2: not all supported).
    Command::from_std(citecheck(dir.path()))
        .args(["--allow-private-hosts", "--timeout", "2", "answer"])
        .arg(&answer)
        .assert()
        .code(2);
}

#[test]
fn a_lowered_answer_limit_refuses_the_answer_in_the_service() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = config_file(dir.path());
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("a free port")
        .local_addr()
        .expect("address")
        .port();
    let mut child = citecheck(dir.path())
        .env("CITECHECK_MAX_ANSWER_CHARS", "5000")
        .arg("--config")
        .arg(&config)
        .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("serve starts");
    let deadline = Instant::now() + Duration::from_secs(120);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = child.try_wait() {
            panic!("serve exited with {status}");
        }
        assert!(Instant::now() < deadline, "serve never listened");
        std::thread::sleep(Duration::from_millis(100));
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let post = |path: &str, body: serde_json::Value| {
        runtime.block_on(async {
            let response = reqwest::Client::new()
                .post(format!("http://127.0.0.1:{port}{path}"))
                .json(&body)
                .send()
                .await
                .expect("the server answers");
            let status = response.status().as_u16();
            (
                status,
                response.json::<serde_json::Value>().await.expect("JSON"),
            )
        })
    };
    let (status, body) = post(
        "/verify-answer",
        serde_json::json!({"answer": four_statements()}),
    );
    let (long_status, long) = post(
        "/verify-answer",
        serde_json::json!({"answer": "x".repeat(5001)}),
    );
    // The shape /verify refuses a claim with.
    let (_, verify) = post(
        "/verify",
        serde_json::json!({"claim": "", "urls": ["https://a.example/"]}),
    );
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["error"]["code"], "too_many_statements", "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("holds 4 cited statements; the limit is 3 per answer")),
        "{body}"
    );
    assert_eq!(long_status, 422, "{long}");
    assert_eq!(long["error"]["code"], "answer_too_long", "{long}");
    let keys = |v: &serde_json::Value| -> Vec<String> {
        let mut keys: Vec<String> = v["error"]
            .as_object()
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default();
        keys.sort();
        keys
    };
    assert_eq!(keys(&body), keys(&verify), "{body} vs {verify}");
}
