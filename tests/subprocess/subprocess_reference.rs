//! The protocol end to end against the reference: `conform adapter` and the
//! example adapters (Python, Node.js) must give exactly the verdicts of
//! `--impl reference`, case by case, in persistent and one-shot mode, over
//! every fixture tree present (the project's fixtures, the HAPI corpus, and
//! a generated tree), whatever suites have references by now.

use crate::common;

use common::subprocess::Scenario;
use common::{Conform, hapi_corpus, node, path_arg, python, report, root, verdict_list};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const PYTHON_EXAMPLE: &str = "examples/adapters/python/my_adapter.py";
const NODE_EXAMPLE: &str = "examples/adapters/node/my-adapter.js";

fn trees(scenario: &Scenario) -> Vec<PathBuf> {
    let mut trees = vec![scenario.tree(), root().join("fixtures")];
    trees.extend(hapi_corpus());
    trees
}

/// Verdicts of one run, with the implementation given by `implementation`.
fn verdicts_of(tree: &Path, out: &Path, implementation: &[&str]) -> Vec<(String, String)> {
    let mut args = vec!["run", tree.to_str().unwrap(), "--format", "json", "--out", out.to_str().unwrap()];
    args.extend_from_slice(implementation);
    let finished = Conform::new(&args).env("CONFORM_BIN", env!("CARGO_BIN_EXE_conform")).run();
    assert!(
        matches!(finished.code, Some(0 | 1)),
        "{implementation:?} on {}: exit {:?}\n{}",
        tree.display(),
        finished.code,
        finished.stderr
    );
    verdict_list(&report(out))
}

/// The reference's verdicts on the tree at `index` of [`trees`], computed
/// once per test binary: every scenario tree holds the same fixtures.
fn reference_verdicts(index: usize, tree: &Path, out: &Path) -> &'static [(String, String)] {
    static VERDICTS: [OnceLock<Vec<(String, String)>>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    VERDICTS[index].get_or_init(|| verdicts_of(tree, out, &["--impl", "reference"]))
}

fn same_verdicts_as_the_reference(label: &str, implementation: &[&str], scenario_only: bool) {
    let scenario = Scenario::new();
    for (index, tree) in trees(&scenario).iter().enumerate() {
        if scenario_only && index > 0 {
            break;
        }
        let expected = reference_verdicts(index, tree, &scenario.out(&format!("reference-{index}")));
        let actual = verdicts_of(tree, &scenario.out(&format!("{label}-{index}")), implementation);
        assert_eq!(actual.len(), expected.len(), "{label} on {}", tree.display());
        for (got, want) in actual.iter().zip(expected) {
            assert_eq!(got, want, "{label} on {}", tree.display());
        }
        eprintln!("{label}: {} cases on {} match the reference", actual.len(), tree.display());
    }
}

fn adapter_command() -> String {
    format!("{} adapter", env!("CARGO_BIN_EXE_conform"))
}

fn conform_adapter_gives_the_reference_verdicts_in_persistent_mode() {
    let command = adapter_command();
    same_verdicts_as_the_reference("adapter", &["--impl-cmd", &command, "-j", "1"], false);
    same_verdicts_as_the_reference("adapter-parallel", &["--impl-cmd", &command, "-j", "3"], false);
}

fn conform_adapter_gives_the_reference_verdicts_in_one_shot_mode() {
    let command = adapter_command();
    same_verdicts_as_the_reference("adapter-one-shot", &["--impl-cmd", &command, "--one-shot"], false);
}

/// The Python example adapter's command, or `None` (with the skip note).
fn python_example() -> Option<String> {
    python().map(|python| format!("{python} {}", path_arg(PYTHON_EXAMPLE)))
}

/// The Node.js example adapter's command, or `None` (with the skip note).
fn node_example() -> Option<String> {
    node().map(|node| format!("{node} {}", path_arg(NODE_EXAMPLE)))
}

/// An example adapter in persistent mode over every tree, and in one-shot
/// mode over the generated one (a process per case is slow).
fn example_gives_the_reference_verdicts(label: &str, command: Option<String>) {
    let Some(command) = command else { return };
    same_verdicts_as_the_reference(label, &["--impl-cmd", &command], false);
    same_verdicts_as_the_reference(&format!("{label}-one-shot"), &["--impl-cmd", &command, "--one-shot"], true);
}

fn the_python_example_adapter_gives_the_reference_verdicts() {
    example_gives_the_reference_verdicts("python", python_example());
}

fn the_node_example_adapter_gives_the_reference_verdicts() {
    example_gives_the_reference_verdicts("node", node_example());
}

fn the_example_adapters_pass_check_adapter() {
    let scenario = Scenario::new();
    let tree = scenario.tree();
    for command in [python_example(), node_example(), Some(adapter_command())].into_iter().flatten() {
        let args = ["check-adapter", "--impl-cmd", &command, tree.to_str().unwrap()];
        let finished = Conform::new(&args).env("CONFORM_BIN", env!("CARGO_BIN_EXE_conform")).run();
        assert_eq!(finished.code, Some(0), "{command}:\n{}", finished.stdout);
        assert!(finished.stdout.contains("0 protocol problems"), "{}", finished.stdout);
    }
}

/// `conform run` over the scenario tree with `--impl-cmd 'conform adapter'`
/// and `PATH` set to `path` only.
fn run_conform_adapter_with_path(path: &Path, out: &Path) -> common::Finished {
    let scenario = Scenario::new();
    let tree = scenario.tree();
    let args = ["run", tree.to_str().unwrap(), "--impl-cmd", "conform adapter", "--format", "json"];
    let args = [&args[..], &["--out", out.to_str().unwrap()]].concat();
    Conform::new(&args).env("PATH", path).run()
}

fn impl_cmd_conform_is_the_running_binary_when_conform_is_not_on_path() {
    let empty = tempfile::tempdir().unwrap();
    let out = empty.path().join("out");
    let finished = run_conform_adapter_with_path(&empty.path().join("bin"), &out);
    assert_eq!(finished.code, Some(0), "{}", finished.stderr);
    let verdicts = verdict_list(&report(&out));
    assert_eq!(verdicts.len(), 6);
    assert!(verdicts.iter().all(|(_, verdict)| verdict == "pass"), "{verdicts:?}");
    // The report names the command as it was given.
    assert_eq!(report(&out)["implementation"]["command"], "conform adapter");
}

#[cfg(unix)]
fn a_conform_on_path_comes_first() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let fake = bin.join("conform");
    std::fs::write(
        &fake,
        "#!/bin/sh\nread line\necho '{\"op\":\"hello\",\"protocol\":1,\"implementation\":{\"name\":\"conform-on-path\",\
         \"version\":\"1\",\"language\":\"sh\"},\"suites\":{}}'\nwhile read line; do :; done\n",
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = dir.path().join("out");
    let finished = run_conform_adapter_with_path(&bin, &out);
    assert!(matches!(finished.code, Some(0 | 1)), "{}", finished.stderr);
    assert_eq!(report(&out)["implementation"]["name"], "conform-on-path", "{}", finished.stderr);
}

crate::trials![
    conform_adapter_gives_the_reference_verdicts_in_persistent_mode,
    conform_adapter_gives_the_reference_verdicts_in_one_shot_mode,
    the_python_example_adapter_gives_the_reference_verdicts,
    the_node_example_adapter_gives_the_reference_verdicts,
    the_example_adapters_pass_check_adapter,
    impl_cmd_conform_is_the_running_binary_when_conform_is_not_on_path,
    a_conform_on_path_comes_first
];
