//! Scrubbing secrets and personal data out of captured documents before they
//! are written, and a lint pass that refuses to write if anything remains.
//!
//! A [`Redactor`] lives for one capture: every secret it replaces gets a
//! placeholder `REDACTED_<LABEL>_<n>`, and the same secret gets the same
//! placeholder everywhere in that capture, so structure (which tool call used
//! which key, which paths belong to the same user) survives. Strings are
//! searched as they are and through up to three levels of JSON escapes (see
//! [`escapes`]), so a key inside a serialized object inside a tool result is
//! found and replaced in place without re-serializing its surroundings.
//!
//! The rules are one table ([`rules::BUILTIN_RULES`]) plus the user's
//! `--redact-rule` patterns; objects members with secret names
//! ([`rules::is_secret_member`]) are replaced whatever their value looks like.
//! [`Redactor::lint`] re-scans a finished document with the same rules and
//! reports anything secret-looking that is not a placeholder.
//!
//! Personal data that is not a secret (phone numbers, IP addresses, card
//! numbers: the rules marked [`rules::RuleSpec::personal_data`]) is replaced
//! too, unless [`RedactOptions::keep_personal_data`] asks to keep it; the
//! lint then leaves it alone as well.

pub mod escapes;
mod hits;
mod lint;
mod names;
pub mod personal;
mod placeholders;
pub mod printed;
pub mod role_addresses;
pub mod rules;
pub mod screen;
mod scrubber;
pub mod search;
pub mod wrapped;

pub use lint::{Finding, Linter};
pub use placeholders::{NewSecret, Replacements, contains_placeholder};
pub use scrubber::{RedactionSummary, Redactor};

use thiserror::Error;

/// Id under which replacements by member name are counted and reported.
pub const SECRET_MEMBER_RULE: &str = "secret-member";

/// Id under which bare occurrences of learned user names are counted.
pub const KNOWN_USER_NAME_RULE: &str = "known-user-name";

/// Why a redactor could not be built.
#[derive(Debug, Error)]
pub enum RedactError {
    /// A `--redact-rule` pattern is not a valid regular expression.
    #[error("--redact-rule {pattern:?} is not a valid regular expression: {message}")]
    BadUserRule {
        /// The pattern as given.
        pattern: String,
        /// The regex compiler's message.
        message: String,
    },
    /// A built-in pattern failed to compile (a bug in the rules table).
    #[error("built-in redaction rule does not compile: {0}")]
    BadBuiltinRule(String),
}

/// What a redactor replaces besides the built-in secret rules.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RedactOptions {
    /// The user's `--redact-rule` patterns, which come before the built-in
    /// rules.
    pub user_rules: Vec<String>,
    /// Keep phone numbers, IP addresses and card numbers
    /// (`--keep-personal-data`).
    pub keep_personal_data: bool,
}
