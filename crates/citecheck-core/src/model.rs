//! The values that travel through the pipeline and out of it: labels, reasons, per-citation
//! verdicts and the per-claim result.
//!
//! Field names and label/reason strings match the reference design's JSON exactly, so a client
//! written against it can switch to citecheck unchanged.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The four labels a citation (and a claim) can receive.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Label {
    Supported,
    Contradicted,
    NotFound,
    Unreachable,
}

impl Label {
    pub const ALL: [Label; 4] = [
        Label::Supported,
        Label::Contradicted,
        Label::NotFound,
        Label::Unreachable,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Label::Supported => "supported",
            Label::Contradicted => "contradicted",
            Label::NotFound => "not_found",
            Label::Unreachable => "unreachable",
        }
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Label {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Label::ALL
            .into_iter()
            .find(|l| l.as_str() == s)
            .ok_or_else(|| format!("unknown label `{s}`"))
    }
}

/// Why a citation got its label when the label alone does not say it.
///
/// Serialised as a snake_case string (`http_404`, `soft_404`, ...). The reasons fall into three
/// families that batch tooling relies on: [`Reason::is_dead`] (the source is gone: retrying will
/// not help), [`Reason::is_fetch_failure`] (the content could not be fetched this time: worth a
/// retry later), and content/judge reasons (the page was read).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Reason {
    /// The origin answered with this HTTP status (404, 410: dead; 403, 429, 5xx: fetch failed).
    Http(u16),
    /// The host name does not exist (NXDOMAIN): a dead link.
    NoSuchDomain,
    /// Name resolution failed for another reason (no answer, server failure).
    DnsError,
    /// The TCP connection was refused, reset or could not be made.
    ConnectError,
    /// The TLS handshake failed (bad certificate, protocol error).
    TlsError,
    /// Connecting or reading took longer than the configured timeout.
    Timeout,
    /// More redirects than the configured bound.
    TooManyRedirects,
    /// A redirect without a usable `Location`, or another malformed answer.
    BadResponse,
    /// The decompressed body exceeded the configured cap.
    BodyTooLarge,
    /// The URL does not parse.
    InvalidUrl,
    /// The address guard refused the URL (scheme, or a private/loopback/metadata address).
    BlockedAddress,
    /// A deep link that landed on the site's homepage.
    RedirectedToHomepage,
    /// A PDF (by path or content type) while PDF reading is off (`--no-pdf`).
    PdfUnsupported,
    /// A PDF without a text layer (a scan): there is nothing to quote.
    PdfNoText,
    /// A PDF whose text needs a password.
    PdfEncrypted,
    /// A content type that is neither HTML nor text (images, archives, ...).
    UnsupportedContentType,
    /// A 200 page that is a short "page not found" template.
    Soft404,
    /// An empty page that only a browser running its scripts would fill (or that stayed empty
    /// when the local renderer ran them).
    NeedsJavascript,
    /// The local renderer (`--render chromium`) did not finish the page within its deadline.
    RenderTimeout,
    /// The local renderer failed: the browser could not start, crashed or lost the page.
    RenderFailed,
    /// The page shows only a subscription teaser and the judge found nothing in it.
    Paywall,
    /// The judge's quote is not in the passages it was shown.
    EvidenceQuoteNotInSource,
    /// The judge's quote is on the page but too short to carry the claim (one word, say).
    EvidenceQuoteTooShort,
    /// The judge failed (transport, malformed answer, refusal); see the audit for the cause.
    JudgeError,
    /// The ranker failed (its model missing or broken), so no judge was asked; see `detail`.
    RankerError,
    /// A crawling service could not fetch the page after retries.
    CrawlFailed,
    /// The page's markup is over the conversion limits (attributes) or its conversion ran out of
    /// its time budget.
    PageTooComplex,
}

impl Reason {
    /// The snake_case string used in JSON, CSV and the audit store.
    pub fn as_string(&self) -> String {
        let fixed = match self {
            Reason::Http(code) => return format!("http_{code}"),
            Reason::NoSuchDomain => "no_such_domain",
            Reason::DnsError => "dns_error",
            Reason::ConnectError => "connect_error",
            Reason::TlsError => "tls_error",
            Reason::Timeout => "timeout",
            Reason::TooManyRedirects => "too_many_redirects",
            Reason::BadResponse => "bad_response",
            Reason::BodyTooLarge => "body_too_large",
            Reason::InvalidUrl => "invalid_url",
            Reason::BlockedAddress => "blocked_address",
            Reason::RedirectedToHomepage => "redirected_to_homepage",
            Reason::PdfUnsupported => "pdf_unsupported",
            Reason::PdfNoText => "pdf_no_text",
            Reason::PdfEncrypted => "pdf_encrypted",
            Reason::UnsupportedContentType => "unsupported_content_type",
            Reason::Soft404 => "soft_404",
            Reason::NeedsJavascript => "needs_javascript",
            Reason::RenderTimeout => "render_timeout",
            Reason::RenderFailed => "render_failed",
            Reason::Paywall => "paywall",
            Reason::EvidenceQuoteNotInSource => "evidence_quote_not_in_source",
            Reason::EvidenceQuoteTooShort => "evidence_quote_too_short",
            Reason::JudgeError => "judge_error",
            Reason::RankerError => "ranker_error",
            Reason::CrawlFailed => "crawl_failed",
            Reason::PageTooComplex => "page_too_complex",
        };
        fixed.to_string()
    }

    /// Parses the string form; unknown strings are an error so that audit rows stay meaningful.
    pub fn parse(s: &str) -> Option<Reason> {
        if let Some(code) = s.strip_prefix("http_") {
            return code
                .parse::<u16>()
                .ok()
                .filter(|c| (100..=999).contains(c))
                .map(Reason::Http);
        }
        let r = match s {
            "no_such_domain" => Reason::NoSuchDomain,
            "dns_error" => Reason::DnsError,
            "connect_error" => Reason::ConnectError,
            "tls_error" => Reason::TlsError,
            "timeout" => Reason::Timeout,
            "too_many_redirects" => Reason::TooManyRedirects,
            "bad_response" => Reason::BadResponse,
            "body_too_large" => Reason::BodyTooLarge,
            "invalid_url" => Reason::InvalidUrl,
            "blocked_address" => Reason::BlockedAddress,
            "redirected_to_homepage" => Reason::RedirectedToHomepage,
            "pdf_unsupported" => Reason::PdfUnsupported,
            "pdf_no_text" => Reason::PdfNoText,
            "pdf_encrypted" => Reason::PdfEncrypted,
            "unsupported_content_type" => Reason::UnsupportedContentType,
            "soft_404" => Reason::Soft404,
            "needs_javascript" => Reason::NeedsJavascript,
            "render_timeout" => Reason::RenderTimeout,
            "render_failed" => Reason::RenderFailed,
            "paywall" => Reason::Paywall,
            "evidence_quote_not_in_source" => Reason::EvidenceQuoteNotInSource,
            "evidence_quote_too_short" => Reason::EvidenceQuoteTooShort,
            "judge_error" => Reason::JudgeError,
            "ranker_error" => Reason::RankerError,
            "crawl_failed" => Reason::CrawlFailed,
            "page_too_complex" => Reason::PageTooComplex,
            _ => return None,
        };
        Some(r)
    }

    /// The source is gone (404, 410, no such domain): a retry will not bring it back.
    pub fn is_dead(&self) -> bool {
        matches!(self, Reason::Http(404 | 410) | Reason::NoSuchDomain)
    }

    /// A dead end worth asking the web archive about: the URL is gone (404, 410, no such
    /// domain) or only pretends to exist (homepage redirect, soft 404).
    pub fn is_archive_candidate(&self) -> bool {
        self.is_dead() || matches!(self, Reason::RedirectedToHomepage | Reason::Soft404)
    }

    /// The content could not be fetched this time; a later retry may succeed.
    pub fn is_fetch_failure(&self) -> bool {
        match self {
            Reason::Http(code) => !matches!(code, 404 | 410),
            Reason::DnsError
            | Reason::ConnectError
            | Reason::TlsError
            | Reason::Timeout
            | Reason::RenderTimeout
            | Reason::RenderFailed
            | Reason::CrawlFailed => true,
            _ => false,
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.as_string())
    }
}

impl Serialize for Reason {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.as_string())
    }
}

/// Reasons are open-ended (`http_NNN`), so the schema is a pattern rather than an enum.
#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for Reason {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .pattern(Some("^[a-z0-9_]+$"))
            .description(Some(
                "Why the citation got its label, in snake_case: `http_NNN` for an origin's \
                 status, or a fixed name such as `soft_404`, `blocked_address`, `timeout`, \
                 `evidence_quote_not_in_source`.",
            ))
            .examples(["http_404", "soft_404", "evidence_quote_not_in_source"])
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for Reason {}

impl<'de> Deserialize<'de> for Reason {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        Reason::parse(&s).ok_or_else(|| serde::de::Error::custom(format!("unknown reason `{s}`")))
    }
}

/// The verdict for one cited URL.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UrlVerdict {
    pub url: String,
    pub label: Label,
    pub evidence_quote: Option<String>,
    pub confidence: f64,
    pub final_url: Option<String>,
    pub original_status: Option<u16>,
    pub rid: Option<String>,
    pub reason: Option<Reason>,
    /// What happened beyond the label, for people and the audit (a judge's error, a retry
    /// count). Absent from the reference design's shape, so omitted when there is nothing to say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Provenance of the verdict (fetcher, judge, prompt version, token usage, content hash).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<VerdictMeta>,
    /// What lets a reader check the verdict: a link to the quote, what became of a dead link,
    /// whether the page changed since it was last checked. Its fields sit beside the others.
    #[serde(flatten)]
    pub follow_up: FollowUp,
}

/// The parts of a verdict a reader follows up on; each is absent from JSON when it has nothing
/// to say, so a verdict without them keeps the reference design's shape.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FollowUp {
    /// The final URL with a text fragment (`#:~:text=`) that makes a browser scroll to the
    /// evidence quote and highlight it (`supported` and `contradicted` citations).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence_url: Option<String>,
    /// The quote's character range in the stored page (the Markdown the guard checked).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence_offsets: Option<EvidenceOffsets>,
    /// What the Internet Archive holds for a dead link.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub archive: Option<ArchiveInfo>,
    /// When the audit index last held a verdict for this URL (RFC 3339), if ever.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previously_seen: Option<String>,
    /// Whether the page's content hash differs from the one that earlier verdict recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changed_since: Option<bool>,
}

/// A character range (Unicode scalar values, end exclusive) in a stored page.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvidenceOffsets {
    pub start: usize,
    pub end: usize,
}

/// What the Internet Archive says about a URL that is dead now.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArchiveInfo {
    pub status: ArchiveStatus,
    /// The latest capture that answered 200, on the archive's replay service.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapshot_url: Option<String>,
    /// When that capture was taken (RFC 3339, UTC).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub captured_at: Option<String>,
    /// The claim judged against the archived copy (`--archive-verify`); the citation's own
    /// label, about the live URL, does not change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Label>,
    /// The quote behind `verdict`, from the archived copy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence_quote: Option<String>,
    /// What the status means, in words (and why a lookup failed).
    pub note: String,
}

/// Whether the archive ever captured a URL.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArchiveStatus {
    /// Captured with status 200 at least once: the page existed, the link rotted.
    Archived,
    /// Never captured: the URL may never have existed (possibly fabricated).
    NeverArchived,
    /// The archive could not be asked (timeout, refusal, garbage); nothing is concluded.
    LookupFailed,
}

impl ArchiveStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            ArchiveStatus::Archived => "archived",
            ArchiveStatus::NeverArchived => "never_archived",
            ArchiveStatus::LookupFailed => "lookup_failed",
        }
    }
}

impl UrlVerdict {
    /// A verdict decided before any judge was asked (dead link, PDF, blocked address, ...).
    pub fn without_judge(url: impl Into<String>, label: Label, reason: Reason) -> Self {
        UrlVerdict {
            url: url.into(),
            label,
            evidence_quote: None,
            // The fetch stage is certain of what it saw: the page answered 404, or it was a PDF.
            confidence: 1.0,
            final_url: None,
            original_status: None,
            rid: None,
            reason: Some(reason),
            detail: None,
            meta: None,
            follow_up: FollowUp::default(),
        }
    }
}

/// Provenance kept with each verdict for the audit.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct VerdictMeta {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fetcher: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge: Option<JudgeInfo>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<TokenUsage>,
    /// SHA-256 (hex) of the page's Markdown, when a page was read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_sha256: Option<String>,
    /// When the page was fetched (RFC 3339, UTC).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fetched_at: Option<String>,
    /// Requests and estimated credits a crawling service spent on this URL (Crawlbase only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crawl_cost: Option<CrawlCost>,
}

/// What fetching through a crawling service cost: requests counted by kind as they were sent,
/// and the credits they are estimated to be billed.
///
/// The estimate follows Crawlbase's published rules: a normal request costs 1 credit, a
/// JavaScript-rendered one 2, and keeping the page in storage adds 0.5; a failed crawl is not
/// billed, a crawl of a 404/410 page is, and reading a stored page back is free. The service's
/// own dashboard is the authority; this is what citecheck can tell from the answers it saw.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CrawlCost {
    /// Crawling API requests sent with the normal token and no browser rendering.
    #[serde(default)]
    pub normal_requests: u64,
    /// Crawling API requests rendered in a browser (JavaScript token, or `javascript=true`).
    #[serde(default)]
    pub javascript_requests: u64,
    /// Storage API reads (replays of stored pages).
    #[serde(default)]
    pub storage_requests: u64,
    /// Normal requests the service bills.
    #[serde(default)]
    pub billed_normal: u64,
    /// JavaScript requests the service bills.
    #[serde(default)]
    pub billed_javascript: u64,
    /// Pages kept in the service's storage.
    #[serde(default)]
    pub stored_pages: u64,
}

impl CrawlCost {
    pub const NORMAL_CREDITS: f64 = 1.0;
    pub const JAVASCRIPT_CREDITS: f64 = 2.0;
    pub const STORED_PAGE_CREDITS: f64 = 0.5;

    /// Every request sent, whatever its kind.
    pub fn requests(&self) -> u64 {
        self.normal_requests + self.javascript_requests + self.storage_requests
    }

    /// The estimated credits billed.
    pub fn credits(&self) -> f64 {
        self.billed_normal as f64 * Self::NORMAL_CREDITS
            + self.billed_javascript as f64 * Self::JAVASCRIPT_CREDITS
            + self.stored_pages as f64 * Self::STORED_PAGE_CREDITS
    }
}

impl std::ops::AddAssign for CrawlCost {
    fn add_assign(&mut self, rhs: Self) {
        self.normal_requests += rhs.normal_requests;
        self.javascript_requests += rhs.javascript_requests;
        self.storage_requests += rhs.storage_requests;
        self.billed_normal += rhs.billed_normal;
        self.billed_javascript += rhs.billed_javascript;
        self.stored_pages += rhs.stored_pages;
    }
}

/// Serialised with the estimate alongside the counts, so a report needs no billing rules.
impl Serialize for CrawlCost {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("CrawlCost", 7)?;
        s.serialize_field("normal_requests", &self.normal_requests)?;
        s.serialize_field("javascript_requests", &self.javascript_requests)?;
        s.serialize_field("storage_requests", &self.storage_requests)?;
        s.serialize_field("billed_normal", &self.billed_normal)?;
        s.serialize_field("billed_javascript", &self.billed_javascript)?;
        s.serialize_field("stored_pages", &self.stored_pages)?;
        s.serialize_field("estimated_credits", &self.credits())?;
        s.end()
    }
}

/// Which judge produced a verdict.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JudgeInfo {
    pub provider: String,
    pub model: String,
    pub prompt_version: String,
}

/// Tokens a judge call consumed, as reported by the provider.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenUsage {
    pub input_tokens: u64,
    pub output_tokens: u64,
}

impl std::ops::AddAssign for TokenUsage {
    fn add_assign(&mut self, rhs: Self) {
        self.input_tokens += rhs.input_tokens;
        self.output_tokens += rhs.output_tokens;
    }
}

/// The result for one claim: its overall label and one verdict per cited URL, in citation order.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClaimVerdict {
    pub claim: String,
    pub overall: Label,
    pub citations: Vec<UrlVerdict>,
}

impl ClaimVerdict {
    /// Token usage summed over the claim's judge calls.
    pub fn usage(&self) -> TokenUsage {
        let mut total = TokenUsage::default();
        for usage in self
            .citations
            .iter()
            .filter_map(|c| c.meta.as_ref().and_then(|m| m.usage))
        {
            total += usage;
        }
        total
    }

    /// Crawl cost summed over the claim's distinct URLs (a URL cited twice was fetched once).
    pub fn crawl_cost(&self) -> CrawlCost {
        let mut seen = std::collections::HashSet::new();
        let mut total = CrawlCost::default();
        for citation in &self.citations {
            if !seen.insert(citation.url.as_str()) {
                continue;
            }
            if let Some(cost) = citation.meta.as_ref().and_then(|m| m.crawl_cost) {
                total += cost;
            }
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_round_trip_through_their_strings() {
        let all = [
            Reason::Http(404),
            Reason::Http(503),
            Reason::NoSuchDomain,
            Reason::DnsError,
            Reason::ConnectError,
            Reason::TlsError,
            Reason::Timeout,
            Reason::TooManyRedirects,
            Reason::BadResponse,
            Reason::BodyTooLarge,
            Reason::InvalidUrl,
            Reason::BlockedAddress,
            Reason::RedirectedToHomepage,
            Reason::PdfUnsupported,
            Reason::PdfNoText,
            Reason::PdfEncrypted,
            Reason::UnsupportedContentType,
            Reason::Soft404,
            Reason::NeedsJavascript,
            Reason::RenderTimeout,
            Reason::RenderFailed,
            Reason::Paywall,
            Reason::EvidenceQuoteNotInSource,
            Reason::EvidenceQuoteTooShort,
            Reason::JudgeError,
            Reason::RankerError,
            Reason::CrawlFailed,
            Reason::PageTooComplex,
        ];
        for reason in all {
            let text = reason.as_string();
            assert_eq!(Reason::parse(&text), Some(reason.clone()), "{text}");
            assert!(text
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'));
        }
        assert_eq!(Reason::parse("http_abc"), None);
        assert_eq!(Reason::parse("nonsense"), None);
    }

    #[test]
    fn dead_links_are_told_apart_from_fetch_failures() {
        for dead in [Reason::Http(404), Reason::Http(410), Reason::NoSuchDomain] {
            assert!(dead.is_dead() && !dead.is_fetch_failure(), "{dead}");
        }
        for failed in [
            Reason::Http(503),
            Reason::Http(429),
            Reason::Http(403),
            Reason::DnsError,
            Reason::Timeout,
            Reason::ConnectError,
            Reason::TlsError,
            Reason::CrawlFailed,
        ] {
            assert!(failed.is_fetch_failure() && !failed.is_dead(), "{failed}");
        }
        assert!(!Reason::Soft404.is_dead() && !Reason::Soft404.is_fetch_failure());
    }

    #[test]
    fn crawl_cost_estimates_credits_and_serialises_the_estimate() {
        let cost = CrawlCost {
            normal_requests: 2,
            javascript_requests: 1,
            storage_requests: 1,
            billed_normal: 1,
            billed_javascript: 1,
            stored_pages: 2,
        };
        assert_eq!(cost.requests(), 4);
        assert_eq!(cost.credits(), 4.0);
        let json = serde_json::to_value(cost).expect("serialises");
        assert_eq!(json["estimated_credits"], 4.0);
        let back: CrawlCost = serde_json::from_value(json).expect("reads back");
        assert_eq!(back, cost);
    }

    #[test]
    fn a_claims_crawl_cost_counts_a_url_cited_twice_once() {
        let mut v =
            UrlVerdict::without_judge("https://a.example/x", Label::NotFound, Reason::Soft404);
        v.meta = Some(VerdictMeta {
            crawl_cost: Some(CrawlCost {
                normal_requests: 1,
                billed_normal: 1,
                stored_pages: 1,
                ..CrawlCost::default()
            }),
            ..VerdictMeta::default()
        });
        let claim = ClaimVerdict {
            claim: "c".into(),
            overall: Label::NotFound,
            citations: vec![v.clone(), v],
        };
        assert_eq!(claim.crawl_cost().normal_requests, 1);
        assert_eq!(claim.crawl_cost().credits(), 1.5);
    }

    #[test]
    fn a_verdict_serialises_in_the_reference_shape() {
        let mut v = UrlVerdict::without_judge(
            "https://example.com/old-report",
            Label::Unreachable,
            Reason::Http(404),
        );
        v.original_status = Some(404);
        v.final_url = Some("https://example.com/old-report".into());
        let json = serde_json::to_value(&v).expect("serialises");
        assert_eq!(
            json,
            serde_json::json!({
                "url": "https://example.com/old-report",
                "label": "unreachable",
                "evidence_quote": null,
                "confidence": 1.0,
                "final_url": "https://example.com/old-report",
                "original_status": 404,
                "rid": null,
                "reason": "http_404"
            })
        );
    }
}
