//! The modes catalog: which permission modes each agent flavor offers (with
//! their labels and tones) and the codex-only collaboration modes.
//!
//! This is a reference table rather than a decoder: the `catalogs` suite has
//! no input, and the whole table produced here is compared with
//! `catalogs/modes.json`. The lookups the table is derived from are public so
//! the rules that the single catalog file cannot show (the fallback for
//! unknown flavors, the allowed-mode check) are testable on their own.
//!
//! The table has changed between fixtureVersions: in version 2 `grok` and
//! `opencode` no longer offer `plan` (v2.md K1, K2); everything else is the
//! same (K3). [`CatalogVersion`] says which table a lookup reads.

use crate::suite_api::RuleTrace;
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

/// Every rule id the catalogs reference reports: one per table, and the
/// fixtureVersion 2 changes (ids `v2.` and the rule's number in v2.md).
pub const RULES: &[&str] = &[
    "catalogs.codex-collaboration-modes",
    "catalogs.permission-modes-by-flavor",
    "v2.k1.grok-without-plan",
    "v2.k2.opencode-without-plan",
    "v2.k3.other-flavors-unchanged",
];

/// The fixtureVersions this reference implements.
pub const VERSIONS: &[u32] = &[1, 2];

/// Which catalog a lookup reads: the tables differ between fixtureVersions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CatalogVersion {
    /// fixtureVersion 1 (catalogs.md).
    V1,
    /// fixtureVersion 2: `grok` and `opencode` without `plan` (v2.md K1–K3).
    V2,
}

impl CatalogVersion {
    /// The catalog of a fixtureVersion this reference implements.
    pub fn of(version: u32) -> Option<CatalogVersion> {
        match version {
            1 => Some(CatalogVersion::V1),
            2 => Some(CatalogVersion::V2),
            _ => None,
        }
    }
}

const CLAUDE_MODES: &[&str] = &["default", "acceptEdits", "auto", "bypassPermissions", "plan"];
const CODEX_LIKE_MODES: &[&str] = &["default", "read-only", "safe-yolo", "yolo"];

/// The permission modes a flavor offers in `version`'s catalog, in offer
/// order.
///
/// The lookup is exact and case-sensitive; any other value, including a
/// missing flavor and other casings of known ones (`"Pi"`), falls back to the
/// Claude list.
pub fn permission_modes_for(flavor: Option<&str>, version: CatalogVersion) -> &'static [&'static str] {
    match (flavor, version) {
        (Some("grok"), CatalogVersion::V1) => &["default", "auto", "plan", "bypassPermissions"],
        (Some("grok"), CatalogVersion::V2) => &["default", "auto", "bypassPermissions"],
        (Some("opencode"), CatalogVersion::V1) => &["default", "plan", "yolo"],
        (Some("opencode"), CatalogVersion::V2) => &["default", "yolo"],
        (flavor, _) => unchanged_modes_for(flavor),
    }
}

/// The flavors whose modes no fixtureVersion changed (v2.md K3).
fn unchanged_modes_for(flavor: Option<&str>) -> &'static [&'static str] {
    match flavor {
        Some("codex" | "gemini" | "kimi" | "copilot") => CODEX_LIKE_MODES,
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
/// modes the flavor offers (nothing for `dsh` and `pi`; `plan` not for
/// `grok` and `opencode` since version 2).
pub fn is_permission_mode_allowed(flavor: Option<&str>, mode: &str, version: CatalogVersion) -> bool {
    permission_modes_for(flavor, version).contains(&mode)
}

/// The whole catalog document of `version` (`catalogs/modes.json` before
/// serialization).
pub fn catalog(version: CatalogVersion, trace: &mut dyn RuleTrace) -> Value {
    let mut by_flavor = Map::new();
    for flavor in AGENT_FLAVORS {
        if version == CatalogVersion::V2 {
            trace.hit(match flavor {
                "grok" => "v2.k1.grok-without-plan",
                "opencode" => "v2.k2.opencode-without-plan",
                _ => "v2.k3.other-flavors-unchanged",
            });
        }
        let options = permission_modes_for(Some(flavor), version)
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

/// The `catalogs` reference of the newest version (see [`reference_for`]).
pub fn reference(input: &Value, trace: &mut dyn RuleTrace) -> Result<Value, String> {
    table(input, CatalogVersion::V2, trace)
}

/// The reference of `version`, when it is one of [`VERSIONS`].
pub fn reference_for(version: u32) -> Option<crate::suite_api::ReferenceFn> {
    match CatalogVersion::of(version)? {
        CatalogVersion::V1 => Some(reference_v1),
        CatalogVersion::V2 => Some(reference),
    }
}

fn reference_v1(input: &Value, trace: &mut dyn RuleTrace) -> Result<Value, String> {
    table(input, CatalogVersion::V1, trace)
}

/// The input must be an empty object (the suite has no input); the output is
/// the whole catalog of `version`.
fn table(input: &Value, version: CatalogVersion, trace: &mut dyn RuleTrace) -> Result<Value, String> {
    match input.as_object() {
        Some(object) if object.is_empty() => Ok(catalog(version, trace)),
        _ => Err("the catalogs suite takes no input (expected an empty object)".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite_api::NoTrace;

    #[test]
    fn unknown_and_differently_cased_flavors_fall_back_to_claude() {
        for version in [CatalogVersion::V1, CatalogVersion::V2] {
            for flavor in [None, Some("Pi"), Some("PI"), Some(""), Some("unknown"), Some("Grok")] {
                assert_eq!(permission_modes_for(flavor, version), CLAUDE_MODES, "{flavor:?}");
            }
            assert!(permission_modes_for(Some("pi"), version).is_empty());
        }
    }

    #[test]
    fn allowed_check_follows_the_offered_list() {
        let v1 = CatalogVersion::V1;
        assert!(is_permission_mode_allowed(Some("cursor"), "debug", v1));
        assert!(!is_permission_mode_allowed(Some("codex"), "acceptEdits", v1));
        assert!(!is_permission_mode_allowed(Some("dsh"), "default", v1));
        assert!(is_permission_mode_allowed(Some("Codex"), "acceptEdits", v1));
        assert!(is_permission_mode_allowed(Some("grok"), "plan", v1));
        let v2 = CatalogVersion::V2;
        assert!(!is_permission_mode_allowed(Some("grok"), "plan", v2));
        assert!(!is_permission_mode_allowed(Some("opencode"), "plan", v2));
        assert!(is_permission_mode_allowed(Some("cursor"), "plan", v2));
        assert!(is_permission_mode_allowed(Some("claude"), "plan", v2));
    }

    #[test]
    fn every_mode_has_a_label_and_is_offered_somewhere() {
        for mode in PERMISSION_MODES {
            assert!(permission_mode_label_tone(mode).is_some(), "{mode}");
            for version in [CatalogVersion::V1, CatalogVersion::V2] {
                let offered =
                    AGENT_FLAVORS.iter().any(|flavor| is_permission_mode_allowed(Some(flavor), mode, version));
                assert!(offered, "{mode}");
            }
        }
        assert_eq!(permission_mode_label_tone("fleet"), None);
    }

    #[test]
    fn the_table_keeps_offer_order() {
        let modes = |table: &Value, flavor: &str| -> Vec<String> {
            table["permissionModesByFlavor"][flavor]
                .as_array()
                .map(|options| options.iter().filter_map(|option| option["mode"].as_str().map(str::to_owned)).collect())
                .unwrap_or_default()
        };
        let v1 = catalog(CatalogVersion::V1, &mut NoTrace);
        assert_eq!(modes(&v1, "grok"), ["default", "auto", "plan", "bypassPermissions"]);
        assert_eq!(modes(&v1, "opencode"), ["default", "plan", "yolo"]);
        assert_eq!(v1["codexCollaborationModes"][1]["label"], "Plan");
        let v2 = catalog(CatalogVersion::V2, &mut NoTrace);
        assert_eq!(modes(&v2, "grok"), ["default", "auto", "bypassPermissions"]);
        assert_eq!(modes(&v2, "opencode"), ["default", "yolo"]);
        for flavor in AGENT_FLAVORS.iter().filter(|flavor| !matches!(**flavor, "grok" | "opencode")) {
            assert_eq!(v1["permissionModesByFlavor"][flavor], v2["permissionModesByFlavor"][flavor], "{flavor}");
        }
        assert_eq!(v1["codexCollaborationModes"], v2["codexCollaborationModes"]);
        assert_eq!(modes(&v2, "dsh"), Vec::<String>::new(), "dsh keeps its key with no modes");
    }

    #[test]
    fn input_must_be_empty() {
        assert!(reference(&json!({"x": 1}), &mut NoTrace).is_err());
        assert!(reference(&json!([]), &mut NoTrace).is_err());
        assert!(reference(&json!({}), &mut NoTrace).is_ok());
        assert!(reference_for(3).is_none());
    }
}
