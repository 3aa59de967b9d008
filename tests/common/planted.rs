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

/// One kind of planted secret or personal data: a string holding it in a
/// typical context, the rule expected to replace it, and whether it is
/// personal data that `--keep-personal-data` keeps.
#[derive(Clone, Debug)]
pub struct Kind {
    /// What it is, for messages.
    pub name: &'static str,
    /// The rule that must fire on it.
    pub rule: &'static str,
    /// The string as planted, with its secret parts marked.
    pub planted: Planted,
    /// Personal data rather than a secret.
    pub personal: bool,
    /// When set, the kind is an object member of this name whose value is
    /// [`Kind::planted`] (secret by its name alone).
    pub member: Option<&'static str>,
}

fn kind(name: &'static str, rule: &'static str, planted: Planted) -> Kind {
    Kind { name, rule, planted, personal: false, member: None }
}

fn personal(name: &'static str, rule: &'static str, planted: Planted) -> Kind {
    Kind { name, rule, planted, personal: true, member: None }
}

fn member(name: &'static str, member_name: &'static str, planted: Planted) -> Kind {
    Kind { name, rule: "secret-member", planted, personal: false, member: Some(member_name) }
}

/// An Anthropic key that is only ever planted wrapped in base64 or
/// URL-encoded, so a test can tell those rules found it.
pub const WRAPPED_KEY: &str =
    "sk-ant-api03-Wb3nQ8vK2xR7mT4pL9cZ1hF6jD0gS5aE-yU2iO7_pQ9rW4eT6yU8iO0pA2sD4fG6hJ8kL0zXcVbNmQwErTy-ZyXwVuAA";
/// base64 of [`WRAPPED_KEY`].
pub const WRAPPED_KEY_BASE64: &str = "c2stYW50LWFwaTAzLVdiM25ROHZLMnhSN21UNHBMOWNaMWhGNmpEMGdTNWFFLXlVMmlPN19wUTlyVzRlVDZ5VThpTzBwQTJzRDRmRzZoSjhrTDB6WGNWYk5tUXdFclR5LVp5WHdWdUFB";
/// The `.env` text wrapped over two lines by `base64`.
pub const WRAPPED_ENV: &str = "OPENAI_API_KEY=sk-proj-Qm7Zt2Lx9Vb4Nc8Rk1Hs6Jd3Fw5Gy0Pa\nDEBUG=false\n";
/// base64 of [`WRAPPED_ENV`], wrapped at 76 columns as `base64` does.
pub const WRAPPED_ENV_BASE64: &str =
    "T1BFTkFJX0FQSV9LRVk9c2stcHJvai1RbTdadDJMeDlWYjROYzhSazFIczZKZDNGdzVHeTBQYQpE\nRUJVRz1mYWxzZQo=";
/// An AWS secret access key planted with no name before it.
pub const AWS_SECRET_BARE: &str = "q8Hf2Lk9Tz/Vb3Nw7Rm1Xc5Pd0Gs4Jy6Ua+Ke2Wo";

/// Every kind the redaction must catch, one string each: vendor keys and
/// tokens, credentials in headers, URLs and assignments, private keys,
/// wrapped and encoded secrets, truncated and split secrets, secret object
/// members, e-mail addresses and user names, and personal data.
pub fn kinds() -> Vec<Kind> {
    let t = Planted::text;
    let split_head = &ANTHROPIC[..40];
    let split_tail = &ANTHROPIC[40..];
    vec![
        // Vendor keys and tokens.
        kind("Anthropic API key", "anthropic-key", t("ANTHROPIC_KEY is ").s(ANTHROPIC).t(" (rotate monthly)")),
        kind(
            "Anthropic admin key",
            "anthropic-key",
            t("admin: ").s("sk-ant-admin01-Hq2Lm8Zx4Cv6Bn0Ms3Kd7Jf1Gh5Pt9Ry-Aa").t(" end"),
        ),
        kind("OpenAI project key", "openai-key", t("using ").s(OPENAI).t(" for embeddings")),
        kind("OpenAI legacy key", "openai-key", t("old key ").s("sk-Ab3De5Fg7Hi9Jk1Lm3No5Pq7Rs9Tu1Vw3Xy5Za7").t(".")),
        kind(
            "OpenAI service-account key",
            "openai-key",
            t("svc ").s("sk-svcacct-Zp4Qr8St2Uv6Wx0Yz4Ab8Cd2Ef6Gh0Ij").t(" ok"),
        ),
        kind("GitHub classic token", "github-token", t("git push with ").s(GITHUB).t(" failed")),
        kind("GitHub OAuth token", "github-token", t("oauth ").s("gho_16C7e42F292c6912E7710c838347Ae178B4a").t(";")),
        kind("GitHub fine-grained token", "github-token", t("token ").s(GITHUB_FINE).t(" expires")),
        kind(
            "GitLab personal access token",
            "gitlab-token",
            t("glab auth login --token ").s("glpat-xR4vN8qL2mZ7tK9wB3cF").t("\n"),
        ),
        kind("GitLab runner token", "gitlab-token", t("runner token ").s("glrt-2CR8_eVxiioB1QmzPZwa").t(" registered")),
        kind("AWS access key id", "aws-access-key-id", t("key id ").s(AWS_KEY_ID).t(" in us-east-1")),
        kind("AWS session key id", "aws-access-key-id", t("temporary ").s("ASIAY34FZKBOKMUTVV7A").t(" until noon")),
        kind("AWS secret key by name", "aws-secret-key", t("aws_secret_access_key = ").s(AWS_SECRET).t("\n")),
        kind("AWS secret key with no name", "aws-secret-key-bare", t("creds: ").s(AWS_SECRET_BARE).t(" (copied)")),
        kind("Slack bot token", "slack-token", t("SLACK ").s(SLACK_BOT).t(" posts")),
        kind(
            "Slack user token",
            "slack-token",
            t("user ").s("xoxp-2345678901-3456789012-4567890123-abcdef0123456789").t("."),
        ),
        kind("Slack webhook", "slack-token", t("POST ").s(SLACK_WEBHOOK).t(" 200")),
        kind("Google API key", "google-api-key", t("maps key=").s(GOOGLE).t("&v=3")),
        kind("Stripe secret key", "stripe-key", t("stripe ").s(STRIPE).t(" charge")),
        kind("Stripe restricted key", "stripe-key", t("rk ").s("rk_live_51H8xYzQrStUvWxYz0123AbCd").t(" read-only")),
        kind("npm token", "npm-token", t("//registry.npmjs.org/:_authToken ").s(NPM).t("\n")),
        kind("Twilio API key", "twilio-key", t("TWILIO_API_KEY ").s("SKa4c123b1612dd272d1371c17149d4395").t(" (sms)")),
        kind("Twilio account SID", "twilio-key", t("account ").s("AC36b3216fdaeeb975729fae923d5a4fd1").t(" billing")),
        kind(
            "PyPI token",
            "pypi-token",
            t("password = ").s("pypi-AgEIcHlwaS5vcmcReQMsm9Wcz7uW9XFOGOeMVNen5n1Ae6pWzpF1qH6YytwMe4Lby").t("\n"),
        ),
        kind(
            "Telegram bot token",
            "telegram-bot-token",
            t("bot ").s("5823419076:A9qEwjky40UVsWmflzdE1F8ResqEDusTpkr").t(" polling"),
        ),
        kind(
            "DigitalOcean token",
            "service-token",
            t("doctl auth init -t ")
                .s("dop_v1_e9cb0eb53f16947ccf25ec84d8dbc74254770f58904dba41ecccc3fc1626e53a")
                .t("\n"),
        ),
        kind(
            "Slack app-level token",
            "slack-token",
            t("SLACK_APP ")
                .s("xapp-1-A0OVFZ8UZDZ-1222029729975-440034d6608697a8d41bed440e50454f31af3176813e02ea68ef786e4d3cea27"),
        ),
        kind(
            "Slack workflow webhook",
            "slack-token",
            t("POST ")
                .s("https://hooks.slack.com/triggers/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")
                .t(" 200"),
        ),
        kind(
            "Stripe webhook secret",
            "stripe-key",
            t("STRIPE_WH ").s("whsec_mDGAkJiG8XnBE3NnYJoQ9WmXeHH2fdee").t(" set"),
        ),
        kind(
            "Google OAuth client secret",
            "google-api-key",
            t("client ").s("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").t(" ok"),
        ),
        kind(
            "Google OAuth access token",
            "google-api-key",
            t("token ").s("ya29.a03Fs2QhX6KWxOiixgVoOnzyw2MzP0ZvzOMhfWuBBy").t(" expires"),
        ),
        kind(
            "Hugging Face token",
            "huggingface-token",
            t("huggingface-cli login ").s("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").t(" done"),
        ),
        kind(
            "Hugging Face organization token",
            "huggingface-token",
            t("org ").s("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").t(" used"),
        ),
        kind(
            "SendGrid key",
            "sendgrid-key",
            t("sendgrid: ").s("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").t(" (mail)"),
        ),
        kind(
            "Azure storage account key",
            "azure-key",
            t("DefaultEndpointsProtocol=https;AccountName=acmelogs;AccountKey=")
                .s("Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==")
                .t(";EndpointSuffix=core.windows.net"),
        ),
        kind(
            "Azure Service Bus key",
            "azure-key",
            t("Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey=")
                .s("Zq8xT2vN5mK7pL1rW4cF9hJ3bD6gS0aE2yU5iO8pQ1r=")
                .t("\n"),
        ),
        kind(
            "Azure SAS signature",
            "azure-key",
            t("https://acme.blob.core.windows.net/logs/a.txt?sv=2022-11-02&se=2030-01-01&sr=b&sp=r&sig=")
                .s("Qm9vT2xMZWFrU2lnbmF0dXJlVGhhdElzTG9uZw%3D%3D")
                .t(" fetched"),
        ),
        // Tokens and credentials in context.
        kind("JSON Web Token", "jwt", t("id_token ").s(JWT).t(" verified")),
        kind("JWT cut after its header", "jwt", t("token: ").s(&JWT[..48])),
        kind("Authorization: Bearer", "authorization-header", t("Authorization: Bearer ").s(BEARER).t("\n")),
        kind("Authorization: Basic", "authorization-header", t("authorization: Basic ").s(BASIC).t("\n")),
        kind(
            "Authorization: Token",
            "authorization-header",
            t("-H \"Authorization: Token ").s("9f8e7d6c5b4a39281706f5e4d3c2b1a0").t("\""),
        ),
        kind(
            "Proxy-Authorization",
            "authorization-header",
            t("Proxy-Authorization: Digest ").s("dXNlcjpwYXNzd29yZA9f").t("\n"),
        ),
        kind(
            "Bearer token in prose",
            "bearer-token",
            t("For staging use Bearer ").s(BEARER_PROSE).t(" (a Bearer token)."),
        ),
        kind("Basic credentials in prose", "basic-auth", t("send basic ").s(BASIC).t(" as the header")),
        kind(
            "Cookie header",
            "cookie-header",
            t("GET / HTTP/1.1\nCookie: ")
                .s("sessionid=8f14e45fceea167a5a36dedd4bea2543; csrftoken=Xq7vR2mN9pL4")
                .t("\nAccept: */*"),
        ),
        kind(
            "Set-Cookie header",
            "cookie-header",
            t("HTTP/1.1 200 OK\nSet-Cookie: ")
                .s("__Host-session=6c9a2f1e8d7b4a30; Path=/; Secure; HttpOnly")
                .t("\n\nok"),
        ),
        kind(
            "password in a URL",
            "url-credentials",
            t("DATABASE_URL=postgres://admin:").s(URL_PASSWORD).t("@db.internal:5432/app"),
        ),
        kind("quoted password assignment", "secret-assignment", t("export DB_PASSWORD=\"").s(DB_PASSWORD).t("\"\n")),
        kind("api_key in YAML", "secret-assignment", t("api_key: '").s("Lk3Jh5Gf7Ds9Aq1Wz").t("'\n")),
        kind(
            "client_secret in JSON text",
            "secret-assignment",
            t("{\"client_id\":\"app\",\"client_secret\":\"").s(CLIENT_SECRET).t("\"}"),
        ),
        kind(".env token", "secret-assignment-bare", t("LOG=info\nAPI_TOKEN=").s(API_TOKEN_VALUE).t("\nPORT=8080\n")),
        kind("DB_PASS", "secret-assignment-bare", t("DB_HOST=db\nDB_PASS=").s("Tr0ub4dor&3x").t("\nDB_NAME=app\n")),
        kind("MYSQL_PWD", "secret-assignment-bare", t("env MYSQL_PWD=").s("my5ql-Pw-2024").t(" mysql -u app")),
        kind("SMTP_PASS quoted", "secret-assignment", t("SMTP_PASS='").s("mailer pass 77").t("'\n")),
        // Private keys.
        kind("RSA private key", "private-key", t("id_rsa:\n").s(RSA_KEY).t("\n")),
        kind("OpenSSH private key", "private-key", t("id_ed25519:\n").s(OPENSSH_KEY).t("\n")),
        kind("private key cut mid-body", "private-key", t("cat ~/.ssh/id_rsa\n").s(&RSA_KEY[..90])),
        kind(
            "private key whose BEGIN line was cut off",
            "private-key-tail",
            t("…\n").s(&RSA_KEY[RSA_KEY.find('\n').map_or(0, |at| at + 1)..]).t("\n"),
        ),
        // Wrapped, encoded, cut and split secrets.
        kind("base64-wrapped key", "base64-wrapped-secret", t("echo $KEY | base64\n").s(WRAPPED_KEY_BASE64).t("\n")),
        kind(
            "base64 .env over two lines",
            "base64-wrapped-secret",
            t("data:\n  env: |\n").s(WRAPPED_ENV_BASE64).t("\n"),
        ),
        kind(
            "URL-encoded key",
            "anthropic-key",
            t("GET /proxy?key=").s(&WRAPPED_KEY.replace('-', "%2D")).t("&model=claude HTTP/1.1"),
        ),
        kind("key cut mid-key", "anthropic-key", t("export ANTHROPIC_API_KEY=").s(&ANTHROPIC[..17])),
        kind(
            "key split by a truncation marker",
            "truncated-secret-tail",
            t("log ").s(split_head).t(&hub_marker(70_000)).s(split_tail).t(" end"),
        ),
        kind(
            "key split by a truncation marker without newlines",
            "truncated-secret-tail",
            t("log ").s(split_head).t("…[hapi: truncated 70000 chars]…").s(split_tail).t(" end"),
        ),
        kind(
            "key behind \\u escapes in escaped JSON",
            "github-token",
            Planted::text("{\"env\":\"GH=").s(&GITHUB_FINE.replace('_', "\\u005f")).t("\"}"),
        ),
        kind("custom rule", "custom-1", t("artifacts uploaded from ").s(CUSTOM_HOST).t(" in 42s")),
        // Secret by member name alone.
        member("password member", "password", Planted::secret(MEMBER_PASSWORD)),
        member("accessToken member", "accessToken", Planted::secret("opaque-value-without-shape")),
        member("Cookie member", "Cookie", Planted::secret("theme=dark; sid=31d6cfe0d16ae931")),
        // People.
        kind("e-mail address", "email", t("Reported by ").s(EMAIL_1).t(" (docs: help@example.com)")),
        kind("macOS home path", "home-path-unix", t("Edited /Users/").s(USER_MAC).t("/code/app/src/main.rs")),
        kind("Linux home path", "home-path-unix", t("cp /home/").s(USER_LINUX).t("/backup/main.rs .")),
        kind(
            "Windows home path",
            "home-path-windows",
            t("C:\\Users\\").s(USER_WINDOWS).t("\\AppData\\Roaming\\app.toml"),
        ),
        kind(
            "dashed project folder",
            "home-path-dashed",
            t("written to /tmp/claude-1000/-home-").s(USER_DASHED).t("-projects-spotter/tasks/b1.output"),
        ),
        kind(
            "user name alone in ls -l",
            "known-user-name",
            t("drwxr-x--- 9 ").s(USER_LINUX).t(" staff 4096 Jan 11 00:22 ."),
        ),
        // Personal data.
        personal("national phone number", "phone-number", t("call ").s("020 7946 0958").t(" after six")),
        personal("phone number with country code", "phone-number", t("call ").s("+44 20 7946 0958").t(" after 5")),
        personal("phone number, E.164 without spaces", "phone-number", t("\"to\": \"").s("+14155550134").t("\"")),
        personal("North American phone number", "phone-number", t("Phone: ").s("(415) 555-0134").t(", ext. 12")),
        personal("IPv4 address", "ipv4-address", t("ssh deploy@").s("83.137.14.201").t(" -p 2222")),
        personal("private IPv4 address", "ipv4-address", t("inet ").s("192.168.1.37").t("/24 brd 192.168.1.255")),
        personal("IPv6 address", "ipv6-address", t("from ").s("2a00:1450:4001:82a::200e").t(" port 443")),
        personal("card number in groups", "card-number", t("card ").s("4111 1111 1111 1111").t(" exp 12/30")),
        personal("card number plain", "card-number", t("amex=").s("378282246310005").t(";")),
    ]
}

/// What fixtures legitimately hold that looks like personal data or a key:
/// none of it may be replaced.
pub const LOOK_ALIKES: &str = concat!(
    "createdAt 1755000001500, seq 42, id 01a22858-edb3-7840-884f-a62a072ad7df, ",
    "sha 035dfd363ef902015abb5d8c30eaa1c6af2b5b6d, version 1.2.3.4, \"version\": \"10.0.19041.1\", ",
    "node v20.11.1, listening on 127.0.0.1:8080 and [::1]:3000, 0.0.0.0, ",
    "at 2026-11-29T17:23:56.140Z (+01:00), Rust path std::collections::HashMap, ",
    "mac aa:bb:cc:dd:ee:ff, 12:30:45, diff @@ -12,7 +12,8 @@, 473839810000005 tokens, ",
    "doc 192.0.2.10 and 2001:db8::1, total 1976, hf_transfer, hf_hub_download, ",
    "claude-sonnet-4-5-20250929, packages/server/test/fixtures/codex/file-edits, ",
    "bypass=1 compass=north first_pass: 3, PWD=/workspace/app, ",
    "the cookie: jar, use Set-Cookie headers, SG.abc, base64 aGVsbG8gd29ybGQ=",
);

/// The text a kind puts in a message (member kinds say which member holds
/// the secret; the member itself goes beside the text).
pub fn kind_text(index: usize, kind: &Kind) -> String {
    match kind.member {
        Some(name) => format!("planted {index}: the `{name}` member beside this text"),
        None => kind.planted.original(),
    }
}

/// The extra object a member kind adds to its frame (`{"<name>": secret}`).
pub fn kind_members(kind: &Kind) -> Option<Value> {
    kind.member.map(|name| serde_json::json!({ name: kind.planted.original() }))
}

/// A capture holding every kind, in one format.
pub struct PlantedCapture {
    /// The files to write: (file name, text).
    pub files: Vec<(String, String)>,
    /// Per kind, the frame that holds it.
    pub frames: Vec<Value>,
}

/// A capture in the given format (`--from` name and suite) holding one
/// frame per kind: the kind's text in a message and, for member kinds, a
/// `meta` object beside it. `None` for a format this function does not
/// know yet: the caller fails, so a new format gets planted too.
pub fn capture_in_format(suite: &str, format: &str, kinds: &[Kind]) -> Option<PlantedCapture> {
    use serde_json::json;
    let with_meta = |mut frame: Value, kind: &Kind| {
        if let (Some(object), Some(meta)) = (frame.as_object_mut(), kind_members(kind)) {
            object.insert("meta".to_owned(), meta);
        }
        frame
    };
    let frames: Vec<Value> = match (suite, format) {
        ("chat", "hapi-messages") => kinds
            .iter()
            .enumerate()
            .map(|(index, kind)| {
                let seq = index + 1;
                let data = with_meta(
                    json!({"type": "assistant", "uuid": format!("u-{seq:03}"), "message": {"role": "assistant",
                        "model": "claude-opus-4-1-20250805", "content": [{"type": "text", "text": kind_text(index, kind)}]}}),
                    kind,
                );
                json!({"id": format!("msg-{seq:03}"), "seq": seq, "localId": null, "createdAt": 1_755_000_000_000u64 + seq as u64 * 1000,
                    "content": {"role": "agent", "content": {"type": "output", "data": data}}})
            })
            .collect(),
        ("claude-events" | "claude-display", "claude-stream-json") => kinds
            .iter()
            .enumerate()
            .map(|(index, kind)| {
                with_meta(
                    json!({"type": "assistant", "message": {"id": format!("msg_{index:03}"), "type": "message", "role": "assistant",
                        "model": "claude-sonnet-4-5-20250929", "content": [{"type": "text", "text": kind_text(index, kind)}]},
                        "parent_tool_use_id": null, "session_id": "s-1", "uuid": format!("u-{index:03}")}),
                    kind,
                )
            })
            .collect(),
        ("codex-app-server-events", "codex-app-server-jsonl") => kinds
            .iter()
            .enumerate()
            .map(|(index, kind)| {
                with_meta(
                    json!({"method": "item/completed", "params": {"item": {"type": "agentMessage", "id": format!("i-{index:03}"),
                        "text": kind_text(index, kind)}, "threadId": "t-1", "turnId": "turn-1"}}),
                    kind,
                )
            })
            .collect(),
        ("codex-exec-events", "codex-exec-jsonl") => kinds
            .iter()
            .enumerate()
            .map(|(index, kind)| {
                with_meta(
                    json!({"type": "item.completed", "item": {"id": format!("item_{index}"), "type": "agent_message",
                        "text": kind_text(index, kind)}}),
                    kind,
                )
            })
            .collect(),
        _ => return None,
    };
    let lines = |head: Vec<Value>, tail: Vec<Value>| -> String {
        head.iter().chain(&frames).chain(&tail).map(|frame| format!("{frame}\n")).collect()
    };
    let files = match format {
        "hapi-messages" => vec![("session.json".to_owned(), json!({"messages": frames}).to_string())],
        "claude-stream-json" => vec![(
            "run.jsonl".to_owned(),
            lines(
                vec![
                    json!({"type": "system", "subtype": "init", "session_id": "s-1", "cwd": "/workspace/app", "tools": [],
                    "model": "claude-sonnet-4-5-20250929", "permissionMode": "default", "uuid": "u-init"}),
                ],
                vec![
                    json!({"type": "result", "subtype": "success", "is_error": false, "result": "done", "session_id": "s-1",
                    "num_turns": 1, "duration_ms": 10, "uuid": "u-result"}),
                ],
            ),
        )],
        "codex-app-server-jsonl" => vec![(
            "run.jsonl".to_owned(),
            lines(
                vec![
                    json!({"method": "turn/started", "params": {"threadId": "t-1", "turn": {"id": "turn-1", "items": [], "status": "inProgress"}}}),
                ],
                vec![
                    json!({"method": "turn/completed", "params": {"threadId": "t-1", "turn": {"id": "turn-1", "items": [], "status": "completed"}}}),
                ],
            ),
        )],
        _ => vec![(
            "run.jsonl".to_owned(),
            lines(
                vec![json!({"type": "thread.started", "thread_id": "t-1"}), json!({"type": "turn.started"})],
                vec![
                    json!({"type": "turn.completed", "usage": {"input_tokens": 10, "cached_input_tokens": 0, "output_tokens": 5}}),
                ],
            ),
        )],
    };
    Some(PlantedCapture { files, frames })
}
