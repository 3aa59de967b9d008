//! What `conform explore` knows about event-fold inputs: a tool's summary is
//! its output when that is under 80 UTF-16 units on one line, so one mutation
//! sets a tool result's output right at that limit, with astral characters
//! (two UTF-16 units each) to tell UTF-16 lengths from code points.

use crate::suite_api::mutate::{object_at_mut, objects_where};
use crate::suite_api::{Chooser, MutationProfile, SuiteMutator};
use serde_json::Value;

/// See the module docs.
pub const PROFILE: MutationProfile = MutationProfile {
    id_members: &[],
    order_members: &["seq", "ts"],
    words: &["Bash", "Read", "Glob", "Grep", "Write", "Edit", "Task", "TodoWrite", "WebSearch"],
    mutators: &[SuiteMutator { name: "event-fold/summary-limit", weight: 3, apply: summary_limit }],
    unpinnable_rules: &[],
};

/// The summary limit, in UTF-16 units.
const LIMIT: usize = 80;

fn summary_limit(input: &mut Value, chooser: &mut Chooser) -> Option<String> {
    let outputs = objects_where(input, &|members| members.get("output").is_some_and(Value::is_string));
    let path = chooser.pick(&outputs)?.clone();
    let astral = 1 + chooser.below(20);
    let units = LIMIT - 1 + chooser.below(3);
    let plain = units.checked_sub(2 * astral)?;
    let text = format!("{}{}", "😀".repeat(astral), "x".repeat(plain));
    object_at_mut(input, &path)?.insert("output".to_owned(), Value::String(text));
    Some(format!("set a tool output to {units} UTF-16 units ({astral} astral characters)"))
}
