//! [`ChromiumRenderer`]: one headless Chromium per process, started on the first render and
//! reused; each render gets a fresh browser context (no cookies or cache shared between
//! pages) that is disposed afterwards, runs under a deadline, and holds one of a few permits.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use async_trait::async_trait;
use chromiumoxide::cdp::browser_protocol::fetch::{
    EnableParams as FetchEnable, EventRequestPaused, RequestPattern,
};
use chromiumoxide::cdp::browser_protocol::target::{
    CreateBrowserContextParams, CreateTargetParams,
};
use chromiumoxide::error::CdpError;
use chromiumoxide::{Browser, BrowserConfig, Page};
use citecheck_core::fetch::render::{
    RenderError, RenderedPage, Renderer, DEFAULT_RENDER_CONCURRENCY, DEFAULT_RENDER_DEADLINE,
    DEFAULT_RENDER_SETTLE,
};
use citecheck_core::fetch::resolve::{GuardPolicy, HostResolver, SystemResolver};
use futures::StreamExt;
use thiserror::Error;
use tokio::sync::Semaphore;
use tokio::task::JoinHandle;
use tokio::time::Instant;
use url::Url;

use crate::guard::{BlockedRequest, Guard, Watch};
use crate::locate::LocateError;
use crate::profile::Profile;

/// Flags for a headless browser that may run as root in a container (CI): no sandbox, no GPU,
/// no `/dev/shm`, and none of the background traffic a desktop browser sends. Site isolation is
/// off so that cross-site frames load in the page's own process, where the page's request
/// interception sees them.
const CHROMIUM_ARGS: &[&str] = &[
    "disable-gpu",
    "disable-dev-shm-usage",
    "no-first-run",
    "no-default-browser-check",
    "disable-background-networking",
    "disable-component-update",
    "disable-domain-reliability",
    "disable-sync",
    "disable-breakpad",
    "disable-default-apps",
    "disable-client-side-phishing-detection",
    "metrics-recording-only",
    "disable-site-isolation-trials",
];
const DISABLED_FEATURES: &[&str] = &["IsolateOrigins", "site-per-process", "TranslateUI"];

/// How often the page's text length is read while it settles.
const SETTLE_POLL: Duration = Duration::from_millis(150);
/// Bound on closing a render's page and context; a browser that takes longer is restarted.
const CLEANUP_BOUND: Duration = Duration::from_secs(5);
/// Bound on the browser's exit once killed (SIGKILL: milliseconds, unless the machine stalls).
const EXIT_BOUND: Duration = Duration::from_secs(5);
/// When a browser is dropped without being stopped, how long the dropping thread waits for the
/// killed process to exit, and how often it looks: short, as it blocks that thread.
const REAP_BOUND: Duration = Duration::from_millis(200);
const REAP_POLL: Duration = Duration::from_millis(5);

/// Settings of the Chromium renderer.
#[derive(Debug, Clone)]
pub struct ChromiumOptions {
    /// The executable, from [`find_chromium`](crate::find_chromium).
    pub executable: PathBuf,
    /// Bound on one render, the browser's start included.
    pub deadline: Duration,
    /// Renders in flight at once.
    pub concurrency: usize,
    /// After the load event, how long the page may keep adding text.
    pub settle: Duration,
    /// The direct fetcher's address policy, applied to every request the browser makes.
    pub guard: GuardPolicy,
    /// Where each browser's profile directory (`citecheck-chromium-*`) is created: the system
    /// temporary directory by default (`TMPDIR`, else `/tmp`). Chromium writes a few megabytes
    /// there while it runs; point it elsewhere when that directory is small or mounted
    /// `noexec`. The directory must exist; the profile is removed when the browser stops.
    pub profile_parent: PathBuf,
}

impl ChromiumOptions {
    pub fn new(executable: PathBuf) -> Self {
        ChromiumOptions {
            executable,
            deadline: DEFAULT_RENDER_DEADLINE,
            concurrency: DEFAULT_RENDER_CONCURRENCY,
            settle: DEFAULT_RENDER_SETTLE,
            guard: GuardPolicy::default(),
            profile_parent: std::env::temp_dir(),
        }
    }
}

/// A setting the renderer cannot run with.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum SetupError {
    #[error(transparent)]
    Locate(#[from] LocateError),
    #[error("the render concurrency must be at least 1")]
    ZeroConcurrency,
    #[error("the render deadline must be longer than zero")]
    ZeroDeadline,
}

/// A launched browser. [`Running::stop`] kills it, waits for it to exit and removes its
/// profile; dropping it instead (a renderer never shut down) does what can be done without
/// waiting (see its `Drop`).
struct Running {
    browser: Browser,
    handler: JoinHandle<()>,
    /// `None` once [`Running::stop`] removed it.
    profile: Option<Profile>,
}

impl Running {
    /// Kills the browser, waits (bounded) for it to exit, then removes its profile on the
    /// blocking pool, which waits out the helper processes that outlive it.
    async fn stop(mut self) {
        let exited = tokio::time::timeout(EXIT_BOUND, async {
            // `kill` waits for the process as well; the `wait` after it collects the status of
            // a browser that had already exited, where the kill itself may fail.
            if let Some(Err(err)) = self.browser.kill().await {
                tracing::debug!(error = %err, "could not kill Chromium");
            }
            self.browser.wait().await
        })
        .await;
        if !matches!(exited, Ok(Ok(_))) {
            tracing::warn!("Chromium did not exit after it was killed");
        }
        self.handler.abort();
        if let Some(profile) = self.profile.take() {
            if tokio::task::spawn_blocking(move || profile.remove())
                .await
                .is_err()
            {
                tracing::warn!("the removal of Chromium's profile stopped early");
            }
        }
    }
}

impl Drop for Running {
    /// Without [`Running::stop`]: the browser is sent SIGKILL and reaped if it is gone within
    /// a few milliseconds; the profile is removed at once, then again in the background while
    /// helper processes exit ([`Profile`]'s drop). A process that exits right after this drop (no
    /// runtime left to finish the removal) can still leave the directory behind: the front ends
    /// call [`ChromiumRenderer::shutdown`] for that reason.
    fn drop(&mut self) {
        self.handler.abort();
        if self.profile.is_none() {
            return;
        }
        if let Some(child) = self.browser.get_mut_child() {
            let child = child.as_mut_inner();
            if child.start_kill().is_ok() {
                let end = std::time::Instant::now() + REAP_BOUND;
                while matches!(child.try_wait(), Ok(None)) && std::time::Instant::now() < end {
                    std::thread::sleep(REAP_POLL);
                }
            }
        }
    }
}

/// Renders pages in headless Chromium through the DevTools protocol.
pub struct ChromiumRenderer {
    options: ChromiumOptions,
    guard: Arc<Guard>,
    permits: Semaphore,
    browser: tokio::sync::Mutex<Option<Arc<Running>>>,
}

impl ChromiumRenderer {
    /// A renderer resolving names with the system resolver. Chromium is not started yet.
    pub fn new(options: ChromiumOptions) -> Result<Self, SetupError> {
        Self::with_resolver(options, Arc::new(SystemResolver))
    }

    /// A renderer whose guard resolves names with `resolver` (tests use a fixed table).
    pub fn with_resolver(
        options: ChromiumOptions,
        resolver: Arc<dyn HostResolver>,
    ) -> Result<Self, SetupError> {
        if options.concurrency == 0 {
            return Err(SetupError::ZeroConcurrency);
        }
        if options.deadline.is_zero() {
            return Err(SetupError::ZeroDeadline);
        }
        if !options.executable.is_file() {
            return Err(LocateError::Missing {
                path: options.executable.clone(),
            }
            .into());
        }
        Ok(ChromiumRenderer {
            guard: Arc::new(Guard {
                policy: options.guard.clone(),
                resolver,
                blocked: Mutex::new(Vec::new()),
            }),
            permits: Semaphore::new(options.concurrency),
            browser: tokio::sync::Mutex::new(None),
            options,
        })
    }

    /// Every request the guard refused so far, oldest first.
    pub fn blocked_requests(&self) -> Vec<BlockedRequest> {
        self.guard
            .blocked
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Stops the browser, if it runs (it is started again by the next render): kills it, waits
    /// for it to exit and removes its profile directory. A render still holding the browser
    /// keeps it alive until it ends; the browser is then dropped and cleaned up without waiting.
    /// Call this before the process exits: dropping the renderer instead cleans up in the
    /// background, which an exiting process may cut short.
    pub async fn shutdown(&self) {
        if let Some(running) = self.browser.lock().await.take() {
            stop(running).await;
        }
    }

    /// The running browser, started if there is none or the last one died.
    async fn running(&self) -> Result<Arc<Running>, RenderError> {
        let mut slot = self.browser.lock().await;
        if let Some(running) = slot.as_ref() {
            if !running.handler.is_finished() {
                return Ok(Arc::clone(running));
            }
            tracing::warn!("Chromium went away; starting it again");
            if let Some(old) = slot.take() {
                stop(old).await;
            }
        }
        let running = Arc::new(self.launch().await?);
        *slot = Some(Arc::clone(&running));
        Ok(running)
    }

    async fn launch(&self) -> Result<Running, RenderError> {
        let profile = Profile::create(&self.options.profile_parent).map_err(failed)?;
        let mut builder = BrowserConfig::builder()
            .chrome_executable(&self.options.executable)
            .disable_default_args()
            .new_headless_mode()
            .no_sandbox()
            .user_data_dir(profile.path())
            .launch_timeout(self.options.deadline)
            .request_timeout(self.options.deadline)
            .arg(("disable-features", DISABLED_FEATURES));
        for arg in CHROMIUM_ARGS {
            builder = builder.arg(*arg);
        }
        let config = builder.build().map_err(failed)?;
        let started = Instant::now();
        let (browser, mut handler) = Browser::launch(config).await.map_err(failed)?;
        tracing::info!(
            executable = %self.options.executable.display(),
            elapsed = ?started.elapsed(),
            "started Chromium"
        );
        let handler = tokio::spawn(async move {
            while let Some(event) = handler.next().await {
                match event {
                    Ok(()) => {}
                    // The connection is lost (the browser died). chromiumoxide's handler then
                    // waits forever on the closed socket; ending its task here is what tells
                    // the next render to start a new browser.
                    Err(CdpError::Ws(err)) => {
                        tracing::warn!(error = %err, "lost the DevTools connection to Chromium");
                        break;
                    }
                    Err(err) => tracing::debug!(error = %err, "DevTools connection error"),
                }
            }
        });
        Ok(Running {
            browser,
            handler,
            profile: Some(profile),
        })
    }

    /// One render in a fresh context, closed afterwards whatever happened.
    async fn render_in_context(
        &self,
        url: &Url,
        end: Instant,
    ) -> Result<RenderedPage, RenderError> {
        let deadline = self.options.deadline;
        let running = tokio::time::timeout_at(end, self.running())
            .await
            .map_err(|_| RenderError::Timeout(deadline))??;
        let context = tokio::time::timeout_at(
            end,
            running
                .browser
                .create_browser_context(CreateBrowserContextParams::default()),
        )
        .await
        .map_err(|_| RenderError::Timeout(deadline))?
        .map_err(failed)?;
        let watch = Watch::default();
        let rendered = tokio::time::timeout_at(
            end,
            self.render_page(&running, context.clone(), url, &watch),
        )
        .await
        .unwrap_or(Err(RenderError::Timeout(deadline)));
        let disposed = tokio::time::timeout(
            CLEANUP_BOUND,
            running.browser.dispose_browser_context(context),
        )
        .await;
        if !matches!(disposed, Ok(Ok(()))) {
            tracing::warn!("Chromium did not close a render's context; restarting it");
            let mut slot = self.browser.lock().await;
            if slot.as_ref().is_some_and(|r| Arc::ptr_eq(r, &running)) {
                if let Some(old) = slot.take() {
                    stop(old).await;
                }
            }
        }
        rendered
    }

    async fn render_page(
        &self,
        running: &Running,
        context: chromiumoxide::cdp::browser_protocol::browser::BrowserContextId,
        url: &Url,
        watch: &Watch,
    ) -> Result<RenderedPage, RenderError> {
        let params = CreateTargetParams::builder()
            .url("about:blank")
            .browser_context_id(context)
            .build()
            .map_err(failed)?;
        let page = running.browser.new_page(params).await.map_err(failed)?;
        // Interception starts before the page asks for anything: a request paused with nobody
        // to decide it stays paused (the guard fails closed).
        let events = page
            .event_listener::<EventRequestPaused>()
            .await
            .map_err(failed)?;
        page.execute(
            FetchEnable::builder()
                .pattern(RequestPattern::builder().url_pattern("*").build())
                .build(),
        )
        .await
        .map_err(failed)?;
        let main_frame = page.mainframe().await.map_err(failed)?;
        let guard = Arc::clone(&self.guard);
        let result = {
            let intercept = guard.intercept(&page, events, main_frame, watch);
            let load = self.load(&page, url, watch);
            tokio::pin!(intercept);
            tokio::select! {
                loaded = load => loaded,
                () = &mut intercept => Err(failed("the browser stopped reporting requests")),
            }
        };
        if let Err(err) = page.close().await {
            tracing::debug!(error = %err, "could not close a rendered page");
        }
        result
    }

    /// Navigates, waits for the text to settle, and reads the DOM.
    async fn load(
        &self,
        page: &Page,
        url: &Url,
        watch: &Watch,
    ) -> Result<RenderedPage, RenderError> {
        let navigated = page.goto(url.as_str()).await;
        if let Some(blocked) = document_blocked(watch) {
            return Err(RenderError::Blocked {
                url: blocked.url,
                detail: blocked.reason,
            });
        }
        navigated.map_err(failed)?;
        self.settle(page).await?;
        if let Some(blocked) = document_blocked(watch) {
            // A script sent the page to a refused address after it loaded.
            return Err(RenderError::Blocked {
                url: blocked.url,
                detail: blocked.reason,
            });
        }
        let html = page.content().await.map_err(failed)?;
        let final_url = page
            .url()
            .await
            .map_err(failed)?
            .and_then(|text| Url::parse(&text).ok())
            .unwrap_or_else(|| url.clone());
        let status = page
            .evaluate(
                "(() => { const nav = performance.getEntriesByType('navigation')[0]; \
                 return nav && nav.responseStatus ? nav.responseStatus : 200; })()",
            )
            .await
            .ok()
            .and_then(|result| result.into_value::<u16>().ok())
            .unwrap_or(200);
        Ok(RenderedPage {
            final_url,
            status,
            html,
        })
    }

    /// Waits until the body's text stops growing (three equal readings) or the settle time
    /// ends. An empty body is given the whole settle time: its script may be slow.
    async fn settle(&self, page: &Page) -> Result<(), RenderError> {
        let until = Instant::now() + self.options.settle;
        let mut last = None;
        let mut steady = 0;
        loop {
            let length = page
                .evaluate("document.body ? document.body.innerText.length : 0")
                .await
                .map_err(failed)?
                .into_value::<u64>()
                .unwrap_or(0);
            if last == Some(length) {
                steady += 1;
            } else {
                steady = 0;
                last = Some(length);
            }
            if (steady >= 2 && length > 0) || Instant::now() >= until {
                return Ok(());
            }
            tokio::time::sleep(SETTLE_POLL).await;
        }
    }
}

#[async_trait]
impl Renderer for ChromiumRenderer {
    fn name(&self) -> &str {
        "chromium"
    }

    async fn render(&self, url: &Url) -> Result<RenderedPage, RenderError> {
        let _permit = self.permits.acquire().await.map_err(failed)?;
        let started = Instant::now();
        let end = started + self.options.deadline;
        let rendered = self.render_in_context(url, end).await;
        tracing::debug!(%url, elapsed = ?started.elapsed(), ok = rendered.is_ok(), "rendered");
        rendered
    }
}

fn document_blocked(watch: &Watch) -> Option<BlockedRequest> {
    watch
        .document_blocked
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone()
}

async fn stop(running: Arc<Running>) {
    // Other renders may still hold the browser; the last one to let go kills it on drop.
    if let Ok(running) = Arc::try_unwrap(running) {
        running.stop().await;
    }
}

fn failed(err: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> RenderError {
    RenderError::Failed(err.into())
}
