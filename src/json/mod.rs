//! JSON as the HAPI fixtures define it: JavaScript numbers, strings and key
//! order, the canonical fixture text, and positions for error messages.

mod canonical;
mod jsstring;
mod lines;
mod order;
mod parse;
pub mod pointer;
mod scan;
mod sized;
mod write;

pub use canonical::{canonical, canonicalize, is_canonical};
pub use jsstring::{JsChar, MARK, from_utf16, js_chars, to_utf16, utf16_len};
pub use lines::{JsonLine, parse_json_lines};
pub use order::{KeyOrder, array_index, cmp_canonical_keys, cmp_utf16, ordered_keys};
pub use parse::{
    JsonError, JsonErrorKind, MAX_DEPTH, OUT_OF_RANGE, ParsedDocument, line_column, parse_bounded, parse_document,
    parse_js_string, parse_member, parse_value,
};
pub use scan::{DEFAULT_MAX_VALUES, max_values, set_max_values};
pub use write::{
    Style, format_js_number, to_canonical_string, to_compact_string, write_number, write_string, write_value,
    write_value_prefix,
};
