//! Size limits for the on-disk caches (the evidence store, the embedding cache): when a
//! directory's files of one kind exceed a byte budget, the least recently written are deleted
//! until it fits. Run at start-up at most once per [`PRUNE_EVERY`] (a marker file records the
//! last run, so a busy machine does not walk a large store on every command), and on demand by
//! `citecheck cache prune`.
//!
//! Deleting is safe while other processes read and write: entries are written atomically under
//! their content hash, and a missing entry is a miss (the embedding is recomputed; a replay says
//! the page is gone).

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The evidence store's default budget.
pub const DEFAULT_EVIDENCE_MAX_MB: u64 = 2048;
/// The embedding cache's default budget.
pub const DEFAULT_EMBEDDING_CACHE_MAX_MB: u64 = 1024;
/// How often a command checks a cache's size on its own.
pub const PRUNE_EVERY: Duration = Duration::from_secs(3600);

const MARKER: &str = ".last-prune";

/// What one pruning did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pruned {
    pub files_removed: u64,
    pub bytes_removed: u64,
    /// Bytes of matching files left.
    pub bytes_kept: u64,
}

impl std::fmt::Display for Pruned {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "removed {} file(s), {:.1} MB; {:.1} MB kept",
            self.files_removed,
            self.bytes_removed as f64 / 1e6,
            self.bytes_kept as f64 / 1e6
        )
    }
}

/// Deletes the oldest (by modification time) files under `dir` whose names end in `suffix`
/// until they total at most `max_bytes`. A missing directory is empty.
pub fn prune(dir: &Path, suffix: &str, max_bytes: u64) -> std::io::Result<Pruned> {
    let mut files = Vec::new();
    collect(dir, suffix, &mut files)?;
    let mut total: u64 = files.iter().map(|(_, len, _)| len).sum();
    let mut pruned = Pruned::default();
    if total > max_bytes {
        files.sort_by_key(|(_, _, modified)| *modified);
        for (path, len, _) in files {
            if total <= max_bytes {
                break;
            }
            match std::fs::remove_file(&path) {
                Ok(()) => {
                    pruned.files_removed += 1;
                    pruned.bytes_removed += len;
                    total -= len;
                }
                // Another process pruned it first.
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => total -= len,
                Err(err) => return Err(err),
            }
        }
    }
    pruned.bytes_kept = total;
    Ok(pruned)
}

/// [`prune`], unless it ran less than `every` ago (by the marker file in `dir`).
pub fn prune_if_due(
    dir: &Path,
    suffix: &str,
    max_bytes: u64,
    every: Duration,
) -> std::io::Result<Option<Pruned>> {
    let marker = dir.join(MARKER);
    let recent = std::fs::metadata(&marker)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|at| SystemTime::now().duration_since(at).ok())
        .is_some_and(|age| age < every);
    if recent || !dir.is_dir() {
        return Ok(None);
    }
    std::fs::write(&marker, b"")?;
    prune(dir, suffix, max_bytes).map(Some)
}

/// Megabytes (10^6 bytes, as `du --si` counts) to bytes.
pub fn megabytes(mb: u64) -> u64 {
    mb.saturating_mul(1_000_000)
}

fn collect(
    dir: &Path,
    suffix: &str,
    out: &mut Vec<(PathBuf, u64, SystemTime)>,
) -> std::io::Result<()> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(err) => return Err(err),
    };
    for entry in entries {
        let entry = entry?;
        let kind = entry.file_type()?;
        let path = entry.path();
        if kind.is_dir() {
            collect(&path, suffix, out)?;
        } else if kind.is_file() && entry.file_name().to_string_lossy().ends_with(suffix) {
            let meta = entry.metadata()?;
            let modified = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            out.push((path, meta.len(), modified));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(dir: &Path, name: &str, len: usize, age_secs: u64) -> PathBuf {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("dir");
        std::fs::write(&path, vec![b'x'; len]).expect("written");
        let at = SystemTime::now() - Duration::from_secs(age_secs);
        std::fs::File::options()
            .write(true)
            .open(&path)
            .and_then(|f| f.set_modified(at))
            .expect("mtime set");
        path
    }

    #[test]
    fn the_oldest_files_go_first_until_the_budget_holds() {
        let dir = tempfile::tempdir().expect("temp dir");
        let oldest = file(dir.path(), "ab/cd/old.md.gz", 400, 300);
        let middle = file(dir.path(), "ab/ef/mid.md.gz", 400, 200);
        let newest = file(dir.path(), "12/34/new.md.gz", 400, 100);
        let other = file(dir.path(), "notes.txt", 5000, 400);
        let pruned = prune(dir.path(), ".md.gz", 900).expect("prunes");
        assert_eq!(
            pruned,
            Pruned {
                files_removed: 1,
                bytes_removed: 400,
                bytes_kept: 800
            }
        );
        assert!(!oldest.exists());
        assert!(middle.exists() && newest.exists());
        assert!(other.exists(), "files of another kind are never touched");
        let again = prune(dir.path(), ".md.gz", 900).expect("prunes");
        assert_eq!(again.files_removed, 0, "within budget: nothing to do");
    }

    #[test]
    fn a_recent_run_is_not_repeated_and_a_missing_dir_is_empty() {
        let dir = tempfile::tempdir().expect("temp dir");
        file(dir.path(), "a.emb", 100, 10);
        file(dir.path(), "b.emb", 100, 5);
        let first = prune_if_due(dir.path(), ".emb", 100, Duration::from_secs(60)).expect("runs");
        assert_eq!(first.map(|p| p.files_removed), Some(1));
        file(dir.path(), "c.emb", 100, 1);
        let second = prune_if_due(dir.path(), ".emb", 100, Duration::from_secs(60)).expect("runs");
        assert_eq!(second, None, "ran a moment ago");
        let gone = dir.path().join("missing");
        assert_eq!(
            prune(&gone, ".emb", 0).expect("no error"),
            Pruned::default()
        );
    }
}
