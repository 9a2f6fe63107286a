//! `citecheck replay RID`: prints a page exactly as it was judged, from the local evidence store
//! or, for rids Crawlbase handed out, from Crawlbase's Storage API; with `--quote` (or the quote
//! of an audit row, `--audit-id`, from the SQLite index or with `--queue` the PostgreSQL one)
//! the quote is shown highlighted where it occurs.
//!
//! The quote is located the way the quote guard compares: curly quotes straightened, runs of
//! whitespace as one space, and, failing that, inline Markdown emphasis ignored, so a quote the
//! guard accepted is found in the page it came from.
//!
//! Control characters in the page (escape sequences, bells, bidi overrides) are printed as
//! visible `\u{..}` escapes: a page is written by whoever controls the site, and must not drive
//! the reader's terminal.

use std::io::{IsTerminal, Write};
use std::ops::Range;

use anyhow::Context;
use clap::Args;

use crate::audit::AuditIndex;
use crate::config::{Config, ConfigError, QueueArg};
use crate::error::AppError;
use crate::evidence::EvidenceStore;
use crate::neutral::{terminal, terminal_line};

/// Exit code when the quote asked for is not in the page.
pub const EXIT_QUOTE_NOT_FOUND: u8 = 2;

/// `citecheck replay`
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The page's rid (from a verdict, the CSV report or `citecheck audit`).
    #[arg(value_name = "RID", required_unless_present = "audit_id")]
    pub rid: Option<String>,

    /// Highlight this quote in the page (in colour on a terminal, else between >>> and <<<).
    #[arg(long, value_name = "TEXT")]
    pub quote: Option<String>,

    /// Replay the page of this audit row, highlighting its evidence quote.
    #[arg(long, value_name = "ID", conflicts_with = "rid")]
    pub audit_id: Option<i64>,

    /// With --audit-id: read the row from the PostgreSQL audit index `citecheck worker` writes
    /// (the page itself is in the evidence store of the machine that verified it).
    #[command(flatten)]
    pub queue: QueueArg,
}

/// Where a replayed page came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    Local,
    Crawlbase,
}

/// The page for `rid`: the local store first, then Crawlbase's storage.
pub async fn load_page(rid: &str, evidence: &EvidenceStore) -> Result<(String, Origin), AppError> {
    let rid = rid.trim();
    check_rid_shape(rid)?;
    let store = evidence.clone();
    let owned = rid.to_string();
    let local = tokio::task::spawn_blocking(move || store.get(&owned))
        .await
        .context("the evidence store task failed")??;
    if let Some(page) = local {
        return Ok((page, Origin::Local));
    }
    if EvidenceStore::is_local_rid(rid) {
        return Err(anyhow::anyhow!(
            "page {rid} is not in the evidence store {} (kept on another machine, or deleted)",
            evidence.root().display()
        )
        .into());
    }
    use citecheck_core::fetch::crawlbase::{
        fetch_stored, CrawlbaseConfig, API_URL_VAR, JS_TOKEN_VAR, TOKEN_VAR,
    };
    let var = |name: &str| std::env::var(name).ok();
    let config = CrawlbaseConfig::for_replay(
        var(TOKEN_VAR).as_deref(),
        var(JS_TOKEN_VAR).as_deref(),
        var(API_URL_VAR).as_deref(),
    )
    .map_err(|source| ConfigError::ReplayNeedsToken {
        rid: rid.to_string(),
        variable: TOKEN_VAR,
        source,
    })?;
    let stored = fetch_stored(&config, rid)
        .await
        .with_context(|| format!("reading rid {rid} from Crawlbase's storage"))?;
    Ok((stored.body, Origin::Crawlbase))
}

/// A usage error unless `rid` could be a rid at all: local rids are 64 hex digits, Crawlbase's
/// are short URL-safe tokens; anything with spaces, slashes or other punctuation is neither.
fn check_rid_shape(rid: &str) -> Result<(), AppError> {
    if rid.is_empty() {
        return Err(AppError::usage("the rid is empty"));
    }
    let url_safe = rid
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if rid.len() > 128 || !url_safe {
        return Err(AppError::usage(format!(
            "`{rid}` is not a rid: rids are 64 hex digits (pages kept by this machine) or a \
             Crawlbase request id; find them in a verdict, the CSV report or `citecheck audit`"
        )));
    }
    Ok(())
}

/// Without Crawlbase in use (direct fetcher, no CRAWLBASE_TOKEN), only local rids can exist:
/// anything else is a usage error that does not send the user looking for a token.
fn check_local_rid(rid: &str, config: &Config) -> Result<(), AppError> {
    use crate::config::FetcherKind;
    let crawlbase = config.pipeline.fetcher == FetcherKind::Crawlbase
        || config.pipeline.crawlbase.token.is_some();
    if crawlbase || EvidenceStore::is_local_rid(rid.trim()) {
        return check_rid_shape(rid.trim());
    }
    Err(AppError::usage(format!(
        "`{}` is not a rid of the evidence store: its rids are 64 hex digits; find them in a \
         verdict, the CSV report or `citecheck audit`",
        rid.trim()
    )))
}

/// Runs `citecheck replay`, printing to `out`; returns the exit code. `index` is the audit index
/// `--audit-id` reads (unused without it).
pub async fn command(
    args: &ReplayArgs,
    index: Option<Box<dyn AuditIndex>>,
    evidence: &EvidenceStore,
    out: &mut dyn Write,
    colour: bool,
) -> Result<u8, AppError> {
    // The quote's recorded place in the page (audit rows since evidence offsets were kept).
    let mut offsets: Option<Range<usize>> = None;
    let (rid, quote) = match args.audit_id {
        Some(id) => {
            let index = index.context("replay --audit-id needs an audit index")?;
            let row = tokio::task::spawn_blocking(move || index.row(id))
                .await
                .context("the audit reader task failed")??
                .ok_or_else(|| AppError::usage(format!("no audit row {id}")))?;
            if row.rid.is_empty() {
                return Err(AppError::usage(format!(
                    "audit row {id} ({} {}, reason {}) kept no page to replay",
                    row.label,
                    terminal_line(&row.url),
                    terminal_line(row.reason.as_deref().unwrap_or("none"))
                )));
            }
            if args.quote.is_none() {
                if let (Some(start), Some(end)) = (row.evidence_start, row.evidence_end) {
                    offsets = Some(start as usize..end as usize);
                }
            }
            (row.rid, args.quote.clone().or(row.evidence_quote))
        }
        None => (args.rid.clone().unwrap_or_default(), args.quote.clone()),
    };
    let (page, origin) = load_page(&rid, evidence).await?;
    tracing::info!(%rid, ?origin, "replaying");
    let Some(quote) = quote.filter(|q| !q.trim().is_empty()) else {
        writeln!(out, "{}", terminal(page.trim_end(), true)).context("writing the page")?;
        return Ok(0);
    };
    let span = offsets
        .and_then(|chars| recorded_span(&page, chars))
        .or_else(|| find_quote(&page, &quote));
    Ok(write_highlighted(&page, span, &quote, out, colour).context("writing the page")?)
}

/// The byte range of the characters `chars` of `page`. A recorded place is trusted over a
/// search (which finds the first occurrence, and misses a quote inside link markup): the rid is
/// the hash of the page's content, so the page is the one the offsets were taken on.
fn recorded_span(page: &str, chars: Range<usize>) -> Option<Range<usize>> {
    if chars.is_empty() {
        return None;
    }
    let mut indices = page
        .char_indices()
        .map(|(i, _)| i)
        .chain(std::iter::once(page.len()));
    let start = indices.nth(chars.start)?;
    let end = indices.nth(chars.end - chars.start - 1)?;
    Some(start..end)
}

/// Writes `page` with `span` (the quote) highlighted; returns the exit code.
fn write_highlighted(
    page: &str,
    span: Option<Range<usize>>,
    quote: &str,
    out: &mut dyn Write,
    colour: bool,
) -> std::io::Result<u8> {
    match span {
        Some(span) => {
            let (open, close) = if colour {
                ("\x1b[1;30;43m", "\x1b[0m")
            } else {
                (">>>", "<<<")
            };
            write!(
                out,
                "{}{open}{}{close}{}",
                terminal(&page[..span.start], true),
                terminal(&page[span.clone()], true),
                terminal(&page[span.end..], true)
            )?;
            if !page.ends_with('\n') {
                writeln!(out)?;
            }
            Ok(0)
        }
        None => {
            writeln!(out, "{}", terminal(page.trim_end(), true))?;
            eprintln!(
                "warning: the quote is not in this page: {}",
                terminal_line(quote)
            );
            Ok(EXIT_QUOTE_NOT_FOUND)
        }
    }
}

/// `citecheck replay`, from the command line.
pub async fn run(args: &ReplayArgs, config: &Config) -> Result<u8, AppError> {
    if let Some(rid) = &args.rid {
        check_local_rid(rid, config)?;
    }
    let paths = config.store_paths()?;
    // Replay only reads: a lookup must not create the store's directory.
    let evidence = EvidenceStore::for_reading(&paths.evidence_dir);
    let index = match args.audit_id {
        Some(_) => Some(crate::audit_index::open(config, &args.queue).await?),
        None => None,
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let code = command(args, index, &evidence, &mut out, colour_allowed()).await?;
    out.flush().context("writing to stdout")?;
    Ok(code)
}

/// Whether highlighting may use terminal colours.
pub fn colour_allowed() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

/// The byte range of `quote` in `page`, compared as the quote guard compares.
pub fn find_quote(page: &str, quote: &str) -> Option<Range<usize>> {
    find_normalised(page, quote, false).or_else(|| find_normalised(page, quote, true))
}

fn straighten(c: char) -> char {
    match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' => '\'',
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' => '"',
        _ => c,
    }
}

/// `text` normalised, with each normalised character's byte range in the original.
fn normalise(text: &str, skip_markup: bool) -> (Vec<char>, Vec<Range<usize>>) {
    let mut chars = Vec::with_capacity(text.len());
    let mut spans: Vec<Range<usize>> = Vec::with_capacity(text.len());
    for (at, c) in text.char_indices() {
        let end = at + c.len_utf8();
        if skip_markup && matches!(c, '*' | '_' | '`' | '\\') {
            continue;
        }
        if c.is_whitespace() {
            if chars.last() == Some(&' ') {
                if let Some(span) = spans.last_mut() {
                    span.end = end;
                }
            } else {
                chars.push(' ');
                spans.push(at..end);
            }
            continue;
        }
        chars.push(straighten(c));
        spans.push(at..end);
    }
    (chars, spans)
}

fn find_normalised(page: &str, quote: &str, skip_markup: bool) -> Option<Range<usize>> {
    let (wanted, _) = normalise(quote.trim(), skip_markup);
    if wanted.is_empty() {
        return None;
    }
    let (hay, spans) = normalise(page, skip_markup);
    let start = hay
        .windows(wanted.len())
        .position(|w| w == wanted.as_slice())?;
    let last = start + wanted.len() - 1;
    Some(spans[start].start..spans[last].end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quote_is_found_across_curly_quotes_and_line_breaks() {
        let page = "Intro.\n\nThe “boiling point” of water is\n100 °C at sea level. Next.";
        let span = find_quote(
            page,
            "The \"boiling point\" of water is 100 °C at sea level.",
        )
        .expect("found");
        assert_eq!(
            &page[span],
            "The “boiling point” of water is\n100 °C at sea level."
        );
    }

    #[test]
    fn markdown_emphasis_does_not_hide_a_quote() {
        let page = "Water boils at **100 degrees** Celsius.";
        let span = find_quote(page, "boils at 100 degrees Celsius").expect("found");
        assert_eq!(&page[span], "boils at **100 degrees** Celsius");
    }

    #[test]
    fn a_recorded_place_is_read_in_characters() {
        let page = "Intro: °C.\n\nWater [boils](https://x.example) here. Water boils.";
        let start = page.chars().take_while(|&c| c != 'W').count();
        let end = start + "Water [boils](https://x.example)".chars().count();
        let span = recorded_span(page, start..end).expect("in the page");
        assert_eq!(&page[span], "Water [boils](https://x.example)");
        assert_eq!(recorded_span(page, 5..5), None);
        assert_eq!(recorded_span(page, 0..10_000), None);
    }

    #[test]
    fn an_absent_quote_is_none() {
        assert_eq!(
            find_quote("Water boils at 100 degrees.", "50 degrees"),
            None
        );
        assert_eq!(find_quote("anything", "   "), None);
    }
}
