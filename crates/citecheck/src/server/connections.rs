//! Accepting connections with bounds a slow or hostile client cannot stretch.
//!
//! Takes a listener and the router; serves HTTP/1.1 only (HTTP/2, cleartext or not, is not
//! spoken: a client that tries gets a connection error) until shutdown. Guarantees:
//! - at most `max_connections` connections are open at once; past that the listener is not
//!   polled, so new clients wait in the kernel's backlog instead of costing descriptors;
//! - a request's head must arrive within `header_read_timeout`, which also closes a keep-alive
//!   connection idle for that long (hyper starts the same timer while it waits for a next head);
//! - a request body must arrive whole within `body_read_timeout`, however it trickles;
//! - a connection, busy or idle, is closed after `max_connection_age`;
//! - on shutdown, open connections finish their request in flight and close; whatever is left
//!   after the grace period is dropped.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes, HttpBody};
use axum::http::Request;
use axum::Router;
use hyper::body::{Frame, Incoming};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};
use tokio::time::Sleep;

use super::Drained;

pub const DEFAULT_HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
pub const DEFAULT_BODY_READ_TIMEOUT: Duration = Duration::from_secs(30);
pub const DEFAULT_MAX_CONNECTIONS: usize = 512;
/// Long enough for the slowest verification the request deadline allows, with room to spare.
pub const DEFAULT_MAX_CONNECTION_AGE: Duration = Duration::from_secs(600);

/// Bounds on every connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectionLimits {
    pub header_read_timeout: Duration,
    pub body_read_timeout: Duration,
    pub max_connections: usize,
    pub max_connection_age: Duration,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        ConnectionLimits {
            header_read_timeout: DEFAULT_HEADER_READ_TIMEOUT,
            body_read_timeout: DEFAULT_BODY_READ_TIMEOUT,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_connection_age: DEFAULT_MAX_CONNECTION_AGE,
        }
    }
}

/// Serves `app` on `listener` within `limits` until `shutdown` completes, then stops accepting
/// and gives open connections up to `grace` to finish. Returns whether they all did.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
    grace: Duration,
) -> std::io::Result<Drained> {
    let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let (stopping_tx, stopping) = watch::channel(false);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let slot = tokio::select! {
            () = &mut shutdown => break,
            slot = Arc::clone(&slots).acquire_owned() => match slot {
                Ok(slot) => slot,
                Err(_) => break,
            },
        };
        let (stream, peer) = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    // Out of descriptors, or a connection reset before it was accepted: keep
                    // serving the others, after a pause so an exhausted table can recover.
                    tracing::warn!(error = %err, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let app = app.clone();
        let stopping = stopping.clone();
        tokio::spawn(async move {
            let _slot = slot;
            serve_connection(stream, app, limits, stopping).await;
            tracing::trace!(%peer, "connection closed");
        });
    }
    drop(listener);
    tracing::info!(
        grace_secs = grace.as_secs_f64(),
        "shutting down: no new connections, waiting for requests in flight"
    );
    let _ = stopping_tx.send(true);
    let everyone = limits.max_connections.max(1) as u32;
    let drained = tokio::time::timeout(grace, slots.acquire_many(everyone)).await;
    match drained {
        Ok(_) => Ok(Drained::All),
        Err(_) => {
            tracing::warn!(
                grace_secs = grace.as_secs_f64(),
                "requests still in flight after the grace period were abandoned"
            );
            Ok(Drained::GraceElapsed)
        }
    }
}

async fn serve_connection(
    stream: tokio::net::TcpStream,
    app: Router,
    limits: ConnectionLimits,
    mut stopping: watch::Receiver<bool>,
) {
    let body_timeout = limits.body_read_timeout;
    let service = tower::ServiceBuilder::new()
        .map_request(move |request: Request<Incoming>| {
            request.map(|body| Body::new(DeadlineBody::new(body, body_timeout)))
        })
        .service(app);
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .keep_alive(true);
    let connection =
        builder.serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
    let mut connection = std::pin::pin!(connection);
    let age = tokio::time::sleep(limits.max_connection_age);
    tokio::pin!(age);
    let outcome = tokio::select! {
        outcome = connection.as_mut() => outcome,
        _ = async { stopping.wait_for(|stop| *stop).await.is_ok() } => {
            connection.as_mut().graceful_shutdown();
            connection.as_mut().await
        }
        () = &mut age => {
            tracing::debug!("closing a connection past its maximum age");
            return;
        }
    };
    if let Err(err) = outcome {
        tracing::debug!(error = %err, "connection ended with an error");
    }
}

/// The error a body that outlived its deadline ends with.
#[derive(Debug, thiserror::Error)]
#[error("the request body did not arrive within {}s", .0.as_secs())]
pub struct BodyTimeout(Duration);

/// A request body that fails once its whole-body deadline passes.
struct DeadlineBody {
    inner: Incoming,
    deadline: Pin<Box<Sleep>>,
    timeout: Duration,
}

impl DeadlineBody {
    fn new(inner: Incoming, timeout: Duration) -> DeadlineBody {
        DeadlineBody {
            inner,
            deadline: Box::pin(tokio::time::sleep(timeout)),
            timeout,
        }
    }
}

impl HttpBody for DeadlineBody {
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        if let Poll::Ready(frame) = Pin::new(&mut self.inner).poll_frame(cx) {
            return Poll::Ready(frame.map(|frame| frame.map_err(Into::into)));
        }
        if self.deadline.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Some(Err(Box::new(BodyTimeout(self.timeout)))));
        }
        Poll::Pending
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.inner.size_hint()
    }
}
