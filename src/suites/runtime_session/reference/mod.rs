//! Reference for the `runtime-session` suite: an adapter (the seed's
//! `createSession` / `sendMessage` / `stopTurn` / `resumeSession` /
//! `archiveSession` interface) replayed from a script of user actions and
//! what the runtime answers.
//!
//! Stages, one module each: [`session`] (parameters, step output, approval
//! decisions, capabilities), [`codex`] (the app-server adapter over JSON-RPC)
//! and [`claude`] (the `query()` adapter). The events come from the
//! `codex-app-server-events` and `claude-events` normalizers, so the two
//! suites never disagree about a frame.

pub mod claude;
pub mod codex;
pub mod rule_ids;
pub mod session;

pub use rule_ids::RULES;

use crate::suite_api::{RuleTrace, Scope};
use serde_json::{Map, Value};
use session::{SessionParams, StepOutput};

/// The user actions a script may contain.
pub const ACTIONS: [&str; 8] = ["create", "send", "steer", "stop", "resume", "fork", "archive", "answer"];

/// The adapter under test, by runtime.
#[derive(Debug)]
enum Adapter {
    Codex(codex::CodexAdapter),
    Claude(claude::ClaudeAdapter),
}

/// Replays a script: `input` is `{runtime, clientInfo?, steps: [step
/// without its expected* members]}`; the result is `{steps: [{expectedWrites,
/// expectedEvents}], expectedState: {sessions, capabilities}}`.
pub fn run(input: &Value, trace: &mut dyn RuleTrace) -> Result<Value, String> {
    let steps = input.get("steps").and_then(Value::as_array).ok_or("the input needs a `steps` array")?;
    let mut replay = Replay::new(input)?;
    replay.feed(steps, trace)?;
    Ok(replay.finish())
}

/// A script replayed step by step: feeding the steps in pieces gives what
/// feeding them at once gives, and a step's expectations never depend on
/// the steps after it (a live adapter cannot see ahead).
#[derive(Debug)]
pub struct Replay {
    adapter: Adapter,
    /// Session ids in the order the script first names them.
    mentioned: Vec<String>,
    expectations: Vec<Value>,
}

impl Replay {
    /// An adapter for the input's `runtime` (and `clientInfo`), before any
    /// step.
    pub fn new(input: &Value) -> Result<Replay, String> {
        let input = input.as_object().ok_or("the input is not a JSON object")?;
        let adapter = match input.get("runtime").and_then(Value::as_str) {
            Some("codex") => {
                let client_info = input.get("clientInfo").cloned().unwrap_or_else(codex::default_client_info);
                Adapter::Codex(codex::CodexAdapter::new(client_info))
            }
            Some("claude") => Adapter::Claude(claude::ClaudeAdapter::default()),
            _ => return Err("`runtime` must be \"codex\" or \"claude\"".to_owned()),
        };
        Ok(Replay { adapter, mentioned: Vec::new(), expectations: Vec::new() })
    }

    /// Replays the next steps.
    pub fn feed(&mut self, steps: &[Value], trace: &mut dyn RuleTrace) -> Result<(), String> {
        for step in steps {
            let index = self.expectations.len();
            let step = step.as_object().ok_or_else(|| format!("steps[{index}] is not an object"))?;
            for key in ["session", "from"] {
                let id = step.get(key).and_then(Value::as_str);
                if let Some(id) = id.filter(|id| !self.mentioned.iter().any(|known| known == id)) {
                    self.mentioned.push(id.to_owned());
                }
            }
            let mut out = StepOutput::default();
            run_step(&mut self.adapter, step, &mut out, trace)
                .map_err(|problem| format!("steps[{index}]: {problem}"))?;
            let mut expected = Map::new();
            expected.insert("expectedWrites".to_owned(), Value::Array(out.writes));
            expected.insert("expectedEvents".to_owned(), Value::Array(out.events));
            self.expectations.push(Value::Object(expected));
            // Provenance: the step's rules decided its writes and events.
            trace.emitted(Scope::Items { member: "steps", start: index, end: index + 1 });
            trace.also(Scope::Pointer("/expectedState"));
        }
        Ok(())
    }

    /// `{steps, expectedState}` after the steps fed so far.
    pub fn finish(self) -> Value {
        let mut sessions = Map::new();
        for id in &self.mentioned {
            let info = match &self.adapter {
                Adapter::Codex(codex) => codex.get_session(id),
                Adapter::Claude(claude) => claude.get_session(id),
            };
            sessions.insert(id.clone(), info);
        }
        let capabilities = match &self.adapter {
            Adapter::Codex(codex) => codex.capabilities(),
            Adapter::Claude(claude) => claude.capabilities(),
        };
        let mut state = Map::new();
        state.insert("sessions".to_owned(), Value::Object(sessions));
        state.insert("capabilities".to_owned(), capabilities);
        let mut output = Map::new();
        output.insert("steps".to_owned(), Value::Array(self.expectations));
        output.insert("expectedState".to_owned(), Value::Object(state));
        Value::Object(output)
    }
}

/// The step kinds: a user action (`do`), or what the runtime did.
const STEP_KINDS: [&str; 5] = ["do", "receive", "canUseTool", "end", "exit"];

fn run_step(
    adapter: &mut Adapter,
    step: &Map<String, Value>,
    out: &mut StepOutput,
    trace: &mut dyn RuleTrace,
) -> Result<(), String> {
    let kinds: Vec<&str> = STEP_KINDS.iter().copied().filter(|kind| step.contains_key(*kind)).collect();
    let [kind] = kinds.as_slice() else {
        return Err(format!("a step has exactly one of {}", STEP_KINDS.join(", ")));
    };
    let session = step.get("session").and_then(Value::as_str);
    match (*kind, adapter) {
        ("do", adapter) => {
            let action = step.get("do").and_then(Value::as_str).unwrap_or("");
            let session = session.ok_or("an action needs a string `session`")?;
            action_step(adapter, action, session, step, out, trace)
        }
        ("receive", Adapter::Codex(codex)) => {
            codex.receive(&step["receive"], out, trace);
            Ok(())
        }
        ("receive", Adapter::Claude(claude)) => {
            claude.receive(session.ok_or("a claude step needs a string `session`")?, &step["receive"], out, trace);
            Ok(())
        }
        ("canUseTool", Adapter::Claude(claude)) => {
            let call = step["canUseTool"].as_object().ok_or("`canUseTool` must be {toolName, input}")?;
            claude.can_use_tool(session.ok_or("a claude step needs a string `session`")?, call, out, trace)
        }
        ("end", Adapter::Claude(claude)) => {
            claude.end(session.ok_or("a claude step needs a string `session`")?, &step["end"], out, trace)
        }
        ("exit", Adapter::Codex(codex)) => {
            codex.exit(Some(&step["exit"]).filter(|code| !code.is_null()), out, trace);
            Ok(())
        }
        (kind, _) => Err(format!("`{kind}` steps belong to the other runtime")),
    }
}

fn action_step(
    adapter: &mut Adapter,
    action: &str,
    session: &str,
    step: &Map<String, Value>,
    out: &mut StepOutput,
    trace: &mut dyn RuleTrace,
) -> Result<(), String> {
    let params = || SessionParams::read(step.get("params"));
    let from = || session::required_str(step, "from");
    match (action, adapter) {
        ("create", Adapter::Codex(codex)) => codex.create(session, params()?, out, trace),
        ("create", Adapter::Claude(claude)) => claude.create(session, params()?, out, trace),
        ("send", Adapter::Codex(codex)) => {
            let input = codex::turn_input(step, trace)?;
            codex.send(session, input, out, trace);
        }
        ("send", Adapter::Claude(claude)) => claude.send(session, step, out, trace)?,
        ("steer", Adapter::Codex(codex)) => codex.steer(session, session::required_str(step, "text")?, out, trace),
        ("steer", Adapter::Claude(_)) => {
            trace.hit("session.claude.steer-unsupported");
            out.error(session, "the claude runtime cannot steer a running turn", None);
        }
        ("stop", Adapter::Codex(codex)) => codex.stop(session, out, trace),
        ("stop", Adapter::Claude(claude)) => claude.stop(session, out, trace),
        ("resume", Adapter::Codex(codex)) => {
            let provider = step.get("providerSessionId").and_then(Value::as_str);
            codex.resume(session, provider, params()?, out, trace);
        }
        ("resume", Adapter::Claude(claude)) => claude.resume(session, step, params()?, out, trace),
        ("fork", Adapter::Codex(codex)) => {
            let params = step.get("params").map(|_| params()).transpose()?;
            codex.fork(session, from()?, params, out, trace);
        }
        ("fork", Adapter::Claude(claude)) => {
            let params = step.get("params").map(|_| params()).transpose()?;
            claude.fork(session, from()?, params, out, trace);
        }
        ("archive", Adapter::Codex(codex)) => codex.archive(session, out, trace),
        ("archive", Adapter::Claude(claude)) => claude.archive(session, out, trace),
        ("answer", Adapter::Codex(codex)) => codex.answer(session, step, out, trace)?,
        ("answer", Adapter::Claude(claude)) => claude.answer(session, step, out, trace)?,
        (other, _) => return Err(format!("unknown action `{other}` (known: {})", ACTIONS.join(", "))),
    }
    Ok(())
}
