//! The verifier: runs the stages in order for each cited URL (fetch, split, rank, judge, guard)
//! and aggregates the claim. Distinct URLs are checked concurrently; a URL cited twice in one
//! claim is fetched once.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::SystemTime;

use futures::stream::{self, StreamExt};
use sha2::{Digest, Sha256};
use tokio::sync::Semaphore;
use tracing::Instrument;

use crate::aggregate;
use crate::anchor;
use crate::archive::ArchiveClient;
use crate::fetch::{FetchOutcome, Fetcher, Page, Rejection};
use crate::guard;
use crate::judge::Judge;
use crate::model::{ClaimVerdict, FollowUp, Label, Reason, UrlVerdict, VerdictMeta};
use crate::passage::{self, PassageError, DEFAULT_MAX_WORDS};
use crate::rank::{PagePassages, Ranker, DEFAULT_TOP_K};

/// Distinct URLs of one claim fetched at once.
pub const DEFAULT_FETCH_CONCURRENCY: usize = 8;
/// Judge calls in flight at once, across all claims this verifier serves.
pub const DEFAULT_JUDGE_CONCURRENCY: usize = 4;

/// Tuning of the pipeline.
#[derive(Debug, Clone)]
pub struct VerifyOptions {
    /// Passages handed to the judge.
    pub top_k: usize,
    /// Words per passage.
    pub max_words: usize,
    pub fetch_concurrency: usize,
    pub judge_concurrency: usize,
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions {
            top_k: DEFAULT_TOP_K,
            max_words: DEFAULT_MAX_WORDS,
            fetch_concurrency: DEFAULT_FETCH_CONCURRENCY,
            judge_concurrency: DEFAULT_JUDGE_CONCURRENCY,
        }
    }
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    #[error("invalid passage size")]
    Passages(#[from] PassageError),
    #[error("top_k must be at least 1")]
    ZeroTopK,
    #[error("{0} concurrency must be at least 1")]
    ZeroConcurrency(&'static str),
}

/// A fetched page cut into passages, ready to be judged against any number of claims.
#[derive(Debug, Clone)]
pub struct PreparedPage {
    pub page: Page,
    pub passages: PagePassages,
    /// When the page was fetched (RFC 3339, UTC).
    pub fetched_at: String,
}

/// The outcome of fetching one URL: a page to judge, or a verdict already decided.
#[derive(Debug, Clone)]
pub enum Fetched {
    Page(Arc<PreparedPage>),
    Rejected(Rejection),
}

/// Asking a web archive about citations that ended dead.
#[derive(Clone)]
pub struct ArchiveCheck {
    pub client: Arc<ArchiveClient>,
    /// Also judge the claim against the archived copy (`archive.verdict`).
    pub judge_archived: bool,
}

/// Runs the pipeline. Cheap to share behind an `Arc`; all stages are `Send + Sync`.
pub struct Verifier {
    fetcher: Arc<dyn Fetcher>,
    ranker: Arc<dyn Ranker>,
    judge: Arc<dyn Judge>,
    options: VerifyOptions,
    judge_permits: Arc<Semaphore>,
    archive: Option<ArchiveCheck>,
}

impl Verifier {
    pub fn new(
        fetcher: Arc<dyn Fetcher>,
        ranker: Arc<dyn Ranker>,
        judge: Arc<dyn Judge>,
        options: VerifyOptions,
    ) -> Result<Self, BuildError> {
        if options.max_words < 1 {
            return Err(PassageError::ZeroBudget(options.max_words).into());
        }
        if options.top_k < 1 {
            return Err(BuildError::ZeroTopK);
        }
        if options.fetch_concurrency < 1 {
            return Err(BuildError::ZeroConcurrency("fetch"));
        }
        if options.judge_concurrency < 1 {
            return Err(BuildError::ZeroConcurrency("judge"));
        }
        Ok(Verifier {
            judge_permits: Arc::new(Semaphore::new(options.judge_concurrency)),
            fetcher,
            ranker,
            judge,
            options,
            archive: None,
        })
    }

    /// Dead citations (see [`Reason::is_archive_candidate`]) are looked up in `archive`.
    pub fn with_archive(mut self, archive: ArchiveCheck) -> Self {
        self.archive = Some(archive);
        self
    }

    pub fn archive(&self) -> Option<&ArchiveCheck> {
        self.archive.as_ref()
    }

    pub fn fetcher(&self) -> &Arc<dyn Fetcher> {
        &self.fetcher
    }

    pub fn ranker(&self) -> &Arc<dyn Ranker> {
        &self.ranker
    }

    pub fn judge(&self) -> &Arc<dyn Judge> {
        &self.judge
    }

    pub fn options(&self) -> &VerifyOptions {
        &self.options
    }

    /// Verifies `claim` against each URL; one verdict per URL, in the order given.
    pub async fn verify(&self, claim: &str, urls: &[String]) -> ClaimVerdict {
        self.verify_with_top_k(claim, urls, self.options.top_k)
            .await
    }

    /// [`Verifier::verify`], showing the judge `top_k` passages per citation instead of the
    /// configured number (a per-request choice; the judge concurrency limit still applies).
    pub async fn verify_with_top_k(
        &self,
        claim: &str,
        urls: &[String],
        top_k: usize,
    ) -> ClaimVerdict {
        let mut distinct: Vec<&str> = Vec::new();
        for url in urls {
            if !distinct.contains(&url.as_str()) {
                distinct.push(url);
            }
        }
        // Owned URLs: a closure taking `&str` makes this future impossible for the compiler to
        // prove `Send` (rust-lang/rust#102211), and the HTTP service needs it `Send`.
        let verdicts: HashMap<String, UrlVerdict> =
            stream::iter(distinct.into_iter().map(str::to_owned))
                .map(|url| async move {
                    let verdict = self.check_with_top_k(claim, &url, top_k).await;
                    (url, verdict)
                })
                .buffer_unordered(self.options.fetch_concurrency)
                .collect()
                .await;
        let citations: Vec<UrlVerdict> = urls
            .iter()
            .filter_map(|url| verdicts.get(url.as_str()).cloned())
            .collect();
        ClaimVerdict {
            claim: claim.to_string(),
            overall: aggregate::claim_label(citations.iter().map(|c| c.label)),
            citations,
        }
    }

    /// Fetches, judges and guards one citation.
    pub async fn check(&self, claim: &str, url: &str) -> UrlVerdict {
        self.check_with_top_k(claim, url, self.options.top_k).await
    }

    async fn check_with_top_k(&self, claim: &str, url: &str, top_k: usize) -> UrlVerdict {
        let span = tracing::info_span!("citation", %url);
        async {
            let fetched = self.fetch(url).await;
            self.judge_fetched_with_top_k(claim, url, &fetched, top_k)
                .await
        }
        .instrument(span)
        .await
    }

    /// Fetches `url` and prepares its passages, so that many claims can be judged against it.
    pub async fn fetch(&self, url: &str) -> Fetched {
        match self.fetcher.fetch(url).await {
            FetchOutcome::Rejected(rejection) => {
                tracing::info!(reason = %rejection.reason, detail = rejection.detail.as_deref().unwrap_or(""), "not judged");
                Fetched::Rejected(rejection)
            }
            FetchOutcome::Page(page) => Fetched::Page(Arc::new(self.prepare(page))),
        }
    }

    /// Cuts a page into passages and stamps it.
    pub fn prepare(&self, page: Page) -> PreparedPage {
        // `Verifier::new` refuses a zero budget, the only error `passage::split` has.
        let passages = passage::split(&page.markdown, self.options.max_words).unwrap_or_default();
        let content_sha256 = format!("{:x}", Sha256::digest(page.markdown.as_bytes()));
        PreparedPage {
            passages: PagePassages {
                content_sha256,
                passages,
            },
            fetched_at: humantime::format_rfc3339_seconds(SystemTime::now()).to_string(),
            page,
        }
    }

    /// The verdict for `claim` on an already fetched URL.
    pub async fn judge_fetched(&self, claim: &str, url: &str, fetched: &Fetched) -> UrlVerdict {
        self.judge_fetched_with_top_k(claim, url, fetched, self.options.top_k)
            .await
    }

    async fn judge_fetched_with_top_k(
        &self,
        claim: &str,
        url: &str,
        fetched: &Fetched,
        top_k: usize,
    ) -> UrlVerdict {
        match fetched {
            Fetched::Rejected(rejection) => {
                let mut verdict = self.rejected_verdict(url, rejection);
                self.consult_archive(claim, &mut verdict, top_k).await;
                verdict
            }
            Fetched::Page(prepared) => {
                self.judge_page(claim, url, Arc::clone(prepared), top_k)
                    .await
            }
        }
    }

    fn rejected_verdict(&self, url: &str, rejection: &Rejection) -> UrlVerdict {
        let mut verdict = UrlVerdict::without_judge(url, rejection.label, rejection.reason.clone());
        verdict.final_url = rejection.final_url.clone();
        verdict.original_status = rejection.original_status;
        verdict.detail = rejection.detail.clone();
        verdict.meta = Some(VerdictMeta {
            fetcher: Some(self.fetcher.name().to_string()),
            crawl_cost: rejection.cost,
            ..VerdictMeta::default()
        });
        verdict
    }

    /// Asks the archive about a dead citation and, when asked to, judges the archived copy.
    /// The citation's label, about the live URL, is left alone.
    async fn consult_archive(&self, claim: &str, verdict: &mut UrlVerdict, top_k: usize) {
        let Some(archive) = &self.archive else {
            return;
        };
        let candidate = verdict
            .reason
            .as_ref()
            .is_some_and(Reason::is_archive_candidate);
        if !candidate || !archive.client.applies_to(&verdict.url) {
            return;
        }
        let lookup = archive.client.lookup(&verdict.url).await;
        let mut info = lookup.info;
        if let (true, Some(raw)) = (archive.judge_archived, lookup.raw_snapshot_url) {
            match self.fetcher.fetch(&raw).await {
                FetchOutcome::Page(page) => {
                    let prepared = Arc::new(self.prepare(page));
                    let judged = self.judge_page(claim, &raw, prepared, top_k).await;
                    info.verdict = Some(judged.label);
                    info.evidence_quote = judged.evidence_quote;
                }
                FetchOutcome::Rejected(rejection) => {
                    info.note = format!(
                        "{}; the archived copy could not be read ({})",
                        info.note, rejection.reason
                    );
                }
            }
        }
        verdict.follow_up.archive = Some(info);
    }

    async fn judge_page(
        &self,
        claim: &str,
        url: &str,
        prepared: Arc<PreparedPage>,
        top_k: usize,
    ) -> UrlVerdict {
        let page = &prepared.page;
        let mut verdict = UrlVerdict {
            url: url.to_string(),
            label: Label::NotFound,
            evidence_quote: None,
            confidence: 0.0,
            final_url: Some(page.final_url.clone()),
            original_status: Some(page.original_status),
            rid: page.rid.clone(),
            reason: None,
            detail: None,
            meta: Some(VerdictMeta {
                fetcher: Some(self.fetcher.name().to_string()),
                judge: Some(self.judge.info()),
                usage: None,
                content_sha256: Some(prepared.passages.content_sha256.clone()),
                fetched_at: Some(prepared.fetched_at.clone()),
                crawl_cost: page.cost,
            }),
            follow_up: FollowUp::default(),
        };

        let top = match self.top_passages(claim, &prepared, top_k).await {
            Ok(top) => top,
            Err(message) => {
                verdict.detail = Some(message);
                return verdict;
            }
        };
        if top.is_empty() {
            verdict.detail = Some("the page has no passages to judge".to_string());
            return verdict;
        }

        let judgement = {
            // The semaphore is never closed, so acquiring cannot fail; if it somehow did,
            // judging without a permit is still correct, only less polite to the provider.
            let _permit = self.judge_permits.acquire().await.ok();
            self.judge.judge(claim, &top).await
        };
        match judgement {
            Ok(judgement) => {
                let guarded = guard::check(&judgement, &top);
                if guarded.reason == Some(Reason::EvidenceQuoteNotInSource) {
                    tracing::info!(
                        quote = judgement.evidence_quote.as_deref().unwrap_or(""),
                        "quote not in the passages; downgraded"
                    );
                }
                verdict.label = guarded.label;
                verdict.evidence_quote = guarded.evidence_quote;
                verdict.confidence = guarded.confidence;
                verdict.reason = guarded.reason;
                verdict.detail = judgement.detail;
                if let Some(meta) = verdict.meta.as_mut() {
                    meta.usage = judgement.usage;
                }
                if verdict.label == Label::NotFound && verdict.reason.is_none() && page.paywalled {
                    verdict.reason = Some(Reason::Paywall);
                }
                if let Some(quote) = verdict.evidence_quote.as_deref() {
                    link_evidence(&mut verdict.follow_up, page, &top, quote);
                }
            }
            Err(err) => {
                tracing::warn!(error = %err, "judge failed");
                verdict.reason = Some(Reason::JudgeError);
                verdict.detail = Some(err.to_string());
            }
        }
        verdict
    }

    /// The passages the judge sees, best first.
    async fn top_passages(
        &self,
        claim: &str,
        prepared: &Arc<PreparedPage>,
        k: usize,
    ) -> Result<Vec<String>, String> {
        let ranker = Arc::clone(&self.ranker);
        let prepared_for_rank = Arc::clone(prepared);
        let claim_owned = claim.to_string();
        // Ranking may run a neural model: keep it off the async executor.
        let ranked = tokio::task::spawn_blocking(move || {
            ranker.top_k(&claim_owned, &prepared_for_rank.passages, k)
        })
        .await
        .map_err(|err| format!("ranking panicked: {err}"))?
        .map_err(|err| format!("ranking failed: {err}"))?;
        Ok(ranked
            .into_iter()
            .filter_map(|i| prepared.passages.passages.get(i).cloned())
            .collect())
    }
}

/// Sets the evidence link and offsets of an accepted quote. A quote the anchor cannot place
/// (the guard accepted it, so only rendering can lose it) still links the page, with the
/// quote as its one term.
fn link_evidence(follow_up: &mut FollowUp, page: &Page, top: &[String], quote: &str) {
    match anchor::evidence(&page.final_url, &page.markdown, top, quote) {
        Some((url, offsets)) => {
            follow_up.evidence_url = Some(url);
            follow_up.evidence_offsets = Some(offsets);
        }
        None => {
            let term = guard::normalise(&guard::strip_inline_markdown(quote));
            if let Ok(directive) = crate::fragment::TextDirective::exact(term) {
                follow_up.evidence_url = Some(crate::fragment::link(&page.final_url, &directive));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;

    use async_trait::async_trait;

    use super::*;
    use crate::judge::{JudgeError, JudgeLabel, Judgement};
    use crate::model::{JudgeInfo, TokenUsage};
    use crate::rank::Bm25Ranker;

    /// Serves fixed outcomes per URL and counts fetches.
    struct FakeFetcher {
        pages: HashMap<&'static str, FetchOutcome>,
        fetches: Mutex<Vec<String>>,
    }

    impl FakeFetcher {
        fn new(pages: Vec<(&'static str, FetchOutcome)>) -> Self {
            FakeFetcher {
                pages: pages.into_iter().collect(),
                fetches: Mutex::new(Vec::new()),
            }
        }
    }

    #[async_trait]
    impl Fetcher for FakeFetcher {
        fn name(&self) -> &str {
            "fake"
        }
        async fn fetch(&self, url: &str) -> FetchOutcome {
            self.fetches
                .lock()
                .expect("not poisoned")
                .push(url.to_string());
            self.pages.get(url).cloned().unwrap_or_else(|| {
                FetchOutcome::Rejected(Rejection::new(Label::Unreachable, Reason::Http(404)))
            })
        }
    }

    type Answer = Box<dyn Fn(&[String]) -> Result<Judgement, JudgeError> + Send + Sync>;

    /// Answers with a fixed judgement (or error) and records what it was shown.
    struct FakeJudge {
        answer: Answer,
        calls: AtomicUsize,
    }

    #[async_trait]
    impl Judge for FakeJudge {
        fn info(&self) -> JudgeInfo {
            JudgeInfo {
                provider: "fake".into(),
                model: "fixed".into(),
                prompt_version: "t1".into(),
            }
        }
        async fn judge(&self, _claim: &str, passages: &[String]) -> Result<Judgement, JudgeError> {
            self.calls.fetch_add(1, Ordering::SeqCst);
            (self.answer)(passages)
        }
    }

    fn page(markdown: &str) -> FetchOutcome {
        FetchOutcome::Page(Page {
            final_url: "https://site.example/final".into(),
            original_status: 200,
            markdown: markdown.into(),
            rid: Some("rid-1".into()),
            paywalled: false,
            cost: None,
        })
    }

    fn judge_saying(label: JudgeLabel, quote: Option<&'static str>) -> Arc<FakeJudge> {
        Arc::new(FakeJudge {
            answer: Box::new(move |_| {
                Ok(Judgement {
                    label,
                    evidence_quote: quote.map(str::to_string),
                    confidence: 0.9,
                    usage: Some(TokenUsage {
                        input_tokens: 100,
                        output_tokens: 10,
                    }),
                    detail: None,
                })
            }),
            calls: AtomicUsize::new(0),
        })
    }

    fn verifier(fetcher: Arc<FakeFetcher>, judge: Arc<FakeJudge>) -> Verifier {
        Verifier::new(
            fetcher,
            Arc::new(Bm25Ranker),
            judge,
            VerifyOptions::default(),
        )
        .expect("valid options")
    }

    const WATER: &str = "Water boils at 100 degrees Celsius at sea level.";

    #[tokio::test]
    async fn a_url_cited_twice_is_fetched_once_and_reported_twice() {
        let fetcher = Arc::new(FakeFetcher::new(vec![("https://a.example/w", page(WATER))]));
        let judge = judge_saying(JudgeLabel::Supported, Some(WATER));
        let v = verifier(Arc::clone(&fetcher), Arc::clone(&judge));
        let urls = vec![
            "https://a.example/w".to_string(),
            "https://a.example/gone".to_string(),
            "https://a.example/w".to_string(),
        ];
        let result = v.verify(WATER, &urls).await;
        assert_eq!(result.citations.len(), 3);
        assert_eq!(result.citations[0].url, "https://a.example/w");
        assert_eq!(result.citations[1].label, Label::Unreachable);
        assert_eq!(result.citations[2].label, Label::Supported);
        assert_eq!(result.overall, Label::Supported);
        let fetches = fetcher.fetches.lock().expect("not poisoned").clone();
        assert_eq!(fetches.iter().filter(|u| u.ends_with("/w")).count(), 1);
        assert_eq!(result.usage().input_tokens, 200);
    }

    #[tokio::test]
    async fn a_rejected_citation_never_reaches_the_judge() {
        let fetcher = Arc::new(FakeFetcher::new(vec![]));
        let judge = judge_saying(JudgeLabel::Supported, Some(WATER));
        let v = verifier(fetcher, Arc::clone(&judge));
        let result = v
            .verify(WATER, &["https://a.example/dead".to_string()])
            .await;
        assert_eq!(result.overall, Label::Unreachable);
        assert_eq!(result.citations[0].reason, Some(Reason::Http(404)));
        assert_eq!(result.citations[0].confidence, 1.0);
        assert_eq!(judge.calls.load(Ordering::SeqCst), 0);
    }

    #[tokio::test]
    async fn the_verdict_carries_the_page_facts_and_the_guarded_quote() {
        let fetcher = Arc::new(FakeFetcher::new(vec![("https://a.example/w", page(WATER))]));
        let v = verifier(fetcher, judge_saying(JudgeLabel::Contradicted, Some(WATER)));
        let result = v
            .verify(
                "Water boils at 50 degrees.",
                &["https://a.example/w".to_string()],
            )
            .await;
        let c = &result.citations[0];
        assert_eq!(c.label, Label::Contradicted);
        assert_eq!(c.evidence_quote.as_deref(), Some(WATER));
        assert_eq!(
            c.follow_up.evidence_url.as_deref(),
            Some("https://site.example/final#:~:text=Water%20boils%20at%20100%20degrees%20Celsius%20at%20sea%20level.")
        );
        assert_eq!(
            c.follow_up.evidence_offsets,
            Some(crate::model::EvidenceOffsets { start: 0, end: 48 })
        );
        assert_eq!(c.final_url.as_deref(), Some("https://site.example/final"));
        assert_eq!(c.original_status, Some(200));
        assert_eq!(c.rid.as_deref(), Some("rid-1"));
        let meta = c.meta.as_ref().expect("meta is set for judged pages");
        assert_eq!(
            meta.judge.as_ref().map(|j| j.provider.as_str()),
            Some("fake")
        );
        assert_eq!(meta.content_sha256.as_ref().map(String::len), Some(64));
    }

    #[tokio::test]
    async fn an_invented_quote_is_downgraded() {
        let fetcher = Arc::new(FakeFetcher::new(vec![("https://a.example/w", page(WATER))]));
        let v = verifier(
            fetcher,
            judge_saying(JudgeLabel::Supported, Some("Water boils at 50 degrees.")),
        );
        let result = v.verify(WATER, &["https://a.example/w".to_string()]).await;
        assert_eq!(result.citations[0].label, Label::NotFound);
        assert_eq!(
            result.citations[0].reason,
            Some(Reason::EvidenceQuoteNotInSource)
        );
        assert_eq!(result.citations[0].confidence, 0.0);
    }

    #[tokio::test]
    async fn a_failing_judge_is_a_judge_error_not_a_verdict() {
        let fetcher = Arc::new(FakeFetcher::new(vec![("https://a.example/w", page(WATER))]));
        let judge = Arc::new(FakeJudge {
            answer: Box::new(|_| Err(JudgeError::InvalidAnswer("not JSON".into()))),
            calls: AtomicUsize::new(0),
        });
        let v = verifier(fetcher, judge);
        let result = v.verify(WATER, &["https://a.example/w".to_string()]).await;
        let c = &result.citations[0];
        assert_eq!(c.label, Label::NotFound);
        assert_eq!(c.reason, Some(Reason::JudgeError));
        assert!(c.detail.as_deref().is_some_and(|d| d.contains("not JSON")));
    }

    #[tokio::test]
    async fn a_paywall_names_the_reason_only_when_nothing_was_found() {
        let mut outcome = page("Subscribe to continue reading. A short teaser about boats.");
        if let FetchOutcome::Page(p) = &mut outcome {
            p.paywalled = true;
        }
        let fetcher = Arc::new(FakeFetcher::new(vec![("https://a.example/p", outcome)]));
        let v = verifier(fetcher, judge_saying(JudgeLabel::NotFound, None));
        let result = v.verify(WATER, &["https://a.example/p".to_string()]).await;
        assert_eq!(result.citations[0].label, Label::NotFound);
        assert_eq!(result.citations[0].reason, Some(Reason::Paywall));
    }

    #[tokio::test]
    async fn the_judge_sees_at_most_k_passages_best_first() {
        let markdown = (0..30)
            .map(|i| format!("Paragraph {i} about unrelated gardening topics and soil."))
            .chain(std::iter::once(WATER.to_string()))
            .collect::<Vec<_>>()
            .join("\n\n");
        let fetcher = Arc::new(FakeFetcher::new(vec![(
            "https://a.example/w",
            page(&markdown),
        )]));
        let seen = Arc::new(Mutex::new(Vec::<String>::new()));
        let seen_in_judge = Arc::clone(&seen);
        let judge = Arc::new(FakeJudge {
            answer: Box::new(move |passages| {
                *seen_in_judge.lock().expect("not poisoned") = passages.to_vec();
                Err(JudgeError::Transport("recorded".into()))
            }),
            calls: AtomicUsize::new(0),
        });
        let options = VerifyOptions {
            max_words: 20,
            top_k: 2,
            ..VerifyOptions::default()
        };
        let v = Verifier::new(fetcher, Arc::new(Bm25Ranker), judge, options).expect("valid");
        v.verify(
            "water boils 100 degrees",
            &["https://a.example/w".to_string()],
        )
        .await;
        let first = seen.lock().expect("not poisoned").clone();
        assert_eq!(first.len(), 2);
        assert!(first[0].contains(WATER), "{first:?}");
        v.verify_with_top_k(
            "water boils 100 degrees",
            &["https://a.example/w".to_string()],
            5,
        )
        .await;
        assert_eq!(
            seen.lock().expect("not poisoned").len(),
            5,
            "a per-call k wins"
        );
    }

    #[test]
    fn invalid_options_are_refused_when_building() {
        let fetcher = Arc::new(FakeFetcher::new(vec![]));
        let judge = judge_saying(JudgeLabel::NotFound, None);
        for options in [
            VerifyOptions {
                max_words: 0,
                ..VerifyOptions::default()
            },
            VerifyOptions {
                top_k: 0,
                ..VerifyOptions::default()
            },
            VerifyOptions {
                fetch_concurrency: 0,
                ..VerifyOptions::default()
            },
            VerifyOptions {
                judge_concurrency: 0,
                ..VerifyOptions::default()
            },
        ] {
            assert!(Verifier::new(
                Arc::clone(&fetcher) as Arc<dyn Fetcher>,
                Arc::new(Bm25Ranker),
                Arc::clone(&judge) as Arc<dyn Judge>,
                options
            )
            .is_err());
        }
    }
}
