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
//! [`BUILTIN_RULES`]; keep them in step (`tests/cli/docs_links.rs` checks it).

use super::search::Finder;
use super::{personal, wrapped};
use regex::Regex;

/// Decides whether a candidate secret found by a pattern really is one.
pub type Accept = fn(&Candidate<'_>) -> bool;

/// A candidate secret and the text around it, for an [`Accept`] check: some
/// kinds are told apart from harmless look-alikes by what stands next to
/// them (an IP address from the middle of a longer dotted number, an AWS
/// secret from a slice of a longer base64 run).
#[derive(Clone, Copy, Debug)]
pub struct Candidate<'t> {
    /// The part of the match that would be replaced.
    pub secret: &'t str,
    /// The whole text before it.
    pub before: &'t str,
    /// The whole text after it.
    pub after: &'t str,
}

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
    /// Personal data that `--keep-personal-data` keeps (phone numbers, IP
    /// addresses, card numbers). E-mail addresses and user names are always
    /// replaced: they name a person outright.
    pub personal_data: bool,
    /// Search a refused match again from its second character (see
    /// [`Rule::find_all`]): for patterns whose match can start before the
    /// value it should find (`12 4111 1111 1111 1111`).
    pub rescan_refused: bool,
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
        personal_data: false,
        rescan_refused: false,
    },
    RuleSpec {
        id: "private-key-tail",
        label: "PRIVATE_KEY",
        finds: "the body and END line of a PEM private key whose BEGIN line was cut off",
        pattern: r"(?:[A-Za-z0-9+/=]+(?:\r?\n|(?:\\+r)?\\+n)+)+-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----",
        groups: &[],
        accept: None,
        personal_data: false,
        rescan_refused: false,
    },
    RuleSpec {
        id: "anthropic-key",
        label: "ANTHROPIC_KEY",
        finds: "Anthropic API and admin keys (`sk-ant-…`)",
        pattern: r"\bsk-ant-[A-Za-z0-9_-]+",
        groups: &[],
        accept: None,
        personal_data: false,
        rescan_refused: false,
    },
    RuleSpec {
        id: "openai-key",
        label: "OPENAI_KEY",
        finds: "OpenAI keys (`sk-proj-…`, `sk-svcacct-…`, `sk-admin-…`, legacy `sk-…`)",
        pattern: r"\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]+|\bsk-[A-Za-z0-9]{20,}",
        groups: &[],
        accept: None,
        personal_data: false,
        rescan_refused: false,
    },
    RuleSpec {
        id: "github-token",
        label: "GITHUB_TOKEN",
        finds: "GitHub tokens (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`)",
        pattern: r"\bgh[pousr]_[A-Za-z0-9]{4,}|\bgithub_pat_[A-Za-z0-9_]{4,}",
        groups: &[],
        accept: None,
        personal_data: false,
        rescan_refused: false,
    },
    // Prefixes as gitleaks lists them (gitlab-pat, gitlab-ptt, gitlab-rrt,
    // gitlab-deploy-token, gitlab-runner-authentication-token, …); like the
    // other prefix rules, a cut token is caught from 8 characters on.
    RuleSpec {
        id: "gitlab-token",
        label: "GITLAB_TOKEN",
        finds: "GitLab tokens (`glpat-`, `gldt-`, `glrt-`, `glptt-`, `glcbt-`, `glft-`, `glimt-`, `glagent-`, `gloas-`, `glsoat-`, `glffct-`, runner registration `GR1348941…`)",
        pattern: r"\bgl(?:pat|ptt|dt|rt|cbt|ft|imt|agent|oas|soat|ffct)-[A-Za-z0-9_-]{8,}|\bGR1348941[A-Za-z0-9_-]{8,}",
        groups: &[],
        accept: None,
        personal_data: false,
        rescan_refused: false,
    },
    RuleSpec {
        id: "aws-access-key-id",
        label: "AWS_KEY_ID",
        finds: "AWS access key ids (`AKIA…`, `ASIA…`)",
        pattern: r"\b(?:AKIA|ASIA)[A-Z0-9]{8,}",
        groups: &[],
        accept: None,
        personal_data: false,
        rescan_refused: false,
    },
    RuleSpec {
        id: "aws-secret-key",
        label: "AWS_SECRET",
        finds: "AWS secret access keys after their name (`aws_secret_access_key = …`, `\"SecretAccessKey\": \"…\"`)",
        pattern: r#"(?i)\b(?:aws_?)?secret_?access_?key["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{8,})"#,
        groups: &[1],
        accept: None,
        personal_data: false,
        rescan_refused: false,
    },
    RuleSpec {
        id: "slack-token",
        label: "SLACK_TOKEN",
        finds: "Slack tokens (`xoxb-`, `xoxp-`, `xoxa-`, `xoxr-`, `xoxs-`, `xoxo-`, `xoxe-`, `xoxe.xoxp-`), app-level tokens (`xapp-`), and incoming-webhook and workflow-webhook URLs (`hooks.slack.com/services/`, `/triggers/`, `/workflows/`)",
        pattern: r"\b(?:xoxe\.)?xox[abposre]-[A-Za-z0-9-]+|\bxapp-[0-9]+-[A-Za-z0-9-]+|https://hooks\.slack\.com/(?:services|triggers|workflows)/[A-Za-z0-9/_+-]+",
        groups: &[],
        accept: None,
        personal_data: false,
        rescan_refused: false,
    },
    RuleSpec {
        id: "google-api-key",
        label: "GOOGLE_KEY",
        finds: "Google API keys (`AIza…`), OAuth client secrets (`GOCSPX-…`), access tokens (`ya29.…`) and refresh tokens (`1//0…`)",
        pattern: r"\bAIza[0-9A-Za-z_-]{10,}|\bGOCSPX-[0-9A-Za-z_-]{8,}|\bya29\.[0-9A-Za-z_-]{16,}|\b1//0[0-9A-Za-z_-]{32,}",
        groups: &[],
        accept: None,
        personal_data: false,
        rescan_refused: false,
    },
    RuleSpec {
        id: "stripe-key",
        label: "STRIPE_KEY",
        finds: "Stripe secret and restricted keys (`sk_live_`, `rk_live_`, `sk_test_`, `sk_prod_`, …) and webhook signing secrets (`whsec_`)",
        pattern: r"\b[sr]k_(?:live|test|prod)_[A-Za-z0-9]{8,}|\bwhsec_[A-Za-z0-9+/=]{16,}",
        groups: &[],
        accept: None,
        personal_data: false,
        rescan_refused: false,
    },
    RuleSpec {
        id: "npm-token",
        label: "NPM_TOKEN",
        finds: "npm access tokens (`npm_…`)",
        pattern: r"\bnpm_[A-Za-z0-9]{16,}",
        groups: &[],
        accept: None,
        personal_data: false,
        rescan_refused: false,
    },
    // gitleaks twilio-api-key (`SK` + 32 hex) and the account SID (`AC` +
    // 32 hex) that goes with it in every Twilio credential pair.
    RuleSpec {
        id: "twilio-key",
        label: "TWILIO_KEY",
        finds: "Twilio API key SIDs (`SK` + 32 hex) and account SIDs (`AC` + 32 hex)",
        pattern: r"\b(?:SK|AC)[0-9a-fA-F]{32}\b",
        groups: &[],
        accept: None,
        personal_data: false,
        rescan_refused: false,
    },
    // gitleaks pypi-upload-token: every token is a macaroon whose base64
    // starts `AgE` (`pypi-AgEIcHlwaS5vcmc…`, TestPyPI `pypi-AgENdGVzdC5weXBp…`).
    RuleSpec {
        id: "pypi-token",
        label: "PYPI_TOKEN",
        finds: "PyPI and TestPyPI upload tokens (`pypi-AgE…`)",
        pattern: r"\bpypi-AgE[A-Za-z0-9_-]{16,}",
        groups: &[],
        accept: None,
        personal_data: false,
        rescan_refused: false,
    },
    // gitleaks telegram-bot-api-token: the bot's numeric id, a colon and 35
    // characters starting with `A`.
    RuleSpec {
        id: "telegram-bot-token",
        label: "TELEGRAM_TOKEN",
        finds: "Telegram bot tokens (`123456789:AA…`, 35 characters after the colon)",
        pattern: r"\b[0-9]{5,16}:A[A-Za-z0-9_-]{34}\b",
        groups: &[],
        accept: None,
        personal_data: false,
        rescan_refused: false,
    },
    // Tokens whose prefix names their service, as gitleaks lists them:
    // DigitalOcean, Shopify, Linear, Postman, Doppler, Databricks, Sentry,
    // Pulumi, HashiCorp Vault, age, Groq, Replicate, Perplexity, xAI,
    // Grafana, New Relic, Supabase, Netlify, Tailscale, Docker Hub,
    // PlanetScale, RubyGems, Figma, Notion, Square, Mailgun, Dynatrace,
    // Alibaba Cloud, Fly.io and Render. Each needs 16 characters after its
    // prefix, so a prefix in prose is left alone.
    RuleSpec {
        id: "service-token",
        label: "SERVICE_TOKEN",
        finds: "tokens of services that prefix them (DigitalOcean `dop_v1_`/`doo_v1_`/`dor_v1_`, Shopify `shpat_`/`shpss_`/`shpca_`/`shppa_`, Linear `lin_api_`, Postman `PMAK-`, Doppler `dp.pt.`, Databricks `dapi`, Sentry `sntrys_`/`sntryu_`, Pulumi `pul-`, Vault `hvs.`/`hvb.`, age `AGE-SECRET-KEY-1`, Groq `gsk_`, Replicate `r8_`, Perplexity `pplx-`, xAI `xai-`, Grafana `glc_`/`glsa_`, New Relic `NRAK-`, Supabase `sbp_`, Netlify `nfp_`, Tailscale `tskey-`, Docker Hub `dckr_pat_`, PlanetScale `pscale_tkn_`/`pscale_pw_`, RubyGems `rubygems_`, Figma `figd_`, Notion `ntn_`, Square `sq0atp-`/`sq0csp-`, Mailgun `key-`, Dynatrace `dt0c01.`, Alibaba `LTAI`, Fly.io `fo1_`, Render `rnd_`)",
        pattern: concat!(
            r"\b(?:do[opr]_v1_|shp(?:at|ss|ca|pa)_|lin_api_|PMAK-|dp\.(?:pt|st|sa|ct|scim|audit)\.|dapi|sntry[su]_|pul-",
            r"|hv[sb]\.|AGE-SECRET-KEY-1|gsk_|r8_|pplx-|xai-|glc_|glsa_|NRAK-|sbp_|nfp_|tskey-[a-z]+-|dckr_pat_",
            r"|pscale_(?:tkn|pw|oauth)_|rubygems_|figd_|ntn_|sq0(?:atp|csp)-|key-|dt0c01\.|LTAI|fo1_|rnd_)",
            r"[A-Za-z0-9_+/=.-]{16,}",
        ),
        groups: &[],
        accept: Some(has_a_digit),
        personal_data: false,
        rescan_refused: false,
    },
    // gitleaks huggingface-access-token (`hf_` + 34 letters) and
    // huggingface-organization-api-token (`api_org_` + 34 letters); from 16
    // characters with both cases, so `hf_transfer` or `hf_hub` stay.
    RuleSpec {
        id: "huggingface-token",
        label: "HUGGINGFACE_TOKEN",
        finds: "Hugging Face user and organization tokens (`hf_…`, `api_org_…`; 16+ characters of both cases)",
        pattern: r"\b(?:hf|api_org)_[A-Za-z0-9]{16,}",
        groups: &[],
        accept: Some(has_both_cases),
        personal_data: false,
        rescan_refused: false,
    },
    // gitleaks sendgrid-api-token: `SG.` + 22 characters + `.` + 43
    // characters; caught from 16 characters after the prefix when cut.
    RuleSpec {
        id: "sendgrid-key",
        label: "SENDGRID_KEY",
        finds: "SendGrid API keys (`SG.<22>.<43>`, also cut after the first part)",
        pattern: r"\bSG\.[A-Za-z0-9_-]{16,}(?:\.[A-Za-z0-9_-]*)?",
        groups: &[],
        accept: None,
        personal_data: false,
        rescan_refused: false,
    },
    // detect-secrets AzureStorageKeyDetector (`AccountKey=` + base64), the
    // Service Bus / Event Hubs `SharedAccessKey=` of the same connection
    // strings, and the `sig=` of shared access signature URLs.
    RuleSpec {
        id: "azure-key",
        label: "AZURE_KEY",
        finds: "Azure connection-string keys (`AccountKey=…`, `SharedAccessKey=…`) and SAS URL signatures (`?sig=…`)",
        pattern: r#"(?i)\b(?:AccountKey|SharedAccessKey)["']?\s*[=:]\s*["']?([A-Za-z0-9+/]{8,}={0,2})|[?&]sig=([A-Za-z0-9%+/]{16,}(?:=|%3D){0,2})"#,
        groups: &[1, 2],
        accept: None,
        personal_data: false,
        rescan_refused: false,
    },
    RuleSpec {
        id: "jwt",
        label: "JWT",
        finds: "JSON Web Tokens (`eyJ….eyJ….…`), also cut after the header",
        pattern: r"\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*)?",
        groups: &[],
        accept: None,
        personal_data: false,
        rescan_refused: false,
    },
    RuleSpec {
        id: "authorization-header",
        label: "CREDENTIAL",
        finds: "the credential of an `Authorization:` / `Proxy-Authorization:` header, whatever its scheme",
        pattern: r#"(?i)\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:(?:bearer|basic|token|digest|negotiate)\s+)?([^\s"'\\,;]+)"#,
        groups: &[1],
        accept: Some(not_a_reference),
        personal_data: false,
        rescan_refused: false,
    },
    RuleSpec {
        id: "cookie-header",
        label: "COOKIE",
        finds: "the value of a `Cookie:` / `Set-Cookie:` header (to the end of the line: every `name=value` pair)",
        pattern: r#"(?i)\b(?:set-)?cookie["']?[ \t]*:[ \t]*["']?([^\r\n"'\\]+)"#,
        groups: &[1],
        accept: Some(holds_a_cookie_pair),
        personal_data: false,
        rescan_refused: false,
    },
    RuleSpec {
        id: "bearer-token",
        label: "BEARER_TOKEN",
        finds: "`Bearer <token>` anywhere (token of 8+ characters with a digit, or 24+ characters)",
        pattern: r"(?i)\bbearer\s+([A-Za-z0-9._~+/-]+=*)",
        groups: &[1],
        accept: Some(looks_like_credential),
        personal_data: false,
        rescan_refused: false,
    },
    RuleSpec {
        id: "basic-auth",
        label: "BASIC_AUTH",
        finds: "`Basic <base64>` credentials (the base64 decodes to `user:password`)",
        pattern: r"(?i)\bbasic\s+([A-Za-z0-9+/]{6,}={0,2})",
        groups: &[1],
        accept: Some(decodes_to_user_password),
        personal_data: false,
        rescan_refused: false,
    },
    RuleSpec {
        id: "url-credentials",
        label: "URL_PASSWORD",
        finds: "passwords in URLs (`scheme://user:password@host`)",
        pattern: r#"\b[A-Za-z][A-Za-z0-9+.-]*://[^\s/:@"'\\]+:([^\s/@"'\\]+)@"#,
        groups: &[1],
        accept: None,
        personal_data: false,
        rescan_refused: false,
    },
    RuleSpec {
        id: "secret-assignment",
        label: "SECRET",
        finds: "quoted values assigned to secret-looking names (`DB_PASSWORD=\"…\"`, `api_key: '…'`, `\"client_secret\": \"…\"`): names ending in password, passwd, passphrase, secret, api key, access key, private key, token or credential(s), and names that are or end in `_pass` or `_pwd` (`DB_PASS`, `MYSQL_PWD`)",
        pattern: concat!(
            r#"(?i)(?:\b[A-Za-z0-9_.-]*?(?:password|passwd|passphrase|secret|api[_-]?key|access[_-]?key|private[_-]?key|token|credentials?)"#,
            r#"|\b(?:[A-Za-z0-9_.-]*[_.-])?pass|\b[A-Za-z0-9_.-]*[_.-]pwd)"#,
            r#"["']?[ \t]*[:=][ \t]*(?:"([^"\\\n]*)"|'([^'\n]*)')"#,
        ),
        groups: &[1, 2],
        accept: Some(looks_like_assigned_secret),
        personal_data: false,
        rescan_refused: false,
    },
    RuleSpec {
        id: "secret-assignment-bare",
        label: "SECRET",
        finds: "unquoted values with a digit assigned to the same names (`.env` lines such as `API_TOKEN=a8f5…`, `DB_PASS=…`); a bare word without digits is taken for code (`csrfToken = document.querySelector`)",
        pattern: concat!(
            r#"(?i)(?:\b[A-Za-z0-9_.-]*?(?:password|passwd|passphrase|secret|api[_-]?key|access[_-]?key|private[_-]?key|token|credentials?)"#,
            r#"|\b(?:[A-Za-z0-9_.-]*[_.-])?pass|\b[A-Za-z0-9_.-]*[_.-]pwd)"#,
            r#"["']?[ \t]*[:=][ \t]*([^\s"'\\,;{}\[\]()]+)"#,
        ),
        groups: &[1],
        accept: Some(looks_like_bare_secret),
        personal_data: false,
        rescan_refused: false,
    },
    RuleSpec {
        id: "base64-wrapped-secret",
        label: "ENCODED_SECRET",
        finds: "base64 (standard or URL-safe, possibly wrapped over lines) that decodes to text one of the rules above finds (`echo $KEY | base64`)",
        pattern: r"[A-Za-z0-9+/_-]{16,}(?:\r?\n[A-Za-z0-9+/_-]+)*={0,2}",
        groups: &[],
        accept: Some(wrapped::decodes_to_a_secret),
        personal_data: false,
        rescan_refused: false,
    },
    // AWS documents a secret access key as 40 characters of the base64
    // alphabet; with no name before it only its shape tells it, so it must
    // stand alone (not a slice of a longer run), mix cases and digits, not
    // be hex (a SHA-1), and look random (Shannon entropy ≥ 4.5 bits per
    // character, as gitleaks' generic rules weigh entropy; a 40-character
    // camelCase word or path scores about 4.2).
    RuleSpec {
        id: "aws-secret-key-bare",
        label: "AWS_SECRET",
        finds: "AWS secret access keys with no name before them: 40 base64 characters standing alone, of both cases with a digit, random-looking (entropy ≥ 4.5 bits per character)",
        pattern: r"[A-Za-z0-9/+]{40}",
        groups: &[],
        accept: Some(looks_like_bare_aws_secret),
        personal_data: false,
        rescan_refused: false,
    },
    RuleSpec {
        id: "email",
        label: "EMAIL",
        finds: "e-mail addresses (except RFC 2606 documentation domains, `git@` remotes and public no-reply and role addresses)",
        pattern: r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b",
        groups: &[],
        accept: Some(is_personal_address),
        personal_data: false,
        rescan_refused: false,
    },
    RuleSpec {
        id: "ipv6-address",
        label: "IP",
        finds: "IPv6 addresses (three or more groups, or all eight) except loopback, unspecified and the 2001:db8::/32 documentation range",
        pattern: r"[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?:\.[0-9]{1,3}){0,3}",
        groups: &[],
        accept: Some(personal::is_ipv6_address),
        personal_data: true,
        rescan_refused: true,
    },
    RuleSpec {
        id: "ipv4-address",
        label: "IP",
        finds: "IPv4 addresses except 0.x, loopback, network and broadcast (`.0`, `.255`) and the RFC 5737 documentation ranges; not inside a longer dotted number or after `version`",
        pattern: r"\b[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\b",
        groups: &[],
        accept: Some(personal::is_ipv4_address),
        personal_data: true,
        rescan_refused: true,
    },
    RuleSpec {
        id: "card-number",
        label: "CARD",
        finds: "payment card numbers: 13–19 digits (plain, or in groups split by one kind of space or dash) with a card network's prefix and a valid Luhn check digit",
        pattern: r"\b[0-9](?:[ -]?[0-9]){12,18}\b",
        groups: &[],
        accept: Some(personal::is_card_number),
        personal_data: true,
        rescan_refused: true,
    },
    RuleSpec {
        id: "phone-number",
        label: "PHONE",
        finds: "phone numbers with a `+` country code (E.164: 8–15 digits, spaces, dots, dashes or an area code in parentheses), North American numbers (`(415) 555-0134`, `415-555-0134`, `1-800-555-0199`) and national numbers with a trunk `0` split in groups (`020 7946 0958`, `(030) 1234 5678`, `01 23 45 67 89`: 10 or 11 digits)",
        pattern: concat!(
            r"\+[1-9][0-9]{0,3}(?:[ .-]?(?:\([0-9]{1,4}\)|[0-9]{1,6})){1,6}",
            r"|(?:\b1[ .-])?(?:\([2-9][0-9]{2}\)[ ]?|\b[2-9][0-9]{2}[.-])[0-9]{3}[.-][0-9]{4}\b",
            r"|(?:\(0[1-9][0-9]{0,4}\)|\b0[1-9][0-9]{0,4})(?:[ .-][0-9]{2,8}){1,4}\b",
        ),
        groups: &[],
        accept: Some(personal::is_phone_number),
        personal_data: true,
        rescan_refused: true,
    },
    RuleSpec {
        id: "home-path-unix",
        label: "USER",
        finds: "the user name in `/Users/<name>` and `/home/<name>` paths",
        pattern: r"(?:^|[^A-Za-z0-9._~/:-]|file://)/(?:Users|home)/([A-Za-z0-9._-]+)",
        groups: &[1],
        accept: Some(is_user_name),
        personal_data: false,
        rescan_refused: false,
    },
    RuleSpec {
        id: "home-path-dashed",
        label: "USER",
        finds: "the user name in the dashed project folders Claude Code derives from a working directory (`~/.claude/projects/-home-<name>-src-app`, `/tmp/claude-1000/-Users-<name>-work`)",
        pattern: r#"(?:^|[/\s"'=:])-(?:Users|home)-([A-Za-z0-9_]+)[-/]"#,
        groups: &[1],
        accept: Some(is_user_name),
        personal_data: false,
        rescan_refused: false,
    },
    RuleSpec {
        id: "home-path-windows",
        label: "USER",
        finds: r"the user name in `C:\Users\<name>` paths (any drive, `\`, `\\` or `/` separators)",
        pattern: r#"(?i)\b[A-Z]:(?:\\+|/)Users(?:\\+|/)([^\\/\s"':*?<>|]+)"#,
        groups: &[1],
        accept: Some(is_user_name),
        personal_data: false,
        rescan_refused: false,
    },
    RuleSpec {
        id: "truncated-secret-tail",
        label: "SECRET_TAIL",
        finds: "the rest of a secret that a `…[hapi: truncated N chars]…` marker cut in two, with or without the newlines the hub writes around it",
        pattern: r"REDACTED_[A-Z0-9_]+_[0-9]+(?:\r?\n)?…\[hapi: truncated [0-9]+ chars\]…(?:\r?\n)?([A-Za-z0-9_+/=.-]+)",
        groups: &[1],
        accept: None,
        personal_data: false,
        rescan_refused: false,
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
    /// The same pattern, searched fast on any text (see [`super::search`]).
    pub finder: Finder,
    /// Groups holding the secret (empty = whole match).
    pub groups: Vec<usize>,
    /// Extra check on the secret.
    pub accept: Option<Accept>,
    /// Whether a refused match is searched again from its second character.
    pub rescan_refused: bool,
}

/// Compiles `pattern` for both searches.
fn compile(pattern: &str) -> Result<(Regex, Finder), regex::Error> {
    let regex = Regex::new(pattern)?;
    let finder = Finder::new(pattern).map_err(|err| regex::Error::Syntax(err.0))?;
    Ok((regex, finder))
}

impl Rule {
    /// A rule that finds `pattern` (whole matches, no check): the learned
    /// user names.
    pub fn plain(id: &str, label: &str, pattern: &str) -> Result<Rule, regex::Error> {
        let (regex, finder) = compile(pattern)?;
        Ok(Rule {
            id: id.to_owned(),
            label: label.to_owned(),
            regex,
            finder,
            groups: Vec::new(),
            accept: None,
            rescan_refused: false,
        })
    }

    /// Compiles a built-in rule.
    pub fn builtin(spec: &RuleSpec) -> Result<Rule, regex::Error> {
        let (regex, finder) = compile(spec.pattern)?;
        Ok(Rule {
            id: spec.id.to_owned(),
            label: spec.label.to_owned(),
            regex,
            finder,
            groups: spec.groups.to_vec(),
            accept: spec.accept,
            rescan_refused: spec.rescan_refused,
        })
    }

    /// Compiles a user rule (`--redact-rule`): the first capture group is the
    /// secret when the pattern has one, else the whole match.
    pub fn custom(index: usize, pattern: &str) -> Result<Rule, regex::Error> {
        let (regex, finder) = compile(pattern)?;
        let groups = if regex.captures_len() > 1 { vec![1] } else { Vec::new() };
        Ok(Rule {
            id: format!("custom-{index}"),
            label: format!("CUSTOM{index}"),
            regex,
            finder,
            groups,
            accept: None,
            rescan_refused: false,
        })
    }

    /// Every (byte range, secret) this rule finds in `text`, left to right.
    ///
    /// For a rule with `rescan_refused`, a match its check refuses does not
    /// hide a secret that starts inside it (`12 4111 1111 1111 1111`: the
    /// card starts after the `12`): the search goes on from the match's
    /// second character. Refused matches longer than [`RETRY_WITHIN`] are
    /// skipped whole all the same, so a long run costs one check, not one
    /// per byte.
    pub fn find_all<'t>(&self, text: &'t str) -> Vec<(std::ops::Range<usize>, &'t str)> {
        let mut found = Vec::new();
        let mut at = 0;
        let mut captures = self.finder.create_captures();
        while at <= text.len() {
            self.finder.search_at(text, at, &mut captures);
            let Some(whole) = captures.get_group(0).map(|span| span.range()) else { break };
            let secret = if self.groups.is_empty() {
                Some(whole.clone())
            } else {
                self.groups.iter().find_map(|&group| captures.get_group(group).map(|span| span.range()))
            };
            let accepted = secret.filter(|secret| {
                let candidate = Candidate {
                    secret: &text[secret.clone()],
                    before: &text[..secret.start],
                    after: &text[secret.end..],
                };
                !secret.is_empty() && self.accept.is_none_or(|accept| accept(&candidate))
            });
            at = match accepted {
                Some(secret) => {
                    found.push((secret.clone(), &text[secret]));
                    whole.end.max(whole.start + 1)
                }
                None if self.rescan_refused && whole.len() <= RETRY_WITHIN => next_char_boundary(text, whole.start),
                None => whole.end.max(whole.start + 1),
            };
        }
        found
    }
}

/// Refused matches up to this many bytes are searched again from their
/// second character (see [`Rule::find_all`]).
pub const RETRY_WITHIN: usize = 64;

fn next_char_boundary(text: &str, at: usize) -> usize {
    text[at..].chars().next().map_or(at + 1, |c| at + c.len_utf8())
}

/// Compiles the built-in table. The patterns are constants checked by the
/// tests, so a failure here is a bug; it is still reported, not a panic.
pub fn builtin_rules() -> Result<Vec<Rule>, regex::Error> {
    BUILTIN_RULES.iter().map(Rule::builtin).collect()
}

/// A bearer token rather than a word of prose.
fn looks_like_credential(candidate: &Candidate<'_>) -> bool {
    let token = candidate.secret;
    let has_digit = token.bytes().any(|b| b.is_ascii_digit());
    let has_letter = token.bytes().any(|b| b.is_ascii_alphabetic());
    (token.len() >= 8 && has_digit && has_letter) || token.len() >= 24
}

/// An authorization value that is not a variable or template reference.
fn not_a_reference(candidate: &Candidate<'_>) -> bool {
    is_not_a_reference(candidate.secret)
}

fn is_not_a_reference(value: &str) -> bool {
    let reference = value.starts_with(['$', '<', '{', '%']);
    let scheme_only = ["bearer", "basic", "header"].iter().any(|word| value.eq_ignore_ascii_case(word));
    !reference && !scheme_only
}

/// A value that is really assigned, not a type name, number or reference.
fn looks_like_assigned_secret(candidate: &Candidate<'_>) -> bool {
    is_assigned_value(candidate.secret)
}

fn is_assigned_value(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    value.len() >= 3
        && is_not_a_reference(value)
        && !value.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && !matches!(lower.as_str(), "null" | "none" | "true" | "false" | "undefined" | "string" | "str" | "required")
}

/// An unquoted assigned value that is data, not code: it has a digit.
fn looks_like_bare_secret(candidate: &Candidate<'_>) -> bool {
    is_assigned_value(candidate.secret) && candidate.secret.bytes().any(|b| b.is_ascii_digit())
}

/// A token of upper- and lower-case letters (generated), not a snake_case name.
/// A token with a digit somewhere: generated tokens have them, words and
/// kebab-case names after a short prefix (`key-value-store`) do not.
fn has_a_digit(candidate: &Candidate<'_>) -> bool {
    candidate.secret.bytes().any(|b| b.is_ascii_digit())
}

fn has_both_cases(candidate: &Candidate<'_>) -> bool {
    let token = candidate.secret;
    token.bytes().any(|b| b.is_ascii_uppercase()) && token.bytes().any(|b| b.is_ascii_lowercase())
}

/// A header value that sets a cookie (`name=value`), not the word in prose.
fn holds_a_cookie_pair(candidate: &Candidate<'_>) -> bool {
    let value = candidate.secret.trim();
    value
        .split(';')
        .any(|pair| pair.split_once('=').is_some_and(|(name, value)| !name.trim().is_empty() && !value.is_empty()))
        && !contains_only_placeholders(value)
}

/// Whether every `name=value` value is already a placeholder.
fn contains_only_placeholders(value: &str) -> bool {
    value.split(';').all(|pair| pair.split_once('=').is_none_or(|(_, value)| value.trim().starts_with("REDACTED_")))
}

/// Forty base64 characters that stand alone and look random (see the rule).
fn looks_like_bare_aws_secret(candidate: &Candidate<'_>) -> bool {
    let key = candidate.secret;
    let in_run = |c: char| c.is_ascii_alphanumeric() || matches!(c, '/' | '+' | '_' | '-');
    let alone = !candidate.before.ends_with(in_run) && !candidate.after.starts_with(|c: char| in_run(c) || c == '=');
    let mixed = key.bytes().any(|b| b.is_ascii_uppercase())
        && key.bytes().any(|b| b.is_ascii_lowercase())
        && key.bytes().any(|b| b.is_ascii_digit());
    let hex = key.bytes().all(|b| b.is_ascii_hexdigit());
    let path_like = key.starts_with('/') || key.ends_with('/') || key.contains("//");
    alone && mixed && !hex && !path_like && shannon_entropy(key) >= 4.5
}

/// Bits per character of `text`'s character distribution.
pub fn shannon_entropy(text: &str) -> f64 {
    let mut counts = std::collections::HashMap::new();
    for c in text.chars() {
        *counts.entry(c).or_insert(0usize) += 1;
    }
    let total = text.chars().count() as f64;
    counts.values().map(|&n| n as f64 / total).map(|p| -p * p.log2()).sum()
}

/// Base64 of `user:password`, possibly cut short.
fn decodes_to_user_password(candidate: &Candidate<'_>) -> bool {
    let usable = candidate.secret.trim_end_matches('=');
    let usable = &usable[..usable.len() - usable.len() % 4];
    wrapped::decode_base64(usable)
        .is_some_and(|bytes| bytes.contains(&b':') && bytes.iter().all(|&b| b.is_ascii_graphic() || b == b' '))
}

/// An address a person could receive mail at (documentation domains and git
/// remotes are not personal data).
fn is_personal_address(candidate: &Candidate<'_>) -> bool {
    let address = candidate.secret;
    let Some((local, domain)) = address.rsplit_once('@') else { return false };
    let domain = domain.to_ascii_lowercase();
    let documentation = ["example.com", "example.org", "example.net"].contains(&domain.as_str())
        || [".example", ".invalid", ".test", ".localhost"].iter().any(|tld| domain.ends_with(tld));
    !(documentation || local == "git" || super::role_addresses::is_public_role_address(address))
}

/// Whether a name found in a home-directory path is a person's: not a
/// placeholder, not a shared folder and not a generic account (`/home/user`
/// is also how scrubbed paths are commonly written).
fn is_user_name(candidate: &Candidate<'_>) -> bool {
    is_personal_name(candidate.secret)
}

/// The same check on a bare name.
pub fn is_personal_name(name: &str) -> bool {
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
    fn patterns_and_checks_together_select_the_whole_value() {
        assert_eq!(
            secrets("phone-number", "call 1-800-555-0199 or +1 (415) 555-0134."),
            ["1-800-555-0199", "+1 (415) 555-0134"]
        );
        assert_eq!(secrets("card-number", "order 12 4111 1111 1111 1111 paid"), ["4111 1111 1111 1111"]);
        assert_eq!(secrets("ipv4-address", "hosts 10.1.2.3, 1.2.3.4.5 and 127.0.0.1"), ["10.1.2.3"]);
        assert_eq!(secrets("ipv6-address", "via fe80::1ff:fe23:4567:890a%eth0"), ["fe80::1ff:fe23:4567:890a"]);
        assert_eq!(secrets("cookie-header", "Cookie: a=1; b=2\nHost: x"), ["a=1; b=2"]);
        assert_eq!(
            secrets("secret-assignment-bare", "DB_PASS=s3cret bypass=1x PWD=/app MYSQL_PWD=p4ss"),
            ["s3cret", "p4ss"]
        );
        let key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
        assert_eq!(secrets("aws-secret-key-bare", &format!("pair AKIA… {key}\n")), [key]);
        assert!(secrets("aws-secret-key-bare", &format!("x{key}")).is_empty(), "a slice of a longer run");
        assert!(secrets("aws-secret-key-bare", "035dfd363ef902015abb5d8c30eaa1c6af2b5b6d").is_empty());
        let marker = "REDACTED_ANTHROPIC_KEY_1…[hapi: truncated 9000 chars]…tailOfTheKey-42 rest";
        assert_eq!(secrets("truncated-secret-tail", marker), ["tailOfTheKey-42"]);
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
        let check = |secret: &str| decodes_to_user_password(&Candidate { secret, before: "", after: "" });
        assert!(check("YWxpY2U6d29uZGVybGFuZA=="));
        assert!(check("YWxpY2U6d29u"));
        assert!(!check("authentication"));
    }
}
