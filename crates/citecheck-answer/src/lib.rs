//! citecheck-answer: reads a whole LLM answer, in the shape an LLM API returned it or as
//! Markdown, into the statements it cites and the sources cited for each (pure, no I/O).
//!
//! [`parse`] detects the format (or takes the one given), reads the text and its citations, and
//! returns an [`Answer`]: one [`Statement`] per cited span (several citations on one span are
//! merged), the citations that cannot be checked by URL ([`Unchecked`]: a document citation,
//! an offset outside the text or inside a character), and the sentence counts.
//!
//! Offsets: every provider's unit is converted to one: **Unicode scalar values, end
//! exclusive**, into [`Answer::text`]. OpenAI's `start_index`/`end_index` already count code
//! points; Gemini's `segment` offsets are UTF-8 bytes within a part; Anthropic and Perplexity
//! give no offsets (a citation belongs to its text block, a marker to its sentence). Each
//! reader's module says where its field names come from.
//!
//! Nothing here panics on any input: unknown shapes are a [`ParseError`], bad offsets are
//! [`Problem::InvalidSpan`] entries while the rest of the answer is still read.
//!
//! ```
//! let answer = citecheck_answer::parse(
//!     "Water boils at 100 °C at sea level [1].\n\n[1]: https://example.com/water",
//!     None,
//! ).unwrap();
//! assert_eq!(answer.format, citecheck_answer::Format::Markdown);
//! assert_eq!(answer.statements[0].claim, "Water boils at 100 °C at sea level.");
//! assert_eq!(answer.statements[0].sources[0].url, "https://example.com/water");
//! ```

mod anthropic;
mod draft;
mod gemini;
mod json;
mod markdown;
mod model;
mod openai;
mod perplexity;
pub mod text;

pub use model::{Answer, Format, Problem, Source, Span, Statement, Unchecked};

use serde_json::Value;

/// Why an answer could not be read at all.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ParseError {
    #[error("the answer is empty")]
    Empty,
    #[error("the answer starts like JSON but is not valid JSON")]
    Json(#[source] serde_json::Error),
    #[error("unknown answer shape: found {found}; understood: {understood}")]
    UnknownShape { found: String, understood: String },
    #[error("not a {format} answer: {detail}")]
    Shape { format: Format, detail: String },
}

impl ParseError {
    pub(crate) fn shape(format: Format, detail: &str) -> Self {
        ParseError::Shape {
            format,
            detail: detail.to_string(),
        }
    }
}

/// Reads `input` as `format`, or as the format it looks like when `format` is `None`.
pub fn parse(input: &str, format: Option<Format>) -> Result<Answer, ParseError> {
    if input.trim().is_empty() {
        return Err(ParseError::Empty);
    }
    let looks_like_json = input.trim_start().starts_with(['{', '[']);
    if format == Some(Format::Markdown) || (format.is_none() && !looks_like_json) {
        return Ok(markdown::read(input).finish(Format::Markdown));
    }
    let value: Value = serde_json::from_str(input).map_err(ParseError::Json)?;
    let format = match format {
        Some(f) => f,
        None => detect(&value)?,
    };
    let draft = match format {
        Format::OpenaiResponses => openai::responses(&value)?,
        Format::OpenaiChat => openai::chat(&value)?,
        Format::Anthropic => anthropic::read(&value)?,
        Format::Perplexity => perplexity::read(&value)?,
        Format::Gemini => gemini::read(&value)?,
        Format::Markdown => markdown::read(input),
    };
    Ok(draft.finish(format))
}

/// The format a JSON answer is in, told by the fields only that format has.
pub fn detect(value: &Value) -> Result<Format, ParseError> {
    let has = |k: &str| value.get(k).is_some_and(|v| !v.is_null());
    let format = if has("output") && value.get("output").is_some_and(Value::is_array) {
        Some(Format::OpenaiResponses)
    } else if has("candidates") {
        Some(Format::Gemini)
    } else if has("choices") && (has("citations") || has("search_results")) {
        Some(Format::Perplexity)
    } else if has("choices") {
        Some(Format::OpenaiChat)
    } else if has("content") && value.get("content").is_some_and(Value::is_array) {
        Some(Format::Anthropic)
    } else {
        None
    };
    format.ok_or_else(|| ParseError::UnknownShape {
        found: json::describe(value),
        understood: Format::ALL
            .iter()
            .map(|f| format!("{f} {}", f.shape()))
            .collect::<Vec<_>>()
            .join("; "),
    })
}
