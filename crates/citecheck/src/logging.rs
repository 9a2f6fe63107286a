//! Logging for the one-shot commands (everything but `serve`, which has its own in
//! `server::logging`). On a terminal every event is one line in the same style as the errors
//! `main` prints (`warning: ...`, `error: ...`), without timestamps; when stderr is not a
//! terminal (CI, a pipe, a log file) each event is one JSON object per line, for a machine to
//! read. `RUST_LOG` overrides the level `-v` / `-q` choose.

use std::fmt;
use std::io::IsTerminal;

use tracing::{Event, Level, Subscriber};
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::EnvFilter;

/// Installs the subscriber; does nothing if one is already installed.
pub fn init(verbose: u8, quiet: bool) {
    let default = match (quiet, verbose) {
        (true, _) => "error",
        (false, 0) => "warn",
        (false, 1) => "info",
        (false, _) => "debug",
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let _ = if std::io::stderr().is_terminal() {
        builder.with_ansi(false).event_format(Terse).try_init()
    } else {
        builder
            .json()
            .flatten_event(true)
            .with_target(false)
            .with_current_span(false)
            .try_init()
    };
}

/// `warning: the message key=value`: the level as a word, then the event's fields.
struct Terse;

impl<S, N> FormatEvent<S, N> for Terse
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        write!(writer, "{}: ", level_word(*event.metadata().level()))?;
        ctx.field_format().format_fields(writer.by_ref(), event)?;
        writeln!(writer)
    }
}

fn level_word(level: Level) -> &'static str {
    match level {
        Level::ERROR => "error",
        Level::WARN => "warning",
        Level::INFO => "info",
        Level::DEBUG => "debug",
        Level::TRACE => "trace",
    }
}
