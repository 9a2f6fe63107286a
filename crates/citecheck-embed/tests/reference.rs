//! citecheck's embeddings against reference vectors from an independent implementation
//! (fixtures/embedding/make_reference.py: HF tokenizers + a float64 numpy forward pass).

mod support;

use citecheck_embed::{cosine, Embedding, Precision, WindowParams, DIMENSIONS};

struct Item {
    text: String,
    ids: Vec<u32>,
    embedding: Embedding,
}

fn reference() -> Vec<Item> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/embedding/reference.json"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("reference.json"))
            .expect("json");
    json["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|item| {
            let values: Vec<f32> = item["embedding"]
                .as_array()
                .expect("embedding")
                .iter()
                .map(|v| v.as_f64().expect("number") as f32)
                .collect();
            let mut embedding = [0f32; DIMENSIONS];
            embedding.copy_from_slice(&values);
            Item {
                text: item["text"].as_str().expect("text").to_string(),
                ids: item["ids"]
                    .as_array()
                    .expect("ids")
                    .iter()
                    .map(|v| v.as_u64().expect("id") as u32)
                    .collect(),
                embedding,
            }
        })
        .collect()
}

#[test]
fn the_reference_covers_short_long_non_ascii_and_truncated_texts() {
    let items = reference();
    assert!(items.len() >= 10);
    assert!(items.iter().any(|i| i.ids.len() <= 5));
    assert!(
        items.iter().any(|i| i.ids.len() == 256),
        "one text must exceed 256 tokens"
    );
    assert!(items.iter().any(|i| !i.text.is_ascii()));
}

#[test]
fn token_ids_match_the_reference_tokenizer() {
    let model = support::model(Precision::Bf16);
    for item in reference() {
        let ids = model.tokenizer().encode(&item.text).expect("encode");
        assert_eq!(ids, item.ids, "{:?}", item.text);
    }
}

#[test]
fn a_text_within_256_tokens_is_one_window_identical_to_the_truncating_encoding() {
    let model = support::model(Precision::Bf16);
    for item in reference().iter().filter(|i| i.ids.len() < 256) {
        let windows = model
            .tokenizer()
            .windows(&item.text, WindowParams::default())
            .expect("windows");
        assert_eq!(windows, vec![item.ids.clone()], "{:?}", item.text);
    }
}

#[test]
fn a_text_over_256_tokens_is_covered_by_windows_starting_with_the_truncated_one() {
    let model = support::model(Precision::Bf16);
    let item = reference()
        .into_iter()
        .find(|i| i.ids.len() == 256)
        .expect("long item");
    let windows = model
        .tokenizer()
        .windows(&item.text, WindowParams::default())
        .expect("windows");
    assert!(windows.len() >= 2);
    assert!(windows
        .iter()
        .all(|w| w.len() <= 256 && w[0] == 101 && w[w.len() - 1] == 102));
    assert_eq!(windows[0][..40], item.ids[..40]);
}

fn check(precision: Precision, batch: usize, min_cosine: f32) {
    let model = support::model(precision);
    let items = reference();
    let texts: Vec<&str> = items.iter().map(|i| i.text.as_str()).collect();
    let got = model.embed(&texts, batch).expect("embed");
    let lowest = items
        .iter()
        .zip(&got)
        .map(|(item, v)| cosine(&item.embedding, v))
        .fold(1.0f32, f32::min);
    eprintln!("{} batch {batch}: lowest cosine {lowest}", model.backend());
    for (item, v) in items.iter().zip(&got) {
        let c = cosine(&item.embedding, v);
        assert!(
            c >= min_cosine,
            "{} (batch {batch}): cosine {c} for {:?}",
            model.backend(),
            item.text
        );
    }
}

#[test]
fn bf16_embeddings_match_the_reference_to_cosine_0_999() {
    check(Precision::Bf16, 1, 0.999);
    check(Precision::Bf16, 4, 0.999);
}

#[test]
fn f32_embeddings_match_the_reference_to_cosine_0_99999() {
    check(Precision::F32, 1, 0.99999);
    check(Precision::F32, 32, 0.99999);
}

#[test]
fn the_portable_kernels_match_the_reference_too() {
    let model = citecheck_embed::Embedder::load_portable(&support::model_dir()).expect("loads");
    assert_eq!(model.backend(), "portable-f32");
    let items = reference();
    let texts: Vec<&str> = items.iter().map(|i| i.text.as_str()).collect();
    let got = model.embed(&texts, 4).expect("embed");
    for (item, v) in items.iter().zip(&got) {
        let c = cosine(&item.embedding, v);
        assert!(c >= 0.99999, "portable: cosine {c} for {:?}", item.text);
    }
}
