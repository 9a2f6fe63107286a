//! `citecheck worker --queue URL`: takes claims from the queue under a lease, verifies them
//! through the verifier builder the configuration describes (plus the global per-host limit and
//! the page cache), and records each result with its audit rows exactly once.
//!
//! Up to `--concurrency` claims are in flight per worker (so the judge's concurrency is per
//! worker); the per-host fetch limit is global, held in PostgreSQL (see `hosts`). Leases are
//! renewed while claims are worked on, so only a worker that stopped answering loses its claims.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use citecheck_core::verifier::{DEFAULT_CACHE_PAGES, DEFAULT_PER_HOST};
use citecheck_core::{Check, Origin, Verifier};
use clap::Args;

use super::hosts::{GlobalHostLimit, HostSlots};
use super::{Lease, Queue};
use crate::batch::DEFAULT_CONCURRENCY;
use crate::config::{
    at_least_one, seconds, BatchSection, Config, ConfigError, QueueArg, QueueSection,
};
use crate::error::{AppError, EXIT_INTERRUPTED};
use crate::results::BatchResult;

/// A claim's lease by default: long enough for slow sites and judges, since it is renewed.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(60);

/// `citecheck worker`
#[derive(Debug, Args)]
pub struct WorkerArgs {
    #[command(flatten)]
    pub queue: QueueArg,

    /// Work only on this batch (default: every batch in the queue).
    #[arg(long, value_name = "BATCH")]
    pub batch: Option<String>,

    /// Claims verified at once by this worker (so, judge calls in flight per worker).
    #[arg(long, env = "BATCH_CONCURRENCY", value_name = "N")]
    pub concurrency: Option<usize>,

    /// Fetches in flight per host across ALL workers on this queue.
    #[arg(long, env = "BATCH_PER_HOST", value_name = "N")]
    pub per_host: Option<usize>,

    /// Fetched pages kept in memory for claims that cite the same URL.
    #[arg(long, env = "BATCH_CACHE_PAGES", value_name = "N")]
    pub cache_pages: Option<usize>,

    /// Seconds a taken claim stays this worker's without a renewal; a claim whose worker died
    /// is taken again after this long. Renewed every third of it.
    #[arg(long, env = "CITECHECK_LEASE_SECS", value_name = "SECONDS")]
    pub lease: Option<f64>,

    /// Seconds an idle worker waits before looking for claims again.
    #[arg(long, env = "CITECHECK_POLL_SECS", value_name = "SECONDS")]
    pub poll: Option<f64>,

    /// Exit once no claim is left to do (none waiting, none held by another worker) instead of
    /// waiting for more.
    #[arg(long)]
    pub until_empty: bool,
}

/// How often an idle worker looks for new claims by default.
pub const DEFAULT_POLL: Duration = Duration::from_millis(250);

/// A worker's tuning, resolved: flags (and their variables) over `[queue]`, then `[batch]` for
/// the settings a local batch shares (concurrency, per-host limit, page cache), then defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkerSettings {
    pub concurrency: usize,
    pub per_host: usize,
    pub cache_pages: usize,
    pub lease: Duration,
    pub poll: Duration,
}

impl WorkerSettings {
    pub fn merge(
        args: &WorkerArgs,
        queue: &QueueSection,
        batch: &BatchSection,
    ) -> Result<WorkerSettings, ConfigError> {
        Ok(WorkerSettings {
            concurrency: at_least_one(
                "worker concurrency (--concurrency / BATCH_CONCURRENCY / [queue] concurrency)",
                args.concurrency.or(queue.concurrency).or(batch.concurrency),
                DEFAULT_CONCURRENCY,
            )?,
            per_host: at_least_one(
                "per-host limit (--per-host / BATCH_PER_HOST / [queue] per_host)",
                args.per_host.or(queue.per_host).or(batch.per_host),
                DEFAULT_PER_HOST,
            )?,
            cache_pages: at_least_one(
                "page cache (--cache-pages / BATCH_CACHE_PAGES / [queue] cache_pages)",
                args.cache_pages.or(queue.cache_pages).or(batch.cache_pages),
                DEFAULT_CACHE_PAGES,
            )?,
            lease: seconds(
                "lease (--lease / CITECHECK_LEASE_SECS / [queue] lease_secs)",
                args.lease.or(queue.lease_secs),
                DEFAULT_LEASE,
            )?,
            poll: seconds(
                "poll interval (--poll / CITECHECK_POLL_SECS / [queue] poll_secs)",
                args.poll.or(queue.poll_secs),
                DEFAULT_POLL,
            )?,
        })
    }
}

/// Everything the loop needs.
struct Worker {
    queue: Arc<Queue>,
    verifier: Arc<Verifier>,
    owner: String,
    lease: Duration,
    poll: Duration,
    batch: Option<String>,
    concurrency: usize,
    until_empty: bool,
}

pub async fn run(args: &WorkerArgs, config: &Config) -> Result<u8, AppError> {
    let url = super::url_from(config, &args.queue, "citecheck worker")?;
    let WorkerSettings {
        concurrency,
        per_host,
        cache_pages,
        lease,
        poll,
    } = WorkerSettings::merge(args, &config.queue, &config.batch)?;

    let queue = Arc::new(Queue::open(&url).await.map_err(ConfigError::from)?);
    let slots = HostSlots::new(url.connect().await.map_err(ConfigError::from)?, per_host);
    let engine = crate::engine::build_off_executor(&config.pipeline).await?;
    // Pages are kept in this machine's evidence store (rids resolve where the worker ran);
    // verdicts go to PostgreSQL with the result, not through a recorder, so that they are
    // written in the same transaction as the claim's completion.
    let mut builder = engine
        .builder
        .map_fetcher(|fetcher| GlobalHostLimit::wrap(fetcher, slots))
        .shared_pages(cache_pages, per_host);
    if let Ok(paths) = config.store_paths() {
        builder = crate::storage::Stores::open(&paths).attach_pages(builder);
    }
    let verifier = Arc::new(builder.build().map_err(ConfigError::from)?);
    let owner = format!(
        "{}-{}-{}",
        hostname(),
        std::process::id(),
        &uuid::Uuid::new_v4().simple().to_string()[..8]
    );
    tracing::info!(
        "worker {owner} on {} (concurrency {concurrency}, per-host {per_host}, lease {lease:?}, \
         poll {poll:?})",
        url.target()
    );
    let worker = Worker {
        queue,
        verifier,
        owner,
        lease,
        poll,
        batch: args.batch.clone(),
        concurrency,
        until_empty: args.until_empty,
    };
    let interrupt = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    let worked = worker.work(interrupt).await;
    crate::engine::shutdown(engine.renderer.as_ref()).await;
    let done = worked?;
    if let Some(err) = crate::engine::account_error(engine.crawlbase.as_ref()) {
        return Err(err);
    }
    eprintln!("worker {}: {} claims recorded", worker.owner, done.recorded);
    Ok(if done.interrupted {
        EXIT_INTERRUPTED
    } else {
        0
    })
}

/// What a worker did before it stopped.
struct Done {
    recorded: u64,
    interrupted: bool,
}

impl Worker {
    /// Takes, verifies and records claims until the queue is empty (`--until-empty`) or
    /// `interrupt` resolves; on interruption, gives back the claims in flight.
    async fn work(
        &self,
        interrupt: impl std::future::Future<Output = ()>,
    ) -> Result<Done, AppError> {
        let mut interrupt = std::pin::pin!(interrupt);
        let mut in_flight = tokio::task::JoinSet::new();
        let mut held: HashSet<(String, String)> = HashSet::new();
        let mut recorded = 0u64;
        let mut renew = tokio::time::interval(self.lease / 3);
        renew.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut idle = false;
        loop {
            if in_flight.len() < self.concurrency {
                let wanted = self.concurrency - in_flight.len();
                let leases = self
                    .queue
                    .take(&self.owner, self.lease, self.batch.as_deref(), wanted)
                    .await
                    .context("taking claims from the queue")?;
                idle = leases.is_empty();
                for lease in leases {
                    held.insert((lease.batch_id.clone(), lease.id.clone()));
                    in_flight.spawn(verify(Arc::clone(&self.verifier), lease));
                }
            }
            if in_flight.is_empty() && idle && self.until_empty {
                let counts = self
                    .queue
                    .counts(self.batch.as_deref())
                    .await
                    .context("reading the queue's progress")?;
                if counts.done == counts.total {
                    return Ok(Done {
                        recorded,
                        interrupted: false,
                    });
                }
            }
            tokio::select! {
                biased;
                _ = &mut interrupt => {
                    in_flight.abort_all();
                    let released = self.queue.release(&self.owner).await.unwrap_or(0);
                    eprintln!("interrupted: {released} claims in flight given back to the queue");
                    return Ok(Done { recorded, interrupted: true });
                }
                Some(joined) = in_flight.join_next(), if !in_flight.is_empty() => {
                    let (lease, result) = joined.context("a verification task failed")?;
                    held.remove(&(lease.batch_id.clone(), lease.id.clone()));
                    let kept = self
                        .queue
                        .finish(&self.owner, &lease, &result)
                        .await
                        .with_context(|| format!("recording claim {} of batch {}", lease.id, lease.batch_id))?;
                    if kept {
                        recorded += 1;
                    } else {
                        tracing::warn!(
                            "claim {} of batch {}: the lease ran out and another worker took it; this result is dropped",
                            lease.id, lease.batch_id
                        );
                    }
                }
                _ = renew.tick() => {
                    if !held.is_empty() {
                        if let Err(err) = self.queue.renew(&self.owner, self.lease).await {
                            tracing::warn!("could not renew this worker's leases: {err}");
                        }
                    }
                }
                _ = tokio::time::sleep(self.poll), if idle || in_flight.len() >= self.concurrency => {}
            }
        }
    }
}

/// Verifies one taken claim: afresh, or (queued by `--retry-failed`) only its failed fetches.
async fn verify(verifier: Arc<Verifier>, lease: Lease) -> (Lease, BatchResult) {
    let origin = Origin::new("batch")
        .with_run_id(lease.batch_id.clone())
        .with_claim_id(lease.id.clone());
    let check = match &lease.previous {
        Some(previous) => Check::retrying(previous.verdict.clone()),
        None => Check::new(lease.claim.clone(), lease.urls.clone()),
    };
    let verdict = verifier.verify(check.origin(origin)).await;
    let result = BatchResult {
        id: lease.id.clone(),
        verdict,
    };
    (lease, result)
}

/// This machine's name for worker ids (lease owners), or `worker` when it has none.
fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|name| name.trim().to_string())
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "worker".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        worker: WorkerArgs,
    }

    fn args(flags: &[&str]) -> WorkerArgs {
        let mut argv = vec!["worker"];
        argv.extend_from_slice(flags);
        Cli::try_parse_from(argv).expect("flags parse").worker
    }

    #[test]
    fn the_queue_section_is_used_and_a_flag_overrides_it() {
        let queue: QueueSection = toml::from_str(
            "concurrency = 3\nper_host = 5\ncache_pages = 7\nlease_secs = 90\npoll_secs = 0.5",
        )
        .expect("a [queue] section");
        let batch = BatchSection::default();
        let from_file = WorkerSettings::merge(&args(&[]), &queue, &batch).expect("valid");
        assert_eq!(
            from_file,
            WorkerSettings {
                concurrency: 3,
                per_host: 5,
                cache_pages: 7,
                lease: Duration::from_secs(90),
                poll: Duration::from_millis(500),
            }
        );
        let flagged = WorkerSettings::merge(
            &args(&["--concurrency", "1", "--lease", "5", "--poll", "2"]),
            &queue,
            &batch,
        )
        .expect("valid");
        assert_eq!(flagged.concurrency, 1);
        assert_eq!(flagged.lease, Duration::from_secs(5));
        assert_eq!(flagged.poll, Duration::from_secs(2));
        assert_eq!(
            flagged.per_host, 5,
            "unflagged settings still come from the file"
        );
    }

    #[test]
    fn the_batch_section_and_then_the_defaults_fill_in() {
        let batch = BatchSection {
            concurrency: Some(6),
            ..BatchSection::default()
        };
        let settings =
            WorkerSettings::merge(&args(&[]), &QueueSection::default(), &batch).expect("valid");
        assert_eq!(settings.concurrency, 6);
        assert_eq!(settings.per_host, DEFAULT_PER_HOST);
        assert_eq!(settings.lease, DEFAULT_LEASE);
        assert_eq!(settings.poll, DEFAULT_POLL);
    }

    #[test]
    fn the_example_configs_queue_section_states_the_defaults() {
        let text = include_str!("../../../../citecheck.example.toml");
        let file: crate::config::FileConfig = toml::from_str(text).expect("a valid example");
        let none = BatchSection::default();
        let from_file = WorkerSettings::merge(&args(&[]), &file.queue, &none).expect("valid");
        let defaults =
            WorkerSettings::merge(&args(&[]), &QueueSection::default(), &none).expect("valid");
        assert_eq!(from_file, defaults);
    }

    #[test]
    fn a_zero_poll_interval_is_refused_naming_the_setting() {
        let queue = QueueSection {
            poll_secs: Some(0.0),
            ..QueueSection::default()
        };
        let err = WorkerSettings::merge(&args(&[]), &queue, &BatchSection::default())
            .expect_err("refused");
        assert!(err.to_string().contains("[queue] poll_secs"), "{err}");
    }
}
