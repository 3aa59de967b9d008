//! Command-line glue: clap types, one file per subcommand, the argument
//! groups several commands share ([`selection`], [`implementation`]), and
//! the mapping of outcomes to exit codes ([`conform::error::exit_code`]).
//! This is the only place that knows about clap and anyhow, and, with
//! `main.rs`, the only place that prints: results go to stdout; `note:`,
//! `warning:` and `error:` lines, `wrote PATH` and what a command wrote for
//! review go through the helpers at the end of this file.

mod adapter;
mod baseline;
mod capture;
mod check_adapter;
mod compare;
mod coverage;
mod decode;
mod fmt;
mod implementation;
mod interrupt;
mod list;
mod reduce;
mod regen;
mod report;
mod review;
mod run;
mod selection;
mod upgrade;
mod validate;

use clap::{Parser, Subcommand};
use conform::error::exit_code;
use conform::fixture::Notice;
use conform::review::Written;
use std::fmt::Display;

/// Stack size of the thread that runs a command: deep fixtures recurse.
const MAIN_STACK_BYTES: usize = 512 * 1024 * 1024;

/// Golden-fixture conformance harness for agent-chat decoders.
#[derive(Debug, Parser)]
#[command(name = "conform", version, about, long_about = None, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run fixtures through an implementation and report verdicts.
    Run(run::RunArgs),
    /// Print the id (`suite/name`) of every fixture found.
    List(list::ListArgs),
    /// Check fixture documents: JSON syntax, schema, name and version.
    Validate(validate::ValidateArgs),
    /// Rewrite (or check) fixture files in canonical form.
    Fmt(fmt::FmtArgs),
    /// Print the reference's expected output for wire input.
    Decode(decode::DecodeArgs),
    /// Turn live captures into fixtures (redacted, written for review).
    Capture(capture::CaptureArgs),
    /// List, accept or reject pending `*.json.new` fixtures.
    Review(review::ReviewArgs),
    /// Recompute expected parts with the reference; `--check` is the drift gate.
    Regen(regen::RegenArgs),
    /// Shrink a failing fixture to the smallest input that still fails the same way.
    Reduce(reduce::ReduceArgs),
    /// Rewrite fixtures as documents of a newer fixtureVersion, for review.
    Upgrade(upgrade::UpgradeArgs),
    /// Report which decode rules a fixture set exercises and rank candidate captures.
    Coverage(coverage::CoverageArgs),
    /// Write a known-failures baseline from a run, or check one.
    Baseline(baseline::BaselineArgs),
    /// Compare two JSON reports: regressions, fixes, new and removed fixtures.
    Compare(compare::CompareArgs),
    /// Merge shard reports, or render reports as HTML.
    Report(report::ReportArgs),
    /// Serve the reference implementations over the subprocess protocol (one-shot when CONFORM_SUITE is set).
    Adapter(adapter::AdapterArgs),
    /// Smoke-test an external implementation's protocol and explain each problem.
    CheckAdapter(check_adapter::CheckAdapterArgs),
}

/// Parses the command line, runs the command on a large-stack thread and
/// returns the exit code.
pub fn main() -> i32 {
    let cli = Cli::parse();
    let worker =
        std::thread::Builder::new().name("conform".to_owned()).stack_size(MAIN_STACK_BYTES).spawn(
            move || match execute(cli.command) {
                Ok(code) => code,
                Err(err) => {
                    error(format!("{err:#}"));
                    exit_code::CANNOT_JUDGE
                }
            },
        );
    match worker.map(|handle| handle.join()) {
        Ok(Ok(code)) => code,
        Ok(Err(_)) => {
            error("conform stopped unexpectedly (a bug; please report it)");
            exit_code::CANNOT_JUDGE
        }
        Err(err) => {
            error(format!("cannot start: {err}"));
            exit_code::CANNOT_JUDGE
        }
    }
}

fn execute(command: Command) -> anyhow::Result<i32> {
    match command {
        Command::Run(args) => run::execute(args),
        Command::List(args) => list::execute(args),
        Command::Validate(args) => validate::execute(args),
        Command::Fmt(args) => fmt::execute(args),
        Command::Decode(args) => decode::execute(args),
        Command::Capture(args) => capture::execute(args),
        Command::Review(args) => review::execute(args),
        Command::Regen(args) => regen::execute(args),
        Command::Reduce(args) => reduce::execute(args),
        Command::Upgrade(args) => upgrade::execute(args),
        Command::Coverage(args) => coverage::execute(args),
        Command::Baseline(args) => baseline::execute(args),
        Command::Compare(args) => compare::execute(args),
        Command::Report(args) => report::execute(args),
        Command::Adapter(args) => adapter::execute(args),
        Command::CheckAdapter(args) => check_adapter::execute(args),
    }
}

/// Prints corpus notices to stderr, one line each.
fn print_notices(notices: &[Notice]) {
    for notice in notices {
        eprintln!("{notice}");
    }
}

/// Prints `note: …` to stderr: something was skipped on purpose.
fn note(message: impl Display) {
    print_notices(&[Notice::note(message.to_string())]);
}

/// Prints `warning: …` to stderr: something looks wrong, the command goes on.
fn warning(message: impl Display) {
    print_notices(&[Notice::warning(message.to_string())]);
}

/// Prints `error: …` to stderr: something keeps the command from judging.
fn error(message: impl Display) {
    print_notices(&[Notice::error(message.to_string())]);
}

/// Prints `wrote PATH` to stderr for each report file written.
fn print_wrote(paths: &[std::path::PathBuf]) {
    for path in paths {
        eprintln!("wrote {}", path.display());
    }
}

/// Prints what a fixture-producing command wrote: `pending`, `written` or
/// `unchanged`, the path, and `detail` (may be empty).
fn print_written(written: &Written, detail: &str) {
    let (verb, path) = match written {
        Written::Pending(path) => ("pending", path),
        Written::Accepted(path) => ("written", path),
        Written::Unchanged(path) => ("unchanged", path),
    };
    println!("{verb:<9} {}{detail}", path.display());
}
