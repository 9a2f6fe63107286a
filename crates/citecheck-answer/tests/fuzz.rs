//! Property tests: random JSON, random offsets and random text never make the reader panic,
//! and every statement it returns has offsets that really cut its text out of the answer.

use citecheck_answer::{parse, Answer, Format};
use proptest::prelude::*;
use serde_json::{json, Value};

fn spans_are_consistent(answer: &Answer) {
    for s in &answer.statements {
        let by_chars: String = answer
            .text
            .chars()
            .skip(s.span.start)
            .take(s.span.end.saturating_sub(s.span.start))
            .collect();
        assert_eq!(by_chars, s.text);
    }
}

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        "\\PC{0,12}".prop_map(Value::String),
        prop_oneof![
            Just("output_text"),
            Just("url_citation"),
            Just("text"),
            Just("message")
        ]
        .prop_map(|s| json!(s)),
    ];
    leaf.prop_recursive(4, 64, 6, |inner| {
        let keys = prop_oneof![
            Just("output".to_string()),
            Just("content".to_string()),
            Just("choices".to_string()),
            Just("candidates".to_string()),
            Just("citations".to_string()),
            Just("type".to_string()),
            Just("text".to_string()),
            Just("annotations".to_string()),
            Just("message".to_string()),
            Just("start_index".to_string()),
            Just("end_index".to_string()),
            Just("url".to_string()),
            Just("groundingMetadata".to_string()),
            Just("segment".to_string()),
            Just("url_citation".to_string()),
            "[a-z]{1,6}",
        ];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(keys, inner, 0..5)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn random_json_never_panics(value in arb_json()) {
        let input = value.to_string();
        if let Ok(answer) = parse(&input, None) { spans_are_consistent(&answer); }
        for format in Format::ALL {
            if let Ok(answer) = parse(&input, Some(format)) { spans_are_consistent(&answer); }
        }
    }

    #[test]
    fn random_offsets_never_panic(
        text in "\\PC{0,40}",
        spans in prop::collection::vec((0u64..200, 0u64..200, 0u64..3), 0..6),
    ) {
        let annotations: Vec<Value> = spans.iter().map(|(s, e, _)| json!({"type": "url_citation",
            "start_index": s, "end_index": e, "url": "https://a.example/", "title": "t"})).collect();
        let responses = json!({"output": [{"type": "message", "content": [
            {"type": "output_text", "text": text, "annotations": annotations}]}]});
        let supports: Vec<Value> = spans.iter().map(|(s, e, p)| json!({"segment":
            {"startIndex": s, "endIndex": e, "partIndex": p}, "groundingChunkIndices": [0, 9]})).collect();
        let gemini = json!({"candidates": [{"content": {"parts": [{"text": text}, {"text": "é"}]},
            "groundingMetadata": {"groundingChunks": [{"web": {"uri": "https://a.example/"}}],
            "groundingSupports": supports}}]});
        for input in [responses, gemini] {
            let answer = parse(&input.to_string(), None).expect("a known shape");
            spans_are_consistent(&answer);
        }
    }

    #[test]
    fn random_markdown_never_panics(text in "(\\PC|\\[|\\]|\\(|\\)|\\^|[0-9]|https://x\\.y/|\n| ){0,80}") {
        if let Ok(answer) = parse(&text, Some(Format::Markdown)) { spans_are_consistent(&answer); }
    }
}
