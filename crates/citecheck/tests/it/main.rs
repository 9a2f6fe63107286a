//! The citecheck binary crate's integration tests: one test binary, split by feature.

mod devset;
mod example;
mod support_local;
