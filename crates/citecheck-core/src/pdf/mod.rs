//! PDF bytes -> normalised plain text, within a time and memory budget.
//!
//! [`read`] extracts the text of each page (with two libraries, chosen by measurement in
//! BENCHMARKS.md; the private `extract` module says which does what) and hands the pages to
//! [`normalise::pages_to_text`]. It refuses, with a typed error, what has no text to quote: a
//! document that needs a password ([`PdfError::Encrypted`]) and a scan without a text layer
//! ([`PdfError::NoText`]). Hostile input is bounded three ways: every compressed stream may
//! inflate to at most [`PdfLimits::max_stream_bytes`], at most [`PdfLimits::max_pages`] pages are
//! read, and the deadline is checked for every character placed on a page.
//! [`read_blocking`] runs all of that on the blocking pool, away from the executor threads that
//! serve I/O, and gives up waiting when the deadline has passed. A panic inside the parser
//! becomes [`PdfError::Malformed`], never the caller's panic.

mod extract;
pub mod normalise;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use thiserror::Error;

/// Default bound on one PDF's parsing and extraction.
pub const DEFAULT_PDF_TIMEOUT: Duration = Duration::from_secs(20);
/// Default bound on what one compressed stream of a PDF may inflate to.
pub const DEFAULT_MAX_STREAM_BYTES: usize = 64 * 1024 * 1024;
/// Default bound on the pages read from one PDF; the rest are not judged.
pub const DEFAULT_MAX_PAGES: usize = 500;

/// The fewest letters and digits per page (on average) a PDF with images needs to count as
/// text: a scan with a stray caption or page number stays below it; a page of prose has hundreds.
const MIN_CHARS_PER_PAGE: usize = 16;

/// Bounds on reading one PDF.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PdfLimits {
    pub timeout: Duration,
    pub max_stream_bytes: usize,
    pub max_pages: usize,
}

impl Default for PdfLimits {
    fn default() -> Self {
        PdfLimits {
            timeout: DEFAULT_PDF_TIMEOUT,
            max_stream_bytes: DEFAULT_MAX_STREAM_BYTES,
            max_pages: DEFAULT_MAX_PAGES,
        }
    }
}

/// Why a PDF gave no text.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum PdfError {
    #[error("the PDF is encrypted and needs a password")]
    Encrypted,
    #[error("the PDF has no text layer ({chars} letters or digits on {pages} pages): a scan?")]
    NoText { pages: usize, chars: usize },
    #[error("the PDF could not be read")]
    Malformed(#[source] Box<dyn std::error::Error + Send + Sync>),
    #[error("a stream of the PDF inflates past the {limit}-byte limit")]
    TooLarge { limit: usize },
    #[error("reading the PDF took longer than {0:?}")]
    Timeout(Duration),
}

/// The text of a PDF.
#[derive(Debug, Clone, PartialEq)]
pub struct PdfText {
    /// Normalised plain text: paragraphs separated by blank lines.
    pub text: String,
    /// Pages in the document.
    pub pages: usize,
    /// Pages whose text was read (fewer than `pages` when the page bound cut the rest).
    pub pages_read: usize,
}

/// Reads the text of a PDF on the calling thread, within `limits`.
pub fn read(bytes: &[u8], limits: &PdfLimits) -> Result<PdfText, PdfError> {
    let deadline = Instant::now() + limits.timeout;
    // lopdf is lenient by design and has panicked on malformed input before; whatever it does,
    // a bad PDF must become a verdict, not take the worker down.
    catch_unwind(AssertUnwindSafe(|| {
        extract::read_within(bytes, limits, deadline)
    }))
    .unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "the parser panicked".to_string());
        Err(PdfError::Malformed(message.into()))
    })
}

/// Reads the text of a PDF on the blocking pool, waiting at most `limits.timeout`.
///
/// A blocking thread cannot be stopped from outside; the reader checks the same deadline for
/// every character it lays out, so a worker that is given up on stops soon after.
pub async fn read_blocking(bytes: Vec<u8>, limits: PdfLimits) -> Result<PdfText, PdfError> {
    let work = tokio::task::spawn_blocking(move || read(&bytes, &limits));
    match tokio::time::timeout(limits.timeout, work).await {
        Ok(Ok(result)) => result,
        Ok(Err(join)) => Err(PdfError::Malformed(Box::new(join))),
        Err(_elapsed) => Err(PdfError::Timeout(limits.timeout)),
    }
}
