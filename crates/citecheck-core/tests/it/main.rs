//! citecheck-core's integration tests: one binary, split by feature.

mod crawlbase;
mod fetch;
mod judges;
mod pdf;
mod site;
