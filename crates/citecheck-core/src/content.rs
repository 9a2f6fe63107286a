//! What a successfully fetched page turned out to be (pure): a soft 404, an empty JavaScript
//! shell, a paywall teaser, or readable content.
//!
//! These rules run on the text citecheck would judge, whichever fetcher produced it.

use crate::extract::{non_whitespace_chars, MIN_READABLE_CHARS};

/// A page this short (non-whitespace characters) can be a "not found" template; a longer page
/// that merely mentions a 404 is an article and is kept.
pub const SOFT_404_MAX_CHARS: usize = 800;

/// Phrases that "page not found" templates use, lower-case.
const NOT_FOUND_PHRASES: &[&str] = &[
    "page not found",
    "page cannot be found",
    "page could not be found",
    "page can't be found",
    "page can’t be found",
    "page you requested",
    "page you were looking for",
    "page you are looking for",
    "page you're looking for",
    "page does not exist",
    "page doesn't exist",
    "page no longer exists",
    "no longer available",
    "couldn't find the page",
    "could not find the page",
    "can't find the page",
    "cannot find the page",
    "nothing was found",
    "file not found",
    "error 404",
    "404 error",
    "404 not found",
    "not found (404)",
    "seite nicht gefunden",
    "page introuvable",
    "página no encontrada",
    "pagina non trovata",
];

/// Phrases a subscription wall shows in place of the article, lower-case.
const PAYWALL_PHRASES: &[&str] = &[
    "subscribe to continue reading",
    "subscribe to read",
    "subscribe now to continue",
    "to continue reading, subscribe",
    "continue reading with a subscription",
    "this article is for subscribers",
    "this content is for subscribers",
    "available to subscribers only",
    "for subscribers only",
    "subscribers only",
    "already a subscriber",
    "sign in to continue reading",
    "log in to continue reading",
    "create a free account to continue",
    "register to continue reading",
    "you have reached your limit of free articles",
    "you've reached your free article limit",
];

/// The verdict-relevant nature of a fetched page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageKind {
    /// Readable content to judge.
    Content,
    /// A short "page not found" template served with a success status.
    Soft404,
    /// Still nearly empty after the readability fallback: only a browser would fill it.
    NeedsJavascript,
}

/// Classifies converted text. `html` is the raw page when there was one (direct fetches), used
/// to tell an empty script-built shell from a short but real page.
pub fn classify(markdown: &str, title: Option<&str>, html: Option<&str>) -> PageKind {
    let chars = non_whitespace_chars(markdown);
    if chars < SOFT_404_MAX_CHARS && looks_like_not_found(markdown, title) {
        return PageKind::Soft404;
    }
    if chars < MIN_READABLE_CHARS && (chars == 0 || html.is_none_or(is_script_shell)) {
        return PageKind::NeedsJavascript;
    }
    PageKind::Content
}

/// Classifies a plain-text or Markdown response, used as it is. It can be a "not found" notice,
/// but never a script shell: a short text file is short, not empty, and is judged.
pub fn classify_text(text: &str) -> PageKind {
    if non_whitespace_chars(text) < SOFT_404_MAX_CHARS && looks_like_not_found(text, None) {
        return PageKind::Soft404;
    }
    PageKind::Content
}

/// True when the title or text reads like a "not found" template.
pub fn looks_like_not_found(markdown: &str, title: Option<&str>) -> bool {
    let title = title.unwrap_or_default().to_lowercase();
    let text = markdown.to_lowercase();
    let title_says = NOT_FOUND_PHRASES.iter().any(|p| title.contains(p))
        || title.trim() == "404"
        || title.contains("404") && title.contains("not found");
    let text_says = NOT_FOUND_PHRASES.iter().any(|p| text.contains(p))
        || (text.contains("404") && (text.contains("not found") || text.contains("oops")));
    title_says || text_says
}

/// True when the page builds its content with scripts: it loads scripts and has an app mount
/// point, or tells the reader to enable JavaScript.
fn is_script_shell(html: &str) -> bool {
    let lower = html.to_ascii_lowercase();
    let mentions_js = lower.contains("enable javascript")
        || lower.contains("javascript is required")
        || lower.contains("javascript is disabled")
        || lower.contains("requires javascript");
    mentions_js || lower.contains("<script")
}

/// True when the page shows a subscription wall. Only consulted when the judge found nothing,
/// to name the likely cause; it never changes a supported or contradicted verdict.
pub fn looks_paywalled(markdown: &str, html: Option<&str>) -> bool {
    let text = markdown.to_lowercase();
    if PAYWALL_PHRASES.iter().any(|p| text.contains(p)) {
        return true;
    }
    html.is_some_and(|html| {
        let lower = html.to_ascii_lowercase();
        let compact: String = lower.chars().filter(|c| !c.is_whitespace()).collect();
        compact.contains("\"isaccessibleforfree\":false")
            || compact.contains("\"isaccessibleforfree\":\"false\"")
            || PAYWALL_PHRASES.iter().any(|p| lower.contains(p))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn long_article_mentioning_404() -> String {
        let sentence = "The HTTP status 404 means not found, and servers send it when a page is \
                        missing; this article explains how caches treat it. ";
        sentence.repeat(12)
    }

    #[test]
    fn a_short_not_found_template_is_a_soft_404() {
        let md = "# Oops!\n\nThe page you are looking for does not exist. Go back home.";
        assert_eq!(classify(md, Some("Not here"), None), PageKind::Soft404);
        assert_eq!(
            classify("Sorry about that.", Some("404 - Page Not Found"), None),
            PageKind::Soft404
        );
    }

    #[test]
    fn a_long_article_that_mentions_404_is_kept() {
        let md = long_article_mentioning_404();
        assert!(non_whitespace_chars(&md) > SOFT_404_MAX_CHARS);
        assert_eq!(
            classify(&md, Some("Understanding 404 errors"), None),
            PageKind::Content
        );
    }

    #[test]
    fn a_thin_scripted_page_needs_javascript_but_a_short_real_page_is_kept() {
        let shell =
            r#"<html><body><div id="root"></div><script src="app.js"></script></body></html>"#;
        assert_eq!(
            classify("", Some("App"), Some(shell)),
            PageKind::NeedsJavascript
        );
        assert_eq!(
            classify("Loading", None, Some(shell)),
            PageKind::NeedsJavascript
        );
        let short = "<html><body><p>The museum is closed on Mondays.</p></body></html>";
        assert_eq!(
            classify("The museum is closed on Mondays.", None, Some(short)),
            PageKind::Content
        );
        // Without the raw page (a crawling service's Markdown), thin means a shell.
        assert_eq!(classify("Loading", None, None), PageKind::NeedsJavascript);
    }

    #[test]
    fn a_text_response_is_never_a_script_shell_but_can_be_a_not_found_notice() {
        assert_eq!(classify_text("Open nine to five."), PageKind::Content);
        assert_eq!(classify_text(""), PageKind::Content);
        assert_eq!(classify_text("404 page not found"), PageKind::Soft404);
        let long = long_article_mentioning_404();
        assert_eq!(classify_text(&long), PageKind::Content);
    }

    #[test]
    fn paywall_teasers_are_recognised_from_text_or_markup() {
        assert!(looks_paywalled(
            "Subscribe to continue reading this story.",
            None
        ));
        let html = r#"<script type="application/ld+json">{"isAccessibleForFree": false}</script>"#;
        assert!(looks_paywalled("A teaser paragraph.", Some(html)));
        assert!(!looks_paywalled(
            "An article about subscriptions to magazines.",
            None
        ));
    }
}
