//! `citecheck answer` as a user runs it: fixture responses in every format (written from the
//! providers' documented shapes, `fixtures/answers`) pointing at the demo site on 127.0.0.1,
//! each holding a supported, a contradicted, a dead and a fabricated citation.

use std::path::PathBuf;

use assert_cmd::Command;
use citecheck::static_site::StaticSite;
use predicates::str::contains;
use serde_json::Value;

const FORMATS: [(&str, &str); 6] = [
    ("openai-responses.json", "openai-responses"),
    ("openai-chat.json", "openai-chat"),
    ("anthropic.json", "anthropic"),
    ("perplexity.json", "perplexity"),
    ("gemini.json", "gemini"),
    ("markdown.md", "markdown"),
];

fn site() -> (tokio::runtime::Runtime, StaticSite) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("demo");
    let site = runtime.block_on(StaticSite::serve(&root)).expect("site");
    (runtime, site)
}

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
fn answer(name: &str, site: &StaticSite) -> String {
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
    let (_rt, site) = site();
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
    let (_rt, site) = site();
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
    let (_rt, site) = site();
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

#[test]
fn an_answer_whose_every_citation_supports_it_exits_0() {
    let (_rt, site) = site();
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
    let (_rt, site) = site();
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
    let (_rt, site) = site();
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
    let summary = batch(&["--resume"]);
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
}
