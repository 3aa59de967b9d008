//! `cargo fmt` sees every source file: rustfmt formats only the modules it
//! can reach from the crate roots, and a module declared inside a macro call
//! (as the suite registry once declared every suite folder) is out of its
//! reach, so its formatting would never be checked. This test asks rustfmt
//! which files it formats from `src/lib.rs` and `src/main.rs` and requires
//! every `.rs` file under `src/` among them.

use crate::common::{self, root};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn rust_sources(dir: &Path, out: &mut BTreeSet<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_sources(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.insert(path.canonicalize().unwrap());
        }
    }
}

/// The files rustfmt formats starting from `root_file` (`--check --verbose`
/// names each one on a `Formatting <path>` line).
fn files_rustfmt_reaches(rustfmt: &str, root_file: &Path) -> BTreeSet<PathBuf> {
    let output = Command::new(rustfmt)
        .args(["--check", "--verbose", "--edition", "2024"])
        .arg(root_file)
        .current_dir(root())
        .output()
        .expect("rustfmt runs");
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .chain(String::from_utf8_lossy(&output.stderr).lines())
        .filter_map(|line| line.strip_prefix("Formatting "))
        .filter_map(|path| Path::new(path.trim()).canonicalize().ok())
        .collect()
}

fn every_source_file_is_within_rustfmt_reach() {
    let Some(rustfmt) = common::rustfmt() else { return };
    let mut reached = files_rustfmt_reaches(rustfmt, &root().join("src/lib.rs"));
    reached.extend(files_rustfmt_reaches(rustfmt, &root().join("src/main.rs")));
    let mut sources = BTreeSet::new();
    rust_sources(&root().join("src"), &mut sources);
    let unreached: Vec<_> = sources.difference(&reached).collect();
    assert!(
        unreached.is_empty(),
        "rustfmt never formats these files (a module declared inside a macro call?): {unreached:#?}"
    );
}

crate::trials!(every_source_file_is_within_rustfmt_reach);
