//! Implementations under test.
//!
//! An [`Implementation`] turns a case's input part into an output. The
//! reference runs in-process; an external decoder runs as a child process
//! (see [`subprocess`]). Both report faults as [`Outcome`]s, never as
//! errors of the harness. [`serve`] is the other end of the subprocess
//! protocol: the reference offered to the harness as an external program.

mod interface;
mod reference;
pub mod serve;
pub mod subprocess;

pub use interface::{
    CaseRequest, CaseRun, Implementation, ImplementationInfo, ImplementationKind, LateOutcome, Outcome,
};
pub use reference::{ReferenceImplementation, unimplemented_version};
