//! A fetcher wrapper that remembers the Markdown of each page it fetched, for one answer: the
//! verifier judges pages but hands back verdicts only, and Anthropic's `cited_text` must be
//! looked for on the very page that was judged. It also counts the fetches, so the answer's
//! result can say how many pages were really fetched.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use citecheck_core::fetch::FetchOutcome;
use citecheck_core::Fetcher;

/// The pages one verifier fetched, by the URL asked for.
#[derive(Clone, Default)]
pub struct PageTap {
    pages: Arc<Mutex<HashMap<String, String>>>,
    fetches: Arc<std::sync::atomic::AtomicUsize>,
}

impl PageTap {
    /// `inner`, with every page it returns remembered here.
    pub fn wrap(&self, inner: Arc<dyn Fetcher>) -> Arc<dyn Fetcher> {
        Arc::new(Tapped {
            inner,
            tap: self.clone(),
        })
    }

    /// The Markdown fetched for `url`, if a page came back.
    pub fn markdown(&self, url: &str) -> Option<String> {
        self.pages.lock().ok()?.get(url).cloned()
    }

    /// Fetches made so far.
    pub fn fetches(&self) -> usize {
        self.fetches.load(std::sync::atomic::Ordering::Relaxed)
    }
}

struct Tapped {
    inner: Arc<dyn Fetcher>,
    tap: PageTap,
}

#[async_trait]
impl Fetcher for Tapped {
    fn name(&self) -> &str {
        self.inner.name()
    }

    async fn fetch(&self, url: &str) -> FetchOutcome {
        self.tap
            .fetches
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let outcome = self.inner.fetch(url).await;
        if let (FetchOutcome::Page(page), Ok(mut pages)) = (&outcome, self.tap.pages.lock()) {
            pages.insert(url.to_string(), page.markdown.clone());
        }
        outcome
    }
}
