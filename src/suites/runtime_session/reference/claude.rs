//! The Claude adapter: the seed's "Complete Claude adapter implementation".
//! Each `sendMessage` is one `query()` run whose options carry the provider
//! session id back (`resume`), a fork (`forkSession`) or a resume point
//! (`resumeSessionAt`); the messages the run yields go through the
//! `claude-events` normalizer, and the `canUseTool` callback answers
//! permission prompts under the session's policy.

use super::session::{
    PermissionDecision, SessionParams, StepOutput, answered_decision, automatic_decision, capabilities, session_info,
};
use crate::suite_api::RuleTrace;
use crate::suites::claude_events::reference::{ClaudeNormalizer, End};
use crate::suites::tool_policy::reference::Mode;
use serde_json::{Map, Value, json};

/// The tools of an implementation-mode session (the seed's sub-agent
/// section: `Task` is needed for sub-agents).
const IMPLEMENTATION_TOOLS: [&str; 9] =
    ["Read", "Write", "Edit", "Bash", "Glob", "Grep", "Task", "WebSearch", "WebFetch"];

/// A `query()` run in progress.
#[derive(Debug)]
struct Run {
    normalizer: ClaudeNormalizer,
    forwarded: usize,
    /// `stopTurn` aborted the run's controller.
    aborted: bool,
    /// `canUseTool` calls waiting for the user: (tool name, input).
    asks: Vec<(String, Value)>,
}

#[derive(Debug)]
struct ClaudeSession {
    params: SessionParams,
    /// The provider session id, captured from `system/init`.
    conversation: Option<String>,
    /// The next query forks (`forkSession: true`).
    fork_pending: bool,
    /// The next query resumes at this message (`resumeSessionAt`).
    resume_at: Option<String>,
    run: Option<Run>,
}

/// The adapter. See the module docs.
#[derive(Debug, Default)]
pub struct ClaudeAdapter {
    sessions: Vec<(String, ClaudeSession)>,
}

impl ClaudeAdapter {
    fn session(&mut self, id: &str) -> Option<&mut ClaudeSession> {
        self.sessions.iter_mut().find(|(known, _)| known == id).map(|(_, session)| session)
    }

    fn insert(&mut self, id: &str, session: ClaudeSession) {
        self.sessions.retain(|(known, _)| known != id);
        self.sessions.push((id.to_owned(), session));
    }

    /// `getSession(id)`.
    pub fn get_session(&self, id: &str) -> Value {
        match self.sessions.iter().find(|(known, _)| known == id) {
            Some((_, session)) => session_info("claude", session.conversation.as_deref(), session.run.is_some()),
            None => Value::Null,
        }
    }

    /// `capabilities` (the seed's object, plus fork and no steering).
    pub fn capabilities(&self) -> Value {
        capabilities(false)
    }

    /// `createSession(id, params)`: `session_ready {session_id, runtime}`.
    pub fn create(&mut self, id: &str, params: SessionParams, out: &mut StepOutput, trace: &mut dyn RuleTrace) {
        trace.hit("session.create.ready");
        self.insert(id, ClaudeSession { params, conversation: None, fork_pending: false, resume_at: None, run: None });
        out.session_ready(id, "claude", None, false);
    }

    /// `sendMessage(id, message)`: one `query()` call.
    pub fn send(
        &mut self,
        id: &str,
        step: &Map<String, Value>,
        out: &mut StepOutput,
        trace: &mut dyn RuleTrace,
    ) -> Result<(), String> {
        let text = super::session::required_str(step, "text")?;
        let Some(session) = self.session(id) else {
            trace.hit("session.send.unknown-session");
            return Ok(());
        };
        if ["images", "localImages", "files"].iter().any(|key| step.contains_key(*key)) {
            trace.hit("session.claude.attachments-unsupported");
            out.error(id, "the claude runtime takes a text prompt only", None);
            return Ok(());
        }
        if session.run.is_some() {
            trace.hit("session.send.busy");
            out.error(id, "a turn is already running; steer or stop it first", None);
            return Ok(());
        }
        trace.hit("session.claude.query");
        let params = &session.params;
        let mut options = Map::new();
        options.insert("customSystemPrompt".to_owned(), Value::from(params.system_prompt.clone().unwrap_or_default()));
        let implementation = params.mode == Mode::Implementation;
        options.insert("maxTurns".to_owned(), Value::from(if implementation { 100 } else { 30 }));
        if let Some(conversation) = &session.conversation {
            trace.hit("session.claude.resume-option");
            options.insert("resume".to_owned(), Value::from(conversation.clone()));
            if std::mem::take(&mut session.fork_pending) {
                trace.hit("session.claude.fork-option");
                options.insert("forkSession".to_owned(), Value::Bool(true));
            }
            if let Some(at) = session.resume_at.take() {
                trace.hit("session.claude.resume-at");
                options.insert("resumeSessionAt".to_owned(), Value::from(at));
            }
        }
        if let Some(cwd) = &params.working_dir {
            options.insert("cwd".to_owned(), Value::from(cwd.clone()));
        }
        if implementation {
            trace.hit("session.claude.implementation-options");
            options.insert("allowedTools".to_owned(), json!(IMPLEMENTATION_TOOLS));
            options.insert("permissionMode".to_owned(), Value::from("bypassPermissions"));
        }
        out.writes.push(json!({"query": {"prompt": text, "options": options}}));
        session.run =
            Some(Run { normalizer: ClaudeNormalizer::new(id), forwarded: 0, aborted: false, asks: Vec::new() });
        Ok(())
    }

    /// `stopTurn(id)`: aborts the run's `AbortController`.
    pub fn stop(&mut self, id: &str, out: &mut StepOutput, trace: &mut dyn RuleTrace) {
        match self.session(id).and_then(|session| session.run.as_mut()) {
            Some(run) => {
                trace.hit("session.claude.abort");
                if !run.aborted {
                    run.aborted = true;
                    out.writes.push(json!({"abort": {}}));
                }
            }
            None => trace.hit("session.stop.idle"),
        }
    }

    /// `resumeSession(id, {providerSessionId})`.
    pub fn resume(
        &mut self,
        id: &str,
        step: &Map<String, Value>,
        params: SessionParams,
        out: &mut StepOutput,
        trace: &mut dyn RuleTrace,
    ) {
        let provider = step.get("providerSessionId").and_then(Value::as_str);
        let at = step.get("at").and_then(Value::as_str);
        if self.session(id).is_none() {
            if provider.is_none() {
                trace.hit("session.resume.unknown-creates");
                return self.create(id, params, out, trace);
            }
            self.insert(
                id,
                ClaudeSession { params, conversation: None, fork_pending: false, resume_at: None, run: None },
            );
        }
        trace.hit("session.resume.loaded");
        let Some(session) = self.session(id) else { return };
        if let Some(provider) = provider {
            session.conversation = Some(provider.to_owned());
        }
        session.resume_at = at.map(str::to_owned);
        let conversation = session.conversation.clone();
        out.session_ready(id, "claude", conversation.as_deref(), true);
    }

    /// A fork of `from`: the new session's first query resumes `from`'s
    /// provider session with `forkSession: true`.
    pub fn fork(
        &mut self,
        id: &str,
        from: &str,
        params: Option<SessionParams>,
        out: &mut StepOutput,
        trace: &mut dyn RuleTrace,
    ) {
        let source = self.session(from).map(|session| (session.conversation.clone(), session.params.clone()));
        let Some((Some(conversation), source_params)) = source else {
            trace.hit("session.fork.no-source");
            out.error(id, &format!("cannot fork {from}: it has no provider session yet"), None);
            return;
        };
        trace.hit("session.fork");
        let session = ClaudeSession {
            params: params.unwrap_or(source_params),
            conversation: Some(conversation),
            fork_pending: true,
            resume_at: None,
            run: None,
        };
        self.insert(id, session);
        out.session_ready(id, "claude", None, false);
    }

    /// `archiveSession(id)`: aborts a running query and forgets the session.
    pub fn archive(&mut self, id: &str, out: &mut StepOutput, trace: &mut dyn RuleTrace) {
        let Some(session) = self.session(id) else {
            trace.hit("session.send.unknown-session");
            return;
        };
        trace.hit("session.archive");
        if session.run.as_ref().is_some_and(|run| !run.aborted) {
            out.writes.push(json!({"abort": {}}));
        }
        self.sessions.retain(|(known, _)| known != id);
    }

    /// One message the session's running `query()` yielded.
    pub fn receive(&mut self, id: &str, message: &Value, out: &mut StepOutput, trace: &mut dyn RuleTrace) {
        let Some(session) = self.session(id) else {
            trace.hit("session.claude.message-without-run");
            return;
        };
        let Some(run) = session.run.as_mut() else {
            trace.hit("session.claude.message-without-run");
            return;
        };
        run.normalizer.feed(std::slice::from_ref(message), trace);
        forward(run, id, out);
        let decoded = match message {
            Value::String(text) => crate::json::parse_js_string(text).ok(),
            other => Some(other.clone()),
        };
        let init_session = decoded.as_ref().filter(|m| {
            m.get("type").and_then(Value::as_str) == Some("system")
                && m.get("subtype").and_then(Value::as_str) == Some("init")
        });
        if let Some(provider) =
            init_session.and_then(|m| m.get("session_id")).and_then(Value::as_str).filter(|s| !s.is_empty())
        {
            trace.hit("session.claude.init-captures-id");
            session.conversation = Some(provider.to_owned());
        }
    }

    /// The SDK calls `canUseTool(toolName, input)`.
    pub fn can_use_tool(
        &mut self,
        id: &str,
        call: &Map<String, Value>,
        out: &mut StepOutput,
        trace: &mut dyn RuleTrace,
    ) -> Result<(), String> {
        let tool = super::session::required_str(call, "toolName")?.to_owned();
        // A missing input is omitted from the events and `{}` in the answer.
        let input = call.get("input").cloned().unwrap_or(Value::Null);
        let Some(session) = self.session(id) else {
            trace.hit("session.claude.message-without-run");
            return Ok(());
        };
        let Some(run) = session.run.as_mut() else {
            trace.hit("session.claude.message-without-run");
            return Ok(());
        };
        trace.hit("session.claude.can-use-tool");
        let mut data = Map::new();
        data.insert("tool_name".to_owned(), Value::from(tool.clone()));
        if !input.is_null() {
            data.insert("tool_input".to_owned(), input.clone());
        }
        out.event(id, "permission_request", data);
        let command = if tool == "Bash" { input.get("command").and_then(Value::as_str).unwrap_or("") } else { "" };
        match automatic_decision(&session.params, &tool, command, trace) {
            Some(decision) => answer(id, &tool, &input, &decision, out, trace),
            None => run.asks.push((tool, input)),
        }
        Ok(())
    }

    /// The user's answer to the oldest open `canUseTool` call.
    pub fn answer(
        &mut self,
        id: &str,
        step: &Map<String, Value>,
        out: &mut StepOutput,
        trace: &mut dyn RuleTrace,
    ) -> Result<(), String> {
        let ask = self
            .session(id)
            .and_then(|session| session.run.as_mut())
            .and_then(|run| if run.asks.is_empty() { None } else { Some(run.asks.remove(0)) });
        let Some((tool, input)) = ask else {
            trace.hit("session.answer.nothing-open");
            return Ok(());
        };
        trace.hit("session.approval.answer");
        let decision = answered_decision(step)?;
        answer(id, &tool, &input, &decision, out, trace);
        Ok(())
    }

    /// The run's generator ended: completed, threw `AbortError`, or threw
    /// another error (which counts as stopped once the run was aborted, as
    /// the seed's `catch` reads `signal.aborted`).
    pub fn end(
        &mut self,
        id: &str,
        end: &Value,
        out: &mut StepOutput,
        trace: &mut dyn RuleTrace,
    ) -> Result<(), String> {
        let mut end = End::parse(end)?;
        let Some(session) = self.session(id) else {
            trace.hit("session.claude.message-without-run");
            return Ok(());
        };
        let Some(mut run) = session.run.take() else {
            trace.hit("session.claude.message-without-run");
            return Ok(());
        };
        if run.aborted && matches!(end, End::Error(_)) {
            trace.hit("session.claude.aborted-error-is-stopped");
            end = End::Aborted;
        }
        trace.hit("session.claude.end");
        let forwarded = run.forwarded;
        let output = run.normalizer.finish(&end, trace);
        for event in output.events.iter().skip(forwarded) {
            out.normalized(id, event);
        }
        run.asks.clear();
        Ok(())
    }
}

fn forward(run: &mut Run, id: &str, out: &mut StepOutput) {
    let events = &run.normalizer.output().events;
    for event in events.iter().skip(run.forwarded) {
        out.normalized(id, event);
    }
    run.forwarded = events.len();
}

/// Writes the callback's result (`{behavior: "allow", updatedInput}` or
/// `{behavior: "deny", message, interrupt?}`) and resolves the prompt.
fn answer(
    id: &str,
    tool: &str,
    input: &Value,
    decision: &PermissionDecision,
    out: &mut StepOutput,
    trace: &mut dyn RuleTrace,
) {
    let result = match decision {
        PermissionDecision::Allow => {
            trace.hit("session.approval.allowed");
            // `input ?? {}`: a missing or null input becomes an empty object.
            let updated = if input.is_null() { json!({}) } else { input.clone() };
            json!({"behavior": "allow", "updatedInput": updated})
        }
        PermissionDecision::Deny { reason, interrupt: true } => {
            trace.hit("session.approval.denied-interrupt");
            json!({"behavior": "deny", "message": reason, "interrupt": true})
        }
        PermissionDecision::Deny { reason, .. } => {
            trace.hit("session.approval.denied");
            json!({"behavior": "deny", "message": reason})
        }
    };
    out.writes.push(json!({"canUseTool": result}));
    let mut data = Map::new();
    data.insert("tool_name".to_owned(), Value::from(tool));
    data.insert("allowed".to_owned(), Value::Bool(decision.allowed()));
    out.event(id, "permission_resolved", data);
}
