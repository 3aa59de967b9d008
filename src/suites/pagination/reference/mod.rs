//! The `pagination` reference: the message-window store driven by an op
//! script.
//!
//! Stages, one module each: [`row`] (rows, predicates, display order),
//! [`merge`] (the merge every mutation uses), [`trim`] (reasoning collapse and
//! window limits), [`page`] (requests and scripted pages), [`store`] (state
//! and operations), [`script`] (op replay and per-op expectations) and
//! [`projection`] (`expectedState`).
//!
//! The store asks the chat pipeline one question, whether a row renders; it
//! does not keep its own copy of those rules.

pub mod merge;
pub mod page;
pub mod projection;
pub mod row;
pub mod rule_ids;
pub mod script;
pub mod store;
pub mod trim;

pub use rule_ids::RULES;

use crate::suite::RuleTrace;
use crate::suites::chat::reference as chat;
use serde_json::{Map, Value};

/// Replays a case: `input` is `{ops: [op without its expected* members]}`;
/// the result is `{ops: [per-op expectations], expectedState}`.
pub fn reference(input: &Value, trace: &mut dyn RuleTrace) -> Result<Value, String> {
    let ops = input.get("ops").and_then(Value::as_array).ok_or("the input needs an `ops` array")?;
    let mut store = store::Store::default();
    let mut expectations = Vec::with_capacity(ops.len());
    for (index, op) in ops.iter().enumerate() {
        let kind = op.get("op").and_then(Value::as_str).unwrap_or("?");
        let expected = script::run_op(&mut store, op, chat::renders, trace)
            .map_err(|problem| format!("ops[{index}] {kind}: {problem}"))?;
        expectations.push(Value::Object(expected));
    }
    let mut output = Map::new();
    output.insert("ops".to_owned(), Value::Array(expectations));
    output.insert("expectedState".to_owned(), projection::project(&store));
    Ok(Value::Object(output))
}
