//! Finding the Chromium executable: a configured path (`--chromium`, `CITECHECK_CHROMIUM`), or
//! the first of [`CHROMIUM_NAMES`] on the `PATH`. Nothing is ever downloaded.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use thiserror::Error;

/// The variable naming the Chromium executable (the CLI's `--chromium`).
pub const CHROMIUM_VAR: &str = "CITECHECK_CHROMIUM";

/// The names searched on the `PATH` when no executable is configured, in order.
pub const CHROMIUM_NAMES: [&str; 3] = ["chromium", "chromium-browser", "google-chrome"];

/// Why no Chromium could be used. A configuration error: the renderer was asked for, and
/// there is no browser to render with.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LocateError {
    #[error(
        "the Chromium executable `{}` (from --chromium or {CHROMIUM_VAR}) does not exist or is \
         not a file",
        path.display()
    )]
    Missing { path: PathBuf },
    #[error(
        "no Chromium found for --render chromium: none of {} is on the PATH; install one or name \
         the executable with --chromium PATH or {CHROMIUM_VAR}",
        CHROMIUM_NAMES.join(", ")
    )]
    NotOnPath,
}

/// The executable to launch: `configured` when given (a bare name is looked up on the `PATH`),
/// else the first of [`CHROMIUM_NAMES`] found on `path_var` (the `PATH`'s value).
pub fn find_chromium(
    configured: Option<&Path>,
    path_var: Option<&OsStr>,
) -> Result<PathBuf, LocateError> {
    if let Some(path) = configured {
        let bare_name = path.components().count() == 1 && !path.is_absolute();
        let found = if bare_name {
            search(path_var, path.as_os_str())
        } else {
            path.is_file().then(|| path.to_path_buf())
        };
        return found.ok_or_else(|| LocateError::Missing {
            path: path.to_path_buf(),
        });
    }
    CHROMIUM_NAMES
        .iter()
        .find_map(|name| search(path_var, OsStr::new(name)))
        .ok_or(LocateError::NotOnPath)
}

fn search(path_var: Option<&OsStr>, name: &OsStr) -> Option<PathBuf> {
    std::env::split_paths(path_var?)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_configured_path_must_exist_and_names_are_searched_on_the_path() {
        let dir = tempfile::tempdir().expect("temp dir");
        let fake = dir.path().join("chromium-browser");
        std::fs::write(&fake, "#!/bin/sh\n").expect("write");
        let path_var = dir.path().as_os_str();

        assert_eq!(find_chromium(None, Some(path_var)), Ok(fake.clone()));
        assert_eq!(find_chromium(Some(&fake), None), Ok(fake.clone()));
        assert_eq!(
            find_chromium(Some(Path::new("chromium-browser")), Some(path_var)),
            Ok(fake.clone())
        );
        let wrong = dir.path().join("nope");
        let err = find_chromium(Some(&wrong), Some(path_var)).expect_err("missing");
        assert!(err.to_string().contains("--chromium"), "{err}");
        assert!(err.to_string().contains(CHROMIUM_VAR), "{err}");

        let empty = tempfile::tempdir().expect("temp dir");
        let err = find_chromium(None, Some(empty.path().as_os_str())).expect_err("none");
        let message = err.to_string();
        for needle in [
            "--chromium",
            CHROMIUM_VAR,
            "chromium, chromium-browser, google-chrome",
        ] {
            assert!(message.contains(needle), "{message}");
        }
    }
}
