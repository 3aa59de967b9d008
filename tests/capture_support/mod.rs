//! Test data shared by the capture, redaction and reduce tests.

pub mod planted;
pub mod session;
