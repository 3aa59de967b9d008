//! `conform coverage`.

use super::selection::FixtureArgs;
use clap::Args;
use conform::coverage::{TextOptions, load_candidates, measure, rank, write_json, write_text};
use conform::error::exit_code;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct CoverageArgs {
    #[command(flatten)]
    fixtures: FixtureArgs,
    /// Candidate fixtures (files or folders; pending `*.json.new` captures
    /// included) to rank by the rules they would add (repeatable).
    #[arg(long = "candidates", value_name = "PATH")]
    candidates: Vec<PathBuf>,
    /// Also list every reached rule with the number of fixtures reaching it.
    #[arg(long, short = 'v')]
    verbose: bool,
    /// Print the coverage as JSON instead.
    #[arg(long)]
    json: bool,
}

pub fn execute(args: CoverageArgs) -> anyhow::Result<i32> {
    let selected = args.fixtures.load(None)?;
    super::print_notices(&selected.corpus.notices);
    selected.require_some()?;
    let coverage = measure(&selected.corpus, &selected.indexes);
    let (candidates, problems) = load_candidates(&args.candidates);
    let ranked = rank(&coverage, &candidates);
    let stdout = &mut std::io::stdout().lock();
    if args.json {
        write_json(stdout, &coverage, &ranked)?;
    } else {
        let options = TextOptions { verbose: args.verbose, candidates: !args.candidates.is_empty() };
        write_text(stdout, &coverage, &ranked, &problems, options)?;
    }
    Ok(exit_code::CONFORMANT)
}
