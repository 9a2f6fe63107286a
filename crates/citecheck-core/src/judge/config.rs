//! Choosing and building an LLM judge from settings the binary gathered.
//!
//! The core reads no environment variables; the binary does and fills [`LlmJudgeConfig`]. The
//! variables it should read (documented here so that the names live next to the code using them):
//!
//! | variable | meaning | default |
//! |---|---|---|
//! | `JUDGE_PROVIDER` | `local`, `openai`, `anthropic` or `ollama` (the binary handles `local`) | `local` |
//! | `JUDGE_MODEL` | the model name | [`DEFAULT_OPENAI_MODEL`], [`DEFAULT_ANTHROPIC_MODEL`], [`DEFAULT_OLLAMA_MODEL`] |
//! | `OPENAI_API_KEY` | key for `openai`; required unless `OPENAI_BASE_URL` points elsewhere | |
//! | `OPENAI_BASE_URL` | any OpenAI-compatible server (vLLM, llama.cpp, LM Studio, ...) | [`DEFAULT_OPENAI_BASE_URL`] |
//! | `ANTHROPIC_API_KEY` | key for `anthropic`; always required | |
//! | `ANTHROPIC_BASE_URL` | the Messages API host, without `/v1` | [`DEFAULT_ANTHROPIC_BASE_URL`] |
//! | `OLLAMA_HOST` | the Ollama server; a bare `host:port` is read as `http://host:port` | [`DEFAULT_OLLAMA_HOST`] |
//!
//! Keys are held as [`SecretString`]: `Debug` prints `[REDACTED]`, and no error names a value.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use secrecy::{ExposeSecret, SecretString};
use thiserror::Error;
use url::Url;

use super::anthropic::AnthropicJudge;
use super::http::JsonClient;
use super::ollama::OllamaJudge;
use super::openai::OpenAiJudge;
use super::Judge;
use crate::retry::Policy;

pub const DEFAULT_OPENAI_MODEL: &str = "gpt-4o-mini";
pub const DEFAULT_ANTHROPIC_MODEL: &str = "claude-haiku-4-5";
pub const DEFAULT_OLLAMA_MODEL: &str = "llama3.1";

pub const DEFAULT_OPENAI_BASE_URL: &str = "https://api.openai.com/v1";
pub const DEFAULT_ANTHROPIC_BASE_URL: &str = "https://api.anthropic.com";
pub const DEFAULT_OLLAMA_HOST: &str = "http://127.0.0.1:11434";

/// Bound on one hosted-API call, from the request to the last byte of the answer.
pub const DEFAULT_JUDGE_TIMEOUT: Duration = Duration::from_secs(60);
/// Bound on one Ollama call: a local model on a CPU may take minutes, a cold load included.
pub const DEFAULT_OLLAMA_TIMEOUT: Duration = Duration::from_secs(300);
pub const DEFAULT_JUDGE_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Attempts per judgement, the first included.
pub const DEFAULT_JUDGE_ATTEMPTS: u32 = 4;
pub const DEFAULT_JUDGE_RETRY_BASE: Duration = Duration::from_secs(1);
/// A `Retry-After` longer than this fails the judgement instead of stalling the batch.
pub const DEFAULT_JUDGE_MAX_RETRY_WAIT: Duration = Duration::from_secs(60);
/// Output token cap: the answer is three short fields, so this only stops a runaway model.
pub const DEFAULT_JUDGE_MAX_TOKENS: u32 = 1024;

/// The LLM providers. (`local` is not one: it needs no configuration here.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LlmProvider {
    /// Chat Completions, also for any OpenAI-compatible server through the base URL.
    OpenAi,
    /// The Messages API, answering through a forced tool call.
    Anthropic,
    /// A local Ollama server's `/api/chat`.
    Ollama,
}

impl LlmProvider {
    pub const ALL: [LlmProvider; 3] = [
        LlmProvider::OpenAi,
        LlmProvider::Anthropic,
        LlmProvider::Ollama,
    ];

    /// The name used by `JUDGE_PROVIDER` and in verdicts' `judge.provider`.
    pub fn as_str(self) -> &'static str {
        match self {
            LlmProvider::OpenAi => "openai",
            LlmProvider::Anthropic => "anthropic",
            LlmProvider::Ollama => "ollama",
        }
    }

    pub fn default_model(self) -> &'static str {
        match self {
            LlmProvider::OpenAi => DEFAULT_OPENAI_MODEL,
            LlmProvider::Anthropic => DEFAULT_ANTHROPIC_MODEL,
            LlmProvider::Ollama => DEFAULT_OLLAMA_MODEL,
        }
    }

    pub fn default_base_url(self) -> &'static str {
        match self {
            LlmProvider::OpenAi => DEFAULT_OPENAI_BASE_URL,
            LlmProvider::Anthropic => DEFAULT_ANTHROPIC_BASE_URL,
            LlmProvider::Ollama => DEFAULT_OLLAMA_HOST,
        }
    }

    /// The variable holding the key, for providers that take one.
    pub fn key_variable(self) -> Option<&'static str> {
        match self {
            LlmProvider::OpenAi => Some("OPENAI_API_KEY"),
            LlmProvider::Anthropic => Some("ANTHROPIC_API_KEY"),
            LlmProvider::Ollama => None,
        }
    }

    /// The variable overriding the base URL.
    pub fn base_url_variable(self) -> &'static str {
        match self {
            LlmProvider::OpenAi => "OPENAI_BASE_URL",
            LlmProvider::Anthropic => "ANTHROPIC_BASE_URL",
            LlmProvider::Ollama => "OLLAMA_HOST",
        }
    }

    pub fn default_timeout(self) -> Duration {
        match self {
            LlmProvider::Ollama => DEFAULT_OLLAMA_TIMEOUT,
            _ => DEFAULT_JUDGE_TIMEOUT,
        }
    }
}

impl fmt::Display for LlmProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for LlmProvider {
    type Err = JudgeConfigError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim().to_ascii_lowercase();
        LlmProvider::ALL
            .into_iter()
            .find(|p| p.as_str() == wanted)
            .ok_or_else(|| JudgeConfigError::UnknownProvider(s.to_string()))
    }
}

/// Everything an LLM judge needs. Start from [`LlmJudgeConfig::new`] and override fields.
#[derive(Debug, Clone)]
pub struct LlmJudgeConfig {
    pub provider: LlmProvider,
    /// `None`: the provider's default model.
    pub model: Option<String>,
    /// From `OPENAI_API_KEY` / `ANTHROPIC_API_KEY`; ignored by Ollama.
    pub api_key: Option<SecretString>,
    /// From `OPENAI_BASE_URL` / `ANTHROPIC_BASE_URL` / `OLLAMA_HOST`; `None`: the default.
    pub base_url: Option<String>,
    /// Bound on one attempt, from the request to the last byte of the answer.
    pub timeout: Duration,
    pub connect_timeout: Duration,
    /// Attempts per judgement, the first included.
    pub attempts: u32,
    /// First backoff delay; doubles per retry, with jitter.
    pub retry_base: Duration,
    /// A server asking to wait longer than this fails the judgement at once.
    pub max_retry_wait: Duration,
    /// Output token cap sent to the provider.
    pub max_tokens: u32,
}

impl LlmJudgeConfig {
    /// The defaults for `provider`, without a key.
    pub fn new(provider: LlmProvider) -> Self {
        LlmJudgeConfig {
            provider,
            model: None,
            api_key: None,
            base_url: None,
            timeout: provider.default_timeout(),
            connect_timeout: DEFAULT_JUDGE_CONNECT_TIMEOUT,
            attempts: DEFAULT_JUDGE_ATTEMPTS,
            retry_base: DEFAULT_JUDGE_RETRY_BASE,
            max_retry_wait: DEFAULT_JUDGE_MAX_RETRY_WAIT,
            max_tokens: DEFAULT_JUDGE_MAX_TOKENS,
        }
    }

    /// The model that will be asked.
    pub fn model_name(&self) -> &str {
        self.model
            .as_deref()
            .map(str::trim)
            .filter(|m| !m.is_empty())
            .unwrap_or(self.provider.default_model())
    }
}

/// Why an LLM judge could not be built. No variant carries a key's value.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum JudgeConfigError {
    #[error("the {provider} judge needs an API key: set {variable}")]
    MissingKey {
        provider: &'static str,
        variable: &'static str,
    },
    #[error("{variable} cannot be sent as an HTTP header (it contains control characters)")]
    InvalidKey { variable: &'static str },
    #[error("{variable} is not an http(s) URL: {reason}")]
    InvalidBaseUrl {
        variable: &'static str,
        reason: String,
    },
    #[error("unknown judge provider `{0}` (expected openai, anthropic or ollama)")]
    UnknownProvider(String),
    #[error("judge {0} must be at least 1")]
    Zero(&'static str),
    #[error("could not build the judge's HTTP client")]
    Client(#[source] reqwest::Error),
}

/// Builds the judge `config` describes.
pub fn build_llm_judge(config: &LlmJudgeConfig) -> Result<Arc<dyn Judge>, JudgeConfigError> {
    Ok(match config.provider {
        LlmProvider::OpenAi => Arc::new(OpenAiJudge::new(config)?),
        LlmProvider::Anthropic => Arc::new(AnthropicJudge::new(config)?),
        LlmProvider::Ollama => Arc::new(OllamaJudge::new(config)?),
    })
}

/// What the provider modules share: the checked settings and a ready HTTP client.
pub(crate) struct Prepared {
    pub client: JsonClient,
    pub base: Url,
    pub model: String,
    pub max_tokens: u32,
}

/// Checks `config` for `provider` and builds its client. `key_required` says whether a missing
/// key is an error (it is not for a self-hosted OpenAI-compatible server).
pub(crate) fn prepare(
    config: &LlmJudgeConfig,
    provider: LlmProvider,
    key_required: impl FnOnce(&Url) -> bool,
) -> Result<Prepared, JudgeConfigError> {
    if config.attempts == 0 {
        return Err(JudgeConfigError::Zero("attempts"));
    }
    if config.max_tokens == 0 {
        return Err(JudgeConfigError::Zero("max_tokens"));
    }
    if config.timeout.is_zero() {
        return Err(JudgeConfigError::Zero("timeout"));
    }
    let base = base_url(provider, config.base_url.as_deref())?;
    let key = config
        .api_key
        .clone()
        .filter(|k| !k.expose_secret().trim().is_empty());
    let key_variable = provider.key_variable();
    if let Some(variable) = key_variable {
        match &key {
            None if key_required(&base) => {
                return Err(JudgeConfigError::MissingKey {
                    provider: provider.as_str(),
                    variable,
                })
            }
            Some(k) if k.expose_secret().chars().any(|c| c.is_control()) => {
                return Err(JudgeConfigError::InvalidKey { variable })
            }
            _ => {}
        }
    }
    let client = JsonClient::new(
        config.timeout,
        config.connect_timeout,
        Policy {
            attempts: config.attempts,
            base: config.retry_base,
            max_wait: config.max_retry_wait,
        },
        key_variable.and(key),
        key_variable,
    )
    .map_err(JudgeConfigError::Client)?;
    Ok(Prepared {
        client,
        base,
        model: config.model_name().to_string(),
        max_tokens: config.max_tokens,
    })
}

/// The provider's base URL: the configured one or the default. For Ollama a value without a
/// scheme is read the way Ollama reads `OLLAMA_HOST`: `http`, port 11434 when none is given.
fn base_url(provider: LlmProvider, configured: Option<&str>) -> Result<Url, JudgeConfigError> {
    let variable = provider.base_url_variable();
    let raw = configured
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .unwrap_or(provider.default_base_url());
    let text = if provider == LlmProvider::Ollama && !raw.contains("://") {
        ollama_host_url(raw)
    } else {
        raw.to_string()
    };
    let url = Url::parse(&text).map_err(|err| JudgeConfigError::InvalidBaseUrl {
        variable,
        reason: err.to_string(),
    })?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(JudgeConfigError::InvalidBaseUrl {
            variable,
            reason: format!("the scheme `{}` is not http or https", url.scheme()),
        });
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(JudgeConfigError::InvalidBaseUrl {
            variable,
            reason: "a base URL takes no query or fragment".to_string(),
        });
    }
    Ok(url)
}

/// `host`, `host:port` or `:port` as Ollama's client reads them.
fn ollama_host_url(raw: &str) -> String {
    let (host, port) = match raw.rsplit_once(':') {
        // `[::1]` alone has colons but no port.
        Some((host, port)) if !port.contains(']') && port.chars().all(|c| c.is_ascii_digit()) => {
            (host, port)
        }
        _ => (raw, "11434"),
    };
    let host = if host.is_empty() { "127.0.0.1" } else { host };
    let port = if port.is_empty() { "11434" } else { port };
    format!("http://{host}:{port}")
}

/// `base` with `path` appended to its own path (`https://h/v1` + `chat/completions`).
pub(crate) fn endpoint(base: &Url, path: &str) -> Url {
    let mut url = base.clone();
    let joined = format!(
        "{}/{}",
        base.path().trim_end_matches('/'),
        path.trim_start_matches('/')
    );
    url.set_path(&joined);
    url
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn providers_parse_from_their_names() {
        for provider in LlmProvider::ALL {
            assert_eq!(
                provider.as_str().parse::<LlmProvider>().ok(),
                Some(provider)
            );
        }
        assert_eq!(
            " OpenAI ".parse::<LlmProvider>().ok(),
            Some(LlmProvider::OpenAi)
        );
        let err = "gemini".parse::<LlmProvider>().expect_err("unknown");
        assert!(err.to_string().contains("gemini"));
    }

    #[test]
    fn ollama_host_is_read_with_or_without_scheme_and_port() {
        let cases = [
            ("127.0.0.1:11434", "http://127.0.0.1:11434/"),
            ("gpu-box", "http://gpu-box:11434/"),
            ("gpu-box:8080", "http://gpu-box:8080/"),
            (":9999", "http://127.0.0.1:9999/"),
            ("0.0.0.0", "http://0.0.0.0:11434/"),
            ("[::1]", "http://[::1]:11434/"),
            ("[::1]:7000", "http://[::1]:7000/"),
            ("https://ollama.example.com", "https://ollama.example.com/"),
            ("http://10.0.0.2:11434/", "http://10.0.0.2:11434/"),
        ];
        for (raw, expected) in cases {
            let url = base_url(LlmProvider::Ollama, Some(raw)).expect(raw);
            assert_eq!(url.as_str(), expected, "{raw}");
        }
        assert_eq!(
            base_url(LlmProvider::Ollama, None)
                .expect("default")
                .as_str(),
            "http://127.0.0.1:11434/"
        );
    }

    #[test]
    fn endpoints_keep_the_base_path() {
        let base = Url::parse("https://api.openai.com/v1").expect("url");
        assert_eq!(
            endpoint(&base, "chat/completions").as_str(),
            "https://api.openai.com/v1/chat/completions"
        );
        let base = Url::parse("http://127.0.0.1:8000/openai/v1/").expect("url");
        assert_eq!(
            endpoint(&base, "/chat/completions").as_str(),
            "http://127.0.0.1:8000/openai/v1/chat/completions"
        );
        let base = Url::parse("https://api.anthropic.com").expect("url");
        assert_eq!(
            endpoint(&base, "v1/messages").as_str(),
            "https://api.anthropic.com/v1/messages"
        );
    }

    #[test]
    fn a_bad_base_url_names_its_variable() {
        for raw in [
            "not a url",
            "ftp://example.com",
            "https://example.com/v1?key=abc",
        ] {
            let err = base_url(LlmProvider::OpenAi, Some(raw)).expect_err(raw);
            assert!(err.to_string().contains("OPENAI_BASE_URL"), "{err}");
            assert!(!err.to_string().contains("abc"), "{err}");
        }
    }

    #[test]
    fn the_default_model_is_used_when_none_or_blank_is_given() {
        let mut config = LlmJudgeConfig::new(LlmProvider::Anthropic);
        assert_eq!(config.model_name(), DEFAULT_ANTHROPIC_MODEL);
        config.model = Some("  ".into());
        assert_eq!(config.model_name(), DEFAULT_ANTHROPIC_MODEL);
        config.model = Some("claude-sonnet-4-5".into());
        assert_eq!(config.model_name(), "claude-sonnet-4-5");
    }

    #[test]
    fn a_config_with_a_key_does_not_print_it() {
        let mut config = LlmJudgeConfig::new(LlmProvider::OpenAi);
        config.api_key = Some(SecretString::from("sk-do-not-print"));
        let printed = format!("{config:?}");
        assert!(!printed.contains("sk-do-not-print"), "{printed}");
    }

    #[test]
    fn zero_attempts_or_tokens_are_refused() {
        let mut config = LlmJudgeConfig::new(LlmProvider::Ollama);
        config.attempts = 0;
        assert!(matches!(
            build_llm_judge(&config),
            Err(JudgeConfigError::Zero("attempts"))
        ));
        let mut config = LlmJudgeConfig::new(LlmProvider::Ollama);
        config.max_tokens = 0;
        assert!(matches!(
            build_llm_judge(&config),
            Err(JudgeConfigError::Zero("max_tokens"))
        ));
    }
}
