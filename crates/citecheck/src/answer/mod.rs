//! Whole LLM answers: each cited statement (read by `citecheck-answer`) verified through the one
//! entry point, the answer's verdict assembled from its statements', the limits one answer must
//! keep, and the answer marked up as text. The `citecheck answer` command is `answer_command`.

mod check;
mod limits;
pub mod render;
mod verdict;

pub use check::{assemble, statement_verdict, verify_answer};
pub use limits::{AnswerLimits, OverLimit, DEFAULT_MAX_ANSWER_CHARS, DEFAULT_MAX_STATEMENTS};
pub use verdict::{AnswerSummary, AnswerVerdict, CitationVerdict, StatementVerdict};
