//! Window embeddings of pages, cached by what determines them: the page's content hash, its
//! passages, the model's hash, the precision and the window parameters. In memory for the
//! process (bounded), and on disk across runs as one small file per page
//! (`<dir>/<key[..2]>/<key>.emb`, written to a temporary file and renamed into place).
//!
//! A cache file that cannot be read is treated as a miss and rewritten: the cache only ever
//! saves work, it never decides a result.

use std::collections::{HashMap, VecDeque};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use sha2::{Digest, Sha256};

use crate::embedder::Embedding;
use crate::files::{self, SAFETENSORS};
use crate::kernels::Precision;
use crate::model::HIDDEN;
use crate::tokenize::WindowParams;

const MAGIC: &[u8; 8] = b"CCEMBv1\n";
/// Pages kept in memory (about 20 KiB each for a typical page).
const MEMORY_PAGES: usize = 512;

/// The window embeddings of each passage of one page, in passage order.
pub type PageWindows = Vec<Vec<Embedding>>;

/// The per-user default location of the on-disk cache.
pub fn default_cache_dir() -> Option<PathBuf> {
    dirs::cache_dir().map(|d| d.join("citecheck").join("embeddings"))
}

/// The cache key of a page's window embeddings.
pub(crate) fn key(
    content_sha256: &str,
    passages: &[String],
    precision: Precision,
    window: WindowParams,
) -> String {
    let mut h = Sha256::new();
    h.update(b"citecheck-embed windows v1\0");
    h.update(SAFETENSORS.sha256.as_bytes());
    h.update(format!("\0{precision}\0{}\0{}\0", window.max_tokens, window.overlap).as_bytes());
    h.update(content_sha256.as_bytes());
    for p in passages {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p.as_bytes());
    }
    files::hex(&h.finalize())
}

type Slot = Arc<Mutex<Option<Arc<PageWindows>>>>;

pub(crate) struct PageCache {
    dir: Option<PathBuf>,
    slots: Mutex<(HashMap<String, Slot>, VecDeque<String>)>,
}

impl PageCache {
    pub(crate) fn new(dir: Option<PathBuf>) -> Self {
        Self {
            dir,
            slots: Mutex::new((HashMap::new(), VecDeque::new())),
        }
    }

    pub(crate) fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The page's windows from memory, else from disk, else from `compute` (then stored in
    /// both). Concurrent callers for the same key wait for one computation.
    pub(crate) fn get_or_compute<E>(
        &self,
        key: &str,
        compute: impl FnOnce() -> Result<PageWindows, E>,
    ) -> Result<(Arc<PageWindows>, Source), E> {
        let slot = self.slot(key);
        let mut guard = slot.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(found) = guard.as_ref() {
            return Ok((Arc::clone(found), Source::Memory));
        }
        if let Some(found) = self.read(key) {
            let found = Arc::new(found);
            *guard = Some(Arc::clone(&found));
            return Ok((found, Source::Disk));
        }
        let computed = Arc::new(compute()?);
        self.write(key, &computed);
        *guard = Some(Arc::clone(&computed));
        Ok((computed, Source::Computed))
    }

    fn slot(&self, key: &str) -> Slot {
        let mut slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        let (map, order) = &mut *slots;
        if let Some(slot) = map.get(key) {
            return Arc::clone(slot);
        }
        while order.len() >= MEMORY_PAGES {
            if let Some(old) = order.pop_front() {
                map.remove(&old);
            }
        }
        let slot: Slot = Arc::default();
        map.insert(key.to_string(), Arc::clone(&slot));
        order.push_back(key.to_string());
        slot
    }

    fn path(&self, key: &str) -> Option<PathBuf> {
        self.dir
            .as_ref()
            .map(|d| d.join(&key[..2]).join(format!("{key}.emb")))
    }

    fn read(&self, key: &str) -> Option<PageWindows> {
        let path = self.path(key)?;
        let bytes = std::fs::read(&path).ok()?;
        let decoded = decode(&bytes);
        if decoded.is_none() {
            tracing::warn!(path = %path.display(), "unreadable embedding cache entry; recomputing");
        }
        decoded
    }

    fn write(&self, key: &str, windows: &PageWindows) {
        let Some(path) = self.path(key) else { return };
        let result = (|| -> std::io::Result<()> {
            let parent = path.parent().unwrap_or(Path::new("."));
            std::fs::create_dir_all(parent)?;
            let mut tmp = tempfile::NamedTempFile::new_in(parent)?;
            tmp.write_all(&encode(windows))?;
            tmp.persist(&path).map_err(|e| e.error)?;
            Ok(())
        })();
        if let Err(err) = result {
            // A read-only or full cache directory costs recomputation later, nothing else.
            tracing::warn!(path = %path.display(), error = %err, "could not write the embedding cache");
        }
    }
}

/// Where a page's windows came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    Memory,
    Disk,
    Computed,
}

/// `MAGIC, u32 passages, u32 windows per passage..., f32 values...` (little-endian).
fn encode(windows: &PageWindows) -> Vec<u8> {
    let total: usize = windows.iter().map(Vec::len).sum();
    let mut out = Vec::with_capacity(8 + 4 + 4 * windows.len() + total * HIDDEN * 4);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(windows.len() as u32).to_le_bytes());
    for w in windows {
        out.extend_from_slice(&(w.len() as u32).to_le_bytes());
    }
    for v in windows.iter().flatten() {
        for x in v {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }
    out
}

fn decode(bytes: &[u8]) -> Option<PageWindows> {
    let rest = bytes.strip_prefix(MAGIC)?;
    let u32_at = |b: &[u8], i: usize| -> Option<usize> {
        Some(u32::from_le_bytes(b.get(i * 4..i * 4 + 4)?.try_into().ok()?) as usize)
    };
    let passages = u32_at(rest, 0)?;
    let counts = (0..passages)
        .map(|i| u32_at(rest, 1 + i))
        .collect::<Option<Vec<_>>>()?;
    let mut data = rest.get(4 * (1 + passages)..)?;
    let total: usize = counts.iter().sum();
    if data.len() != total * HIDDEN * 4 {
        return None;
    }
    let mut out = Vec::with_capacity(passages);
    for n in counts {
        let mut list = Vec::with_capacity(n);
        for _ in 0..n {
            let mut v = [0f32; HIDDEN];
            for (x, b) in v.iter_mut().zip(data.chunks_exact(4)) {
                *x = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            }
            data = &data[HIDDEN * 4..];
            list.push(v);
        }
        out.push(list);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page() -> PageWindows {
        let mut a = [0f32; HIDDEN];
        a[0] = 1.0;
        let mut b = [0f32; HIDDEN];
        b[HIDDEN - 1] = -0.5;
        vec![vec![a], vec![], vec![b, a]]
    }

    #[test]
    fn encoding_round_trips_and_rejects_truncation() {
        let bytes = encode(&page());
        assert_eq!(decode(&bytes), Some(page()));
        assert_eq!(decode(&bytes[..bytes.len() - 1]), None);
        assert_eq!(decode(b"CCEMBv0\n"), None);
    }

    #[test]
    fn the_key_depends_on_passages_precision_and_windows() {
        let p = vec!["a".to_string(), "b".to_string()];
        let w = WindowParams::default();
        let base = key("h", &p, Precision::Bf16, w);
        assert_ne!(base, key("h", &["ab".to_string()], Precision::Bf16, w));
        assert_ne!(base, key("h", &p, Precision::F32, w));
        assert_ne!(
            base,
            key("h", &p, Precision::Bf16, WindowParams { overlap: 1, ..w })
        );
        assert_ne!(base, key("g", &p, Precision::Bf16, w));
        assert_eq!(base, key("h", &p, Precision::Bf16, w));
    }

    #[test]
    fn a_second_cache_on_the_same_directory_reads_from_disk() {
        let dir = tempfile::tempdir().expect("tempdir");
        let first = PageCache::new(Some(dir.path().to_path_buf()));
        let (_, source) = first
            .get_or_compute("abcdef", || Ok::<_, ()>(page()))
            .expect("computed");
        assert_eq!(source, Source::Computed);
        let (_, source) = first.get_or_compute("abcdef", || Err(())).expect("memory");
        assert_eq!(source, Source::Memory);
        let second = PageCache::new(Some(dir.path().to_path_buf()));
        let (got, source) = second.get_or_compute("abcdef", || Err(())).expect("disk");
        assert_eq!((source, &*got), (Source::Disk, &page()));
    }

    #[test]
    fn a_corrupt_entry_is_recomputed_and_rewritten() {
        let dir = tempfile::tempdir().expect("tempdir");
        let cache = PageCache::new(Some(dir.path().to_path_buf()));
        let path = cache.path("abcdef").expect("path");
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, b"garbage").expect("write");
        let (_, source) = cache
            .get_or_compute("abcdef", || Ok::<_, ()>(page()))
            .expect("computed");
        assert_eq!(source, Source::Computed);
        assert_eq!(decode(&std::fs::read(&path).expect("read")), Some(page()));
    }
}
