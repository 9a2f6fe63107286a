//! Replay: stored pages read back from the Storage API by rid, with either token, and what the
//! errors say.

use citecheck_core::fetch::crawlbase::{fetch_stored, CrawlbaseConfig, CrawlbaseError};
use citecheck_core::fetch::Fetcher;

use super::mock::{Mock, ARTICLE_MD, JS_TOKEN, NORMAL_TOKEN, REVOKED_TOKEN};
use super::{both_tokens, cited, page};

fn replay_config(mock: &Mock, token: Option<&str>, js_token: Option<&str>) -> CrawlbaseConfig {
    CrawlbaseConfig::for_replay(token, js_token, Some(&mock.url())).expect("a token is set")
}

#[tokio::test]
async fn a_stored_page_is_read_back_by_its_rid() {
    let mock = Mock::start().await;
    mock.store("rid-kept", "https://news.example/article", ARTICLE_MD);
    let config = replay_config(&mock, Some(NORMAL_TOKEN), None);
    let stored = fetch_stored(&config, "rid-kept").await.expect("stored");
    assert_eq!(stored.rid, "rid-kept");
    assert_eq!(stored.body, ARTICLE_MD);
    assert_eq!(stored.url.as_deref(), Some("https://news.example/article"));
    assert_eq!(stored.original_status, Some(200));
    assert_eq!(stored.crawl_status, Some(200));
    assert_eq!(
        stored.stored_at.as_deref(),
        Some("2026-03-01T14:22:58+02:00")
    );
    let requests = mock.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].path, "/storage");
    assert_eq!(
        requests[0].raw_query,
        format!("token={NORMAL_TOKEN}&rid=rid-kept&format=json")
    );
}

#[tokio::test]
async fn the_javascript_token_alone_can_replay_a_page() {
    let mock = Mock::start().await;
    mock.store("rid-js", "https://news.example/app", ARTICLE_MD);
    let config = replay_config(&mock, None, Some(JS_TOKEN));
    let stored = fetch_stored(&config, "rid-js").await.expect("stored");
    assert_eq!(stored.body, ARTICLE_MD);
    assert_eq!(mock.requests()[0].token(), JS_TOKEN);
}

#[tokio::test]
async fn the_rid_a_crawl_returns_replays_the_page_that_was_judged() {
    let mock = Mock::start().await;
    let fetcher = both_tokens(&mock);
    let crawled = page(fetcher.fetch(&cited("/thin-readability")).await);
    let rid = crawled.rid.clone().expect("the crawl stored the page");
    let stored = fetcher.fetch_stored(&rid).await.expect("stored");
    assert_eq!(stored.body, crawled.markdown);
    let usage = fetcher.usage();
    assert_eq!(usage.storage_requests, 1);
    assert_eq!(
        usage.credits(),
        crawled.cost.expect("cost").credits(),
        "reading back is free"
    );
}

#[tokio::test]
async fn an_unknown_rid_is_reported_as_not_stored() {
    let mock = Mock::start().await;
    let config = replay_config(&mock, Some(NORMAL_TOKEN), None);
    let err = fetch_stored(&config, "rid-expired")
        .await
        .expect_err("not stored");
    assert!(matches!(err, CrawlbaseError::NotStored { ref rid } if rid == "rid-expired"));
    assert!(err.to_string().contains("rid-expired"), "{err}");
}

#[tokio::test]
async fn a_rejected_token_on_replay_names_the_variable_not_the_value() {
    let mock = Mock::start().await;
    mock.store("rid-kept", "https://news.example/article", ARTICLE_MD);
    let config = replay_config(&mock, Some(REVOKED_TOKEN), None);
    let err = fetch_stored(&config, "rid-kept")
        .await
        .expect_err("unauthorised");
    assert!(matches!(
        err,
        CrawlbaseError::Unauthorized {
            variable: "CRAWLBASE_TOKEN"
        }
    ));
    assert!(err.is_configuration());
    let message = err.to_string();
    assert!(message.contains("CRAWLBASE_TOKEN"), "{message}");
    assert!(!message.contains(REVOKED_TOKEN), "{message}");
}

#[tokio::test]
async fn replay_without_any_token_names_crawlbase_token() {
    let mock = Mock::start().await;
    let err = CrawlbaseConfig::for_replay(None, None, Some(&mock.url())).expect_err("no token");
    assert!(matches!(err, CrawlbaseError::MissingToken));
    assert!(err.to_string().contains("CRAWLBASE_TOKEN"), "{err}");
    assert!(mock.requests().is_empty());
}

#[tokio::test]
async fn an_empty_rid_is_refused_before_any_request() {
    let mock = Mock::start().await;
    let config = replay_config(&mock, Some(NORMAL_TOKEN), None);
    let err = fetch_stored(&config, "  ").await.expect_err("empty");
    assert!(matches!(err, CrawlbaseError::EmptyRid));
    assert!(mock.requests().is_empty());
}
