//! A batch's outputs: the CSV report (`--out`, one row per citation) and the full verdicts
//! (`--jsonl`, one claim per line), written as each claim completes and flushed at once, so an
//! interrupted or crashed run keeps every finished claim.
//!
//! Three ways to open them: fresh (refusing to clobber a non-empty file unless told to), append
//! (`--resume`: a torn last line from a crash is cut off first), and rewrite (`--retry-failed`:
//! a new file beside the old one replaces it only once complete, so the old results survive any
//! interruption of the retry).

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use citecheck_core::UrlVerdict;
use tempfile::NamedTempFile;

use super::input::IdSet;
use crate::error::AppError;
pub use crate::results::BatchResult;
use crate::results::Summary;

/// The CSV report's columns, one row per citation.
pub const CSV_HEADER: [&str; 11] = [
    "id",
    "claim",
    "url",
    "label",
    "reason",
    "confidence",
    "evidence_quote",
    "final_url",
    "original_status",
    "rid",
    "overall",
];

fn csv_row(id: &str, claim: &str, overall: &str, c: &UrlVerdict) -> [String; 11] {
    // One row per line: newlines inside a claim or quote are flattened (the JSONL keeps them).
    let flat = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    [
        id.to_string(),
        flat(claim),
        c.url.clone(),
        c.label.to_string(),
        c.reason.as_ref().map(|r| r.as_string()).unwrap_or_default(),
        format!("{:.3}", c.confidence),
        c.evidence_quote.as_deref().map(flat).unwrap_or_default(),
        c.final_url.clone().unwrap_or_default(),
        c.original_status.map(|s| s.to_string()).unwrap_or_default(),
        c.rid.clone().unwrap_or_default(),
        overall.to_string(),
    ]
}

/// How existing outputs are treated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Start new files; an existing non-empty file is refused unless `force`.
    Fresh { force: bool },
    /// Add to the files (`--resume`).
    Append,
    /// Write new files that replace the old ones at the end (`--retry-failed`).
    Rewrite,
}

enum Sink {
    Direct(BufWriter<File>),
    Staged {
        tmp: BufWriter<NamedTempFile>,
        target: PathBuf,
    },
}

impl Sink {
    fn writer(&mut self) -> &mut dyn Write {
        match self {
            Sink::Direct(w) => w,
            Sink::Staged { tmp, .. } => tmp,
        }
    }

    fn finish(self) -> anyhow::Result<()> {
        match self {
            Sink::Direct(mut w) => w.flush().context("flushing an output"),
            Sink::Staged { tmp, target } => {
                let tmp = tmp
                    .into_inner()
                    .map_err(|err| err.into_error())
                    .context("flushing a rewritten output")?;
                tmp.as_file().sync_all()?;
                // The replacement keeps the old file's permissions (a temporary file is private).
                if let Ok(meta) = std::fs::metadata(&target) {
                    tmp.as_file().set_permissions(meta.permissions())?;
                }
                tmp.persist(&target)
                    .map_err(|err| err.error)
                    .with_context(|| format!("replacing {}", target.display()))?;
                Ok(())
            }
        }
    }
}

/// The open outputs of one batch run.
pub struct Outputs {
    csv: Option<csv::Writer<Sink>>,
    jsonl: Option<Sink>,
    /// A private copy of the verdicts for `--html` when there is no `--jsonl` to read back.
    spool: Option<BufWriter<NamedTempFile>>,
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.writer().write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.writer().flush()
    }
}

impl Outputs {
    pub fn open(
        csv_path: Option<&Path>,
        jsonl_path: Option<&Path>,
        mode: Mode,
        spool: bool,
    ) -> Result<Outputs, AppError> {
        let csv = match csv_path {
            Some(path) => {
                let (sink, empty) = open_sink(path, mode)?;
                let mut writer = csv::WriterBuilder::new()
                    .has_headers(false)
                    .from_writer(sink);
                if empty {
                    writer
                        .write_record(CSV_HEADER)
                        .and_then(|()| Ok(writer.flush()?))
                        .with_context(|| format!("writing {}", path.display()))?;
                }
                Some(writer)
            }
            None => None,
        };
        let jsonl = match jsonl_path {
            Some(path) => Some(open_sink(path, mode)?.0),
            None => None,
        };
        let spool = if spool {
            Some(BufWriter::new(
                NamedTempFile::new().context("creating a spool file for the HTML report")?,
            ))
        } else {
            None
        };
        Ok(Outputs { csv, jsonl, spool })
    }

    /// Writes one finished claim to every output and flushes them.
    pub fn write(&mut self, result: &BatchResult) -> anyhow::Result<()> {
        let line = serde_json::to_string(result)?;
        self.write_parts(result, &line)
    }

    /// As [`Outputs::write`], with the JSONL line already serialised (copied from an old output).
    pub fn write_parts(&mut self, result: &BatchResult, line: &str) -> anyhow::Result<()> {
        if let Some(csv) = &mut self.csv {
            let overall = result.verdict.overall.as_str();
            for c in &result.verdict.citations {
                csv.write_record(csv_row(&result.id, &result.verdict.claim, overall, c))?;
            }
            csv.flush().context("writing the CSV report")?;
        }
        for sink in [
            self.jsonl.as_mut().map(|s| s as &mut dyn Write),
            self.spool.as_mut().map(|s| s as &mut dyn Write),
        ]
        .into_iter()
        .flatten()
        {
            sink.write_all(line.trim_end().as_bytes())?;
            sink.write_all(b"\n")?;
            sink.flush().context("writing the JSONL results")?;
        }
        Ok(())
    }

    /// Flushes everything, and for a rewrite replaces the old files. Returns the spool, if any.
    pub fn finish(self) -> anyhow::Result<Option<NamedTempFile>> {
        if let Some(csv) = self.csv {
            let sink = csv
                .into_inner()
                .map_err(|err| anyhow::anyhow!("flushing the CSV report: {}", err.error()))?;
            sink.finish()?;
        }
        if let Some(sink) = self.jsonl {
            sink.finish()?;
        }
        match self.spool {
            Some(spool) => Ok(Some(
                spool
                    .into_inner()
                    .map_err(|err| err.into_error())
                    .context("flushing the spool")?,
            )),
            None => Ok(None),
        }
    }
}

/// Opens one output; also says whether it is empty (a CSV then needs its header).
fn open_sink(path: &Path, mode: Mode) -> Result<(Sink, bool), AppError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let existing = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    match mode {
        Mode::Fresh { force } => {
            if existing > 0 && !force {
                return Err(AppError::usage(format!(
                    "{} already has results: pass --resume to continue it, --retry-failed to \
                     retry its failed fetches, or --force to overwrite it",
                    path.display()
                )));
            }
            let file =
                File::create(path).with_context(|| format!("creating {}", path.display()))?;
            Ok((Sink::Direct(BufWriter::new(file)), true))
        }
        Mode::Append => {
            cut_torn_line(path)?;
            let file = OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("opening {}", path.display()))?;
            let empty = file
                .metadata()
                .with_context(|| format!("reading {}", path.display()))?
                .len()
                == 0;
            Ok((Sink::Direct(BufWriter::new(file)), empty))
        }
        Mode::Rewrite => {
            let dir = path
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            let tmp = NamedTempFile::new_in(dir)
                .with_context(|| format!("creating a file in {}", dir.display()))?;
            Ok((
                Sink::Staged {
                    tmp: BufWriter::new(tmp),
                    target: path.to_path_buf(),
                },
                true,
            ))
        }
    }
}

/// A crash can leave half a line at the end; appending after it would glue two records.
fn cut_torn_line(path: &Path) -> anyhow::Result<()> {
    let mut file = match OpenOptions::new().read(true).write(true).open(path) {
        Ok(file) => file,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(err) => return Err(err).with_context(|| format!("opening {}", path.display())),
    };
    let len = file.metadata()?.len();
    if len == 0 {
        return Ok(());
    }
    // Scan backwards in chunks for the last newline.
    let mut end = len;
    let mut buf = vec![0u8; 8192];
    loop {
        let start = end.saturating_sub(buf.len() as u64);
        let chunk = &mut buf[..(end - start) as usize];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(chunk)?;
        if end == len && chunk.last() == Some(&b'\n') {
            return Ok(());
        }
        if let Some(pos) = chunk.iter().rposition(|&b| b == b'\n') {
            let keep = start + pos as u64 + 1;
            tracing::warn!(
                "{}: dropping an incomplete last line ({} bytes) left by an interrupted run",
                path.display(),
                len - keep
            );
            file.set_len(keep)?;
            return Ok(());
        }
        if start == 0 {
            tracing::warn!("{}: dropping its only, incomplete line", path.display());
            file.set_len(0)?;
            return Ok(());
        }
        end = start;
    }
}

/// What a previous run left in the outputs.
#[derive(Debug, Default)]
pub struct Prior {
    /// Ids that need no more work.
    pub done: IdSet,
    /// Ids with a fetch failure, and the byte offset of their line in the old JSONL.
    pub retry: std::collections::HashMap<String, u64>,
    /// The figures of the `done` claims.
    pub summary: Summary,
}

/// Reads a previous `--jsonl` output. With `retry`, claims with a fetch failure go to
/// `Prior::retry` instead of `done`. `copy` receives each done claim (to carry it into a
/// rewritten output). Unparseable lines (a torn last line) are skipped.
pub fn scan_jsonl(
    path: &Path,
    retry: bool,
    mut copy: impl FnMut(&BatchResult, &str) -> anyhow::Result<()>,
) -> anyhow::Result<Prior> {
    let mut prior = Prior::default();
    let file = match File::open(path) {
        Ok(file) => file,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(prior),
        Err(err) => return Err(err).with_context(|| format!("opening {}", path.display())),
    };
    let mut reader = BufReader::new(file);
    let mut offset = 0u64;
    let mut line = String::new();
    let mut number = 0u64;
    loop {
        line.clear();
        let read = reader
            .read_line(&mut line)
            .with_context(|| format!("reading {}", path.display()))?;
        if read == 0 {
            break;
        }
        number += 1;
        let at = offset;
        offset += read as u64;
        if line.trim().is_empty() {
            continue;
        }
        let result: BatchResult = match serde_json::from_str(line.trim_end()) {
            Ok(result) => result,
            Err(err) => {
                tracing::warn!("{}:{number}: not a result, ignored: {err}", path.display());
                continue;
            }
        };
        if retry && result.has_fetch_failure() {
            prior.retry.insert(result.id.clone(), at);
            continue;
        }
        if prior.done.insert(&result.id) {
            prior.summary.claims_resumed += 1;
        }
        for c in &result.verdict.citations {
            prior.summary.add(c);
        }
        copy(&result, &line)?;
    }
    Ok(prior)
}

/// Reads the ids and figures of a previous CSV report (used by `--resume` without `--jsonl`).
pub fn scan_csv(path: &Path) -> anyhow::Result<Prior> {
    let mut prior = Prior::default();
    let file = match File::open(path) {
        Ok(file) => file,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(prior),
        Err(err) => return Err(err).with_context(|| format!("opening {}", path.display())),
    };
    let mut reader = csv::ReaderBuilder::new().flexible(true).from_reader(file);
    let headers = reader.headers()?.clone();
    let column = |name: &str| headers.iter().position(|h| h == name);
    let (Some(id_col), Some(label_col), Some(reason_col)) =
        (column("id"), column("label"), column("reason"))
    else {
        anyhow::bail!(
            "{} is not a citecheck CSV report (no id/label/reason columns)",
            path.display()
        );
    };
    for record in reader.records() {
        let Ok(record) = record else { continue };
        let (Some(id), Some(label)) = (record.get(id_col), record.get(label_col)) else {
            continue;
        };
        let Ok(label) = label.parse() else { continue };
        let reason = record
            .get(reason_col)
            .and_then(citecheck_core::Reason::parse);
        if prior.done.insert(id) {
            prior.summary.claims_resumed += 1;
        }
        prior.summary.add_parts(label, reason.as_ref());
    }
    Ok(prior)
}

/// The old result at `offset` in `path` (a claim queued for retry).
pub fn read_result_at(path: &Path, offset: u64) -> anyhow::Result<(BatchResult, String)> {
    let mut file = File::open(path).with_context(|| format!("opening {}", path.display()))?;
    file.seek(SeekFrom::Start(offset))?;
    let mut line = String::new();
    BufReader::new(file).read_line(&mut line)?;
    let result = serde_json::from_str(line.trim_end())
        .with_context(|| format!("re-reading {} at byte {offset}", path.display()))?;
    Ok((result, line))
}
