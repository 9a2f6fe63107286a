//! Reads PDFs with `citecheck_core::pdf::read` and reports, per file, the pages, the words, and
//! the median time of five reads; with `--text DIR`, also writes each file's text to
//! `DIR/<name>.txt` (to compare with another extractor's output).
//!
//! ```sh
//! cargo run --release -p citecheck-core --example pdf_text -- ../shared/pdf_samples/*.pdf
//! ```

use std::path::PathBuf;
use std::time::Instant;

use citecheck_core::pdf::{self, PdfLimits};

fn main() {
    let mut args = std::env::args().skip(1);
    let mut out_dir: Option<PathBuf> = None;
    let mut files = Vec::new();
    while let Some(arg) = args.next() {
        if arg == "--text" {
            out_dir = args.next().map(PathBuf::from);
        } else {
            files.push(PathBuf::from(arg));
        }
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
