//! What a suite tells `conform explore` about its inputs, so that the
//! generic mutations (drop, duplicate and reorder items, boundary values at
//! any path, unknown members, swapped ids, moved timestamps) can be joined by
//! the few that only the suite knows (a tie in the display order of
//! pagination rows, an sse patch whose version equals the session's).
//!
//! A suite answers [`Suite::mutation_profile`](super::Suite::mutation_profile)
//! with a [`MutationProfile`]; the default ([`MutationProfile::GENERIC`]) gives
//! every suite the generic mutations. Suite mutators are plain functions of
//! the input and a [`Chooser`], the deterministic random source every
//! mutation draws from: the same seed gives the same inputs on every machine
//! and in every version of the dependencies (no external random crate).

use serde_json::{Map, Value};

/// A deterministic random source (SplitMix64): small, fast, and stable by
/// construction, so an input is reproducible from its seed and index alone.
#[derive(Clone, Debug)]
pub struct Chooser {
    state: u64,
}

impl Chooser {
    /// A chooser starting from `seed`.
    pub fn new(seed: u64) -> Chooser {
        Chooser { state: seed }
    }

    /// The chooser of input `index` of suite `suite` under `seed`: one
    /// independent stream per input, whatever order inputs are made in.
    pub fn for_input(seed: u64, suite: &str, index: u64) -> Chooser {
        let mut mixed = Chooser::new(seed ^ fnv1a(suite.as_bytes()));
        let base = mixed.next_u64();
        Chooser::new(base ^ index.wrapping_mul(0xA24B_AED4_963E_E407))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        // Multiply-shift: unbiased enough for mutation choices, no division.
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// True with probability `numerator / denominator`.
    pub fn chance(&mut self, numerator: u32, denominator: u32) -> bool {
        denominator > 0 && self.below(denominator as usize) < numerator as usize
    }

    /// One of `items`, or `None` when there is none.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() { None } else { items.get(self.below(items.len())) }
    }
}

/// FNV-1a over bytes (the stream of a suite's inputs depends on its name).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3))
}

/// A mutation only one suite knows. It changes `input` (the case's input
/// part) in place and returns one line saying what it did, for the mutation
/// path of the report; `None` when it does not apply to this input (the
/// input must then be unchanged).
pub type MutateFn = fn(input: &mut Value, chooser: &mut Chooser) -> Option<String>;

/// A named suite mutation.
#[derive(Clone, Copy, Debug)]
pub struct SuiteMutator {
    /// Short name, shown in the mutation path (`pagination/display-tie`).
    pub name: &'static str,
    /// How often it is chosen, relative to the generic mutations (which
    /// weigh 1 to 4 each).
    pub weight: u32,
    /// The mutation.
    pub apply: MutateFn,
}

/// What a suite tells the explorer about its inputs. Empty lists mean "the
/// generic default" (see each member).
#[derive(Clone, Copy, Debug)]
pub struct MutationProfile {
    /// Members that hold ids items refer to each other by, for swapped and
    /// shared ids. Empty: `id`, `uuid`, `localId` and members ending in `Id`
    /// or `_id`.
    pub id_members: &'static [&'static str],
    /// Members that hold timestamps or versions that order items, for moved
    /// timestamps and ties. Empty: `createdAt`, `timestamp`, `seq` and members
    /// ending in `At`.
    pub order_members: &'static [&'static str],
    /// Strings the decoder branches on that the fixtures may not show (tool
    /// names, type tags, modes), planted where a string was.
    pub words: &'static [&'static str],
    /// Mutations only this suite knows.
    pub mutators: &'static [SuiteMutator],
    /// Rule ids of the reference whose output no fixture can pin (chat's
    /// wall clock for a synthesized card without `createdAt`): an input
    /// reaching one is not judged, since two runs of even the reference
    /// differ on it.
    pub unpinnable_rules: &'static [&'static str],
}

impl MutationProfile {
    /// The generic mutations only.
    pub const GENERIC: MutationProfile =
        MutationProfile { id_members: &[], order_members: &[], words: &[], mutators: &[], unpinnable_rules: &[] };

    /// Whether `key` names an id member under this profile.
    pub fn is_id_member(&self, key: &str) -> bool {
        if self.id_members.is_empty() {
            matches!(key, "id" | "uuid" | "localId") || key.ends_with("Id") || key.ends_with("_id")
        } else {
            self.id_members.contains(&key)
        }
    }

    /// Whether `key` names an ordering member under this profile.
    pub fn is_order_member(&self, key: &str) -> bool {
        if self.order_members.is_empty() {
            matches!(key, "createdAt" | "timestamp" | "seq") || key.ends_with("At")
        } else {
            self.order_members.contains(&key)
        }
    }
}

impl Default for MutationProfile {
    fn default() -> Self {
        MutationProfile::GENERIC
    }
}

/// One step of a path into a JSON value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// An object member.
    Key(String),
    /// An array element.
    Index(usize),
}

/// The node at `path`.
pub fn node_at<'v>(value: &'v Value, path: &[Step]) -> Option<&'v Value> {
    path.iter().try_fold(value, |node, step| match step {
        Step::Key(key) => node.get(key.as_str()),
        Step::Index(index) => node.get(*index),
    })
}

/// The node at `path`, mutably.
pub fn node_at_mut<'v>(value: &'v mut Value, path: &[Step]) -> Option<&'v mut Value> {
    path.iter().try_fold(value, |node, step| match step {
        Step::Key(key) => node.get_mut(key.as_str()),
        Step::Index(index) => node.get_mut(*index),
    })
}

/// The object at `path`, mutably.
pub fn object_at_mut<'v>(value: &'v mut Value, path: &[Step]) -> Option<&'v mut Map<String, Value>> {
    node_at_mut(value, path)?.as_object_mut()
}

/// The paths of the objects below (and at) `value` that `accept` takes, in
/// document order (at most 4096 objects are looked at). Walking allocates
/// nothing but the paths returned.
pub fn objects_where(value: &Value, accept: &dyn Fn(&Map<String, Value>) -> bool) -> Vec<Vec<Step>> {
    enum Borrowed<'v> {
        Key(&'v str),
        Index(usize),
    }
    let mut found = Vec::new();
    let mut seen = 0usize;
    let mut path: Vec<Borrowed<'_>> = Vec::new();
    let mut stack: Vec<(usize, &Value, Option<Borrowed<'_>>)> = vec![(0, value, None)];
    while let Some((depth, node, step)) = stack.pop() {
        path.truncate(depth);
        if let Some(step) = step {
            path.push(step);
        }
        match node {
            Value::Object(members) => {
                seen += 1;
                if accept(members) {
                    found.push(
                        path.iter()
                            .map(|step| match step {
                                Borrowed::Key(key) => Step::Key((*key).to_owned()),
                                Borrowed::Index(index) => Step::Index(*index),
                            })
                            .collect(),
                    );
                }
                if seen >= 4096 {
                    break;
                }
                for (key, member) in members.iter().rev() {
                    stack.push((path.len(), member, Some(Borrowed::Key(key))));
                }
            }
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate().rev() {
                    stack.push((path.len(), item, Some(Borrowed::Index(index))));
                }
            }
            _ => {}
        }
    }
    found
}

/// Sets member `key` of one object of `input` that `accept` takes (chosen at
/// random) to one of `values` other than the one it holds; one line saying
/// what it did, or `None` when no object is taken (the input is then
/// unchanged). The building block of most suite mutators.
pub fn set_member_of_one(
    input: &mut Value,
    chooser: &mut Chooser,
    accept: &dyn Fn(&Map<String, Value>) -> bool,
    what: &str,
    key: &str,
    values: &[Value],
) -> Option<String> {
    let found = objects_where(input, accept);
    let path = chooser.pick(&found)?.clone();
    let value = chooser.pick(values)?.clone();
    let object = object_at_mut(input, &path)?;
    if object.get(key) == Some(&value) {
        return None;
    }
    let described = crate::json::to_compact_string(&value);
    object.insert(key.to_owned(), value);
    Some(format!("set `{key}` of {what} to {described}"))
}

/// `value` as parsing its JavaScript text would store it: an integral
/// number below 1e21 (which JavaScript writes without a fraction or an
/// exponent) as an integer, anything else as a double; `-0` stays `-0` (a
/// boundary value of its own, which canonical JSON writes as `0`). Both
/// sides of a comparison then see the same stored number, whether they get
/// the input in-process or through the protocol.
pub fn js_number(value: f64) -> Value {
    let integral = value.fract() == 0.0 && value.abs() < 1e21 && !(value == 0.0 && value.is_sign_negative());
    if integral && (0.0..18_446_744_073_709_551_616.0).contains(&value) {
        return Value::from(value as u64);
    }
    if integral && (-9_223_372_036_854_775_808.0..0.0).contains(&value) {
        return Value::from(value as i64);
    }
    serde_json::Number::from_f64(value).map_or(Value::Null, Value::Number)
}

/// Whether an object's `type` member is one of `kinds`.
pub fn has_type(members: &Map<String, Value>, kinds: &[&str]) -> bool {
    members.get("type").and_then(Value::as_str).is_some_and(|kind| kinds.contains(&kind))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_and_index_give_the_same_stream() {
        let mut a = Chooser::for_input(7, "chat", 12);
        let mut b = Chooser::for_input(7, "chat", 12);
        let first: Vec<u64> = (0..5).map(|_| a.next_u64()).collect();
        assert_eq!(first, (0..5).map(|_| b.next_u64()).collect::<Vec<_>>());
        let mut other = Chooser::for_input(7, "chat", 13);
        assert_ne!(first[0], other.next_u64());
        let mut suite = Chooser::for_input(7, "sse", 12);
        assert_ne!(first[0], suite.next_u64());
        // Pinned: a change here changes every reported input.
        assert_eq!(Chooser::new(0).next_u64(), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn choices_stay_in_range() {
        let mut chooser = Chooser::new(1);
        for n in 1..50 {
            assert!(chooser.below(n) < n);
        }
        assert_eq!(chooser.below(0), 0);
        assert_eq!(chooser.pick::<u8>(&[]), None);
        assert!(!chooser.chance(0, 5) && chooser.chance(5, 5));
    }

    #[test]
    fn objects_are_found_in_document_order_and_reached_again() {
        let mut value = serde_json::json!({"a": [{"t": 1}, {"u": 2}], "b": {"t": 3}});
        let found = objects_where(&value, &|o| o.contains_key("t"));
        assert_eq!(found.len(), 2);
        assert_eq!(node_at(&value, &found[1]), Some(&serde_json::json!({"t": 3})));
        object_at_mut(&mut value, &found[0]).unwrap().insert("t".into(), 9.into());
        assert_eq!(value["a"][0]["t"], 9);
    }

    #[test]
    fn one_member_is_set_on_an_accepted_object_only() {
        let mut value = serde_json::json!({"a": [{"type": "x", "f": 1}, {"type": "y"}]});
        let mut chooser = Chooser::new(4);
        let values = [Value::from(2)];
        let what = set_member_of_one(&mut value, &mut chooser, &|o| has_type(o, &["x"]), "an x", "f", &values);
        assert_eq!(what.as_deref(), Some("set `f` of an x to 2"));
        assert_eq!(value["a"][0]["f"], 2);
        assert!(value["a"][1].get("f").is_none());
        let again = set_member_of_one(&mut value, &mut chooser, &|o| has_type(o, &["x"]), "an x", "f", &values);
        assert_eq!(again, None, "the value is already there");
        assert_eq!(set_member_of_one(&mut value, &mut chooser, &|o| has_type(o, &["z"]), "", "f", &values), None);
    }

    #[test]
    fn numbers_are_stored_as_their_javascript_text_parses() {
        for value in [0.0, 3.0, -7.0, 1e20, 1.5, 1e21, -0.0, 9_007_199_254_740_993.0, -1e300] {
            let planted = js_number(value);
            let text = crate::json::to_compact_string(&planted);
            let parsed = crate::json::parse_value(&text).unwrap_or_else(|e| panic!("{e}"));
            if value == 0.0 && value.is_sign_negative() {
                // -0 is a boundary of its own: canonical JSON writes it `0`.
                assert_eq!((text.as_str(), planted.as_f64().map(f64::is_sign_negative)), ("0", Some(true)));
                continue;
            }
            assert_eq!(parsed, planted, "{value} written {text}");
        }
    }

    #[test]
    fn generic_profile_recognises_ids_and_order_members() {
        let profile = MutationProfile::GENERIC;
        assert!(profile.is_id_member("toolUseId") && profile.is_id_member("tool_use_id") && profile.is_id_member("id"));
        assert!(!profile.is_id_member("idle"));
        assert!(profile.is_order_member("invokedAt") && profile.is_order_member("seq"));
        let custom = MutationProfile { order_members: &["version"], ..MutationProfile::GENERIC };
        assert!(custom.is_order_member("version") && !custom.is_order_member("createdAt"));
    }
}
