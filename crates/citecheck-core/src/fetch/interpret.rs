//! The rules that decide what a fetched answer means (pure), shared by every fetcher: dead links,
//! homepage redirects, PDFs, content types, soft 404s, empty shells.

use url::Url;

use super::{FetchOutcome, Page, Rejection};
use crate::content::{self, PageKind};
use crate::error_text::error_chain;
use crate::extract;
use crate::limits::{Budget, PageLimits};
use crate::model::{Label, Reason};
use crate::pdf::{PdfError, PdfText};

/// The path a homepage check compares: empty is `/`, and one trailing slash is dropped, so
/// `/a/` and `/a` are the same page.
pub fn normalised_path(url: &Url) -> &str {
    let path = url.path();
    if path.is_empty() {
        return "/";
    }
    match path.strip_suffix('/') {
        Some("") | None => path,
        Some(trimmed) => trimmed,
    }
}

/// True when a deep link (path other than `/`) ended on the site's root page.
pub fn is_homepage_redirect(requested: &Url, final_url: &Url) -> bool {
    normalised_path(requested) != "/" && normalised_path(final_url) == "/"
}

/// True when the URL's path names a PDF file.
pub fn has_pdf_path(url: &Url) -> bool {
    url.path().to_ascii_lowercase().ends_with(".pdf")
}

/// How a body should be read, from its declared type or, when none is declared, its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyKind {
    Html,
    /// Plain text or Markdown: used as it is.
    Text,
    Pdf,
    Other,
}

/// The body kind from a `Content-Type` value and a sniff of the body.
pub fn body_kind(content_type: Option<&str>, body: &[u8]) -> BodyKind {
    declared_kind(content_type).unwrap_or_else(|| sniff(body))
}

/// The body kind a `Content-Type` value settles on its own; `None` when the type is missing or
/// says nothing (`application/octet-stream`) and only the body can tell.
pub fn declared_kind(content_type: Option<&str>) -> Option<BodyKind> {
    let mime = content_type
        .and_then(|ct| ct.split(';').next())
        .map(|m| m.trim().to_ascii_lowercase())
        .filter(|m| !m.is_empty())?;
    Some(match mime.as_str() {
        "text/html" | "application/xhtml+xml" => BodyKind::Html,
        "application/pdf" | "application/x-pdf" => BodyKind::Pdf,
        m if m.starts_with("text/") => BodyKind::Text,
        "application/octet-stream" | "binary/octet-stream" => return None,
        _ => BodyKind::Other,
    })
}

/// What undeclared bytes are, after the WHATWG MIME sniffing rules: a PDF signature, a
/// document opening with one of the tags (or a comment) that only HTML starts with, text, or
/// binary.
fn sniff(body: &[u8]) -> BodyKind {
    const HTML_OPENINGS: &[&str] = &[
        "<!doctype html",
        "<html",
        "<head",
        "<script",
        "<iframe",
        "<h1",
        "<div",
        "<font",
        "<table",
        "<a",
        "<style",
        "<title",
        "<b",
        "<body",
        "<br",
        "<p",
        "<!--",
    ];
    let head = &body[..body.len().min(1024)];
    if head.starts_with(b"%PDF-") {
        return BodyKind::Pdf;
    }
    let text = String::from_utf8_lossy(head).to_ascii_lowercase();
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    let opens_html = HTML_OPENINGS.iter().any(|tag| {
        trimmed.strip_prefix(tag).is_some_and(|rest| {
            // `<a` must not match `<article`: a tag name ends at a space or `>`
            // (a comment needs no terminator).
            *tag == "<!--" || rest.starts_with([' ', '>', '\t', '\n', '\r', '\x0c'])
        })
    });
    if opens_html || text.contains("<body") {
        return BodyKind::Html;
    }
    if std::str::from_utf8(head).is_ok() || !head.contains(&0) {
        return BodyKind::Text;
    }
    BodyKind::Other
}

/// The outcome for a final answer whose status is not a success: 404/410 are dead links, the
/// rest failed fetches; either way `unreachable` and the judge is never called.
pub fn status_rejection(final_url: &Url, status: u16) -> Rejection {
    Rejection::new(Label::Unreachable, Reason::Http(status))
        .at(final_url.as_str(), Some(status))
        .detail(format!("the server answered HTTP {status}"))
}

/// Interprets a successful answer's body: type checks, conversion, and the page rules.
///
/// `text` is the decoded body; converting it stops when `budget` ends.
pub fn interpret_body(
    requested: &Url,
    final_url: &Url,
    status: u16,
    kind: BodyKind,
    text: &str,
    budget: &Budget,
) -> FetchOutcome {
    if let Some(outcome) = rejection_before_body(requested, final_url, status, Some(kind), false) {
        return outcome;
    }
    // PDFs (read by [`interpret_pdf`], never as text) and other types were refused above: what
    // is left is HTML or text.
    if kind == BodyKind::Html {
        let extracted = match extract::html_to_markdown(
            text,
            Some(final_url.as_str()),
            &PageLimits::default(),
            budget,
        ) {
            Ok(extracted) => extracted,
            Err(err) => {
                return FetchOutcome::Rejected(
                    Rejection::new(Label::NotFound, Reason::PageTooComplex)
                        .at(final_url.as_str(), Some(status))
                        .detail(err.to_string()),
                )
            }
        };
        return interpret_markdown(
            final_url,
            status,
            extracted.markdown,
            extracted.title.as_deref(),
            Some(text),
        );
    }
    let text = text.trim().to_string();
    outcome(content::classify_text(&text), final_url, status, text, None)
}

/// The verdict a successful answer gets from its URL and body kind alone, so that a body that
/// cannot be judged (a homepage, an image, a PDF when `read_pdfs` is off) is not downloaded
/// first: a large one would otherwise be reported as too large instead of for what it is.
pub fn rejection_before_body(
    requested: &Url,
    final_url: &Url,
    status: u16,
    kind: Option<BodyKind>,
    read_pdfs: bool,
) -> Option<FetchOutcome> {
    let reject = |reason| {
        Some(FetchOutcome::Rejected(
            Rejection::new(Label::NotFound, reason).at(final_url.as_str(), Some(status)),
        ))
    };
    if is_homepage_redirect(requested, final_url) {
        return reject(Reason::RedirectedToHomepage);
    }
    if !read_pdfs && (kind == Some(BodyKind::Pdf) || has_pdf_path(final_url)) {
        return reject(Reason::PdfUnsupported);
    }
    if kind == Some(BodyKind::Other) {
        return reject(Reason::UnsupportedContentType);
    }
    None
}

/// The verdict for a PDF's extracted text: a page to judge, or why there is none.
///
/// A PDF's text goes to the judge whatever its length once it has a text layer (a one-page
/// notice is still a source), so the soft-404 and empty-shell rules for HTML do not apply.
pub fn interpret_pdf(
    final_url: &Url,
    status: u16,
    read: Result<PdfText, PdfError>,
) -> FetchOutcome {
    let err = match read {
        Ok(pdf) => {
            tracing::debug!(pages = pdf.pages, pages_read = pdf.pages_read, "read a PDF");
            return FetchOutcome::Page(Page {
                final_url: final_url.to_string(),
                original_status: status,
                markdown: pdf.text,
                rid: None,
                paywalled: false,
                cost: None,
            });
        }
        Err(err) => err,
    };
    let reason = match &err {
        PdfError::Encrypted => Reason::PdfEncrypted,
        PdfError::NoText { .. } => Reason::PdfNoText,
        // Both mean the document is more than the budget allows to read.
        PdfError::TooLarge { .. } | PdfError::Timeout(_) => Reason::BodyTooLarge,
        _ => Reason::BadResponse,
    };
    FetchOutcome::Rejected(
        Rejection::new(Label::NotFound, reason)
            .at(final_url.as_str(), Some(status))
            .detail(error_chain(&err)),
    )
}

/// Applies the page rules to text that is already Markdown (a crawling service's answer, or a
/// converted HTML page): soft 404, empty shell, paywall flag.
pub fn interpret_markdown(
    final_url: &Url,
    status: u16,
    markdown: String,
    title: Option<&str>,
    html: Option<&str>,
) -> FetchOutcome {
    let kind = content::classify(&markdown, title, html);
    outcome(kind, final_url, status, markdown, html)
}

/// A page to judge, or the rejection its kind calls for.
fn outcome(
    kind: PageKind,
    final_url: &Url,
    status: u16,
    markdown: String,
    html: Option<&str>,
) -> FetchOutcome {
    let reason = match kind {
        PageKind::Content => {
            return FetchOutcome::Page(Page {
                final_url: final_url.to_string(),
                original_status: status,
                paywalled: content::looks_paywalled(&markdown, html),
                markdown,
                rid: None,
                cost: None,
            })
        }
        PageKind::Soft404 => Reason::Soft404,
        PageKind::NeedsJavascript => Reason::NeedsJavascript,
    };
    FetchOutcome::Rejected(
        Rejection::new(Label::NotFound, reason).at(final_url.as_str(), Some(status)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(text: &str) -> Url {
        Url::parse(text).expect("test URLs parse")
    }

    #[test]
    fn paths_normalise_trailing_slashes_and_empty_paths() {
        let table = [
            ("https://a.example", "/"),
            ("https://a.example/", "/"),
            ("https://a.example/a/", "/a"),
            ("https://a.example/a", "/a"),
            ("https://a.example/a/b/?q=1", "/a/b"),
            ("https://a.example//", "/"),
        ];
        for (text, expected) in table {
            assert_eq!(normalised_path(&url(text)), expected, "{text}");
        }
    }

    #[test]
    fn only_a_deep_link_landing_on_the_root_is_a_homepage_redirect() {
        let table = [
            ("https://a.example/story/1", "https://a.example/", true),
            ("https://a.example/story/1", "https://www.a.example", true),
            ("https://a.example/story/", "https://a.example/story", false),
            ("https://a.example/", "https://a.example/", false),
            ("https://a.example", "https://a.example/", false),
            ("https://a.example/old", "https://a.example/new", false),
            (
                "https://a.example/old?id=1",
                "https://a.example/?id=1",
                true,
            ),
        ];
        for (from, to, expected) in table {
            assert_eq!(
                is_homepage_redirect(&url(from), &url(to)),
                expected,
                "{from} -> {to}"
            );
        }
    }

    #[test]
    fn pdfs_are_recognised_by_path_type_or_magic_bytes() {
        assert!(has_pdf_path(&url("https://a.example/report.PDF")));
        assert!(!has_pdf_path(&url("https://a.example/report.pdf.html")));
        assert_eq!(body_kind(Some("application/pdf"), b""), BodyKind::Pdf);
        assert_eq!(body_kind(None, b"%PDF-1.7\n"), BodyKind::Pdf);
        assert_eq!(
            body_kind(Some("application/octet-stream"), b"%PDF-1.4"),
            BodyKind::Pdf
        );
    }

    #[test]
    fn content_types_choose_how_the_body_is_read() {
        assert_eq!(
            body_kind(Some("text/html; charset=utf-8"), b""),
            BodyKind::Html
        );
        assert_eq!(body_kind(Some("TEXT/HTML"), b""), BodyKind::Html);
        assert_eq!(body_kind(Some("text/markdown"), b"# hi"), BodyKind::Text);
        assert_eq!(body_kind(Some("text/plain"), b"hi"), BodyKind::Text);
        assert_eq!(body_kind(Some("image/png"), b"\x89PNG"), BodyKind::Other);
        assert_eq!(body_kind(None, b"<!DOCTYPE html><html>"), BodyKind::Html);
        assert_eq!(body_kind(None, b"\n <!-- a comment -->"), BodyKind::Html);
        assert_eq!(body_kind(None, b"<P>a paragraph"), BodyKind::Html);
        assert_eq!(body_kind(None, b"<article>"), BodyKind::Text);
        assert_eq!(body_kind(None, b"<abc> is not a tag"), BodyKind::Text);
        assert_eq!(body_kind(None, b"\x00\x01\x02\xff"), BodyKind::Other);
    }

    #[test]
    fn statuses_map_to_unreachable_with_the_status_as_reason() {
        let r = status_rejection(&url("https://a.example/x"), 410);
        assert_eq!(r.label, Label::Unreachable);
        assert_eq!(r.reason, Reason::Http(410));
        assert_eq!(r.original_status, Some(410));
    }
}
