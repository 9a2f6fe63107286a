//! Logging for `citecheck serve`: one JSON object per line when stderr is not a terminal (a log
//! collector reads it), readable lines on a terminal. Request logs are at `info`, so that is the
//! service's default level; `RUST_LOG` overrides it.

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

/// Installs the service's subscriber; does nothing if one is already installed.
pub fn init(verbose: u8, quiet: bool) {
    let default = match (quiet, verbose) {
        (true, _) => "error",
        (false, 0) => "info",
        (false, _) => "debug",
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false);
    let stderr = std::io::stderr();
    let _ = if stderr.is_terminal() {
        builder
            .with_ansi(std::env::var_os("NO_COLOR").is_none())
            .try_init()
    } else {
        builder
            .json()
            .flatten_event(true)
            .with_current_span(false)
            .with_span_list(true)
            .try_init()
    };
}
