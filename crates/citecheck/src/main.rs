//! The citecheck binary: parses flags, builds the engine, presents results. See `citecheck --help`.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::Parser;

use citecheck::cli::{Cli, Command, Format};
use citecheck::settings::{ConfigError, MissingSecret, Settings};
use citecheck::{demo, engine, eval, output};

/// Exit code for a fatal error.
const EXIT_FATAL: u8 = 1;
/// Exit code for a configuration or usage error.
const EXIT_CONFIG: u8 = 3;

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
    match runtime.block_on(run(cli)) {
        Ok(code) => ExitCode::from(code),
        Err(err) => {
            eprintln!("error: {err:#}");
            let code = if err.downcast_ref::<ConfigError>().is_some()
                || err.downcast_ref::<MissingSecret>().is_some()
            {
                EXIT_CONFIG
            } else {
                EXIT_FATAL
            };
            ExitCode::from(code)
        }
    }
}

async fn run(cli: Cli) -> anyhow::Result<u8> {
    let verbose = cli.global.verbose > 0;
    match cli.command {
        Command::Verify(args) => {
            let settings = Settings::resolve(&cli.global)?;
            if args.claim.trim().is_empty() {
                return Err(ConfigError("the claim is empty (--claim)".into()).into());
            }
            for url in &args.urls {
                check_url(url)?;
            }
            let built = engine::build(&settings)?;
            // Opened once the pipeline is built, so a configuration error creates no index.
            let recorder = citecheck::audit::command::Recorder::open(&cli.global);
            let crawlbase = built.crawlbase.clone();
            let verifier = recorder.verifier(built.verifier);
            let verdict = verifier.verify(args.claim.trim(), &args.urls).await;
            let run = citecheck::audit::RunInfo::new("verify");
            recorder.record(&verdict, &run).await;
            let rendered = match args.format {
                Format::Json => output::json(&verdict),
                Format::Text => output::text(&verdict, verbose),
            };
            print_stdout(&rendered)?;
            // The verdicts are out; an account problem (bad token, no credits) still fails the
            // run loudly rather than passing as a column of crawl_failed verdicts.
            if let Some(err) = crawlbase.and_then(|fetcher| fetcher.config_error()) {
                return Err(ConfigError(err.to_string()).into());
            }
            Ok(output::exit_code(&verdict))
        }
        Command::Demo(args) => {
            let mut settings = Settings::resolve(&cli.global)?;
            // The demo site runs on 127.0.0.1, which the address guard exists to refuse.
            settings.fetch.guard.enabled = false;
            let verifier = engine::build_verifier(&settings)?;
            let results = demo::run(&verifier).await?;
            let mut failed = 0;
            let mut rendered = String::new();
            for result in &results {
                let ok = result.verdict.overall == result.expected;
                failed += usize::from(!ok);
                match args.format {
                    Format::Json => {}
                    Format::Text => {
                        rendered.push_str(&output::text(&result.verdict, verbose));
                        if !ok {
                            rendered.push_str(&format!(
                                "!! expected {}, got {}\n",
                                result.expected, result.verdict.overall
                            ));
                        }
                        rendered.push('\n');
                    }
                }
            }
            if args.format == Format::Json {
                let verdicts: Vec<_> = results.iter().map(|r| &r.verdict).collect();
                rendered = serde_json::to_string_pretty(&verdicts)?;
            }
            print_stdout(&rendered)?;
            if failed > 0 {
                anyhow::bail!("{failed} demo claim(s) did not get their expected label");
            }
            Ok(0)
        }
        Command::Eval(args) => {
            let mut settings = Settings::resolve(&cli.global)?;
            settings.fetch.guard.enabled = false;
            let verifier = engine::build_verifier(&settings)?;
            let report = eval::run(&args.devset, &verifier).await?;
            let rendered = match args.format {
                Format::Json => serde_json::to_string_pretty(&report)?,
                Format::Text => report.to_string(),
            };
            print_stdout(&rendered)?;
            Ok(0)
        }
        Command::Batch(args) => citecheck::batch::command(&args, &cli.global).await,
        Command::Audit(args) => citecheck::audit::command::command(&args, &cli.global),
        Command::Replay(args) => citecheck::replay::run(&args, &cli.global).await,
        Command::Report(args) => citecheck::report::run(&args, &cli.global),
        Command::Model(args) => model_command(args.action, &cli.global).await,
        Command::Serve(args) => {
            citecheck::server::run(&cli.global, &args).await?;
            Ok(0)
        }
    }
}

/// `citecheck model fetch|info`: prints the model directory's state on stdout; exit 1 when it
/// does not check out.
async fn model_command(
    action: citecheck::cli::ModelAction,
    global: &citecheck::cli::GlobalArgs,
) -> anyhow::Result<u8> {
    let settings = Settings::resolve(global)?;
    let dir = citecheck_embed::files::resolve_model_dir(settings.model_dir.as_deref())?;
    let threads = settings.embed_threads;
    let (info, runtime) = tokio::task::spawn_blocking(move || {
        if let citecheck::cli::ModelAction::Fetch = action {
            let options = citecheck_embed::fetch::FetchOptions::from_env();
            let source = citecheck_embed::fetch::ensure_model(&dir, &options)?;
            eprintln!("model: {source}");
        }
        let runtime = citecheck_embed::EmbedderOptions::from_env()?
            .with_threads(threads)?
            .resolve()?;
        Ok::<_, citecheck_embed::EmbedError>((citecheck_embed::files::inspect(&dir), runtime))
    })
    .await??;
    print_stdout(&format!(
        "{}\nruntime: {runtime}",
        info.to_string().trim_end()
    ))?;
    Ok(if info.is_complete() { 0 } else { EXIT_FATAL })
}

/// Refuses a URL that cannot be fetched at all, before any work starts.
fn check_url(url: &str) -> anyhow::Result<()> {
    match url::Url::parse(url) {
        Ok(parsed) if matches!(parsed.scheme(), "http" | "https") => Ok(()),
        Ok(parsed) => Err(ConfigError(format!(
            "`{url}` is not an http(s) URL (scheme `{}`)",
            parsed.scheme()
        ))
        .into()),
        Err(err) => Err(ConfigError(format!("`{url}` is not a valid URL: {err}")).into()),
    }
}

fn print_stdout(text: &str) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    let written = writeln!(stdout, "{}", text.trim_end()).and_then(|_| stdout.flush());
    match written {
        // A closed pipe (`citecheck ... | head`) is not an error worth reporting.
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
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
