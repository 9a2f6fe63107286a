//! The service's own settings (listen address, request limits, CORS, API keys), resolved like
//! the pipeline's: defaults < config file (`[server]`) < environment < flags.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;

use crate::answer::AnswerLimits;
use crate::config::{at_least_one, seconds, ConfigError, ServerSection};

use super::auth::ApiKeys;

pub const DEFAULT_LISTEN: &str = "127.0.0.1:8080";
/// The reference design sets no bound; 20 covers every answer we have seen an LLM cite for one
/// claim while keeping one request's work (fetches, judge calls) predictable.
pub const DEFAULT_MAX_URLS: usize = 20;
/// Characters (not bytes) in one claim. A claim is a sentence or two; a document is not a claim.
pub const DEFAULT_MAX_CLAIM_CHARS: usize = 2_000;
/// Bytes in one request body: 20 long URLs and a long claim fit many times over.
pub const DEFAULT_MAX_REQUEST_BYTES: usize = 64 * 1024;
/// Verifications running at once. Each holds fetches and judge calls; past this the service
/// answers 429 at once instead of queueing.
pub const DEFAULT_MAX_CONCURRENT: usize = 32;
/// One verification's deadline: enough for a slow site's retries plus an LLM judge.
pub const DEFAULT_REQUEST_DEADLINE: Duration = Duration::from_secs(120);
/// How long a shutdown waits for requests in flight.
pub const DEFAULT_SHUTDOWN_GRACE: Duration = Duration::from_secs(30);

/// `citecheck serve`. Each flag has an environment variable and a `[server]` key in the config
/// file; the address guard stays on unless --allow-private-hosts turns it off.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The address to listen on [default: 127.0.0.1:8080].
    #[arg(long, env = "CITECHECK_LISTEN", value_name = "ADDR")]
    pub listen: Option<String>,

    /// Most URLs accepted in one request [default: 20].
    #[arg(long, env = "CITECHECK_MAX_URLS", value_name = "N")]
    pub max_urls: Option<usize>,

    /// Most characters accepted in one claim [default: 2000].
    #[arg(long, env = "CITECHECK_MAX_CLAIM_CHARS", value_name = "N")]
    pub max_claim_chars: Option<usize>,

    /// Largest request body accepted, in bytes [default: 65536].
    #[arg(long, env = "CITECHECK_MAX_REQUEST_BYTES", value_name = "BYTES")]
    pub max_request_bytes: Option<usize>,

    /// Verifications run at once; past this, requests get 429 with Retry-After [default: 32].
    #[arg(long, env = "CITECHECK_MAX_CONCURRENT", value_name = "N")]
    pub max_concurrent: Option<usize>,

    /// Seconds one verification may take before it is cancelled with 504 [default: 120].
    #[arg(long, env = "CITECHECK_REQUEST_DEADLINE", value_name = "SECS")]
    pub request_deadline: Option<f64>,

    /// Seconds requests in flight get to finish after SIGTERM/SIGINT [default: 30].
    #[arg(long, env = "CITECHECK_SHUTDOWN_GRACE", value_name = "SECS")]
    pub shutdown_grace: Option<f64>,

    /// An origin browsers may call from (repeatable; env: comma-separated; `*` for any).
    /// CORS is off when none is given.
    #[arg(
        long = "cors-origin",
        env = "CITECHECK_CORS_ORIGINS",
        value_delimiter = ',',
        value_name = "ORIGIN"
    )]
    pub cors_origins: Vec<String>,

    /// API keys that POST /verify and GET /metrics require as `Authorization: Bearer <key>`
    /// (comma-separated). Prefer the variable or --api-keys-file: flags show in `ps`.
    #[arg(
        long,
        env = "CITECHECK_API_KEYS",
        hide_env_values = true,
        value_delimiter = ',',
        value_name = "KEYS"
    )]
    pub api_keys: Vec<String>,

    /// A file of API keys, one per line (`#` comments); adds to --api-keys.
    #[arg(long, env = "CITECHECK_API_KEYS_FILE", value_name = "PATH")]
    pub api_keys_file: Option<PathBuf>,
}

/// Bounds on one request and on the work in flight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    pub max_urls: usize,
    pub max_claim_chars: usize,
    pub max_request_bytes: usize,
    pub max_concurrent: usize,
    pub request_deadline: Duration,
    /// Bounds on one answer (`/verify-answer`): the pipeline's resolved setting, which
    /// `citecheck answer` applies too.
    pub answer: AnswerLimits,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_urls: DEFAULT_MAX_URLS,
            max_claim_chars: DEFAULT_MAX_CLAIM_CHARS,
            max_request_bytes: DEFAULT_MAX_REQUEST_BYTES,
            max_concurrent: DEFAULT_MAX_CONCURRENT,
            request_deadline: DEFAULT_REQUEST_DEADLINE,
            answer: AnswerLimits::default(),
        }
    }
}

/// Everything the service needs besides the pipeline.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    pub listen: SocketAddr,
    pub limits: Limits,
    /// Origins allowed by CORS; empty turns CORS off, `*` allows any origin.
    pub cors_origins: Vec<String>,
    /// When empty, requests need no key.
    pub api_keys: ApiKeys,
    pub shutdown_grace: Duration,
    /// Whether the fetcher refuses private addresses (reported by `/health`).
    pub address_guard: bool,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            listen: DEFAULT_LISTEN
                .parse()
                .unwrap_or_else(|_| SocketAddr::from(([127, 0, 0, 1], 8080))),
            limits: Limits::default(),
            cors_origins: Vec::new(),
            api_keys: ApiKeys::default(),
            shutdown_grace: DEFAULT_SHUTDOWN_GRACE,
            address_guard: true,
        }
    }
}

impl ServerConfig {
    /// `--listen`'s value: an IP address and port, or a host name and port (`localhost:8080`),
    /// resolved once at start-up; an IPv4 address is preferred when the name has both.
    fn resolve_listen(text: &str) -> Result<SocketAddr, ConfigError> {
        use std::net::ToSocketAddrs;
        if let Ok(addr) = text.parse::<SocketAddr>() {
            return Ok(addr);
        }
        let invalid = |why: String| {
            ConfigError::Invalid(format!(
                "--listen / CITECHECK_LISTEN `{text}` is not an address like 127.0.0.1:8080 or \
             localhost:8080: {why}"
            ))
        };
        let addrs: Vec<SocketAddr> = text
            .to_socket_addrs()
            .map_err(|err| invalid(err.to_string()))?
            .collect();
        addrs
            .iter()
            .find(|addr| addr.is_ipv4())
            .or_else(|| addrs.first())
            .copied()
            .ok_or_else(|| invalid("the host name has no address".into()))
    }

    /// Merges flags/environment (`args`, already merged by clap) over the config file's section.
    pub fn resolve(
        args: &ServeArgs,
        file: &ServerSection,
        address_guard: bool,
    ) -> Result<ServerConfig, ConfigError> {
        let listen_text = args
            .listen
            .clone()
            .or_else(|| file.listen.clone())
            .unwrap_or_else(|| DEFAULT_LISTEN.to_string());
        let listen = Self::resolve_listen(&listen_text)?;
        let limits = Limits {
            max_urls: at_least_one(
                "max urls (--max-urls / CITECHECK_MAX_URLS)",
                args.max_urls.or(file.max_urls),
                DEFAULT_MAX_URLS,
            )?,
            max_claim_chars: at_least_one(
                "max claim chars (--max-claim-chars / CITECHECK_MAX_CLAIM_CHARS)",
                args.max_claim_chars.or(file.max_claim_chars),
                DEFAULT_MAX_CLAIM_CHARS,
            )?,
            max_request_bytes: at_least_one(
                "max request bytes (--max-request-bytes / CITECHECK_MAX_REQUEST_BYTES)",
                args.max_request_bytes.or(file.max_request_bytes),
                DEFAULT_MAX_REQUEST_BYTES,
            )?,
            max_concurrent: at_least_one(
                "max concurrent (--max-concurrent / CITECHECK_MAX_CONCURRENT)",
                args.max_concurrent.or(file.max_concurrent),
                DEFAULT_MAX_CONCURRENT,
            )?,
            request_deadline: seconds(
                "request deadline (--request-deadline / CITECHECK_REQUEST_DEADLINE)",
                args.request_deadline.or(file.request_deadline_secs),
                DEFAULT_REQUEST_DEADLINE,
            )?,
            // Set from the pipeline's settings by `server::run`: one value for both front ends.
            answer: AnswerLimits::default(),
        };
        let shutdown_grace = seconds(
            "shutdown grace (--shutdown-grace / CITECHECK_SHUTDOWN_GRACE)",
            args.shutdown_grace.or(file.shutdown_grace_secs),
            DEFAULT_SHUTDOWN_GRACE,
        )?;
        let cors_origins = if args.cors_origins.is_empty() {
            file.cors_origins.clone().unwrap_or_default()
        } else {
            args.cors_origins.clone()
        };
        let cors_origins: Vec<String> = cors_origins
            .into_iter()
            .map(|o| o.trim().trim_end_matches('/').to_string())
            .filter(|o| !o.is_empty())
            .collect();
        for origin in &cors_origins {
            check_origin(origin)?;
        }
        let keys_file: Option<PathBuf> = args
            .api_keys_file
            .clone()
            .or_else(|| file.api_keys_file.clone());
        let mut api_keys = ApiKeys::from_list(args.api_keys.iter().map(String::as_str));
        if let Some(path) = keys_file {
            api_keys.extend(read_keys_file(&path)?);
        }
        Ok(ServerConfig {
            listen,
            limits,
            cors_origins,
            api_keys,
            shutdown_grace,
            address_guard,
        })
    }
}

/// One key per line; blank lines and lines starting with `#` are skipped.
fn read_keys_file(path: &Path) -> Result<ApiKeys, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::ReadKeys {
        path: path.to_path_buf(),
        source,
    })?;
    let keys = ApiKeys::from_list(
        text.lines()
            .map(str::trim)
            .filter(|line| !line.starts_with('#')),
    );
    if keys.is_empty() {
        return Err(ConfigError::Invalid(format!(
            "the API keys file {} holds no key: a server meant to require keys would accept anyone",
            path.display()
        )));
    }
    Ok(keys)
}

/// An origin is `*` or `scheme://host[:port]`, exactly what browsers send in `Origin`.
fn check_origin(origin: &str) -> Result<(), ConfigError> {
    if origin == "*" {
        return Ok(());
    }
    let valid = url::Url::parse(origin).ok().is_some_and(|url| {
        matches!(url.scheme(), "http" | "https")
            && url.host_str().is_some()
            && url.path() == "/"
            && url.query().is_none()
            && url.origin().ascii_serialization() == origin.to_ascii_lowercase()
    });
    if valid {
        Ok(())
    } else {
        Err(ConfigError::Invalid(format!(
            "CORS origin `{origin}` (--cors-origin / CITECHECK_CORS_ORIGINS) must be `*` or like https://app.example.com"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn serve_args(extra: &[&str]) -> ServeArgs {
        let mut argv = vec!["citecheck", "serve"];
        argv.extend_from_slice(extra);
        match crate::cli::Cli::try_parse_from(argv)
            .expect("parses")
            .command
        {
            crate::cli::Command::Serve(args) => args,
            other => panic!("parsed as {other:?}"),
        }
    }

    #[test]
    fn flags_override_the_file_which_overrides_defaults() {
        let file: crate::config::FileConfig = toml::from_str(
            "[server]\nmax_urls = 5\nmax_claim_chars = 300\nlisten = \"127.0.0.1:9000\"\n",
        )
        .expect("valid toml");
        let config = ServerConfig::resolve(&serve_args(&["--max-urls", "7"]), &file.server, true)
            .expect("valid");
        assert_eq!(config.limits.max_urls, 7);
        assert_eq!(config.limits.max_claim_chars, 300);
        assert_eq!(config.listen.port(), 9000);
        assert_eq!(config.limits.max_concurrent, DEFAULT_MAX_CONCURRENT);
        assert!(config.cors_origins.is_empty());
        assert!(config.api_keys.is_empty());
    }

    #[test]
    fn zero_limits_bad_addresses_and_bad_origins_are_configuration_errors() {
        for (flags, needle) in [
            (vec!["--max-concurrent", "0"], "max concurrent"),
            (vec!["--listen", "localhost"], "--listen"),
            (vec!["--request-deadline=-1"], "request deadline"),
            (
                vec!["--cors-origin", "https://a.example/path"],
                "CORS origin",
            ),
        ] {
            let err = ServerConfig::resolve(&serve_args(&flags), &ServerSection::default(), true)
                .expect_err("refused");
            let err: crate::error::AppError = err.into();
            assert_eq!(err.exit_code(), crate::error::EXIT_CONFIG, "{err}");
            assert!(err.to_string().contains(needle), "{err}");
        }
    }

    #[test]
    fn keys_come_from_the_flag_and_the_file_and_an_empty_file_is_refused() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("keys");
        std::fs::write(&path, "# team keys\nkey-from-file\n\n").expect("written");
        let path_text = path.to_str().expect("utf-8 path");
        let config = ServerConfig::resolve(
            &serve_args(&["--api-keys", "a,b", "--api-keys-file", path_text]),
            &ServerSection::default(),
            true,
        )
        .expect("valid");
        assert_eq!(config.api_keys.len(), 3);
        assert!(config.api_keys.accepts("key-from-file"));
        assert!(!config.api_keys.accepts("# team keys"));

        std::fs::write(&path, "# nothing here\n").expect("written");
        let err = ServerConfig::resolve(
            &serve_args(&["--api-keys-file", path_text]),
            &ServerSection::default(),
            true,
        )
        .expect_err("an empty keys file is refused");
        assert!(err.to_string().contains("holds no key"), "{err}");
    }
}
