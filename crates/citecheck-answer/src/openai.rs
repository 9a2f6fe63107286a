//! OpenAI: the Responses API and Chat Completions (web search).
//!
//! Shapes, as in openai-python's types: Responses `output[]` items of `type: "message"` hold
//! `content[]` parts; a part of `type: "output_text"` has `text` and `annotations[]`, where a
//! `url_citation` carries `start_index`, `end_index`, `url`, `title` (file citations carry no
//! URL). Chat Completions: `choices[0].message.content` and `message.annotations[]`, each
//! `{type: "url_citation", url_citation: {start_index, end_index, url, title}}`.
//!
//! Unit: the SDK documents the indices as "the index of the first/last character" and its users
//! slice Python strings with them, so they count Unicode code points; `end_index` is exclusive
//! in practice (`text[start:end]`). The annotated range is usually the inline link the model
//! wrote (`([site](url))`), not the statement, so the statement is the sentence around it.
//! Several `output_text` parts are joined with a blank line, each part's offsets shifted.

use serde_json::Value;

use crate::draft::{Cite, Draft, Reach};
use crate::json::{array, field, index, str_of};
use crate::model::{Problem, Source};
use crate::text;
use crate::ParseError;

/// Reads a Responses API object.
pub fn responses(v: &Value) -> Result<Draft, ParseError> {
    let mut draft = Draft::default();
    let mut found_text = false;
    for item in array(v, &["output"]) {
        if str_of(item, &["type"]) != Some("message") {
            continue;
        }
        for part in array(item, &["content"]) {
            if str_of(part, &["type"]) != Some("output_text") {
                continue;
            }
            let Some(part_text) = str_of(part, &["text"]) else {
                continue;
            };
            found_text = true;
            if !draft.text.is_empty() {
                draft.text.push_str("\n\n");
            }
            let offset = draft.text.len();
            draft.text.push_str(part_text);
            for annotation in array(part, &["annotations"]) {
                read_annotation(&mut draft, part_text, offset, annotation);
            }
        }
    }
    if !found_text {
        return Err(ParseError::shape(
            crate::Format::OpenaiResponses,
            "no `output[]` message holds an `output_text` part",
        ));
    }
    Ok(draft)
}

/// Reads a Chat Completions object (the first choice).
pub fn chat(v: &Value) -> Result<Draft, ParseError> {
    let message = array(v, &["choices"])
        .first()
        .and_then(|c| field(c, &["message"]))
        .ok_or_else(|| ParseError::shape(crate::Format::OpenaiChat, "no `choices[0].message`"))?;
    let content = str_of(message, &["content"]).ok_or_else(|| {
        ParseError::shape(
            crate::Format::OpenaiChat,
            "`choices[0].message.content` is not a string",
        )
    })?;
    let mut draft = Draft {
        text: content.to_string(),
        ..Draft::default()
    };
    for annotation in array(message, &["annotations"]) {
        // The citation's fields sit under `url_citation` in Chat Completions.
        let inner = field(annotation, &["url_citation"]).unwrap_or(annotation);
        let kind = str_of(annotation, &["type"]).unwrap_or("annotation");
        read_citation(&mut draft, content, 0, kind, inner);
    }
    Ok(draft)
}

fn read_annotation(draft: &mut Draft, part: &str, offset: usize, annotation: &Value) {
    let kind = str_of(annotation, &["type"]).unwrap_or("annotation");
    read_citation(draft, part, offset, kind, annotation);
}

fn read_citation(draft: &mut Draft, part: &str, offset: usize, kind: &str, c: &Value) {
    let url = str_of(c, &["url"]).map(str::to_string);
    let title = str_of(c, &["title"]).map(str::to_string);
    let Some(url) = url.filter(|_| kind == "url_citation") else {
        let name = str_of(c, &["filename", "file_id"]).unwrap_or("");
        draft.unchecked(
            Problem::NotCheckableByUrl,
            kind,
            None,
            title.or_else(|| (!name.is_empty()).then(|| name.to_string())),
            format!("a `{kind}` annotation points at no URL"),
        );
        return;
    };
    let span = match (index(c, &["start_index"]), index(c, &["end_index"])) {
        (Ok(Some(start)), Ok(Some(end))) => text::chars_range(part, start, end),
        (Err(e), _) | (_, Err(e)) => Err(e),
        _ => Err("`start_index` or `end_index` is missing".to_string()),
    };
    match span {
        Ok(range) => draft.cites.push(Cite {
            range: range.start + offset..range.end + offset,
            reach: Reach::Sentence,
            source: Source {
                url,
                title,
                cited_text: None,
            },
        }),
        Err(detail) => draft.unchecked(Problem::InvalidSpan, kind, Some(url), title, detail),
    }
}
