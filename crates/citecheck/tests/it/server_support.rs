//! Shared pieces of the HTTP service tests: fake fetcher and judge, a gate that holds fetches
//! in flight until the test releases them, state builders and request helpers.

use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use axum::body::Body;
use axum::http::{header, HeaderMap, Request, StatusCode};
use axum::Router;
use citecheck::server::{self, AppState, Limits, ServerConfig, Unavailable};
use citecheck_core::fetch::{FetchOutcome, Page, Rejection};
use citecheck_core::judge::{JudgeError, JudgeLabel, Judgement};
use citecheck_core::rank::Bm25Ranker;
use citecheck_core::{
    Fetcher, Judge, JudgeInfo, Label, Reason, TokenUsage, Verifier, VerifierBuilder,
};
use futures::future::BoxFuture;
use tokio::sync::{mpsc, Semaphore};
use tower::ServiceExt;

pub const WATER: &str = "Water boils at 100 degrees Celsius at sea level.";
pub const WATER_URL: &str = "https://science.example/water";
pub const GONE_URL: &str = "https://science.example/gone";

/// Holds every fetch until released, and reports each fetch as it starts.
pub struct Gate {
    release: Semaphore,
    started: mpsc::UnboundedSender<String>,
}

impl Gate {
    /// A closed gate and the receiver of "fetch started" notices.
    pub fn new() -> (Arc<Gate>, mpsc::UnboundedReceiver<String>) {
        let (started, notices) = mpsc::unbounded_channel();
        (
            Arc::new(Gate {
                release: Semaphore::new(0),
                started,
            }),
            notices,
        )
    }

    /// Lets `n` held fetches through.
    pub fn release(&self, n: usize) {
        self.release.add_permits(n);
    }
}

/// Serves fixed pages by URL; any other URL is a 404. Optionally waits at a [`Gate`].
pub struct FakeFetcher {
    pages: HashMap<String, String>,
    gate: Option<Arc<Gate>>,
}

impl FakeFetcher {
    pub fn new(pages: &[(&str, &str)]) -> Self {
        FakeFetcher {
            pages: pages
                .iter()
                .map(|(url, text)| (url.to_string(), text.to_string()))
                .collect(),
            gate: None,
        }
    }

    pub fn gated(mut self, gate: Arc<Gate>) -> Self {
        self.gate = Some(gate);
        self
    }
}

#[async_trait]
impl Fetcher for FakeFetcher {
    fn name(&self) -> &str {
        "fake"
    }

    async fn fetch(&self, url: &str) -> FetchOutcome {
        if let Some(gate) = &self.gate {
            let _ = gate.started.send(url.to_string());
            if let Ok(permit) = gate.release.acquire().await {
                permit.forget();
            }
        }
        match self.pages.get(url) {
            Some(markdown) => FetchOutcome::Page(Page {
                final_url: url.to_string(),
                original_status: 200,
                markdown: markdown.clone(),
                rid: Some(format!("rid-{}", url.len())),
                paywalled: false,
                cost: None,
            }),
            None => FetchOutcome::Rejected(
                Rejection::new(Label::Unreachable, Reason::Http(404)).at(url, Some(404)),
            ),
        }
    }
}

/// Supports a claim that a passage states verbatim, quoting it; otherwise finds nothing.
pub struct EchoJudge;

#[async_trait]
impl Judge for EchoJudge {
    fn info(&self) -> JudgeInfo {
        JudgeInfo {
            provider: "echo".into(),
            model: "verbatim".into(),
            prompt_version: "test".into(),
        }
    }

    async fn judge(&self, claim: &str, passages: &[String]) -> Result<Judgement, JudgeError> {
        let found = passages.iter().any(|p| p.contains(claim));
        Ok(Judgement {
            label: if found {
                JudgeLabel::Supported
            } else {
                JudgeLabel::NotFound
            },
            evidence_quote: found.then(|| claim.to_string()),
            confidence: if found { 0.9 } else { 0.0 },
            usage: Some(TokenUsage {
                input_tokens: 50,
                output_tokens: 5,
            }),
            detail: None,
        })
    }
}

pub fn verifier_with(fetcher: FakeFetcher) -> VerifierBuilder {
    Verifier::builder(Arc::new(fetcher), Arc::new(Bm25Ranker), Arc::new(EchoJudge))
}

/// The water page and a 404, no gate.
pub fn water_fetcher() -> FakeFetcher {
    FakeFetcher::new(&[(
        WATER_URL,
        &format!("# Boiling\n\n{WATER} Higher up it boils at lower temperatures."),
    )])
}

pub fn config_with(limits: Limits) -> ServerConfig {
    ServerConfig {
        limits,
        ..ServerConfig::default()
    }
}

pub fn state(fetcher: FakeFetcher, config: &ServerConfig) -> AppState {
    AppState::new(Ok(verifier_with(fetcher)), config).expect("state")
}

pub fn app(fetcher: FakeFetcher, config: &ServerConfig) -> Router {
    server::router(state(fetcher, config))
}

pub fn unavailable_app(config: &ServerConfig) -> Router {
    let missing = Unavailable::missing("the openai judge", "OPENAI_API_KEY");
    server::router(AppState::new(Err(missing), config).expect("state"))
}

/// A JSON POST to /verify.
pub fn post_json(body: impl Into<Body>) -> Request<Body> {
    Request::post("/verify")
        .header(header::CONTENT_TYPE, "application/json")
        .body(body.into())
        .expect("request")
}

pub fn verify_body(claim: &str, urls: &[&str]) -> String {
    serde_json::json!({ "claim": claim, "urls": urls }).to_string()
}

/// Sends one request through the router; the body parsed as JSON (Null when it is not JSON).
pub async fn send(
    app: &Router,
    request: Request<Body>,
) -> (StatusCode, HeaderMap, serde_json::Value) {
    let response = app.clone().oneshot(request).await.expect("infallible");
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 22)
        .await
        .expect("body");
    let json = serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null);
    (status, headers, json)
}

/// Asserts the error shape and returns `(code, message)`.
pub fn error_of(body: &serde_json::Value) -> (String, String) {
    let error = body
        .get("error")
        .unwrap_or_else(|| panic!("an error body, got {body}"));
    let code = error["code"]
        .as_str()
        .expect("code is a string")
        .to_string();
    let message = error["message"]
        .as_str()
        .expect("message is a string")
        .to_string();
    assert!(!code.is_empty() && !message.is_empty(), "{body}");
    (code, message)
}

/// A real server on 127.0.0.1 at a free port, stopped by sending on `stop`.
pub struct LiveServer {
    pub addr: std::net::SocketAddr,
    pub base: String,
    pub stop: Option<tokio::sync::oneshot::Sender<()>>,
    pub done: tokio::task::JoinHandle<std::io::Result<server::Drained>>,
}

impl LiveServer {
    pub async fn start(app: Router, grace: std::time::Duration) -> LiveServer {
        LiveServer::start_recording(app, grace, None).await
    }

    /// [`LiveServer::start`], finishing `writer` within the grace period at shutdown.
    pub async fn start_recording(
        app: Router,
        grace: std::time::Duration,
        writer: Option<server::audit_writer::AuditWriter>,
    ) -> LiveServer {
        LiveServer::spawn(|listener, stopped| {
            server::serve_recording(listener, app, stopped, grace, writer)
        })
        .await
    }

    /// [`LiveServer::start`] with these connection limits instead of the defaults.
    pub async fn start_with_limits(
        app: Router,
        limits: server::connections::ConnectionLimits,
        grace: std::time::Duration,
    ) -> LiveServer {
        LiveServer::spawn(|listener, stopped| {
            server::connections::serve(listener, app, limits, stopped, grace)
        })
        .await
    }

    /// Binds a free port on 127.0.0.1 and serves on it what `serve` makes of the listener and
    /// the shutdown signal.
    async fn spawn<S, F>(serve: S) -> LiveServer
    where
        S: FnOnce(tokio::net::TcpListener, BoxFuture<'static, ()>) -> F,
        F: std::future::Future<Output = std::io::Result<server::Drained>> + Send + 'static,
    {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let stopped: BoxFuture<'static, ()> = Box::pin(async move {
            let _ = stopped.await;
        });
        let done = tokio::spawn(serve(listener, stopped));
        LiveServer {
            addr,
            base: format!("http://{addr}"),
            stop: Some(stop),
            done,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Starts a graceful shutdown.
    pub fn shut_down(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("client")
}
