//! Compares PDF text extractors on the shared samples: fidelity (bag-of-words F1 against
//! pdftotext's output), speed (median of runs), robustness (mutated/truncated copies).
//!
//!   pdf-extractors-bench SAMPLES_DIR REF_DIR          fidelity and speed table
//!   pdf-extractors-bench SAMPLES_DIR REF_DIR dump     each extractor's text to out/<name>/
//!   pdf-extractors-bench SAMPLES_DIR REF_DIR fuzz N   N damaged copies per sample and extractor
//!
//! A measuring tool, not project code: it unwraps freely.
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;
use std::time::{Duration, Instant};

type Extract = fn(&[u8]) -> Result<String, String>;

fn lopdf_x(b: &[u8]) -> Result<String, String> {
    let doc = lopdf::Document::load_mem(b).map_err(|e| e.to_string())?;
    let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
    // page by page so one bad page does not lose the rest
    let mut out = String::new();
    for chunk in doc.extract_text_chunks(&pages) {
        if let Ok(t) = chunk { out.push_str(&t); }
    }
    Ok(out)
}
fn pdfextract_x(b: &[u8]) -> Result<String, String> {
    pdf_extract::extract_text_from_mem(b).map_err(|e| e.to_string())
}
fn oxide_x(b: &[u8]) -> Result<String, String> {
    let doc = pdf_oxide::PdfDocument::from_bytes(b.to_vec()).map_err(|e| e.to_string())?;
    doc.extract_all_text().map_err(|e| e.to_string())
}

fn words(t: &str) -> HashMap<String, usize> {
    let mut m = HashMap::new();
    for w in t.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
        *m.entry(w.to_lowercase()).or_insert(0) += 1;
    }
    m
}
fn f1(got: &str, want: &str) -> (f64, f64, f64) {
    let (g, w) = (words(got), words(want));
    let inter: usize = g.iter().map(|(k, n)| (*n).min(*w.get(k).unwrap_or(&0))).sum();
    let gs: usize = g.values().sum();
    let ws: usize = w.values().sum();
    let p = if gs == 0 { 0.0 } else { inter as f64 / gs as f64 };
    let r = if ws == 0 { 0.0 } else { inter as f64 / ws as f64 };
    let f = if p + r == 0.0 { 0.0 } else { 2.0 * p * r / (p + r) };
    (p, r, f)
}

/// Runs `f` on another thread with a deadline: Ok(result) / Err("panic") / Err("hang").
fn guarded(f: Extract, b: Vec<u8>, limit: Duration) -> Result<Result<String, String>, &'static str> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let r = catch_unwind(AssertUnwindSafe(|| f(&b)));
        let _ = tx.send(r);
    });
    match rx.recv_timeout(limit) {
        Ok(Ok(r)) => Ok(r),
        Ok(Err(_)) => Err("panic"),
        Err(_) => Err("hang"),
    }
}

fn main() {
    std::panic::set_hook(Box::new(|_| {}));
    let dir = std::env::args().nth(1).expect("samples dir");
    let refdir = std::env::args().nth(2).expect("reference dir");
    let mode = std::env::args().nth(3).unwrap_or_default();
    let xs: [(&str, Extract); 3] = [("lopdf 0.47", lopdf_x), ("pdf-extract 0.12", pdfextract_x), ("pdf_oxide 0.3", oxide_x)];
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "pdf")).collect();
    files.sort();
    if mode == "dump" {
        for (name, f) in xs { for p in &files {
            let b = std::fs::read(p).unwrap();
            let out = guarded(f, b, Duration::from_secs(60));
            let t = match out { Ok(Ok(t)) => t, Ok(Err(e)) => format!("ERROR {e}"), Err(e) => e.to_string() };
            let dir = format!("out/{}", name.split(' ').next().unwrap());
            std::fs::create_dir_all(&dir).unwrap();
            let fname = format!("{dir}/{}.txt", p.file_stem().unwrap().to_string_lossy());
            std::fs::write(fname, t).unwrap();
        }}
        return;
    }
    if mode == "fuzz" {
        let n: usize = std::env::args().nth(4).map(|s| s.parse().unwrap()).unwrap_or(100);
        for (name, f) in xs {
            let (mut ok, mut err, mut panic, mut hang) = (0, 0, 0, 0);
            let mut seed: u64 = 0x9E3779B97F4A7C15;
            let mut next = || { seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17; seed };
            for p in &files {
                let orig = std::fs::read(p).unwrap();
                for i in 0..n {
                    let mut b = orig.clone();
                    match i % 3 {
                        0 => { let cut = (next() as usize) % b.len(); b.truncate(cut); }
                        1 => { for _ in 0..8 { let at = (next() as usize) % b.len(); b[at] = next() as u8; } }
                        _ => { let at = (next() as usize) % b.len(); let len = ((next() as usize) % 4096).min(b.len() - at); b.drain(at..at + len); }
                    }
                    match guarded(f, b, Duration::from_secs(10)) {
                        Ok(Ok(_)) => ok += 1, Ok(Err(_)) => err += 1,
                        Err("panic") => panic += 1, Err(_) => hang += 1,
                    }
                }
            }
            println!("| {name} | {} | {ok} | {err} | {panic} | {hang} |", ok + err + panic + hang);
        }
        return;
    }
    println!("| extractor | file | words | precision | recall | F1 | median ms |");
    println!("|---|---|---|---|---|---|---|");
    for (name, f) in xs {
        for p in &files {
            let stem = p.file_stem().unwrap().to_string_lossy().to_string();
            let want = std::fs::read_to_string(format!("{refdir}/{stem}.txt")).unwrap();
            let b = std::fs::read(p).unwrap();
            let mut times = vec![];
            let mut last = None;
            for _ in 0..5 {
                let t0 = Instant::now();
                let r = guarded(f, b.clone(), Duration::from_secs(60));
                times.push(t0.elapsed());
                last = Some(r);
            }
            times.sort();
            let med = times[2].as_secs_f64() * 1000.0;
            match last.unwrap() {
                Ok(Ok(text)) => {
                    let (pr, r, f) = f1(&text, &want);
                    println!("| {name} | {stem} | {} | {pr:.3} | {r:.3} | {f:.3} | {med:.1} |", words(&text).values().sum::<usize>());
                }
                Ok(Err(e)) => println!("| {name} | {stem} | error: {} | | | | {med:.1} |", e.chars().take(60).collect::<String>()),
                Err(e) => println!("| {name} | {stem} | {e} | | | | {med:.1} |"),
            }
        }
    }
}
