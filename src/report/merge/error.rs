//! Why reports cannot be merged: one line each, naming the report (by its
//! 1-based position on the command line) and what does not add up.

use thiserror::Error;

/// Why reports cannot be merged.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum MergeError {
    /// Nothing to merge.
    #[error("no reports to merge")]
    Empty,
    /// The reports were written by different harness versions.
    #[error(
        "report {index} was written by conform {found}, report 1 by conform {expected}: rerun the shards with one version"
    )]
    HarnessVersion {
        /// 1-based position of the odd report.
        index: usize,
        /// Its harness version.
        found: String,
        /// The first report's harness version.
        expected: String,
    },
    /// The reports judged different implementations.
    #[error("report {index} judged `{found}`, report 1 judged `{expected}`: shards must run the same implementation")]
    Implementation {
        /// 1-based position of the odd report.
        index: usize,
        /// Its implementation.
        found: String,
        /// The first report's implementation.
        expected: String,
    },
    /// A report written before reports recorded their selection.
    #[error(
        "report {index} does not say which fixtures it selected (written by conform {version}, before reports \
         recorded their selection): rerun the shards with this conform"
    )]
    NoSelection {
        /// 1-based position of the report.
        index: usize,
        /// The harness version that wrote it.
        version: String,
    },
    /// The reports selected different fixtures (paths, `--suite`, `--filter`).
    #[error(
        "report {index} selected {found}, report 1 {expected}: every shard must run one selection (the same fixture \
         tree, --suite and --filter)"
    )]
    Selection {
        /// 1-based position of the odd report.
        index: usize,
        /// Its selection, in words.
        found: String,
        /// The first report's selection, in words.
        expected: String,
    },
    /// The shards come from different splits (`K/3` and `K/4`).
    #[error("report {index} is shard {found}, but report 1 splits the corpus in {expected}: shards overlap")]
    PartitionCount {
        /// 1-based position of the odd report.
        index: usize,
        /// Its partition, `K/N`.
        found: String,
        /// The first report's shard count.
        expected: u32,
    },
    /// A sharded and an unsharded report, which overlap by definition.
    #[error("report {index} is {found}, report 1 is {expected}: a full run overlaps every shard")]
    MixedSharding {
        /// 1-based position of the odd report.
        index: usize,
        /// What it is.
        found: String,
        /// What the first report is.
        expected: String,
    },
    /// The same shard twice.
    #[error("shard {index}/{count} is given twice (reports {first} and {second})")]
    DuplicateShard {
        /// Shard index.
        index: u32,
        /// Shard count.
        count: u32,
        /// 1-based position of the first report with it.
        first: usize,
        /// 1-based position of the second.
        second: usize,
    },
    /// Shards of the split are not among the reports.
    #[error("{} missing: the merge needs every shard of the split, so it would not be the whole run", list_shards(missing, *count))]
    MissingShards {
        /// The indexes of the shards not given.
        missing: Vec<u32>,
        /// The shard count.
        count: u32,
    },
    /// A report holds fewer (or more) cases than its share selected.
    #[error(
        "report {index} ({share}) holds {found} of the {expected} cases it selected: it was interrupted or its \
         cases were removed; rerun it"
    )]
    ShortShare {
        /// 1-based position of the report.
        index: usize,
        /// "shard K/N" or "a full run".
        share: String,
        /// Cases it holds.
        found: usize,
        /// Cases its share selected.
        expected: usize,
    },
    /// The shards' shares do not add up to the selection.
    #[error(
        "the shards selected {found} cases in all, their selection holds {expected}: a report was changed; rerun \
         the shards"
    )]
    Total {
        /// The shards' `selected` summed.
        found: usize,
        /// The selection's `fixtures`.
        expected: usize,
    },
    /// Two reports judged the same fixture.
    #[error("fixture `{id}` is in reports {first} and {second}: the shards overlap")]
    Overlap {
        /// The fixture id.
        id: String,
        /// 1-based position of the first report with it.
        first: usize,
        /// 1-based position of the second.
        second: usize,
    },
    /// Some reports used a baseline and others did not, or different ones.
    #[error("report {index} {found}, report 1 {expected}: run every shard with the same --baseline")]
    Baseline {
        /// 1-based position of the odd report.
        index: usize,
        /// What it used.
        found: String,
        /// What the first report used.
        expected: String,
    },
}

/// "shard 2/3 is", "shards 1/3 and 3/3 are", for [`MergeError::MissingShards`].
fn list_shards(missing: &[u32], count: u32) -> String {
    let named: Vec<String> = missing.iter().map(|index| format!("{index}/{count}")).collect();
    match named.as_slice() {
        [one] => format!("shard {one} is"),
        [rest @ .., last] => format!("shards {} and {last} are", rest.join(", ")),
        [] => "no shard is".to_owned(),
    }
}
