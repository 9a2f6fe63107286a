//! `--format text` for an answer: the answer with each cited statement marked `[[...]]^n`,
//! then each statement's verdict and its citations beneath, then what could not be checked.

use std::fmt::Write as _;

use super::verdict::AnswerVerdict;

/// The answer marked up and its verdicts, for a terminal.
pub fn text(
    answer_text: &str,
    verdict: &AnswerVerdict,
    spans: &[std::ops::Range<usize>],
) -> String {
    let mut out = String::new();
    let mut at = 0;
    let mut order: Vec<(usize, &std::ops::Range<usize>)> = spans.iter().enumerate().collect();
    order.sort_by_key(|(_, r)| r.start);
    for (n, range) in order {
        // Overlapping spans (rare) are marked where they start only.
        if range.start < at {
            continue;
        }
        out.push_str(answer_text.get(at..range.start).unwrap_or_default());
        let _ = write!(
            out,
            "[[{}]]^{}",
            answer_text.get(range.clone()).unwrap_or_default(),
            n + 1
        );
        at = range.end;
    }
    out.push_str(answer_text.get(at..).unwrap_or_default());
    let s = &verdict.summary;
    let _ = writeln!(
        out,
        "\n\noverall: {}",
        verdict.overall.as_str().to_uppercase()
    );
    let _ = writeln!(
        out,
        "{} cited statements ({:.0}% supported), {} of {} sentences uncited, {} pages fetched",
        s.statements,
        s.supported_share * 100.0,
        s.uncited_sentences,
        s.sentences,
        s.pages_fetched
    );
    for (n, statement) in verdict.statements.iter().enumerate() {
        let _ = writeln!(
            out,
            "\n^{} {}  {}",
            n + 1,
            statement.overall.as_str().to_uppercase(),
            statement.claim
        );
        for c in &statement.citations {
            let v = &c.verdict;
            let mut line = format!("    {:<13} {}", v.label.as_str(), v.url);
            if let Some(reason) = &v.reason {
                let _ = write!(line, "  [{reason}]");
            }
            let _ = writeln!(out, "{line}");
            if let Some(quote) = &v.evidence_quote {
                let quote = quote.split_whitespace().collect::<Vec<_>>().join(" ");
                let _ = writeln!(out, "                  \"{quote}\"");
            }
            if let (Some(cited), Some(found)) = (&c.cited_text, c.cited_text_found) {
                let on_page = if found {
                    "on the page"
                } else {
                    "NOT on the page"
                };
                let _ = writeln!(out, "                  cited_text {on_page}: \"{cited}\"");
            }
        }
    }
    if !verdict.unchecked.is_empty() {
        let _ = writeln!(out, "\nnot checked:");
        for u in &verdict.unchecked {
            let problem = serde_json::to_value(u.problem)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default();
            let _ = writeln!(out, "    {problem:<21} {} ({})", u.kind, u.detail);
        }
    }
    out
}
