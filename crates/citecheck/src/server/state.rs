//! What every request shares: the verifier (or why it cannot run), limits, keys and metrics.

use std::sync::Arc;

use citecheck_core::Verifier;

use crate::audit::command::Recorder;
use crate::settings::MissingSecret;

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

    /// Finds the missing-secret cause in an error from building the verifier, if that is what
    /// it is; any other failure to build stays a startup error.
    pub fn from_build_error(err: &anyhow::Error) -> Option<Unavailable> {
        err.chain()
            .find_map(|cause| cause.downcast_ref::<MissingSecret>())
            .map(|missing| Unavailable {
                variable: missing.variable.to_string(),
                message: missing.message.clone(),
            })
    }
}

/// Whether verdicts are written to the audit index.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AuditStatus {
    NotConfigured,
    /// Turned off (`--no-audit`, `[audit] enabled = false`).
    Disabled,
    /// Every verdict served is written to this index.
    Recording {
        path: String,
    },
    /// Configured, but the index could not be opened; verdicts are served unrecorded.
    Unavailable {
        path: String,
    },
}

impl AuditStatus {
    pub fn describe(&self) -> String {
        match self {
            AuditStatus::NotConfigured => "not configured".to_string(),
            AuditStatus::Disabled => "disabled".to_string(),
            AuditStatus::Recording { path } => format!("recording to {path}"),
            AuditStatus::Unavailable { path } => format!("unavailable: cannot open {path}"),
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
    pub ranker_runtime: Option<String>,
    pub top_k: usize,
}

impl Components {
    fn of(verifier: &Verifier) -> Components {
        let judge = verifier.judge().info();
        Components {
            fetcher: verifier.fetcher().name().to_string(),
            judge_provider: judge.provider,
            judge_model: judge.model,
            prompt_version: judge.prompt_version,
            ranker: verifier.ranker().name().to_string(),
            ranker_runtime: verifier.ranker().runtime(),
            top_k: verifier.options().top_k,
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
    recorder: Option<Recorder>,
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
    /// The state for `config`, around `verifier` (instrumented for metrics here) or the reason
    /// there is none.
    pub fn new(
        verifier: Result<Verifier, Unavailable>,
        config: &ServerConfig,
    ) -> anyhow::Result<AppState> {
        let metrics = Arc::new(Metrics::new());
        let verifier = match verifier {
            Ok(verifier) => Ok(Arc::new(metrics::instrument(&verifier, &metrics)?)),
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
                recorder: None,
            }),
        })
    }

    /// This state, writing every verdict it serves through `recorder`. Call before the state is
    /// shared; the verifier should already keep its pages (`Recorder::verifier`).
    pub fn with_audit(mut self, recorder: Recorder, status: AuditStatus) -> anyhow::Result<Self> {
        let inner = Arc::get_mut(&mut self.inner)
            .ok_or_else(|| anyhow::anyhow!("the audit must be set before the state is shared"))?;
        inner.recorder = Some(recorder);
        inner.audit = status;
        Ok(self)
    }

    /// Where served verdicts are recorded, if anywhere.
    pub fn recorder(&self) -> Option<&Recorder> {
        self.inner.recorder.as_ref()
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
    fn a_missing_secret_is_found_through_context_and_other_errors_are_not() {
        let err = anyhow::Error::new(MissingSecret {
            variable: "OPENAI_API_KEY",
            message: "the openai judge needs an API key: set OPENAI_API_KEY".into(),
        })
        .context("building the judge");
        let unavailable = Unavailable::from_build_error(&err).expect("found");
        assert_eq!(unavailable.variable, "OPENAI_API_KEY");
        assert!(unavailable.message.contains("openai judge"));

        let other = anyhow::Error::new(crate::settings::ConfigError("bad top k".into()));
        assert_eq!(Unavailable::from_build_error(&other), None);
        assert_eq!(
            Unavailable::from_build_error(&anyhow::anyhow!("bad config")),
            None
        );
    }
}
