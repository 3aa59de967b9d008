//! The generic mutations every suite gets, and the choice among them and
//! the suite's own ([`MutationProfile::mutators`]).
//!
//! Each mutation changes the input in place and returns one line for the
//! mutation path (`drop /messages/3`, `set /messages/2/content/is_error to
//! null`), or `None` when it does not apply (the input is then unchanged).
//! Mutations on the item list: drop, duplicate, swap, move and window items,
//! and splice in items of another seed (combining cases). Mutations at a
//! node (inside one item most of the time, anywhere in the input
//! otherwise): a boundary or type-confusing value, a value seen under the
//! same member name in the corpus, a word of the suite, a string or number
//! edit, a flipped boolean, an unknown member added or a member removed.
//! Across items: swapped or shared ids, and an ordering member moved across
//! another's (ties included).

use super::seeds::SeedPool;
use super::tree::{self, Step, choose_node, find_nodes, get, get_mut, last_key, pointer_of};
use super::values;
use crate::suite_api::{Chooser, MutationProfile};
use serde_json::Value;

/// What the mutations of one suite draw on.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    /// The seeds and the values seen in them.
    pub pool: &'a SeedPool,
    /// What the suite says about its inputs.
    pub profile: MutationProfile,
    /// The input member holding the item list, when there is one.
    pub list: Option<&'a str>,
}

/// The generic mutations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Generic {
    DropItem,
    DuplicateItem,
    SwapItems,
    MoveItem,
    Window,
    Combine,
    Boundary,
    CorpusValue,
    Word,
    TweakString,
    TweakNumber,
    FlipBool,
    AddMember,
    RemoveMember,
    SwapIds,
    ShareId,
    MoveOrder,
}

/// Relative weights of the generic mutations.
const GENERIC: &[(Generic, u32)] = &[
    (Generic::DropItem, 3),
    (Generic::DuplicateItem, 2),
    (Generic::SwapItems, 2),
    (Generic::MoveItem, 1),
    (Generic::Window, 3),
    (Generic::Combine, 3),
    (Generic::Boundary, 4),
    (Generic::CorpusValue, 4),
    (Generic::Word, 1),
    (Generic::TweakString, 3),
    (Generic::TweakNumber, 2),
    (Generic::FlipBool, 2),
    (Generic::AddMember, 2),
    (Generic::RemoveMember, 3),
    (Generic::SwapIds, 2),
    (Generic::ShareId, 1),
    (Generic::MoveOrder, 3),
];

/// Tries one mutation (a few draws until one applies); `None` when none did.
pub fn mutate_once(input: &mut Value, context: &Context<'_>, chooser: &mut Chooser) -> Option<String> {
    let suite_weight: u32 = context.profile.mutators.iter().map(|m| m.weight).sum();
    let generic_weight: u32 = GENERIC.iter().map(|(_, w)| w).sum();
    for _ in 0..8 {
        let mut draw = chooser.below((generic_weight + suite_weight) as usize) as u32;
        let mut picked = None;
        for (mutation, weight) in GENERIC {
            if draw < *weight {
                picked = Some(*mutation);
                break;
            }
            draw -= weight;
        }
        let applied = match picked {
            Some(mutation) => generic(mutation, input, context, chooser),
            None => {
                let mut chosen = None;
                for mutator in context.profile.mutators {
                    if draw < mutator.weight {
                        chosen = Some(mutator);
                        break;
                    }
                    draw -= mutator.weight;
                }
                chosen.and_then(|m| (m.apply)(input, chooser).map(|what| format!("{}: {what}", m.name)))
            }
        };
        if applied.is_some() {
            return applied;
        }
    }
    None
}

fn generic(mutation: Generic, input: &mut Value, context: &Context<'_>, chooser: &mut Chooser) -> Option<String> {
    match mutation {
        Generic::DropItem => drop_item(input, context.list?, chooser),
        Generic::DuplicateItem => duplicate_item(input, context.list?, chooser),
        Generic::SwapItems => swap_items(input, context.list?, chooser),
        Generic::MoveItem => move_item(input, context.list?, chooser),
        Generic::Window => window(input, context.list?, chooser),
        Generic::Combine => combine(input, context, chooser),
        Generic::Boundary => {
            let at = choose_node(input, &target(input, context.list, chooser), chooser, &|node| node.depth > 0)?;
            let (value, name) = values::boundary(chooser);
            set(input, &at, value, &format!("to {name}"))
        }
        Generic::CorpusValue => corpus_value(input, context, chooser),
        Generic::Word => {
            let word = *chooser.pick(context.profile.words)?;
            let at =
                choose_node(input, &target(input, context.list, chooser), chooser, &|node| node.value.is_string())?;
            set(input, &at, Value::from(word), &format!("to the word {word:?}"))
        }
        Generic::TweakString => {
            let at =
                choose_node(input, &target(input, context.list, chooser), chooser, &|node| node.value.is_string())?;
            let text = get(input, &at)?.as_str()?.to_owned();
            let (edited, how) = values::tweak_string(&text, chooser);
            (edited != text).then_some(())?;
            let pointer = pointer_of(&at);
            *get_mut(input, &at)? = Value::String(edited);
            Some(format!("edit {pointer}: {how}"))
        }
        Generic::TweakNumber => {
            let at =
                choose_node(input, &target(input, context.list, chooser), chooser, &|node| node.value.is_number())?;
            let Value::Number(number) = get(input, &at)? else { return None };
            let edited = values::tweak_number(number, chooser);
            let name = values::describe(&edited);
            set(input, &at, edited, &format!("to {name}"))
        }
        Generic::FlipBool => {
            let at =
                choose_node(input, &target(input, context.list, chooser), chooser, &|node| node.value.is_boolean())?;
            let flipped = !get(input, &at)?.as_bool()?;
            set(input, &at, Value::Bool(flipped), &format!("to {flipped}"))
        }
        Generic::AddMember => add_member(input, context, chooser),
        Generic::RemoveMember => {
            let at = choose_node(input, &target(input, context.list, chooser), chooser, &|node| {
                node.key.is_some() && node.depth > 1
            })?;
            let (parent, Some(Step::Key(key))) = (at[..at.len() - 1].to_vec(), at.last()) else { return None };
            let pointer = pointer_of(&at);
            get_mut(input, &parent)?.as_object_mut()?.shift_remove(key.as_str())?;
            Some(format!("remove {pointer}"))
        }
        Generic::SwapIds => swap_ids(input, context, chooser, false),
        Generic::ShareId => swap_ids(input, context, chooser, true),
        Generic::MoveOrder => move_order(input, context, chooser),
    }
}

/// Where a node mutation looks: one item of the list most of the time, the
/// whole input otherwise.
fn target(input: &Value, list: Option<&str>, chooser: &mut Chooser) -> tree::Path {
    let items = list.and_then(|key| input.get(key)?.as_array().map(Vec::len)).unwrap_or(0);
    match list {
        Some(key) if items > 0 && !chooser.chance(1, 8) => {
            vec![Step::Key(key.to_owned()), Step::Index(chooser.below(items))]
        }
        _ => Vec::new(),
    }
}

fn set(input: &mut Value, at: &[Step], value: Value, what: &str) -> Option<String> {
    let slot = get_mut(input, at)?;
    if *slot == value {
        return None;
    }
    *slot = value;
    Some(format!("set {} {what}", pointer_of(at)))
}

fn items_mut<'v>(input: &'v mut Value, list: &str) -> Option<&'v mut Vec<Value>> {
    input.get_mut(list)?.as_array_mut()
}

fn drop_item(input: &mut Value, list: &str, chooser: &mut Chooser) -> Option<String> {
    let items = items_mut(input, list)?;
    (!items.is_empty()).then_some(())?;
    let index = chooser.below(items.len());
    items.remove(index);
    Some(format!("drop /{list}/{index}"))
}

fn duplicate_item(input: &mut Value, list: &str, chooser: &mut Chooser) -> Option<String> {
    let items = items_mut(input, list)?;
    (!items.is_empty()).then_some(())?;
    let index = chooser.below(items.len());
    let copy = items[index].clone();
    let to = index + 1 + chooser.below(items.len() - index);
    items.insert(to, copy);
    Some(format!("duplicate /{list}/{index} at {to}"))
}

fn swap_items(input: &mut Value, list: &str, chooser: &mut Chooser) -> Option<String> {
    let items = items_mut(input, list)?;
    (items.len() >= 2).then_some(())?;
    let a = chooser.below(items.len());
    let b = (a + 1 + chooser.below(items.len() - 1)) % items.len();
    (items[a] != items[b]).then_some(())?;
    items.swap(a, b);
    Some(format!("swap /{list}/{a} and /{list}/{b}"))
}

fn move_item(input: &mut Value, list: &str, chooser: &mut Chooser) -> Option<String> {
    let items = items_mut(input, list)?;
    (items.len() >= 2).then_some(())?;
    let from = chooser.below(items.len());
    let item = items.remove(from);
    let to = chooser.below(items.len() + 1);
    items.insert(to, item);
    (from != to).then_some(())?;
    Some(format!("move /{list}/{from} to {to}"))
}

fn window(input: &mut Value, list: &str, chooser: &mut Chooser) -> Option<String> {
    let items = items_mut(input, list)?;
    (items.len() >= 2).then_some(())?;
    // A window shorter than the list: keeping all of it would change nothing.
    let length = 1 + chooser.below((items.len() - 1).min(8));
    let start = chooser.below(items.len() - length + 1);
    let kept: Vec<Value> = items.drain(start..start + length).collect();
    *items = kept;
    Some(format!("keep /{list}/{start}..{}", start + length))
}

fn combine(input: &mut Value, context: &Context<'_>, chooser: &mut Chooser) -> Option<String> {
    let list = context.list?;
    let other = chooser.pick(&context.pool.seeds)?;
    let donor = other.input.get(list)?.as_array()?;
    (!donor.is_empty()).then_some(())?;
    let length = 1 + chooser.below(donor.len().min(4));
    let start = chooser.below(donor.len() - length + 1);
    let run = donor[start..start + length].to_vec();
    let items = items_mut(input, list)?;
    let at = chooser.below(items.len() + 1);
    items.splice(at..at, run);
    Some(format!("insert {} /{list}/{start}..{} at {at}", other.id, start + length))
}

fn corpus_value(input: &mut Value, context: &Context<'_>, chooser: &mut Chooser) -> Option<String> {
    let pool = &context.pool.values;
    let at = choose_node(input, &target(input, context.list, chooser), chooser, &|node| {
        !node.value.is_object()
            && !node.value.is_array()
            && node.key.is_some_and(|key| pool.get(key).is_some_and(|v| v.len() > 1))
    })?;
    let key = last_key(&at)?.to_owned();
    let value = chooser.pick(pool.get(&key)?)?.clone();
    let name = values::describe(&value);
    set(input, &at, value, &format!("to {name} (seen under `{key}`)"))
}

fn add_member(input: &mut Value, context: &Context<'_>, chooser: &mut Chooser) -> Option<String> {
    let at = choose_node(input, &target(input, context.list, chooser), chooser, &|node| node.value.is_object())?;
    let (key, value, name) = if chooser.chance(1, 2) {
        let key = (*chooser.pick(values::UNKNOWN_KEYS)?).to_owned();
        let (value, name) = values::boundary(chooser);
        (key, value, name)
    } else {
        // A member the corpus knows, with a value it was seen with.
        let key = chooser.pick(&context.pool.keys)?.clone();
        let value = match context.pool.values.get(&key).and_then(|v| chooser.pick(v)) {
            Some(value) => value.clone(),
            None => values::boundary(chooser).0,
        };
        let name = values::describe(&value);
        (key, value, name)
    };
    let object = get_mut(input, &at)?.as_object_mut()?;
    if object.contains_key(&key) {
        return None;
    }
    object.insert(key.clone(), value);
    Some(format!("add {} = {name}", crate::json::pointer::push(&pointer_of(&at), &key)))
}

fn swap_ids(input: &mut Value, context: &Context<'_>, chooser: &mut Chooser, share: bool) -> Option<String> {
    let profile = context.profile;
    let found =
        find_nodes(input, &[], &|node| node.value.is_string() && node.key.is_some_and(|key| profile.is_id_member(key)));
    (found.len() >= 2).then_some(())?;
    let a = chooser.below(found.len());
    let b = (a + 1 + chooser.below(found.len() - 1)) % found.len();
    let (first, second) = (found[a].clone(), found[b].clone());
    let first_value = get(input, &first)?.clone();
    let second_value = get(input, &second)?.clone();
    (first_value != second_value).then_some(())?;
    *get_mut(input, &second)? = first_value.clone();
    if share {
        return Some(format!(
            "share id {} from {} at {}",
            values::describe(&first_value),
            pointer_of(&first),
            pointer_of(&second)
        ));
    }
    *get_mut(input, &first)? = second_value;
    Some(format!("swap ids {} and {}", pointer_of(&first), pointer_of(&second)))
}

fn move_order(input: &mut Value, context: &Context<'_>, chooser: &mut Chooser) -> Option<String> {
    let profile = context.profile;
    let found = find_nodes(input, &[], &|node| {
        node.value.is_number() && node.key.is_some_and(|key| profile.is_order_member(key))
    });
    (found.len() >= 2).then_some(())?;
    let a = chooser.below(found.len());
    let b = (a + 1 + chooser.below(found.len() - 1)) % found.len();
    let (moved, across) = (found[a].clone(), found[b].clone());
    let other = get(input, &across)?.as_f64()?;
    let (value, relation) = match chooser.below(4) {
        0 => (other - 1.0, "just before"),
        1 => (other + 1.0, "just after"),
        _ => (other, "equal to"),
    };
    let value = values::number(value);
    let slot = get_mut(input, &moved)?;
    if *slot == value {
        return None;
    }
    *slot = value;
    Some(format!("move {} {relation} {}", pointer_of(&moved), pointer_of(&across)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pool() -> SeedPool {
        let suite = crate::suites::find("chat").unwrap_or_else(|| unreachable!());
        SeedPool::from_seeds(
            suite,
            vec![super::super::seeds::Seed {
                id: "chat/other".into(),
                version: 1,
                document: json!({}),
                input: json!({"messages": [{"id": "x1", "createdAt": 5}, {"id": "x2", "createdAt": 6}]}),
            }],
        )
    }

    #[test]
    fn every_mutation_changes_the_input_or_says_it_did_not_apply() {
        let pool = pool();
        let context = Context { pool: &pool, profile: MutationProfile::GENERIC, list: Some("messages") };
        let original = json!({"messages": [
            {"id": "m1", "createdAt": 1, "seq": 1, "content": {"type": "text", "flag": false, "n": 2}},
            {"id": "m2", "createdAt": 2, "seq": 2, "content": {"type": "tool", "flag": true, "text": "hé"}}
        ], "options": {"hasMoreMessages": false}});
        for mutation in GENERIC.iter().map(|(m, _)| *m) {
            let mut chooser = Chooser::new(11);
            let mut applied = 0;
            for _ in 0..50 {
                let mut input = original.clone();
                if let Some(what) = generic(mutation, &mut input, &context, &mut chooser) {
                    assert_ne!(input, original, "{mutation:?}: {what}");
                    applied += 1;
                } else {
                    assert_eq!(input, original, "{mutation:?} did nothing but changed the input");
                }
            }
            let optional = matches!(mutation, Generic::Word);
            assert!(applied > 0 || optional, "{mutation:?} never applied");
        }
    }

    #[test]
    fn ties_and_swaps_are_described_by_pointer() {
        let pool = pool();
        let context = Context { pool: &pool, profile: MutationProfile::GENERIC, list: Some("messages") };
        let mut chooser = Chooser::new(2);
        let mut input = json!({"messages": [{"id": "a", "createdAt": 1}, {"id": "b", "createdAt": 9}]});
        let what = swap_ids(&mut input, &context, &mut chooser, false).unwrap();
        assert!(what.starts_with("swap ids /messages/"), "{what}");
        let mut moved = false;
        for _ in 0..20 {
            let mut copy = json!({"messages": [{"id": "a", "createdAt": 1}, {"id": "b", "createdAt": 9}]});
            if let Some(what) = move_order(&mut copy, &context, &mut chooser)
                && what.contains("equal to")
            {
                let times: Vec<&Value> = copy["messages"].as_array().unwrap().iter().map(|m| &m["createdAt"]).collect();
                assert_eq!(times[0], times[1]);
                moved = true;
            }
        }
        assert!(moved);
    }
}
