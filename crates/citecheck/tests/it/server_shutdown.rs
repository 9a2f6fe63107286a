//! `citecheck serve` as a process (issue 11): SIGTERM while pages are being converted ends the
//! process within its grace period; the conversions do not hold it.

use std::io::Write as _;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use citecheck::static_site::StaticSite;

/// Pages just inside the element limit: each is parsed into a tree, seconds of work together.
const PAGES: usize = 6;

fn heavy_page() -> String {
    format!(
        "<html><body>{}</body></html>",
        "<p>Steam rises from the pot as the water boils at sea level.</p>".repeat(99_000)
    )
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::test]
async fn sigterm_during_conversions_exits_within_the_grace_period() {
    let dir = tempfile::tempdir().expect("temp dir");
    let page = heavy_page();
    for index in 0..PAGES {
        let mut file = std::fs::File::create(dir.path().join(format!("heavy{index}.html")))
            .expect("create page");
        file.write_all(page.as_bytes()).expect("write page");
    }
    let site = StaticSite::serve(dir.path()).await.expect("site");
    let port = free_port();
    let grace = 1;
    let child = Command::new(assert_cmd::cargo::cargo_bin("citecheck"))
        .args([
            "--allow-private-hosts",
            "serve",
            "--listen",
            &format!("127.0.0.1:{port}"),
            "--shutdown-grace",
            &grace.to_string(),
        ])
        .env("CITECHECK_NO_AUDIT", "1")
        .env("CITECHECK_RANKER", "lexical")
        .env("JUDGE_PROVIDER", "local")
        .env_remove("OPENAI_API_KEY")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("serve starts");
    let mut child = Killed(child);
    let client = reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("client");
    let health = format!("http://127.0.0.1:{port}/health");
    let mut up = false;
    for _ in 0..200 {
        if client.get(&health).send().await.is_ok() {
            up = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(up, "serve did not come up");

    let urls: Vec<String> = (0..PAGES)
        .map(|i| format!("{}/heavy{i}.html", site.base_url()))
        .collect();
    let body = serde_json::json!({"claim": "Water boils at sea level.", "urls": urls});
    let verify = client
        .post(format!("http://127.0.0.1:{port}/verify"))
        .json(&body)
        .send();
    let in_flight = tokio::spawn(verify);
    // Let the pages download and their conversion start.
    tokio::time::sleep(Duration::from_millis(1_500)).await;

    let pid = child.0.id().to_string();
    let signalled = Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("kill runs");
    assert!(signalled.success());
    let sent = Instant::now();
    let bound = Duration::from_secs(grace + 4);
    let mut exited = None;
    while sent.elapsed() < bound + Duration::from_secs(20) {
        if let Some(status) = child.0.try_wait().expect("waits") {
            exited = Some((status, sent.elapsed()));
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (_, took) = exited.expect("serve still running long after SIGTERM");
    assert!(
        took <= bound,
        "serve took {took:?} to exit after SIGTERM with a {grace}s grace period"
    );
    in_flight.abort();
}
