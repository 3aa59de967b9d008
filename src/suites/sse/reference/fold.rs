//! One fold step: (cached session, normalized patch) → new session or
//! "unchanged".
//!
//! Two phases. The relevance pre-check decides whether the patch can matter
//! at all; an irrelevant patch (every value equal to the cached one, or only a
//! sub-minute `activeAt` keep-alive) is `unchanged` without applying any of
//! it. A relevant patch is then applied to a copy, and the verdict is
//! `applied` only if an assignment really changed a value or a versioned
//! wrapper passed its strictly-greater gate. The reply clock
//! (`lastAssistantMessageAt` and its version) has rules of its own in
//! [`reply_clock`].

use super::normalize::FLAT_PATCH_KEYS;
use super::reply_clock;
use crate::suite_api::{RuleTrace, Scope};
use serde_json::{Map, Value};

/// Below this `activeAt` move (in ms) a keep-alive is render-irrelevant:
/// relative-time labels only change at minute boundaries.
pub const KEEPALIVE_WINDOW_MS: f64 = 60_000.0;

/// The versioned wrappers and the session member holding each watermark.
const WRAPPERS: [(&str, &str); 4] = [
    ("metadata", "metadataVersion"),
    ("agentState", "agentStateVersion"),
    ("todos", "todosUpdatedAt"),
    ("teamState", "teamStateUpdatedAt"),
];

/// The outcome of one fold step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PatchResult {
    /// The fold produced a new session.
    Applied,
    /// Nothing render-relevant changed; the cached session is kept.
    Unchanged,
}

impl PatchResult {
    /// The fixture spelling (`"applied"` / `"unchanged"`).
    pub fn as_str(self) -> &'static str {
        match self {
            PatchResult::Applied => "applied",
            PatchResult::Unchanged => "unchanged",
        }
    }
}

/// Folds one normalized patch (number `index` of the input) into
/// `session`. `None` means `unchanged`.
pub fn fold_step(
    session: &Map<String, Value>,
    patch: &Map<String, Value>,
    index: usize,
    trace: &mut dyn RuleTrace,
) -> Option<Map<String, Value>> {
    if !is_render_relevant(session, patch, trace) {
        trace.hit("sse.precheck.irrelevant");
        return None;
    }
    let watermark = reply_clock::watermark(session, trace);
    let mut next = session.clone();
    let mut changed = false;
    // Provenance: what was decided so far (the patch's normalization, the
    // pre-check, the watermark) decided its verdict, before each write
    // claims its own member below.
    trace.emitted(Scope::Items { member: "expectedPatchResults", start: index, end: index + 1 });
    for key in FLAT_PATCH_KEYS {
        let Some(value) = patch.get(key) else { continue };
        if strictly_equal(next.get(key), value) {
            continue;
        }
        trace.hit(if value.is_null() { "sse.flat.null-clears" } else { "sse.flat.last-write-wins" });
        if trace.keeps_provenance() {
            // Provenance: the write decided this member of the session (and
            // the patch's verdict), not the members other patches wrote.
            trace.emitted(Scope::Pointer(&format!("/expectedSession/{key}")));
            trace.also(Scope::Items { member: "expectedPatchResults", start: index, end: index + 1 });
        }
        next.insert(key.to_owned(), value.clone());
        changed = true;
    }
    if let Some(updated_at) = patch.get("updatedAt") {
        changed |= advance_updated_at(&mut next, updated_at, trace);
    }
    for (key, watermark_key) in WRAPPERS {
        if let Some(wrapper) = patch.get(key) {
            changed |= apply_wrapper(&mut next, key, watermark_key, wrapper, trace);
        }
    }
    let clock_changed = reply_clock::apply(&mut next, patch, watermark, trace);
    if clock_changed && !changed {
        trace.hit("v2.c9.reply-clock-decides-verdict");
    }
    changed |= clock_changed;
    if patch.contains_key("activeTurnStartedAt") {
        trace.hit("sse.not-applied.active-turn-started-at");
    }
    if patch.contains_key("scratchlistUpdatedAt") {
        trace.hit("sse.not-applied.scratchlist-updated-at");
    }
    if changed {
        Some(next)
    } else {
        trace.hit("sse.no-effective-change");
        None
    }
}

/// The pre-check: does any patch member differ from the cached member of the
/// same name? Wrappers (objects) always differ; a sub-minute `activeAt` move
/// does not count. The reply-clock version is no member of the session: it
/// counts only when it is newer than `seq` (v2.md C4).
fn is_render_relevant(session: &Map<String, Value>, patch: &Map<String, Value>, trace: &mut dyn RuleTrace) -> bool {
    if reply_clock::version_makes_relevant(session, patch, trace) {
        return true;
    }
    for (key, value) in patch {
        if key == reply_clock::VERSION_KEY {
            continue;
        }
        if key == "activeAt" && is_keepalive(session.get(key), value) {
            trace.hit("sse.precheck.keepalive-subminute");
            continue;
        }
        if !strictly_equal(session.get(key), value) {
            return true;
        }
    }
    false
}

fn is_keepalive(cached: Option<&Value>, patched: &Value) -> bool {
    match (cached.and_then(Value::as_f64), patched.as_f64()) {
        (Some(cached), Some(patched)) => (patched - cached).abs() < KEEPALIVE_WINDOW_MS,
        _ => false,
    }
}

/// JavaScript `===` on JSON values as the fold sees them: scalars by value
/// (numbers numerically), an absent member unequal to everything, and objects
/// and arrays never equal (a freshly received object is never identical to a
/// cached one).
pub fn strictly_equal(cached: Option<&Value>, patched: &Value) -> bool {
    match (cached, patched) {
        (Some(Value::Number(a)), Value::Number(b)) => a.as_f64() == b.as_f64(),
        (Some(Value::String(a)), Value::String(b)) => a == b,
        (Some(Value::Bool(a)), Value::Bool(b)) => a == b,
        (Some(Value::Null), Value::Null) => true,
        _ => false,
    }
}

/// `updatedAt` only moves forward.
fn advance_updated_at(next: &mut Map<String, Value>, patched: &Value, trace: &mut dyn RuleTrace) -> bool {
    let Some(patched_time) = patched.as_f64() else { return false };
    let newer = match next.get("updatedAt").and_then(Value::as_f64) {
        Some(cached) => patched_time > cached,
        None => true,
    };
    if newer {
        trace.hit("sse.updated-at.advances");
        next.insert("updatedAt".to_owned(), patched.clone());
    } else {
        trace.hit("sse.updated-at.max-monotonic");
    }
    newer
}

/// Applies a `{version, value}` wrapper when its version is strictly greater
/// than the cached watermark (absent counts as 0). A passing gate is a change
/// even when the value is identical.
fn apply_wrapper(
    next: &mut Map<String, Value>,
    key: &str,
    watermark_key: &str,
    wrapper: &Value,
    trace: &mut dyn RuleTrace,
) -> bool {
    let Some(version) = wrapper.get("version").filter(|version| version.is_number()) else { return false };
    let watermark = match next.get(watermark_key).and_then(Value::as_f64) {
        Some(watermark) => watermark,
        None => {
            trace.hit("sse.wrapper.absent-watermark-is-0");
            0.0
        }
    };
    if version.as_f64().is_none_or(|version| version <= watermark) {
        trace.hit("sse.wrapper.not-newer-dropped");
        return false;
    }
    let value = wrapper.get("value").cloned().unwrap_or(Value::Null);
    if key == "teamState" && value.is_null() {
        trace.hit("sse.wrapper.team-state-null-removes");
        next.remove(key);
    } else {
        trace.hit("sse.wrapper.newer-applied");
        next.insert(key.to_owned(), value);
    }
    next.insert(watermark_key.to_owned(), version.clone());
    true
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
    fn equality_is_javascript_strict_equality() {
        assert!(strictly_equal(Some(&json!(1)), &json!(1.0)));
        assert!(strictly_equal(Some(&Value::Null), &Value::Null));
        assert!(!strictly_equal(None, &Value::Null));
        assert!(!strictly_equal(Some(&json!({})), &json!({})));
        assert!(!strictly_equal(Some(&json!("1")), &json!(1)));
    }

    #[test]
    fn numbers_compare_by_value_not_representation() {
        let session = object(json!({"backgroundTaskCount": 1, "updatedAt": 5, "activeAt": 0}));
        assert_eq!(fold_step(&session, &object(json!({"backgroundTaskCount": 1.0})), 0, &mut NoTrace), None);
        assert_eq!(fold_step(&session, &object(json!({"updatedAt": 5.0})), 0, &mut NoTrace), None);
    }

    #[test]
    fn keepalive_window_is_strict_and_symmetric() {
        let session = object(json!({"activeAt": 100_000}));
        assert_eq!(fold_step(&session, &object(json!({"activeAt": 159_999})), 0, &mut NoTrace), None);
        assert_eq!(fold_step(&session, &object(json!({"activeAt": 40_001})), 0, &mut NoTrace), None);
        let moved = fold_step(&session, &object(json!({"activeAt": 160_000})), 0, &mut NoTrace);
        assert_eq!(moved.and_then(|next| next.get("activeAt").cloned()), Some(json!(160_000)));
    }
}
