//! The redaction rules: one table, in priority order.
//!
//! Each rule is a regular expression over text (a string of a captured
//! document, or one of its decoded escape levels) plus which part of a match
//! is the secret. Only that part is replaced, so `Authorization: Bearer …`
//! keeps its header and scheme, `/Users/alice/src` keeps its path, and
//! `GITHUB_TOKEN=…` keeps its name. Prefix-anchored token rules accept
//! truncated tokens (a capture cut mid-key still leaks the key's head).
//!
//! The redaction table of `docs/captures.md` is written from
//! [`BUILTIN_RULES`]; keep them in step (`tests/docs_links.rs` checks it).

use regex::Regex;

/// Decides whether a candidate secret found by a pattern really is one.
pub type Accept = fn(&str) -> bool;

/// A redaction rule as written in the table.
#[derive(Clone, Copy, Debug)]
pub struct RuleSpec {
    /// Stable id, shown in lint findings and the docs' redaction table.
    pub id: &'static str,
    /// Placeholder label: `REDACTED_<LABEL>_<n>`. Rules that find the same
    /// kind of value share a label, so one user name gets one placeholder
    /// whichever path form it appeared in.
    pub label: &'static str,
    /// What the rule finds, for the docs and `--help`.
    pub finds: &'static str,
    /// The pattern.
    pub pattern: &'static str,
    /// Capture groups that hold the secret, tried in order (the first that
    /// took part in the match wins); empty means the whole match.
    pub groups: &'static [usize],
    /// Extra check on the secret, for patterns that also match prose.
    pub accept: Option<Accept>,
}

/// The built-in rules, highest priority first. A match that overlaps a
/// placeholder or a higher-priority match is ignored.
pub const BUILTIN_RULES: &[RuleSpec] = &[
    RuleSpec {
        id: "private-key",
        label: "PRIVATE_KEY",
        finds: "PEM private key blocks (RSA, EC, OPENSSH, PGP, …), also without their END line when truncated",
        pattern: concat!(
            r"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----",
            // Body lines: base64, or `Name: value` headers of encrypted keys;
            // newlines may be real or escaped (`\n`, `\\n`, `\r\n`).
            r"(?:(?:\r?\n|(?:\\+r)?\\+n)+(?:[A-Za-z0-9+/=]+|[A-Za-z][A-Za-z-]*: [^\r\n\\]*))*",
            r"(?:(?:\r?\n|(?:\\+r)?\\+n)*-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----)?",
        ),
        groups: &[],
        accept: None,
    },
    RuleSpec {
        id: "private-key-tail",
        label: "PRIVATE_KEY",
        finds: "the body and END line of a PEM private key whose BEGIN line was cut off",
        pattern: r"(?:[A-Za-z0-9+/=]+(?:\r?\n|(?:\\+r)?\\+n)+)+-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----",
        groups: &[],
        accept: None,
    },
    RuleSpec {
        id: "anthropic-key",
        label: "ANTHROPIC_KEY",
        finds: "Anthropic API and admin keys (`sk-ant-…`)",
        pattern: r"\bsk-ant-[A-Za-z0-9_-]+",
        groups: &[],
        accept: None,
    },
    RuleSpec {
        id: "openai-key",
        label: "OPENAI_KEY",
        finds: "OpenAI keys (`sk-proj-…`, `sk-svcacct-…`, `sk-admin-…`, legacy `sk-…`)",
        pattern: r"\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]+|\bsk-[A-Za-z0-9]{20,}",
        groups: &[],
        accept: None,
    },
    RuleSpec {
        id: "github-token",
        label: "GITHUB_TOKEN",
        finds: "GitHub tokens (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`)",
        pattern: r"\bgh[pousr]_[A-Za-z0-9]{4,}|\bgithub_pat_[A-Za-z0-9_]{4,}",
        groups: &[],
        accept: None,
    },
    RuleSpec {
        id: "aws-access-key-id",
        label: "AWS_KEY_ID",
        finds: "AWS access key ids (`AKIA…`, `ASIA…`)",
        pattern: r"\b(?:AKIA|ASIA)[A-Z0-9]{8,}",
        groups: &[],
        accept: None,
    },
    RuleSpec {
        id: "aws-secret-key",
        label: "AWS_SECRET",
        finds: "AWS secret access keys after their name (`aws_secret_access_key = …`, `\"SecretAccessKey\": \"…\"`)",
        pattern: r#"(?i)\b(?:aws_?)?secret_?access_?key["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{8,})"#,
        groups: &[1],
        accept: None,
    },
    RuleSpec {
        id: "slack-token",
        label: "SLACK_TOKEN",
        finds: "Slack tokens (`xoxb-`, `xoxp-`, `xoxa-`, `xoxr-`, `xoxs-`, `xoxo-`) and incoming-webhook URLs",
        pattern: r"\bxox[abposr]-[A-Za-z0-9-]+|https://hooks\.slack\.com/services/[A-Za-z0-9/_-]+",
        groups: &[],
        accept: None,
    },
    RuleSpec {
        id: "google-api-key",
        label: "GOOGLE_KEY",
        finds: "Google API keys (`AIza…`)",
        pattern: r"\bAIza[0-9A-Za-z_-]{10,}",
        groups: &[],
        accept: None,
    },
    RuleSpec {
        id: "stripe-key",
        label: "STRIPE_KEY",
        finds: "Stripe secret and restricted keys (`sk_live_`, `rk_live_`, `sk_test_`, …)",
        pattern: r"\b[sr]k_(?:live|test)_[A-Za-z0-9]{8,}",
        groups: &[],
        accept: None,
    },
    RuleSpec {
        id: "npm-token",
        label: "NPM_TOKEN",
        finds: "npm access tokens (`npm_…`)",
        pattern: r"\bnpm_[A-Za-z0-9]{16,}",
        groups: &[],
        accept: None,
    },
    RuleSpec {
        id: "jwt",
        label: "JWT",
        finds: "JSON Web Tokens (`eyJ….eyJ….…`), also cut after the header",
        pattern: r"\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*)?",
        groups: &[],
        accept: None,
    },
    RuleSpec {
        id: "authorization-header",
        label: "CREDENTIAL",
        finds: "the credential of an `Authorization:` / `Proxy-Authorization:` header, whatever its scheme",
        pattern: r#"(?i)\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:(?:bearer|basic|token|digest|negotiate)\s+)?([^\s"'\\,;]+)"#,
        groups: &[1],
        accept: Some(not_a_reference),
    },
    RuleSpec {
        id: "bearer-token",
        label: "BEARER_TOKEN",
        finds: "`Bearer <token>` anywhere (token of 8+ characters with a digit, or 24+ characters)",
        pattern: r"(?i)\bbearer\s+([A-Za-z0-9._~+/-]+=*)",
        groups: &[1],
        accept: Some(looks_like_credential),
    },
    RuleSpec {
        id: "basic-auth",
        label: "BASIC_AUTH",
        finds: "`Basic <base64>` credentials (the base64 decodes to `user:password`)",
        pattern: r"(?i)\bbasic\s+([A-Za-z0-9+/]{6,}={0,2})",
        groups: &[1],
        accept: Some(decodes_to_user_password),
    },
    RuleSpec {
        id: "url-credentials",
        label: "URL_PASSWORD",
        finds: "passwords in URLs (`scheme://user:password@host`)",
        pattern: r#"\b[A-Za-z][A-Za-z0-9+.-]*://[^\s/:@"'\\]+:([^\s/@"'\\]+)@"#,
        groups: &[1],
        accept: None,
    },
    RuleSpec {
        id: "secret-assignment",
        label: "SECRET",
        finds: "quoted values assigned to secret-looking names (`DB_PASSWORD=\"…\"`, `api_key: '…'`, `\"client_secret\": \"…\"`): names ending in password, passwd, passphrase, secret, api key, access key, private key, token or credential(s)",
        pattern: r#"(?i)\b[A-Za-z0-9_.-]*?(?:password|passwd|passphrase|secret|api[_-]?key|access[_-]?key|private[_-]?key|token|credentials?)["']?[ \t]*[:=][ \t]*(?:"([^"\\\n]*)"|'([^'\n]*)')"#,
        groups: &[1, 2],
        accept: Some(looks_like_assigned_secret),
    },
    RuleSpec {
        id: "secret-assignment-bare",
        label: "SECRET",
        finds: "unquoted values with a digit assigned to the same names (`.env` lines such as `API_TOKEN=a8f5…`); a bare word without digits is taken for code (`csrfToken = document.querySelector`)",
        pattern: r#"(?i)\b[A-Za-z0-9_.-]*?(?:password|passwd|passphrase|secret|api[_-]?key|access[_-]?key|private[_-]?key|token|credentials?)["']?[ \t]*[:=][ \t]*([^\s"'\\,;{}\[\]()]+)"#,
        groups: &[1],
        accept: Some(looks_like_bare_secret),
    },
    RuleSpec {
        id: "email",
        label: "EMAIL",
        finds: "e-mail addresses (except RFC 2606 documentation domains and `git@` remotes)",
        pattern: r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b",
        groups: &[],
        accept: Some(is_personal_address),
    },
    RuleSpec {
        id: "home-path-unix",
        label: "USER",
        finds: "the user name in `/Users/<name>` and `/home/<name>` paths",
        pattern: r"(?:^|[^A-Za-z0-9._~/:-]|file://)/(?:Users|home)/([A-Za-z0-9._-]+)",
        groups: &[1],
        accept: Some(is_user_name),
    },
    RuleSpec {
        id: "home-path-dashed",
        label: "USER",
        finds: "the user name in the dashed project folders Claude Code derives from a working directory (`~/.claude/projects/-home-<name>-src-app`, `/tmp/claude-1000/-Users-<name>-work`)",
        pattern: r#"(?:^|[/\s"'=:])-(?:Users|home)-([A-Za-z0-9_]+)[-/]"#,
        groups: &[1],
        accept: Some(is_user_name),
    },
    RuleSpec {
        id: "home-path-windows",
        label: "USER",
        finds: r"the user name in `C:\Users\<name>` paths (any drive, `\`, `\\` or `/` separators)",
        pattern: r#"(?i)\b[A-Z]:(?:\\+|/)Users(?:\\+|/)([^\\/\s"':*?<>|]+)"#,
        groups: &[1],
        accept: Some(is_user_name),
    },
    RuleSpec {
        id: "truncated-secret-tail",
        label: "SECRET_TAIL",
        finds: "the rest of a secret that a `…[hapi: truncated N chars]…` marker cut in two",
        pattern: r"REDACTED_[A-Z0-9_]+_[0-9]+\n…\[hapi: truncated [0-9]+ chars\]…\n([A-Za-z0-9_+/=.-]+)",
        groups: &[1],
        accept: None,
    },
];

/// Member names whose string value is a secret whatever it looks like,
/// compared after lowercasing and dropping `_`, `-` and `.`: a name is secret
/// when it ends in one of these.
pub const SECRET_MEMBER_SUFFIXES: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "secret",
    "apikey",
    "accesskey",
    "secretkey",
    "privatekey",
    "token",
    "credential",
    "credentials",
    "authorization",
    "cookie",
];

/// Whether an object member of this name holds a secret.
pub fn is_secret_member(name: &str) -> bool {
    let folded: String = name.chars().filter(|c| !matches!(c, '_' | '-' | '.')).flat_map(char::to_lowercase).collect();
    SECRET_MEMBER_SUFFIXES.iter().any(|suffix| folded.ends_with(suffix))
}

/// A compiled rule.
#[derive(Clone, Debug)]
pub struct Rule {
    /// Stable id.
    pub id: String,
    /// Placeholder label.
    pub label: String,
    /// The compiled pattern.
    pub regex: Regex,
    /// Groups holding the secret (empty = whole match).
    pub groups: Vec<usize>,
    /// Extra check on the secret.
    pub accept: Option<Accept>,
}

impl Rule {
    /// Compiles a built-in rule.
    pub fn builtin(spec: &RuleSpec) -> Result<Rule, regex::Error> {
        Ok(Rule {
            id: spec.id.to_owned(),
            label: spec.label.to_owned(),
            regex: Regex::new(spec.pattern)?,
            groups: spec.groups.to_vec(),
            accept: spec.accept,
        })
    }

    /// Compiles a user rule (`--redact-rule`): the first capture group is the
    /// secret when the pattern has one, else the whole match.
    pub fn custom(index: usize, pattern: &str) -> Result<Rule, regex::Error> {
        let regex = Regex::new(pattern)?;
        let groups = if regex.captures_len() > 1 { vec![1] } else { Vec::new() };
        Ok(Rule { id: format!("custom-{index}"), label: format!("CUSTOM{index}"), regex, groups, accept: None })
    }

    /// Every (byte range, secret) this rule finds in `text`, left to right.
    pub fn find_all<'t>(&self, text: &'t str) -> Vec<(std::ops::Range<usize>, &'t str)> {
        let mut found = Vec::new();
        for captures in self.regex.captures_iter(text) {
            let secret = if self.groups.is_empty() {
                captures.get(0)
            } else {
                self.groups.iter().find_map(|&group| captures.get(group))
            };
            let Some(secret) = secret else { continue };
            if secret.is_empty() || self.accept.is_some_and(|accept| !accept(secret.as_str())) {
                continue;
            }
            found.push((secret.range(), secret.as_str()));
        }
        found
    }
}

/// Compiles the built-in table. The patterns are constants checked by the
/// tests, so a failure here is a bug; it is still reported, not a panic.
pub fn builtin_rules() -> Result<Vec<Rule>, regex::Error> {
    BUILTIN_RULES.iter().map(Rule::builtin).collect()
}

/// A bearer token rather than a word of prose.
fn looks_like_credential(token: &str) -> bool {
    let has_digit = token.bytes().any(|b| b.is_ascii_digit());
    let has_letter = token.bytes().any(|b| b.is_ascii_alphabetic());
    (token.len() >= 8 && has_digit && has_letter) || token.len() >= 24
}

/// An authorization value that is not a variable or template reference.
fn not_a_reference(value: &str) -> bool {
    let reference = value.starts_with(['$', '<', '{', '%']);
    let scheme_only = ["bearer", "basic", "header"].iter().any(|word| value.eq_ignore_ascii_case(word));
    !reference && !scheme_only
}

/// A value that is really assigned, not a type name, number or reference.
fn looks_like_assigned_secret(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    value.len() >= 3
        && not_a_reference(value)
        && !value.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && !matches!(lower.as_str(), "null" | "none" | "true" | "false" | "undefined" | "string" | "str" | "required")
}

/// An unquoted assigned value that is data, not code: it has a digit.
fn looks_like_bare_secret(value: &str) -> bool {
    looks_like_assigned_secret(value) && value.bytes().any(|b| b.is_ascii_digit())
}

/// Base64 of `user:password`, possibly cut short.
fn decodes_to_user_password(candidate: &str) -> bool {
    let usable = candidate.trim_end_matches('=');
    let usable = &usable[..usable.len() - usable.len() % 4];
    decode_base64(usable)
        .is_some_and(|bytes| bytes.contains(&b':') && bytes.iter().all(|&b| b.is_ascii_graphic() || b == b' '))
}

fn decode_base64(text: &str) -> Option<Vec<u8>> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
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

/// An address a person could receive mail at (documentation domains and git
/// remotes are not personal data).
fn is_personal_address(address: &str) -> bool {
    let Some((local, domain)) = address.rsplit_once('@') else { return false };
    let domain = domain.to_ascii_lowercase();
    let documentation = ["example.com", "example.org", "example.net"].contains(&domain.as_str())
        || [".example", ".invalid", ".test", ".localhost"].iter().any(|tld| domain.ends_with(tld));
    !(documentation || local == "git")
}

/// A user name rather than a placeholder or a shared folder.
/// Whether a name found in a home-directory path is a person's: not a
/// placeholder, not a shared folder and not a generic account (`/home/user`
/// is also how scrubbed paths are commonly written).
pub fn is_user_name(name: &str) -> bool {
    !name.starts_with("REDACTED_") && !GENERIC_ACCOUNT_NAMES.iter().any(|generic| generic.eq_ignore_ascii_case(name))
}

/// Account and folder names under `/home`, `/Users` or `C:\Users` that name
/// no person.
const GENERIC_ACCOUNT_NAMES: &[&str] = &[
    "admin",
    "all users",
    "default",
    "guest",
    "node",
    "public",
    "root",
    "runner",
    "runneradmin",
    "shared",
    "ubuntu",
    "user",
    "vscode",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn secrets(rule_id: &str, text: &str) -> Vec<String> {
        let spec = BUILTIN_RULES.iter().find(|spec| spec.id == rule_id);
        let rule = spec.map(Rule::builtin).and_then(Result::ok);
        rule.map(|rule| rule.find_all(text).into_iter().map(|(_, s)| s.to_owned()).collect()).unwrap_or_default()
    }

    #[test]
    fn every_builtin_pattern_compiles() {
        assert_eq!(builtin_rules().map(|rules| rules.len()).ok(), Some(BUILTIN_RULES.len()));
    }

    #[test]
    fn only_the_secret_part_is_selected() {
        assert_eq!(secrets("bearer-token", "Authorization: Bearer abc123def456"), ["abc123def456"]);
        assert_eq!(secrets("home-path-unix", "cd /Users/alice/src && ls /home/bob"), ["alice", "bob"]);
        assert_eq!(
            secrets(
                "home-path-dashed",
                "/tmp/claude-1000/-home-marco-projects-spotter/x and ~/.claude/projects/-Users-ann-src"
            ),
            ["marco", "ann"]
        );
        assert!(secrets("home-path-dashed", "see the-home-page-design and a -home-flag").is_empty());
        assert_eq!(secrets("home-path-windows", r"C:\\Users\\carol\\x and D:/Users/dave/y"), ["carol", "dave"]);
        assert_eq!(secrets("secret-assignment", "export DB_PASSWORD=\"hunter22\"\nOTHER=1"), ["hunter22"]);
        assert_eq!(secrets("secret-assignment-bare", "DB_PASSWORD=pg_2024!x\nOTHER=1"), ["pg_2024!x"]);
        assert_eq!(secrets("url-credentials", "postgres://app:s3cr3t@db:5432/x"), ["s3cr3t"]);
    }

    #[test]
    fn prose_is_left_alone() {
        assert!(secrets("bearer-token", "send a Bearer token with the request").is_empty());
        assert!(secrets("basic-auth", "Basic example of authentication").is_empty());
        assert!(secrets("secret-assignment", "max_tokens: 4096, token: null, \"input_tokens\": 12").is_empty());
        assert!(secrets("secret-assignment-bare", "max_tokens: 4096, token: null, \"input_tokens\": 12").is_empty());
        let code = "const csrfToken = document.querySelector(x); params: { _csrf_token: csrfToken }";
        assert!(secrets("secret-assignment-bare", code).is_empty());
        assert!(secrets("home-path-unix", "https://example.org/home/about").is_empty());
        assert!(secrets("email", "git@github.com:org/repo.git and docs@example.com").is_empty());
    }

    #[test]
    fn secret_member_names() {
        for name in ["password", "api_key", "apiKey", "accessToken", "client-secret", "Authorization", "AWS.SecretKey"]
        {
            assert!(is_secret_member(name), "{name}");
        }
        for name in ["input_tokens", "tokenBudget", "apiKeySource", "key", "tokens", "secretive_mode"] {
            assert!(!is_secret_member(name), "{name}");
        }
    }

    #[test]
    fn basic_credentials_are_recognized_even_when_cut() {
        // "alice:wonderland" in base64, then the same cut short.
        assert!(decodes_to_user_password("YWxpY2U6d29uZGVybGFuZA=="));
        assert!(decodes_to_user_password("YWxpY2U6d29u"));
        assert!(!decodes_to_user_password("authentication"));
    }
}
