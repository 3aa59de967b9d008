//! Paths into a JSON value: choosing a node at random, reading and writing
//! it, and naming it as a JSON pointer in the mutation path.

use crate::json::pointer;
use crate::suite::Chooser;
use serde_json::Value;

/// Most nodes looked at when choosing one at random below a node: an item
/// with a huge embedded tool output must not make one mutation slow.
const MAX_NODES_SEEN: usize = 4096;

pub use crate::suite::mutate::Step;

/// A path from the input's root.
pub type Path = Vec<Step>;

/// The path as a JSON pointer (`/messages/3/content`).
pub fn pointer_of(path: &[Step]) -> String {
    path.iter().fold(String::new(), |at, step| match step {
        Step::Key(key) => pointer::push(&at, key),
        Step::Index(index) => pointer::push_index(&at, *index),
    })
}

pub use crate::suite::mutate::{node_at as get, node_at_mut as get_mut};

/// The key of the last step, when it is an object member.
pub fn last_key(path: &[Step]) -> Option<&str> {
    match path.last() {
        Some(Step::Key(key)) => Some(key),
        _ => None,
    }
}

/// A node below (or at) `start` chosen uniformly among the first
/// [`MAX_NODES_SEEN`] in document order that `accept` takes, with its path.
pub fn choose_node(
    root: &Value,
    start: &[Step],
    chooser: &mut Chooser,
    accept: &dyn Fn(&[Step], &Value) -> bool,
) -> Option<Path> {
    let node = get(root, start)?;
    let mut chosen: Option<Path> = None;
    let mut seen = 0usize;
    let mut path = start.to_vec();
    // Reservoir sampling over an explicit stack: no recursion, any depth.
    let mut stack: Vec<(usize, &Value, Option<Step>)> = vec![(path.len(), node, None)];
    while let Some((depth, value, step)) = stack.pop() {
        path.truncate(depth);
        if let Some(step) = step {
            path.push(step);
        }
        if accept(&path, value) {
            seen += 1;
            if chooser.below(seen) == 0 {
                chosen = Some(path.clone());
            }
        }
        if seen >= MAX_NODES_SEEN {
            break;
        }
        let below = path.len();
        match value {
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate().rev() {
                    stack.push((below, item, Some(Step::Index(index))));
                }
            }
            Value::Object(members) => {
                for (key, member) in members.iter().rev() {
                    stack.push((below, member, Some(Step::Key(key.clone()))));
                }
            }
            _ => {}
        }
    }
    chosen
}

/// Every node below `start` (up to [`MAX_NODES_SEEN`]) that `accept` takes.
pub fn find_nodes(root: &Value, start: &[Step], accept: &dyn Fn(&[Step], &Value) -> bool) -> Vec<Path> {
    let Some(node) = get(root, start) else { return Vec::new() };
    let mut found = Vec::new();
    let mut path = start.to_vec();
    let mut visited = 0usize;
    let mut stack: Vec<(usize, &Value, Option<Step>)> = vec![(path.len(), node, None)];
    while let Some((depth, value, step)) = stack.pop() {
        path.truncate(depth);
        if let Some(step) = step {
            path.push(step);
        }
        visited += 1;
        if accept(&path, value) {
            found.push(path.clone());
        }
        if visited >= MAX_NODES_SEEN {
            break;
        }
        let below = path.len();
        match value {
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate().rev() {
                    stack.push((below, item, Some(Step::Index(index))));
                }
            }
            Value::Object(members) => {
                for (key, member) in members.iter().rev() {
                    stack.push((below, member, Some(Step::Key(key.clone()))));
                }
            }
            _ => {}
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_read_write_and_name_nodes() {
        let mut value = json!({"messages": [{"id": "a", "c/d": [1, 2]}]});
        let path = vec![Step::Key("messages".into()), Step::Index(0), Step::Key("c/d".into()), Step::Index(1)];
        assert_eq!(pointer_of(&path), "/messages/0/c~1d/1");
        assert_eq!(get(&value, &path), Some(&json!(2)));
        *get_mut(&mut value, &path).unwrap() = json!("x");
        assert_eq!(value["messages"][0]["c/d"], json!([1, "x"]));
        assert_eq!(last_key(&path[..3]), Some("c/d"));
    }

    #[test]
    fn every_accepted_node_can_be_chosen_and_only_those() {
        let value = json!({"a": [1, {"b": 2}], "c": "s"});
        let numbers = |_: &[Step], v: &Value| v.is_number();
        let mut seen = std::collections::BTreeSet::new();
        let mut chooser = Chooser::new(3);
        for _ in 0..200 {
            let path = choose_node(&value, &[], &mut chooser, &numbers).unwrap();
            seen.insert(pointer_of(&path));
        }
        assert_eq!(seen.into_iter().collect::<Vec<_>>(), ["/a/0", "/a/1/b"]);
        assert_eq!(find_nodes(&value, &[], &numbers).len(), 2);
        assert!(choose_node(&value, &[], &mut chooser, &|_, v| v.is_null()).is_none());
    }
}
