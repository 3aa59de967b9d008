//! The disposition rule of every Codex app-server method (codex-cli 0.171):
//! the 87 server notifications, the 10 server requests and the seed's
//! pre-`item/` reasoning method names. A method with no entry falls back to
//! "unknown", which the inventory test forbids for every method the schema
//! declares.

/// What the normalizer does with a method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MethodRule {
    /// It maps to events (it may still be ignored per frame).
    Mapped,
    /// It never produces events, for this reason.
    Ignored(&'static str),
}

/// Notifications and requests that map to events.
const MAPPED: &[&str] = &[
    "thread/started",
    "turn/started",
    "turn/completed",
    "item/started",
    "item/completed",
    "item/agentMessage/delta",
    "item/reasoning/textDelta",
    "item/reasoning/summaryTextDelta",
    // The seed's caveat: adapters that dropped the `item/` prefix listened
    // for these; they are accepted as aliases.
    "reasoning/textDelta",
    "reasoning/summaryTextDelta",
    "error",
    "serverRequest/resolved",
    "item/commandExecution/requestApproval",
    "item/fileChange/requestApproval",
    "item/permissions/requestApproval",
    "execCommandApproval",
    "applyPatchApproval",
];

const THREAD: &str = "thread bookkeeping for the host, not agent output";
const HOST: &str = "host or client state, not agent output";
const ACCOUNT: &str = "account state for the host";
const MCP: &str = "MCP server state for the host";
const MODEL: &str = "model routing and safety bookkeeping";
const NOTICE: &str = "a non-fatal notice for the host's status line";
const REALTIME: &str = "realtime (voice) session traffic; no event in the normalized model";
const CLIENT_PROCESS: &str = "output of a command or process the client started, not of the agent's turn";
const APPROVAL_REVIEW: &str = "automatic approval review bookkeeping";
const HOOK: &str = "hook lifecycle output for the host, not agent output";
const PLAN: &str = "plan updates; no event in the normalized model";

/// Methods that never produce events, with the reason recorded.
const IGNORED: &[(&str, &str)] = &[
    ("thread/status/changed", "thread status for the host; activity comes from turn and item events"),
    ("thread/readState/changed", THREAD),
    ("thread/archived", THREAD),
    ("thread/deleted", THREAD),
    ("thread/unarchived", THREAD),
    ("thread/closed", THREAD),
    ("thread/reverted", THREAD),
    ("thread/name/updated", THREAD),
    ("thread/section/changed", THREAD),
    ("thread/attachment/updated", THREAD),
    ("thread/goal/updated", THREAD),
    ("thread/prediction/updated", THREAD),
    ("thread/goal/cleared", THREAD),
    ("thread/queue/changed", THREAD),
    ("project/changed", THREAD),
    ("thread/project/updated", THREAD),
    ("thread/environment/connected", THREAD),
    ("thread/environment/disconnected", THREAD),
    ("thread/settings/updated", THREAD),
    ("skills/changed", HOST),
    ("thread/tokenUsage/updated", "token accounting for the host"),
    ("hook/started", HOOK),
    ("hook/completed", HOOK),
    ("turn/diff/updated", "the turn's aggregated diff; file changes are mapped from their items"),
    ("turn/plan/updated", PLAN),
    ("item/plan/delta", PLAN),
    ("item/autoApprovalReview/started", APPROVAL_REVIEW),
    ("item/autoApprovalReview/completed", APPROVAL_REVIEW),
    ("autoApprovalReview/strictReviewRequired", APPROVAL_REVIEW),
    ("command/exec/outputDelta", CLIENT_PROCESS),
    ("process/outputDelta", CLIENT_PROCESS),
    ("process/exited", CLIENT_PROCESS),
    ("thread/search/partial", "search results for a client request"),
    ("item/commandExecution/outputDelta", "streamed command output; the completed item carries aggregatedOutput"),
    ("item/commandExecution/terminalInteraction", "terminal input sent to a running command"),
    ("item/fileChange/outputDelta", "streamed patch output; the completed item is mapped"),
    ("item/fileChange/patchUpdated", "streamed patch progress; the completed item is mapped"),
    ("item/mcpToolCall/progress", "progress of a running MCP call; the completed item is mapped"),
    ("mcpServer/oauthLogin/completed", MCP),
    ("mcpServer/startupStatus/updated", MCP),
    ("mcpServer/event/stream/notification", MCP),
    ("account/updated", ACCOUNT),
    ("account/gatewayOAuth/changed", ACCOUNT),
    ("account/rateLimits/updated", ACCOUNT),
    ("account/login/completed", ACCOUNT),
    ("app/list/updated", HOST),
    ("remoteControl/status/changed", HOST),
    ("externalAgentConfig/import/progress", HOST),
    ("externalAgentConfig/import/completed", HOST),
    ("fs/changed", HOST),
    ("item/reasoning/summaryPartAdded", "a summary section boundary; the text arrives as deltas"),
    ("thread/compacted", "a compaction marker; no event in the normalized model"),
    ("model/rerouted", MODEL),
    ("model/verification", MODEL),
    ("modelProvider/authRecoveryStarted", MODEL),
    ("modelProvider/authRecoveryCompleted", MODEL),
    ("turn/moderationMetadata", MODEL),
    ("model/safetyBuffering/updated", MODEL),
    ("warning", NOTICE),
    ("guardianWarning", NOTICE),
    ("deprecationNotice", NOTICE),
    ("configWarning", NOTICE),
    ("fuzzyFileSearch/sessionUpdated", "search results for a client request"),
    ("fuzzyFileSearch/sessionCompleted", "search results for a client request"),
    ("thread/realtime/started", REALTIME),
    ("thread/realtime/itemAdded", REALTIME),
    ("thread/realtime/item/started", REALTIME),
    ("thread/realtime/item/transcript/delta", REALTIME),
    ("thread/realtime/item/completed", REALTIME),
    ("thread/realtime/transcript/delta", REALTIME),
    ("thread/realtime/transcript/done", REALTIME),
    ("thread/realtime/outputAudio/delta", REALTIME),
    ("thread/realtime/sdp", REALTIME),
    ("thread/realtime/error", REALTIME),
    ("thread/realtime/closed", REALTIME),
    ("windows/worldWritableWarning", NOTICE),
    ("windowsSandbox/setupCompleted", HOST),
    // Server requests without a permission prompt.
    ("item/tool/requestUserInput", "asks the user a question; no event in the normalized model"),
    ("item/tool/call", "a dynamic tool the client runs; its item/started and item/completed are mapped"),
    ("mcpServer/elicitation/request", "an MCP elicitation; no event in the normalized model"),
    ("account/chatgptAuthTokens/refresh", ACCOUNT),
    ("attestation/generate", HOST),
];

/// The reason recorded for a method no rule knows.
pub const UNKNOWN_METHOD: &str = "unknown method; no rule maps or ignores it";

/// The rule for a notification or server-request method, or `None` when no
/// rule knows it.
pub fn rule(method: &str) -> Option<MethodRule> {
    if MAPPED.contains(&method) {
        return Some(MethodRule::Mapped);
    }
    IGNORED.iter().find(|(known, _)| *known == method).map(|(_, reason)| MethodRule::Ignored(reason))
}
