//! `conform baseline write|check`: known-failures files.

use clap::{Args, Subcommand};
use conform::baseline::{Baseline, report_read, write_baseline};
use conform::error::exit_code;
use conform::files::write_atomically;
use conform::report::read_report;
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct BaselineArgs {
    #[command(subcommand)]
    command: BaselineCommand,
}

#[derive(Debug, Subcommand)]
enum BaselineCommand {
    /// Write a baseline listing every failure of a run (to stdout, or --out).
    #[command(after_long_help = super::help::baseline_write())]
    Write(WriteArgs),
    /// Check a baseline file's syntax and entries.
    #[command(after_long_help = super::help::baseline_check())]
    Check(CheckArgs),
}

#[derive(Debug, Args)]
struct WriteArgs {
    /// The run's JSON report (`conform-report.json`).
    #[arg(long = "from", value_name = "REPORT.json")]
    from: PathBuf,
    /// The current baseline, to keep its reasons (not needed when the run used it with --baseline).
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// Write here instead of stdout (through a temporary file and a rename).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct CheckArgs {
    /// The baseline file.
    file: PathBuf,
}

pub fn execute(args: BaselineArgs) -> anyhow::Result<i32> {
    match args.command {
        BaselineCommand::Write(args) => write(args),
        BaselineCommand::Check(args) => {
            let baseline = Baseline::read(&args.file)?;
            println!("{}: {} entries", args.file.display(), baseline.entries.len());
            Ok(exit_code::CONFORMANT)
        }
    }
}

fn write(args: WriteArgs) -> anyhow::Result<i32> {
    let report = read_report(&args.from)?;
    let previous = args.baseline.as_deref().map(Baseline::read).transpose()?;
    let read = report_read(&report, &args.from, previous.as_ref());
    eprintln!("{}", read.line);
    read.warnings.iter().for_each(super::warning);
    let written = write_baseline(&report, previous.as_ref());
    match &args.out {
        // The error names the file.
        Some(path) => write_atomically(path, written.text.as_bytes())?,
        None => std::io::stdout().lock().write_all(written.text.as_bytes())?,
    }
    eprintln!("baseline: {} entries kept, {} added, {} dropped", written.kept, written.added, written.dropped.len());
    for id in &written.dropped {
        eprintln!("  dropped `{id}`: its fixtures pass now or are gone");
    }
    for id in &written.unlisted {
        eprintln!("  not listed: `{id}` is invalid or has an unsupported version (fix the fixture)");
    }
    Ok(exit_code::CONFORMANT)
}
