//! What reading an answer gives: the answer's text, its cited statements (one per cited span,
//! with every source cited for it), the citations that cannot be checked by URL, and the
//! sentence counts. Offsets are in Unicode scalar values (what Python's `str` indexes), end
//! exclusive, into [`Answer::text`].

use serde::{Deserialize, Serialize};

/// The answer formats understood.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// OpenAI Responses API (`output[]` messages, `output_text` with `url_citation` annotations).
    OpenaiResponses,
    /// OpenAI Chat Completions (`choices[].message.annotations[].url_citation`).
    OpenaiChat,
    /// Anthropic Messages (`content[]` text blocks with `citations[]`).
    Anthropic,
    /// Perplexity chat completions (`[n]` markers, `citations[]` / `search_results[]`).
    Perplexity,
    /// Gemini `generateContent` (`groundingMetadata` chunks and supports).
    Gemini,
    /// Markdown or plain text (links, reference links, footnotes, numbered markers).
    Markdown,
}

impl Format {
    pub const ALL: [Format; 6] = [
        Format::OpenaiResponses,
        Format::OpenaiChat,
        Format::Anthropic,
        Format::Perplexity,
        Format::Gemini,
        Format::Markdown,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Format::OpenaiResponses => "openai-responses",
            Format::OpenaiChat => "openai-chat",
            Format::Anthropic => "anthropic",
            Format::Perplexity => "perplexity",
            Format::Gemini => "gemini",
            Format::Markdown => "markdown",
        }
    }

    /// What the format looks like, for an error that lists the formats understood.
    pub fn shape(self) -> &'static str {
        match self {
            Format::OpenaiResponses => {
                "{\"output\": [{\"type\": \"message\", \"content\": [{\"type\": \"output_text\", \"annotations\": [...]}]}]}"
            }
            Format::OpenaiChat => {
                "{\"choices\": [{\"message\": {\"content\": \"...\", \"annotations\": [{\"type\": \"url_citation\", ...}]}}]}"
            }
            Format::Anthropic => {
                "{\"type\": \"message\", \"content\": [{\"type\": \"text\", \"text\": \"...\", \"citations\": [...]}]}"
            }
            Format::Perplexity => {
                "{\"choices\": [...], \"citations\": [\"https://...\"] and/or \"search_results\": [...]}"
            }
            Format::Gemini => {
                "{\"candidates\": [{\"content\": {\"parts\": [...]}, \"groundingMetadata\": {...}}]}"
            }
            Format::Markdown => "text that does not start with `{`",
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim().to_ascii_lowercase().replace('_', "-");
        Format::ALL
            .into_iter()
            .find(|f| f.as_str() == wanted)
            .ok_or_else(|| {
                let names: Vec<&str> = Format::ALL.iter().map(|f| f.as_str()).collect();
                format!("unknown input format `{s}` (expected {})", names.join(", "))
            })
    }
}

/// A span of the answer: `start..end` in Unicode scalar values, end exclusive.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

/// A source cited for a statement.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    pub url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The text the provider says it took from the page (Anthropic's `cited_text`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cited_text: Option<String>,
}

/// One cited statement: a span of the answer and every source cited for it, judged together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    pub span: Span,
    /// The span's text as it stands in the answer.
    pub text: String,
    /// The claim sent to the verifier: the text without its citation markup.
    pub claim: String,
    /// In citation order, each URL once.
    pub sources: Vec<Source>,
    /// The span as a UTF-8 byte range of [`Answer::text`] (for renderers).
    pub bytes: std::ops::Range<usize>,
}

/// Why a citation is listed rather than verified.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Problem {
    /// Its offsets fall outside the text or inside a multi-byte character.
    InvalidSpan,
    /// It points at no URL (a document citation, a marker with no reference entry).
    NotCheckableByUrl,
}

/// A citation that is listed, not verified.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unchecked {
    pub problem: Problem,
    /// The provider's name for the citation (`url_citation`, `char_location`, `marker`, ...).
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What exactly is wrong, in words.
    pub detail: String,
}

/// A whole answer, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub format: Format,
    /// The answer's text (blocks or parts joined as documented per format).
    pub text: String,
    pub statements: Vec<Statement>,
    pub unchecked: Vec<Unchecked>,
    /// Sentences of the answer's prose (a reference list at the end is not prose).
    pub sentences: usize,
    /// Sentences that no statement covers.
    pub uncited_sentences: usize,
}
