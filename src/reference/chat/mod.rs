//! The `chat` suite's reference: the HAPI chat pipeline, normalize → reduce
//! → group → project (see the "Chat suite" section of the README).

mod js;
mod model;
mod normalize;
mod review_json;
mod stringify;
mod timestamp;

pub use model::*;
pub use normalize::{normalize_message, renders};
