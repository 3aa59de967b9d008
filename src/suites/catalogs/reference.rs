//! The modes catalog: which permission modes each agent flavor offers (with
//! their labels and tones) and the codex-only collaboration modes.
//!
//! This is a reference table rather than a decoder: the `catalogs` suite has
//! no input, and the whole table produced here is compared with
//! `catalogs/modes.json`. The lookups the table is derived from are public so
//! the rules that the single catalog file cannot show (the fallback for
//! unknown flavors, the allowed-mode check) are testable on their own.

use crate::suite::RuleTrace;
use serde_json::{Map, Value, json};

/// The agent flavors, in the order the catalog derivation walks them.
pub const AGENT_FLAVORS: [&str; 11] =
    ["agy", "claude", "codex", "dsh", "copilot", "cursor", "gemini", "grok", "kimi", "opencode", "pi"];

/// Every permission-mode id a session may carry, in canonical enumeration order.
pub const PERMISSION_MODES: [&str; 13] = [
    "default",
    "acceptEdits",
    "auto",
    "bypassPermissions",
    "plan",
    "ask",
    "debug",
    "autoReview",
    "read-only",
    "safe-yolo",
    "yolo",
    "request-review",
    "always-proceed",
];

/// The codex collaboration modes as `(mode, label)`, in offer order.
pub const CODEX_COLLABORATION_MODES: [(&str, &str); 2] = [("default", "Default"), ("plan", "Plan")];

/// Every rule id the catalogs reference reports (one per table).
pub const RULES: &[&str] = &["catalogs.codex-collaboration-modes", "catalogs.permission-modes-by-flavor"];

const CLAUDE_MODES: &[&str] = &["default", "acceptEdits", "auto", "bypassPermissions", "plan"];
const CODEX_LIKE_MODES: &[&str] = &["default", "read-only", "safe-yolo", "yolo"];

/// The permission modes a flavor offers, in offer order.
///
/// The lookup is exact and case-sensitive; any other value, including a
/// missing flavor and other casings of known ones (`"Pi"`), falls back to the
/// Claude list.
pub fn permission_modes_for(flavor: Option<&str>) -> &'static [&'static str] {
    match flavor {
        Some("codex" | "gemini" | "kimi" | "copilot") => CODEX_LIKE_MODES,
        Some("grok") => &["default", "auto", "plan", "bypassPermissions"],
        Some("opencode") => &["default", "plan", "yolo"],
        Some("agy") => &["request-review", "always-proceed"],
        Some("cursor") => &["default", "plan", "ask", "debug", "autoReview", "yolo"],
        // The server owns the policy (dsh), or there is no runtime switching (pi).
        Some("dsh" | "pi") => &[],
        _ => CLAUDE_MODES,
    }
}

/// The label and tone of a permission mode; labels and tones do not depend on
/// the flavor. `None` for an id outside [`PERMISSION_MODES`].
pub fn permission_mode_label_tone(mode: &str) -> Option<(&'static str, &'static str)> {
    Some(match mode {
        "default" => ("Default", "neutral"),
        "acceptEdits" => ("Accept Edits", "warning"),
        "auto" => ("Auto", "warning"),
        "bypassPermissions" => ("Yolo", "danger"),
        "plan" => ("Plan Mode", "info"),
        "ask" => ("Ask Mode", "info"),
        "debug" => ("Debug Mode", "info"),
        "autoReview" => ("Auto-review", "warning"),
        "read-only" => ("Read Only", "warning"),
        "safe-yolo" => ("Safe Yolo", "warning"),
        "yolo" => ("Yolo", "danger"),
        "request-review" => ("Request Review", "neutral"),
        "always-proceed" => ("Always Proceed", "danger"),
        _ => return None,
    })
}

/// Whether `mode` may be selected for a session of `flavor`: exactly the
/// modes the flavor offers (nothing for `dsh` and `pi`).
pub fn is_permission_mode_allowed(flavor: Option<&str>, mode: &str) -> bool {
    permission_modes_for(flavor).contains(&mode)
}

/// The whole catalog document (`catalogs/modes.json` before serialization).
pub fn catalog(trace: &mut dyn RuleTrace) -> Value {
    let mut by_flavor = Map::new();
    for flavor in AGENT_FLAVORS {
        let options = permission_modes_for(Some(flavor))
            .iter()
            .filter_map(|mode| {
                permission_mode_label_tone(mode)
                    .map(|(label, tone)| json!({"mode": mode, "label": label, "tone": tone}))
            })
            .collect();
        by_flavor.insert(flavor.to_owned(), Value::Array(options));
    }
    trace.hit("catalogs.permission-modes-by-flavor");
    let collaboration =
        CODEX_COLLABORATION_MODES.iter().map(|(mode, label)| json!({"mode": mode, "label": label})).collect();
    trace.hit("catalogs.codex-collaboration-modes");
    json!({
        "permissionModesByFlavor": Value::Object(by_flavor),
        "codexCollaborationModes": Value::Array(collaboration),
    })
}

/// The `catalogs` reference: the input must be an empty object (the suite has
/// no input); the output is the whole catalog.
pub fn reference(input: &Value, trace: &mut dyn RuleTrace) -> Result<Value, String> {
    match input.as_object() {
        Some(object) if object.is_empty() => Ok(catalog(trace)),
        _ => Err("the catalogs suite takes no input (expected an empty object)".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::NoTrace;

    #[test]
    fn unknown_and_differently_cased_flavors_fall_back_to_claude() {
        for flavor in [None, Some("Pi"), Some("PI"), Some(""), Some("unknown")] {
            assert_eq!(permission_modes_for(flavor), CLAUDE_MODES, "{flavor:?}");
        }
        assert!(permission_modes_for(Some("pi")).is_empty());
    }

    #[test]
    fn allowed_check_follows_the_offered_list() {
        assert!(is_permission_mode_allowed(Some("cursor"), "debug"));
        assert!(!is_permission_mode_allowed(Some("codex"), "acceptEdits"));
        assert!(!is_permission_mode_allowed(Some("dsh"), "default"));
        assert!(is_permission_mode_allowed(Some("Codex"), "acceptEdits"));
    }

    #[test]
    fn every_mode_has_a_label_and_is_offered_somewhere() {
        for mode in PERMISSION_MODES {
            assert!(permission_mode_label_tone(mode).is_some(), "{mode}");
            assert!(AGENT_FLAVORS.iter().any(|flavor| is_permission_mode_allowed(Some(flavor), mode)), "{mode}");
        }
        assert_eq!(permission_mode_label_tone("fleet"), None);
    }

    #[test]
    fn the_table_keeps_offer_order() {
        let table = catalog(&mut NoTrace);
        let grok: Vec<&str> = table["permissionModesByFlavor"]["grok"]
            .as_array()
            .map(|options| options.iter().filter_map(|option| option["mode"].as_str()).collect())
            .unwrap_or_default();
        assert_eq!(grok, ["default", "auto", "plan", "bypassPermissions"]);
        assert_eq!(table["codexCollaborationModes"][1]["label"], "Plan");
    }

    #[test]
    fn input_must_be_empty() {
        assert!(reference(&json!({"x": 1}), &mut NoTrace).is_err());
        assert!(reference(&json!([]), &mut NoTrace).is_err());
        assert!(reference(&json!({}), &mut NoTrace).is_ok());
    }
}
