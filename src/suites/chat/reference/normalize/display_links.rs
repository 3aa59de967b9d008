//! Codex `display-links` payloads (fixtureVersion 2, v2.md D1–D6): links and
//! texts an agent offers for display, each list capped and each element
//! validated on its own.
//!
//! An href is shown only when it is an absolute `http`/`https` URL by two
//! tests that must both pass: the scheme found after percent-decoding the
//! text up to twice (so an encoded `javascript:` cannot slip through), and
//! the WHATWG URL parser (the `url` crate, the parser behind the ECMAScript
//! `URL` constructor) on the href itself. The stored href is the trimmed
//! input byte for byte, never the parser's serialization.

use super::envelope::Wire;
use crate::json::{JsChar, from_utf16, js_chars, to_utf16, utf16_len};
use crate::suite_api::RuleTrace;
use crate::suites::chat::reference::model::{DisplayLink, DisplayLinks, DisplayText};
use crate::suites::js::{first_present, get, is_blank, is_whitespace, lowercase, str_of, trim};
use serde_json::Value;
use std::borrow::Cow;

/// Only this many elements of each list are examined (D1).
pub const MAX_EXAMINED: usize = 20;
/// Longest href, in UTF-16 code units (D3).
pub const MAX_HREF_UNITS: usize = 2048;
/// Longest text value, in UTF-16 code units (D4).
pub const MAX_TEXT_UNITS: usize = 8192;
/// Longest title, in UTF-16 code units; longer ones are cut (D5).
pub const MAX_TITLE_UNITS: usize = 255;
/// Percent-decoding passes of the scheme test (D3).
const DECODE_PASSES: usize = 2;

/// The display-links item of a `data` payload, or `None` when neither list
/// keeps an element (the row is then hidden, D6).
pub(super) fn display_links<'a>(
    wire: &Wire<'a>,
    data: &'a Value,
    trace: &mut dyn RuleTrace,
) -> Option<DisplayLinks<'a>> {
    let urls: Vec<DisplayLink<'a>> =
        examined(get(data, "urls"), trace).iter().filter_map(|url| link(url, trace)).collect();
    let texts: Vec<DisplayText<'a>> =
        examined(get(data, "texts"), trace).iter().filter_map(|text| display_text(text, trace)).collect();
    if urls.is_empty() && texts.is_empty() {
        trace.hit("v2.d6.nothing-valid-hidden");
        return None;
    }
    trace.hit("v2.d6.display-links-item");
    let uuid = str_of(get(data, "id")).map_or_else(|| wire.id.clone(), Cow::Borrowed);
    Some(DisplayLinks { urls, texts, uuid })
}

/// D1: the first [`MAX_EXAMINED`] elements of a list; anything but an array
/// is an empty list.
fn examined<'a>(list: Option<&'a Value>, trace: &mut dyn RuleTrace) -> &'a [Value] {
    let items: &[Value] = match list {
        Some(Value::Array(items)) => items,
        Some(_) => {
            trace.hit("v2.d1.list-not-an-array");
            &[]
        }
        None => &[],
    };
    if items.len() > MAX_EXAMINED {
        trace.hit("v2.d1.beyond-twentieth-ignored");
    }
    &items[..items.len().min(MAX_EXAMINED)]
}

/// D2: a url element (a string, or an object with `href ▸ url`).
fn link<'a>(element: &'a Value, trace: &mut dyn RuleTrace) -> Option<DisplayLink<'a>> {
    let (raw, title) = match element {
        Value::String(href) => (href.as_str(), None),
        Value::Object(_) | Value::Array(_) => {
            let Some(raw) = str_of(first_present(Some(element), &["href", "url"])) else {
                trace.hit("v2.d2.url-element-skipped");
                return None;
            };
            (raw, title(element, trace))
        }
        _ => {
            trace.hit("v2.d2.url-element-skipped");
            return None;
        }
    };
    let href = trim(raw);
    if !is_displayable_href(href, trace) {
        return None;
    }
    trace.hit("v2.d2.link-kept");
    Some(DisplayLink { href, title })
}

/// D3: length, the scheme after percent-decoding, and the WHATWG parse.
fn is_displayable_href(href: &str, trace: &mut dyn RuleTrace) -> bool {
    let length = utf16_len(href);
    if length == 0 || length > MAX_HREF_UNITS {
        trace.hit("v2.d3.length-refused");
        return false;
    }
    if !matches!(decoded_scheme(href).as_deref(), Some("http" | "https")) {
        trace.hit("v2.d3.scheme-refused");
        return false;
    }
    // The URL constructor takes a USVString: a lone surrogate reaches the
    // parser as U+FFFD.
    let usv: String = js_chars(href)
        .map(|c| match c {
            JsChar::Scalar(c) => c,
            JsChar::LoneSurrogate(_) => char::REPLACEMENT_CHARACTER,
        })
        .collect();
    match url::Url::parse(&usv) {
        Ok(parsed) if matches!(parsed.scheme(), "http" | "https") => true,
        _ => {
            trace.hit("v2.d3.whatwg-parse-refused");
            false
        }
    }
}

/// The scheme of D3 step 2: percent-decode up to [`DECODE_PASSES`] times
/// (stopping at a failure, keeping the last good text, or when nothing
/// changes), then the text before the first `:` unless that colon starts the
/// text or a `/`, `?` or `#` comes before it, without C0 controls, DEL and
/// whitespace, lowercased.
pub fn decoded_scheme(href: &str) -> Option<String> {
    let mut units = to_utf16(href);
    for _ in 0..DECODE_PASSES {
        match decode_uri_component(&units) {
            Some(decoded) if decoded != units => units = decoded,
            _ => break,
        }
    }
    let text = from_utf16(&units);
    let colon = text.find(':')?;
    let before = &text[..colon];
    if before.is_empty() || before.contains(['/', '?', '#']) {
        return None;
    }
    let kept: String = before.chars().filter(|&c| !(c <= '\u{1f}' || c == '\u{7f}' || is_whitespace(c))).collect();
    Some(lowercase(&kept).into_owned())
}

/// ECMAScript `decodeURIComponent` over UTF-16 code units: every `%XX`
/// escape is decoded as UTF-8 (reserved characters included); `None` where
/// it throws (a `%` without two hex digits, or bytes that are not valid
/// UTF-8).
pub fn decode_uri_component(units: &[u16]) -> Option<Vec<u16>> {
    let byte_at = |index: usize| -> Option<u8> {
        if units.get(index) != Some(&u16::from(b'%')) {
            return None;
        }
        let hex = |unit: Option<&u16>| unit.and_then(|&u| char::from_u32(u32::from(u))?.to_digit(16));
        let (high, low) = (hex(units.get(index + 1))?, hex(units.get(index + 2))?);
        u8::try_from(high * 16 + low).ok()
    };
    let mut out = Vec::with_capacity(units.len());
    let mut index = 0;
    while let Some(&unit) = units.get(index) {
        if unit != u16::from(b'%') {
            out.push(unit);
            index += 1;
            continue;
        }
        let lead = byte_at(index)?;
        index += 3;
        let length = match lead {
            0x00..=0x7f => {
                out.push(u16::from(lead));
                continue;
            }
            0xc0..=0xdf => 2,
            0xe0..=0xef => 3,
            0xf0..=0xf7 => 4,
            _ => return None,
        };
        let mut bytes = vec![lead];
        for _ in 1..length {
            let continuation = byte_at(index).filter(|byte| byte & 0xc0 == 0x80)?;
            bytes.push(continuation);
            index += 3;
        }
        let decoded = std::str::from_utf8(&bytes).ok()?.chars().next()?;
        let mut buffer = [0u16; 2];
        out.extend_from_slice(decoded.encode_utf16(&mut buffer));
    }
    Some(out)
}

/// D4: a text element (a string, or an object with `value ▸ text`).
fn display_text<'a>(element: &'a Value, trace: &mut dyn RuleTrace) -> Option<DisplayText<'a>> {
    let (value, title) = match element {
        Value::String(value) => (value.as_str(), None),
        Value::Object(_) | Value::Array(_) => match str_of(first_present(Some(element), &["value", "text"])) {
            Some(value) => (value, title(element, trace)),
            None => {
                trace.hit("v2.d4.text-element-skipped");
                return None;
            }
        },
        _ => {
            trace.hit("v2.d4.text-element-skipped");
            return None;
        }
    };
    let length = utf16_len(value);
    if length == 0 || length > MAX_TEXT_UNITS || is_blank(value) {
        trace.hit("v2.d4.text-refused");
        return None;
    }
    trace.hit("v2.d4.text-kept-untrimmed");
    Some(DisplayText { value, title })
}

/// D5: a string `title`, trimmed, dropped when empty, cut to
/// [`MAX_TITLE_UNITS`] code units (which may split a surrogate pair).
fn title<'a>(element: &'a Value, trace: &mut dyn RuleTrace) -> Option<Cow<'a, str>> {
    let trimmed = trim(str_of(get(element, "title"))?);
    if trimmed.is_empty() {
        trace.hit("v2.d5.empty-title-dropped");
        return None;
    }
    if utf16_len(trimmed) <= MAX_TITLE_UNITS {
        trace.hit("v2.d5.title-trimmed");
        return Some(Cow::Borrowed(trimmed));
    }
    trace.hit("v2.d5.title-cut");
    let units = to_utf16(trimmed);
    Some(Cow::Owned(from_utf16(&units[..MAX_TITLE_UNITS])))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite_api::NoTrace;
    use serde_json::json;

    fn units(text: &str) -> Vec<u16> {
        to_utf16(text)
    }

    #[test]
    fn decode_uri_component_follows_ecmascript() {
        assert_eq!(decode_uri_component(&units("a%3Ab%2F%25")), Some(units("a:b/%")));
        assert_eq!(decode_uri_component(&units("%E2%82%AC")), Some(units("€")));
        assert_eq!(decode_uri_component(&units("%")), None);
        assert_eq!(decode_uri_component(&units("%zz")), None);
        assert_eq!(decode_uri_component(&units("%C3")), None, "a truncated sequence throws");
        assert_eq!(decode_uri_component(&units("%C0%AF")), None, "an overlong encoding throws");
        assert_eq!(decode_uri_component(&units("%ED%A0%80")), None, "an encoded surrogate throws");
        assert_eq!(decode_uri_component(&units("%80")), None);
    }

    #[test]
    fn the_scheme_is_found_after_up_to_two_decodings() {
        assert_eq!(decoded_scheme("HTTPS://Example.COM").as_deref(), Some("https"));
        assert_eq!(decoded_scheme("java\tscript:alert(1)").as_deref(), Some("javascript"));
        assert_eq!(decoded_scheme("https%3A%2F%2Fx.test").as_deref(), Some("https"));
        assert_eq!(decoded_scheme("javascript%253Aalert(1)").as_deref(), Some("javascript"), "decoded twice");
        assert_eq!(decoded_scheme("javascript%25253Ax").as_deref(), None, "a third level stays encoded");
        assert_eq!(decoded_scheme("/a:b"), None);
        assert_eq!(decoded_scheme(":x"), None);
        assert_eq!(decoded_scheme("a?b:c"), None);
        assert_eq!(decoded_scheme("%E0http:x").as_deref(), Some("%e0http"), "a failed decoding keeps the text");
    }

    #[test]
    fn hrefs_need_both_the_scheme_and_the_whatwg_parse() {
        fn ok(href: &str) -> bool {
            is_displayable_href(href, &mut NoTrace)
        }
        assert!(ok("https://docs.example.org/a"));
        assert!(ok("HTTPS://Example.COM"));
        assert!(ok("http:example.com"), "the WHATWG parser accepts a special scheme without slashes");
        assert!(!ok("http://"));
        assert!(!ok("http://a b.test"));
        assert!(!ok("https%3A%2F%2Fx.test"), "the scheme decodes to https but the href does not parse as one");
        assert!(!ok("ftp://files.example"));
        assert!(!ok("mailto:a@b.c"));
        assert!(!ok("javascript:alert(1)"));
        assert!(!ok(""));
        assert!(ok(&format!("https://a.test/{}", "x".repeat(MAX_HREF_UNITS - 15))));
        assert!(!ok(&format!("https://a.test/{}", "x".repeat(MAX_HREF_UNITS - 14))));
    }

    #[test]
    fn titles_are_trimmed_and_cut_in_code_units() {
        let long = format!("{}😀", "t".repeat(MAX_TITLE_UNITS - 1));
        let value = json!({"title": format!("  {long}  ")});
        let cut = title(&value, &mut NoTrace).unwrap();
        assert_eq!(utf16_len(&cut), MAX_TITLE_UNITS);
        assert_eq!(to_utf16(&cut).last(), Some(&0xd83d), "the cut splits the surrogate pair");
        assert_eq!(title(&json!({"title": "   "}), &mut NoTrace), None);
        assert_eq!(title(&json!({"title": 5}), &mut NoTrace), None);
    }
}
