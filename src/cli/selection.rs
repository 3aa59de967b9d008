//! `[PATHS]… [--suite S]… [--filter GLOB]…`: which fixtures a command reads.
//! One argument group, flattened into every command that reads fixture
//! trees, so the paths, their default and the selection read the same
//! everywhere.

use clap::Args;
use conform::error::SetupError;
use conform::fixture::{Corpus, FixturePlan, SuiteFilter, load_corpus};
use conform::report::Partition;
use conform::run::{Selection, select};
use std::path::PathBuf;

/// A long help that names every suite after `lead`.
pub fn naming_suites(lead: &str) -> String {
    format!("{lead}: {}", conform::suites::names().join(", "))
}

/// Which fixtures a command reads.
#[derive(Clone, Debug, Args)]
pub struct FixtureArgs {
    /// Fixture trees, suite folders or fixture files.
    #[arg(default_value = "fixtures")]
    pub paths: Vec<PathBuf>,
    /// Only fixtures of this suite (repeatable).
    #[arg(long = "suite", value_name = "SUITE", long_help = naming_suites("Only fixtures of this suite (repeatable)"))]
    pub suites: Vec<String>,
    /// Only fixtures whose id (`suite/name`) matches this glob; `*` also crosses `/` (repeatable).
    #[arg(long = "filter", value_name = "GLOB")]
    pub filters: Vec<String>,
}

/// A loaded corpus and the fixtures a command covers.
pub struct Selected {
    /// Every fixture found, valid or not, with the corpus notices.
    pub corpus: Corpus,
    /// Indexes into `corpus.fixtures` of the selected fixtures, in corpus order.
    pub indexes: Vec<usize>,
}

impl FixtureArgs {
    /// The `--suite` restriction.
    pub fn suite_filter(&self) -> Result<SuiteFilter, SetupError> {
        SuiteFilter::new(&self.suites)
    }

    /// Whether `--suite` or `--filter` narrow the fixtures found.
    pub fn narrows(&self) -> bool {
        !self.suites.is_empty() || !self.filters.is_empty()
    }

    /// The `--filter` globs, restricted to one shard when `partition` is given.
    pub fn selection(&self, partition: Option<Partition>) -> Result<Selection, SetupError> {
        Ok(Selection::new(&self.filters)?.with_partition(partition))
    }

    /// Discovers and loads the fixtures under the paths and selects those
    /// the options cover. The notices are left to the caller to print.
    pub fn load(&self, partition: Option<Partition>) -> Result<Selected, SetupError> {
        let filter = self.suite_filter()?;
        let selection = self.selection(partition)?;
        let corpus = load_corpus(&self.paths, &filter)?;
        let indexes = select(&corpus, &selection);
        Ok(Selected { corpus, indexes })
    }
}

/// The discovered fixtures and those a streaming command covers (nothing
/// is loaded yet).
pub struct Planned {
    /// Every fixture file found, with discovery's notices.
    pub plan: FixturePlan,
    /// Indexes into `plan.files` of the selected fixtures, in discovery order.
    pub indexes: Vec<usize>,
}

impl FixtureArgs {
    /// Discovers the fixtures under the paths and selects those the options
    /// cover, by id, reading no fixture.
    pub fn plan(&self, partition: Option<Partition>) -> Result<Planned, SetupError> {
        let filter = self.suite_filter()?;
        let selection = self.selection(partition)?;
        let plan = FixturePlan::discover(&self.paths, &filter)?;
        let indexes = (0..plan.len()).filter(|&index| selection.matches(plan.id(index))).collect();
        Ok(Planned { plan, indexes })
    }
}

impl Planned {
    /// Fails when the options select nothing (see [`require_some`]).
    pub fn require_some(&self) -> anyhow::Result<()> {
        require_some(self.indexes.len())
    }
}

impl Selected {
    /// Fails when the options select nothing (see [`require_some`]).
    pub fn require_some(&self) -> anyhow::Result<()> {
        require_some(self.indexes.len())
    }
}

/// The one rule for empty selections, the same in every command that reads
/// fixtures: when `--suite`/`--filter` select nothing from the fixtures found,
/// the command stops with a usage error (exit 2), because a command that
/// looked at no fixture must not look like one that passed. (A tree with no
/// fixture at all is already an error of discovery; an empty `--partition`
/// shard of `run` is normal.)
pub fn require_some(selected: usize) -> anyhow::Result<()> {
    anyhow::ensure!(selected > 0, "no fixtures match the given --suite/--filter options");
    Ok(())
}
