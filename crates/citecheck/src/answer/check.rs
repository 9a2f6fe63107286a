//! Verifying a read answer through the one entry point: each cited statement is one
//! [`Check`] (all its sources judged together); statements run a few at a time, their checks
//! sharing one [`SharedPages`] handle (the core's page cache, scoped to the answer), so a URL
//! cited by several statements is fetched once, and Anthropic's `cited_text` is looked for on
//! the very page that was judged. The pages go when the answer is done.

use std::collections::BTreeMap;

use citecheck_answer::{Answer, Statement};
use citecheck_core::aggregate::claim_label;
use citecheck_core::guard::quote_in_passages;
use citecheck_core::{Check, ClaimVerdict, Label, Origin, SharedPages, Verifier};
use futures::stream::{self, StreamExt};

use super::verdict::{AnswerSummary, AnswerVerdict, CitationVerdict, StatementVerdict};

/// Statements verified at once; the verifier bounds fetches and judge calls itself.
const STATEMENTS_IN_FLIGHT: usize = 4;

/// Verifies every statement of `answer`; `origin` is stamped with each statement's span.
pub async fn verify_answer(verifier: &Verifier, answer: &Answer, origin: &Origin) -> AnswerVerdict {
    let pages = SharedPages::new();
    let tap = &pages;
    // Owned statements: a closure taking a reference makes this future impossible to prove
    // `Send` (rust-lang/rust#102211), and the HTTP service needs it `Send`.
    let statements: Vec<StatementVerdict> = stream::iter(answer.statements.clone())
        .map(|statement| async move {
            let urls = statement.sources.iter().map(|s| s.url.clone());
            let mut origin = origin.clone();
            let span = format!("{}..{}", statement.span.start, statement.span.end);
            origin.claim_id = Some(match origin.claim_id.take() {
                Some(id) => format!("{id}#{span}"),
                None => span,
            });
            let verdict = verifier
                .verify(
                    Check::new(statement.claim.clone(), urls)
                        .origin(origin)
                        .pages(tap),
                )
                .await;
            statement_verdict(&statement, verdict, |url| tap.markdown(url))
        })
        .buffered(STATEMENTS_IN_FLIGHT)
        .collect()
        .await;
    let pages_fetched = usize::try_from(pages.stats().fetches).unwrap_or(usize::MAX);
    assemble(answer, statements, pages_fetched)
}

/// One statement's verdict from the claim verdict its check gave; `page` gives the Markdown
/// fetched for a URL, where a provider's `cited_text` is looked for (`None`: not looked for).
pub fn statement_verdict(
    statement: &Statement,
    verdict: ClaimVerdict,
    page: impl Fn(&str) -> Option<String>,
) -> StatementVerdict {
    let citations = statement
        .sources
        .iter()
        .zip(verdict.citations)
        .map(|(source, verdict)| {
            let cited_text_found = source.cited_text.as_ref().and_then(|quote| {
                let page = page(&source.url)?;
                Some(quote_in_passages(quote, &[page]))
            });
            CitationVerdict {
                verdict,
                title: source.title.clone(),
                cited_text: source.cited_text.clone(),
                cited_text_found,
            }
        })
        .collect();
    StatementVerdict {
        span: statement.span,
        text: statement.text.clone(),
        claim: statement.claim.clone(),
        overall: verdict.overall,
        citations,
    }
}

/// The answer's verdict from its statements' verdicts (all of them, or those a batch has
/// verified so far) and the pages fetched for it.
pub fn assemble(
    answer: &Answer,
    statements: Vec<StatementVerdict>,
    pages_fetched: usize,
) -> AnswerVerdict {
    let mut by_label: BTreeMap<Label, usize> = Label::ALL.iter().map(|l| (*l, 0)).collect();
    for statement in &statements {
        *by_label.entry(statement.overall).or_default() += 1;
    }
    let supported = by_label.get(&Label::Supported).copied().unwrap_or(0);
    let summary = AnswerSummary {
        statements: statements.len(),
        supported_share: if statements.is_empty() {
            0.0
        } else {
            supported as f64 / statements.len() as f64
        },
        by_label,
        sentences: answer.sentences,
        uncited_sentences: answer.uncited_sentences,
        citations: statements.iter().map(|s| s.citations.len()).sum(),
        pages_fetched,
    };
    AnswerVerdict {
        format: answer.format,
        overall: claim_label(statements.iter().map(|s| s.overall)),
        summary,
        statements,
        unchecked: answer.unchecked.clone(),
    }
}
