//! `citecheck eval`: runs the pipeline over a labelled development set and measures it.
//!
//! A set is a directory with `pages/` (served on 127.0.0.1 by [`StaticSite`], with its optional
//! `routes.json`) and `claims.jsonl` (one claim per line, site-relative URLs, gold labels per
//! citation and overall; see `fixtures/devset/README.md`). The report gives per-label
//! precision, recall and F1 over citations, citation and claim accuracy, a confusion matrix,
//! accuracy per category and every miss. The verifier passed in must be allowed to fetch
//! loopback addresses: the caller builds it with the address guard off.

use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use citecheck_core::aggregate::claim_label;
use citecheck_core::{Check, ClaimVerdict, JudgeInfo, Label, Verifier};
use clap::Args;
use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::error::AppError;
use crate::output::{print_stdout, Format};
use crate::static_site::StaticSite;

/// `citecheck eval`
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// The development set: a directory with claims.jsonl and pages/.
    #[arg(long, default_value = "fixtures/devset", env = "CITECHECK_DEVSET")]
    pub devset: PathBuf,

    /// Output format on stdout.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// `citecheck eval`: the pipeline the configuration describes, with the address guard off (the
/// development set is served on 127.0.0.1), measured on the development set.
pub async fn command(args: &EvalArgs, config: &Config) -> Result<u8, AppError> {
    let mut settings = config.pipeline.clone();
    settings.fetch.guard.enabled = false;
    let engine = crate::engine::build_off_executor(&settings).await?;
    let verifier = engine
        .builder
        .build()
        .map_err(crate::config::ConfigError::from)?;
    let report = run(&args.devset, &verifier).await;
    crate::engine::shutdown(engine.renderer.as_ref()).await;
    let report = report?;
    let rendered = match args.format {
        Format::Json => serde_json::to_string_pretty(&report).context("rendering the report")?,
        Format::Text => report.to_string(),
    };
    print_stdout(&rendered)?;
    Ok(0)
}

pub const CLAIMS_FILE: &str = "claims.jsonl";
pub const PAGES_DIR: &str = "pages";

/// One labelled claim of the set.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DevClaim {
    pub id: String,
    pub claim: String,
    /// Site-relative (`/path`) or absolute URLs, in citation order.
    pub urls: Vec<String>,
    pub gold: Vec<GoldCitation>,
    pub gold_overall: Label,
    pub category: String,
    /// Why the case is hard, when it is; for people only.
    #[serde(default)]
    pub note: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GoldCitation {
    pub url: String,
    pub label: Label,
    /// For people and for the set's own checks: the passage of the page that decides the
    /// label, copied verbatim (`supported` and `contradicted` only).
    #[serde(default)]
    pub quote: Option<String>,
}

/// Reads and checks a `claims.jsonl`: unique ids, one gold label per cited URL, and a
/// `gold_overall` that follows the aggregation rule.
pub fn load_claims(path: &Path) -> anyhow::Result<Vec<DevClaim>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut claims = Vec::new();
    let mut ids = HashSet::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let claim: DevClaim = serde_json::from_str(line)
            .with_context(|| format!("{}:{}: not a valid claim", path.display(), n + 1))?;
        let at = || format!("{}:{} ({})", path.display(), n + 1, claim.id);
        if !ids.insert(claim.id.clone()) {
            bail!("{}: duplicate id", at());
        }
        let cited: HashSet<&str> = claim.urls.iter().map(String::as_str).collect();
        let labelled: HashSet<&str> = claim.gold.iter().map(|g| g.url.as_str()).collect();
        if cited != labelled || labelled.len() != claim.gold.len() {
            bail!("{}: gold must label each cited URL exactly once", at());
        }
        let expected = claim_label(claim.urls.iter().map(|u| gold_for(&claim, u)));
        if expected != claim.gold_overall {
            bail!(
                "{}: gold_overall is {} but the citations' gold labels aggregate to {expected}",
                at(),
                claim.gold_overall
            );
        }
        claims.push(claim);
    }
    if claims.is_empty() {
        bail!("{} holds no claims", path.display());
    }
    Ok(claims)
}

fn gold_for(claim: &DevClaim, url: &str) -> Label {
    claim
        .gold
        .iter()
        .find(|g| g.url == url)
        .map_or(Label::NotFound, |g| g.label)
}

/// Serves `devset_dir/pages`, verifies every claim of `devset_dir/claims.jsonl` against it and
/// measures the answers.
pub async fn run(devset_dir: &Path, verifier: &Verifier) -> anyhow::Result<EvalReport> {
    let claims = load_claims(&devset_dir.join(CLAIMS_FILE))?;
    let pages = devset_dir.join(PAGES_DIR);
    if !pages.is_dir() {
        bail!("{} is not a directory", pages.display());
    }
    let site = StaticSite::serve(&pages)
        .await
        .with_context(|| format!("serving {}", pages.display()))?;
    let base = site.base_url();
    // One claim at a time: the pages are local and the verifier already fetches a claim's URLs
    // concurrently, so running claims side by side would only interleave their logs.
    let mut verdicts: Vec<ClaimVerdict> = Vec::with_capacity(claims.len());
    for claim in &claims {
        let urls: Vec<String> = claim.urls.iter().map(|u| absolute(&base, u)).collect();
        verdicts.push(
            verifier
                .verify(Check::new(claim.claim.as_str(), urls))
                .await,
        );
    }
    let parts = verifier.components();
    Ok(EvalReport::score(
        &claims,
        &verdicts,
        parts.judge,
        &parts.ranker,
    ))
}

fn absolute(base: &str, url: &str) -> String {
    if url.starts_with('/') {
        format!("{base}{url}")
    } else {
        url.to_string()
    }
}

/// What the set measured.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvalReport {
    pub judge: JudgeInfo,
    pub ranker: String,
    pub claims: usize,
    pub citations: usize,
    /// Per label, over citations.
    pub labels: Vec<LabelScore>,
    pub citations_correct: usize,
    pub citation_accuracy: f64,
    pub claims_correct: usize,
    /// Overall label against `gold_overall`.
    pub claim_accuracy: f64,
    pub confusion: Confusion,
    pub categories: Vec<CategoryScore>,
    /// Every citation whose label differs from its gold label.
    pub misses: Vec<Miss>,
    /// Confidence against observed accuracy, over the citations a judge decided.
    pub reliability: Vec<ReliabilityBucket>,
    /// Every citation a judge decided, right or wrong: what the confidence is calibrated from
    /// (JSON output only).
    pub judged: Vec<JudgedCitation>,
}

/// One citation a judge decided, with its confidence and whether it got its gold label.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JudgedCitation {
    pub id: String,
    /// As written in the set (site-relative).
    pub url: String,
    pub gold: Label,
    pub got: Label,
    pub correct: bool,
    pub confidence: f64,
    /// The decisive score the judge reported in its detail (`score=0.83`, the local judge's
    /// coverage or contradiction strength), when it reported one.
    pub score: Option<f64>,
    pub detail: Option<String>,
}

/// The `score=` figure of a judge's detail.
pub fn detail_score(detail: &str) -> Option<f64> {
    detail
        .split_whitespace()
        .find_map(|part| part.strip_prefix("score="))
        .and_then(|v| v.parse().ok())
        .filter(|v: &f64| v.is_finite())
}

/// One confidence bucket: the judged citations whose confidence falls in `[low, high)` (the
/// last bucket includes 1.0), and how many of them got their gold label.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReliabilityBucket {
    pub low: f64,
    pub high: f64,
    pub citations: usize,
    pub correct: usize,
    /// Mean confidence in the bucket; `None` when it is empty.
    pub mean_confidence: Option<f64>,
    /// Share correct; `None` when it is empty.
    pub accuracy: Option<f64>,
}

/// Bucket edges of the reliability table.
pub const RELIABILITY_EDGES: [f64; 7] = [0.0, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0];

/// Buckets `(confidence, correct)` pairs by [`RELIABILITY_EDGES`].
pub fn reliability(judged: &[(f64, bool)]) -> Vec<ReliabilityBucket> {
    RELIABILITY_EDGES
        .windows(2)
        .enumerate()
        .map(|(k, edge)| {
            let last = k + 2 == RELIABILITY_EDGES.len();
            let inside: Vec<&(f64, bool)> = judged
                .iter()
                .filter(|(c, _)| *c >= edge[0] && (*c < edge[1] || (last && *c <= edge[1])))
                .collect();
            let n = inside.len();
            let correct = inside.iter().filter(|(_, ok)| *ok).count();
            let mean = (n > 0).then(|| inside.iter().map(|(c, _)| c).sum::<f64>() / n as f64);
            ReliabilityBucket {
                low: edge[0],
                high: edge[1],
                citations: n,
                correct,
                mean_confidence: mean,
                accuracy: (n > 0).then(|| correct as f64 / n as f64),
            }
        })
        .collect()
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LabelScore {
    pub label: Label,
    /// `None` when the label was never predicted.
    pub precision: Option<f64>,
    /// `None` when no citation has this gold label.
    pub recall: Option<f64>,
    pub f1: Option<f64>,
    /// Citations with this gold label.
    pub support: usize,
    pub predicted: usize,
}

/// Citation counts; rows are gold labels, columns predicted, both in [`Label::ALL`] order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Confusion {
    pub labels: Vec<Label>,
    pub counts: Vec<Vec<usize>>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CategoryScore {
    pub category: String,
    pub claims: usize,
    pub claims_correct: usize,
    pub citations: usize,
    pub citations_correct: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Miss {
    pub id: String,
    pub category: String,
    /// As written in the set (site-relative).
    pub url: String,
    pub gold: Label,
    pub got: Label,
    pub reason: Option<String>,
    pub quote: Option<String>,
    /// The judge's explanation, when it judged.
    pub detail: Option<String>,
}

impl EvalReport {
    /// Scores `verdicts` (one per claim, in order) against the gold labels.
    pub fn score(
        claims: &[DevClaim],
        verdicts: &[ClaimVerdict],
        judge: JudgeInfo,
        ranker: &str,
    ) -> EvalReport {
        let index = |label: Label| Label::ALL.iter().position(|&l| l == label).unwrap_or(0);
        let mut counts = vec![vec![0usize; Label::ALL.len()]; Label::ALL.len()];
        let mut categories: BTreeMap<&str, CategoryScore> = BTreeMap::new();
        let mut misses = Vec::new();
        let mut judged: Vec<JudgedCitation> = Vec::new();
        let (mut citations, mut claims_correct) = (0, 0);
        for (claim, verdict) in claims.iter().zip(verdicts) {
            let category = categories
                .entry(claim.category.as_str())
                .or_insert_with(|| CategoryScore {
                    category: claim.category.clone(),
                    claims: 0,
                    claims_correct: 0,
                    citations: 0,
                    citations_correct: 0,
                });
            category.claims += 1;
            if verdict.overall == claim.gold_overall {
                claims_correct += 1;
                category.claims_correct += 1;
            }
            for (url, citation) in claim.urls.iter().zip(&verdict.citations) {
                let gold = gold_for(claim, url);
                counts[index(gold)][index(citation.label)] += 1;
                if citation.meta.as_ref().is_some_and(|m| m.judge.is_some()) {
                    judged.push(JudgedCitation {
                        id: claim.id.clone(),
                        url: url.clone(),
                        gold,
                        got: citation.label,
                        correct: gold == citation.label,
                        confidence: citation.confidence,
                        score: citation.detail.as_deref().and_then(detail_score),
                        detail: citation.detail.clone(),
                    });
                }
                citations += 1;
                category.citations += 1;
                if gold == citation.label {
                    category.citations_correct += 1;
                } else {
                    misses.push(Miss {
                        id: claim.id.clone(),
                        category: claim.category.clone(),
                        url: url.clone(),
                        gold,
                        got: citation.label,
                        reason: citation.reason.as_ref().map(|r| r.to_string()),
                        quote: citation.evidence_quote.clone(),
                        detail: citation.detail.clone(),
                    });
                }
            }
        }
        let labels = Label::ALL
            .iter()
            .map(|&label| {
                let i = index(label);
                let tp = counts[i][i];
                let support: usize = counts[i].iter().sum();
                let predicted: usize = counts.iter().map(|row| row[i]).sum();
                let ratio = |d: usize| (d > 0).then(|| tp as f64 / d as f64);
                let (precision, recall) = (ratio(predicted), ratio(support));
                let f1 = match (precision, recall) {
                    (Some(p), Some(r)) if p + r > 0.0 => Some(2.0 * p * r / (p + r)),
                    (Some(_), Some(_)) => Some(0.0),
                    _ => None,
                };
                LabelScore {
                    label,
                    precision,
                    recall,
                    f1,
                    support,
                    predicted,
                }
            })
            .collect();
        let citations_correct = (0..Label::ALL.len()).map(|i| counts[i][i]).sum();
        let share = |n: usize, d: usize| if d == 0 { 0.0 } else { n as f64 / d as f64 };
        EvalReport {
            judge,
            ranker: ranker.to_string(),
            claims: claims.len(),
            citations,
            labels,
            citations_correct,
            citation_accuracy: share(citations_correct, citations),
            claims_correct,
            claim_accuracy: share(claims_correct, claims.len()),
            confusion: Confusion {
                labels: Label::ALL.to_vec(),
                counts,
            },
            categories: categories.into_values().collect(),
            misses,
            reliability: reliability(
                &judged
                    .iter()
                    .map(|j| (j.confidence, j.correct))
                    .collect::<Vec<_>>(),
            ),
            judged,
        }
    }
}

impl fmt::Display for EvalReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let score = |v: Option<f64>| v.map_or_else(|| "-".to_string(), |v| format!("{v:.2}"));
        writeln!(
            f,
            "{} claims, {} citations; judge {}/{} ({}), ranker {}",
            self.claims,
            self.citations,
            self.judge.provider,
            self.judge.model,
            self.judge.prompt_version,
            self.ranker
        )?;
        writeln!(f)?;
        writeln!(
            f,
            "{:<16}{:>10}{:>8}{:>7}{:>7}{:>11}",
            "citations", "precision", "recall", "F1", "gold", "predicted"
        )?;
        for s in &self.labels {
            writeln!(
                f,
                "{:<16}{:>10}{:>8}{:>7}{:>7}{:>11}",
                s.label.as_str(),
                score(s.precision),
                score(s.recall),
                score(s.f1),
                s.support,
                s.predicted
            )?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "citation accuracy  {:.2} ({}/{})",
            self.citation_accuracy, self.citations_correct, self.citations
        )?;
        writeln!(
            f,
            "claim accuracy     {:.2} ({}/{})",
            self.claim_accuracy, self.claims_correct, self.claims
        )?;
        writeln!(f)?;
        writeln!(f, "confusion (rows: gold, columns: predicted)")?;
        write!(f, "{:<16}", "")?;
        for label in &self.confusion.labels {
            write!(f, "{:>14}", label.as_str())?;
        }
        writeln!(f)?;
        for (label, row) in self.confusion.labels.iter().zip(&self.confusion.counts) {
            write!(f, "{:<16}", label.as_str())?;
            for n in row {
                write!(f, "{n:>14}")?;
            }
            writeln!(f)?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "reliability (judged citations)\n{:<16}{:>10}{:>12}{:>10}",
            "confidence", "citations", "mean conf.", "accuracy"
        )?;
        for b in &self.reliability {
            writeln!(
                f,
                "{:<16}{:>10}{:>12}{:>10}",
                format!("{:.1}-{:.1}", b.low, b.high),
                b.citations,
                score(b.mean_confidence),
                score(b.accuracy)
            )?;
        }
        writeln!(f)?;
        writeln!(f, "{:<26}{:>10}{:>12}", "category", "claims", "citations")?;
        for c in &self.categories {
            writeln!(
                f,
                "{:<26}{:>10}{:>12}",
                c.category,
                format!("{}/{}", c.claims_correct, c.claims),
                format!("{}/{}", c.citations_correct, c.citations)
            )?;
        }
        if self.misses.is_empty() {
            return Ok(());
        }
        writeln!(f)?;
        writeln!(f, "misses ({})", self.misses.len())?;
        for m in &self.misses {
            writeln!(
                f,
                "  {} [{}] {}: gold {}, got {}{}",
                m.id,
                m.category,
                m.url,
                m.gold,
                m.got,
                m.reason
                    .as_deref()
                    .map(|r| format!(" ({r})"))
                    .unwrap_or_default()
            )?;
            if let Some(quote) = &m.quote {
                writeln!(f, "      quote: {:?}", quote)?;
            }
            if let Some(detail) = &m.detail {
                writeln!(f, "      {detail}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use citecheck_core::UrlVerdict;
    use Label::*;

    fn claim(id: &str, gold: &[(&str, Label)]) -> DevClaim {
        DevClaim {
            id: id.into(),
            claim: format!("claim {id}"),
            urls: gold.iter().map(|(u, _)| u.to_string()).collect(),
            gold: gold
                .iter()
                .map(|&(u, label)| GoldCitation {
                    url: u.into(),
                    label,
                    quote: None,
                })
                .collect(),
            gold_overall: claim_label(gold.iter().map(|&(_, l)| l)),
            category: "test".into(),
            note: None,
        }
    }

    #[test]
    fn reliability_buckets_count_confidence_against_correctness() {
        let judged = [
            (0.95, true),
            (1.0, true),
            (0.92, false),
            (0.55, true),
            (0.3, false),
        ];
        let table = reliability(&judged);
        assert_eq!(table.len(), RELIABILITY_EDGES.len() - 1);
        let top = table.last().expect("a top bucket");
        assert_eq!((top.citations, top.correct), (3, 2));
        assert!((top.accuracy.expect("not empty") - 2.0 / 3.0).abs() < 1e-9);
        assert_eq!((table[0].citations, table[0].correct), (1, 0));
        assert_eq!((table[1].citations, table[1].correct), (1, 1));
        assert_eq!(table[2].accuracy, None);
    }

    fn verdict(labels: &[Label]) -> ClaimVerdict {
        let citations: Vec<UrlVerdict> = labels
            .iter()
            .map(|&l| {
                let mut v =
                    UrlVerdict::without_judge("http://x", l, citecheck_core::Reason::Soft404);
                v.reason = None;
                v
            })
            .collect();
        ClaimVerdict {
            claim: String::new(),
            overall: claim_label(labels.iter().copied()),
            citations,
        }
    }

    fn info() -> JudgeInfo {
        JudgeInfo {
            provider: "test".into(),
            model: "m".into(),
            prompt_version: "v".into(),
        }
    }

    #[test]
    fn precision_recall_and_accuracy_are_counted_over_citations_and_claims() {
        let claims = [
            claim("a", &[("/a", Supported)]),
            claim("b", &[("/b", Supported), ("/x", Unreachable)]),
            claim("c", &[("/c", Contradicted)]),
            claim("d", &[("/d", NotFound)]),
        ];
        let verdicts = [
            verdict(&[Supported]),
            verdict(&[NotFound, Unreachable]),
            verdict(&[Supported]),
            verdict(&[NotFound]),
        ];
        let report = EvalReport::score(&claims, &verdicts, info(), "lexical");
        assert_eq!(report.citations, 5);
        assert_eq!(report.citations_correct, 3);
        assert_eq!(report.claims_correct, 2);
        assert_eq!(report.claim_accuracy, 0.5);
        let supported = &report.labels[0];
        assert_eq!(supported.precision, Some(0.5));
        assert_eq!(supported.recall, Some(0.5));
        assert_eq!(supported.support, 2);
        let contradicted = &report.labels[1];
        assert_eq!(contradicted.precision, None);
        assert_eq!(contradicted.recall, Some(0.0));
        assert_eq!(contradicted.f1, None);
        assert_eq!(report.confusion.counts[1][0], 1);
        assert_eq!(report.misses.len(), 2);
        assert_eq!(report.misses[0].id, "b");
        let text = report.to_string();
        assert!(text.contains("claim accuracy     0.50 (2/4)"), "{text}");
        let json = serde_json::to_value(&report).expect("serialises");
        assert_eq!(json["labels"][1]["precision"], serde_json::Value::Null);
    }

    #[test]
    fn the_decisive_score_is_read_from_a_detail() {
        assert_eq!(
            detail_score("score=0.83 coverage=0.83 rest=0.83 numbers=ok"),
            Some(0.83)
        );
        assert_eq!(detail_score("coverage=0.83"), None);
        assert_eq!(detail_score("score=NaN"), None);
        assert_eq!(detail_score("score=abc"), None);
    }

    #[test]
    fn a_set_whose_gold_overall_breaks_the_rule_is_refused() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join(CLAIMS_FILE);
        let line = r#"{"id":"x","claim":"c","urls":["/a","/b"],"gold":[{"url":"/a","label":"supported"},{"url":"/b","label":"contradicted"}],"gold_overall":"supported","category":"mixed"}"#;
        std::fs::write(&path, line).expect("write");
        let err = load_claims(&path).expect_err("inconsistent gold");
        assert!(
            format!("{err:#}").contains("aggregate to contradicted"),
            "{err:#}"
        );

        let unlabelled = r#"{"id":"x","claim":"c","urls":["/a","/b"],"gold":[{"url":"/a","label":"supported"}],"gold_overall":"supported","category":"mixed"}"#;
        std::fs::write(&path, unlabelled).expect("write");
        assert!(load_claims(&path).is_err());
    }

    #[test]
    fn relative_urls_get_the_site_address_and_absolute_ones_stay() {
        assert_eq!(
            absolute("http://127.0.0.1:9", "/a/b"),
            "http://127.0.0.1:9/a/b"
        );
        assert_eq!(
            absolute("http://127.0.0.1:9", "https://x.org/"),
            "https://x.org/"
        );
    }
}
