//! How often each ranking puts a citation's evidence among the passages the judge receives,
//! apart from the judge: the judge's rules were written while reading BM25's choice of passages
//! (`judge-bench`), so its accuracy under another ranker mixes the ranker's quality with how
//! well the rules fit what BM25 happens to pick. Here only retrieval counts.
//!
//! ```text
//! rank-bench [--devset fixtures/devset] [--model-dir DIR] [--top-k 3] [--misses]
//! ```
//!
//! `--misses` also lists, per ranking, the claims whose quote it left out.
//!
//! For every citation of a labelled set whose gold label carries a quote (the passage that
//! decides it) and whose page is on disk, the page is extracted and cut into passages as the
//! verifier does, and each ranking is asked for its best `--top-k`: BM25 alone, then the
//! embedding ranker at several shortlists and both fusions. A hit is a quote found whole in the
//! passages kept (`guard::quote_in_passages`, as the verifier accepts a quote). Prints the hits
//! per ranking, overall and on pages longer than `--top-k` passages (where the choice matters),
//! beside the CPU model and its vector flags.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use citecheck_core::guard;
use citecheck_core::rank::{Bm25Ranker, PagePassages, Ranker, DEFAULT_TOP_K};
use citecheck_embed::bench_support::{
    claim_rows, cpu_description, page_file, page_passages, ranking_passages,
};
use citecheck_embed::{EmbeddingOptions, EmbeddingRanker, Fusion};

struct Args {
    devset: PathBuf,
    model_dir: Option<PathBuf>,
    top_k: usize,
    misses: bool,
}

fn parse() -> Result<Args, String> {
    let mut args = Args {
        devset: PathBuf::from("fixtures/devset"),
        model_dir: None,
        top_k: DEFAULT_TOP_K,
        misses: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--devset" => args.devset = PathBuf::from(value()?),
            "--model-dir" => args.model_dir = Some(PathBuf::from(value()?)),
            "--top-k" => {
                args.top_k = value()?.parse().map_err(|e| format!("--top-k: {e}"))?;
            }
            "--misses" => args.misses = true,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(args)
}

/// One quoted citation: the claim, its page's passages (as written and as the ranker reads
/// them) and the gold quote.
struct Case {
    claim: String,
    quote: String,
    passages: Vec<String>,
    ranking: PagePassages,
}

fn cases(devset: &Path) -> Result<Vec<Case>, String> {
    let mut out = Vec::new();
    for row in claim_rows(devset)? {
        let claim = row["claim"].as_str().unwrap_or_default();
        for gold in row["gold"].as_array().into_iter().flatten() {
            let (Some(url), Some(quote)) = (gold["url"].as_str(), gold["quote"].as_str()) else {
                continue;
            };
            let file = page_file(devset, url);
            let Some(passages) = page_passages(&file)? else {
                continue;
            };
            out.push(Case {
                claim: claim.to_string(),
                quote: quote.to_string(),
                ranking: ranking_passages(&file, &passages),
                passages,
            });
        }
    }
    Ok(out)
}

/// Hits over all cases and over the cases whose page has more than `k` passages.
fn hits(
    cases: &[Case],
    k: usize,
    misses: bool,
    top: &dyn Fn(&Case) -> Result<Vec<usize>, String>,
) -> Result<(usize, usize), String> {
    let (mut all, mut long) = (0, 0);
    for case in cases {
        let kept: Vec<String> = top(case)?
            .into_iter()
            .map(|i| case.passages[i].clone())
            .collect();
        if guard::quote_in_passages(&case.quote, &kept) {
            all += 1;
            if case.passages.len() > k {
                long += 1;
            }
        } else if misses {
            println!("    missed: {}", case.claim);
        }
    }
    Ok((all, long))
}

fn run() -> Result<(), String> {
    let args = parse()?;
    let cases = cases(&args.devset)?;
    let k = args.top_k;
    let long = cases.iter().filter(|c| c.passages.len() > k).count();
    println!("cpu: {}", cpu_description());
    println!(
        "{}: {} quoted citations, {} on pages of more than {k} passages; a hit is the quote \
         within the top {k}",
        args.devset.display(),
        cases.len(),
        long
    );
    let row = |name: &str, (all, on_long): (usize, usize)| {
        println!(
            "{name:<34} {all:>4}/{} ({:.3})   long pages {on_long:>4}/{long} ({:.3})",
            cases.len(),
            all as f64 / cases.len().max(1) as f64,
            on_long as f64 / long.max(1) as f64
        );
    };
    row(
        "bm25",
        hits(&cases, k, args.misses, &|c| {
            Bm25Ranker
                .top_k(&c.claim, &c.ranking, k)
                .map_err(|e| e.to_string())
        })?,
    );
    // One model for every ranking; each ranker keeps its own memory-only cache.
    let options = EmbeddingOptions {
        model_dir: args.model_dir.clone(),
        fetch: None,
        cache_dir: None,
        ..EmbeddingOptions::from_env().map_err(|e| e.to_string())?
    };
    let model = Arc::clone(
        EmbeddingRanker::open(&options)
            .map_err(|e| e.to_string())?
            .embedder(),
    );
    let mut shortlists = vec![k, 6, 12, 0];
    shortlists.dedup();
    for shortlist in shortlists {
        for fusion in [Fusion::Embedding, Fusion::Rrf { k: 60 }] {
            let ranker = EmbeddingRanker::with_options(Arc::clone(&model), &options)
                .with_stages(shortlist, fusion);
            let counted = hits(&cases, k, args.misses, &|c| {
                ranker
                    .top_k(&c.claim, &c.ranking, k)
                    .map_err(|e| e.to_string())
            })?;
            row(
                &format!("embedding shortlist {shortlist} {fusion}"),
                counted,
            );
        }
    }
    Ok(())
}

fn main() {
    if let Err(err) = run() {
        eprintln!("rank-bench: {err}");
        std::process::exit(2);
    }
}
