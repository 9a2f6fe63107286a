//! citecheck-core's integration tests: one binary, split by feature.

mod crawlbase;
mod extract_fuzz;
mod fetch;
mod judges;
mod site;
