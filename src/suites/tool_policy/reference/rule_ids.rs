//! Rule ids of the `tool-policy` reference: the stable names it reports to a
//! [`crate::suite_api::RuleTrace`] when a rule decides part of the output.
//!
//! `conform coverage` lists the ones no fixture reaches; `tests/cli/rule_lists.rs`
//! checks that every id the sources use is listed here and that every listed
//! id is used.

/// Every rule id the `tool-policy` reference can report, sorted.
pub const RULES: &[&str] = &[
    "policy.allowed-shell",
    "policy.allowed-write",
    "policy.implementation.allowed-shell",
    "policy.implementation.denied",
    "policy.implementation.tool-allowed",
    "policy.mode.default-planner",
    "policy.not-in-allowlist",
    "policy.planner.deny-anywhere",
    "policy.planner.denied",
    "policy.planner.read-tool-allowed",
    "policy.planner.write-tool-denied",
];
