//! What `conform capture chat` reads: HAPI message pages and dumps
//! ([`hapi_messages`]), and how a long session is cut into windows
//! ([`window`]).

pub mod hapi_messages;
pub mod window;
