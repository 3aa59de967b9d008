//! Command-line glue: clap types, one file per subcommand, and the mapping of
//! outcomes to exit codes. This is the only place that knows about clap and
//! anyhow; the library sees validated values only.

mod adapter;
mod baseline;
mod capture;
mod check_adapter;
mod compare;
mod coverage;
mod decode;
mod fmt;
mod impl_cmd;
mod interrupt;
mod list;
mod reduce;
mod regen;
mod report;
mod review;
mod run;
mod validate;

use clap::{Parser, Subcommand};
use conform::error::exit_code;
use conform::fixture::Notice;

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
    /// Report which decode rules a fixture set exercises and rank candidate captures.
    Coverage(coverage::CoverageArgs),
    /// Known-failure baselines: write one from a run, or check one.
    Baseline(baseline::BaselineArgs),
    /// Compare two JSON reports: regressions, fixes, new and removed fixtures.
    Compare(compare::CompareArgs),
    /// Merge shard reports, or render reports as HTML.
    Report(report::ReportArgs),
    /// Serve the reference implementations over the subprocess protocol on stdin/stdout.
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
                    eprintln!("error: {err:#}");
                    exit_code::CANNOT_JUDGE
                }
            },
        );
    match worker.map(|handle| handle.join()) {
        Ok(Ok(code)) => code,
        Ok(Err(_)) => {
            eprintln!("error: conform stopped unexpectedly (a bug; please report it)");
            exit_code::CANNOT_JUDGE
        }
        Err(err) => {
            eprintln!("error: cannot start: {err}");
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
