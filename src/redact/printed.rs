//! Redaction of what an implementation prints (its stderr, and the messages
//! of its errors, skips and faults) before it enters the report model: a
//! report is published (a pull-request comment, a CI artifact), and an
//! adapter that prints `GITHUB_TOKEN=…` must not publish the token. The
//! built-in rules of [`super::Redactor`] apply; one secret gets one
//! placeholder for the whole run. `--keep-printed-secrets` switches this off
//! for local debugging.

use super::Redactor;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

static KEEP: AtomicBool = AtomicBool::new(false);

/// Keeps what implementations print as it is, for the rest of the process
/// (`--keep-printed-secrets`).
pub fn keep_printed_secrets(keep: bool) {
    KEEP.store(keep, Ordering::Relaxed);
}

/// `text` with every secret the built-in rules find replaced by a
/// placeholder (`REDACTED_GITHUB_TOKEN_1`), unless
/// [`keep_printed_secrets`] was asked for.
pub fn scrub_printed(text: String) -> String {
    if text.is_empty() || KEEP.load(Ordering::Relaxed) {
        return text;
    }
    static REDACTOR: OnceLock<Option<Mutex<Redactor>>> = OnceLock::new();
    // The rules are fixed, so building them cannot fail; if it ever did, the
    // text is withheld rather than published unscrubbed.
    let Some(redactor) = REDACTOR.get_or_init(|| Redactor::new(&[]).ok().map(Mutex::new)) else {
        return "[conform: withheld: the redaction rules did not build]".to_owned();
    };
    let mut redactor = redactor.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    redactor.scrub_text(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printed_keys_are_replaced_and_the_rest_kept() {
        let printed = "warn: GITHUB_TOKEN=ghp_0123456789abcdefABCDEF0123456789abcd\n\
                       ANTHROPIC_API_KEY=sk-ant-api03-AAAAbbbbCCCCddddEEEEffff0000 loaded\nparsing case 3\n";
        let scrubbed = scrub_printed(printed.to_owned());
        assert!(!scrubbed.contains("ghp_0123") && !scrubbed.contains("sk-ant-api03"), "{scrubbed}");
        assert!(scrubbed.contains("GITHUB_TOKEN=REDACTED_") && scrubbed.contains("parsing case 3\n"), "{scrubbed}");
    }
}
