//! Secrets wrapped in base64 (`echo "$ANTHROPIC_API_KEY" | base64`, a
//! Kubernetes `Secret`'s `data:`, a `.env` file pasted as base64).
//!
//! A base64 run is decoded, and if the decoded text is text (not an
//! image's bytes) and one of the rules before the
//! `base64-wrapped-secret` rule finds something in it, the whole run is a
//! secret. Runs may be wrapped over lines (`base64` wraps at 76 columns) and
//! use either alphabet (standard `+/` or URL-safe `-_`). A run that starts
//! mid-encoding (a name glued before it) is tried at its first four offsets.

use super::rules::{BUILTIN_RULES, Candidate, Rule};
use std::sync::LazyLock;

/// The id of the rule this module backs.
pub const RULE_ID: &str = "base64-wrapped-secret";

/// Decoded runs longer than this are not searched: a secret is short, and an
/// embedded file is not worth decoding.
pub const MAX_DECODED_RUN: usize = 64 * 1024;

/// The rules searched inside decoded base64: every built-in rule before
/// [`RULE_ID`] in the table (vendor keys, private keys, tokens, headers,
/// assignments).
static INNER_RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    BUILTIN_RULES.iter().take_while(|spec| spec.id != RULE_ID).filter_map(|spec| Rule::builtin(spec).ok()).collect()
});

/// The check of the `base64-wrapped-secret` rule: whether the candidate run
/// decodes (at one of its first four offsets) to text holding a secret.
pub fn decodes_to_a_secret(candidate: &Candidate<'_>) -> bool {
    let run: String = candidate.secret.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    if run.len() > MAX_DECODED_RUN || !run.bytes().any(|b| b.is_ascii_digit() || b.is_ascii_uppercase()) {
        return false;
    }
    (0..4).any(|offset| {
        let Some(usable) = run.get(offset..) else { return false };
        let usable = usable.trim_end_matches('=');
        let usable = &usable[..usable.len() - usable.len() % 4];
        decode_base64(usable)
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .is_some_and(|text| is_text(&text) && INNER_RULES.iter().any(|rule| !rule.find_all(&text).is_empty()))
    })
}

/// Text a person or a program wrote, not binary data.
fn is_text(decoded: &str) -> bool {
    decoded.len() >= 8 && !decoded.chars().any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
}

/// Decodes base64 of either alphabet without padding (`None` on any other
/// character); a trailing group of 2 or 3 characters yields its 1 or 2
/// bytes.
pub fn decode_base64(text: &str) -> Option<Vec<u8>> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        })
    };
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    for chunk in text.as_bytes().chunks(4) {
        let mut word = 0u32;
        for &c in chunk {
            word = (word << 6) | value(c)?;
        }
        word <<= 6 * (4 - chunk.len() as u32);
        let bytes = word.to_be_bytes();
        out.extend_from_slice(&bytes[1..1 + chunk.len() * 3 / 4]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(secret: &str) -> bool {
        decodes_to_a_secret(&Candidate { secret, before: "", after: "" })
    }

    #[test]
    fn base64_of_a_key_is_a_secret_in_either_alphabet_and_wrapped() {
        // base64 of "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789\n".
        let standard = "c2stYW50LWFwaTAzLUFiQ2RFZkdoSWpLbE1uT3BRclN0VXZXeFl6MDEyMzQ1Njc4OQo=";
        assert!(check(standard));
        assert!(check(&format!("{}\n{}", &standard[..40], &standard[40..])));
        assert!(check(&format!("key{standard}")), "a name glued before the run");
        // base64url of "GITHUB_TOKEN=ghp_R8sT2uV6wX0yZ4aB8cD2eF6g?".
        assert!(check("R0lUSFVCX1RPS0VOPWdocF9SOHNUMnVWNndYMHlaNGFCOGNEMmVGNmc_"));
    }

    #[test]
    fn other_base64_and_words_are_not() {
        // base64 of "just some ordinary text, nothing secret".
        assert!(!check("anVzdCBzb21lIG9yZGluYXJ5IHRleHQsIG5vdGhpbmcgc2VjcmV0"));
        assert!(!check("claude-sonnet-4-5-20250929"));
        assert!(!check("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA"));
    }
}
