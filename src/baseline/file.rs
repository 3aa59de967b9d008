//! The known-failures file: a TOML document people edit by hand, parsed into
//! a validated [`Baseline`].
//!
//! ```toml
//! version = 1
//! implementation = "swift-decoder"   # optional: warns when used for another
//!
//! [[known-failure]]
//! id = "chat/claude-tool-use-result-pair"   # a fixture id, or a glob such as "chat/codex-*"
//! verdict = "fail"                          # fail, error, crash, timeout, protocol-error, skipped, unsupported
//! reason = "tool results are not folded into their tool block yet"
//! issue = "https://tracker.example/DEC-142" # optional
//! expires = 2026-12-31                      # optional: after this day the entry fails the run
//! ```
//!
//! Every problem is one error naming the file and line, so a typo never turns
//! into a silently ignored entry (unknown keys are rejected too).

use crate::json::line_column;
use crate::report::Verdict;
use chrono::NaiveDate;
use globset::{Glob, GlobBuilder, GlobMatcher, GlobSet, GlobSetBuilder};
use serde::Deserialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use thiserror::Error;
use toml::Spanned;

/// The baseline format version this harness reads and writes.
pub const BASELINE_FORMAT_VERSION: u32 = 1;

/// Verdicts an entry may expect: the ones an implementation earns on a
/// fixture it does not (yet) handle. `invalid` and `unsupported-version` are
/// problems of the corpus or the harness, which a baseline must not hide.
pub const BASELINE_VERDICTS: [Verdict; 7] = [
    Verdict::Fail,
    Verdict::Error,
    Verdict::Crash,
    Verdict::Timeout,
    Verdict::ProtocolError,
    Verdict::Skipped,
    Verdict::Unsupported,
];

/// A problem with a baseline file.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum BaselineError {
    /// The file could not be read.
    #[error("{}: cannot read the baseline: {message}", path.display())]
    Read {
        /// The baseline file.
        path: PathBuf,
        /// The operating system's reason.
        message: String,
    },
    /// The file is not valid TOML, or does not have the baseline's shape.
    #[error("{}:{line}:{column}: {message}", path.display())]
    Syntax {
        /// The baseline file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// One entry is well-formed TOML but not a valid entry.
    #[error("{}:{line}: known-failure `{id}`: {message}", path.display())]
    Entry {
        /// The baseline file.
        path: PathBuf,
        /// 1-based line of the entry's `id`.
        line: usize,
        /// The entry's `id`.
        id: String,
        /// What is wrong.
        message: String,
    },
}

/// How an entry names fixtures.
#[derive(Clone, Debug)]
enum Matcher {
    Exact,
    Glob(Box<(Glob, GlobMatcher)>),
}

/// One known failure.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The fixture id (`suite/name`) or a glob over ids, as written.
    pub id: String,
    /// The verdict the fixture is expected to get.
    pub verdict: Verdict,
    /// Why it fails (required: an entry without a reason is never reviewed).
    pub reason: String,
    /// A link to (or key of) the issue that tracks the fix.
    pub issue: Option<String>,
    /// The last day the entry holds; after it the entry fails the run.
    pub expires: Option<NaiveDate>,
    /// 1-based line of the entry in its file (0 when built in code).
    pub line: usize,
    matcher: Matcher,
}

impl Entry {
    /// Builds an entry; `id` is a glob when it contains `*`, `?`, `[` or `{`.
    pub fn new(id: &str, verdict: Verdict, reason: &str) -> Result<Self, String> {
        if id.trim().is_empty() {
            return Err("`id` is empty".to_owned());
        }
        if !BASELINE_VERDICTS.contains(&verdict) {
            return Err(verdict_problem(verdict.as_str()));
        }
        if reason.trim().is_empty() {
            return Err("`reason` is empty: say why the fixture fails, so the entry can be reviewed".to_owned());
        }
        let matcher = if is_glob(id) {
            let glob =
                GlobBuilder::new(id).literal_separator(false).build().map_err(|err| format!("bad glob: {err}"))?;
            let matcher = glob.compile_matcher();
            Matcher::Glob(Box::new((glob, matcher)))
        } else {
            Matcher::Exact
        };
        Ok(Entry {
            id: id.to_owned(),
            verdict,
            reason: reason.to_owned(),
            issue: None,
            expires: None,
            line: 0,
            matcher,
        })
    }

    /// Whether the entry names fixtures by glob rather than by exact id.
    pub fn is_glob(&self) -> bool {
        matches!(self.matcher, Matcher::Glob(_))
    }

    /// Whether the entry names the fixture `id`.
    pub fn matches(&self, id: &str) -> bool {
        match &self.matcher {
            Matcher::Exact => self.id == id,
            Matcher::Glob(glob) => glob.1.is_match(id),
        }
    }

    /// Whether the entry is past its expiry date on `today`. An entry is
    /// still valid on the day it expires.
    pub fn is_expired(&self, today: NaiveDate) -> bool {
        self.expires.is_some_and(|last_day| today > last_day)
    }

    /// The suite the entry is about, when its id names one literally.
    pub fn suite(&self) -> Option<&str> {
        let (suite, _) = self.id.split_once('/')?;
        (!is_glob(suite)).then_some(suite)
    }
}

fn is_glob(text: &str) -> bool {
    text.contains(['*', '?', '[', '{'])
}

fn verdict_problem(verdict: &str) -> String {
    let allowed: Vec<&str> = BASELINE_VERDICTS.iter().map(|v| v.as_str()).collect();
    let hint = match verdict {
        "pass" => " (a passing fixture needs no entry)",
        "xfail" | "xpass" => " (those are what the baseline turns verdicts into)",
        "invalid" | "unsupported-version" => " (fix the fixture or upgrade conform; a baseline cannot hide that)",
        _ => "",
    };
    format!("`verdict = \"{verdict}\"` is not allowed{hint}; use one of: {}", allowed.join(", "))
}

/// A parsed known-failures file.
#[derive(Clone, Debug, Default)]
pub struct Baseline {
    /// Where it was read from (empty when built in code).
    pub path: PathBuf,
    /// The implementation the baseline was written for, if stated.
    pub implementation: Option<String>,
    /// The entries, in file order. The lookups ([`Baseline::entry_for`],
    /// [`Baseline::matching`]) index them on first use: change them before.
    pub entries: Vec<Entry>,
    index: OnceLock<EntryIndex>,
}

/// Which entries name a fixture id, found in time that does not grow with
/// the number of entries: exact ids in a map, every glob compiled into one
/// set. Applying a baseline is then linear in its entries plus the cases.
#[derive(Clone, Debug, Default)]
pub struct EntryIndex {
    exact: HashMap<String, usize>,
    globs: GlobSet,
    /// The entry index of each glob of `globs`, in file order.
    glob_entries: Vec<usize>,
}

impl EntryIndex {
    /// Indexes `entries`.
    pub fn new(entries: &[Entry]) -> Self {
        let mut exact = HashMap::with_capacity(entries.len());
        let mut builder = GlobSetBuilder::new();
        let mut glob_entries = Vec::new();
        for (index, entry) in entries.iter().enumerate() {
            match &entry.matcher {
                Matcher::Exact => {
                    exact.entry(entry.id.clone()).or_insert(index);
                }
                Matcher::Glob(glob) => {
                    builder.add(glob.0.clone());
                    glob_entries.push(index);
                }
            }
        }
        // Each glob compiled alone already; the set fails only past the
        // regex engine's size limits, and then matches nothing through the
        // set: the globs are tried one by one instead.
        let globs = builder.build().unwrap_or_else(|_| GlobSet::empty());
        let glob_entries = if globs.len() == glob_entries.len() { glob_entries } else { Vec::new() };
        EntryIndex { exact, globs, glob_entries }
    }

    /// The entry that covers `id` among `entries` (the ones indexed): an
    /// exact entry wins over globs; among globs, the first in the list.
    pub fn covering<'a>(&self, entries: &'a [Entry], id: &str) -> Option<(usize, &'a Entry)> {
        if let Some(&index) = self.exact.get(id) {
            return entries.get(index).map(|entry| (index, entry));
        }
        let index = if self.globs_in_set(entries) {
            self.globs.matches(id).into_iter().next().map(|at| self.glob_entries[at])
        } else {
            entries.iter().position(|e| e.is_glob() && e.matches(id))
        }?;
        entries.get(index).map(|entry| (index, entry))
    }

    /// Every entry of `entries` that names `id`, in file order.
    pub fn matching(&self, entries: &[Entry], id: &str, out: &mut Vec<usize>) {
        out.clear();
        if self.globs_in_set(entries) {
            self.globs.matches_into(id, out);
            for at in out.iter_mut() {
                *at = self.glob_entries[*at];
            }
        } else {
            out.extend(entries.iter().enumerate().filter(|(_, e)| e.is_glob() && e.matches(id)).map(|(i, _)| i));
        }
        if let Some(&index) = self.exact.get(id) {
            out.push(index);
        }
        out.sort_unstable();
    }

    /// Whether the globs went into the set (else they are tried one by one).
    fn globs_in_set(&self, entries: &[Entry]) -> bool {
        !self.glob_entries.is_empty() || !entries.iter().any(Entry::is_glob)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    version: Option<Spanned<i64>>,
    implementation: Option<String>,
    #[serde(rename = "known-failure", default)]
    known_failures: Vec<RawEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    id: Spanned<String>,
    verdict: String,
    reason: String,
    issue: Option<String>,
    expires: Option<toml::Value>,
}

impl Baseline {
    /// Reads and validates a baseline file.
    pub fn read(path: &Path) -> Result<Self, BaselineError> {
        let read_error = |message: String| BaselineError::Read { path: path.to_owned(), message };
        // Only a regular file within the fixture size limit (a FIFO or a
        // device named as a baseline is refused at once).
        let bytes = crate::files::read_limited(path, crate::files::Bound::fixture())
            .map_err(|err| read_error(err.to_string()))?;
        let text = String::from_utf8(bytes).map_err(|err| read_error(format!("not UTF-8: {err}")))?;
        Baseline::parse(&text, path)
    }

    /// Parses baseline text; `path` only labels errors.
    pub fn parse(text: &str, path: &Path) -> Result<Self, BaselineError> {
        let syntax = |offset: usize, message: String| {
            let (line, column) = line_column(text, offset);
            BaselineError::Syntax { path: path.to_owned(), line, column, message }
        };
        let raw: RawFile = toml::from_str(text).map_err(|err| {
            let offset = err.span().map_or(0, |span| span.start);
            syntax(offset, err.message().trim().to_owned())
        })?;
        if let Some(version) = &raw.version
            && *version.get_ref() != i64::from(BASELINE_FORMAT_VERSION)
        {
            return Err(syntax(
                version.span().start,
                format!(
                    "baseline version {} is not supported (this conform reads version {BASELINE_FORMAT_VERSION})",
                    version.get_ref()
                ),
            ));
        }
        let mut entries: Vec<Entry> = Vec::with_capacity(raw.known_failures.len());
        let lines = LineStarts::of(text);
        let mut first_line_of: HashMap<String, usize> = HashMap::with_capacity(raw.known_failures.len());
        for raw_entry in raw.known_failures {
            let line = lines.line_of(raw_entry.id.span().start);
            let id = raw_entry.id.into_inner();
            let problem =
                |message: String| BaselineError::Entry { path: path.to_owned(), line, id: id.clone(), message };
            let verdict = Verdict::ALL
                .into_iter()
                .find(|v| v.as_str() == raw_entry.verdict)
                .ok_or_else(|| problem(verdict_problem(&raw_entry.verdict)))?;
            let mut entry = Entry::new(&id, verdict, &raw_entry.reason).map_err(&problem)?;
            entry.line = line;
            entry.issue = raw_entry.issue.filter(|issue| !issue.trim().is_empty());
            entry.expires = raw_entry.expires.map(|value| parse_date(&value)).transpose().map_err(&problem)?;
            if let Some(first) = first_line_of.insert(entry.id.clone(), entry.line) {
                return Err(problem(format!("listed twice (first on line {first})")));
            }
            entries.push(entry);
        }
        Ok(Baseline { path: path.to_owned(), implementation: raw.implementation, entries, index: OnceLock::new() })
    }

    /// A baseline of `entries` built in code.
    pub fn of_entries(path: PathBuf, implementation: Option<String>, entries: Vec<Entry>) -> Self {
        Baseline { path, implementation, entries, index: OnceLock::new() }
    }

    fn index(&self) -> &EntryIndex {
        self.index.get_or_init(|| EntryIndex::new(&self.entries))
    }

    /// The entry that covers fixture `id`, with its index (an exact entry wins over globs; among globs, the first in the file).
    pub fn entry_for(&self, id: &str) -> Option<(usize, &Entry)> {
        self.index().covering(&self.entries, id)
    }

    /// The indexes of every entry that names fixture `id`, in file order, into `out`.
    pub fn matching(&self, id: &str, out: &mut Vec<usize>) {
        self.index().matching(&self.entries, id, out);
    }
}

/// Where each line of a text starts, so each entry's line is found by a
/// binary search instead of a count from the start (which made parsing
/// quadratic in the number of entries).
struct LineStarts(Vec<usize>);

impl LineStarts {
    fn of(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|at| at + 1));
        LineStarts(starts)
    }

    /// The 1-based line of byte `offset`.
    fn line_of(&self, offset: usize) -> usize {
        self.0.partition_point(|&start| start <= offset)
    }
}

/// `expires` as a TOML local date (`2026-12-31`) or a string holding one.
fn parse_date(value: &toml::Value) -> Result<NaiveDate, String> {
    let invalid = || format!("`expires` must be a date such as 2026-12-31, not {value}");
    match value {
        toml::Value::Datetime(datetime) => match (datetime.date, datetime.time) {
            (Some(date), None) => {
                NaiveDate::from_ymd_opt(i32::from(date.year), u32::from(date.month), u32::from(date.day))
                    .ok_or_else(invalid)
            }
            _ => Err(invalid()),
        },
        toml::Value::String(text) => NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d").map_err(|_| invalid()),
        _ => Err(invalid()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Baseline, BaselineError> {
        Baseline::parse(text, Path::new("known-failures.toml"))
    }

    #[test]
    fn a_full_entry_parses() {
        let baseline = parse(
            "version = 1\nimplementation = \"swift\"\n\n[[known-failure]]\nid = \"chat/a\"\nverdict = \"crash\"\n\
             reason = \"stack overflow\"\nissue = \"DEC-1\"\nexpires = 2026-12-31\n\n\
             [[known-failure]]\nid = \"sse/*\"\nverdict = \"fail\"\nreason = \"not done\"\nexpires = \"2027-01-02\"\n",
        )
        .unwrap();
        assert_eq!(baseline.implementation.as_deref(), Some("swift"));
        let first = &baseline.entries[0];
        assert_eq!((first.verdict, first.line, first.issue.as_deref()), (Verdict::Crash, 5, Some("DEC-1")));
        assert_eq!(first.expires, NaiveDate::from_ymd_opt(2026, 12, 31));
        assert!(!first.is_glob() && baseline.entries[1].is_glob());
        assert_eq!(baseline.entries[1].expires, NaiveDate::from_ymd_opt(2027, 1, 2));
        assert!(baseline.entries[1].matches("sse/x/y") && !baseline.entries[1].matches("chat/x"));
    }

    #[test]
    fn exact_entries_win_over_globs() {
        let baseline = parse(
            "[[known-failure]]\nid = \"chat/*\"\nverdict = \"fail\"\nreason = \"r\"\n\
             [[known-failure]]\nid = \"chat/a\"\nverdict = \"error\"\nreason = \"r\"\n",
        )
        .unwrap();
        assert_eq!(baseline.entry_for("chat/a").map(|(i, _)| i), Some(1));
        assert_eq!(baseline.entry_for("chat/b").map(|(i, _)| i), Some(0));
        assert!(baseline.entry_for("sse/b").is_none());
    }

    #[test]
    fn expiry_is_inclusive_of_the_last_day() {
        let mut entry = Entry::new("chat/a", Verdict::Fail, "r").unwrap();
        entry.expires = NaiveDate::from_ymd_opt(2026, 3, 1);
        assert!(!entry.is_expired(NaiveDate::from_ymd_opt(2026, 3, 1).unwrap()));
        assert!(entry.is_expired(NaiveDate::from_ymd_opt(2026, 3, 2).unwrap()));
    }

    #[test]
    fn each_problem_names_file_and_line() {
        let cases = [
            ("[[known-failure]]\nid = \"chat/a\"\nverdict = \"pass\"\nreason = \"r\"\n", "known-failures.toml:2:"),
            ("[[known-failure]]\nid = \"chat/a\"\nverdict = \"fail\"\nreason = \" \"\n", "`reason` is empty"),
            ("[[known-failure]]\nid = \"chat/a\"\nverdict = \"fail\"\nreason = \"r\"\nowner = \"x\"\n", "owner"),
            ("[[known-failure]]\nid = \"chat/a\"\nverdict = \"fail\"\nreason = \"r\"\nexpires = 12\n", "expires"),
            ("[[known-failure]]\nid = \"chat/[\"\nverdict = \"fail\"\nreason = \"r\"\n", "bad glob"),
            ("version = 2\n", "known-failures.toml:1:11: baseline version 2"),
            ("[[known-failure]\n", "known-failures.toml:1:"),
            (
                "[[known-failure]]\nid = \"a/b\"\nverdict = \"fail\"\nreason = \"r\"\n\
                 [[known-failure]]\nid = \"a/b\"\nverdict = \"fail\"\nreason = \"r\"\n",
                "listed twice (first on line 2)",
            ),
        ];
        for (text, expected) in cases {
            let message = parse(text).unwrap_err().to_string();
            assert!(message.contains(expected), "{message:?} should contain {expected:?}");
        }
    }

    #[test]
    fn the_index_finds_what_a_search_of_every_entry_finds() {
        let mut text = String::new();
        for n in 0..3_000 {
            let id = if n % 100 == 0 { format!("chat/g{}-*", n / 100) } else { format!("chat/g{}-{n}", n / 100) };
            text.push_str(&format!("[[known-failure]]\nid = \"{id}\"\nverdict = \"fail\"\nreason = \"r\"\n"));
        }
        text.push_str("[[known-failure]]\nid = \"*/g1-1*\"\nverdict = \"fail\"\nreason = \"r\"\n");
        let baseline = parse(&text).unwrap();
        assert_eq!(baseline.entries[2_999].line, 2_999 * 4 + 2);
        for id in ["chat/g1-101", "chat/g1-150", "chat/g29-2999", "chat/g29-x", "chat/g1-1", "sse/g1-17", "other"] {
            let slow_exact = baseline.entries.iter().position(|e| !e.is_glob() && e.matches(id));
            let slow = slow_exact.or_else(|| baseline.entries.iter().position(|e| e.is_glob() && e.matches(id)));
            assert_eq!(baseline.entry_for(id).map(|(at, _)| at), slow, "{id}");
            let every: Vec<usize> =
                baseline.entries.iter().enumerate().filter(|(_, e)| e.matches(id)).map(|(at, _)| at).collect();
            let mut found = Vec::new();
            baseline.matching(id, &mut found);
            assert_eq!(found, every, "{id}");
        }
        let twice = format!("{text}[[known-failure]]\nid = \"chat/g5-517\"\nverdict = \"fail\"\nreason = \"r\"\n");
        let message = parse(&twice).unwrap_err().to_string();
        assert!(
            message.contains(":12006: known-failure `chat/g5-517`: listed twice (first on line 2070)"),
            "{message}"
        );
    }
}
