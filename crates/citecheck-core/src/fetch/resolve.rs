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
use url::{Host, Url};

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

/// Why [`check_url`] refuses a URL.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum UrlRefusal {
    #[error("the scheme `{0}` is not fetched")]
    Scheme(String),
    #[error("the URL has no host")]
    NoHost,
    #[error(transparent)]
    Address(#[from] ResolveError),
}

/// The guard's verdict on a whole URL, for a client that resolves names itself (a browser):
/// the scheme must be http(s), and a literal address or every address the name resolves to
/// must pass [`GuardPolicy::refusal`]. Stricter than [`GuardedResolver`], which may drop the
/// refused addresses of a name and connect to the rest: a browser would not drop them.
///
/// Exemptions are the direct fetcher's: the policy off, or the host (as written in the URL,
/// or as the bare address) among `allowed_hosts`.
pub async fn check_url(
    policy: &GuardPolicy,
    resolver: &dyn HostResolver,
    url: &Url,
) -> Result<(), UrlRefusal> {
    if !matches!(url.scheme(), "http" | "https") {
        return Err(UrlRefusal::Scheme(url.scheme().to_string()));
    }
    let host = url.host().ok_or(UrlRefusal::NoHost)?;
    let host_text = url.host_str().unwrap_or_default();
    let ips = match host {
        Host::Domain(name) => {
            if policy.is_exempt(name) {
                return Ok(());
            }
            resolver.lookup(name).await?
        }
        Host::Ipv4(ip) => vec![IpAddr::V4(ip)],
        Host::Ipv6(ip) => vec![IpAddr::V6(ip)],
    };
    let bare = host_text.trim_start_matches('[').trim_end_matches(']');
    if policy.is_exempt(host_text) || policy.is_exempt(bare) {
        return Ok(());
    }
    if ips.is_empty() {
        return Err(ResolveError::NoSuchDomain {
            host: bare.to_string(),
        }
        .into());
    }
    match ips.into_iter().find_map(|ip| policy.refusal(bare, ip)) {
        Some(refusal) => Err(refusal.into()),
        None => Ok(()),
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

    fn check(policy: &GuardPolicy, url: &str) -> Result<(), UrlRefusal> {
        let resolver = StaticResolver::new()
            .with("public.test", &["93.184.216.34".parse().expect("ip")])
            .with(
                "mixed.test",
                &[
                    "93.184.216.34".parse().expect("ip"),
                    "10.0.0.1".parse().expect("ip"),
                ],
            )
            .with("localhost", &["127.0.0.1".parse().expect("ip")]);
        let url = Url::parse(url).expect("test URLs parse");
        futures::executor::block_on(check_url(policy, &resolver, &url))
    }

    #[test]
    fn whole_urls_are_checked_by_scheme_literal_address_and_every_resolved_address() {
        let mut policy = GuardPolicy::default();
        policy.allowed_hosts.insert("127.0.0.1".into());
        assert_eq!(check(&policy, "http://public.test/a"), Ok(()));
        assert_eq!(check(&policy, "https://127.0.0.1:9/x"), Ok(()));
        for refused in [
            "http://10.0.0.1/",
            "http://169.254.169.254/latest/meta-data/",
            "http://127.0.0.2:8080/",
            "http://[::1]/",
            "http://localhost:1234/",
            "http://mixed.test/",
        ] {
            assert!(
                matches!(
                    check(&policy, refused),
                    Err(UrlRefusal::Address(ResolveError::Blocked { .. }))
                ),
                "{refused}"
            );
        }
        assert_eq!(
            check(&policy, "ftp://public.test/"),
            Err(UrlRefusal::Scheme("ftp".into()))
        );
        assert!(matches!(
            check(&policy, "http://missing.test/"),
            Err(UrlRefusal::Address(ResolveError::NoSuchDomain { .. }))
        ));
        policy.enabled = false;
        assert_eq!(check(&policy, "http://10.0.0.1/"), Ok(()));
    }
}
