//! Name resolution for the direct fetcher, with the address guard applied to what it returns.
//!
//! The HTTP client connects only to addresses this resolver hands it, so checking them here
//! closes the gap a separate "resolve, check, then fetch" step would leave: a name cannot
//! resolve to a public address for the check and a private one for the connection.

use std::collections::{HashMap, HashSet};
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use futures::future::BoxFuture;
use thiserror::Error;

use super::address::{classify, AddressClass};

/// Why a name yielded no address to connect to. Travels through the HTTP client's error chain
/// and is recovered by downcasting, so the verdict can name the cause.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ResolveError {
    #[error("{host} does not exist")]
    NoSuchDomain { host: String },
    #[error("could not resolve {host}: {message}")]
    Failed { host: String, message: String },
    #[error("{host} resolves only to refused addresses ({ip} is {class:?})")]
    Blocked {
        host: String,
        ip: IpAddr,
        class: AddressClass,
    },
}

/// Looks host names up. The system resolver in production; a fixed table in tests (which must
/// never send a DNS query off the machine).
pub trait HostResolver: Send + Sync {
    fn lookup(&self, host: &str) -> BoxFuture<'static, Result<Vec<IpAddr>, ResolveError>>;
}

/// The operating system's resolver (getaddrinfo), run on tokio's blocking pool.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemResolver;

impl HostResolver for SystemResolver {
    fn lookup(&self, host: &str) -> BoxFuture<'static, Result<Vec<IpAddr>, ResolveError>> {
        let host = host.to_string();
        Box::pin(async move {
            let looked_up = tokio::net::lookup_host((host.clone(), 0)).await;
            match looked_up {
                Ok(addrs) => Ok(addrs.map(|a| a.ip()).collect()),
                Err(err) => Err(classify_lookup_error(host, &err)),
            }
        })
    }
}

/// getaddrinfo reports "no such name" and "could not ask" through one error type; only its text
/// tells them apart. A dead domain must not be retried like a flaky resolver.
fn classify_lookup_error(host: String, err: &std::io::Error) -> ResolveError {
    let message = err.to_string();
    let lower = message.to_ascii_lowercase();
    let no_such_name = [
        "not known",
        "no address associated",
        "nodename nor servname",
        "no such host",
    ]
    .iter()
    .any(|p| lower.contains(p));
    if no_such_name {
        ResolveError::NoSuchDomain { host }
    } else {
        ResolveError::Failed { host, message }
    }
}

/// A fixed name table; names not in it do not exist. Used by tests and for pinning hosts.
#[derive(Debug, Default, Clone)]
pub struct StaticResolver {
    table: HashMap<String, Vec<IpAddr>>,
}

impl StaticResolver {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn with(mut self, host: &str, ips: &[IpAddr]) -> Self {
        self.table.insert(host.to_ascii_lowercase(), ips.to_vec());
        self
    }
}

impl HostResolver for StaticResolver {
    fn lookup(&self, host: &str) -> BoxFuture<'static, Result<Vec<IpAddr>, ResolveError>> {
        let result = self
            .table
            .get(&host.to_ascii_lowercase())
            .cloned()
            .ok_or_else(|| ResolveError::NoSuchDomain {
                host: host.to_string(),
            });
        Box::pin(async move { result })
    }
}

/// Which destinations fetches may reach.
#[derive(Debug, Clone)]
pub struct GuardPolicy {
    /// Refuse non-public addresses (the default). Off for local use, demos and tests.
    pub enabled: bool,
    /// Host names (or literal addresses) exempt from the guard, lower-case.
    pub allowed_hosts: HashSet<String>,
}

impl Default for GuardPolicy {
    fn default() -> Self {
        GuardPolicy {
            enabled: true,
            allowed_hosts: HashSet::new(),
        }
    }
}

impl GuardPolicy {
    pub fn is_exempt(&self, host: &str) -> bool {
        !self.enabled || self.allowed_hosts.contains(&host.to_ascii_lowercase())
    }

    /// The refusal for connecting to `ip` under `host`, if any.
    pub fn refusal(&self, host: &str, ip: IpAddr) -> Option<ResolveError> {
        let class = classify(ip);
        (!class.is_public() && !self.is_exempt(host)).then(|| ResolveError::Blocked {
            host: host.to_string(),
            ip,
            class,
        })
    }
}

/// The resolver handed to the HTTP client: looks up, then drops refused addresses.
pub struct GuardedResolver {
    pub inner: Arc<dyn HostResolver>,
    pub policy: Arc<GuardPolicy>,
}

impl reqwest::dns::Resolve for GuardedResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let host = name.as_str().to_string();
        let lookup = self.inner.lookup(&host);
        let policy = Arc::clone(&self.policy);
        Box::pin(async move {
            let ips = lookup.await?;
            let mut refused = None;
            let allowed: Vec<SocketAddr> = ips
                .into_iter()
                .filter(|ip| match policy.refusal(&host, *ip) {
                    Some(refusal) => {
                        refused.get_or_insert(refusal);
                        false
                    }
                    None => true,
                })
                .map(|ip| SocketAddr::new(ip, 0))
                .collect();
            if allowed.is_empty() {
                let err = refused.unwrap_or(ResolveError::NoSuchDomain { host });
                return Err(Box::new(err) as Box<dyn std::error::Error + Send + Sync>);
            }
            Ok(Box::new(allowed.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_errors_tell_missing_names_from_failures() {
        let gone = std::io::Error::other(
            "failed to lookup address information: Name or service not known",
        );
        assert!(matches!(
            classify_lookup_error("x.test".into(), &gone),
            ResolveError::NoSuchDomain { .. }
        ));
        let flaky = std::io::Error::other(
            "failed to lookup address information: Temporary failure in name resolution",
        );
        assert!(matches!(
            classify_lookup_error("x.test".into(), &flaky),
            ResolveError::Failed { .. }
        ));
    }

    #[test]
    fn the_policy_exempts_only_named_hosts_or_everything_when_off() {
        let loopback: IpAddr = "127.0.0.1".parse().expect("ip");
        let mut policy = GuardPolicy::default();
        assert!(policy.refusal("localhost", loopback).is_some());
        policy.allowed_hosts.insert("localhost".into());
        assert!(policy.refusal("LOCALHOST", loopback).is_none());
        assert!(policy.refusal("other", loopback).is_some());
        policy.enabled = false;
        assert!(policy.refusal("other", loopback).is_none());
    }
}
