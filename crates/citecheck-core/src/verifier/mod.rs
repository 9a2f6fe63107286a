//! The verifier: runs the stages in order for each cited URL (fetch, split, rank, judge, guard)
//! and aggregates the claim. Distinct URLs are checked concurrently; a URL cited twice in one
//! claim is fetched once. Assemble one with [`Verifier::builder`]; run it with
//! [`Verifier::verify`], the one entry point, which takes a [`Check`] (the claim, its URLs and
//! the per-call choices).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
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
use crate::model::{ClaimVerdict, FollowUp, JudgeInfo, Label, Reason, UrlVerdict, VerdictMeta};
use crate::passage::{self, DEFAULT_MAX_WORDS};
use crate::rank::{PagePassages, RankError, Ranker, DEFAULT_TOP_K};
use crate::store::{LastSeen, Origin, PageStore, VerdictRecorder};

mod builder;
mod check;
mod pages;

pub use builder::{BuildError, VerifierBuilder};
pub use check::Check;
pub use pages::{CacheStats, SharedPages, DEFAULT_CACHE_PAGES, DEFAULT_PER_HOST};

/// Distinct URLs of one claim fetched at once.
pub const DEFAULT_FETCH_CONCURRENCY: usize = 8;
/// Judge calls in flight at once, across all claims this verifier serves.
pub const DEFAULT_JUDGE_CONCURRENCY: usize = 4;

/// Tuning of the pipeline.
#[derive(Debug, Clone)]
pub struct VerifyOptions {
    /// Passages handed to the judge (a [`Check`] may ask for another number).
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

/// A fetched page cut into passages, ready to be judged against any number of claims.
#[derive(Debug, Clone)]
pub(crate) struct PreparedPage {
    page: Page,
    /// The passages as cut from the Markdown: what the judge reads and quotes.
    passages: PagePassages,
    /// The same passages as a reader sees them (link targets and inline markup removed), in
    /// the same order: what the ranker scores.
    ranking: PagePassages,
    /// When the page was fetched (RFC 3339, UTC).
    fetched_at: String,
}

/// The outcome of fetching one URL: a page to judge, or a verdict already decided.
#[derive(Debug, Clone)]
pub(crate) enum Fetched {
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

/// What a verifier is made of, for a front end describing itself (`/health`, an eval report).
#[derive(Debug, Clone)]
pub struct Components {
    pub fetcher: String,
    pub ranker: String,
    /// The ranker's own answer to whether its model is loaded (`None`: it has none).
    pub ranker_model_loaded: Option<bool>,
    /// What the ranker runs on (the embedding ranker: kernels and threads).
    pub ranker_runtime: Option<String>,
    pub judge: JudgeInfo,
    pub options: VerifyOptions,
}

/// Runs the pipeline. Cheap to share behind an `Arc`; all stages are `Send + Sync`.
pub struct Verifier {
    fetcher: Arc<dyn Fetcher>,
    ranker: Arc<dyn Ranker>,
    judge: Arc<dyn Judge>,
    options: VerifyOptions,
    judge_permits: Arc<Semaphore>,
    archive: Option<ArchiveCheck>,
    page_store: Option<Arc<dyn PageStore>>,
    recorder: Option<Arc<dyn VerdictRecorder>>,
    pages: Option<pages::PageCache>,
    /// Set after the first failed record, so a broken index warns once, not once per claim.
    recorder_failed: AtomicBool,
}

impl Verifier {
    /// Starts assembling a verifier from its three stages.
    pub fn builder(
        fetcher: Arc<dyn Fetcher>,
        ranker: Arc<dyn Ranker>,
        judge: Arc<dyn Judge>,
    ) -> VerifierBuilder {
        VerifierBuilder::new(fetcher, ranker, judge)
    }

    /// What this verifier is made of.
    pub fn components(&self) -> Components {
        Components {
            fetcher: self.fetcher.name().to_string(),
            ranker: self.ranker.name().to_string(),
            ranker_model_loaded: self.ranker.model_loaded(),
            ranker_runtime: self.ranker.runtime(),
            judge: self.judge.info(),
            options: self.options.clone(),
        }
    }

    /// The shared page cache's figures, when the verifier keeps one
    /// ([`VerifierBuilder::shared_pages`]).
    pub fn page_stats(&self) -> Option<CacheStats> {
        self.pages.as_ref().map(pages::PageCache::stats)
    }

    /// Verifies `check.claim` against each of its URLs: one verdict per URL, in the order given,
    /// and the claim's label. Records the verdict when the verifier has a recorder. Never fails:
    /// a citation that could not be checked is a verdict with a reason.
    pub async fn verify(&self, check: Check) -> ClaimVerdict {
        let Check {
            claim,
            urls,
            top_k,
            previous,
            origin,
            pages,
        } = check;
        let scope = pages.as_ref();
        let top_k = top_k.unwrap_or(self.options.top_k);
        // A citation whose earlier verdict did not come from a failed fetch keeps it.
        let kept: HashMap<&str, &UrlVerdict> = previous
            .iter()
            .filter(|c| !c.reason.as_ref().is_some_and(Reason::is_fetch_failure))
            .map(|c| (c.url.as_str(), c))
            .collect();
        let mut distinct: Vec<String> = Vec::new();
        for url in &urls {
            if !kept.contains_key(url.as_str()) && !distinct.contains(url) {
                distinct.push(url.clone());
            }
        }
        let claim_ref = claim.as_str();
        // Owned URLs: a closure taking `&str` makes this future impossible for the compiler to
        // prove `Send` (rust-lang/rust#102211), and the HTTP service needs it `Send`.
        let checked: HashMap<String, UrlVerdict> = stream::iter(distinct)
            .map(|url| async move {
                let verdict = self.check_one(claim_ref, &url, top_k, scope).await;
                (url, verdict)
            })
            .buffer_unordered(self.options.fetch_concurrency)
            .collect()
            .await;
        let citations: Vec<UrlVerdict> = urls
            .iter()
            .filter_map(|url| {
                checked
                    .get(url.as_str())
                    .or_else(|| kept.get(url.as_str()).copied())
                    .cloned()
            })
            .collect();
        let mut verdict = ClaimVerdict {
            overall: aggregate::claim_label(citations.iter().map(|c| c.label)),
            claim,
            citations,
        };
        self.annotate_drift(&mut verdict).await;
        self.record(&verdict, &origin).await;
        verdict
    }

    /// Says, for each citation whose URL the recorder already holds, when it was last seen and
    /// whether the page changed since: one lookup per distinct URL, before the new rows are
    /// written. A failed lookup leaves the citation as it is.
    async fn annotate_drift(&self, verdict: &mut ClaimVerdict) {
        let Some(recorder) = &self.recorder else {
            return;
        };
        let mut seen: HashMap<String, Option<LastSeen>> = HashMap::new();
        for citation in &mut verdict.citations {
            if !seen.contains_key(&citation.url) {
                let last = match recorder.last_seen(&citation.url).await {
                    Ok(last) => last,
                    Err(err) => {
                        tracing::debug!(error = %error_chain(err.as_ref()), "drift not checked");
                        None
                    }
                };
                seen.insert(citation.url.clone(), last);
            }
            let Some(Some(last)) = seen.get(&citation.url) else {
                continue;
            };
            let now = citation
                .meta
                .as_ref()
                .and_then(|m| m.content_sha256.as_deref());
            citation.follow_up.previously_seen = Some(last.recorded_at.clone());
            citation.follow_up.changed_since = last.changed(now);
        }
    }

    async fn record(&self, verdict: &ClaimVerdict, origin: &Origin) {
        let Some(recorder) = &self.recorder else {
            return;
        };
        if let Err(err) = recorder.record(verdict, origin).await {
            let error = error_chain(err.as_ref());
            if self.recorder_failed.swap(true, Ordering::Relaxed) {
                tracing::debug!(%error, "the verdict was not recorded");
            } else {
                tracing::warn!(%error, "verdicts are not being recorded");
            }
        }
    }

    /// Fetches, judges and guards one citation.
    async fn check_one(
        &self,
        claim: &str,
        url: &str,
        top_k: usize,
        scope: Option<&SharedPages>,
    ) -> UrlVerdict {
        let span = tracing::info_span!("citation", %url);
        async {
            let fetched = match scope {
                Some(scope) => scope.cache().get(url, || self.fetch_shared(url)).await,
                None => self.fetch_shared(url).await,
            };
            match fetched {
                Fetched::Rejected(rejection) => {
                    let mut verdict = self.rejected_verdict(url, &rejection);
                    self.consult_archive(claim, &mut verdict, top_k).await;
                    verdict
                }
                Fetched::Page(prepared) => self.judge_page(claim, url, prepared, top_k).await,
            }
        }
        .instrument(span)
        .await
    }

    /// `url` through the cache shared across claims, when the verifier keeps one.
    async fn fetch_shared(&self, url: &str) -> Fetched {
        match &self.pages {
            Some(cache) => cache.get(url, || self.fetch(url)).await,
            None => self.fetch(url).await,
        }
    }

    /// Fetches `url`, keeps the page when a store is attached, and prepares its passages.
    async fn fetch(&self, url: &str) -> Fetched {
        match self.fetcher.fetch(url).await {
            FetchOutcome::Rejected(rejection) => {
                tracing::info!(reason = %rejection.reason, detail = rejection.detail.as_deref().unwrap_or(""), "not judged");
                Fetched::Rejected(rejection)
            }
            FetchOutcome::Page(mut page) => {
                if let (None, Some(store)) = (&page.rid, &self.page_store) {
                    match store.keep(&page).await {
                        Ok(rid) => page.rid = Some(rid),
                        Err(err) => tracing::warn!(
                            %url,
                            error = %error_chain(err.as_ref()),
                            "the page was not kept for replay"
                        ),
                    }
                }
                Fetched::Page(Arc::new(self.prepare(page)))
            }
        }
    }

    /// Cuts a page into passages and stamps it.
    fn prepare(&self, page: Page) -> PreparedPage {
        // The builder refuses a zero budget, the only error `passage::split` has.
        let passages = passage::split(&page.markdown, self.options.max_words).unwrap_or_default();
        let content_sha256 = format!("{:x}", Sha256::digest(page.markdown.as_bytes()));
        // A link's address says nothing about what a passage means, yet its tokens weighed in
        // the ranking, and it changes with the host serving the page: the development set,
        // served on a random loopback port, ranked some passages differently run to run.
        let visible: Vec<String> = passages
            .iter()
            .map(|p| guard::strip_inline_markdown(p))
            .collect();
        let mut digest = Sha256::new();
        for text in &visible {
            digest.update((text.len() as u64).to_le_bytes());
            digest.update(text.as_bytes());
        }
        PreparedPage {
            passages: PagePassages {
                content_sha256,
                passages,
            },
            ranking: PagePassages {
                content_sha256: format!("{:x}", digest.finalize()),
                passages: visible,
            },
            fetched_at: humantime::format_rfc3339_seconds(SystemTime::now()).to_string(),
            page,
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
        // The archive is one more host: its lookups and the archived copy share its permits.
        let _permit = match &self.pages {
            Some(pages) => pages.host_permit(archive.client.base_url().as_str()).await,
            None => None,
        };
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
            Err(err) => {
                let detail = error_chain(&err);
                tracing::warn!(error = %detail, "ranking failed");
                verdict.reason = Some(Reason::RankerError);
                verdict.detail = Some(detail);
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
                let guarded = guard::check_with_claim(claim, &judgement, &top);
                if let Some(
                    reason @ (Reason::EvidenceQuoteNotInSource | Reason::EvidenceQuoteTooShort),
                ) = &guarded.reason
                {
                    tracing::info!(
                        quote = judgement.evidence_quote.as_deref().unwrap_or(""),
                        %reason,
                        "quote rejected by the guard; downgraded"
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
                let detail = error_chain(&err);
                tracing::warn!(error = %detail, "judge failed");
                verdict.reason = Some(Reason::JudgeError);
                verdict.detail = Some(detail);
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
    ) -> Result<Vec<String>, RankError> {
        let ranker = Arc::clone(&self.ranker);
        let prepared_for_rank = Arc::clone(prepared);
        let claim_owned = claim.to_string();
        // Ranking may run a neural model: keep it off the async executor.
        let ranked = tokio::task::spawn_blocking(move || {
            ranker.top_k(&claim_owned, &prepared_for_rank.ranking, k)
        })
        .await
        .map_err(RankError::Panicked)??;
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

pub use crate::error_text::error_chain;

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
        Verifier::builder(fetcher, Arc::new(Bm25Ranker), judge)
            .build()
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
        let result = v.verify(Check::new(WATER, &urls)).await;
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
            .verify(Check::new(WATER, ["https://a.example/dead"]))
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
            .verify(Check::new(
                "Water boils at 50 degrees.",
                ["https://a.example/w"],
            ))
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
        let result = v.verify(Check::new(WATER, ["https://a.example/w"])).await;
        assert_eq!(result.citations[0].label, Label::NotFound);
        assert_eq!(
            result.citations[0].reason,
            Some(Reason::EvidenceQuoteNotInSource)
        );
        assert_eq!(result.citations[0].confidence, 0.0);
    }

    /// Issue 12: a judge that quotes one word of the page with `supported` no longer passes.
    #[tokio::test]
    async fn a_one_word_quote_is_downgraded() {
        let fetcher = Arc::new(FakeFetcher::new(vec![("https://a.example/w", page(WATER))]));
        let v = verifier(fetcher, judge_saying(JudgeLabel::Supported, Some("Water")));
        let result = v.verify(Check::new(WATER, ["https://a.example/w"])).await;
        assert_eq!(result.citations[0].label, Label::NotFound);
        assert_eq!(
            result.citations[0].reason,
            Some(Reason::EvidenceQuoteTooShort)
        );
    }

    #[tokio::test]
    async fn a_failing_judge_is_a_judge_error_not_a_verdict() {
        let fetcher = Arc::new(FakeFetcher::new(vec![("https://a.example/w", page(WATER))]));
        let judge = Arc::new(FakeJudge {
            answer: Box::new(|_| Err(JudgeError::InvalidAnswer("not JSON".into()))),
            calls: AtomicUsize::new(0),
        });
        let v = verifier(fetcher, judge);
        let result = v.verify(Check::new(WATER, ["https://a.example/w"])).await;
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
        let result = v.verify(Check::new(WATER, ["https://a.example/p"])).await;
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
                Err(JudgeError::InvalidAnswer("recorded".into()))
            }),
            calls: AtomicUsize::new(0),
        });
        let options = VerifyOptions {
            max_words: 20,
            top_k: 2,
            ..VerifyOptions::default()
        };
        let v = Verifier::builder(fetcher, Arc::new(Bm25Ranker), judge)
            .options(options)
            .build()
            .expect("valid");
        v.verify(Check::new(
            "water boils 100 degrees",
            ["https://a.example/w"],
        ))
        .await;
        let first = seen.lock().expect("not poisoned").clone();
        assert_eq!(first.len(), 2);
        assert!(first[0].contains(WATER), "{first:?}");
        v.verify(Check::new("water boils 100 degrees", ["https://a.example/w"]).top_k(5))
            .await;
        assert_eq!(
            seen.lock().expect("not poisoned").len(),
            5,
            "a per-call k wins"
        );
    }

    /// Records the passages it is asked to rank; ranks them in page order.
    #[derive(Default)]
    struct RecordingRanker {
        seen: Mutex<Vec<PagePassages>>,
    }

    impl Ranker for RecordingRanker {
        fn name(&self) -> &str {
            "recording"
        }
        fn top_k(
            &self,
            _claim: &str,
            page: &PagePassages,
            k: usize,
        ) -> Result<Vec<usize>, RankError> {
            self.seen.lock().expect("not poisoned").push(page.clone());
            Ok((0..page.passages.len().min(k)).collect())
        }
    }

    #[tokio::test]
    async fn the_ranker_reads_passages_without_link_addresses_and_the_judge_reads_them_whole() {
        // The same article served from two ports: only the links' addresses differ.
        let article = |port: u16| {
            format!(
                "The **Danube** flows into the [Black Sea](http://127.0.0.1:{port}/black-sea) \
                 through a delta.\n\nSee also: [Rhine](http://127.0.0.1:{port}/rhine), \
                 ![map](http://127.0.0.1:{port}/map.png)"
            )
        };
        let fetcher = Arc::new(FakeFetcher::new(vec![
            ("https://a.example/one", page(&article(40001))),
            ("https://a.example/two", page(&article(51234))),
        ]));
        let ranker = Arc::new(RecordingRanker::default());
        let shown = Arc::new(Mutex::new(Vec::<String>::new()));
        let shown_in_judge = Arc::clone(&shown);
        let judge = Arc::new(FakeJudge {
            answer: Box::new(move |passages| {
                shown_in_judge
                    .lock()
                    .expect("not poisoned")
                    .extend_from_slice(passages);
                Err(JudgeError::InvalidAnswer("recorded".into()))
            }),
            calls: AtomicUsize::new(0),
        });
        let v = Verifier::builder(fetcher, Arc::clone(&ranker) as Arc<dyn Ranker>, judge)
            .build()
            .expect("valid");
        v.verify(Check::new(
            "The Danube ends in the Black Sea.",
            ["https://a.example/one", "https://a.example/two"],
        ))
        .await;
        let seen = ranker.seen.lock().expect("not poisoned").clone();
        assert_eq!(seen.len(), 2);
        assert_eq!(
            seen[0].passages,
            vec![
                "The Danube flows into the Black Sea through a delta.\n\nSee also: Rhine, map"
                    .to_string()
            ]
        );
        assert_eq!(
            seen[0], seen[1],
            "the same visible text, the same ranking input"
        );
        let shown = shown.lock().expect("not poisoned").clone();
        assert!(
            shown
                .iter()
                .any(|p| p.contains("(http://127.0.0.1:40001/black-sea)")),
            "the judge reads the passage as cut from the Markdown: {shown:?}"
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
            assert!(Verifier::builder(
                Arc::clone(&fetcher) as Arc<dyn Fetcher>,
                Arc::new(Bm25Ranker),
                Arc::clone(&judge) as Arc<dyn Judge>,
            )
            .options(options)
            .build()
            .is_err());
        }
    }
    /// Remembers what it was handed.
    #[derive(Default)]
    struct Keeper {
        pages: Mutex<Vec<String>>,
        verdicts: Mutex<Vec<(String, Origin)>>,
        fail: bool,
    }

    #[async_trait]
    impl PageStore for Keeper {
        async fn keep(&self, page: &Page) -> Result<String, crate::store::StoreError> {
            if self.fail {
                return Err("disk full".into());
            }
            self.pages
                .lock()
                .expect("not poisoned")
                .push(page.markdown.clone());
            Ok("kept-rid".to_string())
        }
    }

    #[async_trait]
    impl VerdictRecorder for Keeper {
        async fn record(
            &self,
            verdict: &ClaimVerdict,
            origin: &Origin,
        ) -> Result<(), crate::store::StoreError> {
            if self.fail {
                return Err("index locked".into());
            }
            self.verdicts
                .lock()
                .expect("not poisoned")
                .push((verdict.claim.clone(), origin.clone()));
            Ok(())
        }
    }

    /// Holds earlier verdicts by URL and counts the lookups.
    struct History {
        last: HashMap<&'static str, LastSeen>,
        lookups: AtomicUsize,
    }

    #[async_trait]
    impl VerdictRecorder for History {
        async fn record(
            &self,
            _: &ClaimVerdict,
            _: &Origin,
        ) -> Result<(), crate::store::StoreError> {
            Ok(())
        }

        async fn last_seen(&self, url: &str) -> Result<Option<LastSeen>, crate::store::StoreError> {
            self.lookups.fetch_add(1, Ordering::SeqCst);
            Ok(self.last.get(url).cloned())
        }
    }

    #[tokio::test]
    async fn drift_says_when_a_url_was_seen_and_whether_its_page_changed() {
        let same = format!("{:x}", Sha256::digest(WATER.as_bytes()));
        let history = Arc::new(History {
            last: HashMap::from([
                (
                    "https://a.example/same",
                    LastSeen {
                        recorded_at: "2025-03-01T12:00:00Z".into(),
                        content_sha256: Some(same),
                    },
                ),
                (
                    "https://a.example/edited",
                    LastSeen {
                        recorded_at: "2025-03-02T12:00:00Z".into(),
                        content_sha256: Some("0".repeat(64)),
                    },
                ),
            ]),
            lookups: AtomicUsize::new(0),
        });
        let fetcher = Arc::new(FakeFetcher::new(vec![
            ("https://a.example/same", page(WATER)),
            ("https://a.example/edited", page(WATER)),
            ("https://a.example/new", page(WATER)),
        ]));
        let v = Verifier::builder(
            fetcher,
            Arc::new(Bm25Ranker),
            judge_saying(JudgeLabel::Supported, Some(WATER)),
        )
        .recorder(Arc::clone(&history) as Arc<dyn VerdictRecorder>)
        .build()
        .expect("valid");
        let urls = [
            "https://a.example/same",
            "https://a.example/edited",
            "https://a.example/new",
            "https://a.example/same",
        ];
        let result = v.verify(Check::new(WATER, urls)).await;
        let f = |i: usize| &result.citations[i].follow_up;
        assert_eq!(
            f(0).previously_seen.as_deref(),
            Some("2025-03-01T12:00:00Z")
        );
        assert_eq!(f(0).changed_since, Some(false));
        assert_eq!(f(1).changed_since, Some(true));
        assert_eq!(
            (f(2).previously_seen.clone(), f(2).changed_since),
            (None, None)
        );
        assert_eq!(f(3), f(0));
        assert_eq!(
            history.lookups.load(Ordering::SeqCst),
            3,
            "one lookup per URL"
        );
    }

    fn unstamped(markdown: &str) -> FetchOutcome {
        let mut outcome = page(markdown);
        if let FetchOutcome::Page(p) = &mut outcome {
            p.rid = None;
        }
        outcome
    }

    #[tokio::test]
    async fn attached_stores_keep_the_page_and_the_verdict_with_its_origin() {
        let fetcher = Arc::new(FakeFetcher::new(vec![
            ("https://a.example/w", unstamped(WATER)),
            ("https://a.example/r", page(WATER)),
        ]));
        let keeper = Arc::new(Keeper::default());
        let v = Verifier::builder(
            fetcher,
            Arc::new(Bm25Ranker),
            judge_saying(JudgeLabel::Supported, Some(WATER)),
        )
        .page_store(Arc::clone(&keeper) as Arc<dyn PageStore>)
        .recorder(Arc::clone(&keeper) as Arc<dyn VerdictRecorder>)
        .build()
        .expect("valid");
        let origin = Origin::new("api").with_claim_id("c1");
        let result = v
            .verify(
                Check::new(WATER, ["https://a.example/w", "https://a.example/r"])
                    .origin(origin.clone()),
            )
            .await;
        assert_eq!(result.citations[0].rid.as_deref(), Some("kept-rid"));
        assert_eq!(
            result.citations[1].rid.as_deref(),
            Some("rid-1"),
            "a fetcher's own rid is left alone"
        );
        assert_eq!(keeper.pages.lock().expect("not poisoned").len(), 1);
        assert_eq!(
            *keeper.verdicts.lock().expect("not poisoned"),
            vec![(WATER.to_string(), origin)]
        );
    }

    #[tokio::test]
    async fn failing_stores_cost_the_record_never_the_verdict() {
        let fetcher = Arc::new(FakeFetcher::new(vec![(
            "https://a.example/w",
            unstamped(WATER),
        )]));
        let keeper = Arc::new(Keeper {
            fail: true,
            ..Keeper::default()
        });
        let v = Verifier::builder(
            fetcher,
            Arc::new(Bm25Ranker),
            judge_saying(JudgeLabel::Supported, Some(WATER)),
        )
        .page_store(Arc::clone(&keeper) as Arc<dyn PageStore>)
        .recorder(Arc::clone(&keeper) as Arc<dyn VerdictRecorder>)
        .build()
        .expect("valid");
        for _ in 0..2 {
            let result = v.verify(Check::new(WATER, ["https://a.example/w"])).await;
            assert_eq!(result.overall, Label::Supported);
            assert_eq!(result.citations[0].rid, None);
        }
    }

    /// A ranker whose model is gone.
    struct BrokenRanker;

    impl Ranker for BrokenRanker {
        fn name(&self) -> &str {
            "broken"
        }
        fn top_k(
            &self,
            _claim: &str,
            _page: &PagePassages,
            _k: usize,
        ) -> Result<Vec<usize>, RankError> {
            Err(RankError::Failed("weights truncated".into()))
        }
    }

    #[tokio::test]
    async fn a_ranking_failure_is_a_ranker_error_not_a_silent_not_found() {
        let fetcher = Arc::new(FakeFetcher::new(vec![("https://a.example/w", page(WATER))]));
        let judge = judge_saying(JudgeLabel::Supported, Some(WATER));
        let v = Verifier::builder(fetcher, Arc::new(BrokenRanker), Arc::clone(&judge) as _)
            .build()
            .expect("valid");
        let result = v.verify(Check::new(WATER, ["https://a.example/w"])).await;
        let c = &result.citations[0];
        assert_eq!(c.label, Label::NotFound);
        assert_eq!(c.reason, Some(Reason::RankerError));
        assert_eq!(
            c.detail.as_deref(),
            Some("the ranker failed: weights truncated"),
            "the cause once, no doubled prefix"
        );
        assert_eq!(judge.calls.load(Ordering::SeqCst), 0);
    }

    #[tokio::test]
    async fn a_retry_checks_only_the_failed_fetches_and_keeps_the_rest() {
        let fetcher = Arc::new(FakeFetcher::new(vec![
            ("https://a.example/w", page(WATER)),
            ("https://a.example/back", page(WATER)),
        ]));
        let v = verifier(
            Arc::clone(&fetcher),
            judge_saying(JudgeLabel::Supported, Some(WATER)),
        );
        let mut kept =
            UrlVerdict::without_judge("https://a.example/w", Label::Contradicted, Reason::Paywall);
        kept.confidence = 0.5;
        let failed = UrlVerdict::without_judge(
            "https://a.example/back",
            Label::Unreachable,
            Reason::Timeout,
        );
        let old = ClaimVerdict {
            claim: WATER.to_string(),
            overall: Label::Contradicted,
            citations: vec![kept.clone(), failed],
        };
        let result = v.verify(Check::retrying(old)).await;
        assert_eq!(result.citations[0], kept);
        assert_eq!(result.citations[1].label, Label::Supported);
        let fetches = fetcher.fetches.lock().expect("not poisoned").clone();
        assert_eq!(fetches, vec!["https://a.example/back".to_string()]);
    }

    #[tokio::test]
    async fn shared_pages_fetch_a_url_once_across_claims() {
        let fetcher = Arc::new(FakeFetcher::new(vec![("https://a.example/w", page(WATER))]));
        let v = Verifier::builder(
            Arc::clone(&fetcher) as Arc<dyn Fetcher>,
            Arc::new(Bm25Ranker),
            judge_saying(JudgeLabel::Supported, Some(WATER)),
        )
        .shared_pages(8, 2)
        .build()
        .expect("valid");
        for _ in 0..3 {
            v.verify(Check::new(WATER, ["https://a.example/w"])).await;
        }
        assert_eq!(fetcher.fetches.lock().expect("not poisoned").len(), 1);
        assert_eq!(
            v.page_stats(),
            Some(CacheStats {
                fetches: 1,
                hits: 2
            })
        );
        assert_eq!(
            verifier(fetcher, judge_saying(JudgeLabel::NotFound, None)).page_stats(),
            None
        );
    }

    #[tokio::test]
    async fn checks_sharing_pages_fetch_a_url_once_and_the_page_stays_readable() {
        let fetcher = Arc::new(FakeFetcher::new(vec![("https://a.example/w", page(WATER))]));
        let v = verifier(
            Arc::clone(&fetcher),
            judge_saying(JudgeLabel::Supported, Some(WATER)),
        );
        let scope = SharedPages::new();
        let (a, b) = futures::join!(
            v.verify(Check::new(WATER, ["https://a.example/w"]).pages(&scope)),
            v.verify(
                Check::new(WATER, ["https://a.example/w", "https://a.example/x"]).pages(&scope)
            ),
        );
        assert_eq!(a.citations[0].label, Label::Supported);
        assert_eq!(b.citations[0].label, Label::Supported);
        let fetched = fetcher.fetches.lock().expect("not poisoned").clone();
        assert_eq!(
            fetched
                .iter()
                .filter(|u| u.as_str() == "https://a.example/w")
                .count(),
            1,
            "{fetched:?}"
        );
        assert_eq!(
            scope.stats(),
            CacheStats {
                fetches: 2,
                hits: 1
            }
        );
        assert!(scope
            .markdown("https://a.example/w")
            .is_some_and(|m| m.contains("100 degrees")));
        assert_eq!(scope.markdown("https://a.example/x"), None, "not a page");
        // Another scope, or none, fetches again: nothing is kept past the work.
        v.verify(Check::new(WATER, ["https://a.example/w"])).await;
        assert_eq!(fetcher.fetches.lock().expect("not poisoned").len(), 3);
    }
}
