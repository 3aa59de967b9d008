//! The fold entry point (chat-reduce §3–§8): prepares the permission
//! table, tool-id set, title map and lanes, folds the root lane (which
//! folds subagent groups on demand), runs the root-only finishing steps
//! and finds the latest usage.

use super::finish::{dedupe_events, filter_goal_events, fold_api_errors, synthesize_pending_cards};
use super::lanes::trace_lanes;
use super::permissions::PermissionTable;
use super::timeline::{Shared, reduce_timeline, title_map};
use super::usage::{LatestUsage, latest_usage};
use crate::suite_api::{RuleTrace, Scope};
use crate::suites::chat::reference::blocks::Block;
use crate::suites::chat::reference::fast_map::FastSet;
use crate::suites::chat::reference::model::NormalizedMessage;
use crate::suites::chat::reference::options::ChatOptions;
use crate::suites::js::math_min;
use serde_json::Value;
use std::time::{SystemTime, UNIX_EPOCH};

/// What the fold stage produces.
#[derive(Debug)]
pub struct Folded<'a> {
    /// Root blocks, before tool grouping.
    pub blocks: Vec<Block<'a>>,
    /// A `ready` event was seen in the root lane or a rendered subagent.
    pub has_ready_event: bool,
    /// The latest usage sample, if any.
    pub latest_usage: Option<LatestUsage>,
}

/// Folds normalized messages and the agentState into blocks. Synthesized
/// cards for requests without a `createdAt` are stamped with the current
/// time, as in the original.
pub fn fold<'a>(
    messages: &[NormalizedMessage<'a>],
    agent_state: Option<&'a Value>,
    options: &ChatOptions,
    trace: &mut dyn RuleTrace,
) -> Folded<'a> {
    fold_with_clock(messages, agent_state, options, wall_clock, trace)
}

/// [`fold`] with an explicit clock for the synthesized-card fallback.
pub fn fold_with_clock<'a>(
    messages: &[NormalizedMessage<'a>],
    agent_state: Option<&'a Value>,
    options: &ChatOptions,
    now: impl Fn() -> f64,
    trace: &mut dyn RuleTrace,
) -> Folded<'a> {
    let table = PermissionTable::build(agent_state, options.tool_call_correlation, trace);
    let titles = title_map(messages.iter());
    let lanes = trace_lanes(messages, trace);
    // Provenance: lane tracing decides which lane a message is in; what it
    // hit concerns the case.
    trace.emitted(Scope::Case);
    let (blocks, has_ready_event) = {
        let mut shared = Shared {
            table: &table,
            groups: &lanes.groups,
            consumed: FastSet::default(),
            titles: &titles,
            emitted_titles: FastSet::default(),
            options: *options,
            trace: &mut *trace,
        };
        reduce_timeline(&lanes.root, &mut shared)
    };
    let mut blocks = blocks;
    // `Math.min(...createdAt)`: NaN when any message's time is not a number.
    let oldest = messages.iter().map(|m| m.created_at.to_number()).reduce(math_min);
    synthesize_pending_cards(&mut blocks, &table, messages, oldest, now, trace);
    trace.emitted(Scope::Case);
    let blocks = fold_api_errors(blocks, trace);
    let mut blocks = dedupe_events(blocks, trace);
    filter_goal_events(&mut blocks, trace);
    Folded { blocks, has_ready_event, latest_usage: latest_usage(messages, trace) }
}

/// `Date.now()`.
fn wall_clock() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0.0, |elapsed| elapsed.as_millis() as f64)
}
