//! `conform compare OLD.json NEW.json`: what changed between two runs.

use clap::{Args, ValueEnum};
use conform::report::{DEFAULT_MARKDOWN_LIMIT, MarkdownBudget, Palette, read_report};
use conform::report_diff::diff_reports;
use conform::report_diff::render::{write_json_diff, write_markdown_diff_within, write_pretty_diff};
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The earlier run's JSON report (e.g. from the main branch).
    old: PathBuf,
    /// The later run's JSON report (e.g. from the pull request).
    new: PathBuf,
    /// Output format: pretty for a terminal, markdown for a pull-request comment, json for machines.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = DiffFormat::Pretty)]
    format: DiffFormat,
    /// Most characters of the Markdown output (a GitHub comment holds 65,536); the rest is cut, with a note.
    #[arg(long, value_name = "CHARS", default_value_t = DEFAULT_MARKDOWN_LIMIT)]
    markdown_limit: usize,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum DiffFormat {
    Pretty,
    Markdown,
    Json,
}

/// Exit code 1 when anything regressed, 0 otherwise (2 when a report cannot
/// be read).
pub fn execute(args: CompareArgs) -> anyhow::Result<i32> {
    let old = read_report(&args.old)?;
    let new = read_report(&args.new)?;
    let diff = diff_reports(&old, &new, &args.old.display().to_string(), &args.new.display().to_string());
    let stdout = &mut std::io::stdout().lock();
    match args.format {
        DiffFormat::Pretty => write_pretty_diff(&diff, stdout, Palette::for_stdout())?,
        DiffFormat::Markdown => {
            let budget = MarkdownBudget { limit: args.markdown_limit, full_report: None };
            write_markdown_diff_within(&diff, stdout, &budget)?
        }
        DiffFormat::Json => write_json_diff(&diff, stdout)?,
    }
    Ok(diff.exit_code())
}
