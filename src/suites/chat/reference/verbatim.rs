//! Copying verbatim wire values into the output.
//!
//! Tool inputs, results and other members the pipeline passes through
//! untouched may nest as deep as the parser allows (10,000 levels), so the
//! copy must not overflow the stack of whatever thread runs the reference;
//! and it is on the hot path, so ordinary values must stay cheap to copy.

use serde_json::Value;

/// Values nested at most this deep are copied with the derived clone, whose
/// recursion then needs well under [`PLAIN_CLONE_STACK_BYTES`].
const PLAIN_CLONE_DEPTH: usize = 256;

/// Stack the derived clone of a [`PLAIN_CLONE_DEPTH`]-deep value fits in.
const PLAIN_CLONE_STACK_BYTES: usize = 1024 * 1024;

/// A deep copy that grows the stack instead of overflowing it: verbatim
/// values copied into the output may nest as deep as the parser allows.
///
/// Ordinary (shallow) values use the derived clone, which copies each
/// object's hash table instead of re-hashing every key; that re-hashing was
/// most of the cost of building the output.
pub fn deep_clone(value: &Value) -> Value {
    // The stack is checked first: the depth probe itself recurses up to
    // PLAIN_CLONE_DEPTH levels, which must not run close to the red zone.
    if stacker::remaining_stack().is_some_and(|left| left > PLAIN_CLONE_STACK_BYTES)
        && !nests_deeper_than(value, PLAIN_CLONE_DEPTH)
    {
        return value.clone();
    }
    match value {
        Value::Array(items) => {
            stacker::maybe_grow(64 * 1024, 1024 * 1024, || Value::Array(items.iter().map(deep_clone).collect()))
        }
        Value::Object(map) => stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
            Value::Object(map.iter().map(|(k, v)| (k.clone(), deep_clone(v))).collect())
        }),
        leaf => leaf.clone(),
    }
}

/// Whether containers nest more than `limit` levels deep (recursion bounded
/// by `limit`, no allocation).
fn nests_deeper_than(value: &Value, limit: usize) -> bool {
    match value {
        Value::Array(items) => limit == 0 || items.iter().any(|item| nests_deeper_than(item, limit - 1)),
        Value::Object(map) => limit == 0 || map.values().any(|member| nests_deeper_than(member, limit - 1)),
        _ => false,
    }
}
