//! Clustering by cause: one decoder bug shows at many pointers. The same
//! member differs in a view and in the view derived from it (chat's
//! `visibleBlocks` are built from `blocks`; a tool group's `tools/*` entries
//! are the same blocks), and at several depths (a block nested in
//! `children`). [`cause_pattern`] maps each such pointer pattern to one, so
//! those differences share a [`Signature`](super::Signature).
//!
//! A suite names its derived views as rewrites of a pointer-pattern prefix
//! (derived → source), through [`Suite::derived_views`](crate::suite_api::Suite::derived_views);
//! [`derived_views`] looks them up by suite name.

/// The derived views of `suite` (none for most suites, and for a suite the
/// registry does not know).
pub fn derived_views(suite: &str) -> &'static [(&'static str, &'static str)] {
    crate::suites::find(suite).map_or(&[], |suite| suite.derived_views())
}

/// The pattern of the cause behind a difference at `pattern`: every derived
/// view rewritten to its source and every directly repeated `/key/*` level
/// (`/children/*/children/*`) folded into one, until nothing changes.
pub fn cause_pattern(pattern: &str, rewrites: &[(&str, &str)]) -> String {
    let mut current = pattern.to_owned();
    // Each step shortens the pattern, so this ends; the bound is a guard.
    for _ in 0..=pattern.len() {
        let next = fold_repeats(&rewrite_once(&current, rewrites));
        if next == current {
            break;
        }
        current = next;
    }
    current
}

/// Applies the first rewrite whose derived prefix occurs in `pattern`
/// ending at a segment boundary.
fn rewrite_once(pattern: &str, rewrites: &[(&str, &str)]) -> String {
    for (derived, source) in rewrites {
        let mut from = 0;
        while let Some(found) = pattern[from..].find(derived) {
            let start = from + found;
            let end = start + derived.len();
            if pattern[end..].is_empty() || pattern[end..].starts_with('/') {
                return format!("{}{source}{}", &pattern[..start], &pattern[end..]);
            }
            from = start + 1;
        }
    }
    pattern.to_owned()
}

/// What a value change was, when both sides are enum-like (booleans, null,
/// short words such as `"error"` and `"completed"`): `"error" → "completed"`.
/// Two bugs that set the same member to different wrong values are two
/// causes; ids, texts and numbers vary per case and are left out.
pub fn value_change(expected: Option<&serde_json::Value>, actual: Option<&serde_json::Value>) -> Option<String> {
    use serde_json::Value;
    let word = |value: &Value| match value {
        Value::Bool(_) | Value::Null => true,
        Value::String(text) => {
            (1..=32).contains(&text.len())
                && text.starts_with(|c: char| c.is_ascii_alphabetic())
                && text.chars().all(|c| c.is_ascii_alphabetic() || c == '_' || c == '-')
        }
        _ => false,
    };
    let (expected, actual) = (expected?, actual?);
    (word(expected) && word(actual))
        .then(|| format!("{} → {}", crate::json::to_compact_string(expected), crate::json::to_compact_string(actual)))
}

/// `/a/*/a/*/x` → `/a/*/x`: the same member one level of the same list down.
fn fold_repeats(pattern: &str) -> String {
    let segments: Vec<&str> = pattern.split('/').collect();
    let mut out: Vec<&str> = Vec::with_capacity(segments.len());
    for segment in segments {
        out.push(segment);
        let n = out.len();
        if n >= 5 && out[n - 1] == "*" && out[n - 3] == "*" && out[n - 2] == out[n - 4] {
            out.truncate(n - 2);
        }
    }
    out.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_views_and_depths_fold_into_their_source() {
        let chat = derived_views(crate::suites::names()[0]);
        assert!(!chat.is_empty(), "the first suite (chat) has derived views");
        assert_eq!(cause_pattern("/visibleBlocks/*/tools/*/tool/state", chat), "/blocks/*/tool/state");
        assert_eq!(cause_pattern("/visibleBlocks/*/tool/state", chat), "/blocks/*/tool/state");
        assert_eq!(cause_pattern("/blocks/*/children/*/children/*/text", chat), "/blocks/*/text");
        assert_eq!(cause_pattern("/visibleBlocks/*/children/*/tools/*/tool/state", chat), "/blocks/*/tool/state");
        assert_eq!(cause_pattern("/blocks/*/tool/state", chat), "/blocks/*/tool/state");
        assert_eq!(cause_pattern("/visibleBlocksCount", chat), "/visibleBlocksCount");
        assert_eq!(cause_pattern("/latestUsage/inputTokens", chat), "/latestUsage/inputTokens");
        assert_eq!(cause_pattern("/items/*/items/*/id", &[]), "/items/*/id");
        assert_eq!(cause_pattern("", chat), "");
    }
}
