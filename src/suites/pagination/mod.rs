//! The `pagination` suite: the message-window store replayed from an op
//! script.
//!
//! The document interleaves inputs and expectations inside each op, so the
//! suite splits it itself ([`Layout::Custom`]):
//!
//! - input: `{"ops": [each op without its expected* members]}`;
//! - expected: `{"ops": [per op, an object holding exactly that op's
//!   expected* members ({} for ops without any)], "expectedState": …}`.
//!
//! Per-op expectations are `expectedRequests` (sync-tail, fetch-older),
//! `expectedOutcome` (fetch-older) and `expectedCandidates` (queued-state).

/// What `conform explore` knows about the inputs.
pub mod mutate;
/// The reference implementation.
pub mod reference;

use crate::json::pointer;
use crate::suite_api::{CaseParts, DocumentShape, Layout, PointerContext, ReferenceFn, Suite, WirePart, WireSchema};
use serde_json::{Map, Value};

/// Op members with this prefix are expectations; the rest is input.
const EXPECTED_PREFIX: &str = "expected";

/// See the module docs.
#[derive(Clone, Copy, Debug, Default)]
pub struct PaginationSuite;

impl Suite for PaginationSuite {
    fn mutation_profile(&self) -> crate::suite_api::MutationProfile {
        mutate::PROFILE
    }

    fn name(&self) -> &'static str {
        "pagination"
    }

    fn title(&self) -> &'static str {
        "message window: paging requests, epoch resets, optimistic sends, queued rows and trimming"
    }

    fn document_shapes(&self) -> &'static [DocumentShape] {
        // Version 2 changed no pagination document member (v2.md §2.5).
        &[DocumentShape { versions: &[1, 2], schema: include_str!("../../../schemas/pagination.schema.json") }]
    }

    fn layout(&self) -> Layout {
        Layout::Custom
    }

    /// The `ops` as the schema states them, without their expected*
    /// members (an input never carries them).
    fn wire_schema(&self) -> Option<WireSchema> {
        Some(WireSchema {
            part: WirePart::Members { required: &["ops"], optional: &[] },
            expectations_prefix: Some(EXPECTED_PREFIX),
        })
    }

    fn item_list(&self) -> Option<&'static str> {
        Some("ops")
    }

    fn reference(&self) -> Option<ReferenceFn> {
        Some(reference::reference)
    }

    fn reference_versions(&self) -> &'static [u32] {
        reference::VERSIONS
    }

    fn reference_for(&self, version: u32) -> Option<ReferenceFn> {
        reference::reference_for(version)
    }

    fn rules(&self) -> &'static [&'static str] {
        reference::RULES
    }

    /// Splits each op into its input and expectation members (see
    /// [`Suite::split_owned`], which this copies the document for).
    fn split(&self, document: &Value) -> Result<CaseParts, String> {
        self.split_owned(document.clone())
    }

    /// Splits each op into its input and expectation members, moving them
    /// out of the document (a run gives its document up: the HAPI corpus's
    /// 373 KB case copied half of itself here). Also checks what the schema
    /// cannot: an op that carries scripted responses expects exactly one
    /// request per response (every response must be consumed).
    fn split_owned(&self, document: Value) -> Result<CaseParts, String> {
        let Value::Object(mut object) = document else { return Err("the document is not a JSON object".to_owned()) };
        let Some(Value::Array(ops)) = object.remove("ops") else {
            return Err("the document has no `ops` array".to_owned());
        };
        let state = object.remove("expectedState").ok_or("the document has no `expectedState` member")?;
        let mut input_ops = Vec::with_capacity(ops.len());
        let mut expected_ops = Vec::with_capacity(ops.len());
        for (index, op) in ops.into_iter().enumerate() {
            let Value::Object(op) = op else { return Err(format!("ops[{index}] is not an object")) };
            let responses = op.get("responses").and_then(Value::as_array).map(Vec::len);
            let requests = op.get("expectedRequests").and_then(Value::as_array).map(Vec::len);
            if let (Some(responses), Some(requests)) = (responses, requests)
                && responses != requests
            {
                return Err(format!(
                    "ops[{index}] {}: {responses} scripted responses but {requests} expected requests \
                     (each response answers exactly one request)",
                    op_kind(&op)
                ));
            }
            let (expected, input): (Map<String, Value>, Map<String, Value>) =
                op.into_iter().partition(|(key, _)| is_expectation(key));
            input_ops.push(Value::Object(input));
            expected_ops.push(Value::Object(expected));
        }
        let mut input = Map::new();
        input.insert("ops".to_owned(), Value::Array(input_ops));
        let mut expected = Map::new();
        expected.insert("ops".to_owned(), Value::Array(expected_ops));
        expected.insert("expectedState".to_owned(), state);
        Ok(CaseParts { input: Value::Object(input), expected: Value::Object(expected) })
    }

    /// The inverse of the input side of [`Suite::split`] (how `reduce` and
    /// `capture` assemble documents): the document's ops become the input's
    /// ops. When the counts agree, each op keeps the expected* members of the
    /// document's op at its index, so that splitting gives back the same
    /// parts; otherwise (ops were removed) the ops carry no expectations until
    /// [`Suite::with_expected`] puts the recomputed ones in.
    fn with_input(&self, document: &Value, input: &Value) -> Result<Value, String> {
        let mut object = document.as_object().ok_or("the document is not a JSON object")?.clone();
        let input_ops = input.get("ops").and_then(Value::as_array).ok_or("the input has no `ops` array")?;
        let stored_ops = object.get("ops").and_then(Value::as_array).filter(|ops| ops.len() == input_ops.len());
        let mut ops = Vec::with_capacity(input_ops.len());
        for (index, op) in input_ops.iter().enumerate() {
            let mut op = op.as_object().ok_or_else(|| format!("input ops[{index}] is not an object"))?.clone();
            op.retain(|key, _| !is_expectation(key));
            if let Some(Value::Object(stored)) = stored_ops.and_then(|stored| stored.get(index)) {
                op.extend(stored.iter().filter(|(key, _)| is_expectation(key)).map(|(k, v)| (k.clone(), v.clone())));
            }
            ops.push(Value::Object(op));
        }
        object.insert("ops".to_owned(), Value::Array(ops));
        Ok(Value::Object(object))
    }

    /// The inverse of [`Suite::split`]: each op's expected* members are
    /// replaced in place by the given ones, and `expectedState` is replaced.
    fn with_expected(&self, document: &Value, expected: &Value) -> Result<Value, String> {
        let mut object = document.as_object().ok_or("the document is not a JSON object")?.clone();
        let expected_ops =
            expected.get("ops").and_then(Value::as_array).ok_or("the expected part has no `ops` array")?;
        let state = expected.get("expectedState").ok_or("the expected part has no `expectedState`")?;
        let ops = object.get_mut("ops").and_then(Value::as_array_mut).ok_or("the document has no `ops` array")?;
        if ops.len() != expected_ops.len() {
            return Err(format!("{} ops but {} op expectations", ops.len(), expected_ops.len()));
        }
        for (index, (op, expectations)) in ops.iter_mut().zip(expected_ops).enumerate() {
            let op = op.as_object_mut().ok_or_else(|| format!("ops[{index}] is not an object"))?;
            let expectations = expectations
                .as_object()
                .ok_or_else(|| format!("the expectations of ops[{index}] are not an object"))?;
            op.retain(|key, _| !is_expectation(key));
            op.extend(expectations.iter().map(|(key, value)| (key.clone(), value.clone())));
        }
        object.insert("expectedState".to_owned(), state.clone());
        Ok(Value::Object(object))
    }

    fn pointer_context(&self, input: &Value, pointer: &str) -> Option<PointerContext> {
        let tokens: Vec<&str> = pointer.split('/').skip(1).collect();
        let (label, depth) = match tokens.as_slice() {
            ["ops", index, rest @ ..] => {
                let op = index.parse::<usize>().ok().and_then(|index| input.get("ops")?.get(index));
                let op_label = format!("ops[{index}] {}", op.and_then(|op| op.get("op")?.as_str()).unwrap_or("?"));
                let responses = op.and_then(|op| op.get("responses")?.as_array().map(Vec::len)).unwrap_or(0);
                match rest {
                    ["expectedRequests", request, ..] => {
                        let ordinal = request.parse::<usize>().map_or(0, |request| request + 1);
                        let over = if ordinal > responses {
                            format!(" (over-consumed: {})", scripted_responses(responses))
                        } else {
                            String::new()
                        };
                        (format!("{op_label}: request {ordinal}{over}"), 4)
                    }
                    ["expectedRequests"] => {
                        (format!("{op_label}: requests ({}, one per request)", scripted_responses(responses)), 3)
                    }
                    ["expectedOutcome", ..] => (format!("{op_label}: outcome"), 3),
                    ["expectedCandidates", ..] => (format!("{op_label}: candidates"), 3),
                    _ => (op_label, 2),
                }
            }
            ["expectedState", "messages", index, ..] => (format!("final state: messages[{index}]"), 3),
            ["expectedState", ..] => ("final state".to_owned(), 1),
            _ => return None,
        };
        Some(PointerContext { label, rest: pointer::below(pointer, depth).to_owned() })
    }
}

fn scripted_responses(count: usize) -> String {
    match count {
        0 => "no scripted response".to_owned(),
        1 => "1 scripted response".to_owned(),
        n => format!("{n} scripted responses"),
    }
}

fn is_expectation(key: &str) -> bool {
    key.starts_with(EXPECTED_PREFIX)
}

fn op_kind(op: &Map<String, Value>) -> &str {
    op.get("op").and_then(Value::as_str).unwrap_or("?")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn document() -> Value {
        json!({
            "fixtureVersion": 1, "name": "n", "description": "d",
            "ops": [
                {"op": "sse-messages", "messages": []},
                {"op": "fetch-older", "responses": [], "expectedRequests": [], "expectedOutcome": {"kind": "x"}}
            ],
            "expectedState": {"messages": []}
        })
    }

    #[test]
    fn with_input_inverts_the_input_side_of_split() {
        let document = document();
        let parts = PaginationSuite.split(&document).unwrap();
        assert_eq!(PaginationSuite.with_input(&document, &parts.input).unwrap(), document);
        let changed =
            json!({"ops": [{"op": "sse-messages", "messages": [{"id": "a"}]}, {"op": "fetch-older", "responses": []}]});
        let updated = PaginationSuite.with_input(&document, &changed).unwrap();
        assert_eq!(PaginationSuite.split(&updated).unwrap().input, changed);
        assert_eq!(PaginationSuite.split(&updated).unwrap().expected, parts.expected);
    }

    #[test]
    fn with_input_of_fewer_ops_leaves_the_expectations_to_with_expected() {
        let document = document();
        let fewer = json!({"ops": [{"op": "fetch-older", "responses": []}]});
        let updated = PaginationSuite.with_input(&document, &fewer).unwrap();
        assert_eq!(updated["ops"], json!([{"op": "fetch-older", "responses": []}]));
        let expected =
            json!({"ops": [{"expectedRequests": [], "expectedOutcome": {"kind": "y"}}], "expectedState": {}});
        let complete = PaginationSuite.with_expected(&updated, &expected).unwrap();
        assert_eq!(PaginationSuite.split(&complete).unwrap(), CaseParts { input: fewer, expected });
        assert!(PaginationSuite.with_input(&document, &json!({"ops": [1]})).is_err());
        assert!(PaginationSuite.with_input(&document, &json!({})).is_err());
    }
}
