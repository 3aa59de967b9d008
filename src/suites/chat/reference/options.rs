//! What differs between the fixtureVersions the chat reference implements.
//!
//! fixtureVersion 2 (v2.md) changes a handful of rules of the pipeline; a
//! document labelled 1 is still judged by the version 1 rules wherever the
//! two differ. Each flag names one family of the version 2 changes, so the
//! stage that applies it reads as the rule it implements, and the version is
//! threaded through the pipeline as a value, never as global state.

/// The rule families of the chat pipeline that depend on the fixtureVersion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChatOptions {
    /// v2.md A1–A3: a user attachment may carry `attachmentId` instead of
    /// `path`; both are projected when present.
    pub durable_attachments: bool,
    /// v2.md D1–D9: codex `display-links` payloads become `display-links`
    /// blocks (version 1 hides them like any unknown codex payload).
    pub display_links: bool,
    /// v2.md P1–P6: permissions correlate with tools by the request's
    /// `toolCallId`, and a `resolved` request starts a card `running`.
    pub tool_call_correlation: bool,
    /// v2.md S1–S2: a blank stream id is no stream identity, and a stream
    /// identity starting with `codex:` is the block id.
    pub codex_stream_identities: bool,
    /// v2.md G1–G2: a user-shell `CodexBash` is the only `CodexBash` kept out
    /// of tool groups (version 1 keeps out every one with a non-exploration
    /// parsed action).
    pub user_shell_boundaries: bool,
}

impl ChatOptions {
    /// fixtureVersion 1: chat-normalize.md and chat-reduce.md.
    pub const V1: ChatOptions = ChatOptions {
        durable_attachments: false,
        display_links: false,
        tool_call_correlation: false,
        codex_stream_identities: false,
        user_shell_boundaries: false,
    };

    /// fixtureVersion 2: version 1 plus every rule of v2.md.
    pub const V2: ChatOptions = ChatOptions {
        durable_attachments: true,
        display_links: true,
        tool_call_correlation: true,
        codex_stream_identities: true,
        user_shell_boundaries: true,
    };

    /// The fixtureVersions the chat reference implements.
    pub const VERSIONS: &'static [u32] = &[1, 2];

    /// The options of a fixtureVersion the reference implements.
    pub fn for_version(version: u32) -> Option<ChatOptions> {
        match version {
            1 => Some(ChatOptions::V1),
            2 => Some(ChatOptions::V2),
            _ => None,
        }
    }
}

impl Default for ChatOptions {
    /// The newest version.
    fn default() -> ChatOptions {
        ChatOptions::V2
    }
}
