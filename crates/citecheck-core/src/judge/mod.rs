//! The judge seam: given a claim and the passages retrieval kept, return a label, a verbatim
//! evidence quote and a confidence. A judge interprets evidence; the quote guard
//! ([`crate::guard`]) decides whether its answer counts.

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::model::{JudgeInfo, TokenUsage};
use crate::retry::{Note, TransportFailure};

pub mod answer;
pub mod anthropic;
pub mod config;
mod http;
pub mod local;
pub mod meaning;
pub mod ollama;
pub mod openai;
pub mod prompt;

pub use anthropic::AnthropicJudge;
pub use config::{build_llm_judge, JudgeConfigError, LlmJudgeConfig, LlmProvider};
pub use local::LocalJudge;
pub use meaning::{EncodeError, SentenceEncoder};
pub use ollama::OllamaJudge;
pub use openai::OpenAiJudge;
/// Keys travel as [`SecretString`]; re-exported so callers need not depend on `secrecy`.
pub use secrecy::{ExposeSecret, SecretString};

/// The labels a judge may give. `unreachable` is never a judge's call: the fetch stage sets it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JudgeLabel {
    Supported,
    Contradicted,
    NotFound,
}

/// A judge's raw answer, before the quote guard.
#[derive(Debug, Clone, PartialEq)]
pub struct Judgement {
    pub label: JudgeLabel,
    pub evidence_quote: Option<String>,
    /// In `[0, 1]`; judges validate this before returning.
    pub confidence: f64,
    /// Tokens the call consumed, when the provider reports them.
    pub usage: Option<TokenUsage>,
    /// A short explanation kept for the audit (the local judge's alignment, a model's note).
    pub detail: Option<String>,
}

/// Why a judge could not give an answer. The verifier turns any of these into a `not_found`
/// verdict with reason `judge_error` and keeps the message for the audit, so messages must never
/// contain secrets.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum JudgeError {
    #[error("the judge needs {variable}, which is not set")]
    MissingKey { variable: &'static str },
    /// No answer came: the request timed out, could not connect or failed on the way.
    #[error("judge request {failure}{note}")]
    Transport {
        failure: TransportFailure,
        note: Note,
        /// The client's error, without its URL.
        #[source]
        source: reqwest::Error,
    },
    /// The provider answered with an error status; `message` is its own text, scrubbed.
    #[error("judge answered HTTP {status}: {message}{note}")]
    Status {
        status: u16,
        message: String,
        note: Note,
    },
    #[error("judge answer is not valid: {0}")]
    InvalidAnswer(String),
    #[error("judge refused: {0}")]
    Refusal(String),
    /// A judge running on the blocking pool panicked.
    #[error("the judge task panicked")]
    Panicked(#[source] tokio::task::JoinError),
}

#[async_trait]
pub trait Judge: Send + Sync {
    /// Which provider, model and prompt version produce this judge's verdicts.
    fn info(&self) -> JudgeInfo;

    /// Judges `claim` against `passages` (the retrieved passages, best first).
    async fn judge(&self, claim: &str, passages: &[String]) -> Result<Judgement, JudgeError>;
}
