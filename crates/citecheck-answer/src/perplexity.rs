//! Perplexity chat completions.
//!
//! Shape, as in Perplexity's API reference: an OpenAI-like `choices[0].message.content` whose
//! text carries `[n]` markers (1-based), plus top-level `citations[]` (URL strings) and/or
//! `search_results[]` (`title`, `url`, `date`, `snippet`). `citations[n-1]` is preferred,
//! `search_results[n-1]` fills in (and gives the title). No offsets: each marker cites the
//! sentence it ends.

use serde_json::Value;

use crate::draft::{Cite, Draft, Reach};
use crate::json::{array, field, str_of};
use crate::model::{Format, Problem, Source};
use crate::ParseError;

pub fn read(v: &Value) -> Result<Draft, ParseError> {
    let content = array(v, &["choices"])
        .first()
        .and_then(|c| field(c, &["message"]))
        .and_then(|m| str_of(m, &["content"]))
        .ok_or_else(|| {
            ParseError::shape(
                Format::Perplexity,
                "`choices[0].message.content` is missing",
            )
        })?;
    let citations: Vec<Option<&str>> = array(v, &["citations"]).iter().map(Value::as_str).collect();
    let results = array(v, &["search_results"]);
    let mut draft = Draft {
        text: content.to_string(),
        ..Draft::default()
    };
    for (range, n) in numbered_markers(content) {
        let slot = n.checked_sub(1);
        let result = slot.and_then(|i| results.get(i));
        let url = slot
            .and_then(|i| citations.get(i).copied().flatten())
            .or_else(|| result.and_then(|r| str_of(r, &["url"])));
        let title = result
            .and_then(|r| str_of(r, &["title"]))
            .map(str::to_string);
        match url {
            Some(url) => draft.cites.push(Cite {
                range,
                reach: Reach::Sentence,
                source: Source {
                    url: url.to_string(),
                    title,
                    cited_text: None,
                },
            }),
            None => draft.unchecked(
                Problem::NotCheckableByUrl,
                "marker",
                None,
                None,
                format!("marker [{n}] has no entry in `citations` or `search_results`"),
            ),
        }
    }
    Ok(draft)
}

/// Every `[n]` marker (and each number of `[1, 2]`) with its byte range.
pub fn numbered_markers(text: &str) -> Vec<(std::ops::Range<usize>, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'[' {
            let close = bytes[i + 1..]
                .iter()
                .take(24)
                .position(|&b| b == b']')
                .map(|p| i + 1 + p);
            if let Some(close) = close {
                let inner = &text[i + 1..close];
                let numbers: Vec<Option<usize>> = inner
                    .split(',')
                    .map(|n| n.trim().parse::<usize>().ok())
                    .collect();
                let followed_by_link = bytes.get(close + 1) == Some(&b'(');
                if !inner.trim().is_empty()
                    && !followed_by_link
                    && numbers.iter().all(Option::is_some)
                {
                    out.extend(numbers.into_iter().flatten().map(|n| (i..close + 1, n)));
                    i = close + 1;
                    continue;
                }
            }
        }
        i += 1;
    }
    out
}
