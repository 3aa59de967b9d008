//! Command-line behaviour of the `conform` binary: the core commands, conventions (pipes, colour, help, exit codes), hostile inputs and signals, fixture versions and upgrades, regen, reduce, coverage, tracking in CI, explore, and the checks that keep the documentation and the fixture tree honest.
//!
//! One test crate (one link step) holding one module per topic.

#[path = "../common/mod.rs"]
mod common;

#[cfg(unix)]
mod bounded_readers;
mod canonical_inputs;
mod cli_conventions;
mod cli_core;
mod command_length;
mod coverage_report;
mod decode_outside_schema;
mod docs_links;
mod explore;
#[cfg(target_os = "linux")]
mod explore_time;
#[cfg(unix)]
mod fixture_links;
mod fixture_versions;
mod hostile_inputs;
mod in_contract;
mod interrupts;
mod merge_shards;
mod own_fixtures;
mod progress;
mod reduce_cli;
mod reduce_fault;
mod regen_check;
mod report_writes;
mod rule_lists;
mod schema_versions;
mod seed_items;
mod source_formatting;
mod tracking;
mod trial_harness;
mod upgrade;

fn main() {
    #[allow(unused_mut)]
    let mut modules: Vec<fn() -> Vec<libtest_mimic::Trial>> = vec![
        canonical_inputs::trials,
        cli_conventions::trials,
        cli_core::trials,
        command_length::trials,
        coverage_report::trials,
        decode_outside_schema::trials,
        docs_links::trials,
        explore::trials,
        fixture_versions::trials,
        hostile_inputs::trials,
        in_contract::trials,
        merge_shards::trials,
        own_fixtures::trials,
        progress::trials,
        reduce_cli::trials,
        reduce_fault::trials,
        regen_check::trials,
        report_writes::trials,
        rule_lists::trials,
        schema_versions::trials,
        seed_items::trials,
        source_formatting::trials,
        tracking::trials,
        trial_harness::trials,
        upgrade::trials,
    ];
    #[cfg(unix)]
    modules.push(interrupts::trials);
    #[cfg(unix)]
    modules.push(bounded_readers::trials);
    #[cfg(unix)]
    modules.push(fixture_links::trials);
    #[cfg(target_os = "linux")]
    modules.push(explore_time::trials);
    if std::env::var_os(trial_harness::DEMO).is_some() {
        modules = vec![trial_harness::demo_trials];
    }
    common::harness::run(&modules);
}
