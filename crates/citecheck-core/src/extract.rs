//! HTML -> Markdown of the page's main content (pure, CPU-bound, bounded).
//!
//! A readability pass (dom_smoothie, a port of Mozilla's readability.js) picks the article and
//! drops navigation, sidebars, footers and ads; htmd turns it into Markdown. When that leaves
//! fewer than [`MIN_READABLE_CHARS`] non-whitespace characters the readability pass is taken to
//! have failed (short or unusual pages) and the whole page is converted instead, minus scripts,
//! styles and other markup that is never text.
//!
//! Both libraries recurse over the tree and the readability pass is quadratic in its depth, so a
//! page reaches them only within [`PageLimits`]: its markup is counted first ([`census`]), then
//! the tree is built in chunks under the [`Budget`] and measured again. A page too deep or with
//! too many elements is flattened to its text ([`flatten`]); one whose tags carry too many
//! attributes for the tokenizer is refused. Call it on a thread with a large stack (see
//! [`crate::workers`]): the limits keep the recursion to a few hundred levels.

use std::sync::OnceLock;

use dom_query::{Document, NodeRef};
use dom_smoothie::{Config, Readability};
use htmd::element_handler::{HandlerResult, Handlers};
use htmd::{Element, HtmlToMarkdown};
use html5ever::tendril::{StrTendril, TendrilSink};
use thiserror::Error;

use crate::census;
use crate::flatten;
use crate::limits::{Budget, Exhausted, Measure, Overflow, PageLimits};

/// Below this many non-whitespace characters a conversion counts as thin: the readability pass
/// is retried without readability, and a page still this thin after that is an empty shell.
pub const MIN_READABLE_CHARS: usize = 200;

/// Input handed to the tree builder between two budget checks.
const PARSE_CHUNK_BYTES: usize = 64 * 1024;

/// A page converted to Markdown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extracted {
    pub markdown: String,
    /// The document's title, when it has one.
    pub title: Option<String>,
    /// Whether the Markdown came from the readability pass (false: whole-page fallback).
    pub readability: bool,
    /// The limit the page went over, when its text was flattened instead of converted.
    pub flattened: Option<Overflow>,
}

/// Why a page could not be converted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ExtractError {
    #[error("the page is too complex to convert: {0}")]
    TooComplex(Overflow),
    #[error(transparent)]
    Budget(#[from] Exhausted),
}

/// Converts an HTML page to Markdown, readability first, whole page as the fallback; a page over
/// `limits` is flattened to text or refused, and the work stops when `budget` ends.
///
/// `url` resolves relative links; it may be `None`.
pub fn html_to_markdown(
    html: &str,
    url: Option<&str>,
    limits: &PageLimits,
    budget: &Budget,
) -> Result<Extracted, ExtractError> {
    let counted = census::take(html, limits.max_depth);
    limits
        .check(Measure::AttributesOnOneElement, counted.busiest_tag)
        .and_then(|()| limits.check(Measure::Attributes, counted.attributes))
        .map_err(ExtractError::TooComplex)?;
    let over = limits
        .check(Measure::Depth, counted.depth)
        .and_then(|()| limits.check(Measure::Elements, counted.elements));
    if let Err(overflow) = over {
        return flattened(html, overflow, budget);
    }
    budget.check()?;
    let document = match parse(html, limits, budget)? {
        Ok(document) => document,
        Err(overflow) => return flattened(html, overflow, budget),
    };
    if let Err(overflow) = measure_tree(&document, limits) {
        drop(document);
        return flattened(html, overflow, budget);
    }
    budget.check()?;
    let (readable, title) = readability_markdown(document, url);
    budget.check()?;
    let title = title.or_else(|| document_title(html));
    if let Some(markdown) = readable {
        if non_whitespace_chars(&markdown) >= MIN_READABLE_CHARS {
            return Ok(Extracted {
                markdown,
                title,
                readability: true,
                flattened: None,
            });
        }
    }
    Ok(Extracted {
        markdown: whole_page_markdown(html),
        title,
        readability: false,
        flattened: None,
    })
}

/// The page as plain paragraphs, for a page over the tree limits.
fn flattened(html: &str, overflow: Overflow, budget: &Budget) -> Result<Extracted, ExtractError> {
    tracing::debug!(%overflow, "page flattened to text");
    Ok(Extracted {
        markdown: tidy(flatten::text(html, budget)?),
        title: document_title(html),
        readability: false,
        flattened: Some(overflow),
    })
}

/// Builds the tree in chunks, checking the budget between them and the number of nodes the tree
/// builder made (it may add elements the census never saw).
fn parse(
    html: &str,
    limits: &PageLimits,
    budget: &Budget,
) -> Result<Result<Document, Overflow>, Exhausted> {
    let options = html5ever::ParseOpts {
        tree_builder: html5ever::tree_builder::TreeBuilderOpts {
            scripting_enabled: false,
            ..Default::default()
        },
        ..Default::default()
    };
    let mut parser = html5ever::parse_document(Document::default(), options);
    // Elements, text nodes and comments: a tree of allowed elements stays well under this.
    let max_nodes = limits.max_elements.saturating_mul(4);
    let mut rest = html;
    while !rest.is_empty() {
        budget.check()?;
        let nodes = parser.tokenizer.sink.sink.tree.len();
        if nodes > max_nodes {
            return Ok(Err(Overflow {
                what: Measure::Elements,
                found: nodes,
                limit: max_nodes,
            }));
        }
        let mut cut = rest.len().min(PARSE_CHUNK_BYTES);
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        let (chunk, tail) = rest.split_at(cut);
        parser.process(StrTendril::from_slice(chunk));
        rest = tail;
    }
    Ok(Ok(parser.finish()))
}

/// The depth and element count of the built tree, walked without recursion.
fn measure_tree(document: &Document, limits: &PageLimits) -> Result<(), Overflow> {
    let mut elements = 0;
    let mut deepest = 0;
    let mut depth = 0;
    let mut node: Option<NodeRef<'_>> = document.root().first_child();
    while let Some(current) = node {
        if current.is_element() {
            elements += 1;
        }
        deepest = usize::max(deepest, depth + 1);
        if let Some(child) = current.first_child() {
            depth += 1;
            node = Some(child);
            continue;
        }
        let mut climbing = Some(current);
        node = None;
        while let Some(at) = climbing {
            if let Some(sibling) = at.next_sibling() {
                node = Some(sibling);
                break;
            }
            climbing = at.parent().filter(|parent| !parent.is_document());
            depth = depth.saturating_sub(1);
        }
    }
    limits.check(Measure::Depth, deepest)?;
    limits.check(Measure::Elements, elements)
}

/// The number of characters that are not whitespace: the measure every thinness rule uses.
pub fn non_whitespace_chars(text: &str) -> usize {
    text.chars().filter(|c| !c.is_whitespace()).count()
}

fn readability_markdown(document: Document, url: Option<&str>) -> (Option<String>, Option<String>) {
    let config = Config {
        // The page limits have already bounded the element count.
        max_elements_to_parse: 0,
        ..Config::default()
    };
    let Ok(mut readability) = Readability::with_document(document, url, Some(config)) else {
        return (None, None);
    };
    let parsed = readability.parse();
    // The tree and the copies the readability pass made of it are freed before the Markdown
    // conversion builds its own tree: only one is held at a time.
    drop(readability);
    match parsed {
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
            .add_handler(vec!["sup"], footnote_marker)
            .build()
    })
}

/// Drops a superscript that is a footnote marker: an encyclopedia's "[3]", "[a]" or
/// "[citation needed]", or a link to a note on the same page ("<sup><a href="#fn1">1</a>").
/// Left in, the marker glues to the sentence ("tall.[3] It was"), so the next sentence does
/// not start, and its number reads as a figure of the sentence. Other superscripts (the "6"
/// of 10<sup>6</sup>, "th") keep their text.
fn footnote_marker(handlers: &dyn Handlers, element: Element) -> Option<HandlerResult> {
    let inner = handlers.walk_children(element.node).content;
    if is_footnote_marker(&inner) {
        return Some(HandlerResult::from(String::new()));
    }
    Some(HandlerResult::from(inner))
}

/// Whether a superscript's Markdown is only bracketed notes ("[3]", "[3][4]", "[citation
/// needed]") or one link ("[1](#fn1)", "[[3]](https://x.org/wiki/A#cite_note-3)"), Markdown
/// escapes and emphasis aside. A superscript link is a note reference, never a claim's words.
fn is_footnote_marker(markdown: &str) -> bool {
    // The visible text: escapes, emphasis and link targets dropped; a link's text keeps the
    // brackets that mark it, so a lone link reads as one bracketed note.
    let mut visible = String::with_capacity(markdown.len());
    let mut chars = markdown.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' | '*' | '_' => {}
            ']' if chars.peek() == Some(&'(') => {
                visible.push(']');
                chars.by_ref().find(|&d| d == ')');
            }
            c => visible.push(c),
        }
    }
    let visible = visible.trim();
    if !visible.starts_with('[') {
        return false;
    }
    let mut depth = 0usize;
    let mut label_chars = 0;
    for c in visible.chars() {
        match c {
            '[' => depth += 1,
            ']' => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            },
            c if depth == 0 && !c.is_whitespace() => return false,
            _ => label_chars += 1,
        }
    }
    depth == 0 && (1..=40).contains(&label_chars)
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
    use std::time::Duration;

    use super::*;
    use crate::limits::{MAX_ATTRIBUTES_PER_ELEMENT, MAX_DEPTH, MAX_ELEMENTS};

    fn html_to_markdown(html: &str, url: Option<&str>) -> Extracted {
        super::html_to_markdown(
            html,
            url,
            &PageLimits::default(),
            &Budget::new(Duration::from_secs(60)),
        )
        .expect("the page converts")
    }

    fn nested(open: &str, close: &str, levels: usize) -> String {
        format!(
            "<html><head><title>Deep</title></head><body>{}Water boils at 100 degrees Celsius \
             at sea level.{}</body></html>",
            open.repeat(levels),
            close.repeat(levels)
        )
    }

    /// Set in the child process that [`in_child_process`] starts.
    const CHILD: &str = "CITECHECK_EXTRACT_CHILD";

    /// Runs the test `name` of this module in a child process and fails if the child did not
    /// exit cleanly. A stack overflow aborts the whole process, so only a child can report one
    /// as a failure instead of taking the test binary down. Returns false in the child itself.
    fn in_child_process(name: &str) -> bool {
        if std::env::var_os(CHILD).is_some() {
            return false;
        }
        let module = module_path!().split_once("::").map_or("", |(_, m)| m);
        let exe = std::env::current_exe().expect("the test binary's path");
        let status = std::process::Command::new(exe)
            .args(["--exact", &format!("{module}::{name}"), "--test-threads=1"])
            .env(CHILD, "1")
            .status()
            .expect("the child test runs");
        assert!(status.success(), "the child process failed: {status}");
        true
    }

    /// Converts on a thread with the 2 MiB stack Rust gives spawned threads (and tokio its
    /// blocking pool): the limits must keep the recursion well inside it, so the large-stack
    /// workers have a wide margin.
    fn convert_on_a_small_stack(html: String) -> Result<Extracted, ExtractError> {
        std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                super::html_to_markdown(
                    &html,
                    None,
                    &PageLimits::default(),
                    &Budget::new(Duration::from_secs(120)),
                )
            })
            .expect("spawn")
            .join()
            .expect("no panic")
    }

    #[test]
    fn deeply_nested_pages_are_flattened_without_overflowing_the_stack_issue_11() {
        if in_child_process(
            "deeply_nested_pages_are_flattened_without_overflowing_the_stack_issue_11",
        ) {
            return;
        }
        for (open, close, levels) in [
            ("<b>", "</b>", 2_000),
            ("<div>", "</div>", 5_000),
            ("<div>", "</div>", 100_000),
            ("<span>", "", 50_000),
            ("<ul><li>", "</li></ul>", 3_000),
            ("<table><tr><td>", "</td></tr></table>", 2_000),
            ("<div/>", "", 5_000),
        ] {
            let got = convert_on_a_small_stack(nested(open, close, levels))
                .unwrap_or_else(|err| panic!("{open} x {levels}: {err}"));
            assert!(got.flattened.is_some(), "{open} x {levels}");
            assert!(
                got.markdown
                    .contains("Water boils at 100 degrees Celsius at sea level."),
                "{open} x {levels}: {}",
                got.markdown
            );
            assert_eq!(got.title.as_deref(), Some("Deep"));
        }
    }

    #[test]
    fn pages_just_inside_the_depth_limit_convert_on_a_small_stack_issue_11() {
        if in_child_process("pages_just_inside_the_depth_limit_convert_on_a_small_stack_issue_11") {
            return;
        }
        let room = MAX_DEPTH - 3;
        for (open, close, per_level) in [
            ("<div>", "</div>", 1),
            ("<b>", "</b>", 1),
            ("<blockquote>", "</blockquote>", 1),
            ("<ul><li>", "</li></ul>", 2),
            ("<ol><li><p>", "</p></li></ol>", 3),
            ("<table><tr><td>", "</td></tr></table>", 4),
            ("<a href=\"/x\">", "</a>", 1),
        ] {
            let html = nested(open, close, room / per_level);
            let got = convert_on_a_small_stack(html).unwrap_or_else(|err| panic!("{open}: {err}"));
            assert_eq!(got.flattened, None, "{open}");
            assert!(
                got.markdown.contains("Water boils"),
                "{open}: {}",
                got.markdown
            );
        }
    }

    #[test]
    fn too_many_elements_are_flattened_before_a_tree_is_built() {
        let html = format!("<body>{}</body>", "<p>x</p>".repeat(MAX_ELEMENTS + 1));
        let got = html_to_markdown(&html, None);
        let overflow = got.flattened.expect("flattened");
        assert_eq!(overflow.what, Measure::Elements);
        assert_eq!(got.markdown.matches('x').count(), MAX_ELEMENTS + 1);
    }

    #[test]
    fn a_tag_with_too_many_attributes_is_refused_by_name() {
        let names: Vec<String> = (0..=MAX_ATTRIBUTES_PER_ELEMENT)
            .map(|i| format!("a{i}"))
            .collect();
        let html = format!("<div {}>Water boils.</div>", names.join(" "));
        let err = super::html_to_markdown(
            &html,
            None,
            &PageLimits::default(),
            &Budget::new(Duration::from_secs(60)),
        )
        .expect_err("refused");
        assert!(matches!(
            err,
            ExtractError::TooComplex(Overflow {
                what: Measure::AttributesOnOneElement,
                ..
            })
        ));
        assert!(
            err.to_string().contains("257 attributes on one element"),
            "{err}"
        );
    }

    #[test]
    fn a_spent_budget_stops_the_conversion() {
        let err = super::html_to_markdown(
            ARTICLE,
            None,
            &PageLimits::default(),
            &Budget::new(Duration::ZERO),
        )
        .expect_err("no time left");
        assert_eq!(err, ExtractError::Budget(Exhausted::Time(Duration::ZERO)));
    }

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
    fn footnote_markers_are_dropped_and_other_superscripts_kept() {
        let html = r##"<html><head><title>Tarn Bridge</title></head><body><main>
<h1>Tarn Bridge</h1>
<p>The Tarn Bridge is 412 metres long.<sup id="cite_ref-3" class="reference"><a
href="#cite_note-3"><span class="cite-bracket">&#91;</span>3<span
class="cite-bracket">&#93;</span></a></sup><sup class="reference"><a href="#cite_note-4">[4]</a></sup>
It was opened in 1911 by the Orland Railway Company,<sup class="reference"><a
href="#cite_note-a">[a]</a></sup> which ran it until 1948.<sup class="noprint
Inline-Template"><i>[<a href="/wiki/Wikipedia:Citation_needed">citation needed</a>]</i></sup></p>
<p>Its toll house covers 40 m<sup>2</sup>, and it was the 2<sup>nd</sup> bridge
over the Tarn. A later survey<sup><a href="#fn1">1</a></sup> found no cracks in the piers.</p>
<p>The bridge was painted grey in 1960 and again in 1994, when the company that owned it
repaired the eastern approach and replaced the lamps along the footway.</p>
</main></body></html>"##;
        let got = html_to_markdown(html, Some("https://example.org/wiki/Tarn_Bridge"));
        let text = got
            .markdown
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            text.contains(
                "The Tarn Bridge is 412 metres long. It was opened in 1911 by the \
                Orland Railway Company, which ran it until 1948."
            ),
            "{text}"
        );
        assert!(text.contains("covers 40 m2,"), "{text}");
        assert!(text.contains("the 2nd bridge"), "{text}");
        assert!(text.contains("A later survey found no cracks"), "{text}");
        assert!(
            !text.contains("citation needed") && !text.contains("cite_note"),
            "{text}"
        );
    }

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
