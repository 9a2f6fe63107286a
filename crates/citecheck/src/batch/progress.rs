//! Progress on stderr: a bar with rate and ETA when stderr is a terminal, a plain line every few
//! seconds otherwise (logs, CI), nothing with `--quiet`.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How often a plain progress line is printed when stderr is not a terminal.
pub const PLAIN_INTERVAL: Duration = Duration::from_secs(10);

pub struct Progress {
    bar: Option<ProgressBar>,
    plain: bool,
    total: Option<u64>,
    claims: u64,
    citations: u64,
    started: Instant,
    last_line: Instant,
}

impl Progress {
    /// `total`: the number of claims expected, when known.
    pub fn new(total: Option<u64>, quiet: bool) -> Progress {
        let now = Instant::now();
        let terminal = std::io::stderr().is_terminal();
        let bar = (terminal && !quiet).then(|| {
            let bar = match total {
                Some(total) => {
                    ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
                }
                None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()),
            };
            let template = if total.is_some() {
                "{bar:24} {pos}/{len} claims, {msg}, eta {eta}"
            } else {
                "{spinner} {pos} claims, {msg}"
            };
            if let Ok(style) = ProgressStyle::with_template(template) {
                bar.set_style(style);
            }
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        Progress {
            plain: !terminal && !quiet,
            bar,
            total,
            claims: 0,
            citations: 0,
            started: now,
            last_line: now,
        }
    }

    /// One more claim done, with this many citations.
    pub fn claim_done(&mut self, citations: u64) {
        self.claims += 1;
        self.citations += citations;
        if let Some(bar) = &self.bar {
            bar.inc(1);
            bar.set_message(format!(
                "{} citations ({:.1}/s)",
                self.citations,
                self.rate()
            ));
        }
    }

    /// A line that was skipped without work (bad or already done) still counts towards the total.
    pub fn skipped(&mut self) {
        if let Some(total) = self.total.as_mut() {
            *total = total.saturating_sub(1);
            if let Some(bar) = &self.bar {
                bar.set_length(*total);
            }
        }
    }

    /// Prints a message above the bar (or plainly).
    pub fn message(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| eprintln!("{text}")),
            None => eprintln!("{text}"),
        }
    }

    /// Prints the periodic plain line when it is due.
    pub fn tick(&mut self) {
        if self.plain && self.last_line.elapsed() >= PLAIN_INTERVAL {
            self.last_line = Instant::now();
            eprintln!("{}", self.line());
        }
    }

    fn rate(&self) -> f64 {
        let secs = self.started.elapsed().as_secs_f64();
        if secs > 0.0 {
            self.citations as f64 / secs
        } else {
            0.0
        }
    }

    fn line(&self) -> String {
        let mut line = format!("batch: {} claims", self.claims);
        if let Some(total) = self.total {
            line.push_str(&format!("/{total}"));
        }
        line.push_str(&format!(
            ", {} citations, {:.1} citations/s",
            self.citations,
            self.rate()
        ));
        if let Some(total) = self.total.filter(|_| self.claims > 0) {
            let per_claim = self.started.elapsed().as_secs_f64() / self.claims as f64;
            let left = total.saturating_sub(self.claims) as f64 * per_claim;
            line.push_str(&format!(", eta {}s", left.round() as u64));
        }
        line
    }

    pub fn finish(self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
        if self.plain {
            eprintln!(
                "{} in {:.1}s",
                self.line(),
                self.started.elapsed().as_secs_f64()
            );
        }
    }
}
