//! The Codex app-server adapter: one `codex app-server` process driven over
//! JSON-RPC 2.0, many sessions (one thread each) on it.
//!
//! The adapter writes requests with ids 1, 2, … per process, waits for the
//! `initialize` response before anything else (then says `initialized`),
//! reads the thread id from `result.thread.id`, routes notifications and
//! server requests to the session owning their thread, and hands them to
//! that session's app-server normalizer (the `codex-app-server-events`
//! reference) for its events.

use super::session::SessionParams;
use super::session::{
    PermissionDecision, StepOutput, answered_decision, automatic_decision, capabilities, required_str, session_info,
};
use crate::json::to_compact_string;
use crate::suite_api::RuleTrace;
use crate::suites::agent_events::unwrap_shell_command;
use crate::suites::codex_app_server_events::reference::AppServerNormalizer;
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, HashMap, HashSet};

/// The seed's example `clientInfo`, used when the script gives none.
pub fn default_client_info() -> Value {
    json!({"name": "my-app", "version": "1.0.0"})
}

/// What a request in flight was for.
#[derive(Clone, Debug)]
enum Pending {
    Initialize,
    Thread(String, Opening),
    TurnStart(String),
    Other(String),
}

/// How a session's thread is being opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Opening {
    Start,
    Resume,
    Fork,
}

impl Pending {
    fn session(&self) -> Option<&str> {
        match self {
            Pending::Initialize => None,
            Pending::Thread(session, _) | Pending::TurnStart(session) | Pending::Other(session) => Some(session),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Down,
    Initializing,
    Ready,
}

/// A turn of a session.
#[derive(Clone, Debug, Default)]
struct Turn {
    running: bool,
    id: Option<String>,
    stop_requested: bool,
    interrupt_sent: bool,
}

/// A server request waiting for the user's answer.
#[derive(Clone, Debug)]
struct OpenAsk {
    id: Value,
    method: String,
}

#[derive(Debug)]
struct CodexSession {
    params: SessionParams,
    thread: Option<String>,
    /// The thread is loaded in the current process (or being loaded).
    loaded: bool,
    /// A thread/start, thread/resume or thread/fork is in flight.
    opening: bool,
    turn: Turn,
    /// `turn/start` inputs waiting for the thread.
    queued: Vec<Value>,
    normalizer: AppServerNormalizer,
    forwarded: usize,
    completed_turns: HashSet<String>,
    asks: Vec<OpenAsk>,
}

impl CodexSession {
    fn new(id: &str, params: SessionParams) -> CodexSession {
        CodexSession {
            params,
            thread: None,
            loaded: true,
            opening: true,
            turn: Turn::default(),
            queued: Vec::new(),
            normalizer: AppServerNormalizer::new(Some(id.to_owned())),
            forwarded: 0,
            completed_turns: HashSet::new(),
            asks: Vec::new(),
        }
    }
}

/// The adapter. See the module docs.
#[derive(Debug)]
pub struct CodexAdapter {
    client_info: Value,
    stage: Stage,
    next_id: u64,
    pending: BTreeMap<u64, Pending>,
    /// Requests waiting for the handshake: (method, params, what for).
    deferred: Vec<(&'static str, Value, Pending)>,
    /// Sessions in creation order.
    sessions: Vec<(String, CodexSession)>,
    /// Thread id → session id (child threads too).
    threads: HashMap<String, String>,
}

impl CodexAdapter {
    /// An adapter that introduces itself with `client_info`.
    pub fn new(client_info: Value) -> CodexAdapter {
        CodexAdapter {
            client_info,
            stage: Stage::Down,
            next_id: 1,
            pending: BTreeMap::new(),
            deferred: Vec::new(),
            sessions: Vec::new(),
            threads: HashMap::new(),
        }
    }

    fn session(&mut self, id: &str) -> Option<&mut CodexSession> {
        self.sessions.iter_mut().find(|(known, _)| known == id).map(|(_, session)| session)
    }

    fn has(&self, id: &str) -> bool {
        self.sessions.iter().any(|(known, _)| known == id)
    }

    /// `getSession(id)`.
    pub fn get_session(&self, id: &str) -> Value {
        match self.sessions.iter().find(|(known, _)| known == id) {
            Some((_, session)) => session_info("codex", session.thread.as_deref(), session.turn.running),
            None => Value::Null,
        }
    }

    /// `capabilities`.
    pub fn capabilities(&self) -> Value {
        capabilities(true)
    }

    // ---- writing -------------------------------------------------------

    /// Starts the process (the `initialize` request) when none runs.
    fn ensure_process(&mut self, out: &mut StepOutput, trace: &mut dyn RuleTrace) {
        if self.stage != Stage::Down {
            return;
        }
        trace.hit("session.codex.initialize");
        self.stage = Stage::Initializing;
        self.next_id = 1;
        self.pending.clear();
        let params = json!({"clientInfo": self.client_info});
        self.write_request(out, "initialize", params, Pending::Initialize);
    }

    fn write_request(&mut self, out: &mut StepOutput, method: &str, params: Value, pending: Pending) {
        let id = self.next_id;
        self.next_id += 1;
        self.pending.insert(id, pending);
        out.writes.push(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
    }

    /// A request that needs the handshake done: written now, or when the
    /// `initialize` response arrives.
    fn request(&mut self, out: &mut StepOutput, method: &'static str, params: Value, pending: Pending) {
        match self.stage {
            Stage::Ready => self.write_request(out, method, params, pending),
            _ => self.deferred.push((method, params, pending)),
        }
    }

    fn respond(out: &mut StepOutput, id: &Value, result: Value) {
        out.writes.push(json!({"jsonrpc": "2.0", "id": id, "result": result}));
    }

    // ---- user actions --------------------------------------------------

    /// `createSession(id, params)`.
    pub fn create(&mut self, id: &str, params: SessionParams, out: &mut StepOutput, trace: &mut dyn RuleTrace) {
        trace.hit("session.create.ready");
        self.remove(id);
        out.session_ready(id, "codex", None, false);
        let mut thread_params = Map::new();
        put_str(&mut thread_params, "cwd", params.working_dir.as_deref());
        thread_params.insert("approvalPolicy".to_owned(), params.approval_policy.clone());
        thread_params.insert("sandbox".to_owned(), params.sandbox.clone());
        put_str(&mut thread_params, "developerInstructions", params.system_prompt.as_deref());
        put_str(&mut thread_params, "model", params.model.as_deref());
        self.sessions.push((id.to_owned(), CodexSession::new(id, params)));
        self.ensure_process(out, trace);
        self.request(out, "thread/start", Value::Object(thread_params), Pending::Thread(id.to_owned(), Opening::Start));
    }

    /// `sendMessage(id, message)`: a `turn/start` with the text and the
    /// attachments as input items.
    pub fn send(&mut self, id: &str, input: Value, out: &mut StepOutput, trace: &mut dyn RuleTrace) {
        let Some(session) = self.session(id) else {
            trace.hit("session.send.unknown-session");
            return;
        };
        if session.turn.running {
            trace.hit("session.send.busy");
            out.error(id, "a turn is already running; steer or stop it first", None);
            return;
        }
        session.turn = Turn { running: true, ..Turn::default() };
        match (&session.thread, session.loaded, session.opening) {
            (Some(thread), true, false) => {
                let params = json!({"threadId": thread, "input": input});
                trace.hit("session.codex.turn-start");
                self.request(out, "turn/start", params, Pending::TurnStart(id.to_owned()));
            }
            (_, _, true) => {
                trace.hit("session.send.queued-until-thread");
                session.queued.push(input);
            }
            (Some(thread), false, false) => {
                // The process that had the thread loaded is gone: a new one
                // loads it with thread/resume before the turn starts.
                trace.hit("session.codex.restart-resumes");
                let params = resume_params(thread, &session.params);
                session.loaded = true;
                session.opening = true;
                session.queued.push(input);
                self.ensure_process(out, trace);
                self.request(out, "thread/resume", params, Pending::Thread(id.to_owned(), Opening::Resume));
            }
            (None, _, false) => {
                trace.hit("session.send.no-thread");
                session.turn = Turn::default();
                out.error(id, "the session has no thread: thread/start did not succeed", None);
            }
        }
    }

    /// `turn/steer` with `expectedTurnId`: guidance for the running turn.
    pub fn steer(&mut self, id: &str, text: &str, out: &mut StepOutput, trace: &mut dyn RuleTrace) {
        let Some(session) = self.session(id) else {
            trace.hit("session.send.unknown-session");
            return;
        };
        match (&session.thread, session.turn.running, &session.turn.id) {
            (Some(thread), true, Some(turn)) => {
                trace.hit("session.codex.steer");
                let params = json!({"threadId": thread, "expectedTurnId": turn, "input": [text_input(text)]});
                self.request(out, "turn/steer", params, Pending::Other(id.to_owned()));
            }
            _ => {
                trace.hit("session.steer.no-active-turn");
                out.error(id, "no active turn to steer", None);
            }
        }
    }

    /// `stopTurn(id)`: `turn/interrupt` for the running turn (as soon as its
    /// id is known).
    pub fn stop(&mut self, id: &str, out: &mut StepOutput, trace: &mut dyn RuleTrace) {
        let Some(session) = self.session(id) else {
            trace.hit("session.send.unknown-session");
            return;
        };
        if !session.turn.running {
            trace.hit("session.stop.idle");
            return;
        }
        session.turn.stop_requested = true;
        if session.turn.id.is_none() {
            trace.hit("session.codex.interrupt-deferred");
            return;
        }
        self.interrupt(id, out, trace);
    }

    fn interrupt(&mut self, id: &str, out: &mut StepOutput, trace: &mut dyn RuleTrace) {
        let Some(session) = self.session(id) else { return };
        let (Some(thread), Some(turn)) = (session.thread.clone(), session.turn.id.clone()) else { return };
        if session.turn.interrupt_sent {
            return;
        }
        session.turn.interrupt_sent = true;
        trace.hit("session.codex.interrupt");
        let params = json!({"threadId": thread, "turnId": turn});
        self.request(out, "turn/interrupt", params, Pending::Other(id.to_owned()));
    }

    /// `resumeSession(id, {providerSessionId})`: a loaded session is ready at
    /// once; otherwise `thread/resume` loads the thread by id.
    pub fn resume(
        &mut self,
        id: &str,
        provider: Option<&str>,
        params: SessionParams,
        out: &mut StepOutput,
        trace: &mut dyn RuleTrace,
    ) {
        if !self.has(id) {
            let Some(thread) = provider else {
                trace.hit("session.resume.unknown-creates");
                self.create(id, params, out, trace);
                return;
            };
            let mut session = CodexSession::new(id, params);
            session.thread = Some(thread.to_owned());
            session.loaded = false;
            session.opening = false;
            self.sessions.push((id.to_owned(), session));
        }
        let Some(session) = self.session(id) else { return };
        if let Some(provider) = provider.filter(|provider| session.thread.as_deref() != Some(provider)) {
            session.thread = Some(provider.to_owned());
            session.loaded = false;
        }
        match (&session.thread, session.loaded, session.opening) {
            (Some(thread), false, false) => {
                trace.hit("session.resume.thread-resume");
                let params = resume_params(thread, &session.params);
                session.loaded = true;
                session.opening = true;
                let thread = thread.clone();
                self.threads.insert(thread, id.to_owned());
                self.ensure_process(out, trace);
                self.request(out, "thread/resume", params, Pending::Thread(id.to_owned(), Opening::Resume));
            }
            (thread, _, _) => {
                trace.hit("session.resume.loaded");
                let thread = thread.clone();
                out.session_ready(id, "codex", thread.as_deref(), true);
            }
        }
    }

    /// `thread/fork` of `from`'s thread into the new session `id`.
    pub fn fork(
        &mut self,
        id: &str,
        from: &str,
        params: Option<SessionParams>,
        out: &mut StepOutput,
        trace: &mut dyn RuleTrace,
    ) {
        let source = self.session(from).map(|session| (session.thread.clone(), session.params.clone()));
        let Some((Some(thread), source_params)) = source else {
            trace.hit("session.fork.no-source");
            out.error(id, &format!("cannot fork {from}: it has no thread"), None);
            return;
        };
        trace.hit("session.fork");
        let params = params.unwrap_or(source_params);
        let mut fork_params = Map::new();
        fork_params.insert("threadId".to_owned(), Value::from(thread));
        put_str(&mut fork_params, "model", params.model.as_deref());
        put_str(&mut fork_params, "developerInstructions", params.system_prompt.as_deref());
        self.remove(id);
        self.sessions.push((id.to_owned(), CodexSession::new(id, params)));
        self.ensure_process(out, trace);
        self.request(out, "thread/fork", Value::Object(fork_params), Pending::Thread(id.to_owned(), Opening::Fork));
    }

    /// `archiveSession(id)`: interrupts a running turn, archives the thread
    /// and forgets the session (its listeners are gone).
    pub fn archive(&mut self, id: &str, out: &mut StepOutput, trace: &mut dyn RuleTrace) {
        if !self.has(id) {
            trace.hit("session.send.unknown-session");
            return;
        }
        trace.hit("session.archive");
        self.interrupt(id, out, trace);
        if let Some(thread) = self.session(id).and_then(|session| session.thread.clone()) {
            self.request(out, "thread/archive", json!({"threadId": thread}), Pending::Other(id.to_owned()));
        }
        self.remove(id);
    }

    fn remove(&mut self, id: &str) {
        self.sessions.retain(|(known, _)| known != id);
        self.threads.retain(|_, session| session != id);
    }

    /// The user's answer to the session's oldest open server request.
    pub fn answer(
        &mut self,
        id: &str,
        step: &Map<String, Value>,
        out: &mut StepOutput,
        trace: &mut dyn RuleTrace,
    ) -> Result<(), String> {
        let Some(session) = self.session(id) else {
            trace.hit("session.send.unknown-session");
            return Ok(());
        };
        if session.asks.is_empty() {
            trace.hit("session.answer.nothing-open");
            return Ok(());
        }
        let ask = session.asks.remove(0);
        trace.hit("session.approval.answer");
        if ask.method == "item/tool/requestUserInput" {
            let answers = step.get("answers").and_then(Value::as_object).cloned().unwrap_or_default();
            let allowed = step.get("allow").and_then(Value::as_bool).unwrap_or(true);
            let answers: Map<String, Value> = if allowed {
                answers.into_iter().map(|(question, given)| (question, json!({"answers": given}))).collect()
            } else {
                Map::new()
            };
            Self::respond(out, &ask.id, json!({"answers": answers}));
            let mut data = Map::new();
            data.insert("tool_name".to_owned(), Value::from(USER_INPUT_TOOL));
            data.insert("allowed".to_owned(), Value::Bool(allowed));
            out.event(id, "permission_resolved", data);
            return Ok(());
        }
        let decision = answered_decision(step)?;
        self.answer_approval(id, &ask.id, &ask.method, &decision, out, trace);
        Ok(())
    }

    // ---- what the app-server writes ------------------------------------

    /// One line the app-server wrote.
    pub fn receive(&mut self, line: &Value, out: &mut StepOutput, trace: &mut dyn RuleTrace) {
        let decoded;
        let frame = match line {
            Value::String(text) => match crate::json::parse_js_string(text) {
                Ok(value) => {
                    decoded = value;
                    &decoded
                }
                Err(_) => {
                    trace.hit("session.codex.invalid-line");
                    return;
                }
            },
            other => other,
        };
        let Some(frame) = frame.as_object() else {
            trace.hit("session.codex.invalid-line");
            return;
        };
        let id = frame.get("id").filter(|id| !id.is_null());
        match (frame.get("method").and_then(Value::as_str), id) {
            (Some(method), Some(id)) => self.server_request(method, id, frame, out, trace),
            (Some(method), None) => self.notification(method, frame, out, trace),
            (None, Some(id)) if frame.contains_key("result") || frame.contains_key("error") => {
                self.response(id, frame, out, trace);
            }
            _ => trace.hit("session.codex.invalid-line"),
        }
    }

    fn response(&mut self, id: &Value, frame: &Map<String, Value>, out: &mut StepOutput, trace: &mut dyn RuleTrace) {
        let Some(pending) = crate::suites::js::js_uint(Some(id)).and_then(|id| self.pending.remove(&id)) else {
            trace.hit("session.codex.unknown-response-id");
            return;
        };
        if let Some(error) = frame.get("error") {
            self.error_response(&pending, error, out, trace);
            return;
        }
        let result = frame.get("result").unwrap_or(&Value::Null);
        match pending {
            Pending::Initialize => {
                trace.hit("session.codex.initialized");
                self.stage = Stage::Ready;
                out.writes.push(json!({"jsonrpc": "2.0", "method": "initialized"}));
                for (method, params, pending) in std::mem::take(&mut self.deferred) {
                    self.write_request(out, method, params, pending);
                }
            }
            Pending::Thread(session, opening) => self.thread_opened(&session, result, opening, out, trace),
            Pending::TurnStart(session) => {
                let turn = result.get("turn").and_then(|turn| turn.get("id")).and_then(Value::as_str);
                let stop = match (self.session(&session), turn) {
                    (Some(state), Some(turn)) if state.turn.running && state.turn.id.is_none() => {
                        state.turn.id = Some(turn.to_owned());
                        state.turn.stop_requested
                    }
                    _ => false,
                };
                if stop {
                    self.interrupt(&session, out, trace);
                }
            }
            Pending::Other(_) => {}
        }
    }

    /// The response to thread/start, thread/resume or thread/fork: the
    /// thread id is `result.thread.id` (never `result.id`). A resumed or
    /// forked session is ready now; a started one when `thread/started`
    /// arrives.
    fn thread_opened(
        &mut self,
        id: &str,
        result: &Value,
        opening: Opening,
        out: &mut StepOutput,
        trace: &mut dyn RuleTrace,
    ) {
        let thread = result.get("thread").and_then(|thread| thread.get("id")).and_then(Value::as_str);
        let Some(session) = self.session(id) else { return };
        session.opening = false;
        let Some(thread) = thread else {
            trace.hit("session.codex.thread-id-missing");
            session.turn = Turn::default();
            session.queued.clear();
            return out.error(id, "the response has no thread id (result.thread.id)", None);
        };
        trace.hit("session.codex.thread-id");
        session.thread = Some(thread.to_owned());
        let queued = std::mem::take(&mut session.queued);
        self.threads.insert(thread.to_owned(), id.to_owned());
        match opening {
            Opening::Resume => out.session_ready(id, "codex", Some(thread), true),
            Opening::Fork => out.session_ready(id, "codex", Some(thread), false),
            Opening::Start => {}
        }
        for input in queued {
            trace.hit("session.codex.turn-start");
            let params = json!({"threadId": thread, "input": input});
            self.request(out, "turn/start", params, Pending::TurnStart(id.to_owned()));
        }
    }

    /// A JSON-RPC error response: an `error` event with the code (as a
    /// decimal string) for the session the request was for.
    fn error_response(&mut self, pending: &Pending, error: &Value, out: &mut StepOutput, trace: &mut dyn RuleTrace) {
        let message = error.get("message").and_then(Value::as_str).unwrap_or("JSON-RPC error");
        let code = error.get("code").filter(|code| code.is_number()).map(to_compact_string);
        trace.hit("session.codex.error-response");
        let Some(id) = pending.session() else {
            // initialize failed: every session waiting for the handshake
            // hears it, and the next action starts a new process.
            trace.hit("session.codex.initialize-failed");
            let waiting: Vec<String> =
                self.deferred.iter().filter_map(|(_, _, p)| p.session().map(str::to_owned)).collect();
            self.deferred.clear();
            self.stage = Stage::Down;
            let mut told = HashSet::new();
            for session in waiting {
                if !told.insert(session.clone()) {
                    continue;
                }
                if let Some(state) = self.session(&session) {
                    state.opening = false;
                    state.loaded = false;
                    state.queued.clear();
                    state.turn = Turn::default();
                    out.error(&session, message, code.clone());
                }
            }
            return;
        };
        let id = id.to_owned();
        let Some(session) = self.session(&id) else { return };
        match pending {
            Pending::Thread(..) => {
                session.opening = false;
                session.queued.clear();
                session.turn = Turn::default();
            }
            Pending::TurnStart(_) => session.turn = Turn::default(),
            _ => {}
        }
        out.error(&id, message, code);
    }

    fn route(&self, params: &Map<String, Value>) -> Option<String> {
        let thread = params
            .get("threadId")
            .or_else(|| params.get("thread_id"))
            .or_else(|| params.get("conversationId"))
            .or_else(|| params.get("thread").and_then(|thread| thread.get("id")))
            .and_then(Value::as_str)?;
        self.threads.get(thread).cloned()
    }

    fn notification(
        &mut self,
        method: &str,
        frame: &Map<String, Value>,
        out: &mut StepOutput,
        trace: &mut dyn RuleTrace,
    ) {
        if self.stage != Stage::Ready {
            trace.hit("session.codex.before-initialize");
            return;
        }
        let empty = Map::new();
        let params = frame.get("params").and_then(Value::as_object).unwrap_or(&empty);
        if method == "thread/started" {
            // A child thread (a sub-agent) belongs to its parent's session.
            let thread = params.get("thread");
            let child = thread.and_then(|t| t.get("id")).and_then(Value::as_str);
            let parent = thread.and_then(|t| t.get("parentThreadId")).and_then(Value::as_str);
            if let (Some(child), Some(session)) = (child, parent.and_then(|parent| self.threads.get(parent)).cloned()) {
                self.threads.insert(child.to_owned(), session);
            }
        }
        let Some(id) = self.route(params) else {
            trace.hit("session.codex.unrouted");
            return;
        };
        let Some(session) = self.session(&id) else { return };
        let turn_id = params.get("turnId").and_then(Value::as_str);
        if method.starts_with("item/") && turn_id.is_some_and(|turn| session.completed_turns.contains(turn)) {
            // turn/completed is the definitive end of a turn.
            trace.hit("session.codex.after-turn-completed");
            return;
        }
        feed(session, &id, &Value::Object(frame.clone()), out, trace);
        let turn = params.get("turn");
        let turn_id = turn.and_then(|turn| turn.get("id")).and_then(Value::as_str).map(str::to_owned);
        match method {
            "turn/started" => {
                let stop = {
                    let state = &mut session.turn;
                    state.running = true;
                    if state.id.is_none() {
                        state.id.clone_from(&turn_id);
                    }
                    state.stop_requested && !state.interrupt_sent
                };
                if stop {
                    self.interrupt(&id, out, trace);
                }
            }
            "turn/completed" => {
                trace.hit("session.codex.turn-completed");
                session.completed_turns.extend(turn_id);
                session.turn = Turn::default();
            }
            _ => {}
        }
    }

    fn server_request(
        &mut self,
        method: &str,
        id: &Value,
        frame: &Map<String, Value>,
        out: &mut StepOutput,
        trace: &mut dyn RuleTrace,
    ) {
        let empty = Map::new();
        let params = frame.get("params").and_then(Value::as_object).unwrap_or(&empty);
        let Some(session_id) = self.route(params) else {
            trace.hit("session.codex.unrouted-request");
            out.writes.push(json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32602, "message": "no session owns this thread"}}));
            return;
        };
        let Some(session) = self.session(&session_id) else { return };
        feed(session, &session_id, &Value::Object(frame.clone()), out, trace);
        match method {
            "item/commandExecution/requestApproval" | "execCommandApproval" => {
                let command = command_line(params.get("command"));
                let command = unwrap_shell_command(&command).unwrap_or(command);
                self.decide(&session_id, id, method, "Bash", &command, out, trace);
            }
            "item/fileChange/requestApproval" | "applyPatchApproval" => {
                self.decide(&session_id, id, method, "Edit", "", out, trace);
            }
            "item/permissions/requestApproval" => {
                trace.hit("session.approval.permissions-nothing-granted");
                let answer = json!({"permissions": {}});
                Self::respond(out, id, answer.clone());
                feed(session, &session_id, &json!({"client": {"id": id, "result": answer}}), out, trace);
            }
            "item/tool/requestUserInput" => {
                trace.hit("session.approval.user-input");
                let mut data = Map::new();
                data.insert("tool_name".to_owned(), Value::from(USER_INPUT_TOOL));
                let questions = params.get("questions").cloned().unwrap_or(Value::Array(Vec::new()));
                data.insert("tool_input".to_owned(), json!({"questions": questions}));
                out.event(&session_id, "permission_request", data);
                session.asks.push(OpenAsk { id: id.clone(), method: method.to_owned() });
            }
            _ => {
                trace.hit("session.codex.unknown-server-request");
                out.writes.push(
                    json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "Method not found"}}),
                );
            }
        }
    }

    /// Answers an approval request now (policy, approve-all) or keeps it
    /// open for the user (ask).
    #[allow(clippy::too_many_arguments)]
    fn decide(
        &mut self,
        session_id: &str,
        id: &Value,
        method: &str,
        tool: &str,
        command: &str,
        out: &mut StepOutput,
        trace: &mut dyn RuleTrace,
    ) {
        let Some(session) = self.session(session_id) else { return };
        match automatic_decision(&session.params, tool, command, trace) {
            Some(decision) => self.answer_approval(session_id, id, method, &decision, out, trace),
            None => session.asks.push(OpenAsk { id: id.clone(), method: method.to_owned() }),
        }
    }

    /// Writes the answer to an approval request in the shape its method
    /// reads, and lets the normalizer resolve it.
    fn answer_approval(
        &mut self,
        session_id: &str,
        id: &Value,
        method: &str,
        decision: &PermissionDecision,
        out: &mut StepOutput,
        trace: &mut dyn RuleTrace,
    ) {
        let legacy = matches!(method, "execCommandApproval" | "applyPatchApproval");
        let wire_decision = match (decision, legacy) {
            (PermissionDecision::Allow, false) => json!("accept"),
            (PermissionDecision::Allow, true) => json!("approved"),
            (PermissionDecision::Deny { interrupt: true, .. }, false) => json!("cancel"),
            (PermissionDecision::Deny { interrupt: true, .. }, true) => json!("abort"),
            (PermissionDecision::Deny { .. }, false) => json!("decline"),
            (PermissionDecision::Deny { reason, .. }, true) => json!({"denied": {"rejection": reason}}),
        };
        trace.hit(match decision {
            PermissionDecision::Allow => "session.approval.allowed",
            PermissionDecision::Deny { interrupt: true, .. } => "session.approval.denied-interrupt",
            PermissionDecision::Deny { .. } => "session.approval.denied",
        });
        let answer = json!({"decision": wire_decision});
        Self::respond(out, id, answer.clone());
        if let Some(session) = self.session(session_id) {
            feed(session, session_id, &json!({"client": {"id": id, "result": answer}}), out, trace);
        }
    }

    /// The app-server process exited with `code` (`None`: killed by a
    /// signal). A turn in flight is resolved with `error` and `done`, a
    /// request in flight fails, and the next action starts a new process.
    pub fn exit(&mut self, code: Option<&Value>, out: &mut StepOutput, trace: &mut dyn RuleTrace) {
        if self.stage == Stage::Down {
            trace.hit("session.codex.exit-without-process");
            return;
        }
        let code_text = code.map_or_else(|| "null".to_owned(), to_compact_string);
        let message = format!("Process exited with code {code_text}");
        let waiting: HashSet<String> = self
            .pending
            .values()
            .chain(self.deferred.iter().map(|(_, _, pending)| pending))
            .filter(|pending| !matches!(pending, Pending::Other(_)))
            .filter_map(|pending| pending.session().map(str::to_owned))
            .collect();
        for (id, session) in &mut self.sessions {
            if session.turn.running {
                trace.hit("session.codex.exit-resolves-turn");
                out.error(id, &message, None);
                let mut done = Map::new();
                if let Some(code) = code.filter(|code| code.is_number()) {
                    done.insert("exit_code".to_owned(), code.clone());
                }
                out.event(id, "done", done);
            } else if waiting.contains(id) {
                trace.hit("session.codex.exit-fails-request");
                out.error(id, &message, None);
            }
            session.turn = Turn::default();
            session.opening = false;
            session.loaded = false;
            session.queued.clear();
            session.asks.clear();
        }
        self.stage = Stage::Down;
        self.pending.clear();
        self.deferred.clear();
    }
}

/// The tool name of a `request_user_input` prompt in permission events.
pub const USER_INPUT_TOOL: &str = "request_user_input";

/// Feeds `frame` to the session's normalizer and forwards its new events.
fn feed(session: &mut CodexSession, id: &str, frame: &Value, out: &mut StepOutput, trace: &mut dyn RuleTrace) {
    session.normalizer.feed(std::slice::from_ref(frame), trace);
    let events = &session.normalizer.output().events;
    for event in events.iter().skip(session.forwarded) {
        out.normalized(id, event);
    }
    session.forwarded = events.len();
}

fn put_str(object: &mut Map<String, Value>, key: &str, value: Option<&str>) {
    if let Some(value) = value {
        object.insert(key.to_owned(), Value::from(value));
    }
}

fn text_input(text: &str) -> Value {
    json!({"type": "text", "text": text})
}

/// The `thread/resume` params of the seed's example.
fn resume_params(thread: &str, params: &SessionParams) -> Value {
    let mut object = Map::new();
    object.insert("threadId".to_owned(), Value::from(thread));
    put_str(&mut object, "developerInstructions", params.system_prompt.as_deref());
    object.insert("approvalPolicy".to_owned(), params.approval_policy.clone());
    object.insert("sandbox".to_owned(), params.sandbox.clone());
    Value::Object(object)
}

/// A command as one line: a string as is, an argv array joined with POSIX
/// quoting (the legacy `execCommandApproval`).
fn command_line(command: Option<&Value>) -> String {
    match command {
        Some(Value::String(command)) => command.clone(),
        Some(Value::Array(words)) => {
            let words: Vec<&str> = words.iter().filter_map(Value::as_str).collect();
            shlex::try_join(words.iter().copied()).unwrap_or_else(|_| words.join(" "))
        }
        _ => String::new(),
    }
}

/// The `turn/start` input of a `send` step: the text, then each attachment
/// as the item type the seed lists (`image` by URL, `localImage`, `file`).
pub fn turn_input(step: &Map<String, Value>, trace: &mut dyn RuleTrace) -> Result<Value, String> {
    let mut input = vec![text_input(required_str(step, "text")?)];
    let list = |key: &str| step.get(key).and_then(Value::as_array).cloned().unwrap_or_default();
    let (images, local_images, files) = (list("images"), list("localImages"), list("files"));
    if !(images.is_empty() && local_images.is_empty() && files.is_empty()) {
        trace.hit("session.codex.attachments");
    }
    for url in images {
        input.push(json!({"type": "image", "url": url}));
    }
    for path in local_images {
        input.push(json!({"type": "localImage", "path": path}));
    }
    for file in files {
        let file = file.as_object().ok_or("each of `files` must be {name, path}")?;
        input.push(json!({"type": "file", "name": file.get("name"), "path": file.get("path")}));
    }
    Ok(Value::Array(input))
}
