//! The normalized agent event model shared by the agent-runtime suites.
//!
//! Claude SDK sessions, Codex app-server threads and `codex exec` runs all
//! normalize into the same `{type, data}` events (`session_ready`, `delta`,
//! `thinking`, `tool_start`, `tool_result`, `permission_request`,
//! `permission_resolved`, `result`, `done`, `error`). This module owns what the
//! three normalizers have in common: the event and disposition model, the
//! incremental output they build, the decoding of one wire item, the
//! bash-command classifier and the Codex thread-item mapping. Each runtime's
//! own mapping table lives in its suite module.

mod bash;
mod codex_items;
mod event;
mod pointer_context;
mod wire;

pub use bash::{FileRead, classify_bash_command, unwrap_shell_command};
pub use codex_items::{ALREADY_STARTED, ItemKind, ItemStatus, ToolItem, ToolTracker, command_tool_name, tool_item};
pub use event::{
    BlockDisposition, Disposition, EventType, ItemFate, NormalizedEvent, StreamOutput, delta_data, done_data,
    error_data, outcome_since, put, session_ready_data, text_data, thinking_data,
};
pub use pointer_context::normalized_pointer_context;
pub use wire::{InvalidItemRules, decode_object, ends_cut_off, stream_input};
