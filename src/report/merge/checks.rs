//! What must hold before reports merge: one harness version, one
//! implementation, one baseline and one selection, and shards that cover
//! that selection exactly once, each whole.

use super::MergeError;
use crate::report::baseline_summary::BaselineSummary;
use crate::report::model::{Partition, RunReport, SelectionSummary};
use std::collections::HashMap;

/// Checks report `index` (1-based) against the first report: the same
/// harness version, implementation and baseline.
pub(super) fn check_same_run(index: usize, report: &RunReport, first: &RunReport) -> Result<(), MergeError> {
    if report.harness.version != first.harness.version {
        return Err(MergeError::HarnessVersion {
            index,
            found: report.harness.version.clone(),
            expected: first.harness.version.clone(),
        });
    }
    let (this, that) = (&report.implementation, &first.implementation);
    if this.name != that.name || this.version != that.version {
        return Err(MergeError::Implementation {
            index,
            found: format!("{} {}", this.name, this.version),
            expected: format!("{} {}", that.name, that.version),
        });
    }
    if report.baseline.as_ref().map(|b| &b.path) != first.baseline.as_ref().map(|b| &b.path) {
        return Err(MergeError::Baseline {
            index,
            found: describe_baseline(report.baseline.as_ref()),
            expected: describe_baseline(first.baseline.as_ref()),
        });
    }
    Ok(())
}

/// The selection of report `index` (1-based), refused when it has none.
pub(super) fn selection_of(index: usize, report: &RunReport) -> Result<&SelectionSummary, MergeError> {
    report.selection.as_ref().ok_or_else(|| MergeError::NoSelection { index, version: report.harness.version.clone() })
}

/// Checks that report `index` (1-based) selected what the first report
/// did: the same `--suite` and `--filter` values and the same fixtures
/// (their count and the digest of their ids; the paths may be spelt
/// differently on each machine).
pub(super) fn check_same_selection(index: usize, report: &RunReport, first: &RunReport) -> Result<(), MergeError> {
    let (this, that) = (selection_of(index, report)?, selection_of(1, first)?);
    let differ = |found: String, expected: String| Err(MergeError::Selection { index, found, expected });
    if this.suites != that.suites {
        return differ(
            describe_values("--suite", &this.suites, "every suite"),
            describe_values("--suite", &that.suites, "every suite"),
        );
    }
    if this.filters != that.filters {
        return differ(
            describe_values("--filter", &this.filters, "no --filter"),
            describe_values("--filter", &that.filters, "no --filter"),
        );
    }
    if this.fixtures != that.fixtures || this.digest != that.digest {
        // The same paths as given can still be other trees (another checkout, another folder), and trees of
        // the same size other fixtures.
        let (roots, digest) = (report.paths == first.paths, this.fixtures == that.fixtures);
        return differ(describe_tree(report, this, roots, digest), describe_tree(first, that, roots, digest));
    }
    Ok(())
}

/// Checks that the reports are the shards of one split, each given once
/// and each holding every case its share selected, and that together they
/// hold the whole selection (the first report's).
pub(super) fn check_shares(reports: &[RunReport]) -> Result<(), MergeError> {
    let Some(first) = reports.first() else { return Err(MergeError::Empty) };
    let mut shards: HashMap<u32, usize> = HashMap::new();
    for (offset, report) in reports.iter().enumerate() {
        let index = offset + 1;
        match (first.partition, report.partition) {
            (Some(split), Some(this)) if split.count != this.count => {
                return Err(MergeError::PartitionCount {
                    index,
                    found: format!("{}/{}", this.index, this.count),
                    expected: split.count,
                });
            }
            (Some(_), Some(this)) => {
                if let Some(&previous) = shards.get(&this.index) {
                    return Err(MergeError::DuplicateShard {
                        index: this.index,
                        count: this.count,
                        first: previous,
                        second: index,
                    });
                }
                shards.insert(this.index, index);
            }
            (None, None) => {}
            (split, this) => {
                return Err(MergeError::MixedSharding {
                    index,
                    found: describe_partition(this),
                    expected: describe_partition(split),
                });
            }
        }
        let selected = selection_of(index, report)?.selected;
        if report.cases.len() != selected {
            return Err(MergeError::ShortShare {
                index,
                share: describe_partition(report.partition),
                found: report.cases.len(),
                expected: selected,
            });
        }
    }
    if let Some(split) = first.partition {
        let missing: Vec<u32> = (1..=split.count).filter(|k| !shards.contains_key(k)).collect();
        if !missing.is_empty() {
            return Err(MergeError::MissingShards { missing, count: split.count });
        }
    }
    let mut found = 0;
    for (offset, report) in reports.iter().enumerate() {
        found += selection_of(offset + 1, report)?.selected;
    }
    let expected = selection_of(1, first)?.fixtures;
    if found != expected {
        return Err(MergeError::Total { found, expected });
    }
    Ok(())
}

/// "--suite chat, sse", or `none` when no value was given.
fn describe_values(flag: &str, values: &[String], none: &str) -> String {
    if values.is_empty() { none.to_owned() } else { format!("{flag} {}", values.join(", ")) }
}

/// "150 fixtures under fixtures/chat": under the canonical roots when
/// `roots` (the paths as given read the same), with the digest of the ids
/// when `digest` (the counts agree).
fn describe_tree(report: &RunReport, selection: &SelectionSummary, roots: bool, digest: bool) -> String {
    let paths = if roots { &selection.roots } else { &report.paths };
    let noun = if selection.fixtures == 1 { "fixture" } else { "fixtures" };
    let mut words = format!("{} {noun} under {}", selection.fixtures, paths.join(", "));
    if digest {
        words.push_str(&format!(" (ids digest {})", selection.digest));
    }
    words
}

pub(super) fn describe_partition(partition: Option<Partition>) -> String {
    match partition {
        Some(p) => format!("shard {}/{}", p.index, p.count),
        None => "a full run".to_owned(),
    }
}

fn describe_baseline(baseline: Option<&BaselineSummary>) -> String {
    match baseline {
        Some(b) => format!("used baseline {}", b.path),
        None => "used no baseline".to_owned(),
    }
}
