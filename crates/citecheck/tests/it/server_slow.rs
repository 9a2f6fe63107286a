//! Slow and half-open clients against a live server on 127.0.0.1 (issue 11): the connection
//! limits close them, and the server keeps answering others. Every wait here is bounded.

use std::time::Duration;

use axum::body::Bytes;
use axum::routing::{get, post};
use axum::Router;
use citecheck::server::connections::ConnectionLimits;
use citecheck::server::Drained;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::server_support::LiveServer;

const WAIT: Duration = Duration::from_secs(10);

fn limits() -> ConnectionLimits {
    ConnectionLimits {
        header_read_timeout: Duration::from_millis(400),
        body_read_timeout: Duration::from_millis(800),
        max_connections: 4,
        max_connection_age: Duration::from_secs(60),
    }
}

/// A server with a health route and an echo route, under `limits`.
async fn start(limits: ConnectionLimits) -> LiveServer {
    let app = Router::new()
        .route("/health", get(|| async { "ok" }))
        .route("/echo", post(|body: Bytes| async move { body }));
    LiveServer::start_with_limits(app, limits, Duration::from_secs(1)).await
}

/// Connects to `live` and sends `bytes`, which need not be a whole request.
async fn send(live: &LiveServer, bytes: &[u8]) -> TcpStream {
    let mut stream = TcpStream::connect(live.addr).await.expect("connect");
    stream.write_all(bytes).await.expect("write");
    stream
}

/// Reads until the server closes the connection (or WAIT passes); returns what it sent.
async fn read_to_close(stream: &mut TcpStream) -> Option<Vec<u8>> {
    let mut got = Vec::new();
    let read = tokio::time::timeout(WAIT, stream.read_to_end(&mut got)).await;
    match read {
        Ok(_) => Some(got),
        Err(_) => None,
    }
}

#[tokio::test]
async fn a_client_that_never_finishes_its_headers_is_disconnected() {
    let live = start(limits()).await;
    let mut stream = send(&live, b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ").await;
    let got = read_to_close(&mut stream).await;
    assert!(got.is_some(), "the half-sent request was held open");
}

#[tokio::test]
async fn an_idle_keep_alive_connection_is_closed() {
    let live = start(limits()).await;
    let mut stream = send(&live, b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n").await;
    let got = read_to_close(&mut stream).await.expect("closed when idle");
    let text = String::from_utf8_lossy(&got);
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
}

#[tokio::test]
async fn a_body_sent_a_byte_at_a_time_is_cut_off_at_the_body_timeout() {
    let live = start(limits()).await;
    let mut stream = send(
        &live,
        b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n",
    )
    .await;
    let trickle = async {
        // Each byte well within any per-read timeout; the whole far past the body's.
        for _ in 0..100 {
            if stream.write_all(b"x").await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    };
    let _ = tokio::time::timeout(Duration::from_millis(1_500), trickle).await;
    let got = read_to_close(&mut stream)
        .await
        .expect("the server gave up");
    let text = String::from_utf8_lossy(&got);
    assert!(
        !text.contains("200 OK"),
        "the trickled body was accepted: {text}"
    );
}

#[tokio::test]
async fn half_open_connections_past_the_maximum_do_not_starve_health() {
    let live = start(limits()).await;
    let mut idle = Vec::new();
    for _ in 0..20 {
        idle.push(TcpStream::connect(live.addr).await.expect("connect"));
    }
    // The half-open connections hold every slot until the header timeout frees them.
    let health = async {
        let mut stream = send(
            &live,
            b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        )
        .await;
        read_to_close(&mut stream).await
    };
    let got = health.await.expect("health answered");
    assert!(String::from_utf8_lossy(&got).starts_with("HTTP/1.1 200"));
}

#[tokio::test]
async fn http2_prior_knowledge_is_not_spoken() {
    let live = start(limits()).await;
    let mut stream = send(&live, b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n").await;
    let got = read_to_close(&mut stream).await.expect("closed");
    // An HTTP/2 server would answer with a SETTINGS frame (type 0x4 in the fourth byte).
    assert!(
        got.is_empty() || got.starts_with(b"HTTP/1.1 4"),
        "{:?}",
        String::from_utf8_lossy(&got)
    );
}

#[tokio::test]
async fn shutdown_closes_idle_connections_and_reports_everything_drained() {
    let mut live = start(limits()).await;
    let mut stream = send(&live, b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n").await;
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).await.expect("an answer");
    live.shut_down();
    let drained = tokio::time::timeout(WAIT, live.done)
        .await
        .expect("stopped in time")
        .expect("joins")
        .expect("served");
    assert_eq!(drained, Drained::All);
}
