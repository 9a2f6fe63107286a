//! Inline SVG charts (pure): horizontal bars, one row per category, labelled with their counts.
//! No script and no external fonts, so they render anywhere the HTML opens, print included.

use std::fmt::Write as _;

use citecheck_core::Label;

use super::html::escape;
use super::DomainCounts;

/// One colour per label, in `Label::ALL` order.
pub const LABEL_COLOURS: [&str; 4] = ["#2e7d32", "#c62828", "#b7791f", "#6b7280"];

const WIDTH: u32 = 600;
const NAME_WIDTH: u32 = 150;
const COUNT_WIDTH: u32 = 130;
const ROW: u32 = 26;
const BAR: u32 = 18;

fn bar_space() -> u32 {
    WIDTH - NAME_WIDTH - COUNT_WIDTH
}

fn open(rows: usize, title: &str) -> String {
    let height = (rows.max(1) as u32) * ROW + 8;
    format!(
        "<svg class=\"chart\" role=\"img\" aria-label=\"{}\" viewBox=\"0 0 {WIDTH} {height}\" \
         width=\"{WIDTH}\" height=\"{height}\" xmlns=\"http://www.w3.org/2000/svg\">",
        escape(title)
    )
}

fn name(svg: &mut String, y: u32, text: &str) {
    let shown: String = if text.chars().count() > 24 {
        text.chars().take(23).chain(std::iter::once('…')).collect()
    } else {
        text.to_string()
    };
    let _ = write!(
        svg,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" class=\"name\"><title>{}</title>{}</text>",
        NAME_WIDTH - 8,
        y + BAR - 4,
        escape(text),
        escape(&shown)
    );
}

fn count(svg: &mut String, x: u32, y: u32, text: &str) {
    let _ = write!(
        svg,
        "<text x=\"{}\" y=\"{}\" class=\"count\">{}</text>",
        x + 6,
        y + BAR - 4,
        escape(text)
    );
}

/// Width of `value` out of `max` in the bar space; a non-zero value is always visible.
fn scaled(value: u64, max: u64) -> u32 {
    if max == 0 || value == 0 {
        return 0;
    }
    ((value as f64 / max as f64) * f64::from(bar_space()))
        .round()
        .max(2.0) as u32
}

/// The label distribution: one bar per label.
pub fn labels(counts: [u64; 4]) -> String {
    let total: u64 = counts.iter().sum();
    let max = counts.iter().copied().max().unwrap_or(0);
    let mut svg = open(4, "citations per label");
    for (i, label) in Label::ALL.iter().enumerate() {
        let y = i as u32 * ROW + 4;
        name(&mut svg, y, label.as_str());
        let width = scaled(counts[i], max);
        let _ = write!(
            svg,
            "<rect x=\"{NAME_WIDTH}\" y=\"{y}\" width=\"{width}\" height=\"{BAR}\" rx=\"3\" fill=\"{}\"/>",
            LABEL_COLOURS[i]
        );
        let share = if total > 0 {
            counts[i] as f64 * 100.0 / total as f64
        } else {
            0.0
        };
        count(
            &mut svg,
            NAME_WIDTH + width,
            y,
            &format!("{} ({share:.0}%)", counts[i]),
        );
    }
    svg.push_str("</svg>");
    svg
}

/// Citations per domain, each bar split by label.
pub fn domains(rows: &[(String, DomainCounts)]) -> String {
    let max = rows.iter().map(|(_, c)| c.total()).max().unwrap_or(0);
    let mut svg = open(rows.len(), "citations per domain, by label");
    for (row, (domain, counts)) in rows.iter().enumerate() {
        let y = row as u32 * ROW + 4;
        name(&mut svg, y, domain);
        let mut x = NAME_WIDTH;
        for (i, label) in Label::ALL.iter().enumerate() {
            let n = counts.by_label[i];
            if n == 0 {
                continue;
            }
            let width = scaled(n, max);
            let _ = write!(
                svg,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{width}\" height=\"{BAR}\" fill=\"{}\">\
                 <title>{}: {n} {label}</title></rect>",
                LABEL_COLOURS[i],
                escape(domain)
            );
            x += width;
        }
        let supported = counts.by_label[0];
        count(
            &mut svg,
            x,
            y,
            &format!("{supported}/{} supported", counts.total()),
        );
    }
    if rows.is_empty() {
        let _ = write!(
            svg,
            "<text x=\"{NAME_WIDTH}\" y=\"20\" class=\"count\">no citations</text>"
        );
    }
    svg.push_str("</svg>");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_are_proportional_and_never_vanish() {
        assert_eq!(scaled(0, 10), 0);
        assert_eq!(scaled(10, 10), bar_space());
        assert!(scaled(1, 1_000_000) >= 2);
    }

    #[test]
    fn names_are_escaped_inside_the_svg() {
        let svg = domains(&[(
            "<script>.example".to_string(),
            DomainCounts {
                by_label: [1, 0, 0, 0],
            },
        )]);
        assert!(!svg.contains("<script>"));
        assert!(svg.contains("&lt;script&gt;.example"));
    }
}
