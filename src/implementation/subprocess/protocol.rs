//! Protocol version 1: the messages, one JSON object per line, in both
//! directions.
//!
//! ```text
//! harness → {"op":"hello","protocol":1,"harness":{"name":"conform","version":"…"}}
//!         ← {"op":"hello","protocol":1,"implementation":{"name","version","language"},"suites":{"chat":[1],…}}
//! harness → {"op":"run","id":7,"suite":"chat","fixture":"…","fixtureVersion":1,"input":{…}}
//!         ← {"op":"result","id":7,"output":{…}} | {…,"error":"…"} | {…,"skipped":"…"}
//! harness → {"op":"bye"}                        (the implementation exits 0)
//! ```
//!
//! Encoding writes values with the crate's JSON writer (JavaScript numbers,
//! lone surrogates as `\uXXXX`); decoding parses with the crate's parser so
//! outputs keep exact numbers. Decoding checks by hand what
//! `schemas/protocol/*.schema.json` say, so that each violation gets a
//! message in plain words; a test keeps the two in agreement.

use super::wire;
use crate::implementation::CaseRequest;
use crate::json::{self, Style};
use serde_json::{Map, Value};
use thiserror::Error;

/// The protocol version this harness speaks.
pub const PROTOCOL_VERSION: u64 = 1;

/// Longest excerpt of an offending line quoted in a message.
const EXCERPT_CHARS: usize = 80;

/// Who is on the other end, as its hello says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// Name of the implementation (or harness).
    pub name: String,
    /// Its version.
    pub version: String,
    /// Its language (implementations only; empty for the harness).
    pub language: String,
}

/// An implementation's hello.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HelloReply {
    /// The protocol version it speaks.
    pub protocol: u64,
    /// Who it is.
    pub implementation: Identity,
    /// The suites it implements with the fixtureVersions of each, in the
    /// order it listed them.
    pub suites: Vec<(String, Vec<u64>)>,
}

impl HelloReply {
    /// The fixtureVersions declared for `suite`, if it declared the suite.
    pub fn versions(&self, suite: &str) -> Option<&[u64]> {
        self.suites.iter().find(|(name, _)| name == suite).map(|(_, versions)| versions.as_slice())
    }

    /// The declared suite names, comma-separated (for messages).
    pub fn suite_list(&self) -> String {
        if self.suites.is_empty() {
            return "none".to_owned();
        }
        self.suites.iter().map(|(name, _)| name.as_str()).collect::<Vec<_>>().join(", ")
    }
}

/// What an implementation made of one case.
#[derive(Clone, Debug, PartialEq)]
pub enum ReplyBody {
    /// The output to compare.
    Output(Value),
    /// It could not produce an output.
    Error(String),
    /// It declined the case.
    Skipped(String),
}

/// A message from the implementation.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// Its hello.
    Hello(HelloReply),
    /// The result of one case.
    Result {
        /// The id of the run request it answers.
        id: u64,
        /// What it made of the case.
        body: ReplyBody,
    },
}

/// A message from the harness (decoded by implementations such as
/// `conform adapter`).
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// The harness's hello.
    Hello {
        /// The protocol version it speaks.
        protocol: u64,
        /// Who it is.
        harness: Identity,
    },
    /// One case to run.
    Run {
        /// Id to echo in the result.
        id: u64,
        /// Suite name.
        suite: String,
        /// Fixture name.
        fixture: String,
        /// The fixture's version.
        fixture_version: u64,
        /// The case's input part.
        input: Value,
    },
    /// The run is over: exit 0.
    Bye,
}

/// A line that breaks the protocol, described in plain words.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum Violation {
    /// The bytes are not UTF-8.
    #[error("the line is not UTF-8 (invalid byte at offset {offset})")]
    NotUtf8 {
        /// Offset of the first invalid byte.
        offset: usize,
    },
    /// The line is not JSON.
    #[error("the line is not JSON ({message} at column {column}): `{excerpt}`")]
    NotJson {
        /// The parser's message.
        message: String,
        /// 1-based column.
        column: usize,
        /// The start of the line.
        excerpt: String,
    },
    /// The line is JSON but not an object.
    #[error("the line is a JSON {found}, not an object: `{excerpt}`")]
    NotObject {
        /// The JSON type found.
        found: &'static str,
        /// The start of the line.
        excerpt: String,
    },
    /// No `op` member, or not a string.
    #[error("the message has no \"op\" string member: `{excerpt}`")]
    MissingOp {
        /// The start of the line.
        excerpt: String,
    },
    /// An `op` this side does not expect.
    #[error("unknown op \"{op}\" (expected {expected})")]
    UnknownOp {
        /// The op found.
        op: String,
        /// What this side accepts.
        expected: &'static str,
    },
    /// A required member is missing.
    #[error("the {op} message has no \"{member}\" member")]
    Missing {
        /// The message's op.
        op: &'static str,
        /// The member (dotted path).
        member: &'static str,
    },
    /// A member has the wrong type.
    #[error("\"{member}\" of the {op} message must be {expected}, not {found}")]
    WrongType {
        /// The message's op.
        op: &'static str,
        /// The member (dotted path).
        member: String,
        /// What it must be.
        expected: &'static str,
        /// What it is (a JSON type or a short excerpt).
        found: String,
    },
    /// A member the message does not have.
    #[error("the {op} message has an unknown member \"{member}\" (allowed: {allowed})")]
    UnknownMember {
        /// The message's op.
        op: &'static str,
        /// The unexpected member.
        member: String,
        /// The allowed members.
        allowed: &'static str,
    },
    /// A result with none or several of output/error/skipped.
    #[error(
        "the result for id {id} must have exactly one of \"output\", \"error\" or \"skipped\", but has {}",
        if .found.is_empty() { "none".to_owned() } else { .found.join(" and ") }
    )]
    ResultShape {
        /// The id it answers.
        id: u64,
        /// The members of the three it has.
        found: Vec<&'static str>,
    },
}

/// Encodes the harness's hello (with its trailing newline).
pub fn encode_hello_request(harness_version: &str) -> String {
    let mut line = String::from(r#"{"op":"hello","protocol":1,"harness":{"name":"conform","version":"#);
    json::write_string(&mut line, harness_version);
    line.push_str("}}\n");
    line
}

/// Encodes one run request (with its trailing newline).
pub fn encode_run(id: u64, request: &CaseRequest<'_>) -> String {
    let mut line = String::with_capacity(1024);
    line.push_str(r#"{"op":"run","id":"#);
    line.push_str(&id.to_string());
    line.push_str(r#","suite":"#);
    json::write_string(&mut line, request.suite);
    line.push_str(r#","fixture":"#);
    json::write_string(&mut line, request.fixture);
    line.push_str(r#","fixtureVersion":"#);
    line.push_str(&request.fixture_version.to_string());
    line.push_str(r#","input":"#);
    wire::write_input(request.input, &mut line);
    line.push_str("}\n");
    line
}

/// The bye message (with its trailing newline).
pub const BYE_LINE: &str = "{\"op\":\"bye\"}\n";

/// Encodes an implementation's hello (with its trailing newline).
pub fn encode_hello_reply(hello: &HelloReply) -> String {
    let mut line = String::from(r#"{"op":"hello","protocol":"#);
    line.push_str(&hello.protocol.to_string());
    line.push_str(r#","implementation":{"name":"#);
    json::write_string(&mut line, &hello.implementation.name);
    line.push_str(r#","version":"#);
    json::write_string(&mut line, &hello.implementation.version);
    line.push_str(r#","language":"#);
    json::write_string(&mut line, &hello.implementation.language);
    line.push_str(r#"},"suites":{"#);
    for (i, (suite, versions)) in hello.suites.iter().enumerate() {
        if i > 0 {
            line.push(',');
        }
        json::write_string(&mut line, suite);
        let versions: Vec<String> = versions.iter().map(u64::to_string).collect();
        line.push_str(&format!(":[{}]", versions.join(",")));
    }
    line.push_str("}}\n");
    line
}

/// Encodes a result (with its trailing newline).
pub fn encode_result(id: u64, body: &ReplyBody) -> String {
    let mut line = format!(r#"{{"op":"result","id":{id},"#);
    match body {
        ReplyBody::Output(output) => {
            line.push_str(r#""output":"#);
            wire::write(output, &mut line);
        }
        ReplyBody::Error(message) => {
            line.push_str(r#""error":"#);
            json::write_string(&mut line, message);
        }
        ReplyBody::Skipped(reason) => {
            line.push_str(r#""skipped":"#);
            json::write_string(&mut line, reason);
        }
    }
    line.push_str("}\n");
    line
}

/// Decodes one line from an implementation (without its newline; a
/// trailing carriage return is tolerated).
pub fn decode_reply(line: &[u8]) -> Result<Reply, Violation> {
    let (object, text) = object_of(line)?;
    let op = op_of(&object, text)?.to_owned();
    match op.as_str() {
        "hello" => decode_hello_reply(&object).map(Reply::Hello),
        "result" => decode_result(object),
        other => Err(Violation::UnknownOp { op: other.to_owned(), expected: "\"hello\" or \"result\"" }),
    }
}

/// Decodes one line from the harness (for implementations written in Rust).
pub fn decode_request(line: &[u8]) -> Result<Request, Violation> {
    let (mut object, text) = object_of(line)?;
    let op = op_of(&object, text)?.to_owned();
    match op.as_str() {
        "hello" => {
            closed(&object, "hello", &["op", "protocol", "harness"], "op, protocol, harness")?;
            let protocol = whole_number(&object, "hello", "protocol")?;
            let harness = member(&object, "hello", "harness")?;
            let harness = harness.as_object().ok_or_else(|| wrong_type("hello", "harness", "an object", harness))?;
            Ok(Request::Hello {
                protocol,
                harness: Identity {
                    name: string_in(harness, "hello", "harness.name", "name")?,
                    version: string_in(harness, "hello", "harness.version", "version")?,
                    language: String::new(),
                },
            })
        }
        "run" => {
            closed(
                &object,
                "run",
                &["op", "id", "suite", "fixture", "fixtureVersion", "input"],
                "op, id, suite, fixture, fixtureVersion, input",
            )?;
            Ok(Request::Run {
                id: whole_number(&object, "run", "id")?,
                suite: string_in(&object, "run", "suite", "suite")?,
                fixture: string_in(&object, "run", "fixture", "fixture")?,
                fixture_version: whole_number(&object, "run", "fixtureVersion")?,
                input: object.remove("input").ok_or(Violation::Missing { op: "run", member: "input" })?,
            })
        }
        "bye" => {
            closed(&object, "bye", &["op"], "op")?;
            Ok(Request::Bye)
        }
        other => Err(Violation::UnknownOp { op: other.to_owned(), expected: "\"hello\", \"run\" or \"bye\"" }),
    }
}

fn decode_hello_reply(object: &Map<String, Value>) -> Result<HelloReply, Violation> {
    closed(object, "hello", &["op", "protocol", "implementation", "suites"], "op, protocol, implementation, suites")?;
    let protocol = whole_number(object, "hello", "protocol")?;
    let implementation = member(object, "hello", "implementation")?;
    let implementation =
        implementation.as_object().ok_or_else(|| wrong_type("hello", "implementation", "an object", implementation))?;
    let identity = Identity {
        name: string_in(implementation, "hello", "implementation.name", "name")?,
        version: string_in(implementation, "hello", "implementation.version", "version")?,
        language: string_in(implementation, "hello", "implementation.language", "language")?,
    };
    let suites = member(object, "hello", "suites")?;
    let suites = suites.as_object().ok_or_else(|| wrong_type("hello", "suites", "an object", suites))?;
    let mut declared = Vec::with_capacity(suites.len());
    for (suite, versions) in suites {
        let member = format!("suites.{suite}");
        let list = versions
            .as_array()
            .ok_or_else(|| wrong_type_named("hello", member.clone(), "an array of fixtureVersions", versions))?;
        let mut numbers = Vec::with_capacity(list.len());
        for version in list {
            match version.as_u64().filter(|&v| v >= 1) {
                Some(v) => numbers.push(v),
                None => {
                    return Err(wrong_type_named("hello", member.clone(), "an array of whole numbers ≥ 1", version));
                }
            }
        }
        declared.push((suite.clone(), numbers));
    }
    Ok(HelloReply { protocol, implementation: identity, suites: declared })
}

fn decode_result(mut object: Map<String, Value>) -> Result<Reply, Violation> {
    closed(
        &object,
        "result",
        &["op", "id", "output", "error", "skipped"],
        "op, id, and one of output, error, skipped",
    )?;
    let id = whole_number(&object, "result", "id")?;
    let found: Vec<&'static str> =
        ["output", "error", "skipped"].into_iter().filter(|key| object.contains_key(*key)).collect();
    let body = match found.as_slice() {
        // Taken, not cloned: outputs can be large.
        ["output"] => ReplyBody::Output(object.remove("output").unwrap_or(Value::Null)),
        ["error"] => ReplyBody::Error(string_in(&object, "result", "error", "error")?),
        ["skipped"] => ReplyBody::Skipped(string_in(&object, "result", "skipped", "skipped")?),
        _ => return Err(Violation::ResultShape { id, found }),
    };
    Ok(Reply::Result { id, body })
}

/// The line's JSON object, and its text for error messages.
fn object_of(line: &[u8]) -> Result<(Map<String, Value>, &str), Violation> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let text = std::str::from_utf8(line).map_err(|err| Violation::NotUtf8 { offset: err.valid_up_to() })?;
    match wire::parse(text) {
        Ok(Value::Object(object)) => Ok((object, text)),
        Ok(other) => Err(Violation::NotObject { found: type_name(&other), excerpt: excerpt(text) }),
        Err(err) => {
            Err(Violation::NotJson { message: err.message.clone(), column: err.column, excerpt: excerpt(text) })
        }
    }
}

fn op_of<'a>(object: &'a Map<String, Value>, text: &str) -> Result<&'a str, Violation> {
    object.get("op").and_then(Value::as_str).ok_or_else(|| Violation::MissingOp { excerpt: excerpt(text) })
}

fn closed(
    object: &Map<String, Value>,
    op: &'static str,
    allowed: &[&str],
    list: &'static str,
) -> Result<(), Violation> {
    match object.keys().find(|key| !allowed.contains(&key.as_str())) {
        Some(key) => Err(Violation::UnknownMember { op, member: key.clone(), allowed: list }),
        None => Ok(()),
    }
}

fn member<'a>(object: &'a Map<String, Value>, op: &'static str, name: &'static str) -> Result<&'a Value, Violation> {
    object.get(name).ok_or(Violation::Missing { op, member: name })
}

fn whole_number(object: &Map<String, Value>, op: &'static str, name: &'static str) -> Result<u64, Violation> {
    let value = member(object, op, name)?;
    value.as_u64().ok_or_else(|| wrong_type(op, name, "a whole number ≥ 0", value))
}

fn string_in(
    object: &Map<String, Value>,
    op: &'static str,
    path: &'static str,
    key: &'static str,
) -> Result<String, Violation> {
    let value = object.get(key).ok_or(Violation::Missing { op, member: path })?;
    value.as_str().map(str::to_owned).ok_or_else(|| wrong_type(op, path, "a string", value))
}

fn wrong_type(op: &'static str, member: &'static str, expected: &'static str, found: &Value) -> Violation {
    wrong_type_named(op, member.to_owned(), expected, found)
}

fn wrong_type_named(op: &'static str, member: String, expected: &'static str, found: &Value) -> Violation {
    let found = match found {
        Value::Number(_) | Value::Bool(_) | Value::Null => {
            format!("{} {}", type_name(found), json::write_value(found, Style::STRINGIFY_COMPACT))
        }
        other => type_name(other).to_owned(),
    };
    Violation::WrongType { op, member, expected, found }
}

/// The JSON type of a value, as people say it.
pub fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The start of a line, for messages.
pub fn excerpt(text: &str) -> String {
    let mut flat: String = text.chars().take(EXCERPT_CHARS + 1).map(|c| if c.is_control() { ' ' } else { c }).collect();
    if flat.chars().count() > EXCERPT_CHARS {
        flat = flat.chars().take(EXCERPT_CHARS).collect();
        flat.push('…');
    }
    flat
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn reply(text: &str) -> Result<Reply, Violation> {
        decode_reply(text.as_bytes())
    }

    #[test]
    fn requests_encode_as_one_compact_line() {
        let input = json!({"messages": [{"text": "a\nb\u{2028}"}], "n": 1.5});
        let request = CaseRequest { suite: "chat", fixture: "x-y", fixture_version: 1, input: &input };
        let line = encode_run(7, &request);
        assert_eq!(line.matches('\n').count(), 1);
        assert!(line.ends_with("}\n"));
        assert_eq!(
            line,
            "{\"op\":\"run\",\"id\":7,\"suite\":\"chat\",\"fixture\":\"x-y\",\"fixtureVersion\":1,\
             \"input\":{\"messages\":[{\"text\":\"a\\nb\u{2028}\"}],\"n\":1.5}}\n"
        );
        let Ok(Request::Run { id, input: decoded, .. }) = decode_request(line.trim_end().as_bytes()) else {
            panic!("round trip")
        };
        assert_eq!((id, decoded), (7, input));
        assert_eq!(decode_request(BYE_LINE.trim_end().as_bytes()), Ok(Request::Bye));
        assert!(matches!(
            decode_request(encode_hello_request("1.2.3").trim_end().as_bytes()),
            Ok(Request::Hello { protocol: 1, .. })
        ));
    }

    #[test]
    fn hello_replies_round_trip() {
        let hello = HelloReply {
            protocol: 1,
            implementation: Identity { name: "kt".into(), version: "2.0".into(), language: "kotlin".into() },
            suites: vec![("chat".into(), vec![1]), ("sse".into(), vec![1, 2])],
        };
        let line = encode_hello_reply(&hello);
        assert_eq!(reply(line.trim_end()), Ok(Reply::Hello(hello.clone())));
        assert_eq!(hello.versions("sse"), Some(&[1, 2][..]));
        assert_eq!(hello.versions("pagination"), None);
        assert_eq!(hello.suite_list(), "chat, sse");
    }

    #[test]
    fn results_have_exactly_one_outcome() {
        assert_eq!(
            reply(r#"{"op":"result","id":3,"output":{"a":1}}"#),
            Ok(Reply::Result { id: 3, body: ReplyBody::Output(json!({"a": 1})) })
        );
        assert_eq!(
            reply("{\"op\":\"result\",\"id\":3,\"skipped\":\"no sse\"}\r"),
            Ok(Reply::Result { id: 3, body: ReplyBody::Skipped("no sse".into()) })
        );
        let both = reply(r#"{"op":"result","id":3,"output":1,"error":"x"}"#).unwrap_err();
        assert_eq!(
            both.to_string(),
            "the result for id 3 must have exactly one of \"output\", \"error\" or \"skipped\", but has output and error"
        );
        let none = reply(r#"{"op":"result","id":3}"#).unwrap_err();
        assert!(none.to_string().ends_with("but has none"), "{none}");
        for round in [encode_result(9, &ReplyBody::Error("e".into())), encode_result(9, &ReplyBody::Output(json!([])))]
        {
            assert!(matches!(reply(round.trim_end()), Ok(Reply::Result { id: 9, .. })));
        }
    }

    #[test]
    fn violations_read_in_plain_words() {
        let cases = [
            ("Loading model…", "the line is not JSON"),
            ("[1,2]", "the line is a JSON array, not an object"),
            (r#"{"id":1}"#, "the message has no \"op\" string member"),
            (r#"{"op":"ok"}"#, "unknown op \"ok\""),
            (
                r#"{"op":"result","id":"1","output":1}"#,
                "\"id\" of the result message must be a whole number ≥ 0, not string",
            ),
            (r#"{"op":"result","id":-1,"output":1}"#, "not number -1"),
            (r#"{"op":"result","id":1,"outptu":1}"#, "unknown member \"outptu\""),
            (r#"{"op":"result","id":1,"error":{}}"#, "\"error\" of the result message must be a string, not object"),
            (r#"{"op":"hello","protocol":1,"suites":{}}"#, "the hello message has no \"implementation\" member"),
            (
                r#"{"op":"hello","protocol":1,"implementation":{"name":"x","version":"1"},"suites":{}}"#,
                "no \"implementation.language\" member",
            ),
            (
                r#"{"op":"hello","protocol":1,"implementation":{"name":"x","version":"1","language":"c"},"suites":{"chat":1}}"#,
                "\"suites.chat\" of the hello message must be an array of fixtureVersions, not number 1",
            ),
        ];
        for (line, expected) in cases {
            let message = reply(line).unwrap_err().to_string();
            assert!(message.contains(expected), "{line}: {message}");
        }
        assert_eq!(decode_reply(b"\xff{}").unwrap_err(), Violation::NotUtf8 { offset: 0 });
    }

    #[test]
    fn lone_surrogates_cross_the_wire() {
        let output = json::parse_value(r#"{"s":"\ud800x"}"#).unwrap();
        let line = encode_result(1, &ReplyBody::Output(output.clone()));
        assert!(line.contains(r"\ud800"), "{line}");
        assert_eq!(reply(line.trim_end()), Ok(Reply::Result { id: 1, body: ReplyBody::Output(output) }));
    }
}
