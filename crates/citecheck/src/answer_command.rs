//! `citecheck answer`: a whole LLM answer (an API's JSON response or Markdown, from a file or
//! standard input) read by `citecheck-answer`, each cited statement verified through the one
//! entry point, printed as JSON (the contract) or as the marked-up answer, and optionally as an
//! HTML page; the exit code says whether every citation supported its statement.

use std::io::Read as _;
use std::path::PathBuf;

use anyhow::Context;
use citecheck_answer::Format as InputFormat;
use citecheck_core::Origin;
use clap::Args;

use crate::answer::{render, verify_answer, OverLimit};
use crate::config::{Config, ConfigError};
use crate::error::AppError;
use crate::output::{print_stdout, Format};
use crate::storage::Stores;

/// `citecheck answer`
#[derive(Debug, Args)]
pub struct AnswerArgs {
    /// The answer: a file, or `-` for standard input.
    #[arg(value_name = "FILE|-")]
    pub input: PathBuf,

    /// The answer's format (detected when not given): openai-responses, openai-chat,
    /// anthropic, perplexity, gemini, markdown.
    #[arg(long, value_parser = parse_format)]
    pub input_format: Option<InputFormat>,

    /// An id for the answer, stored with each audit row as `ID#START..END` (the statement's span).
    #[arg(long)]
    pub id: Option<String>,

    /// Output format on stdout.
    #[arg(long, value_enum, default_value_t = Format::Json, env = "CITECHECK_FORMAT")]
    pub format: Format,

    /// Also write a self-contained HTML page: the answer with each cited statement coloured by
    /// its verdict, opening onto its sources (`-` for stdout, instead of the verdict).
    #[arg(long, value_name = "PATH")]
    pub html: Option<PathBuf>,
}

fn parse_format(s: &str) -> Result<InputFormat, String> {
    s.parse()
}

/// Reads, verifies and prints the answer; returns the exit code (0 all supported, 2 otherwise).
pub async fn run(args: &AnswerArgs, config: &Config) -> Result<u8, AppError> {
    let input = read_input(&args.input)?;
    let limits = &config.pipeline.answer;
    let over =
        |err: OverLimit| AppError::usage(format!("{}: the answer {err}", describe(&args.input)));
    limits.check_size(&input).map_err(over)?;
    let answer = citecheck_answer::parse(&input, args.input_format)
        .map_err(|err| AppError::usage(format!("{}: {err}", describe(&args.input))))?;
    limits.check_statements(&answer).map_err(over)?;
    let engine = crate::engine::build_off_executor(&config.pipeline).await?;
    let stores = match config.store_paths() {
        Ok(paths) => tokio::task::spawn_blocking(move || Stores::open(&paths))
            .await
            .map_err(anyhow::Error::from)?,
        Err(err) => {
            tracing::warn!("nothing will be kept for the audit: {err}");
            Stores::none()
        }
    };
    let verifier = stores
        .attach(engine.builder)
        .build()
        .map_err(ConfigError::from)?;
    let mut origin = Origin::new("answer");
    origin.claim_id = args.id.clone();
    let verdict = verify_answer(&verifier, &answer, &origin).await;
    crate::engine::shutdown(engine.renderer.as_ref()).await;
    if answer.statements.is_empty() {
        eprintln!(
            "the answer carries no citation that can be checked by URL ({} listed as not checkable)",
            answer.unchecked.len()
        );
    }
    if let Some(path) = &args.html {
        let entry = crate::report::AnswerEntry {
            id: args.id.clone(),
            text: answer.text.clone(),
            spans: answer.statements.iter().map(|s| s.bytes.clone()).collect(),
            verdict: verdict.clone(),
        };
        crate::report::write_answer_page(&[entry], "citecheck answer", path)
            .with_context(|| format!("writing the HTML page {}", path.display()))?;
        if !config.quiet && path.as_os_str() != "-" {
            eprintln!("answer page written to {}", path.display());
        }
    }
    let html_on_stdout = args.html.as_ref().is_some_and(|p| p.as_os_str() == "-");
    let rendered = match args.format {
        Format::Json => {
            serde_json::to_string_pretty(&verdict).context("serialising the verdict")?
        }
        Format::Text => {
            let spans: Vec<_> = answer.statements.iter().map(|s| s.bytes.clone()).collect();
            render::text(&answer.text, &verdict, &spans)
        }
    };
    if !html_on_stdout {
        print_stdout(&rendered)?;
    }
    if let Some(err) = crate::engine::account_error(engine.crawlbase.as_ref()) {
        return Err(err);
    }
    Ok(verdict.exit_code())
}

/// How the input is named in an error.
fn describe(path: &std::path::Path) -> String {
    if path.as_os_str() == "-" {
        "standard input".to_string()
    } else {
        path.display().to_string()
    }
}

fn read_input(path: &std::path::Path) -> Result<String, AppError> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading the answer from standard input")?;
        return Ok(text);
    }
    std::fs::read_to_string(path)
        .map_err(|err| AppError::usage(format!("cannot read {}: {err}", path.display())))
}
