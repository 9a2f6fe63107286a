//! The bounds one page's conversion stays within: how complex its markup may be, and how long
//! the work may run.
//!
//! Pages are chosen by a model or by whoever calls the service, so each is hostile until
//! measured. [`PageLimits`] says what is measured before any tree is built or any library that
//! recurses is called; [`Budget`] is the time a conversion may take and the flag its caller
//! raises on leaving, checked by the work between its steps.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use thiserror::Error;

/// Deeper trees are flattened to text: the readability pass is quadratic in depth on a chain of
/// nested elements, and the Markdown converter recurses once per level. Real articles nest a few
/// dozen levels.
pub const MAX_DEPTH: usize = 256;

/// Pages with more elements are flattened to text without building a tree: a tree costs about
/// 300 bytes per node, and the readability pass copies it several times.
pub const MAX_ELEMENTS: usize = 100_000;

/// More attributes than this on one tag refuses the page: the HTML tokenizer compares each new
/// attribute with every earlier one on the same tag, so its cost is quadratic in this count.
pub const MAX_ATTRIBUTES_PER_ELEMENT: usize = 256;

/// More attributes than this in all refuses the page.
pub const MAX_ATTRIBUTES: usize = 1_000_000;

/// Time one page's conversion may take, within what is left of the fetch timeout.
pub const DEFAULT_CONVERSION_BUDGET: Duration = Duration::from_secs(10);

/// What a page's markup may contain before it is flattened or refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageLimits {
    pub max_depth: usize,
    pub max_elements: usize,
    pub max_attributes_per_element: usize,
    pub max_attributes: usize,
}

impl Default for PageLimits {
    fn default() -> Self {
        PageLimits {
            max_depth: MAX_DEPTH,
            max_elements: MAX_ELEMENTS,
            max_attributes_per_element: MAX_ATTRIBUTES_PER_ELEMENT,
            max_attributes: MAX_ATTRIBUTES,
        }
    }
}

/// One limit a page went over, with the count found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overflow {
    pub what: Measure,
    pub found: usize,
    pub limit: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    Depth,
    Elements,
    AttributesOnOneElement,
    Attributes,
}

impl std::fmt::Display for Overflow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = match self.what {
            Measure::Depth => "levels of nested elements",
            Measure::Elements => "elements",
            Measure::AttributesOnOneElement => "attributes on one element",
            Measure::Attributes => "attributes",
        };
        write!(f, "{} {what}, over the limit of {}", self.found, self.limit)
    }
}

impl PageLimits {
    /// The first limit `found` goes over, checking `measure` against its bound.
    pub fn check(&self, measure: Measure, found: usize) -> Result<(), Overflow> {
        let limit = match measure {
            Measure::Depth => self.max_depth,
            Measure::Elements => self.max_elements,
            Measure::AttributesOnOneElement => self.max_attributes_per_element,
            Measure::Attributes => self.max_attributes,
        };
        if found > limit {
            Err(Overflow {
                what: measure,
                found,
                limit,
            })
        } else {
            Ok(())
        }
    }
}

/// Why work stopped before it was done.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum Exhausted {
    #[error("the page did not convert within its {}s budget", .0.as_secs_f32())]
    Time(Duration),
    #[error("the conversion was abandoned by its caller")]
    Abandoned,
}

/// A deadline and an abandon flag shared by a caller and the work it started. Cloning shares the
/// flag.
///
/// A budget grants its work some time, never past an outer limit (the fetch timeout). Work that
/// must wait for a worker first is [`Budget::restarted`] when it starts, so the wait is bounded
/// by the outer limit but does not eat into the work's own time.
#[derive(Debug, Clone)]
pub struct Budget {
    granted: Duration,
    deadline: Instant,
    limit: Instant,
    abandoned: Arc<AtomicBool>,
}

impl Budget {
    /// A budget of `granted` from now.
    pub fn new(granted: Duration) -> Budget {
        let now = Instant::now();
        let deadline = now.checked_add(granted).unwrap_or(now);
        Budget {
            granted,
            deadline,
            limit: deadline,
            abandoned: Arc::new(AtomicBool::new(false)),
        }
    }

    /// A budget of `granted` from now, ending no later than `limit`.
    pub fn within(granted: Duration, limit: Instant) -> Budget {
        let mut budget = Budget::new(granted);
        budget.limit = limit;
        budget.deadline = budget.deadline.min(limit);
        budget
    }

    /// The same budget granted afresh from now (still within its limit), sharing the flag.
    pub fn restarted(&self) -> Budget {
        let now = Instant::now();
        Budget {
            deadline: now.checked_add(self.granted).unwrap_or(now).min(self.limit),
            ..self.clone()
        }
    }

    /// When the work must stop.
    pub fn deadline(&self) -> Instant {
        self.deadline
    }

    /// The outer limit no restart goes past.
    pub fn limit(&self) -> Instant {
        self.limit
    }

    /// Tells the work to stop at its next check.
    pub fn abandon(&self) {
        self.abandoned.store(true, Ordering::Relaxed);
    }

    /// Whether the work may go on.
    pub fn check(&self) -> Result<(), Exhausted> {
        if self.abandoned.load(Ordering::Relaxed) {
            return Err(Exhausted::Abandoned);
        }
        if Instant::now() >= self.deadline {
            return Err(Exhausted::Time(self.granted));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_over_its_limit_names_the_measure_and_both_numbers() {
        let limits = PageLimits::default();
        assert!(limits.check(Measure::Depth, MAX_DEPTH).is_ok());
        let over = limits
            .check(Measure::Depth, MAX_DEPTH + 1)
            .expect_err("one more level is over");
        assert_eq!(
            over.to_string(),
            format!("257 levels of nested elements, over the limit of {MAX_DEPTH}")
        );
    }

    #[test]
    fn a_budget_ends_at_its_deadline_or_when_abandoned() {
        let budget = Budget::new(Duration::from_secs(60));
        assert_eq!(budget.check(), Ok(()));
        let shared = budget.clone();
        shared.abandon();
        assert_eq!(budget.check(), Err(Exhausted::Abandoned));

        let spent = Budget::new(Duration::ZERO);
        assert_eq!(spent.check(), Err(Exhausted::Time(Duration::ZERO)));
        let capped = Budget::within(Duration::from_secs(60), Instant::now());
        assert!(capped.check().is_err());
    }

    #[test]
    fn a_restarted_budget_gets_its_time_afresh_but_never_past_its_limit() {
        let waited = Budget::within(
            Duration::from_millis(1),
            Instant::now() + Duration::from_secs(60),
        );
        std::thread::sleep(Duration::from_millis(5));
        assert!(waited.check().is_err());
        assert_eq!(waited.restarted().check(), Ok(()));

        let limited = Budget::within(Duration::from_secs(60), Instant::now());
        assert!(limited.restarted().check().is_err());
        let shared = waited.restarted();
        waited.abandon();
        assert_eq!(shared.check(), Err(Exhausted::Abandoned));
    }
}
