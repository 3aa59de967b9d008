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

fn main() {
    common::harness::run(&[
        agent_events_inventory::trials,
        agent_events_properties::trials,
        catalogs_schema::trials,
        chat_invariants::trials,
        chat_properties::trials,
        claude_display_flags::trials,
        claude_display_inventory::trials,
        claude_display_props::trials,
        event_fold_invariants::trials,
        js_semantics::trials,
        pagination_malformed::trials,
        pagination_properties::trials,
        runtime_session_properties::trials,
        sse_malformed::trials,
        sse_properties::trials,
    ]);
}
