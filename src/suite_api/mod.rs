//! The suite contract: what the harness and its tools need to know about a
//! kind of fixture.
//!
//! A [`Suite`] knows the shape of its documents (how a document splits into
//! the input an implementation receives and the expected part it must
//! produce, and how one is assembled again), the JSON Schema documents must
//! satisfy, the fixtureVersions it can judge, its reference implementation,
//! the rule ids that reference traces ([`trace`]), the item list a reducer
//! walks, the capture formats it reads ([`capture`]) and what `conform
//! explore` may mutate in its inputs ([`mutate`]) and which inputs a real hub
//! can send ([`wire`]).
//!
//! The suites themselves live in [`crate::suites`], one folder each; the
//! tools (capture, reduce, regen, coverage) ask a suite through this
//! contract and never name one.

pub mod capture;
mod interface;
mod layout;
pub mod mutate;
pub mod provenance;
mod reference_fn;
pub mod trace;
pub mod wire;

pub use interface::{DocumentShape, PointerContext, Suite};
pub use layout::{CaseParts, Layout, has_envelope};
pub(crate) use layout::{split_by_layout, split_by_layout_owned};
pub use mutate::{Chooser, MutateFn, MutationProfile, SuiteMutator};
pub use provenance::{Provenance, ProvenanceTrace, reference_with_provenance};
pub use reference_fn::{ReferenceFailure, ReferenceFn, call_reference};
pub use trace::{NoTrace, PortabilityNotes, RuleSet, RuleTrace, Scope, introduced_in};
pub use wire::{Contract, WirePart, WireSchema};
