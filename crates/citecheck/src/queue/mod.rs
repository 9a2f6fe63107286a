//! The shared queue on PostgreSQL: `citecheck batch IN.jsonl --queue URL` enqueues a batch's
//! claims, any number of `citecheck worker --queue URL` processes (on any machines) take them
//! under a lease, verify them through the same [`Verifier`](citecheck_core::Verifier) builder as
//! every other front end, and write each claim's result and audit rows in one transaction;
//! `citecheck batch status|export BATCH` read them back.
//!
//! Takes: a connection string (`--queue` / `CITECHECK_QUEUE_URL`). Gives: [`Queue`], a migrated
//! connection. Guarantees: the password never appears in a log line or an error (only
//! [`Target`], which has none, is ever shown); an unreachable server or a schema newer than this
//! citecheck is a [`QueueError`] that the command line reports with exit code 3.
//!
//! Why `FOR UPDATE SKIP LOCKED` with leases rather than a queue crate: see README ("Scaling out").

use std::fmt;
use std::time::Duration;

use tokio_postgres::{Client, NoTls};

use crate::config::{Config, ConfigError, QueueArg};

pub mod audit;
pub mod command;
pub mod enqueue;
pub mod hosts;
pub mod schema;
pub mod store;
pub mod worker;

pub use store::{ClaimCounts, Lease, Queue};

/// The environment variable holding the connection string.
pub const QUEUE_URL_VAR: &str = "CITECHECK_QUEUE_URL";

/// Why the queue could not be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum QueueError {
    /// The string is not a PostgreSQL connection string. Its text is not repeated: it may hold
    /// a password.
    #[error("the queue URL (--queue / {QUEUE_URL_VAR}) is not a PostgreSQL connection string")]
    BadUrl(#[source] tokio_postgres::Error),
    #[error("cannot reach the queue at {target}")]
    Unreachable {
        target: Target,
        #[source]
        source: tokio_postgres::Error,
    },
    #[error(
        "the queue at {target} has schema version {found}, newer than this citecheck knows \
         ({known}); use a newer citecheck"
    )]
    TooNew {
        target: Target,
        found: i32,
        known: usize,
    },
    #[error("migrating the queue's schema at {target}")]
    Migrate {
        target: Target,
        #[source]
        source: tokio_postgres::Error,
    },
}

/// Where a queue is, as shown to people: user, hosts, ports and database, never the password.
#[derive(Debug, Clone)]
pub struct Target(String);

impl Target {
    fn of(config: &tokio_postgres::Config) -> Target {
        let hosts: Vec<String> = config
            .get_hosts()
            .iter()
            .map(|host| match host {
                tokio_postgres::config::Host::Tcp(name) => name.clone(),
                tokio_postgres::config::Host::Unix(path) => path.display().to_string(),
            })
            .collect();
        let ports: Vec<String> = config.get_ports().iter().map(u16::to_string).collect();
        let user = config.get_user().unwrap_or("");
        let db = config.get_dbname().unwrap_or("");
        Target(format!(
            "postgres://{user}@{}:{}/{db}",
            hosts.join(","),
            ports.join(",")
        ))
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A parsed connection string.
#[derive(Clone)]
pub struct QueueUrl {
    config: tokio_postgres::Config,
    target: Target,
}

impl fmt::Debug for QueueUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("QueueUrl").field(&self.target.0).finish()
    }
}

impl QueueUrl {
    pub fn parse(text: &str) -> Result<QueueUrl, QueueError> {
        let mut config: tokio_postgres::Config = text.parse().map_err(QueueError::BadUrl)?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(10));
        }
        config.application_name("citecheck");
        let target = Target::of(&config);
        Ok(QueueUrl { config, target })
    }

    pub fn target(&self) -> &Target {
        &self.target
    }

    /// One new connection; its driver task runs on the current runtime until the client drops.
    pub async fn connect(&self) -> Result<Client, QueueError> {
        let (client, connection) =
            self.config
                .connect(NoTls)
                .await
                .map_err(|source| QueueError::Unreachable {
                    target: self.target.clone(),
                    source,
                })?;
        let target = self.target.clone();
        tokio::spawn(async move {
            if let Err(err) = connection.await {
                tracing::warn!("connection to the queue at {target} ended: {err}");
            }
        });
        Ok(client)
    }
}

impl From<QueueError> for ConfigError {
    fn from(err: QueueError) -> ConfigError {
        ConfigError::Unavailable {
            what: "the queue",
            source: Box::new(err),
        }
    }
}

/// The queue `arg` (else the config file) names, parsed; a usage error (exit 3) when missing
/// or malformed.
pub fn url_from(config: &Config, arg: &QueueArg, command: &str) -> Result<QueueUrl, ConfigError> {
    Ok(QueueUrl::parse(config.require_queue_url(arg, command)?)?)
}
