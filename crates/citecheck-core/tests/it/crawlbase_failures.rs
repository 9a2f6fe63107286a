//! API-level failures are never silent: rate limits and outages are retried, then reported as
//! `crawl_failed`; token and account problems name the variable and are kept for the front end;
//! no token ever appears in what citecheck reports.

use std::time::{Duration, Instant};

use citecheck_core::fetch::crawlbase::{CrawlbaseConfig, CrawlbaseError};
use citecheck_core::fetch::{FetchOutcome, Fetcher};
use citecheck_core::{Label, Reason};

use super::mock::{
    Mock, ARTICLE_MD, BROKE_TOKEN, JS_TOKEN, NORMAL_TOKEN, REVOKED_TOKEN, WRONG_KIND_TOKEN,
};
use super::{both_tokens, cited, config, fetcher, page, rejection};

#[tokio::test]
async fn a_429_is_retried_after_the_wait_retry_after_asks_for() {
    let mock = Mock::start().await;
    let started = Instant::now();
    let got = page(both_tokens(&mock).fetch(&cited("/busy")).await);
    assert_eq!(got.markdown, ARTICLE_MD);
    let requests = mock.crawls();
    assert_eq!(requests.len(), 2);
    let waited = requests[1].at - requests[0].at;
    assert!(waited >= Duration::from_millis(950), "waited {waited:?}");
    assert!(started.elapsed() < Duration::from_secs(3));
    // The same request again, on the normal token: a rate limit is no reason to render.
    assert_eq!(requests[0].raw_query, requests[1].raw_query);
    let cost = got.cost.expect("cost");
    assert_eq!((cost.normal_requests, cost.billed_normal), (2, 1));
}

#[tokio::test]
async fn a_retry_after_longer_than_allowed_ends_the_retries_at_once() {
    let mock = Mock::start().await;
    let mut config = config(&mock, NORMAL_TOKEN, None);
    config.max_retry_wait = Duration::from_millis(500);
    let got = rejection(fetcher(config).fetch(&cited("/busy")).await);
    assert_eq!(
        (got.label, got.reason.clone()),
        (Label::Unreachable, Reason::CrawlFailed)
    );
    let detail = got.detail.expect("a detail");
    assert!(
        detail.contains("429") && detail.contains("wait 1s"),
        "{detail}"
    );
    assert_eq!(mock.crawls().len(), 1);
}

#[tokio::test]
async fn a_transient_server_error_is_retried_with_backoff() {
    let mock = Mock::start().await;
    let got = page(both_tokens(&mock).fetch(&cited("/flaky")).await);
    assert_eq!(got.markdown, ARTICLE_MD);
    assert_eq!(mock.crawls().len(), 2);
}

#[tokio::test]
async fn persistent_5xx_is_crawl_failed_after_the_configured_attempts() {
    let mock = Mock::start().await;
    let got = rejection(both_tokens(&mock).fetch(&cited("/down")).await);
    assert_eq!(
        (got.label, got.reason.clone()),
        (Label::Unreachable, Reason::CrawlFailed)
    );
    let detail = got.detail.clone().expect("a detail");
    assert!(
        detail.contains("HTTP 503") && detail.contains("3 attempts"),
        "{detail}"
    );
    let requests = mock.crawls();
    assert_eq!(requests.len(), 3);
    assert!(
        requests
            .iter()
            .all(|r| r.token() == NORMAL_TOKEN && !r.has("javascript")),
        "an outage is no signal to render"
    );
    assert_eq!(got.cost.expect("cost").normal_requests, 3);
}

#[tokio::test]
async fn a_crawl_that_failed_upstream_is_retried_then_reported() {
    let mock = Mock::start().await;
    let got = rejection(both_tokens(&mock).fetch(&cited("/captcha")).await);
    assert_eq!(got.reason, Reason::CrawlFailed);
    let detail = got.detail.expect("a detail");
    assert!(detail.contains("crawl status 503"), "{detail}");
    assert_eq!(mock.crawls().len(), 3);
}

#[tokio::test]
async fn a_rejected_token_is_a_configuration_error_naming_crawlbase_token() {
    let mock = Mock::start().await;
    let fetcher = fetcher(config(&mock, REVOKED_TOKEN, Some(JS_TOKEN)));
    assert!(fetcher.config_error().is_none());
    let got = rejection(fetcher.fetch(&cited("/article")).await);
    assert_eq!(
        (got.label, got.reason.clone()),
        (Label::Unreachable, Reason::CrawlFailed)
    );
    let detail = got.detail.expect("a detail");
    assert!(
        detail.contains("CRAWLBASE_TOKEN") && detail.contains("401"),
        "{detail}"
    );
    let err = fetcher.config_error().expect("the problem is kept");
    assert!(matches!(
        err,
        CrawlbaseError::Unauthorized {
            variable: "CRAWLBASE_TOKEN"
        }
    ));
    assert!(err.is_configuration());

    // The next citation fails the same way without another doomed request, and never
    // falls through to the JavaScript token.
    let again = rejection(fetcher.fetch(&cited("/empty")).await);
    assert_eq!(again.reason, Reason::CrawlFailed);
    assert_eq!(mock.crawls().len(), 1);
    assert_eq!(fetcher.usage().javascript_requests, 0);
}

#[tokio::test]
async fn an_account_out_of_credits_is_reported_clearly() {
    let mock = Mock::start().await;
    let fetcher = fetcher(config(&mock, BROKE_TOKEN, None));
    let got = rejection(fetcher.fetch(&cited("/article")).await);
    let detail = got.detail.expect("a detail");
    assert!(
        detail.contains("out of credits") && detail.contains("402"),
        "{detail}"
    );
    assert!(matches!(
        fetcher.config_error(),
        Some(CrawlbaseError::OutOfCredits { .. })
    ));
    let usage = fetcher.usage();
    assert_eq!(
        (usage.normal_requests, usage.credits()),
        (1, 0.0),
        "one refused request, nothing billed"
    );
}

#[tokio::test]
async fn a_js_token_of_the_wrong_kind_is_named_and_normal_crawls_go_on() {
    let mock = Mock::start().await;
    let fetcher = fetcher(config(&mock, NORMAL_TOKEN, Some(WRONG_KIND_TOKEN)));
    let got = rejection(fetcher.fetch(&cited("/crash")).await);
    assert_eq!(got.reason, Reason::CrawlFailed);
    let detail = got.detail.expect("a detail");
    assert!(
        detail.contains("CRAWLBASE_JS_TOKEN") && detail.contains("403"),
        "{detail}"
    );
    assert!(matches!(
        fetcher.config_error(),
        Some(CrawlbaseError::Forbidden {
            variable: "CRAWLBASE_JS_TOKEN",
            ..
        })
    ));
    // The normal token still works for pages that need no browser.
    let fine = page(fetcher.fetch(&cited("/article")).await);
    assert_eq!(fine.markdown, ARTICLE_MD);
    assert_eq!(mock.crawls().len(), 3);
}

#[tokio::test]
async fn an_unreachable_api_is_crawl_failed_after_retries() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("address").port();
    drop(listener);
    let mut config = CrawlbaseConfig::from_values(
        Some(NORMAL_TOKEN),
        Some(JS_TOKEN),
        Some(&format!("http://127.0.0.1:{port}")),
    )
    .expect("valid");
    config.retry_base = Duration::from_millis(5);
    config.connect_timeout = Duration::from_secs(2);
    let fetcher = fetcher(config);
    let got = rejection(fetcher.fetch(&cited("/article")).await);
    assert_eq!(
        (got.label, got.reason.clone()),
        (Label::Unreachable, Reason::CrawlFailed)
    );
    let detail = got.detail.expect("a detail");
    assert!(
        detail.contains("could not reach the Crawlbase API"),
        "{detail}"
    );
    // The client's own error names the request URL, token included: it must not get through.
    assert!(!detail.contains(NORMAL_TOKEN), "{detail}");
    assert!(!detail.contains("token="), "{detail}");
    assert_eq!(fetcher.usage().normal_requests, 3);
}

#[tokio::test]
async fn no_outcome_detail_or_error_ever_contains_a_token() {
    let mock = Mock::start().await;
    let tokens = [
        NORMAL_TOKEN,
        JS_TOKEN,
        REVOKED_TOKEN,
        BROKE_TOKEN,
        WRONG_KIND_TOKEN,
    ];
    let setups = [
        (NORMAL_TOKEN, Some(JS_TOKEN)),
        (REVOKED_TOKEN, Some(JS_TOKEN)),
        (BROKE_TOKEN, None),
        (NORMAL_TOKEN, Some(WRONG_KIND_TOKEN)),
    ];
    let paths = [
        "/article", "/gone", "/crash", "/down", "/busy", "/captcha", "/app", "/empty",
    ];
    let mut seen = Vec::new();
    for (token, js_token) in setups {
        let config = config(&mock, token, js_token);
        seen.push(format!("{config:?}"));
        let fetcher = fetcher(config);
        for path in paths {
            let outcome = fetcher.fetch(&cited(path)).await;
            if let FetchOutcome::Rejected(rejection) = &outcome {
                seen.push(rejection.detail.clone().unwrap_or_default());
            }
            seen.push(format!("{outcome:?}"));
        }
        if let Some(err) = fetcher.config_error() {
            seen.push(err.to_string());
            seen.push(format!("{err:?}"));
        }
        match fetcher.fetch_stored("no-such-rid").await {
            Ok(page) => seen.push(format!("{page:?}")),
            Err(err) => seen.push(format!("{err} {err:?}")),
        }
    }
    // The mock's storage URLs carried the token; none of it may have been kept.
    assert!(seen.iter().any(|s| s.contains("rid-1")));
    for text in &seen {
        for token in tokens {
            assert!(!text.contains(token), "`{token}` leaked into: {text}");
        }
        assert!(
            !text.contains("storage?token"),
            "a storage URL was kept: {text}"
        );
    }
}
