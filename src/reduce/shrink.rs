//! The reduction itself: delta debugging over the item list, then over the
//! members and items inside what is left, then shorter strings, keeping each
//! step only while the failure signature stays the same (see the module
//! docs of [`crate::reduce`]).

use super::ddmin::ddmin;
use super::prune;
use super::signature::Failure;
use crate::compare::DifferenceKind;
use crate::implementation::{CaseRequest, Implementation};
use crate::json;
use crate::schema::is_schema_valid;
use crate::suite_api::NoTrace;
use crate::suite_api::{ReferenceFn, Suite, call_reference};
use serde_json::{Map, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use thiserror::Error;

/// Members never removed: the discriminators (anywhere) and, on list items,
/// identity and order. Removing them rarely matters to a bug and always
/// makes the result harder to read as wire data.
pub const PROTECTED_MEMBERS: &[&str] = &["type", "role", "method"];

/// Members of list items that are kept (see [`PROTECTED_MEMBERS`]).
pub const PROTECTED_ITEM_MEMBERS: &[&str] = &["id", "seq", "localId", "createdAt", "uuid"];

/// Strings longer than this many characters are tried shorter.
const LONG_STRING: usize = 32;

/// What a shortened string keeps.
const SHORT_STRING: usize = 16;

/// Where expectations of reduced candidates come from. See the module docs.
#[derive(Clone, Debug)]
pub enum Oracle {
    /// The suite's reference computes them.
    Reference(ReferenceFn),
    /// The fixture's stored expectation, pruned to the remaining input.
    Stored(Value),
}

/// The case to reduce.
#[derive(Clone, Debug)]
pub struct ReduceRequest<'a> {
    /// Its suite.
    pub suite: &'static dyn Suite,
    /// The fixture name (sent to the implementation).
    pub fixture: &'a str,
    /// The fixture version (sent to the implementation).
    pub fixture_version: u32,
    /// The input part.
    pub input: &'a Value,
    /// Where expectations come from.
    pub oracle: Oracle,
    /// At most this many implementation runs.
    pub max_tests: usize,
    /// Set from another thread (Ctrl-C) to stop early with the smallest
    /// failing input found so far.
    pub cancel: Option<&'a AtomicBool>,
    /// The fixture document the case comes from. When given, a candidate is
    /// tried only if, with its input and expectation, that document still
    /// validates against the suite's schema for `fixture_version`: members
    /// the schema requires stay (a pagination row keeps its `content`), and
    /// the reduced fixture is always valid.
    pub document: Option<&'a Value>,
}

/// A reduced case.
#[derive(Clone, Debug)]
pub struct Reduction {
    /// The reduced input part.
    pub input: Value,
    /// Its expectation (from the oracle).
    pub expected: Value,
    /// The failure it shows (the original's).
    pub failure: Failure,
    /// The item list that was reduced, if the input has one.
    pub list: Option<String>,
    /// Items before and after.
    pub items: (usize, usize),
    /// Canonical bytes of the input part before and after.
    pub bytes: (usize, usize),
    /// Implementation runs spent.
    pub tests: usize,
    /// Whether the run budget ran out or the run was cancelled (the result
    /// is smaller, not minimal).
    pub budget_exhausted: bool,
}

/// Why a case cannot be reduced.
#[derive(Debug, Error)]
pub enum ReduceError {
    /// The implementation passes the case.
    #[error("the implementation passes this case: there is no failure to reduce")]
    NotFailing,
    /// With a stored expectation, only missing blocks differ, which cannot be
    /// told apart from blocks of removed messages.
    #[error(
        "the only differences are missing array elements; against a stored expectation they cannot be told \
         apart from the blocks of removed messages (reduce against the reference with --impl-cmd instead)"
    )]
    OnlyMissingElements,
    /// The oracle cannot compute the original's expectation.
    #[error("the reference cannot decode this case: {0}")]
    OracleFailed(String),
}

/// The question the reducer asks of each candidate: which failure does it
/// show? `target` is the original's failure once known (`None` while the
/// original itself is judged).
pub trait FailureCheck {
    /// The candidate's failure: `Ok(None)` when it passes, `Err` when it
    /// cannot be judged (no expectation, not a valid case), which counts as
    /// "not the same failure" and spends none of the reducer's test budget.
    fn failure(&self, input: &Value, target: Option<&Failure>) -> Result<Option<Failure>, String>;
}

/// Reduces a failing case of `subject`. See the module docs.
pub fn reduce(request: &ReduceRequest<'_>, subject: &dyn Implementation) -> Result<Reduction, ReduceError> {
    reduce_with(request, &ImplementationCheck { request, subject })
}

/// Reduces a case by what `check` says of each candidate (see
/// [`FailureCheck`]); the request's oracle gives the reduced expectation.
pub fn reduce_with(request: &ReduceRequest<'_>, check: &dyn FailureCheck) -> Result<Reduction, ReduceError> {
    let mut probe = Probe { request, check, tests: 0, exhausted: false, target: None };
    let signature = match probe.signature(request.input) {
        Some(Ok(Some(signature))) if signature.is_failure() => signature,
        Some(Ok(Some(_))) => return Err(ReduceError::OnlyMissingElements),
        Some(Ok(None)) | None => return Err(ReduceError::NotFailing),
        Some(Err(message)) => return Err(ReduceError::OracleFailed(message)),
    };
    probe.target = Some(signature.clone());

    let mut input = request.input.clone();
    let list = list_key(request.suite, &input);
    let items_before = list.as_deref().map_or(0, |key| list_len(&input, key));
    if let Some(key) = &list
        && let Some(Value::Array(items)) = input.get(key.as_str())
    {
        let items = items.clone();
        let kept = ddmin(items, |subset| probe.fails_same(&with_member(&input, key, Value::Array(subset.to_vec()))));
        input = with_member(&input, key, Value::Array(kept));
    }
    if let Value::Object(members) = &input {
        let keys: Vec<String> = members.keys().cloned().collect();
        for key in keys {
            let item_level = list.as_deref() == Some(key.as_str());
            reduce_children(&mut probe, &mut input, &[Seg::Key(key)], item_level);
        }
    }
    shorten_strings(&mut probe, &mut input, list.as_deref());

    let expected = expected_for(request, &input).map_err(ReduceError::OracleFailed)?;
    let items_after = list.as_deref().map_or(0, |key| list_len(&input, key));
    Ok(Reduction {
        bytes: (json::to_canonical_string(request.input).len(), json::to_canonical_string(&input).len()),
        input,
        expected,
        failure: signature,
        list,
        items: (items_before, items_after),
        tests: probe.tests,
        budget_exhausted: probe.exhausted,
    })
}

/// The reducer's budget and target around a [`FailureCheck`].
struct Probe<'r, 'a> {
    request: &'r ReduceRequest<'a>,
    check: &'r dyn FailureCheck,
    tests: usize,
    exhausted: bool,
    target: Option<Failure>,
}

impl Probe<'_, '_> {
    /// The failure signature on `input`: `None` when the budget is spent,
    /// `Some(Err)` when it cannot be judged, `Some(Ok(None))` when it passes.
    fn signature(&mut self, input: &Value) -> Option<Result<Option<Failure>, String>> {
        let cancelled = self.request.cancel.is_some_and(|flag| flag.load(Ordering::SeqCst));
        if self.tests >= self.request.max_tests || cancelled {
            self.exhausted = true;
            return None;
        }
        let judged = self.check.failure(input, self.target.as_ref());
        if judged.is_ok() {
            self.tests += 1;
        }
        Some(judged)
    }

    /// Whether `input` shows the target failure (`None`: budget spent).
    fn fails_same(&mut self, input: &Value) -> Option<bool> {
        match self.signature(input)? {
            Ok(Some(signature)) => Some(Some(&signature) == self.target.as_ref()),
            Ok(None) | Err(_) => Some(false),
        }
    }
}

/// The expectation of a candidate, from the request's oracle.
fn expected_for(request: &ReduceRequest<'_>, input: &Value) -> Result<Value, String> {
    match &request.oracle {
        Oracle::Reference(reference) => {
            call_reference(*reference, input, &mut NoTrace).map_err(|failure| failure.to_string())
        }
        Oracle::Stored(stored) => Ok(prune::prune_unreferenced(stored, input)),
    }
}

/// A candidate's failure is the implementation's against the oracle's
/// expectation; once the target is known, a candidate must also still make
/// a valid fixture document.
struct ImplementationCheck<'r, 'a> {
    request: &'r ReduceRequest<'a>,
    subject: &'r dyn Implementation,
}

impl FailureCheck for ImplementationCheck<'_, '_> {
    fn failure(&self, input: &Value, target: Option<&Failure>) -> Result<Option<Failure>, String> {
        let expected = expected_for(self.request, input)?;
        if target.is_some() && !self.makes_valid_document(input, &expected) {
            return Err("the candidate is not a valid fixture".to_owned());
        }
        let request = CaseRequest {
            suite: self.request.suite.name(),
            fixture: self.request.fixture,
            fixture_version: self.request.fixture_version,
            input,
        };
        let run = self.subject.run_case(&request);
        let ignore: &[DifferenceKind] = match self.request.oracle {
            Oracle::Stored(_) => &[DifferenceKind::MissingElements],
            Oracle::Reference(_) => &[],
        };
        // Against a stored expectation, the original may differ only by
        // missing elements (the bug drops blocks); count them then.
        let ignore = if target.is_some_and(has_missing_elements) { &[] } else { ignore };
        Ok(Failure::of(&run.outcome, &expected, ignore))
    }
}

impl ImplementationCheck<'_, '_> {
    /// Whether the candidate, put into the fixture document, still makes a
    /// valid fixture (always, when there is no document to check against).
    fn makes_valid_document(&self, input: &Value, expected: &Value) -> bool {
        let Some(document) = self.request.document else { return true };
        let suite = self.request.suite;
        suite
            .with_input(document, input)
            .and_then(|with_input| suite.with_expected(&with_input, expected))
            .is_ok_and(|candidate| is_schema_valid(suite, self.request.fixture_version, &candidate))
    }
}

fn has_missing_elements(failure: &Failure) -> bool {
    failure.has_kind(DifferenceKind::MissingElements)
}

/// The list member of a case input: the suite's
/// [`item_list`](Suite::item_list) when the input has it as an array, else
/// the longest array member.
pub fn list_key(suite: &dyn Suite, input: &Value) -> Option<String> {
    let object = input.as_object()?;
    if let Some(key) = suite.item_list().filter(|key| object.get(*key).is_some_and(Value::is_array)) {
        return Some(key.to_owned());
    }
    object
        .iter()
        .filter_map(|(key, value)| value.as_array().map(|items| (items.len(), key)))
        .max_by_key(|(len, _)| *len)
        .map(|(_, key)| key.clone())
}

fn list_len(input: &Value, key: &str) -> usize {
    input.get(key).and_then(Value::as_array).map_or(0, Vec::len)
}

fn with_member(input: &Value, key: &str, value: Value) -> Value {
    let mut object = input.as_object().cloned().unwrap_or_default();
    object.insert(key.to_owned(), value);
    Value::Object(object)
}

/// A step of a path into a value.
#[derive(Clone, Debug)]
enum Seg {
    Key(String),
    Index(usize),
}

fn node_mut<'v>(value: &'v mut Value, path: &[Seg]) -> Option<&'v mut Value> {
    path.iter().try_fold(value, |node, seg| match seg {
        Seg::Key(key) => node.get_mut(key.as_str()),
        Seg::Index(index) => node.get_mut(*index),
    })
}

fn node<'v>(value: &'v Value, path: &[Seg]) -> Option<&'v Value> {
    path.iter().try_fold(value, |node, seg| match seg {
        Seg::Key(key) => node.get(key.as_str()),
        Seg::Index(index) => node.get(*index),
    })
}

/// `input` with the node at `path` replaced.
fn replaced(input: &Value, path: &[Seg], value: Value) -> Value {
    let mut copy = input.clone();
    if let Some(slot) = node_mut(&mut copy, path) {
        *slot = value;
    }
    copy
}

/// Reduces the children of the container at `path`, then theirs. With
/// `items`, the container is the item list: its items stay (phase 1 chose
/// them) and only their insides are reduced.
fn reduce_children(probe: &mut Probe<'_, '_>, input: &mut Value, path: &[Seg], items: bool) {
    stacker::maybe_grow(64 * 1024, 4 * 1024 * 1024, || reduce_children_here(probe, input, path, items));
}

fn reduce_children_here(probe: &mut Probe<'_, '_>, input: &mut Value, path: &[Seg], items: bool) {
    if probe.exhausted {
        return;
    }
    let Some(current) = node(input, path).cloned() else { return };
    match current {
        Value::Object(members) => {
            let protected = |key: &str| {
                PROTECTED_MEMBERS.contains(&key) || (is_list_item(path) && PROTECTED_ITEM_MEMBERS.contains(&key))
            };
            let removable: Vec<String> = members.keys().filter(|k| !protected(k)).cloned().collect();
            let rebuild = |kept: &[String]| -> Value {
                let object: Map<String, Value> = members
                    .iter()
                    .filter(|(key, _)| protected(key) || kept.contains(key))
                    .map(|(key, value)| (key.clone(), value.clone()))
                    .collect();
                Value::Object(object)
            };
            let kept = ddmin(removable, |subset| probe.fails_same(&replaced(input, path, rebuild(subset))));
            let object = rebuild(&kept);
            let keys: Vec<String> = object.as_object().map(|o| o.keys().cloned().collect()).unwrap_or_default();
            if let Some(slot) = node_mut(input, path) {
                *slot = object;
            }
            for key in keys {
                let mut child = path.to_vec();
                child.push(Seg::Key(key));
                reduce_children(probe, input, &child, false);
            }
        }
        Value::Array(elements) => {
            let kept = if items {
                elements
            } else {
                ddmin(elements, |subset| probe.fails_same(&replaced(input, path, Value::Array(subset.to_vec()))))
            };
            let count = kept.len();
            if let Some(slot) = node_mut(input, path) {
                *slot = Value::Array(kept);
            }
            for index in 0..count {
                let mut child = path.to_vec();
                child.push(Seg::Index(index));
                reduce_children(probe, input, &child, false);
            }
        }
        _ => {}
    }
}

/// Whether `path` points at an item of the top-level list.
fn is_list_item(path: &[Seg]) -> bool {
    matches!(path, [Seg::Key(_), Seg::Index(_)])
}

/// Phase 3: tries long strings empty, then cut short.
fn shorten_strings(probe: &mut Probe<'_, '_>, input: &mut Value, list: Option<&str>) {
    let mut paths = Vec::new();
    let root: Vec<Seg> = list.map(|key| vec![Seg::Key(key.to_owned())]).unwrap_or_default();
    if let Some(start) = node(input, &root) {
        long_strings(start, &mut root.clone(), &mut paths);
    }
    for path in paths {
        if probe.exhausted {
            return;
        }
        let Some(Value::String(text)) = node(input, &path).cloned() else { continue };
        let short: String = text.chars().take(SHORT_STRING).collect();
        for candidate in [String::new(), short] {
            let trial = replaced(input, &path, Value::String(candidate));
            if probe.fails_same(&trial) == Some(true) {
                *input = trial;
                break;
            }
        }
    }
}

fn long_strings(value: &Value, at: &mut Vec<Seg>, into: &mut Vec<Vec<Seg>>) {
    stacker::maybe_grow(64 * 1024, 4 * 1024 * 1024, || long_strings_here(value, at, into));
}

fn long_strings_here(value: &Value, at: &mut Vec<Seg>, into: &mut Vec<Vec<Seg>>) {
    match value {
        Value::String(text) if text.chars().count() > LONG_STRING => into.push(at.clone()),
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                at.push(Seg::Index(index));
                long_strings(item, at, into);
                at.pop();
            }
        }
        Value::Object(members) => {
            for (key, member) in members {
                at.push(Seg::Key(key.clone()));
                long_strings(member, at, into);
                at.pop();
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::implementation::{CaseRun, ImplementationInfo, ImplementationKind, Outcome};
    use crate::suite_api::RuleTrace;
    use serde_json::json;

    /// A toy reference: the sum of every `n` and the list of `tag`s.
    fn toy(input: &Value, _: &mut dyn RuleTrace) -> Result<Value, String> {
        let items = input.get("messages").and_then(Value::as_array).ok_or("no messages")?;
        let sum: i64 = items.iter().filter_map(|m| m.get("n").and_then(Value::as_i64)).sum();
        let tags: Vec<Value> = items.iter().filter_map(|m| m.get("tag").cloned()).collect();
        Ok(json!({"sum": sum, "tags": tags}))
    }

    /// Like the toy, but drops tags of items whose `kind` is "odd".
    struct Faulty;

    impl Implementation for Faulty {
        fn info(&self) -> ImplementationInfo {
            ImplementationInfo {
                name: "faulty".into(),
                version: "0".into(),
                language: "rust".into(),
                kind: ImplementationKind::Subprocess,
                command: None,
            }
        }

        fn run_case(&self, request: &CaseRequest<'_>) -> CaseRun {
            let mut input = request.input.clone();
            if let Some(Value::Array(items)) = input.get_mut("messages") {
                for item in items.iter_mut() {
                    if item.get("kind") == Some(&json!("odd"))
                        && let Some(object) = item.as_object_mut()
                    {
                        object.remove("tag");
                    }
                }
            }
            toy(&input, &mut NoTrace).map_or_else(Outcome::Error, Outcome::Output).into()
        }
    }

    #[test]
    fn reduces_to_the_one_message_kind_the_implementation_mishandles() -> Result<(), ReduceError> {
        let messages: Vec<Value> = (0..300)
            .map(|i| {
                let kind = if i == 217 { "odd" } else { "even" };
                json!({"id": format!("m{i}"), "kind": kind, "n": i, "tag": format!("t{i}"),
                       "padding": "x".repeat(60), "extra": {"deep": [1, 2, 3]}})
            })
            .collect();
        let input = json!({"messages": messages, "options": {"flag": true}});
        let suite = crate::suites::find("chat").ok_or(ReduceError::NotFailing)?;
        let request = ReduceRequest {
            suite,
            fixture: "toy",
            fixture_version: 1,
            input: &input,
            oracle: Oracle::Reference(toy),
            max_tests: 10_000,
            cancel: None,
            document: None,
        };
        let reduction = reduce(&request, &Faulty)?;
        assert_eq!(reduction.items, (300, 1));
        assert_eq!(reduction.input["messages"], json!([{"id": "m217", "kind": "odd", "tag": "t217"}]));
        assert_eq!(reduction.failure.to_string(), "/tags/* missing-elements");
        assert!(reduction.bytes.1 * 100 < reduction.bytes.0, "{:?}", reduction.bytes);
        assert!(!reduction.budget_exhausted);
        Ok(())
    }

    #[test]
    fn a_passing_case_is_not_reduced() {
        let input = json!({"messages": [{"n": 1, "tag": "a"}]});
        let request = ReduceRequest {
            suite: crate::suites::all()[0],
            fixture: "toy",
            fixture_version: 1,
            input: &input,
            oracle: Oracle::Reference(toy),
            max_tests: 100,
            cancel: None,
            document: None,
        };
        assert!(matches!(reduce(&request, &Faulty), Err(ReduceError::NotFailing)));
    }
}
