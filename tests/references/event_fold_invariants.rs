//! What the `event-fold` fixtures promise beyond passing (tests/fixtures.rs
//! judges each one): live and replay agree for every row order the database
//! could return, and the fixtures built from a normalizer fixture's output
//! still hold that fixture's current events.
//!
//! A derived fixture says so in its description ("Events are the expected output
//! of `<suite>/<name>`"): its events are the source's expected events stored
//! as rows (three per millisecond, increasing `seq`) and returned in a fixed
//! shuffled order. When the source's expectation moves, this test writes the
//! re-derived fixture as `NAME.json.new` for `conform review` and fails.

use crate::common;

use common::{own_fixtures, read_document, root};
use conform::json::to_canonical_string;
use conform::review::{WriteMode, pending_path, write_fixture};
use conform::suite_api::NoTrace;
use conform::suites::event_fold::reference as event_fold;
use serde_json::{Value, json};

/// The phrase that names a derived fixture's source in its description.
const DERIVED_FROM: &str = "Events are the expected output of ";

/// The `suite/name` a fixture's description says its events come from.
fn source_of(document: &Value) -> Option<&str> {
    let description = document["description"].as_str()?;
    let rest = &description[description.find(DERIVED_FROM)? + DERIVED_FROM.len()..];
    rest.split_whitespace().next()
}

/// Stamps a normalizer fixture's events as stored rows (three per
/// millisecond, increasing seq) and shuffles the order the rows come back in.
fn derived_input(source: &Value) -> Value {
    let events: Vec<Value> = source["expected"]["events"]
        .as_array()
        .expect("normalized events")
        .iter()
        .enumerate()
        .map(|(index, event)| {
            let mut row = event.clone();
            row["ts"] = json!(format!("2026-11-29T17:23:45.{:03}Z", index / 3));
            row["seq"] = json!(index + 1);
            row
        })
        .collect();
    // A fixed Fisher-Yates shuffle (LCG), so the derivation is reproducible.
    let mut order: Vec<usize> = (0..events.len()).collect();
    let mut state: u64 = 0x9e3b_ee46_f783_5f0a;
    for i in (1..order.len()).rev() {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let j = usize::try_from((state >> 33) % (i as u64 + 1)).unwrap_or(0);
        order.swap(i, j);
    }
    json!({"events": events, "replayOrder": order})
}

fn fixtures_derived_from_normalizer_fixtures_hold_their_current_events() {
    let mut derived = 0;
    let mut stale = Vec::new();
    for path in own_fixtures("event-fold") {
        let document = read_document(&path);
        let Some(source) = source_of(&document) else { continue };
        derived += 1;
        let source_path = root().join("fixtures").join(format!("{source}.json"));
        assert!(source_path.is_file(), "{}: the source {source} does not exist", path.display());
        let input = derived_input(&read_document(&source_path));
        if input == document["input"] {
            continue;
        }
        let mut proposed = document.clone();
        proposed["expected"] = event_fold::run(&input, &mut NoTrace)
            .unwrap_or_else(|err| panic!("{}: the re-derived input fails the reference: {err}", path.display()));
        proposed["input"] = input;
        write_fixture(&path, &to_canonical_string(&proposed), WriteMode::Pending)
            .unwrap_or_else(|err| panic!("{}: {err}", path.display()));
        stale.push(format!(
            "{}: the events of {source} moved; proposed as {}",
            path.display(),
            pending_path(&path).display()
        ));
    }
    assert!(derived >= 8, "only {derived} event-fold fixtures name the fixture they derive from");
    assert!(stale.is_empty(), "review the proposals with `conform review fixtures`:\n{}", stale.join("\n"));
}

fn event_fold_fixtures_agree_when_replay_rows_are_reshuffled() {
    // The reference fails a case whose live and replay paths disagree, so a
    // passing fixture already agrees for its own `replayOrder`; this checks
    // every other row order the database could return too (reversed and
    // rotated), as long as rows carry distinct (ts, seq) keys.
    for path in own_fixtures("event-fold") {
        let document = read_document(&path);
        let input = &document["input"];
        let events = input["events"].as_array().cloned().unwrap_or_default();
        let keyed = events.iter().all(|event| event.get("seq").is_some_and(Value::is_number));
        if !keyed {
            continue;
        }
        let n = events.len();
        let mut orders: Vec<Vec<usize>> = vec![(0..n).rev().collect()];
        for shift in [1, n / 2, n.saturating_sub(1)] {
            orders.push((0..n).map(|i| (i + shift) % n.max(1)).collect());
        }
        for order in orders {
            let mut shuffled = input.clone();
            shuffled["replayOrder"] = json!(order);
            let result = event_fold::run(&shuffled, &mut NoTrace);
            assert_eq!(
                result.as_ref().ok(),
                Some(&document["expected"]),
                "{} with replayOrder {order:?}",
                path.display()
            );
        }
    }
}

crate::trials![
    fixtures_derived_from_normalizer_fixtures_hold_their_current_events,
    event_fold_fixtures_agree_when_replay_rows_are_reshuffled
];
