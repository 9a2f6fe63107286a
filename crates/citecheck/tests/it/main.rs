//! The citecheck binary crate's integration tests: one test binary, split by feature.

mod answer;
mod answer_limits;
mod audit;
mod batch;
mod batch_support;
mod cli;
mod devset;
mod example;
mod first_hour;
mod follow_up;
mod model;
mod pdf;
mod queue;
mod queue_audit;
mod queue_support;
mod report;
mod server;
mod server_answer;
mod server_audit;
mod server_fuzz;
mod server_live;
mod server_shutdown;
mod server_slow;
mod server_support;
mod support_local;
mod testset;
