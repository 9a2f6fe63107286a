//! A batch's figures: citation precision (supported / every citation), reachable precision
//! (supported / citations that were not `unreachable`), counts per label and per reason, and
//! dead links kept apart from fetch failures (only the latter are worth `--retry-failed`).

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};

use citecheck_answer::Problem;
use citecheck_core::model::CrawlCost;
use citecheck_core::{ArchiveStatus, Label, Reason, TokenUsage, UrlVerdict};
use serde::Serialize;

use crate::answer::AnswerVerdict;

/// Citation precision over claim-URL pairs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Precision {
    pub supported: u64,
    pub total: u64,
    /// Citations whose label is not `unreachable`.
    pub reachable: u64,
}

impl Precision {
    /// Supported over every citation; `None` for an empty batch.
    pub fn citation(&self) -> Option<f64> {
        ratio(self.supported, self.total)
    }

    /// Supported over reachable citations; `None` when nothing was reachable.
    pub fn reachable_only(&self) -> Option<f64> {
        ratio(self.supported, self.reachable)
    }
}

fn ratio(numerator: u64, denominator: u64) -> Option<f64> {
    (denominator > 0).then(|| numerator as f64 / denominator as f64)
}

/// Everything the end of a batch reports.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Summary {
    pub precision: Precision,
    /// Claims verified in this run.
    pub claims_verified: u64,
    /// Claims already in the output before this run (their citations are in the figures).
    pub claims_resumed: u64,
    /// Claims whose failed fetches were tried again.
    pub claims_retried: u64,
    pub bad_lines: u64,
    pub labels: BTreeMap<String, u64>,
    pub reasons: BTreeMap<String, u64>,
    /// 404, 410, no such domain, by reason.
    pub dead_links: BTreeMap<String, u64>,
    /// Everything `--retry-failed` would try again, by reason.
    pub fetch_failures: BTreeMap<String, u64>,
    /// What the web archive said about the dead links: rot apart from possibly fabricated.
    #[serde(default)]
    pub archive: ArchiveCounts,
    /// Distinct URL fetches in this run and citations served from the batch's page cache.
    pub pages_fetched: u64,
    pub cache_hits: u64,
    pub interrupted: bool,
    /// Judge tokens over every citation verified in this run.
    #[serde(default)]
    pub tokens: TokenUsage,
    /// What the crawling service was asked for in this run (set from the fetcher's own counters,
    /// since a page shared by several claims is fetched, and billed, once).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crawl: Option<CrawlCost>,
    /// Figures per whole answer (`batch --answers`), over the answers whose statements are in
    /// the results.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answers: Option<AnswerFigures>,
}

/// Figures over whole answers: each answer's label (the claim rule over its statements), and
/// its cited statements, sentences and unusable citations.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct AnswerFigures {
    /// Answers with at least one verified statement.
    pub answers: u64,
    /// Answers by their overall label (every label present, zero included).
    pub by_label: BTreeMap<String, u64>,
    /// Cited statements verified, and those labelled `supported`.
    pub statements: u64,
    pub statements_supported: u64,
    /// Supported statements over every statement (`None` without statements).
    pub supported_share_overall: Option<f64>,
    /// The mean over answers of each answer's share of supported statements.
    pub supported_share_mean: Option<f64>,
    /// Sentences of the answers' prose, and those no citation covers.
    pub sentences: u64,
    pub uncited_sentences: u64,
    /// Citations whose offsets fall outside the text or inside a character.
    pub invalid_spans: u64,
    /// Citations that point at no URL.
    pub not_checkable_by_url: u64,
    #[serde(skip)]
    share_sum: f64,
}

impl AnswerFigures {
    /// Counts one answer.
    pub fn add(&mut self, answer: &AnswerVerdict) {
        if self.by_label.is_empty() {
            for label in Label::ALL {
                self.by_label.insert(label.as_str().to_string(), 0);
            }
        }
        self.answers += 1;
        *self
            .by_label
            .entry(answer.overall.as_str().to_string())
            .or_default() += 1;
        let s = &answer.summary;
        self.statements += s.statements as u64;
        self.statements_supported += s
            .by_label
            .get(&Label::Supported)
            .copied()
            .unwrap_or_default() as u64;
        self.share_sum += s.supported_share;
        self.supported_share_mean = Some(self.share_sum / self.answers as f64);
        self.supported_share_overall = ratio(self.statements_supported, self.statements);
        self.sentences += s.sentences as u64;
        self.uncited_sentences += s.uncited_sentences as u64;
        for u in &answer.unchecked {
            match u.problem {
                Problem::InvalidSpan => self.invalid_spans += 1,
                Problem::NotCheckableByUrl => self.not_checkable_by_url += 1,
            }
        }
    }

    /// The figures as text lines.
    pub fn render(&self) -> String {
        let share = |v: Option<f64>| v.map_or_else(|| "n/a".to_string(), |v| format!("{v:.4}"));
        let labels: Vec<String> = Label::ALL
            .iter()
            .map(|l| {
                format!(
                    "{l}={}",
                    self.by_label.get(l.as_str()).copied().unwrap_or(0)
                )
            })
            .collect();
        format!(
            "answers: {} verified; labels: {}\n\
             answer statements: {} cited, supported_share={} overall ({}/{}), {} mean per answer\n\
             answer sentences: {} uncited of {}; invalid spans: {}; not checkable by URL: {}\n",
            self.answers,
            labels.join(" "),
            self.statements,
            share(self.supported_share_overall),
            self.statements_supported,
            self.statements,
            share(self.supported_share_mean),
            self.uncited_sentences,
            self.sentences,
            self.invalid_spans,
            self.not_checkable_by_url,
        )
    }
}

/// Dead links by what the web archive said about them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct ArchiveCounts {
    /// Archived once: the page existed, the link rotted.
    pub link_rot: u64,
    /// Never archived: possibly fabricated.
    pub never_archived: u64,
    /// The archive could not be asked.
    pub lookup_failed: u64,
}

impl ArchiveCounts {
    pub fn total(&self) -> u64 {
        self.link_rot + self.never_archived + self.lookup_failed
    }
}

impl Summary {
    /// Counts one citation.
    pub fn add(&mut self, citation: &UrlVerdict) {
        self.add_parts(citation.label, citation.reason.as_ref());
        if let Some(archive) = &citation.follow_up.archive {
            self.add_archive(archive.status);
        }
        if let Some(usage) = citation.meta.as_ref().and_then(|m| m.usage) {
            self.tokens += usage;
        }
    }

    /// Counts what the archive said about one dead link.
    pub fn add_archive(&mut self, status: ArchiveStatus) {
        match status {
            ArchiveStatus::Archived => self.archive.link_rot += 1,
            ArchiveStatus::NeverArchived => self.archive.never_archived += 1,
            ArchiveStatus::LookupFailed => self.archive.lookup_failed += 1,
        }
    }

    pub fn add_parts(&mut self, label: Label, reason: Option<&Reason>) {
        self.precision.total += 1;
        if label == Label::Supported {
            self.precision.supported += 1;
        }
        if label != Label::Unreachable {
            self.precision.reachable += 1;
        }
        *self.labels.entry(label.as_str().to_string()).or_default() += 1;
        if let Some(reason) = reason {
            let name = reason.as_string();
            if reason.is_dead() {
                *self.dead_links.entry(name.clone()).or_default() += 1;
            } else if reason.is_fetch_failure() {
                *self.fetch_failures.entry(name.clone()).or_default() += 1;
            }
            *self.reasons.entry(name).or_default() += 1;
        }
    }

    /// The figures as text, one fact per line; the two precision lines match the reference
    /// design's output exactly.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let p = self.precision;
        let mut claims = format!("claims: {} verified", self.claims_verified);
        if self.claims_resumed > 0 {
            let _ = write!(claims, ", {} already in the output", self.claims_resumed);
        }
        if self.claims_retried > 0 {
            let _ = write!(claims, ", {} retried", self.claims_retried);
        }
        let _ = write!(claims, ", {} bad lines skipped", self.bad_lines);
        let _ = writeln!(out, "{claims}");
        let _ = writeln!(out, "citations: {}", p.total);
        match p.citation() {
            Some(value) => {
                let _ = writeln!(
                    out,
                    "citation_precision={value:.4} ({}/{})",
                    p.supported, p.total
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "citation_precision=n/a (0/0): no citation was verified"
                );
            }
        }
        match p.reachable_only() {
            Some(value) => {
                let _ = writeln!(
                    out,
                    "reachable_precision={value:.4} ({}/{})",
                    p.supported, p.reachable
                );
            }
            // Zero citations is not "every citation was unreachable".
            None if p.total == 0 => {
                let _ = writeln!(
                    out,
                    "reachable_precision=n/a (0/0): no citation was verified"
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "reachable_precision=n/a (0/0): nothing was reachable, every citation was unreachable"
                );
            }
        }
        let labels: Vec<String> = Label::ALL
            .iter()
            .map(|l| format!("{l}={}", self.labels.get(l.as_str()).copied().unwrap_or(0)))
            .collect();
        let _ = writeln!(out, "labels: {}", labels.join(" "));
        let _ = writeln!(out, "reasons: {}", counts(&self.reasons, "none"));
        let _ = writeln!(
            out,
            "dead links: {} ({})",
            self.dead_links.values().sum::<u64>(),
            counts(&self.dead_links, "none")
        );
        if self.archive.total() > 0 {
            let a = self.archive;
            let _ = writeln!(
                out,
                "archive: {} link rot (archived before), {} never archived (possibly \
                 fabricated), {} lookups failed",
                a.link_rot, a.never_archived, a.lookup_failed
            );
        }
        let failures: u64 = self.fetch_failures.values().sum();
        let _ = write!(
            out,
            "fetch failures: {failures} ({})",
            counts(&self.fetch_failures, "none")
        );
        if failures > 0 {
            out.push_str(": try them again with --retry-failed");
        }
        out.push('\n');
        let _ = writeln!(
            out,
            "pages: {} fetched, {} citations served from the batch cache",
            self.pages_fetched, self.cache_hits
        );
        if self.tokens.input_tokens + self.tokens.output_tokens > 0 {
            let _ = writeln!(
                out,
                "judge tokens: {} in, {} out",
                self.tokens.input_tokens, self.tokens.output_tokens
            );
        }
        if let Some(crawl) = &self.crawl {
            let _ = writeln!(
                out,
                "crawlbase: {} normal, {} javascript, {} storage requests; estimated credits {:.1}",
                crawl.normal_requests,
                crawl.javascript_requests,
                crawl.storage_requests,
                crawl.credits()
            );
        }
        if let Some(answers) = &self.answers {
            out.push_str(&answers.render());
        }
        if self.interrupted {
            let _ = writeln!(
                out,
                "interrupted: finished claims are kept; run again with --resume to continue"
            );
        }
        out
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

fn counts(map: &BTreeMap<String, u64>, empty: &str) -> String {
    if map.is_empty() {
        return empty.to_string();
    }
    map.iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary_of(citations: &[(Label, Option<Reason>)]) -> Summary {
        let mut s = Summary::default();
        for (label, reason) in citations {
            s.add_parts(*label, reason.as_ref());
        }
        s
    }

    #[test]
    fn link_rot_is_counted_apart_from_never_archived_links() {
        let mut s = Summary::default();
        for (reason, status) in [
            (Reason::Http(404), Some(ArchiveStatus::Archived)),
            (Reason::Http(410), Some(ArchiveStatus::Archived)),
            (Reason::NoSuchDomain, Some(ArchiveStatus::NeverArchived)),
            (Reason::Soft404, Some(ArchiveStatus::LookupFailed)),
            (Reason::Http(503), None),
        ] {
            let mut c =
                UrlVerdict::without_judge("https://a.example/x", Label::Unreachable, reason);
            c.follow_up.archive = status.map(|status| citecheck_core::ArchiveInfo {
                status,
                snapshot_url: None,
                captured_at: None,
                verdict: None,
                evidence_quote: None,
                note: String::new(),
            });
            s.add(&c);
        }
        assert_eq!(
            s.archive,
            ArchiveCounts {
                link_rot: 2,
                never_archived: 1,
                lookup_failed: 1
            }
        );
        assert!(s.render().contains(
            "archive: 2 link rot (archived before), 1 never archived (possibly fabricated), 1 \
             lookups failed"
        ));
        let json = serde_json::to_value(&s).expect("serialises");
        assert_eq!(json["archive"]["never_archived"], 1);
        assert!(!Summary::default().render().contains("archive:"));
    }

    #[test]
    fn the_reference_fixture_prints_the_reference_lines() {
        // Nine citations: two supported, three unreachable, four read but not supporting.
        let mut citations = vec![(Label::Supported, None); 2];
        citations.push((Label::Unreachable, Some(Reason::Http(404))));
        citations.push((Label::Unreachable, Some(Reason::Http(410))));
        citations.push((Label::Unreachable, Some(Reason::Http(503))));
        citations.push((Label::Contradicted, None));
        citations.push((Label::NotFound, Some(Reason::PdfUnsupported)));
        citations.push((Label::NotFound, Some(Reason::Soft404)));
        citations.push((Label::NotFound, None));
        let text = summary_of(&citations).render();
        assert!(
            text.contains("\ncitation_precision=0.2222 (2/9)\n"),
            "{text}"
        );
        assert!(
            text.contains("\nreachable_precision=0.3333 (2/6)\n"),
            "{text}"
        );
        assert!(
            text.contains("dead links: 2 (http_404=1 http_410=1)"),
            "{text}"
        );
        assert!(text.contains("fetch failures: 1 (http_503=1)"), "{text}");
        assert!(
            text.contains("labels: supported=2 contradicted=1 not_found=3 unreachable=3"),
            "{text}"
        );
    }

    #[test]
    fn nothing_reachable_is_said_plainly() {
        let text = summary_of(&[(Label::Unreachable, Some(Reason::NoSuchDomain))]).render();
        assert!(text.contains("citation_precision=0.0000 (0/1)"), "{text}");
        assert!(
            text.contains("reachable_precision=n/a (0/0): nothing was reachable"),
            "{text}"
        );
        let empty = Summary::default().render();
        assert!(empty.contains("citation_precision=n/a (0/0)"), "{empty}");
    }

    #[test]
    fn judge_tokens_are_summed_over_the_batch_and_shown() {
        let mut summary = Summary::default();
        for (input, output) in [(120, 9), (80, 11)] {
            let mut citation =
                UrlVerdict::without_judge("https://a.example/", Label::NotFound, Reason::Soft404);
            citation.meta = Some(citecheck_core::VerdictMeta {
                usage: Some(TokenUsage {
                    input_tokens: input,
                    output_tokens: output,
                }),
                ..Default::default()
            });
            summary.add(&citation);
        }
        assert_eq!(summary.tokens.input_tokens, 200);
        assert!(summary.render().contains("judge tokens: 200 in, 20 out"));
        summary.crawl = Some(CrawlCost {
            normal_requests: 3,
            billed_normal: 3,
            stored_pages: 3,
            ..Default::default()
        });
        assert!(summary.render().contains(
            "crawlbase: 3 normal, 0 javascript, 0 storage requests; estimated credits 4.5"
        ));
    }
}
