//! `conform check-adapter`: a smoke run of an external implementation that
//! validates every message against the protocol schemas and explains each
//! problem in plain words.

use super::impl_cmd::LimitArgs;
use clap::Args;
use conform::error::exit_code;
use conform::fixture::{SuiteFilter, load_corpus};
use conform::implementation::subprocess::check::{CheckCase, Level, check_one_shot, check_persistent};
use conform::implementation::subprocess::{CommandLine, options::describe_duration};
use conform::report::Palette;
use conform::run::{Selection, select};
use std::collections::HashMap;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct CheckAdapterArgs {
    /// The implementation command (split into words like a POSIX shell, no shell).
    #[arg(long = "impl-cmd", value_name = "COMMAND")]
    impl_cmd: String,
    /// Fixture trees, suite folders or files to take smoke cases from.
    #[arg(default_value = "fixtures")]
    paths: Vec<PathBuf>,
    /// Check a one-shot command (input on stdin, output on stdout) instead of the protocol.
    #[arg(long)]
    one_shot: bool,
    /// Smoke cases per suite (0 = every selected case).
    #[arg(long, value_name = "N", default_value_t = 3)]
    per_suite: usize,
    /// Only these suites (repeatable).
    #[arg(long = "suite", value_name = "SUITE")]
    suites: Vec<String>,
    /// Only fixtures whose id matches this glob (repeatable).
    #[arg(long = "filter", value_name = "GLOB")]
    filters: Vec<String>,
    #[command(flatten)]
    limits: LimitArgs,
}

pub fn execute(args: CheckAdapterArgs) -> anyhow::Result<i32> {
    let command = CommandLine::parse(&args.impl_cmd)?;
    let options = args.limits.options(super::interrupt::flag());
    let filter = SuiteFilter::new(&args.suites)?;
    let selection = Selection::new(&args.filters)?;
    let corpus = match load_corpus(&args.paths, &filter) {
        Ok(corpus) => corpus,
        Err(err) => {
            eprintln!("note: {err}: no smoke cases, only the handshake and bye are checked");
            Default::default()
        }
    };
    let mut per_suite: HashMap<&str, usize> = HashMap::new();
    let cases: Vec<CheckCase<'_>> = select(&corpus, &selection)
        .into_iter()
        .filter_map(|index| {
            let fixture = &corpus.fixtures[index];
            let parts = fixture.parts()?;
            let taken = per_suite.entry(fixture.suite.name()).or_default();
            if args.per_suite > 0 && *taken >= args.per_suite {
                return None;
            }
            *taken += 1;
            Some(CheckCase {
                suite: fixture.suite,
                fixture: &fixture.name,
                fixture_version: fixture.version.unwrap_or(1),
                input: &parts.input,
                expected: &parts.expected,
            })
        })
        .collect();

    let mode = if args.one_shot { "one-shot mode" } else { "protocol v1" };
    println!(
        "conform check-adapter: {} ({mode}, {} smoke cases, --timeout {})",
        command.text(),
        cases.len(),
        describe_duration(options.timeout)
    );
    let report = if args.one_shot {
        check_one_shot(&command, &cases, &options)?
    } else {
        check_persistent(&command, &cases, &options)?
    };
    let p = Palette::for_stdout();
    for finding in &report.findings {
        let label = match finding.level {
            Level::Ok => p.good("ok     "),
            Level::Note => p.dim("note   "),
            Level::Warning => p.warn("warning"),
            Level::Problem => p.bad("PROBLEM"),
        };
        println!("  {label}  {}", finding.headline);
        for detail in &finding.details {
            println!("           {}", p.dim(detail));
        }
    }
    println!();
    let summary = report.summary();
    println!("{}", if report.problems() == 0 { p.good(&summary) } else { p.bad(&summary) });
    Ok(if report.problems() == 0 { exit_code::CONFORMANT } else { exit_code::FAILURES })
}
