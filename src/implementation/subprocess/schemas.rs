//! The protocol's JSON Schemas (`schemas/protocol/`, draft 2020-12),
//! embedded, and validation of messages against them.
//!
//! The run path checks messages by hand (see [`super::protocol`]) for speed
//! and plain-worded errors; `check-adapter` validates every message against
//! these schemas as well, so an adapter author sees both the rule and the
//! exact place it was broken. Tests keep the two checks in agreement.

use crate::schema::compile_schema;
use jsonschema::Validator;
use serde_json::Value;
use std::sync::OnceLock;

/// One kind of protocol message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MessageKind {
    /// Harness → implementation: hello.
    HelloRequest,
    /// Implementation → harness: hello.
    HelloResponse,
    /// Harness → implementation: run one case.
    Run,
    /// Implementation → harness: result of one case.
    Result,
    /// Harness → implementation: bye.
    Bye,
}

impl MessageKind {
    /// Every message kind.
    pub const ALL: [MessageKind; 5] = [
        MessageKind::HelloRequest,
        MessageKind::HelloResponse,
        MessageKind::Run,
        MessageKind::Result,
        MessageKind::Bye,
    ];

    /// The schema's file name under `schemas/protocol/`.
    pub fn file_name(self) -> &'static str {
        match self {
            MessageKind::HelloRequest => "hello-request.schema.json",
            MessageKind::HelloResponse => "hello-response.schema.json",
            MessageKind::Run => "run.schema.json",
            MessageKind::Result => "result.schema.json",
            MessageKind::Bye => "bye.schema.json",
        }
    }

    /// The schema text.
    pub fn schema(self) -> &'static str {
        match self {
            MessageKind::HelloRequest => include_str!("../../../schemas/protocol/hello-request.schema.json"),
            MessageKind::HelloResponse => include_str!("../../../schemas/protocol/hello-response.schema.json"),
            MessageKind::Run => include_str!("../../../schemas/protocol/run.schema.json"),
            MessageKind::Result => include_str!("../../../schemas/protocol/result.schema.json"),
            MessageKind::Bye => include_str!("../../../schemas/protocol/bye.schema.json"),
        }
    }

    fn index(self) -> usize {
        match self {
            MessageKind::HelloRequest => 0,
            MessageKind::HelloResponse => 1,
            MessageKind::Run => 2,
            MessageKind::Result => 3,
            MessageKind::Bye => 4,
        }
    }
}

fn validator(kind: MessageKind) -> Result<&'static Validator, String> {
    static VALIDATORS: OnceLock<Vec<Result<Validator, String>>> = OnceLock::new();
    let all = VALIDATORS.get_or_init(|| MessageKind::ALL.iter().map(|kind| compile_schema(kind.schema())).collect());
    match all.get(kind.index()) {
        Some(Ok(validator)) => Ok(validator),
        Some(Err(message)) => Err(message.clone()),
        None => Err("no such schema".to_owned()),
    }
}

/// Schema violations of `message`, one line each (`/pointer: what`); empty
/// when it is valid.
pub fn violations(kind: MessageKind, message: &Value) -> Vec<String> {
    let validator = match validator(kind) {
        Ok(validator) => validator,
        Err(err) => return vec![format!("the embedded schema {} is broken: {err}", kind.file_name())],
    };
    let mut problems: Vec<String> = validator
        .iter_errors(message)
        .map(|error| {
            let pointer = error.instance_path().to_string();
            let place = if pointer.is_empty() { "(message)".to_owned() } else { pointer };
            let text: String = error.to_string().split_whitespace().collect::<Vec<_>>().join(" ");
            let text = if text.chars().count() > 160 {
                format!("{}…", text.chars().take(160).collect::<String>())
            } else {
                text
            };
            format!("{place}: {text}")
        })
        .collect();
    problems.dedup();
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::implementation::CaseRequest;
    use crate::implementation::subprocess::protocol::{
        BYE_LINE, HelloReply, Identity, ReplyBody, decode_reply, encode_hello_reply, encode_hello_request,
        encode_result, encode_run,
    };
    use serde_json::json;

    fn parse(line: &str) -> Value {
        crate::json::parse_value(line).unwrap()
    }

    #[test]
    fn every_schema_compiles() {
        for kind in MessageKind::ALL {
            assert!(validator(kind).is_ok(), "{}", kind.file_name());
        }
    }

    #[test]
    fn what_the_harness_sends_satisfies_the_schemas() {
        assert_eq!(violations(MessageKind::HelloRequest, &parse(&encode_hello_request("0.1.0"))), Vec::<String>::new());
        let input = json!({"messages": [{"a": [1, 2.5, null]}]});
        let request = CaseRequest { suite: "chat", fixture: "x", fixture_version: 1, input: &input };
        assert_eq!(violations(MessageKind::Run, &parse(&encode_run(3, &request))), Vec::<String>::new());
        assert_eq!(violations(MessageKind::Bye, &parse(BYE_LINE)), Vec::<String>::new());
    }

    #[test]
    fn the_decoder_and_the_schemas_agree() {
        let hello = HelloReply {
            protocol: 1,
            implementation: Identity { name: "x".into(), version: "1".into(), language: "swift".into() },
            suites: vec![("chat".into(), vec![1])],
        };
        let valid = [
            encode_hello_reply(&hello),
            encode_result(1, &ReplyBody::Output(json!({"blocks": []}))),
            encode_result(2, &ReplyBody::Error("boom".into())),
            encode_result(3, &ReplyBody::Skipped("later".into())),
            r#"{"op":"hello","protocol":1,"implementation":{"name":"x","version":"1","language":"c","url":"u"},"suites":{}}"#.to_owned(),
        ];
        let invalid = [
            r#"{"op":"result","id":1}"#,
            r#"{"op":"result","id":1,"output":1,"error":"x"}"#,
            r#"{"op":"result","id":"1","output":1}"#,
            r#"{"op":"result","id":-4,"output":1}"#,
            r#"{"op":"result","id":1,"output":1,"extra":true}"#,
            r#"{"op":"result","id":1,"skipped":false}"#,
            r#"{"op":"hello","protocol":1,"implementation":{"name":"x","version":"1"},"suites":{}}"#,
            r#"{"op":"hello","protocol":1,"implementation":{"name":"x","version":"1","language":"c"},"suites":{"chat":[0]}}"#,
            r#"{"op":"hello","protocol":1,"implementation":{"name":"x","version":"1","language":"c"}}"#,
        ];
        for line in &valid {
            assert!(decode_reply(line.trim_end().as_bytes()).is_ok(), "{line}");
            let kind = if line.contains("\"hello\"") { MessageKind::HelloResponse } else { MessageKind::Result };
            assert_eq!(violations(kind, &parse(line)), Vec::<String>::new(), "{line}");
        }
        for line in invalid {
            assert!(decode_reply(line.as_bytes()).is_err(), "{line}");
            let kind = if line.contains("\"hello\"") { MessageKind::HelloResponse } else { MessageKind::Result };
            assert!(!violations(kind, &parse(line)).is_empty(), "{line}");
        }
    }
}
