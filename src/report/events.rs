//! What a run tells its consumers while it goes: the runner emits
//! [`RunEvent`]s, and every [`RunConsumer`] (the progress display, the
//! streaming JSON writer, a library user's own) sees each one, in order, on
//! the thread that called [`run`](crate::run::run).
//!
//! The runner keeps no consumer's state and no consumer drives the run: a
//! consumer that can fail (a file writer) keeps its first error for its
//! owner to ask about once the run is over.

use super::{CaseReport, RunReport};
use crate::fixture::Notice;
use crate::implementation::ImplementationInfo;
use std::time::Duration;

/// One thing that happened in a run.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum RunEvent<'a> {
    /// The run starts: what it covers and who is judged.
    RunStarted {
        /// Cases selected (the run may stop earlier when interrupted).
        cases: usize,
        /// The implementation judged.
        implementation: &'a ImplementationInfo,
        /// When the run started (RFC 3339, UTC), as the report records it.
        started_at: &'a str,
    },
    /// A worker started on a case (in the order workers pick cases up:
    /// discovery order, except for a few fixtures far larger than the rest,
    /// which start first).
    CaseStarted {
        /// The case's position in the run (0-based, discovery order).
        index: usize,
        /// Its id, `suite/name`.
        id: &'a str,
    },
    /// A case has its final report: judged, its values within the per-case
    /// and per-run caps, a baseline applied. Cases finish in discovery
    /// order: one that was judged early waits for those before it.
    CaseFinished {
        /// The case's position in the run.
        index: usize,
        /// Its report.
        case: &'a CaseReport,
        /// What reading its fixture gave notice of (a byte order mark,
        /// CRLF line endings, a version newer than the tree's); the report
        /// lists these among its notices.
        notices: &'a [Notice],
    },
    /// A case finished earlier got another verdict after every case ran (a
    /// fault the implementation attributed to it late, such as a second
    /// reply): this report replaces the one its `CaseFinished` carried.
    CaseAmended {
        /// The case's position in the run.
        index: usize,
        /// Its new report.
        case: &'a CaseReport,
    },
    /// Nothing finished for a while (sent about ten times a second while
    /// cases run), so time-based displays can redraw.
    Tick {
        /// Time since the run started.
        elapsed: Duration,
    },
    /// The run is over. The report has the run's counts, clusters, notices
    /// and baseline section; its `cases` are those the run was asked to
    /// keep (see [`Keep`](super::Keep)).
    RunFinished {
        /// The report.
        report: &'a RunReport,
    },
}

/// Something that watches a run: it is handed every [`RunEvent`] in turn.
///
/// ```
/// use conform::report::{RunConsumer, RunEvent};
///
/// /// Counts the cases that did not pass, as they finish.
/// #[derive(Default)]
/// struct FailureCounter(usize);
///
/// impl RunConsumer for FailureCounter {
///     fn handle(&mut self, event: &RunEvent<'_>) {
///         if let RunEvent::CaseFinished { case, .. } = event
///             && case.verdict != conform::report::Verdict::Pass
///         {
///             self.0 += 1;
///         }
///     }
/// }
/// ```
pub trait RunConsumer {
    /// Sees one event. It runs on the thread that runs the run, between
    /// cases: a slow consumer delays the next events, not the workers.
    fn handle(&mut self, event: &RunEvent<'_>);
}
