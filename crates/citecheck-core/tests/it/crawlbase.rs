//! The Crawlbase fetcher against a mock of the Crawling and Storage APIs on 127.0.0.1: the exact
//! requests it sends, how it reads the answers, when it escalates to a browser, how API failures
//! surface, what it counts, and that no token ever leaks.

#[path = "crawlbase_failures.rs"]
mod failures;
#[path = "crawlbase_mock.rs"]
mod mock;
#[path = "crawlbase_storage.rs"]
mod storage;

use std::time::Duration;

use citecheck_core::fetch::crawlbase::{CrawlbaseConfig, CrawlbaseFetcher};
use citecheck_core::fetch::{FetchOutcome, Fetcher, Page, Rejection};
use citecheck_core::model::CrawlCost;
use citecheck_core::{Label, Reason};

use mock::{Mock, Recorded, ARTICLE_MD, JS_TOKEN, NORMAL_TOKEN, SITE, WHOLE_PAGE_MD};

/// Fast settings against the mock, with the given tokens.
pub fn config(mock: &Mock, token: &str, js_token: Option<&str>) -> CrawlbaseConfig {
    let mut config = CrawlbaseConfig::from_values(Some(token), js_token, Some(&mock.url()))
        .expect("a valid configuration");
    config.timeout = Duration::from_secs(5);
    config.connect_timeout = Duration::from_secs(2);
    config.attempts = 3;
    config.retry_base = Duration::from_millis(10);
    config.max_retry_wait = Duration::from_secs(3);
    config
}

pub fn fetcher(config: CrawlbaseConfig) -> CrawlbaseFetcher {
    CrawlbaseFetcher::new(config).expect("the fetcher builds")
}

/// A fetcher with both tokens.
pub fn both_tokens(mock: &Mock) -> CrawlbaseFetcher {
    fetcher(config(mock, NORMAL_TOKEN, Some(JS_TOKEN)))
}

pub fn cited(path: &str) -> String {
    format!("{SITE}{path}")
}

pub fn page(outcome: FetchOutcome) -> Page {
    match outcome {
        FetchOutcome::Page(page) => page,
        FetchOutcome::Rejected(rejection) => panic!("expected a page, got {rejection:?}"),
    }
}

pub fn rejection(outcome: FetchOutcome) -> Rejection {
    match outcome {
        FetchOutcome::Rejected(rejection) => rejection,
        FetchOutcome::Page(page) => panic!("expected a rejection, got a page: {page:?}"),
    }
}

/// (rendered, readability) of each Crawling API request, in order.
fn passes(requests: &[Recorded]) -> Vec<(bool, bool)> {
    requests
        .iter()
        .map(|r| (r.rendered(), r.readability()))
        .collect()
}

/// No request before index `first_rendered` carried the JavaScript token or `javascript=true`.
fn assert_rendered_only_from(requests: &[Recorded], first_rendered: usize) {
    for (i, request) in requests.iter().enumerate() {
        let rendered = request.token() == JS_TOKEN || request.has("javascript");
        assert_eq!(
            rendered,
            i >= first_rendered,
            "request {i} rendered={rendered}: {}",
            request.raw_query
        );
    }
}

#[tokio::test]
async fn an_article_is_read_from_readable_markdown_with_one_normal_request() {
    let mock = Mock::start().await;
    let fetcher = both_tokens(&mock);
    let got = page(fetcher.fetch(&cited("/article")).await);
    assert_eq!(got.markdown, ARTICLE_MD);
    assert_eq!(got.final_url, cited("/article"));
    assert_eq!(got.original_status, 200);
    assert_eq!(got.rid.as_deref(), Some("rid-1"));

    let requests = mock.crawls();
    assert_eq!(requests.len(), 1);
    assert_eq!(
        requests[0].raw_query,
        format!(
            "token={NORMAL_TOKEN}&url=https%3A%2F%2Fnews.example%2Farticle\
             &format=md&store=true&md_readability=true"
        )
    );
    assert_rendered_only_from(&requests, usize::MAX);
}

#[tokio::test]
async fn the_cited_url_is_fully_encoded_and_arrives_intact() {
    let mock = Mock::start().await;
    let target = cited("/article?id=7&lang=en#part-2");
    page(both_tokens(&mock).fetch(&target).await);
    let request = &mock.crawls()[0];
    assert!(
        request
            .raw_query
            .contains("url=https%3A%2F%2Fnews.example%2Farticle%3Fid%3D7%26lang%3Den%23part-2&"),
        "{}",
        request.raw_query
    );
    assert_eq!(request.param("url"), Some(target.as_str()));
    assert!(!request.has("custom_success_codes"));
}

#[tokio::test]
async fn a_thin_readability_answer_is_asked_again_without_readability() {
    let mock = Mock::start().await;
    let got = page(both_tokens(&mock).fetch(&cited("/thin-readability")).await);
    assert_eq!(got.markdown, WHOLE_PAGE_MD);
    // The page judged is the second one stored.
    assert_eq!(got.rid.as_deref(), Some("rid-2"));
    let requests = mock.crawls();
    assert_eq!(passes(&requests), vec![(false, true), (false, false)]);
    let second = &requests[1];
    assert_eq!(
        second.raw_query,
        format!(
            "token={NORMAL_TOKEN}&url=https%3A%2F%2Fnews.example%2Fthin-readability\
             &format=md&store=true"
        )
    );
    let cost = got.cost.expect("a Crawlbase page carries its cost");
    assert_eq!((cost.normal_requests, cost.billed_normal), (2, 2));
    assert_eq!(cost.credits(), 3.0);
}

#[tokio::test]
async fn missing_pages_are_unreachable_with_the_origins_status_and_billed() {
    let mock = Mock::start().await;
    let fetcher = both_tokens(&mock);
    for (path, status) in [("/gone", 404), ("/removed", 410)] {
        let got = rejection(fetcher.fetch(&cited(path)).await);
        assert_eq!(got.label, Label::Unreachable, "{path}");
        assert_eq!(got.reason, Reason::Http(status), "{path}");
        assert_eq!(got.original_status, Some(status));
        assert_eq!(got.final_url.as_deref(), Some(cited(path).as_str()));
        let cost = got.cost.expect("cost");
        assert_eq!((cost.normal_requests, cost.billed_normal), (1, 1), "{path}");
    }
    assert_eq!(passes(&mock.crawls()), vec![(false, true); 2]);
}

#[tokio::test]
async fn a_deep_link_that_lands_on_the_homepage_is_not_found() {
    let mock = Mock::start().await;
    let got = rejection(both_tokens(&mock).fetch(&cited("/old-story")).await);
    assert_eq!(
        (got.label, got.reason.clone()),
        (Label::NotFound, Reason::RedirectedToHomepage)
    );
    assert_eq!(got.final_url.as_deref(), Some("https://news.example/"));
    assert_eq!(mock.crawls().len(), 1);
}

#[tokio::test]
async fn a_soft_404_template_is_not_found_without_rendering() {
    let mock = Mock::start().await;
    let got = rejection(both_tokens(&mock).fetch(&cited("/soft-404")).await);
    assert_eq!(
        (got.label, got.reason.clone()),
        (Label::NotFound, Reason::Soft404)
    );
    // Short, so readability is retried; a not-found template is never rendered.
    assert_eq!(passes(&mock.crawls()), vec![(false, true), (false, false)]);
}

#[tokio::test]
async fn a_pdf_link_is_never_sent_to_crawlbase() {
    let mock = Mock::start().await;
    let fetcher = both_tokens(&mock);
    let got = rejection(fetcher.fetch(&cited("/files/Report.PDF")).await);
    assert_eq!(
        (got.label, got.reason.clone()),
        (Label::NotFound, Reason::PdfUnsupported)
    );
    assert!(mock.requests().is_empty());
    assert_eq!(fetcher.usage(), CrawlCost::default());

    let redirected = rejection(fetcher.fetch(&cited("/moved-to-pdf")).await);
    assert_eq!(redirected.reason, Reason::PdfUnsupported);
    assert_eq!(
        redirected.final_url.as_deref(),
        Some("https://news.example/files/report.pdf")
    );
}

#[tokio::test]
async fn the_legacy_pc_status_is_read_when_cb_status_is_absent() {
    let mock = Mock::start().await;
    let got = page(both_tokens(&mock).fetch(&cited("/legacy")).await);
    assert_eq!(got.markdown, ARTICLE_MD);
}

#[tokio::test]
async fn an_origin_error_is_unreachable_naming_its_status() {
    let mock = Mock::start().await;
    let got = rejection(both_tokens(&mock).fetch(&cited("/origin-error")).await);
    assert_eq!(
        (got.label, got.reason.clone(), got.original_status),
        (Label::Unreachable, Reason::Http(500), Some(500))
    );
    assert_eq!(mock.crawls().len(), 1);
}

#[tokio::test]
async fn a_failed_crawl_520_is_retried_with_the_javascript_token() {
    let mock = Mock::start().await;
    let fetcher = both_tokens(&mock);
    let got = page(fetcher.fetch(&cited("/crash")).await);
    assert_eq!(got.markdown, ARTICLE_MD);
    let requests = mock.crawls();
    assert_eq!(passes(&requests), vec![(false, true), (true, true)]);
    assert_rendered_only_from(&requests, 1);
    assert_eq!(requests[1].token(), JS_TOKEN);
    assert!(!requests[1].has("javascript"), "the JS token needs no flag");
    // The failed crawl is not billed; the rendered one is, at 2 credits plus storage.
    let cost = got.cost.expect("cost");
    assert_eq!(
        (cost.normal_requests, cost.javascript_requests),
        (1, 1),
        "{cost:?}"
    );
    assert_eq!((cost.billed_normal, cost.billed_javascript), (0, 1));
    assert_eq!(cost.credits(), 2.5);
}

#[tokio::test]
async fn without_a_js_token_rendering_asks_for_javascript_on_the_normal_token() {
    let mock = Mock::start().await;
    let fetcher = fetcher(config(&mock, NORMAL_TOKEN, None));
    page(fetcher.fetch(&cited("/crash")).await);
    let requests = mock.crawls();
    assert_eq!(requests.len(), 2);
    assert!(!requests[0].has("javascript"));
    assert_eq!(requests[1].token(), NORMAL_TOKEN);
    assert_eq!(requests[1].param("javascript"), Some("true"));
    assert_eq!(fetcher.usage().javascript_requests, 1);
}

#[tokio::test]
async fn an_empty_page_207_is_rendered_in_a_browser() {
    let mock = Mock::start().await;
    let got = page(both_tokens(&mock).fetch(&cited("/empty")).await);
    assert_eq!(got.markdown, ARTICLE_MD);
    let requests = mock.crawls();
    assert_eq!(passes(&requests), vec![(false, true), (true, true)]);
    assert_rendered_only_from(&requests, 1);
    assert_eq!(
        got.cost.expect("cost").billed_normal,
        0,
        "a 207 is not billed"
    );
}

#[tokio::test]
async fn markdown_still_thin_without_readability_is_rendered_in_a_browser() {
    let mock = Mock::start().await;
    let got = page(both_tokens(&mock).fetch(&cited("/app")).await);
    assert_eq!(got.markdown, ARTICLE_MD);
    let requests = mock.crawls();
    assert_eq!(
        passes(&requests),
        vec![(false, true), (false, false), (true, true)]
    );
    assert_rendered_only_from(&requests, 2);
    // The rid is the rendered page's, not a thin one's.
    assert_eq!(got.rid.as_deref(), Some("rid-3"));
}

#[tokio::test]
async fn the_rendered_crawl_gets_the_same_readability_fallback() {
    let mock = Mock::start().await;
    let got = page(both_tokens(&mock).fetch(&cited("/app-readability")).await);
    assert_eq!(got.markdown, WHOLE_PAGE_MD);
    assert_eq!(
        passes(&mock.crawls()),
        vec![(false, true), (false, false), (true, true), (true, false)]
    );
}

#[tokio::test]
async fn a_page_thin_even_when_rendered_is_not_found_needs_javascript() {
    let mock = Mock::start().await;
    let got = rejection(both_tokens(&mock).fetch(&cited("/shell-forever")).await);
    assert_eq!(
        (got.label, got.reason.clone()),
        (Label::NotFound, Reason::NeedsJavascript)
    );
    assert!(
        got.detail
            .as_deref()
            .is_some_and(|d| d.contains("JavaScript")),
        "{got:?}"
    );
    assert_eq!(mock.crawls().len(), 4);
}

#[tokio::test]
async fn a_crawl_that_fails_even_when_rendered_is_crawl_failed() {
    let mock = Mock::start().await;
    let got = rejection(both_tokens(&mock).fetch(&cited("/crash-forever")).await);
    assert_eq!(
        (got.label, got.reason.clone()),
        (Label::Unreachable, Reason::CrawlFailed)
    );
    assert!(got.reason.is_fetch_failure(), "a batch may retry it later");
    assert!(
        got.detail.as_deref().is_some_and(|d| d.contains("520")),
        "{got:?}"
    );
    assert_eq!(passes(&mock.crawls()), vec![(false, true), (true, true)]);
    assert_eq!(
        got.cost.expect("cost").credits(),
        0.0,
        "failed crawls are free"
    );
}

#[tokio::test]
async fn the_homepage_check_applies_to_the_rendered_crawl_too() {
    let mock = Mock::start().await;
    let got = rejection(both_tokens(&mock).fetch(&cited("/js-home")).await);
    assert_eq!(got.reason, Reason::RedirectedToHomepage);
    assert_eq!(passes(&mock.crawls()), vec![(false, true), (true, true)]);
}

#[tokio::test]
async fn usage_totals_add_up_the_costs_of_every_fetch() {
    let mock = Mock::start().await;
    let fetcher = both_tokens(&mock);
    let mut sum = CrawlCost::default();
    for path in ["/article", "/gone", "/crash", "/app", "/crash-forever"] {
        let cost = match fetcher.fetch(&cited(path)).await {
            FetchOutcome::Page(page) => page.cost,
            FetchOutcome::Rejected(rejection) => rejection.cost,
        };
        sum += cost.expect("every crawled outcome carries its cost");
    }
    let usage = fetcher.usage();
    assert_eq!(usage, sum);
    assert_eq!(
        usage.normal_requests + usage.javascript_requests,
        mock.crawls().len() as u64
    );
    // article 1 + gone 1 + app's two thin passes 2, normal; crash and app rendered: 2 x 2;
    // every billed crawl stored: 6 x 0.5.
    assert_eq!((usage.billed_normal, usage.billed_javascript), (4, 2));
    assert_eq!(usage.credits(), 4.0 + 4.0 + 3.0);
}

/// A judge that finds nothing, so that verdicts show what the fetch stage put in them.
struct SilentJudge;

#[async_trait::async_trait]
impl citecheck_core::Judge for SilentJudge {
    fn info(&self) -> citecheck_core::JudgeInfo {
        citecheck_core::JudgeInfo {
            provider: "test".into(),
            model: "silent".into(),
            prompt_version: "t".into(),
        }
    }

    async fn judge(
        &self,
        _claim: &str,
        _passages: &[String],
    ) -> Result<citecheck_core::judge::Judgement, citecheck_core::judge::JudgeError> {
        Ok(citecheck_core::judge::Judgement {
            label: citecheck_core::judge::JudgeLabel::NotFound,
            evidence_quote: None,
            confidence: 0.0,
            usage: None,
            detail: None,
        })
    }
}

#[tokio::test]
async fn verdicts_carry_the_rid_and_the_crawl_cost_and_the_claim_sums_it() {
    use std::sync::Arc;

    use citecheck_core::rank::Bm25Ranker;
    use citecheck_core::{Check, Verifier};

    let mock = Mock::start().await;
    let fetcher = Arc::new(both_tokens(&mock));
    let verifier = Verifier::builder(
        Arc::clone(&fetcher) as Arc<dyn Fetcher>,
        Arc::new(Bm25Ranker),
        Arc::new(SilentJudge),
    )
    .build()
    .expect("valid options");
    let urls = [cited("/article"), cited("/gone"), cited("/article")];
    let result = verifier
        .verify(Check::new("Water boils at 100 degrees Celsius.", &urls))
        .await;

    let article = &result.citations[0];
    assert_eq!(article.rid.as_deref(), Some("rid-1"));
    let meta = article.meta.as_ref().expect("meta");
    assert_eq!(meta.fetcher.as_deref(), Some("crawlbase"));
    assert_eq!(meta.crawl_cost.map(|c| c.credits()), Some(1.5));
    let gone = &result.citations[1];
    assert_eq!(gone.reason, Some(Reason::Http(404)));
    assert_eq!(
        gone.meta
            .as_ref()
            .and_then(|m| m.crawl_cost)
            .map(|c| c.billed_normal),
        Some(1)
    );
    // Two distinct URLs, one request each.
    assert_eq!(result.crawl_cost(), fetcher.usage());
    assert_eq!(result.crawl_cost().credits(), 3.0);
    let json = serde_json::to_value(article).expect("serialises");
    assert_eq!(json["meta"]["crawl_cost"]["estimated_credits"], 1.5);
    assert_eq!(json["rid"], "rid-1");
}
