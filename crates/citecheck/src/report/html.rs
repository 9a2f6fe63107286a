//! The report's HTML: inline CSS, inline SVG, a few lines of inline JavaScript for the filters
//! (which also read `#label=contradicted,not_found&domain=...&q=...` from the URL, so a filtered
//! view can be linked), and every piece of user-supplied text escaped. Links to cited pages are the only references
//! out of the file, and only http(s) URLs become links.

use std::io::Write;

use citecheck_core::{ArchiveInfo, ArchiveStatus, Label};

use super::answer::{self, AnswerEntry};
use super::charts::{self, LABEL_COLOURS};
use super::{label_index, DomainCounts, ReportRow, Source, Totals};

/// Domains drawn in the per-domain chart; the rest are summed into one bar.
const CHART_DOMAINS: usize = 15;
/// Domains offered in the filter.
const FILTER_DOMAINS: usize = 300;

/// Escapes text for HTML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

pub(super) fn link(url: &str) -> String {
    let text = escape(url);
    if url.starts_with("http://") || url.starts_with("https://") {
        format!("<a href=\"{text}\" rel=\"noopener noreferrer\" target=\"_blank\">{text}</a>")
    } else {
        text
    }
}

fn percent(value: Option<f64>) -> String {
    value.map_or_else(|| "n/a".to_string(), |v| format!("{:.1}%", v * 100.0))
}

/// The report of `source`; `answers` (a batch of whole answers) adds their figures and a
/// section showing each answer marked up.
pub fn write(
    source: &Source,
    totals: &Totals,
    answers: &[AnswerEntry],
    title: &str,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let s = &totals.summary;
    let p = s.precision;
    let generated = crate::audit::now_rfc3339();
    write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{t}</title><style>{STYLE}{answer_style}</style></head><body>\
         <header><h1>{t}</h1><p class=\"meta\">From {src} · generated {generated}</p></header>",
        t = escape(title),
        src = escape(&source.describe()),
        answer_style = if answers.is_empty() {
            ""
        } else {
            answer::STYLE
        },
    )?;

    let dead: u64 = s.dead_links.values().sum();
    let failed: u64 = s.fetch_failures.values().sum();
    let reachable_note = if p.reachable == 0 {
        "nothing was reachable".to_string()
    } else {
        format!("{}/{} reachable citations", p.supported, p.reachable)
    };
    write!(
        out,
        "<section class=\"figures\">\
         <div class=\"figure\"><div class=\"value\" id=\"citation-precision\">{cp}</div>\
         <div class=\"caption\">citation precision<br>{sup}/{total} citations supported</div></div>\
         <div class=\"figure\"><div class=\"value\" id=\"reachable-precision\">{rp}</div>\
         <div class=\"caption\">reachable precision<br>{reachable_note}</div></div>\
         <div class=\"figure\"><div class=\"value\">{total}</div><div class=\"caption\">citations\
         <br>{contradicted} contradicted</div></div>\
         <div class=\"figure\"><div class=\"value\">{dead}</div><div class=\"caption\">dead links\
         <br>{failed} fetch failures</div></div>\
         <div class=\"figure\"><div class=\"value\" id=\"link-rot\">{rot}</div>\
         <div class=\"caption\">link rot (archived before)<br><span id=\"never-archived\">{never}\
         </span> never archived: possibly fabricated{unknown}</div></div></section>",
        rot = s.archive.link_rot,
        never = s.archive.never_archived,
        unknown = if s.archive.lookup_failed > 0 {
            format!("<br>{} archive lookups failed", s.archive.lookup_failed)
        } else {
            String::new()
        },
        cp = percent(p.citation()),
        rp = percent(p.reachable_only()),
        sup = p.supported,
        total = p.total,
        contradicted = s.labels.get("contradicted").copied().unwrap_or(0),
    )?;

    if let Some(figures) = &s.answers {
        write!(out, "{}", answer::figures(figures))?;
    }

    let mut by_label = [0u64; 4];
    for label in Label::ALL {
        by_label[label_index(label)] = s.labels.get(label.as_str()).copied().unwrap_or(0);
    }
    let mut domains: Vec<(String, DomainCounts)> = totals
        .domains
        .iter()
        .map(|(d, c)| (d.clone(), *c))
        .collect();
    domains.sort_by(|a, b| b.1.total().cmp(&a.1.total()).then(a.0.cmp(&b.0)));
    let mut drawn: Vec<(String, DomainCounts)> =
        domains.iter().take(CHART_DOMAINS).cloned().collect();
    if domains.len() > CHART_DOMAINS {
        let mut rest = DomainCounts::default();
        for (_, c) in &domains[CHART_DOMAINS..] {
            for i in 0..4 {
                rest.by_label[i] += c.by_label[i];
            }
        }
        drawn.push((
            format!("{} other domains", domains.len() - CHART_DOMAINS),
            rest,
        ));
    }
    let legend: String = Label::ALL
        .iter()
        .enumerate()
        .map(|(i, l)| {
            format!(
                "<span class=\"key\"><i style=\"background:{}\"></i>{l}</span>",
                LABEL_COLOURS[i]
            )
        })
        .collect();
    write!(
        out,
        "<section class=\"charts\"><div class=\"panel\"><h2>Labels</h2>{}</div>\
         <div class=\"panel\"><h2>Domains</h2><p class=\"legend\">{legend}</p>{}</div></section>",
        charts::labels(by_label),
        charts::domains(&drawn),
    )?;

    write!(
        out,
        "<section class=\"filters\" aria-label=\"filters\"><strong>Show</strong> "
    )?;
    for (i, label) in Label::ALL.iter().enumerate() {
        write!(
            out,
            "<label class=\"toggle\"><input type=\"checkbox\" name=\"label\" value=\"{label}\" checked>\
             <i style=\"background:{}\"></i>{label}</label>",
            LABEL_COLOURS[i]
        )?;
    }
    write!(
        out,
        "<select id=\"domain\" aria-label=\"domain\"><option value=\"\">all domains</option>"
    )?;
    for (domain, counts) in domains.iter().take(FILTER_DOMAINS) {
        write!(
            out,
            "<option value=\"{d}\">{d} ({n})</option>",
            d = escape(domain),
            n = counts.total()
        )?;
    }
    write!(
        out,
        "</select><input id=\"q\" type=\"search\" placeholder=\"search claims, URLs, quotes\" \
         aria-label=\"search\"><span class=\"shown\"><span id=\"shown\">{}</span> shown</span></section>",
        p.total
    )?;

    let contradicted = s.labels.get("contradicted").copied().unwrap_or(0);
    write!(
        out,
        "<section><h2>Contradicted citations <small>({contradicted}): read these first</small></h2>"
    )?;
    if contradicted == 0 {
        write!(out, "<p class=\"none\">No citation was contradicted.</p>")?;
    }
    source.scan(&[Label::Contradicted], |row| {
        write!(out, "{}", card(&row))?;
        Ok(())
    })?;
    write!(
        out,
        "</section><section><h2>Other citations <small>({})</small></h2>\
         <table><thead><tr><th>label</th><th>claim</th><th>cited page</th><th>reason</th>\
         <th>conf.</th><th>evidence</th></tr></thead><tbody>",
        p.total - contradicted
    )?;
    for label in [Label::NotFound, Label::Unreachable, Label::Supported] {
        source.scan(&[label], |row| {
            write!(out, "{}", table_row(&row))?;
            Ok(())
        })?;
    }
    write!(out, "</tbody></table></section>")?;
    if !answers.is_empty() {
        write!(out, "{}", answer::section(answers))?;
    }
    writeln!(
        out,
        "<footer>citecheck {} · labels: supported, contradicted, \
         not_found, unreachable · replay a page with <code>citecheck replay RID</code></footer>\
         <script>{SCRIPT}{}</script></body></html>",
        env!("CARGO_PKG_VERSION"),
        if answers.is_empty() {
            ""
        } else {
            answer::SCRIPT
        },
    )?;
    Ok(())
}

/// A page of answers alone (`citecheck answer --html`): their figures and the answers marked
/// up, self-contained like the report.
pub fn write_answers(
    answers: &[AnswerEntry],
    title: &str,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    writeln!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{t}</title><style>{STYLE}{answer_style}</style></head><body>\
         <header><h1>{t}</h1><p class=\"meta\">generated {generated}</p></header>{section}\
         <footer>citecheck {version} · replay a page with <code>citecheck replay RID</code>\
         </footer><script>{script}</script></body></html>",
        t = escape(title),
        answer_style = answer::STYLE,
        generated = crate::audit::now_rfc3339(),
        section = answer::section(answers),
        version = env!("CARGO_PKG_VERSION"),
        script = answer::SCRIPT,
    )?;
    Ok(())
}

pub(super) fn badge(label: Label) -> String {
    format!(
        "<span class=\"badge\" style=\"background:{}\">{label}</span>",
        LABEL_COLOURS[label_index(label)]
    )
}

fn card(row: &ReportRow) -> String {
    let mut html = format!(
        "<article class=\"cite card\" data-label=\"{}\" data-domain=\"{}\">{}<p class=\"claim\">{}</p>",
        row.label,
        escape(&row.domain()),
        badge(row.label),
        escape(&row.claim)
    );
    if let Some(quote) = &row.evidence_quote {
        html.push_str(&format!(
            "<blockquote>{}</blockquote>",
            quote_html(quote, row.evidence_url.as_deref())
        ));
    }
    if let Some(archive) = &row.archive {
        html.push_str(&archive_html(archive));
    }
    html.push_str(&format!(
        "<p class=\"src\">{} · confidence {:.2}",
        link(&row.url),
        row.confidence
    ));
    if let Some(final_url) = row.final_url.as_deref().filter(|f| *f != row.url) {
        html.push_str(&format!(" · landed on {}", link(final_url)));
    }
    html.push_str(&ids(row));
    html.push_str("</p></article>");
    html
}

fn ids(row: &ReportRow) -> String {
    let mut html = String::new();
    if let Some(id) = &row.claim_id {
        html.push_str(&format!(" · id <code>{}</code>", escape(id)));
    }
    if let Some(rid) = &row.rid {
        html.push_str(&format!(" · rid <code>{}</code>", escape(rid)));
    }
    html
}

fn table_row(row: &ReportRow) -> String {
    format!(
        "<tr class=\"cite\" data-label=\"{}\" data-domain=\"{}\"><td>{}</td><td>{}</td><td>{}</td>\
         <td>{}</td><td>{:.2}</td><td>{}</td></tr>",
        row.label,
        escape(&row.domain()),
        badge(row.label),
        escape(&row.claim),
        link(&row.url),
        escape(row.reason.as_deref().unwrap_or("")),
        row.confidence,
        row.evidence_quote
            .as_deref()
            .map(|q| format!("<q>{}</q>", quote_html(q, row.evidence_url.as_deref())))
            .or_else(|| row.archive.as_ref().map(archive_html))
            .unwrap_or_default(),
    )
}

/// The quote, as a link to its place on the page when there is one (an http(s) text fragment
/// URL; the browser scrolls to the quote and highlights it).
pub(super) fn quote_html(quote: &str, evidence_url: Option<&str>) -> String {
    match evidence_url.filter(|u| u.starts_with("http://") || u.starts_with("https://")) {
        Some(url) => format!(
            "<a class=\"quote\" href=\"{}\" rel=\"noopener noreferrer\" target=\"_blank\" \
             title=\"show the quote on the page\">{}</a>",
            escape(url),
            escape(quote)
        ),
        None => escape(quote),
    }
}

/// What became of a dead link: rot (with the snapshot), possibly fabricated, or not known.
pub(super) fn archive_html(archive: &ArchiveInfo) -> String {
    let (class, words) = match archive.status {
        ArchiveStatus::Archived => ("rot", "link rot: archived"),
        ArchiveStatus::NeverArchived => ("fabricated", "never archived: possibly fabricated"),
        ArchiveStatus::LookupFailed => ("unknown", "archive lookup failed"),
    };
    let mut html = format!("<p class=\"archive {class}\">{words}");
    if let Some(at) = &archive.captured_at {
        html.push_str(&format!(" {}", escape(at)));
    }
    if let Some(snapshot) = &archive.snapshot_url {
        html.push_str(&format!(" · {}", link(snapshot)));
    }
    if let Some(verdict) = archive.verdict {
        html.push_str(&format!(" · the archived copy: {}", badge(verdict)));
    }
    html.push_str("</p>");
    html
}

pub(super) const STYLE: &str = "\
:root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#fff;--panel:#f6f8fa}\
*{box-sizing:border-box}body{margin:0 auto;max-width:1200px;padding:24px;font:15px/1.45 \
system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:var(--fg);background:var(--bg)}\
h1{margin:0 0 4px;font-size:26px}h2{font-size:18px;margin:28px 0 10px}h2 small{color:var(--muted);\
font-weight:normal}.meta{color:var(--muted);margin:0}\
.figures{display:flex;gap:14px;flex-wrap:wrap;margin-top:20px}.figure{flex:1 1 200px;\
background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:14px 16px}\
.figure .value{font-size:32px;font-weight:700}.figure .caption{color:var(--muted)}\
.charts{display:flex;gap:14px;flex-wrap:wrap}.panel{flex:1 1 540px;border:1px solid var(--line);\
border-radius:8px;padding:4px 14px 12px;overflow-x:auto}.chart{max-width:100%;height:auto}\
.chart .name,.chart .count{font-size:12px;fill:var(--fg)}.legend{margin:0 0 6px}\
.key{margin-right:12px;color:var(--muted);font-size:13px}.key i,.toggle i{display:inline-block;\
width:10px;height:10px;border-radius:2px;margin-right:4px}\
.filters{position:sticky;top:0;background:var(--bg);border-bottom:1px solid var(--line);\
padding:10px 0;margin-top:20px;display:flex;gap:12px;align-items:center;flex-wrap:wrap;z-index:1}\
.toggle{cursor:pointer}select,input[type=search]{font:inherit;padding:4px 8px;border:1px solid \
var(--line);border-radius:6px}input[type=search]{flex:1 1 220px}.shown{color:var(--muted)}\
.card{border:1px solid #f1aeb5;border-left:5px solid #c62828;border-radius:8px;padding:10px 14px;\
margin:10px 0;background:#fff8f8}.card .claim{font-weight:600;margin:6px 0}\
blockquote{margin:6px 0;padding:4px 12px;border-left:3px solid var(--line);color:#3b4249}\
a.quote{color:inherit;text-decoration:underline dotted}.archive{margin:4px 0;font-size:13px}\
.archive.rot{color:#7a5b00}.archive.fabricated{color:#b3261e;font-weight:600}\
.src{color:var(--muted);font-size:13px;margin:4px 0;overflow-wrap:anywhere}\
.badge{color:#fff;border-radius:10px;padding:1px 8px;font-size:12px;white-space:nowrap}\
table{border-collapse:collapse;width:100%;font-size:13px}th,td{border-bottom:1px solid var(--line);\
padding:6px;text-align:left;vertical-align:top}td:nth-child(3){overflow-wrap:anywhere;\
min-width:240px;max-width:320px}td:nth-child(2){min-width:260px}th{background:var(--panel);position:sticky;top:52px}.none{color:var(--muted)}\
[hidden]{display:none!important}footer{margin-top:30px;color:var(--muted);font-size:12px}";

const SCRIPT: &str = "(function(){\
var boxes=Array.prototype.slice.call(document.querySelectorAll('input[name=label]'));\
var q=document.getElementById('q'),dom=document.getElementById('domain'),\
shown=document.getElementById('shown'),\
rows=Array.prototype.slice.call(document.querySelectorAll('.cite'));\
function apply(){var on={};boxes.forEach(function(b){if(b.checked)on[b.value]=1;});\
var text=q.value.trim().toLowerCase(),d=dom.value,n=0;\
rows.forEach(function(r){var ok=on[r.dataset.label]&&(!d||r.dataset.domain===d)&&\
(!text||r.textContent.toLowerCase().indexOf(text)>=0);r.hidden=!ok;if(ok)n++;});\
shown.textContent=n;}\
var h=new URLSearchParams(location.hash.slice(1));\
if(h.has('label')){var want=h.get('label').split(',');\
boxes.forEach(function(b){b.checked=want.indexOf(b.value)>=0;});}\
if(h.has('domain'))dom.value=h.get('domain');if(h.has('q'))q.value=h.get('q');\
boxes.forEach(function(b){b.addEventListener('change',apply);});\
q.addEventListener('input',apply);dom.addEventListener('change',apply);apply();\
document.body.setAttribute('data-ready','1');})();";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_text_cannot_open_tags_or_attributes() {
        assert_eq!(
            escape("<img src=x onerror=\"a('b')\">&"),
            "&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;"
        );
    }

    #[test]
    fn only_http_urls_become_links() {
        assert!(link("https://a.example/?q=<b>")
            .starts_with("<a href=\"https://a.example/?q=&lt;b&gt;\""));
        assert_eq!(link("javascript:alert(1)"), "javascript:alert(1)");
    }

    #[test]
    fn a_quote_links_to_its_place_on_the_page() {
        let html = quote_html(
            "Water <boils>",
            Some("https://a.example/w#:~:text=Water%20%3Cboils%3E"),
        );
        assert!(html.starts_with(
            "<a class=\"quote\" href=\"https://a.example/w#:~:text=Water%20%3Cboils%3E\""
        ));
        assert!(html.contains(">Water &lt;boils&gt;</a>"), "{html}");
        assert_eq!(quote_html("q", Some("javascript:x")), "q");
        assert_eq!(quote_html("q", None), "q");
    }

    #[test]
    fn dead_links_say_rot_or_possibly_fabricated() {
        let mut archive = ArchiveInfo {
            status: ArchiveStatus::Archived,
            snapshot_url: Some("https://web.archive.org/web/2020/https://a.example/x".into()),
            captured_at: Some("2020-01-01T00:00:00Z".into()),
            verdict: Some(Label::Supported),
            evidence_quote: None,
            note: String::new(),
        };
        let rot = archive_html(&archive);
        assert!(
            rot.contains("link rot") && rot.contains("2020-01-01T00:00:00Z"),
            "{rot}"
        );
        assert!(
            rot.contains("href=\"https://web.archive.org/web/2020/"),
            "{rot}"
        );
        assert!(rot.contains(">supported</span>"), "{rot}");
        archive.status = ArchiveStatus::NeverArchived;
        archive.snapshot_url = None;
        archive.captured_at = None;
        archive.verdict = None;
        assert!(archive_html(&archive).contains("never archived: possibly fabricated"));
    }
}
