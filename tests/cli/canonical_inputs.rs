//! What an implementation receives is the exact canonical text of the input
//! the reference computes on: members key-sorted as a fixture file holds
//! them, numbers as JavaScript writes them (`-0` as `0`, `1e21` as `1e+21`,
//! `2^53 + 1` as `9007199254740992`), strings as `JSON.stringify` writes the
//! string JavaScript holds. A recording adapter relays to the reference and
//! keeps every line it was sent; the tests compare those bytes.

use crate::common;

use common::{Conform, Finished, write};
use conform::json::{Style, parse_value, write_value};
use std::path::Path;

/// A chat fixture written by hand, not canonically: members out of order
/// and every value explore plants (−0 both ways, 1e21, 5e-324, 2^53 + 1, an
/// integral number with an exponent and a fraction, a lone surrogate, a
/// pair written as two escapes, integer-like keys).
const PLANTED_INPUT: &str = r#"{
    "options": {"hasMoreMessages": false}, "agentState": null,
    "messages": [{"seq": 1, "localId": null, "id": "m1", "createdAt": 1000, "content": {"role": "user",
      "content": {"type": "text", "text": "hi", "zz": {"negativeZero": -0.0, "minusZero": -0, "big": 1e21,
        "tiny": 5e-324, "beyond": 9007199254740993, "hundred": 1e2, "one": 1.0, "lone": "\ud800",
        "pair": "\ud800\udc00", "b": 1, "10": 2, "2": 3, "a": [1.0, -0, -9007199254740993]}}}}]
  }"#;

/// A fixture document around [`PLANTED_INPUT`], which the reference passes.
fn planted_fixture() -> String {
    let block = r#"{"createdAt": 1000, "id": "m1", "kind": "user-text", "localId": null, "text": "hi"}"#;
    format!(
        r#"{{"fixtureVersion": 1, "name": "planted", "description": "Every planted value, written as no hub writes it.",
  "input": {PLANTED_INPUT},
  "expected": {{"blocks": [{block}], "hasReadyEvent": false, "latestUsage": null, "visibleBlocks": [{block}]}}}}"#
    )
}

/// The bytes a JavaScript hub would send for that input.
const CANONICAL_INPUT: &str = concat!(
    r#"{"agentState":null,"messages":[{"content":{"content":{"text":"hi","type":"text","zz":{"2":3,"10":2,"#,
    r#""a":[1,0,-9007199254740992],"b":1,"beyond":9007199254740992,"big":1e+21,"hundred":100,"lone":"\ud800","#,
    r#""minusZero":0,"negativeZero":0,"one":1,"pair":"𐀀","tiny":5e-324}},"role":"user"},"createdAt":1000,"#,
    r#""id":"m1","localId":null,"seq":1}],"options":{"hasMoreMessages":false}}"#
);

/// The `input` of a recorded `run` line, as bytes: the harness writes it
/// last, so it runs from `"input":` to the closing brace.
fn raw_input(line: &str) -> &str {
    let start = line.find(r#","input":"#).map(|at| at + r#","input":"#.len()).expect("a run line has an input");
    line[start..].strip_suffix('}').expect("the input is the last member")
}

fn recorded_lines(record: &Path) -> Vec<String> {
    std::fs::read_to_string(record).unwrap_or_default().lines().map(str::to_owned).collect()
}

fn recording_adapter(python: &str, record: &Path) -> String {
    format!(
        "{python} {} {} {}",
        common::path_arg("tests/adapters/recording.py"),
        env!("CARGO_BIN_EXE_conform"),
        record.display()
    )
}

fn conform_in(dir: &Path, args: &[&str]) -> Finished {
    Conform::new(args).dir(dir).run()
}

fn a_run_sends_the_canonical_text_of_every_planted_value() {
    let Some(python) = common::python() else { return common::skip("python3 is not installed") };
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("chat/planted.json"), planted_fixture());
    let record = dir.path().join("record.jsonl");
    let adapter = recording_adapter(python, &record);
    let finished = conform_in(dir.path(), &["run", "chat", "--impl-cmd", &adapter, "--no-progress"]);
    assert_eq!(finished.code, Some(0), "the reference passes on the canonical input: {}", finished.text());
    let lines = recorded_lines(&record);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(raw_input(&lines[0]), CANONICAL_INPUT);

    // check-adapter sends its smoke cases the same way.
    std::fs::remove_file(&record).unwrap();
    let checked = conform_in(dir.path(), &["check-adapter", "--impl-cmd", &adapter, "chat"]);
    assert_eq!(checked.code, Some(0), "{}", checked.text());
    let lines = recorded_lines(&record);
    assert!(!lines.is_empty(), "{}", checked.text());
    assert!(lines.iter().all(|line| raw_input(line) == CANONICAL_INPUT), "{lines:?}");
}

fn a_one_shot_run_gets_the_same_bytes_on_stdin() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("chat/planted.json"), planted_fixture());
    let record = dir.path().join("stdin.json");
    let script = format!("tee '{}' | exec '{}' adapter", record.display(), env!("CARGO_BIN_EXE_conform"));
    let command = format!("sh -c \"{script}\"");
    let finished = conform_in(dir.path(), &["run", "chat", "--one-shot", "--impl-cmd", &command, "--no-progress"]);
    assert_eq!(finished.code, Some(0), "{}", finished.text());
    assert_eq!(std::fs::read_to_string(&record).unwrap(), format!("{CANONICAL_INPUT}\n"));
}

/// `conform decode` decodes the canonical input: the hand-written input
/// and its canonical text give the same bytes.
fn decode_computes_on_the_canonical_input() {
    let decoded = |input: &str| Conform::new(&["decode", "--suite", "chat", "-"]).stdin(input.as_bytes()).run();
    let (from_written, from_canonical) = (decoded(PLANTED_INPUT), decoded(CANONICAL_INPUT));
    assert_eq!(from_written.code, Some(0), "{}", from_written.text());
    assert_eq!(from_written.stdout, from_canonical.stdout);
}

/// Every input explore makes (mutations plant −0, 1e21, lone surrogates,
/// members appended out of order, integer-like keys, …) reaches the
/// implementation as its own canonical text.
fn explore_sends_every_generated_input_canonically() {
    let Some(python) = common::python() else { return common::skip("python3 is not installed") };
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("record.jsonl");
    let adapter = recording_adapter(python, &record);
    let seeds = common::path_arg("fixtures/chat");
    let args = [
        "explore",
        &seeds,
        "--suite",
        "chat",
        "--count",
        "400",
        "--seed",
        "11",
        "-j",
        "1",
        "--no-pending",
        "--impl-cmd",
    ];
    let finished = conform_in(dir.path(), &[&args[..], &[adapter.as_str()]].concat());
    assert!(matches!(finished.code, Some(0 | 1)), "{}", finished.text());
    let lines = recorded_lines(&record);
    assert!(lines.len() >= 400, "{} inputs recorded: {}", lines.len(), finished.text());
    for line in &lines {
        let sent = raw_input(line);
        let value = parse_value(sent).unwrap_or_else(|err| panic!("{err}: {sent}"));
        assert_eq!(sent, write_value(&value, Style::CANONICAL_COMPACT), "not canonical");
    }
}

crate::trials![
    a_run_sends_the_canonical_text_of_every_planted_value,
    a_one_shot_run_gets_the_same_bytes_on_stdin,
    decode_computes_on_the_canonical_input,
    explore_sends_every_generated_input_canonically
];
