//! The application's errors and the exit codes they map to. Every command returns
//! [`AppError`]; `main` prints it once with its causes and exits with [`AppError::exit_code`],
//! chosen by the variant, never by reading a message.

use citecheck_core::fetch::crawlbase::{CrawlbaseError, TOKEN_VAR};
use citecheck_core::judge::JudgeConfigError;

use crate::config::ConfigError;

/// Every citation supported its claim (or the command has no verdicts to judge by).
pub const EXIT_OK: u8 = 0;
/// A fatal error: nothing could be checked.
pub const EXIT_FATAL: u8 = 1;
/// At least one citation did not support its claim.
pub const EXIT_UNSUPPORTED: u8 = 2;
/// A configuration or usage error.
pub const EXIT_CONFIG: u8 = 3;
/// A batch stopped by Ctrl-C (128 + SIGINT, as shells report it).
pub const EXIT_INTERRUPTED: u8 = 130;

/// The exit codes, for `--help`.
pub const EXIT_CODES: &str = "Exit codes:
  0  every citation supported its claim
  2  at least one citation did not support its claim
  1  a fatal error (nothing could be checked)
  3  a configuration or usage error";

/// Why a command failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AppError {
    /// Bad flags, environment or config file (exit 3).
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// A secret the chosen configuration needs is not set (exit 3; the HTTP service serves 503
    /// naming the variable instead).
    #[error(transparent)]
    MissingSecret(#[from] MissingSecret),
    /// Anything else: I/O, a model that will not load, a server that cannot listen (exit 1).
    #[error(transparent)]
    Fatal(#[from] anyhow::Error),
}

impl AppError {
    pub fn exit_code(&self) -> u8 {
        match self {
            AppError::Config(_) | AppError::MissingSecret(_) => EXIT_CONFIG,
            AppError::Fatal(_) => EXIT_FATAL,
        }
    }

    /// A usage problem described in words.
    pub fn usage(message: impl Into<String>) -> AppError {
        AppError::Config(ConfigError::Invalid(message.into()))
    }

    /// The error and its causes, `: `-separated, as `main` prints it.
    pub fn report(&self) -> String {
        match self {
            // anyhow's alternate form already walks the chain.
            AppError::Fatal(err) => format!("{err:#}"),
            other => citecheck_core::verifier::error_chain(other),
        }
    }
}

/// A secret the chosen configuration needs is not set. Its message names the variable, never a
/// value.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MissingSecret {
    #[error(transparent)]
    JudgeKey(JudgeConfigError),
    #[error(transparent)]
    CrawlbaseToken(CrawlbaseError),
}

impl MissingSecret {
    /// The environment variable to set.
    pub fn variable(&self) -> &'static str {
        match self {
            MissingSecret::JudgeKey(JudgeConfigError::MissingKey { variable, .. }) => variable,
            MissingSecret::JudgeKey(_) => "",
            MissingSecret::CrawlbaseToken(_) => TOKEN_VAR,
        }
    }
}

/// A judge that cannot be built: a missing key is its own error, anything else configuration.
impl From<JudgeConfigError> for AppError {
    fn from(err: JudgeConfigError) -> Self {
        match err {
            JudgeConfigError::MissingKey { .. } => MissingSecret::JudgeKey(err).into(),
            other => ConfigError::Judge(other).into(),
        }
    }
}

/// A Crawlbase fetcher that cannot be built, or an account problem seen while working.
impl From<CrawlbaseError> for AppError {
    fn from(err: CrawlbaseError) -> Self {
        match err {
            CrawlbaseError::MissingToken => MissingSecret::CrawlbaseToken(err).into(),
            other => ConfigError::Crawlbase(other).into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exit_code_follows_the_variant() {
        let missing = AppError::from(JudgeConfigError::MissingKey {
            provider: "openai",
            variable: "OPENAI_API_KEY",
        });
        assert_eq!(missing.exit_code(), EXIT_CONFIG);
        assert!(matches!(&missing, AppError::MissingSecret(m) if m.variable() == "OPENAI_API_KEY"));
        let config = AppError::from(CrawlbaseError::InvalidApiUrl {
            reason: "not a URL".into(),
        });
        assert_eq!(config.exit_code(), EXIT_CONFIG);
        assert_eq!(
            config.report(),
            "the Crawlbase fetcher is misconfigured: CRAWLBASE_API_URL is not a usable http(s) \
             URL: not a URL"
        );
        let fatal = AppError::from(anyhow::anyhow!("disk full").context("writing the report"));
        assert_eq!(fatal.exit_code(), EXIT_FATAL);
        assert_eq!(fatal.report(), "writing the report: disk full");
    }
}
