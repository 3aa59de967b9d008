//! The lint: a finished document re-scanned with the redactor's rules,
//! listing everything secret-looking that is not a placeholder.

use super::SECRET_MEMBER_RULE;
use super::escapes;
use super::hits::find_hits;
use super::placeholders::contains_placeholder;
use super::rules::is_secret_member;
use super::screen::RuleList;
use crate::json;
use serde_json::Value;

/// Something secret-looking found by [`Redactor::lint`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The rule that found it.
    pub rule: String,
    /// Where: `line L, column C` of the document text, or a JSON pointer.
    pub location: String,
    /// The start of the finding, masked (`sk-a… (48 chars)`), so reporting a
    /// leak does not repeat it.
    pub excerpt: String,
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {} looks like a secret ({})", self.location, self.excerpt, self.rule)
    }
}

/// The lint of a [`Redactor`], apart from it (see [`Redactor::linter`]).
#[derive(Clone, Debug)]
pub struct Linter {
    pub(super) rules: RuleList,
}

impl Linter {
    /// [`Redactor::lint`].
    pub fn lint(&self, text: &str, value: &Value) -> Vec<Finding> {
        lint_with(&self.rules, text, value)
    }
}

/// Every finding of the lint in a document (see [`Redactor::lint`]).
pub(super) fn lint_with(rules: &RuleList, text: &str, value: &Value) -> Vec<Finding> {
    let mut findings = Vec::new();
    escapes::for_each_view(text, |view| {
        for hit in find_hits(rules, &view.text) {
            let Some(span) = view.original_span(hit.range.clone()) else { continue };
            let (line, column) = json::line_column(text, span.start);
            let finding = Finding {
                rule: rules.get(hit.rule).id.clone(),
                location: format!("line {line}, column {column}"),
                excerpt: mask(&view.text[hit.range]),
            };
            if !findings.contains(&finding) {
                findings.push(finding);
            }
        }
    });
    lint_members(value, String::new(), &mut findings);
    findings
}

pub(super) fn lint_members(value: &Value, at: String, findings: &mut Vec<Finding>) {
    stacker::maybe_grow(64 * 1024, 4 * 1024 * 1024, || match value {
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                lint_members(item, json::pointer::push_index(&at, index), findings);
            }
        }
        Value::Object(members) => {
            for (name, member) in members {
                let here = json::pointer::push(&at, name);
                if is_secret_member(name)
                    && let Value::String(text) = member
                    && !text.is_empty()
                    && !contains_placeholder(text)
                {
                    findings.push(Finding {
                        rule: SECRET_MEMBER_RULE.to_owned(),
                        location: here.clone(),
                        excerpt: mask(text),
                    });
                }
                lint_members(member, here, findings);
            }
        }
        _ => {}
    })
}

/// The first few characters of a secret and its length.
pub(super) fn mask(secret: &str) -> String {
    let head: String = secret.chars().take(4).collect();
    format!("{head}… ({} chars)", secret.chars().count())
}

#[cfg(test)]
mod tests {
    use super::super::Redactor;
    use serde_json::json;

    #[test]
    fn lint_finds_what_scrubbing_would_and_ignores_placeholders() {
        let r = Redactor::new(&[]).unwrap_or_else(|err| panic!("{err}"));
        let text = "{\n    \"a\": \"REDACTED_EMAIL_1\",\n    \"b\": \"mail bob@corp.io\"\n}\n";
        let value = json!({"a": "REDACTED_EMAIL_1", "b": "mail bob@corp.io", "secret": "x"});
        let findings = r.lint(text, &value);
        assert_eq!(findings.len(), 2, "{findings:?}");
        assert_eq!(findings[0].location, "line 3, column 16");
        assert_eq!(findings[0].excerpt, "bob@… (11 chars)");
        assert_eq!(findings[1].location, "/secret");
    }
}
