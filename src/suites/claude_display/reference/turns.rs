//! Turns from `assistant` and `user` frames. Assistant frames that share a
//! `message.id` (the CLI sends one frame per content block) extend one turn;
//! their tool blocks open tool calls and server-tool results settle them.
//! User frames go through the six-row classification: replays and machinery
//! keep their raw parts, real input loses its envelopes, tool returns settle
//! their calls, skill bodies attach to their `Skill` call.

use super::classification::{Class, Place, classify, inferred_reason};
use super::kinds::{ASSISTANT_BLOCKS, BlockRule, USER_BLOCKS, block_rule};
use super::model::{Container, MAX_NESTING, Model, Origin, Outcome, Part, Target, Turn};
use super::parts::{block_part, block_text, block_type, content_blocks, data_part};
use super::skills;
use super::text_rules::{Rule, command_name, notification_summary, strip_envelopes};
use super::tools::{ResultFacts, apply_result, open_call, rejected_by_meta};
use crate::suite::RuleTrace;
use serde_json::{Map, Value};

/// The transcript a frame belongs to, from its `parent_tool_use_id`.
fn container_of(model: &Model, message: &Value) -> Result<Container, &'static str> {
    let container = match message.get("parent_tool_use_id") {
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
fn turn_frame(model: &Model, message: &Value) -> Result<(Container, Vec<Value>), &'static str> {
    let container = container_of(model, message)?;
    let blocks = content_blocks(message).ok_or("malformed-message")?;
    if blocks.is_empty() {
        return Err("empty-content");
    }
    Ok((container, blocks))
}

fn string_field(message: &Value, key: &str) -> Option<String> {
    message.get(key).and_then(Value::as_str).map(str::to_owned)
}

fn new_turn(message: &Value, role: &'static str, origin: Origin, parts: Vec<Part>) -> Turn {
    Turn {
        id: string_field(message, "uuid").unwrap_or_default(),
        role,
        origin,
        parts,
        metadata: Map::new(),
        timestamp: string_field(message, "timestamp"),
        message_id: None,
    }
}

/// An `assistant` frame.
pub fn assistant(model: &mut Model, index: usize, message: &Value, trace: &mut dyn RuleTrace) -> Outcome {
    let (container, blocks) = match turn_frame(model, message) {
        Ok(frame) => frame,
        Err(reason) => return Outcome::Ignored(reason),
    };
    if container != Container::Main {
        trace.hit("claude-display.subagent.nested-turn");
    }
    let depth = model.depth_of(container);
    let mut parts = Vec::new();
    let mut settled = Vec::new();
    for block in &blocks {
        let ty = block_type(block);
        let rule = block_rule(ASSISTANT_BLOCKS, ty);
        if rule == BlockRule::OpensCall {
            match open_call(block, ty, depth).filter(|call| !model.call_ids.contains_key(&call.id)) {
                Some(call) => {
                    trace.hit(match call.caller {
                        super::model::Caller::Model => "claude-display.tool.caller-model",
                        super::model::Caller::ServerTool => "claude-display.tool.caller-server-tool",
                        super::model::Caller::Mcp => "claude-display.tool.caller-mcp",
                        super::model::Caller::Subagent => "claude-display.tool.caller-subagent",
                    });
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
                }
                None => parts.push(data_part(block)),
            }
        } else {
            parts.push(block_part(block));
        }
    }
    let message_id = message.get("message").and_then(|m| m.get("id")).and_then(Value::as_str).map(str::to_owned);
    let error = message.get("error").filter(|error| !error.is_null()).cloned();
    let last = model.transcript(container).and_then(|transcript| transcript.turns.last().copied());
    let extend = last.filter(|&ix| {
        model
            .turns
            .get(ix)
            .is_some_and(|turn| turn.role == "assistant" && message_id.is_some() && turn.message_id == message_id)
    });
    let mut targets = Vec::new();
    if let Some(turn) = extend.and_then(|ix| model.turns.get_mut(ix)) {
        trace.hit("claude-display.assistant.merged-by-message-id");
        turn.parts.extend(parts);
        if let Some(error) = error {
            turn.metadata.insert("error".to_owned(), error);
        }
        targets.push(Target::Turn { turn_id: turn.id.clone(), parent: model.host_id(container) });
    } else if !parts.is_empty() || settled.is_empty() {
        let mut turn = new_turn(message, "assistant", Origin::Model, parts);
        if let Some(id) = &message_id {
            turn.metadata.insert("messageId".to_owned(), Value::from(id.as_str()));
        }
        if let Some(error) = error {
            trace.hit("claude-display.assistant.error");
            turn.metadata.insert("error".to_owned(), error);
        }
        turn.message_id = message_id;
        targets.push(model.push_turn(container, index, turn));
    }
    targets.extend(settled);
    Outcome::To(targets)
}

/// A `user` frame.
pub fn user(model: &mut Model, index: usize, message: &Value, trace: &mut dyn RuleTrace) -> Outcome {
    let (container, blocks) = match turn_frame(model, message) {
        Ok(frame) => frame,
        Err(reason) => return Outcome::Ignored(reason),
    };
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
                return Outcome::Ignored("replay-duplicate");
            }
            trace.hit("claude-display.user.replay");
            (Origin::Replay, raw())
        }
        Class::ToolReturn => {
            trace.hit("claude-display.user.tool-return");
            return tool_return(model, container, index, message, &blocks);
        }
        Class::Machinery { rule } => {
            let Some(rule) = rule else {
                trace.hit("claude-display.user.synthetic-flag");
                if let Some(tool_call_id) = skills::attach_body(model, container, &blocks) {
                    trace.hit("claude-display.skill.body-attached");
                    return Outcome::To(vec![Target::ToolCall { tool_call_id }]);
                }
                let last_command = model.transcript(container).and_then(|t| t.last_command.as_deref());
                let skills = model.snapshot.as_ref().map(|s| s.skills.as_slice()).unwrap_or_default();
                let reason = inferred_reason(&blocks, last_command, skills);
                let origin = Origin::Synthetic { reason, rule: None };
                return Outcome::To(vec![push_user(model, container, index, message, origin, raw())]);
            };
            trace.hit(rule.trace_id());
            let origin = Origin::Synthetic { reason: rule.reason(), rule: Some(rule.id()) };
            let target = push_user(model, container, index, message, origin, raw());
            if rule == Rule::CommandRecord {
                let name = blocks.iter().filter_map(block_text).find_map(command_name);
                model.transcript_mut(container).last_command = name;
            }
            return Outcome::To(vec![target]);
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
            model.transcript_mut(container).prompt_seen = true;
            let parent_tool_call_id = model.host_id(container).unwrap_or_default();
            (Origin::SubagentPrompt { parent_tool_call_id }, real_parts(&blocks, trace))
        }
        Class::UserInput => {
            trace.hit("claude-display.user.input");
            (Origin::UserInput, real_parts(&blocks, trace))
        }
    };
    Outcome::To(vec![push_user(model, container, index, message, origin, parts)])
}

/// Pushes a user turn with the §11 envelope fields kept as metadata.
fn push_user(
    model: &mut Model,
    container: Container,
    index: usize,
    message: &Value,
    origin: Origin,
    parts: Vec<Part>,
) -> Target {
    let mut turn = new_turn(message, "user", origin, parts);
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
fn tool_return(model: &mut Model, container: Container, index: usize, message: &Value, blocks: &[Value]) -> Outcome {
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
        let rejected = id.is_some_and(|id| rejected_by_meta(message, id));
        let Some(call) = model.calls.get_mut(ix) else { continue };
        apply_result(call, block, ty, ResultFacts { sidecar: sidecar.take(), rejected });
        targets.push(Target::ToolCall { tool_call_id: call.id.clone() });
        settled = Some(ix);
    }
    if !residue.is_empty() {
        let origin = Origin::ToolReturn { tool_call_id: first_id.unwrap_or_default() };
        targets.push(push_user(model, container, index, message, origin, residue));
    }
    if settled.is_some() {
        skills::note_return(model, container, settled);
    }
    Outcome::To(targets)
}
