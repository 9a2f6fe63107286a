//! The embedding model as the local judge's sentence encoder: unit vectors whose similarity
//! ranks a paraphrase above an unrelated sentence, the same vector from the cache as from the
//! model, and the judge reading a paraphrase its words alone leave open (issue 18).

mod support;

use std::sync::Arc;

use citecheck_core::judge::meaning::similarity;
use citecheck_core::judge::{JudgeLabel, LocalJudge, SentenceEncoder};
use citecheck_embed::sentences::SentenceEmbedder;
use citecheck_embed::{Embedder, EmbedderOptions, Precision};

fn encoder() -> SentenceEmbedder {
    let embedder = Embedder::load(
        &support::model_dir(),
        EmbedderOptions {
            precision: Precision::Bf16,
            backend: None,
            threads: Some(1),
        },
    )
    .expect("the model loads");
    SentenceEmbedder::new(Arc::new(embedder))
}

#[test]
fn a_paraphrase_is_closer_than_an_unrelated_sentence_and_the_cache_agrees() {
    let encoder = encoder();
    let texts = [
        "Water boils at 100 degrees Celsius at sea level.",
        "At sea level, water reaches its boiling point at 100 °C.",
        "The museum is closed on Mondays.",
        "Water boils at 100 degrees Celsius at sea level.",
    ];
    let v = encoder.encode(&texts).expect("encodes");
    assert_eq!(v.len(), 4);
    for vector in &v {
        let norm: f32 = vector.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-2, "{norm}");
    }
    assert!(similarity(&v[0], &v[1]) > similarity(&v[0], &v[2]) + 0.3);
    assert_eq!(v[0], v[3]);
    // Second call: from the cache, the same vectors.
    let again = encoder.encode(&texts[..2]).expect("encodes");
    assert_eq!(again[0], v[0]);
    assert_eq!(again[1], v[1]);
}

#[test]
fn the_judge_reads_a_paraphrase_that_its_words_leave_open() {
    let claim = "The factory uses a 28-nanometre process rather than the cutting-edge \
                 5-nanometre technology found in the latest phone processors.";
    let passage = "The factory makes chips on a 28-nanometre process, an older technology than \
                   the 5-nanometre one used for the newest phone processors."
        .to_string();
    let words = LocalJudge::default().assess(claim, std::slice::from_ref(&passage));
    assert_eq!(words.label, JudgeLabel::NotFound, "{:?}", words.detail);
    let judge = LocalJudge::default().with_encoder(Arc::new(encoder()));
    let j = judge.assess(claim, std::slice::from_ref(&passage));
    assert_eq!(j.label, JudgeLabel::Supported, "{:?}", j.detail);
    assert_eq!(j.evidence_quote.as_deref(), Some(passage.as_str()));
}
