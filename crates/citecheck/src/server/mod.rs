//! `citecheck serve`: the verifier as an HTTP service.
//!
//! | route | auth | answer |
//! |---|---|---|
//! | `GET /health` | open | version, fetcher, judge, ranker, audit store, work in flight |
//! | `POST /verify` | key if configured | `{claim, urls}` -> the same JSON as `citecheck verify`, with `audit_ids` |
//! | `GET /openapi.json` | open | the OpenAPI 3 document, generated from the code's types |
//! | `GET /metrics` | key if configured | Prometheus metrics (OpenMetrics text) |
//!
//! Every error is JSON `{"error": {"code", "message"}}` ([`error::ApiError`]). The work is bounded
//! ([`limits`]), the address guard stays on unless the operator turns it off, and SIGTERM/SIGINT
//! stop accepting connections and let requests in flight finish within a grace period.

use std::future::Future;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use anyhow::Context;
use axum::http::{header, HeaderName, HeaderValue, Method};
use axum::routing::{get, post};
use axum::Router;
use tokio::net::TcpListener;
use tower_http::cors::{AllowOrigin, CorsLayer};

use crate::config::Config;
use crate::engine;
use crate::error::AppError;
use crate::storage::Stores;

pub mod answer;
pub mod audit_writer;
pub mod auth;
pub mod config;
pub mod connections;
pub mod error;
pub mod extract;
pub mod field_error;
pub mod limits;
pub mod logging;
pub mod metrics;
pub mod observe;
pub mod openapi;
pub mod request;
pub mod routes;
pub mod state;

pub use config::{Limits, ServeArgs, ServerConfig};
pub use state::{AppState, AuditStatus, Unavailable};

/// How long browsers may cache a CORS preflight answer.
const CORS_MAX_AGE: Duration = Duration::from_secs(600);

/// The service's routes and middleware around `state`.
pub fn router(state: AppState) -> Router {
    router_with_cors(state, &[])
}

/// [`router`], with CORS for `origins` (none: CORS off; `*`: any origin).
pub fn router_with_cors(state: AppState, origins: &[String]) -> Router {
    let protected = Router::new()
        .route("/verify", post(routes::verify))
        .route("/verify-answer", post(answer::verify_answer_route))
        .route("/metrics", get(routes::metrics))
        .route_layer(axum::middleware::from_fn_with_state(
            state.clone(),
            auth::require_key,
        ));
    let mut app = Router::new()
        .route("/health", get(routes::health))
        .route("/openapi.json", get(routes::openapi_json))
        .merge(protected)
        .fallback(routes::no_route)
        .method_not_allowed_fallback(routes::method_not_allowed);
    if let Some(cors) = cors_layer(origins) {
        app = app.layer(cors);
    }
    app.layer(axum::middleware::from_fn_with_state(
        state.clone(),
        observe::observe,
    ))
    .with_state(state)
}

fn cors_layer(origins: &[String]) -> Option<CorsLayer> {
    if origins.is_empty() {
        return None;
    }
    let allow_origin = if origins.iter().any(|o| o == "*") {
        AllowOrigin::any()
    } else {
        AllowOrigin::list(origins.iter().filter_map(|o| HeaderValue::from_str(o).ok()))
    };
    Some(
        CorsLayer::new()
            .allow_origin(allow_origin)
            .allow_methods([Method::GET, Method::POST])
            .allow_headers([
                header::CONTENT_TYPE,
                header::AUTHORIZATION,
                HeaderName::from_static("x-request-id"),
            ])
            .expose_headers([observe::REQUEST_ID.clone(), header::RETRY_AFTER])
            .max_age(CORS_MAX_AGE),
    )
}

/// Serves `app` on `listener` until `shutdown` completes, then stops accepting connections and
/// gives requests in flight up to `grace` to finish. Returns whether they all did. Connections
/// are bounded by the default [`connections::ConnectionLimits`] (HTTP/1.1 only, header, body and
/// idle timeouts, a maximum number of connections).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
    grace: Duration,
) -> std::io::Result<Drained> {
    connections::serve(
        listener,
        app,
        connections::ConnectionLimits::default(),
        shutdown,
        grace,
    )
    .await
}

/// [`serve`], then [`AuditWriter::finish`](audit_writer::AuditWriter::finish) on `writer` with
/// what is left of `grace` after the requests in flight: the grace period covers both, counted
/// from when `shutdown` completes. The writer keeps writing while requests finish.
pub async fn serve_recording(
    listener: TcpListener,
    app: Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
    grace: Duration,
    writer: Option<audit_writer::AuditWriter>,
) -> std::io::Result<Drained> {
    let signalled = Arc::new(OnceLock::new());
    let mark = Arc::clone(&signalled);
    let shutdown = async move {
        shutdown.await;
        let _ = mark.set(Instant::now());
    };
    let drained = serve(listener, app, shutdown, grace).await?;
    if let Some(writer) = writer {
        let since = signalled.get().map_or(Duration::ZERO, Instant::elapsed);
        writer.finish(grace.saturating_sub(since)).await;
    }
    Ok(drained)
}

/// How a shutdown ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Drained {
    /// Every request in flight finished.
    All,
    /// The grace period ran out first.
    GraceElapsed,
}

/// Completes on SIGINT (Ctrl-C) or, on Unix, SIGTERM.
pub async fn shutdown_signal() {
    let interrupt = async {
        if let Err(err) = tokio::signal::ctrl_c().await {
            tracing::error!(error = %err, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut stream) => {
                stream.recv().await;
            }
            Err(err) => {
                tracing::error!(error = %err, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => tracing::info!("received SIGINT"),
        () = terminate => tracing::info!("received SIGTERM"),
    }
}

/// `citecheck serve`: merges its flags over `[server]`, builds the pipeline and serves until a
/// signal.
pub async fn run(args: &ServeArgs, config: &Config) -> Result<(), AppError> {
    let settings = &config.pipeline;
    let mut server = ServerConfig::resolve(args, &config.server, settings.fetch.guard.enabled)?;
    server.limits.answer = settings.answer;
    if !server.address_guard {
        tracing::warn!(
            "the address guard is off: this service will fetch loopback and private addresses \
             for anyone who can reach it"
        );
    }
    let engine = match engine::build_off_executor(settings).await {
        Ok(engine) => Ok(engine),
        Err(err) => match Unavailable::from_build_error(&err) {
            Some(unavailable) => {
                tracing::warn!(
                    variable = %unavailable.variable,
                    "{}; POST /verify answers 503 until it is set",
                    unavailable.message
                );
                Err(unavailable)
            }
            None => return Err(err),
        },
    };
    let stores = match config.store_paths() {
        Ok(paths) => Stores::open_off_executor(&paths).await,
        Err(err) => {
            tracing::warn!("served verdicts will not be recorded: {err}");
            Stores::none()
        }
    };
    // Verdicts go to the audit index through one writer task, off the requests' latency path.
    let metrics = Arc::new(metrics::Metrics::new());
    let (recorder, writer) = match stores.audit() {
        Some(audit) => {
            let (recorder, writer) =
                audit_writer::AuditWriter::spawn(audit.clone(), Arc::clone(&metrics)).await;
            (Some(recorder), Some(writer))
        }
        None => (None, None),
    };
    // Kept to stop the browser once the server has drained.
    let renderer = engine
        .as_ref()
        .ok()
        .and_then(|engine| engine.renderer.clone());
    let builder = engine.map(|engine| {
        let mut builder = stores.attach_pages(engine.builder);
        if let Some(recorder) = recorder {
            builder = builder.recorder(Arc::new(recorder));
        }
        builder
    });
    let state = AppState::with_metrics(builder, &server, metrics)?
        .with_audit_status(stores.status().clone())?;
    let app = router_with_cors(state, &server.cors_origins);
    let listener = TcpListener::bind(server.listen)
        .await
        .with_context(|| format!("cannot listen on {}", server.listen))?;
    let addr = listener
        .local_addr()
        .context("reading the listening address")?;
    tracing::info!(
        %addr,
        auth = !server.api_keys.is_empty(),
        cors = !server.cors_origins.is_empty(),
        max_concurrent = server.limits.max_concurrent,
        "listening"
    );
    let drained = serve_recording(
        listener,
        app,
        shutdown_signal(),
        server.shutdown_grace,
        writer,
    )
    .await;
    engine::shutdown(renderer.as_ref()).await;
    let drained = drained.context("serving HTTP")?;
    tracing::info!(?drained, "stopped");
    Ok(())
}
