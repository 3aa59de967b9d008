//! The references as functions: property tests, invariants, malformed inputs, protocol inventories and JavaScript semantics.
//!
//! One test crate (one link step) holding one module per topic.

#[path = "../common/mod.rs"]
mod common;

mod agent_events_inventory;
mod agent_events_properties;
mod catalogs_schema;
mod chat_invariants;
mod chat_properties;
mod claude_display_flags;
mod claude_display_inventory;
mod claude_display_props;
mod event_fold_invariants;
mod js_semantics;
mod pagination_malformed;
mod pagination_properties;
mod runtime_session_properties;
mod sse_malformed;
mod sse_properties;
