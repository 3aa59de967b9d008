//! Validation of fixture documents: JSON Schema checks against each suite's
//! embedded schema, with every problem located by pointer, line and column.

mod schema;

pub use schema::{compile_schema, is_schema_valid, prepare_schema, schema_errors};
