//! Property tests of the session-patch fold: arbitrary patch sequences never
//! panic, and delivering any well-formed patch a second time is `unchanged`.
//! 256 cases each.

use conform::suite_api::NoTrace;
use conform::suites::sse::reference::{PatchResult, fold_step, normalize, reference};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

const T0: i64 = 1_755_000_000_000;

fn base_session() -> Value {
    json!({"id": "s", "namespace": "default", "seq": 1, "createdAt": T0 - 3_600_000, "updatedAt": T0,
        "active": true, "activeAt": T0, "metadata": {"path": "/p", "host": "h"}, "metadataVersion": 3,
        "agentState": null, "agentStateVersion": 5, "thinking": false, "thinkingAt": 0, "activeTurnStartedAt": null,
        "model": "m1", "modelReasoningEffort": null, "effort": null, "serviceTier": null, "permissionMode": "default"})
}

fn arbitrary_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from),
        "[a-z]{0,4}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-zA-Z]{1,12}", inner, 0..4)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

const KEYS: [&str; 21] = [
    "active",
    "thinking",
    "activeAt",
    "updatedAt",
    "model",
    "modelReasoningEffort",
    "effort",
    "serviceTier",
    "permissionMode",
    "collaborationMode",
    "copilotAgentMode",
    "backgroundTaskCount",
    "metadata",
    "agentState",
    "todos",
    "teamState",
    "activeTurnStartedAt",
    "scratchlistUpdatedAt",
    "lastAssistantMessageAt",
    "lastAssistantMessageVersion",
    "bogus",
];

/// Any JSON at all, or an object mixing known keys with arbitrary values.
fn arbitrary_patch() -> impl Strategy<Value = Value> {
    prop_oneof![
        arbitrary_json(),
        prop::collection::vec((prop::sample::select(&KEYS[..]), arbitrary_json()), 0..5)
            .prop_map(|members| Value::Object(members.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
    ]
}

fn time() -> impl Strategy<Value = Value> {
    (-200_000i64..200_000).prop_map(|delta| json!(T0 + delta))
}

fn nullable_string() -> impl Strategy<Value = Value> {
    prop_oneof![Just(Value::Null), "[a-z]{1,3}".prop_map(Value::from)]
}

fn version() -> impl Strategy<Value = Value> {
    (-2i64..9).prop_map(Value::from)
}

fn member() -> impl Strategy<Value = (String, Value)> {
    let entry = |key: &'static str, value: BoxedStrategy<Value>| value.prop_map(move |value| (key.to_owned(), value));
    prop_oneof![
        entry("active", any::<bool>().prop_map(Value::from).boxed()),
        entry("thinking", any::<bool>().prop_map(Value::from).boxed()),
        entry("activeAt", time().boxed()),
        entry("updatedAt", time().boxed()),
        entry("model", nullable_string().boxed()),
        entry("effort", nullable_string().boxed()),
        entry("serviceTier", nullable_string().boxed()),
        entry("permissionMode", prop::sample::select(vec!["default", "plan", "yolo"]).prop_map(Value::from).boxed()),
        entry("collaborationMode", prop::sample::select(vec!["default", "plan"]).prop_map(Value::from).boxed()),
        entry(
            "copilotAgentMode",
            prop::sample::select(vec!["interactive", "plan", "autopilot", "fleet"]).prop_map(Value::from).boxed()
        ),
        entry("backgroundTaskCount", (0u32..4).prop_map(Value::from).boxed()),
        entry(
            "metadata",
            (version(), prop_oneof![Just(Value::Null), Just(json!({"path": "/x", "host": "h"}))])
                .prop_map(|(version, value)| json!({"version": version, "value": value}))
                .boxed()
        ),
        entry(
            "agentState",
            (version(), prop_oneof![Just(Value::Null), Just(json!({"requests": {}}))])
                .prop_map(|(version, value)| json!({"version": version, "value": value}))
                .boxed()
        ),
        entry(
            "todos",
            version()
                .prop_map(|version| json!({"version": version, "value": [{"content": "x", "status": "pending"}]}))
                .boxed()
        ),
        entry(
            "teamState",
            (version(), prop_oneof![Just(Value::Null), Just(json!({"teamName": "t"}))])
                .prop_map(|(version, value)| json!({"version": version, "value": value}))
                .boxed()
        ),
        entry("activeTurnStartedAt", prop_oneof![Just(Value::Null), time()].boxed()),
        entry("scratchlistUpdatedAt", time().boxed()),
        entry("lastAssistantMessageAt", prop_oneof![Just(Value::Null), time()].boxed()),
        entry("lastAssistantMessageVersion", (-2i64..20).prop_map(Value::from).boxed()),
    ]
}

/// A schema-valid patch: known keys with values of the right types.
fn well_formed_patch() -> impl Strategy<Value = Map<String, Value>> {
    prop::collection::vec(member(), 1..6).prop_map(|members| members.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    fn arbitrary_patch_sequences_never_panic(
        patches in prop::collection::vec(arbitrary_patch(), 0..6),
        session in prop_oneof![Just(base_session()), arbitrary_json()],
    ) {
        let input = json!({"initialSession": session, "patches": patches});
        if let Ok(output) = reference(&input, &mut NoTrace) {
            let verdicts = output["expectedPatchResults"].as_array().map_or(0, Vec::len);
            prop_assert_eq!(verdicts, input["patches"].as_array().map_or(0, Vec::len));
        }
    }

    fn a_second_delivery_is_unchanged(
        earlier in prop::collection::vec(well_formed_patch(), 0..4),
        patch in well_formed_patch(),
    ) {
        let mut session = normalize::session(&base_session(), &mut NoTrace).map_err(TestCaseError::fail)?;
        for earlier in &earlier {
            let earlier = normalize::patch(&Value::Object(earlier.clone()), &mut NoTrace).map_err(TestCaseError::fail)?;
            if let Some(next) = fold_step(&session, &earlier, 0, &mut NoTrace) {
                session = next;
            }
        }
        let patch = normalize::patch(&Value::Object(patch), &mut NoTrace).map_err(TestCaseError::fail)?;
        if let Some(next) = fold_step(&session, &patch, 0, &mut NoTrace) {
            session = next;
        }
        let again = fold_step(&session, &patch, 0, &mut NoTrace).map_or(PatchResult::Unchanged, |_| PatchResult::Applied);
        prop_assert_eq!(again, PatchResult::Unchanged, "patch {:?} on {:?}", patch, session);
    }
}

crate::trials![arbitrary_patch_sequences_never_panic, a_second_delivery_is_unchanged];
