//! Redirects: chains to a deep page, homepage landings, loops, and hops the fetcher refuses.

use std::time::Duration;

use citecheck_core::{Label, Reason};

use super::{fetch, no_pdf_options, options, page, rejection, summary};
use crate::site::{Site, ARTICLE_SENTENCE};
use citecheck_core::fetch::FetchOptions;

#[tokio::test]
async fn a_redirect_chain_is_followed_to_the_deep_page() {
    let site = Site::start().await;

    let page = page(fetch(options(), &site.url("/chain/1")).await);

    assert_eq!(page.final_url, site.url("/story/boiling"));
    assert_eq!(page.original_status, 200);
    assert!(
        page.markdown.contains(ARTICLE_SENTENCE),
        "{}",
        page.markdown
    );
    for hop in ["/chain/1", "/chain/2", "/chain/3", "/story/boiling"] {
        assert_eq!(site.hits(hop), 1, "{hop}");
    }
}

#[tokio::test]
async fn the_article_is_read_without_its_navigation_sidebar_footer_or_scripts() {
    let site = Site::start().await;

    let page = page(fetch(options(), &site.url("/story/boiling")).await);

    assert!(
        page.markdown.contains("roughly 70 degrees"),
        "{}",
        page.markdown
    );
    for chrome in [
        "Contact the editors",
        "Most read this week",
        "Advertisement",
        "Privacy notice",
        "pageview-tracker",
    ] {
        assert!(
            !page.markdown.contains(chrome),
            "{chrome} leaked:\n{}",
            page.markdown
        );
    }
}

#[tokio::test]
async fn a_deep_link_redirected_to_the_homepage_is_not_found() {
    let site = Site::start().await;

    let rejection = rejection(fetch(options(), &site.url("/moved-story")).await);

    assert_eq!(
        summary(&rejection),
        (
            Label::NotFound,
            Reason::RedirectedToHomepage,
            Some(site.url("/").as_str()),
            Some(200)
        )
    );
    assert_eq!(site.hits("/"), 1);
}

#[tokio::test]
async fn a_deep_link_redirected_to_a_homepage_too_big_to_read_is_still_a_homepage_redirect() {
    let site = Site::start().await;
    let options = FetchOptions {
        max_body_bytes: 256,
        ..options()
    };

    let rejection = rejection(fetch(options, &site.url("/moved-story")).await);

    assert_eq!(rejection.reason, Reason::RedirectedToHomepage);
    assert_eq!(rejection.final_url.as_deref(), Some(site.url("/").as_str()));
}

#[tokio::test]
async fn the_homepage_asked_for_directly_is_a_page() {
    let site = Site::start().await;

    let page = page(fetch(options(), &site.url("")).await);

    assert_eq!(page.final_url, site.url("/"));
    assert!(
        page.markdown.contains("retired chemistry teacher"),
        "{}",
        page.markdown
    );
}

#[tokio::test]
async fn a_redirect_loop_stops_at_the_bound() {
    let site = Site::start().await;
    let options = FetchOptions {
        max_redirects: 3,
        ..options()
    };

    let rejection = rejection(fetch(options, &site.url("/loop")).await);

    assert_eq!(
        summary(&rejection),
        (
            Label::Unreachable,
            Reason::TooManyRedirects,
            Some(site.url("/loop").as_str()),
            None
        )
    );
    assert_eq!(
        site.hits("/loop"),
        4,
        "the first request and three redirects"
    );
}

#[tokio::test]
async fn a_redirect_without_a_location_is_a_bad_response_and_is_not_retried() {
    let site = Site::start().await;

    let rejection = rejection(fetch(options(), &site.url("/no-location")).await);

    assert_eq!(
        summary(&rejection),
        (
            Label::Unreachable,
            Reason::BadResponse,
            Some(site.url("/no-location").as_str()),
            Some(302)
        )
    );
    assert_eq!(site.hits("/no-location"), 1);
}

#[tokio::test]
async fn with_pdf_reading_off_a_redirect_to_a_pdf_is_not_followed() {
    let site = Site::start().await;

    let rejection = rejection(fetch(no_pdf_options(), &site.url("/redirect-to-pdf")).await);

    assert_eq!(
        summary(&rejection),
        (
            Label::NotFound,
            Reason::PdfUnsupported,
            Some(site.url("/files/report.pdf").as_str()),
            None
        )
    );
    assert_eq!(site.hits("/files/report.pdf"), 0);
}

#[tokio::test]
async fn a_redirect_to_a_file_url_is_blocked_even_with_the_guard_off() {
    let site = Site::start().await;

    let rejection = rejection(
        fetch(
            options(),
            &site.url(&Site::redirect_path("file:///etc/passwd")),
        )
        .await,
    );

    assert_eq!(
        summary(&rejection),
        (
            Label::NotFound,
            Reason::BlockedAddress,
            Some("file:///etc/passwd"),
            None
        )
    );
}

#[tokio::test]
async fn a_location_in_raw_utf8_is_followed() {
    let site = Site::start().await;

    let page = page(fetch(options(), &site.url("/redirect-utf8")).await);

    assert_eq!(
        page.final_url,
        site.url("/wiki/Cr%C3%A8me_br%C3%BBl%C3%A9e")
    );
    assert!(page.markdown.contains(ARTICLE_SENTENCE));
}

#[tokio::test]
async fn the_timeout_bounds_the_whole_redirect_chain_not_each_hop() {
    let site = Site::start().await;
    let options = FetchOptions {
        timeout: Duration::from_millis(650),
        attempts: 1,
        ..options()
    };

    // Each answer takes 250 ms: every hop is within the timeout, the chain of four is not. The
    // third request starts with 150 ms left and is cut off when they run out.
    let rejection = rejection(fetch(options, &site.url("/slow-chain/0")).await);

    assert_eq!(
        summary(&rejection),
        (
            Label::Unreachable,
            Reason::Timeout,
            Some(site.url("/slow-chain/2").as_str()),
            None
        )
    );
    assert_eq!(site.hits("/slow-chain/3"), 0);
}

#[tokio::test]
async fn a_slow_redirect_chain_within_the_timeout_is_followed() {
    let site = Site::start().await;

    let page = page(fetch(options(), &site.url("/slow-chain/0")).await);

    assert_eq!(page.final_url, site.url("/slow-chain/3"));
}
