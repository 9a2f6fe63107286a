//! The per-host fetch limit, global across every worker: a fetcher wrapper that holds one of
//! `per_host` PostgreSQL advisory locks (key: the host, slot number) for the length of each fetch.
//!
//! Session-level advisory locks belong to a connection, so a worker that dies (even by
//! `kill -9`) releases its slots when the server notices the closed connection; nothing is left
//! to expire. One connection serves all of a worker's slots: PostgreSQL lets a session take the
//! same lock twice, so the slots this worker holds are also tracked here and never retried.
//! When the database cannot be asked, the fetch goes ahead (a verdict is never withheld for the
//! limit's sake) and a warning says so once.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use citecheck_core::fetch::{FetchOutcome, Fetcher};
use tokio_postgres::Client;

/// How long a fetch waits before asking again for a slot on a busy host.
const POLL: Duration = Duration::from_millis(25);

/// Slots held on one connection.
pub struct HostSlots {
    client: Client,
    per_host: i32,
    held: Mutex<HashSet<(String, i32)>>,
    warned: AtomicBool,
}

impl HostSlots {
    pub fn new(client: Client, per_host: usize) -> Arc<HostSlots> {
        Arc::new(HostSlots {
            client,
            per_host: i32::try_from(per_host.max(1)).unwrap_or(i32::MAX),
            held: Mutex::new(HashSet::new()),
            warned: AtomicBool::new(false),
        })
    }

    /// Waits for a free slot on `host`; `None` when the database could not be asked.
    async fn acquire(self: &Arc<Self>, host: &str) -> Option<Slot> {
        let key = format!("citecheck-host:{host}");
        loop {
            for slot in 0..self.per_host {
                if !self.mark(&key, slot) {
                    continue;
                }
                let taken = self
                    .client
                    .query_one(
                        "SELECT pg_try_advisory_lock(hashtext($1), $2)",
                        &[&key, &slot],
                    )
                    .await;
                match taken {
                    Ok(row) if row.get::<_, bool>(0) => {
                        return Some(Slot {
                            slots: Arc::clone(self),
                            key,
                            slot,
                        })
                    }
                    Ok(_) => self.unmark(&key, slot),
                    Err(err) => {
                        self.unmark(&key, slot);
                        if !self.warned.swap(true, Ordering::Relaxed) {
                            tracing::warn!(
                                "the global per-host limit is not applied (queue unreachable): {err}"
                            );
                        }
                        return None;
                    }
                }
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// Claims `slot` of `key` in this process; false when a fetch here already holds it.
    fn mark(&self, key: &str, slot: i32) -> bool {
        self.lock().insert((key.to_string(), slot))
    }

    fn unmark(&self, key: &str, slot: i32) {
        self.lock().remove(&(key.to_string(), slot));
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashSet<(String, i32)>> {
        self.held.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// A held slot; released when dropped (also when the fetch is cancelled).
struct Slot {
    slots: Arc<HostSlots>,
    key: String,
    slot: i32,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let slots = Arc::clone(&self.slots);
        let key = std::mem::take(&mut self.key);
        let slot = self.slot;
        // Unlock first, then free the slot locally: never two local fetches on one lock.
        if let Ok(handle) = tokio::runtime::Handle::try_current() {
            handle.spawn(async move {
                let _ = slots
                    .client
                    .query_one(
                        "SELECT pg_advisory_unlock(hashtext($1), $2)",
                        &[&key, &slot],
                    )
                    .await;
                slots.unmark(&key, slot);
            });
        }
    }
}

/// A fetcher that holds a global per-host slot around each fetch of `inner`.
pub struct GlobalHostLimit {
    inner: Arc<dyn Fetcher>,
    slots: Arc<HostSlots>,
}

impl GlobalHostLimit {
    pub fn wrap(inner: Arc<dyn Fetcher>, slots: Arc<HostSlots>) -> Arc<dyn Fetcher> {
        Arc::new(GlobalHostLimit { inner, slots })
    }
}

#[async_trait]
impl Fetcher for GlobalHostLimit {
    fn name(&self) -> &str {
        self.inner.name()
    }

    async fn fetch(&self, url: &str) -> FetchOutcome {
        let slot = match host_of(url) {
            Some(host) => self.slots.acquire(&host).await,
            None => None,
        };
        let outcome = self.inner.fetch(url).await;
        drop(slot);
        outcome
    }
}

/// `host:port` of `url`, as the local per-host limit counts hosts.
fn host_of(url: &str) -> Option<String> {
    let parsed = url::Url::parse(url).ok()?;
    let host = parsed.host_str()?;
    Some(match parsed.port_or_known_default() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::host_of;

    #[test]
    fn hosts_are_counted_with_their_port() {
        for (url, host) in [
            ("http://127.0.0.1:8080/a", Some("127.0.0.1:8080")),
            ("https://example.org/x", Some("example.org:443")),
            ("not a url", None),
        ] {
            assert_eq!(host_of(url).as_deref(), host, "{url}");
        }
    }
}
