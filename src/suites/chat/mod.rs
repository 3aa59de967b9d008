//! The `chat` suite: the HAPI message decode/render pipeline (normalize →
//! reduce → group → project), judged against [`reference::run`].

/// The capture importers (`conform capture`).
pub mod capture;
/// What `conform explore` knows about the inputs.
pub mod mutate;
/// The reference implementation.
pub mod reference;

use crate::suite_api::capture::CaptureFormat;
use crate::suite_api::{DocumentShape, Layout, ReferenceFn, Suite, WireSchema};
use serde_json::{Map, Value};

/// Wire messages + agentState → projected chat blocks.
#[derive(Debug)]
pub struct ChatSuite;

impl Suite for ChatSuite {
    fn mutation_profile(&self) -> crate::suite_api::MutationProfile {
        mutate::PROFILE
    }

    fn name(&self) -> &'static str {
        "chat"
    }

    fn title(&self) -> &'static str {
        "HAPI chat pipeline: wire messages and agentState to projected chat blocks"
    }

    fn document_shapes(&self) -> &'static [DocumentShape] {
        // Version 2 changed the expected blocks (attachments, the `resolved`
        // status, display-links blocks): one schema file per shape, the
        // version in the newer file's name (schemas/chat.v2.schema.json).
        &[
            DocumentShape { versions: &[1], schema: include_str!("../../../schemas/chat.schema.json") },
            DocumentShape { versions: &[2], schema: include_str!("../../../schemas/chat.v2.schema.json") },
        ]
    }

    fn layout(&self) -> Layout {
        Layout::Wrapped { input: "input", expected: "expected" }
    }

    /// `visibleBlocks` entries are `blocks` entries, the `tools` of a tool
    /// group are the blocks it groups, and `children` are blocks one level
    /// down.
    fn derived_views(&self) -> &'static [(&'static str, &'static str)] {
        &[("/visibleBlocks/*", "/blocks/*"), ("/blocks/*/tools/*", "/blocks/*"), ("/blocks/*/children/*", "/blocks/*")]
    }

    /// The strict input of a document not marked `robustness` (the
    /// `robustnessInput` of a marked one takes any rows and agentState).
    fn wire_schema(&self) -> Option<WireSchema> {
        Some(WireSchema::at("/$defs/input"))
    }

    fn item_list(&self) -> Option<&'static str> {
        Some("messages")
    }

    fn capture_formats(&self) -> &'static [CaptureFormat] {
        &[CaptureFormat {
            name: "hapi-messages",
            summary: "HAPI GET /api/sessions/:id/messages response bodies (pages may overlap and come in any order), \
                      NDJSON streams of DecryptedMessage, and optionally the session object for agentState",
            open: capture::hapi_messages::open,
            window: Some(capture::window::cut),
            sniff: capture::hapi_messages::sniff,
        }]
    }

    fn reference(&self) -> Option<ReferenceFn> {
        Some(reference::run)
    }

    fn reference_versions(&self) -> &'static [u32] {
        reference::ChatOptions::VERSIONS
    }

    fn reference_for(&self, version: u32) -> Option<ReferenceFn> {
        match version {
            1 => Some(reference::run_v1),
            2 => Some(reference::run),
            _ => None,
        }
    }

    fn rules(&self) -> &'static [&'static str] {
        reference::RULES
    }

    /// Accepts a bare array of wire messages, and fills a missing
    /// `agentState` (null) and `options.hasMoreMessages` (false).
    fn coerce_decode_input(&self, input: Value) -> Value {
        let mut object = match input {
            Value::Array(messages) => {
                let mut object = Map::new();
                object.insert("messages".to_owned(), Value::Array(messages));
                object
            }
            Value::Object(object) => object,
            other => return other,
        };
        object.entry("agentState").or_insert(Value::Null);
        let options = object.entry("options").or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(options) = options {
            options.entry("hasMoreMessages").or_insert(Value::Bool(false));
        }
        Value::Object(object)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn decode_input_accepts_a_bare_message_list_and_fills_defaults() {
        let coerced = ChatSuite.coerce_decode_input(json!([{"id": "m1"}]));
        assert_eq!(
            coerced,
            json!({"messages": [{"id": "m1"}], "agentState": null, "options": {"hasMoreMessages": false}})
        );
        let kept =
            ChatSuite.coerce_decode_input(json!({"messages": [], "agentState": {"requests": {}}, "options": {}}));
        assert_eq!(
            kept,
            json!({"messages": [], "agentState": {"requests": {}}, "options": {"hasMoreMessages": false}})
        );
        assert_eq!(ChatSuite.coerce_decode_input(json!("x")), json!("x"));
    }
}
