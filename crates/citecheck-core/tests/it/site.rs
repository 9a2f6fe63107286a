//! The fixture site: a real HTTP server on 127.0.0.1, port 0, started inside each test.
//!
//! Every route demonstrates one fetch behaviour (see `fixtures/site/README.md`). The server counts
//! the requests each path receives, so tests can prove a retry happened, or that a refused URL was
//! never requested at all.

use std::collections::HashMap;
use std::io::Write;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Path, Query, Request, State};
use axum::http::header::{CONTENT_ENCODING, CONTENT_LENGTH, CONTENT_TYPE, LOCATION, RETRY_AFTER};
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use futures::StreamExt;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

macro_rules! fixture {
    ($name:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../fixtures/site/",
            $name
        ))
    };
}

pub const ARTICLE: &str = fixture!("article.html");
pub const HOME: &str = fixture!("home.html");
pub const SOFT_404: &str = fixture!("soft-404.html");
pub const STATUS_CODES: &str = fixture!("status-codes.html");
pub const JS_SHELL: &str = fixture!("js-shell.html");
pub const THIN_READABILITY: &str = fixture!("thin-readability.html");
pub const CYRILLIC: &str = fixture!("cyrillic.html");
pub const LATIN1: &str = fixture!("latin1.html");
pub const NOTES_TXT: &str = fixture!("notes.txt");
pub const NOTES_MD: &str = fixture!("notes.md");
pub const SHORT_TXT: &str = fixture!("short.txt");
pub const COMMENTED: &str = fixture!("commented.html");

/// A sentence of `article.html`, the page most routes serve.
pub const ARTICLE_SENTENCE: &str = "Water boils at 100 degrees Celsius at sea level.";

/// Bodies larger than the small cap the size tests configure.
pub const BIG_BODY_BYTES: usize = 256 * 1024;

const PDF: &[u8] =
    b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n";
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06";

/// Requests seen per path (query strings ignored).
type Hits = Arc<Mutex<HashMap<String, usize>>>;

/// A running fixture site. The server stops with the test's runtime.
pub struct Site {
    addr: SocketAddr,
    hits: Hits,
}

impl Site {
    pub async fn start() -> Site {
        let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .await
            .expect("bind the fixture site");
        let addr = listener.local_addr().expect("local address");
        let hits = Hits::default();
        let app = routes()
            .layer(middleware::from_fn_with_state(Arc::clone(&hits), count))
            .with_state(Arc::clone(&hits));
        tokio::spawn(async move {
            axum::serve(listener, app)
                .await
                .expect("fixture site serves");
        });
        Site { addr, hits }
    }

    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// `path` on this site, by its loopback address.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port())
    }

    /// `path` on this site, by the name `localhost`.
    pub fn localhost_url(&self, path: &str) -> String {
        format!("http://localhost:{}{path}", self.port())
    }

    /// The path of `/redirect`, answering 302 to `target`; prefix it with [`Site::url`] or
    /// [`Site::localhost_url`].
    pub fn redirect_path(target: &str) -> String {
        let query: String = url::form_urlencoded::Serializer::new(String::new())
            .append_pair("to", target)
            .finish();
        format!("/redirect?{query}")
    }

    pub fn hits(&self, path: &str) -> usize {
        self.lock().get(path).copied().unwrap_or(0)
    }

    pub fn total_hits(&self) -> usize {
        self.lock().values().sum()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, usize>> {
        self.hits.lock().expect("hit counter lock")
    }
}

/// A port on 127.0.0.1 where nothing listens: bound, then released.
pub fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).expect("bind");
    listener.local_addr().expect("local address").port()
}

/// A server on 127.0.0.1 that answers every connection with `reply` (not HTTP) and hangs up.
/// Returns its port and a count of the connections it accepted.
pub async fn raw_server(reply: &'static [u8]) -> (u16, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .await
        .expect("bind the raw server");
    let port = listener.local_addr().expect("local address").port();
    let accepted = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&accepted);
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            counter.fetch_add(1, Ordering::SeqCst);
            let mut request = [0u8; 1024];
            // Whatever the client sent (a request, a TLS hello), the reply is the same.
            let _ = stream.read(&mut request).await;
            let _ = stream.write_all(reply).await;
            let _ = stream.shutdown().await;
        }
    });
    (port, accepted)
}

async fn count(State(hits): State<Hits>, request: Request, next: Next) -> Response {
    let path = request.uri().path().to_string();
    *hits
        .lock()
        .expect("hit counter lock")
        .entry(path)
        .or_default() += 1;
    next.run(request).await
}

fn hits_of(hits: &Hits, path: &str) -> usize {
    hits.lock()
        .expect("hit counter lock")
        .get(path)
        .copied()
        .unwrap_or(0)
}

fn routes() -> Router<Hits> {
    Router::new()
        .route("/", get(|| html(HOME)))
        .route("/story/boiling", get(|| html(ARTICLE)))
        // Three hops, three redirect statuses, ending on a deep page.
        .route(
            "/chain/1",
            get(|| redirect(StatusCode::MOVED_PERMANENTLY, "/chain/2")),
        )
        .route("/chain/2", get(|| redirect(StatusCode::FOUND, "/chain/3")))
        .route(
            "/chain/3",
            get(|| redirect(StatusCode::TEMPORARY_REDIRECT, "/story/boiling")),
        )
        .route(
            "/moved-story",
            get(|| redirect(StatusCode::MOVED_PERMANENTLY, "/")),
        )
        .route("/loop", get(|| redirect(StatusCode::FOUND, "/loop")))
        .route("/no-location", get(|| async { StatusCode::FOUND }))
        .route("/redirect", get(redirect_to_query))
        .route("/secret", get(|| async { "internal admin panel" }))
        .route("/gone-404", get(|| status(StatusCode::NOT_FOUND)))
        .route("/gone-410", get(|| status(StatusCode::GONE)))
        .route("/forbidden", get(|| status(StatusCode::FORBIDDEN)))
        .route(
            "/always-503",
            get(|| status(StatusCode::SERVICE_UNAVAILABLE)),
        )
        .route("/flaky", get(flaky))
        .route("/rate-limited", get(rate_limited))
        .route("/rate-limited-long", get(|| too_many_requests("120")))
        .route("/soft-404", get(|| html(SOFT_404)))
        .route("/status-codes", get(|| html(STATUS_CODES)))
        .route("/files/report.pdf", get(|| typed("application/pdf", PDF)))
        .route("/download/report", get(|| typed("application/pdf", PDF)))
        .route(
            "/redirect-to-pdf",
            get(|| redirect(StatusCode::FOUND, "/files/report.pdf")),
        )
        .route("/app", get(|| html(JS_SHELL)))
        .route("/lighthouse", get(|| html(THIN_READABILITY)))
        .route("/cyrillic", get(cyrillic))
        .route("/latin1", get(latin1))
        .route("/cyrillic-undeclared", get(cyrillic_undeclared))
        .route(
            "/notes.txt",
            get(|| typed("text/plain; charset=utf-8", NOTES_TXT)),
        )
        .route(
            "/notes.md",
            get(|| typed("text/markdown; charset=utf-8", NOTES_MD)),
        )
        .route("/short.txt", get(|| typed("text/plain", SHORT_TXT)))
        .route("/image", get(|| typed("image/png", PNG)))
        .route("/big-image", get(|| typed("image/png", big_body())))
        .route(
            "/gzip",
            get(|| compressed("gzip", gzip(ARTICLE.as_bytes()))),
        )
        .route(
            "/deflate",
            get(|| compressed("deflate", zlib(ARTICLE.as_bytes()))),
        )
        .route(
            "/brotli",
            get(|| compressed("br", brotli(ARTICLE.as_bytes()))),
        )
        .route("/gzip-bomb", get(|| compressed("gzip", gzip(&big_body()))))
        .route(
            "/bad-gzip",
            get(|| compressed("gzip", b"this is not gzip at all".to_vec())),
        )
        .route(
            "/big",
            get(|| html(String::from_utf8(big_body()).expect("ascii"))),
        )
        .route("/big-declared", get(big_declared))
        .route("/big-streamed", get(big_streamed))
        .route("/undeclared", get(|| untyped(ARTICLE)))
        .route("/undeclared-commented", get(|| untyped(COMMENTED)))
        .route(
            "/octet-stream",
            get(|| typed("application/octet-stream", ARTICLE)),
        )
        .route("/slow", get(slow))
        .route("/slow-chain/{hop}", get(slow_chain))
        .route("/redirect-utf8", get(redirect_utf8))
        .route("/wiki/{title}", get(|| html(ARTICLE)))
        .route(
            "/download/octet-pdf",
            get(|| typed("application/octet-stream", PDF)),
        )
        .route("/trickle", get(trickle))
}

async fn html(page: impl Into<String>) -> Response {
    typed("text/html; charset=utf-8", page.into()).await
}

async fn typed(content_type: &'static str, body: impl Into<Body>) -> Response {
    ([(CONTENT_TYPE, content_type)], body.into()).into_response()
}

/// A body with no `Content-Type` at all: only its bytes can tell what it is.
async fn untyped(body: &'static str) -> Response {
    Response::new(Body::from(body))
}

async fn status(code: StatusCode) -> Response {
    (code, [(CONTENT_TYPE, "text/html")], "<h1>Error</h1>").into_response()
}

async fn redirect(code: StatusCode, to: &'static str) -> Response {
    (code, [(LOCATION, to)]).into_response()
}

async fn redirect_to_query(Query(query): Query<HashMap<String, String>>) -> Response {
    let to = query.get("to").cloned().unwrap_or_default();
    (StatusCode::FOUND, [(LOCATION, to)]).into_response()
}

/// Fails its first request with a 500, then serves the article.
async fn flaky(State(hits): State<Hits>) -> Response {
    if hits_of(&hits, "/flaky") == 1 {
        return status(StatusCode::INTERNAL_SERVER_ERROR).await;
    }
    html(ARTICLE).await
}

/// Asks the first request to come back in a second, then serves the article.
async fn rate_limited(State(hits): State<Hits>) -> Response {
    if hits_of(&hits, "/rate-limited") == 1 {
        return too_many_requests("1").await;
    }
    html(ARTICLE).await
}

async fn too_many_requests(retry_after: &'static str) -> Response {
    (StatusCode::TOO_MANY_REQUESTS, [(RETRY_AFTER, retry_after)]).into_response()
}

/// Declared only in a `<meta>` tag: the header names no charset.
async fn cyrillic() -> Response {
    let (bytes, _, _) = encoding_rs::WINDOWS_1251.encode(CYRILLIC);
    typed("text/html", bytes.into_owned()).await
}

/// The same page declared nowhere: the meta tag removed, the header silent.
async fn cyrillic_undeclared() -> Response {
    let page = CYRILLIC.replace(
        r#"<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">"#,
        "",
    );
    assert!(!page.contains("charset"), "the declaration is gone");
    let (bytes, _, _) = encoding_rs::WINDOWS_1251.encode(&page);
    typed("text/html", bytes.into_owned()).await
}

/// Declared only in the `Content-Type` header: the page has no `<meta>` charset.
async fn latin1() -> Response {
    let (bytes, _, _) = encoding_rs::WINDOWS_1252.encode(LATIN1);
    typed("text/html; charset=ISO-8859-1", bytes.into_owned()).await
}

async fn compressed(encoding: &'static str, body: Vec<u8>) -> Response {
    (
        [
            (CONTENT_TYPE, "text/html; charset=utf-8"),
            (CONTENT_ENCODING, encoding),
        ],
        body,
    )
        .into_response()
}

/// Announces a gigabyte, sends a little, then stalls: only a client that trusts the
/// `Content-Length` answers before its timeout.
async fn big_declared() -> Response {
    let stalled = futures::stream::once(async { Ok::<_, std::io::Error>(Bytes::from("<p>")) })
        .chain(futures::stream::pending());
    let mut response = typed("text/html", Body::from_stream(stalled)).await;
    response
        .headers_mut()
        .insert(CONTENT_LENGTH, HeaderValue::from_static("1073741824"));
    response
}

/// The big body in 64 chunks, without a `Content-Length`.
async fn big_streamed() -> Response {
    let chunk = Bytes::from(big_body()).slice(..BIG_BODY_BYTES / 64);
    let chunks =
        futures::stream::iter((0..64).map(move |_| Ok::<_, std::io::Error>(chunk.clone())));
    typed("text/html", Body::from_stream(chunks)).await
}

/// Answers after five seconds, far beyond the tests' timeouts.
async fn slow() -> Response {
    tokio::time::sleep(Duration::from_secs(5)).await;
    html(ARTICLE).await
}

/// Three redirects and the article, each answer 250 ms late: quick hops, slow chain.
async fn slow_chain(Path(hop): Path<u32>) -> Response {
    tokio::time::sleep(Duration::from_millis(250)).await;
    if hop >= 3 {
        return html(ARTICLE).await;
    }
    let next = format!("/slow-chain/{}", hop + 1);
    (StatusCode::FOUND, [(LOCATION, next)]).into_response()
}

/// A `Location` in raw UTF-8, as some servers send it.
async fn redirect_utf8() -> Response {
    let location = HeaderValue::from_bytes("/wiki/Crème_brûlée".as_bytes()).expect("obs-text");
    (StatusCode::MOVED_PERMANENTLY, [(LOCATION, location)]).into_response()
}

/// Sends its headers at once, then a chunk of the article every 200 ms.
async fn trickle() -> Response {
    let chunks = futures::stream::iter(ARTICLE.as_bytes().chunks(64).map(Bytes::copy_from_slice))
        .then(|chunk| async move {
            tokio::time::sleep(Duration::from_millis(200)).await;
            Ok::<_, std::io::Error>(chunk)
        });
    typed("text/html", Body::from_stream(chunks)).await
}

/// An HTML page of [`BIG_BODY_BYTES`] bytes of real-looking text.
fn big_body() -> Vec<u8> {
    let paragraph = "<p>The tide tables for the harbour are printed every spring and pinned \
                     beside the door of the lifeboat station for anyone to read.</p>\n";
    let mut body = paragraph
        .repeat(BIG_BODY_BYTES / paragraph.len() + 1)
        .into_bytes();
    body.truncate(BIG_BODY_BYTES);
    body
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(data).expect("gzip");
    encoder.finish().expect("gzip")
}

/// HTTP's `deflate` is the zlib format.
fn zlib(data: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(data).expect("zlib");
    encoder.finish().expect("zlib")
}

fn brotli(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut encoder = brotli::CompressorWriter::new(&mut out, 4096, 5, 22);
        encoder.write_all(data).expect("brotli");
    }
    out
}
