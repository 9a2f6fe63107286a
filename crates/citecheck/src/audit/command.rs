//! `citecheck audit` and the flags every command shares to find the audit index and the evidence
//! store: `--audit-db` / `CITECHECK_AUDIT_DB`, `--evidence-dir` / `CITECHECK_EVIDENCE_DIR`,
//! `--no-audit` / `CITECHECK_NO_AUDIT`, and the config file's `[audit]` section.

use std::io::Write;
use std::path::PathBuf;
use std::time::SystemTime;

use clap::builder::BoolishValueParser;
use clap::{Args, ValueEnum};
use serde::Deserialize;

use super::{parse_time_bound, AuditFilter, AuditRow, AuditStore};
use crate::cli::GlobalArgs;
use crate::evidence::EvidenceStore;
use crate::settings::{self, FileConfig};

/// Where verdicts and pages are kept.
#[derive(Debug, Clone, Default, Args)]
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

/// The config file's `[audit]` section.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuditSection {
    /// The audit index.
    pub path: Option<PathBuf>,
    /// The evidence store's directory.
    pub evidence_dir: Option<PathBuf>,
    /// `false` keeps nothing (as `--no-audit`).
    pub enabled: Option<bool>,
}

/// Resolved locations: flags/environment, then the config file, then the data directory.
#[derive(Debug, Clone)]
pub struct StorePaths {
    pub enabled: bool,
    pub audit_db: PathBuf,
    pub evidence_dir: PathBuf,
}

impl StorePaths {
    pub fn resolve(global: &GlobalArgs) -> anyhow::Result<StorePaths> {
        let file = match &global.config {
            Some(path) => settings::load_file(path)?,
            None => FileConfig::default(),
        };
        Self::merge(&global.store, &file.audit)
    }

    pub fn merge(args: &StoreArgs, file: &AuditSection) -> anyhow::Result<StorePaths> {
        let enabled = match args.no_audit {
            Some(no) => !no,
            None => file.enabled.unwrap_or(true),
        };
        let audit_db = match args.audit_db.clone().or_else(|| file.path.clone()) {
            Some(path) => path,
            None => super::default_path()?,
        };
        let evidence_dir = match args
            .evidence_dir
            .clone()
            .or_else(|| file.evidence_dir.clone())
        {
            Some(dir) => dir,
            None => super::data_dir()?.join("evidence"),
        };
        Ok(StorePaths {
            enabled,
            audit_db,
            evidence_dir,
        })
    }

    /// The stores a verifying command writes to. Keeping records is best effort: a store that
    /// cannot be opened is a warning, and the verdicts are still produced and printed.
    pub fn open_for_writing(&self) -> (Option<AuditStore>, Option<EvidenceStore>) {
        if !self.enabled {
            return (None, None);
        }
        let audit = AuditStore::open(&self.audit_db)
            .map_err(|err| tracing::warn!("audit rows will not be kept: {err:#}"))
            .ok();
        let evidence = EvidenceStore::open(&self.evidence_dir)
            .map_err(|err| tracing::warn!("pages will not be kept for replay: {err:#}"))
            .ok();
        (audit, evidence)
    }
}

/// `citecheck audit`: list and filter the audit index.
#[derive(Debug, Args)]
pub struct AuditArgs {
    /// Only these labels (repeatable).
    #[arg(long, value_name = "LABEL", value_parser = ["supported", "contradicted", "not_found", "unreachable"])]
    pub label: Vec<String>,

    /// Only these reasons, e.g. http_404, soft_404, evidence_quote_not_in_source (repeatable).
    #[arg(long, value_name = "REASON")]
    pub reason: Vec<String>,

    /// Only claims containing this text (case-insensitive).
    #[arg(long, value_name = "TEXT")]
    pub claim: Option<String>,

    /// Only citations whose URL or final URL contains this text.
    #[arg(long, value_name = "TEXT")]
    pub url: Option<String>,

    /// Only rows recorded at or after this time: 2025-03-01, 2025-03-01T12:00:00Z, or an age (24h, 7d).
    #[arg(long, value_name = "TIME")]
    pub since: Option<String>,

    /// Only rows recorded before this time (same forms as --since).
    #[arg(long, value_name = "TIME")]
    pub until: Option<String>,

    /// Only the rows of one batch run.
    #[arg(long, value_name = "RUN_ID")]
    pub run: Option<String>,

    /// At most this many rows, newest first (0: all).
    #[arg(long, default_value_t = 50, value_name = "N")]
    pub limit: usize,

    /// Output format on stdout.
    #[arg(long, value_enum, default_value_t = AuditFormat::Table)]
    pub format: AuditFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AuditFormat {
    Table,
    Json,
    Csv,
}

impl AuditArgs {
    pub fn filter(&self, now: SystemTime) -> anyhow::Result<AuditFilter> {
        let bound = |text: &Option<String>| -> anyhow::Result<Option<String>> {
            text.as_deref()
                .map(|t| parse_time_bound(t, now))
                .transpose()
                .map_err(|err| settings::ConfigError(format!("{err:#}")).into())
        };
        Ok(AuditFilter {
            labels: self.label.clone(),
            reasons: self.reason.clone(),
            claim_contains: self.claim.clone().filter(|t| !t.is_empty()),
            url_contains: self.url.clone().filter(|t| !t.is_empty()),
            since: bound(&self.since)?,
            until: bound(&self.until)?,
            run_id: self.run.clone(),
            limit: (self.limit > 0).then_some(self.limit),
            ..AuditFilter::default()
        })
    }
}

/// Runs `citecheck audit`, writing the rows to `out`; returns how many were written.
pub fn run(args: &AuditArgs, paths: &StorePaths, out: &mut dyn Write) -> anyhow::Result<usize> {
    let filter = args.filter(SystemTime::now())?;
    let store = AuditStore::open_existing(&paths.audit_db)?;
    let mut count = 0usize;
    match args.format {
        AuditFormat::Json => {
            // One array, written row by row: `--limit 0` over a large index stays small.
            write!(out, "[")?;
            store.scan(&filter, |row| {
                write!(out, "{}\n  ", if count == 0 { "" } else { "," })?;
                serde_json::to_writer(&mut *out, &row)?;
                count += 1;
                Ok(())
            })?;
            writeln!(out, "{}]", if count == 0 { "" } else { "\n" })?;
        }
        AuditFormat::Csv => {
            let mut writer = csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(&mut *out);
            // The header even when no row matches, so the file is always well-formed.
            writer.write_record(super::COLUMN_NAMES)?;
            store.scan(&filter, |row| {
                count += 1;
                writer.write_record(crate::neutral::csv_record(&row)?)?;
                Ok(())
            })?;
            writer.flush()?;
        }
        AuditFormat::Table => {
            writeln!(
                out,
                "{:>6}  {:<20}  {:<12}  {:<22}  {:>4}  {:<40}  CLAIM",
                "ID", "TIME", "LABEL", "REASON", "CONF", "URL"
            )?;
            store.scan(&filter, |row| {
                count += 1;
                writeln!(out, "{}", table_line(&row))?;
                Ok(())
            })?;
            if count == 0 {
                writeln!(out, "(no rows match)")?;
            }
        }
    }
    Ok(count)
}

fn table_line(row: &AuditRow) -> String {
    use crate::neutral::terminal_line as shown;
    format!(
        "{:>6}  {:<20}  {:<12}  {:<22}  {:>4.2}  {:<40}  {}",
        row.id,
        row.recorded_at,
        row.label,
        shown(&clip(row.reason.as_deref().unwrap_or("-"), 22)),
        row.confidence,
        shown(&clip(&row.url, 40)),
        shown(&clip(&row.claim, 60))
    )
}

/// `text` cut to `width` characters, with an ellipsis when cut.
pub fn clip(text: &str, width: usize) -> String {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= width {
        return flat;
    }
    let mut cut: String = flat.chars().take(width.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// `citecheck audit`, from the command line.
pub fn command(args: &AuditArgs, global: &GlobalArgs) -> anyhow::Result<u8> {
    let paths = StorePaths::resolve(global)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    run(args, &paths, &mut out)?;
    out.flush()?;
    Ok(0)
}

/// Keeps what a verifying command produced: the pages (evidence store) and the verdicts (audit
/// index). Best effort by design: a store that cannot be opened or written is a warning, and the
/// verdict is still returned and printed.
pub struct Recorder {
    audit: Option<AuditStore>,
    evidence: Option<EvidenceStore>,
}

impl Recorder {
    /// A recorder around stores already open (either may be absent).
    pub fn new(audit: Option<AuditStore>, evidence: Option<EvidenceStore>) -> Recorder {
        Recorder { audit, evidence }
    }

    /// Whether verdicts reach an audit index.
    pub fn is_recording(&self) -> bool {
        self.audit.is_some()
    }

    /// The stores `global` names (flags, environment, config file, defaults).
    pub fn open(global: &GlobalArgs) -> Recorder {
        match StorePaths::resolve(global) {
            Ok(paths) => {
                let (audit, evidence) = paths.open_for_writing();
                Recorder { audit, evidence }
            }
            Err(err) => {
                tracing::warn!("nothing will be kept for the audit: {err:#}");
                Recorder {
                    audit: None,
                    evidence: None,
                }
            }
        }
    }

    /// `verifier`, keeping every page it fetches in the evidence store.
    pub fn verifier(&self, verifier: citecheck_core::Verifier) -> citecheck_core::Verifier {
        match &self.evidence {
            Some(store) => match crate::evidence::with_store(&verifier, store.clone()) {
                Ok(wrapped) => wrapped,
                Err(err) => {
                    tracing::warn!("pages will not be kept for replay: {err:#}");
                    verifier
                }
            },
            None => verifier,
        }
    }

    /// Records `verdict`; a failure is logged, never returned.
    pub async fn record(&self, verdict: &citecheck_core::ClaimVerdict, run: &super::RunInfo) {
        if let Some(store) = &self.audit {
            if let Err(err) = store.record(verdict, run).await {
                tracing::warn!("the verdict was not recorded in the audit index: {err:#}");
            }
        }
    }
}
