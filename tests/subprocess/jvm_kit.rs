//! The JVM adapter kit (examples/adapters/jvm/): built with plain javac and
//! jar by its build.sh (which runs the kit's own self-test), its JSON writer
//! compared byte for byte with conform's (numbers, strings, and the canonical
//! text of every fixture and of its expected parts), and its example adapters
//! run through `check-adapter` and over the bundled fixtures, persistent and
//! one-shot: the Java one, and the Kotlin one where a Kotlin 2 `kotlinc` is
//! installed (see [`common::kotlinc`]). Without java and javac (or Kotlin 2)
//! the tests are ignored trials with the reason; with `CONFORM_REQUIRE_ALL=1`
//! that is a failure.

use crate::common;

use common::{Conform, hapi_corpus, java, javac, kotlinc, report, root, verdict_list};
use conform::json::{format_js_number, from_utf16, parse_value, to_canonical_string, write_string};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// The built kit: the folder build.sh wrote its jars to, and what it printed.
pub(crate) struct Kit {
    out: PathBuf,
    log: String,
}

impl Kit {
    pub(crate) fn jar(&self, name: &str) -> String {
        self.out.join(name).display().to_string()
    }

    /// `java -jar` on one of the built jars, as an `--impl-cmd`.
    pub(crate) fn command(&self, jar: &str) -> String {
        format!("java -jar {}", self.jar(jar))
    }
}

/// Builds the kit once per test process (with the Kotlin example when a Kotlin 2
/// `kotlinc` is installed), or `None` when java or javac is missing (with the skip note).
pub(crate) fn kit() -> Option<&'static Kit> {
    static KIT: OnceLock<Result<Kit, String>> = OnceLock::new();
    java()?;
    javac()?;
    let built = KIT.get_or_init(|| {
        // One folder per process: nextest runs each test in a process of its
        // own, and two builds into one folder remove each other's classes.
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("jvm-kit-{}", std::process::id()));
        let mut build = Command::new("bash");
        build.arg(root().join("examples/adapters/jvm/build.sh")).arg(&out);
        // The Kotlin test says itself when Kotlin 2 is missing; the Java tests need not.
        match common::kotlin_2_compiler() {
            Ok(compiler) => build.env("KOTLIN", "1").env("KOTLINC", compiler),
            Err(_) => build.env("KOTLIN", "0"),
        };
        let finished = build.stdin(Stdio::null()).output().map_err(|err| format!("bash build.sh: {err}"))?;
        let log = format!("{}{}", String::from_utf8_lossy(&finished.stdout), String::from_utf8_lossy(&finished.stderr));
        if finished.status.success() { Ok(Kit { out, log }) } else { Err(format!("build.sh failed:\n{log}")) }
    });
    match built {
        Ok(kit) => Some(kit),
        Err(log) => panic!("{log}"),
    }
}

/// Runs the kit's self-test program in `mode` with `input` on stdin; its stdout.
fn self_test(kit: &Kit, mode: &str, input: &str) -> String {
    let dir = tempfile::tempdir().expect("temp dir");
    let stdin = dir.path().join("stdin");
    std::fs::write(&stdin, input).expect("stdin file");
    let classpath = format!("{}:{}", kit.jar("conform-adapter.jar"), kit.jar("conform-adapter-test.jar"));
    let finished = Command::new("java")
        .args(["-cp", &classpath, "conform.adapter.JsonSelfTest", mode])
        .stdin(File::open(&stdin).expect("stdin file"))
        .output()
        .expect("java runs");
    assert!(finished.status.success(), "JsonSelfTest {mode}: {}", String::from_utf8_lossy(&finished.stderr));
    String::from_utf8(finished.stdout).expect("the self-test writes UTF-8")
}

/// A small deterministic generator (xorshift64*), so every run checks the same values.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, bound: u64) -> u64 {
        self.next() % bound
    }
}

fn the_kit_builds_with_javac_and_its_self_test_passes() {
    let Some(kit) = kit() else { return };
    let summary = kit.log.lines().find(|line| line.starts_with("json self-test:")).expect("the self-test ran");
    assert!(summary.ends_with(" passed, 0 failed"), "{summary}");
    let passed: usize = summary["json self-test: ".len()..].split(' ').next().unwrap().parse().unwrap();
    assert!(passed >= 100, "{summary}");
    for jar in ["conform-adapter.jar", "conform-adapter-example.jar", "conform-adapter-test.jar"] {
        assert!(kit.out.join(jar).is_file(), "{jar} was not built:\n{}", kit.log);
    }
}

fn numbers_are_written_as_conform_writes_them() {
    let Some(kit) = kit() else { return };
    let mut values: Vec<f64> = vec![
        0.0,
        -0.0,
        1e21,
        1e-7,
        1e-6,
        1e20,
        2e23,
        5e-324,
        f64::MAX,
        f64::MIN_POSITIVE,
        f64::NAN,
        f64::INFINITY,
        0.1,
        0.2,
        0.3,
        1.0 / 3.0,
        9007199254740992.0,
        9007199254740994.0,
        123456789012345680000.0,
    ];
    // Every power of two: where the gap below a double is half the gap above it.
    values.extend((-1074..=1023).map(|exponent| 2f64.powi(exponent)));
    let mut random = Random(0x9E37_79B9_7F4A_7C15);
    for _ in 0..20_000 {
        // Any bit pattern (mostly 16 or 17 significant digits, every exponent)…
        values.push(f64::from_bits(random.next()));
        // …and short decimals at every scale, where layout and rounding choices show.
        let length = 1 + random.below(9) as u32;
        let digits = random.below(10u64.pow(length)) as f64;
        values.push(digits * 10f64.powi(random.below(60) as i32 - 30));
    }
    let input: String = values.iter().map(|value| format!("{:016x}\n", value.to_bits())).collect();
    let written = self_test(kit, "numbers", &input);
    let written: Vec<&str> = written.lines().collect();
    assert_eq!(written.len(), values.len());
    for (value, java) in values.iter().zip(written) {
        assert_eq!(java, format_js_number(*value), "{value:e} (bits {:016x})", value.to_bits());
    }
}

fn strings_are_escaped_as_conform_escapes_them() {
    let Some(kit) = kit() else { return };
    // Code units from the ranges where escaping rules differ.
    const RANGES: [(u16, u16); 8] = [
        (0x00, 0x20),
        (0x20, 0x80),
        (0x7f, 0xa0),
        (0x2028, 0x202a),
        (0xd800, 0xdc00),
        (0xdc00, 0xe000),
        (0xe000, 0xffff),
        (0x100, 0x2000),
    ];
    let mut random = Random(0xD1B5_4A32_D192_ED03);
    let mut strings: Vec<Vec<u16>> =
        vec![vec![], vec![0xd83d, 0xde00], vec![0xde00, 0xd83d], vec![0xd800], vec![0x22, 0x5c, 0x2f]];
    for _ in 0..5_000 {
        let length = random.below(12) as usize;
        strings.push(
            (0..length)
                .map(|_| {
                    let (low, high) = RANGES[random.below(RANGES.len() as u64) as usize];
                    low + random.below(u64::from(high - low)) as u16
                })
                .collect(),
        );
    }
    let input: String = strings
        .iter()
        .map(|units| units.iter().map(|unit| format!("{unit:04x}")).collect::<Vec<_>>().join(" ") + "\n")
        .collect();
    let written = self_test(kit, "strings", &input);
    let written: Vec<&str> = written.lines().collect();
    assert_eq!(written.len(), strings.len());
    for (units, java) in strings.iter().zip(written) {
        let mut expected = String::new();
        write_string(&mut expected, &from_utf16(units));
        assert_eq!(java, expected, "code units {units:04x?}");
    }
}

/// Every `.json` file under `folder`, sorted.
fn json_files(folder: &Path, into: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(folder).expect("readable folder").map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            json_files(&path, into);
        } else if path.extension().is_some_and(|ext| ext == "json") {
            into.push(path);
        }
    }
}

fn fixtures_and_their_expected_parts_are_written_in_conform_canonical_bytes() {
    let Some(kit) = kit() else { return };
    let mut files = Vec::new();
    json_files(&root().join("fixtures"), &mut files);
    let own = files.len();
    if let Some(corpus) = hapi_corpus() {
        json_files(&corpus, &mut files);
    }
    let input: String = files.iter().map(|path| format!("{}\n", path.display())).collect();
    let written = self_test(kit, "canonical", &input);
    let mut expected = String::new();
    let mut parts = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).expect("readable fixture");
        let document = parse_value(&text).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
        expected.push_str(&format!("== {}\n{}", path.display(), to_canonical_string(&document)));
        for (key, member) in document.as_object().into_iter().flatten() {
            if key.starts_with("expected") {
                expected.push_str(&format!("== {}#{key}\n{}", path.display(), to_canonical_string(member)));
                parts += 1;
            }
        }
    }
    assert!(own > 0 && parts >= own, "{own} fixtures, {parts} expected parts");
    if written != expected {
        let (java, conform) = written
            .split("\n== ")
            .zip(expected.split("\n== "))
            .find(|(java, conform)| java != conform)
            .unwrap_or(("(a different number of parts)", ""));
        panic!("the kit's canonical text differs from conform's:\n--- java\n{java}\n--- conform\n{conform}");
    }
    eprintln!("{} files and {parts} expected parts written in conform's canonical bytes", files.len());
}

/// `conform check-adapter` on the bundled fixtures: no protocol problem, and
/// no warning but a slow start (a JVM on a loaded machine can take over 2 s).
fn passes_check_adapter(command: &str) {
    let args = ["check-adapter", "--impl-cmd", command, "fixtures"];
    let finished = Conform::new(&args).env("CONFORM_BIN", env!("CARGO_BIN_EXE_conform")).run();
    assert_eq!(finished.code, Some(0), "{command}:\n{}", finished.text());
    let warnings: Vec<&str> = finished.stdout.lines().filter(|line| line.starts_with("  warning  ")).collect();
    assert!(warnings.iter().all(|line| line.contains("slow start")), "{}", finished.stdout);
    let summary = format!("\n0 protocol problems, {} warning", warnings.len());
    assert!(finished.stdout.contains(&summary), "{}", finished.stdout);
    assert!(finished.stdout.contains(" 0 failed, 0 errors, 0 skipped"), "{}", finished.stdout);
}

/// `conform run fixtures` with `command` and `extra` arguments: every case passes. Returns the count.
fn passes_every_case(command: &str, extra: &[&str]) -> usize {
    let out = tempfile::tempdir().expect("temp dir");
    let mut args = vec!["run", "fixtures", "--impl-cmd", command, "--format", "json", "--out"];
    args.push(out.path().to_str().unwrap());
    args.extend_from_slice(extra);
    let finished = Conform::new(&args).env("CONFORM_BIN", env!("CARGO_BIN_EXE_conform")).run();
    assert_eq!(finished.code, Some(0), "{command} {extra:?}:\n{}", finished.text());
    let verdicts = verdict_list(&report(out.path()));
    let failing: Vec<_> = verdicts.iter().filter(|(_, verdict)| verdict != "pass").collect();
    assert!(failing.is_empty(), "{command} {extra:?}: {failing:?}");
    verdicts.len()
}

/// The ids of the fixtures under fixtures/, as `conform list` prints them.
fn fixture_ids() -> Vec<String> {
    let finished = Conform::new(&["list", "fixtures"]).run();
    assert!(finished.success(), "{}", finished.text());
    finished.stdout.lines().map(str::to_owned).collect()
}

fn the_java_example_passes_check_adapter() {
    let Some(kit) = kit() else { return };
    passes_check_adapter(&kit.command("conform-adapter-example.jar"));
}

fn the_java_example_passes_every_bundled_fixture_persistent_and_one_shot() {
    let Some(kit) = kit() else { return };
    let command = kit.command("conform-adapter-example.jar");
    let ids = fixture_ids();
    assert_eq!(passes_every_case(&command, &[]), ids.len());
    // One JVM per case is slow: the first fixture of each suite.
    let mut filters = Vec::new();
    let mut suites_seen = std::collections::BTreeSet::new();
    for id in &ids {
        if suites_seen.insert(id.split('/').next().unwrap()) {
            filters.extend(["--filter", id.as_str()]);
        }
    }
    filters.push("--one-shot");
    assert_eq!(passes_every_case(&command, &filters), suites_seen.len());
}

fn the_kotlin_example_compiles_against_the_kit_and_passes() {
    // Kotlin first: a missing or old compiler is told before the kit is built.
    if kotlinc().is_none() {
        return;
    }
    let Some(kit) = kit() else { return };
    let command = kit.command("conform-adapter-kotlin.jar");
    passes_check_adapter(&command);
    assert_eq!(passes_every_case(&command, &[]), fixture_ids().len());
}

/// A stand-in `kotlinc` that prints `version` as `kotlinc -version` does.
fn fake_kotlinc(dir: &Path, version: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(format!("kotlinc-{version}"));
    std::fs::write(&path, format!("#!/bin/sh\necho 'info: kotlinc-jvm {version} (JRE 17.0.15+6)' >&2\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

fn a_kotlin_older_than_2_fails_the_kotlin_test_under_require_all() {
    let dir = tempfile::tempdir().expect("temp dir");
    let old = fake_kotlinc(dir.path(), "1.3.31");
    assert_eq!(common::kotlin_2(&fake_kotlinc(dir.path(), "2.4.20")), Ok(()));
    let refused = common::kotlin_2(&old).unwrap_err();
    assert!(refused.contains("is Kotlin 1.3.31, older than Kotlin 2"), "{refused}");
    // The Kotlin test itself, in a child process of this test binary, with that compiler.
    let kotlin_test = "jvm_kit::the_kotlin_example_compiles_against_the_kit_and_passes";
    let run = |require_all: &str| {
        Command::new(std::env::current_exe().expect("the test binary"))
            .args([kotlin_test, "--exact"])
            .env("KOTLINC", &old)
            .env(common::REQUIRE_ALL, require_all)
            .stdin(Stdio::null())
            .output()
            .expect("the test binary runs")
    };
    let required = run("1");
    let said = format!("{}{}", String::from_utf8_lossy(&required.stdout), String::from_utf8_lossy(&required.stderr));
    assert!(!required.status.success(), "{said}");
    assert!(said.contains("1 failed") && said.contains("older than Kotlin 2"), "{said}");
    let optional = run("0");
    let said = String::from_utf8_lossy(&optional.stdout);
    assert!(optional.status.success(), "{said}");
    assert!(said.contains("1 ignored") && said.contains("older than Kotlin 2"), "{said}");
}

crate::trials![
    the_kit_builds_with_javac_and_its_self_test_passes,
    numbers_are_written_as_conform_writes_them,
    strings_are_escaped_as_conform_escapes_them,
    fixtures_and_their_expected_parts_are_written_in_conform_canonical_bytes,
    the_java_example_passes_check_adapter,
    the_java_example_passes_every_bundled_fixture_persistent_and_one_shot,
    the_kotlin_example_compiles_against_the_kit_and_passes,
    a_kotlin_older_than_2_fails_the_kotlin_test_under_require_all
];
