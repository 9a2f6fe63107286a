//! Embedding throughput of citecheck-embed, comparable with the python-baseline's
//! bench_embed.py: the same 200-word passages (one JSON string per line, see
//! bench/dump_passages.py), truncated at 256 tokens, at batch sizes 1, 8 and 32.
//!
//! ```text
//! embed-bench --passages passages.jsonl [--model-dir DIR] [--precision bf16|int8|f32]
//!             [--backend portable|avx2|avx2-int8|avx-vnni-int8|avx512|avx512-bf16]
//!             [--batch-sizes 1,8,32] [--repeats 3] [--threads N (default: fit the machine)]
//! ```
//!
//! Reports model load time, passages/s (best and median of the repeats, wall clock), passages per
//! second of the thread's CPU time (less disturbed by a busy machine), the arithmetic rate reached
//! (wall clock) and, per CPU second, its fraction of the core's peak for that precision
//! (measured by a register-only loop of the same instructions), and the process's peak RSS.

use std::path::PathBuf;
use std::time::Instant;

use citecheck_embed::{files, Backend, Embedder, EmbedderOptions, Precision};

struct Args {
    passages: PathBuf,
    model_dir: Option<PathBuf>,
    precision: Precision,
    backend: Option<Backend>,
    batch_sizes: Vec<usize>,
    repeats: usize,
    threads: Option<usize>,
}

fn parse() -> Result<Args, String> {
    let mut args = Args {
        passages: PathBuf::new(),
        model_dir: None,
        precision: Precision::Bf16,
        backend: None,
        batch_sizes: vec![1, 8, 32],
        repeats: 3,
        threads: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--passages" => args.passages = value()?.into(),
            "--model-dir" => args.model_dir = Some(value()?.into()),
            "--precision" => {
                args.precision = match value()?.as_str() {
                    "bf16" => Precision::Bf16,
                    "int8" => Precision::Int8,
                    "f32" => Precision::F32,
                    other => return Err(format!("unknown precision {other}")),
                }
            }
            "--batch-sizes" => {
                args.batch_sizes = value()?
                    .split(',')
                    .map(|s| s.trim().parse().map_err(|_| format!("bad batch size {s}")))
                    .collect::<Result<_, _>>()?
            }
            "--repeats" => args.repeats = value()?.parse().map_err(|_| "bad --repeats")?,
            "--backend" => {
                args.backend = Some(Backend::parse_supported(&value()?).map_err(|e| e.to_string())?)
            }
            "--threads" => args.threads = Some(value()?.parse().map_err(|_| "bad --threads")?),
            "--help" | "-h" => return Err(String::new()),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if args.passages.as_os_str().is_empty() {
        return Err("--passages FILE is required".into());
    }
    Ok(args)
}

/// `value` with `decimals` places, or `null` where JSON has no number for it (the portable
/// backend has no peak probe, so its fraction of peak is unknown, not NaN).
fn json_number(value: f64, decimals: usize) -> String {
    if value.is_finite() {
        format!("{value:.decimals$}")
    } else {
        "null".to_owned()
    }
}

fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// Nanoseconds this process's threads have spent on a CPU (user + system time from
/// /proc/self/stat, in 10 ms ticks), to tell the engine's speed from the share of the machine it
/// got: the box is shared, and wall-clock rates drop when it is busy.
fn thread_cpu_ns() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces) start at field 3.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks * 10_000_000)
}

/// Multiply-adds of one forward pass over `t` tokens, counted as 2 FLOP each.
fn flops(t: usize) -> f64 {
    let t = t as f64;
    let dense = 384.0 * 1152.0 + 384.0 * 384.0 + 2.0 * 384.0 * 1536.0;
    let attention = 2.0 * t * 384.0;
    6.0 * 2.0 * t * (dense + attention)
}

fn main() {
    let args = match parse() {
        Ok(args) => args,
        Err(err) => {
            eprintln!("{err}\nusage: embed-bench --passages FILE [--model-dir DIR] [--precision bf16|int8|f32] [--backend NAME] [--batch-sizes 1,8,32] [--repeats 3] [--threads N]");
            std::process::exit(2);
        }
    };
    let text = std::fs::read_to_string(&args.passages).expect("passages file");
    let passages: Vec<String> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("one JSON string per line"))
        .collect();
    let dir = files::resolve_model_dir(args.model_dir.as_deref()).expect("model dir");

    let started = Instant::now();
    let model = Embedder::load(
        &dir,
        EmbedderOptions {
            precision: args.precision,
            backend: args.backend,
            threads: args.threads,
        },
    )
    .expect("model loads (run fetch-model first)");
    let load_s = started.elapsed().as_secs_f64();
    let rss_after_load = peak_rss_mib();

    let ids: Vec<Vec<u32>> = passages
        .iter()
        .map(|p| model.tokenizer().encode(p).expect("encode"))
        .collect();
    let tokens: usize = ids.iter().map(Vec::len).sum();
    let work: f64 = ids.iter().map(|s| flops(s.len())).sum();
    let peak = citecheck_embed::bench_support::peak_gflops(model.backend());

    println!("{{");
    println!("  \"engine\": \"citecheck-embed {}\",", model.backend());
    println!("  \"precision\": \"{}\",", model.precision());
    println!("  \"threads\": {},", model.threads());
    println!("  \"threads_from\": \"{}\",", model.thread_source());
    println!("  \"load_s\": {load_s:.3},");
    println!("  \"passages\": {},", passages.len());
    println!(
        "  \"tokens_per_passage_mean\": {:.1},",
        tokens as f64 / passages.len() as f64
    );
    println!(
        "  \"gflop_per_passage\": {:.2},",
        work / passages.len() as f64 / 1e9
    );
    println!("  \"core_peak_gflops\": {},", json_number(peak, 1));
    println!(
        "  \"peak_rss_after_load_mib\": {},",
        json_number(rss_after_load.unwrap_or(f64::NAN), 1)
    );
    println!("  \"batch\": {{");
    for (n, &batch) in args.batch_sizes.iter().enumerate() {
        model.embed_ids(&ids[..batch.min(ids.len())], batch);
        let mut rates = Vec::new();
        let mut cpu_rates = Vec::new();
        for _ in 0..args.repeats.max(1) {
            let cpu = thread_cpu_ns();
            let t = Instant::now();
            model.embed_ids(&ids, batch);
            rates.push(passages.len() as f64 / t.elapsed().as_secs_f64());
            if let (Some(a), Some(b)) = (cpu, thread_cpu_ns()) {
                cpu_rates.push(passages.len() as f64 / ((b - a) as f64 / 1e9));
            }
        }
        cpu_rates.sort_by(f64::total_cmp);
        let per_cpu_s = cpu_rates.last().copied().unwrap_or(f64::NAN);
        rates.sort_by(f64::total_cmp);
        let best = rates[rates.len() - 1];
        let median = rates[rates.len() / 2];
        let gflops = best * work / passages.len() as f64 / 1e9;
        // The fraction of peak compares like with like: work per second of CPU time on both
        // sides (the peak probe measures its own CPU time too).
        let cpu_gflops = per_cpu_s * work / passages.len() as f64 / 1e9;
        println!(
            "    \"{batch}\": {{\"passages_per_s_best\": {best:.2}, \"passages_per_s_median\": {median:.2}, \"passages_per_cpu_s\": {}, \"gflops\": {gflops:.1}, \"fraction_of_peak\": {}, \"peak_rss_mib\": {}}}{}",
            json_number(per_cpu_s, 2),
            json_number(cpu_gflops / peak, 2),
            json_number(peak_rss_mib().unwrap_or(f64::NAN), 1),
            if n + 1 == args.batch_sizes.len() { "" } else { "," }
        );
    }
    println!("  }}");
    println!("}}");
}
