//! How many forward passes to run at once: `CITECHECK_EMBED_THREADS` when set, else a number
//! that fits the machine, decided in two steps:
//!
//! 1. Count the physical cores this process may use: CPUs that are SMT siblings
//!    (`/sys/devices/system/cpu/cpu*/topology/thread_siblings_list`) share one core's
//!    floating-point units, so they count once; the count never exceeds what the scheduler grants
//!    (`available_parallelism`, which honours affinity and cgroup quotas).
//! 2. When that leaves more than one, measure: the backend's own matrix product runs for a few
//!    milliseconds on one thread, then on all of them at once. Virtual CPUs can be cores on paper
//!    and one core in practice (the 2-vCPU Zen 4 machine reports two cores without SMT, yet two
//!    threads of AVX-512 products run slower in sum than one); the extra threads are used only if
//!    they add at least a third of a thread's throughput each.
//!
//! The probe costs ~50 ms, next to ~200 ms for loading the weights, and runs at most once per
//! backend per process: `citecheck model info` and the load that follows it (or a server's
//! several rankers) share the first decision instead of measuring again, which would cost the
//! time again and could, on a busy machine, give a different answer within one process.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::error::EmbedError;
use crate::kernels::Backend;

/// The environment variable that fixes the number of inference threads.
pub const THREADS_ENV: &str = "CITECHECK_EMBED_THREADS";

/// The most threads accepted from the environment or a caller.
pub const MAX_THREADS: usize = 256;

/// How the thread count was decided, for logs and `citecheck model info`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThreadSource {
    /// Given by the caller or `CITECHECK_EMBED_THREADS`.
    Configured,
    /// One physical core available: nothing to measure.
    SingleCore,
    /// Measured at load: `cores` physical cores, `speedup` (x100) of all of them over one.
    Measured { cores: usize, speedup_pct: u32 },
}

impl std::fmt::Display for ThreadSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Configured => f.write_str("configured"),
            Self::SingleCore => f.write_str("one physical core"),
            Self::Measured { cores, speedup_pct } => write!(
                f,
                "measured: {cores} cores give {:.2}x one",
                f64::from(*speedup_pct) / 100.0
            ),
        }
    }
}

/// A thread count as `CITECHECK_EMBED_THREADS` spells it: a whole number from 1 to 256.
pub fn parse_threads(value: &str) -> Result<usize, EmbedError> {
    match value.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        _ => Err(EmbedError::InvalidThreads {
            value: value.to_string(),
        }),
    }
}

/// `CITECHECK_EMBED_THREADS`, if set and non-empty.
pub fn threads_from_env() -> Result<Option<usize>, EmbedError> {
    match std::env::var(THREADS_ENV) {
        Ok(v) if !v.trim().is_empty() => parse_threads(&v).map(Some),
        _ => Ok(None),
    }
}

/// Physical cores this process may run on (at least 1).
pub fn physical_cores() -> usize {
    let granted = std::thread::available_parallelism().map_or(1, usize::from);
    let mut cores = BTreeSet::new();
    if let Ok(entries) = std::fs::read_dir("/sys/devices/system/cpu") {
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let is_cpu = name
                .strip_prefix("cpu")
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
            if !is_cpu {
                continue;
            }
            if let Ok(siblings) =
                std::fs::read_to_string(entry.path().join("topology/thread_siblings_list"))
            {
                cores.insert(siblings.trim().to_string());
            }
        }
    }
    if cores.is_empty() {
        granted
    } else {
        cores.len().min(granted).max(1)
    }
}

/// The thread count for `backend` on this machine, and how it was found: measured on the first
/// call for each backend, the same answer afterwards.
pub(crate) fn fit_machine(backend: Backend) -> (usize, ThreadSource) {
    static FITS: [OnceLock<(usize, ThreadSource)>; Backend::ALL.len()] =
        [const { OnceLock::new() }; Backend::ALL.len()];
    // Every backend is in `ALL`; the fallback index only keeps this free of a panic path.
    let slot = Backend::ALL
        .iter()
        .position(|b| *b == backend)
        .unwrap_or(Backend::ALL.len() - 1);
    *FITS[slot].get_or_init(|| measure(backend))
}

/// How many times [`measure`] ran in this process (for the test of the cache).
static MEASUREMENTS: AtomicUsize = AtomicUsize::new(0);

/// [`fit_machine`] without the cache: counts the cores and, when there are several, probes.
fn measure(backend: Backend) -> (usize, ThreadSource) {
    MEASUREMENTS.fetch_add(1, Ordering::Relaxed);
    let cores = physical_cores();
    if cores <= 1 {
        return (1, ThreadSource::SingleCore);
    }
    let probe = crate::kernels::ThroughputProbe::new(backend);
    // The best of five: a busy neighbour can only make a run slower, never faster. Fewer and
    // shorter runs (three of ~2 ms) were seen to report 0.95x on two vCPUs that a minute later
    // ran the model 1.9x faster than one.
    let mut one = Duration::MAX;
    let mut all = Duration::MAX;
    for _ in 0..5 {
        let started = Instant::now();
        probe.run();
        one = one.min(started.elapsed());
        let started = Instant::now();
        std::thread::scope(|s| {
            for _ in 0..cores {
                s.spawn(|| probe.run());
            }
        });
        all = all.min(started.elapsed());
    }
    // `cores` times the work in `all` against one share in `one`.
    let speedup = cores as f64 * one.as_secs_f64() / all.as_secs_f64().max(1e-9);
    let speedup_pct = (speedup * 100.0).round() as u32;
    let per_extra = (speedup - 1.0) / (cores - 1) as f64;
    let threads = if per_extra >= 1.0 / 3.0 { cores } else { 1 };
    (threads, ThreadSource::Measured { cores, speedup_pct })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_counts_parse_from_1_to_256_only() {
        assert_eq!(parse_threads(" 4 ").ok(), Some(4));
        assert_eq!(parse_threads("1").ok(), Some(1));
        assert_eq!(parse_threads("256").ok(), Some(256));
        for bad in ["0", "257", "-1", "two", "1.5", ""] {
            let err = parse_threads(bad).expect_err(bad).to_string();
            assert!(err.contains(&format!("{bad:?}")), "{err}");
        }
    }

    #[test]
    fn the_machine_has_at_least_one_core_and_the_fit_uses_no_more() {
        let cores = physical_cores();
        assert!(cores >= 1);
        let (threads, source) = fit_machine(Backend::Portable);
        assert!((1..=cores).contains(&threads), "{threads} of {cores}");
        match source {
            ThreadSource::SingleCore => assert_eq!(cores, 1),
            ThreadSource::Measured { cores: c, .. } => assert_eq!(c, cores),
            ThreadSource::Configured => panic!("nothing was configured"),
        }
    }

    #[test]
    fn the_machine_is_measured_once_per_backend_per_process() {
        let first: Vec<_> = Backend::ALL
            .into_iter()
            .filter(|b| b.is_supported())
            .map(fit_machine)
            .collect();
        let after_first = MEASUREMENTS.load(Ordering::Relaxed);
        let again: Vec<_> = Backend::ALL
            .into_iter()
            .filter(|b| b.is_supported())
            .map(fit_machine)
            .collect();
        assert_eq!(first, again, "a second call gave another answer");
        assert_eq!(MEASUREMENTS.load(Ordering::Relaxed), after_first);
        assert!(
            after_first <= Backend::ALL.len(),
            "{after_first} measurements"
        );
    }
}
