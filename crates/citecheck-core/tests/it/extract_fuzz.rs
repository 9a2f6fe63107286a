//! A fuzz target over page extraction (issue 11): generated hostile HTML (deep and misnested
//! tags, formatting elements the tree builder reopens, tables, foreign content, raw-text
//! elements left open, tags loaded with attributes, broken markup) must convert or be refused
//! by name: zero panics, zero stack overflows, always within the budget's bounds.
//!
//! A stack overflow aborts the process instead of failing a test, so the cases run in a child
//! process that this test starts and checks. `PROPTEST_CASES` sets how many (48 by default, a
//! bounded run for CI); the slowest case is reported on stderr, and written whole to the file
//! `CITECHECK_FUZZ_SLOWEST` names, for BENCHMARKS.md.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use citecheck_core::extract::{self, ExtractError};
use citecheck_core::limits::{Budget, PageLimits};
use citecheck_core::workers::WorkerPool;
use proptest::prelude::*;

const CHILD: &str = "CITECHECK_EXTRACT_FUZZ_CHILD";

/// The slowest case so far: (time, the page).
static SLOWEST: Mutex<Option<(Duration, String)>> = Mutex::new(None);

fn tag_name() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "div",
        "b",
        "i",
        "a",
        "p",
        "span",
        "li",
        "ul",
        "ol",
        "table",
        "tr",
        "td",
        "th",
        "tbody",
        "font",
        "em",
        "strong",
        "nobr",
        "h1",
        "h2",
        "dl",
        "dt",
        "dd",
        "select",
        "option",
        "button",
        "form",
        "svg",
        "math",
        "g",
        "foreignObject",
        "template",
        "section",
        "article",
        "blockquote",
        "pre",
        "code",
        "center",
        "marquee",
        "object",
        "caption",
        "x-custom",
    ])
}

/// One piece of markup.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => tag_name().prop_map(|t| format!("<{t}>")),
        3 => tag_name().prop_map(|t| format!("</{t}>")),
        3 => "[a-zA-Z .,;&<>'\"=/!-]{0,40}",
        1 => (tag_name(), 0usize..400).prop_map(|(t, n)| {
            let attrs: Vec<String> = (0..n).map(|i| format!("a{i}=\"v\"")).collect();
            format!("<{t} {}>", attrs.join(" "))
        }),
        1 => (tag_name(), 0usize..50).prop_map(|(t, n)| format!("<{t} {}>", "x ".repeat(n))),
        1 => prop::sample::select(vec![
            "<!--", "-->", "<!doctype html>", "<![CDATA[", "]]>", "<script>", "<style>",
            "<title>", "<textarea>", "<plaintext>", "<xmp>", "&amp;", "&#x1F600;", "&#0;",
            "&notanentity", "<br/>", "<img src=x>", "<", "</", "<a href='", "\u{0}", "\u{feff}",
            "<div/>", "<p/>", "<table><td>", "</p></p></p>", "<b><i><u><s>",
        ]).prop_map(str::to_string),
        // Deep runs: the shapes that once overflowed the stack.
        1 => (tag_name(), 100usize..6_000).prop_map(|(t, n)| format!("<{t}>").repeat(n)),
        1 => (tag_name(), 100usize..3_000)
            .prop_map(|(t, n)| format!("<{t} id=a>x<{t} id=b>").repeat(n)),
    ]
}

fn page() -> impl Strategy<Value = String> {
    prop::collection::vec(piece(), 1..60).prop_map(|pieces| pieces.concat())
}

fn record(elapsed: Duration, html: &str) {
    let mut slowest = SLOWEST.lock().unwrap_or_else(|p| p.into_inner());
    if slowest.as_ref().is_none_or(|(t, _)| elapsed > *t) {
        *slowest = Some((elapsed, html.to_string()));
    }
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(48)
}

/// Runs the cases on a large-stack worker, as the fetcher does, within a generous budget.
fn run_cases() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let pool = WorkerPool::new(1).expect("a worker");
    let config = ProptestConfig {
        cases: cases(),
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    proptest!(config, |(html in page())| {
        let started = Instant::now();
        let input = html.clone();
        let outcome = runtime.block_on(pool.run(Budget::new(Duration::from_secs(120)), move |budget| {
            extract::html_to_markdown(&input, Some("https://a.example/"), &PageLimits::default(), budget)
        }));
        record(started.elapsed(), &html);
        match outcome {
            Ok(Ok(_)) | Ok(Err(ExtractError::TooComplex(_))) => {}
            Ok(Err(err)) => prop_assert!(false, "{err} on {} bytes", html.len()),
            Err(err) => prop_assert!(false, "{err} on {} bytes", html.len()),
        }
    });
    if let Some((elapsed, html)) = SLOWEST.lock().unwrap_or_else(|p| p.into_inner()).take() {
        let head: String = html.chars().take(120).collect();
        eprintln!(
            "slowest case: {elapsed:?} for {} bytes, starting {head:?}",
            html.len()
        );
        if let Some(path) = std::env::var_os("CITECHECK_FUZZ_SLOWEST") {
            std::fs::write(path, html).expect("write the slowest case");
        }
    }
}

#[test]
fn generated_hostile_pages_never_panic_overflow_or_hang() {
    if std::env::var_os(CHILD).is_some() {
        run_cases();
        return;
    }
    let exe = std::env::current_exe().expect("the test binary's path");
    let status = std::process::Command::new(exe)
        .args([
            "--exact",
            "extract_fuzz::generated_hostile_pages_never_panic_overflow_or_hang",
            "--nocapture",
        ])
        .env(CHILD, "1")
        .status()
        .expect("the child test runs");
    assert!(status.success(), "the fuzz child failed: {status}");
}
