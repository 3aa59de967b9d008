//! The README's redaction table lists every built-in rule with its
//! placeholder label, in priority order.

use conform::redact::rules::BUILTIN_RULES;

#[test]
fn the_readme_table_matches_the_rules() {
    let readme = std::fs::read_to_string("README.md").unwrap_or_default();
    let rows: Vec<(String, String)> = readme
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let id = cells.get(1)?.strip_prefix('`')?.strip_suffix('`')?;
            let label = cells.get(2)?.strip_prefix('`')?.strip_suffix('`')?;
            (label.chars().all(|c| c.is_ascii_uppercase() || c == '_' || c == 'N'))
                .then(|| (id.to_owned(), label.to_owned()))
        })
        .collect();
    let listed: Vec<(String, String)> =
        BUILTIN_RULES.iter().map(|rule| (rule.id.to_owned(), rule.label.to_owned())).collect();
    let in_readme: Vec<(String, String)> = rows.iter().filter(|row| listed.contains(row)).cloned().collect();
    assert_eq!(in_readme, listed, "README rows (rule, label) in priority order");
    assert!(rows.iter().any(|(id, label)| id == conform::redact::SECRET_MEMBER_RULE && label == "SECRET"));
}
