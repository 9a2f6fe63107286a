//! A scripted mock of an LLM provider on 127.0.0.1, port 0: it answers each request with the
//! next scripted reply (the last one repeats) and records what it was sent, with a timestamp, so
//! that tests can assert the request's path, headers and body, count attempts and measure waits.

use std::collections::VecDeque;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::Response;
use axum::Router;
use serde_json::Value;

/// One reply of the script.
#[derive(Debug, Clone)]
pub struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
    delay: Duration,
}

impl Reply {
    pub fn json(status: u16, body: &Value) -> Self {
        Reply::raw(status, &body.to_string()).header("content-type", "application/json")
    }

    pub fn raw(status: u16, body: &str) -> Self {
        Reply {
            status,
            headers: Vec::new(),
            body: body.to_string(),
            delay: Duration::ZERO,
        }
    }

    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_string(), value.to_string()));
        self
    }

    /// Waits this long before answering (a slow model, for timeouts).
    pub fn delay(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }
}

/// A request the mock received.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: Method,
    pub path: String,
    pub headers: HeaderMap,
    pub body: Value,
    pub at: Instant,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

#[derive(Default)]
struct Shared {
    script: Mutex<VecDeque<Reply>>,
    last: Mutex<Option<Reply>>,
    requests: Mutex<Vec<Recorded>>,
    /// Plain-text pages served on GET, for end-to-end tests: (path, body).
    pages: Mutex<Vec<(String, String)>>,
}

/// A running mock; the server stops with the test's runtime.
pub struct Mock {
    addr: SocketAddr,
    shared: Arc<Shared>,
}

impl Mock {
    pub async fn start(script: Vec<Reply>) -> Mock {
        let shared = Arc::new(Shared {
            script: Mutex::new(script.into()),
            ..Shared::default()
        });
        let app = Router::new()
            .fallback(handle)
            .with_state(Arc::clone(&shared));
        let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .await
            .expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("local address");
        tokio::spawn(async move {
            axum::serve(listener, app).await.expect("mock server");
        });
        Mock { addr, shared }
    }

    /// `http://127.0.0.1:PORT`, without a trailing slash.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// `127.0.0.1:PORT`, the way `OLLAMA_HOST` is often written.
    pub fn host_port(&self) -> String {
        self.addr.to_string()
    }

    /// Serves `body` as text/plain on GET `path`.
    pub fn page(&self, path: &str, body: &str) {
        lock(&self.shared.pages).push((path.to_string(), body.to_string()));
    }

    /// The POST requests received so far, in order.
    pub fn requests(&self) -> Vec<Recorded> {
        lock(&self.shared.requests).clone()
    }

    pub fn hits(&self) -> usize {
        lock(&self.shared.requests).len()
    }

    /// The only request received; fails the test if there were more or none.
    pub fn only_request(&self) -> Recorded {
        let requests = self.requests();
        assert_eq!(requests.len(), 1, "expected exactly one request");
        requests.into_iter().next().expect("one request")
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

async fn handle(
    State(shared): State<Arc<Shared>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if method == Method::GET {
        let page = lock(&shared.pages)
            .iter()
            .find(|(path, _)| path == uri.path())
            .map(|(_, body)| body.clone());
        return match page {
            Some(text) => Response::builder()
                .header("content-type", "text/plain; charset=utf-8")
                .body(Body::from(text))
                .expect("page response"),
            None => Response::builder()
                .status(StatusCode::NOT_FOUND)
                .body(Body::empty())
                .expect("404 response"),
        };
    }
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    lock(&shared.requests).push(Recorded {
        method,
        path: uri.path().to_string(),
        headers,
        body,
        at: Instant::now(),
    });
    let reply = {
        let next = lock(&shared.script).pop_front();
        let mut last = lock(&shared.last);
        match next {
            Some(reply) => {
                *last = Some(reply.clone());
                reply
            }
            None => last
                .clone()
                .unwrap_or_else(|| Reply::raw(500, "the mock has no script")),
        }
    };
    if !reply.delay.is_zero() {
        tokio::time::sleep(reply.delay).await;
    }
    let mut response = Response::builder().status(reply.status);
    for (name, value) in &reply.headers {
        response = response.header(name, value);
    }
    response
        .body(Body::from(reply.body))
        .expect("scripted response")
}

/// A port on 127.0.0.1 where nothing listens.
pub async fn closed_port() -> u16 {
    let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .await
        .expect("bind");
    listener.local_addr().expect("address").port()
}
