//! The common last step of every reader: the answer's text and its citations (byte ranges on
//! character boundaries, or a problem) become an [`Answer`]: citations on the same span merge
//! into one statement, sentences are counted, offsets become characters.

use std::ops::Range;

use crate::model::{Answer, Format, Problem, Source, Span, Statement, Unchecked};
use crate::text;

/// How far a citation's range reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// The range is the cited statement (Anthropic blocks, Gemini segments).
    Exact,
    /// The range marks where the citation sits (an OpenAI inline link, a `[1]` marker): the
    /// statement is the sentence around it.
    Sentence,
}

/// One citation as a reader found it.
#[derive(Debug, Clone)]
pub struct Cite {
    pub range: Range<usize>,
    pub reach: Reach,
    pub source: Source,
}

/// A reader's output before assembly.
#[derive(Debug, Default)]
pub struct Draft {
    pub text: String,
    pub cites: Vec<Cite>,
    pub unchecked: Vec<Unchecked>,
    /// The part of `text` that is prose (a Markdown reference list is not); `None`: all of it.
    pub prose: Option<Vec<Range<usize>>>,
}

impl Draft {
    pub fn unchecked(
        &mut self,
        problem: Problem,
        kind: &str,
        url: Option<String>,
        title: Option<String>,
        detail: String,
    ) {
        self.unchecked.push(Unchecked {
            problem,
            kind: kind.to_string(),
            url,
            title,
            detail,
        });
    }

    pub fn finish(self, format: Format) -> Answer {
        let Draft {
            text,
            cites,
            unchecked,
            prose,
        } = self;
        let whole = std::iter::once(0..text.len()).collect();
        let prose: Vec<Range<usize>> = prose.unwrap_or(whole);
        let sentences: Vec<Range<usize>> = prose
            .iter()
            .flat_map(|r| text::sentences(&text, r.clone()))
            .collect();
        let mut statements: Vec<Statement> = Vec::new();
        for cite in cites {
            let range = match cite.reach {
                Reach::Exact => text::trim_range(&text, cite.range),
                Reach::Sentence => text::sentence_around(&sentences, &cite.range),
            };
            if cite.source.url.trim().is_empty() {
                continue;
            }
            match statements.iter_mut().find(|s| s.bytes == range) {
                Some(statement) => {
                    if !statement.sources.iter().any(|s| s.url == cite.source.url) {
                        statement.sources.push(cite.source);
                    }
                }
                None => {
                    let piece = text.get(range.clone()).unwrap_or_default().to_string();
                    let (start, end) = text::to_chars(&text, &range);
                    statements.push(Statement {
                        span: Span { start, end },
                        claim: text::claim(&piece),
                        text: piece,
                        sources: vec![cite.source],
                        bytes: range,
                    });
                }
            }
        }
        let mut unchecked = unchecked;
        statements.retain(|s| {
            let keep = s.claim.chars().any(char::is_alphanumeric);
            if !keep {
                for source in &s.sources {
                    unchecked.push(Unchecked {
                        problem: Problem::InvalidSpan,
                        kind: "span".to_string(),
                        url: Some(source.url.clone()),
                        title: source.title.clone(),
                        detail: format!(
                            "the cited span {}..{} holds no statement",
                            s.span.start, s.span.end
                        ),
                    });
                }
            }
            keep
        });
        statements.sort_by_key(|s| (s.bytes.start, s.bytes.end));
        let uncited = sentences
            .iter()
            .filter(|s| !statements.iter().any(|st| text::overlaps(s, &st.bytes)))
            .count();
        Answer {
            format,
            sentences: sentences.len(),
            uncited_sentences: uncited,
            text,
            statements,
            unchecked,
        }
    }
}
