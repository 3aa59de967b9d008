//! Stage 3, group: root blocks → visible blocks, collapsing runs of
//! groupable tool calls into tool groups (chat-reduce §9).

use super::blocks::{Block, ToolCard, is_subagent_name};
use crate::suite::RuleTrace;
use crate::suites::js::{first_present, get, is_obj, lowercase, str_of};
use serde_json::Value;

/// One visible block: a root block as it is, or a group of consecutive tool
/// calls (indices into the root block list).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Visible {
    /// `blocks[index]`.
    Block(usize),
    /// `blocks[start..end]` as one tool group.
    Group {
        /// First member.
        start: usize,
        /// One past the last member.
        end: usize,
        /// Whether the id uses the last tool id (`hasMoreMessages` and first visible block).
        id_from_last: bool,
    },
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Family {
    Default,
    Exploration,
}

/// Groups the root blocks.
pub fn group_blocks(blocks: &[Block<'_>], has_more_messages: bool, trace: &mut dyn RuleTrace) -> Vec<Visible> {
    let families: Vec<Option<Family>> = blocks.iter().map(|b| b.tool().and_then(|card| family(card, trace))).collect();
    let mut visible = Vec::with_capacity(blocks.len());
    let mut index = 0;
    while index < blocks.len() {
        let Some(run_family) = families[index] else {
            visible.push(Visible::Block(index));
            index += 1;
            continue;
        };
        let end = (index + 1..blocks.len()).find(|&i| families[i] != Some(run_family)).unwrap_or(blocks.len());
        if run_family == Family::Default && end - index == 1 {
            visible.push(Visible::Block(index));
        } else {
            trace.hit(if run_family == Family::Exploration { "group.codex-exploration" } else { "group.default" });
            let id_from_last = has_more_messages && visible.is_empty();
            if id_from_last {
                trace.hit("group.id-from-last-tool");
            }
            visible.push(Visible::Group { start: index, end, id_from_last });
        }
        index = end;
    }
    visible
}

/// The grouping family of a tool card, or `None` when it is ineligible.
fn family(card: &ToolCard<'_>, trace: &mut dyn RuleTrace) -> Option<Family> {
    let name = &*card.name;
    let ineligible_name = is_subagent_name(name)
        || matches!(name, "TodoWrite" | "update_plan" | "ExitPlanMode" | "exit_plan_mode" | "CodexReasoning")
        || matches!(
            name,
            "Task"
                | "Agent"
                | "CodexAgent"
                | "TeamCreate"
                | "TeamDelete"
                | "SendMessage"
                | "AgyTaskLog"
                | "Skill"
                | "spawn_agent"
                | "send_input"
                | "send_message"
                | "resume_agent"
                | "followup_task"
                | "wait_agent"
                | "close_agent"
                | "interrupt_agent"
                | "list_agents"
        )
        || matches!(
            name,
            "CodexPermission" | "AskUserQuestion" | "ask_user_question" | "CursorAskQuestion" | "request_user_input"
        );
    if ineligible_name {
        return None;
    }
    if card.permission.as_ref().is_some_and(|p| p.is_pending()) {
        trace.hit("group.pending-permission-ineligible");
        return None;
    }
    if name != "CodexBash" {
        return Some(Family::Default);
    }
    let input = card.input.as_deref().filter(|input| is_obj(input));
    let actions = command_actions(input);
    if actions.is_empty() {
        trace.hit("group.codex-bash-without-actions");
        return Some(Family::Default);
    }
    if is_exploration(input, &actions) {
        Some(Family::Exploration)
    } else {
        trace.hit("group.codex-bash-ineligible");
        None
    }
}

/// The types of the parsed command actions of a CodexBash input
/// (chat-normalize §12).
fn command_actions(input: Option<&Value>) -> Vec<&str> {
    let Some(Value::Array(raw)) = first_present(input, &["command_actions", "commandActions"]) else {
        return Vec::new();
    };
    let non_empty = |value: Option<&Value>| str_of(value).is_some_and(|s| !s.is_empty());
    raw.iter()
        .filter(|action| is_obj(action) && non_empty(get(action, "command")))
        .filter_map(|action| {
            let kind = str_of(get(action, "type")).filter(|s| !s.is_empty())?;
            match kind {
                "read" => (non_empty(get(action, "name")) && non_empty(get(action, "path"))).then_some(kind),
                "listFiles" | "search" | "unknown" => Some(kind),
                _ => None,
            }
        })
        .collect()
}

fn is_exploration(input: Option<&Value>, actions: &[&str]) -> bool {
    let user_shell = str_of(first_present(input, &["command_source", "commandSource"]))
        .is_some_and(|source| !source.is_empty() && lowercase(source) == "usershell");
    !user_shell && !actions.is_empty() && actions.iter().all(|kind| matches!(*kind, "read" | "listFiles" | "search"))
}
