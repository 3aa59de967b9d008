//! The built-in reference, run in-process.

use super::{CaseRequest, CaseRun, Implementation, ImplementationInfo, ImplementationKind, Outcome};
use crate::reference::NoTrace;
use crate::suite;
use std::panic::{AssertUnwindSafe, catch_unwind};

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
        let Some(suite) = suite::find(request.suite) else {
            return Outcome::Unsupported(format!("unknown suite `{}`", request.suite)).into();
        };
        let Some(reference) = suite.reference() else {
            return Outcome::Error(format!("no reference implementation for suite {} yet", suite.name())).into();
        };
        // References are meant to be total; if one panics anyway, that is a
        // crash of this implementation on this case, not of the harness.
        match catch_unwind(AssertUnwindSafe(|| reference(request.input, &mut NoTrace))) {
            Ok(Ok(output)) => Outcome::Output(output).into(),
            Ok(Err(message)) => Outcome::Error(message).into(),
            Err(panic) => Outcome::Crash(format!("the reference panicked: {}", panic_message(&*panic))).into(),
        }
    }
}

/// The message of a caught panic payload.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "(no message)".to_owned()
    }
}
