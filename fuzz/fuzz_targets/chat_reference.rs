//! Fuzzes the chat reference with arbitrary bytes: whatever parses as JSON is
//! coerced as `conform decode --suite chat` would (a bare array of messages
//! is accepted) and decoded. The reference must never panic, overflow the
//! stack or hang; its output must serialize canonically. A whole fixture
//! document is reduced to its `input`, so fixture files make a good seed corpus.
#![no_main]

use conform::json::{parse_value, to_canonical_string};
use conform::suite::NoTrace;
use conform::suites::chat::reference::{renders, run};
use conform::suite::Suite;
use conform::suites::chat::ChatSuite;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(mut value) = parse_value(text) else { return };
    if value.get("expected").is_some()
        && let Some(input) = value.get("input").cloned()
    {
        value = input;
    }
    if let Some(messages) = value.get("messages").and_then(|m| m.as_array()) {
        for message in messages {
            let _ = renders(message);
        }
    }
    let input = ChatSuite.coerce_decode_input(value);
    if let Ok(output) = run(&input, &mut NoTrace) {
        let _ = to_canonical_string(&output);
    }
});
