//! The citecheck binary: parses flags, runs the command, prints an error once and exits with
//! the code its kind says. See `citecheck --help`.

use std::process::ExitCode;

use clap::Parser;

use citecheck::cli::{Cli, Command};
use citecheck::error::{EXIT_CONFIG, EXIT_FATAL};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let code = if err.use_stderr() { EXIT_CONFIG } else { 0 };
            let _ = err.print();
            return ExitCode::from(code);
        }
    };
    if let Command::Serve(_) = cli.command {
        citecheck::server::logging::init(cli.global.verbose, cli.global.quiet);
    } else {
        citecheck::logging::init(cli.global.verbose, cli.global.quiet);
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("error: cannot start the async runtime: {err}");
            return ExitCode::from(EXIT_FATAL);
        }
    };
    let outcome = runtime.block_on(cli.run());
    // Blocking work still running (a ranking, a store write of an abandoned request) must not
    // hold the exit: `serve` has already given requests their grace period.
    runtime.shutdown_timeout(std::time::Duration::from_secs(1));
    match outcome {
        Ok(code) => ExitCode::from(code),
        Err(err) => {
            eprintln!("error: {}", err.report());
            ExitCode::from(err.exit_code())
        }
    }
}
