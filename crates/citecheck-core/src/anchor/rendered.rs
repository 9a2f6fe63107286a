//! Markdown -> the text a reader (and a browser's find) sees (pure).
//!
//! Takes a page's Markdown; gives its visible text, with each character's byte range in the
//! Markdown. Markup is gone (emphasis markers, link targets, images, HTML), every run of
//! whitespace inside a block is one space, and blocks (paragraphs, headings, list items, table
//! cells, ...) are separated by one `'\n'`. That mirrors how a browser matches text fragments: it
//! searches rendered text with whitespace collapsed, and no search term may cross a block.

use std::ops::Range;

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

/// The block separator in [`Rendered::text`].
pub const BLOCK_BREAK: char = '\n';

/// A page's visible text, and where each of its characters came from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rendered {
    /// The visible characters; blocks are separated by [`BLOCK_BREAK`].
    pub text: Vec<char>,
    /// For each character of `text`, its byte range in the Markdown (a block break or a
    /// collapsed space points at the whitespace it stands for, or is empty).
    pub source: Vec<Range<usize>>,
}

impl Rendered {
    /// The Markdown byte range behind the characters `chars` of the text.
    pub fn source_range(&self, chars: Range<usize>) -> Option<Range<usize>> {
        let first = self.source.get(chars.start)?;
        let last = self.source.get(chars.end.checked_sub(1)?)?;
        Some(first.start..last.end.max(first.start))
    }

    fn push(&mut self, c: char, from: Range<usize>) {
        if c.is_whitespace() {
            match self.text.last() {
                None | Some(&' ') | Some(&BLOCK_BREAK) => {}
                Some(_) => {
                    self.text.push(' ');
                    self.source.push(from);
                }
            }
            return;
        }
        self.text.push(c);
        self.source.push(from);
    }

    fn break_block(&mut self, at: usize) {
        if self.text.last() == Some(&' ') {
            self.text.pop();
            self.source.pop();
        }
        if !self.text.is_empty() && self.text.last() != Some(&BLOCK_BREAK) {
            self.text.push(BLOCK_BREAK);
            self.source.push(at..at);
        }
    }

    fn push_text(&mut self, markdown: &str, text: &str, range: Range<usize>) {
        // Escapes and entities make the text differ from its source; then every character
        // points at the whole source run, which is still the right place to show.
        let verbatim = markdown.get(range.clone()) == Some(text);
        for (at, c) in text.char_indices() {
            let from = if verbatim {
                range.start + at..range.start + at + c.len_utf8()
            } else {
                range.clone()
            };
            self.push(c, from);
        }
    }
}

/// Renders `markdown` (CommonMark with tables and strikethrough, as the extractor writes it).
pub fn render(markdown: &str) -> Rendered {
    let mut out = Rendered::default();
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    // Inside an image, the alt text is not shown on the page.
    let mut in_image = 0usize;
    for (event, range) in Parser::new_ext(markdown, options).into_offset_iter() {
        match event {
            Event::Text(text) | Event::Code(text) if in_image == 0 => {
                out.push_text(markdown, &text, range);
            }
            Event::SoftBreak | Event::HardBreak if in_image == 0 => out.push(' ', range),
            Event::Start(Tag::Image { .. }) => in_image += 1,
            Event::End(TagEnd::Image) => in_image = in_image.saturating_sub(1),
            Event::Start(tag) if !is_inline(&tag) => out.break_block(range.start),
            Event::End(tag) if !is_inline_end(&tag) => out.break_block(range.end),
            Event::Rule => out.break_block(range.start),
            _ => {}
        }
    }
    out.break_block(markdown.len());
    if out.text.last() == Some(&BLOCK_BREAK) {
        out.text.pop();
        out.source.pop();
    }
    out
}

fn is_inline(tag: &Tag<'_>) -> bool {
    matches!(
        tag,
        Tag::Emphasis
            | Tag::Strong
            | Tag::Strikethrough
            | Tag::Superscript
            | Tag::Subscript
            | Tag::Link { .. }
    )
}

fn is_inline_end(tag: &TagEnd) -> bool {
    matches!(
        tag,
        TagEnd::Emphasis
            | TagEnd::Strong
            | TagEnd::Strikethrough
            | TagEnd::Superscript
            | TagEnd::Subscript
            | TagEnd::Link
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(markdown: &str) -> String {
        render(markdown).text.into_iter().collect()
    }

    #[test]
    fn markup_is_dropped_and_blocks_are_separated() {
        let md = "# Boiling\n\nWater **boils** at [100 °C](https://x.example/c)\nat sea level.\n\n\
                  * one\n* two\n\n![a chart](c.png) Figure 1.";
        assert_eq!(
            text(md),
            "Boiling\nWater boils at 100 °C at sea level.\none\ntwo\nFigure 1."
        );
    }

    #[test]
    fn every_character_points_back_at_its_markdown() {
        let md = "Intro.\n\nWater **boils** at 100 \\*C.";
        let r = render(md);
        let s: String = r.text.iter().collect();
        let at = s.find("boils").expect("rendered");
        let chars = s[..at].chars().count();
        let src = r.source_range(chars..chars + 5).expect("in range");
        assert_eq!(&md[src], "boils");
        let star = s.find('*').expect("escaped star kept");
        let star = s[..star].chars().count();
        assert_eq!(&md[r.source[star].clone()], "*");
    }

    #[test]
    fn tables_render_one_block_per_cell() {
        let md = "| Metal | Melts at |\n|---|---|\n| Tin | 232 °C |\n";
        assert_eq!(text(md), "Metal\nMelts at\nTin\n232 °C");
    }

    #[test]
    fn empty_markdown_renders_nothing() {
        assert_eq!(render(""), Rendered::default());
        assert_eq!(text("\n\n  \n"), "");
    }
}
