//! The address guard for the browser: every request a page makes (the document, its redirects,
//! sub-resources, `fetch()`/XHR, frames) is paused by the DevTools `Fetch` domain and let go
//! only if the project's guard passes its URL ([`check_url`]); the rest fail with
//! `BlockedByClient` before any connection is made.
//!
//! The check resolves the name, then Chromium resolves it again to connect: a name whose
//! answers change between the two (DNS rebinding) could slip through. The direct fetcher closes
//! that gap by connecting only to the addresses it checked; a browser offers no such hook short
//! of `--host-resolver-rules`, which cannot express "public addresses only".

use std::sync::{Arc, Mutex, PoisonError};

use chromiumoxide::cdp::browser_protocol::fetch::{
    ContinueRequestParams, EventRequestPaused, FailRequestParams,
};
use chromiumoxide::cdp::browser_protocol::network::{ErrorReason, ResourceType};
use chromiumoxide::cdp::browser_protocol::page::FrameId;
use chromiumoxide::listeners::EventStream;
use chromiumoxide::Page;
use citecheck_core::fetch::resolve::{check_url, GuardPolicy, HostResolver};
use futures::StreamExt;
use url::Url;

/// Requests decided at once for one page; each may wait on a name lookup.
const CONCURRENT_DECISIONS: usize = 16;

/// A request the guard refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockedRequest {
    pub url: String,
    /// Why, in words (the guard's refusal).
    pub reason: String,
}

/// The guard's rule and its record of refusals (kept for logs and tests).
pub(crate) struct Guard {
    pub policy: GuardPolicy,
    pub resolver: Arc<dyn HostResolver>,
    pub blocked: Mutex<Vec<BlockedRequest>>,
}

/// What the guard saw during one render.
#[derive(Default)]
pub(crate) struct Watch {
    /// The main frame's document (the page or a redirect of it) was refused.
    pub document_blocked: Mutex<Option<BlockedRequest>>,
}

impl Guard {
    /// `None` to let the request go, or why not.
    async fn refusal(&self, url: &str) -> Option<String> {
        let parsed = match Url::parse(url) {
            Ok(parsed) => parsed,
            Err(err) => return Some(format!("the URL does not parse: {err}")),
        };
        // Local schemes read nothing from the network.
        if matches!(parsed.scheme(), "data" | "blob" | "about") {
            return None;
        }
        check_url(&self.policy, self.resolver.as_ref(), &parsed)
            .await
            .err()
            .map(|refusal| refusal.to_string())
    }

    fn record(&self, blocked: BlockedRequest) {
        tracing::info!(url = %blocked.url, reason = %blocked.reason, "the renderer refused a request");
        self.blocked
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(blocked);
    }

    /// Decides every paused request of `page` until the stream ends (the page closes) or the
    /// task running this is aborted. A request left undecided stays paused: the guard fails
    /// closed.
    pub async fn intercept(
        &self,
        page: &Page,
        events: EventStream<EventRequestPaused>,
        main_frame: Option<FrameId>,
        watch: &Watch,
    ) {
        events
            .for_each_concurrent(CONCURRENT_DECISIONS, |event| {
                let main_frame = main_frame.clone();
                async move {
                    let url = event.request.url.clone();
                    let sent = match self.refusal(&url).await {
                        None => page
                            .execute(ContinueRequestParams::new(event.request_id.clone()))
                            .await
                            .map(drop),
                        Some(reason) => {
                            let blocked = BlockedRequest { url, reason };
                            let is_main_document = event.resource_type == ResourceType::Document
                                && main_frame.as_ref() == Some(&event.frame_id);
                            if is_main_document {
                                *watch
                                    .document_blocked
                                    .lock()
                                    .unwrap_or_else(PoisonError::into_inner) =
                                    Some(blocked.clone());
                            }
                            self.record(blocked);
                            page.execute(FailRequestParams::new(
                                event.request_id.clone(),
                                ErrorReason::BlockedByClient,
                            ))
                            .await
                            .map(drop)
                        }
                    };
                    if let Err(err) = sent {
                        // The page is closing, or the browser went away: the render ends anyway.
                        tracing::debug!(error = %err, "could not answer a paused request");
                    }
                }
            })
            .await;
    }
}
