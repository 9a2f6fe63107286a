//! The pipeline's resolved settings: which fetcher, ranker and judge, and their tuning, from
//! defaults < config file < environment < flags.
//!
//! clap already merges the environment and the flags (a flag wins); the config file fills in
//! what neither set, and the core's `pub const` defaults fill in the rest. Secrets are read from
//! the environment only, never from the config file.

use std::collections::HashSet;

use citecheck_core::archive::{self, ArchiveClient, ArchiveOptions};
use citecheck_core::fetch::direct::{self, FetchOptions};
use citecheck_core::fetch::render;
use citecheck_core::fetch::resolve::GuardPolicy;
use citecheck_core::judge::{LlmJudgeConfig, LlmProvider, SecretString};
use citecheck_core::pdf::PdfLimits;
use citecheck_core::rank::DEFAULT_TOP_K;
use citecheck_core::verifier::{
    VerifyOptions, DEFAULT_FETCH_CONCURRENCY, DEFAULT_JUDGE_CONCURRENCY,
};

use super::{at_least_one, seconds, ConfigError, FileConfig, GlobalArgs};
use crate::answer::{AnswerLimits, DEFAULT_MAX_ANSWER_CHARS, DEFAULT_MAX_STATEMENTS};

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

/// The local renderer (`--render chromium`), when enabled. The executable is looked for when
/// the engine is built, so that a missing browser is a configuration error there.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderSettings {
    /// `--chromium` / `CITECHECK_CHROMIUM` / `[fetch] chromium`; `None` searches the PATH.
    pub chromium: Option<std::path::PathBuf>,
    pub deadline: std::time::Duration,
    pub concurrency: usize,
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
    fn parse(text: &str) -> Result<Self, ConfigError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "local" => Ok(JudgeProvider::Local),
            other => other
                .parse::<LlmProvider>()
                .map(JudgeProvider::Llm)
                .map_err(|_| ConfigError::Unknown {
                    setting: "judge",
                    value: other.to_string(),
                    flags: "JUDGE_PROVIDER / --judge",
                    expected: "local, openai, anthropic or ollama",
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

/// How the local judge reads a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JudgeReading {
    /// Words, and closeness in meaning where the embedding model is loaded for ranking.
    Meaning,
    /// Words alone, even beside the embedding ranker. On CPUs without fast integer dot
    /// products the meaning pass costs several times the words' CPU (BENCHMARKS.md).
    Words,
}

impl JudgeReading {
    fn parse(text: &str) -> Result<Self, ConfigError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "meaning" => Ok(JudgeReading::Meaning),
            "words" => Ok(JudgeReading::Words),
            other => Err(ConfigError::Unknown {
                setting: "judge reading",
                value: other.to_string(),
                flags: "CITECHECK_JUDGE_READING / --judge-reading",
                expected: "meaning or words",
            }),
        }
    }
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
    /// Past this many bytes the on-disk embedding cache's oldest entries are deleted.
    pub embedding_cache_max_bytes: u64,
    /// `--embed-threads`: the embedding model's thread count, over `CITECHECK_EMBED_THREADS`.
    pub embed_threads: Option<usize>,
    pub verify: VerifyOptions,
    pub judge: JudgeProvider,
    /// How the local judge reads (an LLM judge ignores it).
    pub judge_reading: JudgeReading,
    pub judge_model: Option<String>,
    /// Settings of an LLM judge (unused by the local judge). Holds the key, redacted in `Debug`.
    pub llm: Option<LlmJudgeConfig>,
    /// Crawlbase's tokens and endpoint (used by `--fetcher crawlbase` and by replay).
    pub crawlbase: CrawlbaseEnv,
    /// The local JavaScript renderer (`None`: off).
    pub render: Option<RenderSettings>,
    /// Asking the web archive about dead links (`None`: off).
    pub archive: Option<ArchiveSettings>,
    /// Bounds on one whole answer (`citecheck answer`, `POST /verify-answer`).
    pub answer: AnswerLimits,
}

/// How dead links are looked up.
#[derive(Debug, Clone)]
pub struct ArchiveSettings {
    pub options: ArchiveOptions,
    /// Judge the claim against the archived copy too.
    pub judge_archived: bool,
}

impl Settings {
    /// Settings from flags/environment (`args`) over the config file's sections.
    pub fn merge(args: &GlobalArgs, file: &FileConfig) -> Result<Settings, ConfigError> {
        Self::merge_with_env(args, file, env_value)
    }

    /// `merge`, reading secrets and provider URLs through `env` (tests pass a fixed table).
    pub fn merge_with_env(
        args: &GlobalArgs,
        file: &FileConfig,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Settings, ConfigError> {
        let fetcher = match args
            .fetcher
            .clone()
            .or_else(|| file.fetch.fetcher.clone())
            .unwrap_or_else(|| "direct".to_string())
            .to_ascii_lowercase()
            .as_str()
        {
            "direct" => FetcherKind::Direct,
            "crawlbase" => FetcherKind::Crawlbase,
            other => {
                return Err(ConfigError::Unknown {
                    setting: "fetcher",
                    value: other.to_string(),
                    flags: "FETCHER / --fetcher",
                    expected: "direct or crawlbase",
                })
            }
        };
        let ranker = match args
            .ranker
            .clone()
            .or_else(|| file.pipeline.ranker.clone())
            // The reference design ranks with all-MiniLM-L6-v2; BM25 stays a flag away.
            .unwrap_or_else(|| "embedding".to_string())
            .to_ascii_lowercase()
            .as_str()
        {
            "lexical" | "bm25" => RankerKind::Lexical,
            "embedding" | "semantic" => RankerKind::Embedding,
            other => {
                return Err(ConfigError::Unknown {
                    setting: "ranker",
                    value: other.to_string(),
                    flags: "CITECHECK_RANKER / --ranker",
                    expected: "lexical or embedding",
                })
            }
        };
        let judge = JudgeProvider::parse(
            args.judge
                .as_deref()
                .or(file.judge.provider.as_deref())
                .unwrap_or("local"),
        )?;
        let judge_reading = JudgeReading::parse(
            args.judge_reading
                .as_deref()
                .or(file.judge.reading.as_deref())
                .unwrap_or("meaning"),
        )?;

        let mut allowed_hosts: HashSet<String> = file
            .fetch
            .allowed_hosts
            .iter()
            .flatten()
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
            max_body_bytes: at_least_one(
                "max body bytes",
                args.max_body_bytes.or(file.fetch.max_body_bytes),
                direct::DEFAULT_MAX_BODY_BYTES,
            )?,
            max_redirects: args
                .max_redirects
                .or(file.fetch.max_redirects)
                .unwrap_or(direct::DEFAULT_MAX_REDIRECTS),
            attempts: at_least_one(
                "fetch attempts",
                args.fetch_attempts.or(file.fetch.attempts),
                direct::DEFAULT_ATTEMPTS,
            )?,
            user_agent: args
                .user_agent
                .clone()
                .or_else(|| file.fetch.user_agent.clone())
                .unwrap_or_else(|| direct::DEFAULT_USER_AGENT.to_string()),
            guard: GuardPolicy {
                enabled: !allow_private,
                allowed_hosts,
            },
            pdf: args
                .no_pdf
                .map(|off| !off)
                .or(file.fetch.read_pdfs)
                .unwrap_or(true)
                .then(PdfLimits::default),
            ..FetchOptions::default()
        };
        let verify = VerifyOptions {
            top_k: at_least_one("top k", args.top_k.or(file.pipeline.top_k), DEFAULT_TOP_K)?,
            max_words: at_least_one(
                "max words",
                args.max_words.or(file.pipeline.max_words),
                citecheck_core::passage::DEFAULT_MAX_WORDS,
            )?,
            fetch_concurrency: at_least_one(
                "fetch concurrency",
                args.fetch_concurrency.or(file.fetch.concurrency),
                DEFAULT_FETCH_CONCURRENCY,
            )?,
            judge_concurrency: at_least_one(
                "judge concurrency",
                args.judge_concurrency.or(file.judge.concurrency),
                DEFAULT_JUDGE_CONCURRENCY,
            )?,
        };
        let judge_model = args
            .judge_model
            .clone()
            .or_else(|| file.judge.model.clone());
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
                    .or_else(|| file.judge.base_url.clone());
                config.timeout = seconds(
                    "judge timeout",
                    args.judge_timeout.or(file.judge.timeout_secs),
                    provider.default_timeout(),
                )?;
                config.attempts = at_least_one(
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
            embedding_cache_max_bytes: crate::prune::megabytes(at_least_one(
                "embedding cache size in MB (--embedding-cache-max-mb / \
                 CITECHECK_EMBEDDING_CACHE_MAX_MB)",
                args.embedding_cache_max_mb
                    .or(file.pipeline.embedding_cache_max_mb),
                crate::prune::DEFAULT_EMBEDDING_CACHE_MAX_MB,
            )?),
            model_dir: args
                .model_dir
                .clone()
                .or_else(|| file.pipeline.model_dir.clone()),
            embed_threads: args.embed_threads,
            answer: AnswerLimits {
                max_chars: at_least_one(
                    "max answer chars (--max-answer-chars / CITECHECK_MAX_ANSWER_CHARS)",
                    args.max_answer_chars.or(file.answer.max_chars),
                    DEFAULT_MAX_ANSWER_CHARS,
                )?,
                max_statements: at_least_one(
                    "max answer statements (--max-answer-statements / \
                     CITECHECK_MAX_ANSWER_STATEMENTS)",
                    args.max_answer_statements.or(file.answer.max_statements),
                    DEFAULT_MAX_STATEMENTS,
                )?,
            },
            verify,
            judge,
            judge_reading,
            judge_model,
            llm,
            crawlbase: CrawlbaseEnv {
                token: env("CRAWLBASE_TOKEN"),
                js_token: env("CRAWLBASE_JS_TOKEN"),
                api_url: env("CRAWLBASE_API_URL"),
            },
            archive: archive_settings(args, file)?,
            render: render_settings(args, file)?,
        })
    }
}

/// The local renderer, off unless `--render chromium` (or `CITECHECK_RENDER`, `[fetch] render`).
fn render_settings(
    args: &GlobalArgs,
    file: &FileConfig,
) -> Result<Option<RenderSettings>, ConfigError> {
    let choice = args
        .render
        .clone()
        .or_else(|| file.fetch.render.clone())
        .unwrap_or_else(|| "off".to_string());
    match choice.trim().to_ascii_lowercase().as_str() {
        "off" | "none" | "" => return Ok(None),
        "chromium" => {}
        other => {
            return Err(ConfigError::Unknown {
                setting: "renderer",
                value: other.to_string(),
                flags: "CITECHECK_RENDER / --render",
                expected: "off or chromium",
            })
        }
    }
    Ok(Some(RenderSettings {
        chromium: args
            .chromium
            .clone()
            .or_else(|| file.fetch.chromium.clone()),
        deadline: seconds(
            "render timeout",
            args.render_timeout.or(file.fetch.render_timeout_secs),
            render::DEFAULT_RENDER_DEADLINE,
        )?,
        concurrency: at_least_one(
            "render concurrency",
            file.fetch.render_concurrency,
            render::DEFAULT_RENDER_CONCURRENCY,
        )?,
    }))
}

/// The archive lookup, on unless `--no-archive` or `[archive] enabled = false`. Its requests
/// carry the fetcher's User-Agent.
fn archive_settings(
    args: &GlobalArgs,
    file: &FileConfig,
) -> Result<Option<ArchiveSettings>, ConfigError> {
    let enabled = match args.no_archive {
        Some(off) => !off,
        None => file.archive.enabled.unwrap_or(true),
    };
    if !enabled {
        return Ok(None);
    }
    let options = ArchiveOptions {
        base_url: args
            .archive_url
            .clone()
            .or_else(|| file.archive.url.clone())
            .unwrap_or_else(|| archive::DEFAULT_ARCHIVE_URL.to_string()),
        timeout: seconds(
            "archive timeout",
            file.archive.timeout_secs,
            archive::DEFAULT_TIMEOUT,
        )?,
        user_agent: args
            .user_agent
            .clone()
            .or_else(|| file.fetch.user_agent.clone())
            .unwrap_or_else(|| direct::DEFAULT_USER_AGENT.to_string()),
        ..ArchiveOptions::default()
    };
    // Refuse a bad URL now, as a configuration error, rather than at the first dead link.
    ArchiveClient::new(options.clone()).map_err(|err| {
        ConfigError::Invalid(format!(
            "{err} ({} / --archive-url)",
            archive::ARCHIVE_URL_VAR
        ))
    })?;
    Ok(Some(ArchiveSettings {
        options,
        judge_archived: args.archive_verify.or(file.archive.verify).unwrap_or(false),
    }))
}

/// A non-empty environment variable's value.
fn env_value(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::time::Duration;

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
        let s = Settings::merge(&args(&["--top-k", "7"]), &file).expect("valid");
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
        let s = Settings::merge(&args(&[]), &file).expect("valid");
        assert_eq!(s.ranker, RankerKind::Embedding);
        // CITECHECK_MODEL_DIR, when the environment sets it, rightly outranks the file.
        let expected = std::env::var_os("CITECHECK_MODEL_DIR")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| "/from/file".into());
        assert_eq!(s.model_dir.as_deref(), Some(expected.as_path()));
        let file: FileConfig =
            toml::from_str("[pipeline]\nmodel_dir = \"/from/file\"\n").expect("valid toml");
        let flags = args(&["--ranker", "lexical", "--model-dir", "/from/flag"]);
        let s = Settings::merge(&flags, &file).expect("valid");
        assert_eq!(s.ranker, RankerKind::Lexical);
        assert_eq!(s.model_dir.as_deref(), Some(Path::new("/from/flag")));
    }

    #[test]
    fn the_judge_reading_comes_from_the_flag_over_the_file_and_defaults_to_meaning() {
        let none = |_: &str| None;
        let defaults =
            Settings::merge_with_env(&args(&[]), &FileConfig::default(), none).expect("valid");
        assert_eq!(defaults.judge_reading, JudgeReading::Meaning);
        let file: FileConfig =
            toml::from_str("[judge]\nreading = \"words\"\n").expect("valid toml");
        let s = Settings::merge_with_env(&args(&[]), &file, none).expect("valid");
        assert_eq!(s.judge_reading, JudgeReading::Words);
        let flags = args(&["--judge-reading", "MEANING"]);
        let s = Settings::merge_with_env(&flags, &file, none).expect("valid");
        assert_eq!(s.judge_reading, JudgeReading::Meaning);
        let err = Settings::merge_with_env(&args(&["--judge-reading", "vibes"]), &file, none)
            .expect_err("an unknown reading");
        let text = err.to_string();
        assert!(text.contains("vibes"), "{text}");
        assert!(text.contains("--judge-reading"), "{text}");
        assert!(text.contains("meaning or words"), "{text}");
    }

    #[test]
    fn the_example_config_parses_and_matches_the_defaults() {
        let text = include_str!("../../../../citecheck.example.toml");
        let file: FileConfig = toml::from_str(text).expect("citecheck.example.toml is valid");
        let from_file = Settings::merge_with_env(&args(&[]), &file, |_| None).expect("valid");
        let defaults =
            Settings::merge_with_env(&args(&[]), &FileConfig::default(), |_| None).expect("valid");
        assert_eq!(from_file.verify.top_k, defaults.verify.top_k);
        assert_eq!(from_file.verify.max_words, defaults.verify.max_words);
        assert_eq!(from_file.ranker, defaults.ranker);
        assert_eq!(from_file.judge_reading, defaults.judge_reading);
        assert_eq!(from_file.fetch.timeout, defaults.fetch.timeout);
        assert_eq!(
            from_file.fetch.max_body_bytes,
            defaults.fetch.max_body_bytes
        );
        assert_eq!(from_file.fetch.user_agent, defaults.fetch.user_agent);
        assert_eq!(from_file.fetch.guard.enabled, defaults.fetch.guard.enabled);
        assert_eq!(from_file.fetch.pdf, defaults.fetch.pdf);
        assert_eq!(from_file.answer, defaults.answer);
        assert_eq!(
            from_file.embedding_cache_max_bytes,
            defaults.embedding_cache_max_bytes
        );
        let (a, b) = (
            from_file.archive.expect("on in the example"),
            defaults.archive.expect("on by default"),
        );
        assert_eq!(a.options.base_url, b.options.base_url);
        assert_eq!(a.options.timeout, b.options.timeout);
        assert_eq!(a.judge_archived, b.judge_archived);
    }

    #[test]
    fn pdfs_are_read_unless_the_flag_or_the_file_says_no() {
        let read = |flags: &[&str], toml_text: &str| {
            let file: FileConfig = toml::from_str(toml_text).expect("valid toml");
            Settings::merge_with_env(&args(flags), &file, |_| None)
                .expect("valid")
                .fetch
                .pdf
                .is_some()
        };
        assert!(read(&[], ""));
        assert!(!read(&["--no-pdf"], ""));
        assert!(!read(&[], "[fetch]\nread_pdfs = false\n"));
        assert!(read(&["--no-pdf=false"], "[fetch]\nread_pdfs = false\n"));
    }

    #[test]
    fn archive_lookups_follow_flags_over_the_file() {
        let off: FileConfig = toml::from_str("[archive]\nenabled = false\n").expect("toml");
        assert!(Settings::merge_with_env(&args(&[]), &off, |_| None)
            .expect("valid")
            .archive
            .is_none());
        let s = Settings::merge_with_env(&args(&["--no-archive=false"]), &off, |_| None)
            .expect("valid");
        assert!(s.archive.is_some(), "the flag wins over the file");
        let s =
            Settings::merge_with_env(&args(&["--no-archive"]), &FileConfig::default(), |_| None)
                .expect("valid");
        assert!(s.archive.is_none());
        let file: FileConfig =
            toml::from_str("[archive]\nurl = \"http://127.0.0.1:9\"\nverify = true\n")
                .expect("toml");
        let s = Settings::merge_with_env(&args(&[]), &file, |_| None).expect("valid");
        let archive = s.archive.expect("on");
        assert_eq!(archive.options.base_url, "http://127.0.0.1:9");
        assert!(archive.judge_archived);
        let err = Settings::merge_with_env(
            &args(&["--archive-url", "web.archive.org"]),
            &FileConfig::default(),
            |_| None,
        )
        .expect_err("not a URL");
        assert!(err.to_string().contains("CITECHECK_ARCHIVE_URL"), "{err}");
    }

    #[test]
    fn unknown_keys_and_bad_values_are_configuration_errors() {
        assert!(toml::from_str::<FileConfig>("[fetch]\ntimeout = 3\n").is_err());
        let err = Settings::merge(&args(&["--top-k", "0"]), &FileConfig::default())
            .expect_err("zero is refused");
        assert!(matches!(err, ConfigError::AtLeastOne { .. }), "{err:?}");
        assert!(err.to_string().contains("top k"));
        let err = Settings::merge(&args(&["--judge", "oracle"]), &FileConfig::default())
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
            &FileConfig::default(),
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
        let s = Settings::merge_with_env(
            &args(&["--judge", "openai"]),
            &FileConfig::default(),
            |_| None,
        )
        .expect("settings resolve; the key is checked when building");
        let err = crate::engine::build_verifier(&s)
            .err()
            .expect("no key, no OpenAI judge");
        let crate::error::AppError::MissingSecret(missing) = &err else {
            panic!("typed: {err:?}");
        };
        assert_eq!(missing.variable(), "OPENAI_API_KEY");
        assert_eq!(err.exit_code(), crate::error::EXIT_CONFIG);
        assert!(err.to_string().contains("OPENAI_API_KEY"));
    }

    #[test]
    fn the_guard_can_be_turned_off_or_narrowed() {
        let s = Settings::merge(&args(&["--allow-private-hosts"]), &FileConfig::default())
            .expect("valid");
        assert!(!s.fetch.guard.enabled);
        let s = Settings::merge(
            &args(&[
                "--allow-private-hosts=false",
                "--allow-host",
                "Wiki.Internal",
            ]),
            &FileConfig::default(),
        )
        .expect("valid");
        assert!(s.fetch.guard.enabled);
        assert!(s.fetch.guard.allowed_hosts.contains("wiki.internal"));
    }
}
