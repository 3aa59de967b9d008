//! The built-in reference, run in-process.

use super::{CaseRequest, CaseRun, Implementation, ImplementationInfo, ImplementationKind, Outcome};
use crate::suite_api::NoTrace;
use crate::suite_api::{ReferenceFailure, Suite, call_reference};
use crate::suites;

/// Runs each suite's reference function.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReferenceImplementation;

impl Implementation for ReferenceImplementation {
    fn declared_versions(&self, suite: &str) -> Option<Vec<u32>> {
        Some(crate::suites::find(suite).map(|suite| suite.reference_versions().to_vec()).unwrap_or_default())
    }

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
        if suite.reference().is_none() {
            return Outcome::Error(format!("no reference implementation for suite {} yet", suite.name())).into();
        }
        let Some(reference) = suite.reference_for(request.fixture_version) else {
            return Outcome::Unsupported(unimplemented_version(suite, request.fixture_version)).into();
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

/// Why the reference declines a version it does not implement.
pub fn unimplemented_version(suite: &dyn Suite, version: u32) -> String {
    let implemented: Vec<String> = suite.reference_versions().iter().map(u32::to_string).collect();
    format!(
        "the conform reference implements {} fixtureVersion {}, not {version}",
        suite.name(),
        implemented.join(", ")
    )
}
