//! Hostile pages served by a loopback site (issue 11): markup built to overflow the stack, to
//! run the readability pass for minutes, or to make the tokenizer quadratic. Every one ends as a
//! page (flattened to its text) or a named `page_too_complex` rejection, within the fetch
//! timeout.
//!
//! The pages are generated here: a 9.6 MB page has no place in the repository.

use std::net::Ipv4Addr;
use std::time::Duration;

use axum::http::header::CONTENT_TYPE;
use axum::routing::get;
use axum::Router;
use citecheck_core::fetch::FetchOptions;
use citecheck_core::{Label, Reason};

use super::{fetch, options, page, rejection};

const SENTENCE: &str = "Water boils at 100 degrees Celsius at sea level.";

fn nested(open: &str, close: &str, levels: usize) -> String {
    format!(
        "<!doctype html><html><head><title>Deep</title></head><body>{}{SENTENCE}{}</body></html>",
        open.repeat(levels),
        close.repeat(levels)
    )
}

fn many_attributes(count: usize) -> String {
    let names: Vec<String> = (0..count).map(|i| format!("a{i}")).collect();
    format!(
        "<html><body><div {}>{SENTENCE}</div></body></html>",
        names.join(" ")
    )
}

fn paragraphs(count: usize, text: &str) -> String {
    format!(
        "<html><body><p>{SENTENCE}</p>{}</body></html>",
        format!("<p>{text}</p>").repeat(count)
    )
}

/// Serves `page` at `/` on 127.0.0.1; returns the URL.
async fn serve(page: String) -> String {
    let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .await
        .expect("bind the hostile site");
    let addr = listener.local_addr().expect("local address");
    let app = Router::new().route(
        "/",
        get(move || {
            let page = page.clone();
            async move { ([(CONTENT_TYPE, "text/html; charset=utf-8")], page) }
        }),
    );
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    format!("http://{addr}/")
}

fn roomy() -> FetchOptions {
    FetchOptions {
        timeout: Duration::from_secs(120),
        // Unoptimised test builds on a shared machine are slow: the budget here is generous,
        // the point is the outcome.
        conversion_budget: Duration::from_secs(120),
        max_body_bytes: 16 * 1024 * 1024,
        ..options()
    }
}

#[tokio::test]
async fn deeply_nested_pages_are_judged_on_their_flattened_text() {
    for (open, close, levels) in [
        ("<b>", "</b>", 2_000),
        ("<div>", "</div>", 5_000),
        ("<div>", "</div>", 100_000),
    ] {
        let url = serve(nested(open, close, levels)).await;
        let got = page(fetch(roomy(), &url).await);
        assert!(
            got.markdown.contains(SENTENCE),
            "{open} x {levels}: {}",
            got.markdown
        );
    }
}

#[tokio::test]
async fn a_tag_with_700_000_attributes_is_refused_as_too_complex() {
    let url = serve(many_attributes(700_000)).await;
    let got = rejection(fetch(roomy(), &url).await);
    assert_eq!(
        (got.label, got.reason.clone()),
        (Label::NotFound, Reason::PageTooComplex)
    );
    let detail = got.detail.unwrap_or_default();
    assert!(
        detail.contains("700000 attributes on one element"),
        "{detail}"
    );
}

#[tokio::test]
async fn a_page_of_1_2_million_paragraphs_is_flattened_without_a_tree() {
    let url = serve(paragraphs(1_200_000, "x")).await;
    let got = page(fetch(roomy(), &url).await);
    assert!(
        got.markdown.starts_with(SENTENCE),
        "{}",
        &got.markdown[..200]
    );
    assert_eq!(got.markdown.matches("\n\nx").count(), 1_200_000);
}

#[tokio::test]
async fn a_conversion_longer_than_what_is_left_of_the_fetch_timeout_is_stopped() {
    // Just under the element limit, so the page is parsed as a tree: far more work than the
    // few milliseconds left of the attempt's timeout once the body has arrived.
    let url = serve(paragraphs(
        99_000,
        "Steam rises from the pot as the water boils.",
    ))
    .await;
    let options = FetchOptions {
        timeout: Duration::from_millis(150),
        attempts: 1,
        ..roomy()
    };
    let got = rejection(fetch(options, &url).await);
    assert_eq!(
        (got.label, got.reason.clone()),
        (Label::NotFound, Reason::PageTooComplex),
        "{got:?}"
    );
    let detail = got.detail.unwrap_or_default();
    assert!(detail.contains("budget"), "{detail}");
}
