//! citecheck-core: checks whether the pages an LLM cited say what it claimed.
//!
//! The pipeline, per cited URL: [`fetch`] the page and turn it into Markdown (or decide, without
//! a judge, that it is dead, a PDF, a soft 404, ...), cut it into [`passage`]s, [`rank`] them
//! against the claim, ask a [`judge`] for a label and a verbatim quote, and accept the verdict
//! only when the [`guard`] finds the quote in the passages. [`aggregate`] turns the citations'
//! labels into the claim's label. [`Verifier`] runs it all: assemble one with
//! [`Verifier::builder`], call [`Verifier::verify`] with a [`Check`]. What the verifier reads and
//! decides can be kept through the [`store`] seams ([`PageStore`], [`VerdictRecorder`]), which
//! the core defines and the application implements.
//!
//! A reader can follow each verdict: an accepted quote is located in the page ([`anchor`]) and
//! linked with a text fragment ([`fragment`]), and a dead link can be looked up in the
//! Internet Archive ([`archive`]) to tell link rot from a possibly fabricated URL.
//!
//! Every I/O boundary is a trait ([`Fetcher`], [`Ranker`], [`Judge`]) held as `Arc<dyn _>`;
//! everything else is a pure function. A failed citation is a value ([`UrlVerdict`] with a
//! [`Reason`]), never an error.
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use std::sync::Arc;
//! use citecheck_core::{fetch::{DirectFetcher, FetchOptions}, judge::LocalJudge, rank::Bm25Ranker};
//! use citecheck_core::{Check, Verifier, VerifyOptions};
//!
//! let verifier = Verifier::builder(
//!     Arc::new(DirectFetcher::new(FetchOptions::default())?),
//!     Arc::new(Bm25Ranker),
//!     Arc::new(LocalJudge::default()),
//! )
//! .options(VerifyOptions::default())
//! .build()?;
//! let check = Check::new(
//!     "Water boils at 100 degrees Celsius at sea level.",
//!     ["https://example.com/water"],
//! );
//! let result = verifier.verify(check.top_k(5)).await;
//! println!("{}", result.overall);
//! # Ok(()) }
//! ```

pub mod aggregate;
pub mod anchor;
pub mod archive;
pub mod census;
pub mod content;
pub mod error_text;
pub mod extract;
pub mod fetch;
pub mod flatten;
pub mod fragment;
pub mod guard;
pub mod judge;
pub mod limits;
pub mod model;
pub mod passage;
pub mod pdf;
pub mod rank;
pub mod retry;
pub mod store;
pub mod verifier;
pub mod workers;

pub use fetch::Fetcher;
pub use judge::Judge;
pub use model::{
    ArchiveInfo, ArchiveStatus, ClaimVerdict, EvidenceOffsets, FollowUp, JudgeInfo, Label, Reason,
    TokenUsage, UrlVerdict, VerdictMeta,
};
pub use rank::Ranker;
pub use store::{Origin, PageStore, VerdictRecorder};
pub use verifier::{Check, SharedPages, Verifier, VerifierBuilder, VerifyOptions};
