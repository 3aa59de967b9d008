//! Stage 3, group: root blocks → visible blocks, collapsing runs of
//! groupable tool calls into tool groups (chat-reduce §9).
//!
//! The one rule that depends on the fixtureVersion is which `CodexBash`
//! cards stay out of groups: in version 1 every one with a parsed command
//! action that is not an exploration; in version 2 exactly the user-shell
//! commands, whatever their actions (v2.md G1–G4).

use super::blocks::{Block, ToolCard, ToolState, is_subagent_name};
use super::options::ChatOptions;
use crate::suite_api::RuleTrace;
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

/// Groups the root blocks by the rules of `options`' fixtureVersion.
pub fn group_blocks(
    blocks: &[Block<'_>],
    has_more_messages: bool,
    options: &ChatOptions,
    trace: &mut dyn RuleTrace,
) -> Vec<Visible> {
    let families: Vec<Option<Family>> =
        blocks.iter().map(|b| b.tool().and_then(|card| family(card, options, trace))).collect();
    if options.user_shell_boundaries {
        trace_version_2_runs(blocks, &families, trace);
    }
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

/// Notes the version 2 grouping rules a block list exercises: a user-shell
/// command between eligible tools (G4), groups of tools in any state (G5)
/// and the ids every group carries (G6).
fn trace_version_2_runs(blocks: &[Block<'_>], families: &[Option<Family>], trace: &mut dyn RuleTrace) {
    for (index, block) in blocks.iter().enumerate() {
        let Some(card) = block.tool() else { continue };
        let eligible_at = |i: Option<usize>| i.and_then(|i| families.get(i)).is_some_and(Option::is_some);
        if is_user_shell(card) && (eligible_at(index.checked_sub(1)) || eligible_at(Some(index + 1))) {
            trace.hit("v2.g4.user-shell-splits-run");
        }
        let in_run = families[index].is_some()
            && (families.get(index + 1) == Some(&families[index])
                || index.checked_sub(1).and_then(|i| families.get(i)) == Some(&families[index])
                || families[index] == Some(Family::Exploration));
        if in_run {
            trace.hit("v2.g6.group-first-and-last-tool-ids");
            if matches!(card.state, ToolState::Running | ToolState::Error) {
                trace.hit("v2.g5.state-does-not-matter");
            }
        }
    }
}

/// A user-shell command (v2.md G1): `CodexBash` with an OBJ input whose
/// `command_source ▸ commandSource` is a non-empty string that lowercases
/// to `usershell`.
fn is_user_shell(card: &ToolCard<'_>) -> bool {
    card.name == "CodexBash"
        && card.input.as_deref().filter(|input| is_obj(input)).is_some_and(|input| has_user_shell_source(Some(input)))
}

fn has_user_shell_source(input: Option<&Value>) -> bool {
    str_of(first_present(input, &["command_source", "commandSource"]))
        .is_some_and(|source| !source.is_empty() && lowercase(source) == "usershell")
}

/// The grouping family of a tool card, or `None` when it is ineligible.
fn family(card: &ToolCard<'_>, options: &ChatOptions, trace: &mut dyn RuleTrace) -> Option<Family> {
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
        if options.user_shell_boundaries && matches!(name, "ExitPlanMode" | "exit_plan_mode") {
            // A plan proposal stands alone and splits the runs around it (v2.md X1).
            trace.hit("v2.x1.proposal-card-stands-alone");
        }
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
    if options.user_shell_boundaries {
        return codex_bash_family(input, &actions, trace);
    }
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

/// fixtureVersion 2 (v2.md G1–G3, G7): a user-shell command is ineligible;
/// any other `CodexBash` is an exploration when it has parsed actions and
/// all of them explore, and in the default family otherwise.
fn codex_bash_family(input: Option<&Value>, actions: &[&str], trace: &mut dyn RuleTrace) -> Option<Family> {
    if has_user_shell_source(input) {
        trace.hit("v2.g1.user-shell-ineligible");
        return None;
    }
    if actions.is_empty() {
        trace.hit("group.codex-bash-without-actions");
        return Some(Family::Default);
    }
    trace.hit("v2.g7.actions-decide-exploration-only");
    if is_exploration(input, actions) {
        return Some(Family::Exploration);
    }
    if actions.iter().any(|kind| matches!(*kind, "read" | "listFiles" | "search")) {
        trace.hit("v2.g3.mixed-actions-default-family");
    } else {
        trace.hit("v2.g2.unknown-actions-eligible");
    }
    Some(Family::Default)
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
    !has_user_shell_source(input)
        && !actions.is_empty()
        && actions.iter().all(|kind| matches!(*kind, "read" | "listFiles" | "search"))
}
