//! Pages fetched for one answer: a fetcher wrapper, installed once when the verifier is built,
//! that inside an answer's scope ([`AnswerPages::scope`]) fetches each URL once however many
//! statements cite it, and keeps the page so that Anthropic's `cited_text` can be looked for on
//! the very page that was judged. Outside a scope (a plain `/verify`) it only passes through.
//!
//! The scope is a task-local: the verifier fetches on the task that called `verify` (its
//! concurrency is `buffer_unordered`, not spawned tasks), so the wrapper sees the answer it is
//! working for, and the pages go when the answer is done: nothing grows across requests.

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use citecheck_core::fetch::FetchOutcome;
use citecheck_core::Fetcher;
use tokio::sync::OnceCell;

tokio::task_local! {
    static SCOPE: AnswerPages;
}

/// The pages of one answer, by the URL asked for.
#[derive(Clone, Default)]
pub struct AnswerPages {
    pages: Arc<Mutex<HashMap<String, Arc<OnceCell<FetchOutcome>>>>>,
    fetches: Arc<AtomicUsize>,
}

impl AnswerPages {
    /// Runs `work` (the answer's verification) with these pages as its scope.
    pub async fn scope<F: Future>(&self, work: F) -> F::Output {
        SCOPE.scope(self.clone(), work).await
    }

    /// The Markdown fetched for `url`, when a page came back.
    pub fn markdown(&self, url: &str) -> Option<String> {
        let cell = self.pages.lock().ok()?.get(url).cloned()?;
        match cell.get()? {
            FetchOutcome::Page(page) => Some(page.markdown.clone()),
            FetchOutcome::Rejected(_) => None,
        }
    }

    /// Fetches really made in this scope.
    pub fn fetches(&self) -> usize {
        self.fetches.load(Ordering::Relaxed)
    }

    fn cell(&self, url: &str) -> Arc<OnceCell<FetchOutcome>> {
        match self.pages.lock() {
            Ok(mut pages) => Arc::clone(pages.entry(url.to_string()).or_default()),
            // A poisoned map only loses the sharing: fetch on a cell of its own.
            Err(_) => Arc::default(),
        }
    }
}

/// `inner`, fetching once per URL inside an answer's scope.
pub fn scoped_fetcher(inner: Arc<dyn Fetcher>) -> Arc<dyn Fetcher> {
    Arc::new(Scoped { inner })
}

struct Scoped {
    inner: Arc<dyn Fetcher>,
}

#[async_trait]
impl Fetcher for Scoped {
    fn name(&self) -> &str {
        self.inner.name()
    }

    async fn fetch(&self, url: &str) -> FetchOutcome {
        let Ok(pages) = SCOPE.try_with(AnswerPages::clone) else {
            return self.inner.fetch(url).await;
        };
        let cell = pages.cell(url);
        cell.get_or_init(|| async {
            pages.fetches.fetch_add(1, Ordering::Relaxed);
            self.inner.fetch(url).await
        })
        .await
        .clone()
    }
}
