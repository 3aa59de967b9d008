//! Reference for the `tool-policy` suite: `{tool, command?, mode}` →
//! `{allowed, reason?}` under the seed's mode-aware tool policy.
//!
//! Planner mode (the default for any mode but `implementation`) follows the
//! seed's `isAllowed`: Read/Glob/Grep allowed, Write/Edit denied ("Writes
//! denied"), then the command is trimmed and checked against the deny list
//! ("Denied"), the domain-CLI write list and the read-only allowlist, else
//! "Not in allowlist". Implementation mode has the same shape with the
//! seed's implementation sets: `IMPL_ALLOWED_TOOLS` allowed outright, then
//! `IMPL_DENIED`, the planner's allow lists and `IMPL_ALLOWED_SHELL`. Deny
//! patterns match anywhere in the command.

pub mod rule_ids;
pub mod rules;

pub use rule_ids::RULES;

use crate::suite_api::{RuleTrace, Scope};
use crate::suites::js::trim;
use rules::{
    ALLOWED_SHELL, ALLOWED_WRITE, DENIED_SHELL, IMPL_ALLOWED_SHELL, IMPL_ALLOWED_TOOLS, IMPL_DENIED,
    PLANNER_READ_TOOLS, PLANNER_WRITE_TOOLS,
};
use serde_json::{Map, Value};

/// A session mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Read-only planning (the default).
    Planner,
    /// Coding with safety rails.
    Implementation,
}

/// A policy decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// Whether the call may run.
    pub allowed: bool,
    /// Why not, when denied.
    pub reason: Option<&'static str>,
}

const ALLOW: Decision = Decision { allowed: true, reason: None };

fn deny(reason: &'static str) -> Decision {
    Decision { allowed: false, reason: Some(reason) }
}

/// The seed's `isAllowed(toolName, command, mode)`.
pub fn is_allowed(tool: &str, command: &str, mode: Mode, trace: &mut dyn RuleTrace) -> Decision {
    let implementation = mode == Mode::Implementation;
    if tool != "Bash" {
        if implementation && IMPL_ALLOWED_TOOLS.contains(&tool) {
            trace.hit("policy.implementation.tool-allowed");
            return ALLOW;
        }
        if !implementation && PLANNER_READ_TOOLS.contains(&tool) {
            trace.hit("policy.planner.read-tool-allowed");
            return ALLOW;
        }
        if !implementation && PLANNER_WRITE_TOOLS.contains(&tool) {
            trace.hit("policy.planner.write-tool-denied");
            return deny("Writes denied");
        }
    }
    let command = trim(command);
    let denied = if implementation { &IMPL_DENIED } else { &DENIED_SHELL };
    if denied.any_match(command) {
        trace.hit(if implementation { "policy.implementation.denied" } else { "policy.planner.denied" });
        if !implementation && !DENIED_SHELL.matches_at_start(command) {
            // The seed's planner list is anchored (`^rm\s`): read literally
            // it would not deny this command. The reference keeps the safer
            // reading of the seed's own security lesson.
            trace.hit("policy.planner.deny-anywhere");
        }
        return deny("Denied");
    }
    if ALLOWED_WRITE.any_match(command) {
        trace.hit("policy.allowed-write");
        return ALLOW;
    }
    if ALLOWED_SHELL.any_match(command) {
        trace.hit("policy.allowed-shell");
        return ALLOW;
    }
    if implementation && IMPL_ALLOWED_SHELL.any_match(command) {
        trace.hit("policy.implementation.allowed-shell");
        return ALLOW;
    }
    trace.hit("policy.not-in-allowlist");
    deny("Not in allowlist")
}

/// The suite reference.
pub fn run(input: &Value, trace: &mut dyn RuleTrace) -> Result<Value, String> {
    let input = input.as_object().ok_or("the input is not a JSON object")?;
    let tool = input.get("tool").and_then(Value::as_str).ok_or("`tool` must be a string")?;
    let command = match input.get("command") {
        None | Some(Value::Null) => "",
        Some(Value::String(command)) => command,
        Some(_) => return Err("`command` must be a string".to_owned()),
    };
    let mode = match input.get("mode").and_then(Value::as_str) {
        Some("implementation") => Mode::Implementation,
        Some("planner") => Mode::Planner,
        _ => {
            trace.hit("policy.mode.default-planner");
            Mode::Planner
        }
    };
    // Provenance: the mode concerns the case; the step of the policy that
    // matched decides `allowed` and `reason`.
    trace.emitted(Scope::Case);
    let decision = is_allowed(tool, command, mode, trace);
    trace.emitted(Scope::Pointer("/allowed"));
    trace.also(Scope::Pointer("/reason"));
    let mut output = Map::new();
    output.insert("allowed".to_owned(), Value::Bool(decision.allowed));
    if let Some(reason) = decision.reason {
        output.insert("reason".to_owned(), Value::from(reason));
    }
    Ok(Value::Object(output))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite_api::NoTrace;

    fn check(tool: &str, command: &str, mode: Mode) -> Decision {
        is_allowed(tool, command, mode, &mut NoTrace)
    }

    #[test]
    fn every_builtin_pattern_compiles() {
        for patterns in [&ALLOWED_SHELL, &DENIED_SHELL, &ALLOWED_WRITE, &IMPL_ALLOWED_SHELL, &IMPL_DENIED] {
            assert!(!patterns.any_match("\u{0}"));
        }
    }

    #[test]
    fn deny_patterns_match_anywhere() {
        assert_eq!(check("Bash", "echo ok; rm -rf /", Mode::Planner), deny("Denied"));
        assert_eq!(check("Bash", "echo ok; rm -rf /", Mode::Implementation), deny("Denied"));
        assert_eq!(check("Bash", "rm -rf build", Mode::Implementation), ALLOW);
        assert_eq!(check("Bash", "git push origin main --force", Mode::Implementation), deny("Denied"));
        assert_eq!(check("Bash", "dd if=/dev/zero of=/dev/sda", Mode::Implementation), deny("Denied"));
    }

    #[test]
    fn word_boundaries_are_ascii_like_javascript() {
        // `é` is not a JavaScript word character, so `\bsudo` matches after it.
        assert_eq!(check("Bash", "ésudo ls", Mode::Implementation), deny("Denied"));
        assert_eq!(check("Bash", "pseudo ls", Mode::Implementation), deny("Not in allowlist"));
    }
}
