//! `conform check-adapter`: a smoke run of an external implementation that
//! validates every message against the protocol schemas and explains each
//! problem in plain words.

use super::implementation::ExternalArgs;
use super::selection::FixtureArgs;
use anyhow::Context;
use clap::Args;
use conform::check_adapter::{check_one_shot, check_persistent, header_line, smoke_cases, write_text};
use conform::error::exit_code;
use conform::fixture::{Corpus, load_corpus};
use conform::report::Palette;
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

    let header = header_line(command.text(), args.external.one_shot, cases.len(), options.timeout);
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
    if quiet_if_gone(write_text(&report, stdout, Palette::for_stdout()))? {
        return Ok(exit_code::CONFORMANT);
    }
    Ok(if report.problems() == 0 { exit_code::CONFORMANT } else { exit_code::FAILURES })
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
