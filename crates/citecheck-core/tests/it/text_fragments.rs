//! Evidence links in a real browser: each page is served from 127.0.0.1, turned into Markdown
//! by the extractor, the quote located and linked by the anchor, and the link opened in headless
//! Chromium, whose own text-fragment matching decides where the page scrolls. The page's script
//! reports which marked paragraph ended up in the middle of the viewport. Runs when Chromium is
//! installed (always on CI, where scripts/check-report-render.sh installs it).

use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::Command;

use axum::extract::Path as UrlPath;
use axum::response::Html;
use axum::routing::get;
use axum::Router;
use citecheck_core::anchor;
use citecheck_core::extract::html_to_markdown;

/// One page: its target paragraphs (id, HTML), the judge's quote, the passage the judge saw
/// (when the quote is on the page twice), and the ids the browser may land on.
struct Case {
    name: &'static str,
    sections: Vec<(&'static str, &'static str)>,
    quote: &'static str,
    seen: Option<&'static str>,
    lands_on: &'static [&'static str],
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "unique",
            sections: vec![("t", "Water boils at 100 degrees Celsius at sea level.")],
            quote: "Water boils at 100 degrees Celsius at sea level.",
            seen: None,
            lands_on: &["t"],
        },
        Case {
            name: "repeated",
            sections: vec![
                ("first", "The first study found that sleep improves memory."),
                (
                    "second",
                    "A later trial also found that sleep improves memory.",
                ),
            ],
            quote: "sleep improves memory",
            seen: Some("A later trial also found that sleep improves memory."),
            lands_on: &["second"],
        },
        Case {
            name: "long",
            sections: vec![(
                "long",
                "Measurements taken over many decades by independent laboratories across several \
                 continents consistently show the same boiling point for pure water at standard \
                 atmospheric pressure, and the small differences between them are explained by \
                 the purity of the samples, the calibration of the thermometers and the altitude \
                 of each laboratory, which together account for every reported deviation larger \
                 than a tenth of a degree.",
            )],
            quote: "Measurements taken over many decades by independent laboratories across \
                    several continents consistently show the same boiling point for pure water at \
                    standard atmospheric pressure, and the small differences between them are \
                    explained by the purity of the samples, the calibration of the thermometers \
                    and the altitude of each laboratory, which together account for every \
                    reported deviation larger than a tenth of a degree.",
            seen: None,
            lands_on: &["long"],
        },
        Case {
            name: "markup",
            sections: vec![(
                "m",
                "The <strong>Eiffel Tower</strong> is <a href=\"/x\">330 metres</a> tall.",
            )],
            quote: "The Eiffel Tower is 330 metres tall.",
            seen: None,
            lands_on: &["m"],
        },
        Case {
            name: "syntax characters",
            sections: vec![(
                "s",
                "A cost-benefit analysis, done right &amp; early, saves money.",
            )],
            quote: "A cost-benefit analysis, done right & early, saves money.",
            seen: None,
            lands_on: &["s"],
        },
        Case {
            name: "curly quotes",
            sections: vec![(
                "c",
                "He said \u{201C}it\u{2019}s done\u{201D} and left the room.",
            )],
            quote: "He said \"it's done\" and left the room.",
            seen: None,
            lands_on: &["c"],
        },
        Case {
            name: "two paragraphs",
            // Two adjacent paragraphs: the second opens inside the first's section.
            sections: vec![(
                "x1",
                "This is the end of the first part of the story.</p>\
                 <p id=\"x2\" data-target=\"1\">Start of the second part, where the plot turns.",
            )],
            quote: "end of the first part of the story. Start of the second part",
            seen: None,
            lands_on: &["x1", "x2"],
        },
    ]
}

/// A page where each target paragraph sits between long runs of filler, so that landing on the
/// wrong one (or nowhere) shows in the scroll position.
fn page(case: &Case) -> String {
    let filler: String = (0..120)
        .map(|i| format!("<p>Filler paragraph {i} about gardening, soil and the weather.</p>"))
        .collect();
    let mut body = filler.clone();
    for (id, html) in &case.sections {
        body.push_str(&format!(
            "<p id=\"{id}\" data-target=\"1\">{html}</p>{filler}"
        ));
    }
    format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>{}</title></head><body>\
         <article><h1>{}</h1>{body}</article><script>setTimeout(function(){{\
         var best='none',gap=1e9,mid=innerHeight/2;\
         document.querySelectorAll('[data-target]').forEach(function(e){{\
         var r=e.getBoundingClientRect(),d=Math.abs((r.top+r.bottom)/2-mid);\
         if(d<gap){{gap=d;best=e.id;}}}});\
         document.body.setAttribute('data-centred',scrollY>0?best:'top');}},1500);</script>\
         </body></html>",
        case.name, case.name
    )
}

fn chromium() -> Option<PathBuf> {
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

/// Where the browser landed for `url`: the id of the centred target paragraph, or `top`.
fn landed(chrome: &Path, profile: &Path, url: &str) -> String {
    let output = Command::new(chrome)
        .args([
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=800,600",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(url)
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&output.stdout);
    dom.split("data-centred=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or("no answer")
        .to_string()
}

async fn serve(pages: Vec<String>) -> SocketAddr {
    let app = Router::new().route(
        "/page/{n}",
        get(move |UrlPath(n): UrlPath<usize>| {
            let html = pages.get(n).cloned().unwrap_or_default();
            async move { Html(html) }
        }),
    );
    let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .await
        .expect("binds");
    let addr = listener.local_addr().expect("address");
    tokio::spawn(async move {
        axum::serve(listener, app).await.ok();
    });
    addr
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chromium_scrolls_to_the_quote_each_evidence_link_names() {
    let Some(chrome) = chromium() else {
        if std::env::var_os("CI").is_some() {
            panic!("chromium is not installed (scripts/check-report-render.sh installs it)");
        }
        println!("SKIPPED: chromium is not installed; run scripts/check-report-render.sh");
        return;
    };
    let cases = cases();
    let addr = serve(cases.iter().map(page).collect()).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let mut failures = Vec::new();
    for (n, case) in cases.iter().enumerate() {
        let url = format!("http://{addr}/page/{n}");
        let markdown = html_to_markdown(&page(case), Some(&url)).markdown;
        let passages = vec![case.seen.map_or(markdown.clone(), str::to_string)];
        let Some((link, _)) = anchor::evidence(&url, &markdown, &passages, case.quote) else {
            failures.push(format!("{}: the quote was not located", case.name));
            continue;
        };
        let chrome = chrome.clone();
        let profile = dir.path().join(format!("profile-{n}"));
        let opened = link.clone();
        let at = tokio::task::spawn_blocking(move || landed(&chrome, &profile, &opened))
            .await
            .expect("browser task");
        if !case.lands_on.contains(&at.as_str()) {
            failures.push(format!(
                "{}: landed on {at}, wanted {:?}: {link}",
                case.name, case.lands_on
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
