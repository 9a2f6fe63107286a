//! Gemini `generateContent`.
//!
//! Shape, as in google-genai's types (REST JSON is camelCase, the Python SDK's dumps snake_case;
//! both are read): `candidates[0].content.parts[].text` and `candidates[0].groundingMetadata`
//! with `groundingChunks[].web.{uri,title}` and `groundingSupports[]`, each a `segment`
//! (`partIndex`, `startIndex`, `endIndex`, `text`) and `groundingChunkIndices[]`.
//!
//! Unit: the segment's offsets are UTF-8 **byte** offsets into the part named by `partIndex`
//! (start inclusive, end exclusive). Fields equal to 0 are left out of the JSON (proto3), so a
//! missing `partIndex` or `startIndex` means 0. Parts are joined as they are, as the SDK's
//! `response.text` does. The segment is the statement.

use serde_json::Value;

use crate::draft::{Cite, Draft, Reach};
use crate::json::{array, field, index, str_of};
use crate::model::{Format, Problem, Source};
use crate::text;
use crate::ParseError;

pub fn read(v: &Value) -> Result<Draft, ParseError> {
    let candidate = array(v, &["candidates"])
        .first()
        .ok_or_else(|| ParseError::shape(Format::Gemini, "`candidates` is empty"))?;
    let parts = field(candidate, &["content"])
        .map(|c| array(c, &["parts"]))
        .unwrap_or(&[]);
    let mut draft = Draft::default();
    // Byte offset of each part in the joined text; a part without text (a function call)
    // contributes nothing but keeps its index.
    let mut starts = Vec::with_capacity(parts.len());
    for part in parts {
        starts.push(draft.text.len());
        if let Some(t) = str_of(part, &["text"]) {
            draft.text.push_str(t);
        }
    }
    if draft.text.is_empty() {
        return Err(ParseError::shape(
            Format::Gemini,
            "`candidates[0].content.parts[]` holds no text",
        ));
    }
    let Some(meta) = field(candidate, &["groundingMetadata", "grounding_metadata"]) else {
        return Ok(draft);
    };
    let chunks = array(meta, &["groundingChunks", "grounding_chunks"]);
    for support in array(meta, &["groundingSupports", "grounding_supports"]) {
        let segment = field(support, &["segment"]).unwrap_or(&Value::Null);
        let part = index(segment, &["partIndex", "part_index"]).map(|p| p.unwrap_or(0));
        let start = index(segment, &["startIndex", "start_index"]).map(|s| s.unwrap_or(0));
        let end = index(segment, &["endIndex", "end_index"]);
        let range = match (part, start, end) {
            (Ok(p), Ok(s), Ok(Some(e))) => usize::try_from(p)
                .ok()
                .and_then(|p| Some((p, *starts.get(p)?)))
                .ok_or_else(|| format!("`partIndex` {p} names no part"))
                .and_then(|(p, at)| {
                    let part_text = str_of(&parts[p], &["text"]).unwrap_or("");
                    text::bytes_range(part_text, s, e).map(|r| r.start + at..r.end + at)
                }),
            (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => Err(e),
            (_, _, Ok(None)) => Err("`segment.endIndex` is missing".to_string()),
        };
        let indices = array(
            support,
            &["groundingChunkIndices", "grounding_chunk_indices"],
        );
        for i in indices {
            let chunk = i
                .as_u64()
                .and_then(|i| chunks.get(usize::try_from(i).ok()?));
            let web =
                chunk.and_then(|c| field(c, &["web", "retrievedContext", "retrieved_context"]));
            let url = web.and_then(|w| str_of(w, &["uri"]));
            let title = web.and_then(|w| str_of(w, &["title"])).map(str::to_string);
            let Some(url) = url else {
                draft.unchecked(
                    Problem::NotCheckableByUrl,
                    "grounding_chunk",
                    None,
                    title,
                    format!("grounding chunk {i} has no `web.uri`"),
                );
                continue;
            };
            match &range {
                Ok(range) => draft.cites.push(Cite {
                    range: range.clone(),
                    reach: Reach::Exact,
                    source: Source {
                        url: url.to_string(),
                        title,
                        cited_text: None,
                    },
                }),
                Err(detail) => draft.unchecked(
                    Problem::InvalidSpan,
                    "grounding_support",
                    Some(url.to_string()),
                    title,
                    detail.clone(),
                ),
            }
        }
    }
    Ok(draft)
}
