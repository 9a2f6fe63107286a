//! The Crawlbase fetcher: one cited URL in, a page or a verdict out.
//!
//! Every URL starts on the normal token with readability on; a thin answer is asked again
//! without readability. Only a signal the API really sends moves it to a browser: API status
//! 520 (the crawl failed), crawl status 207 (the site answered an empty page), or Markdown
//! still thin after the readability fallback. The rendered crawl then goes through exactly the
//! same steps and rules. No request carries the JavaScript token before one of those signals.

use std::sync::{Mutex, PoisonError};

use async_trait::async_trait;
use tracing::Instrument;
use url::Url;

use super::answer::{Answer, Meaning};
use super::client::{describe_exhausted, Client, Pass, Try};
use super::config::{CrawlbaseConfig, Token};
use super::cost::{Counters, Meter, Render};
use super::error::AccountProblem;
use super::storage::{self, StoredPage};
use super::CrawlbaseError;
use crate::extract::{non_whitespace_chars, MIN_READABLE_CHARS};
use crate::fetch::interpret;
use crate::fetch::{FetchOutcome, Fetcher, Rejection};
use crate::model::{CrawlCost, Label, Reason};

/// Fetches cited pages through Crawlbase's Crawling API (`--fetcher crawlbase`).
///
/// Besides the [`Fetcher`] outcome of each URL, it keeps two things a front end needs: the
/// requests and estimated credits spent so far ([`usage`](Self::usage)), and the first token or
/// account problem the API reported ([`config_error`](Self::config_error)), so that a batch or a
/// server can stop instead of failing every remaining citation the same way.
pub struct CrawlbaseFetcher {
    client: Client,
    token: Token,
    js_token: Option<Token>,
    totals: Counters,
    /// Token/account problems seen so far; requests they doom are not sent again.
    blocked: Mutex<Vec<Blocked>>,
}

/// A token or account problem and the requests it dooms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Blocked {
    problem: AccountProblem,
    variable: &'static str,
    render: Render,
}

impl Blocked {
    /// 402 is the account's: every request fails. 401 is the token's, whatever the rendering.
    /// 403 is the token's for one kind of request only (a normal token may not render).
    fn dooms(&self, variable: &str, render: Render) -> bool {
        match self.problem {
            AccountProblem::OutOfCredits => true,
            AccountProblem::Unauthorized => self.variable == variable,
            AccountProblem::Forbidden => self.variable == variable && self.render == render,
        }
    }

    fn error(&self) -> CrawlbaseError {
        let product = match self.render {
            Render::Normal => "normal Crawling API requests",
            Render::Javascript => "JavaScript-rendered Crawling API requests",
        };
        self.problem.error(self.variable, product)
    }
}

/// Why a crawl is retried in a browser.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Signal {
    CrawlFailed,
    EmptyPage,
    Thin,
}

impl Signal {
    fn describe(self) -> &'static str {
        match self {
            Signal::CrawlFailed => "the crawl failed (HTTP 520)",
            Signal::EmptyPage => "the site answered with an empty page (crawl status 207)",
            Signal::Thin => "the Markdown stayed under 200 non-whitespace characters",
        }
    }
}

/// A crawl's outcome under one rendering: decided, or worth rendering in a browser (with what
/// to report should the browser not help).
enum Rendered {
    Done(FetchOutcome),
    Escalate(Signal, FetchOutcome),
}

/// One request's outcome: decided, a signal, or a page to interpret.
enum Step {
    Done(FetchOutcome),
    Escalate(Signal, FetchOutcome),
    Crawled(Crawled),
}

struct Crawled {
    final_url: Url,
    status: u16,
    markdown: String,
    rid: Option<String>,
}

impl CrawlbaseFetcher {
    pub fn new(config: CrawlbaseConfig) -> Result<Self, CrawlbaseError> {
        Ok(CrawlbaseFetcher {
            client: Client::new(&config)?,
            token: config.token,
            js_token: config.js_token,
            totals: Counters::default(),
            blocked: Mutex::new(Vec::new()),
        })
    }

    /// Requests sent and credits estimated since the fetcher was built (a batch's total).
    pub fn usage(&self) -> CrawlCost {
        self.totals.snapshot()
    }

    /// The first token or account problem the API reported (401, 402, 403), if any. The
    /// citations it hit are `unreachable`/`crawl_failed` with this error's message as detail;
    /// a front end should check this after a run and fail with it (it is a configuration
    /// error: [`CrawlbaseError::is_configuration`]).
    pub fn config_error(&self) -> Option<CrawlbaseError> {
        self.blocked_list().first().map(Blocked::error)
    }

    /// Reads a stored page back (free), counted as a storage request in [`usage`](Self::usage).
    pub async fn fetch_stored(&self, rid: &str) -> Result<StoredPage, CrawlbaseError> {
        let meter = Meter::new(&self.totals);
        storage::read_stored(&self.client, &self.token, rid, Some(&meter)).await
    }

    fn blocked_list(&self) -> std::sync::MutexGuard<'_, Vec<Blocked>> {
        self.blocked.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn doomed(&self, variable: &str, render: Render) -> Option<CrawlbaseError> {
        self.blocked_list()
            .iter()
            .find(|b| b.dooms(variable, render))
            .map(Blocked::error)
    }

    /// Records a token/account problem (logged once) and returns it as an error.
    fn remember(&self, blocked: Blocked) -> CrawlbaseError {
        let mut list = self.blocked_list();
        if !list.contains(&blocked) {
            tracing::error!(error = %blocked.error(), "Crawlbase refused the request");
            list.push(blocked);
        }
        blocked.error()
    }

    /// The token for a rendering, and whether it is the JavaScript one.
    fn token_for(&self, render: Render) -> (&Token, bool) {
        match (render, &self.js_token) {
            (Render::Javascript, Some(js)) => (js, true),
            _ => (&self.token, false),
        }
    }

    async fn crawl(&self, requested: &Url, meter: &Meter<'_>) -> FetchOutcome {
        let signal = match self.render(requested, Render::Normal, meter).await {
            Rendered::Done(outcome) => return outcome,
            Rendered::Escalate(signal, _) => signal,
        };
        tracing::info!(
            signal = signal.describe(),
            "retrying with JavaScript rendering"
        );
        match self.render(requested, Render::Javascript, meter).await {
            Rendered::Done(outcome) => outcome,
            Rendered::Escalate(_, FetchOutcome::Rejected(rejection)) => {
                let detail = format!(
                    "{}, even when rendered with JavaScript (tried because {})",
                    rejection.detail.clone().unwrap_or_default(),
                    signal.describe()
                );
                FetchOutcome::Rejected(rejection.detail(detail))
            }
            Rendered::Escalate(_, page) => page,
        }
    }

    /// Crawls under one rendering: readability first, without it when that is thin, then the
    /// shared page rules.
    async fn render(&self, requested: &Url, render: Render, meter: &Meter<'_>) -> Rendered {
        let readable = Pass {
            render,
            readability: true,
        };
        let mut crawled = match self.pass(requested, readable, meter).await {
            Step::Crawled(crawled) => crawled,
            Step::Done(outcome) => return Rendered::Done(outcome),
            Step::Escalate(signal, outcome) => return Rendered::Escalate(signal, outcome),
        };
        if non_whitespace_chars(&crawled.markdown) < MIN_READABLE_CHARS {
            tracing::debug!(
                render = render.as_str(),
                "readability left too little; asking again without it"
            );
            let whole = Pass {
                render,
                readability: false,
            };
            crawled = match self.pass(requested, whole, meter).await {
                Step::Crawled(crawled) => crawled,
                Step::Done(outcome) => return Rendered::Done(outcome),
                Step::Escalate(signal, outcome) => return Rendered::Escalate(signal, outcome),
            };
        }
        let thin = non_whitespace_chars(&crawled.markdown) < MIN_READABLE_CHARS;
        let outcome = interpret::interpret_markdown(
            &crawled.final_url,
            crawled.status,
            crawled.markdown,
            None,
            None,
        );
        match outcome {
            FetchOutcome::Page(mut page) => {
                page.rid = crawled.rid;
                if thin {
                    Rendered::Escalate(Signal::Thin, FetchOutcome::Page(page))
                } else {
                    Rendered::Done(FetchOutcome::Page(page))
                }
            }
            FetchOutcome::Rejected(rejection) if rejection.reason == Reason::NeedsJavascript => {
                let rejection = rejection.detail(format!(
                    "{}, with and without readability",
                    Signal::Thin.describe()
                ));
                Rendered::Escalate(Signal::Thin, FetchOutcome::Rejected(rejection))
            }
            decided => Rendered::Done(decided),
        }
    }

    /// One Crawling API request (retried on 429, 5xx and upstream crawl failures) and the
    /// rules that need no body: dead links, homepage redirects, PDFs, origin errors.
    async fn pass(&self, requested: &Url, pass: Pass, meter: &Meter<'_>) -> Step {
        let (token, is_js_token) = self.token_for(pass.render);
        if let Some(err) = self.doomed(token.variable(), pass.render) {
            return Step::Done(crawl_failed(requested, err.to_string()));
        }
        let span = tracing::debug_span!(
            "crawlbase_request",
            render = pass.render.as_str(),
            readability = pass.readability
        );
        let client = &self.client;
        let request = client.crawl_url(token, requested, pass, is_js_token);
        let request = &request;
        let result = client
            .retrying(move || async move {
                meter.sent(pass.render);
                let raw = match client.get(request.clone()).await {
                    Ok(raw) => raw,
                    Err(message) => {
                        return Try::Retry {
                            error: format!("could not reach the Crawlbase API: {message}"),
                            retry_after: None,
                        }
                    }
                };
                let answer = Answer::read(raw.status, &raw.headers);
                tracing::debug!(
                    api_status = answer.api_status,
                    crawl_status = answer.crawl_status,
                    original_status = answer.original_status,
                    "Crawlbase answered"
                );
                match answer.meaning() {
                    Meaning::Transient(cause) => Try::Retry {
                        error: cause,
                        retry_after: answer.retry_after,
                    },
                    _ => Try::Done((answer, raw.body)),
                }
            })
            .instrument(span)
            .await;
        let (answer, body) = match result {
            Ok(answered) => answered,
            Err(exhausted) => {
                let detail = describe_exhausted(&exhausted);
                return Step::Done(crawl_failed(requested, detail));
            }
        };
        let final_url = answer
            .final_url
            .clone()
            .unwrap_or_else(|| requested.clone());
        let status = answer.origin_status();
        match answer.meaning() {
            Meaning::Crawled => {}
            Meaning::CrawlFailed => {
                let outcome = crawl_failed(requested, Signal::CrawlFailed.describe().to_string());
                return Step::Escalate(Signal::CrawlFailed, outcome);
            }
            Meaning::EmptyPage => {
                let outcome = FetchOutcome::Rejected(
                    Rejection::new(Label::NotFound, Reason::NeedsJavascript)
                        .at(final_url.as_str(), Some(status))
                        .detail(Signal::EmptyPage.describe()),
                );
                return Step::Escalate(Signal::EmptyPage, outcome);
            }
            Meaning::Account(problem) => {
                let err = self.remember(Blocked {
                    problem,
                    variable: token.variable(),
                    render: pass.render,
                });
                return Step::Done(crawl_failed(requested, err.to_string()));
            }
            Meaning::Failed(cause) | Meaning::Transient(cause) => {
                return Step::Done(crawl_failed(requested, cause))
            }
        }
        if answer.is_billed() {
            meter.billed(pass.render);
        }
        // 404/410 are dead links; any other origin error, which Crawlbase already retried, is
        // a failed fetch worth retrying later. Either way `unreachable` naming the status.
        if status >= 400 {
            return Step::Done(FetchOutcome::Rejected(interpret::status_rejection(
                &final_url, status,
            )));
        }
        let reject = |reason, detail: &str| {
            Step::Done(FetchOutcome::Rejected(
                Rejection::new(Label::NotFound, reason)
                    .at(final_url.as_str(), Some(status))
                    .detail(detail),
            ))
        };
        if interpret::is_homepage_redirect(requested, &final_url) {
            // A browser's own redirect can leave `url` equal to the requested URL, so on the
            // rendered path this check catches only the redirects Crawlbase reports.
            let detail = match pass.render {
                Render::Normal => "Crawlbase followed redirects to the site's root page",
                Render::Javascript => {
                    "the rendered crawl ended on the site's root page (best effort: a browser \
                     redirect may go unreported)"
                }
            };
            return reject(Reason::RedirectedToHomepage, detail);
        }
        if interpret::has_pdf_path(&final_url) {
            return reject(Reason::PdfUnsupported, "the redirects ended on a PDF");
        }
        Step::Crawled(Crawled {
            final_url,
            status,
            markdown: String::from_utf8_lossy(&body).trim().to_string(),
            rid: answer.rid,
        })
    }
}

fn crawl_failed(requested: &Url, detail: String) -> FetchOutcome {
    FetchOutcome::Rejected(
        Rejection::new(Label::Unreachable, Reason::CrawlFailed)
            .at(requested.as_str(), None)
            .detail(detail),
    )
}

#[async_trait]
impl Fetcher for CrawlbaseFetcher {
    fn name(&self) -> &str {
        "crawlbase"
    }

    async fn fetch(&self, url: &str) -> FetchOutcome {
        let requested = match crate::fetch::parse_cited(url) {
            Ok(url) => url,
            Err(rejected) => return FetchOutcome::Rejected(rejected),
        };
        if !matches!(requested.scheme(), "http" | "https") {
            return FetchOutcome::Rejected(
                Rejection::new(Label::NotFound, Reason::BlockedAddress).detail(format!(
                    "the scheme `{}` is not fetched",
                    requested.scheme()
                )),
            );
        }
        if interpret::has_pdf_path(&requested) {
            // Crawlbase renders pages into PDFs; it does not read one: never paid for.
            return FetchOutcome::Rejected(Rejection::new(Label::NotFound, Reason::PdfUnsupported));
        }
        let meter = Meter::new(&self.totals);
        let mut outcome = self.crawl(&requested, &meter).await;
        let cost = Some(meter.cost());
        match &mut outcome {
            FetchOutcome::Page(page) => page.cost = cost,
            FetchOutcome::Rejected(rejection) => {
                rejection.cost = cost;
                rejection.detail = rejection.detail.take().map(|d| self.client.scrub(&d));
            }
        }
        outcome
    }
}
