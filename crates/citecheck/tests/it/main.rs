//! The citecheck binary crate's integration tests: one test binary, split by feature.

mod audit;
mod batch;
mod batch_support;
mod cli;
mod devset;
mod example;
mod follow_up;
mod model;
mod report;
mod server;
mod server_audit;
mod server_fuzz;
mod server_live;
mod server_support;
mod support_local;
mod testset;
