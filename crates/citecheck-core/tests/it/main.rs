//! citecheck-core's integration tests: one binary, split by feature.

pub mod archive;
mod crawlbase;
mod fetch;
mod judges;
mod site;
mod text_fragments;
