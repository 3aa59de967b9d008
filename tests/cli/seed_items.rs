//! The seed items an item-by-item audit of the three seeds found unpinned
//! (issue 33) stay accounted for: each is named in the "Seed items out of
//! scope" section of the README of the suite that owns it (pinned since, or
//! out of scope with a reason), and every fixture that section names as
//! pinning one exists.

use crate::common;

use common::root;

/// One audited item: the suite folder whose README accounts for it, the
/// words that name it in that README's section, and the fixtures of the
/// suite that pin it (none when it is out of scope).
struct SeedItem {
    folder: &'static str,
    named: &'static str,
    fixtures: &'static [&'static str],
}

const ITEMS: &[SeedItem] = &[
    // Seed 001: HAPI's messages contract.
    SeedItem { folder: "chat", named: "`deliveryState`", fixtures: &["seed-001-delivery-fields-and-opaque-meta"] },
    SeedItem { folder: "chat", named: "`deliveryMode`", fixtures: &["seed-001-delivery-fields-and-opaque-meta"] },
    SeedItem { folder: "chat", named: "opaque `meta`", fixtures: &["seed-001-delivery-fields-and-opaque-meta"] },
    SeedItem {
        folder: "chat",
        named: "Output-family timestamps",
        fixtures: &["seed-001-delivery-fields-and-opaque-meta"],
    },
    SeedItem { folder: "chat", named: "pendingRequestsCount", fixtures: &[] },
    SeedItem {
        folder: "chat",
        named: "local-mode answers",
        fixtures: &["permission-request-removed-without-decision"],
    },
    SeedItem {
        folder: "chat",
        named: "remote-wait expiry",
        fixtures: &["permission-request-removed-without-decision"],
    },
    // Seed 002: the runtime adapters' chat side.
    SeedItem { folder: "event_fold", named: "`proof` block", fixtures: &[] },
    SeedItem {
        folder: "event_fold",
        named: "`startedAt` /\n`completedAt`",
        fixtures: &["subagent-spawn-and-routing", "subagent-implicit-and-done", "nested-subagents"],
    },
    SeedItem {
        folder: "event_fold",
        named: "`expandedToolOutputs` keying",
        fixtures: &["from-claude-permission-deny"],
    },
    SeedItem { folder: "event_fold", named: "Agent definition files", fixtures: &[] },
    SeedItem { folder: "event_fold", named: "activity status", fixtures: &[] },
    // Not in the audit's list, but the seed's hooks are derived from events the same way.
    SeedItem { folder: "event_fold", named: "Hooks (`SessionStart`, `PreToolUse` callbacks", fixtures: &[] },
    // Seed 000: Claude Code's display abstraction.
    SeedItem { folder: "claude_display", named: "`tool_search_tool_bm25`", fixtures: &["server-tool-search-bm25"] },
    SeedItem {
        folder: "claude_display",
        named: "user-side `tool_use`,\n`thinking` and `container_upload`",
        fixtures: &["user-side-history-blocks"],
    },
    SeedItem { folder: "claude_display", named: "session-activity state", fixtures: &["notice-session-state"] },
    SeedItem { folder: "claude_display", named: "`file.filename`", fixtures: &["parts-reasoning-files-data"] },
    SeedItem { folder: "claude_display", named: "`disabled`", fixtures: &["snapshot-mcp-status-and-agents"] },
];

/// The README's "Seed items out of scope" section, up to the next section.
fn section(folder: &str) -> String {
    let path = root().join("src/suites").join(folder).join("README.md");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    let start = text.find("\n## Seed items out of scope\n").unwrap_or_else(|| {
        panic!("{}: no \"Seed items out of scope\" section", path.display());
    });
    let body = &text[start + 1..];
    let end = body[3..].find("\n## ").map_or(body.len(), |at| at + 3);
    body[..end].to_owned()
}

/// The suite name of a suite folder (`claude_display` → `claude-display`).
fn suite_of(folder: &str) -> String {
    folder.replace('_', "-")
}

fn every_audited_seed_item_is_accounted_for_in_its_suite_readme() {
    let mut problems = Vec::new();
    for item in ITEMS {
        let section = section(item.folder);
        // The README wraps lines: compare with line breaks read as spaces.
        let flat = section.replace('\n', " ");
        let named = item.named.replace('\n', " ");
        if !flat.contains(&named) {
            problems.push(format!("{}: the section does not name {named}", item.folder));
        }
        for fixture in item.fixtures {
            if !flat.contains(&format!("`{fixture}`")) {
                problems.push(format!("{}: the section does not name the fixture `{fixture}`", item.folder));
            }
            let path = root().join("fixtures").join(suite_of(item.folder)).join(format!("{fixture}.json"));
            if !path.is_file() {
                problems.push(format!("{}: the fixture {} does not exist", item.folder, path.display()));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

crate::trials![every_audited_seed_item_is_accounted_for_in_its_suite_readme];
