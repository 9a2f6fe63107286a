//! Reads PDFs with `citecheck_core::pdf::read` and reports, per file, the pages, the words, and
//! the median time of five reads; with `--text DIR`, also writes each file's text to
//! `DIR/<name>.txt` (to compare with another extractor's output); with `--damage N`, reads N
//! damaged copies of each file (truncated, bytes overwritten, a range cut out) and counts the
//! outcomes and the slowest read instead.
//!
//! ```sh
//! cargo run -p citecheck-core --example pdf_text -- ../shared/pdf_samples/*.pdf
//! ```

use std::path::PathBuf;
use std::time::Instant;

use citecheck_core::pdf::{self, PdfLimits};

fn main() {
    let mut args = std::env::args().skip(1);
    let mut out_dir: Option<PathBuf> = None;
    let mut damage: Option<usize> = None;
    let mut files = Vec::new();
    while let Some(arg) = args.next() {
        if arg == "--text" {
            out_dir = args.next().map(PathBuf::from);
        } else if arg == "--damage" {
            damage = args.next().and_then(|n| n.parse().ok());
        } else {
            files.push(PathBuf::from(arg));
        }
    }
    if let Some(copies) = damage {
        damaged(&files, copies);
        return;
    }
    println!("| file | pages | words | median ms | result |");
    println!("|---|---|---|---|---|");
    for file in files {
        let name = file
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        let bytes = match std::fs::read(&file) {
            Ok(bytes) => bytes,
            Err(err) => {
                eprintln!("{}: {err}", file.display());
                continue;
            }
        };
        let mut times = Vec::new();
        let mut last = None;
        for _ in 0..5 {
            let started = Instant::now();
            last = Some(pdf::read(&bytes, &PdfLimits::default()));
            times.push(started.elapsed().as_secs_f64() * 1000.0);
        }
        times.sort_by(f64::total_cmp);
        let median = times[times.len() / 2];
        match last {
            Some(Ok(read)) => {
                let words = read.text.split_whitespace().count();
                println!("| {name} | {} | {words} | {median:.1} | text |", read.pages);
                if let Some(dir) = &out_dir {
                    let path = dir.join(format!("{name}.txt"));
                    if let Err(err) = std::fs::write(&path, &read.text) {
                        eprintln!("{}: {err}", path.display());
                    }
                }
            }
            Some(Err(err)) => println!("| {name} | | | {median:.1} | {err} |"),
            None => {}
        }
    }
}

/// Reads `copies` damaged copies of each file; prints how many gave text, which errors the rest
/// gave, and the slowest read.
fn damaged(files: &[PathBuf], copies: usize) {
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed as usize
    };
    let mut outcomes: std::collections::BTreeMap<String, usize> = Default::default();
    let mut slowest = 0.0f64;
    for file in files {
        let Ok(original) = std::fs::read(file) else {
            continue;
        };
        for i in 0..copies {
            let mut bytes = original.clone();
            let len = bytes.len().max(1);
            match i % 3 {
                0 => bytes.truncate(next() % len),
                1 => {
                    for _ in 0..8 {
                        let at = next() % len;
                        if let Some(byte) = bytes.get_mut(at) {
                            *byte = next() as u8;
                        }
                    }
                }
                _ => {
                    let at = next() % len;
                    let end = (at + next() % 4096).min(bytes.len());
                    bytes.drain(at.min(end)..end);
                }
            }
            let started = Instant::now();
            let outcome = match pdf::read(&bytes, &PdfLimits::default()) {
                Ok(_) => "text".to_string(),
                Err(err) => format!("{:?}", err)
                    .split(['(', ' ', '{'])
                    .next()
                    .unwrap_or_default()
                    .to_string(),
            };
            slowest = slowest.max(started.elapsed().as_secs_f64() * 1000.0);
            *outcomes.entry(outcome).or_default() += 1;
        }
    }
    println!("{outcomes:?}; slowest read {slowest:.0} ms");
}
