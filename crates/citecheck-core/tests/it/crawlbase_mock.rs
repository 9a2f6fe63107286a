//! A mock of Crawlbase's Crawling and Storage APIs on 127.0.0.1, port 0, speaking the documented
//! wire format: response parameters as headers (`url`, `original_status`, `cb_status` or the
//! legacy `pc_status`, `storage_url` carrying the token and the rid), the API call's own status
//! (401, 402, 403, 429 with `Retry-After`, 5xx, 520 with an empty body and no headers), Markdown
//! bodies that differ with `md_readability`, and `GET /storage?token=..&rid=..` answering the
//! pages it stored, as JSON with `format=json`.
//!
//! Each cited page is a path on `https://news.example` whose behaviour the route table below
//! describes. The mock records every request's raw query string, so tests can assert exactly
//! what citecheck sent, and in which order.

use std::collections::HashMap;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::body::Body;
use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::response::Response;
use axum::Router;
use serde_json::json;

/// The normal token the tests configure.
pub const NORMAL_TOKEN: &str = "normal-token-7f3a9c51";
/// The JavaScript token the tests configure.
pub const JS_TOKEN: &str = "js-token-2b8e41d0";
/// A token the mock answers with 401 (invalid or reset).
pub const REVOKED_TOKEN: &str = "revoked-token-11aa";
/// A token whose account is out of credits: 402.
pub const BROKE_TOKEN: &str = "broke-token-22bb";
/// A normal token configured as the JavaScript one: 403 on every request.
pub const WRONG_KIND_TOKEN: &str = "wrong-kind-token-33cc";

/// The site every test cites.
pub const SITE: &str = "https://news.example";

/// A page with plenty of readable text (well over 200 non-whitespace characters).
pub const ARTICLE_MD: &str = "# Boiling point of water\n\n\
Water boils at 100 degrees Celsius at sea level. At this temperature the vapour pressure of water \
equals the pressure of the atmosphere around it, and bubbles of vapour form throughout the liquid.\n\n\
At higher altitudes the air pressure is lower, so water boils at a lower temperature. On the \
summit of a high mountain it can boil at around 70 degrees Celsius.";

/// What the whole page looks like without readability: the article plus the site's chrome.
pub const WHOLE_PAGE_MD: &str = "[Home](/) | [Science](/science) | [About](/about)\n\n\
# Museum hours\n\n\
The museum is closed on Mondays. From Tuesday to Sunday it opens at nine in the morning and \
closes at six in the evening; on the first Thursday of each month it stays open until ten. \
Entry is free for children under twelve and for everyone on public holidays.\n\n\
Copyright 2026 Example News. Privacy policy.";

/// The site's homepage, long enough to be judged if nothing stopped it.
pub const HOME_MD: &str = "# Example News\n\n\
Welcome to Example News, the place for science, culture and local stories. Today on the front \
page: a new exhibition at the museum, the weather for the weekend, and a long read on why water \
boils at lower temperatures in the mountains. Subscribe to our newsletter for a daily summary.";

const THIN_MD: &str = "Loading…";
const SOFT_404_MD: &str =
    "# Page not found\n\nSorry, the page you were looking for does not exist.";

/// One request the mock received.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub path: String,
    /// The query string exactly as sent.
    pub raw_query: String,
    /// The decoded query pairs, in order.
    pub pairs: Vec<(String, String)>,
    pub at: Instant,
}

impl Recorded {
    pub fn param(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn has(&self, name: &str) -> bool {
        self.pairs.iter().any(|(k, _)| k == name)
    }

    pub fn token(&self) -> &str {
        self.param("token").unwrap_or_default()
    }

    /// True when Crawlbase would render this request in a browser.
    pub fn rendered(&self) -> bool {
        self.token() == JS_TOKEN || self.param("javascript") == Some("true")
    }

    pub fn readability(&self) -> bool {
        self.param("md_readability") == Some("true")
    }

    /// The cited page's path on the site.
    pub fn target_path(&self) -> String {
        self.param("url")
            .and_then(|u| url::Url::parse(u).ok())
            .map(|u| u.path().to_string())
            .unwrap_or_default()
    }
}

#[derive(Debug, Clone)]
struct Stored {
    url: String,
    original_status: u16,
    body: String,
}

#[derive(Default)]
struct Shared {
    requests: Mutex<Vec<Recorded>>,
    stored: Mutex<HashMap<String, Stored>>,
}

/// A running mock; the server stops with the test's runtime.
pub struct Mock {
    addr: SocketAddr,
    shared: Arc<Shared>,
}

impl Mock {
    pub async fn start() -> Mock {
        let shared = Arc::new(Shared::default());
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

    /// The API's base URL, `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Every request so far, in order.
    pub fn requests(&self) -> Vec<Recorded> {
        lock(&self.shared.requests).clone()
    }

    /// The Crawling API requests so far (storage reads left out).
    pub fn crawls(&self) -> Vec<Recorded> {
        self.requests()
            .into_iter()
            .filter(|r| r.path == "/")
            .collect()
    }

    /// Stores a page as if an earlier crawl had, under `rid`.
    pub fn store(&self, rid: &str, url: &str, body: &str) {
        lock(&self.shared.stored).insert(
            rid.to_string(),
            Stored {
                url: url.to_string(),
                original_status: 200,
                body: body.to_string(),
            },
        );
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

async fn handle(State(shared): State<Arc<Shared>>, uri: Uri) -> Response {
    let raw_query = uri.query().unwrap_or_default().to_string();
    let pairs: Vec<(String, String)> = url::form_urlencoded::parse(raw_query.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    let request = Recorded {
        path: uri.path().to_string(),
        raw_query,
        pairs,
        at: Instant::now(),
    };
    // How many earlier requests asked for the same page: some routes change their answer.
    let earlier = {
        let mut requests = lock(&shared.requests);
        let earlier = requests
            .iter()
            .filter(|r| r.path == request.path && r.param("url") == request.param("url"))
            .count();
        requests.push(request.clone());
        earlier
    };
    match request.path.as_str() {
        "/" => crawl(&shared, &request, earlier),
        "/storage" => storage(&shared, &request),
        _ => plain(404, ""),
    }
}

/// The token checks the API makes before crawling anything.
fn token_refusal(token: &str) -> Option<Response> {
    let json_error = |status: u16, message: &str| {
        Response::builder()
            .status(status)
            .header("content-type", "application/json")
            .body(Body::from(json!({ "error": message }).to_string()))
            .expect("error response")
    };
    match token {
        NORMAL_TOKEN | JS_TOKEN => None,
        BROKE_TOKEN => Some(json_error(402, "Out of credits")),
        WRONG_KIND_TOKEN => Some(json_error(403, "Token not allowed for this product")),
        _ => Some(json_error(401, "Invalid token")),
    }
}

/// The answer of a successful crawl: Markdown body, response parameters as headers, and the
/// page stored under a fresh rid (the storage URL carries the token, as the real one does).
struct Crawl {
    original_status: u16,
    /// `None`: the request's own URL.
    final_url: Option<String>,
    body: String,
    crawl_status: u16,
    /// Send the status only under its legacy name.
    legacy_status_header: bool,
}

impl Crawl {
    fn ok(body: &str) -> Crawl {
        Crawl {
            original_status: 200,
            final_url: None,
            body: body.to_string(),
            crawl_status: 200,
            legacy_status_header: false,
        }
    }
}

fn crawl(shared: &Shared, request: &Recorded, earlier: usize) -> Response {
    if let Some(refusal) = token_refusal(request.token()) {
        return refusal;
    }
    if request.has("custom_success_codes") || request.param("format") != Some("md") {
        return plain(
            422,
            "the mock only speaks format=md without custom_success_codes",
        );
    }
    let rendered = request.rendered();
    let readable = request.readability();
    let answer = match request.target_path().as_str() {
        "/article" => Crawl::ok(ARTICLE_MD),
        "/thin-readability" if readable => Crawl::ok("Short teaser."),
        "/thin-readability" => Crawl::ok(WHOLE_PAGE_MD),
        "/gone" => Crawl {
            original_status: 404,
            ..Crawl::ok("# Not Found\n\nThe requested URL was not found on this server.")
        },
        "/removed" => Crawl {
            original_status: 410,
            ..Crawl::ok("# Gone")
        },
        "/old-story" => Crawl {
            final_url: Some(format!("{SITE}/")),
            ..Crawl::ok(HOME_MD)
        },
        "/moved-to-pdf" => Crawl {
            final_url: Some(format!("{SITE}/files/report.pdf")),
            ..Crawl::ok(ARTICLE_MD)
        },
        "/soft-404" => Crawl::ok(SOFT_404_MD),
        "/origin-error" => Crawl {
            original_status: 500,
            ..Crawl::ok("Internal Server Error")
        },
        "/legacy" => Crawl {
            legacy_status_header: true,
            ..Crawl::ok(ARTICLE_MD)
        },
        // The crawl fails on a normal request; the SDK of the reference design shows this as
        // HTTP 520 with an empty body and no headers.
        "/crash" if !rendered => return failed_crawl(),
        "/crash" => Crawl::ok(ARTICLE_MD),
        "/crash-forever" => return failed_crawl(),
        // The site answers 200 with an empty page unless a browser runs its scripts.
        "/empty" if !rendered => Crawl {
            crawl_status: 207,
            ..Crawl::ok("")
        },
        "/empty" => Crawl::ok(ARTICLE_MD),
        // A script-built page: thin without a browser, with or without readability.
        "/app" if !rendered => Crawl::ok(THIN_MD),
        "/app" => Crawl::ok(ARTICLE_MD),
        // Rendered, readability still strips it: the fallback must run on the rendered path too.
        "/app-readability" if !rendered || readable => Crawl::ok(THIN_MD),
        "/app-readability" => Crawl::ok(WHOLE_PAGE_MD),
        "/shell-forever" => Crawl::ok(THIN_MD),
        // The browser follows a script redirect to the homepage; `url` shows it this time.
        "/js-home" if !rendered => Crawl {
            crawl_status: 207,
            ..Crawl::ok("")
        },
        "/js-home" => Crawl {
            final_url: Some(format!("{SITE}/")),
            ..Crawl::ok(HOME_MD)
        },
        // Concurrency limit on the first try, as the rate-limit docs show it.
        "/busy" if earlier == 0 => {
            return Response::builder()
                .status(429)
                .header("retry-after", "1")
                .header("content-type", "application/json")
                .body(Body::from(
                    json!({ "error": "Concurrency limit reached", "limit": 20 }).to_string(),
                ))
                .expect("429 response")
        }
        "/busy" => Crawl::ok(ARTICLE_MD),
        "/flaky" if earlier == 0 => return plain(500, "internal error"),
        "/flaky" => Crawl::ok(ARTICLE_MD),
        "/down" => return plain(503, "service unavailable"),
        // Crawlbase reached the site but got a captcha: a failed crawl, not billed.
        "/captcha" => Crawl {
            crawl_status: 503,
            ..Crawl::ok("")
        },
        _ => Crawl {
            original_status: 404,
            ..Crawl::ok("no such route in the mock")
        },
    };
    respond(shared, request, answer)
}

fn failed_crawl() -> Response {
    Response::builder()
        .status(520)
        .body(Body::empty())
        .expect("520 response")
}

fn respond(shared: &Shared, request: &Recorded, answer: Crawl) -> Response {
    let requested = request.param("url").unwrap_or_default().to_string();
    let final_url = answer.final_url.unwrap_or(requested);
    let mut response = Response::builder()
        .status(StatusCode::OK)
        .header("content-type", "text/markdown; charset=utf-8")
        .header("url", &final_url)
        .header("original_status", answer.original_status.to_string());
    response = if answer.legacy_status_header {
        response.header("pc_status", answer.crawl_status.to_string())
    } else {
        response
            .header("cb_status", answer.crawl_status.to_string())
            .header("pc_status", answer.crawl_status.to_string())
    };
    if answer.crawl_status == 200 && request.param("store") == Some("true") {
        let rid = {
            let mut stored = lock(&shared.stored);
            let rid = format!("rid-{}", stored.len() + 1);
            stored.insert(
                rid.clone(),
                Stored {
                    url: final_url.clone(),
                    original_status: answer.original_status,
                    body: answer.body.clone(),
                },
            );
            rid
        };
        let storage_url = format!(
            "https://api.crawlbase.com/storage?token={}&rid={rid}",
            request.token()
        );
        response = response.header("storage_url", storage_url);
    }
    response
        .body(Body::from(answer.body))
        .expect("crawl response")
}

fn storage(shared: &Shared, request: &Recorded) -> Response {
    if let Some(refusal) = token_refusal(request.token()) {
        return refusal;
    }
    let Some(rid) = request.param("rid") else {
        return plain(400, "rid or url required");
    };
    let Some(page) = lock(&shared.stored).get(rid).cloned() else {
        return plain(404, "Not Found");
    };
    if request.param("format") == Some("json") {
        let body = json!({
            "stored_at": "2026-03-01T14:22:58+02:00",
            "original_status": page.original_status,
            "pc_status": 200,
            "rid": rid,
            "url": page.url,
            "body": page.body,
        });
        return Response::builder()
            .header("content-type", "application/json; charset=utf-8")
            .body(Body::from(body.to_string()))
            .expect("storage response");
    }
    Response::builder()
        .header("original_status", page.original_status.to_string())
        .header("pc_status", "200")
        .header("rid", rid)
        .header("url", page.url)
        .body(Body::from(page.body))
        .expect("storage response")
}

fn plain(status: u16, body: &str) -> Response {
    Response::builder()
        .status(status)
        .body(Body::from(body.to_string()))
        .expect("plain response")
}
