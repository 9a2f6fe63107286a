//! Presenting results: JSON for machines, a short readable summary for people.

use std::fmt::Write as _;
use std::io::Write as _;

use anyhow::Context;
use citecheck_core::{ArchiveStatus, ClaimVerdict, Label, UrlVerdict};
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
        if let Some(link) = &c.follow_up.evidence_url {
            let _ = writeln!(out, "                quote on the page: {link}");
        }
    }
    follow_up_lines(out, c);
    if verbose {
        if let Some(detail) = &c.detail {
            let _ = writeln!(out, "                ({detail})");
        }
    }
}

/// What became of a dead link, and whether the page changed since it was last checked.
fn follow_up_lines(out: &mut String, c: &UrlVerdict) {
    const INDENT: &str = "                ";
    if let Some(archive) = &c.follow_up.archive {
        let status = match archive.status {
            ArchiveStatus::Archived => "archived (link rot)",
            ArchiveStatus::NeverArchived => "never archived (possibly fabricated)",
            ArchiveStatus::LookupFailed => "archive lookup failed",
        };
        let _ = write!(out, "{INDENT}{status}");
        if let Some(at) = &archive.captured_at {
            let _ = write!(out, ", captured {at}");
        }
        if let Some(snapshot) = &archive.snapshot_url {
            let _ = write!(out, ": {snapshot}");
        }
        out.push('\n');
        if let Some(verdict) = archive.verdict {
            let _ = writeln!(out, "{INDENT}the archived copy: {verdict}");
            if let Some(quote) = &archive.evidence_quote {
                let _ = writeln!(
                    out,
                    "{INDENT}\"{}\"",
                    quote.split_whitespace().collect::<Vec<_>>().join(" ")
                );
            }
        }
    }
    if let Some(seen) = &c.follow_up.previously_seen {
        let change = match c.follow_up.changed_since {
            Some(true) => "; the page has changed since",
            Some(false) => "; the page is unchanged",
            None => "",
        };
        let _ = writeln!(out, "{INDENT}checked before on {seen}{change}");
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

#[cfg(test)]
mod tests {
    use citecheck_core::{ArchiveInfo, Reason};

    use super::*;

    #[test]
    fn the_text_links_each_quote_and_says_what_became_of_a_dead_link() {
        let mut supported =
            UrlVerdict::without_judge("https://a.example/w", Label::Supported, Reason::Soft404);
        supported.reason = None;
        supported.evidence_quote = Some("Water boils at 100 degrees.".into());
        supported.follow_up.evidence_url =
            Some("https://a.example/w#:~:text=Water%20boils%20at%20100%20degrees.".into());
        supported.follow_up.previously_seen = Some("2025-03-01T12:00:00Z".into());
        supported.follow_up.changed_since = Some(true);
        let mut dead = UrlVerdict::without_judge(
            "https://a.example/gone",
            Label::Unreachable,
            Reason::Http(404),
        );
        dead.follow_up.archive = Some(ArchiveInfo {
            status: ArchiveStatus::NeverArchived,
            snapshot_url: None,
            captured_at: None,
            verdict: None,
            evidence_quote: None,
            note: String::new(),
        });
        let text = text(
            &ClaimVerdict {
                claim: "c".into(),
                overall: Label::Supported,
                citations: vec![supported, dead],
            },
            false,
        );
        assert!(
            text.contains("quote on the page: https://a.example/w#:~:text=Water%20boils"),
            "{text}"
        );
        assert!(
            text.contains("never archived (possibly fabricated)"),
            "{text}"
        );
        assert!(
            text.contains("checked before on 2025-03-01T12:00:00Z; the page has changed since"),
            "{text}"
        );
    }
}
