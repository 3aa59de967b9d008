//! The `sse` reference: the `session-updated` patch fold.
//!
//! A case folds its `patches` over `initialSession` one at a time and records
//! a verdict per patch (`applied` when the fold produced a new session,
//! `unchanged` when it kept the cached one), then reports the final session.
//! Inputs are first brought to their schema-normalized form ([`normalize`]),
//! which is a no-op on the corpus (it is stored normalized) but makes raw wire
//! payloads fold the way the client folds them. The fold itself lives in
//! [`fold`].

pub mod fold;
pub mod normalize;
pub mod rule_ids;

pub use rule_ids::RULES;

use crate::suite::RuleTrace;
use serde_json::{Map, Value};

pub use fold::{Verdict, fold_step};

/// Replays a case: `input` is `{initialSession, patches}`; the result is
/// `{expectedPatchResults, expectedSession}`.
pub fn reference(input: &Value, trace: &mut dyn RuleTrace) -> Result<Value, String> {
    let input = input.as_object().ok_or("the input is not an object")?;
    let initial = input.get("initialSession").ok_or("the input has no `initialSession`")?;
    let patches = input.get("patches").ok_or("the input has no `patches`")?;
    let patches = patches.as_array().ok_or("`patches` is not an array")?;
    let mut session = normalize::session(initial, trace).map_err(|problem| format!("initialSession: {problem}"))?;
    let mut verdicts = Vec::with_capacity(patches.len());
    for (index, patch) in patches.iter().enumerate() {
        let patch = normalize::patch(patch, trace).map_err(|problem| format!("patches[{index}]: {problem}"))?;
        let verdict = match fold_step(&session, &patch, trace) {
            Some(next) => {
                session = next;
                Verdict::Applied
            }
            None => Verdict::Unchanged,
        };
        verdicts.push(Value::from(verdict.as_str()));
    }
    let mut output = Map::new();
    output.insert("expectedPatchResults".to_owned(), Value::Array(verdicts));
    output.insert("expectedSession".to_owned(), Value::Object(session));
    Ok(Value::Object(output))
}
