//! CPU time of the `local` judge alone, per citation: the passages are already extracted and
//! ranked (the top 3, as the verifier keeps them) before the clock starts, so only
//! `LocalJudge::assess` is measured. It runs over every citation of a labelled set whose page is
//! on disk (the development set by default), first reading words only, then with the embedding
//! model reading meaning: once with an empty sentence cache (every sentence encoded) and then
//! with the cache warm (a page's sentences seen before, as in a run with many claims per page).
//!
//! Each mode judges the passages the verifier would give it: words only with BM25's choice
//! (the lexical ranker, used when no model is loaded), meaning with the embedding ranker's
//! (its default shortlist and fusion, or `CITECHECK_EMBED_SHORTLIST` and
//! `CITECHECK_EMBED_FUSION`). `--meaning-passages bm25` gives the meaning modes BM25's choice
//! instead, to tell a change in the judge from a change in what it reads.
//!
//! ```text
//! judge-bench [--devset fixtures/devset] [--model-dir DIR] [--repeats 20] [--verdicts FILE]
//!             [--meaning-passages ranker|bm25]
//! ```
//!
//! `--verdicts FILE` writes each citation's judgement (label, quote, confidence, detail) as one
//! JSON line per mode, so that a change meant only to make the judge faster can be shown to
//! change no verdict: run it before and after and compare the files.
//!
//! Prints the CPU model and its vector flags, the embedding backend and threads, and per mode
//! the process CPU time per citation (from /proc/self/stat, 10 ms ticks, summed over all
//! threads) beside the wall time.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use citecheck_core::judge::meaning::Tokens;
use citecheck_core::judge::{EncodeError, LocalJudge, SentenceEncoder};
use citecheck_core::rank::{Bm25Ranker, PagePassages, Ranker, DEFAULT_TOP_K};
use citecheck_embed::bench_support::{
    claim_rows, cpu_description, page_file, page_passages, ranking_passages,
};
use citecheck_embed::sentences::SentenceEmbedder;
use citecheck_embed::{files, Embedder, EmbedderOptions, EmbeddingOptions, EmbeddingRanker};

struct Args {
    devset: PathBuf,
    model_dir: Option<PathBuf>,
    repeats: usize,
    verdicts: Option<PathBuf>,
    /// The meaning modes judge BM25's passages rather than the embedding ranker's.
    meaning_on_bm25: bool,
}

fn parse() -> Result<Args, String> {
    let mut args = Args {
        devset: PathBuf::from("fixtures/devset"),
        model_dir: None,
        repeats: 20,
        verdicts: None,
        meaning_on_bm25: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--devset" => args.devset = PathBuf::from(value()?),
            "--model-dir" => args.model_dir = Some(PathBuf::from(value()?)),
            "--verdicts" => args.verdicts = Some(PathBuf::from(value()?)),
            "--meaning-passages" => {
                args.meaning_on_bm25 = match value()?.as_str() {
                    "ranker" => false,
                    "bm25" => true,
                    other => return Err(format!("--meaning-passages: {other} (ranker or bm25)")),
                };
            }
            "--repeats" => {
                args.repeats = value()?.parse().map_err(|e| format!("--repeats: {e}"))?;
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(args)
}

/// A citation whose page is on disk: the claim and every passage of its page.
struct Citation {
    claim: String,
    passages: Vec<String>,
    ranking: PagePassages,
}

/// A claim and the passages the judge reads for it, best first.
type Judged = (String, Vec<String>);

fn citations(devset: &Path) -> Result<Vec<Citation>, String> {
    let mut out = Vec::new();
    for row in claim_rows(devset)? {
        let claim = row["claim"].as_str().unwrap_or_default().to_string();
        for url in row["urls"].as_array().into_iter().flatten() {
            let file = page_file(devset, url.as_str().unwrap_or_default());
            let Some(passages) = page_passages(&file)? else {
                continue; // a dead link of the set: nothing to judge
            };
            out.push(Citation {
                claim: claim.clone(),
                ranking: ranking_passages(&file, &passages),
                passages,
            });
        }
    }
    Ok(out)
}

/// Each citation's claim with the top passages `ranker` keeps, as the verifier keeps them.
fn ranked(cites: &[Citation], ranker: &dyn Ranker) -> Result<Vec<Judged>, String> {
    cites
        .iter()
        .map(|c| {
            let top = ranker
                .top_k(&c.claim, &c.ranking, DEFAULT_TOP_K)
                .map_err(|e| e.to_string())?;
            let kept = top.into_iter().map(|k| c.passages[k].clone()).collect();
            Ok((c.claim.clone(), kept))
        })
        .collect()
}

/// This thread's CPU time in nanoseconds (`/proc/thread-self/schedstat`), for spans too short
/// for `/proc`'s 10 ms ticks. The judge and its encoder's token pass run on the calling thread.
fn cpu_now() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map_or(Duration::ZERO, Duration::from_nanos)
}

/// Process CPU time (user + system, all threads) from /proc/self/stat, in 10 ms ticks.
fn process_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// The sentence encoder, counting what the judge asks of it: texts asked for, and texts new to
/// it (those an empty cache must encode), for vectors and for token vectors apart.
#[derive(Debug)]
struct Counted {
    inner: SentenceEmbedder,
    seen: Mutex<(HashSet<String>, HashSet<String>)>,
    counts: Mutex<[usize; 4]>,
    calls: Mutex<(usize, Duration)>,
}

impl Counted {
    fn new(inner: SentenceEmbedder) -> Self {
        Counted {
            inner,
            seen: Mutex::default(),
            counts: Mutex::default(),
            calls: Mutex::default(),
        }
    }

    fn timed<T>(&self, run: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let out = run();
        if let Ok(mut calls) = self.calls.lock() {
            calls.0 += 1;
            calls.1 += start.elapsed();
        }
        out
    }

    fn count(&self, texts: &[&str], tokens: bool) {
        let (Ok(mut seen), Ok(mut counts)) = (self.seen.lock(), self.counts.lock()) else {
            return;
        };
        let (set, at) = if tokens {
            (&mut seen.1, 2)
        } else {
            (&mut seen.0, 0)
        };
        counts[at] += texts.len();
        counts[at + 1] += texts.iter().filter(|t| set.insert(t.to_string())).count();
    }

    /// Per citation over `citations`: vectors asked, vectors new, token rows asked, new.
    fn report(&self, citations: usize) -> String {
        let c = self.counts.lock().map(|c| *c).unwrap_or_default();
        let (calls, spent) = self.calls.lock().map(|c| *c).unwrap_or_default();
        let per = |n: usize| n as f64 / citations.max(1) as f64;
        format!(
            "per citation, empty cache: {:.2} sentence vectors asked ({:.2} new), {:.2} token \
             readings asked ({:.2} new), {:.2} encoder calls, {:.3} ms wall in the encoder",
            per(c[0]),
            per(c[1]),
            per(c[2]),
            per(c[3]),
            per(calls),
            spent.as_secs_f64() * 1e3 / citations.max(1) as f64
        )
    }
}

impl SentenceEncoder for Counted {
    fn encode(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EncodeError> {
        self.count(texts, false);
        self.timed(|| self.inner.encode(texts))
    }

    fn encode_tokens(&self, texts: &[&str]) -> Result<Vec<Tokens>, EncodeError> {
        self.count(texts, true);
        self.timed(|| self.inner.encode_tokens(texts))
    }

    fn name(&self) -> &str {
        self.inner.name()
    }
}

/// Runs `judge` over every citation `repeats` times; prints CPU and wall time per citation.
fn measure(label: &str, judge: &LocalJudge, cites: &[Judged], repeats: usize) {
    let (cpu0, wall0) = (process_cpu(), Instant::now());
    let mut supported = 0usize;
    for _ in 0..repeats {
        for (claim, passages) in cites {
            let j = judge.assess(claim, passages);
            supported += usize::from(j.label == citecheck_core::judge::JudgeLabel::Supported);
        }
    }
    let n = (cites.len() * repeats) as f64;
    let wall = wall0.elapsed().as_secs_f64() * 1e3 / n;
    match (cpu0, process_cpu()) {
        (Some(a), Some(b)) => {
            let cpu = (b - a).as_secs_f64() * 1e3 / n;
            println!(
                "{label:<34} {cpu:>8.3} ms CPU/citation {wall:>8.3} ms wall/citation  ({} runs, {} supported)",
                n as usize, supported
            );
        }
        _ => println!("{label:<34} {wall:>8.3} ms wall/citation (no /proc CPU time)"),
    }
}

/// One JSON line per citation: what `judge` says of it, under `mode`.
fn verdict_lines(mode: &str, judge: &LocalJudge, cites: &[Judged]) -> String {
    let mut out = String::new();
    for (claim, passages) in cites {
        let j = judge.assess(claim, passages);
        let row = serde_json::json!({
            "mode": mode,
            "claim": claim,
            "label": format!("{:?}", j.label),
            "quote": j.evidence_quote,
            "confidence": j.confidence,
            "detail": j.detail,
        });
        out.push_str(&row.to_string());
        out.push('\n');
    }
    out
}

fn main() {
    let args = match parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    if let Err(e) = run(args) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

fn run(args: Args) -> Result<(), String> {
    let pages = citations(&args.devset)?;
    let cites = ranked(&pages, &Bm25Ranker)?;
    println!("CPU: {}", cpu_description());
    println!(
        "{} citations from {}, the top {} passages each",
        cites.len(),
        args.devset.display(),
        DEFAULT_TOP_K
    );
    let lexical = LocalJudge::default();
    let mut verdicts = String::new();
    if args.verdicts.is_some() {
        verdicts.push_str(&verdict_lines("lexical", &lexical, &cites));
    }
    measure("lexical (BM25's passages)", &lexical, &cites, args.repeats);

    // CITECHECK_EMBED_BACKEND forces a backend, so that each path the CPU runs is timed.
    let model = files::resolve_model_dir(args.model_dir.as_deref())
        .and_then(|dir| Embedder::load(&dir, EmbedderOptions::from_env()?));
    let embedder = match model {
        Ok(e) => Arc::new(e),
        Err(e) => {
            println!("embedding: skipped ({e})");
            if let Some(path) = &args.verdicts {
                write_verdicts(path, &verdicts);
            }
            return Ok(());
        }
    };
    println!("embedding runtime: {}", embedder.runtime());
    let cites = if args.meaning_on_bm25 {
        println!("meaning modes: BM25's passages");
        cites
    } else {
        // The product's stages (or the environment's), with a memory-only cache.
        let options = EmbeddingOptions {
            cache_dir: None,
            ..EmbeddingOptions::from_env().map_err(|e| e.to_string())?
        };
        let ranker = EmbeddingRanker::with_options(Arc::clone(&embedder), &options);
        println!(
            "meaning modes: the embedding ranker's passages (shortlist {}, fusion {})",
            options.shortlist, options.fusion
        );
        ranked(&pages, &ranker)?
    };
    // Counts what the judge asks of the encoder over one pass, with its own cache.
    let counted = Arc::new(Counted::new(SentenceEmbedder::new(Arc::clone(&embedder))));
    let counting = LocalJudge::default().with_encoder(counted.clone());
    // A fresh cache per pass: every sentence the judge reads is encoded.
    let (cpu0, wall0) = (process_cpu(), Instant::now());
    let cold_runs = args.repeats.clamp(1, 3);
    for _ in 0..cold_runs {
        let judge = LocalJudge::default()
            .with_encoder(Arc::new(SentenceEmbedder::new(Arc::clone(&embedder))));
        for (claim, passages) in &cites {
            judge.assess(claim, passages);
        }
    }
    let n = (cites.len() * cold_runs) as f64;
    if let (Some(a), Some(b)) = (cpu0, process_cpu()) {
        println!(
            "{:<34} {:>8.3} ms CPU/citation {:>8.3} ms wall/citation  ({} runs)",
            "meaning, empty sentence cache",
            (b - a).as_secs_f64() * 1e3 / n,
            wall0.elapsed().as_secs_f64() * 1e3 / n,
            n as usize
        );
    }
    for (claim, passages) in &cites {
        counting.assess(claim, passages);
    }
    println!("{}", counted.report(cites.len()));
    // The claim's rows as the embedding ranker leaves them (it embeds every claim to rank the
    // page): made off the clock, then the judge timed with an otherwise empty cache.
    let shared = Arc::new(SentenceEmbedder::new(Arc::clone(&embedder)));
    let judge = LocalJudge::default().with_encoder(shared.clone());
    let (mut judged, wall0) = (Duration::ZERO, Instant::now());
    let mut ranker_side = Duration::ZERO;
    for (claim, passages) in &cites {
        let a = cpu_now();
        shared
            .claim_vector(claim)
            .map_err(|e| format!("the claim's rows: {e}"))?;
        let b = cpu_now();
        judge.assess(claim, passages);
        judged += cpu_now().saturating_sub(b);
        ranker_side += b.saturating_sub(a);
    }
    let n = cites.len().max(1) as f64;
    println!(
        "{:<34} {:>8.3} ms CPU/citation ({:.3} ms in the ranker's claim pass, {:.3} ms wall in all)",
        "meaning, claim rows from the ranker",
        judged.as_secs_f64() * 1e3 / n,
        ranker_side.as_secs_f64() * 1e3 / n,
        wall0.elapsed().as_secs_f64() * 1e3 / n,
    );
    let warm = LocalJudge::default().with_encoder(Arc::new(SentenceEmbedder::new(embedder)));
    for (claim, passages) in &cites {
        warm.assess(claim, passages);
    }
    measure("meaning, warm sentence cache", &warm, &cites, args.repeats);
    if let Some(path) = &args.verdicts {
        verdicts.push_str(&verdict_lines("meaning", &warm, &cites));
        write_verdicts(path, &verdicts);
    }
    Ok(())
}

fn write_verdicts(path: &Path, verdicts: &str) {
    match std::fs::write(path, verdicts) {
        Ok(()) => println!("verdicts written to {}", path.display()),
        Err(e) => {
            eprintln!("error: writing {}: {e}", path.display());
            std::process::exit(1);
        }
    }
}
