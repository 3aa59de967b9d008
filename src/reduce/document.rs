//! The reduced case as a fixture document, ready to be validated and
//! written for review.

use super::shrink::Reduction;
use crate::suite_api::Suite;
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
    let document = suite
        .with_input(&Value::Object(document), &reduction.input)
        .map_err(|message| format!("cases of suite {} cannot be reduced {message}", suite.name()))?;
    suite.with_expected(&document, &reduction.expected)
}
