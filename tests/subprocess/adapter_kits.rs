//! Every adapter kit (Python, Node.js, Java, Kotlin) answers every request
//! line at once, as the protocol page says ("Lines an adapter cannot read"):
//! a run request holding lone-surrogate escapes, as `conform explore` sends
//! them, with the output the reference gives (the examples relay conform's
//! reference, so the escapes must survive the kit's reader and writer), and a
//! line the kit cannot read with an `error` result carrying the request's id,
//! or id 0 when the line has none. A kit that skipped such a line left the
//! harness waiting for a reply until its time limit.

use crate::common;
use crate::jvm_kit::kit;

use common::{kotlinc, node, path_arg, python};
use conform::json::{parse_value, write_string};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

/// How long a reply may take. A kit that answers comes back in well under a
/// second once started; the limit only tells "late on a loaded machine" from
/// "never".
const REPLY_WAIT: Duration = Duration::from_secs(60);

/// One kit's adapter process, its stdout read line by line on a thread.
struct Adapter {
    label: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Adapter {
    fn start(label: &str, command: &[String]) -> Adapter {
        let mut child = Command::new(&command[0])
            .args(&command[1..])
            .env("CONFORM_BIN", env!("CARGO_BIN_EXE_conform"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|err| panic!("{label}: {command:?}: {err}"));
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Adapter { label: label.to_owned(), child, stdin, lines }
    }

    /// Writes `line` and returns the reply line, parsed (lone surrogates kept).
    fn ask(&mut self, line: &str) -> Value {
        self.stdin.write_all(format!("{line}\n").as_bytes()).expect("the adapter reads stdin");
        self.stdin.flush().unwrap();
        let reply = match self.lines.recv_timeout(REPLY_WAIT) {
            Ok(reply) => reply,
            Err(RecvTimeoutError::Timeout) => panic!("{}: no reply within {REPLY_WAIT:?} to {line}", self.label),
            Err(RecvTimeoutError::Disconnected) => panic!("{}: stdout closed, no reply to {line}", self.label),
        };
        parse_value(&reply).unwrap_or_else(|err| panic!("{}: the reply is not JSON ({err}): {reply}", self.label))
    }

    /// Says bye: the adapter must exit with status 0.
    fn bye(mut self) {
        self.stdin.write_all(b"{\"op\":\"bye\"}\n").unwrap();
        drop(self.stdin);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{}: exited with {status} after bye", self.label);
    }
}

/// A chat run request whose user text is `text_json`, a JSON string literal written as conform writes it.
fn chat_request(id: u64, text_json: &str) -> String {
    let input = common::chat_fixture("lone-surrogates", "TEXT", "TEXT")["input"].clone();
    let request = json!({"op": "run", "id": id, "suite": "chat", "fixture": "lone-surrogates", "fixtureVersion": 1, "input": input});
    // serde_json writes `op` and `id` first here too: conform's own order.
    request.to_string().replace("\"TEXT\"", text_json)
}

/// What conform's reference answers to `request`.
fn reference_reply(request: &str) -> Value {
    let mut reference =
        Adapter::start("conform adapter", &[env!("CARGO_BIN_EXE_conform").to_owned(), "adapter".to_owned()]);
    reference.ask(r#"{"op":"hello","protocol":1,"harness":{"name":"conform","version":"0"}}"#);
    let reply = reference.ask(request);
    reference.bye();
    reply
}

fn answers_every_line(label: &str, command: &[String]) {
    let lone = chat_request(1, r#""a\udc00b \ud800 \udbff\udffd end""#);
    let expected = reference_reply(&lone);
    let text = expected["output"]["blocks"][0]["text"].as_str().expect("the reference's output holds the text");
    let mut written = String::new();
    write_string(&mut written, text);
    // The lone ones stay escapes; the pair is U+10FFFD (the character conform's JSON module marks lone ones with).
    assert_eq!(written, "\"a\\udc00b \\ud800 \u{10fffd} end\"", "the reference keeps the escapes");

    let mut adapter = Adapter::start(label, command);
    let hello = adapter.ask(r#"{"op":"hello","protocol":1,"harness":{"name":"conform","version":"0"}}"#);
    assert_eq!(hello["op"], "hello", "{label}: {hello}");

    let reply = adapter.ask(&lone);
    assert_eq!(reply, expected, "{label}: a request holding lone-surrogate escapes");

    // A run request cut short: the rest cannot be read, its id can.
    let cut = &chat_request(2, r#""cut""#)[..60];
    let reply = adapter.ask(cut);
    assert_eq!(reply["id"], 2, "{label}: {reply}");
    let error = reply["error"].as_str().unwrap_or_else(|| panic!("{label}: not an error result: {reply}"));
    assert!(error.starts_with("the adapter could not read the request: the line is not JSON"), "{label}: {error}");

    // JSON, but no request: answered with id 0, which conform never uses.
    for line in ["[1]", r#"{"op":"run","suite":"chat"}"#, r#"{"op":"later"}"#] {
        let reply = adapter.ask(line);
        assert_eq!(reply["id"], 0, "{label}: {line}: {reply}");
        assert!(reply["error"].as_str().is_some_and(|error| error.contains("could not read")), "{label}: {reply}");
    }

    // Still in step.
    let reply = adapter.ask(&lone.replacen("\"id\":1,", "\"id\":3,", 1));
    assert_eq!(reply["id"], 3, "{label}: {reply}");
    assert_eq!(reply["output"], expected["output"], "{label}");
    adapter.bye();
}

fn the_python_kit_answers_every_line_at_once() {
    let Some(python) = python() else { return };
    answers_every_line("python", &[python.to_owned(), path_arg("examples/adapters/python/my_adapter.py")]);
}

fn the_node_kit_answers_every_line_at_once() {
    let Some(node) = node() else { return };
    answers_every_line("node", &[node.to_owned(), path_arg("examples/adapters/node/my-adapter.js")]);
}

fn java_jar(jar: String) -> Vec<String> {
    vec!["java".to_owned(), "-jar".to_owned(), jar]
}

fn the_java_kit_answers_every_line_at_once() {
    let Some(kit) = kit() else { return };
    answers_every_line("java", &java_jar(kit.jar("conform-adapter-example.jar")));
}

fn the_kotlin_kit_answers_every_line_at_once() {
    if kotlinc().is_none() {
        return;
    }
    let Some(kit) = kit() else { return };
    answers_every_line("kotlin", &java_jar(kit.jar("conform-adapter-kotlin.jar")));
}

crate::trials![
    the_python_kit_answers_every_line_at_once,
    the_node_kit_answers_every_line_at_once,
    the_java_kit_answers_every_line_at_once,
    the_kotlin_kit_answers_every_line_at_once
];
