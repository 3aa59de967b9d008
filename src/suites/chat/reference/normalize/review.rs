//! Codex review detection (chat-normalize §10.1): a codex `message` whose
//! text is a JSON object with review markers becomes a structured review.

use crate::suites::chat::reference::review_json::{Json, first_present, parse};
use crate::suites::js::{number, string, trim};
use serde_json::{Map, Value};

/// The normalized review object, when `text` is a review.
pub(super) fn parse_review(text: &str) -> Option<Value> {
    let trimmed = trim(text);
    if !(trimmed.starts_with('{') && trimmed.ends_with('}')) {
        return None;
    }
    let parsed = parse(trimmed)?;
    let findings = parsed.get("findings");
    let has_marker = matches!(findings, Some(Json::Array(_)))
        || ["overall_correctness", "overallCorrectness", "overall_explanation", "overallExplanation"]
            .iter()
            .any(|key| parsed.get(key).is_some());
    if !has_marker {
        return None;
    }
    let findings: Vec<Value> = match findings {
        Some(Json::Array(items)) => items.iter().filter_map(finding).collect(),
        _ => Vec::new(),
    };
    let text_of = |keys: &[&str]| first_present(&parsed, keys).and_then(Json::as_str);
    let correctness = text_of(&["overall_correctness", "overallCorrectness"]);
    let explanation = text_of(&["overall_explanation", "overallExplanation"]);
    let confidence =
        first_present(&parsed, &["overall_confidence_score", "overallConfidenceScore"]).and_then(Json::as_finite);
    let blank = |value: Option<&str>| value.is_none_or(str::is_empty);
    if findings.is_empty() && blank(correctness) && blank(explanation) && confidence.is_none() {
        return None;
    }
    let mut review = Map::new();
    review.insert("findings".to_owned(), Value::Array(findings));
    review.insert("overallCorrectness".to_owned(), correctness.map_or(Value::Null, string));
    review.insert("overallExplanation".to_owned(), explanation.map_or(Value::Null, string));
    review.insert("overallConfidenceScore".to_owned(), confidence.map_or(Value::Null, number));
    Some(Value::Object(review))
}

/// `a | b`: the first member that is OBJ.
fn first_obj<'a>(on: &'a Json, keys: [&str; 2]) -> Option<&'a Json> {
    keys.iter().find_map(|key| on.get(key).filter(|v| v.is_obj()))
}

fn finding(value: &Json) -> Option<Value> {
    if !value.is_obj() {
        return None;
    }
    let non_empty = |key| value.get(key).and_then(Json::as_str).filter(|s| !s.is_empty());
    let title = non_empty("title")?;
    let body = non_empty("body")?;
    let number_or_null = |value: Option<&Json>| value.and_then(Json::as_finite).map_or(Value::Null, number);
    let location = first_obj(value, ["code_location", "codeLocation"]);
    let file_path = location
        .and_then(|loc| first_present(loc, &["absolute_file_path", "absoluteFilePath", "path"]))
        .and_then(Json::as_str);
    let range = location.and_then(|loc| first_obj(loc, ["line_range", "lineRange"]));

    let mut out = Map::new();
    out.insert("title".to_owned(), string(title));
    out.insert("body".to_owned(), string(body));
    out.insert("priority".to_owned(), number_or_null(value.get("priority")));
    out.insert(
        "confidenceScore".to_owned(),
        number_or_null(first_present(value, &["confidence_score", "confidenceScore"])),
    );
    out.insert("filePath".to_owned(), file_path.map_or(Value::Null, string));
    out.insert("lineStart".to_owned(), number_or_null(range.and_then(|r| r.get("start"))));
    out.insert("lineEnd".to_owned(), number_or_null(range.and_then(|r| r.get("end"))));
    Some(Value::Object(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn constructed_review_example() {
        // chat-normalize §15 example 3.
        let text = "\n{\"overallCorrectness\":\"patch is correct\",\"findings\":[{\"title\":\"Nit\",\"body\":\"Rename x\",\"priority\":3,\"codeLocation\":{\"path\":\"src/a.rs\",\"lineRange\":{\"start\":4,\"end\":4}}},{\"title\":\"NoBody\"}]}\n";
        assert_eq!(
            parse_review(text),
            Some(json!({
                "findings": [{"title": "Nit", "body": "Rename x", "priority": 3, "confidenceScore": null,
                              "filePath": "src/a.rs", "lineStart": 4, "lineEnd": 4}],
                "overallCorrectness": "patch is correct",
                "overallExplanation": null,
                "overallConfidenceScore": null
            }))
        );
    }

    #[test]
    fn markers_and_substance() {
        assert_eq!(parse_review(r#"{"overall_confidence_score": 0.5}"#), None);
        assert_eq!(parse_review(r#"{"overall_correctness": null}"#), None);
        assert!(parse_review(r#"{"overall_correctness": null, "overall_confidence_score": 0.5}"#).is_some());
        assert_eq!(parse_review(r#"{"findings": []} x"#), None);
        // An overflowing number is present (no fall-through) but not a number.
        let review = parse_review(
            r#"{"overall_correctness": "ok", "overall_confidence_score": 1e400, "overallConfidenceScore": 0.5}"#,
        );
        assert_eq!(review.unwrap()["overallConfidenceScore"], Value::Null);
    }
}
