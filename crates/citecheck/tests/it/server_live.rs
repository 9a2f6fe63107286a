//! The HTTP service as a real server on 127.0.0.1 with a real HTTP client: authentication, the
//! 503 for a missing key, the concurrency limit with requests really in flight, graceful
//! shutdown, and end-to-end verification against a fixture site.

use std::path::PathBuf;
use std::time::Duration;

use citecheck::cli::Cli;
use citecheck::config::{FileConfig, Settings};
use citecheck::server::{self, AppState, Drained, Limits, ServerConfig};
use citecheck::static_site::StaticSite;
use clap::Parser;
use reqwest::StatusCode;

use crate::server_support::*;

const GRACE: Duration = Duration::from_secs(30);

/// The server's `/health` document.
async fn health(server: &LiveServer) -> serde_json::Value {
    client()
        .get(server.url("/health"))
        .send()
        .await
        .expect("answers")
        .json()
        .await
        .expect("json")
}

async fn post(server: &LiveServer, body: String, key: Option<&str>) -> reqwest::Response {
    let mut request = client()
        .post(server.url("/verify"))
        .header("content-type", "application/json")
        .body(body);
    if let Some(key) = key {
        request = request.bearer_auth(key);
    }
    request.send().await.expect("the server answers")
}

#[tokio::test]
async fn without_keys_anyone_may_verify_and_with_keys_only_holders_may() {
    let open = LiveServer::start(app(water_fetcher(), &ServerConfig::default()), GRACE).await;
    let response = post(&open, verify_body(WATER, &[WATER_URL]), None).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers().contains_key("x-request-id"));

    let config = ServerConfig {
        api_keys: server::auth::ApiKeys::from_list(["team-key"]),
        ..ServerConfig::default()
    };
    let guarded = LiveServer::start(app(water_fetcher(), &config), GRACE).await;
    let refused = post(&guarded, verify_body(WATER, &[WATER_URL]), None).await;
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    let body: serde_json::Value = refused.json().await.expect("json");
    assert_eq!(error_of(&body).0, "unauthorized");
    let wrong = post(&guarded, verify_body(WATER, &[WATER_URL]), Some("team-kez")).await;
    assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
    let accepted = post(&guarded, verify_body(WATER, &[WATER_URL]), Some("team-key")).await;
    assert_eq!(accepted.status(), StatusCode::OK);
    let health = client()
        .get(guarded.url("/health"))
        .send()
        .await
        .expect("answers");
    assert_eq!(health.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_missing_key_is_a_503_naming_the_variable_never_its_value() {
    let server = LiveServer::start(unavailable_app(&ServerConfig::default()), GRACE).await;
    let response = post(&server, verify_body(WATER, &[WATER_URL]), None).await;
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body: serde_json::Value = response.json().await.expect("json");
    let (code, message) = error_of(&body);
    assert_eq!(code, "not_configured");
    assert!(message.contains("OPENAI_API_KEY"), "{message}");
}

#[tokio::test]
async fn requests_past_the_limit_are_refused_while_the_others_finish() {
    let (gate, mut started) = Gate::new();
    let config = config_with(Limits {
        max_concurrent: 2,
        ..Limits::default()
    });
    let server = LiveServer::start(app(water_fetcher().gated(gate.clone()), &config), GRACE).await;
    let mut running = Vec::new();
    for _ in 0..2 {
        let base = server.base.clone();
        running.push(tokio::spawn(async move {
            client()
                .post(format!("{base}/verify"))
                .json(&serde_json::json!({"claim": WATER, "urls": [WATER_URL]}))
                .send()
                .await
                .expect("answers")
        }));
    }
    for _ in 0..2 {
        started.recv().await.expect("a verification is fetching");
    }

    for _ in 0..3 {
        let refused = post(&server, verify_body(WATER, &[WATER_URL]), None).await;
        assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
        assert!(refused.headers().contains_key("retry-after"));
    }
    let health = health(&server).await;
    assert_eq!(health["verifications"]["in_flight"], 2);

    gate.release(2);
    for handle in running {
        let response = handle.await.expect("joins");
        assert_eq!(response.status(), StatusCode::OK);
    }
    let after = post(&server, verify_body(WATER, &[GONE_URL]), None);
    gate.release(1);
    assert_eq!(after.await.status(), StatusCode::OK);
}

#[tokio::test]
async fn shutdown_lets_the_request_in_flight_finish() {
    let (gate, mut started) = Gate::new();
    let mut server = LiveServer::start(
        app(
            water_fetcher().gated(gate.clone()),
            &ServerConfig::default(),
        ),
        GRACE,
    )
    .await;
    let in_flight = tokio::spawn({
        let url = server.url("/verify");
        async move {
            client()
                .post(url)
                .json(&serde_json::json!({"claim": WATER, "urls": [WATER_URL]}))
                .send()
                .await
                .expect("answers")
        }
    });
    started.recv().await.expect("the verification is fetching");

    server.shut_down();
    gate.release(1);
    let response = in_flight.await.expect("joins");
    assert_eq!(response.status(), StatusCode::OK);
    let body: serde_json::Value = response.json().await.expect("json");
    assert_eq!(body["overall"], "supported");

    let health = server.url("/health");
    let drained = server.done.await.expect("joins").expect("served");
    assert_eq!(drained, Drained::All);
    assert!(
        client().get(health).send().await.is_err(),
        "a stopped server accepts no connection"
    );
}

#[tokio::test]
async fn shutdown_gives_up_on_requests_that_outlast_the_grace_period() {
    let (gate, mut started) = Gate::new();
    let mut server = LiveServer::start(
        app(water_fetcher().gated(gate), &ServerConfig::default()),
        Duration::from_millis(100),
    )
    .await;
    let stuck = tokio::spawn({
        let url = server.url("/verify");
        async move {
            client()
                .post(url)
                .json(&serde_json::json!({"claim": WATER, "urls": [WATER_URL]}))
                .send()
                .await
        }
    });
    started.recv().await.expect("the verification is fetching");
    server.shut_down();
    let drained = server.done.await.expect("joins").expect("served");
    assert_eq!(drained, Drained::GraceElapsed);
    stuck.abort();
}

/// Settings as `citecheck [flags] serve` would resolve them.
fn settings(flags: &[&str]) -> Settings {
    let mut argv = vec!["citecheck"];
    argv.extend_from_slice(flags);
    argv.push("serve");
    let cli = Cli::try_parse_from(argv).expect("parses");
    Settings::merge(&cli.global, &FileConfig::default()).expect("valid settings")
}

fn demo_site() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("demo")
}

async fn real_server(settings: &Settings) -> LiveServer {
    let builder = citecheck::engine::build(settings).expect("builds").builder;
    let config = ServerConfig {
        address_guard: settings.fetch.guard.enabled,
        ..ServerConfig::default()
    };
    let state = AppState::new(Ok(builder), &config).expect("state");
    LiveServer::start(server::router(state), GRACE).await
}

#[tokio::test]
async fn the_article_example_verifies_end_to_end_against_a_fixture_site() {
    let site = StaticSite::serve(&demo_site()).await.expect("site");
    let server = real_server(&settings(&["--allow-private-hosts=true"])).await;
    let article = format!("{}/articles/water-boiling-point", site.base_url());
    let gone = format!("{}/old-report", site.base_url());
    let response = post(&server, verify_body(WATER, &[&article, &gone]), None).await;
    assert_eq!(response.status(), StatusCode::OK);
    let body: serde_json::Value = response.json().await.expect("json");
    assert_eq!(body["claim"], WATER);
    assert_eq!(body["overall"], "supported", "{body}");
    assert_eq!(body["citations"][0]["label"], "supported");
    assert!(body["citations"][0]["evidence_quote"]
        .as_str()
        .is_some_and(|q| q.contains("100 degrees Celsius")));
    assert_eq!(body["citations"][0]["original_status"], 200);
    assert_eq!(body["citations"][1]["label"], "unreachable");
    assert_eq!(body["citations"][1]["reason"], "http_404");
}

#[tokio::test]
async fn the_address_guard_is_on_by_default_so_the_service_is_no_proxy_inward() {
    let site = StaticSite::serve(&demo_site()).await.expect("site");
    let defaults = settings(&[]);
    assert!(defaults.fetch.guard.enabled);
    let server = real_server(&defaults).await;
    let inward = format!("{}/articles/water-boiling-point", site.base_url());
    let response = post(&server, verify_body(WATER, &[&inward]), None).await;
    assert_eq!(response.status(), StatusCode::OK);
    let body: serde_json::Value = response.json().await.expect("json");
    assert_eq!(body["citations"][0]["reason"], "blocked_address", "{body}");
    let health = health(&server).await;
    assert_eq!(health["fetcher"]["address_guard"], true);
    assert_eq!(health["fetcher"]["name"], "direct");
}

/// The judge `/health` describes: with the embedding ranker the local judge reads meaning
/// from its model unless `--judge-reading words` says otherwise.
async fn judge_version(flags: &[&str]) -> String {
    let server = real_server(&settings(flags)).await;
    let health = health(&server).await;
    assert_eq!(health["ranker"]["name"], "embedding", "{health}");
    health["judge"]["prompt_version"]
        .as_str()
        .expect("a local judge describes its reading")
        .to_string()
}

#[tokio::test]
async fn the_judge_reading_setting_decides_whether_the_local_judge_reads_meaning() {
    let meaning = judge_version(&["--ranker", "embedding"]).await;
    assert!(meaning.ends_with("+meaning=all-MiniLM-L6-v2"), "{meaning}");
    let words = judge_version(&["--ranker", "embedding", "--judge-reading", "words"]).await;
    assert!(!words.contains("meaning"), "{words}");
    let explicit = judge_version(&["--ranker", "embedding", "--judge-reading", "Meaning"]).await;
    assert_eq!(explicit, meaning);
}
