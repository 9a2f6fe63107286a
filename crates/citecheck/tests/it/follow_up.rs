//! What a reader can follow up on, through the built binary: the evidence link to the quote,
//! what the (mock) Internet Archive says about dead links, drift between two runs recorded in
//! the audit index, and replay highlighting the quote at its recorded place. The demo site and
//! the mock archive (speaking the CDX server's JSON) both run on 127.0.0.1.

use std::collections::HashMap;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use assert_cmd::Command;
use axum::extract::{Query, State};
use axum::routing::get;
use axum::Router;

use crate::support_local::DemoSite;

const WATER: &str = "Water boils at 100 degrees Celsius at sea level.";

struct World {
    site: DemoSite,
    archive: SocketAddr,
    queries: Arc<AtomicUsize>,
}

/// The demo site and a mock archive that holds one capture: of `{site}/articles/gone`.
fn world() -> World {
    let site = DemoSite::start();
    let captured = format!("{}/articles/gone", site.base_url());
    let queries = Arc::new(AtomicUsize::new(0));
    let state = (captured, Arc::clone(&queries));
    let app = Router::new()
        .route(
            "/cdx/search/cdx",
            get(
                |State((captured, queries)): State<(String, Arc<AtomicUsize>)>,
                 Query(q): Query<HashMap<String, String>>| async move {
                    queries.fetch_add(1, Ordering::SeqCst);
                    if q.get("url") == Some(&captured) {
                        serde_json::json!([
                            [
                                "urlkey",
                                "timestamp",
                                "original",
                                "mimetype",
                                "statuscode",
                                "digest",
                                "length"
                            ],
                            [
                                "x)/gone",
                                "20210715083000",
                                captured,
                                "text/html",
                                "200",
                                "AAAA",
                                "1200"
                            ]
                        ])
                        .to_string()
                    } else {
                        "[]".to_string()
                    }
                },
            ),
        )
        .with_state(state);
    let archive = site.runtime().block_on(async {
        let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .await
            .expect("binds");
        let addr = listener.local_addr().expect("address");
        tokio::spawn(async move {
            axum::serve(listener, app).await.ok();
        });
        addr
    });
    World {
        site,
        archive,
        queries,
    }
}

fn citecheck() -> Command {
    let mut cmd = Command::cargo_bin("citecheck").expect("binary built");
    cmd.env("CITECHECK_NO_AUDIT", "1")
        .env("CITECHECK_RANKER", "lexical")
        .env_remove("JUDGE_PROVIDER")
        .env_remove("OPENAI_API_KEY")
        .env_remove("CITECHECK_ARCHIVE_URL")
        .env_remove("CITECHECK_NO_ARCHIVE")
        .env_remove("CITECHECK_ARCHIVE_VERIFY");
    cmd
}

fn json_of(cmd: &mut Command) -> serde_json::Value {
    let output = cmd.assert().code(2).get_output().stdout.clone();
    serde_json::from_slice(&output).expect("stdout is JSON")
}

#[test]
fn quotes_link_to_the_page_and_dead_links_say_rot_or_possibly_fabricated() {
    let w = world();
    let base = w.site.base_url();
    let article = format!("{base}/articles/water-boiling-point");
    let urls = [
        article.clone(),
        format!("{base}/articles/gone"),
        format!("{base}/articles/never-was"),
    ];
    let json = json_of(
        citecheck()
            .env("CITECHECK_ARCHIVE_URL", format!("http://{}", w.archive))
            .args(["--allow-private-hosts", "verify", "--claim", WATER])
            .args(&urls),
    );
    let c = &json["citations"];
    assert_eq!(c[0]["label"], "supported");
    let link = c[0]["evidence_url"].as_str().expect("an evidence link");
    assert!(link.starts_with(&format!("{article}#:~:text=")), "{link}");
    assert!(c[0]["evidence_offsets"]["end"].as_u64() > c[0]["evidence_offsets"]["start"].as_u64());
    assert!(
        c[0].get("archive").is_none(),
        "a live page is not looked up"
    );
    assert_eq!(c[1]["reason"], "http_404");
    assert_eq!(c[1]["archive"]["status"], "archived");
    assert_eq!(c[1]["archive"]["captured_at"], "2021-07-15T08:30:00Z");
    assert_eq!(c[2]["archive"]["status"], "never_archived");
    assert!(c[2]["archive"]["note"]
        .as_str()
        .is_some_and(|n| n.contains("possibly fabricated")));

    let text = citecheck()
        .env("CITECHECK_ARCHIVE_URL", format!("http://{}", w.archive))
        .args([
            "--allow-private-hosts",
            "verify",
            "--format",
            "text",
            "--claim",
            WATER,
        ])
        .args(&urls)
        .assert()
        .code(2)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(text).expect("utf-8");
    assert!(
        text.contains(&format!("quote on the page: {link}")),
        "{text}"
    );
    assert!(
        text.contains("archived (link rot), captured 2021-07-15T08:30:00Z"),
        "{text}"
    );
    assert!(
        text.contains("never archived (possibly fabricated)"),
        "{text}"
    );
}

#[test]
fn by_default_a_loopback_dead_link_is_never_sent_to_the_archive_and_no_archive_turns_it_off() {
    let w = world();
    let gone = format!("{}/articles/gone", w.site.base_url());
    // Default archive (the public one): a loopback URL cannot be in it, so nothing is asked.
    let json = json_of(
        citecheck()
            .args(["--allow-private-hosts", "verify", "--claim", WATER])
            .arg(&gone),
    );
    assert_eq!(json["citations"][0]["reason"], "http_404");
    assert!(json["citations"][0].get("archive").is_none());
    // --no-archive: the mock is never asked even though it could answer.
    let json = json_of(
        citecheck()
            .env("CITECHECK_ARCHIVE_URL", format!("http://{}", w.archive))
            .args([
                "--no-archive",
                "--allow-private-hosts",
                "verify",
                "--claim",
                WATER,
            ])
            .arg(&gone),
    );
    assert!(json["citations"][0].get("archive").is_none());
    assert_eq!(w.queries.load(Ordering::SeqCst), 0);
}

#[test]
fn a_second_run_says_the_page_is_unchanged_and_replay_highlights_the_recorded_quote() {
    let w = world();
    let dir = tempfile::tempdir().expect("temp dir");
    let article = format!("{}/articles/water-boiling-point", w.site.base_url());
    let run = || {
        let output = citecheck()
            .env_remove("CITECHECK_NO_AUDIT")
            .env("CITECHECK_AUDIT_DB", dir.path().join("audit.sqlite3"))
            .env("CITECHECK_EVIDENCE_DIR", dir.path().join("evidence"))
            .args([
                "--allow-private-hosts",
                "verify",
                "--claim",
                WATER,
                &article,
            ])
            .assert()
            .code(0)
            .get_output()
            .stdout
            .clone();
        serde_json::from_slice::<serde_json::Value>(&output).expect("JSON")
    };
    let first = run();
    assert!(first["citations"][0].get("previously_seen").is_none());
    let second = run();
    assert!(second["citations"][0]["previously_seen"].is_string());
    assert_eq!(second["citations"][0]["changed_since"], false);

    let replay = citecheck()
        .env_remove("CITECHECK_NO_AUDIT")
        .env("CITECHECK_AUDIT_DB", dir.path().join("audit.sqlite3"))
        .env("CITECHECK_EVIDENCE_DIR", dir.path().join("evidence"))
        .args(["replay", "--audit-id", "2"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let replay = String::from_utf8(replay).expect("utf-8");
    assert!(replay.contains(&format!(">>>{WATER}<<<")), "{replay}");
}
