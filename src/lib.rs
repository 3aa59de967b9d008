//! conform: a golden-fixture conformance harness for agent-chat decoders.
//!
//! The pipeline, one module per stage:
//!
//! ```text
//! discover ─▶ load ─▶ validate ─▶ run ─▶ compare ─▶ report
//! (fixture)  (fixture) (validate)  (run,          (compare) (report)
//!                                   implementation)
//! ```
//!
//! * [`fixture`] finds fixture files (one folder per suite) and loads them,
//!   checking each against its suite's embedded JSON Schema ([`schema`]);
//!   [`validate`] is that check over a whole selection.
//! * [`run`] hands each case's input to an [`implementation`] (the in-process
//!   reference of a suite or an external program) on parallel workers.
//! * [`compare`] judges outputs by canonical equality ([`json`] writes the
//!   canonical bytes) and describes mismatches by pointer and line diff.
//! * [`report`] turns the one result model into terminal, JSON, JUnit,
//!   Markdown and HTML output; [`baseline`] reclassifies known failures and
//!   [`report_diff`] compares two runs.
//!
//! [`suite_api`] is the contract every suite fulfils; [`suites`] holds the suites,
//! one folder each (its `Suite` impl, reference, capture importers and docs),
//! and the registry that lists them.
//!
//! Around the pipeline: [`capture`] and [`redact`] turn live captures into
//! fixtures, [`regen`] recomputes expectations (the drift gate), [`reduce`]
//! shrinks failing cases, [`upgrade`] moves fixtures to a newer
//! fixtureVersion, [`coverage`] measures the decode rules a fixture set
//! reaches, [`explore`] generates inputs from the fixtures and finds where
//! two implementations diverge, [`check_adapter`] smoke-tests an external implementation's
//! protocol, [`fmt`] writes fixtures in canonical form, and [`review`]
//! is how every proposed fixture reaches the tree (atomically, through
//! [`files`]). [`error`] holds the errors that stop a command and the exit
//! codes.
//!
//! The library never prints: every writer takes an `io::Write`, and the
//! `conform` binary decides what goes to stdout and stderr.
#![warn(missing_docs)]
#![warn(clippy::print_stdout, clippy::print_stderr)]

pub mod baseline;
pub mod capture;
pub mod check_adapter;
pub mod compare;
pub mod coverage;
pub mod error;
pub mod explore;
pub mod files;
pub mod fixture;
pub mod fmt;
pub mod implementation;
pub mod json;
pub mod redact;
pub mod reduce;
pub mod regen;
pub mod report;
pub mod report_diff;
pub mod review;
pub mod run;
pub mod schema;
pub mod suite_api;
pub mod suites;
pub mod upgrade;
pub mod validate;
pub mod workers;
