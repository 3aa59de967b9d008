//! Planted secrets for the redaction tests: strings built from text and
//! secret segments, so a test knows exactly which bytes must be replaced and
//! which must stay as they were.

use serde_json::Value;

/// One piece of a planted string.
#[derive(Clone, Debug)]
pub enum Seg {
    /// Content that must survive unchanged.
    Text(String),
    /// A secret (as written at this escape level) that must be replaced.
    Secret(String),
}

/// A string made of text and secret segments.
#[derive(Clone, Debug, Default)]
pub struct Planted(pub Vec<Seg>);

/// What each replaced secret becomes in [`Planted::expected`], and what every
/// placeholder is turned into before comparing.
pub const MASK: &str = "<S>";

impl Planted {
    pub fn text(s: &str) -> Planted {
        Planted(vec![Seg::Text(s.to_owned())])
    }

    pub fn secret(s: &str) -> Planted {
        Planted(vec![Seg::Secret(s.to_owned())])
    }

    pub fn then(mut self, other: Planted) -> Planted {
        self.0.extend(other.0);
        self
    }

    pub fn t(self, s: &str) -> Planted {
        self.then(Planted::text(s))
    }

    pub fn s(self, s: &str) -> Planted {
        self.then(Planted::secret(s))
    }

    /// The string as planted.
    pub fn original(&self) -> String {
        self.0
            .iter()
            .map(|seg| match seg {
                Seg::Text(s) | Seg::Secret(s) => s.as_str(),
            })
            .collect()
    }

    /// The string with every secret masked.
    pub fn expected(&self) -> String {
        self.0
            .iter()
            .map(|seg| match seg {
                Seg::Text(s) => s.as_str(),
                Seg::Secret(_) => MASK,
            })
            .collect()
    }

    /// The secrets it holds.
    pub fn secrets(&self) -> Vec<String> {
        self.0
            .iter()
            .filter_map(|seg| match seg {
                Seg::Secret(s) => Some(s.clone()),
                Seg::Text(_) => None,
            })
            .collect()
    }

    /// The contents of a JSON string literal holding this string (one more
    /// level of escaping), segment by segment.
    pub fn escaped(&self) -> Planted {
        Planted(
            self.0
                .iter()
                .map(|seg| match seg {
                    Seg::Text(s) => Seg::Text(json_escape(s)),
                    Seg::Secret(s) => Seg::Secret(json_escape(s)),
                })
                .collect(),
        )
    }

    /// Like [`Planted::escaped`], but secrets also spell `-`, `@`, `_` and `/`
    /// as `\u00XX` escapes and slashes as `\/`, as some serializers do.
    pub fn escaped_unicode(&self) -> Planted {
        Planted(
            self.0
                .iter()
                .map(|seg| match seg {
                    Seg::Text(s) => Seg::Text(json_escape(s)),
                    Seg::Secret(s) => {
                        Seg::Secret(json_escape(s).replace('-', "\\u002d").replace('@', "\\u0040").replace('/', "\\/"))
                    }
                })
                .collect(),
        )
    }

    /// This string serialized as a JSON object `{"<key>":"<this>"}` inside
    /// another string (escaped JSON inside a string).
    pub fn as_json_member(&self, key: &str) -> Planted {
        Planted::text(&format!("{{\"{key}\":\"")).then(self.escaped()).t("\"}")
    }
}

fn json_escape(s: &str) -> String {
    let quoted = serde_json::to_string(s).unwrap_or_default();
    quoted[1..quoted.len() - 1].to_owned()
}

/// A truncation marker as the hub writes it between the head and the tail
/// of a string longer than 64 KiB.
pub fn hub_marker(chars: usize) -> String {
    format!("\n…[hapi: truncated {chars} chars]…\n")
}

pub const ANTHROPIC: &str =
    "sk-ant-api03-Xq7vR2mN9pL4kT8wZ1cF6hJ3bD5gS0aE-yU2iO7_pQ9rW4eT6yU8iO0pA2sD4fG6hJ8kL0zXcVbNmQwErTy-AbCdEfAA";
pub const OPENAI: &str = "sk-proj-4fJ9kL2mN7pQ1rS8tU3vW6xY0zA5bC-dE_fG7hI9jK2lM4nO6pQ8rS0tU1vW3xY5zA7bC9dE1fG3hI5jK";
pub const GITHUB: &str = "ghp_R8sT2uV6wX0yZ4aB8cD2eF6gH0iJ4kL8mN2o";
pub const GITHUB_FINE: &str = "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN012345";
pub const AWS_KEY_ID: &str = "AKIAIOSFODNN7EXAMPLE";
pub const AWS_SECRET: &str = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
pub const SLACK_BOT: &str = "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx";
pub const SLACK_WEBHOOK: &str = "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX";
pub const BEARER: &str = "tok_9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c";
pub const BEARER_PROSE: &str = "a1b2c3d4e5f6g7h8";
/// base64 of `deploy:Sup3rS3cret!`.
pub const BASIC: &str = "ZGVwbG95OlN1cDNyUzNjcmV0IQ==";
pub const JWT: &str = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
pub const RSA_KEY: &str = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM2AqLvv8H1Wc4cgjn7K\nQp8tDx1NhXiH7yPlVc3u5QEIUz9PF0bW5zJ1Xv2mHbJ0cLxG8eqa3\nz9yUx2pJq4mP7r1BHdO=\n-----END RSA PRIVATE KEY-----";
pub const OPENSSH_KEY: &str = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACDn7SuB3q0kY9Jz5fHgX2d4mVwQp1rTs6u8oLcNiAeK0wAAAJgxYz1vMWM9\n-----END OPENSSH PRIVATE KEY-----";
pub const DB_PASSWORD: &str = "pgPass_2024!x";
pub const STRIPE: &str = "sk_live_51H8xYzAbCdEfGhIjKlMnOpQrStUv";
pub const API_TOKEN_VALUE: &str = "a8f5f167f44f4964e6c998dee827110c";
pub const EMAIL_1: &str = "jane.doe@acme-corp.io";
pub const EMAIL_2: &str = "j.smith+work@mail.example-company.co.uk";
pub const USER_MAC: &str = "jdoe";
pub const USER_LINUX: &str = "alice";
pub const USER_WINDOWS: &str = "RSmith";
pub const USER_DASHED: &str = "marco";
pub const URL_PASSWORD: &str = "Pg-s3cret-2024";
pub const GOOGLE: &str = "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY";
pub const NPM: &str = "npm_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5";
pub const CLIENT_SECRET: &str = "x7Kp2Qm9Lr4Tz8Wv1Ny6Bc3Hd5Jf0Gs";
pub const MEMBER_PASSWORD: &str = "correct horse battery staple";
pub const CUSTOM_HOST: &str = "build-17.corp.internal";

/// The planted strings, each used as the text of one message. Every listed
/// kind appears; contexts cover plain strings, escaped JSON inside strings
/// (one and two levels, with and without `\u` escapes) and truncated strings
/// (cut mid-secret, and split by a hub truncation marker).
pub fn planted_strings() -> Vec<Planted> {
    let env_file = Planted::text("# .env\nDEBUG=true\nDATABASE_PASSWORD=")
        .s(DB_PASSWORD)
        .t("\nPORT=8080\nSTRIPE_SECRET_KEY=\"")
        .s(STRIPE)
        .t("\"\nexport API_TOKEN='")
        .s(API_TOKEN_VALUE)
        .t("'\nLOG_LEVEL=info\n");
    let http =
        Planted::text("GET /v1/models HTTP/1.1\nAuthorization: Bearer ").s(BEARER).t("\nAccept: application/json\n");
    let basic = Planted::text("curl -H 'Authorization: Basic ").s(BASIC).t("' https://registry.example.com/v2/");
    let paths = Planted::text("Edited /Users/")
        .s(USER_MAC)
        .t("/code/app/src/main.rs, copied it to /home/")
        .s(USER_LINUX)
        .t("/backup/main.rs and C:\\Users\\")
        .s(USER_WINDOWS)
        .t("\\AppData\\Roaming\\app.toml; same user again: /Users/")
        .s(USER_MAC)
        .t("/.zshrc");
    // Claude Code's dashed project folders, and names that only a path
    // elsewhere in the capture reveals (the owner columns of `ls -l`).
    let project_folders = Planted::text("Output is being written to: /tmp/claude-1000/-home-")
        .s(USER_DASHED)
        .t("-projects-spotter/tasks/b1.output\n$ ls -l\ndrwxr-x--- 9 ")
        .s(USER_LINUX)
        .t(" ")
        .s(USER_LINUX)
        .t(" 4096 Jan 11 00:22 .\n(prompt ")
        .s(USER_DASHED)
        .t("@box)");
    let mails = Planted::text("Reported by ")
        .s(EMAIL_1)
        .t(", cc ")
        .s(EMAIL_2)
        .t(" (docs contact: help@example.com, remote git@github.com:acme/app.git)");
    let cloud = Planted::text("[default]\naws_access_key_id = ")
        .s(AWS_KEY_ID)
        .t("\naws_secret_access_key = ")
        .s(AWS_SECRET)
        .t("\nregion = eu-west-1\n");
    let tokens = Planted::text("Keys found: ")
        .s(ANTHROPIC)
        .t(", ")
        .s(OPENAI)
        .t(", ")
        .s(GITHUB)
        .t(" and ")
        .s(GITHUB_FINE)
        .t("; Slack ")
        .s(SLACK_BOT)
        .t(" posting to ")
        .s(SLACK_WEBHOOK)
        .t("; maps ")
        .s(GOOGLE)
        .t("; npm ")
        .s(NPM)
        .t(".");
    let session_jwt = Planted::text("session cookie jwt=").s(JWT).t("; Path=/; HttpOnly");
    let prose_bearer = Planted::text("For staging use Bearer ").s(BEARER_PROSE).t(" (a Bearer token, rotated weekly).");
    let url = Planted::text("DATABASE_URL is postgres://admin:").s(URL_PASSWORD).t("@db.internal:5432/app");
    let keys = Planted::text("id_rsa:\n").s(RSA_KEY).t("\n\nid_ed25519:\n").s(OPENSSH_KEY).t("\n");
    let custom = Planted::text("artifacts uploaded from ").s(CUSTOM_HOST).t(" in 42s");

    // Escaped JSON inside strings: a tool result holding a serialized object.
    let escaped_env = env_file.as_json_member("stdout");
    let escaped_client = Planted::text("{\"client_id\":\"app-42\",\"client_secret\":\"")
        .s(CLIENT_SECRET)
        .t("\",\"redirect\":\"https://app.example.com/cb\"}");
    let escaped_tokens = tokens.escaped_unicode();
    let escaped_keys = keys.as_json_member("content");
    // Two levels: JSON inside a JSON string inside this string.
    let double = http.as_json_member("raw").as_json_member("response");
    let double_paths = paths.as_json_member("cwd").as_json_member("event");
    let double_mail = mails.escaped_unicode().as_json_member("payload");

    // Truncated strings: cut in the middle of a secret, and split by a hub
    // truncation marker between head and tail.
    let cut_key = Planted::text("export ANTHROPIC_API_KEY=").s(&ANTHROPIC[..17]);
    let cut_jwt = Planted::text("token: ").s(&JWT[..48]);
    let cut_pem = Planted::text("cat ~/.ssh/id_rsa\n").s(&RSA_KEY[..90]);
    let split_key =
        Planted::text("log line with ").s(&ANTHROPIC[..40]).t(&hub_marker(70_000)).s(&ANTHROPIC[40..]).t(" end of log");
    let split_pem = Planted::text("dump:\n").s(&RSA_KEY[..60]).t(&hub_marker(65_536)).s(&RSA_KEY[60..]).t("\nDone.");

    vec![
        env_file,
        http,
        basic,
        paths,
        project_folders,
        mails,
        cloud,
        tokens,
        session_jwt,
        prose_bearer,
        url,
        keys,
        custom,
        escaped_env,
        escaped_client,
        escaped_tokens,
        escaped_keys,
        double,
        double_paths,
        double_mail,
        cut_key,
        cut_jwt,
        cut_pem,
        split_key,
        split_pem,
    ]
}

/// Member values that are secrets because of their name alone.
pub fn planted_members() -> Vec<(&'static str, Planted)> {
    vec![("password", Planted::secret(MEMBER_PASSWORD)), ("Authorization", Planted::text("Bearer ").s(BEARER))]
}

/// The user rule the tests pass as `--redact-rule`.
pub const CUSTOM_RULE: &str = r"\bbuild-\d+\.corp\.internal\b";

/// `text` with every placeholder turned into [`MASK`].
pub fn mask_placeholders(text: &str) -> String {
    let regex = regex::Regex::new(r"REDACTED_[A-Z0-9]+(?:_[A-Z0-9]+)*_[0-9]+");
    match regex {
        Ok(regex) => regex.replace_all(text, MASK).into_owned(),
        Err(_) => text.to_owned(),
    }
}

/// Every string in `value` with its placeholders masked, in document order.
pub fn masked_strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(mask_placeholders(s)),
        Value::Array(items) => items.iter().for_each(|item| masked_strings(item, out)),
        Value::Object(members) => members.values().for_each(|member| masked_strings(member, out)),
        _ => {}
    }
}
