//! Command-line flags. Every setting that has a flag also has an environment variable (shown in
//! `--help`, values hidden) and, where it makes sense, a key in the config file; precedence is
//! defaults < config file < environment < flags.

use std::path::PathBuf;

use clap::builder::BoolishValueParser;
use clap::{Args, Parser, Subcommand, ValueEnum};

/// Check whether the sources an LLM cited say what it claimed.
#[derive(Debug, Parser)]
#[command(name = "citecheck", version, about, long_about = None, after_help = EXIT_CODES)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,

    #[command(subcommand)]
    pub command: Command,
}

pub const EXIT_CODES: &str = "Exit codes:
  0  every citation supported its claim
  2  at least one citation did not support its claim
  1  a fatal error (nothing could be checked)
  3  a configuration or usage error";

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check one claim against the URLs cited for it.
    Verify(VerifyArgs),
    /// Serve a few bundled example pages on 127.0.0.1 and verify example claims against them.
    Demo(DemoArgs),
    /// Measure the judge on a labelled development set (per-label precision/recall, accuracy).
    Eval(EvalArgs),
}

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The claim to check.
    #[arg(long, short = 'c')]
    pub claim: String,

    /// The URLs cited for the claim.
    #[arg(required = true, value_name = "URL")]
    pub urls: Vec<String>,

    /// Output format on stdout.
    #[arg(long, value_enum, default_value_t = Format::Json, env = "CITECHECK_FORMAT")]
    pub format: Format,
}

#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Output format on stdout.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Debug, Args)]
pub struct EvalArgs {
    /// The development set: a directory with claims.jsonl and pages/.
    #[arg(long, default_value = "fixtures/devset", env = "CITECHECK_DEVSET")]
    pub devset: PathBuf,

    /// Output format on stdout.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Json,
    Text,
}

/// Settings shared by every command that runs the pipeline.
#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// A TOML config file (see citecheck.example.toml for every key).
    #[arg(long, global = true, env = "CITECHECK_CONFIG", value_name = "PATH")]
    pub config: Option<PathBuf>,

    /// The judge: local (offline heuristic), openai, anthropic or ollama.
    #[arg(long, global = true, env = "JUDGE_PROVIDER", value_name = "PROVIDER")]
    pub judge: Option<String>,

    /// The judge's model (default depends on the provider).
    #[arg(long, global = true, env = "JUDGE_MODEL", value_name = "MODEL")]
    pub judge_model: Option<String>,

    /// Judge calls in flight at once.
    #[arg(long, global = true, env = "JUDGE_CONCURRENCY", value_name = "N")]
    pub judge_concurrency: Option<usize>,

    /// How pages are fetched: direct.
    #[arg(long, global = true, env = "FETCHER", value_name = "FETCHER")]
    pub fetcher: Option<String>,

    /// How passages are ranked against the claim: lexical (BM25).
    #[arg(long, global = true, env = "CITECHECK_RANKER", value_name = "RANKER")]
    pub ranker: Option<String>,

    /// Passages shown to the judge per citation.
    #[arg(long, global = true, env = "CITECHECK_TOP_K", value_name = "K")]
    pub top_k: Option<usize>,

    /// Words per passage.
    #[arg(long, global = true, env = "CITECHECK_MAX_WORDS", value_name = "N")]
    pub max_words: Option<usize>,

    /// Seconds allowed to connect to a cited site.
    #[arg(
        long,
        global = true,
        env = "CITECHECK_CONNECT_TIMEOUT",
        value_name = "SECS"
    )]
    pub connect_timeout: Option<f64>,

    /// Seconds allowed for one fetch attempt, body included.
    #[arg(long, global = true, env = "CITECHECK_TIMEOUT", value_name = "SECS")]
    pub timeout: Option<f64>,

    /// Largest page body accepted, in decompressed bytes.
    #[arg(
        long,
        global = true,
        env = "CITECHECK_MAX_BODY_BYTES",
        value_name = "BYTES"
    )]
    pub max_body_bytes: Option<u64>,

    /// Redirects followed per URL.
    #[arg(long, global = true, env = "CITECHECK_MAX_REDIRECTS", value_name = "N")]
    pub max_redirects: Option<usize>,

    /// Attempts per URL when fetching fails transiently (timeouts, 5xx, 429).
    #[arg(
        long,
        global = true,
        env = "CITECHECK_FETCH_ATTEMPTS",
        value_name = "N"
    )]
    pub fetch_attempts: Option<u32>,

    /// Distinct URLs of one claim fetched at once.
    #[arg(
        long,
        global = true,
        env = "CITECHECK_FETCH_CONCURRENCY",
        value_name = "N"
    )]
    pub fetch_concurrency: Option<usize>,

    /// The User-Agent sent to cited sites.
    #[arg(long, global = true, env = "CITECHECK_USER_AGENT", value_name = "TEXT")]
    pub user_agent: Option<String>,

    /// Let fetches reach loopback, private and link-local addresses (local use, demos, tests).
    #[arg(
        long,
        global = true,
        env = "CITECHECK_ALLOW_PRIVATE_HOSTS",
        value_parser = BoolishValueParser::new(),
        num_args = 0..=1,
        default_missing_value = "true",
        value_name = "BOOL"
    )]
    pub allow_private_hosts: Option<bool>,

    /// A host exempt from the address guard (repeatable; env: comma-separated).
    #[arg(
        long = "allow-host",
        global = true,
        env = "CITECHECK_ALLOW_HOSTS",
        value_delimiter = ',',
        value_name = "HOST"
    )]
    pub allow_hosts: Vec<String>,

    /// More detail on stderr (-v: progress, -vv: debug); also adds token usage to text output.
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,

    /// Only errors on stderr.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
}
