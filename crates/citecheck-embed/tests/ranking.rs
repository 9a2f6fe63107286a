//! The embedding ranker on hand-written pages (fixtures/embedding/ranking.json): evidence deep in
//! a page behind a paraphrase that BM25 cannot see, evidence in the tail of a passage longer than
//! the model's 256 tokens, bf16 against f32, and the cache across rankers; and on a generated
//! 23,000-word page (fixtures/embedding/long_page.html), where only the BM25 shortlist may be
//! embedded and a paraphrase of a paragraph near the end must still reach the top three; and on
//! development-set citations whose evidence only the fusion with BM25 keeps.

mod support;

use std::sync::Arc;

use citecheck_core::rank::{Bm25Ranker, PagePassages, Ranker};
use citecheck_embed::{
    Embedder, EmbeddingRanker, Fusion, Precision, WindowParams, DEFAULT_BATCH_TOKENS,
    DEFAULT_SHORTLIST,
};

struct Case {
    name: String,
    claim: String,
    evidence: usize,
    page: PagePassages,
}

fn cases() -> Vec<Case> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/embedding/ranking.json"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("ranking.json")).expect("json");
    json["pages"]
        .as_array()
        .expect("pages")
        .iter()
        .map(|p| Case {
            name: p["name"].as_str().expect("name").into(),
            claim: p["claim"].as_str().expect("claim").into(),
            evidence: p["evidence"].as_u64().expect("evidence") as usize,
            page: PagePassages {
                content_sha256: format!("fixture-{}", p["name"].as_str().expect("name")),
                passages: p["passages"]
                    .as_array()
                    .expect("passages")
                    .iter()
                    .map(|s| s.as_str().expect("passage").to_string())
                    .collect(),
            },
        })
        .collect()
}

fn case(name: &str) -> Case {
    cases().into_iter().find(|c| c.name == name).expect("case")
}

fn ranker(precision: Precision) -> EmbeddingRanker {
    let model: &'static Embedder = support::model(precision);
    // A fresh, memory-only cache per ranker: these tests measure ranking, not caching.
    EmbeddingRanker::new(
        Arc::new(clone_of(model)),
        WindowParams::default(),
        DEFAULT_BATCH_TOKENS,
        None,
    )
}

/// The ranker with its default shortlist and the embedding order alone (no fusion with BM25).
fn embedding_order(ranker: EmbeddingRanker) -> EmbeddingRanker {
    ranker.with_stages(DEFAULT_SHORTLIST, Fusion::Embedding)
}

/// The tests share one loaded model per precision; a ranker owns an `Arc`, so load a second
/// handle from the same verified directory (cheap next to the tests themselves).
fn clone_of(model: &Embedder) -> Embedder {
    Embedder::load(
        model.model_dir(),
        citecheck_embed::EmbedderOptions {
            precision: model.precision(),
            backend: Some(model.backend()),
            threads: Some(1),
        },
    )
    .expect("model loads")
}

/// The embedding order, not the default fusion: BM25 ranks this page's evidence ninth of ten,
/// and reciprocal-rank fusion with that order puts it fourth whatever the backend's arithmetic
/// (measured on an AVX2-only Zen 1 with `avx2` f32 and `avx2-int8` alike). What the fusion
/// keeps is tested below (`the_default_fusion_keeps_evidence_the_embedding_order_alone_drops`).
#[test]
fn evidence_in_the_eighth_passage_reaches_the_top_three_where_bm25_misses_it() {
    let c = case("deep_evidence");
    assert_eq!(c.evidence, 7);
    let lexical = Bm25Ranker.top_k(&c.claim, &c.page, 3).expect("bm25");
    assert!(!lexical.contains(&c.evidence), "BM25 found it: {lexical:?}");
    let semantic = embedding_order(ranker(Precision::Bf16))
        .top_k(&c.claim, &c.page, 3)
        .expect("rank");
    assert!(
        semantic.contains(&c.evidence),
        "embedding top 3: {semantic:?}"
    );
}

#[test]
fn evidence_in_the_tail_of_a_long_passage_is_found() {
    let c = case("tail_evidence");
    let r = ranker(Precision::Bf16);
    let embedder = r.embedder();
    let long = &c.page.passages[c.evidence];
    let windows = embedder
        .tokenizer()
        .windows(long, WindowParams::default())
        .expect("windows");
    assert!(windows.len() >= 2, "the passage must exceed 256 tokens");

    let ranked = r.top_k(&c.claim, &c.page, 3).expect("rank");
    assert_eq!(ranked.first(), Some(&c.evidence), "ranked {ranked:?}");

    // Scoring the truncated passage (what embedding only its first 256 tokens gives) misses the
    // sentence: the best window scores clearly higher.
    let claim = embedder
        .embed(&[c.claim.as_str()], 1)
        .expect("claim")
        .remove(0);
    let truncated = embedder
        .embed(&[long.as_str()], 1)
        .expect("passage")
        .remove(0);
    let scores = r.scores(&c.claim, &c.page).expect("scores");
    let truncated_score = citecheck_embed::cosine(&claim, &truncated);
    assert!(
        scores[c.evidence] > truncated_score + 0.1,
        "best window {} vs truncated {truncated_score}",
        scores[c.evidence]
    );
}

#[test]
fn bf16_keeps_the_f32_top_three_on_every_ranking_page() {
    // The embedding order itself: reciprocal-rank fusion turns a swap of two near-equal
    // cosines into a near-tie with BM25's order, which says nothing about the kernels.
    let (bf16, f32) = (
        embedding_order(ranker(Precision::Bf16)),
        embedding_order(ranker(Precision::F32)),
    );
    for c in cases() {
        let mut a = bf16.top_k(&c.claim, &c.page, 3).expect("bf16");
        let mut b = f32.top_k(&c.claim, &c.page, 3).expect("f32");
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b, "{}", c.name);
    }
}

#[test]
fn a_known_page_or_claim_costs_no_embedding_in_a_later_run() {
    let c = case("deep_evidence");
    let dir = tempfile::tempdir().expect("tempdir");
    let model = support::model(Precision::Bf16);
    let open = || {
        EmbeddingRanker::new(
            Arc::new(clone_of(model)),
            WindowParams::default(),
            DEFAULT_BATCH_TOKENS,
            Some(dir.path().to_path_buf()),
        )
    };
    let first = open();
    let ranked = first.top_k(&c.claim, &c.page, 3).expect("rank");
    first
        .top_k("another claim citing the same page", &c.page, 3)
        .expect("rank");
    // The same claim citing the page again (a second URL of one claim, say).
    assert_eq!(first.top_k(&c.claim, &c.page, 3).expect("rank"), ranked);
    let stats = first.stats();
    assert_eq!(stats.pages_embedded, 1, "{stats:?}");
    assert_eq!(stats.pages_from_memory, 2, "{stats:?}");
    assert_eq!(stats.windows_embedded, c.page.passages.len() as u64);
    assert_eq!(stats.claims_embedded, 2, "two distinct claims: {stats:?}");

    let later = open();
    assert_eq!(later.top_k(&c.claim, &c.page, 3).expect("rank"), ranked);
    let stats = later.stats();
    assert_eq!(
        (
            stats.windows_embedded,
            stats.pages_from_disk,
            stats.claims_embedded
        ),
        (0, 1, 0),
        "{stats:?}"
    );
    // The cached vector is the model's: scores agree with a ranker that has no cache at all.
    let uncached = EmbeddingRanker::new(
        Arc::new(clone_of(model)),
        WindowParams::default(),
        DEFAULT_BATCH_TOKENS,
        None,
    );
    assert_eq!(
        later.scores(&c.claim, &c.page).expect("scores"),
        uncached.scores(&c.claim, &c.page).expect("scores")
    );
}

#[test]
fn an_empty_page_or_k_zero_ranks_nothing() {
    let r = ranker(Precision::Bf16);
    let empty = PagePassages {
        content_sha256: "empty".into(),
        passages: Vec::new(),
    };
    assert!(r.top_k("claim", &empty, 3).expect("rank").is_empty());
    let c = case("deep_evidence");
    assert!(r.top_k(&c.claim, &c.page, 0).expect("rank").is_empty());
    assert_eq!(
        r.top_k(&c.claim, &c.page, 100).expect("rank").len(),
        c.page.passages.len()
    );
    assert_eq!(r.name(), "embedding");
}

/// The claim of the long page: a paraphrase of its customs-house paragraph.
const LONG_CLAIM: &str =
    "The port's customs building was demolished in 1887 because flooding had eaten away the ground under it.";

/// The long page as the verifier sees it (readability, Markdown, 200-word passages), and the
/// index of the passage holding the evidence.
fn long_page() -> (PagePassages, usize) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/embedding/long_page.html"
    );
    let html = std::fs::read_to_string(path).expect("long_page.html");
    let budget = citecheck_core::limits::Budget::new(std::time::Duration::from_secs(60));
    let limits = citecheck_core::limits::PageLimits::default();
    let markdown = citecheck_core::extract::html_to_markdown(&html, None, &limits, &budget)
        .expect("the long page converts")
        .markdown;
    let passages = citecheck_core::passage::split(&markdown, 200).expect("passages");
    let evidence = passages
        .iter()
        .position(|p| p.contains("customs house"))
        .expect("the evidence passage");
    (
        PagePassages {
            content_sha256: "fixture-long-page".into(),
            passages,
        },
        evidence,
    )
}

#[test]
fn a_paraphrase_near_the_end_of_a_23000_word_page_reaches_the_top_three_from_the_shortlist() {
    let (page, evidence) = long_page();
    let words: usize = page
        .passages
        .iter()
        .map(|p| p.split_whitespace().count())
        .sum();
    assert!(words > 20_000, "{words} words");
    assert!(
        evidence * 4 >= page.passages.len() * 3,
        "evidence at {evidence} of {} must sit in the last quarter",
        page.passages.len()
    );
    let r = ranker(Precision::Bf16);
    assert_eq!(r.shortlist(), DEFAULT_SHORTLIST);
    let top = r.top_k(LONG_CLAIM, &page, 3).expect("rank");
    assert!(
        top.contains(&evidence),
        "top 3 {top:?}, evidence {evidence}"
    );

    // Bounded cost: the windows of at most the shortlist's passages were embedded.
    let windows: Vec<usize> = page
        .passages
        .iter()
        .map(|p| {
            r.embedder()
                .tokenizer()
                .windows(p, WindowParams::default())
                .expect("windows")
                .len()
        })
        .collect();
    let mut most: Vec<usize> = windows.clone();
    most.sort_unstable_by(|a, b| b.cmp(a));
    let bound: usize = most.iter().take(DEFAULT_SHORTLIST).sum();
    let embedded = r.stats().windows_embedded as usize;
    assert!(
        embedded <= bound && embedded * 3 < windows.iter().sum::<usize>(),
        "embedded {embedded} windows of {} (shortlist bound {bound})",
        windows.iter().sum::<usize>()
    );
}

/// The two-stage bf16 ranker keeps the top three of the f32 ranker that embeds every passage and
/// ranks by embeddings alone on every ranking page. On the long page, whose generated paragraphs
/// are near-ties for places two and three, it keeps the reference's best passage in its top three.
#[test]
fn the_two_stage_ranker_keeps_the_whole_page_f32_top_three() {
    let two_stage = embedding_order(ranker(Precision::Bf16));
    let whole = ranker(Precision::F32).with_stages(0, Fusion::Embedding);
    for c in cases() {
        let mut a = two_stage.top_k(&c.claim, &c.page, 3).expect("two-stage");
        let mut b = whole.top_k(&c.claim, &c.page, 3).expect("whole page");
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b, "{}", c.name);
    }
    let (long, evidence) = long_page();
    let a = two_stage.top_k(LONG_CLAIM, &long, 3).expect("two-stage");
    let b = whole.top_k(LONG_CLAIM, &long, 3).expect("whole page");
    assert_eq!(b.first(), Some(&evidence), "whole-page reference {b:?}");
    assert!(a.contains(&evidence), "two-stage {a:?}, whole page {b:?}");
}

/// `/health` shows what the ranker says of its model: the embedding ranker holds its weights,
/// BM25 has none (moved from the service's routes, issue 12).
#[test]
fn only_model_backed_rankers_report_a_loaded_model() {
    assert_eq!(ranker(Precision::Bf16).model_loaded(), Some(true));
    assert_eq!(Bm25Ranker.model_loaded(), None);
}

/// A development-set citation: the claim and its page's passages (as cut and as the ranker
/// reads them), and its gold quote.
fn devset_case(id: &str) -> (String, Vec<String>, PagePassages, String) {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/devset");
    let claims = std::fs::read_to_string(format!("{root}/claims.jsonl")).expect("claims");
    let row: serde_json::Value = claims
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("a claims line"))
        .find(|r| r["id"] == id)
        .expect("the claim");
    let gold = &row["gold"][0];
    let url = gold["url"].as_str().expect("url");
    let file = citecheck_embed::bench_support::page_file(std::path::Path::new(root), url);
    let passages = citecheck_embed::bench_support::page_passages(&file)
        .expect("extracts")
        .expect("the page is in the set");
    let visible = passages
        .iter()
        .map(|p| citecheck_core::guard::strip_inline_markdown(p))
        .collect();
    (
        row["claim"].as_str().expect("claim").to_string(),
        passages,
        PagePassages {
            content_sha256: id.to_string(),
            passages: visible,
        },
        gold["quote"].as_str().expect("quote").to_string(),
    )
}

/// Development-set citations whose deciding passage BM25 ranks in its top three and the
/// embedding order alone does not: the default ranker, which fuses the two orders, keeps it.
#[test]
fn the_default_fusion_keeps_evidence_the_embedding_order_alone_drops() {
    for id in ["penicillin-12", "lovelace-05", "calloway-02"] {
        let (claim, passages, page, quote) = devset_case(id);
        let kept = |top: Vec<usize>| -> Vec<String> {
            top.into_iter().map(|i| passages[i].clone()).collect()
        };
        let lexical = kept(Bm25Ranker.top_k(&claim, &page, 3).expect("bm25"));
        assert!(
            citecheck_core::guard::quote_in_passages(&quote, &lexical),
            "{id}: BM25"
        );
        let fused = kept(
            ranker(Precision::Bf16)
                .top_k(&claim, &page, 3)
                .expect("default"),
        );
        assert!(
            citecheck_core::guard::quote_in_passages(&quote, &fused),
            "{id}: default"
        );
        let alone = embedding_order(ranker(Precision::Bf16));
        let alone = kept(alone.top_k(&claim, &page, 3).expect("embedding order"));
        assert!(
            !citecheck_core::guard::quote_in_passages(&quote, &alone),
            "{id}: the embedding order alone kept it, so the case shows nothing"
        );
    }
}
