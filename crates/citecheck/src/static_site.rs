//! A tiny static web site on 127.0.0.1, for `citecheck demo` and `citecheck eval`: they show the
//! pipeline on bundled pages with no network and no key.
//!
//! A directory is served as it is (`/a/b` -> `a/b`, then `a/b.html`), and an optional
//! `routes.json` in it gives some paths a status, a redirect or a content type:
//! `{"routes": {"/old": {"status": 301, "location": "/"}, "/gone": {"status": 410}}}`.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;
use axum::body::Body;
use axum::extract::State;
use axum::http::{header, StatusCode, Uri};
use axum::response::Response;
use serde::Deserialize;

/// One special route.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Route {
    #[serde(default = "ok")]
    pub status: u16,
    /// A file under the site's directory to serve as the body.
    #[serde(default)]
    pub file: Option<String>,
    /// An inline body, when there is no file.
    #[serde(default)]
    pub body: Option<String>,
    #[serde(default)]
    pub content_type: Option<String>,
    /// For redirects: the `Location` header.
    #[serde(default)]
    pub location: Option<String>,
}

fn ok() -> u16 {
    200
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RoutesFile {
    routes: HashMap<String, Route>,
}

struct Site {
    root: PathBuf,
    routes: HashMap<String, Route>,
}

/// A running site; it stops when dropped.
pub struct StaticSite {
    addr: SocketAddr,
    _shutdown: tokio::sync::oneshot::Sender<()>,
}

impl StaticSite {
    /// Serves `root` on 127.0.0.1 at a free port.
    pub async fn serve(root: &Path) -> anyhow::Result<StaticSite> {
        let routes_path = root.join("routes.json");
        let routes = if routes_path.exists() {
            let text = std::fs::read_to_string(&routes_path)
                .with_context(|| format!("reading {}", routes_path.display()))?;
            serde_json::from_str::<RoutesFile>(&text)
                .with_context(|| format!("parsing {}", routes_path.display()))?
                .routes
        } else {
            HashMap::new()
        };
        let site = Arc::new(Site {
            root: root.to_path_buf(),
            routes,
        });
        let app = axum::Router::new().fallback(respond).with_state(site);
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
            .await
            .context("binding the demo site to 127.0.0.1")?;
        let addr = listener
            .local_addr()
            .context("reading the demo site's address")?;
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(async move {
            let served = axum::serve(listener, app)
                .with_graceful_shutdown(async {
                    let _ = rx.await;
                })
                .await;
            if let Err(err) = served {
                tracing::warn!(error = %err, "the demo site stopped");
            }
        });
        Ok(StaticSite {
            addr,
            _shutdown: tx,
        })
    }

    /// `http://127.0.0.1:PORT`, without a trailing slash.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }
}

async fn respond(State(site): State<Arc<Site>>, uri: Uri) -> Response {
    let path = uri.path();
    let key = uri
        .path_and_query()
        .map(|pq| pq.as_str())
        .filter(|pq| site.routes.contains_key(*pq))
        .unwrap_or(path);
    if let Some(route) = site.routes.get(key) {
        return route_response(&site, route);
    }
    match file_for(&site.root, path) {
        Some(file) => file_response(StatusCode::OK, &file, None),
        None => plain(StatusCode::NOT_FOUND, "not found"),
    }
}

fn route_response(site: &Site, route: &Route) -> Response {
    let status = StatusCode::from_u16(route.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    if let Some(file) = route.file.as_deref().and_then(|f| safe_join(&site.root, f)) {
        let mut response = file_response(status, &file, route.content_type.as_deref());
        add_location(&mut response, route);
        return response;
    }
    let mut response = Response::builder()
        .status(status)
        .header(
            header::CONTENT_TYPE,
            route
                .content_type
                .as_deref()
                .unwrap_or("text/html; charset=utf-8"),
        )
        .body(Body::from(route.body.clone().unwrap_or_default()))
        .unwrap_or_else(|_| plain(StatusCode::INTERNAL_SERVER_ERROR, "bad route"));
    add_location(&mut response, route);
    response
}

fn add_location(response: &mut Response, route: &Route) {
    if let Some(value) = route
        .location
        .as_deref()
        .and_then(|l| l.parse::<axum::http::HeaderValue>().ok())
    {
        response.headers_mut().insert(header::LOCATION, value);
    }
}

fn file_response(status: StatusCode, file: &Path, content_type: Option<&str>) -> Response {
    let Ok(bytes) = std::fs::read(file) else {
        return plain(StatusCode::NOT_FOUND, "not found");
    };
    let guessed = match file.extension().and_then(|e| e.to_str()) {
        Some("html" | "htm") => "text/html; charset=utf-8",
        Some("md") => "text/markdown; charset=utf-8",
        Some("txt") => "text/plain; charset=utf-8",
        Some("pdf") => "application/pdf",
        Some("json") => "application/json",
        _ => "application/octet-stream",
    };
    Response::builder()
        .status(status)
        .header(header::CONTENT_TYPE, content_type.unwrap_or(guessed))
        .body(Body::from(bytes))
        .unwrap_or_else(|_| plain(StatusCode::INTERNAL_SERVER_ERROR, "bad file"))
}

fn plain(status: StatusCode, text: &'static str) -> Response {
    let mut response = Response::new(Body::from(text));
    *response.status_mut() = status;
    response
}

/// The file a request path names: the path itself, or with `.html` added.
fn file_for(root: &Path, path: &str) -> Option<PathBuf> {
    let relative = path.trim_start_matches('/');
    let relative = if relative.is_empty() {
        "index.html"
    } else {
        relative
    };
    let direct = safe_join(root, relative)?;
    if direct.is_file() {
        return Some(direct);
    }
    let with_html = safe_join(root, &format!("{relative}.html"))?;
    with_html.is_file().then_some(with_html)
}

/// Joins a request path onto the root, refusing anything that could climb out of it.
fn safe_join(root: &Path, relative: &str) -> Option<PathBuf> {
    let candidate = Path::new(relative);
    candidate
        .components()
        .all(|c| matches!(c, Component::Normal(_)))
        .then(|| root.join(candidate))
}
