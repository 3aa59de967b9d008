//! The assistant reply clock (v2.md §3.7, rules C1–C9).
//!
//! A session may carry `lastAssistantMessageAt`, the time of the newest
//! assistant reply. A patch moves it with `lastAssistantMessageAt` and,
//! optionally, `lastAssistantMessageVersion`. The version is gated against
//! the cached session's `seq` (the watermark W, C3), not against a member of
//! its own: a strictly newer version bumps `seq` (C5) and, taken by itself,
//! makes the patch relevant (C4); a version at least W opens the clock gate
//! (C6). A versioned clock is written verbatim, even backward or null (C7);
//! an unversioned one only moves forward, and its null never clears a time
//! (C8).
//!
//! fixtureVersion 1 has no rule for these members; documents labelled 1 that
//! carry them (upstream's v2 corpus has one, v2.md M1 and M3) fold them by
//! the same rules.

use super::fold::strictly_equal;
use crate::suite_api::RuleTrace;
use serde_json::{Map, Value};

/// The patch member holding the clock.
pub const CLOCK_KEY: &str = "lastAssistantMessageAt";
/// The patch member holding the clock's version.
pub const VERSION_KEY: &str = "lastAssistantMessageVersion";

/// C3: the watermark W is the cached `seq` when it is a finite number, else 0.
pub fn watermark(session: &Map<String, Value>, trace: &mut dyn RuleTrace) -> f64 {
    match session.get("seq").and_then(Value::as_f64).filter(|seq| seq.is_finite()) {
        Some(seq) => seq,
        None => {
            trace.hit("v2.c3.watermark-without-seq-is-0");
            0.0
        }
    }
}

/// The patch's version, when it carries one (normalization guarantees a
/// number).
fn version(patch: &Map<String, Value>) -> Option<f64> {
    patch.get(VERSION_KEY).and_then(Value::as_f64)
}

/// C4, step 1: a version strictly greater than W makes the patch relevant
/// before the key walk looks at anything.
pub fn version_makes_relevant(
    session: &Map<String, Value>,
    patch: &Map<String, Value>,
    trace: &mut dyn RuleTrace,
) -> bool {
    let Some(version) = version(patch) else { return false };
    if version > watermark(session, trace) {
        trace.hit("v2.c4.newer-version-relevant");
        true
    } else {
        trace.hit("v2.c4.version-alone-not-relevant");
        false
    }
}

/// C5–C8 on `next` (a copy of the cached session; `watermark` was taken from
/// the cached session before anything was applied). Returns whether a value
/// changed (C9: it counts toward the verdict like a flat assignment).
pub fn apply(
    next: &mut Map<String, Value>,
    patch: &Map<String, Value>,
    watermark: f64,
    trace: &mut dyn RuleTrace,
) -> bool {
    let version_value = patch.get(VERSION_KEY);
    let version = version(patch);
    let mut changed = false;
    if let (Some(version), Some(value)) = (version, version_value)
        && version > watermark
    {
        trace.hit("v2.c5.version-bumps-seq");
        next.insert("seq".to_owned(), value.clone());
        changed = true;
    }
    let Some(clock) = patch.get(CLOCK_KEY) else { return changed };
    match version {
        Some(version) if version < watermark => {
            trace.hit("v2.c6.stale-version-clock-ignored");
        }
        Some(version) => {
            if version == watermark {
                trace.hit("v2.c6.equal-version-opens-gate");
            }
            changed |= write_versioned(next, clock, trace);
        }
        None => changed |= write_unversioned(next, clock, trace),
    }
    changed
}

/// C7: written verbatim (backward and null included); a change iff it
/// differs.
fn write_versioned(next: &mut Map<String, Value>, clock: &Value, trace: &mut dyn RuleTrace) -> bool {
    if strictly_equal(next.get(CLOCK_KEY), clock) {
        return false;
    }
    trace.hit(if clock.is_null() { "v2.c7.versioned-null-clears" } else { "v2.c7.versioned-clock-written" });
    next.insert(CLOCK_KEY.to_owned(), clock.clone());
    true
}

/// C8: a number moves the clock forward only (an absent or null cached clock
/// counts as −∞); null is written only over an absent or null clock.
fn write_unversioned(next: &mut Map<String, Value>, clock: &Value, trace: &mut dyn RuleTrace) -> bool {
    let cached = next.get(CLOCK_KEY);
    let cached_time = cached.and_then(Value::as_f64);
    match clock.as_f64() {
        Some(time) => {
            if cached_time.is_some_and(|cached_time| cached_time >= time) {
                trace.hit("v2.c8.unversioned-never-backward");
                return false;
            }
            trace.hit("v2.c8.unversioned-clock-advances");
            next.insert(CLOCK_KEY.to_owned(), clock.clone());
            true
        }
        None => match cached {
            Some(Value::Null) => false,
            None => {
                trace.hit("v2.c8.unversioned-null-over-absent");
                next.insert(CLOCK_KEY.to_owned(), Value::Null);
                true
            }
            Some(_) => {
                trace.hit("v2.c8.unversioned-null-keeps-time");
                false
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite_api::NoTrace;
    use serde_json::json;

    fn object(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn the_watermark_is_a_finite_seq_else_zero() {
        assert_eq!(watermark(&object(json!({"seq": 40})), &mut NoTrace), 40.0);
        assert_eq!(watermark(&object(json!({"seq": "40"})), &mut NoTrace), 0.0);
        assert_eq!(watermark(&object(json!({})), &mut NoTrace), 0.0);
    }

    #[test]
    fn unversioned_updates_never_move_the_clock_backward_or_clear_it() {
        let mut next = object(json!({"lastAssistantMessageAt": 7000}));
        assert!(!write_unversioned(&mut next, &json!(6000), &mut NoTrace));
        assert!(!write_unversioned(&mut next, &json!(7000), &mut NoTrace));
        assert!(!write_unversioned(&mut next, &Value::Null, &mut NoTrace));
        assert!(write_unversioned(&mut next, &json!(7001), &mut NoTrace));
        assert_eq!(next["lastAssistantMessageAt"], json!(7001));
        let mut cleared = object(json!({"lastAssistantMessageAt": null}));
        assert!(write_unversioned(&mut cleared, &json!(-5), &mut NoTrace), "null counts as minus infinity");
        let mut absent = Map::new();
        assert!(write_unversioned(&mut absent, &Value::Null, &mut NoTrace));
        assert!(!write_unversioned(&mut absent, &Value::Null, &mut NoTrace));
    }

    #[test]
    fn the_gate_is_at_least_w_and_the_bump_strictly_above() {
        let mut next = object(json!({"seq": 40, "lastAssistantMessageAt": 5000}));
        let patch = object(json!({"lastAssistantMessageAt": 3000, "lastAssistantMessageVersion": 40}));
        assert!(apply(&mut next, &patch, 40.0, &mut NoTrace));
        assert_eq!((next["seq"].clone(), next["lastAssistantMessageAt"].clone()), (json!(40), json!(3000)));
        let stale = object(json!({"lastAssistantMessageAt": null, "lastAssistantMessageVersion": 39}));
        assert!(!apply(&mut next, &stale, 40.0, &mut NoTrace));
        let bump = object(json!({"lastAssistantMessageVersion": 41}));
        assert!(apply(&mut next, &bump, 40.0, &mut NoTrace));
        assert_eq!(next["seq"], json!(41));
    }
}
