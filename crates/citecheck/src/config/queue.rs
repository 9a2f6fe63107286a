//! Where the PostgreSQL queue is: `--queue` / `CITECHECK_QUEUE_URL` over the config file's
//! `[queue] url`. The worker's tuning in `[queue]` is merged with its flags by the worker, like
//! `[batch]` by the batch.
//!
//! A connection string may hold a password, so: the one in the config file must not (config
//! files hold no secrets and may be committed; a password there is refused, without repeating
//! the string), and [`QueueArg`]'s `Debug` never shows the string.

use std::path::Path;

use super::{ConfigError, QueueSection};

/// The PostgreSQL queue's connection string, shared by the commands that take `--queue`.
#[derive(Clone, Default, clap::Args)]
pub struct QueueArg {
    /// The queue: a PostgreSQL connection string (postgres://user:password@host/db); also
    /// `[queue] url` in the config file (without its password there).
    #[arg(
        long,
        env = "CITECHECK_QUEUE_URL",
        hide_env_values = true,
        value_name = "URL"
    )]
    pub queue: Option<String>,
}

impl std::fmt::Debug for QueueArg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QueueArg")
            .field("queue", &self.queue.as_ref().map(|_| "[REDACTED]"))
            .finish()
    }
}

/// The connection string to use: the flag (or its environment variable), else the file's.
pub fn url<'a>(arg: &'a QueueArg, file: &'a QueueSection) -> Option<&'a str> {
    arg.queue
        .as_deref()
        .or(file.url.as_deref())
        .filter(|url| !url.trim().is_empty())
}

/// Refuses a `[queue] url` that holds a password (in either of PostgreSQL's forms, URL or
/// `key=value`). A string that does not parse is left to the queue, which reports it.
pub fn check_file_url(file: &QueueSection, path: Option<&Path>) -> Result<(), ConfigError> {
    let Some(text) = file.url.as_deref() else {
        return Ok(());
    };
    let has_password = text
        .parse::<tokio_postgres::Config>()
        .is_ok_and(|config| config.get_password().is_some());
    if has_password {
        let file = path.map_or_else(String::new, |p| format!(" in {}", p.display()));
        return Err(ConfigError::Invalid(format!(
            "the [queue] url{file} holds a password; config files hold no secrets: \
             give the whole connection string in CITECHECK_QUEUE_URL instead"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn section(url: &str) -> QueueSection {
        QueueSection {
            url: Some(url.to_string()),
            ..QueueSection::default()
        }
    }

    #[test]
    fn the_flag_or_its_variable_wins_over_the_file() {
        let file = section("postgres://citecheck@db.internal/queue");
        let none = QueueArg::default();
        assert_eq!(
            url(&none, &file),
            Some("postgres://citecheck@db.internal/queue")
        );
        let flag = QueueArg {
            queue: Some("postgres://other@127.0.0.1/q".to_string()),
        };
        assert_eq!(url(&flag, &file), Some("postgres://other@127.0.0.1/q"));
        assert_eq!(url(&none, &QueueSection::default()), None);
    }

    #[test]
    fn a_password_in_the_config_file_is_refused_without_repeating_it() {
        for text in [
            "postgres://alice:s3cret@db.internal/queue",
            "host=db.internal user=alice password=s3cret",
        ] {
            let err =
                check_file_url(&section(text), Some(Path::new("c.toml"))).expect_err("refused");
            let message = err.to_string();
            assert!(message.contains("CITECHECK_QUEUE_URL"), "{message}");
            assert!(!message.contains("s3cret"), "{message}");
        }
        check_file_url(&section("postgres://alice@db.internal/queue"), None).expect("no password");
    }

    #[test]
    fn the_debug_form_hides_the_string() {
        let arg = QueueArg {
            queue: Some("postgres://alice:s3cret@db/q".to_string()),
        };
        assert!(!format!("{arg:?}").contains("s3cret"));
    }
}
