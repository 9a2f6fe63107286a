//! `citecheck verify` as a user runs it: the built binary against a fixture site on 127.0.0.1,
//! checked for its output and its documented exit codes (0 all supported, 2 some citation not
//! supported, 3 configuration or usage error).

use predicates::str::contains;

use crate::support_local::{json_output, offline_citecheck as citecheck, DemoSite};

const WATER: &str = "Water boils at 100 degrees Celsius at sea level.";
const ARTICLE: &str = "/articles/water-boiling-point";

/// `verify` of [`WATER`] against these pages of the demo site, guard off: the JSON it prints,
/// after checking its exit code.
fn verify_on_demo_site(paths: &[&str], code: i32) -> serde_json::Value {
    let site = DemoSite::start();
    let mut cmd = citecheck();
    cmd.args(["--allow-private-hosts", "verify", "--claim", WATER]);
    for path in paths {
        cmd.arg(site.url(path));
    }
    json_output(&mut cmd, code)
}

#[test]
fn a_claim_every_citation_supports_exits_0_with_the_json_result() {
    let json = verify_on_demo_site(&[ARTICLE], 0);
    assert_eq!(json["overall"], "supported");
    assert_eq!(json["citations"][0]["evidence_quote"], WATER);
    assert_eq!(json["citations"][0]["original_status"], 200);
}

#[test]
fn a_dead_citation_beside_a_supporting_one_exits_2_though_the_claim_is_supported() {
    let json = verify_on_demo_site(&[ARTICLE, "/old-report"], 2);
    assert_eq!(json["overall"], "supported");
    assert_eq!(json["citations"][1]["label"], "unreachable");
    assert_eq!(json["citations"][1]["reason"], "http_404");
}

#[test]
fn a_contradiction_exits_2_and_reads_well_as_text() {
    let site = DemoSite::start();
    citecheck()
        .args([
            "--allow-private-hosts",
            "verify",
            "--format",
            "text",
            "--claim",
            "Water boils at 50 degrees Celsius at sea level.",
            &site.url(ARTICLE),
        ])
        .assert()
        .code(2)
        .stdout(contains("overall: CONTRADICTED"))
        .stdout(contains(WATER));
}

#[test]
fn with_the_guard_on_a_loopback_citation_is_refused_unfetched() {
    let site = DemoSite::start();
    citecheck()
        .args(["verify", "--claim", WATER, &site.url(ARTICLE)])
        .assert()
        .code(2)
        .stdout(contains("blocked_address"));
}

#[test]
fn usage_and_configuration_errors_exit_3_naming_the_problem() {
    // The arguments, and what stderr must mention (if anything).
    let cases: [(&[&str], Option<&str>); 5] = [
        (
            &["verify", "--claim", WATER, "ftp://example.com/file"],
            Some("ftp://example.com/file"),
        ),
        (
            &["verify", "--claim", WATER, "not a url"],
            Some("not a url"),
        ),
        (
            &["verify", "--claim", "  ", "https://example.com/"],
            Some("claim"),
        ),
        (&["verify", "--no-such-flag"], None),
        (
            &[
                "--top-k",
                "0",
                "verify",
                "--claim",
                WATER,
                "https://example.com/",
            ],
            Some("top k"),
        ),
    ];
    for (args, mention) in cases {
        let assert = citecheck().args(args).assert().code(3);
        if let Some(mention) = mention {
            assert.stderr(contains(mention));
        }
    }
}

#[test]
fn a_missing_judge_key_exits_3_naming_the_variable_before_any_fetch() {
    citecheck()
        .args([
            "--judge",
            "openai",
            "verify",
            "--claim",
            WATER,
            "https://example.com/",
        ])
        .assert()
        .code(3)
        .stderr(contains("OPENAI_API_KEY"));
}

#[test]
fn help_explains_the_flags_and_the_exit_codes() {
    citecheck()
        .arg("--help")
        .assert()
        .code(0)
        .stdout(contains("Exit codes"))
        .stdout(contains("--allow-private-hosts"))
        .stdout(contains("JUDGE_PROVIDER"));
}

/// Issue 12: the evidence store and the embedding cache have size budgets, and `cache prune`
/// enforces them now, oldest entries first.
#[test]
fn cache_prune_brings_the_stores_within_their_budgets_oldest_first() {
    let dir = tempfile::tempdir().expect("temp dir");
    let evidence = dir.path().join("evidence");
    let embeddings = dir
        .path()
        .join("cache")
        .join("citecheck")
        .join("embeddings");
    let write = |path: std::path::PathBuf, age_secs: u64| {
        std::fs::create_dir_all(path.parent().expect("parent")).expect("dir");
        std::fs::write(&path, vec![b'x'; 600_000]).expect("written");
        let at = std::time::SystemTime::now() - std::time::Duration::from_secs(age_secs);
        std::fs::File::options()
            .write(true)
            .open(&path)
            .and_then(|f| f.set_modified(at))
            .expect("mtime");
        path
    };
    let old_page = write(evidence.join("aa/bb/old.md.gz"), 300);
    let new_page = write(evidence.join("cc/dd/new.md.gz"), 100);
    let old_emb = write(embeddings.join("aa/old.emb"), 300);
    let new_emb = write(embeddings.join("bb/new.emb"), 100);
    citecheck()
        .env("XDG_CACHE_HOME", dir.path().join("cache"))
        .env("CITECHECK_EVIDENCE_DIR", &evidence)
        .env("CITECHECK_EVIDENCE_MAX_MB", "1")
        .env("CITECHECK_EMBEDDING_CACHE_MAX_MB", "1")
        .args(["cache", "prune"])
        .assert()
        .code(0)
        .stdout(contains("evidence store"))
        .stdout(contains("removed 1 file(s)"));
    assert!(!old_page.exists() && new_page.exists());
    assert!(!old_emb.exists() && new_emb.exists());

    citecheck()
        .env("CITECHECK_EVIDENCE_DIR", &evidence)
        .args(["--evidence-max-mb", "0", "cache", "prune"])
        .assert()
        .code(3)
        .stderr(contains("must be at least 1"));
}
