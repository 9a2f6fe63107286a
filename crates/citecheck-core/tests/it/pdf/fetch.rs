//! PDFs fetched by the direct fetcher from a site on 127.0.0.1: found by content type, by path
//! or by their first bytes; refused with the reason that says why (`pdf_encrypted`,
//! `pdf_no_text`, `body_too_large`, `pdf_unsupported` when reading PDFs is off); and a PDF's
//! sentence verified `supported` end to end with a verbatim quote.

use std::collections::HashMap;
use std::net::Ipv4Addr;
use std::sync::{Arc, Mutex};

use axum::extract::{Path, State};
use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use citecheck_core::fetch::{FetchOptions, FetchOutcome, Fetcher};
use citecheck_core::judge::LocalJudge;
use citecheck_core::rank::Bm25Ranker;
use citecheck_core::{Check, Label, Reason, Verifier};

use super::{make, paper, PAPER_SENTENCES};
use crate::fetch::{fetcher, options, page, rejection, summary};

/// Documents served, by path: (content type, body).
type Files = Arc<HashMap<&'static str, (&'static str, Vec<u8>)>>;

struct PdfSite {
    base: String,
    hits: Arc<Mutex<HashMap<String, usize>>>,
}

impl PdfSite {
    async fn start() -> PdfSite {
        let big = {
            let mut bytes = make::pdf(&paper());
            bytes.resize(2 * 1024 * 1024, b' ');
            bytes
        };
        let files: Files = Arc::new(HashMap::from([
            ("paper.pdf", ("application/pdf", make::pdf(&paper()))),
            ("paper", ("application/pdf", make::pdf(&paper()))),
            ("octets", ("application/octet-stream", make::pdf(&paper()))),
            (
                "locked.pdf",
                ("application/pdf", make::encrypted_pdf(&paper(), "secret")),
            ),
            ("scan.pdf", ("application/pdf", make::scan_pdf(2, |_| None))),
            ("big.pdf", ("application/pdf", big)),
        ]));
        let hits = Arc::new(Mutex::new(HashMap::new()));
        let counter = Arc::clone(&hits);
        let app = Router::new()
            .route(
                "/files/{name}",
                get(
                    move |Path(name): Path<String>, State(files): State<Files>| {
                        let counter = Arc::clone(&counter);
                        async move {
                            *counter
                                .lock()
                                .expect("hit counter")
                                .entry(name.clone())
                                .or_insert(0) += 1;
                            match files.get(name.as_str()) {
                                Some((kind, body)) => {
                                    ([(CONTENT_TYPE, *kind)], body.clone()).into_response()
                                }
                                None => axum::http::StatusCode::NOT_FOUND.into_response(),
                            }
                        }
                    },
                ),
            )
            .with_state(files);
        let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .await
            .expect("bind");
        let base = format!("http://{}/files", listener.local_addr().expect("address"));
        tokio::spawn(async move { axum::serve(listener, app).await.expect("serves") });
        PdfSite { base, hits }
    }

    fn url(&self, name: &str) -> String {
        format!("{}/{name}", self.base)
    }

    fn hits(&self, name: &str) -> usize {
        self.hits
            .lock()
            .expect("hit counter")
            .get(name)
            .copied()
            .unwrap_or(0)
    }
}

fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[tokio::test]
async fn a_pdf_is_read_by_content_type_path_or_signature() {
    let site = PdfSite::start().await;
    // Declared PDF on a .pdf path and on a bare path; declared bare bytes.
    for name in ["paper.pdf", "paper", "octets"] {
        let page = page(fetcher(options()).fetch(&site.url(name)).await);

        let text = flat(&page.markdown);
        for sentence in PAPER_SENTENCES {
            assert!(
                text.contains(sentence),
                "{name}: {sentence:?} not in {text:?}"
            );
        }
        assert_eq!(page.original_status, 200);
        assert_eq!(page.final_url, site.url(name));
    }
}

#[tokio::test]
async fn refused_pdfs_name_their_reason() {
    let site = PdfSite::start().await;
    let small_cap = FetchOptions {
        max_body_bytes: 1024 * 1024,
        ..options()
    };
    let table = [
        ("locked.pdf", options(), Reason::PdfEncrypted),
        ("scan.pdf", options(), Reason::PdfNoText),
        ("big.pdf", small_cap, Reason::BodyTooLarge),
    ];
    for (name, options, reason) in table {
        let url = site.url(name);

        let rejection = rejection(fetcher(options).fetch(&url).await);

        assert_eq!(
            summary(&rejection),
            (Label::NotFound, reason, Some(url.as_str()), Some(200)),
            "{name}: {rejection:?}"
        );
        assert!(rejection.detail.is_some(), "{name}: no detail");
    }
}

#[tokio::test]
async fn with_pdf_reading_off_a_pdf_is_unsupported_and_a_pdf_path_never_requested() {
    let site = PdfSite::start().await;
    let off = || FetchOptions {
        pdf: None,
        ..options()
    };

    let by_path = rejection(fetcher(off()).fetch(&site.url("paper.pdf")).await);
    let by_type = rejection(fetcher(off()).fetch(&site.url("paper")).await);

    assert_eq!(by_path.reason, Reason::PdfUnsupported);
    assert_eq!(site.hits("paper.pdf"), 0);
    assert_eq!(by_type.reason, Reason::PdfUnsupported);
    assert_eq!(site.hits("paper"), 1);
}

#[tokio::test]
async fn a_claim_from_a_pdf_is_supported_with_a_verbatim_quote() {
    let site = PdfSite::start().await;
    let fetcher = fetcher(options());
    let verifier = Verifier::builder(
        Arc::new(fetcher),
        Arc::new(Bm25Ranker),
        Arc::new(LocalJudge::default()),
    )
    .build()
    .expect("the verifier builds");
    let url = site.url("paper.pdf");
    let text = match fetcher_text(&url).await {
        Some(text) => text,
        None => panic!("the PDF does not read"),
    };

    let claim = "The tracing compiler ran the efficient loops up to seven times faster than the \
                 baseline interpreter.";
    let verdict = verifier.verify(Check::new(claim, [url.clone()])).await;

    let citation = &verdict.citations[0];
    assert_eq!(verdict.overall, Label::Supported, "{citation:?}");
    assert_eq!(citation.label, Label::Supported, "{citation:?}");
    let quote = citation.evidence_quote.as_deref().expect("a quote");
    assert!(
        flat(&text).contains(&flat(quote)),
        "{quote:?} is not verbatim in the PDF's text"
    );
    assert!(quote.contains("seven times faster"), "{quote:?}");
}

async fn fetcher_text(url: &str) -> Option<String> {
    match fetcher(options()).fetch(url).await {
        FetchOutcome::Page(page) => Some(page.markdown),
        FetchOutcome::Rejected(_) => None,
    }
}
