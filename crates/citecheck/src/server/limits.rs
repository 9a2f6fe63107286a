//! Bounded work: at most `max_concurrent` verifications run at once, and each has a deadline.
//!
//! A request past the limit is refused at once with 429 and a `Retry-After` instead of waiting in
//! a queue: a queue in front of a slow pipeline only turns overload into timeouts, and the client
//! knows better than the server whether to retry. `Retry-After` follows the recent average time a
//! verification takes, so clients come back about when a slot frees up.

use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::error::ApiError;

/// Bounds on the advice given in `Retry-After`.
const MIN_RETRY_AFTER: Duration = Duration::from_secs(1);
const MAX_RETRY_AFTER: Duration = Duration::from_secs(60);

/// Hands out verification slots.
#[derive(Debug)]
pub struct Limiter {
    permits: Arc<Semaphore>,
    max_concurrent: usize,
    /// Exponentially weighted moving average of verification times, in milliseconds.
    average_ms: AtomicU64,
}

/// One verification slot, held until dropped.
#[derive(Debug)]
pub struct Slot {
    _permit: OwnedSemaphorePermit,
    started: Instant,
    limiter: Arc<Limiter>,
}

impl Limiter {
    pub fn new(max_concurrent: usize) -> Arc<Limiter> {
        Arc::new(Limiter {
            permits: Arc::new(Semaphore::new(max_concurrent)),
            max_concurrent,
            average_ms: AtomicU64::new(0),
        })
    }

    /// A slot now, or a 429 saying when to come back.
    pub fn try_acquire(self: &Arc<Self>) -> Result<Slot, ApiError> {
        match Arc::clone(&self.permits).try_acquire_owned() {
            Ok(permit) => Ok(Slot {
                _permit: permit,
                started: Instant::now(),
                limiter: Arc::clone(self),
            }),
            Err(_) => Err(ApiError::busy(self.max_concurrent, self.retry_after())),
        }
    }

    /// Verifications running now.
    pub fn in_use(&self) -> usize {
        self.max_concurrent
            .saturating_sub(self.permits.available_permits())
    }

    pub fn max_concurrent(&self) -> usize {
        self.max_concurrent
    }

    /// The recent average verification time, within sensible bounds.
    pub fn retry_after(&self) -> Duration {
        Duration::from_millis(self.average_ms.load(Ordering::Relaxed))
            .clamp(MIN_RETRY_AFTER, MAX_RETRY_AFTER)
    }

    fn record(&self, took: Duration) {
        let sample = u64::try_from(took.as_millis()).unwrap_or(u64::MAX);
        // A lost update under contention only skews an estimate; no lock is worth that.
        let old = self.average_ms.load(Ordering::Relaxed);
        let new = if old == 0 {
            sample
        } else {
            old.saturating_mul(7).saturating_add(sample) / 8
        };
        self.average_ms.store(new, Ordering::Relaxed);
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.limiter.record(self.started.elapsed());
    }
}

/// Runs `work` with a deadline; past it the work is dropped (cancelling its fetches and judge
/// calls) and the answer is a 504.
pub async fn within_deadline<F: Future>(
    deadline: Duration,
    work: F,
) -> Result<F::Output, ApiError> {
    tokio::time::timeout(deadline, work)
        .await
        .map_err(|_| ApiError::deadline_exceeded(deadline))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::StatusCode;

    #[test]
    fn past_the_limit_the_answer_is_429_until_a_slot_frees() {
        let limiter = Limiter::new(2);
        let a = limiter.try_acquire().expect("first slot");
        let _b = limiter.try_acquire().expect("second slot");
        assert_eq!(limiter.in_use(), 2);
        let refused = limiter.try_acquire().expect_err("no third slot");
        assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(refused.code(), "busy");
        drop(a);
        assert_eq!(limiter.in_use(), 1);
        assert!(limiter.try_acquire().is_ok());
    }

    #[test]
    fn retry_after_follows_the_average_within_bounds() {
        let limiter = Limiter::new(1);
        assert_eq!(limiter.retry_after(), MIN_RETRY_AFTER);
        limiter.record(Duration::from_secs(8));
        assert_eq!(limiter.retry_after(), Duration::from_secs(8));
        limiter.record(Duration::from_secs(16));
        assert_eq!(limiter.retry_after(), Duration::from_secs(9));
        limiter.record(Duration::from_secs(3600));
        assert_eq!(limiter.retry_after(), MAX_RETRY_AFTER);
    }

    #[tokio::test(start_paused = true)]
    async fn work_past_its_deadline_is_a_504() {
        let err = within_deadline(Duration::from_secs(1), std::future::pending::<()>())
            .await
            .expect_err("never finishes");
        assert_eq!(err.status(), StatusCode::GATEWAY_TIMEOUT);
        assert!(err.message().contains("1s"), "{}", err.message());
        let done = within_deadline(Duration::from_secs(1), async { 7 }).await;
        assert_eq!(done.expect("in time"), 7);
    }
}
