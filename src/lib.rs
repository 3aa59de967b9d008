//! conform: a golden-fixture conformance harness for agent-chat decoders.
#![warn(missing_docs)]

pub mod json;
pub mod reference;
pub mod suite;
