//! `pdf::read` on the real PDFs in `../shared/pdf_samples` (pdf.js's test corpus, Apache-2.0; see
//! its README), read where they are. A clone without them skips these tests and says so.

use std::path::PathBuf;

use citecheck_core::pdf::{self, PdfError, PdfLimits};

fn sample(name: &str) -> Option<Vec<u8>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/pdf_samples")
        .join(name);
    match std::fs::read(&path) {
        Ok(bytes) => Some(bytes),
        Err(err) => {
            eprintln!("skipped: {} is not readable ({err})", path.display());
            None
        }
    }
}

fn text_of(name: &str) -> Option<String> {
    let bytes = sample(name)?;
    let read = pdf::read(&bytes, &PdfLimits::default())
        .unwrap_or_else(|err| panic!("{name} does not read: {err}"));
    Some(read.text)
}

fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_two_column_paper_reads_with_its_words_mended() {
    let Some(text) = text_of("compressed.tracemonkey-pldi-09.pdf") else {
        return;
    };
    let text = flat(&text);
    assert!(text.split(' ').count() > 12_000, "too few words");
    // Words set with the `fi` ligature in the paper.
    for word in ["specialization", "efficient", "first"] {
        assert!(text.contains(word), "{word} missing");
    }
    assert!(!text.contains('\u{FB01}') && !text.contains('\u{FB02}'));
    assert!(
        text.contains("Trace-based Just-in-Time Type Specialization for Dynamic Languages"),
        "title missing"
    );
}

#[test]
fn the_working_paper_reads() {
    let Some(text) = text_of("TAMReview.pdf") else {
        return;
    };
    let text = flat(&text);
    assert!(text.split(' ').count() > 1_500, "too few words");
    assert!(
        text.contains("Technology Acceptance Model"),
        "title missing"
    );
}

#[test]
fn ligature_glyphs_come_out_as_letters() {
    let Some(text) = text_of("copy_paste_ligatures.pdf") else {
        return;
    };
    assert!(
        !text.chars().any(|c| ('\u{FB00}'..='\u{FB06}').contains(&c)),
        "{text}"
    );
    assert!(flat(&text).contains("ffffiflffifflststghijklmno"), "{text}");
}

#[test]
fn accented_letters_survive() {
    // The sample sets its letters apart; what matters is that each is the right one.
    let letters = |text: String| text.split_whitespace().collect::<String>();
    if let Some(text) = text_of("french_diacritics.pdf") {
        assert!(
            letters(text.clone()).contains("àÀâÂäÄçÇéÉèÈêÊëËîÎïÏôÔùÙûÛüÜ"),
            "{text}"
        );
    }
    if let Some(text) = text_of("german-umlaut-r.pdf") {
        assert!(letters(text.clone()).contains("ö„üä“Äß"), "{text}");
    }
}

#[test]
fn a_scan_with_one_stray_word_has_no_text() {
    let Some(bytes) = sample("scan-bad.pdf") else {
        return;
    };
    let err = pdf::read(&bytes, &PdfLimits::default()).expect_err("a scan");
    assert!(matches!(err, PdfError::NoText { .. }), "{err:?}");
}
