//! `conform reduce`: a 200-message case on which an implementation that
//! mishandles one message kind diverges shrinks to a fixture of at most
//! three messages showing the same failure, and cut-off streams reduce
//! keeping `end: "cut-off"`.

use crate::common;

use common::session::SessionBuilder;
use common::{conform, read_document, write_fixture};
use conform::implementation::{
    CaseRequest, CaseRun, Implementation, ImplementationInfo, ImplementationKind, Outcome, ReferenceImplementation,
};
use conform::reduce::{Failure, Oracle, ReduceRequest, reduce, reduced_document};
use conform::report::Verdict;
use conform::suite_api::NoTrace;
use conform::suites::chat::capture::hapi_messages::chat_input;
use serde_json::{Value, json};
use std::path::Path;

/// A decoder with one bug: it drops the `is_error` flag of Claude
/// tool_result blocks, so failed tool calls show as completed.
struct DropsToolErrors;

fn strip_is_error(value: &mut Value) {
    match value {
        Value::Object(object) => {
            if object.get("type").and_then(Value::as_str) == Some("tool_result") {
                object.remove("is_error");
            }
            object.values_mut().for_each(strip_is_error);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_is_error),
        _ => {}
    }
}

impl Implementation for DropsToolErrors {
    fn info(&self) -> ImplementationInfo {
        ImplementationInfo {
            name: "drops-tool-errors".into(),
            version: "1".into(),
            language: "rust".into(),
            kind: ImplementationKind::Subprocess,
            command: None,
        }
    }

    fn run_case(&self, request: &CaseRequest<'_>) -> CaseRun {
        let mut input = request.input.clone();
        strip_is_error(&mut input);
        match conform::suites::chat::reference::run(&input, &mut NoTrace) {
            Ok(output) => Outcome::Output(output).into(),
            Err(message) => Outcome::Error(message).into(),
        }
    }
}

/// A decoder that crashes on codex reasoning messages.
struct CrashesOnReasoning;

impl Implementation for CrashesOnReasoning {
    fn info(&self) -> ImplementationInfo {
        ImplementationInfo { name: "crashes-on-reasoning".into(), ..DropsToolErrors.info() }
    }

    fn run_case(&self, request: &CaseRequest<'_>) -> CaseRun {
        let text = conform::json::to_compact_string(request.input);
        if text.contains("\"type\":\"reasoning\"") {
            return Outcome::Crash("signal 11".into()).into();
        }
        ReferenceImplementation.run_case(request)
    }
}

fn session_input() -> Value {
    let (messages, state) = SessionBuilder::build();
    chat_input(messages, state, false)
}

fn request(input: &Value) -> ReduceRequest<'_> {
    ReduceRequest {
        suite: conform::suites::find("chat").unwrap_or_else(|| panic!("no chat suite")),
        fixture: "session",
        fixture_version: 1,
        input,
        oracle: Oracle::Reference(conform::suites::chat::reference::run),
        max_tests: 20_000,
        cancel: None,
        document: None,
    }
}

fn a_mishandled_message_kind_reduces_to_at_most_three_messages() -> Result<(), Box<dyn std::error::Error>> {
    let input = session_input();
    let request = request(&input);
    let reduction = reduce(&request, &DropsToolErrors)?;
    let (before, after) = reduction.items;
    assert_eq!(before, 200);
    assert!(after <= 3, "{after} messages left");
    assert_eq!(reduction.list.as_deref(), Some("messages"));

    // The reduced case shows the same failure as the original.
    let original = reference_signature(&input, &DropsToolErrors);
    let reduced = reference_signature(&reduction.input, &DropsToolErrors);
    assert_eq!(Some(&reduction.failure), original.as_ref());
    assert_eq!(reduced, original);
    assert_eq!(
        reduction.failure.to_string(),
        "/blocks/*/tool/state value-changed, /visibleBlocks/*/tool/state value-changed"
    );
    // And it is a valid fixture document the reference passes.
    let suite = request.suite;
    let document =
        reduced_document(suite, &json!({"fixtureVersion": 1, "name": "x", "description": "x"}), "x", "x", &reduction)
            .map_err(|e| e.to_string())?;
    let text = conform::json::to_canonical_string(&document);
    assert!(conform::schema::schema_errors(suite, 1, &document, &text, Path::new("x.json")).is_empty());
    eprintln!(
        "drops-tool-errors: 200 → {after} messages, {} → {} input bytes ({} removed) in {} runs",
        reduction.bytes.0,
        reduction.bytes.1,
        reduction.bytes.0 - reduction.bytes.1,
        reduction.tests
    );
    Ok(())
}

fn a_crash_reduces_to_the_message_that_triggers_it() -> Result<(), Box<dyn std::error::Error>> {
    let input = session_input();
    let reduction = reduce(&request(&input), &CrashesOnReasoning)?;
    assert_eq!(reduction.failure, Failure::verdict(Verdict::Crash));
    assert_eq!(reduction.items.1, 1);
    let message = &reduction.input["messages"][0];
    assert_eq!(message["content"]["content"]["data"]["type"], "reasoning");
    eprintln!("crashes-on-reasoning: 200 → 1 message, {} → {} input bytes", reduction.bytes.0, reduction.bytes.1);
    Ok(())
}

fn reference_signature(input: &Value, implementation: &dyn Implementation) -> Option<Failure> {
    let expected = conform::suites::chat::reference::run(input, &mut NoTrace).ok()?;
    let request = CaseRequest { suite: "chat", fixture: "x", fixture_version: 1, input };
    Failure::of(&implementation.run_case(&request).outcome, &expected, &[])
}

fn the_reference_against_a_stored_expectation_via_the_cli() -> Result<(), Box<dyn std::error::Error>> {
    // A 200-message fixture whose stored expectation disagrees with the
    // reference on one tool call's state (as a fixture generated by another
    // implementation would).
    let input = session_input();
    let mut expected = conform::suites::chat::reference::run(&input, &mut NoTrace)?;
    let blocks = expected["blocks"].as_array_mut().ok_or("no blocks")?;
    let tool = blocks.iter_mut().filter(|b| b["kind"] == "tool-call").nth(7).ok_or("few tool calls")?;
    let tampered_id = tool["tool"]["id"].clone();
    tool["tool"]["state"] = json!("error");
    let document = json!({"fixtureVersion": 1, "name": "long-session", "description": "A long session.",
                          "input": input, "expected": expected});
    let dir = tempfile::tempdir()?;
    let folder = dir.path().join("chat");
    let fixture = write_fixture(&folder, &document);

    let output = conform(&["reduce", &fixture.to_string_lossy(), "--impl", "reference"]);
    let stdout = &output.stdout;
    assert!(output.success(), "{}", output.text());
    assert!(stdout.contains("failure: /blocks/*/tool/state value-changed"), "{stdout}");
    assert!(stdout.contains("messages: 200 → "), "{stdout}");
    let pending = folder.join("long-session-reduced.json.new");
    assert!(pending.exists(), "written for review: {stdout}");
    assert!(!folder.join("long-session-reduced.json").exists());

    let reduced = read_document(&pending);
    let messages = reduced["input"]["messages"].as_array().map(Vec::len).unwrap_or(0);
    assert!(messages <= 3, "{messages} messages: {stdout}");
    let kept_tool = reduced["expected"]["blocks"].as_array().into_iter().flatten().find(|b| b["kind"] == "tool-call");
    assert_eq!(kept_tool.map(|b| &b["tool"]["id"]), Some(&tampered_id));

    // Accepted, the reduced fixture fails against the reference the same way.
    assert!(conform(&["review", &folder.to_string_lossy(), "--accept", "*-reduced"]).success());
    let reports = dir.path().join("reports");
    let run = conform(&[
        "run",
        &folder.join("long-session-reduced.json").to_string_lossy(),
        "--format",
        "pretty",
        "--out",
        &reports.to_string_lossy(),
    ]);
    assert_eq!(run.code, Some(1));
    let report = &run.stdout;
    assert!(report.contains("/tool/state: expected \"error\", got "), "{report}");
    eprintln!("stored expectation: {}", stdout.lines().nth(2).unwrap_or_default().trim());
    Ok(())
}

/// A Claude display decoder that closes the tool calls a cut-off stream
/// left open (as a decoder finishing the stream would): it reports them as
/// `error` instead of leaving them as they were.
struct ClosesOpenCalls;

impl Implementation for ClosesOpenCalls {
    fn info(&self) -> ImplementationInfo {
        ImplementationInfo { name: "closes-open-calls".into(), ..DropsToolErrors.info() }
    }

    fn run_case(&self, request: &CaseRequest<'_>) -> CaseRun {
        let reference = conform::suites::claude_display::reference::reference;
        let mut output = match reference(request.input, &mut NoTrace) {
            Ok(output) => output,
            Err(message) => return Outcome::Error(message).into(),
        };
        if request.input["end"] == "cut-off" {
            for turn in output["turns"].as_array_mut().into_iter().flatten() {
                for part in turn["parts"].as_array_mut().into_iter().flatten() {
                    if matches!(part["call"]["state"].as_str(), Some("pending" | "running")) {
                        part["call"]["state"] = json!("error");
                    }
                }
            }
        }
        Outcome::Output(output).into()
    }
}

/// A `claude-events` decoder that reads every stream as completed.
struct EndsEveryStream;

impl Implementation for EndsEveryStream {
    fn info(&self) -> ImplementationInfo {
        ImplementationInfo { name: "ends-every-stream".into(), ..DropsToolErrors.info() }
    }

    fn run_case(&self, request: &CaseRequest<'_>) -> CaseRun {
        let mut input = request.input.clone();
        input["end"] = json!("completed");
        match conform::suites::claude_events::reference::run(&input, &mut NoTrace) {
            Ok(output) => Outcome::Output(output).into(),
            Err(message) => Outcome::Error(message).into(),
        }
    }
}

/// A Codex decoder (exec or app-server, by the case's suite) that reads
/// every stream as completed and ends it with a `done` of its own.
struct SynthesizesDone;

impl Implementation for SynthesizesDone {
    fn info(&self) -> ImplementationInfo {
        ImplementationInfo { name: "synthesizes-done".into(), ..DropsToolErrors.info() }
    }

    fn run_case(&self, request: &CaseRequest<'_>) -> CaseRun {
        let reference = match request.suite {
            "codex-exec-events" => conform::suites::codex_exec_events::reference::run,
            _ => conform::suites::codex_app_server_events::reference::run,
        };
        let mut input = request.input.clone();
        if let Some(object) = input.as_object_mut() {
            object.remove("end");
        }
        match reference(&input, &mut NoTrace) {
            Ok(mut output) => {
                if let Some(events) = output["events"].as_array_mut() {
                    events.push(json!({"type": "done", "data": {}}));
                }
                Outcome::Output(output).into()
            }
            Err(message) => Outcome::Error(message).into(),
        }
    }
}

/// `conform reduce` holds for cut-off streams of the four event suites: the
/// reduced case keeps `end: "cut-off"` and the failure, and is a fixture the
/// reference passes.
fn cut_off_streams_reduce_and_stay_cut_off() -> Result<(), Box<dyn std::error::Error>> {
    let cases: [(&str, &str, conform::suite_api::ReferenceFn, &dyn Implementation); 4] = [
        (
            "claude-display",
            "cut-off-tool-states",
            conform::suites::claude_display::reference::reference,
            &ClosesOpenCalls,
        ),
        (
            "claude-events",
            "public-hive-mind-background-disabled",
            conform::suites::claude_events::reference::run,
            &EndsEveryStream,
        ),
        (
            "codex-exec-events",
            "cut-off-mid-command",
            conform::suites::codex_exec_events::reference::run,
            &SynthesizesDone,
        ),
        (
            "codex-app-server-events",
            "cut-off-mid-turn",
            conform::suites::codex_app_server_events::reference::run,
            &SynthesizesDone,
        ),
    ];
    for (suite_name, fixture, oracle, implementation) in cases {
        let document = read_document(&common::root().join("fixtures").join(suite_name).join(format!("{fixture}.json")));
        let input = &document["input"];
        let suite = conform::suites::find(suite_name).ok_or("suite")?;
        let request = ReduceRequest {
            suite,
            fixture,
            fixture_version: 1,
            input,
            oracle: Oracle::Reference(oracle),
            max_tests: 20_000,
            cancel: None,
            document: None,
        };
        let reduction = reduce(&request, implementation)?;
        let (before, after) = reduction.items;
        assert!(after < before, "{fixture}: {before} → {after}");
        assert_eq!(reduction.input["end"], "cut-off", "{fixture}: the reduced case is still cut off");
        let document = reduced_document(
            suite,
            &json!({"fixtureVersion": 1, "name": "x", "description": "x"}),
            "x",
            "x",
            &reduction,
        )
        .map_err(|e| e.to_string())?;
        assert_eq!(document["expected"]["unfinished"], true, "{fixture}");
        let text = conform::json::to_canonical_string(&document);
        assert!(conform::schema::schema_errors(suite, 1, &document, &text, Path::new("x.json")).is_empty());
        let passes = oracle(&reduction.input, &mut NoTrace).map_err(|e| e.to_string())?;
        assert_eq!(passes, document["expected"], "{fixture}: the reference passes the reduced case");
        let case = CaseRequest { suite: suite_name, fixture: "x", fixture_version: 1, input: &reduction.input };
        assert!(
            Failure::of(&implementation.run_case(&case).outcome, &document["expected"], &[]).is_some(),
            "{fixture}: the implementation still fails the reduced case"
        );
        eprintln!("{suite_name}/{fixture} against {}: {before} → {after} items", implementation.info().name);
    }
    Ok(())
}

/// A message window whose final view mode is wrong as soon as a live
/// delivery holds a row, whatever the row says.
struct WrongViewModeAfterDelivery;

impl Implementation for WrongViewModeAfterDelivery {
    fn info(&self) -> ImplementationInfo {
        ImplementationInfo { name: "wrong-view-mode".into(), ..DropsToolErrors.info() }
    }

    fn run_case(&self, request: &CaseRequest<'_>) -> CaseRun {
        let delivered = request.input["ops"].as_array().is_some_and(|ops| {
            ops.iter().any(|op| op["op"] == "sse-messages" && op["messages"].as_array().is_some_and(|m| !m.is_empty()))
        });
        match conform::suites::pagination::reference::reference(request.input, &mut NoTrace) {
            Ok(mut output) => {
                if delivered {
                    output["expectedState"]["viewMode"] = json!("history");
                }
                Outcome::Output(output).into()
            }
            Err(message) => Outcome::Error(message).into(),
        }
    }
}

fn a_reduced_pagination_case_keeps_the_members_its_schema_requires() -> Result<(), Box<dyn std::error::Error>> {
    let row = |id: &str, at: u64| {
        json!({"id": id, "seq": null, "localId": null, "createdAt": at, "invokedAt": at,
               "content": {"role": "agent", "content": {"type": "codex", "data": {"type": "message", "message": id}}}})
    };
    let input = json!({"ops": [
        {"op": "sse-messages", "messages": [row("a-1", 1000), row("a-2", 2000), row("a-3", 3000)]},
        {"op": "set-view-mode", "mode": "tail"},
        {"op": "sse-messages", "messages": [row("a-4", 4000)]},
    ]});
    let envelope = json!({"fixtureVersion": 1, "name": "window", "description": "A live window."});
    let suite = conform::suites::find("pagination").ok_or("suite")?;
    let reduce_with = |document: Option<&Value>| {
        reduce(
            &ReduceRequest {
                suite,
                fixture: "window",
                fixture_version: 1,
                input: &input,
                oracle: Oracle::Reference(conform::suites::pagination::reference::reference),
                max_tests: 2_000,
                cancel: None,
                document,
            },
            &WrongViewModeAfterDelivery,
        )
    };
    // Unchecked, the reducer strips the one row left down to its identity:
    // a document no schema accepts.
    let unchecked = reduce_with(None)?;
    assert_eq!(unchecked.items.1, 1, "{}", unchecked.input);
    assert!(unchecked.input["ops"][0]["messages"][0].get("content").is_none(), "{}", unchecked.input);

    let reduction = reduce_with(Some(&envelope))?;
    assert_eq!(reduction.items, (3, 1));
    assert_eq!(reduction.failure.to_string(), "/expectedState/viewMode value-changed");
    let rows = reduction.input["ops"][0]["messages"].as_array().cloned().unwrap_or_default();
    assert_eq!(rows.len(), 1, "{}", reduction.input);
    assert!(rows[0].get("content").is_some(), "{}", reduction.input);
    let document = reduced_document(suite, &envelope, "window-reduced", "Reduced.", &reduction)?;
    let text = conform::json::to_canonical_string(&document);
    let problems = conform::schema::schema_errors(suite, 1, &document, &text, Path::new("window-reduced.json"));
    assert!(problems.is_empty(), "{problems:?}");
    Ok(())
}

crate::trials![
    a_mishandled_message_kind_reduces_to_at_most_three_messages,
    a_crash_reduces_to_the_message_that_triggers_it,
    the_reference_against_a_stored_expectation_via_the_cli,
    cut_off_streams_reduce_and_stay_cut_off,
    a_reduced_pagination_case_keeps_the_members_its_schema_requires
];
