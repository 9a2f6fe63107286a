//! What a successful answer turns out to be: an article, a soft 404, an empty shell, a PDF, an
//! image, plain text, a page in a legacy charset.

use citecheck_core::extract;
use citecheck_core::fetch::FetchOptions;
use citecheck_core::{Label, Reason};

use super::{fetch, no_pdf_options, options, page, rejection, summary};
use crate::site::{Site, ARTICLE_SENTENCE, NOTES_MD, NOTES_TXT, SHORT_TXT, THIN_READABILITY};

#[tokio::test]
async fn a_soft_404_template_served_with_200_is_not_found() {
    let site = Site::start().await;
    let url = site.url("/soft-404");

    let rejection = rejection(fetch(options(), &url).await);

    assert_eq!(
        summary(&rejection),
        (
            Label::NotFound,
            Reason::Soft404,
            Some(url.as_str()),
            Some(200)
        )
    );
}

#[tokio::test]
async fn a_long_article_that_mentions_404_is_kept() {
    let site = Site::start().await;

    let page = page(fetch(options(), &site.url("/status-codes")).await);

    assert!(
        extract::non_whitespace_chars(&page.markdown) > 800,
        "{}",
        page.markdown
    );
    assert!(page.markdown.contains("Engineers call this a soft 404"));
    assert_eq!(page.original_status, 200);
}

#[tokio::test]
async fn an_empty_javascript_shell_needs_javascript() {
    let site = Site::start().await;
    let url = site.url("/app");

    let rejection = rejection(fetch(options(), &url).await);

    assert_eq!(
        summary(&rejection),
        (
            Label::NotFound,
            Reason::NeedsJavascript,
            Some(url.as_str()),
            Some(200)
        )
    );
}

#[tokio::test]
async fn a_page_whose_readability_pass_is_too_thin_is_converted_whole_and_judged() {
    let readable = extract::html_to_markdown(THIN_READABILITY, None);
    assert!(!readable.readability, "the fixture must defeat readability");
    let site = Site::start().await;

    let page = page(fetch(options(), &site.url("/lighthouse")).await);

    assert!(
        page.markdown.contains("open to visitors again"),
        "{}",
        page.markdown
    );
    assert!(
        page.markdown.contains("spiral stair of 117 steps"),
        "{}",
        page.markdown
    );
}

#[tokio::test]
async fn a_windows_1251_page_declared_only_in_a_meta_tag_is_decoded() {
    let site = Site::start().await;

    let page = page(fetch(options(), &site.url("/cyrillic")).await);

    assert!(
        page.markdown
            .contains("На уровне моря вода закипает при температуре сто градусов Цельсия."),
        "{}",
        page.markdown
    );
}

#[tokio::test]
async fn a_windows_1251_page_that_declares_nothing_is_decoded_by_its_bytes() {
    let site = Site::start().await;

    let page = page(fetch(options(), &site.url("/cyrillic-undeclared")).await);

    assert!(
        page.markdown
            .contains("Щепотка соли почти не меняет температуру кипения"),
        "{}",
        page.markdown
    );
}

#[tokio::test]
async fn an_iso_8859_1_page_declared_only_in_the_header_is_decoded() {
    let site = Site::start().await;

    let page = page(fetch(options(), &site.url("/latin1")).await);

    assert!(
        page.markdown
            .contains("Au café de la gare, la crème brûlée est préparée chaque matin"),
        "{}",
        page.markdown
    );
}

#[tokio::test]
async fn plain_text_is_used_as_it_is() {
    let site = Site::start().await;

    let page = page(fetch(options(), &site.url("/notes.txt")).await);

    assert_eq!(page.markdown, NOTES_TXT.trim());
}

#[tokio::test]
async fn markdown_is_used_as_it_is() {
    let site = Site::start().await;

    let page = page(fetch(options(), &site.url("/notes.md")).await);

    assert_eq!(page.markdown, NOTES_MD.trim());
}

#[tokio::test]
async fn a_short_plain_text_file_is_judged_not_taken_for_a_script_shell() {
    let site = Site::start().await;

    let page = page(fetch(options(), &site.url("/short.txt")).await);

    assert_eq!(page.markdown, SHORT_TXT.trim());
}

#[tokio::test]
async fn with_pdf_reading_off_a_pdf_by_extension_is_not_requested() {
    let site = Site::start().await;
    let url = site.url("/files/Report.PDF");

    let rejection = rejection(fetch(no_pdf_options(), &url).await);

    assert_eq!(
        summary(&rejection),
        (
            Label::NotFound,
            Reason::PdfUnsupported,
            Some(url.as_str()),
            None
        )
    );
    assert_eq!(site.total_hits(), 0);
}

#[tokio::test]
async fn with_pdf_reading_off_a_pdf_by_content_type_on_an_ordinary_path_is_not_supported() {
    let site = Site::start().await;
    // Declared `application/pdf`; and declared as bare bytes, starting with `%PDF-`.
    for path in ["/download/report", "/download/octet-pdf"] {
        let url = site.url(path);

        let rejection = rejection(fetch(no_pdf_options(), &url).await);

        assert_eq!(
            summary(&rejection),
            (
                Label::NotFound,
                Reason::PdfUnsupported,
                Some(url.as_str()),
                Some(200)
            )
        );
        assert_eq!(site.hits(path), 1);
    }
}

#[tokio::test]
async fn an_image_is_an_unsupported_content_type() {
    let site = Site::start().await;
    let url = site.url("/image");

    let rejection = rejection(fetch(options(), &url).await);

    assert_eq!(
        summary(&rejection),
        (
            Label::NotFound,
            Reason::UnsupportedContentType,
            Some(url.as_str()),
            Some(200)
        )
    );
}

#[tokio::test]
async fn an_image_larger_than_the_cap_is_still_an_unsupported_content_type() {
    let site = Site::start().await;
    let options = FetchOptions {
        max_body_bytes: 64 * 1024,
        ..options()
    };

    let rejection = rejection(fetch(options, &site.url("/big-image")).await);

    assert_eq!(rejection.reason, Reason::UnsupportedContentType);
}

#[tokio::test]
async fn html_without_a_content_type_is_recognised_by_its_bytes() {
    let site = Site::start().await;
    for path in ["/undeclared", "/octet-stream"] {
        let page = page(fetch(options(), &site.url(path)).await);

        assert!(
            page.markdown.contains(ARTICLE_SENTENCE),
            "{path}: {}",
            page.markdown
        );
        assert!(!page.markdown.contains("<p>"), "{path}: {}", page.markdown);
    }
}

#[tokio::test]
async fn undeclared_html_that_opens_with_a_comment_is_still_converted() {
    let site = Site::start().await;

    let page = page(fetch(options(), &site.url("/undeclared-commented")).await);

    assert!(
        page.markdown.contains("rings the bell twice"),
        "{}",
        page.markdown
    );
    assert!(!page.markdown.contains("<html>"), "{}", page.markdown);
}
