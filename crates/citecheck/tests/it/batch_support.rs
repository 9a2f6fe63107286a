//! Shared pieces of the batch, audit and report tests: a scriptable fake fetcher that counts
//! fetches and concurrency per host, a verifier around it with the real ranker and local judge,
//! and a fixture site on 127.0.0.1 for the command-line tests.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use citecheck::batch::{execute, BatchJob, Summary as BatchSummary};
use citecheck_core::fetch::{FetchOutcome, Fetcher, Page, Rejection};
use citecheck_core::judge::LocalJudge;
use citecheck_core::rank::Bm25Ranker;
use citecheck_core::{Label, Reason, Verifier, VerifierBuilder};

pub const WATER: &str = "Water boils at 100 degrees Celsius at sea level.";
pub const EVEREST: &str = "Mount Everest is 8,849 metres tall.";

/// A page of prose around `sentence`, long enough to be judged.
pub fn article(sentence: &str) -> String {
    format!(
        "# Notes\n\nThis article collects a few facts that are often cited in reports and \
         classroom material, with their sources listed at the end.\n\n{sentence} The figure is \
         widely reproduced in textbooks.\n\nOther sections discuss unrelated matters such as \
         the history of measurement, the calibration of instruments and the work of the \
         committees that agree on standard units.\n"
    )
}

/// What the fake fetcher answers for a URL.
#[derive(Clone)]
pub enum Answer {
    Page(String),
    Status(u16),
    /// 503 the first `n` times, then the page.
    FailThenPage(usize, String),
    /// Never answers; `notify` fires when the fetch starts.
    Hang(Arc<tokio::sync::Notify>),
}

#[derive(Default)]
struct Counters {
    fetches: Vec<String>,
    in_flight: HashMap<String, usize>,
    max_in_flight: HashMap<String, usize>,
}

pub struct FakeFetcher {
    answers: Mutex<HashMap<String, Answer>>,
    counters: Mutex<Counters>,
    attempts: Mutex<HashMap<String, usize>>,
    delay: Duration,
    pub calls: AtomicUsize,
}

impl FakeFetcher {
    pub fn new(answers: Vec<(&str, Answer)>) -> Arc<Self> {
        Arc::new(FakeFetcher {
            answers: Mutex::new(
                answers
                    .into_iter()
                    .map(|(u, a)| (u.to_string(), a))
                    .collect(),
            ),
            counters: Mutex::new(Counters::default()),
            attempts: Mutex::new(HashMap::new()),
            delay: Duration::from_millis(5),
            calls: AtomicUsize::new(0),
        })
    }

    pub fn set(&self, url: &str, answer: Answer) {
        self.answers
            .lock()
            .expect("not poisoned")
            .insert(url.to_string(), answer);
    }

    /// Every URL fetched so far, in order.
    pub fn fetches(&self) -> Vec<String> {
        self.counters.lock().expect("not poisoned").fetches.clone()
    }

    pub fn fetch_count(&self, url: &str) -> usize {
        self.fetches().iter().filter(|u| u.as_str() == url).count()
    }

    pub fn clear_fetches(&self) {
        self.counters.lock().expect("not poisoned").fetches.clear();
    }

    /// Most fetches seen in flight at once for `host`.
    pub fn max_in_flight(&self, host: &str) -> usize {
        self.counters
            .lock()
            .expect("not poisoned")
            .max_in_flight
            .get(host)
            .copied()
            .unwrap_or(0)
    }
}

fn host_of(url: &str) -> String {
    url::Url::parse(url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_string))
        .unwrap_or_default()
}

#[async_trait]
impl Fetcher for FakeFetcher {
    fn name(&self) -> &str {
        "fake"
    }

    async fn fetch(&self, url: &str) -> FetchOutcome {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let host = host_of(url);
        {
            let mut c = self.counters.lock().expect("not poisoned");
            c.fetches.push(url.to_string());
            let n = c.in_flight.entry(host.clone()).or_default();
            *n += 1;
            let now = *n;
            let max = c.max_in_flight.entry(host.clone()).or_default();
            *max = (*max).max(now);
        }
        let answer = self
            .answers
            .lock()
            .expect("not poisoned")
            .get(url)
            .cloned()
            .unwrap_or(Answer::Status(404));
        let attempt = {
            let mut attempts = self.attempts.lock().expect("not poisoned");
            let n = attempts.entry(url.to_string()).or_default();
            *n += 1;
            *n
        };
        // Long enough for fetches of concurrent claims to overlap.
        tokio::time::sleep(self.delay).await;
        let outcome = match answer {
            Answer::Hang(notify) => {
                notify.notify_one();
                std::future::pending::<FetchOutcome>().await
            }
            Answer::Page(markdown) => page(url, markdown),
            Answer::FailThenPage(failures, markdown) if attempt > failures => page(url, markdown),
            Answer::FailThenPage(..) => rejected(url, 503),
            Answer::Status(status) => rejected(url, status),
        };
        let mut c = self.counters.lock().expect("not poisoned");
        if let Some(n) = c.in_flight.get_mut(&host) {
            *n -= 1;
        }
        outcome
    }
}

fn page(url: &str, markdown: String) -> FetchOutcome {
    FetchOutcome::Page(Page {
        final_url: url.to_string(),
        original_status: 200,
        markdown,
        rid: None,
        paywalled: false,
        cost: None,
    })
}

fn rejected(url: &str, status: u16) -> FetchOutcome {
    FetchOutcome::Rejected(
        Rejection::new(Label::Unreachable, Reason::Http(status)).at(url, Some(status)),
    )
}

/// The real pipeline (BM25, local judge) over `fetcher`, ready to build.
pub fn verifier(fetcher: Arc<FakeFetcher>) -> VerifierBuilder {
    Verifier::builder(
        fetcher,
        Arc::new(Bm25Ranker),
        Arc::new(LocalJudge::default()),
    )
}

/// A job reading `input` and writing `dir/results.jsonl` and `dir/report.csv`.
pub fn job(input: &Path, dir: &Path) -> BatchJob {
    BatchJob {
        input: input.to_path_buf(),
        csv: Some(dir.join("report.csv")),
        jsonl: Some(dir.join("results.jsonl")),
        html: None,
        resume: false,
        retry_failed: false,
        force: false,
        concurrency: 4,
        per_host: 2,
        cache_pages: 64,
        quiet: true,
        run_id: "test-run".to_string(),
    }
}

/// Writes `lines` as a JSONL file in `dir`.
pub fn write_input(dir: &Path, name: &str, lines: &[String]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, lines.join("\n") + "\n").expect("input written");
    path
}

pub fn record(id: &str, claim: &str, urls: &[&str]) -> String {
    serde_json::json!({"id": id, "claim": claim, "urls": urls}).to_string()
}

/// The ids in a results JSONL file, in file order.
pub fn result_ids(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .expect("results readable")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).expect("a JSON line")["id"]
                .as_str()
                .expect("an id")
                .to_string()
        })
        .collect()
}

/// The page most batch tests cite: the water article.
pub const WATER_URL: &str = "https://a.example/w";

/// A fetcher that serves only [`WATER_URL`].
pub fn water_fetcher() -> Arc<FakeFetcher> {
    FakeFetcher::new(vec![(WATER_URL, Answer::Page(article(WATER)))])
}

/// A run's input: `in.jsonl` in a fresh temp dir, where the run's outputs go too.
pub struct Input {
    dir: tempfile::TempDir,
    pub path: PathBuf,
}

impl Input {
    pub fn write(lines: &[String]) -> Input {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = write_input(dir.path(), "in.jsonl", lines);
        Input { dir, path }
    }

    /// Replaces the input's lines.
    pub fn rewrite(&self, lines: &[String]) {
        write_input(self.dir.path(), "in.jsonl", lines);
    }

    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// [`job`] on this input, writing beside it.
    pub fn job(&self) -> BatchJob {
        job(&self.path, self.dir.path())
    }
}

/// Runs `job` to its end (never interrupted) over `fetcher`, which the test keeps to inspect.
pub async fn run_to_end(job: &BatchJob, fetcher: &Arc<FakeFetcher>) -> BatchSummary {
    execute(job, verifier(Arc::clone(fetcher)), never())
        .await
        .expect("the run finishes")
}

/// Runs `job` over `fetcher` until `interrupt` is notified (a Ctrl-C).
pub async fn run_until_notified(
    job: &BatchJob,
    fetcher: &Arc<FakeFetcher>,
    interrupt: &Arc<tokio::sync::Notify>,
) -> BatchSummary {
    let interrupt = Arc::clone(interrupt);
    execute(job, verifier(Arc::clone(fetcher)), async move {
        interrupt.notified().await
    })
    .await
    .expect("stops cleanly")
}

/// The built binary with `args`, in `dir` ([`citecheck`]), run off the async runtime.
pub async fn run_binary(dir: &Path, args: Vec<std::ffi::OsString>) -> std::process::Output {
    let dir = dir.to_path_buf();
    tokio::task::spawn_blocking(move || citecheck(&dir).args(args).output().expect("runs"))
        .await
        .expect("joined")
}

/// Never resolves: a run that is not interrupted.
pub async fn never() {
    std::future::pending::<()>().await
}

/// The reference fixture's shape, served on 127.0.0.1: nine citations, two supported, three
/// unreachable (404, 404, 410), the others read but not supporting their claims.
pub struct SampleSite {
    pub site: citecheck::static_site::StaticSite,
    pub dir: tempfile::TempDir,
    pub input: PathBuf,
}

impl SampleSite {
    pub async fn start() -> SampleSite {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path().join("site");
        std::fs::create_dir_all(&root).expect("site dir");
        let html = |title: &str, body: &str| {
            format!(
                "<!DOCTYPE html><html><head><title>{title}</title></head><body><nav><a href=\"/\">Home</a></nav>\
                 <main><article><h1>{title}</h1>{}</article></main><footer>Footer text</footer></body></html>",
                article(body)
                    .split("\n\n")
                    .skip(1)
                    .map(|p| format!("<p>{p}</p>"))
                    .collect::<String>()
            )
        };
        std::fs::write(root.join("water.html"), html("Boiling water", WATER)).expect("page");
        std::fs::write(root.join("everest.html"), html("Mountains", EVEREST)).expect("page");
        std::fs::write(
            root.join("routes.json"),
            r#"{"routes": {"/gone": {"status": 410}}}"#,
        )
        .expect("routes");
        let site = citecheck::static_site::StaticSite::serve(&root)
            .await
            .expect("site starts");
        let base = site.base_url();
        let base = base.trim_end_matches('/');
        let u = |path: &str| format!("{base}{path}");
        let lines = vec![
            record("1", WATER, &[&u("/water"), &u("/missing")]),
            record("2", EVEREST, &[&u("/everest"), &u("/gone")]),
            record(
                "3",
                "Water boils at 50 degrees Celsius at sea level.",
                &[&u("/water")],
            ),
            "{this line is not JSON".to_string(),
            record(
                "4",
                "The Moon is made of cheese.",
                &[&u("/water"), &u("/everest")],
            ),
            record(
                "5",
                "Glaciers cover Greenland.",
                &[&u("/also-missing"), &u("/everest")],
            ),
            record("2", "A duplicate id.", &[&u("/water")]),
            record("6", "An ftp citation.", &["ftp://files.example/x"]),
        ];
        let input = write_input(dir.path(), "input.jsonl", &lines);
        SampleSite { site, dir, input }
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
}

/// The built binary, with its stores in `dir` and nothing read from the user's environment.
pub fn citecheck(dir: &Path) -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("citecheck").expect("binary built");
    cmd.env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", dir)
        .env("CITECHECK_AUDIT_DB", dir.join("audit.sqlite3"))
        .env("CITECHECK_EVIDENCE_DIR", dir.join("evidence"))
        .env("CITECHECK_ALLOW_PRIVATE_HOSTS", "1")
        .env("NO_COLOR", "1");
    cmd
}
