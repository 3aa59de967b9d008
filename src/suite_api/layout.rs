//! How a suite's documents split into the input part an implementation
//! receives and the expected part it must produce, and how a recomputed
//! expected part goes back into a document.

use serde_json::{Map, Value};

/// How a suite's documents split into input and expected parts.
#[derive(Clone, Copy, Debug)]
pub enum Layout {
    /// `{fixtureVersion, name, description, <input>: {…}, <expected>: {…}}`:
    /// the value of one key goes in, the value of another comes out.
    Wrapped {
        /// Key whose value is the input (usually `"input"`).
        input: &'static str,
        /// Key whose value is the expected output (usually `"expected"`).
        expected: &'static str,
    },
    /// `{fixtureVersion, name, description, <input keys…>, <expected keys…>}`:
    /// the input is the object of the input keys, the expected part the object
    /// of the expected keys (for example `sse`).
    Keys {
        /// Top-level keys that make up the input object.
        input: &'static [&'static str],
        /// Top-level keys that make up the expected object.
        expected: &'static [&'static str],
    },
    /// A bare reference table with no envelope (for example `catalogs`): the
    /// name is the file stem, the version comes from the tree's `VERSION`
    /// file, the input is `{}` and the whole document is expected.
    Table,
    /// The suite overrides [`Suite::split`](super::Suite::split) and
    /// [`Suite::with_expected`](super::Suite::with_expected).
    Custom,
}

/// A fixture document split into what goes in and what must come out.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseParts {
    /// What the implementation receives.
    pub input: Value,
    /// What it must produce (compared canonically).
    pub expected: Value,
}

/// Whether documents of this layout carry `fixtureVersion`, `name` and
/// `description`.
pub fn has_envelope(layout: Layout) -> bool {
    !matches!(layout, Layout::Table)
}

/// Splits a document by its suite's layout (see [`Layout`]).
pub(crate) fn split_by_layout(layout: Layout, document: &Value) -> Result<CaseParts, String> {
    let object = document.as_object().ok_or("the document is not a JSON object")?;
    match layout {
        Layout::Wrapped { input, expected } => {
            Ok(CaseParts { input: member(object, input)?.clone(), expected: member(object, expected)?.clone() })
        }
        Layout::Keys { input, expected } => Ok(CaseParts {
            input: Value::Object(pick(object, input)?),
            expected: Value::Object(pick(object, expected)?),
        }),
        Layout::Table => Ok(CaseParts { input: Value::Object(Map::new()), expected: document.clone() }),
        Layout::Custom => Err("this suite must override Suite::split".to_owned()),
    }
}

/// [`split_by_layout`] of a document the caller gives up: the parts are
/// moved out of it, not copied.
pub(crate) fn split_by_layout_owned(layout: Layout, document: Value) -> Result<CaseParts, String> {
    let Value::Object(mut object) = document else { return Err("the document is not a JSON object".to_owned()) };
    let mut take =
        |key: &str| object.get_mut(key).map(Value::take).ok_or_else(|| format!("the document has no `{key}` member"));
    match layout {
        Layout::Wrapped { input, expected } => Ok(CaseParts { input: take(input)?, expected: take(expected)? }),
        Layout::Keys { input, expected } => {
            let mut part = |keys: &[&str]| -> Result<Map<String, Value>, String> {
                keys.iter().map(|key| Ok(((*key).to_owned(), take(key)?))).collect()
            };
            let input = part(input)?;
            Ok(CaseParts { input: Value::Object(input), expected: Value::Object(part(expected)?) })
        }
        Layout::Table => Ok(CaseParts { input: Value::Object(Map::new()), expected: Value::Object(object) }),
        Layout::Custom => Err("this suite must override Suite::split".to_owned()),
    }
}

/// Puts `input` into a document by its suite's layout (see [`Layout`]):
/// the inverse of the input side of [`split_by_layout`].
pub(crate) fn with_input_by_layout(layout: Layout, document: &Value, input: &Value) -> Result<Value, String> {
    let mut object = document.as_object().ok_or("the document is not a JSON object")?.clone();
    match layout {
        Layout::Wrapped { input: key, .. } => {
            object.insert(key.to_owned(), input.clone());
        }
        Layout::Keys { input: keys, .. } => {
            for key in keys {
                let part = input.get(*key).ok_or_else(|| format!("the input has no `{key}` member"))?;
                object.insert((*key).to_owned(), part.clone());
            }
        }
        Layout::Table | Layout::Custom => return Err("(no input/expected envelope)".to_owned()),
    }
    Ok(Value::Object(object))
}

/// Where the expected part sits in documents of this layout, as a JSON
/// pointer (empty when it is spread over the top level).
pub(crate) fn expected_pointer_by_layout(layout: Layout) -> String {
    match layout {
        Layout::Wrapped { expected, .. } => crate::json::pointer::push("", expected),
        Layout::Keys { .. } | Layout::Table | Layout::Custom => String::new(),
    }
}

/// Puts `expected` into a document by its suite's layout (see [`Layout`]).
pub(crate) fn with_expected_by_layout(layout: Layout, document: &Value, expected: &Value) -> Result<Value, String> {
    let mut object = document.as_object().ok_or("the document is not a JSON object")?.clone();
    match layout {
        Layout::Wrapped { expected: key, .. } => {
            object.insert(key.to_owned(), expected.clone());
        }
        Layout::Keys { expected: keys, .. } => {
            let parts = expected.as_object().ok_or("the expected part is not a JSON object")?;
            for key in keys {
                object.insert((*key).to_owned(), member(parts, key)?.clone());
            }
        }
        Layout::Table => return Ok(expected.clone()),
        Layout::Custom => return Err("this suite must override Suite::with_expected".to_owned()),
    }
    Ok(Value::Object(object))
}

fn member<'a>(object: &'a Map<String, Value>, key: &str) -> Result<&'a Value, String> {
    object.get(key).ok_or_else(|| format!("the document has no `{key}` member"))
}

fn pick(object: &Map<String, Value>, keys: &[&str]) -> Result<Map<String, Value>, String> {
    keys.iter().map(|key| Ok(((*key).to_owned(), member(object, key)?.clone()))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_layout_splits_and_puts_expectations_back() {
        let layout = Layout::Keys { input: &["a"], expected: &["x", "y"] };
        let document = json!({"name": "n", "a": [1], "x": 1, "y": {"z": 2}});
        let parts = split_by_layout(layout, &document).unwrap();
        assert_eq!(parts.input, json!({"a": [1]}));
        assert_eq!(parts.expected, json!({"x": 1, "y": {"z": 2}}));
        let updated = with_expected_by_layout(layout, &document, &json!({"x": 5, "y": null})).unwrap();
        assert_eq!(updated, json!({"name": "n", "a": [1], "x": 5, "y": null}));
        assert!(split_by_layout(layout, &json!({"a": 1})).unwrap_err().contains("`x`"));
    }

    #[test]
    fn wrapped_and_table_layouts() {
        let wrapped = Layout::Wrapped { input: "input", expected: "expected" };
        let document = json!({"input": {"m": 1}, "expected": {"b": 2}});
        assert_eq!(split_by_layout(wrapped, &document).unwrap().expected, json!({"b": 2}));
        let table = json!({"modes": []});
        let parts = split_by_layout(Layout::Table, &table).unwrap();
        assert_eq!((parts.input, parts.expected), (json!({}), table.clone()));
        assert_eq!(with_expected_by_layout(Layout::Table, &table, &json!({"m": 1})).unwrap(), json!({"m": 1}));
    }
}
