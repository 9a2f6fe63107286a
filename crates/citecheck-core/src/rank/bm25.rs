//! BM25 lexical ranking: the ranker that needs no model.
//!
//! Each passage is a document and the claim is the query. Terms are lower-cased alphanumeric
//! runs with a light plural folding (`degrees` ~ `degree`), so the ranker stays predictable.

use std::collections::HashMap;

use super::{best_indices, PagePassages, RankError, Ranker};

const K1: f64 = 1.2;
const B: f64 = 0.75;

#[derive(Debug, Default, Clone, Copy)]
pub struct Bm25Ranker;

impl Ranker for Bm25Ranker {
    fn name(&self) -> &str {
        "lexical"
    }

    fn top_k(&self, claim: &str, page: &PagePassages, k: usize) -> Result<Vec<usize>, RankError> {
        Ok(rank(claim, &page.passages, k))
    }
}

/// Indices of the `k` best passages for `query` under BM25, ties in page order.
pub fn rank(query: &str, passages: &[String], k: usize) -> Vec<usize> {
    if k == 0 || passages.is_empty() {
        return Vec::new();
    }
    let scored = scores(query, passages).into_iter().zip(0..).collect();
    best_indices(scored, k)
}

/// Each passage's BM25 score for `query` (0 where no query term occurs), in page order; the
/// embedding ranker shortlists and fuses with these.
pub fn scores(query: &str, passages: &[String]) -> Vec<f64> {
    if passages.is_empty() {
        return Vec::new();
    }
    let docs: Vec<Vec<String>> = passages.iter().map(|p| terms(p)).collect();
    let n = docs.len() as f64;
    let avg_len = docs.iter().map(Vec::len).sum::<usize>() as f64 / n;
    let mut doc_freq: HashMap<&str, usize> = HashMap::new();
    for doc in &docs {
        let mut seen: Vec<&str> = doc.iter().map(String::as_str).collect();
        seen.sort_unstable();
        seen.dedup();
        for term in seen {
            *doc_freq.entry(term).or_default() += 1;
        }
    }
    let mut query_terms = terms(query);
    query_terms.sort_unstable();
    query_terms.dedup();

    docs.iter()
        .map(|doc| {
            let len = doc.len() as f64;
            let score: f64 = query_terms
                .iter()
                .map(|term| {
                    let tf = doc.iter().filter(|t| *t == term).count() as f64;
                    if tf == 0.0 {
                        return 0.0;
                    }
                    let df = doc_freq.get(term.as_str()).copied().unwrap_or(0) as f64;
                    let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
                    let norm = if avg_len > 0.0 { len / avg_len } else { 1.0 };
                    idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * norm))
                })
                .sum();
            score
        })
        .collect()
}

/// Lower-cased alphanumeric terms with a trailing plural `s` folded away.
pub fn terms(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(|t| {
            let lower = t.to_lowercase();
            match lower.strip_suffix('s') {
                Some(stem) if stem.chars().count() >= 3 && !stem.ends_with('s') => stem.to_string(),
                _ => lower,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(passages: &[&str]) -> Vec<String> {
        passages.iter().map(|p| p.to_string()).collect()
    }

    #[test]
    fn the_passage_sharing_the_rare_terms_ranks_first() {
        let passages = page(&[
            "The museum opens at nine and closes at five.",
            "Water boils at 100 degrees Celsius at sea level.",
            "Tickets cost twelve euros for adults.",
        ]);
        assert_eq!(rank("water boils at 100 degrees", &passages, 1), vec![1]);
    }

    #[test]
    fn ties_keep_page_order_and_k_bounds_the_answer() {
        let passages = page(&["alpha", "beta", "gamma", "delta"]);
        assert_eq!(rank("nothing matches", &passages, 3), vec![0, 1, 2]);
        assert_eq!(rank("anything", &passages, 10).len(), 4);
        assert!(rank("anything", &passages, 0).is_empty());
        assert!(rank("anything", &[], 3).is_empty());
    }

    #[test]
    fn plurals_fold_to_the_same_term() {
        assert_eq!(
            terms("Degrees degree GLASS"),
            vec!["degree", "degree", "glass"]
        );
    }
}
