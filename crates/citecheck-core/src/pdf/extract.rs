//! PDF bytes -> the text of each page, from two libraries, each for what it does best.
//!
//! lopdf 0.47 opens the document: it repairs broken cross-reference tables, opens documents
//! whose user password is empty, bounds every stream it inflates, and tells an encrypted document
//! apart. Every compressed stream the layout pass may read is inflated once here under the limit,
//! so that pass cannot meet a decompression bomb. pdf-extract 0.12 then lays out each page: it
//! decodes embedded font encodings (ligatures, accented letters) and breaks lines where the text
//! moves down, which lopdf's own extraction does not (it drops ligature glyphs and glues lines;
//! see BENCHMARKS.md). A page pdf-extract cannot read (an error or a panic) falls back to lopdf's
//! text for that page alone. The deadline is checked for every character laid out.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

use lopdf::{DecompressError, Document, LoadOptions, Object};
use pdf_extract::{MediaBox, OutputDev, OutputError, PlainTextOutput, Transform};

use super::{normalise, PdfError, PdfLimits, PdfText, MIN_CHARS_PER_PAGE};

pub(super) fn read_within(
    bytes: &[u8],
    limits: &PdfLimits,
    deadline: Instant,
) -> Result<PdfText, PdfError> {
    let doc = open(bytes, limits)?;
    check_streams(&doc, limits)?;
    let layout = layout_document(bytes, &doc);
    let numbers: Vec<u32> = doc.get_pages().into_keys().collect();
    let mut pages = Vec::new();
    for &number in numbers.iter().take(limits.max_pages) {
        if Instant::now() >= deadline {
            return Err(PdfError::Timeout(limits.timeout));
        }
        let laid_out = layout
            .as_ref()
            .map(|layout| layout_page(layout, number, deadline));
        let text = match laid_out {
            Some(Ok(text)) => text,
            Some(Err(Stop::Deadline)) => return Err(PdfError::Timeout(limits.timeout)),
            Some(Err(Stop::Failed)) | None => plain_page(&doc, number, limits)?,
        };
        pages.push(text);
    }
    let chars: usize = pages
        .iter()
        .flat_map(|page| page.chars())
        .filter(|c| c.is_alphanumeric())
        .count();
    // A few characters on pages of images is a scan with a stray caption; a few characters and
    // nothing else is a short document.
    if chars == 0 || (chars < MIN_CHARS_PER_PAGE * pages.len().max(1) && has_images(&doc)) {
        return Err(PdfError::NoText {
            pages: numbers.len(),
            chars,
        });
    }
    Ok(PdfText {
        text: normalise::pages_to_text(&pages),
        pages: numbers.len(),
        pages_read: pages.len(),
    })
}

/// The document, opened by lopdf within the stream limit.
fn open(bytes: &[u8], limits: &PdfLimits) -> Result<Document, PdfError> {
    let options = LoadOptions {
        max_decompressed_size: Some(limits.max_stream_bytes),
        ..LoadOptions::default()
    };
    let doc = Document::load_mem_with_options(bytes, options).map_err(|err| match err {
        lopdf::Error::Decompress(DecompressError::MemoryLimitExceeded { .. }) => {
            PdfError::TooLarge {
                limit: limits.max_stream_bytes,
            }
        }
        lopdf::Error::InvalidPassword | lopdf::Error::Decryption(_) => PdfError::Encrypted,
        other => PdfError::Malformed(Box::new(other)),
    })?;
    // lopdf opens a document whose user password is empty (most "encrypted" PDFs on the web:
    // owner restrictions only) and removes the encryption; one still encrypted needs a password.
    if doc.is_encrypted() {
        return Err(PdfError::Encrypted);
    }
    Ok(doc)
}

/// True when the document holds an image (a scanned page is one).
fn has_images(doc: &Document) -> bool {
    doc.objects.values().any(|object| match object {
        Object::Stream(stream) => is_image(stream),
        _ => false,
    })
}

fn is_image(stream: &lopdf::Stream) -> bool {
    stream
        .dict
        .get(b"Subtype")
        .and_then(Object::as_name)
        .is_ok_and(|name| name == b"Image")
}

/// Fails when a compressed stream other than an image inflates past the limit. Images are never
/// decoded for text; every other stream (page contents, forms, fonts, character maps) may be.
fn check_streams(doc: &Document, limits: &PdfLimits) -> Result<(), PdfError> {
    for object in doc.objects.values() {
        let Object::Stream(stream) = object else {
            continue;
        };
        if is_image(stream) || stream.dict.get(b"Filter").is_err() {
            continue;
        }
        if let Err(lopdf::Error::Decompress(DecompressError::MemoryLimitExceeded { .. })) =
            stream.decompressed_content_with_limit(limits.max_stream_bytes)
        {
            return Err(PdfError::TooLarge {
                limit: limits.max_stream_bytes,
            });
        }
    }
    Ok(())
}

/// The document as pdf-extract's parser reads it: from the original bytes, or, when those do not
/// parse there or were encrypted, from lopdf's repaired and decrypted copy. `None` when neither
/// loads (every page then falls back to lopdf's text).
fn layout_document(bytes: &[u8], doc: &Document) -> Option<pdf_extract::Document> {
    let load = |bytes: &[u8]| {
        catch_unwind(|| pdf_extract::Document::load_mem(bytes))
            .ok()
            .and_then(Result::ok)
    };
    if !doc.was_encrypted() {
        if let Some(layout) = load(bytes) {
            return Some(layout);
        }
    }
    let mut copy = doc.clone();
    // Saved without encryption: the copy is already decrypted.
    copy.encryption_state = None;
    let mut repaired = Vec::new();
    copy.save_to(&mut repaired).ok()?;
    load(&repaired).filter(|layout| !layout.is_encrypted())
}

/// Why a page was not laid out.
enum Stop {
    Deadline,
    Failed,
}

fn layout_page(
    layout: &pdf_extract::Document,
    number: u32,
    deadline: Instant,
) -> Result<String, Stop> {
    let mut text = String::new();
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let mut output = Bounded {
            inner: PlainTextOutput::new(&mut text),
            deadline,
            late: false,
        };
        let result = pdf_extract::output_doc_page(layout, &mut output, number);
        (result.is_ok(), output.late)
    }));
    match outcome {
        Ok((_, true)) => Err(Stop::Deadline),
        Ok((true, false)) => Ok(text),
        Ok((false, false)) | Err(_) => {
            tracing::debug!(
                page = number,
                "pdf-extract could not lay out a page; using lopdf"
            );
            Err(Stop::Failed)
        }
    }
}

/// lopdf's text of one page (no line breaks inside text objects, ligature glyphs may be lost):
/// the fallback for a page pdf-extract cannot read.
fn plain_page(doc: &Document, number: u32, limits: &PdfLimits) -> Result<String, PdfError> {
    let mut page = String::new();
    for chunk in doc.extract_text_chunks_with_limit(&[number], limits.max_stream_bytes) {
        match chunk {
            Ok(text) => page.push_str(&text),
            Err(lopdf::Error::Decompress(DecompressError::MemoryLimitExceeded { .. })) => {
                return Err(PdfError::TooLarge {
                    limit: limits.max_stream_bytes,
                })
            }
            // A broken font or stream loses its own text, not the page's.
            Err(err) => {
                tracing::debug!(page = number, error = %err, "part of a PDF page is unreadable")
            }
        }
    }
    Ok(page)
}

/// pdf-extract's plain-text layout, stopped at the deadline: a character placed after it ends the
/// page with an error, and `late` says why.
struct Bounded<'a> {
    inner: PlainTextOutput<&'a mut String>,
    deadline: Instant,
    late: bool,
}

impl OutputDev for Bounded<'_> {
    fn begin_page(
        &mut self,
        page_num: u32,
        media_box: &MediaBox,
        art_box: Option<(f64, f64, f64, f64)>,
    ) -> Result<(), OutputError> {
        self.inner.begin_page(page_num, media_box, art_box)
    }

    fn end_page(&mut self) -> Result<(), OutputError> {
        self.inner.end_page()
    }

    fn output_character(
        &mut self,
        trm: &Transform,
        width: f64,
        spacing: f64,
        font_size: f64,
        char: &str,
    ) -> Result<(), OutputError> {
        if Instant::now() >= self.deadline {
            self.late = true;
            return Err(OutputError::FormatError(std::fmt::Error));
        }
        self.inner
            .output_character(trm, width, spacing, font_size, char)
    }

    fn begin_word(&mut self) -> Result<(), OutputError> {
        self.inner.begin_word()
    }

    fn end_word(&mut self) -> Result<(), OutputError> {
        self.inner.end_word()
    }

    fn end_line(&mut self) -> Result<(), OutputError> {
        self.inner.end_line()
    }
}
