//! The citecheck application: command line, configuration, HTTP service, batch scoring, audit.
//! The pipeline itself lives in `citecheck-core`; this crate is glue and presentation.
//!
//! How it fits together: [`cli`] parses the flags and composes the commands; [`config`]
//! resolves them once into a [`config::Config`]; each command module ([`verify`], [`batch`],
//! [`server`], [`demo`], [`eval`], [`audit`], [`replay`], [`report`], [`model`],
//! [`cache`]) owns its flags
//! and its `run`, asks [`engine`] for the pipeline's builder, lets [`storage`] attach the audit
//! index and evidence store, and calls the verifier's one entry point; the reading commands
//! (`audit`, `replay`, `report`) get the SQLite or PostgreSQL index from [`audit_index`]. Errors are
//! [`error::AppError`], whose variant decides the exit code.

pub mod answer;
pub mod answer_command;
pub mod audit;
pub mod audit_command;
pub mod audit_index;
pub mod batch;
pub mod cache;
pub mod cli;
pub mod config;
pub mod demo;
pub mod engine;
pub mod error;
pub mod eval;
pub mod evidence;
pub mod logging;
pub mod model;
pub mod neutral;
pub mod output;
pub mod prune;
pub mod queue;
pub mod replay;
pub mod report;
pub mod results;
pub mod server;
pub mod static_site;
pub mod storage;
pub mod verify;
