//! The crate's one HTML escaper, for the HTML report and for the HTML that
//! Markdown reports embed (`<code>`, `<summary>`): fixture content, file
//! names and implementation output are untrusted.

/// Escapes text for HTML content and for attribute values in either kind of
/// quotes: `&`, `<`, `>`, `"` and `'`.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for c in text.chars() {
        match html_entity(c) {
            Some(entity) => out.push_str(entity),
            None => out.push(c),
        }
    }
    out
}

/// The entity [`escape_html`] writes for `c`, when `c` needs one (for
/// escapers that treat further characters, such as the Markdown one).
pub(crate) fn html_entity(c: char) -> Option<&'static str> {
    match c {
        '&' => Some("&amp;"),
        '<' => Some("&lt;"),
        '>' => Some("&gt;"),
        '"' => Some("&quot;"),
        '\'' => Some("&#39;"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_covers_both_quotes() {
        assert_eq!(escape_html("<a href='x'>\"&\"</a>"), "&lt;a href=&#39;x&#39;&gt;&quot;&amp;&quot;&lt;/a&gt;");
    }
}
