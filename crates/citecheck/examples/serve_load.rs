//! Load generator for `citecheck serve` (run by scripts/bench-server.sh).
//!
//! Serves the development set's fixture pages on 127.0.0.1, starts the given `citecheck` binary
//! as `serve` with the address guard off (the site is on loopback), then for each concurrency
//! level sends a fixed number of `POST /verify` requests (the devset's claims, in turn) from that
//! many clients, each sending its next request as soon as the last one is answered. Prints
//! requests per second and latency percentiles per level, and the server's peak resident memory
//! (VmHWM from /proc). Every connection is on loopback.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use clap::Parser;
use serde::Deserialize;

use citecheck::static_site::StaticSite;

#[derive(Debug, Parser)]
struct Args {
    /// The citecheck binary to serve with.
    #[arg(long)]
    server: PathBuf,
    /// The fixture site's root directory.
    #[arg(long, default_value = "fixtures/devset/pages")]
    site: PathBuf,
    /// Claims to send (JSONL with `claim` and site-relative `urls`).
    #[arg(long, default_value = "fixtures/devset/claims.jsonl")]
    claims: PathBuf,
    /// Concurrent clients, one level per value.
    #[arg(long, value_delimiter = ',', default_value = "8,64")]
    concurrency: Vec<usize>,
    /// Requests sent at each level.
    #[arg(long, default_value_t = 2000)]
    requests: usize,
    /// Requests sent before measuring (not counted).
    #[arg(long, default_value_t = 200)]
    warmup: usize,
    /// Arguments passed to `citecheck` before `serve` (e.g. the judge).
    #[arg(last = true)]
    server_args: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct DevClaim {
    claim: String,
    urls: Vec<String>,
}

struct Level {
    clients: usize,
    requests: usize,
    failed: usize,
    seconds: f64,
    latencies: Vec<Duration>,
}

impl Level {
    fn percentile(&self, p: f64) -> Duration {
        if self.latencies.is_empty() {
            return Duration::ZERO;
        }
        let rank = ((p / 100.0) * self.latencies.len() as f64).ceil() as usize;
        self.latencies[rank.clamp(1, self.latencies.len()) - 1]
    }
}

/// Stops the server child when dropped, also on an early error.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let site = StaticSite::serve(&args.site).await?;
    let bodies: Vec<String> = std::fs::read_to_string(&args.claims)
        .with_context(|| format!("reading {}", args.claims.display()))?
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let claim: DevClaim = serde_json::from_str(line)?;
            let urls: Vec<String> = claim
                .urls
                .iter()
                .map(|u| format!("{}{u}", site.base_url()))
                .collect();
            Ok(serde_json::json!({"claim": claim.claim, "urls": urls}).to_string())
        })
        .collect::<anyhow::Result<_>>()?;
    if bodies.is_empty() {
        bail!("no claims in {}", args.claims.display());
    }

    let port = free_port()?;
    let max_clients = args.concurrency.iter().copied().max().unwrap_or(1);
    let child = Command::new(&args.server)
        .args(&args.server_args)
        .args(["--quiet", "--allow-private-hosts=true", "serve", "--listen"])
        .arg(format!("127.0.0.1:{port}"))
        // Every client gets a slot: this measures throughput, not the 429 path.
        .args(["--max-concurrent", &max_clients.to_string()])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .with_context(|| format!("starting {}", args.server.display()))?;
    let mut server = Server(child);
    let pid = server.0.id();
    let base = format!("http://127.0.0.1:{port}");
    let client = reqwest::Client::builder()
        .no_proxy()
        .pool_max_idle_per_host(max_clients)
        .build()?;
    wait_healthy(&client, &base, &mut server).await?;
    let bodies = Arc::new(bodies);

    run_level(&client, &base, &bodies, 8.min(max_clients), args.warmup).await?;
    let mut levels = Vec::new();
    for &clients in &args.concurrency {
        levels.push(run_level(&client, &base, &bodies, clients, args.requests).await?);
    }
    let peak_kib = proc_status_kib(pid, "VmHWM")?;

    println!("| clients | requests | failed | requests/s | p50 ms | p99 ms |");
    println!("|---:|---:|---:|---:|---:|---:|");
    for level in &levels {
        println!(
            "| {} | {} | {} | {:.1} | {:.1} | {:.1} |",
            level.clients,
            level.requests,
            level.failed,
            level.requests as f64 / level.seconds,
            level.percentile(50.0).as_secs_f64() * 1000.0,
            level.percentile(99.0).as_secs_f64() * 1000.0,
        );
    }
    println!(
        "\nserver peak resident memory (VmHWM): {:.1} MiB",
        peak_kib as f64 / 1024.0
    );
    if levels.iter().any(|l| l.failed > 0) {
        bail!("some requests did not get a 200");
    }
    Ok(())
}

async fn run_level(
    client: &reqwest::Client,
    base: &str,
    bodies: &Arc<Vec<String>>,
    clients: usize,
    requests: usize,
) -> anyhow::Result<Level> {
    let next = Arc::new(AtomicUsize::new(0));
    let url = format!("{base}/verify");
    let started = Instant::now();
    let mut workers = Vec::new();
    for _ in 0..clients {
        let (client, url, bodies, next) = (
            client.clone(),
            url.clone(),
            Arc::clone(bodies),
            Arc::clone(&next),
        );
        workers.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            let mut failed = 0usize;
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= requests {
                    break;
                }
                let body = bodies[i % bodies.len()].clone();
                let sent = Instant::now();
                let ok = match client
                    .post(&url)
                    .header("content-type", "application/json")
                    .body(body)
                    .send()
                    .await
                {
                    Ok(response) => {
                        let status = response.status();
                        response.bytes().await.is_ok() && status.is_success()
                    }
                    Err(_) => false,
                };
                latencies.push(sent.elapsed());
                failed += usize::from(!ok);
            }
            (latencies, failed)
        }));
    }
    let mut latencies = Vec::with_capacity(requests);
    let mut failed = 0;
    for worker in workers {
        let (mut l, f) = worker.await?;
        latencies.append(&mut l);
        failed += f;
    }
    let seconds = started.elapsed().as_secs_f64();
    latencies.sort();
    Ok(Level {
        clients,
        requests,
        failed,
        seconds,
        latencies,
    })
}

async fn wait_healthy(
    client: &reqwest::Client,
    base: &str,
    server: &mut Server,
) -> anyhow::Result<()> {
    for _ in 0..200 {
        if let Some(status) = server.0.try_wait()? {
            bail!("the server exited at start: {status}");
        }
        if let Ok(response) = client.get(format!("{base}/health")).send().await {
            if response.status().is_success() {
                return Ok(());
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    bail!("the server did not answer /health within 10 s")
}

/// A port free right now on 127.0.0.1 (the server binds it a moment later).
fn free_port() -> anyhow::Result<u16> {
    let listener = std::net::TcpListener::bind(("127.0.0.1", 0))?;
    Ok(listener.local_addr()?.port())
}

fn proc_status_kib(pid: u32, field: &str) -> anyhow::Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .context("reading /proc (Linux only)")?;
    status
        .lines()
        .find_map(|line| {
            let rest = line.strip_prefix(field)?.strip_prefix(':')?;
            rest.trim().trim_end_matches("kB").trim().parse().ok()
        })
        .with_context(|| format!("no {field} in /proc/{pid}/status"))
}
