//! The `runtime-session` suite: the adapter lifecycle of seed 002 (sessions
//! created, messaged, steered, stopped, resumed, forked and archived over a
//! Codex app-server or the Claude SDK), replayed from a script.
//!
//! The document interleaves inputs and expectations inside each step, so
//! the suite splits it itself ([`Layout::Custom`]):
//!
//! - input: `{"runtime", "clientInfo"?, "steps": [each step without its
//!   expected* members]}`;
//! - expected: `{"steps": [per step, `{expectedWrites, expectedEvents}`],
//!   "expectedState": {sessions, capabilities}}`.

/// What `conform explore` knows about the inputs.
pub mod mutate;
/// The reference implementation.
pub mod reference;

use crate::json::pointer;
use crate::suite_api::{CaseParts, DocumentShape, Layout, PointerContext, ReferenceFn, Suite, WirePart, WireSchema};
use serde_json::{Map, Value};

/// Step members with this prefix are expectations; the rest is input.
const EXPECTED_PREFIX: &str = "expected";

/// Top-level members that belong to the input.
const INPUT_MEMBERS: [&str; 2] = ["runtime", "clientInfo"];

/// See the module docs.
#[derive(Clone, Copy, Debug, Default)]
pub struct RuntimeSessionSuite;

impl Suite for RuntimeSessionSuite {
    fn mutation_profile(&self) -> crate::suite_api::MutationProfile {
        mutate::PROFILE
    }

    fn name(&self) -> &'static str {
        "runtime-session"
    }

    fn title(&self) -> &'static str {
        "runtime adapter lifecycle: JSON-RPC and query() writes, events, approvals and session state per script step"
    }

    fn document_shapes(&self) -> &'static [DocumentShape] {
        &[DocumentShape { versions: &[1], schema: include_str!("../../../schemas/runtime-session.schema.json") }]
    }

    fn layout(&self) -> Layout {
        Layout::Custom
    }

    /// `runtime`, `clientInfo` and the `steps` as the schema states them,
    /// without their expected* members (an input never carries them).
    fn wire_schema(&self) -> Option<WireSchema> {
        Some(WireSchema {
            part: WirePart::Members { required: &["runtime", "steps"], optional: &["clientInfo"] },
            expectations_prefix: Some(EXPECTED_PREFIX),
        })
    }

    fn item_list(&self) -> Option<&'static str> {
        Some("steps")
    }

    fn reference(&self) -> Option<ReferenceFn> {
        Some(reference::run)
    }

    fn rules(&self) -> &'static [&'static str] {
        reference::RULES
    }

    fn split(&self, document: &Value) -> Result<CaseParts, String> {
        let object = document.as_object().ok_or("the document is not a JSON object")?;
        let steps = object.get("steps").and_then(Value::as_array).ok_or("the document has no `steps` array")?;
        let state = object.get("expectedState").ok_or("the document has no `expectedState` member")?;
        let mut input = Map::new();
        for key in INPUT_MEMBERS {
            if let Some(value) = object.get(key) {
                input.insert(key.to_owned(), value.clone());
            }
        }
        let mut input_steps = Vec::with_capacity(steps.len());
        let mut expected_steps = Vec::with_capacity(steps.len());
        for (index, step) in steps.iter().enumerate() {
            let step = step.as_object().ok_or_else(|| format!("steps[{index}] is not an object"))?;
            let (expected, given): (Map<String, Value>, Map<String, Value>) =
                step.iter().map(|(key, value)| (key.clone(), value.clone())).partition(|(key, _)| is_expectation(key));
            input_steps.push(Value::Object(given));
            expected_steps.push(Value::Object(expected));
        }
        input.insert("steps".to_owned(), Value::Array(input_steps));
        let mut expected = Map::new();
        expected.insert("steps".to_owned(), Value::Array(expected_steps));
        expected.insert("expectedState".to_owned(), state.clone());
        Ok(CaseParts { input: Value::Object(input), expected: Value::Object(expected) })
    }

    /// The input's `runtime`, `clientInfo` and steps replace the document's
    /// (its steps lose their expectations, which [`Suite::with_expected`]
    /// puts back).
    fn with_input(&self, document: &Value, input: &Value) -> Result<Value, String> {
        let mut object = document.as_object().ok_or("the document is not a JSON object")?.clone();
        let input = input.as_object().ok_or("the input is not a JSON object")?;
        for key in INPUT_MEMBERS {
            object.remove(key);
            if let Some(value) = input.get(key) {
                object.insert(key.to_owned(), value.clone());
            }
        }
        let steps = input.get("steps").ok_or("the input has no `steps`")?;
        object.insert("steps".to_owned(), steps.clone());
        Ok(Value::Object(object))
    }

    /// Each step's expected* members are replaced in place, and
    /// `expectedState`.
    fn with_expected(&self, document: &Value, expected: &Value) -> Result<Value, String> {
        let mut object = document.as_object().ok_or("the document is not a JSON object")?.clone();
        let expected_steps =
            expected.get("steps").and_then(Value::as_array).ok_or("the expected part has no `steps` array")?;
        let state = expected.get("expectedState").ok_or("the expected part has no `expectedState`")?;
        let steps = object.get_mut("steps").and_then(Value::as_array_mut).ok_or("the document has no `steps` array")?;
        if steps.len() != expected_steps.len() {
            return Err(format!("{} steps but {} step expectations", steps.len(), expected_steps.len()));
        }
        for (index, (step, expectations)) in steps.iter_mut().zip(expected_steps).enumerate() {
            let step = step.as_object_mut().ok_or_else(|| format!("steps[{index}] is not an object"))?;
            let expectations = expectations
                .as_object()
                .ok_or_else(|| format!("the expectations of steps[{index}] are not an object"))?;
            step.retain(|key, _| !is_expectation(key));
            step.extend(expectations.iter().map(|(key, value)| (key.clone(), value.clone())));
        }
        object.insert("expectedState".to_owned(), state.clone());
        Ok(Value::Object(object))
    }

    /// `steps[3] receive turn/completed: events differ at /1/data`.
    fn pointer_context(&self, input: &Value, pointer: &str) -> Option<PointerContext> {
        let tokens: Vec<&str> = pointer.split('/').skip(1).collect();
        let (label, depth) = match tokens.as_slice() {
            ["steps", index, rest @ ..] => {
                let step = index.parse::<usize>().ok().and_then(|index| input.get("steps")?.get(index));
                let step_label = format!("steps[{index}] {}", step.map(describe).unwrap_or_default());
                match rest {
                    ["expectedWrites", ..] => (format!("{step_label}: writes"), 3),
                    ["expectedEvents", ..] => (format!("{step_label}: events"), 3),
                    _ => (step_label, 2),
                }
            }
            ["expectedState", "sessions", id, ..] => (format!("getSession({id})"), 3),
            ["expectedState", ..] => ("final state".to_owned(), 1),
            _ => return None,
        };
        Some(PointerContext { label, rest: pointer::below(pointer, depth).to_owned() })
    }
}

fn is_expectation(key: &str) -> bool {
    key.starts_with(EXPECTED_PREFIX)
}

/// `do send s1`, `receive turn/completed`, `exit`.
fn describe(step: &Value) -> String {
    let session = step.get("session").and_then(Value::as_str);
    let what = if let Some(action) = step.get("do").and_then(Value::as_str) {
        format!("do {action}")
    } else if let Some(message) = step.get("receive") {
        let name = ["method", "type"].iter().find_map(|key| message.get(*key).and_then(Value::as_str));
        match (name, message.get("id")) {
            (Some(name), _) => format!("receive {name}"),
            (None, Some(_)) => "receive response".to_owned(),
            _ => "receive".to_owned(),
        }
    } else {
        ["canUseTool", "end", "exit"].iter().find(|key| step.get(**key).is_some()).map_or("?", |key| key).to_owned()
    };
    match session {
        Some(session) => format!("{what} ({session})"),
        None => what,
    }
}
