//! The fold: every input frame, in order, is routed by kind (see `kinds`)
//! to the track it feeds, and its disposition is recorded. Nothing is
//! dropped without a reason.

use super::kinds::{Route, kind_of, route};
use super::model::{Container, Disposition, MessageFate, Model, Origin, Part, Target, ToolState, Turn};
use super::text_rules::Rule;
use super::{notices, previews, snapshot, subagents, turns};
use crate::suite_api::RuleTrace;
use serde_json::Value;

/// What the input says besides its frames.
#[derive(Clone, Debug, Default)]
pub struct StreamFacts {
    /// The time each frame was received (`receivedAt`), by index.
    pub received_at: Vec<Option<String>>,
    /// The stream stops before the runtime finished (`end: "cut-off"`).
    pub cut_off: bool,
}

/// Folds a stream of SDK frames into the display model.
pub fn ingest(messages: &[Value], facts: StreamFacts, trace: &mut dyn RuleTrace) -> Model {
    let mut model = Model { received_at: facts.received_at, ..Model::default() };
    if facts.cut_off {
        trace.hit("claude-display.stream.cut-off");
        model.unfinished = true;
    }
    for (index, message) in messages.iter().enumerate() {
        let kind = kind_of(message);
        let outcome = match kind.as_str() {
            "invalid" => MessageFate::Ignored("not-an-object"),
            "untyped" => MessageFate::Ignored("no-type"),
            _ => match route(&kind) {
                Some(route) => dispatch(&mut model, route, &kind, index, message, trace),
                None => {
                    trace.hit("claude-display.kind.unknown-ignored");
                    MessageFate::Ignored("unknown-kind")
                }
            },
        };
        let normalized = std::mem::take(&mut model.normalized);
        // An ignored frame stands for no normalized event.
        let normalized = if matches!(outcome, MessageFate::Ignored(_)) { Vec::new() } else { normalized };
        model.dispositions.push(Disposition { kind, outcome, normalized });
    }
    model
}

fn dispatch(
    model: &mut Model,
    route: Route,
    kind: &str,
    index: usize,
    message: &Value,
    trace: &mut dyn RuleTrace,
) -> MessageFate {
    match route {
        Route::Assistant => turns::assistant(model, index, message, trace),
        Route::User => turns::user(model, index, message, trace),
        Route::Init => {
            trace.hit("claude-display.snapshot.init");
            let updated_at = model.timestamp_of(index, message, trace);
            model.snapshot = Some(snapshot::from_init(message, updated_at));
            model.emit("session_init");
            MessageFate::To(vec![Target::Snapshot])
        }
        Route::CommandsChanged => {
            let Some(names) = snapshot::command_names(message) else {
                return MessageFate::Ignored("malformed-message");
            };
            let Some(current) = model.snapshot.as_mut() else {
                return MessageFate::Ignored("no-snapshot");
            };
            trace.hit("claude-display.snapshot.commands-changed");
            current.slash_commands = names;
            MessageFate::To(vec![Target::Snapshot])
        }
        Route::Status => {
            model.emit("session_status");
            let mut targets = vec![push_notice(model, notices::status(message), "claude-display.notice.status", trace)];
            let mode = message.get("permissionMode").and_then(Value::as_str);
            if let (Some(mode), Some(current)) = (mode, model.snapshot.as_mut()) {
                trace.hit("claude-display.snapshot.permission-mode");
                current.permission_mode = mode.to_owned();
                targets.push(Target::Snapshot);
            }
            MessageFate::To(targets)
        }
        Route::Result => {
            let is_error = message.get("is_error") == Some(&Value::Bool(true)) || kind.starts_with("result/error");
            model.emit(if is_error { "error" } else { "result" });
            if message.get("total_cost_usd").is_some_and(Value::is_number) {
                trace.hit("claude-display.normalized.cost-update");
                model.emit("cost_update");
            }
            notice(model, notices::result(message), "claude-display.notice.result", trace)
        }
        Route::CompactBoundary => notice(model, notices::compact(message), "claude-display.notice.compact", trace),
        Route::ApiRetry => notice(model, notices::api_retry(message), "claude-display.notice.api-retry", trace),
        Route::Hook(status) => notice(model, notices::hook(message, status), "claude-display.notice.hook", trace),
        Route::SessionState => {
            model.emit("session_status");
            notice(model, notices::session_state(message), "claude-display.notice.session-state", trace)
        }
        Route::FilesPersisted => {
            notice(model, notices::files_persisted(message), "claude-display.notice.files-persisted", trace)
        }
        Route::Elicitation => notice(model, notices::elicitation(message), "claude-display.notice.elicitation", trace),
        Route::RateLimit => {
            model.emit("rate_limit");
            let at = model.timestamp_of(index, message, trace);
            notice(model, notices::rate_limit(message, at), "claude-display.notice.rate-limit", trace)
        }
        Route::Info => notice(model, notices::info(message, kind), "claude-display.notice.info", trace),
        Route::LocalCommandOutput => local_command_output(model, index, message, trace),
        Route::TaskStarted => subagents::started(model, message, trace),
        Route::TaskProgress => subagents::progress(model, message, trace),
        Route::TaskNotification => subagents::notification(model, message, trace),
        Route::TaskUpdated => subagents::updated(model, message, trace),
        Route::StreamEvent => match turns::container_of(model, message, trace) {
            Ok(container) => previews::stream_event(model, container, message, trace),
            Err(reason) => MessageFate::Ignored(reason),
        },
        Route::ToolProgress => {
            let id = message.get("tool_use_id").and_then(Value::as_str);
            let outcome = move_call(model, id, trace, "claude-display.tool.progress-running", |state| {
                (!state.is_settled()).then_some(ToolState::Running)
            });
            let elapsed = message.get("elapsed_time_seconds").filter(|value| value.is_number());
            if let (MessageFate::To(_), Some(call)) =
                (&outcome, id.and_then(|id| model.call_ids.get(id)).and_then(|&ix| model.calls.get_mut(ix)))
            {
                model.normalized.push("tool_progress");
                if let Some(elapsed) = elapsed {
                    trace.hit("claude-display.tool.progress-elapsed");
                    call.elapsed_seconds = Some(elapsed.clone());
                }
            }
            outcome
        }
        Route::PermissionRequest => {
            let id = message.get("request").and_then(|request| request.get("tool_use_id")).and_then(Value::as_str);
            let outcome = move_call(model, id, trace, "claude-display.tool.approval-pending", |state| {
                matches!(state, ToolState::Pending | ToolState::Running).then_some(ToolState::ApprovalPending)
            });
            let request_id = message.get("request_id").and_then(Value::as_str);
            if let (Some(request_id), Some(&ix)) = (request_id, id.and_then(|id| model.call_ids.get(id))) {
                model.permission_requests.insert(request_id.to_owned(), ix);
            }
            outcome
        }
        Route::PermissionAnswer => permission_answer(model, message, trace),
        Route::PermissionDenied => {
            let id = message.get("tool_use_id").and_then(Value::as_str);
            let text = message.get("message").and_then(Value::as_str).map(str::to_owned);
            let outcome = move_call(model, id, trace, "claude-display.tool.permission-denied", |state| {
                matches!(
                    state,
                    ToolState::Pending | ToolState::Running | ToolState::ApprovalPending | ToolState::ApprovalDenied
                )
                .then_some(ToolState::ApprovalDenied)
            });
            if let (MessageFate::To(_), Some(text), Some(call)) =
                (&outcome, text, id.and_then(|id| model.call_ids.get(id)).and_then(|&ix| model.calls.get_mut(ix)))
            {
                call.error_text = Some(text);
            }
            outcome
        }
        Route::Ignored(reason) => {
            trace.hit("claude-display.kind.ignored");
            MessageFate::Ignored(reason)
        }
    }
}

fn push_notice(model: &mut Model, notice: Value, rule: &'static str, trace: &mut dyn RuleTrace) -> Target {
    trace.hit(rule);
    model.notices.push(notice);
    Target::Notice { index: model.notices.len() - 1 }
}

fn notice(model: &mut Model, notice: Value, rule: &'static str, trace: &mut dyn RuleTrace) -> MessageFate {
    MessageFate::To(vec![push_notice(model, notice, rule, trace)])
}

/// Moves the call named by `id` to the state `next` gives for its current
/// state; a call that `next` refuses to move has settled.
fn move_call(
    model: &mut Model,
    id: Option<&str>,
    trace: &mut dyn RuleTrace,
    rule: &'static str,
    next: impl Fn(ToolState) -> Option<ToolState>,
) -> MessageFate {
    let Some(id) = id else {
        return MessageFate::Ignored("malformed-message");
    };
    let Some(call) = model.call_ids.get(id).and_then(|&ix| model.calls.get_mut(ix)) else {
        return MessageFate::Ignored("unknown-tool-call");
    };
    let Some(state) = next(call.state) else {
        return MessageFate::Ignored("tool-call-settled");
    };
    trace.hit(rule);
    call.state = state;
    MessageFate::To(vec![Target::ToolCall { tool_call_id: id.to_owned() }])
}

/// `control_response`: the client's answer to a `can_use_tool` prompt,
/// found by request id (or the answer's `toolUseID`). `allow` lets the call
/// run; `deny` denies it with the answer's message. Any other response
/// belongs to the control protocol.
fn permission_answer(model: &mut Model, message: &Value, trace: &mut dyn RuleTrace) -> MessageFate {
    let response = message.get("response");
    let answer = response.and_then(|r| r.get("response"));
    let behavior = answer.and_then(|a| a.get("behavior")).and_then(Value::as_str);
    let request_id = response.and_then(|r| r.get("request_id")).and_then(Value::as_str);
    let by_request = request_id.and_then(|id| model.permission_requests.get(id)).copied();
    let by_tool = answer.and_then(|a| a.get("toolUseID")).and_then(Value::as_str).and_then(|id| model.call_ids.get(id));
    let (Some(behavior), Some(ix)) = (behavior, by_request.or(by_tool.copied())) else {
        return MessageFate::Ignored("control-protocol");
    };
    let text = answer.and_then(|a| a.get("message")).and_then(Value::as_str).map(str::to_owned);
    let Some(call) = model.calls.get_mut(ix) else { return MessageFate::Ignored("unknown-tool-call") };
    let next = match behavior {
        "allow" if !call.state.is_settled() => ToolState::Running,
        "deny" if !call.state.is_settled() => ToolState::ApprovalDenied,
        "allow" | "deny" => return MessageFate::Ignored("tool-call-settled"),
        _ => return MessageFate::Ignored("control-protocol"),
    };
    trace.hit(if next == ToolState::Running {
        "claude-display.tool.approval-allowed"
    } else {
        "claude-display.tool.approval-denied"
    });
    call.state = next;
    if next == ToolState::ApprovalDenied {
        call.error_text = text;
    }
    MessageFate::To(vec![Target::ToolCall { tool_call_id: call.id.clone() }])
}

/// `system/local_command_output`: the output of a local slash command, kept
/// as a hidden synthetic assistant turn, like the `<local-command-stdout>`
/// user records the text rules hide.
fn local_command_output(model: &mut Model, index: usize, message: &Value, trace: &mut dyn RuleTrace) -> MessageFate {
    let Some(content) = message.get("content").and_then(Value::as_str) else {
        return MessageFate::Ignored("malformed-message");
    };
    trace.hit("claude-display.local-command-output");
    let rule = Rule::LocalCommandOutput;
    let turn = Turn {
        id: message.get("uuid").and_then(Value::as_str).unwrap_or_default().to_owned(),
        role: "assistant",
        origin: Origin::Synthetic { reason: rule.reason(), rule: Some(rule.id()) },
        parts: vec![Part::Text { text: content.to_owned(), citations: None }],
        metadata: serde_json::Map::new(),
        timestamp: model.timestamp_of(index, message, trace),
        message_id: None,
        seen_blocks: Vec::new(),
    };
    MessageFate::To(vec![model.push_turn(Container::Main, index, turn)])
}
