//! Captures into fixtures: importing real and synthetic sessions and streams, redaction of planted secrets and its false positives.
//!
//! One test crate (one link step) holding one module per topic.

#[path = "../common/mod.rs"]
mod common;

mod capture_bounds;
mod capture_memory;
mod capture_session;
mod capture_streams;
mod redaction_false_positives;
mod redaction_planted;

fn main() {
    common::harness::run(&[
        capture_bounds::trials,
        capture_memory::trials,
        capture_session::trials,
        capture_streams::trials,
        redaction_false_positives::trials,
        redaction_planted::trials,
    ]);
}
