//! Retry timing shared by every HTTP client in the pipeline (the direct fetcher, Crawlbase, the
//! LLM judges): exponential backoff with jitter, and the server's own `Retry-After`.

use std::time::Duration;

use reqwest::header::{HeaderMap, RETRY_AFTER};

/// The delay before retry number `retry` (1 = the first retry): `base * 2^(retry-1)`, drawn from
/// its upper half so that concurrent clients do not retry in step.
pub fn backoff(base: Duration, retry: u32) -> Duration {
    let full = base.saturating_mul(1 << retry.saturating_sub(1).min(16));
    full / 2 + full.mul_f64(0.5 * random_fraction())
}

/// `Retry-After` as seconds or an HTTP date (a date in the past means now).
pub fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let value = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let when = httpdate::parse_http_date(value).ok()?;
    Some(
        when.duration_since(std::time::SystemTime::now())
            .unwrap_or(Duration::ZERO),
    )
}

/// A fraction in [0, 1) for jitter; quality does not matter, independence between calls does.
fn random_fraction() -> f64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default(),
    );
    (hasher.finish() >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_and_stays_in_the_upper_half_of_each_step() {
        let base = Duration::from_millis(100);
        for retry in 1..6u32 {
            let step = base * (1 << (retry - 1));
            let wait = backoff(base, retry);
            assert!(wait >= step / 2 && wait <= step, "{retry}: {wait:?}");
        }
    }
}
