//! The text of a page too complex for a tree, read as a stream of tokens (pure; no tree, no
//! recursion, memory in proportion to the text kept).
//!
//! Takes HTML whose tags carry few enough attributes for the tokenizer (see
//! [`crate::census`]); gives its visible text with a blank line at each block boundary, scripts,
//! styles and other markup that is never text left out. Character references are decoded by the
//! HTML tokenizer itself. The budget is checked between chunks of input, so a caller that leaves
//! stops the work within one chunk.

use std::cell::{Cell, RefCell};

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    BufferQueue, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use html5ever::{local_name, LocalName};

use crate::limits::{Budget, Exhausted};

/// Input handed to the tokenizer between two budget checks.
const CHUNK_BYTES: usize = 64 * 1024;

/// Elements whose content is never text to judge.
fn is_skipped(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("script")
            | local_name!("style")
            | local_name!("noscript")
            | local_name!("template")
            | local_name!("svg")
            | local_name!("canvas")
            | local_name!("iframe")
            | local_name!("button")
            | local_name!("form")
            | local_name!("select")
            | local_name!("textarea")
            | local_name!("object")
            | local_name!("embed")
            | local_name!("title")
            | local_name!("math")
    )
}

/// Elements that start or end a paragraph of text.
fn is_block(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("address")
            | local_name!("article")
            | local_name!("aside")
            | local_name!("blockquote")
            | local_name!("caption")
            | local_name!("center")
            | local_name!("dd")
            | local_name!("details")
            | local_name!("dialog")
            | local_name!("dir")
            | local_name!("div")
            | local_name!("dl")
            | local_name!("dt")
            | local_name!("fieldset")
            | local_name!("figcaption")
            | local_name!("figure")
            | local_name!("footer")
            | local_name!("h1")
            | local_name!("h2")
            | local_name!("h3")
            | local_name!("h4")
            | local_name!("h5")
            | local_name!("h6")
            | local_name!("header")
            | local_name!("hgroup")
            | local_name!("hr")
            | local_name!("li")
            | local_name!("listing")
            | local_name!("main")
            | local_name!("menu")
            | local_name!("nav")
            | local_name!("ol")
            | local_name!("p")
            | local_name!("pre")
            | local_name!("section")
            | local_name!("summary")
            | local_name!("table")
            | local_name!("td")
            | local_name!("th")
            | local_name!("tr")
            | local_name!("ul")
            | local_name!("body")
            | local_name!("html")
    )
}

/// The visible text of `html`, paragraphs separated by a blank line.
pub fn text(html: &str, budget: &Budget) -> Result<String, Exhausted> {
    let tokenizer = Tokenizer::new(
        TextSink::default(),
        TokenizerOpts {
            discard_bom: true,
            ..TokenizerOpts::default()
        },
    );
    let queue = BufferQueue::default();
    let mut rest = html;
    while !rest.is_empty() {
        budget.check()?;
        let mut cut = rest.len().min(CHUNK_BYTES);
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        let (chunk, tail) = rest.split_at(cut);
        queue.push_back(StrTendril::from_slice(chunk));
        // The sink never asks for a script to run, so each call consumes the whole queue.
        let _ = tokenizer.feed(&queue);
        rest = tail;
    }
    tokenizer.end();
    Ok(tokenizer.sink.out.take())
}

#[derive(Default)]
struct TextSink {
    out: RefCell<String>,
    /// Open skipped elements: their text is left out.
    skipping: Cell<usize>,
    /// A paragraph break is owed before the next text.
    pending_break: Cell<bool>,
    /// A space is owed before the next word.
    pending_space: Cell<bool>,
}

impl TextSink {
    fn push_text(&self, text: &str) {
        if self.skipping.get() > 0 {
            return;
        }
        let mut out = self.out.borrow_mut();
        // HTML collapses only ASCII whitespace: a no-break space stays part of the text.
        let space = |c: char| c.is_ascii_whitespace();
        if text.starts_with(space) {
            self.pending_space.set(true);
        }
        for word in text.split(space).filter(|word| !word.is_empty()) {
            if !out.is_empty() {
                if self.pending_break.get() {
                    out.push_str("\n\n");
                } else if self.pending_space.get() {
                    out.push(' ');
                }
            }
            self.pending_break.set(false);
            self.pending_space.set(false);
            out.push_str(word);
            self.pending_space.set(true);
        }
        if !text.is_empty() && !text.ends_with(space) {
            // The next token continues the word (`a<b>c</b>` is one word).
            self.pending_space.set(false);
        }
    }
}

impl TokenSink for TextSink {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        match token {
            Token::CharacterTokens(text) => self.push_text(&text),
            Token::TagToken(tag) => {
                let start = tag.kind == TagKind::StartTag;
                if is_skipped(&tag.name) {
                    if start && !tag.self_closing {
                        self.skipping.set(self.skipping.get() + 1);
                    } else if !start {
                        self.skipping.set(self.skipping.get().saturating_sub(1));
                    }
                }
                if is_block(&tag.name) {
                    self.pending_break.set(true);
                } else if tag.name == local_name!("br") {
                    self.pending_space.set(true);
                }
                if start {
                    return match tag.name {
                        local_name!("script") => TokenSinkResult::RawData(RawKind::ScriptData),
                        local_name!("style")
                        | local_name!("xmp")
                        | local_name!("iframe")
                        | local_name!("noembed")
                        | local_name!("noframes") => TokenSinkResult::RawData(RawKind::Rawtext),
                        local_name!("title") | local_name!("textarea") => {
                            TokenSinkResult::RawData(RawKind::Rcdata)
                        }
                        local_name!("plaintext") => TokenSinkResult::Plaintext,
                        _ => TokenSinkResult::Continue,
                    };
                }
            }
            _ => {}
        }
        TokenSinkResult::Continue
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn flat(html: &str) -> String {
        text(html, &Budget::new(Duration::from_secs(60))).expect("within budget")
    }

    #[test]
    fn text_keeps_its_words_and_blocks_become_paragraphs() {
        let html = "<html><head><title>T</title><style>p{}</style></head><body>\
                    <h1>Boiling</h1><p>Water <b>boils</b> at 100&nbsp;&deg;C.</p>\
                    <script>var x = '<p>no</p>';</script><div>Sea le<i>vel</i> only.</div>";
        assert_eq!(
            flat(html),
            "Boiling\n\nWater boils at 100\u{a0}\u{b0}C.\n\nSea level only."
        );
    }

    #[test]
    fn deep_nesting_is_only_a_stream_of_tags() {
        let depth = 200_000;
        let html = format!(
            "{}Water boils at 100 degrees Celsius.{}",
            "<div>".repeat(depth),
            "</div>".repeat(depth)
        );
        assert_eq!(flat(&html), "Water boils at 100 degrees Celsius.");
    }

    #[test]
    fn a_spent_budget_stops_the_stream() {
        let html = "<p>x</p>".repeat(100_000);
        assert_eq!(
            text(&html, &Budget::new(Duration::ZERO)),
            Err(Exhausted::Time(Duration::ZERO))
        );
    }

    #[test]
    fn chunks_split_inside_multibyte_characters_and_tags_lose_nothing() {
        let sentence = "Température de l’eau: cent degrés. ";
        let html = format!("<p>{}</p>", sentence.repeat(CHUNK_BYTES / 10));
        let got = flat(&html);
        assert_eq!(got, sentence.repeat(CHUNK_BYTES / 10).trim_end());
    }
}
