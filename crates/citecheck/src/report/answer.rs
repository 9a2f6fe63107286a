//! Whole answers in the HTML report: the answer's text with each cited statement coloured by
//! its verdict (`v-supported`, `v-contradicted`, `v-not_found`, `v-unreachable`), each a
//! `<details>` that opens, without script, onto its citations (label, reason, the evidence
//! quote linked to its place on the page, the page itself); then the citations that could not
//! be checked (`invalid_span`, `not_checkable_by_url`), which carry no usable span.
//!
//! Everything from the answer or the pages is escaped, and control characters (bidi overrides
//! among them) are shown as `\u{..}` instead of acting on the text around them.

use std::fmt::Write as _;
use std::ops::Range;

use citecheck_answer::Problem;
use citecheck_core::Label;

use super::html::{archive_html, badge, escape, link, quote_html};
use crate::answer::{AnswerVerdict, CitationVerdict};
use crate::results::summary::AnswerFigures;

/// One answer as the report shows it.
#[derive(Debug, Clone)]
pub struct AnswerEntry {
    /// The caller's id for the answer (a batch line's `id`).
    pub id: Option<String>,
    /// The answer's text.
    pub text: String,
    /// Each statement's byte range in `text`, in the order of `verdict.statements`.
    pub spans: Vec<Range<usize>>,
    pub verdict: AnswerVerdict,
}

/// Text from outside, inert: controls made visible, then escaped.
fn inert(text: &str) -> String {
    escape(&crate::neutral::terminal(text, true))
}

/// The per-answer figures of a batch of answers, as the report's figure boxes.
pub fn figures(f: &AnswerFigures) -> String {
    let percent =
        |v: Option<f64>| v.map_or_else(|| "n/a".to_string(), |v| format!("{:.1}%", v * 100.0));
    let labels: Vec<String> = Label::ALL
        .iter()
        .map(|l| format!("{} {l}", f.by_label.get(l.as_str()).copied().unwrap_or(0)))
        .collect();
    format!(
        "<section class=\"figures answer-figures\">\
         <div class=\"figure\"><div class=\"value\" id=\"answers-verified\">{n}</div>\
         <div class=\"caption\">answers verified<br>{labels}</div></div>\
         <div class=\"figure\"><div class=\"value\" id=\"statements-supported\">{overall}</div>\
         <div class=\"caption\">cited statements supported<br>{sup}/{st} overall, \
         {mean} mean per answer</div></div>\
         <div class=\"figure\"><div class=\"value\" id=\"uncited-sentences\">{u}</div>\
         <div class=\"caption\">uncited sentences<br>of {t} sentences</div></div>\
         <div class=\"figure\"><div class=\"value\" id=\"invalid-spans\">{inv}</div>\
         <div class=\"caption\">invalid spans<br>{nc} citations not checkable by URL</div></div>\
         </section>",
        n = f.answers,
        labels = labels.join(", "),
        overall = percent(f.supported_share_overall),
        sup = f.statements_supported,
        st = f.statements,
        mean = percent(f.supported_share_mean),
        u = f.uncited_sentences,
        t = f.sentences,
        inv = f.invalid_spans,
        nc = f.not_checkable_by_url,
    )
}

/// The `<section>` of every answer.
pub fn section(entries: &[AnswerEntry]) -> String {
    let mut html = format!(
        "<section class=\"answers\"><h2>Answers <small>({}): click a coloured statement for its \
         sources</small></h2><p class=\"legend\">",
        entries.len()
    );
    for label in Label::ALL {
        let _ = write!(html, "<span class=\"key v-{label}\">{label}</span>");
    }
    html.push_str("</p>");
    for (i, entry) in entries.iter().enumerate() {
        html.push_str(&article(i, entry));
    }
    html.push_str("</section>");
    html
}

fn article(index: usize, entry: &AnswerEntry) -> String {
    let v = &entry.verdict;
    let s = &v.summary;
    let mut html = format!(
        "<article class=\"answer\" id=\"a{index}\" data-overall=\"{o}\">{b} <strong>{id}</strong> \
         <span class=\"meta\">{f} · {n} cited statements, {share:.0}% supported · {u} of {t} \
         sentences uncited</span>",
        o = v.overall,
        b = badge(v.overall),
        id = entry
            .id
            .as_deref()
            .map_or_else(|| "answer".to_string(), inert),
        f = v.format.as_str(),
        n = s.statements,
        share = s.supported_share * 100.0,
        u = s.uncited_sentences,
        t = s.sentences,
    );
    html.push_str("<div class=\"answer-text\">");
    let mut order: Vec<usize> = (0..entry.spans.len().min(v.statements.len())).collect();
    order.sort_by_key(|&n| entry.spans[n].start);
    let mut at = 0;
    for n in order {
        let range = &entry.spans[n];
        // Overlapping statements (rare) are marked where the first one starts only; a range
        // that is not on a character boundary is left as plain text.
        let (Some(before), Some(inside)) = (
            entry.text.get(at..range.start),
            entry.text.get(range.clone()),
        ) else {
            continue;
        };
        html.push_str(&inert(before));
        let statement = &v.statements[n];
        let _ = write!(
            html,
            "<details class=\"span v-{l}\" id=\"a{index}-s{k}\" data-label=\"{l}\"><summary title=\"{l}\">{t}\
             <sup>{k}</sup></summary><span class=\"sources\">{b} <em>{claim}</em>",
            l = statement.overall,
            t = inert(inside),
            k = n + 1,
            b = badge(statement.overall),
            claim = inert(&statement.claim),
        );
        for citation in &statement.citations {
            html.push_str(&citation_html(citation));
        }
        html.push_str("</span></details>");
        at = range.end;
    }
    html.push_str(&inert(entry.text.get(at..).unwrap_or_default()));
    html.push_str("</div>");
    if !v.unchecked.is_empty() {
        html.push_str("<ul class=\"unchecked\">");
        for u in &v.unchecked {
            let problem = match u.problem {
                Problem::InvalidSpan => "invalid_span",
                Problem::NotCheckableByUrl => "not_checkable_by_url",
            };
            let _ = write!(
                html,
                "<li class=\"{problem}\"><span class=\"badge plain\">{problem}</span> {} · {}",
                inert(&u.kind),
                inert(&u.detail)
            );
            if let Some(url) = &u.url {
                let _ = write!(html, " · {}", link(url));
            }
            html.push_str("</li>");
        }
        html.push_str("</ul>");
    }
    html.push_str("</article>");
    html
}

fn citation_html(c: &CitationVerdict) -> String {
    let v = &c.verdict;
    let mut html = format!("<span class=\"source\">{} ", badge(v.label));
    if let Some(title) = &c.title {
        let _ = write!(html, "<b>{}</b> ", inert(title));
    }
    html.push_str(&link(&v.url));
    if let Some(reason) = &v.reason {
        let _ = write!(html, " · {}", escape(&reason.as_string()));
    }
    let _ = write!(html, " · confidence {:.2}", v.confidence);
    if let Some(final_url) = v.final_url.as_deref().filter(|f| *f != v.url) {
        let _ = write!(html, " · landed on {}", link(final_url));
    }
    if let Some(quote) = &v.evidence_quote {
        let _ = write!(
            html,
            "<q class=\"evidence\">{}</q>",
            quote_html(quote, v.follow_up.evidence_url.as_deref())
        );
    }
    if let Some(cited) = &c.cited_text {
        let found = match c.cited_text_found {
            Some(true) => "on the page",
            Some(false) => "NOT on the page",
            None => "not looked for",
        };
        let _ = write!(
            html,
            "<span class=\"cited\">the provider's cited_text ({found}): <q>{}</q></span>",
            inert(cited)
        );
    }
    if let Some(archive) = &v.follow_up.archive {
        html.push_str(&archive_html(archive));
    }
    if let Some(rid) = &v.rid {
        let _ = write!(html, " <code>{}</code>", escape(rid));
    }
    html.push_str("</span>");
    html
}

/// Opens the statement a link points at (`#a0-s2`: the first answer's second statement), so a
/// statement's sources can be linked to; marks the page ready for the render check.
pub const SCRIPT: &str = "(function(){\
var e=location.hash.length>1&&document.getElementById(decodeURIComponent(location.hash.slice(1)));\
for(;e;e=e.parentElement){if(e.tagName==='DETAILS')e.open=true;}\
document.body.setAttribute('data-answers-ready','1');})();";

/// The answers' own style, added to the report's.
pub const STYLE: &str = "\
.answer{border:1px solid var(--line);border-radius:8px;padding:10px 14px;margin:10px 0}\
.answer .meta{font-size:13px}.answer-text{white-space:pre-wrap;margin:8px 0;line-height:1.7;\
unicode-bidi:isolate}.answer-text details{display:inline}\
.answer-text summary{display:inline;cursor:pointer;border-radius:3px;padding:1px 2px;\
unicode-bidi:isolate}.answer-text summary::-webkit-details-marker{display:none}\
.answer-text summary sup{font-size:10px;margin-left:1px}\
.v-supported>summary,.key.v-supported{background:#dcefdc;border-bottom:2px solid #2e7d32}\
.v-contradicted>summary,.key.v-contradicted{background:#f9d6d5;border-bottom:2px solid #c62828}\
.v-not_found>summary,.key.v-not_found{background:#f8ebc8;border-bottom:2px solid #b7791f}\
.v-unreachable>summary,.key.v-unreachable{background:#e5e7eb;border-bottom:2px solid #6b7280}\
.key[class*=v-]{padding:0 6px;margin-right:8px;font-size:13px}\
.sources{display:block;white-space:normal;margin:4px 0 8px;padding:6px 10px;\
border:1px solid var(--line);border-radius:6px;background:var(--panel);font-size:13px}\
.source{display:block;margin:4px 0;overflow-wrap:anywhere}.source q,.source .cited{display:block;\
margin:2px 0 2px 12px}.unchecked{font-size:13px;color:var(--muted)}\
.badge.plain{background:#59636e}";

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use citecheck_answer::{Format, Span, Unchecked};
    use citecheck_core::{Reason, UrlVerdict};

    use super::*;
    use crate::answer::{AnswerSummary, StatementVerdict};

    fn entry() -> AnswerEntry {
        let text = "Ça <b>boils</b> at 100 °C.\u{202e} The Moon is cheese.".to_string();
        let first = 0..text.find('.').expect("a dot") + 1;
        let second = text.find("The").expect("The")..text.len();
        let mut supported =
            UrlVerdict::without_judge("https://a.example/w", Label::Supported, Reason::Soft404);
        supported.reason = None;
        supported.evidence_quote = Some("Water <boils>".into());
        supported.follow_up.evidence_url = Some("https://a.example/w#:~:text=Water".into());
        let statement = |range: &Range<usize>, label: Label, url: UrlVerdict| StatementVerdict {
            span: Span {
                start: text[..range.start].chars().count(),
                end: text[..range.end].chars().count(),
            },
            text: text[range.clone()].to_string(),
            claim: text[range.clone()].to_string(),
            overall: label,
            citations: vec![CitationVerdict {
                verdict: url,
                title: Some("<i>T</i>".into()),
                cited_text: None,
                cited_text_found: None,
            }],
        };
        let statements = vec![
            statement(&first, Label::Supported, supported),
            statement(
                &second,
                Label::Unreachable,
                UrlVerdict::without_judge(
                    "javascript:alert(1)",
                    Label::Unreachable,
                    Reason::Http(404),
                ),
            ),
        ];
        AnswerEntry {
            id: Some("a<1>".into()),
            spans: vec![first, second],
            verdict: AnswerVerdict {
                format: Format::Markdown,
                overall: Label::Supported,
                summary: AnswerSummary {
                    statements: 2,
                    by_label: BTreeMap::new(),
                    supported_share: 0.5,
                    sentences: 2,
                    uncited_sentences: 0,
                    citations: 2,
                    pages_fetched: 2,
                },
                statements,
                unchecked: vec![Unchecked {
                    problem: Problem::InvalidSpan,
                    kind: "url_citation".into(),
                    url: Some("https://b.example/".into()),
                    title: None,
                    detail: "end 900 is past the text".into(),
                }],
            },
            text,
        }
    }

    #[test]
    fn each_statement_is_coloured_by_its_verdict_and_opens_onto_its_sources() {
        let html = section(&[entry()]);
        assert_eq!(html.matches("<details class=\"span v-").count(), 2);
        assert!(html.contains(
            "<details class=\"span v-supported\" id=\"a0-s1\" data-label=\"supported\">"
        ));
        assert!(html.contains("<details class=\"span v-unreachable\""));
        assert!(html.contains(
            "<a class=\"quote\" href=\"https://a.example/w#:~:text=Water\" rel=\"noopener \
             noreferrer\" target=\"_blank\" title=\"show the quote on the page\">Water \
             &lt;boils&gt;</a>"
        ));
        assert!(html.contains("href=\"https://a.example/w\""), "the page");
        assert!(html.contains("http_404"), "the reason");
        assert!(html.contains("<li class=\"invalid_span\">"));
    }

    #[test]
    fn hostile_answer_text_stays_text() {
        let html = section(&[entry()]);
        assert!(!html.contains("<b>boils"), "{html}");
        assert!(html.contains("&lt;b&gt;boils"));
        assert!(!html.contains("<i>T"));
        assert!(html.contains("a&lt;1&gt;"));
        assert!(
            !html.contains('\u{202e}'),
            "a bidi override is shown, not obeyed"
        );
        assert!(html.contains("\\u{202e}"));
        assert!(!html.contains("href=\"javascript:"));
    }
}
