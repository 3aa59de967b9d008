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
use std::sync::OnceLock;

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

/// Where `npm ci --prefix examples/adapters/jvm/kotlin` installs the Kotlin compiler the JVM kit
/// pins (the npm registry's `kotlin-compiler`), relative to the repository root.
pub const KIT_KOTLINC: &str = "examples/adapters/jvm/kotlin/node_modules/kotlin-compiler/bin/kotlinc";

/// A Kotlin 2 `kotlinc`: `$KOTLINC`, else the kit's own ([`KIT_KOTLINC`]), else `kotlinc` on `PATH`
/// (as the kit's build.sh looks). `None` with the skip recorded when there is none, or when the one
/// found is older than Kotlin 2 (Debian's `kotlin` is 1.3): under `CONFORM_REQUIRE_ALL=1` that fails.
pub fn kotlinc() -> Option<&'static Path> {
    match kotlin_2_compiler() {
        Ok(path) => Some(path),
        Err(why) => {
            skip(why);
            None
        }
    }
}

/// What [`kotlinc`] finds, without recording a skip: the compiler, or why there is none.
pub fn kotlin_2_compiler() -> Result<&'static Path, &'static str> {
    static FOUND: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    FOUND.get_or_init(find_kotlin_2).as_deref().map_err(String::as_str)
}

fn find_kotlin_2() -> Result<PathBuf, String> {
    let from_env = std::env::var_os("KOTLINC").filter(|value| !value.is_empty()).map(PathBuf::from);
    let kit = Some(root().join(KIT_KOTLINC)).filter(|path| path.is_file());
    let path = std::env::var_os("PATH").unwrap_or_default();
    let on_path = std::env::split_paths(&path).map(|dir| dir.join("kotlinc")).find(|file| file.is_file());
    let compiler = from_env.or(kit).or(on_path).ok_or_else(|| {
        "`kotlinc` not installed (`npm ci --prefix examples/adapters/jvm/kotlin` installs Kotlin 2)".to_owned()
    })?;
    kotlin_2(&compiler).map(|()| compiler)
}

/// Whether `compiler` is Kotlin 2 or newer, asking its `-version`; the error says why not.
pub fn kotlin_2(compiler: &Path) -> Result<(), String> {
    let shown = compiler.display();
    let finished = std::process::Command::new(compiler)
        .arg("-version")
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|err| format!("`{shown} -version` did not run: {err}"))?;
    let said = format!("{}{}", String::from_utf8_lossy(&finished.stdout), String::from_utf8_lossy(&finished.stderr));
    // "info: kotlinc-jvm 2.4.20 (JRE 17.0.15+6)"; Debian's says "kotlinc-jvm 1.3-SNAPSHOT".
    let version = said
        .split_once("kotlinc-jvm ")
        .and_then(|(_, rest)| rest.split_whitespace().next())
        .ok_or_else(|| format!("`{shown} -version` names no Kotlin version: {}", said.trim()))?;
    let major: u32 = version.split('.').next().and_then(|major| major.parse().ok()).unwrap_or(0);
    if major >= 2 {
        Ok(())
    } else {
        Err(format!(
            "`{shown}` is Kotlin {version}, older than Kotlin 2 (`npm ci --prefix examples/adapters/jvm/kotlin` installs Kotlin 2)"
        ))
    }
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
