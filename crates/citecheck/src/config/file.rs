//! The config file's shape: one section per concern, every key optional. The file is read once
//! ([`load`]) and its sections handed to whoever resolves them: the pipeline's in
//! [`Config`](super::Config), a command's own (`[server]`, `[batch]`) in that command, merged
//! with its flags. Unknown keys are errors, so a typo does not silently do nothing. Secrets are
//! never read from here, so a config file can be committed.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::ConfigError;

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
    pub batch: BatchSection,
    #[serde(default)]
    pub audit: AuditSection,
    #[serde(default)]
    pub archive: ArchiveSection,
    #[serde(default)]
    pub queue: QueueSection,
    #[serde(default)]
    pub answer: AnswerSection,
}

/// `[answer]`: bounds on one whole answer, for `citecheck answer` and `POST /verify-answer`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnswerSection {
    /// The largest answer, in characters.
    pub max_chars: Option<usize>,
    /// The most cited statements in one answer.
    pub max_statements: Option<usize>,
}

/// `[archive]`: asking the Internet Archive about dead links.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArchiveSection {
    /// `false` never asks (as `--no-archive`).
    pub enabled: Option<bool>,
    /// The archive's base URL.
    pub url: Option<String>,
    /// Judge the claim against the archived copy too (as `--archive-verify`).
    pub verify: Option<bool>,
    /// Seconds allowed for one lookup.
    pub timeout_secs: Option<f64>,
}

/// `[server]`: `citecheck serve`'s settings (merged with its flags in `server::config`).
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
    pub api_keys_file: Option<PathBuf>,
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
    pub read_pdfs: Option<bool>,
    /// `chromium` renders `needs_javascript` pages locally (as `--render`).
    pub render: Option<String>,
    /// The Chromium executable (as `--chromium`).
    pub chromium: Option<PathBuf>,
    /// Seconds allowed for one render (as `--render-timeout`).
    pub render_timeout_secs: Option<f64>,
    /// Renders in flight at once.
    pub render_concurrency: Option<usize>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PipelineSection {
    pub ranker: Option<String>,
    pub model_dir: Option<PathBuf>,
    pub embedding_cache_max_mb: Option<u64>,
    pub top_k: Option<usize>,
    pub max_words: Option<usize>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JudgeSection {
    pub provider: Option<String>,
    /// How the local judge reads: `meaning` or `words` (as `--judge-reading`).
    pub reading: Option<String>,
    pub model: Option<String>,
    pub concurrency: Option<usize>,
    pub base_url: Option<String>,
    pub timeout_secs: Option<f64>,
    pub attempts: Option<u32>,
}

/// `[batch]`: `citecheck batch`'s settings (merged with its flags in `batch`).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BatchSection {
    pub concurrency: Option<usize>,
    pub per_host: Option<usize>,
    pub cache_pages: Option<usize>,
}

/// `[queue]`: the PostgreSQL queue and `citecheck worker`'s settings (merged with the worker's
/// flags in `queue::worker`; the url with `--queue` in `Config::queue_url`).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QueueSection {
    /// The connection string, without a password (refused here: use CITECHECK_QUEUE_URL).
    pub url: Option<String>,
    /// Claims one worker verifies at once.
    pub concurrency: Option<usize>,
    /// Fetches in flight per host across all workers.
    pub per_host: Option<usize>,
    /// Fetched pages a worker keeps in memory.
    pub cache_pages: Option<usize>,
    /// Seconds a taken claim stays its worker's without a renewal.
    pub lease_secs: Option<f64>,
    /// Seconds an idle worker waits before looking for claims again.
    pub poll_secs: Option<f64>,
}

/// `[audit]`: where verdicts and pages are kept.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuditSection {
    /// The audit index.
    pub path: Option<PathBuf>,
    /// The evidence store's directory.
    pub evidence_dir: Option<PathBuf>,
    /// The evidence store's size budget, in MB.
    pub evidence_max_mb: Option<u64>,
    /// `false` keeps nothing (as `--no-audit`).
    pub enabled: Option<bool>,
}

/// Reads and parses a config file; every problem names the file.
pub fn load(path: &Path) -> Result<FileConfig, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::ReadFile {
        path: path.to_path_buf(),
        source,
    })?;
    toml::from_str(&text).map_err(|source| ConfigError::ParseFile {
        path: path.to_path_buf(),
        source,
    })
}
