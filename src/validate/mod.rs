//! Validation of fixture documents: JSON Schema checks against each suite's
//! embedded schema, with every problem located by pointer, line and column;
//! and the check of a whole selection that `conform validate` prints.

mod fixtures;
mod schema;

pub use fixtures::{Validation, validate_fixtures};
pub use schema::{compile_schema, is_schema_valid, prepare_schema, schema_errors};
