//! One resolved configuration for every command: defaults < config file < environment < flags.
//!
//! `main` parses the flags, [`Config::load`] reads the config file once and resolves the shared
//! settings (the pipeline's, where records are kept), and each command receives the result.
//! Sections that belong to one command (`[server]`, `[batch]`) are carried as read and merged
//! with that command's own flags by the command, with the same helpers ([`at_least_one`],
//! [`seconds`]), so every bound is checked, and worded, one way. This module depends on no
//! command.

use std::path::PathBuf;
use std::time::Duration;

use citecheck_core::fetch::crawlbase::CrawlbaseError;
use citecheck_core::judge::JudgeConfigError;
use citecheck_core::verifier::BuildError;

mod args;
mod file;
mod pipeline;
mod queue;

pub use args::{GlobalArgs, StoreArgs};
pub use file::{
    load as load_file, ArchiveSection, AuditSection, BatchSection, FetchSection, FileConfig,
    JudgeSection, PipelineSection, QueueSection, ServerSection,
};
pub use pipeline::{
    ArchiveSettings, CrawlbaseEnv, FetcherKind, JudgeProvider, JudgeReading, RankerKind,
    RenderSettings, Settings,
};
pub use queue::QueueArg;

/// A configuration or usage problem: the process exits with code 3.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    #[error("cannot read config file {}", path.display())]
    ReadFile {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("invalid config file {}", path.display())]
    ParseFile {
        path: PathBuf,
        #[source]
        source: toml::de::Error,
    },
    #[error(
        "cannot read the API keys file {} (--api-keys-file / CITECHECK_API_KEYS_FILE)",
        path.display()
    )]
    ReadKeys {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{name} must be at least 1, got {value}")]
    AtLeastOne { name: String, value: String },
    #[error("{name} must be a positive number of seconds up to 86400, got {value}")]
    Seconds { name: String, value: f64 },
    #[error("unknown {setting} `{value}` ({flags}): expected {expected}")]
    Unknown {
        setting: &'static str,
        value: String,
        flags: &'static str,
        expected: &'static str,
    },
    /// A usage problem best said in words (an empty claim, a URL that is not http(s)).
    #[error("{0}")]
    Invalid(String),
    #[error("invalid pipeline settings")]
    Pipeline(#[from] BuildError),
    #[error("the judge is misconfigured")]
    Judge(#[source] JudgeConfigError),
    #[error("the Crawlbase fetcher is misconfigured")]
    Crawlbase(#[source] CrawlbaseError),
    /// `--render chromium` without a usable browser (none found, a wrong `--chromium` path).
    #[error("the local renderer cannot start")]
    Render(#[source] citecheck_render::SetupError),
    /// A service the command needs cannot be used (the PostgreSQL queue: unreachable, a bad
    /// URL, a schema too new). Boxed so that this module depends on none of them.
    #[error("{what} is unavailable")]
    Unavailable {
        what: &'static str,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    #[error("`{text}` is not a time: use 2025-03-01, 2025-03-01T12:00:00Z or an age like 24h")]
    NotATime {
        text: String,
        #[source]
        source: humantime::TimestampError,
    },
    #[error(
        "rid {rid} is not in the local evidence store, and reading it from Crawlbase's storage \
         needs {variable}"
    )]
    ReplayNeedsToken {
        rid: String,
        variable: &'static str,
        #[source]
        source: CrawlbaseError,
    },
    #[error("cannot find a home directory for the default data directory; set --audit-db")]
    NoDataDir,
}

/// Everything the flags, the environment and the config file say, resolved once.
#[derive(Debug)]
pub struct Config {
    /// The pipeline: fetcher, ranker, judge and their tuning.
    pub pipeline: Settings,
    /// `[server]` as read; `citecheck serve` merges its flags over it.
    pub server: ServerSection,
    /// `[batch]` as read; `citecheck batch` merges its flags over it.
    pub batch: BatchSection,
    /// `[queue]` as read (its url holds no password); `citecheck worker` merges its flags over
    /// it, and [`Config::require_queue_url`] puts `--queue` over its url.
    pub queue: QueueSection,
    /// `-v` count.
    pub verbose: u8,
    pub quiet: bool,
    store_args: StoreArgs,
    audit: AuditSection,
}

impl Config {
    /// Reads the config file `args` names (once) and resolves everything shared.
    pub fn load(args: &GlobalArgs) -> Result<Config, ConfigError> {
        let file = match &args.config {
            Some(path) => file::load(path)?,
            None => FileConfig::default(),
        };
        Config::from_file(args, file)
    }

    /// [`Config::load`] with the file already parsed.
    pub fn from_file(args: &GlobalArgs, file: FileConfig) -> Result<Config, ConfigError> {
        queue::check_file_url(&file.queue, args.config.as_deref())?;
        let pipeline = Settings::merge(args, &file)?;
        Ok(Config {
            pipeline,
            server: file.server,
            batch: file.batch,
            queue: file.queue,
            verbose: args.verbose,
            quiet: args.quiet,
            store_args: args.store.clone(),
            audit: file.audit,
        })
    }

    /// The connection string of a command that always needs the queue (`worker`, `batch
    /// status|export`): `--queue` / `CITECHECK_QUEUE_URL` (in `arg`), else `[queue] url`; a
    /// usage error naming `command` when neither names one.
    ///
    /// Commands that run locally unless told otherwise (`batch INPUT`, `audit`, `replay`,
    /// `report`) look at `arg` only: a shared config file never turns a local run into a
    /// queued one.
    pub fn require_queue_url<'a>(
        &'a self,
        arg: &'a QueueArg,
        command: &str,
    ) -> Result<&'a str, ConfigError> {
        queue::url(arg, &self.queue).ok_or_else(|| {
            ConfigError::Invalid(format!(
                "{command} needs the queue: --queue postgres://..., CITECHECK_QUEUE_URL or \
                 [queue] url in the config file"
            ))
        })
    }

    /// Where verdicts and pages are kept. Resolved on demand: only the default locations can
    /// fail (no home directory), and a command that keeps nothing should not fail for that.
    pub fn store_paths(&self) -> Result<StorePaths, ConfigError> {
        StorePaths::merge(&self.store_args, &self.audit)
    }
}

/// Resolved locations: flags/environment, then the config file, then the data directory.
#[derive(Debug, Clone)]
pub struct StorePaths {
    pub enabled: bool,
    pub audit_db: PathBuf,
    pub evidence_dir: PathBuf,
    /// Past this many bytes the evidence store's oldest pages are deleted.
    pub evidence_max_bytes: u64,
}

impl StorePaths {
    pub fn merge(args: &StoreArgs, file: &AuditSection) -> Result<StorePaths, ConfigError> {
        let enabled = match args.no_audit {
            Some(no) => !no,
            None => file.enabled.unwrap_or(true),
        };
        let audit_db = match args.audit_db.clone().or_else(|| file.path.clone()) {
            Some(path) => path,
            None => default_audit_db()?,
        };
        let evidence_dir = match args
            .evidence_dir
            .clone()
            .or_else(|| file.evidence_dir.clone())
        {
            Some(dir) => dir,
            None => data_dir()?.join("evidence"),
        };
        let evidence_max_mb = at_least_one(
            "evidence store size in MB (--evidence-max-mb / CITECHECK_EVIDENCE_MAX_MB)",
            args.evidence_max_mb.or(file.evidence_max_mb),
            crate::prune::DEFAULT_EVIDENCE_MAX_MB,
        )?;
        Ok(StorePaths {
            enabled,
            audit_db,
            evidence_dir,
            evidence_max_bytes: crate::prune::megabytes(evidence_max_mb),
        })
    }
}

/// The default audit index: `audit.sqlite3` in the per-user data directory.
pub fn default_audit_db() -> Result<PathBuf, ConfigError> {
    Ok(data_dir()?.join("audit.sqlite3"))
}

/// citecheck's per-user data directory (`~/.local/share/citecheck` on Linux).
pub fn data_dir() -> Result<PathBuf, ConfigError> {
    directories::ProjectDirs::from("", "", "citecheck")
        .map(|dirs| dirs.data_dir().to_path_buf())
        .ok_or(ConfigError::NoDataDir)
}

/// `value`, or `default` when unset; zero is refused. The one place counts are checked.
pub fn at_least_one<T>(name: &str, value: Option<T>, default: T) -> Result<T, ConfigError>
where
    T: PartialOrd + Default + std::fmt::Display + Copy,
{
    match value {
        None => Ok(default),
        Some(v) if v > T::default() => Ok(v),
        Some(v) => Err(ConfigError::AtLeastOne {
            name: name.to_string(),
            value: v.to_string(),
        }),
    }
}

/// `value` seconds, or `default` when unset; refuses zero, negative, non-finite and over a day.
pub fn seconds(name: &str, value: Option<f64>, default: Duration) -> Result<Duration, ConfigError> {
    match value {
        None => Ok(default),
        Some(secs) if secs.is_finite() && secs > 0.0 && secs <= 86_400.0 => {
            Ok(Duration::from_secs_f64(secs))
        }
        Some(secs) => Err(ConfigError::Seconds {
            name: name.to_string(),
            value: secs,
        }),
    }
}
