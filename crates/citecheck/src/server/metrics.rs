//! Prometheus metrics for `GET /metrics` (OpenMetrics text): requests by route and status,
//! latency histograms, citations by label and reason, fetch outcomes, judge calls, errors and
//! tokens, the work in flight, and the audit rows the service's writer committed or lost.
//!
//! Fetches and judge calls are counted by wrapping the verifier's [`Fetcher`] and [`Judge`] as it
//! is built ([`instrument`]), so the numbers are those of the seams themselves: a URL cited twice counts
//! as one fetch, a rejected page as no judge call. Every label value comes from a closed set
//! (routes, labels, reasons, outcomes), so a client cannot grow the series without bound.

use std::sync::Arc;
use std::time::Instant;

use async_trait::async_trait;
use citecheck_core::fetch::FetchOutcome;
use citecheck_core::judge::{JudgeError, Judgement};
use citecheck_core::{ClaimVerdict, Fetcher, Judge, JudgeInfo, UrlVerdict, VerifierBuilder};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;

use crate::answer::AnswerVerdict;

/// The content type of [`Metrics::render`]'s output.
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    route: String,
    method: String,
    status: u16,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabels {
    route: String,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CitationLabels {
    label: String,
    reason: String,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ClaimLabels {
    overall: String,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ErrorLabels {
    code: String,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct FetchLabels {
    fetcher: String,
    outcome: String,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct JudgeLabels {
    provider: String,
    outcome: String,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct TokenLabels {
    provider: String,
    direction: String,
}

type HistogramFamily<L> = Family<L, Histogram, fn() -> Histogram>;

/// Seconds, from 5 ms to about 80 s: a cached fixture page to a slow site plus an LLM judge.
fn latency_histogram() -> Histogram {
    Histogram::new(exponential_buckets(0.005, 2.0, 15))
}

/// Every metric the service exports.
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    request_seconds: HistogramFamily<RouteLabels>,
    requests_in_flight: Gauge,
    verifications_in_flight: Gauge,
    claims: Family<ClaimLabels, Counter>,
    citations: Family<CitationLabels, Counter>,
    answers: Family<ClaimLabels, Counter>,
    answer_statements: Family<ClaimLabels, Counter>,
    answer_errors: Family<ErrorLabels, Counter>,
    fetches: Family<FetchLabels, Counter>,
    fetch_seconds: Histogram,
    judge_calls: Family<JudgeLabels, Counter>,
    judge_seconds: Histogram,
    judge_tokens: Family<TokenLabels, Counter>,
    audit_rows_written: Counter,
    audit_rows_failed: Counter,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Metrics")
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

impl Metrics {
    pub fn new() -> Metrics {
        let mut registry = Registry::with_prefix("citecheck");
        let requests = Family::<RequestLabels, Counter>::default();
        let request_seconds: HistogramFamily<RouteLabels> =
            Family::new_with_constructor(latency_histogram);
        let requests_in_flight = Gauge::default();
        let verifications_in_flight = Gauge::default();
        let claims = Family::<ClaimLabels, Counter>::default();
        let citations = Family::<CitationLabels, Counter>::default();
        let answers = Family::<ClaimLabels, Counter>::default();
        let answer_statements = Family::<ClaimLabels, Counter>::default();
        let answer_errors = Family::<ErrorLabels, Counter>::default();
        let fetches = Family::<FetchLabels, Counter>::default();
        let fetch_seconds = latency_histogram();
        let judge_calls = Family::<JudgeLabels, Counter>::default();
        let judge_seconds = latency_histogram();
        let judge_tokens = Family::<TokenLabels, Counter>::default();
        let audit_rows_written = Counter::default();
        let audit_rows_failed = Counter::default();

        registry.register(
            "http_requests",
            "HTTP requests answered, by route, method and status",
            requests.clone(),
        );
        registry.register(
            "http_request_duration_seconds",
            "Time to answer an HTTP request, by route",
            request_seconds.clone(),
        );
        registry.register(
            "http_requests_in_flight",
            "HTTP requests being answered",
            requests_in_flight.clone(),
        );
        registry.register(
            "verifications_in_flight",
            "Claims being verified (bounded by the concurrency limit)",
            verifications_in_flight.clone(),
        );
        registry.register(
            "claims",
            "Claims verified, by overall label",
            claims.clone(),
        );
        registry.register(
            "citations",
            "Citations verified, by label and reason (`none` when there is no reason)",
            citations.clone(),
        );
        registry.register(
            "answers",
            "Whole answers verified (`POST /verify-answer`), by overall label",
            answers.clone(),
        );
        registry.register(
            "answer_statements",
            "Cited statements of the answers verified, by label (their citations are counted in \
             `citations`)",
            answer_statements.clone(),
        );
        registry.register(
            "answer_errors",
            "Answers refused or not finished, by error code (`too_many_statements`, \
             `answer_too_long`, `no_citations`, `busy`, `deadline_exceeded`, ...)",
            answer_errors.clone(),
        );
        registry.register(
            "fetches",
            "Pages fetched, by fetcher and outcome (`page`, or the reason it was not judged)",
            fetches.clone(),
        );
        registry.register(
            "fetch_duration_seconds",
            "Time to fetch and interpret one page, retries included",
            fetch_seconds.clone(),
        );
        registry.register(
            "judge_calls",
            "Judge calls, by provider and outcome (`ok` or the kind of error)",
            judge_calls.clone(),
        );
        registry.register(
            "judge_duration_seconds",
            "Time for one judge call, retries included",
            judge_seconds.clone(),
        );
        registry.register(
            "judge_tokens",
            "Tokens the judge consumed, by provider and direction (`input`, `output`)",
            judge_tokens.clone(),
        );
        registry.register(
            "audit_rows_written",
            "Audit rows the service's writer committed to the index",
            audit_rows_written.clone(),
        );
        registry.register(
            "audit_rows_failed",
            "Audit rows of verdicts served but not written (no ids could be reserved, a failed \
             write, or still queued at shutdown)",
            audit_rows_failed.clone(),
        );
        Metrics {
            registry,
            requests,
            request_seconds,
            requests_in_flight,
            verifications_in_flight,
            claims,
            citations,
            answers,
            answer_statements,
            answer_errors,
            fetches,
            fetch_seconds,
            judge_calls,
            judge_seconds,
            judge_tokens,
            audit_rows_written,
            audit_rows_failed,
        }
    }

    /// The OpenMetrics text exposition of every metric.
    pub fn render(&self) -> Result<String, std::fmt::Error> {
        let mut out = String::new();
        prometheus_client::encoding::text::encode(&mut out, &self.registry)?;
        Ok(out)
    }

    /// Counts one answered request. `route` is the matched route pattern, never the raw path.
    pub fn record_request(&self, route: &str, method: &str, status: u16, seconds: f64) {
        self.requests
            .get_or_create(&RequestLabels {
                route: route.to_string(),
                method: method.to_string(),
                status,
            })
            .inc();
        self.request_seconds
            .get_or_create(&RouteLabels {
                route: route.to_string(),
            })
            .observe(seconds);
    }

    /// Marks a request in flight until the guard drops.
    pub fn request_started(self: &Arc<Self>) -> InFlight {
        InFlight::new(self.requests_in_flight.clone())
    }

    /// Marks a verification in flight until the guard drops.
    pub fn verification_started(self: &Arc<Self>) -> InFlight {
        InFlight::new(self.verifications_in_flight.clone())
    }

    /// Counts a finished claim and each of its citations.
    pub fn record_verdict(&self, verdict: &ClaimVerdict) {
        self.claims
            .get_or_create(&ClaimLabels {
                overall: verdict.overall.as_str().to_string(),
            })
            .inc();
        for citation in &verdict.citations {
            self.count_citation(citation);
        }
    }

    /// Counts a verified answer, each of its statements and their citations.
    pub fn record_answer(&self, verdict: &AnswerVerdict) {
        self.answers
            .get_or_create(&ClaimLabels {
                overall: verdict.overall.as_str().to_string(),
            })
            .inc();
        for statement in &verdict.statements {
            self.answer_statements
                .get_or_create(&ClaimLabels {
                    overall: statement.overall.as_str().to_string(),
                })
                .inc();
            for citation in &statement.citations {
                self.count_citation(&citation.verdict);
            }
        }
    }

    /// Counts an answer that got an error instead of a verdict. `code` is one of the service's
    /// fixed error codes.
    pub fn record_answer_error(&self, code: &'static str) {
        self.answer_errors
            .get_or_create(&ErrorLabels {
                code: code.to_string(),
            })
            .inc();
    }

    fn count_citation(&self, citation: &UrlVerdict) {
        self.citations
            .get_or_create(&CitationLabels {
                label: citation.label.as_str().to_string(),
                reason: citation
                    .reason
                    .as_ref()
                    .map_or_else(|| "none".to_string(), |r| r.as_string()),
            })
            .inc();
    }

    /// Counts audit rows the writer committed.
    pub fn audit_rows_written(&self, rows: u64) {
        self.audit_rows_written.inc_by(rows);
    }

    /// Counts audit rows of verdicts served but not written.
    pub fn audit_rows_failed(&self, rows: u64) {
        self.audit_rows_failed.inc_by(rows);
    }

    fn record_fetch(&self, fetcher: &str, outcome: &FetchOutcome, seconds: f64) {
        let outcome = match outcome {
            FetchOutcome::Page(_) => "page".to_string(),
            FetchOutcome::Rejected(rejection) => rejection.reason.as_string(),
        };
        self.fetches
            .get_or_create(&FetchLabels {
                fetcher: fetcher.to_string(),
                outcome,
            })
            .inc();
        self.fetch_seconds.observe(seconds);
    }

    fn record_judge(&self, provider: &str, result: &Result<Judgement, JudgeError>, seconds: f64) {
        let outcome = match result {
            Ok(_) => "ok",
            Err(JudgeError::MissingKey { .. }) => "missing_key",
            Err(JudgeError::Transport { .. }) => "transport_error",
            Err(JudgeError::Status { .. }) => "status_error",
            Err(JudgeError::InvalidAnswer(_)) => "invalid_answer",
            Err(JudgeError::Refusal(_)) => "refusal",
            Err(_) => "other_error",
        };
        self.judge_calls
            .get_or_create(&JudgeLabels {
                provider: provider.to_string(),
                outcome: outcome.to_string(),
            })
            .inc();
        self.judge_seconds.observe(seconds);
        if let Ok(Judgement {
            usage: Some(usage), ..
        }) = result
        {
            for (direction, tokens) in [
                ("input", usage.input_tokens),
                ("output", usage.output_tokens),
            ] {
                self.judge_tokens
                    .get_or_create(&TokenLabels {
                        provider: provider.to_string(),
                        direction: direction.to_string(),
                    })
                    .inc_by(tokens);
            }
        }
    }
}

/// Decrements its gauge when dropped, so a cancelled request is never left counted.
#[derive(Debug)]
pub struct InFlight {
    gauge: Gauge,
}

impl InFlight {
    fn new(gauge: Gauge) -> Self {
        gauge.inc();
        InFlight { gauge }
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.gauge.dec();
    }
}

/// `builder`, with its fetcher and judge counted in `metrics`.
pub fn instrument(builder: VerifierBuilder, metrics: &Arc<Metrics>) -> VerifierBuilder {
    builder
        .map_fetcher(|inner| {
            Arc::new(MeteredFetcher {
                inner,
                metrics: Arc::clone(metrics),
            })
        })
        .map_judge(|inner| {
            Arc::new(MeteredJudge {
                inner,
                metrics: Arc::clone(metrics),
            })
        })
}

struct MeteredFetcher {
    inner: Arc<dyn Fetcher>,
    metrics: Arc<Metrics>,
}

#[async_trait]
impl Fetcher for MeteredFetcher {
    fn name(&self) -> &str {
        self.inner.name()
    }

    async fn fetch(&self, url: &str) -> FetchOutcome {
        let started = Instant::now();
        let outcome = self.inner.fetch(url).await;
        self.metrics
            .record_fetch(self.inner.name(), &outcome, started.elapsed().as_secs_f64());
        outcome
    }
}

struct MeteredJudge {
    inner: Arc<dyn Judge>,
    metrics: Arc<Metrics>,
}

#[async_trait]
impl Judge for MeteredJudge {
    fn info(&self) -> JudgeInfo {
        self.inner.info()
    }

    async fn judge(&self, claim: &str, passages: &[String]) -> Result<Judgement, JudgeError> {
        let started = Instant::now();
        let result = self.inner.judge(claim, passages).await;
        self.metrics.record_judge(
            &self.inner.info().provider,
            &result,
            started.elapsed().as_secs_f64(),
        );
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use citecheck_core::fetch::Rejection;
    use citecheck_core::{Label, Reason, TokenUsage};

    fn sample(text: &str, name: &str) -> Option<f64> {
        text.lines()
            .find(|line| line.starts_with(name))
            .and_then(|line| line.rsplit(' ').next())
            .and_then(|v| v.parse().ok())
    }

    #[test]
    fn requests_fetches_and_judge_calls_show_up_in_the_exposition() {
        let metrics = Arc::new(Metrics::new());
        metrics.record_request("/verify", "POST", 200, 0.25);
        metrics.record_request("/verify", "POST", 200, 0.5);
        metrics.record_fetch(
            "direct",
            &FetchOutcome::Rejected(Rejection::new(Label::Unreachable, Reason::Http(404))),
            0.1,
        );
        let judged = Ok(Judgement {
            label: citecheck_core::judge::JudgeLabel::Supported,
            evidence_quote: None,
            confidence: 0.5,
            usage: Some(TokenUsage {
                input_tokens: 120,
                output_tokens: 7,
            }),
            detail: None,
        });
        metrics.record_judge("openai", &judged, 1.0);
        metrics.record_judge("openai", &Err(JudgeError::Refusal("no".into())), 1.0);
        let held = metrics.verification_started();

        let text = metrics.render().expect("renders");
        assert_eq!(
            sample(
                &text,
                "citecheck_http_requests_total{route=\"/verify\",method=\"POST\",status=\"200\"}"
            ),
            Some(2.0),
            "{text}"
        );
        assert_eq!(
            sample(
                &text,
                "citecheck_fetches_total{fetcher=\"direct\",outcome=\"http_404\"}"
            ),
            Some(1.0)
        );
        assert_eq!(
            sample(
                &text,
                "citecheck_judge_tokens_total{provider=\"openai\",direction=\"input\"}"
            ),
            Some(120.0)
        );
        assert_eq!(
            sample(
                &text,
                "citecheck_judge_calls_total{provider=\"openai\",outcome=\"refusal\"}"
            ),
            Some(1.0)
        );
        assert_eq!(
            sample(&text, "citecheck_verifications_in_flight"),
            Some(1.0)
        );
        drop(held);
        let text = metrics.render().expect("renders");
        assert_eq!(
            sample(&text, "citecheck_verifications_in_flight"),
            Some(0.0)
        );
        assert!(text.ends_with("# EOF\n"));
    }
}
