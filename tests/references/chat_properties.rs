//! Property test: the chat reference is total, for both fixtureVersions it
//! implements. Arbitrary JSON in every field position of the wire envelope,
//! the payload families and the agentState (the version 2 members
//! included: display links, durable attachments, `toolCallId`, user-shell
//! commands) never makes it panic, and it always produces a projection of
//! the shape that version documents.
//!
//! 10,000 cases per `cargo test`, each decoded by both versions, about 30 s of
//! CPU in the debug profile.
//! Each case is built from a seed by a small generator rather than by
//! composed proptest strategies, which are an order of magnitude slower to
//! sample in a debug build; proptest still drives the cases, reports the
//! seed of a failure and shrinks the message count and nesting depth.
//! Values come from a vocabulary of the member names and strings the pipeline
//! dispatches on, so that random inputs reach deep into the decode tree
//! instead of stopping at the first type test.

use conform::json::to_canonical_string;
use conform::suite_api::NoTrace;
use conform::suites::chat::reference::{run, run_v1};
use proptest::prelude::*;
use serde_json::{Map, Value, json};
use std::sync::OnceLock;

/// Member names the pipeline reads.
const KEYS: &[&str] = &[
    "type",
    "role",
    "content",
    "meta",
    "data",
    "message",
    "payload",
    "id",
    "uuid",
    "parentUuid",
    "isSidechain",
    "parentToolUseId",
    "subtype",
    "text",
    "thinking",
    "name",
    "input",
    "tool_use_id",
    "is_error",
    "toolUseResult",
    "permissions",
    "summary",
    "callId",
    "output",
    "progress",
    "plan",
    "entries",
    "items",
    "steps",
    "status",
    "state",
    "step",
    "info",
    "last",
    "input_tokens",
    "output_tokens",
    "usage",
    "goal",
    "threadId",
    "objective",
    "agentId",
    "cardId",
    "prompt",
    "sentFrom",
    "attachments",
    "imageId",
    "image_id",
    "streamSnapshot",
    "timestamp",
    "model",
    "retryAttempt",
    "error",
    "resultSummary",
    "modelUsage",
    "toolName",
    "toolUseId",
    "result",
    "date",
    "mode",
    "allowedTools",
    "decision",
    "title",
    "0",
    "10",
    "scope",
    "command_actions",
    "findings",
    "source",
    "requests",
    "attachmentId",
    "path",
    "toolCallId",
    "urls",
    "texts",
    "href",
    "url",
    "value",
    "commandSource",
];

/// Strings the pipeline compares against, plus ids that correlate.
const WORDS: &[&str] = &[
    "user",
    "agent",
    "output",
    "codex",
    "event",
    "assistant",
    "system",
    "summary",
    "agy_message",
    "agy_tool_action",
    "text",
    "thinking",
    "tool_use",
    "tool_result",
    "api_error",
    "turn_duration",
    "away_summary",
    "microcompact_boundary",
    "compact_boundary",
    "rate_limit_event",
    "message",
    "reasoning",
    "tool-call",
    "tool-call-result",
    "plan",
    "plan_update",
    "token_count",
    "generated-image",
    "thread_goal_updated",
    "thread_goal_cleared",
    "context_compacted",
    "compact-summary",
    "error",
    "display-links",
    "https://a.test/x",
    " HTTP://b.test ",
    "javascript:x",
    "userShell",
    "codex:s1",
    "resolved",
    "agent-run-start",
    "agent-run-update",
    "agent-run-trace",
    "ready",
    "title-changed",
    "switch",
    "api-error",
    "turn-duration",
    "read",
    "search",
    "listFiles",
    "Task",
    "Agent",
    "CodexBash",
    "CodexAgent",
    "Read",
    "mcp__hapi__change_title",
    "SYSTEM_MESSAGE",
    "ERROR_MESSAGE",
    "VIEW_FILE",
    "view_file",
    "run_command",
    "approved",
    "denied",
    "pending",
    "canceled",
    "completed",
    "failed",
    "wait_agent",
    "close_agent",
    "child",
    "cli",
    "t1",
    "t2",
    "t3",
    "m1",
    "m2",
    "u1",
    "ag1",
    "codex-agent:ag1",
    "",
    " ",
    "Claude AI usage limit reached|1755120000|x",
    "Claude AI usage limit warning|1|85|",
    "<command-name>/x</command-name>\n",
    "<local-command-stdout>y</local-command-stdout>",
    "<task-notification><summary>done</summary></task-notification>",
    "No response requested.",
    "Goal active",
    "{\"findings\":[{\"title\":\"a\",\"body\":\"b\"}],\"overall_correctness\":\"ok\"}",
    "Inside the task-7 log",
    "[Message] timestamp=1",
    "content=x failed with exit code 2</SYSTEM_MESSAGE>",
    "Created At: x\nGuidance: y",
    "pi-a-turn-1-message-1-text-1",
    "2025-08-12T11:20:05.173Z",
    "\u{feff} \u{85}",
    "\u{1F600}",
    "é\u{7}",
];

/// Makes a plausible value for one member, nested at most `depth` levels.
type Member = fn(&mut Gen, u32) -> Value;

/// A splitmix64 stream: a whole case is a function of one seed.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, numerator: usize, denominator: usize) -> bool {
        self.below(denominator) < numerator
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    fn word(&mut self) -> String {
        if self.chance(4, 5) {
            return self.pick(WORDS).to_owned();
        }
        (0..self.below(10)).filter_map(|_| char::from_u32(self.next() as u32 % 0x11_0000)).collect()
    }

    fn number(&mut self) -> Value {
        match self.below(4) {
            0 => Value::from(self.next() as i64),
            1 => Value::from(self.below(3_000_000_000_000)),
            2 => Value::from(self.below(100)),
            _ => serde_json::Number::from_f64(f64::from_bits(self.next())).map_or(Value::Null, Value::Number),
        }
    }

    /// Any JSON value, nested at most `depth` levels.
    fn any(&mut self, depth: u32) -> Value {
        let branch = if depth == 0 { 0 } else { self.below(3) };
        match (branch, self.below(8)) {
            (0, 0) => Value::Null,
            (0, 1) => Value::Bool(self.chance(1, 2)),
            (0, 2 | 3) => self.number(),
            (0, _) => Value::String(self.word()),
            (1, _) => Value::Array((0..self.below(4)).map(|_| self.any(depth - 1)).collect()),
            _ => Value::Object((0..self.below(6)).map(|_| (self.pick(KEYS).to_owned(), self.any(depth - 1))).collect()),
        }
    }

    /// An object with these members; each is mostly present with a plausible
    /// value, sometimes present with any JSON, sometimes absent.
    fn object(&mut self, depth: u32, members: &[(&str, Member)]) -> Value {
        let mut object = Map::new();
        for (key, plausible) in members {
            match self.below(20) {
                0..=16 => {
                    object.insert((*key).to_owned(), plausible(self, depth));
                }
                17 => {
                    object.insert((*key).to_owned(), self.any(depth));
                }
                _ => {}
            }
        }
        Value::Object(object)
    }
}

/// A value from `items` most of the time, any word otherwise.
fn choose(g: &mut Gen, items: &[&str]) -> Value {
    Value::String(if g.chance(7, 8) { g.pick(items).to_owned() } else { g.word() })
}

macro_rules! picker {
    ($($name:ident => [$($item:expr),* $(,)?];)*) => {
        $(fn $name(g: &mut Gen, _: u32) -> Value {
            choose(g, &[$($item),*])
        })*
    };
}

picker! {
    block_type => ["text", "thinking", "tool_use", "tool_result"];
    entry_type => [
        "assistant", "assistant", "user", "user", "summary", "system", "agy_message", "agy_tool_action", "result",
        "rate_limit_event", "tool_progress",
    ];
    subtype => ["api_error", "turn_duration", "away_summary", "microcompact_boundary", "compact_boundary", "init"];
    codex_type => [
        "message", "reasoning", "tool-call", "tool-call", "tool-call-result", "tool-call-result", "plan", "plan_update",
        "token_count", "generated-image", "thread_goal_updated", "thread_goal_cleared", "context_compacted",
        "compact-summary", "error", "agent-run-start", "agent-run-update", "agent-run-trace", "agent-run-trace",
        "display-links", "display-links",
    ];
    event_type => ["message", "error", "title-changed", "ready", "switch", "api-error", "turn-duration", "thread-goal-cleared"];
    tool_id => ["t1", "t2", "t3", "codex-agent:ag1"];
    tool_name => ["Task", "Agent", "Read", "Bash", "CodexBash", "mcp__hapi__change_title", "unknown", "Tool"];
    message_id => ["m1", "m2", "m3", "m4", "u1"];
    uuid => ["u1", "u2", "u3", "u4"];
    agy_action => ["SYSTEM_MESSAGE", "ERROR_MESSAGE", "VIEW_FILE", "RUN_COMMAND", "CODE_ACTION"];
    agy_tool => ["view_file", "run_command", "grep_search", "list_dir", "write_to_file", "open_browser_url"];
    run_status => ["running", "completed", "failed", "pending", "canceled", "not_found"];
    activity_kind => ["wait_agent", "close_agent", "send_input", "closed", "canceled"];
    agent_id => ["ag1", "ag2"];
    card_id => ["card-1", "card-2", "t1"];
    permission_result => ["approved", "denied"];
    request_status => ["approved", "denied", "canceled", "pending", "resolved"];
    link => ["https://a.test/x", " http://b.test ", "javascript:alert(1)", "https%3A%2F%2Fc.test", "", "http://"];
    stream_id => ["codex:s1", "codex:s1", "s2", " ", "codex-agent:ag1:trace:r"];
    goal_status => ["active", "paused", "complete", "blocked"];
}

fn word(g: &mut Gen, _: u32) -> Value {
    Value::String(g.word())
}

fn any_value(g: &mut Gen, depth: u32) -> Value {
    g.any(depth)
}

fn flag(g: &mut Gen, _: u32) -> Value {
    Value::Bool(g.chance(1, 2))
}

fn number(g: &mut Gen, _: u32) -> Value {
    g.number()
}

fn claude_block(g: &mut Gen, depth: u32) -> Value {
    g.object(
        depth,
        &[
            ("type", block_type),
            ("text", word),
            ("thinking", word),
            ("id", tool_id),
            ("name", tool_name),
            ("input", any_value),
            ("tool_use_id", tool_id),
            ("content", any_value),
            ("is_error", any_value),
            ("permissions", |g, d| {
                g.object(
                    d,
                    &[
                        ("date", number),
                        ("result", permission_result),
                        ("mode", word),
                        ("allowedTools", any_value),
                        ("decision", word),
                    ],
                )
            }),
        ],
    )
}

fn claude_message(g: &mut Gen, depth: u32) -> Value {
    g.object(
        depth,
        &[
            ("content", |g, d| {
                if g.chance(3, 4) {
                    Value::Array((0..g.below(4)).map(|_| claude_block(g, d)).collect())
                } else {
                    word(g, d)
                }
            }),
            ("usage", |g, d| {
                g.object(d, &[("input_tokens", number), ("output_tokens", number), ("cache_read_input_tokens", number)])
            }),
            ("model", word),
        ],
    )
}

fn output_data(g: &mut Gen, depth: u32) -> Value {
    g.object(
        depth,
        &[
            ("type", entry_type),
            ("subtype", subtype),
            ("uuid", uuid),
            ("parentUuid", uuid),
            ("isSidechain", flag),
            ("parentToolUseId", tool_id),
            ("timestamp", word),
            ("message", claude_message),
            ("toolUseResult", any_value),
            ("content", word),
            ("name", agy_action),
            ("toolName", agy_tool),
            ("toolUseId", tool_id),
            ("input", any_value),
            ("summary", word),
            ("resultSummary", any_value),
            ("isMeta", any_value),
        ],
    )
}

fn codex_data(g: &mut Gen, depth: u32) -> Value {
    g.object(
        depth,
        &[
            ("type", codex_type),
            ("message", |g, d| {
                if g.chance(1, 2) {
                    word(g, d)
                } else {
                    g.object(d, &[("type", codex_type), ("id", word), ("message", word), ("callId", tool_id)])
                }
            }),
            ("id", stream_id),
            ("callId", tool_id),
            ("name", tool_name),
            ("input", |g, d| {
                g.object(
                    d,
                    &[("command_actions", any_value), ("command_source", word), ("prompt", word), ("title", word)],
                )
            }),
            ("urls", |g, d| {
                let items = (0..g.below(24))
                    .map(|_| {
                        if g.chance(1, 2) {
                            link(g, d)
                        } else {
                            g.object(d, &[("href", link), ("url", link), ("title", word)])
                        }
                    })
                    .collect();
                Value::Array(items)
            }),
            ("texts", |g, d| {
                let items = (0..g.below(24))
                    .map(|_| {
                        if g.chance(1, 2) {
                            word(g, d)
                        } else {
                            g.object(d, &[("value", word), ("text", word), ("title", word)])
                        }
                    })
                    .collect();
                Value::Array(items)
            }),
            ("output", any_value),
            ("progress", any_value),
            ("plan", any_value),
            ("entries", any_value),
            ("info", |g, d| {
                g.object(
                    d,
                    &[("last", any_value), ("total", any_value), ("input_tokens", number), ("output_tokens", number)],
                )
            }),
            ("goal", |g, d| g.object(d, &[("threadId", word), ("objective", word), ("status", goal_status)])),
            ("agentId", agent_id),
            ("cardId", card_id),
            ("status", run_status),
            ("activityKind", activity_kind),
            ("imageId", word),
            ("source", any_value),
            ("result", any_value),
        ],
    )
}

fn payload(g: &mut Gen, depth: u32) -> Value {
    match g.below(20) {
        0..=7 => g.object(depth, &[("type", |_, _| json!("output")), ("data", output_data)]),
        8..=14 => g.object(depth, &[("type", |_, _| json!("codex")), ("data", codex_data)]),
        15..=17 => g.object(
            depth,
            &[
                ("type", |_, _| json!("event")),
                ("data", |g, d| {
                    g.object(d, &[("type", event_type), ("message", word), ("title", word), ("retryAttempt", number)])
                }),
            ],
        ),
        _ => g.object(
            depth,
            &[
                ("type", |_, _| json!("text")),
                ("text", word),
                ("attachments", |g, d| {
                    let attachment = |g: &mut Gen, d| {
                        g.object(
                            d,
                            &[
                                ("id", word),
                                ("filename", word),
                                ("mimeType", word),
                                ("size", number),
                                ("path", word),
                                ("attachmentId", word),
                                ("previewUrl", word),
                            ],
                        )
                    };
                    if g.chance(4, 5) {
                        Value::Array((0..g.below(4)).map(|_| attachment(g, d)).collect())
                    } else {
                        g.any(d)
                    }
                }),
            ],
        ),
    }
}

fn envelope(g: &mut Gen, depth: u32) -> Value {
    let record = g.object(
        depth,
        &[
            ("role", |g, d| match g.below(8) {
                0..=2 => json!("user"),
                3..=6 => json!("agent"),
                _ => word(g, d),
            }),
            ("content", |g, d| if g.chance(9, 10) { payload(g, d) } else { g.any(d) }),
            ("meta", |g, d| {
                g.object(d, &[("sentFrom", |g, _| if g.chance(1, 2) { json!("cli") } else { Value::String(g.word()) })])
            }),
        ],
    );
    match g.below(12) {
        0 => json!({"message": record}),
        1 => json!({"data": {"message": record}}),
        2 => g.any(depth),
        3 => json!({"payload": {"message": record}}),
        _ => record,
    }
}

fn message(g: &mut Gen, depth: u32) -> Value {
    g.object(
        depth,
        &[
            ("id", message_id),
            ("seq", any_value),
            ("localId", word),
            ("content", envelope),
            ("createdAt", |g, _| Value::from(g.below(10_000))),
            ("invokedAt", number),
            ("status", word),
            ("steered", any_value),
        ],
    )
}

fn request_map(g: &mut Gen, depth: u32, completed: bool) -> Value {
    let mut map = Map::new();
    for _ in 0..g.below(4) {
        let entry = if completed {
            g.object(
                depth,
                &[
                    ("tool", tool_name),
                    ("arguments", any_value),
                    ("status", request_status),
                    ("createdAt", number),
                    ("allowTools", any_value),
                    ("answers", any_value),
                    ("decision", word),
                    ("reason", any_value),
                    ("mode", any_value),
                    ("toolCallId", correlation_id),
                ],
            )
        } else {
            g.object(
                depth,
                &[("tool", tool_name), ("arguments", any_value), ("createdAt", number), ("toolCallId", correlation_id)],
            )
        };
        map.insert(if g.chance(3, 4) { g.pick(&["t1", "t2", "t3", "9", "10"]).to_owned() } else { g.word() }, entry);
    }
    Value::Object(map)
}

/// A request's `toolCallId`: mostly absent, else a tool id, `""` or null.
fn correlation_id(g: &mut Gen, depth: u32) -> Value {
    match g.below(6) {
        0 => json!(""),
        1 => Value::Null,
        _ => tool_id(g, depth),
    }
}

/// One case input: up to `messages` messages, values nested up to `depth`.
fn chat_input(seed: u64, messages: usize, depth: u32) -> Value {
    let g = &mut Gen(seed);
    let message_list =
        if g.chance(9, 10) { Value::Array((0..messages).map(|_| message(g, depth)).collect()) } else { g.any(depth) };
    let agent_state = match g.below(5) {
        0 => Value::Null,
        1 => g.any(depth),
        _ => json!({"requests": request_map(g, depth, false), "completedRequests": request_map(g, depth, true)}),
    };
    let options = if g.chance(4, 5) { json!({"hasMoreMessages": g.chance(1, 2)}) } else { g.any(depth) };
    json!({"messages": message_list, "agentState": agent_state, "options": options})
}

/// The schema of the expected part of a version's documents, with the
/// members the reducer copies verbatim from agentState (permission fields)
/// left unconstrained: the reference passes arbitrary agentState values
/// through, as the original does. With `copied_envelope`, the block members
/// copied from a wire row as they are (`id`, `createdAt`, `localId`) are
/// unconstrained and optional too: the web pipeline copies a row's
/// non-string id, non-number time and non-string localId, and a row without
/// them gives blocks without them.
fn projection_validator(schema: &str, copied_envelope: bool) -> jsonschema::Validator {
    let schema: Value = serde_json::from_str(schema).expect("schema JSON");
    let mut expected = schema["properties"]["expected"].clone();
    let mut defs = schema["$defs"].clone();
    defs["permission"] = json!({"type": "object", "additionalProperties": false,
        "properties": {"status": {}, "mode": {}, "decision": {}, "allowedTools": {}, "answers": {}, "reason": {}}});
    if copied_envelope && let Some(defs) = defs.as_object_mut() {
        for def in defs.values_mut().filter(|def| def["properties"]["kind"].is_object()) {
            for member in ["id", "createdAt", "localId"] {
                if def["properties"].get(member).is_some() {
                    def["properties"][member] = json!({});
                }
            }
            if let Some(required) = def["required"].as_array_mut() {
                required.retain(|member| member != "id" && member != "createdAt");
            }
        }
    }
    expected["$defs"] = defs;
    jsonschema::draft202012::new(&expected).expect("the projection schema compiles")
}

/// The projection validator of `version` (1 or 2), strict or with copied
/// envelope members (see [`projection_validator`]), compiled once.
fn projection(version: u32, copied_envelope: bool) -> &'static jsonschema::Validator {
    static VALIDATORS: [OnceLock<jsonschema::Validator>; 4] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let schema = if version == 1 {
        include_str!("../../schemas/chat.schema.json")
    } else {
        include_str!("../../schemas/chat.v2.schema.json")
    };
    let slot = usize::from(version != 1) * 2 + usize::from(copied_envelope);
    VALIDATORS[slot].get_or_init(|| projection_validator(schema, copied_envelope))
}

/// Whether every wire row is an object with a string `id`, a number
/// `createdAt` and a string or null `localId` (the fixture schema's rows):
/// then every block member the projection schema types has its type.
fn rows_have_typed_envelopes(input: &Value) -> bool {
    let Some(messages) = input["messages"].as_array() else { return true };
    messages.iter().all(|row| {
        row["id"].is_string()
            && row["createdAt"].is_number()
            && (row["localId"].is_string() || row["localId"].is_null())
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10_000, ..ProptestConfig::default() })]

    fn any_input_gives_a_projection_of_the_documented_shape(seed in any::<u64>(), messages in 0usize..8, depth in 0u32..4) {
        let input = chat_input(seed, messages, depth);
        let copied = !rows_have_typed_envelopes(&input);
        for (version, reference) in [(1, run_v1 as conform::suite_api::ReferenceFn), (2, run)] {
            let output = reference(&input, &mut NoTrace).expect("an object input always decodes");
            let errors: Vec<String> =
                projection(version, copied).iter_errors(&output).map(|e| format!("{}: {e}", e.instance_path())).collect();
            prop_assert!(
                errors.is_empty(),
                "invalid version {version} projection: {errors:?}\ninput: {}\noutput: {}",
                input,
                to_canonical_string(&output)
            );
        }
    }
}

fn the_generator_reaches_deep_into_the_decode_tree() {
    // Guards the generator itself: over a fixed set of seeds it must exercise
    // most of the rule ids, or the property above proves little.
    let mut hit = conform::suite_api::RuleSet::default();
    for seed in 0..2_000 {
        let input = chat_input(seed, 6, 3);
        let _ = run_v1(&input, &mut hit);
        let _ = run(&input, &mut hit);
    }
    let total = conform::suites::chat::reference::RULES.len();
    let missed: Vec<_> = conform::suites::chat::reference::RULES.iter().filter(|r| !hit.0.contains(*r)).collect();
    assert!(hit.0.len() * 100 >= total * 65, "only {} of {total} rules reached; missed {missed:?}", hit.0.len());
}

crate::trials![any_input_gives_a_projection_of_the_documented_shape, the_generator_reaches_deep_into_the_decode_tree];
