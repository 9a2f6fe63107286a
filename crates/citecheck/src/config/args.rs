//! The flags (and their environment variables) that feed the resolved [`Config`](super::Config):
//! the settings every command shares. Each command's own flags live with the command.

use std::path::PathBuf;

use clap::builder::BoolishValueParser;
use clap::Args;

/// The `--help` heading of the options every command shares.
pub const GLOBAL_HEADING: &str = "Global options";

/// Settings shared by every command that runs the pipeline. In each subcommand's `--help`
/// they come under their own heading, after the subcommand's own options.
#[derive(Debug, Args)]
#[command(next_help_heading = GLOBAL_HEADING)]
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

    /// How the local judge reads the passages: meaning (the default: words, and with the
    /// embedding ranker also closeness in meaning from its model) or words (words alone: less
    /// CPU a citation, a weaker reading of paraphrases).
    #[arg(
        long,
        global = true,
        env = "CITECHECK_JUDGE_READING",
        value_name = "READING"
    )]
    pub judge_reading: Option<String>,

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

    /// How pages are fetched: direct (plain HTTP from this machine, the default) or crawlbase
    /// (Crawlbase's Crawling API; needs CRAWLBASE_TOKEN, and CRAWLBASE_JS_TOKEN for pages that
    /// need JavaScript).
    #[arg(long, global = true, env = "FETCHER", value_name = "FETCHER")]
    pub fetcher: Option<String>,

    /// Render pages that need JavaScript in a local browser: off (the default) or chromium
    /// (headless Chromium, tried after the direct fetch ends `needs_javascript` and before
    /// Crawlbase; every request it makes passes the address guard).
    #[arg(long, global = true, env = "CITECHECK_RENDER", value_name = "RENDERER")]
    pub render: Option<String>,

    /// The Chromium executable for --render chromium (default: chromium, chromium-browser or
    /// google-chrome on the PATH).
    #[arg(long, global = true, env = "CITECHECK_CHROMIUM", value_name = "PATH")]
    pub chromium: Option<std::path::PathBuf>,

    /// Seconds allowed for rendering one page (starting the browser included) [default: 15].
    #[arg(
        long,
        global = true,
        env = "CITECHECK_RENDER_TIMEOUT",
        value_name = "SECS"
    )]
    pub render_timeout: Option<f64>,

    /// How passages are ranked against the claim: embedding (the default: all-MiniLM-L6-v2
    /// in-process; its files are fetched on first use when missing) or lexical (BM25, no model).
    #[arg(long, global = true, env = "CITECHECK_RANKER", value_name = "RANKER")]
    pub ranker: Option<String>,

    /// Directory of the embedding model's files (default: the per-user cache directory,
    /// ~/.cache/citecheck/models/all-MiniLM-L6-v2 on Linux).
    #[arg(long, global = true, env = "CITECHECK_MODEL_DIR", value_name = "DIR")]
    pub model_dir: Option<PathBuf>,

    /// Largest size of the on-disk embedding cache, in MB; past it the oldest entries are
    /// deleted [default: 1024].
    #[arg(
        long,
        global = true,
        env = "CITECHECK_EMBEDDING_CACHE_MAX_MB",
        value_name = "MB"
    )]
    pub embedding_cache_max_mb: Option<u64>,

    /// Threads the embedding model may use [default: the physical cores, kept only where a
    /// start-up probe shows they help]; overrides CITECHECK_EMBED_THREADS.
    #[arg(long, global = true, value_name = "N")]
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

    /// Leave PDFs unread (reason `pdf_unsupported`) instead of extracting their text.
    #[arg(
        long,
        global = true,
        env = "CITECHECK_NO_PDF",
        value_parser = BoolishValueParser::new(),
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "true",
        value_name = "BOOL"
    )]
    pub no_pdf: Option<bool>,

    /// Do not ask the Internet Archive about dead links (404, 410, no such domain, homepage
    /// redirects, soft 404s).
    #[arg(
        long,
        global = true,
        env = "CITECHECK_NO_ARCHIVE",
        value_parser = BoolishValueParser::new(),
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "true",
        value_name = "BOOL"
    )]
    pub no_archive: Option<bool>,

    /// For a dead link the archive holds, also judge the claim against the archived copy
    /// (reported as `archive.verdict`; the citation's own label does not change).
    #[arg(
        long,
        global = true,
        env = "CITECHECK_ARCHIVE_VERIFY",
        value_parser = BoolishValueParser::new(),
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "true",
        value_name = "BOOL"
    )]
    pub archive_verify: Option<bool>,

    /// The web archive's base URL (default: the Internet Archive's Wayback Machine).
    #[arg(long, global = true, env = "CITECHECK_ARCHIVE_URL", value_name = "URL")]
    pub archive_url: Option<String>,

    /// The largest whole answer accepted (`answer`, `POST /verify-answer`), in characters.
    #[arg(
        long,
        global = true,
        env = "CITECHECK_MAX_ANSWER_CHARS",
        value_name = "N"
    )]
    pub max_answer_chars: Option<usize>,

    /// The most cited statements one answer may hold (`answer`, `POST /verify-answer`).
    #[arg(
        long,
        global = true,
        env = "CITECHECK_MAX_ANSWER_STATEMENTS",
        value_name = "N"
    )]
    pub max_answer_statements: Option<usize>,

    /// More detail on stderr (-v: progress, -vv: debug); also adds token usage to text output.
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,

    /// Only errors on stderr.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,

    /// Where verdicts (audit index) and fetched pages (evidence store) are kept.
    #[command(flatten)]
    pub store: StoreArgs,
}

/// Where verdicts and pages are kept.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = GLOBAL_HEADING)]
pub struct StoreArgs {
    /// The audit index (SQLite). Default: audit.sqlite3 in the per-user data directory.
    #[arg(long, global = true, env = "CITECHECK_AUDIT_DB", value_name = "PATH")]
    pub audit_db: Option<PathBuf>,

    /// Where fetched pages are kept for replay. Default: evidence/ in the per-user data directory.
    #[arg(
        long,
        global = true,
        env = "CITECHECK_EVIDENCE_DIR",
        value_name = "DIR"
    )]
    pub evidence_dir: Option<PathBuf>,

    /// Largest size of the evidence store, in MB; past it the oldest pages are deleted
    /// [default: 2048].
    #[arg(
        long,
        global = true,
        env = "CITECHECK_EVIDENCE_MAX_MB",
        value_name = "MB"
    )]
    pub evidence_max_mb: Option<u64>,

    /// Keep no audit rows and no evidence for this run.
    #[arg(
        long,
        global = true,
        env = "CITECHECK_NO_AUDIT",
        value_parser = BoolishValueParser::new(),
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "true",
        value_name = "BOOL"
    )]
    pub no_audit: Option<bool>,
}
