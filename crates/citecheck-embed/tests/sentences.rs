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

#[test]
fn token_vectors_are_unit_vectors_on_the_text_and_fill_the_sentence_cache() {
    let encoder = encoder();
    let text = "The river carries 6,500 cubic metres of water per second.";
    let tokens = encoder.encode_tokens(&[text]).expect("encodes");
    let t = &tokens[0];
    // Word pieces only: `[CLS]` and `[SEP]` are left out, every span is a piece of the text.
    assert!(t.spans.len() >= 10, "{:?}", t.spans);
    assert_eq!(t.vectors.len(), t.spans.len() * t.width);
    assert_eq!(t.width, citecheck_embed::DIMENSIONS);
    assert_eq!(&text[t.spans[1].clone()], "river");
    for k in 0..t.spans.len() {
        assert!(!t.spans[k].is_empty() && t.spans[k].end <= text.len());
        let norm: f32 = t.vector(k).iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-3, "{norm}");
    }
    // A word finds itself in another sentence about it better than in an unrelated one.
    let others = encoder
        .encode_tokens(&[
            "Ships sail up the river to the port.",
            "The museum is closed on Mondays.",
        ])
        .expect("encodes");
    let river = t.vector(1);
    assert!(others[0].best_match(river) > others[1].best_match(river) + 0.2);
    // The same pass gave the pooled vector: what a fresh encoder computes for the text.
    let pooled = encoder.encode(&[text]).expect("encodes");
    let fresh = self::encoder().encode(&[text]).expect("encodes");
    let gap = pooled[0]
        .iter()
        .zip(&fresh[0])
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f32::max);
    assert!(gap < 1e-5, "{gap}");
    // Asked again, the tokens come from the cache, unchanged.
    assert_eq!(encoder.encode_tokens(&[text]).expect("encodes")[0], *t);
}

/// A sentence's vector must not depend on which request reached the encoder first: the judge
/// asks some texts for their token vectors (which also fill the sentence cache) and others for
/// their vector alone, in an order set by the claims in flight. Two paths that disagreed in the
/// last bit made a verdict near a threshold depend on which claims ran before it.
#[test]
fn a_sentence_has_one_vector_whichever_request_encodes_it_first() {
    let texts = [
        "The first person to receive it was Albert Alexander, an Oxford police constable.",
        "Penicillin was discovered in 1928.",
        "It was mass-produced during the Second World War, and by D-Day in June 1944 there was enough for every Allied casualty.",
    ];
    let vectors_first = encoder();
    let alone = vectors_first.encode(&texts).expect("encode");
    let tokens_first = encoder();
    let tokens = tokens_first.encode_tokens(&texts).expect("tokens");
    let after_tokens = tokens_first.encode(&texts).expect("encode");
    assert_eq!(
        alone, after_tokens,
        "pooled vectors differ between the two paths"
    );
    assert_eq!(tokens.len(), texts.len());
    // And in a pass with other texts, either path.
    let mixed = encoder();
    let mut more: Vec<&str> = vec![
        "A short one.",
        "Another sentence of a different length entirely, with more words.",
    ];
    more.extend_from_slice(&texts);
    let together = mixed.encode(&more).expect("encode");
    assert_eq!(&together[2..], &alone[..], "vectors depend on the batch");
    let tokens_together = encoder().encode_tokens(&more).expect("tokens");
    for (k, one) in tokens.iter().enumerate() {
        let single = encoder().encode_tokens(&[texts[k]]).expect("tokens");
        assert_eq!(
            one.vectors, single[0].vectors,
            "token vectors depend on the batch"
        );
        assert_eq!(
            one.vectors,
            tokens_together[k + 2].vectors,
            "token vectors depend on the batch"
        );
    }
}

/// The ranker embeds a claim through the judge's encoder (`EmbeddingRanker::with_sentences`):
/// the ranking is the same (the claim's vector bit for bit), and the judge then reads the
/// claim's tokens without running it through the model again.
#[test]
fn a_claim_the_ranker_embedded_costs_the_judge_no_second_pass() {
    use citecheck_core::rank::{PagePassages, Ranker};
    use citecheck_embed::{EmbeddingRanker, WindowParams, DEFAULT_BATCH_TOKENS};

    let claim = "The old stone bridge was closed to cars in 1987 after engineers found cracks.";
    let page = PagePassages {
        content_sha256: "fixture-shared-claim".into(),
        passages: vec![
            "The railway reached the town in 1861 and the station closed in 1964.".into(),
            "The medieval crossing was shut to motor traffic in 1987, when engineers found \
             deep cracks in two of its arches."
                .into(),
            "Each summer the town holds a regatta on the river.".into(),
        ],
    };
    let sentences = Arc::new(encoder());
    let embedder = Arc::clone(sentences.embedder());
    let ranker = |shared: bool| {
        let r = EmbeddingRanker::new(
            Arc::clone(&embedder),
            WindowParams::default(),
            DEFAULT_BATCH_TOKENS,
            None,
        );
        if shared {
            r.with_sentences(Arc::clone(&sentences))
        } else {
            r
        }
    };
    let alone = ranker(false);
    let with = ranker(true);
    assert_eq!(
        alone.scores(claim, &page).expect("scores"),
        with.scores(claim, &page).expect("scores"),
        "the claim's vector through the token pass must be the plain one, bit for bit"
    );
    assert_eq!(
        with.top_k(claim, &page, 3).expect("rank"),
        alone.top_k(claim, &page, 3).expect("rank")
    );
    let before = sentences.texts_encoded();
    assert_eq!(
        before, 1,
        "the ranker ran the claim through the judge's encoder once"
    );
    let tokens = sentences.encode_tokens(&[claim]).expect("tokens");
    assert!(!tokens[0].spans.is_empty());
    sentences.encode(&[claim]).expect("vector");
    assert_eq!(
        sentences.texts_encoded(),
        before,
        "no second pass for the claim"
    );

    // Without the shared encoder, the judge's own encoder runs the claim itself.
    let own = encoder();
    alone.top_k(claim, &page, 3).expect("rank");
    own.encode_tokens(&[claim]).expect("tokens");
    assert_eq!(own.texts_encoded(), 1);
}
