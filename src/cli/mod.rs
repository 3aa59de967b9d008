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
mod explore;
mod fmt;
mod help;
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
use conform::files::ShowPath;
use conform::fixture::Notice;
use conform::review::Written;
use std::fmt::Display;

/// Stack size of the thread that runs a command: deep fixtures recurse.
const MAIN_STACK_BYTES: usize = 512 * 1024 * 1024;

/// Golden-fixture conformance harness for agent-chat decoders.
#[derive(Debug, Parser)]
#[command(name = "conform", version, about, long_about = None, max_term_width = 100, after_long_help = help::TOP)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Largest fixture file (or decode input) read; larger ones are refused unread (e.g. 512KiB, 64MiB).
    #[arg(long, global = true, value_name = "SIZE", env = "CONFORM_MAX_FIXTURE_SIZE", default_value = "64MiB",
          value_parser = implementation::size)]
    max_fixture_size: u64,
    /// Largest JSON report read back (compare, baseline write, report merge and html); larger ones are refused unread.
    #[arg(long, global = true, value_name = "SIZE", env = "CONFORM_MAX_REPORT_SIZE", default_value = "4GiB",
          value_parser = implementation::size)]
    max_report_size: u64,
    /// A fixture symlink to nothing is a note, not an error (a fixture linked into a missing folder then drops out of the run).
    #[arg(long, global = true)]
    allow_dangling_links: bool,
    /// Most JSON values one parsed document (fixture, reply, decode or adapter input) may hold.
    #[arg(long, global = true, value_name = "N", env = "CONFORM_MAX_JSON_VALUES",
          default_value_t = conform::json::DEFAULT_MAX_VALUES, value_parser = clap::value_parser!(u64).range(1..))]
    max_json_values: u64,
    /// Where the reports' rule links start (a URL such as https://github.com/ORG/REPO/blob/main/, or a path);
    /// by default they are paths from the repository root.
    #[arg(long, global = true, value_name = "URL-OR-PATH", env = "CONFORM_RULES_BASE", default_value = "")]
    rules_base: String,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run fixtures through an implementation and report verdicts.
    #[command(after_long_help = help::run())]
    Run(run::RunArgs),
    /// Print the id (`suite/name`) of every fixture found.
    #[command(after_long_help = help::list())]
    List(list::ListArgs),
    /// Check fixture documents: JSON syntax, schema, name and version.
    #[command(after_long_help = help::validate())]
    Validate(validate::ValidateArgs),
    /// Rewrite (or check) fixture files in canonical form.
    #[command(after_long_help = help::fmt())]
    Fmt(fmt::FmtArgs),
    /// Print the reference's expected output for wire input.
    #[command(after_long_help = help::decode())]
    Decode(decode::DecodeArgs),
    /// Turn live captures into fixtures (redacted, written for review).
    #[command(after_long_help = help::capture())]
    Capture(capture::CaptureArgs),
    /// List, accept or reject pending `*.json.new` fixtures.
    #[command(after_long_help = help::review())]
    Review(review::ReviewArgs),
    /// Recompute expected parts with the reference; `--check` is the drift gate.
    #[command(after_long_help = help::regen())]
    Regen(regen::RegenArgs),
    /// Generate inputs from the fixtures and find where an implementation diverges (a differential fuzzer).
    #[command(after_long_help = help::explore())]
    Explore(explore::ExploreArgs),
    /// Shrink a failing fixture to the smallest input that still fails the same way.
    #[command(after_long_help = help::reduce())]
    Reduce(reduce::ReduceArgs),
    /// Rewrite fixtures as documents of a newer fixtureVersion, for review.
    #[command(after_long_help = help::upgrade())]
    Upgrade(upgrade::UpgradeArgs),
    /// Report which decode rules a fixture set exercises and rank candidate captures.
    #[command(after_long_help = help::coverage())]
    Coverage(coverage::CoverageArgs),
    /// Write a known-failures baseline from a run, or check one.
    #[command(after_long_help = help::baseline())]
    Baseline(baseline::BaselineArgs),
    /// Compare two JSON reports: regressions, fixes, new and removed fixtures.
    #[command(after_long_help = help::compare())]
    Compare(compare::CompareArgs),
    /// Merge shard reports, or render reports as HTML.
    #[command(after_long_help = help::report())]
    Report(report::ReportArgs),
    /// Serve the reference implementations over the subprocess protocol (one-shot when CONFORM_SUITE is set).
    #[command(after_long_help = help::adapter())]
    Adapter(adapter::AdapterArgs),
    /// Smoke-test an external implementation's protocol and explain each problem.
    #[command(after_long_help = help::check_adapter())]
    CheckAdapter(check_adapter::CheckAdapterArgs),
}

/// Parses the command line, runs the command on a large-stack thread and
/// returns the exit code.
pub fn main() -> i32 {
    let cli = Cli::parse();
    quiet_on_broken_pipe();
    interrupt::install();
    conform::files::set_max_file_bytes(cli.max_fixture_size);
    conform::report::set_max_report_bytes(cli.max_report_size);
    conform::fixture::allow_dangling_links(cli.allow_dangling_links);
    conform::json::set_max_values(cli.max_json_values);
    conform::suites::set_rules_base(&cli.rules_base);
    let worker =
        std::thread::Builder::new().name("conform".to_owned()).stack_size(MAIN_STACK_BYTES).spawn(
            move || match execute(cli.command) {
                Ok(code) => code,
                // The reader went away (`conform list | head -1`): that ends
                // the command quietly, as it ends `rg` or `cat`.
                Err(err) if is_broken_pipe(&err) => exit_code::CONFORMANT,
                Err(err) if err.is::<Interrupted>() => exit_code::INTERRUPTED,
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

/// Whether an error comes from writing into a pipe whose reader has gone.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// `println!` panics when stdout's reader has gone; that panic is not a bug
/// but the end of the command, so it exits quietly with status 0 instead of
/// printing a backtrace. Every other panic keeps the default report.
fn quiet_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or_default();
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(exit_code::CONFORMANT);
        }
        default(info);
    }));
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
        Command::Explore(args) => explore::execute(args),
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

/// Ctrl-C stopped the command before it could do anything (exit 130; the
/// handler has said so).
#[derive(Debug)]
struct Interrupted;

impl Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("interrupted")
    }
}

impl std::error::Error for Interrupted {}

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
        eprintln!("wrote {}", path.shown());
    }
}

/// Removes the temporary files an interrupted conform command left in
/// `roots` (where this command is about to write: fixture trees, walked
/// recursively, or report folders, not) and names each in a note.
fn sweep_leftovers(roots: &[std::path::PathBuf], recursive: bool) {
    for path in conform::files::sweep_leftovers(roots, recursive) {
        note(format!("{}: removed a temporary file an interrupted conform command left", path.shown()));
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
    println!("{verb:<9} {}{detail}", path.shown());
}
