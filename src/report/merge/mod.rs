//! Merging shard reports (`conform run --partition K/N` on N machines) into
//! the report one full run would have written.
//!
//! Merging refuses what would give a misleading result ([`MergeError`]):
//! reports from different harness versions, implementations or baselines,
//! reports of different selections (fixture tree, `--suite`, `--filter`),
//! shards of different splits, the same shard twice, a missing shard, a
//! shard holding fewer cases than it selected, two reports judging the same
//! fixture, and reports that do not say what they selected (written before
//! reports recorded it).

mod checks;
mod error;

pub use error::MergeError;

use super::baseline_summary::{BaselineSummary, EntryOutcome, EntryStatus};
use super::model::RunReport;
use checks::{check_same_run, check_same_selection, check_shares, selection_of};
use std::collections::{BTreeSet, HashMap};

/// Merges reports into one. Cases are ordered by fixture path (the order a
/// full run discovers them in); counts and clusters are recomputed.
pub fn merge(reports: Vec<RunReport>) -> Result<RunReport, MergeError> {
    let first = reports.first().ok_or(MergeError::Empty)?;
    selection_of(1, first)?;
    for (offset, report) in reports.iter().enumerate().skip(1) {
        check_same_run(offset + 1, report, first)?;
        check_same_selection(offset + 1, report, first)?;
    }
    check_shares(&reports)?;

    let mut reports = reports.into_iter();
    let mut merged = reports.next().ok_or(MergeError::Empty)?;
    let mut owner: HashMap<String, usize> = merged.cases.iter().map(|c| (c.id.clone(), 1)).collect();
    for (offset, report) in reports.enumerate() {
        let index = offset + 2;
        for case in &report.cases {
            if let Some(&first) = owner.get(&case.id) {
                return Err(MergeError::Overlap { id: case.id.clone(), first, second: index });
            }
            owner.insert(case.id.clone(), index);
        }
        join_run(&mut merged, report);
    }
    merged.partition = None;
    if let Some(selection) = merged.selection.as_mut() {
        selection.selected = selection.fixtures;
    }
    // Path order is discovery order: walks are sorted by file name.
    merged.cases.sort_by(|a, b| std::path::Path::new(&a.path).cmp(std::path::Path::new(&b.path)).then(a.id.cmp(&b.id)));
    merged.recount();
    Ok(merged)
}

/// Adds a checked shard to `merged`: its cases, its notices and paths
/// (each once), its baseline outcomes, and the span of time both ran in.
fn join_run(merged: &mut RunReport, report: RunReport) {
    if report.started_at < merged.started_at {
        merged.started_at = report.started_at.clone();
    }
    merged.duration_ms = merged.duration_ms.max(report.duration_ms);
    join_new(&mut merged.notices, report.notices);
    join_new(&mut merged.paths, report.paths);
    if let (Some(into), Some(from)) = (merged.baseline.as_mut(), report.baseline) {
        merge_baseline(into, from);
    }
    merged.cases.extend(report.cases);
}

/// Appends the items of `from` that `into` does not hold yet (a handful:
/// notices and paths).
fn join_new<T: PartialEq>(into: &mut Vec<T>, from: Vec<T>) {
    for item in from {
        if !into.contains(&item) {
            into.push(item);
        }
    }
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
