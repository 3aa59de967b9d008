//! The wire contract of a suite: which inputs a real hub can send.
//!
//! An input valid against the suite's *wire schema* is **in contract**; one
//! outside it is a **robustness** input (what a decoder makes of input no
//! hub sends: a row that is not an object, a `createdAt` that is a string).
//! `conform explore` labels every input and cluster by it and orders
//! in-contract clusters first; `conform run` labels the fixtures whose input
//! is outside it.
//!
//! A suite says where its wire schema sits in the schema of its documents
//! ([`Suite::wire_schema`](super::Suite::wire_schema)): the schema of the
//! input part of a document that is not marked as a robustness case. The
//! schema is built from the document schema here and compiled once per
//! suite and version by [`crate::schema`].

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Whether an input is one a real hub can send.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Contract {
    /// Valid against the suite's wire schema. Ordered first.
    #[default]
    InContract,
    /// Outside it: a robustness input.
    Robustness,
}

impl Contract {
    /// `in contract` or `robustness`, as reports print it.
    pub fn label(self) -> &'static str {
        match self {
            Contract::InContract => "in contract",
            Contract::Robustness => "robustness",
        }
    }

    /// Whether this is [`Contract::Robustness`].
    pub fn is_robustness(self) -> bool {
        self == Contract::Robustness
    }

    /// Whether this is [`Contract::InContract`] (reports leave the member
    /// out then).
    pub fn is_in_contract(&self) -> bool {
        *self == Contract::InContract
    }
}

impl std::fmt::Display for Contract {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

/// Which part of the input, in the document schema.
#[derive(Clone, Copy, Debug)]
pub enum WirePart {
    /// The schema of this top-level document member (the input of a
    /// [`Layout::Wrapped`](super::Layout::Wrapped) suite).
    Member(&'static str),
    /// The subschema at this JSON pointer of the document schema (for
    /// example `/properties/input`, or `/$defs/input` when the document
    /// chooses between a strict and a robustness input).
    At(&'static str),
    /// An object made of these top-level document members (the input of a
    /// [`Layout::Keys`](super::Layout::Keys) suite or of one whose input is
    /// several members), each as the document schema states it under
    /// `/properties/<member>`.
    Members {
        /// Members the input must have.
        required: &'static [&'static str],
        /// Members it may have.
        optional: &'static [&'static str],
    },
}

/// Where a suite's wire schema sits in its document schema.
#[derive(Clone, Copy, Debug)]
pub struct WireSchema {
    /// The part of the document schema that states the input.
    pub part: WirePart,
    /// Members with this prefix are expectations that documents interleave
    /// with the input (pagination's `expectedRequests` inside an op): an
    /// input never carries them, so the wire schema requires none.
    pub expectations_prefix: Option<&'static str>,
}

impl WireSchema {
    /// The subschema at `pointer`, no interleaved expectations.
    pub const fn at(pointer: &'static str) -> WireSchema {
        WireSchema { part: WirePart::At(pointer), expectations_prefix: None }
    }

    /// Builds the wire schema (draft 2020-12) from the document schema's
    /// text: the part it names, with the document's `$defs` (every `$ref`
    /// of the bundled schemas points into `#/$defs`).
    pub fn build(&self, document_schema: &str) -> Result<Value, String> {
        let document: Value =
            crate::json::parse_value(document_schema).map_err(|err| format!("schema is not JSON: {err}"))?;
        let mut schema = match self.part {
            WirePart::Member(member) => {
                let pointer = crate::json::pointer::push("/properties", member);
                document
                    .pointer(&pointer)
                    .cloned()
                    .ok_or_else(|| format!("the document schema has nothing at {pointer}"))?
            }
            WirePart::At(pointer) => document
                .pointer(pointer)
                .cloned()
                .ok_or_else(|| format!("the document schema has nothing at {pointer}"))?,
            WirePart::Members { required, optional } => {
                let mut properties = Map::new();
                for member in required.iter().chain(optional) {
                    let pointer = crate::json::pointer::push("/properties", member);
                    let part = document
                        .pointer(&pointer)
                        .cloned()
                        .ok_or_else(|| format!("the document schema has nothing at {pointer}"))?;
                    properties.insert((*member).to_owned(), part);
                }
                let mut object = Map::new();
                object.insert("type".to_owned(), Value::from("object"));
                object.insert("required".to_owned(), required.iter().map(|m| Value::from(*m)).collect());
                object.insert("additionalProperties".to_owned(), Value::Bool(false));
                object.insert("properties".to_owned(), Value::Object(properties));
                Value::Object(object)
            }
        };
        if let Some(object) = schema.as_object_mut() {
            object.shift_remove("$id");
            object.insert("$schema".to_owned(), Value::from("https://json-schema.org/draft/2020-12/schema"));
            if let Some(defs) = document.get("$defs") {
                object.insert("$defs".to_owned(), defs.clone());
            }
        }
        if let Some(prefix) = self.expectations_prefix {
            drop_required(&mut schema, prefix);
        }
        Ok(schema)
    }
}

/// Removes every name starting with `prefix` from every `required` list of
/// `schema` (subschemas and `$defs` included).
fn drop_required(schema: &mut Value, prefix: &str) {
    let mut stack = vec![schema];
    while let Some(node) = stack.pop() {
        match node {
            Value::Object(members) => {
                for (key, member) in members.iter_mut() {
                    if key == "required"
                        && let Value::Array(names) = member
                    {
                        names.retain(|name| !name.as_str().is_some_and(|name| name.starts_with(prefix)));
                    } else {
                        stack.push(member);
                    }
                }
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const DOCUMENT: &str = r##"{
        "$id": "https://example.invalid/doc.json",
        "type": "object",
        "properties": {
            "input": {"type": "object", "required": ["items"], "properties": {"items": {"$ref": "#/$defs/item"}}},
            "ops": {"type": "array", "items": {"type": "object", "required": ["op", "expectedOut"]}},
            "name": {"type": "string"}
        },
        "$defs": {"item": {"type": "array", "items": {"type": "integer"}}}
    }"##;

    #[test]
    fn a_part_keeps_the_definitions_it_refers_to() {
        let schema = WireSchema::at("/properties/input").build(DOCUMENT).unwrap_or_else(|e| panic!("{e}"));
        let member = WireSchema { part: WirePart::Member("input"), expectations_prefix: None };
        assert_eq!(member.build(DOCUMENT).ok(), Some(schema.clone()));
        assert_eq!(schema["required"], json!(["items"]));
        assert_eq!(schema["$defs"]["item"]["items"], json!({"type": "integer"}));
        assert!(schema.get("$id").is_none());
        assert!(WireSchema::at("/properties/nothing").build(DOCUMENT).is_err());
    }

    #[test]
    fn members_make_an_object_and_interleaved_expectations_are_not_required() {
        let wire = WireSchema {
            part: WirePart::Members { required: &["ops"], optional: &["name"] },
            expectations_prefix: Some("expected"),
        };
        let schema = wire.build(DOCUMENT).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(schema["required"], json!(["ops"]));
        assert_eq!(schema["additionalProperties"], json!(false));
        assert_eq!(schema["properties"]["ops"]["items"]["required"], json!(["op"]));
        assert_eq!(schema["properties"]["name"], json!({"type": "string"}));
    }
}
