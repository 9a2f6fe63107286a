//! Window embeddings of pages, cached by what determines them: the page's content hash, its
//! passages, the model's hash, the arithmetic (`Backend::numerics`) and the window parameters.
//! A page's entry holds the passages embedded so far (the ranker embeds only a shortlist of a
//! long page; a later claim may add others). In memory for the process (bounded), and on disk
//! across runs as one small file per page (`<dir>/<key[..2]>/<key>.emb`, written to a temporary
//! file and renamed into place).
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
use crate::model::HIDDEN;
use crate::tokenize::WindowParams;

const MAGIC: &[u8; 8] = b"CCEMBv2\n";
/// The count written for a passage not embedded yet.
const ABSENT: u32 = u32::MAX;
/// Pages kept in memory (about 20 KiB each for a typical page).
pub(crate) const MEMORY_PAGES: usize = 512;

/// The window embeddings of each passage of one page, in passage order (`None`: not embedded
/// yet).
pub type PageWindows = Vec<Option<Vec<Embedding>>>;

/// The per-user default location of the on-disk cache.
pub fn default_cache_dir() -> Option<PathBuf> {
    dirs::cache_dir().map(|d| d.join("citecheck").join("embeddings"))
}

/// The cache key of a page's window embeddings.
pub(crate) fn key(
    content_sha256: &str,
    passages: &[String],
    numerics: &str,
    window: WindowParams,
) -> String {
    let mut h = Sha256::new();
    h.update(b"citecheck-embed windows v1\0");
    h.update(SAFETENSORS.sha256.as_bytes());
    h.update(format!("\0{numerics}\0{}\0{}\0", window.max_tokens, window.overlap).as_bytes());
    h.update(content_sha256.as_bytes());
    for p in passages {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p.as_bytes());
    }
    files::hex(&h.finalize())
}

/// The cache key of a claim's vector (the text's first 256 tokens, as [`crate::Embedder::embed`]
/// reads it), kept as a one-passage, one-window entry beside the pages' (distinct prefix, so no
/// claim key can equal a page key).
pub(crate) fn claim_key(claim: &str, numerics: &str) -> String {
    let mut h = Sha256::new();
    h.update(b"citecheck-embed claim v1\0");
    h.update(SAFETENSORS.sha256.as_bytes());
    h.update(format!("\0{numerics}\0").as_bytes());
    h.update(claim.as_bytes());
    files::hex(&h.finalize())
}

type Slot = Arc<Mutex<Option<Arc<PageWindows>>>>;

pub(crate) struct PageCache {
    dir: Option<PathBuf>,
    /// Entries kept in memory, oldest dropped first.
    memory: usize,
    slots: Mutex<(HashMap<String, Slot>, VecDeque<String>)>,
}

impl PageCache {
    /// A cache holding `memory` entries in memory, and every entry in `dir` when given.
    pub(crate) fn new(dir: Option<PathBuf>, memory: usize) -> Self {
        Self {
            dir,
            memory: memory.max(1),
            slots: Mutex::new((HashMap::new(), VecDeque::new())),
        }
    }

    pub(crate) fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The page's windows, with at least the passages in `wanted` embedded: from memory, else
    /// from disk, and what is still missing from `compute` (given the missing indices, it returns
    /// their windows in that order; the result is then stored in both). Concurrent callers for
    /// the same key wait for one another.
    pub(crate) fn get_or_compute<E>(
        &self,
        key: &str,
        passages: usize,
        wanted: &[usize],
        compute: impl FnOnce(&[usize]) -> Result<Vec<Vec<Embedding>>, E>,
    ) -> Result<(Arc<PageWindows>, Source), E> {
        let slot = self.slot(key);
        let mut guard = slot.lock().unwrap_or_else(PoisonError::into_inner);
        let mut source = Source::Memory;
        if guard.as_ref().is_none_or(|w| w.len() != passages) {
            source = Source::Disk;
            *guard = Some(Arc::new(
                self.read(key)
                    .filter(|w| w.len() == passages)
                    .unwrap_or_else(|| vec![None; passages]),
            ));
        }
        let current = guard.as_ref().map(Arc::clone).unwrap_or_default();
        let missing: Vec<usize> = wanted
            .iter()
            .copied()
            .filter(|&i| current.get(i).is_some_and(Option::is_none))
            .collect();
        if missing.is_empty() {
            return Ok((current, source));
        }
        let computed = compute(&missing)?;
        let mut windows = (*current).clone();
        for (i, w) in missing.into_iter().zip(computed) {
            windows[i] = Some(w);
        }
        let windows = Arc::new(windows);
        self.write(key, &windows);
        *guard = Some(Arc::clone(&windows));
        Ok((windows, Source::Computed))
    }

    fn slot(&self, key: &str) -> Slot {
        let mut slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        let (map, order) = &mut *slots;
        if let Some(slot) = map.get(key) {
            return Arc::clone(slot);
        }
        while order.len() >= self.memory {
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

/// Where a page's windows came from: memory or disk when nothing needed computing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    Memory,
    Disk,
    Computed,
}

/// `MAGIC, u32 passages, u32 windows per passage (ABSENT: not embedded)..., f32 values...`
/// (little-endian).
fn encode(windows: &PageWindows) -> Vec<u8> {
    let total: usize = windows.iter().flatten().map(Vec::len).sum();
    let mut out = Vec::with_capacity(8 + 4 + 4 * windows.len() + total * HIDDEN * 4);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(windows.len() as u32).to_le_bytes());
    for w in windows {
        let count = w.as_ref().map_or(ABSENT, |w| w.len() as u32);
        out.extend_from_slice(&count.to_le_bytes());
    }
    for v in windows.iter().flatten().flatten() {
        for x in v {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }
    out
}

fn decode(bytes: &[u8]) -> Option<PageWindows> {
    let rest = bytes.strip_prefix(MAGIC)?;
    let u32_at = |b: &[u8], i: usize| -> Option<u32> {
        Some(u32::from_le_bytes(
            b.get(i * 4..i * 4 + 4)?.try_into().ok()?,
        ))
    };
    let passages = u32_at(rest, 0)? as usize;
    let counts = (0..passages)
        .map(|i| u32_at(rest, 1 + i))
        .collect::<Option<Vec<_>>>()?;
    let mut data = rest.get(4 * (1 + passages)..)?;
    let total: usize = counts
        .iter()
        .filter(|&&n| n != ABSENT)
        .map(|&n| n as usize)
        .sum();
    if data.len() != total * HIDDEN * 4 {
        return None;
    }
    let mut out = Vec::with_capacity(passages);
    for n in counts {
        if n == ABSENT {
            out.push(None);
            continue;
        }
        let mut list = Vec::with_capacity(n as usize);
        for _ in 0..n {
            let mut v = [0f32; HIDDEN];
            for (x, b) in v.iter_mut().zip(data.chunks_exact(4)) {
                *x = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            }
            data = &data[HIDDEN * 4..];
            list.push(v);
        }
        out.push(Some(list));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::Backend;

    fn page() -> PageWindows {
        let mut a = [0f32; HIDDEN];
        a[0] = 1.0;
        let mut b = [0f32; HIDDEN];
        b[HIDDEN - 1] = -0.5;
        vec![Some(vec![a]), Some(vec![]), None, Some(vec![b, a])]
    }

    fn windows_of(page: &PageWindows, missing: &[usize]) -> Vec<Vec<Embedding>> {
        missing
            .iter()
            .map(|&i| page[i].clone().unwrap_or_default())
            .collect()
    }

    #[test]
    fn encoding_round_trips_and_rejects_truncation() {
        let bytes = encode(&page());
        assert_eq!(decode(&bytes), Some(page()));
        assert_eq!(decode(&bytes[..bytes.len() - 1]), None);
        assert_eq!(decode(b"CCEMBv1\n"), None);
    }

    #[test]
    fn the_key_depends_on_passages_numerics_and_windows() {
        let p = vec!["a".to_string(), "b".to_string()];
        let w = WindowParams::default();
        let bf16 = Backend::Avx512Bf16.numerics();
        let base = key("h", &p, bf16, w);
        assert_ne!(base, key("h", &["ab".to_string()], bf16, w));
        assert_ne!(base, key("h", &p, Backend::Avx512.numerics(), w));
        // The two 8-bit backends' vectors differ (6-bit weights without AVX-VNNI).
        assert_ne!(
            key("h", &p, Backend::AvxVnniInt8.numerics(), w),
            key("h", &p, Backend::Avx2Int8.numerics(), w)
        );
        assert_ne!(base, key("h", &p, bf16, WindowParams { overlap: 1, ..w }));
        assert_ne!(base, key("g", &p, bf16, w));
        assert_eq!(base, key("h", &p, bf16, w));
    }

    #[test]
    fn a_second_cache_on_the_same_directory_reads_from_disk() {
        let dir = tempfile::tempdir().expect("tempdir");
        let first = PageCache::new(Some(dir.path().to_path_buf()), MEMORY_PAGES);
        let all = [0, 1, 3];
        let (_, source) = first
            .get_or_compute("abcdef", 4, &all, |m| Ok::<_, ()>(windows_of(&page(), m)))
            .expect("computed");
        assert_eq!(source, Source::Computed);
        let (_, source) = first
            .get_or_compute("abcdef", 4, &all, |_| Err(()))
            .expect("memory");
        assert_eq!(source, Source::Memory);
        let second = PageCache::new(Some(dir.path().to_path_buf()), MEMORY_PAGES);
        let (got, source) = second
            .get_or_compute("abcdef", 4, &all, |_| Err(()))
            .expect("disk");
        assert_eq!((source, &*got), (Source::Disk, &page()));
    }

    #[test]
    fn only_the_missing_passages_are_computed_and_added() {
        let cache = PageCache::new(None, MEMORY_PAGES);
        let full = page();
        let (got, _) = cache
            .get_or_compute("abcdef", 4, &[3], |m| {
                assert_eq!(m, [3]);
                Ok::<_, ()>(windows_of(&full, m))
            })
            .expect("first");
        assert_eq!(got[3], full[3]);
        assert_eq!(got[0], None);
        let (got, source) = cache
            .get_or_compute("abcdef", 4, &[0, 3], |m| {
                assert_eq!(m, [0]);
                Ok::<_, ()>(windows_of(&full, m))
            })
            .expect("second");
        assert_eq!(source, Source::Computed);
        assert_eq!((&got[0], &got[3]), (&full[0], &full[3]));
    }

    #[test]
    fn a_corrupt_entry_is_recomputed_and_rewritten() {
        let dir = tempfile::tempdir().expect("tempdir");
        let cache = PageCache::new(Some(dir.path().to_path_buf()), MEMORY_PAGES);
        let path = cache.path("abcdef").expect("path");
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, b"garbage").expect("write");
        let (_, source) = cache
            .get_or_compute("abcdef", 4, &[0, 1, 3], |m| {
                Ok::<_, ()>(windows_of(&page(), m))
            })
            .expect("computed");
        assert_eq!(source, Source::Computed);
        assert_eq!(decode(&std::fs::read(&path).expect("read")), Some(page()));
    }
}
