//! Sorting every fixture of two runs into regressions, fixes, changed
//! failures, other changes, new and removed fixtures.

use super::model::{CaseChange, CaseOnlyIn, CaseState, ReportDiff, RunIdentity, Standing};
use crate::report::cluster::message_class;
use crate::report::{CaseReport, RunReport};
use std::collections::HashMap;

/// Diffs two reports. `old_path` and `new_path` label the runs.
pub fn diff_reports(old: &RunReport, new: &RunReport, old_path: &str, new_path: &str) -> ReportDiff {
    let old_cases: HashMap<&str, &CaseReport> = old.cases.iter().map(|c| (c.id.as_str(), c)).collect();
    let new_ids: HashMap<&str, ()> = new.cases.iter().map(|c| (c.id.as_str(), ())).collect();
    let mut diff = ReportDiff {
        old: RunIdentity::of(old, old_path),
        new: RunIdentity::of(new, new_path),
        regressions: Vec::new(),
        fixes: Vec::new(),
        changed_failures: Vec::new(),
        other_changes: Vec::new(),
        added: Vec::new(),
        removed: Vec::new(),
        unchanged: 0,
    };
    for case in &new.cases {
        let Some(before) = old_cases.get(case.id.as_str()) else {
            diff.added.push(CaseOnlyIn { id: case.id.clone(), verdict: case.verdict, message: case.message.clone() });
            continue;
        };
        let change = CaseChange {
            id: case.id.clone(),
            suite: case.suite.clone(),
            path: case.path.clone(),
            old: CaseState::of(before),
            new: CaseState::of(case),
        };
        match (Standing::of(before.verdict), Standing::of(case.verdict)) {
            (Standing::Passing, Standing::Passing) => diff.unchanged += 1,
            (Standing::Passing, _) => diff.regressions.push(change),
            (_, Standing::Passing) => diff.fixes.push(change),
            (Standing::Failing, Standing::Failing) => {
                // Message classes, not raw messages: "timed out after 5012 ms"
                // and "… 5031 ms" are the same failure.
                let class = |state: &CaseState| message_class(state.message.as_deref().unwrap_or(""));
                let same = change.old.verdict == change.new.verdict
                    && change.old.signatures() == change.new.signatures()
                    && class(&change.old) == class(&change.new);
                if same {
                    diff.unchanged += 1;
                } else {
                    diff.changed_failures.push(change);
                }
            }
            _ if before.verdict == case.verdict => diff.unchanged += 1,
            _ => diff.other_changes.push(change),
        }
    }
    for case in &old.cases {
        if !new_ids.contains_key(case.id.as_str()) {
            diff.removed.push(CaseOnlyIn { id: case.id.clone(), verdict: case.verdict, message: case.message.clone() });
        }
    }
    diff
}
