//! The verdict on a whole answer: one claim verdict per cited statement (its span, text and
//! sources, each URL with the usual citation verdict, plus whether a provider's `cited_text` is
//! really on the fetched page), the citations that could not be checked by URL, and the
//! answer's figures. This is the JSON contract of `citecheck answer` and `POST /verify-answer`.

use std::collections::BTreeMap;

use citecheck_answer::{Format, Span, Unchecked};
use citecheck_core::{Label, UrlVerdict};
use serde::Serialize;
use utoipa::ToSchema;

/// The result for one answer.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AnswerVerdict {
    /// The format the answer was read as.
    pub format: Format,
    /// The statements' labels aggregated by the claim rule (a contradiction outweighs support).
    pub overall: Label,
    pub summary: AnswerSummary,
    pub statements: Vec<StatementVerdict>,
    /// Citations listed, not verified (`invalid_span`, `not_checkable_by_url`).
    pub unchecked: Vec<Unchecked>,
}

/// The answer's figures.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AnswerSummary {
    /// Cited statements verified.
    pub statements: usize,
    /// Statements by their label (every label present, zero included).
    pub by_label: BTreeMap<Label, usize>,
    /// Share of cited statements labelled `supported` (0 when there is none).
    pub supported_share: f64,
    /// Sentences of the answer's prose, and those no citation covers.
    pub sentences: usize,
    pub uncited_sentences: usize,
    /// Citations verified (one per statement and URL) and pages actually fetched for them.
    pub citations: usize,
    pub pages_fetched: usize,
}

/// One cited statement and its verdict.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct StatementVerdict {
    /// Offsets in Unicode scalar values, end exclusive, into the answer's text.
    pub span: Span,
    /// The span's text as it stands in the answer.
    pub text: String,
    /// The claim that was verified (the text without its citation markup).
    pub claim: String,
    pub overall: Label,
    pub citations: Vec<CitationVerdict>,
}

/// One source cited for a statement: the usual verdict plus what the answer said about it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CitationVerdict {
    #[serde(flatten)]
    pub verdict: UrlVerdict,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The quote the provider says it took from the page (Anthropic's `cited_text`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cited_text: Option<String>,
    /// Whether `cited_text` is on the fetched page (the quote guard's normalisation); absent
    /// when there is no `cited_text` or no page was read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cited_text_found: Option<bool>,
}

impl AnswerVerdict {
    /// 0 when the answer has cited statements and every citation supported its statement with
    /// nothing left unchecked; 2 otherwise (as `verify`).
    pub fn exit_code(&self) -> u8 {
        let all_supported = !self.statements.is_empty()
            && self.unchecked.is_empty()
            && self
                .statements
                .iter()
                .flat_map(|s| &s.citations)
                .all(|c| c.verdict.label == Label::Supported);
        if all_supported {
            0
        } else {
            2
        }
    }
}
