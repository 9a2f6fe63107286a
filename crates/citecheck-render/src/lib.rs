//! The local JavaScript renderer for citecheck (`--render chromium`): loads a page in headless
//! Chromium through the DevTools protocol and hands back the DOM its scripts built.
//!
//! It implements citecheck-core's [`Renderer`](citecheck_core::fetch::Renderer), so the core
//! never depends on a browser crate; wrap it in a
//! [`RenderFetcher`](citecheck_core::fetch::RenderFetcher) and place that after the direct
//! fetcher in an [`Escalation`](citecheck_core::fetch::Escalation).
//!
//! Guarantees: every request the page makes passes the project's address guard (see
//! [`guard`]); a render ends by its deadline; one browser per renderer, started on first use
//! and stopped by [`ChromiumRenderer::shutdown`] (or, in the background, when the renderer is
//! dropped), its profile directory removed; nothing downloads a browser.

pub mod guard;
mod locate;
mod profile;
mod renderer;

pub use guard::BlockedRequest;
pub use locate::{find_chromium, LocateError, CHROMIUM_NAMES, CHROMIUM_VAR};
pub use renderer::{ChromiumOptions, ChromiumRenderer, SetupError};
