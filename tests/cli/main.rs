//! Command-line behaviour of the `conform` binary: the core commands, conventions (pipes, colour, help, exit codes), hostile inputs and signals, fixture versions and upgrades, regen, reduce, coverage, tracking in CI, explore, and the checks that keep the documentation and the fixture tree honest.
//!
//! One test crate (one link step) holding one module per topic.

#[path = "../common/mod.rs"]
mod common;

mod cli_conventions;
mod cli_core;
mod coverage_report;
mod decode_outside_schema;
mod docs_links;
mod explore;
mod fixture_versions;
mod hostile_inputs;
mod interrupts;
mod own_fixtures;
mod progress;
mod reduce_cli;
mod reduce_fault;
mod regen_check;
mod rule_lists;
mod schema_versions;
mod tracking;
mod upgrade;
