//! The citecheck binary: parses flags, runs the command, prints an error once and exits with
//! the code its kind says. See `citecheck --help`.

use std::io::IsTerminal;
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
        init_logging(cli.global.verbose, cli.global.quiet);
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
    match runtime.block_on(cli.run()) {
        Ok(code) => ExitCode::from(code),
        Err(err) => {
            eprintln!("error: {}", err.report());
            ExitCode::from(err.exit_code())
        }
    }
}

fn init_logging(verbose: u8, quiet: bool) {
    let default = match (quiet, verbose) {
        (true, _) => "error",
        (false, 0) => "warn",
        (false, 1) => "info",
        (false, _) => "debug",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let ansi = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(ansi)
        .with_target(false)
        .try_init();
}
