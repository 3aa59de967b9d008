//! Content blocks to parts: text (with citations), reasoning, files, and the
//! `data` escape hatch for every block the display model has no part for.
//! Tool blocks are handled by `tools`, which turns them into tool calls.

use super::model::Part;
use crate::suite_api::RuleTrace;
use serde_json::{Map, Value};

/// The content blocks of a message: `message.content` as an array, or a
/// string content as one text block. `None` when there is no content the
/// display model can read.
pub fn content_blocks(message: &Value) -> Option<Vec<Value>> {
    match message.get("message")?.get("content")? {
        Value::Array(blocks) => Some(blocks.clone()),
        Value::String(text) => Some(vec![text_block(text)]),
        _ => None,
    }
}

/// A text block holding `text`.
pub fn text_block(text: &str) -> Value {
    let mut block = Map::new();
    block.insert("type".to_owned(), Value::from("text"));
    block.insert("text".to_owned(), Value::from(text));
    Value::Object(block)
}

/// The `type` of a block (empty when it has none).
pub fn block_type(block: &Value) -> &str {
    block.get("type").and_then(Value::as_str).unwrap_or_default()
}

/// The text of a text block.
pub fn block_text(block: &Value) -> Option<&str> {
    (block_type(block) == "text").then(|| block.get("text").and_then(Value::as_str).unwrap_or_default())
}

/// Maps a non-tool content block to a part.
pub fn block_part(block: &Value) -> Part {
    match block_type(block) {
        "text" => Part::Text {
            text: block.get("text").and_then(Value::as_str).unwrap_or_default().to_owned(),
            citations: citations(block.get("citations")),
        },
        "thinking" => Part::Reasoning {
            text: block.get("thinking").and_then(Value::as_str).unwrap_or_default().to_owned(),
            redacted: false,
            signature: block.get("signature").and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_owned),
        },
        "redacted_thinking" => Part::Reasoning { text: String::new(), redacted: true, signature: None },
        "image" => file_part(block, "image/*").unwrap_or_else(|| data_part(block)),
        "document" => file_part(block, "application/pdf").unwrap_or_else(|| data_part(block)),
        _ => data_part(block),
    }
}

/// The escape hatch: `{type: "data", name: <block type>, data: <the block
/// without its type>}`; a block that is not an object keeps its value under
/// the name `unknown`.
pub fn data_part(block: &Value) -> Part {
    match block.as_object() {
        Some(object) => {
            let name = object.get("type").and_then(Value::as_str).unwrap_or("unknown").to_owned();
            let mut data = object.clone();
            data.shift_remove("type");
            Part::Data { name, data: Value::Object(data) }
        }
        None => Part::Data { name: "unknown".to_owned(), data: block.clone() },
    }
}

/// Base64 sources become `data:` URLs, URL sources keep their URL (with the
/// default media type of the block kind, since URL sources carry none).
fn file_part(block: &Value, url_media_type: &str) -> Option<Part> {
    let source = block.get("source")?;
    let str_of = |key: &str| source.get(key).and_then(Value::as_str);
    match str_of("type")? {
        "base64" => {
            let media_type = str_of("media_type")?;
            let data = str_of("data")?;
            Some(Part::File { media_type: media_type.to_owned(), url: format!("data:{media_type};base64,{data}") })
        }
        "url" => Some(Part::File { media_type: url_media_type.to_owned(), url: str_of("url")?.to_owned() }),
        _ => None,
    }
}

/// Citations as `{url?, title?, quote?}`. Absent, null or empty lists give
/// none.
fn citations(value: Option<&Value>) -> Option<Vec<Value>> {
    let mapped: Vec<Value> = value?.as_array()?.iter().filter_map(citation).collect();
    (!mapped.is_empty()).then_some(mapped)
}

/// One citation as `{url?, title?, quote?}`: `url` from a web result's `url`
/// or a search result's `source`, `title` from `title` or `document_title`,
/// `quote` from `cited_text`; `None` for a citation that is not an object.
pub fn citation(citation: &Value) -> Option<Value> {
    let citation = citation.as_object()?;
    let str_of = |key: &str| citation.get(key).and_then(Value::as_str);
    let mut out = Map::new();
    if let Some(url) = str_of("url").or_else(|| str_of("source")) {
        out.insert("url".to_owned(), Value::from(url));
    }
    if let Some(title) = str_of("title").or_else(|| str_of("document_title")) {
        out.insert("title".to_owned(), Value::from(title));
    }
    if let Some(quote) = str_of("cited_text") {
        out.insert("quote".to_owned(), Value::from(quote));
    }
    Some(Value::Object(out))
}

/// The sources a text block cites (seed 000 §13–§14 `source-url` /
/// `source-document` parts), each once per turn: web results
/// (`web_search_result_location`) are `source-url` parts keyed by their
/// URL; documents (`char_location`, `page_location`,
/// `content_block_location`, keyed `document-<document_index>`) and search
/// results (`search_result_location`, keyed by their `source`) are
/// `source-document` parts (`application/pdf` for page locations,
/// `text/plain` otherwise). `known` holds the source ids the turn already
/// has.
pub fn source_parts(block: &Value, known: &mut Vec<String>, trace: &mut dyn RuleTrace) -> Vec<Part> {
    let mut parts = Vec::new();
    for citation in block.get("citations").and_then(Value::as_array).into_iter().flatten() {
        let str_of = |key: &str| citation.get(key).and_then(Value::as_str).map(str::to_owned);
        let part = match citation.get("type").and_then(Value::as_str).unwrap_or_default() {
            "web_search_result_location" => {
                str_of("url").map(|url| Part::SourceUrl { source_id: url.clone(), url, title: str_of("title") })
            }
            kind @ ("char_location" | "page_location" | "content_block_location") => {
                let index = citation.get("document_index").filter(|index| index.is_number());
                index.map(|index| Part::SourceDocument {
                    media_type: if kind == "page_location" { "application/pdf" } else { "text/plain" }.to_owned(),
                    title: str_of("document_title").unwrap_or_default(),
                    source_id: format!("document-{index}"),
                })
            }
            "search_result_location" => str_of("source").map(|source| Part::SourceDocument {
                media_type: "text/plain".to_owned(),
                title: str_of("title").unwrap_or_default(),
                source_id: source,
            }),
            _ => None,
        };
        let Some(part) = part else { continue };
        let id = match &part {
            Part::SourceUrl { source_id, .. } | Part::SourceDocument { source_id, .. } => source_id.clone(),
            _ => continue,
        };
        if known.contains(&id) {
            continue;
        }
        trace.hit(if matches!(part, Part::SourceUrl { .. }) {
            "claude-display.part.source-url"
        } else {
            "claude-display.part.source-document"
        });
        known.push(id);
        parts.push(part);
    }
    parts
}

/// The source ids a turn's parts already hold.
pub fn source_ids(parts: &[Part]) -> Vec<String> {
    parts
        .iter()
        .filter_map(|part| match part {
            Part::SourceUrl { source_id, .. } | Part::SourceDocument { source_id, .. } => Some(source_id.clone()),
            _ => None,
        })
        .collect()
}

/// The plain text of tool-result content: a string as is, the text blocks
/// of a list joined by newlines.
pub fn content_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(blocks)) => blocks.iter().filter_map(block_text).collect::<Vec<_>>().join("\n"),
        _ => String::new(),
    }
}
