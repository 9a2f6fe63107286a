//! The citecheck application: command line, configuration, HTTP service, batch scoring, audit.
//! The pipeline itself lives in `citecheck-core`; this crate is glue and presentation.

pub mod audit;
pub mod batch;
pub mod cli;
pub mod demo;
pub mod engine;
pub mod eval;
pub mod evidence;
pub mod neutral;
pub mod output;
pub mod replay;
pub mod report;
pub mod server;
pub mod settings;
pub mod static_site;
