//! External implementations over the subprocess protocol: check-adapter, faults of misbehaving programs, the example adapter kits (Python, Node, JVM) judged like the reference and answering every line.
//!
//! One test crate (one link step) holding one module per topic.

#[path = "../common/mod.rs"]
mod common;

mod adapter_kits;
mod jvm_kit;
mod stderr_attribution;
mod subprocess_check;
mod subprocess_faults;
mod subprocess_reference;

fn main() {
    common::harness::run(&[
        adapter_kits::trials,
        jvm_kit::trials,
        stderr_attribution::trials,
        subprocess_check::trials,
        subprocess_faults::trials,
        subprocess_reference::trials,
    ]);
}
