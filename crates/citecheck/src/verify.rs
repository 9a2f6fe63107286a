//! `citecheck verify`: one claim against the URLs cited for it, printed as JSON or text; the
//! exit code says whether every citation supported the claim.

use citecheck_core::{Check, Origin};
use clap::Args;

use crate::config::{Config, ConfigError};
use crate::error::AppError;
use crate::output::{self, print_stdout, Format};
use crate::storage::Stores;

/// `citecheck verify`
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The claim to check.
    #[arg(long, short = 'c')]
    pub claim: String,

    /// The URLs cited for the claim.
    #[arg(required = true, value_name = "URL")]
    pub urls: Vec<String>,

    /// Output format on stdout.
    #[arg(long, value_enum, default_value_t = Format::Json, env = "CITECHECK_FORMAT")]
    pub format: Format,
}

/// Checks the claim, prints the verdict, returns the exit code (0 all supported, 2 otherwise);
/// an error (exit 1) after printing when the audit index refused the verdict's rows.
pub async fn run(args: &VerifyArgs, config: &Config) -> Result<u8, AppError> {
    let claim = args.claim.trim();
    if claim.is_empty() {
        return Err(AppError::usage("the claim is empty (--claim)"));
    }
    for url in &args.urls {
        check_url(url)?;
    }
    let engine = crate::engine::build_off_executor(&config.pipeline).await?;
    // Opened once the pipeline is built, so a configuration error creates no index.
    let stores = match config.store_paths() {
        Ok(paths) => Stores::open_off_executor(&paths).await,
        Err(err) => {
            tracing::warn!("nothing will be kept for the audit: {err}");
            Stores::none()
        }
    };
    let (builder, missed) = stores.attach_tallied(engine.builder);
    let verifier = builder.build().map_err(ConfigError::from)?;
    let check = Check::new(claim, args.urls.iter().cloned()).origin(Origin::new("verify"));
    let verdict = verifier.verify(check).await;
    crate::engine::shutdown(engine.renderer.as_ref()).await;
    let rendered = match args.format {
        Format::Json => output::json(&verdict),
        Format::Text => output::text(&verdict, config.verbose > 0),
    };
    print_stdout(&rendered)?;
    // The verdicts are out; an account problem (bad token, no credits) still fails the run
    // loudly rather than passing as a column of crawl_failed verdicts.
    if let Some(err) = crate::engine::account_error(engine.crawlbase.as_ref()) {
        return Err(err);
    }
    // So do rows the audit index refused: a scripted check must not pass with its verdict
    // printed but missing from the index it will be inspected and replayed from.
    if missed.verdicts() > 0 {
        let (index, cause) = (stores.audit_location(), missed.cause());
        return Err(anyhow::anyhow!(
            "the audit index {index} refused the verdict's {rows} citation row(s) ({cause}); \
             the verdict printed above is complete, but the index lacks it",
            rows = missed.rows(),
        )
        .into());
    }
    Ok(output::exit_code(&verdict))
}

/// Refuses a URL that cannot be fetched at all, before any work starts.
fn check_url(url: &str) -> Result<(), AppError> {
    match url::Url::parse(url) {
        Ok(parsed) if matches!(parsed.scheme(), "http" | "https") => Ok(()),
        Ok(parsed) => Err(AppError::usage(format!(
            "`{url}` is not an http(s) URL (scheme `{}`)",
            parsed.scheme()
        ))),
        Err(err) => Err(AppError::usage(format!(
            "`{url}` is not a valid URL: {err}"
        ))),
    }
}
