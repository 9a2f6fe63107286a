//! `citecheck answer` as a user runs it: fixture responses in every format (written from the
//! providers' documented shapes, `fixtures/answers`) pointing at the demo site on 127.0.0.1,
//! each holding a supported, a contradicted, a dead and a fabricated citation.

use std::path::PathBuf;

use assert_cmd::Command;
use predicates::str::contains;
use serde_json::Value;

use crate::support_local::DemoSite;

const FORMATS: [(&str, &str); 6] = [
    ("openai-responses.json", "openai-responses"),
    ("openai-chat.json", "openai-chat"),
    ("anthropic.json", "anthropic"),
    ("perplexity.json", "perplexity"),
    ("gemini.json", "gemini"),
    ("markdown.md", "markdown"),
];

fn citecheck() -> Command {
    let mut cmd = Command::cargo_bin("citecheck").expect("binary built");
    cmd.env("CITECHECK_NO_AUDIT", "1")
        .env("CITECHECK_RANKER", "lexical")
        .env_remove("JUDGE_PROVIDER")
        .env_remove("OPENAI_API_KEY")
        .env_remove("CITECHECK_FORMAT")
        .arg("--allow-private-hosts");
    cmd
}

/// The fixture with the site's address in place of `{{SITE}}`.
fn answer(name: &str, site: &DemoSite) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/answers")
        .join(name);
    std::fs::read_to_string(&path)
        .expect("fixture")
        .replace("{{SITE}}", site.base_url().trim_end_matches('/'))
}

fn run_json(input: &str, extra: &[&str]) -> Value {
    let output = citecheck()
        .arg("answer")
        .args(extra)
        .arg("-")
        .write_stdin(input.to_string())
        .assert()
        .code(2)
        .get_output()
        .stdout
        .clone();
    serde_json::from_slice(&output).expect("stdout is JSON")
}

#[test]
fn every_format_gives_the_same_verdicts_for_the_same_answer() {
    let site = DemoSite::start();
    for (file, format) in FORMATS {
        let json = run_json(&answer(file, &site), &[]);
        assert_eq!(json["format"], format, "{file}");
        assert_eq!(json["overall"], "contradicted", "{file}");
        let labels: Vec<&str> = json["statements"]
            .as_array()
            .expect("statements")
            .iter()
            .map(|s| s["overall"].as_str().unwrap_or(""))
            .collect();
        assert_eq!(
            labels,
            ["supported", "contradicted", "unreachable", "unreachable"],
            "{file}"
        );
        let first = &json["statements"][0];
        assert_eq!(
            first["claim"], "Water boils at 100 degrees Celsius at sea level.",
            "{file}"
        );
        assert_eq!(
            first["citations"][0]["evidence_quote"],
            "Water boils at 100 degrees Celsius at sea level.",
            "{file}"
        );
        assert_eq!(json["statements"][2]["citations"][0]["reason"], "http_404");
        let summary = &json["summary"];
        assert_eq!(summary["statements"], 4, "{file}");
        assert_eq!(summary["by_label"]["supported"], 1, "{file}");
        assert_eq!(summary["by_label"]["unreachable"], 2, "{file}");
        assert_eq!(summary["supported_share"], 0.25, "{file}");
        assert_eq!(summary["uncited_sentences"], 3, "{file}");
        // Four citations, three distinct URLs: the article cited twice was fetched once.
        assert_eq!(summary["citations"], 4, "{file}");
        assert_eq!(summary["pages_fetched"], 3, "{file}");
    }
}

#[test]
fn anthropic_cited_text_is_looked_for_on_the_fetched_page() {
    let site = DemoSite::start();
    let json = run_json(
        &answer("anthropic.json", &site),
        &["--input-format", "anthropic"],
    );
    let statements = json["statements"].as_array().expect("statements");
    assert_eq!(statements[0]["citations"][0]["cited_text_found"], true);
    // The provider's "quote" for the contradicted statement is not on the page.
    assert_eq!(statements[1]["citations"][0]["cited_text_found"], false);
    // No page was read for the dead link: nothing to look in.
    assert!(statements[2]["citations"][0]
        .get("cited_text_found")
        .is_none());
    assert_eq!(json["unchecked"][0]["problem"], "not_checkable_by_url");
    assert_eq!(json["unchecked"][0]["kind"], "char_location");
}

#[test]
fn the_text_rendering_marks_the_spans_and_lists_verdicts_beneath() {
    let site = DemoSite::start();
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("answer.md");
    std::fs::write(&path, answer("markdown.md", &site)).expect("write");
    citecheck()
        .args(["answer", "--format", "text"])
        .arg(&path)
        .assert()
        .code(2)
        .stdout(contains(
            "[[Water boils at 100 degrees Celsius at sea level ([Why water boils](",
        ))
        .stdout(contains(
            "^1 SUPPORTED  Water boils at 100 degrees Celsius at sea level.",
        ))
        .stdout(contains("^2 CONTRADICTED"))
        .stdout(contains("overall: CONTRADICTED"))
        .stdout(contains(
            "4 cited statements (25% supported), 3 of 7 sentences uncited",
        ));
}

/// The `<details>` opening tags of the answer page, in order: each statement's class.
fn span_classes(html: &str) -> Vec<String> {
    html.match_indices("<details class=\"span ")
        .map(|(at, _)| {
            let rest = &html[at + "<details class=\"span ".len()..];
            rest[..rest.find('"').unwrap_or(0)].to_string()
        })
        .collect()
}

#[test]
fn the_html_page_colours_each_statement_by_its_verdict_and_opens_onto_its_sources() {
    let site = DemoSite::start();
    let dir = tempfile::tempdir().expect("tempdir");
    let input = dir.path().join("answer.json");
    // A hostile title and text in the answer: shown as text, never as markup.
    let hostile = answer("anthropic.json", &site)
        .replacen(
            "Über das Kochen",
            "<img src=x onerror=alert(1)> Über das Kochen",
            1,
        )
        .replacen("Why water boils", "Why <script>alert(2)</script>", 1);
    std::fs::write(&input, &hostile).expect("write");
    let page = dir.path().join("out/answer.html");
    citecheck()
        .args(["answer", "--id", "a<1>", "--html"])
        .arg(&page)
        .arg(&input)
        .assert()
        .code(2)
        .stdout(contains("\"overall\": \"contradicted\""));
    let html = std::fs::read_to_string(&page).expect("the page is written");
    assert!(html.starts_with("<!DOCTYPE html>"));
    for external in ["<link", "<script src", "<img", "@import", "url(", "<iframe"] {
        assert!(!html.contains(external), "found {external}");
    }
    assert!(html.contains("&lt;img src=x onerror=alert(1)&gt;"));
    assert!(html.contains("Why &lt;script&gt;alert(2)&lt;/script&gt;"));
    assert!(!html.contains("<script>alert"));
    assert!(html.contains("a&lt;1&gt;"));
    assert_eq!(
        span_classes(&html),
        [
            "v-supported",
            "v-contradicted",
            "v-unreachable",
            "v-unreachable"
        ]
    );
    let base = site.base_url().trim_end_matches('/').to_string();
    // The supported statement opens onto its label, the quote linked to its place on the page,
    // and the page itself; the dead link onto its reason.
    let first = &html[html.find("id=\"a0-s1\"").expect("first span")..];
    let first = &first[..first.find("</details>").expect("closed")];
    assert!(first.contains(">supported</span>"), "{first}");
    assert!(
        first.contains(&format!(
            "<a class=\"quote\" href=\"{base}/articles/water-boiling-point#:~:text="
        )),
        "{first}"
    );
    assert!(first.contains("Water boils at 100 degrees Celsius at sea level.</a>"));
    assert!(first.contains(&format!("href=\"{base}/articles/water-boiling-point\"")));
    assert!(first.contains("cited_text (on the page)"), "{first}");
    let third = &html[html.find("id=\"a0-s3\"").expect("third span")..];
    assert!(third[..third.find("</details>").expect("closed")].contains("http_404"));
    // The document citation is listed, not checkable by URL.
    assert!(html.contains("<li class=\"not_checkable_by_url\">"));

    // Standard output instead of a file: the page, not the verdict.
    citecheck()
        .args(["answer", "--html", "-"])
        .arg(&input)
        .assert()
        .code(2)
        .stdout(predicates::str::starts_with("<!DOCTYPE html>"));
}

#[test]
fn the_answer_page_renders_in_headless_chromium_with_a_linked_statement_open() {
    let Some(chrome) = crate::report::chromium() else {
        if std::env::var_os("CI").is_some() {
            panic!("chromium is not installed (scripts/check-report-render.sh installs it)");
        }
        println!("SKIPPED: chromium is not installed; run scripts/check-report-render.sh");
        return;
    };
    let site = DemoSite::start();
    let dir = tempfile::tempdir().expect("tempdir");
    let input = dir.path().join("answer.md");
    std::fs::write(&input, answer("markdown.md", &site)).expect("write");
    let page = dir.path().join("answer.html");
    citecheck()
        .args(["answer", "--html"])
        .arg(&page)
        .arg(&input)
        .assert()
        .code(2);
    let url = format!("file://{}", page.display());
    let dom = |fragment: &str, profile: &str| {
        let out = crate::report::headless(&chrome, &dir.path().join(profile))
            .arg("--dump-dom")
            .arg(format!("{url}{fragment}"))
            .output()
            .expect("chromium runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let closed = dom("", "profile-closed");
    assert!(closed.contains("data-answers-ready=\"1\""), "{closed}");
    // The browser kept every statement inside the answer's text, with its verdict's class,
    // and none open until asked.
    let text = &closed[closed
        .find("<div class=\"answer-text\">")
        .expect("the answer's text")..];
    let text = &text[..text
        .find("<ul class=")
        .or_else(|| text.find("</article>"))
        .expect("end")];
    assert_eq!(
        span_classes(text),
        [
            "v-supported",
            "v-contradicted",
            "v-unreachable",
            "v-unreachable"
        ],
        "{text}"
    );
    assert!(!closed.contains(" open=\"\""), "{closed}");
    // A link to the second statement opens it onto its sources.
    let linked = dom("#a0-s2", "profile-linked");
    let second = &linked[linked.find("id=\"a0-s2\"").expect("second")..];
    assert!(
        linked.contains("<details class=\"span v-contradicted\" id=\"a0-s2\" data-label=\"contradicted\" open=\"\">"),
        "{second}"
    );
    assert_eq!(linked.matches(" open=\"\"").count(), 1);

    let png = dir.path().join("answer.png");
    let shot = crate::report::headless(&chrome, &dir.path().join("profile-shot"))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("{url}#a0-s2"))
        .output()
        .expect("chromium runs");
    assert!(shot.status.success());
    let bytes = std::fs::read(&png).expect("a screenshot");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    if let Some(keep) = std::env::var_os("CITECHECK_KEEP_SCREENSHOT") {
        std::fs::copy(&png, keep).expect("screenshot kept");
    }
}

#[test]
fn an_answer_whose_every_citation_supports_it_exits_0() {
    let site = DemoSite::start();
    let text = format!(
        "Über 🍝. Water boils at 100 degrees Celsius at sea level [1].\n\n[1]: {}/articles/water-boiling-point\n",
        site.base_url().trim_end_matches('/')
    );
    citecheck()
        .args(["answer", "-"])
        .write_stdin(text)
        .assert()
        .code(0)
        .stdout(contains("\"overall\": \"supported\""));
}

#[test]
fn an_answer_without_citations_says_so_and_exits_2() {
    citecheck()
        .args(["answer", "-"])
        .write_stdin("Water boils at 100 degrees Celsius. Nobody cited anything.")
        .assert()
        .code(2)
        .stderr(contains("carries no citation"))
        .stdout(contains("\"uncited_sentences\": 2"));
}

#[test]
fn an_unknown_shape_exits_3_listing_the_formats_understood() {
    citecheck()
        .args(["answer", "-"])
        .write_stdin(r#"{"reply": "hello", "links": []}"#)
        .assert()
        .code(3)
        .stderr(contains(
            "standard input: unknown answer shape: found a JSON object with keys [links, reply]",
        ))
        .stderr(contains("openai-responses"))
        .stderr(contains("gemini"));
    citecheck()
        .args(["answer", "--input-format", "klingon", "-"])
        .write_stdin("x")
        .assert()
        .code(3);
}

#[test]
fn audit_rows_carry_the_answer_id_and_the_statement_span() {
    let site = DemoSite::start();
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("audit.db");
    Command::cargo_bin("citecheck")
        .expect("binary built")
        .env("CITECHECK_RANKER", "lexical")
        .env("CITECHECK_AUDIT_DB", &db)
        .env("CITECHECK_EVIDENCE_DIR", dir.path().join("evidence"))
        .env_remove("JUDGE_PROVIDER")
        .env_remove("CITECHECK_NO_AUDIT")
        .args(["--allow-private-hosts", "answer", "--id", "ans-7", "-"])
        .write_stdin(answer("gemini.json", &site))
        .assert()
        .code(2);
    let conn = rusqlite::Connection::open(&db).expect("audit db");
    let mut stmt = conn
        .prepare("SELECT source, claim_id, claim FROM citations ORDER BY claim_id")
        .expect("query");
    let rows: Vec<(String, String, String)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("rows");
    assert_eq!(rows.len(), 4, "{rows:?}");
    for (source, claim_id, _) in &rows {
        assert_eq!(source, "answer");
        assert!(claim_id.starts_with("ans-7#"), "{claim_id}");
    }
    // The first statement's span, in code points, after the non-ASCII introduction.
    let intro =
        "Über das Kochen 🍝 – kurz erklärt. 日本語の読者へ：水の沸点について、短くまとめました。";
    let start = intro.chars().count();
    let end = start + "Water boils at 100 degrees Celsius at sea level.".len();
    assert!(
        rows.iter()
            .any(|(_, id, claim)| id == &format!("ans-7#{start}..{end}")
                && claim == "Water boils at 100 degrees Celsius at sea level."),
        "{rows:?}"
    );
}

#[test]
fn a_batch_of_answers_scores_cited_statements_and_resumes() {
    let site = DemoSite::start();
    let dir = tempfile::tempdir().expect("tempdir");
    let gemini: Value = serde_json::from_str(&answer("gemini.json", &site)).expect("json");
    let first = serde_json::json!({"id": "g", "answer": gemini}).to_string();
    let second =
        serde_json::json!({"id": "m", "answer": answer("markdown.md", &site), "input_format": "markdown"})
            .to_string();
    let input = dir.path().join("answers.jsonl");
    let results = dir.path().join("results.jsonl");
    std::fs::write(&input, format!("{first}\nnot json\n")).expect("write");
    let batch = |extra: &[&str]| {
        let output = citecheck()
            .args(["batch", "--format", "json", "--answers"])
            .arg(&input)
            .arg("--jsonl")
            .arg(&results)
            .args(extra)
            .assert()
            .code(0)
            .stderr(contains("line 2: invalid JSON"))
            .get_output()
            .stdout
            .clone();
        serde_json::from_slice::<Value>(&output).expect("summary is JSON")
    };
    let summary = batch(&[]);
    // Four cited statements, one citation each, one of them supported.
    assert_eq!(summary["precision"]["total"], 4, "{summary}");
    assert_eq!(summary["precision"]["supported"], 1, "{summary}");
    let ids = |path: &std::path::Path| -> Vec<String> {
        let mut ids: Vec<String> = std::fs::read_to_string(path)
            .expect("results")
            .lines()
            .map(|l| {
                serde_json::from_str::<Value>(l).expect("line")["id"]
                    .as_str()
                    .unwrap_or("")
                    .to_string()
            })
            .collect();
        ids.sort();
        ids
    };
    let after_first = ids(&results);
    assert_eq!(after_first.len(), 4);
    assert!(
        after_first.iter().all(|id| id.starts_with("g#")),
        "{after_first:?}"
    );

    // A second answer appended: --resume verifies only its statements.
    std::fs::write(&input, format!("{first}\nnot json\n{second}\n")).expect("write");
    let html = dir.path().join("report.html");
    let summary = batch(&["--resume", "--html", html.to_str().expect("utf-8 path")]);
    assert_eq!(summary["claims_resumed"], 4, "{summary}");
    assert_eq!(
        summary["claims_verified"], 4,
        "only the new answer's statements: {summary}"
    );
    // The summary covers every cited statement of both answers.
    assert_eq!(summary["precision"]["total"], 8, "{summary}");
    assert_eq!(summary["precision"]["supported"], 2, "{summary}");
    let after_resume = ids(&results);
    assert_eq!(after_resume.len(), 8);
    assert_eq!(
        after_resume
            .iter()
            .filter(|id| id.starts_with("m#"))
            .count(),
        4
    );
    // The per-answer figures cover both answers, resumed and new.
    let answers = &summary["answers"];
    assert_eq!(answers["answers"], 2, "{summary}");
    assert_eq!(answers["by_label"]["contradicted"], 2, "{summary}");
    assert_eq!(answers["by_label"]["supported"], 0, "{summary}");
    assert_eq!(answers["statements"], 8, "{summary}");
    assert_eq!(answers["statements_supported"], 2, "{summary}");
    assert_eq!(answers["supported_share_overall"], 0.25, "{summary}");
    assert_eq!(answers["supported_share_mean"], 0.25, "{summary}");
    assert_eq!(answers["uncited_sentences"], 6, "{summary}");
    assert_eq!(answers["invalid_spans"], 0, "{summary}");
    // The report holds the figures and both answers marked up.
    let report = std::fs::read_to_string(&html).expect("the report is written");
    assert!(
        report.contains("id=\"answers-verified\">2<"),
        "answers figure"
    );
    assert!(report.contains("id=\"statements-supported\">25.0%<"));
    assert_eq!(span_classes(&report).len(), 8);
    assert_eq!(
        span_classes(&report)[..4],
        [
            "v-supported",
            "v-contradicted",
            "v-unreachable",
            "v-unreachable"
        ]
    );
    assert_eq!(report.matches("<article class=\"answer\"").count(), 2);

    // The text summary says the same.
    let text = citecheck()
        .args(["batch", "--answers"])
        .arg(&input)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8_lossy(&text);
    assert!(
        text.contains(
            "answers: 2 verified; labels: supported=0 contradicted=2 not_found=0 unreachable=0"
        ),
        "{text}"
    );
    assert!(
        text.contains("answer statements: 8 cited, supported_share=0.2500 overall (2/8), 0.2500 mean per answer"),
        "{text}"
    );
    assert!(text.contains("answer sentences: 6 uncited of"), "{text}");
}
