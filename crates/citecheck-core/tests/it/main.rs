//! citecheck-core's integration tests: one binary, split by feature.

mod judges;
