//! JavaScript semantics the references reproduce, as properties:
//!
//! - `localeCompare` (ICU root collation, `conform::suites::js::locale_compare`)
//!   is a total order on ids mixing case, digits, `_`, `-`, `.`, non-ASCII
//!   letters and emoji, and it is the tie-break of the message window's
//!   display order;
//! - the loose relational comparisons (`<`, `>` after `ToPrimitive` /
//!   `ToNumber`) of `""`, `" "`, `[]`, `true`, `{}`, numbers and `null`;
//! - and, where `node` is installed, both against V8 itself on generated
//!   inputs (skipped with a note otherwise; a failure when
//!   `CONFORM_REQUIRE_ALL=1`).

use crate::common;

use conform::suite_api::PortabilityNotes;
use conform::suites::js::{locale_compare, loose_greater_than, loose_less_than, to_number};
use conform::suites::pagination::reference::row::{Row, display_order, sort_rows};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use serde_json::{Value, json};
use std::cmp::Ordering;
use std::io::Write;
use std::process::{Command, Stdio};

/// Characters ids are made of: both cases, digits, the punctuation ids use,
/// letters with diacritics and from other scripts, an emoji and a
/// completely ignorable control character.
const ID_CHARS: &[char] = &[
    'a', 'b', 'z', 'A', 'B', 'Z', '0', '1', '9', '_', '-', '.', ':', ' ', 'é', 'É', 'e', 'E', 'ß', 'ı', 'İ', 'ø', 'Ω',
    'ж', '中', 'ｱ', '😀', '🦀', '\u{1}', '\u{301}',
];

/// UTF-16 units of ids with lone surrogates: both ends of both surrogate
/// ranges, and units ICU orders near them.
const SURROGATE_UNITS: &[u16] =
    &[0x61, 0x41, 0x5F, 0x2D, 0x31, 0xE9, 0x1, 0xD7FF, 0xD800, 0xDA00, 0xDBFF, 0xDC00, 0xDFFF, 0xE800, 0xFFFD];

fn id() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(ID_CHARS), 0..7).prop_map(|chars| chars.into_iter().collect())
}

/// A message-window row at time 1000 with the given id and seq.
fn row(id: &str, seq: Option<u32>) -> Row {
    let value = json!({"id": id, "seq": seq, "localId": null, "createdAt": 1000,
                       "content": {"role": "agent", "content": "x"}});
    Row::from_wire(&value, |_| true).expect("a well-formed row")
}

/// JSON values covering every conversion the loose comparisons make.
fn loose_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!("")),
        Just(json!(" ")),
        Just(json!("\t\n")),
        Just(json!([])),
        Just(json!([[]])),
        Just(json!(true)),
        Just(json!(false)),
        Just(json!({})),
        Just(json!(null)),
        Just(json!("abc")),
        Just(json!("0x10")),
        Just(json!("1e3")),
        (-5i32..5).prop_map(|n| json!([n])),
        (-5i32..5).prop_map(|n| json!(n.to_string())),
        (-1e6f64..1e6).prop_map(|n| json!(n)),
        (-3i64..3).prop_map(|n| json!(n)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    fn collation_is_reflexive_and_antisymmetric(a in id(), b in id()) {
        prop_assert_eq!(locale_compare(&a, &a), Ordering::Equal);
        prop_assert_eq!(locale_compare(&a, &b), locale_compare(&b, &a).reverse());
    }

    fn collation_is_transitive(a in id(), b in id(), c in id()) {
        let ab = locale_compare(&a, &b);
        let bc = locale_compare(&b, &c);
        if ab == bc {
            prop_assert_eq!(locale_compare(&a, &c), ab, "{:?} {:?} {:?}", a, b, c);
        }
        if ab == Ordering::Equal {
            prop_assert_eq!(locale_compare(&a, &c), bc);
        }
    }

    fn sorting_by_collation_orders_every_pair(mut ids in prop::collection::vec(id(), 0..24)) {
        ids.sort_by(|a, b| locale_compare(a, b));
        for (i, a) in ids.iter().enumerate() {
            for b in &ids[i + 1..] {
                prop_assert_ne!(locale_compare(a, b), Ordering::Greater, "{:?} after {:?}", a, b);
            }
        }
    }

    fn case_decides_only_a_tie_and_lower_case_comes_first(word in "[a-z]{1,6}") {
        let upper = word.to_uppercase();
        prop_assert_eq!(locale_compare(&word, &upper), Ordering::Less);
        // A primary difference later in the string outweighs case earlier on.
        prop_assert_eq!(locale_compare(&format!("{upper}a"), &format!("{word}b")), Ordering::Less);
    }

    fn the_window_breaks_full_ties_by_collation(a in id(), b in id(), seq in prop::option::of(0u32..3)) {
        // Same time; the same seq or none on both: only the ids decide.
        let (x, y) = (row(&a, seq), row(&b, seq));
        prop_assert_eq!(display_order(&x, &y), locale_compare(&a, &b));
        // A numeric seq difference wins over the ids.
        prop_assert_eq!(display_order(&row(&a, Some(1)), &row(&b, Some(2))), Ordering::Less);
    }

    fn the_window_sort_agrees_with_a_collation_sort(ids in prop::collection::vec(id(), 0..16)) {
        let rows: Vec<Row> = ids.iter().map(|id| row(id, None)).collect();
        let mut notes = PortabilityNotes::default();
        let sorted: Vec<String> = sort_rows(rows, &mut notes).into_iter().map(|row| row.id).collect();
        let mut expected = ids.clone();
        // Both sorts are stable, so ids that collate equal keep their order.
        expected.sort_by(|a, b| locale_compare(a, b));
        prop_assert_eq!(&sorted, &expected);
        // The window says the order is not portable exactly when a
        // code-unit sort of the ids (what native ports are asked for) differs.
        let mut by_code_units = ids.clone();
        by_code_units.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
        prop_assert_eq!(notes.is_empty(), by_code_units == sorted, "{:?}", notes);
    }

    fn loose_operands_convert_to_their_numbers(n in -1e6f64..1e6) {
        let number = json!(n);
        for (value, as_number) in [
            (json!(""), 0.0), (json!(" "), 0.0), (json!([]), 0.0), (json!(null), 0.0),
            (json!(false), 0.0), (json!(true), 1.0), (json!([7]), 7.0), (json!(" 7 "), 7.0),
        ] {
            prop_assert_eq!(loose_less_than(Some(&value), Some(&number)), as_number < n, "{} < {}", value, n);
            prop_assert_eq!(loose_greater_than(Some(&value), Some(&number)), as_number > n, "{} > {}", value, n);
        }
        // NaN operands: `{}`, `undefined`, text that is not a number.
        for value in [json!({}), json!("abc"), json!([1, 2])] {
            prop_assert!(!loose_less_than(Some(&value), Some(&number)));
            prop_assert!(!loose_greater_than(Some(&value), Some(&number)));
        }
        prop_assert!(!loose_less_than(None, Some(&number)) && !loose_greater_than(None, Some(&number)));
    }

    fn loose_less_and_greater_are_mirror_images(x in loose_value(), y in loose_value()) {
        prop_assert_eq!(loose_less_than(Some(&x), Some(&y)), loose_greater_than(Some(&y), Some(&x)));
        // Never both ways round.
        prop_assert!(!(loose_less_than(Some(&x), Some(&y)) && loose_less_than(Some(&y), Some(&x))));
        // Between two non-strings the answer is the numbers' answer.
        if !x.is_string() && !x.is_array() && !y.is_string() && !y.is_array() {
            let (a, b) = (to_number(Some(&x)), to_number(Some(&y)));
            prop_assert_eq!(loose_less_than(Some(&x), Some(&y)), a < b);
        }
    }
}

/// Whether a missing resource must fail the run instead of being skipped.
fn require_all() -> bool {
    std::env::var("CONFORM_REQUIRE_ALL").is_ok_and(|value| value == "1")
}

/// Runs `script` under node with `input` on stdin; the JSON it prints.
fn node_eval(node: &str, script: &str, input: &Value) -> Value {
    node_eval_text(node, script, &input.to_string())
}

/// [`node_eval`] with the input as JSON text.
fn node_eval_text(node: &str, script: &str, input: &str) -> Value {
    let mut child = Command::new(node)
        .args(["-e", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("node starts");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("input written");
    let output = child.wait_with_output().expect("node finishes");
    assert!(output.status.success(), "node failed: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("node prints JSON")
}

const READ_STDIN: &str = "const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));";

fn collation_and_loose_comparisons_agree_with_v8() {
    let Some(node) = common::node() else {
        assert!(!require_all(), "CONFORM_REQUIRE_ALL=1 but node is not installed");
        return;
    };
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let pairs: Vec<(String, String)> = (0..4000)
        .map(|_| {
            let a = id().new_tree(&mut runner).expect("an id").current();
            let b = id().new_tree(&mut runner).expect("an id").current();
            (a, b)
        })
        .collect();
    let script =
        format!("{READ_STDIN} console.log(JSON.stringify(input.map(([a, b]) => Math.sign(a.localeCompare(b)))));");
    let v8 = node_eval(node, &script, &json!(pairs));
    let mut disagreements = Vec::new();
    for ((a, b), answer) in pairs.iter().zip(v8.as_array().expect("a list")) {
        let ours = match locale_compare(a, b) {
            Ordering::Less => -1,
            Ordering::Equal => 0,
            Ordering::Greater => 1,
        };
        if Some(ours) != answer.as_i64() {
            disagreements.push(format!("{a:?} vs {b:?}: V8 {answer}, conform {ours}"));
        }
    }
    assert!(disagreements.is_empty(), "{} of {}:\n{}", disagreements.len(), pairs.len(), disagreements.join("\n"));

    // Ids holding lone surrogates (JSON `\udXXX` escapes), next to the
    // characters around them in ICU's order (U+D7FF, U+E800, U+FFFD).
    let units = prop::collection::vec(prop::sample::select(SURROGATE_UNITS), 0..5);
    let pairs: Vec<(String, String)> = (0..2000)
        .map(|_| {
            let a = units.new_tree(&mut runner).expect("units").current();
            let b = units.new_tree(&mut runner).expect("units").current();
            (conform::json::from_utf16(&a), conform::json::from_utf16(&b))
        })
        .collect();
    // The crate's writer escapes lone surrogates as JavaScript holds them.
    let text = conform::json::to_compact_string(&json!(pairs));
    let v8 = node_eval_text(node, &script, &text);
    for ((a, b), answer) in pairs.iter().zip(v8.as_array().expect("a list")) {
        let ours = locale_compare(a, b) as i64;
        assert_eq!(Some(ours), answer.as_i64(), "{:?} vs {:?}", conform::json::to_utf16(a), conform::json::to_utf16(b));
    }

    let values: Vec<(Value, Value)> = (0..2000)
        .map(|_| {
            let x = loose_value().new_tree(&mut runner).expect("a value").current();
            let y = loose_value().new_tree(&mut runner).expect("a value").current();
            (x, y)
        })
        .collect();
    let script = format!("{READ_STDIN} console.log(JSON.stringify(input.map(([x, y]) => [x < y, x > y])));");
    let v8 = node_eval(node, &script, &json!(values));
    for ((x, y), answer) in values.iter().zip(v8.as_array().expect("a list")) {
        let ours = json!([loose_less_than(Some(x), Some(y)), loose_greater_than(Some(x), Some(y))]);
        assert_eq!(&ours, answer, "{x} < {y}, {x} > {y}");
    }
}

crate::trials![
    collation_is_reflexive_and_antisymmetric,
    collation_is_transitive,
    sorting_by_collation_orders_every_pair,
    case_decides_only_a_tie_and_lower_case_comes_first,
    the_window_breaks_full_ties_by_collation,
    the_window_sort_agrees_with_a_collation_sort,
    loose_operands_convert_to_their_numbers,
    loose_less_and_greater_are_mirror_images,
    collation_and_loose_comparisons_agree_with_v8
];
