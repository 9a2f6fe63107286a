//! The reference example end to end (issue 2, section 9): an article saying water boils at
//! 100 degrees Celsius at sea level and a URL answering 404, both on 127.0.0.1.

use citecheck::static_site::StaticSite;
use citecheck_core::{Check, Label, Reason};

use crate::support_local::{fixture, local_verifier};

const SENTENCE: &str = "Water boils at 100 degrees Celsius at sea level.";

async fn site() -> (StaticSite, String, String) {
    let site = StaticSite::serve(&fixture("example"))
        .await
        .expect("the example site starts");
    let article = format!("{}/articles/water-boiling-point", site.base_url());
    let dead = format!("{}/old-report", site.base_url());
    (site, article, dead)
}

#[tokio::test]
async fn a_claim_the_article_states_is_supported_despite_a_dead_citation() {
    let (_site, article, dead) = site().await;
    let verdict = local_verifier()
        .verify(Check::new(SENTENCE, [article.clone(), dead.clone()]))
        .await;

    assert_eq!(verdict.overall, Label::Supported);
    assert_eq!(verdict.citations.len(), 2);
    let page = &verdict.citations[0];
    assert_eq!(page.url, article);
    assert_eq!(page.label, Label::Supported);
    assert_eq!(page.evidence_quote.as_deref(), Some(SENTENCE));
    assert_eq!(page.original_status, Some(200));
    assert!(page.confidence > 0.5 && page.confidence <= 1.0);
    let gone = &verdict.citations[1];
    assert_eq!(gone.url, dead);
    assert_eq!(gone.label, Label::Unreachable);
    assert_eq!(gone.reason, Some(Reason::Http(404)));
    assert_eq!(gone.original_status, Some(404));
    assert_eq!(gone.evidence_quote, None);
}

#[tokio::test]
async fn fifty_degrees_is_contradicted_by_the_articles_sentence() {
    let (_site, article, dead) = site().await;
    let verdict = local_verifier()
        .verify(Check::new(
            "Water boils at 50 degrees Celsius at sea level.",
            [article, dead],
        ))
        .await;

    assert_eq!(verdict.overall, Label::Contradicted);
    let page = &verdict.citations[0];
    assert_eq!(page.label, Label::Contradicted);
    assert_eq!(page.evidence_quote.as_deref(), Some(SENTENCE));
    assert_eq!(page.reason, None);
    assert_eq!(verdict.citations[1].label, Label::Unreachable);
}

#[tokio::test]
async fn a_claim_the_article_does_not_address_is_not_found() {
    let (_site, article, _dead) = site().await;
    let verdict = local_verifier()
        .verify(Check::new("Water freezes at 0 degrees Celsius.", [article]))
        .await;

    assert_eq!(verdict.overall, Label::NotFound);
    assert_eq!(verdict.citations[0].label, Label::NotFound);
    assert_eq!(verdict.citations[0].reason, None);
}
