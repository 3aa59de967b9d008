//! The built-in reference, run in-process.

use super::{CaseRequest, CaseRun, Implementation, ImplementationInfo, ImplementationKind, Outcome};
use crate::suite::NoTrace;
use crate::suite::{ReferenceFailure, call_reference};
use crate::suites;

/// Runs each suite's reference function.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReferenceImplementation;

impl Implementation for ReferenceImplementation {
    fn info(&self) -> ImplementationInfo {
        ImplementationInfo {
            name: "conform-reference".to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            language: "rust".to_owned(),
            kind: ImplementationKind::Reference,
            command: None,
        }
    }

    fn run_case(&self, request: &CaseRequest<'_>) -> CaseRun {
        let Some(suite) = suites::find(request.suite) else {
            return Outcome::Unsupported(format!("unknown suite `{}`", request.suite)).into();
        };
        let Some(reference) = suite.reference() else {
            return Outcome::Error(format!("no reference implementation for suite {} yet", suite.name())).into();
        };
        // A reference that panics anyway crashed on this case, like any
        // other implementation would; the harness goes on.
        match call_reference(reference, request.input, &mut NoTrace) {
            Ok(output) => Outcome::Output(output).into(),
            Err(ReferenceFailure::Rejected(message)) => Outcome::Error(message).into(),
            Err(panicked @ ReferenceFailure::Panicked(_)) => Outcome::Crash(panicked.to_string()).into(),
        }
    }
}
