//! What both runtime adapters share: the session parameters a script gives,
//! the output of one step (what the adapter writes and the events it emits),
//! approval decisions under the session's policy, and the capabilities.

use crate::suite_api::{NoTrace, RuleTrace};
use crate::suites::agent_events::NormalizedEvent;
use crate::suites::tool_policy::reference::{Mode, is_allowed};
use serde_json::{Map, Value, json};

/// How an adapter answers permission prompts (Codex server requests, the
/// Claude `canUseTool` callback).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Approvals {
    /// Decide with the seed's tool policy in the session's mode.
    Policy,
    /// Emit `permission_request` and wait for the user's `answer` step.
    Ask,
    /// Allow everything (the seed's headless auto-approve).
    ApproveAll,
}

/// The adapter parameters of `create` (and of `resume` / `fork` for a new
/// session).
#[derive(Clone, Debug)]
pub struct SessionParams {
    /// The system prompt (`customSystemPrompt`, `developerInstructions`).
    pub system_prompt: Option<String>,
    /// The working directory (`cwd`).
    pub working_dir: Option<String>,
    /// The model, when the session names one.
    pub model: Option<String>,
    /// The tool-policy mode (`planner` unless `implementation`).
    pub mode: Mode,
    /// How permission prompts are answered.
    pub approvals: Approvals,
    /// Whether a denial also interrupts the turn.
    pub interrupt_on_deny: bool,
    /// Codex `approvalPolicy` (default `never`).
    pub approval_policy: Value,
    /// Codex `sandbox` (default `danger-full-access`).
    pub sandbox: Value,
}

impl SessionParams {
    /// Reads a step's `params` (absent: every default).
    pub fn read(params: Option<&Value>) -> Result<SessionParams, String> {
        let empty = Map::new();
        let params = match params {
            None => &empty,
            Some(Value::Object(params)) => params,
            Some(_) => return Err("`params` must be an object".to_owned()),
        };
        let text = |key: &str| -> Result<Option<String>, String> {
            match params.get(key) {
                None => Ok(None),
                Some(Value::String(text)) => Ok(Some(text.clone())),
                Some(_) => Err(format!("`params.{key}` must be a string")),
            }
        };
        let mode = match text("mode")?.as_deref() {
            Some("implementation") => Mode::Implementation,
            _ => Mode::Planner,
        };
        let approvals = match text("approvals")?.as_deref() {
            None | Some("policy") => Approvals::Policy,
            Some("ask") => Approvals::Ask,
            Some("approve-all") => Approvals::ApproveAll,
            Some(other) => return Err(format!("unknown `params.approvals` {other:?} (policy, ask, approve-all)")),
        };
        let interrupt_on_deny = match text("onDeny")?.as_deref() {
            None | Some("continue") => false,
            Some("interrupt") => true,
            Some(other) => return Err(format!("unknown `params.onDeny` {other:?} (continue, interrupt)")),
        };
        Ok(SessionParams {
            system_prompt: text("systemPrompt")?,
            working_dir: text("workingDir")?,
            model: text("model")?,
            mode,
            approvals,
            interrupt_on_deny,
            approval_policy: params.get("approvalPolicy").cloned().unwrap_or_else(|| Value::from("never")),
            sandbox: params.get("sandbox").cloned().unwrap_or_else(|| Value::from("danger-full-access")),
        })
    }
}

/// What an adapter decided about one permission prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PermissionDecision {
    /// The tool may run.
    Allow,
    /// It may not, for `reason`; `interrupt` also stops the turn.
    Deny {
        /// Why (the policy's reason, or the user's).
        reason: String,
        /// Whether the turn stops too.
        interrupt: bool,
    },
}

impl PermissionDecision {
    /// Whether the tool may run.
    pub fn allowed(&self) -> bool {
        matches!(self, PermissionDecision::Allow)
    }
}

/// The automatic decision for a prompt about `tool` running `command`, or
/// `None` when the session asks the user.
pub fn automatic_decision(
    params: &SessionParams,
    tool: &str,
    command: &str,
    trace: &mut dyn RuleTrace,
) -> Option<PermissionDecision> {
    match params.approvals {
        Approvals::Ask => {
            trace.hit("session.approval.ask");
            None
        }
        Approvals::ApproveAll => {
            trace.hit("session.approval.approve-all");
            Some(PermissionDecision::Allow)
        }
        Approvals::Policy => {
            trace.hit("session.approval.policy");
            // The policy's own rule ids belong to the tool-policy suite.
            let decision = is_allowed(tool, command, params.mode, &mut NoTrace);
            Some(match decision.reason {
                None => PermissionDecision::Allow,
                Some(reason) => {
                    PermissionDecision::Deny { reason: reason.to_owned(), interrupt: params.interrupt_on_deny }
                }
            })
        }
    }
}

/// The user's `answer` step as a decision (`message` defaults to the seed's
/// "Not allowed by policy").
pub fn answered_decision(step: &Map<String, Value>) -> Result<PermissionDecision, String> {
    let allow = step.get("allow").and_then(Value::as_bool).ok_or("an answer needs a boolean `allow`")?;
    if allow {
        return Ok(PermissionDecision::Allow);
    }
    let reason = step.get("message").and_then(Value::as_str).unwrap_or("Not allowed by policy").to_owned();
    let interrupt = step.get("interrupt").and_then(Value::as_bool).unwrap_or(false);
    Ok(PermissionDecision::Deny { reason, interrupt })
}

/// What one step made the adapter do.
#[derive(Debug, Default)]
pub struct StepOutput {
    /// What it wrote to the runtime, in order.
    pub writes: Vec<Value>,
    /// The events it emitted, `{session, type, data}`, in order.
    pub events: Vec<Value>,
}

impl StepOutput {
    /// Emits an event for `session`.
    pub fn event(&mut self, session: &str, event_type: &str, data: Map<String, Value>) {
        self.events.push(json!({"session": session, "type": event_type, "data": data}));
    }

    /// Emits a normalizer's event for `session`.
    pub fn normalized(&mut self, session: &str, event: &NormalizedEvent) {
        self.event(session, event.event_type.as_str(), event.data.clone());
    }

    /// `error {message, code?}` for `session`.
    pub fn error(&mut self, session: &str, message: &str, code: Option<String>) {
        let mut data = Map::new();
        data.insert("message".to_owned(), Value::from(message));
        if let Some(code) = code {
            data.insert("code".to_owned(), Value::from(code));
        }
        self.event(session, "error", data);
    }

    /// `session_ready` for `session` with the runtime, and the provider
    /// session and `resumed` when given.
    pub fn session_ready(&mut self, session: &str, runtime: &str, provider: Option<&str>, resumed: bool) {
        let mut data = Map::new();
        data.insert("session_id".to_owned(), Value::from(session));
        data.insert("runtime".to_owned(), Value::from(runtime));
        if let Some(provider) = provider {
            data.insert("provider_session_id".to_owned(), Value::from(provider));
        }
        if resumed {
            data.insert("resumed".to_owned(), Value::Bool(true));
        }
        self.event(session, "session_ready", data);
    }
}

/// The adapter's `capabilities`: the seed's Claude object, the same keys for
/// Codex (read off the seed's capability table), and two keys the table
/// adds: forking and mid-turn steering.
pub fn capabilities(steering: bool) -> Value {
    json!({
        "multi_turn_single_process": true,
        "interactive_permissions": true,
        "tool_use_events": true,
        "session_resume": true,
        "reasoning_stream": true,
        "session_fork": true,
        "mid_turn_steering": steering,
    })
}

/// `getSession(id)` of a live session.
pub fn session_info(runtime: &str, provider: Option<&str>, running: bool) -> Value {
    json!({
        "runtime": runtime,
        "status": "active",
        "providerSessionId": provider,
        "turn": if running { "running" } else { "idle" },
    })
}

/// A string member of a step, required.
pub fn required_str<'a>(step: &'a Map<String, Value>, key: &str) -> Result<&'a str, String> {
    step.get(key).and_then(Value::as_str).ok_or_else(|| format!("the step needs a string `{key}`"))
}
