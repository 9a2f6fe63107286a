//! The HTML report: self-contained, contradicted citations first, escaped, the same figures from
//! a results file and from the audit index, and rendered by headless Chromium when present.

use std::path::{Path, PathBuf};
use std::process::Command;

use citecheck::audit::{AuditFilter, AuditStore, RunInfo};
use citecheck::batch::output::BatchResult;
use citecheck::report::{self, Source};
use citecheck_core::{ArchiveInfo, ArchiveStatus, ClaimVerdict, Label, Reason, UrlVerdict};

fn cite(url: &str, label: Label, quote: Option<&str>, reason: Option<Reason>) -> UrlVerdict {
    let mut v = UrlVerdict::without_judge(url, label, Reason::Soft404);
    v.reason = reason;
    v.evidence_quote = quote.map(str::to_string);
    v.confidence = 0.8;
    v
}

/// The reference shape: nine citations, two supported, three unreachable, one contradicted;
/// each supported quote linked to the page, the 404 archived (link rot), the 410 never archived.
fn results() -> Vec<BatchResult> {
    let mut results = reference_results();
    for c in results
        .iter_mut()
        .flat_map(|r| r.verdict.citations.iter_mut())
    {
        if c.label == Label::Supported {
            c.follow_up.evidence_url = Some(format!("{}#:~:text=boils", c.url));
        }
        let status = match c.reason {
            Some(Reason::Http(404)) => ArchiveStatus::Archived,
            Some(Reason::Http(410)) => ArchiveStatus::NeverArchived,
            _ => continue,
        };
        c.follow_up.archive = Some(ArchiveInfo {
            status,
            snapshot_url: (status == ArchiveStatus::Archived)
                .then(|| format!("https://web.archive.org/web/20200101000000/{}", c.url)),
            captured_at: None,
            verdict: None,
            evidence_quote: None,
            note: String::new(),
        });
    }
    results
}

fn reference_results() -> Vec<BatchResult> {
    let claim = |id: &str, text: &str, citations: Vec<UrlVerdict>| BatchResult {
        id: id.into(),
        verdict: ClaimVerdict {
            claim: text.into(),
            overall: citecheck_core::aggregate::claim_label(citations.iter().map(|c| c.label)),
            citations,
        },
    };
    vec![
        claim(
            "1",
            "Water boils at 100 degrees Celsius at sea level.",
            vec![
                cite(
                    "https://www.science.example/water",
                    Label::Supported,
                    Some("Water boils at 100 degrees Celsius at sea level."),
                    None,
                ),
                cite(
                    "https://old.example/gone",
                    Label::Unreachable,
                    None,
                    Some(Reason::Http(404)),
                ),
            ],
        ),
        claim(
            "2",
            "Water boils at 50 degrees <script>alert('x')</script>.",
            vec![cite(
                "https://www.science.example/water",
                Label::Contradicted,
                Some("Water boils at 100 degrees Celsius at sea level."),
                None,
            )],
        ),
        claim(
            "3",
            "Everest is 8,849 metres tall.",
            vec![
                cite(
                    "https://mountains.example/everest",
                    Label::Supported,
                    Some("Everest is 8,849 metres tall."),
                    None,
                ),
                cite("https://mountains.example/k2", Label::NotFound, None, None),
                cite(
                    "https://old.example/410",
                    Label::Unreachable,
                    None,
                    Some(Reason::Http(410)),
                ),
            ],
        ),
        claim(
            "4",
            "The Moon is made of cheese.",
            vec![
                cite(
                    "https://docs.example/a.pdf",
                    Label::NotFound,
                    None,
                    Some(Reason::PdfUnsupported),
                ),
                cite("javascript:alert(1)", Label::NotFound, None, None),
                cite(
                    "https://down.example/x",
                    Label::Unreachable,
                    None,
                    Some(Reason::Http(503)),
                ),
            ],
        ),
    ]
}

fn write_results(dir: &Path) -> PathBuf {
    let path = dir.join("results.jsonl");
    let text: String = results()
        .iter()
        .map(|r| serde_json::to_string(r).expect("json") + "\n")
        .collect();
    std::fs::write(&path, text).expect("written");
    path
}

fn html_of(source: &Source) -> String {
    let mut out = Vec::new();
    report::write_html(source, "Test report", &mut out).expect("report");
    String::from_utf8(out).expect("utf-8")
}

#[test]
fn the_report_is_one_self_contained_file_with_contradictions_first() {
    let dir = tempfile::tempdir().expect("temp dir");
    let html = html_of(&Source::Results(write_results(dir.path())));
    for external in ["<link", "<script src", "<img", "@import", "url(", "<iframe"] {
        assert!(!html.contains(external), "found {external}");
    }
    assert!(html.contains("<svg"), "charts are inline SVG");
    assert!(
        html.contains("id=\"citation-precision\">22.2%<"),
        "citation precision"
    );
    assert!(
        html.contains("id=\"reachable-precision\">33.3%<"),
        "reachable precision"
    );
    let contradicted = html
        .find("class=\"cite card\"")
        .expect("a contradicted card");
    let table = html.find("<table").expect("the table of the rest");
    assert!(contradicted < table);
    assert_eq!(html.matches("class=\"cite card\"").count(), 1);
    assert_eq!(html.matches("<tr class=\"cite\"").count(), 8);
    // Within the rest: not_found, then unreachable, then supported.
    let first_not_found = html
        .find("data-label=\"not_found\"")
        .expect("not_found rows");
    let first_supported = html
        .find("<tr class=\"cite\" data-label=\"supported\"")
        .expect("supported rows");
    assert!(first_not_found < first_supported);
    // User text is escaped; only http(s) URLs are links.
    assert!(!html.contains("<script>alert"), "claim text escaped");
    assert!(html.contains("&lt;script&gt;alert(&#39;x&#39;)"));
    assert!(!html.contains("href=\"javascript:"));
    // Domains without www., with their counts, in the filter and the chart.
    assert!(html.contains("<option value=\"science.example\">science.example (2)</option>"));
    assert!(html.contains("mountains.example"));
    // Quotes link to their place on the page; dead links say rot or possibly fabricated.
    assert!(html
        .contains("<a class=\"quote\" href=\"https://www.science.example/water#:~:text=boils\""));
    assert!(html.contains("id=\"link-rot\">1<"), "one link rot");
    assert!(
        html.contains("id=\"never-archived\">1<"),
        "one never archived"
    );
    assert!(html.contains("never archived: possibly fabricated</p>"));
    assert!(html.contains("href=\"https://web.archive.org/web/20200101000000/"));
}

#[tokio::test]
async fn the_audit_index_gives_the_same_figures_as_the_results_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = AuditStore::open(dir.path().join("audit.sqlite3")).expect("opens");
    for r in results() {
        store
            .record(
                &r.verdict,
                &RunInfo::new("batch")
                    .with_run_id("r")
                    .with_claim_id(r.id.clone()),
            )
            .await
            .expect("recorded");
    }
    let from_audit = report::totals(&Source::Audit(
        Box::new(store),
        Box::new(AuditFilter {
            run_id: Some("r".into()),
            ..AuditFilter::default()
        }),
    ))
    .expect("totals");
    let from_file = report::totals(&Source::Results(write_results(dir.path()))).expect("totals");
    assert_eq!(from_audit.summary, from_file.summary);
    assert_eq!(from_audit.domains, from_file.domains);
    assert_eq!(from_file.summary.precision.supported, 2);
    assert_eq!(from_file.summary.precision.total, 9);
    assert_eq!(from_file.summary.precision.reachable, 6);
    assert_eq!(from_file.summary.archive.link_rot, 1);
    assert_eq!(from_file.summary.archive.never_archived, 1);
}

#[test]
fn the_report_command_writes_the_file_from_results() {
    let dir = tempfile::tempdir().expect("temp dir");
    let results = write_results(dir.path());
    let out = dir.path().join("out/report.html");
    let run = crate::batch_support::citecheck(dir.path())
        .args(["report", "--results"])
        .arg(&results)
        .arg("--out")
        .arg(&out)
        .output()
        .expect("runs");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let html = std::fs::read_to_string(&out).expect("written");
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.trim_end().ends_with("</html>"));

    let missing = crate::batch_support::citecheck(dir.path())
        .args(["report", "--out", "x.html"])
        .output()
        .expect("runs");
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no audit index"));
}

/// The Chromium binary, if installed.
pub fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            std::env::var_os("PATH").and_then(|paths| {
                std::env::split_paths(&paths)
                    .map(|dir| dir.join(name))
                    .find(|path| path.is_file())
            })
        })
}

pub fn headless(chrome: &Path, profile: &Path) -> Command {
    let mut cmd = Command::new(chrome);
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,1600",
    ])
    .arg(format!("--user-data-dir={}", profile.display()));
    cmd
}

#[test]
fn the_report_renders_in_headless_chromium_and_its_script_runs() {
    let Some(chrome) = chromium() else {
        if std::env::var_os("CI").is_some() {
            panic!("chromium is not installed (scripts/check-report-render.sh installs it)");
        }
        println!("SKIPPED: chromium is not installed; run scripts/check-report-render.sh");
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let html = dir.path().join("report.html");
    report::write_html_file(
        &Source::Results(write_results(dir.path())),
        "Render test",
        &html,
    )
    .expect("report");
    let url = format!("file://{}", html.display());

    let dom = headless(&chrome, &dir.path().join("profile-dom"))
        .arg("--dump-dom")
        .arg(&url)
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&dom.stdout);
    // The filter script ran to its end: it marks the page ready and counts the rows it shows.
    assert!(dom.contains("data-ready=\"1\""), "{dom}");
    assert!(dom.contains("<span id=\"shown\">9</span>"), "{dom}");
    // The filters work in a real browser: set from the URL, they hide what does not match.
    for (fragment, shown) in [
        ("#label=contradicted", 1),
        ("#q=moon", 3),
        ("#label=supported,unreachable&domain=old.example", 2),
    ] {
        let dom = headless(&chrome, &dir.path().join(format!("profile-{shown}")))
            .arg("--dump-dom")
            .arg(format!("{url}{fragment}"))
            .output()
            .expect("chromium runs");
        let dom = String::from_utf8_lossy(&dom.stdout);
        assert!(
            dom.contains(&format!("<span id=\"shown\">{shown}</span>")),
            "{fragment}: {dom}"
        );
    }

    let png = dir.path().join("report.png");
    let shot = headless(&chrome, &dir.path().join("profile-shot"))
        .arg(format!("--screenshot={}", png.display()))
        .arg(&url)
        .output()
        .expect("chromium runs");
    assert!(
        shot.status.success(),
        "{}",
        String::from_utf8_lossy(&shot.stderr)
    );
    let bytes = std::fs::read(&png).expect("a screenshot");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    assert!(
        bytes.len() > 10_000,
        "a blank page compresses to almost nothing"
    );
}
