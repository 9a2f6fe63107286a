//! The fixture site (pages built by scripts, redirects, a response that never comes) and a
//! sentinel listener that counts every request reaching it: the guard's tests assert that the
//! refused ones never arrive.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;

/// The claim the article states, in one of the paragraphs its script builds.
pub const CLAIM: &str = "The Danube flows through ten countries before it reaches the Black Sea.";

/// A shell whose article exists only once its script has run.
pub fn script_built_article(before_building: &str) -> String {
    format!(
        r#"<!doctype html>
<html><head><title>Rivers of Europe</title></head>
<body><div id="app"></div>
<script>
function build() {{
  const paragraphs = [
    "The Danube is the second-longest river in Europe, after the Volga. It rises in the Black Forest of Germany and flows south-east for about 2,850 kilometres.",
    "{CLAIM} Its basin drains a large part of central and south-eastern Europe, and four capital cities stand on its banks.",
    "Ships have carried goods along the river since Roman times. Today the Rhine-Main-Danube Canal links it with the North Sea, and barges carry grain, ore and timber.",
    "The Danube Delta, where the river divides into three main arms, is a wetland of reeds and lakes that shelters more than three hundred species of birds."
  ];
  const article = document.createElement("article");
  const heading = document.createElement("h1");
  heading.textContent = "The Danube";
  article.appendChild(heading);
  for (const text of paragraphs) {{
    const p = document.createElement("p");
    p.textContent = text;
    article.appendChild(p);
  }}
  document.getElementById("app").appendChild(article);
}}
{before_building}
</script>
</body></html>"#
    )
}

/// Counts the requests that reach it, by path.
#[derive(Default)]
pub struct Hits {
    pub beacon: AtomicUsize,
    pub allowed: AtomicUsize,
}

impl Hits {
    pub fn refused(&self) -> usize {
        self.beacon.load(Ordering::SeqCst)
    }
    pub fn allowed(&self) -> usize {
        self.allowed.load(Ordering::SeqCst)
    }
}

/// The fixture site and the sentinel, served for as long as this lives (on the test's runtime).
pub struct Fixture {
    pub site: SocketAddr,
    pub sentinel: SocketAddr,
    pub hits: Arc<Hits>,
}

impl Fixture {
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.site)
    }
}

#[derive(Clone)]
struct Site {
    sentinel_port: u16,
}

pub async fn serve() -> Fixture {
    let hits = Arc::new(Hits::default());
    let sentinel = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("sentinel binds");
    let sentinel_addr = sentinel.local_addr().expect("address");
    let counted = Arc::clone(&hits);
    let sentinel_app = Router::new()
        .route(
            "/allowed",
            get(|State(hits): State<Arc<Hits>>| async move {
                hits.allowed.fetch_add(1, Ordering::SeqCst);
                "ok"
            }),
        )
        .fallback(|State(hits): State<Arc<Hits>>| async move {
            hits.beacon.fetch_add(1, Ordering::SeqCst);
            "reached"
        })
        .with_state(counted);
    tokio::spawn(async move { axum::serve(sentinel, sentinel_app).await });

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("site binds");
    let site_addr = listener.local_addr().expect("address");
    let app = Router::new()
        .route("/page/{name}", get(page))
        .route("/hop/{name}", get(hop))
        .route("/hang", get(hang))
        .with_state(Site {
            sentinel_port: sentinel_addr.port(),
        });
    tokio::spawn(async move { axum::serve(listener, app).await });
    Fixture {
        site: site_addr,
        sentinel: sentinel_addr,
        hits,
    }
}

async fn page(State(site): State<Site>, Path(name): Path<String>) -> Response {
    let port = site.sentinel_port;
    let body = match name.as_str() {
        "article" => script_built_article("build();"),
        // Reaches for refused addresses in every way a page can, then builds the article
        // once a request to an allowed address has come back (so the page is read only after
        // the script has run).
        "leaky" => script_built_article(&format!(
            r#"
fetch("http://10.0.0.1/steal", {{mode: "no-cors"}}).catch(() => {{}});
new Image().src = "http://169.254.169.254/latest/meta-data/";
fetch("http://localhost:{port}/beacon-fetch", {{mode: "no-cors"}}).catch(() => {{}});
const xhr = new XMLHttpRequest(); xhr.open("GET", "http://localhost:{port}/beacon-xhr"); xhr.send();
new Image().src = "/hop/sentinel-image";
const frame = document.createElement("iframe"); frame.src = "http://localhost:{port}/beacon-frame"; document.body.appendChild(frame);
window.open("http://localhost:{port}/beacon-popup");
fetch("http://127.0.0.1:{port}/allowed", {{mode: "no-cors"}}).then(build, build);
"#
        )),
        // The script sends the whole page on, through a redirect to a refused address.
        "runaway" => script_built_article(r#"location.href = "/hop/sentinel-page";"#),
        // An image that never arrives holds the load event back for good.
        "stuck" => script_built_article(r#"build(); new Image().src = "/hang";"#).replace(
            "<div id=\"app\"></div>",
            "<div id=\"app\"></div><img src=\"/hang\">",
        ),
        "empty" => "<!doctype html><html><head><title>App</title></head><body>\
                    <div id=\"root\"></div><script>/* renders nothing */</script></body></html>"
            .to_string(),
        _ => return StatusCode::NOT_FOUND.into_response(),
    };
    Html(body).into_response()
}

async fn hop(State(site): State<Site>, Path(name): Path<String>) -> Response {
    let target = format!("http://localhost:{}/beacon-{name}", site.sentinel_port);
    (StatusCode::FOUND, [(header::LOCATION, target)]).into_response()
}

async fn hang() -> Response {
    tokio::time::sleep(Duration::from_secs(600)).await;
    StatusCode::NO_CONTENT.into_response()
}

/// The Chromium to test with, or `None` (after saying why) when the tests should be skipped.
pub fn chromium() -> Option<PathBuf> {
    let configured = std::env::var_os(citecheck_render::CHROMIUM_VAR).map(PathBuf::from);
    let path = std::env::var_os("PATH");
    match citecheck_render::find_chromium(configured.as_deref(), path.as_deref()) {
        Ok(found) => Some(found),
        Err(err) if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") => {
            panic!("CI=true and no Chromium to test the renderer with: {err}")
        }
        Err(err) => {
            eprintln!("skipping a Chromium test: {err}");
            None
        }
    }
}
