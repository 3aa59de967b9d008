//! Turns from `assistant` and `user` frames. Assistant frames that share a
//! `message.id` (the CLI sends one frame per content block) extend one turn,
//! wherever in their transcript they arrive, and a block the message already
//! had is not added again (the SDK accumulates a message by its id, a later
//! copy replacing the blocks it repeats); their tool blocks open tool calls,
//! server-tool results settle them, and each final block replaces its
//! streaming preview.
//! User frames go through the six-row classification: replays and machinery
//! keep their raw parts, real input loses its envelopes, tool returns settle
//! their calls, skill bodies attach to their `Skill` call.

use super::classification::{Class, Place, classify, inferred_reason};
use super::kinds::{ASSISTANT_BLOCKS, BlockRule, USER_BLOCKS, block_rule};
use super::model::{Container, MAX_NESTING, MessageFate, Model, Origin, Part, Target, Turn};
use super::parts::{block_part, block_text, block_type, content_blocks, data_part, source_ids, source_parts};
use super::refusals::RefusalKind;
use super::text_rules::{Rule, command_name, notification_summary, strip_envelopes};
use super::tools::{ResultFacts, apply_result, cli_refusal, never_ran, open_call, rejected_by_meta, settle_subagent};
use super::{previews, sidechains, skills};
use crate::suite_api::RuleTrace;
use serde_json::{Map, Value};

/// The transcript a frame belongs to: its `parent_tool_use_id`, or for a
/// session transcript's inline sidechain entry the call it is attributed to
/// (see `sidechains`).
pub fn container_of(model: &mut Model, message: &Value, trace: &mut dyn RuleTrace) -> Result<Container, &'static str> {
    let container = match message.get("parent_tool_use_id") {
        _ if sidechains::is_inline_sidechain(message) => sidechains::attribute(model, message, trace),
        None | Some(Value::Null) => Container::Main,
        Some(Value::String(id)) => Container::Call(*model.call_ids.get(id).ok_or("unknown-parent-tool-call")?),
        Some(_) => return Err("malformed-message"),
    };
    if model.depth_of(container) > MAX_NESTING {
        return Err("nesting-too-deep");
    }
    Ok(container)
}

/// The container and the (non-empty) content blocks of an `assistant` or
/// `user` frame, or why the frame is ignored.
fn turn_frame(
    model: &mut Model,
    message: &Value,
    trace: &mut dyn RuleTrace,
) -> Result<(Container, Vec<Value>), &'static str> {
    let container = container_of(model, message, trace)?;
    let blocks = content_blocks(message).ok_or("malformed-message")?;
    if blocks.is_empty() {
        return Err("empty-content");
    }
    Ok((container, blocks))
}

fn string_field(message: &Value, key: &str) -> Option<String> {
    message.get(key).and_then(Value::as_str).map(str::to_owned)
}

fn new_turn(
    model: &Model,
    index: usize,
    message: &Value,
    role: &'static str,
    origin: Origin,
    parts: Vec<Part>,
    trace: &mut dyn RuleTrace,
) -> Turn {
    Turn {
        id: string_field(message, "uuid").unwrap_or_default(),
        role,
        origin,
        parts,
        metadata: Map::new(),
        timestamp: model.timestamp_of(index, message, trace),
        message_id: None,
        seen_blocks: Vec::new(),
    }
}

/// Whether `block` repeats a block the API message already had: the same
/// block again, or a tool block with the same id (a later copy replaces it).
fn repeated<'b>(seen: &'b [Value], block: &Value) -> Option<&'b Value> {
    let id = tool_block_id(block);
    seen.iter().find(|earlier| *earlier == block || (id.is_some() && tool_block_id(earlier) == id))
}

/// The id of a block that opens a tool call.
fn tool_block_id(block: &Value) -> Option<&str> {
    let opens = block_rule(ASSISTANT_BLOCKS, block_type(block)) == BlockRule::OpensCall;
    if opens { block.get("id").and_then(Value::as_str) } else { None }
}

/// An `assistant` frame.
pub fn assistant(model: &mut Model, index: usize, message: &Value, trace: &mut dyn RuleTrace) -> MessageFate {
    let (container, blocks) = match turn_frame(model, message, trace) {
        Ok(frame) => frame,
        Err(reason) => return MessageFate::Ignored(reason),
    };
    if container != Container::Main {
        trace.hit("claude-display.subagent.nested-turn");
    }
    if model.mark_running(container) {
        trace.hit("claude-display.tool.subagent-running");
    }
    let message_id = message.get("message").and_then(|m| m.get("id")).and_then(Value::as_str).map(str::to_owned);
    let extend = message_id.as_ref().and_then(|id| model.message_turns.get(&(container, id.clone()))).copied();
    let depth = model.depth_of(container);
    let mut known_sources =
        extend.and_then(|ix| model.turns.get(ix)).map(|turn| source_ids(&turn.parts)).unwrap_or_default();
    let mut parts = Vec::new();
    let mut settled = Vec::new();
    let mut fresh = Vec::new();
    let mut repeats = 0;
    for block in &blocks {
        let seen =
            extend.and_then(|ix| model.turns.get(ix)).map(|turn| turn.seen_blocks.as_slice()).unwrap_or_default();
        if let Some(earlier) = repeated(seen, block) {
            trace.hit("claude-display.assistant.repeated-block");
            repeats += 1;
            if earlier != block {
                replace_call_input(model, extend, block, &mut settled);
            }
            continue;
        }
        fresh.push(block.clone());
        let ty = block_type(block);
        let rule = block_rule(ASSISTANT_BLOCKS, ty);
        let streamed = previews::replace(model, message_id.as_deref(), block, trace);
        if rule == BlockRule::OpensCall {
            match open_call(block, ty, depth).filter(|call| !model.call_ids.contains_key(&call.id)) {
                Some(call) => {
                    trace.hit(match call.caller {
                        super::model::Caller::Model => "claude-display.tool.caller-model",
                        super::model::Caller::ServerTool => "claude-display.tool.caller-server-tool",
                        super::model::Caller::Mcp => "claude-display.tool.caller-mcp",
                        super::model::Caller::Subagent => "claude-display.tool.caller-subagent",
                    });
                    model.emit("tool_started");
                    let ix = model.calls.len();
                    model.call_ids.insert(call.id.clone(), ix);
                    model.calls.push(call);
                    parts.push(Part::ToolCall(ix));
                }
                None => parts.push(data_part(block)),
            }
        } else if rule == BlockRule::SettlesCall {
            let id = block.get("tool_use_id").and_then(Value::as_str);
            match id.and_then(|id| model.call_ids.get(id)).and_then(|&ix| model.calls.get_mut(ix)) {
                Some(call) => {
                    trace.hit("claude-display.tool.server-result");
                    apply_result(call, block, ty, ResultFacts { sidecar: None, rejected: false });
                    settled.push(Target::ToolCall { tool_call_id: call.id.clone() });
                    model.emit("tool_finished");
                }
                None => parts.push(data_part(block)),
            }
        } else {
            match rule {
                BlockRule::Text if !streamed => model.emit("assistant_text_delta"),
                BlockRule::Reasoning if !streamed => model.emit("thinking_delta"),
                _ => {}
            }
            parts.push(block_part(block));
            if rule == BlockRule::Text {
                parts.extend(source_parts(block, &mut known_sources, trace));
            }
        }
    }
    let error = message.get("error").filter(|error| !error.is_null()).cloned();
    if error.is_some() {
        model.emit("error");
    }
    if fresh.is_empty() && settled.is_empty() && repeats > 0 {
        return MessageFate::Ignored("repeated-blocks");
    }
    let mut targets = Vec::new();
    if let Some(turn) = extend.and_then(|ix| model.turns.get_mut(ix)) {
        trace.hit("claude-display.assistant.merged-by-message-id");
        turn.parts.extend(parts);
        let extended = !fresh.is_empty();
        turn.seen_blocks.extend(fresh);
        if let Some(error) = error {
            turn.metadata.insert("error".to_owned(), error);
        }
        if extended {
            let turn_id = turn.id.clone();
            targets.push(Target::Turn { turn_id, parent: model.host_id(container) });
        }
    } else if !parts.is_empty() || settled.is_empty() {
        let mut turn = new_turn(model, index, message, "assistant", Origin::Model, parts, trace);
        if let Some(id) = &message_id {
            turn.metadata.insert("messageId".to_owned(), Value::from(id.as_str()));
        }
        if let Some(error) = error {
            trace.hit("claude-display.assistant.error");
            turn.metadata.insert("error".to_owned(), error);
        }
        turn.message_id = message_id.clone();
        turn.seen_blocks = fresh;
        let target = model.push_turn(container, index, turn);
        if let (Some(id), Some(ix)) = (message_id, model.turns.len().checked_sub(1)) {
            model.message_turns.insert((container, id), ix);
        }
        targets.push(target);
    }
    targets.extend(settled);
    MessageFate::To(targets)
}

/// A later copy of a tool block replaces the earlier one: the call takes the
/// later input (a call's id stays what it was).
fn replace_call_input(model: &mut Model, turn: Option<usize>, block: &Value, targets: &mut Vec<Target>) {
    let id = block.get("id").and_then(Value::as_str);
    let Some(&ix) = id.and_then(|id| model.call_ids.get(id)) else { return };
    if let Some(call) = model.calls.get_mut(ix) {
        call.input = block.get("input").cloned().unwrap_or(Value::Null);
        targets.push(Target::ToolCall { tool_call_id: call.id.clone() });
    }
    if let Some(turn) = turn.and_then(|ix| model.turns.get_mut(ix))
        && let Some(seen) = turn.seen_blocks.iter_mut().find(|seen| seen.get("id") == block.get("id"))
    {
        *seen = block.clone();
    }
}

/// A `user` frame.
pub fn user(model: &mut Model, index: usize, message: &Value, trace: &mut dyn RuleTrace) -> MessageFate {
    let (container, blocks) = match turn_frame(model, message, trace) {
        Ok(frame) => frame,
        Err(reason) => return MessageFate::Ignored(reason),
    };
    if model.mark_running(container) {
        trace.hit("claude-display.tool.subagent-running");
    }
    let place = Place {
        in_subagent: container != Container::Main,
        prompt_seen: model.transcript(container).is_some_and(|transcript| transcript.prompt_seen),
    };
    let raw = || blocks.iter().map(block_part).collect::<Vec<_>>();
    let class = classify(message, &blocks, place);
    let (origin, parts) = match class {
        Class::Replay => {
            let duplicate =
                message.get("uuid").and_then(Value::as_str).is_some_and(|id| model.turn_ids.contains_key(id));
            if duplicate {
                trace.hit("claude-display.user.replay-duplicate");
                return MessageFate::Ignored("replay-duplicate");
            }
            trace.hit("claude-display.user.replay");
            (Origin::Replay, raw())
        }
        Class::ToolReturn => {
            trace.hit("claude-display.user.tool-return");
            return tool_return(model, container, index, message, &blocks, trace);
        }
        Class::Machinery { rule } => {
            let Some(rule) = rule else {
                trace.hit("claude-display.user.synthetic-flag");
                if let Some(tool_call_id) = skills::attach_body(model, container, &blocks) {
                    trace.hit("claude-display.skill.body-attached");
                    return MessageFate::To(vec![Target::ToolCall { tool_call_id }]);
                }
                let last_command = model.transcript(container).and_then(|t| t.last_command.as_deref());
                let skills = model.snapshot.as_ref().map(|s| s.skills.as_slice()).unwrap_or_default();
                let reason = inferred_reason(&blocks, last_command, skills);
                let origin = Origin::Synthetic { reason, rule: None };
                return MessageFate::To(vec![push_user(model, container, index, message, origin, raw(), trace)]);
            };
            trace.hit(rule.trace_id());
            let origin = Origin::Synthetic { reason: rule.reason(), rule: Some(rule.id()) };
            let target = push_user(model, container, index, message, origin, raw(), trace);
            if rule == Rule::CommandRecord {
                let name = blocks.iter().filter_map(block_text).find_map(command_name);
                model.transcript_mut(container).last_command = name;
            }
            return MessageFate::To(vec![target]);
        }
        Class::Notification => {
            trace.hit(Rule::TaskNotification.trace_id());
            let parts = blocks
                .iter()
                .map(|block| Part::Text {
                    text: notification_summary(block_text(block).unwrap_or_default()),
                    citations: None,
                })
                .collect();
            (Origin::Notification { rule: Rule::TaskNotification.id() }, parts)
        }
        Class::SubagentPrompt => {
            trace.hit("claude-display.user.subagent-prompt");
            model.emit("user_text");
            model.transcript_mut(container).prompt_seen = true;
            let parent_tool_call_id = model.host_id(container).unwrap_or_default();
            (Origin::SubagentPrompt { parent_tool_call_id }, real_parts(&blocks, trace))
        }
        Class::UserInput => {
            trace.hit("claude-display.user.input");
            model.emit("user_text");
            (Origin::UserInput, real_parts(&blocks, trace))
        }
    };
    MessageFate::To(vec![push_user(model, container, index, message, origin, parts, trace)])
}

/// Pushes a user turn with the §11 envelope fields kept as metadata.
fn push_user(
    model: &mut Model,
    container: Container,
    index: usize,
    message: &Value,
    origin: Origin,
    parts: Vec<Part>,
    trace: &mut dyn RuleTrace,
) -> Target {
    let mut turn = new_turn(model, index, message, "user", origin, parts, trace);
    for (from, to) in
        [("priority", "priority"), ("shouldQuery", "shouldQuery"), ("file_attachments", "fileAttachments")]
    {
        if let Some(value) = message.get(from).filter(|value| !value.is_null()) {
            turn.metadata.insert(to.to_owned(), value.clone());
        }
    }
    model.push_turn(container, index, turn)
}

/// Parts of real input: envelopes are stripped from text blocks, and a text
/// block that held nothing but envelopes disappears.
fn real_parts(blocks: &[Value], trace: &mut dyn RuleTrace) -> Vec<Part> {
    let mut parts = Vec::new();
    for block in blocks {
        let Some(text) = block_text(block) else {
            parts.push(block_part(block));
            continue;
        };
        let stripped = strip_envelopes(text);
        if !stripped.removed_any {
            parts.push(block_part(block));
            continue;
        }
        trace.hit("claude-display.text.envelope-stripped");
        if !stripped.text.is_empty() {
            parts.push(Part::Text { text: stripped.text, citations: None });
        }
    }
    parts
}

/// Row 2: each result block settles its call; blocks that are not results,
/// and results for calls not in the stream, stay as a `tool-return` turn.
fn tool_return(
    model: &mut Model,
    container: Container,
    index: usize,
    message: &Value,
    blocks: &[Value],
    trace: &mut dyn RuleTrace,
) -> MessageFate {
    let mut sidecar = message.get("tool_use_result").filter(|value| !value.is_null());
    let mut targets = Vec::new();
    let mut residue = Vec::new();
    let mut first_id: Option<String> = None;
    let mut settled = None;
    for block in blocks {
        let ty = block_type(block);
        if block_rule(USER_BLOCKS, ty) != BlockRule::SettlesCall {
            residue.push(block_part(block));
            continue;
        }
        let id = block.get("tool_use_id").and_then(Value::as_str);
        first_id.get_or_insert_with(|| id.unwrap_or_default().to_owned());
        let Some(&ix) = id.and_then(|id| model.call_ids.get(id)) else {
            residue.push(data_part(block));
            continue;
        };
        let refusal = cli_refusal(block, sidecar);
        if let Some((rule, _)) = refusal {
            trace.hit(rule);
        }
        let by_text = refusal.is_some_and(|(_, kind)| kind == RefusalKind::Refused);
        if by_text {
            trace.hit("claude-display.tool.rejected-by-user");
        }
        let rejected = by_text || id.is_some_and(|id| rejected_by_meta(message, id));
        let Some(call) = model.calls.get_mut(ix) else { continue };
        apply_result(call, block, ty, ResultFacts { sidecar: sidecar.take(), rejected });
        if never_ran(call) {
            trace.hit("claude-display.subagent.never-ran");
        } else if settle_subagent(call) {
            trace.hit("claude-display.subagent.settled-by-result");
        }
        targets.push(Target::ToolCall { tool_call_id: call.id.clone() });
        model.emit("tool_finished");
        settled = Some(ix);
    }
    if !residue.is_empty() {
        let origin = Origin::ToolReturn { tool_call_id: first_id.unwrap_or_default() };
        targets.push(push_user(model, container, index, message, origin, residue, trace));
    }
    if settled.is_some() {
        skills::note_return(model, container, settled);
    }
    MessageFate::To(targets)
}
