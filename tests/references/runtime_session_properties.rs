//! Properties of the `runtime-session` reference and of cut-off Codex
//! streams:
//!
//! - every script replays identically when split at every step (the steps
//!   fed in two pieces, and in random pieces), and a step's expectations do
//!   not depend on the steps after it: the prefix alone gives the same;
//! - arbitrary and mutated scripts never make the reference panic, and what
//!   it returns is a schema-valid expected part;
//! - a cut-off Codex event stream (`end: "cut-off"`) normalizes to the same
//!   output, `unfinished: true` included, whatever piece it is fed in.

use crate::common;

use common::{own_fixtures, read_document};
use conform::suite_api::{NoTrace, Suite};
use conform::suites::agent_events::StreamOutput;
use conform::suites::codex_app_server_events::reference::{self as app_server, AppServerNormalizer};
use conform::suites::codex_exec_events::reference::{self as exec, ExecNormalizer};
use conform::suites::runtime_session::RuntimeSessionSuite;
use conform::suites::runtime_session::reference::{Replay, run};
use proptest::prelude::*;
use proptest::test_runner::Config;
use serde_json::{Value, json};
use std::sync::LazyLock;

/// The input part of every runtime-session fixture.
static SCRIPTS: LazyLock<Vec<Value>> = LazyLock::new(|| {
    own_fixtures("runtime-session")
        .iter()
        .map(|path| RuntimeSessionSuite.split(&read_document(path)).expect("fixtures split").input)
        .collect()
});

fn steps(input: &Value) -> &[Value] {
    input["steps"].as_array().map_or(&[], Vec::as_slice)
}

/// The script's steps fed in pieces cut at `cuts`.
fn replay_in_pieces(input: &Value, cuts: &[usize]) -> Value {
    let all = steps(input);
    let mut cuts: Vec<usize> = cuts.iter().map(|&cut| cut.min(all.len())).collect();
    cuts.sort_unstable();
    let mut replay = Replay::new(input).expect("a runtime");
    let mut start = 0;
    for cut in cuts.into_iter().chain([all.len()]) {
        replay.feed(&all[start..cut], &mut NoTrace).expect("the fixture replays");
        start = cut;
    }
    replay.finish()
}

fn every_script_replays_identically_when_split_at_every_step() {
    assert!(SCRIPTS.len() >= 30, "only {} runtime-session fixtures", SCRIPTS.len());
    let mut splits = 0;
    for input in SCRIPTS.iter() {
        let whole = run(input, &mut NoTrace).expect("the fixture replays");
        let all = steps(input);
        for cut in 0..=all.len() {
            assert_eq!(replay_in_pieces(input, &[cut]), whole, "split at step {cut}");
            // No look-ahead: the prefix alone gives the first `cut` steps' expectations.
            let mut prefix = input.clone();
            prefix["steps"] = Value::from(all[..cut].to_vec());
            let partial = run(&prefix, &mut NoTrace).expect("a prefix replays");
            assert_eq!(partial["steps"].as_array().map(Vec::as_slice), whole["steps"].as_array().map(|s| &s[..cut]));
            splits += 1;
        }
    }
    eprintln!("checked {splits} split points of {} scripts", SCRIPTS.len());
}

/// A validator for the suite's expected part, built from its schema.
static EXPECTED: LazyLock<jsonschema::Validator> = LazyLock::new(|| {
    let schema: Value = serde_json::from_str(RuntimeSessionSuite.schema()).expect("schema");
    let part = json!({
        "$schema": schema["$schema"],
        "$defs": schema["$defs"],
        "type": "object",
        "required": ["steps", "expectedState"],
        "properties": {
            "steps": {"type": "array", "items": {"type": "object", "required": ["expectedWrites", "expectedEvents"],
                "additionalProperties": false, "properties": {
                    "expectedWrites": schema["$defs"]["step"]["properties"]["expectedWrites"],
                    "expectedEvents": schema["$defs"]["step"]["properties"]["expectedEvents"]}}},
            "expectedState": schema["properties"]["expectedState"],
        },
    });
    jsonschema::validator_for(&part).expect("schema compiles")
});

/// Every step of every fixture, as material for mutated scripts.
static STEPS: LazyLock<Vec<Value>> = LazyLock::new(|| SCRIPTS.iter().flat_map(|s| steps(s).to_vec()).collect());

fn arb_leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..12).prop_map(Value::from),
        prop::sample::select(&["s1", "s2", "th_1", "tu_1", "send", "stop", "not json", "{\"id\":1", ""][..])
            .prop_map(Value::from),
    ]
}

/// Replaces one member of one step (picked by index) with a leaf.
fn mutated_script() -> impl Strategy<Value = Value> {
    let count = STEPS.len().max(1);
    let runtime = prop::sample::select(&["codex", "claude"][..]);
    let picks = prop::collection::vec((0..count, 0usize..8, arb_leaf()), 1..24);
    (runtime, picks).prop_map(|(runtime, picks)| {
        let steps: Vec<Value> = picks
            .into_iter()
            .filter_map(|(index, member, leaf)| {
                let mut step = STEPS.get(index)?.clone();
                if let Some(object) = step.as_object_mut() {
                    let keys: Vec<String> = object.keys().cloned().collect();
                    if let Some(key) = keys.get(member % keys.len().max(1)).filter(|_| member < 3) {
                        object.insert(key.clone(), leaf);
                    }
                }
                Some(step)
            })
            .collect();
        json!({"runtime": runtime, "steps": steps})
    })
}

proptest! {
    #![proptest_config(Config { cases: 256, failure_persistence: None, ..Config::default() })]

    fn mutated_scripts_never_panic_and_stay_schema_valid(script in mutated_script()) {
        if let Ok(output) = run(&script, &mut NoTrace) {
            let errors: Vec<String> = EXPECTED.iter_errors(&output).map(|e| format!("{e} at {}", e.instance_path())).collect();
            prop_assert!(errors.is_empty(), "{:?}", errors);
        }
    }

    fn feeding_a_script_in_random_pieces_changes_nothing(script in 0usize..64, cuts in prop::collection::vec(0usize..40, 0..5)) {
        if let Some(input) = SCRIPTS.get(script % SCRIPTS.len().max(1)) {
            prop_assert_eq!(replay_in_pieces(input, &cuts), run(input, &mut NoTrace).expect("replays"));
        }
    }
}

fn exec_pieces(lines: &[Value], cut: usize) -> StreamOutput {
    let mut normalizer = ExecNormalizer::new(None);
    normalizer.feed(&lines[..cut], &mut NoTrace);
    normalizer.feed(&lines[cut..], &mut NoTrace);
    normalizer.finish()
}

fn app_server_pieces(frames: &[Value], cut: usize) -> StreamOutput {
    let mut normalizer = AppServerNormalizer::new(None);
    normalizer.feed(&frames[..cut], &mut NoTrace);
    normalizer.feed(&frames[cut..], &mut NoTrace);
    normalizer.finish()
}

fn cut_off_codex_streams_replay_identically_and_stay_unfinished() {
    let mut checked = 0;
    for (suite, key) in [("codex-exec-events", "lines"), ("codex-app-server-events", "frames")] {
        for path in own_fixtures(suite) {
            let input = read_document(&path)["input"].clone();
            if input.get("end") != Some(&json!("cut-off")) {
                continue;
            }
            let reference = if key == "lines" { exec::run } else { app_server::run };
            let whole = reference(&input, &mut NoTrace).expect("the fixture normalizes");
            assert_eq!(whole["unfinished"], json!(true), "{}", path.display());
            let items = input[key].as_array().cloned().unwrap_or_default();
            for cut in 0..=items.len() {
                let mut output = if key == "lines" { exec_pieces(&items, cut) } else { app_server_pieces(&items, cut) };
                output.unfinished = true;
                assert_eq!(output.to_value(), whole, "{} split at {cut}", path.display());
                checked += 1;
            }
            // Without `end` the same stream is complete as given: no `unfinished`.
            let mut complete = input.clone();
            complete.as_object_mut().map(|object| object.remove("end"));
            assert_eq!(reference(&complete, &mut NoTrace).expect("normalizes").get("unfinished"), None);
        }
    }
    assert!(checked > 0, "no cut-off Codex fixture found");
}

crate::trials![
    every_script_replays_identically_when_split_at_every_step,
    mutated_scripts_never_panic_and_stay_schema_valid,
    feeding_a_script_in_random_pieces_changes_nothing,
    cut_off_codex_streams_replay_identically_and_stay_unfinished
];
