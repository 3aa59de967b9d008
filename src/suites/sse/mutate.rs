//! What `conform explore` knows about sse inputs: the members that order
//! patches (versions and watermarks, timestamps), and one mutation: a patch
//! member set to the cached session's value or a near twin of it (`-0` for
//! `0`, a fraction more, another letter case), where the fold's JavaScript
//! equality decides between `applied` and `unchanged`.

use crate::suite_api::{Chooser, MutationProfile, SuiteMutator};
use serde_json::{Number, Value};

/// See the module docs.
pub const PROFILE: MutationProfile = MutationProfile {
    id_members: &["id"],
    order_members: &[
        "version",
        "metadataVersion",
        "agentStateVersion",
        "todosUpdatedAt",
        "teamStateUpdatedAt",
        "updatedAt",
        "activeAt",
        "thinkingAt",
        "createdAt",
        "seq",
    ],
    words: &["default", "plan", "acceptEdits", "bypassPermissions", "read-only", "safe-yolo", "yolo"],
    mutators: &[SuiteMutator { name: "sse/cached-value", weight: 4, apply: cached_value }],
    unpinnable_rules: &[],
};

/// `text` with the case of its first letter flipped.
fn flip_case(text: &str) -> String {
    let mut flipped = String::with_capacity(text.len());
    let mut done = false;
    for c in text.chars() {
        if !done && c.is_alphabetic() {
            done = true;
            if c.is_uppercase() {
                flipped.extend(c.to_lowercase());
            } else {
                flipped.extend(c.to_uppercase());
            }
        } else {
            flipped.push(c);
        }
    }
    flipped
}

/// Sets a member of one patch to the initial session's value for it (or,
/// for a number, to its `-0` or fractional twin; for a string, to the same
/// text in another letter case).
fn cached_value(input: &mut Value, chooser: &mut Chooser) -> Option<String> {
    let session = input.get("initialSession")?.as_object()?.clone();
    let patches = input.get_mut("patches")?.as_array_mut()?;
    let index = chooser.below(patches.len());
    let patch = patches.get_mut(index)?.as_object_mut()?;
    let keys: Vec<&String> = session.keys().filter(|key| key.as_str() != "id").collect();
    let key = (*chooser.pick(&keys)?).clone();
    let cached = session.get(&key)?.clone();
    let value = match &cached {
        Value::Number(n) if n.as_f64() == Some(0.0) && chooser.chance(2, 3) => {
            Number::from_f64(-0.0).map(Value::Number)?
        }
        Value::Number(n) if chooser.chance(1, 3) => crate::suite_api::mutate::js_number(n.as_f64()? + 0.5),
        Value::String(text) if chooser.chance(1, 2) => Value::String(flip_case(text)),
        other => other.clone(),
    };
    if patch.get(&key) == Some(&value) {
        return None;
    }
    let described = crate::json::to_compact_string(&value);
    patch.insert(key.clone(), value);
    Some(format!("set /patches/{index}/{key} to the cached session's value ({described})"))
}
