//! Presenting results: JSON for machines, a short readable summary for people.

use std::fmt::Write as _;
use std::io::Write as _;

use anyhow::Context;
use citecheck_core::{ClaimVerdict, Label, UrlVerdict};
use clap::ValueEnum;

/// How a command prints its result on stdout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Json,
    Text,
}

/// Writes `text` and a newline to stdout. A closed pipe (`citecheck ... | head`) is not an
/// error worth reporting.
pub fn print_stdout(text: &str) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    let written = writeln!(stdout, "{}", text.trim_end()).and_then(|_| stdout.flush());
    match written {
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("writing to stdout"),
    }
}

/// The result as pretty JSON (the reference design's shape, plus optional provenance).
pub fn json(verdict: &ClaimVerdict) -> String {
    serde_json::to_string_pretty(verdict).unwrap_or_else(|err| format!("{{\"error\": \"{err}\"}}"))
}

/// A readable summary: the claim, its label, then one block per citation.
pub fn text(verdict: &ClaimVerdict, verbose: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "claim:   {}", verdict.claim);
    let _ = writeln!(out, "overall: {}", verdict.overall.as_str().to_uppercase());
    for citation in &verdict.citations {
        out.push('\n');
        citation_block(&mut out, citation, verbose);
    }
    if verbose {
        let usage = verdict.usage();
        if usage.input_tokens + usage.output_tokens > 0 {
            let _ = writeln!(
                out,
                "\ntokens:  {} in, {} out",
                usage.input_tokens, usage.output_tokens
            );
        }
    }
    out
}

fn citation_block(out: &mut String, c: &UrlVerdict, verbose: bool) {
    let mut head = format!("  {:<13} {}", c.label.as_str(), c.url);
    if let Some(reason) = &c.reason {
        let _ = write!(head, "  [{reason}]");
    }
    if matches!(c.label, Label::Supported | Label::Contradicted) {
        let _ = write!(head, "  confidence {:.2}", c.confidence);
    }
    let _ = writeln!(out, "{head}");
    if let Some(final_url) = c.final_url.as_deref().filter(|f| *f != c.url) {
        let _ = writeln!(out, "                -> {final_url}");
    }
    if let Some(quote) = &c.evidence_quote {
        let _ = writeln!(
            out,
            "                \"{}\"",
            quote.split_whitespace().collect::<Vec<_>>().join(" ")
        );
    }
    if verbose {
        if let Some(detail) = &c.detail {
            let _ = writeln!(out, "                ({detail})");
        }
    }
}

/// The process exit code for a verified claim: 0 when every citation supported it.
pub fn exit_code(verdict: &ClaimVerdict) -> u8 {
    let all_supported = !verdict.citations.is_empty()
        && verdict
            .citations
            .iter()
            .all(|c| c.label == Label::Supported);
    if all_supported {
        0
    } else {
        2
    }
}
