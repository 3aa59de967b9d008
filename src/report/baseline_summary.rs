//! What applying a baseline did, as recorded in the report: per entry, the
//! fixtures that failed as listed, passed unexpectedly or failed differently,
//! and whether the entry is stale or expired.
//!
//! It is part of the JSON report, so `conform baseline write` can keep the
//! reasons of entries that survive and `conform report merge` can combine
//! the findings of shards.

use super::model::Verdict;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

/// The state of one baseline entry after a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EntryStatus {
    /// It names at least one loaded fixture and has not expired.
    Active,
    /// It names no loaded fixture: remove it (fails the run).
    Stale,
    /// Its expiry date has passed (fails the run; it no longer excuses failures).
    Expired,
    /// It names a suite this run did not load, so it could not be checked.
    Unchecked,
}

impl EntryStatus {
    /// The kebab-case name used in every report.
    pub fn as_str(self) -> &'static str {
        match self {
            EntryStatus::Active => "active",
            EntryStatus::Stale => "stale",
            EntryStatus::Expired => "expired",
            EntryStatus::Unchecked => "unchecked",
        }
    }

    /// Whether this status alone fails the run.
    pub fn fails_run(self) -> bool {
        matches!(self, EntryStatus::Stale | EntryStatus::Expired)
    }
}

/// A fixture a baseline entry listed that failed with another verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangedCase {
    /// The fixture id.
    pub id: String,
    /// The verdict it got instead.
    pub verdict: Verdict,
}

/// One entry and what became of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryOutcome {
    /// The fixture id or glob, as written.
    pub id: String,
    /// The verdict the entry expects.
    pub verdict: Verdict,
    /// Why the fixture fails.
    pub reason: String,
    /// Issue link or key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub issue: Option<String>,
    /// Last valid day (`YYYY-MM-DD`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires: Option<String>,
    /// 1-based line in the baseline file (0 when unknown).
    pub line: usize,
    /// Stale, expired, …
    pub status: EntryStatus,
    /// Fixtures that failed as listed (now `xfail`, or still `skipped`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expected: Vec<String>,
    /// Fixtures that passed although listed (now `xpass`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub passed: Vec<String>,
    /// Fixtures that failed with a verdict other than the listed one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changed: Vec<ChangedCase>,
}

impl EntryOutcome {
    /// One line describing why the entry fails the run, if it does.
    pub fn problem(&self) -> Option<String> {
        let at = if self.line > 0 { format!(" (line {})", self.line) } else { String::new() };
        match self.status {
            EntryStatus::Stale => Some(format!("stale entry `{}`{at} matches no fixture: remove it", self.id)),
            EntryStatus::Expired => Some(format!(
                "entry `{}`{at} expired on {}: fix the fixture or extend `expires` ({})",
                self.id,
                self.expires.as_deref().unwrap_or("?"),
                self.reason
            )),
            EntryStatus::Active | EntryStatus::Unchecked => None,
        }
    }
}

/// The baseline section of a report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BaselineSummary {
    /// The baseline file, as given.
    pub path: String,
    /// The day expiry dates were checked against (`YYYY-MM-DD`).
    pub today: String,
    /// The implementation the baseline was written for, if it says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub implementation: Option<String>,
    /// Every entry, in file order.
    pub entries: Vec<EntryOutcome>,
}

impl BaselineSummary {
    /// For every case an entry names, the entry that turned it into `xfail`
    /// or `xpass` (or kept it `skipped`, or saw it fail differently): the
    /// first such entry, found in one lookup per case (a search of every
    /// entry per case would be quadratic in a large baseline).
    pub fn entries_by_case(&self) -> HashMap<&str, &EntryOutcome> {
        let mut entries = HashMap::new();
        for entry in &self.entries {
            let named = entry.expected.iter().chain(&entry.passed).map(String::as_str);
            for id in named.chain(entry.changed.iter().map(|c| c.id.as_str())) {
                entries.entry(id).or_insert(entry);
            }
        }
        entries
    }

    /// The verdict an expected failure had before the baseline excused it.
    pub fn expected_verdict_of(&self, id: &str) -> Option<Verdict> {
        self.entries.iter().find(|e| e.expected.iter().any(|c| c == id)).map(|e| e.verdict)
    }

    /// [`BaselineSummary::expected_verdict_of`] of every expected failure at
    /// once, for callers that ask about every case (one search each would
    /// be quadratic in a large baseline).
    pub fn expected_verdicts(&self) -> HashMap<&str, Verdict> {
        let mut verdicts = HashMap::new();
        for entry in &self.entries {
            for id in &entry.expected {
                verdicts.entry(id.as_str()).or_insert(entry.verdict);
            }
        }
        verdicts
    }

    /// The ids of every case an entry names (the keys of
    /// [`BaselineSummary::entries_by_case`]).
    pub fn listed_cases(&self) -> HashSet<&str> {
        let mut listed = HashSet::new();
        for entry in &self.entries {
            listed.extend(entry.expected.iter().chain(&entry.passed).map(String::as_str));
            listed.extend(entry.changed.iter().map(|c| c.id.as_str()));
        }
        listed
    }

    /// One line per entry that fails the run (stale or expired).
    pub fn problems(&self) -> Vec<String> {
        self.entries.iter().filter_map(EntryOutcome::problem).collect()
    }

    /// Whether any entry fails the run.
    pub fn fails_run(&self) -> bool {
        self.entries.iter().any(|e| e.status.fails_run())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str, expected: &[&str], passed: &[&str], changed: &[&str]) -> EntryOutcome {
        EntryOutcome {
            id: id.to_owned(),
            verdict: Verdict::Fail,
            reason: String::new(),
            issue: None,
            expires: None,
            line: 1,
            status: EntryStatus::Active,
            expected: expected.iter().map(|id| (*id).to_owned()).collect(),
            passed: passed.iter().map(|id| (*id).to_owned()).collect(),
            changed: changed.iter().map(|id| ChangedCase { id: (*id).to_owned(), verdict: Verdict::Crash }).collect(),
        }
    }

    #[test]
    fn each_named_case_maps_to_the_first_entry_naming_it() {
        let summary = BaselineSummary {
            path: "known-failures.toml".to_owned(),
            today: "2026-01-01".to_owned(),
            implementation: None,
            entries: vec![
                entry("chat/a*", &["chat/a1"], &["chat/a2"], &["chat/a3"]),
                entry("chat/*", &["chat/a1", "chat/b"], &[], &[]),
            ],
        };
        let entries = summary.entries_by_case();
        let named = |id: &str| entries.get(id).map(|entry| entry.id.as_str());
        assert_eq!(named("chat/a1"), Some("chat/a*"), "the first entry wins");
        assert_eq!(named("chat/a2"), Some("chat/a*"));
        assert_eq!(named("chat/a3"), Some("chat/a*"));
        assert_eq!(named("chat/b"), Some("chat/*"));
        assert_eq!(named("chat/c"), None);
        let keys: HashSet<&str> = entries.keys().copied().collect();
        assert_eq!(keys, summary.listed_cases());
    }
}
