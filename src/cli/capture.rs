//! `conform capture`.

use clap::Args;
use clap::builder::PossibleValuesParser;
use conform::capture::{CaptureOptions, Progress, capture, check_capture_day, find_format, format_names, formats};
use conform::error::exit_code;
use conform::review::{WriteMode, running_in_ci};
use std::path::PathBuf;

#[derive(Debug, Args)]
#[command(after_help = formats_help())]
pub struct CaptureArgs {
    /// The suite the fixtures are for (must be the format's suite).
    #[arg(value_parser = PossibleValuesParser::new(capture_suites()))]
    suite: String,
    /// The capture format.
    #[arg(long = "from", value_name = "FORMAT", value_parser = PossibleValuesParser::new(format_names()))]
    format: String,
    /// Capture files (any order; see the format).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Folder to write fixtures to [default: fixtures/<SUITE>].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Prepended to every fixture name.
    #[arg(long, value_name = "PREFIX", default_value = "")]
    name_prefix: String,
    /// Cut each case into overlapping windows of about N items, never
    /// separating a tool call from its result or a sidechain from its Task.
    #[arg(long, value_name = "N")]
    window: Option<usize>,
    /// An extra redaction pattern: a regular expression whose first group,
    /// when it has one, is the secret (repeatable).
    #[arg(long = "redact-rule", value_name = "REGEX")]
    redact_rules: Vec<String>,
    /// The fixtureVersion of the documents written [default: the newest the suite's reference implements].
    #[arg(long, value_name = "N")]
    fixture_version: Option<u32>,
    /// Keep phone numbers, IP addresses and card numbers instead of replacing
    /// them (secrets, e-mail addresses and user names are always replaced).
    #[arg(long)]
    keep_personal_data: bool,
    /// The capture day to record (YYYY-MM-DD) [default: the day of the newest item].
    #[arg(long, value_name = "DATE")]
    captured_on: Option<String>,
    /// Write NAME.json in place instead of NAME.json.new (refused when CI is set).
    #[arg(long)]
    accept: bool,
    /// Import files whose first lines look like another format than --from
    /// names (by default such a file is refused, naming the format it looks like).
    #[arg(long)]
    force_format: bool,
}

/// The suites some capture format writes, in registry order.
fn capture_suites() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = formats().iter().map(|(suite, _)| suite.name()).collect();
    names.dedup();
    names
}

pub(super) fn formats_help() -> String {
    let mut help = String::from("Formats:\n");
    for (suite, format) in formats() {
        let window = if format.window.is_some() { " [--window]" } else { "" };
        help.push_str(&format!("  {} → {}{window}: {}\n", format.name, suite.name(), format.summary));
    }
    help
}

pub fn execute(args: CaptureArgs) -> anyhow::Result<i32> {
    let mode = WriteMode::from_accept_flag(args.accept, running_in_ci())?;
    let (suite, format) = find_format(&args.suite, &args.format)?;
    check_capture_day(args.captured_on.as_deref())?;
    let out = args.out.unwrap_or_else(|| PathBuf::from("fixtures").join(&args.suite));
    super::sweep_leftovers(std::slice::from_ref(&out), false);
    let options = CaptureOptions {
        suite,
        format,
        files: args.files,
        out,
        name_prefix: args.name_prefix,
        window: args.window,
        redact_rules: args.redact_rules,
        keep_personal_data: args.keep_personal_data,
        captured_on: args.captured_on,
        fixture_version: args.fixture_version,
        force_format: args.force_format,
    };
    let captured = capture(&options, mode, &mut Printed)?;
    for line in &captured.summary {
        println!("{line}");
    }
    Ok(exit_code::CONFORMANT)
}

/// Prints what a capture tells as it goes: notices and warnings on stderr,
/// each fixture's line on stdout.
struct Printed;

impl Progress for Printed {
    fn notice(&mut self, text: &str) {
        super::note(text);
    }

    fn warning(&mut self, text: &str) {
        super::warning(text);
    }

    fn fixture(&mut self, line: &str) {
        println!("{line}");
    }
}
