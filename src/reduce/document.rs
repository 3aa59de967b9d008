//! The reduced case as a fixture document, ready to be validated and
//! written for review.

use super::shrink::Reduction;
use crate::suite::{Layout, Suite};
use serde_json::Value;

/// The reduced fixture document: `original` with the reduced input, the
/// reduction's expectation, and a new name and description.
pub fn reduced_document(
    suite: &dyn Suite,
    original: &Value,
    name: &str,
    description: &str,
    reduction: &Reduction,
) -> Result<Value, String> {
    let mut document = original.as_object().cloned().ok_or("the fixture document is not an object")?;
    document.insert("name".to_owned(), Value::from(name));
    document.insert("description".to_owned(), Value::from(description));
    match suite.layout() {
        Layout::Wrapped { input, .. } => {
            document.insert(input.to_owned(), reduction.input.clone());
        }
        Layout::Keys { input: keys, .. } => {
            for key in keys {
                let part = reduction.input.get(*key).ok_or_else(|| format!("the reduced input has no `{key}`"))?;
                document.insert((*key).to_owned(), part.clone());
            }
        }
        Layout::Table | Layout::Custom => {
            return Err(format!("cases of suite {} cannot be reduced (no input/expected envelope)", suite.name()));
        }
    }
    suite.with_expected(&Value::Object(document), &reduction.expected)
}
