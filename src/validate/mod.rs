//! The check of a whole selection of fixture documents that `conform
//! validate` prints: each loaded (parsed, named, versioned and checked
//! against its suite's schema, see [`crate::schema`]) and its problems
//! counted.

mod fixtures;

pub use fixtures::{Validation, validate_fixtures};
