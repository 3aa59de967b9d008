//! The same stream gives the same turns whether the SDK flags
//! (`isSynthetic`, `isReplay`) or the text rules identify CLI machinery.
//!
//! * Stripping `isSynthetic` from every frame the text rules recognise
//!   changes nothing at all (checked on every fixture and on generated
//!   streams).
//! * Stripping `isReplay` from a recognised frame changes only that turn's
//!   origin, from `replay` (row 1 outranks the text rules) to the origin the
//!   text rule gives (and, for a task notification, its parts from raw to
//!   the summary); ids, other parts, order, nesting and dispositions are
//!   equal.
//!   Echoes of earlier frames are left alone (see [`strip`]).

use crate::common;

use common::{own_fixtures, read_document};
use conform::json::to_canonical_string;
use conform::suite_api::NoTrace;
use conform::suites::claude_display::reference::{display, text_rule};
use proptest::prelude::*;
use serde_json::{Value, json};
use std::collections::BTreeSet;

fn fixture_inputs() -> Vec<(String, Vec<Value>)> {
    own_fixtures("claude-display")
        .into_iter()
        .map(|path| {
            let messages = read_document(&path)["input"]["messages"].as_array().cloned().unwrap_or_default();
            (path.display().to_string(), messages)
        })
        .collect()
}

/// Removes `flag` from the frames the text rules recognise; returns the
/// uuids of the frames that carried it. A replay that repeats an earlier
/// frame's uuid keeps its flag: rendering an echo once is what the flag is
/// for, and no text rule can know a frame is a repeat.
fn strip(messages: &mut [Value], flag: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stripped = BTreeSet::new();
    for message in messages.iter_mut() {
        let uuid = message["uuid"].as_str().unwrap_or_default().to_owned();
        let repeat = flag == "isReplay" && seen.contains(&uuid);
        if !repeat && message.get(flag) == Some(&Value::Bool(true)) && text_rule(message).is_some() {
            if let Some(object) = message.as_object_mut() {
                object.remove(flag);
            }
            stripped.insert(uuid.clone());
        }
        seen.insert(uuid);
    }
    stripped
}

fn run(messages: &[Value]) -> Value {
    display(messages, &mut NoTrace)
}

fn text_rules_make_is_synthetic_redundant_on_every_fixture() {
    let mut stripped_total = 0;
    for (path, messages) in fixture_inputs() {
        let mut unflagged = messages.clone();
        stripped_total += strip(&mut unflagged, "isSynthetic").len();
        assert_eq!(
            to_canonical_string(&run(&messages)),
            to_canonical_string(&run(&unflagged)),
            "{path}: isSynthetic changed the projection of machinery the text rules recognise"
        );
    }
    assert!(stripped_total >= 5, "only {stripped_total} flagged machinery frames in the fixtures");
}

/// Calls `f` on every turn, nested transcripts included.
fn each_turn(turns: &mut Value, f: &mut dyn FnMut(&mut Value)) {
    let Some(list) = turns.as_array_mut() else { return };
    for turn in list {
        f(turn);
        if let Some(parts) = turn["parts"].as_array_mut() {
            for part in parts {
                if let Some(transcript) = part.pointer_mut("/call/subagent/transcript") {
                    each_turn(transcript, f);
                }
            }
        }
    }
}

fn is_replay_only_changes_the_origin_of_recognised_machinery() {
    let mut checked = 0;
    for (path, messages) in fixture_inputs() {
        let mut unflagged = messages.clone();
        let ids = strip(&mut unflagged, "isReplay");
        if ids.is_empty() {
            continue;
        }
        let (mut flagged_out, mut unflagged_out) = (run(&messages), run(&unflagged));
        for (output, replay) in [(&mut flagged_out, true), (&mut unflagged_out, false)] {
            each_turn(&mut output["turns"], &mut |turn| {
                let id = turn["id"].as_str().unwrap_or_default().to_owned();
                if !ids.contains(&id) {
                    return;
                }
                let origin = turn["origin"].take();
                if replay {
                    assert_eq!(origin, json!({"kind": "replay"}), "{path}: {id}");
                } else {
                    assert!(origin.get("rule").is_some(), "{path}: {id} should be named by a text rule: {origin}");
                }
                // The notify rule also rewrites the parts to the summary;
                // a replay keeps them raw.
                if origin["kind"] == "notification"
                    || (replay && turn["parts"].to_string().contains("<task-notification>"))
                {
                    turn["parts"].take();
                }
                checked += 1;
            });
        }
        assert_eq!(to_canonical_string(&flagged_out), to_canonical_string(&unflagged_out), "{path}");
    }
    assert!(checked >= 10, "only {checked} replayed machinery turns checked");
}

/// Frames a generated stream is made of; the machinery ones may carry
/// `isSynthetic`.
const MACHINERY: [&str; 12] = [
    "<command-name>/widgets</command-name>\n<command-message>widgets</command-message>\n<command-args></command-args>",
    "<local-command-stdout>done</local-command-stdout>",
    "[Request interrupted by user]",
    "[Request interrupted by user for tool use]",
    "<bash-input>ls</bash-input>",
    "<bash-stdout>a\nb</bash-stdout>",
    "<user-memory-input>remember this</user-memory-input>",
    "<task-notification><summary>Job done</summary></task-notification>",
    "Caveat: The messages below were generated by the user while running local commands.",
    "This session is being continued from a previous conversation that ran out of context.",
    "<system-reminder>reminder</system-reminder>",
    "<user-prompt-submit-hook>hook</user-prompt-submit-hook>",
];

/// One generated frame group: `(kind, variant)`.
fn frames(index: usize, kind: u8, variant: usize, flagged: bool, agent: &mut Option<String>) -> Vec<Value> {
    let uuid = format!("g-{index}");
    let parent = agent.clone().map_or(Value::Null, Value::from);
    match kind {
        0 => {
            let mut frame = json!({"type": "user", "message": {"role": "user", "content": MACHINERY[variant % MACHINERY.len()]}, "parent_tool_use_id": parent, "uuid": uuid});
            if flagged {
                frame["isSynthetic"] = Value::Bool(true);
            }
            vec![frame]
        }
        1 => vec![
            json!({"type": "user", "message": {"role": "user", "content": [{"type": "text", "text": format!("real input {variant} <system-reminder>r</system-reminder>")}]}, "parent_tool_use_id": parent, "uuid": uuid}),
        ],
        2 => vec![
            json!({"type": "assistant", "message": {"id": format!("m-{}", index / 2), "content": [{"type": "text", "text": "ok"}]}, "parent_tool_use_id": parent, "uuid": uuid}),
        ],
        3 => {
            let id = format!("toolu-skill-{index}");
            vec![
                json!({"type": "assistant", "message": {"id": format!("m-s{index}"), "content": [{"type": "tool_use", "id": id, "name": "Skill", "input": {"skill": "widgets"}}]}, "parent_tool_use_id": parent, "uuid": uuid}),
                json!({"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": "Launching skill: widgets"}]}, "parent_tool_use_id": parent, "uuid": format!("{uuid}-r")}),
                json!({"type": "user", "message": {"role": "user", "content": [{"type": "text", "text": "# skill body"}]}, "parent_tool_use_id": parent, "uuid": format!("{uuid}-b"), "isSynthetic": true}),
            ]
        }
        _ => {
            let id = format!("toolu-agent-{index}");
            let call = json!({"type": "assistant", "message": {"id": format!("m-a{index}"), "content": [{"type": "tool_use", "id": id, "name": "Agent", "input": {"description": "d", "prompt": "p"}}]}, "parent_tool_use_id": parent, "uuid": uuid});
            *agent = if variant.is_multiple_of(2) { Some(id) } else { None };
            vec![call]
        }
    }
}

fn stream(plan: &[(u8, usize, bool)], with_flags: bool) -> Vec<Value> {
    let mut agent = None;
    let mut messages =
        vec![json!({"type": "system", "subtype": "init", "skills": ["widgets"], "uuid": "init", "session_id": "s"})];
    for (index, (kind, variant, flagged)) in plan.iter().enumerate() {
        messages.extend(frames(index, *kind, *variant, *flagged && with_flags, &mut agent));
    }
    messages
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    fn generated_streams_give_the_same_projection_with_and_without_is_synthetic(
        plan in prop::collection::vec((0u8..5, 0usize..24, any::<bool>()), 1..16)
    ) {
        let flagged = run(&stream(&plan, true));
        let unflagged = run(&stream(&plan, false));
        prop_assert_eq!(to_canonical_string(&flagged), to_canonical_string(&unflagged));
    }
}

crate::trials![
    text_rules_make_is_synthetic_redundant_on_every_fixture,
    is_replay_only_changes_the_origin_of_recognised_machinery,
    generated_streams_give_the_same_projection_with_and_without_is_synthetic
];
