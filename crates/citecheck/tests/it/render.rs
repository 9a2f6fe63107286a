//! `--render chromium` through the built binary: a page whose article a script builds is
//! `not_found`/`needs_javascript` without the renderer and `supported` with it; a wrong
//! `--chromium` path is a configuration error (exit 3) naming both ways to set it.
//!
//! Chromium comes from `CITECHECK_CHROMIUM` or the PATH; without one these tests fail under
//! `CI=true` and are skipped, saying so, elsewhere.

use std::path::PathBuf;

use assert_cmd::Command;
use citecheck::static_site::StaticSite;
use predicates::str::contains;

const DANUBE: &str = "The Danube flows through ten countries before it reaches the Black Sea.";

/// A shell page: its article exists only once the script has run.
fn shell_page() -> String {
    format!(
        r#"<!doctype html><html><head><title>Rivers</title></head>
<body><div id="app"></div><script>
const paragraphs = [
  "The Danube is the second-longest river in Europe, after the Volga. It rises in the Black Forest of Germany and flows south-east for about 2,850 kilometres.",
  "{DANUBE}",
  "Ships have carried goods along the river since Roman times, and barges still carry grain, ore and timber between its ports.",
  "The Danube Delta is a wetland of reeds and lakes that shelters more than three hundred species of birds."
];
const app = document.getElementById("app");
for (const text of paragraphs) {{
  const p = document.createElement("p");
  p.textContent = text;
  app.appendChild(p);
}}
</script></body></html>"#
    )
}

fn chromium() -> Option<PathBuf> {
    let configured = std::env::var_os("CITECHECK_CHROMIUM").map(PathBuf::from);
    let path = std::env::var_os("PATH");
    match citecheck_render::find_chromium(configured.as_deref(), path.as_deref()) {
        Ok(found) => Some(found),
        Err(err) if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") => {
            panic!("CI=true and no Chromium to test --render chromium with: {err}")
        }
        Err(err) => {
            eprintln!("skipping a --render chromium test: {err}");
            None
        }
    }
}

fn citecheck() -> Command {
    let mut cmd = Command::cargo_bin("citecheck").expect("binary built");
    cmd.env("CITECHECK_NO_AUDIT", "1")
        .env("CITECHECK_RANKER", "lexical")
        .env("CITECHECK_NO_ARCHIVE", "1")
        .env_remove("JUDGE_PROVIDER")
        .env_remove("OPENAI_API_KEY")
        .env_remove("CITECHECK_RENDER")
        .env_remove("CITECHECK_ALLOW_PRIVATE_HOSTS");
    cmd
}

fn verify(cmd: &mut Command, url: &str) -> serde_json::Value {
    let output = cmd
        .args([
            "--allow-host",
            "127.0.0.1",
            "verify",
            "--claim",
            DANUBE,
            url,
        ])
        .output()
        .expect("the binary runs");
    serde_json::from_slice(&output.stdout).unwrap_or_else(|err| {
        panic!(
            "stdout is not JSON ({err}); stderr: {}",
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

/// The script-built page served on loopback, with what keeps it up.
/// Fields drop in order: the server, then its runtime, then the page's directory.
struct ShellSite {
    site: StaticSite,
    _runtime: tokio::runtime::Runtime,
    _dir: tempfile::TempDir,
}

impl ShellSite {
    fn start() -> ShellSite {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("rivers.html"), shell_page()).expect("page written");
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("runtime");
        let site = runtime
            .block_on(StaticSite::serve(dir.path()))
            .expect("site");
        ShellSite {
            site,
            _runtime: runtime,
            _dir: dir,
        }
    }

    fn url(&self) -> String {
        format!("{}/rivers", self.site.base_url())
    }
}

#[test]
fn a_script_built_article_is_supported_only_with_the_local_renderer() {
    let Some(chromium) = chromium() else {
        return;
    };
    let served = ShellSite::start();
    let url = served.url();

    let plain = verify(&mut citecheck(), &url);
    assert_eq!(plain["citations"][0]["label"], "not_found", "{plain}");
    assert_eq!(
        plain["citations"][0]["reason"], "needs_javascript",
        "{plain}"
    );

    let rendered = verify(
        citecheck()
            .env("CITECHECK_RENDER", "chromium")
            .env("CITECHECK_CHROMIUM", &chromium),
        &url,
    );
    assert_eq!(rendered["overall"], "supported", "{rendered}");
    assert_eq!(
        rendered["citations"][0]["evidence_quote"], DANUBE,
        "{rendered}"
    );
}

#[test]
fn a_run_with_the_renderer_leaves_no_browser_profile_behind() {
    let Some(chromium) = chromium() else {
        return;
    };
    let served = ShellSite::start();
    // The profile goes under the system temporary directory, which TMPDIR names.
    let tmp = tempfile::tempdir().expect("temp dir");

    let rendered = verify(
        citecheck()
            .env("CITECHECK_RENDER", "chromium")
            .env("CITECHECK_CHROMIUM", &chromium)
            .env("TMPDIR", tmp.path()),
        &served.url(),
    );
    assert_eq!(rendered["overall"], "supported", "{rendered}");
    let profiles: Vec<_> = std::fs::read_dir(tmp.path())
        .expect("temp dir readable")
        .map(|entry| entry.expect("entry").file_name())
        .filter(|name| name.to_string_lossy().starts_with("citecheck-chromium-"))
        .collect();
    assert!(profiles.is_empty(), "left behind: {profiles:?}");
}

#[test]
fn a_wrong_chromium_path_is_a_configuration_error_naming_both_settings() {
    citecheck()
        .args([
            "--render",
            "chromium",
            "--chromium",
            "/nonexistent/chromium",
            "verify",
            "--claim",
            DANUBE,
            "http://127.0.0.1:9/rivers",
        ])
        .assert()
        .code(3)
        .stderr(contains("/nonexistent/chromium"))
        .stderr(contains("--chromium"))
        .stderr(contains("CITECHECK_CHROMIUM"));
}

#[test]
fn an_unknown_renderer_is_a_configuration_error() {
    citecheck()
        .args([
            "--render",
            "firefox",
            "verify",
            "--claim",
            DANUBE,
            "http://127.0.0.1:9/",
        ])
        .assert()
        .code(3)
        .stderr(contains("--render"));
}
