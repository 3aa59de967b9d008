//! The `sse` reference: the `session-updated` patch fold.
//!
//! A case folds its `patches` over `initialSession` one at a time and records
//! a verdict per patch (`applied` when the fold produced a new session,
//! `unchanged` when it kept the cached one), then reports the final session.
//! Inputs are first brought to their schema-normalized form ([`normalize`]),
//! which is a no-op on the corpus (it is stored normalized) but makes raw wire
//! payloads fold the way the client folds them. The fold itself lives in
//! [`fold`], the reply clock of fixtureVersion 2 in [`reply_clock`].
//!
//! fixtureVersions 1 and 2 fold alike: version 2 only adds the reply-clock
//! members, which version 1 has no rule for, and a document labelled 1 that
//! carries them folds them by the version 2 rules (v2.md M3).

pub mod fold;
pub mod normalize;
pub mod reply_clock;
pub mod rule_ids;

pub use rule_ids::RULES;

use crate::suite_api::{RuleTrace, Scope};
use serde_json::{Map, Value};

pub use fold::{PatchResult, fold_step};

/// The fixtureVersions this reference implements.
pub const VERSIONS: &[u32] = &[1, 2];

/// Replays a case of fixtureVersion 2 (see [`reference_for`]).
pub fn reference(input: &Value, trace: &mut dyn RuleTrace) -> Result<Value, String> {
    replay(input, 2, trace)
}

/// The reference of `version`, when it is one of [`VERSIONS`].
pub fn reference_for(version: u32) -> Option<crate::suite_api::ReferenceFn> {
    match version {
        1 => Some(reference_v1),
        2 => Some(reference),
        _ => None,
    }
}

fn reference_v1(input: &Value, trace: &mut dyn RuleTrace) -> Result<Value, String> {
    replay(input, 1, trace)
}

/// Replays a case: `input` is `{initialSession, patches}`; the result is
/// `{expectedPatchResults, expectedSession}`. `version` is the document's
/// fixtureVersion; it changes no verdict, it only tells coverage that a
/// document labelled 1 used the reply clock.
fn replay(input: &Value, version: u32, trace: &mut dyn RuleTrace) -> Result<Value, String> {
    let input = input.as_object().ok_or("the input is not an object")?;
    let initial = input.get("initialSession").ok_or("the input has no `initialSession`")?;
    let patches = input.get("patches").ok_or("the input has no `patches`")?;
    let patches = patches.as_array().ok_or("`patches` is not an array")?;
    let mut session = normalize::session(initial, trace).map_err(|problem| format!("initialSession: {problem}"))?;
    if version == 1 && session.contains_key(reply_clock::CLOCK_KEY) {
        trace.hit("v2.m3.reply-clock-in-version-1-document");
    }
    trace.emitted(Scope::Pointer("/expectedSession"));
    let mut verdicts = Vec::with_capacity(patches.len());
    for (index, patch) in patches.iter().enumerate() {
        let patch = normalize::patch(patch, trace).map_err(|problem| format!("patches[{index}]: {problem}"))?;
        if version == 1 && normalize::REPLY_CLOCK_PATCH_KEYS.iter().any(|key| patch.contains_key(*key)) {
            trace.hit("v2.m3.reply-clock-in-version-1-document");
        }
        let verdict = match fold_step(&session, &patch, index, trace) {
            Some(next) => {
                session = next;
                PatchResult::Applied
            }
            None => PatchResult::Unchanged,
        };
        verdicts.push(Value::from(verdict.as_str()));
        // Provenance: the patch's rules decided its verdict and the session.
        trace.emitted(Scope::Items { member: "expectedPatchResults", start: index, end: index + 1 });
        trace.also(Scope::Pointer("/expectedSession"));
    }
    let mut output = Map::new();
    output.insert("expectedPatchResults".to_owned(), Value::Array(verdicts));
    output.insert("expectedSession".to_owned(), Value::Object(session));
    Ok(Value::Object(output))
}
