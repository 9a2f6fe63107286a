//! [`Check`]: one call to [`Verifier::verify`](super::Verifier::verify): the claim, its URLs,
//! and what this call chooses differently from the verifier's defaults.

use super::pages::SharedPages;
use crate::model::{ClaimVerdict, UrlVerdict};
use crate::store::Origin;

/// A claim to verify against the URLs cited for it.
#[derive(Debug, Clone)]
pub struct Check {
    pub(super) claim: String,
    pub(super) urls: Vec<String>,
    pub(super) top_k: Option<usize>,
    pub(super) previous: Vec<UrlVerdict>,
    pub(super) origin: Origin,
    pub(super) pages: Option<SharedPages>,
}

impl Check {
    /// `claim` against `urls`, with the verifier's defaults.
    pub fn new<U>(claim: impl Into<String>, urls: impl IntoIterator<Item = U>) -> Self
    where
        U: Into<String>,
    {
        Check {
            claim: claim.into(),
            urls: urls.into_iter().map(Into::into).collect(),
            top_k: None,
            previous: Vec::new(),
            origin: Origin::default(),
            pages: None,
        }
    }

    /// Checks `old`'s claim again, but only the citations whose fetch failed (timeouts, 5xx,
    /// 429, connection errors); the others keep their verdicts.
    pub fn retrying(old: ClaimVerdict) -> Self {
        Check {
            urls: old.citations.iter().map(|c| c.url.clone()).collect(),
            claim: old.claim,
            top_k: None,
            previous: old.citations,
            origin: Origin::default(),
            pages: None,
        }
    }

    /// Shows the judge `top_k` passages per citation instead of the verifier's number.
    pub fn top_k(mut self, top_k: usize) -> Self {
        self.top_k = Some(top_k);
        self
    }

    /// Where this verification comes from, for the recorder.
    pub fn origin(mut self, origin: Origin) -> Self {
        self.origin = origin;
        self
    }

    /// Reads pages through `pages`, shared with the other checks given the same handle: a URL
    /// they cite too is fetched once for all of them (see [`SharedPages`]).
    pub fn pages(mut self, pages: &SharedPages) -> Self {
        self.pages = Some(pages.clone());
        self
    }

    pub fn claim(&self) -> &str {
        &self.claim
    }

    pub fn urls(&self) -> &[String] {
        &self.urls
    }
}
