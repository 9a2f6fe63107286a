//! A browser's profile directory (`citecheck-chromium-*`): created under the parent the
//! options name, and removed once the browser is done with it.
//!
//! Removal outlasts the browser's own exit: Chromium's helper processes (zygote, renderers,
//! the network service) notice their parent's death a moment later and may write into the
//! profile meanwhile, so a single `remove_dir_all` can leave a `Default/` behind. Removal
//! therefore retries until the directory is gone and stays gone for a short pause, within a
//! bound; a directory still there after it is logged, never silently kept.
//!
//! Chromium also keeps its process-singleton socket outside the profile, in a directory of its
//! own under `TMPDIR` (`org.chromium.Chromium.*`, short enough for a socket's path), which it
//! removes only on a clean exit; the profile's `SingletonSocket` link names it, so it is
//! removed with the profile.

use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use thiserror::Error;

/// The name every profile directory starts with.
pub const PROFILE_PREFIX: &str = "citecheck-chromium-";

/// How many times removal is tried, and the pause after each try: the directory must still be
/// gone after the pause. About two seconds in all, far longer than helpers take to exit.
const REMOVE_ATTEMPTS: u32 = 20;
const REMOVE_PAUSE: Duration = Duration::from_millis(100);
/// The link in the profile to the singleton socket, and how Chromium names that socket's
/// directory (the product name varies: Chromium, Chrome).
const SINGLETON_SOCKET: &str = "SingletonSocket";
const SOCKET_DIR_PREFIX: &str = "org.chromium.";

/// The profile directory could not be created.
#[derive(Debug, Error)]
#[error("cannot create a browser profile directory in {}", parent.display())]
pub struct ProfileError {
    parent: PathBuf,
    #[source]
    source: io::Error,
}

/// A profile directory, removed in the background if dropped without [`Profile::remove`].
#[derive(Debug)]
pub struct Profile {
    /// Empty once removed.
    path: PathBuf,
}

impl Profile {
    /// A new, empty profile directory under `parent`.
    pub fn create(parent: &Path) -> Result<Profile, ProfileError> {
        let dir = tempfile::Builder::new()
            .prefix(PROFILE_PREFIX)
            .tempdir_in(parent)
            .map_err(|source| ProfileError {
                parent: parent.to_path_buf(),
                source,
            })?;
        // Removal is ours from here on: tempfile's one attempt on drop is what leaked.
        Ok(Profile { path: dir.keep() })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Removes the directory, blocking for up to about two seconds; call it once the browser
    /// has exited, on a thread that may block.
    pub fn remove(mut self) {
        let path = std::mem::take(&mut self.path);
        let sockets = socket_dir(&path);
        remove_logged(&path, sockets.as_deref());
    }
}

impl Drop for Profile {
    /// One removal at once, on the dropping thread (milliseconds: a profile is a few
    /// megabytes), then the retries on a thread of its own, so the dropping thread is not held
    /// while helper processes exit. Not tokio's blocking pool: a runtime shutting down cancels
    /// the tasks queued there that have not started. A process that exits before the retries
    /// end cuts them short.
    fn drop(&mut self) {
        if self.path.as_os_str().is_empty() {
            return;
        }
        let path = std::mem::take(&mut self.path);
        let sockets = socket_dir(&path);
        for dir in sockets.iter().map(PathBuf::as_path).chain([path.as_path()]) {
            // Failures are for the retries to settle and report.
            let _ = std::fs::remove_dir_all(dir);
        }
        std::thread::spawn(move || remove_logged(&path, sockets.as_deref()));
    }
}

/// Removes the profile and its singleton socket's directory (`sockets`, read from the profile
/// before anything was removed), logging what stays.
fn remove_logged(path: &Path, sockets: Option<&Path>) {
    if let Some(sockets) = sockets {
        if let Err(err) = remove_until_gone(sockets) {
            tracing::warn!(
                directory = %sockets.display(),
                error = %err,
                "could not remove Chromium's singleton socket directory"
            );
        }
    }
    match remove_until_gone(path) {
        Ok(()) => tracing::debug!(profile = %path.display(), "removed the browser profile"),
        Err(err) => tracing::warn!(
            profile = %path.display(),
            error = %err,
            "could not remove the browser profile directory"
        ),
    }
}

/// The directory of the profile's singleton socket, when the profile links to one in a
/// directory named as Chromium names it (nothing else is ever removed through the link).
fn socket_dir(profile: &Path) -> Option<PathBuf> {
    let socket = std::fs::read_link(profile.join(SINGLETON_SOCKET)).ok()?;
    let dir = socket.parent()?;
    let name = dir.file_name()?.to_str()?;
    (socket.is_absolute() && name.starts_with(SOCKET_DIR_PREFIX)).then(|| dir.to_path_buf())
}

/// Removes `path` until it is absent and still absent after a pause.
fn remove_until_gone(path: &Path) -> io::Result<()> {
    let mut last = None;
    for _ in 0..REMOVE_ATTEMPTS {
        match std::fs::remove_dir_all(path) {
            Ok(()) => {}
            Err(err) if err.kind() == io::ErrorKind::NotFound => {}
            // A helper created a file inside a directory being emptied (not empty), or
            // something else: try again after the pause.
            Err(err) => last = Some(err),
        }
        std::thread::sleep(REMOVE_PAUSE);
        if !path.try_exists()? {
            return Ok(());
        }
    }
    Err(last.unwrap_or_else(|| {
        io::Error::other(format!(
            "it was created again after each of {REMOVE_ATTEMPTS} removals"
        ))
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_removed_profile_leaves_its_parent_empty() {
        let parent = tempfile::tempdir().expect("a temporary directory");
        let profile = Profile::create(parent.path()).expect("created");
        std::fs::create_dir_all(profile.path().join("Default/Cache")).expect("written");
        std::fs::write(profile.path().join("Local State"), "{}").expect("written");
        profile.remove();
        assert_eq!(std::fs::read_dir(parent.path()).expect("read").count(), 0);
    }

    #[test]
    fn a_profile_dropped_outside_a_runtime_is_removed_in_the_background() {
        let parent = tempfile::tempdir().expect("a temporary directory");
        let profile = Profile::create(parent.path()).expect("created");
        std::fs::create_dir_all(profile.path().join("Default")).expect("written");
        drop(profile);
        let end = std::time::Instant::now() + Duration::from_secs(5);
        while std::fs::read_dir(parent.path()).expect("read").count() > 0
            && std::time::Instant::now() < end
        {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(std::fs::read_dir(parent.path()).expect("read").count(), 0);
    }

    #[cfg(unix)]
    #[test]
    fn the_singleton_socket_directory_the_profile_links_to_is_removed_with_it() {
        let parent = tempfile::tempdir().expect("a temporary directory");
        let sockets = parent.path().join("org.chromium.Chromium.abc123");
        let elsewhere = parent.path().join("not-chromium");
        for dir in [&sockets, &elsewhere] {
            std::fs::create_dir(dir).expect("created");
            std::fs::write(dir.join(SINGLETON_SOCKET), "").expect("written");
        }
        let profile = Profile::create(parent.path()).expect("created");
        std::os::unix::fs::symlink(
            sockets.join(SINGLETON_SOCKET),
            profile.path().join(SINGLETON_SOCKET),
        )
        .expect("linked");
        let other = Profile::create(parent.path()).expect("created");
        std::os::unix::fs::symlink(
            elsewhere.join(SINGLETON_SOCKET),
            other.path().join(SINGLETON_SOCKET),
        )
        .expect("linked");
        profile.remove();
        other.remove();
        let left: Vec<_> = std::fs::read_dir(parent.path())
            .expect("read")
            .map(|entry| entry.expect("entry").file_name())
            .collect();
        assert_eq!(left, vec![std::ffi::OsString::from("not-chromium")]);
    }

    #[test]
    fn a_missing_parent_is_an_error_naming_it() {
        let err =
            Profile::create(Path::new("/nonexistent/citecheck-parent")).expect_err("no parent");
        assert!(
            err.to_string().contains("/nonexistent/citecheck-parent"),
            "{err}"
        );
    }

    #[test]
    fn a_directory_already_gone_counts_as_removed() {
        let parent = tempfile::tempdir().expect("a temporary directory");
        assert!(remove_until_gone(&parent.path().join("never-made")).is_ok());
    }
}
