//! The JSON report: the whole [`RunReport`], described by
//! `schemas/report.schema.json`.

use super::model::RunReport;
use std::io;

/// The JSON Schema of the JSON report (draft 2020-12).
pub const REPORT_SCHEMA: &str = include_str!("../../schemas/report.schema.json");

/// Writes the report as pretty-printed JSON with a trailing newline.
pub fn write_json(report: &RunReport, out: &mut dyn io::Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, report).map_err(io::Error::other)?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod golden {
    use super::*;
    use crate::report::sample;

    #[test]
    fn the_sample_run() {
        let text = sample::render(|out| write_json(&sample::run(), out));
        sample::redactions().bind(|| insta::assert_snapshot!(text));
    }
}
