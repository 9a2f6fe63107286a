//! Building LLM judges: a missing or unusable key fails at build time, naming the variable and
//! never a value.

use citecheck_core::judge::config::{
    DEFAULT_ANTHROPIC_MODEL, DEFAULT_OLLAMA_MODEL, DEFAULT_OPENAI_MODEL,
};
use citecheck_core::judge::prompt::PROMPT_VERSION;
use citecheck_core::judge::{
    build_llm_judge, JudgeConfigError, LlmJudgeConfig, LlmProvider, SecretString,
};

use super::{assert_no_key, KEY};

fn build_error(config: &LlmJudgeConfig) -> JudgeConfigError {
    match build_llm_judge(config) {
        Ok(_) => panic!("{} should not build", config.provider),
        Err(err) => err,
    }
}

#[test]
fn a_missing_openai_key_is_an_error_naming_the_variable() {
    let err = build_error(&LlmJudgeConfig::new(LlmProvider::OpenAi));
    assert!(matches!(
        err,
        JudgeConfigError::MissingKey {
            variable: "OPENAI_API_KEY",
            ..
        }
    ));
    assert!(err.to_string().contains("OPENAI_API_KEY"), "{err}");
}

#[test]
fn a_missing_anthropic_key_is_an_error_even_with_another_base_url() {
    let mut config = LlmJudgeConfig::new(LlmProvider::Anthropic);
    config.base_url = Some("http://127.0.0.1:9/".to_string());
    let err = build_error(&config);
    assert!(err.to_string().contains("ANTHROPIC_API_KEY"), "{err}");
}

#[test]
fn a_blank_key_counts_as_missing() {
    for provider in [LlmProvider::OpenAi, LlmProvider::Anthropic] {
        let mut config = LlmJudgeConfig::new(provider);
        config.api_key = Some(SecretString::from("  \n"));
        let err = build_error(&config);
        assert!(matches!(err, JudgeConfigError::MissingKey { .. }), "{err}");
    }
}

#[test]
fn a_key_that_cannot_be_a_header_is_refused_without_showing_it() {
    let mut config = LlmJudgeConfig::new(LlmProvider::OpenAi);
    config.api_key = Some(SecretString::from(format!("{KEY}\r\nX-Injected: 1")));
    let err = build_error(&config);
    assert!(matches!(
        err,
        JudgeConfigError::InvalidKey {
            variable: "OPENAI_API_KEY"
        }
    ));
    assert_no_key(&err.to_string());
    assert_no_key(&format!("{err:?}"));
    assert_no_key(&format!("{config:?}"));
}

#[test]
fn ollama_needs_no_key_and_each_provider_has_a_default_model() {
    let ollama = build_llm_judge(&LlmJudgeConfig::new(LlmProvider::Ollama)).expect("builds");
    assert_eq!(ollama.info().model, DEFAULT_OLLAMA_MODEL);
    assert_eq!(ollama.info().prompt_version, PROMPT_VERSION);
    for (provider, model) in [
        (LlmProvider::OpenAi, DEFAULT_OPENAI_MODEL),
        (LlmProvider::Anthropic, DEFAULT_ANTHROPIC_MODEL),
    ] {
        let mut config = LlmJudgeConfig::new(provider);
        config.api_key = Some(SecretString::from(KEY));
        let judge = build_llm_judge(&config).expect("builds with a key");
        assert_eq!(judge.info().provider, provider.as_str());
        assert_eq!(judge.info().model, model);
    }
}

#[test]
fn an_unusable_base_url_names_its_variable() {
    let cases = [
        (LlmProvider::OpenAi, "OPENAI_BASE_URL"),
        (LlmProvider::Anthropic, "ANTHROPIC_BASE_URL"),
        (LlmProvider::Ollama, "OLLAMA_HOST"),
    ];
    for (provider, variable) in cases {
        let mut config = LlmJudgeConfig::new(provider);
        config.api_key = Some(SecretString::from(KEY));
        config.base_url = Some("ftp://models.example/".to_string());
        let err = build_error(&config);
        assert!(err.to_string().contains(variable), "{err}");
    }
}
