//! The frozen test set end to end: `fixtures/testset` was written before the `local` judge was
//! reworked for issue 18 and is never tuned on. Its gold quotes must be on their pages, and the
//! judge's score on it must not fall. The floor sits a little below the measured score; it is a
//! guard against regressions, not a target.

use std::path::Path;
use std::time::Duration;

use citecheck::eval::{self, CLAIMS_FILE, PAGES_DIR};
use citecheck_core::limits::{Budget, PageLimits};
use citecheck_core::{extract, guard, Label};

use crate::support_local::{fixture, local_verifier};

/// Claim accuracy measured with the lexical ranker: 0.811 (120/148) after the role rules of
/// 2026-12-06 (the floor raised to 0.80 then), 0.804 (119/148) after the slot and role
/// rules of the third and fourth sessions of 2026-12-05 (the floor raised to 0.79 then), 0.797
/// (118/148) after the rules of 2026-12-05, 0.784 (116/148) after issue 18's twelfth round (0.777 after the ninth to the eleventh, 0.723 after the eighth, 0.709 after the seventh, 0.703 after the fifth, 0.73 after the second round, 0.72 after the first and the
/// third, 0.716 after the fourth, 0.68 before, see `fixtures/testset/README.md`). The fifth
/// round traded two true contradictions, left `not_found`, for three fewer supported citations
/// called contradicted, as the issue ranks them; the floor leaves a small margin (raised from
/// 0.75 with the twelfth round, to 0.78 on 2026-12-05).
const CLAIM_ACCURACY_FLOOR: f64 = 0.80;
/// Precision of `contradicted` over citations, measured the same way: 0.91 (42/46) after the
/// rules from issue 18's thirty-second round (2026-12-07; the floor raised to 0.90 then, the
/// issue's target),
/// 0.91 (41/45) after the role rules of 2026-12-06, 0.91 (40/44) after the
/// slot and role rules of the later sessions of 2026-12-05 (the floor raised to 0.88 then),
/// 0.89 (41/46) after the
/// rules of 2026-12-05 (the floor raised to 0.86 then), 0.87 (40/46) after the
/// twelfth round, 0.87 (39/45) after the ninth, 0.88 (37/42) after the eighth round, 0.88 (35/40) after the fifth and the seventh (0.82 after the second and the
/// fourth, 0.83 after the third, 0.80 after the first, 0.78 before). Raised with the fifth:
/// precision is what that round bought.
const CONTRADICTED_PRECISION_FLOOR: f64 = 0.90;

/// The Markdown text of a fixture page, as the pipeline extracts it (shared with the devset).
pub(crate) fn page_markdown(pages: &Path, url: &str) -> Option<String> {
    let file = pages.join(format!("{}.html", url.trim_start_matches('/')));
    let html = std::fs::read_to_string(file).ok()?;
    let budget = Budget::new(Duration::from_secs(60));
    let extracted = extract::html_to_markdown(&html, None, &PageLimits::default(), &budget);
    Some(extracted.expect("a fixture page converts").markdown)
}

#[test]
fn every_gold_quote_is_on_its_page_and_every_decisive_label_has_one() {
    let dir = fixture("testset");
    let pages = dir.join(PAGES_DIR);
    let claims = eval::load_claims(&dir.join(CLAIMS_FILE)).expect("the set loads");
    assert!(claims.len() >= 80, "{} claims", claims.len());
    let mut problems = Vec::new();
    for claim in &claims {
        for gold in &claim.gold {
            let decisive = matches!(gold.label, Label::Supported | Label::Contradicted);
            match (&gold.quote, decisive) {
                (None, true) => problems.push(format!("{}: no gold quote", claim.id)),
                (Some(_), false) => {
                    problems.push(format!("{}: a quote on a {}", claim.id, gold.label))
                }
                (Some(quote), true) => match page_markdown(&pages, &gold.url) {
                    Some(md) if guard::quote_in_passages(quote, std::slice::from_ref(&md)) => {}
                    Some(md) => problems.push(format!(
                        "{}: quote not on the page: {quote:?}\n{md}",
                        claim.id
                    )),
                    None => problems.push(format!("{}: no page for {}", claim.id, gold.url)),
                },
                (None, false) => {}
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[tokio::test]
async fn the_local_judge_keeps_its_measured_score_on_the_frozen_test_set() {
    let dir = fixture("testset");
    let report = eval::run(&dir, &local_verifier()).await.expect("eval runs");
    println!("{report}");
    let unreachable = report
        .labels
        .iter()
        .find(|s| s.label == Label::Unreachable)
        .expect("a score per label");
    assert_eq!(unreachable.recall, Some(1.0), "{report}");
    let contradicted = report
        .labels
        .iter()
        .find(|s| s.label == Label::Contradicted)
        .expect("a score per label");
    assert!(
        contradicted.precision.unwrap_or(1.0) >= CONTRADICTED_PRECISION_FLOOR,
        "contradicted precision {:?} fell below {CONTRADICTED_PRECISION_FLOOR}\n{report}",
        contradicted.precision
    );
    assert!(
        report.claim_accuracy >= CLAIM_ACCURACY_FLOOR,
        "claim accuracy {:.3} fell below {CLAIM_ACCURACY_FLOOR}\n{report}",
        report.claim_accuracy
    );
}
