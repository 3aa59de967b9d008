//! Review before accept: how new and changed fixtures reach the repository.
//!
//! Commands that produce fixtures (`capture`, `regen`, `reduce`) never touch
//! a fixture file directly. They write `NAME.json.new` beside the target, and
//! a person accepts or rejects it (`conform review`). Writing in place needs
//! an explicit `--accept`, which is refused when the `CI` environment
//! variable is set: expectations are never blessed by a machine. Every write
//! goes through a temporary file and a rename, so an interrupted command
//! leaves either the old file or the new one, never half of one.
//!
//! [`session`] is one whole `conform review`: the decisions the flags
//! script, the listing, or the questions asked one fixture at a time.

use crate::compare::{DIFF_CONTEXT, DiffHunk, DiffTag, Difference, differences, render_labeled, text_diff};
use crate::files::write_atomically;
use crate::fixture::{enclosing_suite, file_stem};
use crate::json;
use std::path::{Path, PathBuf};
use thiserror::Error;
use walkdir::WalkDir;

pub mod session;

/// Appended to a fixture's file name for its pending version.
pub const PENDING_SUFFIX: &str = ".new";

/// What can go wrong while writing or reviewing fixtures.
#[derive(Debug, Error)]
pub enum ReviewError {
    /// `--accept` (or accepting in `conform review`) while `CI` is set.
    #[error(
        "refusing to accept while the CI environment variable is set: expectations are never updated in CI; \
         write .json.new files and review them locally (`conform review`)"
    )]
    AcceptInCi,
    /// A file could not be written (the message names it).
    #[error("{0}")]
    Write(String),
    /// A file could not be read, written, renamed or removed.
    #[error("{}: {message}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// A `--accept` or `--reject` pattern is not a glob.
    #[error("invalid glob {pattern:?}: {message}")]
    BadGlob {
        /// The pattern as given.
        pattern: String,
        /// Why it is not a glob.
        message: String,
    },
    /// The answer to a question could not be read.
    #[error("cannot read the answer: {0}")]
    Answer(String),
    /// What the review says could not be written (to the terminal).
    #[error("cannot write the review")]
    Output(#[source] std::io::Error),
    /// A pending file is not valid JSON, so accepting it would break the fixture.
    #[error("{}: cannot accept: not valid JSON ({message})", path.display())]
    BrokenPending {
        /// The pending file.
        path: PathBuf,
        /// The parser's message.
        message: String,
    },
    /// A path given to `review` does not exist.
    #[error("{}: no such file or directory", .0.display())]
    MissingPath(PathBuf),
}

/// A failed atomic write (its message names the file).
fn write_error(err: std::io::Error) -> ReviewError {
    ReviewError::Write(err.to_string())
}

fn io_error(path: &Path, err: std::io::Error) -> ReviewError {
    ReviewError::Io { path: path.to_path_buf(), message: err.to_string() }
}

/// Whether the `CI` environment variable says this is a CI run (set to
/// anything but empty, `0` or `false`).
pub fn running_in_ci() -> bool {
    std::env::var("CI").is_ok_and(|value| !matches!(value.trim().to_ascii_lowercase().as_str(), "" | "0" | "false"))
}

/// How a fixture-producing command writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteMode {
    /// Write `NAME.json.new` for review (the default).
    Pending,
    /// Write `NAME.json` in place (`--accept`).
    Accept,
}

impl WriteMode {
    /// The mode for an `--accept` flag; accepting is refused in CI.
    pub fn from_accept_flag(accept: bool, in_ci: bool) -> Result<WriteMode, ReviewError> {
        match (accept, in_ci) {
            (false, _) => Ok(WriteMode::Pending),
            (true, false) => Ok(WriteMode::Accept),
            (true, true) => Err(ReviewError::AcceptInCi),
        }
    }
}

/// What [`write_fixture`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Written {
    /// The target already holds exactly these bytes; nothing was written.
    Unchanged(PathBuf),
    /// Written as a pending file, to review.
    Pending(PathBuf),
    /// Written in place.
    Accepted(PathBuf),
}

/// The pending file of a fixture: `x.json` → `x.json.new`.
pub fn pending_path(target: &Path) -> PathBuf {
    let mut name = target.as_os_str().to_owned();
    name.push(PENDING_SUFFIX);
    PathBuf::from(name)
}

/// The fixture a pending file proposes: `x.json.new` → `x.json`.
pub fn target_of(pending: &Path) -> Option<PathBuf> {
    let name = pending.to_str()?;
    let target = name.strip_suffix(PENDING_SUFFIX)?;
    target.ends_with(".json").then(|| PathBuf::from(target))
}

/// Writes a fixture's proposed bytes: as `target.new` (pending) or in place
/// (accept), atomically; nothing when the target already holds them.
pub fn write_fixture(target: &Path, contents: &str, mode: WriteMode) -> Result<Written, ReviewError> {
    if std::fs::read(target).is_ok_and(|current| current == contents.as_bytes()) {
        return Ok(Written::Unchanged(target.to_path_buf()));
    }
    if let Some(folder) = target.parent().filter(|f| !f.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder).map_err(|err| io_error(folder, err))?;
    }
    match mode {
        WriteMode::Pending => {
            let pending = pending_path(target);
            write_atomically(&pending, contents.as_bytes()).map_err(write_error)?;
            Ok(Written::Pending(pending))
        }
        WriteMode::Accept => {
            write_atomically(target, contents.as_bytes()).map_err(write_error)?;
            let pending = pending_path(target);
            if pending.exists() {
                std::fs::remove_file(&pending).map_err(|err| io_error(&pending, err))?;
            }
            Ok(Written::Accepted(target.to_path_buf()))
        }
    }
}

/// Stages a fixture's bytes for writing in place later (see
/// [`crate::files::StagedFile`]); `None` when the target already holds
/// them.
pub fn stage_fixture(target: &Path, contents: &str) -> Result<Option<crate::files::StagedFile>, ReviewError> {
    if std::fs::read(target).is_ok_and(|current| current == contents.as_bytes()) {
        return Ok(None);
    }
    if let Some(folder) = target.parent().filter(|f| !f.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder).map_err(|err| io_error(folder, err))?;
    }
    crate::files::stage(target, contents.as_bytes()).map(Some).map_err(write_error)
}

/// Writes a staged fixture in place (as [`write_fixture`] with
/// [`WriteMode::Accept`] does: its pending file goes).
pub fn commit_staged(target: &Path, staged: crate::files::StagedFile) -> Result<Written, ReviewError> {
    staged.commit().map_err(write_error)?;
    let pending = pending_path(target);
    if pending.exists() {
        std::fs::remove_file(&pending).map_err(|err| io_error(&pending, err))?;
    }
    Ok(Written::Accepted(target.to_path_buf()))
}

/// A pending file and the fixture it would become.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingFixture {
    /// `NAME.json.new`.
    pub pending: PathBuf,
    /// `NAME.json`.
    pub target: PathBuf,
}

impl PendingFixture {
    /// `suite/name` as the harness names fixtures: the enclosing suite
    /// folder (however deep the file sits below it) and the file stem; the
    /// parent folder stands in for the suite outside suite folders.
    pub fn id(&self) -> String {
        let stem = file_stem(&self.target);
        if let Some((suite, _)) = enclosing_suite(&self.target) {
            return format!("{}/{stem}", suite.name());
        }
        match self.target.parent().and_then(Path::file_name) {
            Some(folder) => format!("{}/{stem}", folder.to_string_lossy()),
            None => stem,
        }
    }
}

/// Finds the pending files under `paths` (folders, searched recursively in
/// sorted order; `.json.new` files; or fixture files whose pending version
/// exists), each once even when the paths overlap.
pub fn find_pending(paths: &[PathBuf]) -> Result<Vec<PendingFixture>, ReviewError> {
    let mut found: Vec<PendingFixture> = Vec::new();
    for path in paths {
        if !path.exists() {
            return Err(ReviewError::MissingPath(path.clone()));
        }
        if path.is_file() {
            let pending = if target_of(path).is_some() { path.clone() } else { pending_path(path) };
            if let Some(target) = target_of(&pending).filter(|_| pending.is_file()) {
                found.push(PendingFixture { pending, target });
            }
            continue;
        }
        for entry in WalkDir::new(path).sort_by_file_name().into_iter().filter_map(Result::ok) {
            if entry.file_type().is_file()
                && let Some(target) = target_of(entry.path())
            {
                found.push(PendingFixture { pending: entry.path().to_path_buf(), target });
            }
        }
    }
    // Overlapping paths (`fixtures fixtures/chat`) find a file twice, and a
    // second accept of it would fail: keep each pending file once, in the
    // order first found.
    let mut seen = std::collections::HashSet::new();
    found.retain(|item| seen.insert(item.pending.clone()));
    Ok(found)
}

/// How a pending file differs from its target.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// There is no fixture yet.
    New {
        /// Number of lines in the proposed file.
        lines: usize,
        /// The proposed document's `description`, when it has one.
        description: Option<String>,
        /// Its first [`NEW_FILE_PREVIEW_LINES`] lines, so that a reviewer
        /// sees what a new fixture holds before accepting it.
        head: Vec<String>,
    },
    /// The proposed text equals the current one.
    Identical,
    /// The fixture changes.
    Modified {
        /// Differences by JSON pointer (empty when a side does not parse).
        differences: Vec<Difference>,
        /// Differences beyond those listed.
        omitted: usize,
        /// Line diff, current (`-`) against proposed (`+`).
        hunks: Vec<DiffHunk>,
    },
}

/// Lines of a new fixture shown by `review --list` (the canonical text, its
/// members in key order: the description, then most often the expected part).
pub const NEW_FILE_PREVIEW_LINES: usize = 40;

/// Compares a pending file with its target.
pub fn describe(pending: &PendingFixture) -> Result<Change, ReviewError> {
    let proposed = std::fs::read_to_string(&pending.pending).map_err(|err| io_error(&pending.pending, err))?;
    let current = match std::fs::read_to_string(&pending.target) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            let description = json::parse_value(&proposed)
                .ok()
                .and_then(|document| document.get("description")?.as_str().map(str::to_owned));
            let head = proposed.lines().take(NEW_FILE_PREVIEW_LINES).map(str::to_owned).collect();
            return Ok(Change::New { lines: proposed.lines().count(), description, head });
        }
        Err(err) => return Err(io_error(&pending.target, err)),
    };
    Ok(compare_texts(&current, &proposed))
}

/// Describes how `proposed` changes `current` (two fixture texts).
pub fn compare_texts(current: &str, proposed: &str) -> Change {
    if current == proposed {
        return Change::Identical;
    }
    let (differences, omitted) = match (json::parse_value(current), json::parse_value(proposed)) {
        (Ok(old), Ok(new)) => differences(&old, &new),
        _ => (Vec::new(), 0),
    };
    Change::Modified { differences, omitted, hunks: text_diff(current, proposed, DIFF_CONTEXT) }
}

/// One line per difference, worded for a change of a fixture
/// (`/expected/blocks/3/tool/state: "completed" → "running"`).
pub fn describe_difference(difference: &Difference) -> String {
    use crate::compare::DifferenceKind as Kind;
    let short = |value: &Option<serde_json::Value>| {
        let text = value.as_ref().map(json::to_compact_string).unwrap_or_default();
        if text.chars().count() > 80 { format!("{}…", text.chars().take(80).collect::<String>()) } else { text }
    };
    let place = if difference.pointer.is_empty() { "(document)" } else { difference.pointer.as_str() };
    let count = difference.count.unwrap_or(1);
    match difference.kind {
        Kind::ValueChanged | Kind::TypeChanged => {
            format!("{place}: {} → {}", short(&difference.expected), short(&difference.actual))
        }
        Kind::MissingMember => format!("{place}: removed (was {})", short(&difference.expected)),
        Kind::UnexpectedMember => format!("{place}: added {}", short(&difference.actual)),
        Kind::MissingElements => format!("{place}: {count} element(s) removed, first {}", short(&difference.expected)),
        Kind::UnexpectedElements => format!("{place}: {count} element(s) added, first {}", short(&difference.actual)),
    }
}

/// Renders a line diff with `current` and `proposed` line numbers.
pub fn render_hunks(hunks: &[DiffHunk]) -> String {
    render_labeled(hunks, ("current", "proposed"))
}

/// The differences of a changed fixture, one line each, and (unless
/// `no_diff`) its line diff, current against proposed.
pub fn write_fixture_change(
    out: &mut dyn std::io::Write,
    differences: &[Difference],
    omitted: usize,
    hunks: &[DiffHunk],
    no_diff: bool,
) -> std::io::Result<()> {
    for difference in differences {
        writeln!(out, "  {}", describe_difference(difference))?;
    }
    if omitted > 0 {
        writeln!(out, "  … and {omitted} more")?;
    }
    if !no_diff {
        for line in render_hunks(hunks).lines() {
            writeln!(out, "    {line}")?;
        }
    }
    Ok(())
}

/// `difference` or `differences`, after a count.
pub fn differences_word(count: usize) -> &'static str {
    if count == 1 { "difference" } else { "differences" }
}

/// Counts the changed lines of a diff (removed, added).
pub fn changed_lines(hunks: &[DiffHunk]) -> (usize, usize) {
    let lines = hunks.iter().flat_map(|hunk| &hunk.lines);
    lines.fold((0, 0), |(removed, added), line| match line.tag {
        DiffTag::Expected => (removed + 1, added),
        DiffTag::Actual => (removed, added + 1),
        DiffTag::Equal => (removed, added),
    })
}

/// Accepts a pending file: it replaces its target (one rename, atomic).
pub fn accept(pending: &PendingFixture) -> Result<(), ReviewError> {
    let text = std::fs::read_to_string(&pending.pending).map_err(|err| io_error(&pending.pending, err))?;
    if let Err(err) = json::parse_value(&text) {
        return Err(ReviewError::BrokenPending { path: pending.pending.clone(), message: err.to_string() });
    }
    std::fs::rename(&pending.pending, &pending.target).map_err(|err| io_error(&pending.target, err))
}

/// Rejects a pending file: it is deleted and the target stays as it was.
pub fn reject(pending: &PendingFixture) -> Result<(), ReviewError> {
    std::fs::remove_file(&pending.pending).map_err(|err| io_error(&pending.pending, err))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pending_names_round_trip() {
        let target = Path::new("fixtures/chat/x.json");
        assert_eq!(pending_path(target), Path::new("fixtures/chat/x.json.new"));
        assert_eq!(target_of(&pending_path(target)).as_deref(), Some(target));
        assert_eq!(target_of(Path::new("notes.txt.new")), None);
    }

    #[test]
    fn accept_is_refused_in_ci_only() {
        assert_eq!(WriteMode::from_accept_flag(false, true).ok(), Some(WriteMode::Pending));
        assert_eq!(WriteMode::from_accept_flag(true, false).ok(), Some(WriteMode::Accept));
        assert!(matches!(WriteMode::from_accept_flag(true, true), Err(ReviewError::AcceptInCi)));
    }

    #[test]
    fn pending_writes_never_touch_the_target() -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let target = dir.path().join("chat").join("case.json");
        assert_eq!(write_fixture(&target, "{}\n", WriteMode::Pending)?, Written::Pending(pending_path(&target)));
        assert!(!target.exists());
        std::fs::write(&target, "{\"a\": 1}\n")?;
        write_fixture(&target, "{\"a\": 2}\n", WriteMode::Pending)?;
        assert_eq!(std::fs::read_to_string(&target)?, "{\"a\": 1}\n");
        assert_eq!(write_fixture(&target, "{\"a\": 1}\n", WriteMode::Pending)?, Written::Unchanged(target.clone()));

        let pending = find_pending(&[dir.path().to_path_buf()])?;
        assert_eq!(pending.len(), 1);
        assert_eq!(pending[0].id(), "chat/case");
        match describe(&pending[0])? {
            Change::Modified { differences, .. } => {
                assert_eq!(differences.iter().map(describe_difference).collect::<Vec<_>>(), ["/a: 1 → 2"]);
            }
            other => panic!("unexpected {other:?}"),
        }
        accept(&pending[0])?;
        assert_eq!(std::fs::read_to_string(&target)?, "{\"a\": 2}\n");
        assert!(!pending_path(&target).exists());
        Ok(())
    }

    #[test]
    fn overlapping_paths_find_each_pending_file_once() -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let nested = dir.path().join("chat").join("deeper").join("case.json");
        write_fixture(&nested, "{}\n", WriteMode::Pending)?;
        write_fixture(&dir.path().join("sse").join("other.json"), "{}\n", WriteMode::Pending)?;
        let pending = find_pending(&[dir.path().to_path_buf(), dir.path().join("chat")])?;
        let ids: Vec<String> = pending.iter().map(PendingFixture::id).collect();
        // Ids are the harness's: the suite folder, however deep the file sits.
        assert_eq!(ids, ["chat/case", "sse/other"]);
        // Accepting everything found accepts each file once.
        for item in &pending {
            accept(item)?;
        }
        assert!(nested.exists());
        Ok(())
    }

    #[test]
    fn broken_pending_files_are_not_accepted() -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let target = dir.path().join("x.json");
        std::fs::write(&target, "{}\n")?;
        std::fs::write(pending_path(&target), "{broken")?;
        let pending = PendingFixture { pending: pending_path(&target), target: target.clone() };
        assert!(matches!(accept(&pending), Err(ReviewError::BrokenPending { .. })));
        reject(&pending)?;
        assert_eq!(std::fs::read_to_string(&target)?, "{}\n");
        assert!(!pending_path(&target).exists());
        Ok(())
    }
}
