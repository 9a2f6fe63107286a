//! Optional API keys: when any are configured, protected routes need
//! `Authorization: Bearer <key>`; otherwise 401.
//!
//! Only SHA-256 digests of the keys are kept, and a presented key is compared against every
//! digest in constant time, so neither the comparison nor an early exit tells an attacker how
//! close a guess was (hashing first also hides the keys' lengths).

use axum::extract::{Request, State};
use axum::http::header::AUTHORIZATION;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};
use subtle::{Choice, ConstantTimeEq};

use super::error::ApiError;
use super::state::AppState;

/// The accepted keys, as digests. `Debug` never shows them.
#[derive(Clone, Default)]
pub struct ApiKeys {
    digests: Vec<[u8; 32]>,
}

impl std::fmt::Debug for ApiKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ApiKeys({} configured)", self.digests.len())
    }
}

impl ApiKeys {
    /// Keys from any list; blank entries are skipped, surrounding whitespace is not part of a key.
    pub fn from_list<'a>(keys: impl IntoIterator<Item = &'a str>) -> ApiKeys {
        let mut out = ApiKeys::default();
        for key in keys.into_iter().map(str::trim).filter(|k| !k.is_empty()) {
            out.digests.push(digest(key));
        }
        out
    }

    pub fn extend(&mut self, other: ApiKeys) {
        self.digests.extend(other.digests);
    }

    pub fn is_empty(&self) -> bool {
        self.digests.is_empty()
    }

    pub fn len(&self) -> usize {
        self.digests.len()
    }

    /// Whether `presented` is one of the keys. Looks at every key whatever the outcome.
    pub fn accepts(&self, presented: &str) -> bool {
        let presented = digest(presented);
        let matched = self
            .digests
            .iter()
            .fold(Choice::from(0), |found, key| found | key.ct_eq(&presented));
        bool::from(matched)
    }
}

fn digest(key: &str) -> [u8; 32] {
    Sha256::digest(key.as_bytes()).into()
}

/// Middleware for the protected routes. Does nothing when no key is configured.
pub async fn require_key(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let keys = state.api_keys();
    if keys.is_empty() {
        return next.run(request).await;
    }
    let header = request.headers().get(AUTHORIZATION);
    let Some(header) = header else {
        return ApiError::unauthorized("this route needs `Authorization: Bearer <key>`")
            .into_response();
    };
    let token = header
        .to_str()
        .ok()
        .and_then(|value| {
            let (scheme, token) = value.trim().split_once(' ')?;
            scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
        })
        .filter(|token| !token.is_empty());
    match token {
        Some(token) if keys.accepts(token) => next.run(request).await,
        Some(_) => ApiError::unauthorized("the API key is not valid").into_response(),
        None => ApiError::unauthorized("the Authorization header must be `Bearer <key>`")
            .into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_configured_keys_are_accepted() {
        let keys = ApiKeys::from_list(["alpha", " beta ", ""]);
        assert_eq!(keys.len(), 2);
        assert!(keys.accepts("alpha"));
        assert!(keys.accepts("beta"));
        for wrong in ["", "alph", "alpha ", "ALPHA", "gamma"] {
            assert!(!keys.accepts(wrong), "{wrong:?}");
        }
        assert!(!ApiKeys::default().accepts(""));
    }

    #[test]
    fn debug_output_never_shows_a_key() {
        let keys = ApiKeys::from_list(["sk-very-secret"]);
        let shown = format!("{keys:?}");
        assert!(!shown.contains("secret"), "{shown}");
        assert!(shown.contains('1'), "{shown}");
    }
}
