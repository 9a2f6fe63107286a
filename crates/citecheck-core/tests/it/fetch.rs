//! The direct fetcher against the fixture site: every fetch behaviour of issue 2, section 2.
//!
//! No test resolves a real name: every fetcher here looks names up in a fixed table, and only
//! 127.0.0.1 is ever connected to.

mod bodies;
mod guard;
mod pages;
mod redirects;
mod statuses;

use std::net::{IpAddr, Ipv4Addr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use citecheck_core::fetch::resolve::{GuardPolicy, HostResolver, ResolveError, StaticResolver};
use citecheck_core::fetch::{DirectFetcher, FetchOptions, FetchOutcome, Fetcher, Page, Rejection};
use citecheck_core::{Label, Reason};
use futures::future::BoxFuture;

pub const LOOPBACK: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);

/// Fast settings with the guard off (the fixture site lives on loopback).
pub fn options() -> FetchOptions {
    FetchOptions {
        connect_timeout: Duration::from_secs(2),
        timeout: Duration::from_secs(5),
        attempts: 3,
        retry_base: Duration::from_millis(10),
        max_retry_wait: Duration::from_secs(2),
        guard: GuardPolicy {
            enabled: false,
            ..GuardPolicy::default()
        },
        ..FetchOptions::default()
    }
}

/// [`options`] with PDF reading off, as `--no-pdf` sets it.
pub fn no_pdf_options() -> FetchOptions {
    FetchOptions {
        pdf: None,
        ..options()
    }
}

/// The only names tests may resolve: `localhost`, pinned to 127.0.0.1.
pub fn names() -> StaticResolver {
    StaticResolver::new().with("localhost", &[LOOPBACK])
}

pub fn fetcher(options: FetchOptions) -> DirectFetcher {
    fetcher_with(options, Arc::new(names()))
}

pub fn fetcher_with(options: FetchOptions, resolver: Arc<dyn HostResolver>) -> DirectFetcher {
    DirectFetcher::with_resolver(options, resolver).expect("the fetcher builds")
}

pub async fn fetch(options: FetchOptions, url: &str) -> FetchOutcome {
    fetcher(options).fetch(url).await
}

pub fn page(outcome: FetchOutcome) -> Page {
    match outcome {
        FetchOutcome::Page(page) => page,
        FetchOutcome::Rejected(rejection) => panic!("expected a page, got {rejection:?}"),
    }
}

pub fn rejection(outcome: FetchOutcome) -> Rejection {
    match outcome {
        FetchOutcome::Rejected(rejection) => rejection,
        FetchOutcome::Page(page) => panic!("expected a rejection, got a page: {page:?}"),
    }
}

/// What a verdict shows of a rejection: label, reason, final URL, origin status.
pub fn summary(rejection: &Rejection) -> (Label, Reason, Option<&str>, Option<u16>) {
    (
        rejection.label,
        rejection.reason.clone(),
        rejection.final_url.as_deref(),
        rejection.original_status,
    )
}

/// A resolver that counts its lookups and answers from a table, or fails every lookup.
pub struct CountingResolver {
    table: Option<StaticResolver>,
    lookups: AtomicUsize,
}

impl CountingResolver {
    pub fn answering(table: StaticResolver) -> Arc<Self> {
        Arc::new(CountingResolver {
            table: Some(table),
            lookups: AtomicUsize::new(0),
        })
    }

    /// Every lookup fails as a broken resolver would (not "no such name").
    pub fn failing() -> Arc<Self> {
        Arc::new(CountingResolver {
            table: None,
            lookups: AtomicUsize::new(0),
        })
    }

    pub fn lookups(&self) -> usize {
        self.lookups.load(Ordering::SeqCst)
    }
}

impl HostResolver for CountingResolver {
    fn lookup(&self, host: &str) -> BoxFuture<'static, Result<Vec<IpAddr>, ResolveError>> {
        self.lookups.fetch_add(1, Ordering::SeqCst);
        match &self.table {
            Some(table) => table.lookup(host),
            None => {
                let failure = ResolveError::Failed {
                    host: host.to_string(),
                    message: "the resolver timed out".to_string(),
                };
                Box::pin(async move { Err(failure) })
            }
        }
    }
}
