//! The evidence store: every page the pipeline read, kept as gzip-compressed Markdown under the
//! SHA-256 of its content, so that a verdict can be replayed against exactly what was judged.
//!
//! The store stays out of the core: it implements the core's [`PageStore`] seam, attached with
//! `VerifierBuilder::page_store`; the verifier hands it each page whose fetcher gave no rid of its
//! own (a crawling service that keeps its own copy hands out its own rid, which is left alone)
//! and uses the content hash it returns as the rid. Writes are atomic (temporary file, then rename), so a reader never sees half a page and two writers
//! of the same content cannot corrupt each other.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use async_trait::async_trait;
use citecheck_core::fetch::Page;
use citecheck_core::store::{PageStore, StoreError};
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;
use sha2::{Digest, Sha256};

/// A content-addressed directory of compressed pages.
#[derive(Debug, Clone)]
pub struct EvidenceStore {
    root: PathBuf,
}

impl EvidenceStore {
    /// Opens (creating if needed) the store at `root`.
    pub fn open(root: impl Into<PathBuf>) -> anyhow::Result<EvidenceStore> {
        let root = root.into();
        fs::create_dir_all(&root)
            .with_context(|| format!("creating the evidence store {}", root.display()))?;
        Ok(EvidenceStore { root })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The rid of `markdown`: the hex SHA-256 of its bytes.
    pub fn rid_of(markdown: &str) -> String {
        format!("{:x}", Sha256::digest(markdown.as_bytes()))
    }

    /// True when `rid` has the shape of a local rid (64 lowercase hex digits).
    pub fn is_local_rid(rid: &str) -> bool {
        rid.len() == 64
            && rid
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    }

    fn path_of(&self, rid: &str) -> PathBuf {
        // Two levels of fan-out keep directories small on stores of millions of pages.
        self.root
            .join(&rid[..2])
            .join(&rid[2..4])
            .join(format!("{rid}.md.gz"))
    }

    /// Stores `markdown` and returns its rid. Storing the same content again is a no-op.
    pub fn put(&self, markdown: &str) -> anyhow::Result<String> {
        let rid = Self::rid_of(markdown);
        let path = self.path_of(&rid);
        if path.exists() {
            return Ok(rid);
        }
        let dir = path.parent().unwrap_or(&self.root);
        fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let mut tmp = tempfile::NamedTempFile::new_in(dir)
            .with_context(|| format!("creating a temporary file in {}", dir.display()))?;
        {
            let mut encoder = GzEncoder::new(tmp.as_file_mut(), Compression::default());
            encoder.write_all(markdown.as_bytes())?;
            encoder.finish()?;
        }
        tmp.persist(&path)
            .map_err(|err| err.error)
            .with_context(|| format!("writing {}", path.display()))?;
        Ok(rid)
    }

    /// The stored Markdown for `rid`, or `None` when this store does not have it.
    pub fn get(&self, rid: &str) -> anyhow::Result<Option<String>> {
        if !Self::is_local_rid(rid) {
            return Ok(None);
        }
        let path = self.path_of(rid);
        let file = match fs::File::open(&path) {
            Ok(file) => file,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(err) => return Err(err).with_context(|| format!("opening {}", path.display())),
        };
        let mut text = String::new();
        GzDecoder::new(file)
            .read_to_string(&mut text)
            .with_context(|| format!("reading {}", path.display()))?;
        Ok(Some(text))
    }
}

/// Gives a file made by `tempfile` (private: 0600) the 0644 most tools create files with, for
/// reports that people share.
pub fn make_shareable(file: &fs::File) -> anyhow::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(fs::Permissions::from_mode(0o644))
            .context("setting the report's permissions")?;
    }
    #[cfg(not(unix))]
    let _ = file;
    Ok(())
}

#[async_trait]
impl PageStore for EvidenceStore {
    async fn keep(&self, page: &Page) -> Result<String, StoreError> {
        let store = self.clone();
        let markdown = page.markdown.clone();
        // Compression and file I/O are blocking work.
        let rid = tokio::task::spawn_blocking(move || store.put(&markdown)).await??;
        Ok(rid)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_comes_back_byte_for_byte_under_its_hash() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = EvidenceStore::open(dir.path()).expect("opens");
        let text = "# Title\n\nWater boils at 100 °C — “at sea level”.\n";
        let rid = store.put(text).expect("stored");
        assert_eq!(rid, EvidenceStore::rid_of(text));
        assert!(EvidenceStore::is_local_rid(&rid));
        assert_eq!(store.get(&rid).expect("reads").as_deref(), Some(text));
        assert_eq!(store.put(text).expect("stored again"), rid);
    }

    #[test]
    fn unknown_and_foreign_rids_are_absent_not_errors() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = EvidenceStore::open(dir.path()).expect("opens");
        assert_eq!(store.get(&"0".repeat(64)).expect("no error"), None);
        assert_eq!(store.get("rid-from-crawlbase").expect("no error"), None);
        assert_eq!(store.get("../../etc/passwd").expect("no error"), None);
    }
}
