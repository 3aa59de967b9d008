//! Reference implementations: the behavior every implementation is judged
//! against, one module per suite. Each exposes a total function from a case's
//! input part to its expected part (see [`crate::suite::ReferenceFn`]).

pub mod agent_events;
pub mod catalogs;
pub mod chat;
pub mod claude_display;
pub mod claude_events;
pub mod codex_app_server_events;
pub mod codex_exec_events;
pub mod event_fold;
pub mod js;
pub mod pagination;
pub mod sse;
pub mod tool_policy;

use std::collections::BTreeSet;

/// Records which named decode rules a reference run exercised.
///
/// Rule ids are stable dotted names such as `user.attachments.invalid-skipped`
/// or `codex.unknown-type-dropped`; `conform coverage` reports them.
pub trait RuleTrace {
    /// Notes that `rule` decided part of the output.
    fn hit(&mut self, rule: &'static str);
}

/// A trace that records nothing (the normal, fast path).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTrace;

impl RuleTrace for NoTrace {
    fn hit(&mut self, _rule: &'static str) {}
}

/// A trace that collects the set of rules hit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleSet(pub BTreeSet<&'static str>);

impl RuleTrace for RuleSet {
    fn hit(&mut self, rule: &'static str) {
        self.0.insert(rule);
    }
}
