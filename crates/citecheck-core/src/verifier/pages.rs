//! The shared page cache a verifier can keep across claims: each distinct URL is fetched and
//! prepared once however many claims cite it, and politely (at most `per_host` fetches in flight
//! per host and port).
//!
//! Two claims asking for the same URL at the same moment share one fetch (each URL has a
//! once-cell; the second waiter awaits the first). Finished entries live in a least-recently-used
//! table of bounded size, so memory does not grow with the run: a URL is fetched a second time
//! only when more than `capacity` other distinct URLs were needed between two of its citations.
//! Entries still being fetched are never evicted.
//!
//! Why not moka: its eviction is approximate (TinyLFU, applied asynchronously), and the batch's
//! promise, pinned by a test, is exact LRU with a hard bound; this table is a hundred lines.

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::{OnceCell, Semaphore};

use super::Fetched;

/// Prepared pages kept by default.
pub const DEFAULT_CACHE_PAGES: usize = 512;
/// Fetches in flight per host by default: as many as claims in flight by default in a batch, and
/// fewer than the six connections per host a browser opens.
pub const DEFAULT_PER_HOST: usize = 4;

struct Slot {
    cell: Arc<OnceCell<Fetched>>,
    last_used: u64,
}

#[derive(Default)]
struct Table {
    slots: HashMap<String, Slot>,
    clock: u64,
}

/// How the cache was used.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// URLs actually fetched.
    pub fetches: u64,
    /// Citations answered without a fetch.
    pub hits: u64,
}

/// Fetch-once, bounded page cache with a per-host limit.
pub(crate) struct PageCache {
    capacity: usize,
    table: Mutex<Table>,
    /// `None` for a scope's cache: politeness is the verifier's (its own cache, if any).
    hosts: Option<HostLimiter>,
    fetches: AtomicU64,
    hits: AtomicU64,
}

impl PageCache {
    pub(crate) fn new(capacity: usize, per_host: usize) -> Self {
        PageCache {
            capacity: capacity.max(1),
            table: Mutex::new(Table::default()),
            hosts: Some(HostLimiter::new(per_host.max(1))),
            fetches: AtomicU64::new(0),
            hits: AtomicU64::new(0),
        }
    }

    /// A cache without bound or host limit, for the few URLs of one scope ([`SharedPages`]).
    fn unbounded() -> Self {
        PageCache {
            capacity: usize::MAX,
            table: Mutex::new(Table::default()),
            hosts: None,
            fetches: AtomicU64::new(0),
            hits: AtomicU64::new(0),
        }
    }

    /// A permit for one request to `url`'s host, from the same per-host limit fetches use.
    pub(crate) async fn host_permit(&self, url: &str) -> Option<tokio::sync::OwnedSemaphorePermit> {
        match &self.hosts {
            Some(hosts) => hosts.acquire(url).await,
            None => None,
        }
    }

    /// The page held for `url`, when it was fetched and read.
    fn page(&self, url: &str) -> Option<Arc<super::PreparedPage>> {
        let cell = Arc::clone(&self.lock().slots.get(url)?.cell);
        match cell.get()? {
            Fetched::Page(page) => Some(Arc::clone(page)),
            Fetched::Rejected(_) => None,
        }
    }

    pub(crate) fn stats(&self) -> CacheStats {
        CacheStats {
            fetches: self.fetches.load(Ordering::Relaxed),
            hits: self.hits.load(Ordering::Relaxed),
        }
    }

    /// Entries currently held (finished or in flight).
    #[cfg(test)]
    fn len(&self) -> usize {
        self.lock().slots.len()
    }

    /// The page for `url`, running `fetch` if no one has.
    pub(crate) async fn get<F, Fut>(&self, url: &str, fetch: F) -> Fetched
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Fetched>,
    {
        let cell = self.slot(url);
        let mut fetched_here = false;
        let fetched = cell
            .get_or_init(|| async {
                fetched_here = true;
                let _permit = self.host_permit(url).await;
                fetch().await
            })
            .await
            .clone();
        let counter = if fetched_here {
            &self.fetches
        } else {
            &self.hits
        };
        counter.fetch_add(1, Ordering::Relaxed);
        fetched
    }

    fn slot(&self, url: &str) -> Arc<OnceCell<Fetched>> {
        let mut table = self.lock();
        table.clock += 1;
        let now = table.clock;
        let cell = match table.slots.get_mut(url) {
            Some(slot) => {
                slot.last_used = now;
                Arc::clone(&slot.cell)
            }
            None => {
                let cell = Arc::new(OnceCell::new());
                table.slots.insert(
                    url.to_string(),
                    Slot {
                        cell: Arc::clone(&cell),
                        last_used: now,
                    },
                );
                cell
            }
        };
        while table.slots.len() > self.capacity {
            // O(capacity) per eviction; the table is small and a fetch costs far more.
            let oldest = table
                .slots
                .iter()
                .filter(|(key, slot)| slot.cell.initialized() && key.as_str() != url)
                .min_by_key(|(_, slot)| slot.last_used)
                .map(|(key, _)| key.clone());
            match oldest {
                Some(key) => {
                    table.slots.remove(&key);
                }
                None => break,
            }
        }
        cell
    }

    fn lock(&self) -> MutexGuard<'_, Table> {
        self.table
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Pages shared by the checks of one unit of work (the statements of one answer, say), passed
/// to each with [`Check::pages`](super::Check::pages): each URL is fetched and prepared once for
/// all of them, and the pages stay readable here until the last handle is dropped, so nothing
/// outlives the work. Cheap to clone (one shared table). A verifier that also shares pages
/// across claims ([`VerifierBuilder::shared_pages`](super::VerifierBuilder::shared_pages)) is
/// asked first for a URL this scope has not read yet, under its per-host limit.
#[derive(Clone)]
pub struct SharedPages {
    cache: Arc<PageCache>,
}

impl Default for SharedPages {
    fn default() -> Self {
        SharedPages {
            cache: Arc::new(PageCache::unbounded()),
        }
    }
}

impl std::fmt::Debug for SharedPages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedPages")
            .field("stats", &self.cache.stats())
            .finish()
    }
}

impl SharedPages {
    /// An empty scope.
    pub fn new() -> Self {
        Self::default()
    }

    /// The Markdown read from `url` in this scope, when a page came back.
    pub fn markdown(&self, url: &str) -> Option<String> {
        self.cache.page(url).map(|page| page.page.markdown.clone())
    }

    /// Distinct URLs read in this scope, and citations that reused one.
    pub fn stats(&self) -> CacheStats {
        self.cache.stats()
    }

    pub(crate) fn cache(&self) -> &PageCache {
        &self.cache
    }
}

/// At most `per_host` permits per host (host and port), handed out in arrival order.
struct HostLimiter {
    per_host: usize,
    hosts: Mutex<HashMap<String, Arc<Semaphore>>>,
}

/// Hosts remembered before idle ones are dropped.
const HOSTS_KEPT: usize = 1024;

impl HostLimiter {
    fn new(per_host: usize) -> Self {
        HostLimiter {
            per_host,
            hosts: Mutex::new(HashMap::new()),
        }
    }

    async fn acquire(&self, url: &str) -> Option<tokio::sync::OwnedSemaphorePermit> {
        let semaphore = {
            let mut hosts = self
                .hosts
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            if hosts.len() >= HOSTS_KEPT {
                // A semaphore only this map holds has no fetch in flight: forget it.
                hosts.retain(|_, s| Arc::strong_count(s) > 1);
            }
            Arc::clone(
                hosts
                    .entry(host_key(url))
                    .or_insert_with(|| Arc::new(Semaphore::new(self.per_host))),
            )
        };
        // Never closed; without a permit the fetch still happens, only less politely.
        semaphore.acquire_owned().await.ok()
    }
}

/// `host:port` of `url`, or the URL itself when it has no host (such a URL is refused by the
/// fetcher anyway).
fn host_key(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(parsed) => format!(
            "{}:{}",
            parsed.host_str().unwrap_or_default().to_ascii_lowercase(),
            parsed.port_or_known_default().unwrap_or(0)
        ),
        Err(_) => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fetch::Rejection;
    use crate::model::{Label, Reason};

    #[test]
    fn hosts_are_keyed_by_name_and_port() {
        assert_eq!(host_key("https://A.example/x"), "a.example:443");
        assert_eq!(host_key("http://a.example/y"), "a.example:80");
        assert_eq!(host_key("http://127.0.0.1:8080/"), "127.0.0.1:8080");
    }

    #[tokio::test]
    async fn the_page_cache_stays_bounded_however_many_urls_pass_through() {
        let urls: Vec<String> = (0..10).map(|i| format!("https://c.example/{i}")).collect();
        let fetches: Mutex<HashMap<String, usize>> = Mutex::new(HashMap::new());
        let cache = PageCache::new(3, 2);
        let get = |url: String| {
            let cache = &cache;
            let fetches = &fetches;
            async move {
                cache
                    .get(&url, || async {
                        *fetches
                            .lock()
                            .expect("not poisoned")
                            .entry(url.clone())
                            .or_default() += 1;
                        Fetched::Rejected(Rejection::new(Label::Unreachable, Reason::Http(404)))
                    })
                    .await
            }
        };
        for url in &urls {
            get(url.clone()).await;
            assert!(cache.len() <= 3, "{} entries", cache.len());
        }
        // The most recent URL is still there; the first was evicted and is fetched again.
        get(urls[9].clone()).await;
        assert_eq!(fetches.lock().expect("not poisoned")[&urls[9]], 1);
        get(urls[0].clone()).await;
        assert_eq!(fetches.lock().expect("not poisoned")[&urls[0]], 2);
        assert_eq!(
            cache.stats(),
            CacheStats {
                fetches: 11,
                hits: 1
            }
        );
    }
}
