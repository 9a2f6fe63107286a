//! What the benchmark binaries share: the kernels' peak figures, the CPU description printed
//! beside every figure, and a labelled set's pages cut into passages as the verifier cuts them.

use std::path::{Path, PathBuf};
use std::time::Duration;

use citecheck_core::limits::{Budget, PageLimits};
use citecheck_core::passage::{self, DEFAULT_MAX_WORDS};
use citecheck_core::rank::PagePassages;
use citecheck_core::{extract, guard};

pub use crate::kernels::{gemm_gflops, peak_gflops};

/// A labelled set's claims, one JSON object per line of its `claims.jsonl`.
pub fn claim_rows(set: &Path) -> Result<Vec<serde_json::Value>, String> {
    let claims = std::fs::read_to_string(set.join("claims.jsonl"))
        .map_err(|e| format!("reading {}/claims.jsonl: {e}", set.display()))?;
    claims
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| serde_json::from_str(line).map_err(|e| format!("a claims line: {e}")))
        .collect()
}

/// The file a labelled set serves for a site-relative `url` (`/` is `pages/index.html`).
pub fn page_file(set: &Path, url: &str) -> PathBuf {
    let path = url.trim_start_matches('/');
    if path.is_empty() {
        set.join("pages/index.html")
    } else {
        set.join(format!("pages/{path}.html"))
    }
}

/// The page's passages, extracted and cut as the verifier does it; `Ok(None)` when the set has
/// no file for it (a dead link of the set).
pub fn page_passages(file: &Path) -> Result<Option<Vec<String>>, String> {
    let Ok(html) = std::fs::read_to_string(file) else {
        return Ok(None);
    };
    let budget = Budget::new(Duration::from_secs(60));
    let markdown = extract::html_to_markdown(&html, None, &PageLimits::default(), &budget)
        .map_err(|e| format!("{}: {e}", file.display()))?
        .markdown;
    passage::split(&markdown, DEFAULT_MAX_WORDS)
        .map(Some)
        .map_err(|e| format!("{}: {e}", file.display()))
}

/// The passages as a ranker reads them: their visible text, as the verifier hands it over,
/// keyed by the file (one key per page, so a ranker's page cache tells pages apart).
pub fn ranking_passages(file: &Path, passages: &[String]) -> PagePassages {
    let visible: Vec<String> = passages
        .iter()
        .map(|p| guard::strip_inline_markdown(p))
        .collect();
    let content_sha256 = format!("{}:{}", file.display(), visible.concat().len());
    PagePassages {
        content_sha256,
        passages: visible,
    }
}

/// The CPU's model name and the vector flags that matter to the kernels.
pub fn cpu_description() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |name: &str| {
        info.lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
            .unwrap_or_default()
    };
    let flags = field("flags");
    let wanted = [
        "sse4_2",
        "avx",
        "avx2",
        "fma",
        "avx512f",
        "avx512bw",
        "avx512_bf16",
        "avx_vnni",
    ];
    let present: Vec<&str> = wanted
        .iter()
        .copied()
        .filter(|w| flags.split_whitespace().any(|f| f == *w))
        .collect();
    // The model name alone does not tell hosts apart ("AMD EPYC" for Zen 3, 4 and 5 alike).
    format!(
        "{} (family {}, model {}, stepping {}; {} logical CPUs); flags: {}",
        field("model name"),
        field("cpu family"),
        field("model\t"),
        field("stepping"),
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        present.join(" ")
    )
}
