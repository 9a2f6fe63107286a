//! `citecheck demo`: how a new user sees the pipeline work, with no network and no key.
//!
//! The bundled pages (see `demo/README.md`) are written to a temporary directory and served on
//! 127.0.0.1; the example claims of the reference design are verified against them with the
//! configured pipeline (the offline local judge unless another is chosen). The demo checks its
//! own results: a label other than the expected one makes it fail.

use std::path::Path;

use anyhow::Context;
use citecheck_core::{ClaimVerdict, Label, Verifier};

use crate::static_site::StaticSite;

const PAGES: &[(&str, &str)] = &[
    ("index.html", include_str!("../demo/index.html")),
    (
        "articles/water-boiling-point.html",
        include_str!("../demo/articles/water-boiling-point.html"),
    ),
    (
        "articles/removed.html",
        include_str!("../demo/articles/removed.html"),
    ),
    (
        "app/dashboard.html",
        include_str!("../demo/app/dashboard.html"),
    ),
    ("routes.json", include_str!("../demo/routes.json")),
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
        let verdict = verifier.verify(example.claim, &urls).await;
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
