//! Anthropic Messages.
//!
//! Shape, as in anthropic-sdk-python's types: `content[]` blocks; a `text` block has `text` and
//! optional `citations[]`. A `web_search_result_location` citation has `url`, `title`,
//! `cited_text` (and an opaque `encrypted_index`); a `search_result_location` has `source`
//! (often a URL), `title`, `cited_text`. Document citations (`char_location`, `page_location`,
//! `content_block_location`) point into documents the caller supplied, not at URLs: they are
//! listed as not checkable by URL.
//!
//! No offsets: a citation belongs to the whole text block it is attached to, so the block is
//! the statement. Blocks are joined as they are (the API splits one answer into consecutive
//! blocks), and tool-use/result blocks are not part of the answer's text.

use serde_json::Value;

use crate::draft::{Cite, Draft, Reach};
use crate::json::{array, str_of};
use crate::model::{Format, Problem, Source};
use crate::ParseError;

pub fn read(v: &Value) -> Result<Draft, ParseError> {
    let mut draft = Draft::default();
    let mut found_text = false;
    for block in array(v, &["content"]) {
        if str_of(block, &["type"]) != Some("text") {
            continue;
        }
        let Some(block_text) = str_of(block, &["text"]) else {
            continue;
        };
        found_text = true;
        let start = draft.text.len();
        draft.text.push_str(block_text);
        let range = start..draft.text.len();
        for citation in array(block, &["citations"]) {
            let kind = str_of(citation, &["type"]).unwrap_or("citation");
            let title = str_of(citation, &["title", "document_title"]).map(str::to_string);
            let cited_text = str_of(citation, &["cited_text"]).map(str::to_string);
            let url = match kind {
                "web_search_result_location" => str_of(citation, &["url"]),
                "search_result_location" => str_of(citation, &["source"])
                    .filter(|s| s.starts_with("http://") || s.starts_with("https://")),
                _ => None,
            };
            match url {
                Some(url) => draft.cites.push(Cite {
                    range: range.clone(),
                    reach: Reach::Exact,
                    source: Source {
                        url: url.to_string(),
                        title,
                        cited_text,
                    },
                }),
                None => draft.unchecked(
                    Problem::NotCheckableByUrl,
                    kind,
                    None,
                    title,
                    format!("a `{kind}` citation points into a supplied document, not at a URL"),
                ),
            }
        }
    }
    if !found_text {
        return Err(ParseError::shape(
            Format::Anthropic,
            "`content[]` holds no `text` block",
        ));
    }
    Ok(draft)
}
