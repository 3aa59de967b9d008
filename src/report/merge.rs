//! Merging shard reports (`conform run --partition K/N` on N machines) into
//! the report one full run would have written.
//!
//! Merging refuses what would give a misleading result: reports from
//! different harness versions or implementations, shards of different
//! splits, the same shard twice, or two reports judging the same fixture.
//! Missing shards are merged anyway but recorded as a corpus error, so the
//! merged run cannot pass as complete.

use super::baseline_summary::{BaselineSummary, EntryOutcome, EntryStatus};
use super::model::{Partition, RunReport};
use crate::fixture::Notice;
use std::collections::{BTreeSet, HashMap};
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

fn describe_partition(partition: Option<Partition>) -> String {
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

/// Merges reports into one. Cases are ordered by fixture path (the order a
/// full run discovers them in); counts and clusters are recomputed.
pub fn merge(reports: Vec<RunReport>) -> Result<RunReport, MergeError> {
    let mut reports = reports.into_iter();
    let mut merged = reports.next().ok_or(MergeError::Empty)?;
    let first_partition = merged.partition;
    let mut shards: HashMap<u32, usize> = HashMap::new();
    if let Some(p) = first_partition {
        shards.insert(p.index, 1);
    }
    let mut owner: HashMap<String, usize> = merged.cases.iter().map(|c| (c.id.clone(), 1)).collect();
    let mut notices: Vec<Notice> = std::mem::take(&mut merged.notices);
    let mut paths: Vec<String> = merged.paths.clone();

    for (offset, report) in reports.enumerate() {
        let index = offset + 2;
        if report.harness.version != merged.harness.version {
            return Err(MergeError::HarnessVersion {
                index,
                found: report.harness.version,
                expected: merged.harness.version,
            });
        }
        if report.implementation.name != merged.implementation.name
            || report.implementation.version != merged.implementation.version
        {
            return Err(MergeError::Implementation {
                index,
                found: format!("{} {}", report.implementation.name, report.implementation.version),
                expected: format!("{} {}", merged.implementation.name, merged.implementation.version),
            });
        }
        match (first_partition, report.partition) {
            (Some(first), Some(this)) if first.count != this.count => {
                return Err(MergeError::PartitionCount {
                    index,
                    found: format!("{}/{}", this.index, this.count),
                    expected: first.count,
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
            (first, this) => {
                return Err(MergeError::MixedSharding {
                    index,
                    found: describe_partition(this),
                    expected: describe_partition(first),
                });
            }
        }
        if report.baseline.as_ref().map(|b| &b.path) != merged.baseline.as_ref().map(|b| &b.path) {
            return Err(MergeError::Baseline {
                index,
                found: describe_baseline(report.baseline.as_ref()),
                expected: describe_baseline(merged.baseline.as_ref()),
            });
        }
        for case in &report.cases {
            if let Some(&first) = owner.get(&case.id) {
                return Err(MergeError::Overlap { id: case.id.clone(), first, second: index });
            }
            owner.insert(case.id.clone(), index);
        }
        if report.started_at < merged.started_at {
            merged.started_at = report.started_at.clone();
        }
        merged.duration_ms = merged.duration_ms.max(report.duration_ms);
        for notice in report.notices {
            if !notices.contains(&notice) {
                notices.push(notice);
            }
        }
        for path in report.paths {
            if !paths.contains(&path) {
                paths.push(path);
            }
        }
        if let (Some(into), Some(from)) = (merged.baseline.as_mut(), report.baseline) {
            merge_baseline(into, from);
        }
        merged.cases.extend(report.cases);
    }

    if let Some(first) = first_partition {
        let missing: Vec<String> =
            (1..=first.count).filter(|k| !shards.contains_key(k)).map(|k| format!("{k}/{}", first.count)).collect();
        if !missing.is_empty() {
            notices.push(Notice::error(format!(
                "merged report is incomplete: shard{} {} missing",
                if missing.len() == 1 { "" } else { "s" },
                missing.join(", ")
            )));
        }
    }
    merged.partition = None;
    merged.notices = notices;
    merged.paths = paths;
    // Path order is discovery order: walks are sorted by file name.
    merged.cases.sort_by(|a, b| std::path::Path::new(&a.path).cmp(std::path::Path::new(&b.path)).then(a.id.cmp(&b.id)));
    merged.recount();
    Ok(merged)
}

/// Combines what one baseline did on two shards: the case lists are joined,
/// and an entry is stale only when no shard's corpus had a match (every
/// shard loads the whole corpus, so in practice they agree).
fn merge_baseline(into: &mut BaselineSummary, from: BaselineSummary) {
    let mut position: HashMap<String, usize> =
        into.entries.iter().enumerate().map(|(at, e)| (e.id.clone(), at)).collect();
    for entry in from.entries {
        match position.get(&entry.id).and_then(|&at| into.entries.get_mut(at)) {
            Some(existing) => join_entry(existing, entry),
            None => {
                position.insert(entry.id.clone(), into.entries.len());
                into.entries.push(entry);
            }
        }
    }
}

fn join_entry(into: &mut EntryOutcome, from: EntryOutcome) {
    into.status = match (into.status, from.status) {
        (EntryStatus::Expired, _) | (_, EntryStatus::Expired) => EntryStatus::Expired,
        (EntryStatus::Active, _) | (_, EntryStatus::Active) => EntryStatus::Active,
        (EntryStatus::Stale, _) | (_, EntryStatus::Stale) => EntryStatus::Stale,
        _ => EntryStatus::Unchecked,
    };
    let mut seen: BTreeSet<String> = into.expected.iter().chain(&into.passed).cloned().collect();
    seen.extend(into.changed.iter().map(|c| c.id.clone()));
    into.expected.extend(from.expected.into_iter().filter(|id| !seen.contains(id)));
    into.passed.extend(from.passed.into_iter().filter(|id| !seen.contains(id)));
    into.changed.extend(from.changed.into_iter().filter(|c| !seen.contains(&c.id)));
}
