//! The citecheck application: command line, configuration, HTTP service, batch scoring, audit.
//! The pipeline itself lives in `citecheck-core`; this crate is glue and presentation.

pub mod eval;
pub mod static_site;
