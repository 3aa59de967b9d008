//! A suite's reference implementation as a plain function, and the one
//! guarded way to call it.

use crate::suite_api::RuleTrace;
use serde_json::Value;
use std::panic::{AssertUnwindSafe, catch_unwind};
use thiserror::Error;

/// The reference implementation of a suite: maps a case's input part to its
/// expected part. It must be total: any input yields a value or an error
/// message, never a panic. `trace` records the named decode rules the run
/// exercised (for `conform coverage`); references without rule ids ignore it.
pub type ReferenceFn = fn(input: &Value, trace: &mut dyn RuleTrace) -> Result<Value, String>;

/// Why a call of a [`ReferenceFn`] produced no value.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReferenceFailure {
    /// The reference cannot decode the input (its error message).
    #[error("{0}")]
    Rejected(String),
    /// The reference panicked. References are meant to be total, so this is
    /// a bug in the reference, contained to the one input.
    #[error("the reference panicked: {0}")]
    Panicked(String),
}

/// Calls `reference` on the canonical value of `input` (see
/// [`crate::json::canonical`]: what a JavaScript hub computes on, and what
/// the subprocess protocol sends an implementation), containing a panic:
/// whatever a reference does with one input, the command that called it
/// goes on.
pub fn call_reference(
    reference: ReferenceFn,
    input: &Value,
    trace: &mut dyn RuleTrace,
) -> Result<Value, ReferenceFailure> {
    let input = crate::json::canonical(input);
    match catch_unwind(AssertUnwindSafe(|| reference(&input, trace))) {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(message)) => Err(ReferenceFailure::Rejected(message)),
        Err(payload) => Err(ReferenceFailure::Panicked(panic_message(&*payload))),
    }
}

/// The message of a caught panic payload.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "(no message)".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite_api::NoTrace;

    fn echo(input: &Value, _: &mut dyn RuleTrace) -> Result<Value, String> {
        match input.as_str() {
            Some("reject") => Err("cannot decode".to_owned()),
            Some("panic") => panic!("boom"),
            _ => Ok(input.clone()),
        }
    }

    #[test]
    fn a_panic_is_contained_and_named() {
        assert_eq!(call_reference(echo, &Value::from(1), &mut NoTrace), Ok(Value::from(1)));
        let rejected = call_reference(echo, &Value::from("reject"), &mut NoTrace);
        assert_eq!(rejected, Err(ReferenceFailure::Rejected("cannot decode".to_owned())));
        let panicked = call_reference(echo, &Value::from("panic"), &mut NoTrace).unwrap_err();
        assert_eq!(panicked.to_string(), "the reference panicked: boom");
    }

    #[test]
    fn the_reference_computes_on_the_canonical_input() {
        // What the protocol sends for this input is `{"a":[0,9007199254740992],"b":1}`:
        // the reference sees that value, members in that order.
        let written = crate::json::parse_value(r#"{"b":1,"a":[-0.0,9007199254740993]}"#).unwrap();
        let seen = call_reference(echo, &written, &mut NoTrace).unwrap();
        let text = crate::json::write_value(&seen, crate::json::Style::STRINGIFY_COMPACT);
        assert_eq!(text, r#"{"a":[0,9007199254740992],"b":1}"#);
        assert_eq!(seen["a"][0], Value::from(0u64), "-0 is 0");
    }
}
