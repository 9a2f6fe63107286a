//! `pdf::read` on PDFs the tests generate.

use std::time::Duration;

use citecheck_core::pdf::{self, PdfError, PdfLimits};

use super::make;
use super::{lines, paper, PAPER_SENTENCES};

#[test]
fn a_generated_paper_reads_as_clean_sentences() {
    let text = pdf::read(&make::pdf(&paper()), &PdfLimits::default())
        .expect("the paper reads")
        .text;

    for sentence in PAPER_SENTENCES {
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains(sentence), "{sentence:?} not in {text:?}");
    }
    assert!(!text.contains("Proceedings"), "running header kept: {text}");
    assert!(
        !text.contains('\u{FB03}') && !text.contains('\u{AD}'),
        "{text}"
    );
    assert!(
        !text.lines().any(|l| l.trim().parse::<u32>().is_ok()),
        "page numbers kept: {text}"
    );
}

#[test]
fn pages_and_pages_read_are_counted() {
    let read = pdf::read(&make::pdf(&paper()), &PdfLimits::default()).expect("reads");
    assert_eq!((read.pages, read.pages_read), (3, 3));

    let limits = PdfLimits {
        max_pages: 1,
        ..PdfLimits::default()
    };
    let read = pdf::read(&make::pdf(&paper()), &limits).expect("reads");
    assert_eq!((read.pages, read.pages_read), (3, 1));
    assert!(read.text.contains("specializes"), "{}", read.text);
    assert!(!read.text.contains("baseline"), "{}", read.text);
}

#[test]
fn a_pdf_that_needs_a_password_is_encrypted() {
    let bytes = make::encrypted_pdf(&paper(), "secret");

    let err = pdf::read(&bytes, &PdfLimits::default()).expect_err("needs a password");

    assert!(matches!(err, PdfError::Encrypted), "{err:?}");
}

#[test]
fn a_pdf_encrypted_with_an_empty_user_password_is_read() {
    // Owner restrictions only: every viewer opens it without asking.
    let bytes = make::encrypted_pdf(&paper(), "");

    let text = pdf::read(&bytes, &PdfLimits::default())
        .expect("opens without a password")
        .text;

    assert!(text.contains("specializes every trace"), "{text}");
}

#[test]
fn pages_without_a_text_layer_have_no_text() {
    let err = pdf::read(&make::scan_pdf(3, |_| None), &PdfLimits::default()).expect_err("a scan");
    assert!(
        matches!(err, PdfError::NoText { pages: 3, chars: 0 }),
        "{err:?}"
    );

    // A page number on each scanned page is still a scan.
    let numbered = make::scan_pdf(4, |i| Some(format!("p. {}", i + 1)));
    let err = pdf::read(&numbered, &PdfLimits::default()).expect_err("a scan");
    assert!(
        matches!(err, PdfError::NoText { pages: 4, chars: 8 }),
        "{err:?}"
    );
}

#[test]
fn a_few_words_without_images_are_a_short_document_not_a_scan() {
    let tiny = vec![lines(&["Closed."])];

    let text = pdf::read(&make::pdf(&tiny), &PdfLimits::default())
        .expect("reads")
        .text;

    assert_eq!(text, "Closed.");
}

#[test]
fn a_short_one_page_notice_is_text() {
    let notice = vec![lines(&["The office is closed on public holidays."])];

    let text = pdf::read(&make::pdf(&notice), &PdfLimits::default())
        .expect("reads")
        .text;

    assert_eq!(text, "The office is closed on public holidays.");
}

#[test]
fn a_stream_that_inflates_past_the_limit_is_too_large() {
    let limits = PdfLimits {
        max_stream_bytes: 1024 * 1024,
        ..PdfLimits::default()
    };

    let err = pdf::read(&make::bomb_pdf(8 * 1024 * 1024), &limits).expect_err("a bomb");

    assert!(
        matches!(err, PdfError::TooLarge { limit } if limit == 1024 * 1024),
        "{err:?}"
    );
}

#[test]
fn bytes_that_are_not_a_pdf_are_malformed() {
    for bytes in [&b""[..], b"%PDF-1.7\n", b"<html>not a pdf</html>"] {
        let err = pdf::read(bytes, &PdfLimits::default()).expect_err("not a PDF");
        assert!(matches!(err, PdfError::Malformed(_)), "{err:?}");
    }
}

#[tokio::test]
async fn reading_off_the_executor_gives_the_same_text() {
    let bytes = make::pdf(&paper());
    let here = pdf::read(&bytes, &PdfLimits::default()).expect("reads");

    let there = pdf::read_blocking(bytes, PdfLimits::default())
        .await
        .expect("reads");

    assert_eq!(here, there);
}

#[tokio::test]
async fn a_zero_budget_times_out() {
    let limits = PdfLimits {
        timeout: Duration::ZERO,
        ..PdfLimits::default()
    };

    let err = pdf::read_blocking(make::pdf(&paper()), limits)
        .await
        .expect_err("no time to read");

    assert!(matches!(err, PdfError::Timeout(_)), "{err:?}");
}
