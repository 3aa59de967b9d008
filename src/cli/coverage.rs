//! `conform coverage`.

use super::selection::FixtureArgs;
use clap::Args;
use conform::coverage::{UnmeasuredReason, load_candidates, measure, rank};
use conform::error::exit_code;
use std::collections::BTreeMap;
use std::io::Write;
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
    let coverage = measure(&selected.corpus, &selected.indexes);
    let (candidates, problems) = load_candidates(&args.candidates);
    let ranked = rank(&coverage, &candidates);
    let stdout = &mut std::io::stdout().lock();
    if args.json {
        let unreached: BTreeMap<&str, Vec<&str>> = coverage.suites.iter().map(|s| (s.suite, s.unreached())).collect();
        let value = serde_json::json!({"coverage": coverage, "unreached": unreached, "candidates": ranked});
        writeln!(stdout, "{}", conform::json::to_canonical_string(&value).trim_end())?;
        return Ok(exit_code::CONFORMANT);
    }
    for suite in &coverage.suites {
        match suite.ratio() {
            Some((reached, known)) => writeln!(
                stdout,
                "{}: {} fixtures reach {reached} of {known} rules ({:.1}%)",
                suite.suite,
                suite.fixtures,
                percent(reached, known)
            )?,
            None => writeln!(
                stdout,
                "{}: {} fixtures reach {} rules (the suite does not list all its rules)",
                suite.suite,
                suite.fixtures,
                suite.reached.len()
            )?,
        }
        if args.verbose {
            for (rule, count) in &suite.reached {
                writeln!(stdout, "  reached {rule} ({count} fixtures)")?;
            }
        }
        let unreached = suite.unreached();
        if !unreached.is_empty() {
            writeln!(stdout, "  not reached by any fixture ({}):", unreached.len())?;
            for rule in unreached {
                writeln!(stdout, "    {rule}")?;
            }
        }
    }
    let mut without_reference = BTreeMap::<&str, usize>::new();
    for unmeasured in &coverage.skipped {
        match unmeasured.reason {
            UnmeasuredReason::NoReference => *without_reference.entry(unmeasured.suite).or_default() += 1,
            _ => writeln!(stdout, "not measured: {unmeasured}")?,
        }
    }
    for (suite, count) in &without_reference {
        writeln!(stdout, "not measured: {count} {suite} fixtures (suite {suite} has no reference)")?;
    }
    if !args.candidates.is_empty() {
        writeln!(stdout, "candidates, ranked by the rules each would add:")?;
        let mut idle = 0;
        for (place, candidate) in ranked.iter().enumerate() {
            if candidate.new_rules.is_empty() {
                idle += 1;
                continue;
            }
            writeln!(
                stdout,
                "  {:>3}. {} +{}: {}",
                place + 1,
                candidate.path.display(),
                candidate.new_rules.len(),
                candidate.new_rules.join(", ")
            )?;
        }
        if idle > 0 {
            writeln!(stdout, "  {idle} candidates add no rule the others do not already reach")?;
        }
        for problem in &problems {
            writeln!(stdout, "  skipped {problem}")?;
        }
    }
    Ok(exit_code::CONFORMANT)
}

fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 { 100.0 } else { part as f64 * 100.0 / whole as f64 }
}
