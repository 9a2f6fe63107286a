//! Resolved settings: defaults < config file < environment < flags.
//!
//! clap already merges the environment and the flags (a flag wins); the config file fills in
//! what neither set, and the core's `pub const` defaults fill in the rest. Secrets are read from
//! the environment only, never from the config file, so a config file can be committed.

use std::collections::HashSet;
use std::path::Path;
use std::time::Duration;

use citecheck_core::fetch::direct::{self, FetchOptions};
use citecheck_core::fetch::resolve::GuardPolicy;
use citecheck_core::judge::{LlmJudgeConfig, LlmProvider, SecretString};
use citecheck_core::rank::DEFAULT_TOP_K;
use citecheck_core::verifier::{
    VerifyOptions, DEFAULT_FETCH_CONCURRENCY, DEFAULT_JUDGE_CONCURRENCY,
};
use serde::Deserialize;

use crate::cli::GlobalArgs;

/// A configuration or usage problem: the process exits with code 3.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(pub String);

fn config_error(message: impl Into<String>) -> anyhow::Error {
    ConfigError(message.into()).into()
}

/// The config file's shape. Unknown keys are errors, so a typo does not silently do nothing.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileConfig {
    #[serde(default)]
    pub fetch: FetchSection,
    #[serde(default)]
    pub pipeline: PipelineSection,
    #[serde(default)]
    pub judge: JudgeSection,
    #[serde(default)]
    pub server: ServerSection,
    #[serde(default)]
    pub batch: crate::batch::BatchSection,
    #[serde(default)]
    pub audit: crate::audit::command::AuditSection,
}

/// `[server]`: `citecheck serve`'s settings (resolved in `server::config`).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerSection {
    pub listen: Option<String>,
    pub max_urls: Option<usize>,
    pub max_claim_chars: Option<usize>,
    pub max_request_bytes: Option<usize>,
    pub max_concurrent: Option<usize>,
    pub request_deadline_secs: Option<f64>,
    pub shutdown_grace_secs: Option<f64>,
    pub cors_origins: Option<Vec<String>>,
    pub api_keys_file: Option<std::path::PathBuf>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FetchSection {
    pub fetcher: Option<String>,
    pub connect_timeout_secs: Option<f64>,
    pub timeout_secs: Option<f64>,
    pub max_body_bytes: Option<u64>,
    pub max_redirects: Option<usize>,
    pub attempts: Option<u32>,
    pub concurrency: Option<usize>,
    pub user_agent: Option<String>,
    pub allow_private_hosts: Option<bool>,
    pub allowed_hosts: Option<Vec<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PipelineSection {
    pub ranker: Option<String>,
    pub model_dir: Option<std::path::PathBuf>,
    pub top_k: Option<usize>,
    pub max_words: Option<usize>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JudgeSection {
    pub provider: Option<String>,
    pub model: Option<String>,
    pub concurrency: Option<usize>,
    pub base_url: Option<String>,
    pub timeout_secs: Option<f64>,
    pub attempts: Option<u32>,
}

/// Which fetch backend to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FetcherKind {
    /// Plain HTTP from this machine: no token, no vendor.
    Direct,
    /// Crawlbase's Crawling API (tokens from CRAWLBASE_TOKEN / CRAWLBASE_JS_TOKEN).
    Crawlbase,
}

impl FetcherKind {
    pub fn as_str(self) -> &'static str {
        match self {
            FetcherKind::Direct => "direct",
            FetcherKind::Crawlbase => "crawlbase",
        }
    }
}

/// Crawlbase tokens and endpoint as read from the environment. Tokens are redacted in `Debug`.
#[derive(Clone, Default)]
pub struct CrawlbaseEnv {
    pub token: Option<String>,
    pub js_token: Option<String>,
    pub api_url: Option<String>,
}

impl std::fmt::Debug for CrawlbaseEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CrawlbaseEnv")
            .field("token", &self.token.as_ref().map(|_| "[REDACTED]"))
            .field("js_token", &self.js_token.as_ref().map(|_| "[REDACTED]"))
            .field("api_url", &self.api_url)
            .finish()
    }
}

/// Which ranker to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RankerKind {
    Lexical,
    /// all-MiniLM-L6-v2 sentence embeddings, in-process (citecheck-embed).
    Embedding,
}

/// Which judge to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JudgeProvider {
    /// The offline heuristic: no key, no network.
    Local,
    Llm(LlmProvider),
}

impl JudgeProvider {
    fn parse(text: &str) -> anyhow::Result<Self> {
        match text.trim().to_ascii_lowercase().as_str() {
            "local" => Ok(JudgeProvider::Local),
            other => other
                .parse::<LlmProvider>()
                .map(JudgeProvider::Llm)
                .map_err(|_| {
                    config_error(format!(
                    "unknown judge `{other}` (JUDGE_PROVIDER / --judge): expected local, openai, \
                     anthropic or ollama"
                ))
                }),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            JudgeProvider::Local => "local",
            JudgeProvider::Llm(provider) => provider.as_str(),
        }
    }
}

/// A secret the chosen configuration needs is not set: the process exits with code 3, and the
/// HTTP service answers 503 naming the variable (never a value).
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct MissingSecret {
    pub variable: &'static str,
    pub message: String,
}

/// Everything needed to build the pipeline.
#[derive(Debug, Clone)]
pub struct Settings {
    pub fetcher: FetcherKind,
    pub fetch: FetchOptions,
    pub ranker: RankerKind,
    /// The embedding model's directory (`None`: `$CITECHECK_MODEL_DIR` is already folded in by
    /// the flag; else the per-user default).
    pub model_dir: Option<std::path::PathBuf>,
    /// `--embed-threads` / `CITECHECK_EMBED_THREADS` (`None`: fitted to the machine).
    pub embed_threads: Option<usize>,
    pub verify: VerifyOptions,
    pub judge: JudgeProvider,
    pub judge_model: Option<String>,
    /// Settings of an LLM judge (unused by the local judge). Holds the key, redacted in `Debug`.
    pub llm: Option<LlmJudgeConfig>,
    /// Crawlbase's tokens and endpoint (used by `--fetcher crawlbase` and by replay).
    pub crawlbase: CrawlbaseEnv,
}

impl Settings {
    /// Resolves settings from flags/environment (`args`) and the config file they name.
    pub fn resolve(args: &GlobalArgs) -> anyhow::Result<Settings> {
        let file = match &args.config {
            Some(path) => load_file(path)?,
            None => FileConfig::default(),
        };
        Self::merge(args, file)
    }

    pub fn merge(args: &GlobalArgs, file: FileConfig) -> anyhow::Result<Settings> {
        Self::merge_with_env(args, file, env_value)
    }

    /// `merge`, reading secrets and provider URLs through `env` (tests pass a fixed table).
    pub fn merge_with_env(
        args: &GlobalArgs,
        file: FileConfig,
        env: impl Fn(&str) -> Option<String>,
    ) -> anyhow::Result<Settings> {
        let fetcher = match args
            .fetcher
            .clone()
            .or(file.fetch.fetcher)
            .unwrap_or_else(|| "direct".to_string())
            .to_ascii_lowercase()
            .as_str()
        {
            "direct" => FetcherKind::Direct,
            "crawlbase" => FetcherKind::Crawlbase,
            other => {
                return Err(config_error(format!(
                    "unknown fetcher `{other}` (FETCHER / --fetcher): expected direct or crawlbase"
                )))
            }
        };
        let ranker = match args
            .ranker
            .clone()
            .or(file.pipeline.ranker)
            // The reference design ranks with all-MiniLM-L6-v2; BM25 stays a flag away.
            .unwrap_or_else(|| "embedding".to_string())
            .to_ascii_lowercase()
            .as_str()
        {
            "lexical" | "bm25" => RankerKind::Lexical,
            "embedding" | "semantic" => RankerKind::Embedding,
            other => {
                return Err(config_error(format!(
                    "unknown ranker `{other}` (CITECHECK_RANKER / --ranker): expected lexical or \
                     embedding"
                )))
            }
        };
        let judge = JudgeProvider::parse(
            args.judge
                .as_deref()
                .or(file.judge.provider.as_deref())
                .unwrap_or("local"),
        )?;

        let mut allowed_hosts: HashSet<String> = file
            .fetch
            .allowed_hosts
            .unwrap_or_default()
            .into_iter()
            .map(|h| h.trim().to_ascii_lowercase())
            .collect();
        allowed_hosts.extend(
            args.allow_hosts
                .iter()
                .map(|h| h.trim().to_ascii_lowercase())
                .filter(|h| !h.is_empty()),
        );
        let allow_private = args
            .allow_private_hosts
            .or(file.fetch.allow_private_hosts)
            .unwrap_or(false);

        let fetch = FetchOptions {
            connect_timeout: seconds(
                "connect timeout",
                args.connect_timeout.or(file.fetch.connect_timeout_secs),
                direct::DEFAULT_CONNECT_TIMEOUT,
            )?,
            timeout: seconds(
                "timeout",
                args.timeout.or(file.fetch.timeout_secs),
                direct::DEFAULT_TIMEOUT,
            )?,
            max_body_bytes: positive(
                "max body bytes",
                args.max_body_bytes.or(file.fetch.max_body_bytes),
                direct::DEFAULT_MAX_BODY_BYTES,
            )?,
            max_redirects: args
                .max_redirects
                .or(file.fetch.max_redirects)
                .unwrap_or(direct::DEFAULT_MAX_REDIRECTS),
            attempts: positive(
                "fetch attempts",
                args.fetch_attempts.or(file.fetch.attempts),
                direct::DEFAULT_ATTEMPTS,
            )?,
            user_agent: args
                .user_agent
                .clone()
                .or(file.fetch.user_agent)
                .unwrap_or_else(|| direct::DEFAULT_USER_AGENT.to_string()),
            guard: GuardPolicy {
                enabled: !allow_private,
                allowed_hosts,
            },
            ..FetchOptions::default()
        };
        let verify = VerifyOptions {
            top_k: positive("top k", args.top_k.or(file.pipeline.top_k), DEFAULT_TOP_K)?,
            max_words: positive(
                "max words",
                args.max_words.or(file.pipeline.max_words),
                citecheck_core::passage::DEFAULT_MAX_WORDS,
            )?,
            fetch_concurrency: positive(
                "fetch concurrency",
                args.fetch_concurrency.or(file.fetch.concurrency),
                DEFAULT_FETCH_CONCURRENCY,
            )?,
            judge_concurrency: positive(
                "judge concurrency",
                args.judge_concurrency.or(file.judge.concurrency),
                DEFAULT_JUDGE_CONCURRENCY,
            )?,
        };
        let judge_model = args.judge_model.clone().or(file.judge.model);
        let llm = match judge {
            JudgeProvider::Local => None,
            JudgeProvider::Llm(provider) => {
                let mut config = LlmJudgeConfig::new(provider);
                config.model = judge_model.clone();
                config.api_key = provider
                    .key_variable()
                    .and_then(&env)
                    .map(SecretString::from);
                config.base_url = args
                    .judge_base_url
                    .clone()
                    .or_else(|| env(provider.base_url_variable()))
                    .or(file.judge.base_url);
                config.timeout = seconds(
                    "judge timeout",
                    args.judge_timeout.or(file.judge.timeout_secs),
                    provider.default_timeout(),
                )?;
                config.attempts = positive(
                    "judge attempts",
                    args.judge_attempts.or(file.judge.attempts),
                    config.attempts,
                )?;
                Some(config)
            }
        };
        Ok(Settings {
            fetcher,
            fetch,
            ranker,
            model_dir: args.model_dir.clone().or(file.pipeline.model_dir),
            embed_threads: args.embed_threads,
            verify,
            judge,
            judge_model,
            llm,
            crawlbase: CrawlbaseEnv {
                token: env("CRAWLBASE_TOKEN"),
                js_token: env("CRAWLBASE_JS_TOKEN"),
                api_url: env("CRAWLBASE_API_URL"),
            },
        })
    }
}

/// A non-empty environment variable's value.
fn env_value(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

/// Reads and parses a config file; every problem names the file.
pub fn load_file(path: &Path) -> anyhow::Result<FileConfig> {
    let text = std::fs::read_to_string(path).map_err(|err| {
        config_error(format!("cannot read config file {}: {err}", path.display()))
    })?;
    toml::from_str(&text)
        .map_err(|err| config_error(format!("invalid config file {}: {err}", path.display())))
}

fn seconds(name: &str, value: Option<f64>, default: Duration) -> anyhow::Result<Duration> {
    match value {
        None => Ok(default),
        Some(secs) if secs.is_finite() && secs > 0.0 && secs <= 86_400.0 => {
            Ok(Duration::from_secs_f64(secs))
        }
        Some(secs) => Err(config_error(format!(
            "{name} must be a positive number of seconds up to 86400, got {secs}"
        ))),
    }
}

fn positive<T>(name: &str, value: Option<T>, default: T) -> anyhow::Result<T>
where
    T: PartialOrd + Default + std::fmt::Display + Copy,
{
    match value {
        None => Ok(default),
        Some(v) if v > T::default() => Ok(v),
        Some(v) => Err(config_error(format!("{name} must be at least 1, got {v}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn args(extra: &[&str]) -> GlobalArgs {
        let mut argv = vec!["citecheck"];
        argv.extend_from_slice(extra);
        argv.extend_from_slice(&["verify", "--claim", "x", "http://a.example/"]);
        crate::cli::Cli::try_parse_from(argv)
            .expect("parses")
            .global
    }

    #[test]
    fn flags_override_the_file_which_overrides_defaults() {
        let file: FileConfig =
            toml::from_str("[pipeline]\ntop_k = 5\nmax_words = 120\n[fetch]\ntimeout_secs = 2.5\n")
                .expect("valid toml");
        let s = Settings::merge(&args(&["--top-k", "7"]), file).expect("valid");
        assert_eq!(s.verify.top_k, 7);
        assert_eq!(s.verify.max_words, 120);
        assert_eq!(s.fetch.timeout, Duration::from_millis(2500));
        assert_eq!(s.fetch.max_body_bytes, direct::DEFAULT_MAX_BODY_BYTES);
        assert!(s.fetch.guard.enabled);
    }

    #[test]
    fn the_embedding_ranker_takes_its_model_dir_from_the_flag_over_the_file() {
        let file: FileConfig =
            toml::from_str("[pipeline]\nranker = \"embedding\"\nmodel_dir = \"/from/file\"\n")
                .expect("valid toml");
        let s = Settings::merge(&args(&[]), file).expect("valid");
        assert_eq!(s.ranker, RankerKind::Embedding);
        // CITECHECK_MODEL_DIR, when the environment sets it, rightly outranks the file.
        let expected = std::env::var_os("CITECHECK_MODEL_DIR")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| "/from/file".into());
        assert_eq!(s.model_dir.as_deref(), Some(expected.as_path()));
        let file: FileConfig =
            toml::from_str("[pipeline]\nmodel_dir = \"/from/file\"\n").expect("valid toml");
        let flags = args(&["--ranker", "lexical", "--model-dir", "/from/flag"]);
        let s = Settings::merge(&flags, file).expect("valid");
        assert_eq!(s.ranker, RankerKind::Lexical);
        assert_eq!(s.model_dir.as_deref(), Some(Path::new("/from/flag")));
    }

    #[test]
    fn the_example_config_parses_and_matches_the_defaults() {
        let text = include_str!("../../../citecheck.example.toml");
        let file: FileConfig = toml::from_str(text).expect("citecheck.example.toml is valid");
        let from_file = Settings::merge_with_env(&args(&[]), file, |_| None).expect("valid");
        let defaults =
            Settings::merge_with_env(&args(&[]), FileConfig::default(), |_| None).expect("valid");
        assert_eq!(from_file.verify.top_k, defaults.verify.top_k);
        assert_eq!(from_file.verify.max_words, defaults.verify.max_words);
        assert_eq!(from_file.ranker, defaults.ranker);
        assert_eq!(from_file.fetch.timeout, defaults.fetch.timeout);
        assert_eq!(
            from_file.fetch.max_body_bytes,
            defaults.fetch.max_body_bytes
        );
        assert_eq!(from_file.fetch.user_agent, defaults.fetch.user_agent);
        assert_eq!(from_file.fetch.guard.enabled, defaults.fetch.guard.enabled);
    }

    #[test]
    fn unknown_keys_and_bad_values_are_configuration_errors() {
        assert!(toml::from_str::<FileConfig>("[fetch]\ntimeout = 3\n").is_err());
        let err = Settings::merge(&args(&["--top-k", "0"]), FileConfig::default())
            .expect_err("zero is refused");
        assert!(err.downcast_ref::<ConfigError>().is_some());
        assert!(err.to_string().contains("top k"));
        let err = Settings::merge(&args(&["--judge", "oracle"]), FileConfig::default())
            .expect_err("unknown judge");
        assert!(err.to_string().contains("oracle"));
    }

    #[test]
    fn an_llm_judge_takes_its_key_and_url_from_the_environment() {
        let env = |name: &str| match name {
            "ANTHROPIC_API_KEY" => Some("sk-test-secret".to_string()),
            "ANTHROPIC_BASE_URL" => Some("http://127.0.0.1:9".to_string()),
            _ => None,
        };
        let s = Settings::merge_with_env(
            &args(&["--judge", "anthropic", "--judge-model", "m1"]),
            FileConfig::default(),
            env,
        )
        .expect("valid");
        let llm = s.llm.expect("an LLM judge is configured");
        assert_eq!(llm.model.as_deref(), Some("m1"));
        assert_eq!(llm.base_url.as_deref(), Some("http://127.0.0.1:9"));
        assert!(llm.api_key.is_some());
        assert!(!format!("{llm:?}").contains("sk-test-secret"));
    }

    #[test]
    fn a_missing_key_names_the_variable_and_exits_as_a_configuration_error() {
        let s =
            Settings::merge_with_env(&args(&["--judge", "openai"]), FileConfig::default(), |_| {
                None
            })
            .expect("settings resolve; the key is checked when building");
        let err = crate::engine::build_verifier(&s)
            .err()
            .expect("no key, no OpenAI judge");
        let missing = err.downcast_ref::<MissingSecret>().expect("typed");
        assert_eq!(missing.variable, "OPENAI_API_KEY");
        assert!(err.to_string().contains("OPENAI_API_KEY"));
    }

    #[test]
    fn the_guard_can_be_turned_off_or_narrowed() {
        let s = Settings::merge(&args(&["--allow-private-hosts"]), FileConfig::default())
            .expect("valid");
        assert!(!s.fetch.guard.enabled);
        let s = Settings::merge(
            &args(&[
                "--allow-private-hosts=false",
                "--allow-host",
                "Wiki.Internal",
            ]),
            FileConfig::default(),
        )
        .expect("valid");
        assert!(s.fetch.guard.enabled);
        assert!(s.fetch.guard.allowed_hosts.contains("wiki.internal"));
    }
}
