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
    /// Run the verifier as an HTTP service (POST /verify, GET /health, /openapi.json, /metrics).
    Serve(ServeArgs),
    /// Score a JSONL file of claims: precision figures, CSV/JSONL/HTML reports, resumable.
    Batch(crate::batch::BatchArgs),
    /// List and filter the audit index (one row per verified citation).
    Audit(crate::audit::command::AuditArgs),
    /// Print a stored page as it was judged, optionally with a quote highlighted.
    Replay(crate::replay::ReplayArgs),
    /// Write a self-contained HTML report from the audit index or a batch's results.
    Report(crate::report::ReportArgs),
    /// The embedding model's files: `model fetch` obtains them, `model info` shows where they
    /// are and whether each matches its pinned SHA-256.
    Model(ModelArgs),
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
pub struct ModelArgs {
    #[command(subcommand)]
    pub action: ModelAction,
}

#[derive(Debug, Clone, Copy, Subcommand)]
pub enum ModelAction {
    /// Fetch missing or damaged files (the Hugging Face hub where reachable, else pip), then
    /// show the directory.
    Fetch,
    /// Show the model directory and check every file; fetches nothing.
    Info,
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

/// `citecheck serve`. Each flag has an environment variable and a `[server]` key in the config
/// file; the address guard stays on unless --allow-private-hosts turns it off.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The address to listen on [default: 127.0.0.1:8080].
    #[arg(long, env = "CITECHECK_LISTEN", value_name = "ADDR")]
    pub listen: Option<String>,

    /// Most URLs accepted in one request [default: 20].
    #[arg(long, env = "CITECHECK_MAX_URLS", value_name = "N")]
    pub max_urls: Option<usize>,

    /// Most characters accepted in one claim [default: 2000].
    #[arg(long, env = "CITECHECK_MAX_CLAIM_CHARS", value_name = "N")]
    pub max_claim_chars: Option<usize>,

    /// Largest request body accepted, in bytes [default: 65536].
    #[arg(long, env = "CITECHECK_MAX_REQUEST_BYTES", value_name = "BYTES")]
    pub max_request_bytes: Option<usize>,

    /// Verifications run at once; past this, requests get 429 with Retry-After [default: 32].
    #[arg(long, env = "CITECHECK_MAX_CONCURRENT", value_name = "N")]
    pub max_concurrent: Option<usize>,

    /// Seconds one verification may take before it is cancelled with 504 [default: 120].
    #[arg(long, env = "CITECHECK_REQUEST_DEADLINE", value_name = "SECS")]
    pub request_deadline: Option<f64>,

    /// Seconds requests in flight get to finish after SIGTERM/SIGINT [default: 30].
    #[arg(long, env = "CITECHECK_SHUTDOWN_GRACE", value_name = "SECS")]
    pub shutdown_grace: Option<f64>,

    /// An origin browsers may call from (repeatable; env: comma-separated; `*` for any).
    /// CORS is off when none is given.
    #[arg(
        long = "cors-origin",
        env = "CITECHECK_CORS_ORIGINS",
        value_delimiter = ',',
        value_name = "ORIGIN"
    )]
    pub cors_origins: Vec<String>,

    /// API keys that POST /verify and GET /metrics require as `Authorization: Bearer <key>`
    /// (comma-separated). Prefer the variable or --api-keys-file: flags show in `ps`.
    #[arg(
        long,
        env = "CITECHECK_API_KEYS",
        hide_env_values = true,
        value_delimiter = ',',
        value_name = "KEYS"
    )]
    pub api_keys: Vec<String>,

    /// A file of API keys, one per line (`#` comments); adds to --api-keys.
    #[arg(long, env = "CITECHECK_API_KEYS_FILE", value_name = "PATH")]
    pub api_keys_file: Option<PathBuf>,
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

    /// The judge: local (offline heuristic), openai, anthropic or ollama. Keys come from
    /// OPENAI_API_KEY / ANTHROPIC_API_KEY.
    #[arg(long, global = true, env = "JUDGE_PROVIDER", value_name = "PROVIDER")]
    pub judge: Option<String>,

    /// The judge's model (default depends on the provider).
    #[arg(long, global = true, env = "JUDGE_MODEL", value_name = "MODEL")]
    pub judge_model: Option<String>,

    /// Judge calls in flight at once.
    #[arg(long, global = true, env = "JUDGE_CONCURRENCY", value_name = "N")]
    pub judge_concurrency: Option<usize>,

    /// The judge's API base URL (default: the provider's own, or OPENAI_BASE_URL,
    /// ANTHROPIC_BASE_URL, OLLAMA_HOST for the chosen provider). Any OpenAI-compatible server
    /// (vLLM, llama.cpp, LM Studio) works through `--judge openai` with its URL here.
    #[arg(long, global = true, value_name = "URL")]
    pub judge_base_url: Option<String>,

    /// Seconds allowed for one judge call.
    #[arg(long, global = true, env = "JUDGE_TIMEOUT", value_name = "SECS")]
    pub judge_timeout: Option<f64>,

    /// Attempts per judge call when the provider fails transiently (429, 5xx, timeouts).
    #[arg(long, global = true, env = "JUDGE_ATTEMPTS", value_name = "N")]
    pub judge_attempts: Option<u32>,

    /// How pages are fetched: direct.
    #[arg(long, global = true, env = "FETCHER", value_name = "FETCHER")]
    pub fetcher: Option<String>,

    /// How passages are ranked against the claim: embedding (the default: all-MiniLM-L6-v2
    /// in-process; its files are fetched on first use when missing) or lexical (BM25, no model).
    #[arg(long, global = true, env = "CITECHECK_RANKER", value_name = "RANKER")]
    pub ranker: Option<String>,

    /// Directory of the embedding model's files (default: the per-user cache directory,
    /// ~/.cache/citecheck/models/all-MiniLM-L6-v2 on Linux).
    #[arg(long, global = true, env = "CITECHECK_MODEL_DIR", value_name = "DIR")]
    pub model_dir: Option<PathBuf>,

    /// Embedding inference threads (default: fitted to the machine at start-up; see
    /// `citecheck model info`).
    #[arg(long, global = true, env = "CITECHECK_EMBED_THREADS", value_name = "N")]
    pub embed_threads: Option<usize>,

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
        require_equals = true,
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

    /// Where verdicts (audit index) and fetched pages (evidence store) are kept.
    #[command(flatten)]
    pub store: crate::audit::command::StoreArgs,
}
