//! `citecheck audit`: list and filter the audit index found where the configuration says
//! (`--audit-db` / `CITECHECK_AUDIT_DB`, `[audit] path`, else the data directory), or the
//! PostgreSQL one with `--queue`: the same columns, filters and output from either.

use std::io::Write;
use std::time::SystemTime;

use anyhow::Context;
use clap::{Args, ValueEnum};

use crate::audit::{parse_time_bound, AuditFilter, AuditIndex, AuditRow};
use crate::config::{Config, ConfigError, QueueArg};
use crate::error::AppError;

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

    /// List the PostgreSQL audit index that `citecheck worker` writes instead of the SQLite one.
    #[command(flatten)]
    pub queue: QueueArg,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AuditFormat {
    Table,
    Json,
    Csv,
}

impl AuditArgs {
    pub fn filter(&self, now: SystemTime) -> Result<AuditFilter, ConfigError> {
        let bound = |text: &Option<String>| -> Result<Option<String>, ConfigError> {
            text.as_deref()
                .map(|t| parse_time_bound(t, now))
                .transpose()
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

/// Writes the rows of `store` matching `filter` to `out` in `format`; returns how many.
pub fn write_rows(
    format: AuditFormat,
    store: &dyn AuditIndex,
    filter: &AuditFilter,
    out: &mut dyn Write,
) -> anyhow::Result<usize> {
    let mut count = 0usize;
    match format {
        AuditFormat::Json => {
            // One array, written row by row: `--limit 0` over a large index stays small.
            write!(out, "[")?;
            store.scan_rows(filter, &mut |row| {
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
            writer.write_record(crate::audit::COLUMN_NAMES)?;
            store.scan_rows(filter, &mut |row| {
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
            store.scan_rows(filter, &mut |row| {
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

/// `citecheck audit`, over the SQLite index or (`--queue`) the PostgreSQL one.
pub async fn run(args: &AuditArgs, config: &Config) -> Result<u8, AppError> {
    let filter = args.filter(SystemTime::now())?;
    let index = crate::audit_index::open(config, &args.queue).await?;
    let format = args.format;
    tokio::task::spawn_blocking(move || -> anyhow::Result<()> {
        let stdout = std::io::stdout();
        let mut out = std::io::BufWriter::new(stdout.lock());
        write_rows(format, index.as_ref(), &filter, &mut out)?;
        out.flush().context("writing to stdout")
    })
    .await
    .context("the audit reader task failed")??;
    Ok(0)
}
