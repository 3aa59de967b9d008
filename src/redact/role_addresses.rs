//! Public no-reply and role addresses that redaction keeps: they name a
//! service, not a person, and a fixture reads wrong without them (a visible
//! commit command's `Co-Authored-By: Claude <noreply@anthropic.com>`
//! trailer). Secret scanners keep such addresses the same way, by an
//! allowlist. docs/captures.md ("Redaction") lists them.
//!
//! GitHub's per-user no-reply addresses (`12345+name@users.noreply.github.com`)
//! name a person's account and are still replaced; only the `[bot]` ones are
//! kept.

/// Mailboxes that no person reads, at any domain.
const NO_REPLY_MAILBOXES: [&str; 4] = ["noreply", "no-reply", "donotreply", "do-not-reply"];

/// Role addresses of the services whose runtimes the captures record.
const ROLE_ADDRESSES: [&str; 5] = [
    "support@anthropic.com",
    "security@anthropic.com",
    "support@openai.com",
    "security@openai.com",
    "support@github.com",
];

/// Whether `address` (`local@domain`) is a public no-reply or role address.
pub fn is_public_role_address(address: &str) -> bool {
    let Some((local, domain)) = address.rsplit_once('@') else { return false };
    let local = local.to_ascii_lowercase();
    let domain = domain.to_ascii_lowercase();
    let github_bot = domain == "users.noreply.github.com" && local.ends_with("[bot]");
    NO_REPLY_MAILBOXES.contains(&local.as_str())
        || github_bot
        || ROLE_ADDRESSES.iter().any(|role| role.eq_ignore_ascii_case(address))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_reply_and_role_addresses_are_kept_people_are_not() {
        for kept in [
            "noreply@anthropic.com",
            "NoReply@GitHub.com",
            "no-reply@accounts.google.com",
            "41898282+github-actions[bot]@users.noreply.github.com",
            "support@anthropic.com",
        ] {
            assert!(is_public_role_address(kept), "{kept}");
        }
        for person in
            ["jane.doe@anthropic.com", "12345+jdoe@users.noreply.github.com", "noreply", "support@janedoe.dev"]
        {
            assert!(!is_public_role_address(person), "{person}");
        }
    }
}
