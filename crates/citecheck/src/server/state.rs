//! What every request shares: the verifier (or why it cannot run), limits, keys and metrics.

use std::sync::Arc;

use citecheck_core::{Verifier, VerifierBuilder};

use crate::config::ConfigError;
use crate::error::AppError;
pub use crate::storage::AuditStatus;

use super::auth::ApiKeys;
use super::config::{Limits, ServerConfig};
use super::limits::Limiter;
use super::metrics::{self, Metrics};

/// The pipeline cannot run until the operator sets something, e.g. the judge's API key.
/// `POST /verify` answers 503 with this message; it names the variable, never a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unavailable {
    /// The environment variable to set (`OPENAI_API_KEY`).
    pub variable: String,
    /// What needs it, in words (`the openai judge needs OPENAI_API_KEY, which is not set`).
    pub message: String,
}

impl Unavailable {
    /// `what` needs `variable`, which is not set.
    pub fn missing(what: &str, variable: &str) -> Self {
        Unavailable {
            variable: variable.to_string(),
            message: format!("{what} needs {variable}, which is not set"),
        }
    }

    /// The missing secret an error from building the verifier names, if that is what it is;
    /// any other failure to build stays a startup error.
    pub fn from_build_error(err: &AppError) -> Option<Unavailable> {
        match err {
            AppError::MissingSecret(missing) => Some(Unavailable {
                variable: missing.variable().to_string(),
                message: missing.to_string(),
            }),
            _ => None,
        }
    }
}

/// What the pipeline is made of, for `/health`.
#[derive(Debug, Clone)]
pub struct Components {
    pub fetcher: String,
    pub judge_provider: String,
    pub judge_model: String,
    pub prompt_version: String,
    pub ranker: String,
    /// The ranker's own answer (`None`: it uses no model).
    pub ranker_model_loaded: Option<bool>,
    pub ranker_runtime: Option<String>,
    pub top_k: usize,
}

impl Components {
    fn of(verifier: &Verifier) -> Components {
        let parts = verifier.components();
        Components {
            fetcher: parts.fetcher,
            judge_provider: parts.judge.provider,
            judge_model: parts.judge.model,
            prompt_version: parts.judge.prompt_version,
            ranker: parts.ranker,
            ranker_model_loaded: parts.ranker_model_loaded,
            ranker_runtime: parts.ranker_runtime,
            top_k: parts.options.top_k,
        }
    }
}

struct Inner {
    verifier: Result<Arc<Verifier>, Unavailable>,
    components: Option<Components>,
    limits: Limits,
    limiter: Arc<Limiter>,
    api_keys: ApiKeys,
    metrics: Arc<Metrics>,
    address_guard: bool,
    audit: AuditStatus,
}

/// Shared by every request; cheap to clone.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for AppState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppState")
            .field("components", &self.inner.components)
            .field("limits", &self.inner.limits)
            .field("api_keys", &self.inner.api_keys)
            .finish_non_exhaustive()
    }
}

impl AppState {
    /// The state for `config`, around the verifier `builder` describes (instrumented for
    /// metrics here; stores, if any, already attached) or the reason there is none.
    pub fn new(
        builder: Result<VerifierBuilder, Unavailable>,
        config: &ServerConfig,
    ) -> Result<AppState, ConfigError> {
        AppState::with_metrics(builder, config, Arc::new(Metrics::new()))
    }

    /// [`AppState::new`], counting in `metrics`, which parts built before the state (the audit
    /// writer) already count in.
    pub fn with_metrics(
        builder: Result<VerifierBuilder, Unavailable>,
        config: &ServerConfig,
        metrics: Arc<Metrics>,
    ) -> Result<AppState, ConfigError> {
        let verifier = match builder {
            Ok(builder) => Ok(Arc::new(metrics::instrument(builder, &metrics).build()?)),
            Err(unavailable) => Err(unavailable),
        };
        let components = verifier.as_ref().ok().map(|v| Components::of(v));
        Ok(AppState {
            inner: Arc::new(Inner {
                verifier,
                components,
                limits: config.limits.clone(),
                limiter: Limiter::new(config.limits.max_concurrent),
                api_keys: config.api_keys.clone(),
                metrics,
                address_guard: config.address_guard,
                audit: AuditStatus::NotConfigured,
            }),
        })
    }

    /// This state, reporting `status` for the audit on `/health`. The recorder itself is
    /// attached to the verifier's builder ([`Stores::attach`](crate::storage::Stores::attach)).
    pub fn with_audit_status(mut self, status: AuditStatus) -> Result<Self, AppError> {
        let inner = Arc::get_mut(&mut self.inner).ok_or_else(|| {
            anyhow::anyhow!("the audit status must be set before the state is shared")
        })?;
        inner.audit = status;
        Ok(self)
    }

    pub fn verifier(&self) -> Result<&Arc<Verifier>, &Unavailable> {
        self.inner.verifier.as_ref()
    }

    pub fn components(&self) -> Option<&Components> {
        self.inner.components.as_ref()
    }

    pub fn limits(&self) -> &Limits {
        &self.inner.limits
    }

    pub fn limiter(&self) -> &Arc<Limiter> {
        &self.inner.limiter
    }

    pub fn api_keys(&self) -> &ApiKeys {
        &self.inner.api_keys
    }

    pub fn metrics(&self) -> &Arc<Metrics> {
        &self.inner.metrics
    }

    pub fn address_guard(&self) -> bool {
        self.inner.address_guard
    }

    pub fn audit(&self) -> &AuditStatus {
        &self.inner.audit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_secret_is_found_and_other_errors_are_not() {
        let err = AppError::from(citecheck_core::judge::JudgeConfigError::MissingKey {
            provider: "openai",
            variable: "OPENAI_API_KEY",
        });
        let unavailable = Unavailable::from_build_error(&err).expect("found");
        assert_eq!(unavailable.variable, "OPENAI_API_KEY");
        assert!(unavailable.message.contains("openai judge"));

        let other = AppError::usage("bad top k");
        assert_eq!(Unavailable::from_build_error(&other), None);
        assert_eq!(
            Unavailable::from_build_error(&anyhow::anyhow!("bad config").into()),
            None
        );
    }
}
