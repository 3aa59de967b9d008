//! What every implementation shares: the [`Implementation`] trait, the case
//! it is handed, what it made of the case, and who it is.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How an implementation is run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ImplementationKind {
    /// The built-in reference, in-process.
    Reference,
    /// An external program over the subprocess protocol.
    Subprocess,
}

/// Who produced the outputs of a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImplementationInfo {
    /// Name (e.g. `conform-reference`, or what the adapter's hello says).
    pub name: String,
    /// Version string.
    pub version: String,
    /// Implementation language.
    pub language: String,
    /// How it ran.
    pub kind: ImplementationKind,
    /// The command line, for subprocess implementations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
}

/// One case handed to an implementation.
#[derive(Clone, Copy, Debug)]
pub struct CaseRequest<'a> {
    /// Suite name, e.g. `chat`.
    pub suite: &'a str,
    /// Fixture name, e.g. `claude-tool-use-result-pair`.
    pub fixture: &'a str,
    /// The fixture's version.
    pub fixture_version: u32,
    /// The case's input part.
    pub input: &'a Value,
}

/// What an implementation made of one case.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// It produced an output, to be compared with the expectation.
    Output(Value),
    /// It reported that it could not produce an output.
    Error(String),
    /// It declined the case, with a reason.
    Skipped(String),
    /// It does not implement this suite or fixtureVersion.
    Unsupported(String),
    /// The process died while the case was in flight.
    Crash(String),
    /// No reply within the time limit.
    Timeout(String),
    /// It broke the protocol (garbage, wrong id, double reply, …).
    ProtocolError(String),
}

impl Outcome {
    /// The message or reason the outcome carries (all but an output do).
    pub fn message(&self) -> Option<&str> {
        match self {
            Outcome::Output(_) => None,
            Outcome::Error(message)
            | Outcome::Skipped(message)
            | Outcome::Unsupported(message)
            | Outcome::Crash(message)
            | Outcome::Timeout(message)
            | Outcome::ProtocolError(message) => Some(message),
        }
    }

    /// The message or reason the outcome carries, taken out of it.
    pub fn into_message(self) -> Option<String> {
        match self {
            Outcome::Output(_) => None,
            Outcome::Error(message)
            | Outcome::Skipped(message)
            | Outcome::Unsupported(message)
            | Outcome::Crash(message)
            | Outcome::Timeout(message)
            | Outcome::ProtocolError(message) => Some(message),
        }
    }
}

/// An outcome plus what the implementation wrote to stderr meanwhile.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseRun {
    /// The outcome.
    pub outcome: Outcome,
    /// The tail of stderr captured while the case ran, if any.
    pub stderr: Option<String>,
}

impl From<Outcome> for CaseRun {
    fn from(outcome: Outcome) -> Self {
        CaseRun { outcome, stderr: None }
    }
}

/// A verdict an implementation earned on a case after the case was judged,
/// such as a second reply to it. The run applies it to that case's report.
#[derive(Clone, Debug, PartialEq)]
pub struct LateOutcome {
    /// Suite of the case.
    pub suite: String,
    /// Fixture name of the case.
    pub fixture: String,
    /// The outcome that replaces the case's verdict.
    pub outcome: Outcome,
}

/// Something that can run cases. Implementations are shared by the worker
/// threads of a run, so `run_case` takes `&self`.
pub trait Implementation: Send + Sync {
    /// Who this is (known after any start-up handshake).
    fn info(&self) -> ImplementationInfo;

    /// Runs one case.
    fn run_case(&self, request: &CaseRequest<'_>) -> CaseRun;

    /// The fixtureVersions of `suite` the implementation declares it judges:
    /// `Some(list)` when it declares them (an empty list when it does not
    /// implement the suite), `None` when it says nothing up front (it may
    /// still answer `unsupported` per case).
    fn declared_versions(&self, suite: &str) -> Option<Vec<u32>> {
        let _ = suite;
        None
    }

    /// Called once when the run is over (stop child processes, …).
    fn finish(&self) {}

    /// Whether the implementation can run no more cases at all (its restart
    /// budget is spent): every further case would only be `not run`.
    fn exhausted(&self) -> bool {
        false
    }

    /// Faults attributed to cases after they were judged, collected up to
    /// [`Implementation::finish`]. Each call takes them.
    fn late_outcomes(&self) -> Vec<LateOutcome> {
        Vec::new()
    }
}
