//! The size budget of Markdown reports: a pull-request comment holds at most
//! 65,536 characters (GitHub), so a Markdown report keeps its summary whole,
//! then as many entries whole as fit, then the rest one line each, and says
//! what it cut and where the full report is.

/// The default budget, in characters: a GitHub comment's 65,536 with room
/// for what a CI step adds around the report.
pub const DEFAULT_MARKDOWN_LIMIT: usize = 60_000;

/// Characters kept free for the note that says what was cut.
const NOTE_RESERVE: usize = 600;

/// How large a Markdown report may grow, and what to say when it is cut.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarkdownBudget {
    /// Most characters (Unicode scalar values) of the whole report.
    pub limit: usize,
    /// Where the full report is (e.g. `reports/conform-report.html`), named
    /// in the note when something is cut.
    pub full_report: Option<String>,
}

impl Default for MarkdownBudget {
    fn default() -> Self {
        MarkdownBudget { limit: DEFAULT_MARKDOWN_LIMIT, full_report: None }
    }
}

/// One entry of a report's cuttable part, in order.
pub(crate) struct Entry {
    /// The entry in full (e.g. a case's `<details>` block).
    pub whole: String,
    /// The entry on one line (may be empty: dropped when cut).
    pub line: String,
    /// Whether the entry counts as one of the `what` the note counts.
    pub counted: bool,
}

impl Entry {
    /// A piece of structure (a table head, a blank line) written the same
    /// whole or cut, and not counted.
    pub fn kept(text: String) -> Entry {
        Entry { line: text.clone(), whole: text, counted: false }
    }
}

/// `head`, the `entries` that fit within `budget` (whole, then one line
/// each, then none), a note when anything was cut, and `tail`. `what` names
/// the counted entries in the note (`cases`, `fixtures`).
pub(crate) fn fit(head: &str, entries: &[Entry], tail: &str, budget: &MarkdownBudget, what: &str) -> String {
    let full: usize =
        [head, tail].iter().map(|s| chars(s)).sum::<usize>() + entries.iter().map(|e| chars(&e.whole)).sum::<usize>();
    let mut out = String::from(head);
    if full <= budget.limit {
        entries.iter().for_each(|e| out.push_str(&e.whole));
        out.push_str(tail);
        return out;
    }
    let room = budget.limit.saturating_sub(chars(head) + chars(tail) + NOTE_RESERVE);
    // Whole entries while the rest still fits on one line each: listing
    // every case beats showing a few more in full.
    let mut lines_after: Vec<usize> = entries.iter().rev().map(|e| chars(&e.line)).collect();
    let mut sum = 0;
    for size in &mut lines_after {
        sum += *size;
        *size = sum;
    }
    lines_after.reverse();
    lines_after.push(0);
    let mut used = 0;
    let mut kept_whole = 0;
    let mut rest = entries.iter().peekable();
    while let Some(entry) = rest.next_if(|e| {
        let after = lines_after.get(kept_whole + 1).copied().unwrap_or(0);
        used + chars(&e.whole) + after.min(room / 2) <= room
    }) {
        used += chars(&entry.whole);
        kept_whole += 1;
        out.push_str(&entry.whole);
    }
    let mut on_one_line = 0;
    while let Some(entry) = rest.next_if(|e| used + chars(&e.line) <= room) {
        used += chars(&entry.line);
        out.push_str(&entry.line);
        on_one_line += usize::from(entry.counted && !entry.line.is_empty());
    }
    let left_out = rest.filter(|e| e.counted).count();
    let mut note = format!("\n> ✂️ Cut to fit {} characters (`--markdown-limit`): ", budget.limit);
    note.push_str(&match (on_one_line, left_out) {
        (0, 0) => "details left out".to_owned(),
        (n, 0) => format!("{n} {what} on one line each"),
        (0, m) => format!("{m} more {what} not listed"),
        (n, m) => format!("{n} {what} on one line each, {m} more not listed"),
    });
    match &budget.full_report {
        Some(place) => note.push_str(&format!(". The full report: {}.\n\n", code_span(place))),
        None => note.push_str(". The JSON and HTML reports of the runs hold every case.\n\n"),
    }
    out.push_str(&note);
    out.push_str(tail);
    out
}

fn chars(text: &str) -> usize {
    text.chars().count()
}

/// `text` in a code span whose fence is longer than any backtick run inside.
fn code_span(text: &str) -> String {
    let text: String = text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    format!("{fence} {text} {fence}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(n: usize) -> Entry {
        Entry {
            whole: format!("<details>{}</details>\n", "x".repeat(100 + n)),
            line: format!("- case {n}\n"),
            counted: true,
        }
    }

    #[test]
    fn what_fits_is_whole_then_one_line_then_counted() {
        let entries: Vec<Entry> = (0..100).map(entry).collect();
        let budget = MarkdownBudget { limit: 1600, full_report: Some("reports/conform-report.html".to_owned()) };
        let md = fit("# head\n", &entries, "tail\n", &budget, "cases");
        assert!(md.chars().count() <= 1600, "{}", md.chars().count());
        assert!(md.starts_with("# head\n<details>"));
        assert!(md.ends_with("The full report: ` reports/conform-report.html `.\n\ntail\n"), "{md}");
        let whole = md.matches("<details>").count();
        let lines = md.matches("- case ").count();
        assert!(whole >= 3 && lines > 0, "{md}");
        assert!(
            md.contains(&format!("{lines} cases on one line each, {} more not listed", 100 - whole - lines)),
            "{md}"
        );
    }

    #[test]
    fn a_report_within_the_budget_is_untouched() {
        let entries: Vec<Entry> = (0..3).map(entry).collect();
        let md = fit("h\n", &entries, "t\n", &MarkdownBudget::default(), "cases");
        assert_eq!(md, format!("h\n{}{}{}t\n", entries[0].whole, entries[1].whole, entries[2].whole));
    }
}
