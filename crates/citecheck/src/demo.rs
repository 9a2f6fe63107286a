//! `citecheck demo`: how a new user sees the pipeline work, with no network and no key.
//!
//! The bundled pages (see `demo/README.md`) are written to a temporary directory and served on
//! 127.0.0.1; the example claims of the reference design are verified against them with the
//! configured pipeline (the offline local judge unless another is chosen). The demo checks its
//! own results: a label other than the expected one makes it fail.

use std::path::Path;

use anyhow::Context;
use citecheck_core::{Check, ClaimVerdict, Label, Verifier};
use clap::Args;

use crate::config::{Config, ConfigError};
use crate::error::AppError;
use crate::output::{self, print_stdout, Format};
use crate::static_site::StaticSite;

/// `citecheck demo`
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Output format on stdout.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// `citecheck demo`: verifies the bundled examples and prints them; fails when one does not
/// get its expected label.
pub async fn command(args: &DemoArgs, config: &Config) -> Result<u8, AppError> {
    let mut settings = config.pipeline.clone();
    // The demo site runs on 127.0.0.1, which the address guard exists to refuse.
    settings.fetch.guard.enabled = false;
    let engine = crate::engine::build_off_executor(&settings).await?;
    let verifier = engine.builder.build().map_err(ConfigError::from)?;
    let results = run(&verifier).await;
    crate::engine::shutdown(engine.renderer.as_ref()).await;
    let results = results?;
    let verbose = config.verbose > 0;
    let mut failed = 0;
    let mut rendered = String::new();
    for result in &results {
        let ok = result.verdict.overall == result.expected;
        failed += usize::from(!ok);
        if args.format == Format::Text {
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
    if args.format == Format::Text {
        rendered.push_str(&closing(&verifier, results.len() - failed, results.len()));
    }
    if args.format == Format::Json {
        let verdicts: Vec<_> = results.iter().map(|r| &r.verdict).collect();
        rendered = serde_json::to_string_pretty(&verdicts).context("rendering the verdicts")?;
    }
    print_stdout(&rendered)?;
    if failed > 0 {
        return Err(
            anyhow::anyhow!("{failed} demo claim(s) did not get their expected label").into(),
        );
    }
    Ok(0)
}

/// The text output's last lines: the score, the stages that produced it, and where to go next.
fn closing(verifier: &Verifier, matched: usize, total: usize) -> String {
    let parts = verifier.components();
    let judge = if parts.judge.model.is_empty() {
        parts.judge.provider.clone()
    } else {
        format!("{} ({})", parts.judge.provider, parts.judge.model)
    };
    format!(
        "{matched} of {total} examples got their expected label \
         (judge: {judge}; ranker: {}; fetcher: {}).\n\
         Next:\n  \
         citecheck verify --format text --claim \"...\" URL    check a claim of your own\n  \
         citecheck batch claims.jsonl --out report.csv --html report.html    score many\n  \
         citecheck --judge openai demo    the same with an LLM judge (needs OPENAI_API_KEY)\n",
        parts.ranker, parts.fetcher
    )
}

const PAGES: &[(&str, &[u8])] = &[
    ("index.html", include_bytes!("../demo/index.html")),
    (
        "articles/water-boiling-point.html",
        include_bytes!("../demo/articles/water-boiling-point.html"),
    ),
    (
        "articles/removed.html",
        include_bytes!("../demo/articles/removed.html"),
    ),
    (
        "app/dashboard.html",
        include_bytes!("../demo/app/dashboard.html"),
    ),
    ("routes.json", include_bytes!("../demo/routes.json")),
    (
        "reports/high-altitude-cooking.pdf",
        include_bytes!("../demo/reports/high-altitude-cooking.pdf"),
    ),
];

/// A demo claim, the site paths it cites, and the label it must get.
pub struct Example {
    pub claim: &'static str,
    pub paths: &'static [&'static str],
    pub expected: Label,
}

pub const EXAMPLES: &[Example] = &[
    Example {
        claim: "Water boils at 100 degrees Celsius at sea level.",
        paths: &["/articles/water-boiling-point", "/old-report"],
        expected: Label::Supported,
    },
    Example {
        claim: "Water boils at 50 degrees Celsius at sea level.",
        paths: &["/articles/water-boiling-point"],
        expected: Label::Contradicted,
    },
    Example {
        claim: "Mount Everest is 8,849 metres tall.",
        paths: &[
            "/articles/everest-height-2005",
            "/articles/removed",
            "/reports/annual-2024.pdf",
            "/app/dashboard",
        ],
        expected: Label::NotFound,
    },
    Example {
        claim: "On the summit of Mount Everest water boils at about 70 degrees Celsius.",
        paths: &["/reports/high-altitude-cooking.pdf"],
        expected: Label::Supported,
    },
    Example {
        claim: "The 2019 report is still online.",
        paths: &["/old-report"],
        expected: Label::Unreachable,
    },
];

/// One example's outcome.
pub struct DemoResult {
    pub verdict: ClaimVerdict,
    pub expected: Label,
}

/// Serves the bundled site and verifies every example against it.
pub async fn run(verifier: &Verifier) -> anyhow::Result<Vec<DemoResult>> {
    let dir = tempfile::tempdir().context("creating a directory for the demo site")?;
    write_pages(dir.path())?;
    let site = StaticSite::serve(dir.path()).await?;
    let base = site.base_url();
    let mut results = Vec::new();
    for example in EXAMPLES {
        let urls: Vec<String> = example.paths.iter().map(|p| format!("{base}{p}")).collect();
        let verdict = verifier.verify(Check::new(example.claim, urls)).await;
        results.push(DemoResult {
            verdict,
            expected: example.expected,
        });
    }
    Ok(results)
}

fn write_pages(root: &Path) -> anyhow::Result<()> {
    for (relative, body) in PAGES {
        let path = root.join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        std::fs::write(&path, body).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}
