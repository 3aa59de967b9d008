//! `conform check-adapter`: a smoke run of an external implementation that
//! validates every message against the protocol schemas and explains each
//! problem in plain words.

use super::implementation::ExternalArgs;
use super::selection::FixtureArgs;
use anyhow::Context;
use clap::Args;
use conform::check_adapter::{CheckReport, Level, check_one_shot, check_persistent, smoke_cases};
use conform::error::exit_code;
use conform::fixture::{Corpus, load_corpus};
use conform::implementation::subprocess::options::describe_duration;
use conform::report::{Palette, visible_controls};
use conform::run::select;
use std::io::{self, Write};

#[derive(Debug, Args)]
#[command(mut_arg("impl_cmd", |arg| arg.required(true)))]
pub struct CheckAdapterArgs {
    #[command(flatten)]
    fixtures: FixtureArgs,
    /// Smoke cases per suite (0 = every selected case).
    #[arg(long, value_name = "N", default_value_t = 3)]
    per_suite: usize,
    #[command(flatten)]
    external: ExternalArgs,
}

pub fn execute(args: CheckAdapterArgs) -> anyhow::Result<i32> {
    let command = args.external.command()?.context("--impl-cmd is required")?;
    let options = args.external.limits.options(super::interrupt::flag());
    let filter = args.fixtures.suite_filter()?;
    let selection = args.fixtures.selection(None)?;
    // Without fixtures the handshake and bye can still be checked.
    let corpus = match load_corpus(&args.fixtures.paths, &filter) {
        Ok(corpus) => {
            // The one rule for empty selections, as in every command that reads fixtures.
            if args.fixtures.narrows() {
                super::selection::require_some(select(&corpus, &selection).len())?;
            }
            corpus
        }
        Err(err) => {
            super::note(format!("{err}: no smoke cases, only the handshake and bye are checked"));
            Corpus::default()
        }
    };
    let cases = smoke_cases(&corpus, &select(&corpus, &selection), args.per_suite);

    let mode = if args.external.one_shot { "one-shot mode" } else { "protocol v1" };
    let header = format!(
        "conform check-adapter: {} ({mode}, {} smoke cases selected, --timeout {})",
        visible_controls(command.text()),
        cases.len(),
        describe_duration(options.timeout)
    );
    let stdout = &mut io::stdout().lock();
    // A reader that went away (`| head -1`) ends the command quietly.
    if quiet_if_gone(writeln!(stdout, "{header}").and_then(|()| stdout.flush()))? {
        return Ok(exit_code::CONFORMANT);
    }
    let report = if args.external.one_shot {
        check_one_shot(&command, &cases, &options)?
    } else {
        check_persistent(&command, &cases, &options)?
    };
    if quiet_if_gone(print_report(&report, stdout))? {
        return Ok(exit_code::CONFORMANT);
    }
    Ok(if report.problems() == 0 { exit_code::CONFORMANT } else { exit_code::FAILURES })
}

fn print_report(report: &CheckReport, out: &mut impl Write) -> io::Result<()> {
    let p = Palette::for_stdout();
    for finding in &report.findings {
        let label = match finding.level {
            Level::Ok => p.good("ok     "),
            Level::Note => p.dim("note   "),
            Level::Warning => p.warn("warning"),
            Level::Problem => p.bad("PROBLEM"),
        };
        // Findings quote the implementation: its controls are shown, not obeyed.
        writeln!(out, "  {label}  {}", visible_controls(&finding.headline))?;
        for detail in &finding.details {
            writeln!(out, "           {}", p.dim(&visible_controls(detail)))?;
        }
    }
    writeln!(out)?;
    let summary = report.summary();
    writeln!(out, "{}", if report.problems() == 0 { p.good(&summary) } else { p.bad(&summary) })?;
    out.flush()
}

/// `Ok(true)` when the write failed because stdout's reader is gone, which
/// ends the command quietly with status 0 (as ripgrep does); other write
/// errors are errors.
fn quiet_if_gone(written: io::Result<()>) -> io::Result<bool> {
    match written {
        Ok(()) => Ok(false),
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => Ok(true),
        Err(err) => Err(err),
    }
}
