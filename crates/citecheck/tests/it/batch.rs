//! `citecheck batch`: figures, bad lines, fetch-once cache, per-host limit, resume,
//! retry-failed, interruption; through the library with a fake fetcher, and through the binary
//! against a site on 127.0.0.1.

use std::sync::Arc;

use citecheck::batch::execute;
use citecheck::storage::Stores;
use citecheck_core::{Label, Reason};

use crate::batch_support::*;

#[tokio::test]
async fn a_url_cited_by_many_claims_is_fetched_once() {
    let shared = "https://a.example/water";
    let mut answers = vec![(shared, Answer::Page(article(WATER)))];
    let own: Vec<String> = (0..12)
        .map(|i| format!("https://b.example/page{i}"))
        .collect();
    for url in &own {
        answers.push((url.as_str(), Answer::Page(article(EVEREST))));
    }
    let fetcher = FakeFetcher::new(answers);
    let lines: Vec<String> = own
        .iter()
        .enumerate()
        .map(|(i, url)| record(&i.to_string(), WATER, &[shared, url]))
        .collect();
    let input = Input::write(&lines);

    let summary = run_to_end(&input.job(), &fetcher).await;

    assert_eq!(fetcher.fetch_count(shared), 1);
    assert_eq!(fetcher.fetches().len(), 13);
    assert_eq!(summary.pages_fetched, 13);
    assert_eq!(summary.cache_hits, 11);
    assert_eq!(summary.precision.total, 24);
    assert_eq!(summary.precision.supported, 12);
}

#[tokio::test]
async fn no_host_gets_more_fetches_at_once_than_the_per_host_limit() {
    let urls: Vec<String> = (0..16)
        .map(|i| format!("https://busy.example/p{i}"))
        .collect();
    let fetcher = FakeFetcher::new(
        urls.iter()
            .map(|u| (u.as_str(), Answer::Page(article(WATER))))
            .collect(),
    );
    // Eight claims of two URLs each, four claims at once: up to eight fetches could overlap.
    let lines: Vec<String> = urls
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| record(&i.to_string(), WATER, &[&pair[0], &pair[1]]))
        .collect();
    let input = Input::write(&lines);
    let mut job = input.job();
    job.per_host = 2;
    run_to_end(&job, &fetcher).await;
    assert_eq!(fetcher.fetches().len(), 16);
    let max = fetcher.max_in_flight("busy.example");
    assert!((1..=2).contains(&max), "{max} fetches at once");
}

#[tokio::test]
async fn bad_lines_are_counted_and_skipped_and_the_run_goes_on() {
    let fetcher = water_fetcher();
    let lines = vec![
        record("1", WATER, &["https://a.example/w"]),
        "not json".to_string(),
        r#"{"id": "2", "claim": "x", "urls": []}"#.to_string(),
        String::new(),
        record("1", WATER, &["https://a.example/w"]),
        record("3", WATER, &["mailto:someone@a.example"]),
        r#"{"id": "4", "urls": ["https://a.example/w"]}"#.to_string(),
        record("5", WATER, &["https://a.example/w"]),
    ];
    let input = Input::write(&lines);
    let summary = run_to_end(&input.job(), &fetcher).await;
    assert_eq!(summary.bad_lines, 5);
    assert_eq!(summary.claims_verified, 2);
    let mut ids = result_ids(&input.dir().join("results.jsonl"));
    ids.sort();
    assert_eq!(ids, vec!["1", "5"]);
}

#[tokio::test]
async fn resume_skips_ids_already_in_the_output_and_keeps_their_figures() {
    let fetcher = FakeFetcher::new(vec![
        ("https://a.example/w", Answer::Page(article(WATER))),
        ("https://a.example/e", Answer::Page(article(EVEREST))),
    ]);
    let first = vec![
        record("1", WATER, &["https://a.example/w"]),
        record("2", EVEREST, &["https://a.example/e"]),
    ];
    let input = Input::write(&first);
    run_to_end(&input.job(), &fetcher).await;
    fetcher.clear_fetches();

    let mut all = first.clone();
    all.push(record("3", WATER, &["https://a.example/gone"]));
    input.rewrite(&all);
    let mut again = input.job();
    again.resume = true;
    let summary = run_to_end(&again, &fetcher).await;

    assert_eq!(fetcher.fetches(), vec!["https://a.example/gone"]);
    assert_eq!(summary.claims_resumed, 2);
    assert_eq!(summary.claims_verified, 1);
    assert_eq!(summary.precision.total, 3);
    assert_eq!(summary.precision.supported, 2);
    assert_eq!(summary.precision.reachable, 2);
    // Claims are written as they finish, so the first run's two may come in either order.
    let mut ids = result_ids(&input.dir().join("results.jsonl"));
    ids.sort();
    assert_eq!(ids, vec!["1", "2", "3"]);
    let csv = std::fs::read_to_string(input.dir().join("report.csv")).expect("csv");
    assert_eq!(
        csv.lines().filter(|l| l.starts_with("id,")).count(),
        1,
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 4, "{csv}");
}

#[tokio::test]
async fn a_torn_last_line_from_a_crash_is_dropped_and_its_claim_redone() {
    let fetcher = water_fetcher();
    let lines = vec![
        record("1", WATER, &["https://a.example/w"]),
        record("2", WATER, &["https://a.example/w"]),
    ];
    let input = Input::write(&lines);
    run_to_end(&input.job(), &fetcher).await;
    let results = input.dir().join("results.jsonl");
    let text = std::fs::read_to_string(&results).expect("results");
    let first_line = text.lines().next().expect("a line").to_string();
    // Simulate a crash halfway through writing the second claim.
    std::fs::write(&results, format!("{first_line}\n{{\"id\": \"2\", \"cla")).expect("torn");

    let mut again = input.job();
    again.resume = true;
    again.csv = None;
    let summary = run_to_end(&again, &fetcher).await;
    assert_eq!(summary.claims_resumed, 1);
    assert_eq!(summary.claims_verified, 1);
    let ids = result_ids(&results);
    assert_eq!(ids.len(), 2);
    assert!(ids.contains(&"2".to_string()));
}

#[tokio::test]
async fn retry_failed_refetches_only_failed_fetches_not_dead_links() {
    let flaky = "https://flaky.example/w";
    let dead = "https://a.example/dead";
    let fine = "https://a.example/e";
    let fetcher = FakeFetcher::new(vec![
        (flaky, Answer::FailThenPage(1, article(WATER))),
        (dead, Answer::Status(404)),
        (fine, Answer::Page(article(EVEREST))),
    ]);
    let lines = vec![
        record("1", WATER, &[flaky, fine]),
        record("2", EVEREST, &[dead]),
        record("3", EVEREST, &[fine]),
    ];
    let input = Input::write(&lines);
    let first = run_to_end(&input.job(), &fetcher).await;
    assert_eq!(first.fetch_failures.get("http_503"), Some(&1));
    assert_eq!(first.dead_links.get("http_404"), Some(&1));
    fetcher.clear_fetches();

    let mut retry = input.job();
    retry.retry_failed = true;
    let summary = run_to_end(&retry, &fetcher).await;

    assert_eq!(fetcher.fetches(), vec![flaky.to_string()]);
    assert_eq!(summary.claims_retried, 1);
    assert_eq!(summary.claims_resumed, 2);
    assert!(summary.fetch_failures.is_empty(), "{summary:?}");
    assert_eq!(summary.dead_links.get("http_404"), Some(&1));
    let results = std::fs::read_to_string(input.dir().join("results.jsonl")).expect("results");
    assert_eq!(results.lines().count(), 3);
    let claim1: citecheck::batch::output::BatchResult = results
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .find(|r: &citecheck::batch::output::BatchResult| r.id == "1")
        .expect("claim 1 kept");
    assert_eq!(claim1.verdict.citations[0].label, Label::Supported);
    assert_eq!(claim1.verdict.citations[1].url, fine);
    assert_eq!(claim1.verdict.overall, Label::Supported);
    let csv = std::fs::read_to_string(input.dir().join("report.csv")).expect("csv");
    assert_eq!(csv.lines().count(), 1 + 4, "{csv}");
    assert!(!csv.contains("http_503"), "{csv}");
}

/// Issue 12: claims taken off the retry queue and still in flight at Ctrl-C vanished from the
/// rewritten outputs.
#[tokio::test]
async fn an_interrupted_retry_keeps_every_line_including_claims_in_flight() {
    let hang = Arc::new(tokio::sync::Notify::new());
    let flaky = "https://flaky.example/w";
    let fetcher = FakeFetcher::new(vec![
        (flaky, Answer::Status(503)),
        ("https://a.example/w", Answer::Page(article(WATER))),
    ]);
    let lines = vec![
        record("1", WATER, &["https://a.example/w"]),
        record("2", WATER, &[flaky]),
        record("3", WATER, &[flaky, "https://a.example/w"]),
        record("4", WATER, &[flaky]),
    ];
    let input = Input::write(&lines);
    run_to_end(&input.job(), &fetcher).await;
    let results = input.dir().join("results.jsonl");
    let before = std::fs::read_to_string(&results).expect("results");

    // The retry: the flaky site now hangs, and Ctrl-C comes while claim 2 is in flight.
    fetcher.set(flaky, Answer::Hang(Arc::clone(&hang)));
    let mut retry = input.job();
    retry.retry_failed = true;
    retry.concurrency = 1;
    let summary = run_until_notified(&retry, &fetcher, &hang).await;
    assert!(summary.interrupted);
    assert_eq!(summary.claims_retried, 0);

    let mut ids = result_ids(&results);
    ids.sort();
    assert_eq!(ids, vec!["1", "2", "3", "4"], "no line is lost");
    let mut old: Vec<&str> = before.lines().collect();
    let after = std::fs::read_to_string(&results).expect("results");
    let mut new: Vec<&str> = after.lines().collect();
    old.sort_unstable();
    new.sort_unstable();
    assert_eq!(old, new, "every line is kept byte for byte");
    let csv = std::fs::read_to_string(input.dir().join("report.csv")).expect("csv");
    assert_eq!(csv.lines().count(), 1 + 5, "{csv}");
}

#[tokio::test]
async fn an_interrupted_run_keeps_what_finished_and_resumes_from_there() {
    let hang = Arc::new(tokio::sync::Notify::new());
    let fetcher = FakeFetcher::new(vec![
        ("https://a.example/w", Answer::Page(article(WATER))),
        ("https://slow.example/x", Answer::Hang(Arc::clone(&hang))),
    ]);
    let lines = vec![
        record("1", WATER, &["https://a.example/w"]),
        record("2", WATER, &["https://a.example/w"]),
        record("3", WATER, &["https://slow.example/x"]),
        record("4", WATER, &["https://a.example/w"]),
    ];
    let input = Input::write(&lines);
    let mut first = input.job();
    // One claim at a time: claims 1 and 2 finish, claim 3 hangs, and Ctrl-C comes while it does.
    first.concurrency = 1;
    let summary = run_until_notified(&first, &fetcher, &hang).await;
    assert!(summary.interrupted);
    assert_eq!(summary.claims_verified, 2);
    let mut ids = result_ids(&input.dir().join("results.jsonl"));
    ids.sort();
    assert_eq!(
        ids,
        vec!["1", "2"],
        "finished claims are kept, in completion order"
    );

    fetcher.set("https://slow.example/x", Answer::Page(article(WATER)));
    let mut again = input.job();
    again.resume = true;
    let summary = run_to_end(&again, &fetcher).await;
    assert!(!summary.interrupted);
    assert_eq!(summary.claims_verified, 2);
    let mut ids = result_ids(&input.dir().join("results.jsonl"));
    ids.sort();
    assert_eq!(ids, vec!["1", "2", "3", "4"]);
}

#[tokio::test]
async fn every_batch_claim_lands_in_the_audit_index_with_its_run_and_id() {
    let fetcher = water_fetcher();
    let lines = vec![
        record(
            "a",
            WATER,
            &["https://a.example/w", "https://a.example/404"],
        ),
        record("b", WATER, &["https://a.example/w"]),
    ];
    let input = Input::write(&lines);
    let audit =
        citecheck::audit::AuditStore::open(input.dir().join("audit.sqlite3")).expect("opens");
    execute(
        &input.job(),
        Stores::new(Some(audit.clone()), None).attach(verifier(fetcher)),
        never(),
    )
    .await
    .expect("runs");
    let rows = audit
        .query(citecheck::audit::AuditFilter {
            run_id: Some("test-run".into()),
            oldest_first: true,
            ..Default::default()
        })
        .await
        .expect("query");
    assert_eq!(rows.len(), 3);
    assert!(rows.iter().all(|r| r.source == "batch"));
    let dead = rows
        .iter()
        .find(|r| r.url.ends_with("/404"))
        .expect("dead link row");
    assert_eq!(dead.claim_id.as_deref(), Some("a"));
    assert_eq!(dead.reason.as_deref(), Some("http_404"));
    assert_eq!(dead.rid, "");
}

#[tokio::test]
async fn the_reference_sample_through_the_binary() {
    let sample = SampleSite::start().await;
    let out = run_binary(
        sample.dir.path(),
        vec![
            "batch".into(),
            sample.input.clone().into(),
            "--out".into(),
            sample.path("report.csv").into(),
            "--jsonl".into(),
            sample.path("results.jsonl").into(),
            "--html".into(),
            sample.path("report.html").into(),
        ],
    )
    .await;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("\ncitation_precision=0.2222 (2/9)\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("\nreachable_precision=0.3333 (2/6)\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("dead links: 3 (http_404=2 http_410=1)"),
        "{stdout}"
    );
    assert!(stdout.contains("3 bad lines skipped"), "{stdout}");
    assert!(stderr.contains("line 4: invalid JSON"), "{stderr}");
    assert!(stderr.contains("line 7: duplicate id 2"), "{stderr}");
    assert!(
        stderr.contains("line 8: `ftp://files.example/x` is not an http(s) URL"),
        "{stderr}"
    );

    let csv = std::fs::read_to_string(sample.path("report.csv")).expect("csv");
    assert_eq!(csv.lines().count(), 1 + 9, "{csv}");
    assert!(csv.starts_with("id,claim,url,label,reason,confidence,evidence_quote"));
    let html = std::fs::read_to_string(sample.path("report.html")).expect("html");
    assert!(html.contains("22.2%"));

    // The audit index has a row per citation; judged pages can be replayed.
    let store = citecheck::audit::AuditStore::open_existing(sample.path("audit.sqlite3"))
        .expect("audit index");
    let rows = store
        .query(citecheck::audit::AuditFilter::default())
        .await
        .expect("rows");
    assert_eq!(rows.len(), 9);
    let supported = rows
        .iter()
        .find(|r| r.label == "supported" && r.url.ends_with("/water"))
        .expect("a supported row");
    assert_eq!(supported.rid.len(), 64);
    assert_eq!(
        supported.content_sha256.as_deref(),
        Some(supported.rid.as_str())
    );
    assert_eq!(supported.fetcher.as_deref(), Some("direct"));
    assert_eq!(supported.judge_provider.as_deref(), Some("local"));
    assert!(rows
        .iter()
        .any(|r| r.reason.as_deref() == Some("http_410") && r.rid.is_empty()));
    assert_eq!(Reason::parse("http_410").map(|r| r.is_dead()), Some(true));
}

#[tokio::test]
async fn existing_results_are_never_overwritten_by_accident() {
    let sample = SampleSite::start().await;
    let results = sample.path("results.jsonl");
    std::fs::write(&results, "{\"id\": \"old\"}\n").expect("old results");
    let out = run_binary(
        sample.dir.path(),
        vec![
            "batch".into(),
            sample.input.clone().into(),
            "--jsonl".into(),
            results.clone().into(),
        ],
    )
    .await;
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--resume"));
    assert_eq!(
        std::fs::read_to_string(&results).expect("still there"),
        "{\"id\": \"old\"}\n"
    );
}

#[tokio::test]
async fn an_html_report_is_written_even_without_a_jsonl_output() {
    let fetcher = water_fetcher();
    let lines = vec![
        record("1", WATER, &["https://a.example/w"]),
        record(
            "2",
            "Water boils at 50 degrees Celsius at sea level.",
            &["https://a.example/w"],
        ),
        record("3", WATER, &["https://a.example/gone"]),
    ];
    let input = Input::write(&lines);
    let mut job = input.job();
    job.jsonl = None;
    job.html = Some(input.dir().join("report.html"));
    let summary = run_to_end(&job, &fetcher).await;
    assert_eq!(summary.precision.total, 3);
    let html = std::fs::read_to_string(input.dir().join("report.html")).expect("report");
    assert!(html.contains("id=\"citation-precision\">33.3%<"), "{html}");
    assert_eq!(html.matches("<tr class=\"cite\"").count(), 2);
    assert_eq!(html.matches("class=\"cite card\"").count(), 1);
}

#[test]
fn no_audit_keeps_nothing_and_the_summary_can_be_json() {
    let input = Input::write(&[record("1", WATER, &["http://127.0.0.1:9/refused"])]);
    let out = citecheck(input.dir())
        .env("CITECHECK_NO_AUDIT", "1")
        .env("CITECHECK_FETCH_ATTEMPTS", "1")
        .args(["batch", "--format", "json"])
        .arg(&input.path)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON summary");
    assert_eq!(summary["precision"]["total"], 1);
    assert_eq!(summary["precision"]["reachable"], 0);
    assert_eq!(summary["fetch_failures"]["connect_error"], 1);
    assert!(!input.dir().join("audit.sqlite3").exists());
    assert!(!input.dir().join("evidence").exists());
}
