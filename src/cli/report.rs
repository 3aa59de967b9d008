//! `conform report merge|html`: work on saved JSON reports.

use anyhow::Context;
use clap::{Args, Subcommand, ValueEnum};
use conform::error::exit_code;
use conform::report::{FileOptions, Format, RunReport, merge, read_report, write_files, write_html, write_html_matrix};
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct ReportArgs {
    #[command(subcommand)]
    command: ReportCommand,
}

#[derive(Debug, Subcommand)]
enum ReportCommand {
    /// Combine shard reports (`run --partition K/N`) into the report of one full run.
    #[command(after_long_help = super::help::report_merge())]
    Merge(MergeArgs),
    /// Render reports as one HTML page; several reports give one column per implementation.
    #[command(after_long_help = super::help::report_html())]
    Html(HtmlArgs),
}

#[derive(Debug, Args)]
struct MergeArgs {
    /// The shard reports (`conform-report.json` of each shard).
    #[arg(required = true)]
    reports: Vec<PathBuf>,
    /// Folder for the merged reports.
    #[arg(long, value_name = "DIR", default_value = "reports")]
    out: PathBuf,
    /// Report format to write (repeatable) [default: json, junit, markdown, html].
    #[arg(long = "format", value_enum, value_name = "FORMAT")]
    formats: Vec<FileFormat>,
}

#[derive(Debug, Args)]
struct HtmlArgs {
    /// JSON reports: one for a full report, several for a matrix.
    #[arg(required = true)]
    reports: Vec<PathBuf>,
    /// The HTML file to write.
    #[arg(long, value_name = "FILE", default_value = "reports/conform-report.html")]
    out: PathBuf,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum FileFormat {
    Json,
    Junit,
    Markdown,
    Html,
}

impl From<FileFormat> for Format {
    fn from(format: FileFormat) -> Self {
        match format {
            FileFormat::Json => Format::Json,
            FileFormat::Junit => Format::Junit,
            FileFormat::Markdown => Format::Markdown,
            FileFormat::Html => Format::Html,
        }
    }
}

pub fn execute(args: ReportArgs) -> anyhow::Result<i32> {
    match args.command {
        ReportCommand::Merge(args) => merge_reports(args),
        ReportCommand::Html(args) => html(args),
    }
}

fn read_all(paths: &[PathBuf]) -> anyhow::Result<Vec<RunReport>> {
    paths.iter().map(|path| read_report(path).map_err(anyhow::Error::from)).collect()
}

fn merge_reports(args: MergeArgs) -> anyhow::Result<i32> {
    let merged = merge(read_all(&args.reports)?)?;
    super::print_notices(&merged.notices);
    let mut formats: Vec<Format> = args.formats.iter().copied().map(Format::from).collect();
    if formats.is_empty() {
        formats = vec![Format::Json, Format::Junit, Format::Markdown, Format::Html];
    }
    super::sweep_leftovers(std::slice::from_ref(&args.out), false);
    let files = write_files(&merged, &formats, &args.out, &FileOptions::default());
    super::print_wrote(&files.written);
    if !files.failed.is_empty() {
        files.failed.iter().for_each(super::error);
        return Ok(exit_code::CANNOT_JUDGE);
    }
    println!("{}", merged.summary.summary_line());
    Ok(merged.exit_code())
}

fn html(args: HtmlArgs) -> anyhow::Result<i32> {
    let reports = read_all(&args.reports)?;
    let mut page = Vec::new();
    if let [report] = reports.as_slice() {
        write_html(report, &mut page)?;
    } else {
        let labels: Vec<String> =
            reports.iter().map(|r| format!("{} {}", r.implementation.name, r.implementation.version)).collect();
        // Two runs of one implementation need telling apart: add the file name.
        let labels: Vec<String> = labels
            .iter()
            .zip(&args.reports)
            .map(|(label, path)| {
                if labels.iter().filter(|l| *l == label).count() > 1 {
                    format!("{label} ({})", path.display())
                } else {
                    label.clone()
                }
            })
            .collect();
        write_html_matrix(&reports, &labels, &mut page)?;
    }
    if let Some(parent) = args.out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
    }
    super::sweep_leftovers(std::slice::from_ref(&args.out), false);
    // The error names the file.
    conform::files::write_report_atomically(&args.out, &page)?;
    super::print_wrote(std::slice::from_ref(&args.out));
    Ok(exit_code::CONFORMANT)
}
