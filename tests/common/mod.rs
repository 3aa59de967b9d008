//! What the integration tests share: where the repository and the
//! optional resources are (../shared, python3, node, java, chromium), skipping
//! what needs a missing one as an ignored trial with its reason (a failure
//! under `CONFORM_REQUIRE_ALL=1`; see [`harness`]), running the
//! `conform` binary under a time limit, fixture documents and files, and
//! reading reports back. Test data used by several files (planted secrets,
//! a 200-message session, the fault-adapter scenario) lives in submodules.

#![allow(dead_code)]

pub mod files;
pub mod harness;
pub mod planted;
pub mod protocols;
pub mod reports;
pub mod run;
pub mod session;
pub mod subprocess;

// Each test file uses some of these.
#[allow(unused_imports)]
pub use files::{
    chat_fixture, copy_tree, files_ending, fixture_files, load_documents, own_fixtures, read_document, write,
    write_fixture,
};
#[allow(unused_imports)]
pub use reports::{assert_valid_report, read_json, report, verdict_list};
#[allow(unused_imports)]
pub use run::{Conform, Finished, conform, conform_in};

use std::path::{Path, PathBuf};

/// The repository root (the package's manifest folder).
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Set (to `1`) where every optional resource is installed, as CI does once
/// it has installed them: a test that would skip fails instead.
pub const REQUIRE_ALL: &str = "CONFORM_REQUIRE_ALL";

/// Whether [`REQUIRE_ALL`] is set.
pub fn require_all() -> bool {
    std::env::var(REQUIRE_ALL).is_ok_and(|value| value == "1")
}

/// Skips what needs `missing`: the calling trial is reported `ignored`
/// with the reason (see [`harness`]) and the caller returns (or carries on
/// without it). Under `CONFORM_REQUIRE_ALL=1` a skip is a failure: nothing
/// may be left out where everything should have run.
pub fn skip(missing: &str) {
    assert!(!require_all(), "{missing}, but {REQUIRE_ALL}=1 requires every test to run");
    harness::record_skip(missing);
}

/// `../shared/<relative>` (read in place, never copied), or `None` with the
/// skip note when it is absent.
pub fn shared(relative: &str) -> Option<PathBuf> {
    let path = root().join("../shared").join(relative);
    if path.exists() {
        Some(path)
    } else {
        skip(&format!("../shared/{relative} not found"));
        None
    }
}

/// The HAPI golden corpus (a fixture tree), or `None` with the skip recorded.
pub fn hapi_corpus() -> Option<PathBuf> {
    shared("hapi/fixtures")
}

/// One suite folder of the HAPI golden corpus, or `None` with the skip recorded.
pub fn hapi_suite(suite: &str) -> Option<PathBuf> {
    shared(&format!("hapi/fixtures/{suite}"))
}

/// `python3`, or `None` with the skip recorded when it is not installed.
pub fn python() -> Option<&'static str> {
    program(&["python3"])
}

/// `node`, or `None` with the skip recorded when it is not installed.
pub fn node() -> Option<&'static str> {
    program(&["node"])
}

/// `java` (a JDK's launcher), or `None` with the skip recorded when it is not installed.
pub fn java() -> Option<&'static str> {
    program(&["java"])
}

/// `javac`, or `None` with the skip recorded when no JDK is installed.
pub fn javac() -> Option<&'static str> {
    program(&["javac"])
}

/// `kotlinc` (Debian's `kotlin` package), or `None` with the skip recorded when it is not installed.
pub fn kotlinc() -> Option<&'static str> {
    program(&["kotlinc"])
}

/// `rustfmt` (the toolchain's formatter), or `None` with the skip recorded.
pub fn rustfmt() -> Option<&'static str> {
    program(&["rustfmt"])
}

/// A headless-capable Chromium, or `None` with the skip recorded.
pub fn chromium() -> Option<&'static str> {
    program(&["chromium", "chromium-browser", "google-chrome"])
}

/// The first of `names` found on `PATH`, or `None` with the skip recorded.
fn program(names: &[&'static str]) -> Option<&'static str> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let found = names.iter().copied().find(|name| std::env::split_paths(&path).any(|dir| dir.join(name).is_file()));
    if found.is_none() {
        skip(&format!("`{}` not installed", names.join("` / `")));
    }
    found
}

/// The absolute path of a file in the repository, as a command-line word.
pub fn path_arg(relative: &str) -> String {
    root().join(relative).display().to_string()
}
