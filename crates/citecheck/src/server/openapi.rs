//! The OpenAPI 3 document served at `/openapi.json`, generated from the handlers' annotations and
//! the very types they read and write (`VerifyRequest`, the core's `ClaimVerdict`, `ErrorBody`),
//! so a renamed field changes the document with it.

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use super::{answer, error, request, routes};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "citecheck",
        description = "Checks whether the pages an LLM cited say what it claimed. POST a claim and \
                       the URLs cited for it to /verify; every citation comes back labelled \
                       supported, contradicted, not_found or unreachable, with a verbatim quote \
                       from the page when there is one."
    ),
    paths(
        routes::health,
        routes::verify,
        answer::verify_answer_route,
        routes::openapi_json,
        routes::metrics
    ),
    components(schemas(
        request::VerifyRequest,
        answer::AnswerRequest,
        crate::answer::AnswerVerdict,
        crate::answer::AnswerSummary,
        crate::answer::StatementVerdict,
        crate::answer::CitationVerdict,
        citecheck_answer::Format,
        citecheck_answer::Span,
        citecheck_answer::Unchecked,
        citecheck_answer::Problem,
        citecheck_core::ClaimVerdict,
        citecheck_core::UrlVerdict,
        citecheck_core::Label,
        citecheck_core::Reason,
        error::ErrorBody,
        routes::Health,
        routes::VerifyResponse,
    )),
    modifiers(&ApiKeyScheme),
    tags(
        (name = "verify", description = "Checking claims against their citations"),
        (name = "service", description = "Operating the service"),
    )
)]
struct ApiDoc;

/// Declares the optional bearer API key the protected routes accept.
struct ApiKeyScheme;

impl Modify for ApiKeyScheme {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "api_key",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "Required only when the server has API keys configured \
                         (CITECHECK_API_KEYS or CITECHECK_API_KEYS_FILE).",
                    ))
                    .build(),
            ),
        );
    }
}

/// The service's OpenAPI document.
pub fn document() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}

#[cfg(test)]
mod tests {
    use super::*;
    use citecheck_core::{ClaimVerdict, Label, Reason, UrlVerdict};

    /// A schema's properties, those of the parts it is composed of (`allOf`, which is how a
    /// flattened struct is documented) included.
    fn schema_properties(doc: &serde_json::Value, name: &str) -> Vec<String> {
        fn collect(doc: &serde_json::Value, schema: &serde_json::Value, keys: &mut Vec<String>) {
            if let Some(target) = schema["$ref"].as_str() {
                let name = target.rsplit('/').next().unwrap_or_default();
                return collect(doc, &doc["components"]["schemas"][name], keys);
            }
            if let Some(properties) = schema["properties"].as_object() {
                keys.extend(properties.keys().cloned());
            }
            for part in schema["allOf"].as_array().into_iter().flatten() {
                collect(doc, part, keys);
            }
        }
        let mut keys = Vec::new();
        collect(doc, &doc["components"]["schemas"][name], &mut keys);
        assert!(!keys.is_empty(), "schema {name} has properties");
        keys.sort();
        keys
    }

    fn sorted_keys(value: &serde_json::Value) -> Vec<String> {
        let mut keys: Vec<String> = value
            .as_object()
            .expect("an object")
            .keys()
            .cloned()
            .collect();
        keys.sort();
        keys
    }

    #[test]
    fn the_documented_result_has_exactly_the_fields_the_service_serialises() {
        let doc = serde_json::to_value(document()).expect("serialises");
        assert!(doc["openapi"].as_str().is_some_and(|v| v.starts_with("3.")));
        for path in ["/health", "/verify", "/openapi.json", "/metrics"] {
            assert!(doc["paths"].get(path).is_some(), "{path} is documented");
        }
        let verdict = ClaimVerdict {
            claim: "c".into(),
            overall: Label::Unreachable,
            citations: vec![UrlVerdict {
                detail: Some("d".into()),
                meta: Some(Default::default()),
                follow_up: citecheck_core::FollowUp {
                    evidence_url: Some("https://a.example/#:~:text=a".into()),
                    evidence_offsets: Some(citecheck_core::EvidenceOffsets { start: 0, end: 1 }),
                    archive: Some(citecheck_core::ArchiveInfo {
                        status: citecheck_core::ArchiveStatus::Archived,
                        snapshot_url: None,
                        captured_at: None,
                        verdict: None,
                        evidence_quote: None,
                        note: "n".into(),
                    }),
                    previously_seen: Some("2025-01-01T00:00:00Z".into()),
                    changed_since: Some(false),
                },
                ..UrlVerdict::without_judge(
                    "https://a.example",
                    Label::Unreachable,
                    Reason::Http(404),
                )
            }],
        };
        let served = serde_json::to_value(&verdict).expect("serialises");
        assert_eq!(
            schema_properties(&doc, "ClaimVerdict"),
            sorted_keys(&served)
        );
        assert_eq!(
            schema_properties(&doc, "UrlVerdict"),
            sorted_keys(&served["citations"][0])
        );
        let labels = doc["components"]["schemas"]["Label"]["enum"].clone();
        assert_eq!(
            labels,
            serde_json::json!(["supported", "contradicted", "not_found", "unreachable"])
        );
    }

    #[test]
    fn the_request_schema_names_the_reference_fields_and_refuses_others() {
        let doc = serde_json::to_value(document()).expect("serialises");
        // The reference design's two fields are required; top_k is citecheck's optional extra.
        assert_eq!(
            schema_properties(&doc, "VerifyRequest"),
            ["claim", "top_k", "urls"]
        );
        let request = &doc["components"]["schemas"]["VerifyRequest"];
        assert_eq!(request["required"], serde_json::json!(["claim", "urls"]));
        assert_eq!(request["additionalProperties"], serde_json::json!(false));
    }
}
