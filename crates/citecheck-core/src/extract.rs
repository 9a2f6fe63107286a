//! HTML -> Markdown of the page's main content (pure, CPU-bound).
//!
//! A readability pass (dom_smoothie, a port of Mozilla's readability.js) picks the article and
//! drops navigation, sidebars, footers and ads; htmd turns it into Markdown. When that leaves
//! fewer than [`MIN_READABLE_CHARS`] non-whitespace characters the readability pass is taken to
//! have failed (short or unusual pages) and the whole page is converted instead, minus scripts,
//! styles and other markup that is never text.

use std::sync::OnceLock;

use dom_smoothie::{Config, Readability};
use htmd::HtmlToMarkdown;

/// Below this many non-whitespace characters a conversion counts as thin: the readability pass
/// is retried without readability, and a page still this thin after that is an empty shell.
pub const MIN_READABLE_CHARS: usize = 200;

/// A page converted to Markdown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extracted {
    pub markdown: String,
    /// The document's title, when it has one.
    pub title: Option<String>,
    /// Whether the Markdown came from the readability pass (false: whole-page fallback).
    pub readability: bool,
}

/// Converts an HTML page to Markdown, readability first, whole page as the fallback.
///
/// `url` resolves relative links; it may be `None`.
pub fn html_to_markdown(html: &str, url: Option<&str>) -> Extracted {
    let (readable, title) = readability_markdown(html, url);
    let title = title.or_else(|| document_title(html));
    if let Some(markdown) = readable {
        if non_whitespace_chars(&markdown) >= MIN_READABLE_CHARS {
            return Extracted {
                markdown,
                title,
                readability: true,
            };
        }
    }
    Extracted {
        markdown: whole_page_markdown(html),
        title,
        readability: false,
    }
}

/// The number of characters that are not whitespace: the measure every thinness rule uses.
pub fn non_whitespace_chars(text: &str) -> usize {
    text.chars().filter(|c| !c.is_whitespace()).count()
}

fn readability_markdown(html: &str, url: Option<&str>) -> (Option<String>, Option<String>) {
    let config = Config {
        // Very large pages would otherwise take seconds; readability.js has no cap either, so
        // keep it generous.
        max_elements_to_parse: 0,
        ..Config::default()
    };
    let Ok(mut readability) = Readability::new(html, url, Some(config)) else {
        return (None, None);
    };
    match readability.parse() {
        Ok(article) => {
            let title = Some(article.title.trim().to_string()).filter(|t| !t.is_empty());
            let markdown = converter().convert(&article.content).ok().map(tidy);
            (markdown, title)
        }
        Err(_) => (None, None),
    }
}

fn whole_page_markdown(html: &str) -> String {
    converter().convert(html).map(tidy).unwrap_or_default()
}

/// One converter for the process: building its handler table per page is wasted work.
fn converter() -> &'static HtmlToMarkdown {
    static CONVERTER: OnceLock<HtmlToMarkdown> = OnceLock::new();
    CONVERTER.get_or_init(|| {
        HtmlToMarkdown::builder()
            .skip_tags(vec![
                "script", "style", "noscript", "template", "svg", "canvas", "iframe", "head",
                "button", "form", "select", "input", "textarea", "object", "embed",
            ])
            .build()
    })
}

/// Trims trailing spaces and collapses runs of blank lines, so passages split cleanly.
fn tidy(markdown: String) -> String {
    let mut out = String::with_capacity(markdown.len());
    let mut blank_run = 0;
    for line in markdown.lines() {
        let line = line.trim_end();
        if line.trim().is_empty() {
            blank_run += 1;
            if blank_run > 1 {
                continue;
            }
            out.push('\n');
        } else {
            blank_run = 0;
            out.push_str(line);
            out.push('\n');
        }
    }
    out.trim().to_string()
}

/// The text of the first `<title>` element, whitespace collapsed.
pub fn document_title(html: &str) -> Option<String> {
    let lower = html.to_ascii_lowercase();
    let open = lower.find("<title")?;
    let start = open + lower[open..].find('>')? + 1;
    let end = start + lower[start..].find("</title")?;
    let title = html
        .get(start..end)?
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    Some(title).filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    const ARTICLE: &str = r#"<!doctype html><html><head><title>Boiling point of water</title>
<style>body{color:red}</style><script>var tracking = "should never appear";</script></head>
<body>
<nav><a href="/">Home</a> | <a href="/science">Science</a> | <a href="/about">About us</a></nav>
<aside class="sidebar"><h3>Related stories</h3><ul><li><a href="/a">Ten facts about ice</a></li>
<li><a href="/b">Why the sky is blue</a></li></ul></aside>
<article><h1>Boiling point of water</h1>
<p>Water boils at 100 degrees Celsius at sea level. At this temperature the vapour pressure of
water equals the pressure of the atmosphere around it, and bubbles of vapour form throughout the
liquid rather than only at its surface.</p>
<p>At higher altitudes the air pressure is lower, so water boils at a lower temperature. On the
summit of a high mountain it can boil at around 70 degrees Celsius, which is why cooking
instructions sometimes change for high places.</p>
<p>Dissolved salt raises the boiling point slightly. The effect is small for the amounts used in
cooking, a fraction of a degree for a typical pot of pasta water.</p>
</article>
<footer>Copyright 2026 Example Science. All rights reserved. Privacy policy. Cookie settings.</footer>
</body></html>"#;

    #[test]
    fn readability_keeps_the_article_and_drops_the_chrome() {
        let got = html_to_markdown(ARTICLE, Some("https://example.com/water"));
        assert!(got.readability);
        assert!(got
            .markdown
            .contains("Water boils at 100 degrees Celsius at sea level."));
        assert!(got.markdown.contains("around 70 degrees Celsius"));
        for chrome in ["Related stories", "Copyright 2026", "tracking", "About us"] {
            assert!(
                !got.markdown.contains(chrome),
                "{chrome} leaked:\n{}",
                got.markdown
            );
        }
        assert_eq!(got.title.as_deref(), Some("Boiling point of water"));
    }

    #[test]
    fn a_page_too_short_for_readability_falls_back_to_the_whole_page() {
        let html = "<html><head><title>Note</title></head><body><div><span>Short note: the \
                    museum is closed on Mondays.</span></div><script>x()</script></body></html>";
        let got = html_to_markdown(html, None);
        assert!(!got.readability);
        assert!(got.markdown.contains("the museum is closed on Mondays."));
        assert!(!got.markdown.contains("x()"));
    }

    #[test]
    fn an_empty_shell_converts_to_nothing() {
        let html = r#"<html><head><title>App</title><script src="/app.js"></script></head>
<body><div id="root"></div><noscript>You need to enable JavaScript to run this app.</noscript></body></html>"#;
        let got = html_to_markdown(html, None);
        assert_eq!(non_whitespace_chars(&got.markdown), 0, "{}", got.markdown);
    }

    #[test]
    fn titles_are_read_case_insensitively() {
        assert_eq!(
            document_title("<HTML><TITLE>\n Hello\n  world </TITLE>").as_deref(),
            Some("Hello world")
        );
        assert_eq!(document_title("<p>no title</p>"), None);
    }
}
