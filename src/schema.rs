//! The suites' embedded JSON Schemas, compiled once per suite and schema:
//! whether a document fits, and its problems located by pointer, line and
//! column. Loading a fixture, the subprocess protocol, capture, reduce,
//! explore and upgrade all check documents through it; `validate` is the
//! command that checks a whole selection. And the wire schemas built from
//! them, which tell in-contract inputs from robustness ones.

use crate::error::FixtureError;
use crate::json::pointer::locate_nearest;
use crate::suite_api::{Contract, Suite};
use jsonschema::Validator;
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

/// Longest schema message kept in one line; longer ones (which quote large
/// instance values) are cut.
const MAX_MESSAGE_CHARS: usize = 200;

/// Compiles a schema text (draft 2020-12).
pub fn compile_schema(text: &str) -> Result<Validator, String> {
    let schema: Value = crate::json::parse_value(text).map_err(|err| format!("schema is not JSON: {err}"))?;
    jsonschema::draft202012::new(&schema).map_err(|err| format!("schema does not compile: {err}"))
}

/// Compiled validators by suite name and schema, each compiled once, on
/// first use (versions that share a document shape share it): the map's
/// lock is held only to find a validator's cell, so workers that need
/// another schema's validator do not wait for a compile.
type ValidatorCache = Mutex<HashMap<(&'static str, usize), Arc<OnceLock<Result<Arc<Validator>, String>>>>>;

fn validator_for(suite: &dyn Suite, version: u32) -> Result<Arc<Validator>, String> {
    static CACHE: OnceLock<ValidatorCache> = OnceLock::new();
    let schema = suite.schema_for(version).ok_or_else(|| format!("it has no schema for fixtureVersion {version}"))?;
    let cache = CACHE.get_or_init(Default::default);
    let cell = {
        // A poisoned lock only means another thread panicked while inserting;
        // the map itself is still usable.
        let mut map = cache.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        // The schema texts are embedded (`&'static`): their address names them.
        Arc::clone(map.entry((suite.name(), schema.as_ptr() as usize)).or_default())
    };
    cell.get_or_init(|| compile_schema(schema).map(Arc::new)).clone()
}

/// Compiled wire schemas (see [`crate::suite_api::wire`]) by suite name and
/// version, each built and compiled once, on first use; `None` when the
/// suite states no wire contract.
type WireCache = Mutex<HashMap<(&'static str, u32), Arc<OnceLock<Result<Option<Arc<Validator>>, String>>>>>;

fn wire_validator_for(suite: &dyn Suite, version: u32) -> Result<Option<Arc<Validator>>, String> {
    static CACHE: OnceLock<WireCache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let cell = {
        let mut map = cache.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        Arc::clone(map.entry((suite.name(), version)).or_default())
    };
    cell.get_or_init(|| {
        let Some(wire) = suite.wire_schema() else { return Ok(None) };
        let document =
            suite.schema_for(version).ok_or_else(|| format!("it has no schema for fixtureVersion {version}"))?;
        let schema = wire.build(document)?;
        jsonschema::draft202012::new(&schema)
            .map(|validator| Some(Arc::new(validator)))
            .map_err(|err| format!("the wire schema does not compile: {err}"))
    })
    .clone()
}

/// Whether `input` is one a real hub can send: valid against `suite`'s wire
/// schema for `version` ([`Contract::InContract`]) or not
/// ([`Contract::Robustness`]). A suite that states no wire contract, or whose
/// wire schema cannot be built (a test checks every bundled one builds),
/// counts every input in contract.
pub fn input_contract(suite: &dyn Suite, version: u32, input: &Value) -> Contract {
    match wire_validator_for(suite, version) {
        Ok(Some(validator)) if !validator.is_valid(input) => Contract::Robustness,
        _ => Contract::InContract,
    }
}

/// Why `suite`'s wire schema for `version` cannot be built or compiled, if it
/// cannot.
pub fn wire_schema_problem(suite: &dyn Suite, version: u32) -> Option<String> {
    wire_validator_for(suite, version).err()
}

/// Compiles the schema of `suite`'s documents of `version` now, unless it
/// is compiled already (or being compiled on another thread), so that a
/// later validation does not wait for it. A broken schema is reported by
/// the validation that needs it.
pub fn prepare_schema(suite: &dyn Suite, version: u32) {
    let _ = validator_for(suite, version);
}

/// Whether a document is valid against its suite's schema for `version` (a
/// suite without a schema for it makes nothing valid).
pub fn is_schema_valid(suite: &dyn Suite, version: u32, document: &Value) -> bool {
    validator_for(suite, version).is_ok_and(|validator| validator.is_valid(document))
}

/// Validates a document against its suite's schema for `version`; one error
/// per problem, each with the JSON pointer and the line and column in `text`.
pub fn schema_errors(suite: &dyn Suite, version: u32, document: &Value, text: &str, path: &Path) -> Vec<FixtureError> {
    let validator = match validator_for(suite, version) {
        Ok(validator) => validator,
        Err(message) => {
            return vec![FixtureError::Shape {
                path: path.to_path_buf(),
                message: format!("the `{}` suite's schema is broken: {message}", suite.name()),
            }];
        }
    };
    if validator.is_valid(document) {
        return Vec::new();
    }
    let mut errors: Vec<FixtureError> = validator
        .iter_errors(document)
        .map(|error| {
            let pointer = error.instance_path().to_string();
            let (line, column) = locate_nearest(text, &pointer).unwrap_or((1, 1));
            FixtureError::Schema {
                path: path.to_path_buf(),
                pointer,
                line,
                column,
                message: one_line(&error.to_string()),
            }
        })
        .collect();
    errors.dedup();
    errors
}

fn one_line(message: &str) -> String {
    let flat: String = message.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= MAX_MESSAGE_CHARS {
        return flat;
    }
    let cut: String = flat.chars().take(MAX_MESSAGE_CHARS).collect();
    format!("{cut}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every suite's wire schema builds and compiles for every version it
    /// reads, and it agrees with the bundled fixtures: an input is outside
    /// it exactly when its document is marked as a robustness case (the
    /// only documents whose schema admits inputs no hub sends).
    #[test]
    fn wire_schemas_compile_and_tell_the_robustness_fixtures_apart() {
        for suite in crate::suites::all() {
            for version in suite.readable_versions() {
                assert_eq!(wire_schema_problem(*suite, version), None, "{} v{version}", suite.name());
            }
        }
        let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        let corpus = crate::fixture::load_corpus(&[root], &Default::default()).unwrap_or_else(|err| panic!("{err}"));
        let mut robustness = 0;
        for fixture in &corpus.fixtures {
            let (Some(parts), Some(document)) = (fixture.parts(), &fixture.document) else { continue };
            let marked = document.get("robustness") == Some(&Value::Bool(true));
            robustness += usize::from(marked);
            let contract = input_contract(fixture.suite, fixture.version.unwrap_or(1), &parts.input);
            let wanted = if marked { Contract::Robustness } else { Contract::InContract };
            assert_eq!(contract, wanted, "{}", fixture.id);
        }
        assert!(robustness >= 3, "the bundled robustness fixtures are found ({robustness})");
    }
}
