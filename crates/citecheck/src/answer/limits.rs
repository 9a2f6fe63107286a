//! How much one answer may ask for: its size in characters and its cited statements (each is a
//! verification of its own). One resolved setting ([`crate::config::Settings::answer`]) read
//! by `citecheck answer` and `POST /verify-answer` alike; [`AnswerLimits::check`] is the one
//! place the bounds are applied (pure), and both front ends turn its refusal into their own
//! error shape.

use citecheck_answer::Answer;

/// The largest answer accepted by default, in characters (of the text, or of a JSON response
/// as written); the service's body limit (`max_request_bytes`) applies before it.
pub const DEFAULT_MAX_ANSWER_CHARS: usize = 50_000;
/// The most cited statements one answer may hold by default.
pub const DEFAULT_MAX_STATEMENTS: usize = 50;

/// Bounds on one answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnswerLimits {
    pub max_chars: usize,
    pub max_statements: usize,
}

impl Default for AnswerLimits {
    fn default() -> Self {
        AnswerLimits {
            max_chars: DEFAULT_MAX_ANSWER_CHARS,
            max_statements: DEFAULT_MAX_STATEMENTS,
        }
    }
}

/// An answer past a bound: a stable code and the problem in words (no subject: the front end
/// names the answer its own way).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct OverLimit {
    /// `answer_too_long` or `too_many_statements`.
    pub code: &'static str,
    pub message: String,
}

impl AnswerLimits {
    /// Refuses an answer text longer than `max_chars`, before it is read.
    pub fn check_size(&self, text: &str) -> Result<(), OverLimit> {
        let chars = text.chars().count();
        if chars > self.max_chars {
            return Err(OverLimit {
                code: "answer_too_long",
                message: format!(
                    "is {chars} characters long; the limit is {} (max_answer_chars)",
                    self.max_chars
                ),
            });
        }
        Ok(())
    }

    /// Refuses a read answer holding more than `max_statements` cited statements.
    pub fn check_statements(&self, answer: &Answer) -> Result<(), OverLimit> {
        let statements = answer.statements.len();
        if statements > self.max_statements {
            return Err(OverLimit {
                code: "too_many_statements",
                message: format!(
                    "holds {statements} cited statements; the limit is {} per answer \
                     (max_answer_statements)",
                    self.max_statements
                ),
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_at_the_bounds_passes_and_one_past_them_is_refused() {
        let limits = AnswerLimits {
            max_chars: 5,
            max_statements: 1,
        };
        assert!(limits.check_size("ÜbeR!").is_ok(), "characters, not bytes");
        assert_eq!(
            limits.check_size("123456").map_err(|e| e.code),
            Err("answer_too_long")
        );
        let answer = citecheck_answer::parse(
            "A is so [1]. B is so [2].\n\n[1]: https://a.example/\n[2]: https://b.example/\n",
            None,
        )
        .expect("readable");
        let err = limits
            .check_statements(&answer)
            .expect_err("two statements");
        assert_eq!(err.code, "too_many_statements");
        assert!(err
            .message
            .contains("holds 2 cited statements; the limit is 1"));
    }
}
