//! The HTML report: one self-contained file (inline CSS and a little inline
//! JavaScript, no network, no external assets) that people can open from a
//! CI artifact.
//!
//! A single run shows the summary, a per-suite matrix, the failure clusters,
//! the baseline's findings and a filterable list of cases; each failure has
//! its input, expected and actual side by side with the differing paths
//! marked, the line diff and the adapter's stderr. Several runs render as a
//! matrix with one column per implementation. Everything taken from a report
//! is escaped (fixture content and adapter output are untrusted), and no
//! report data is ever placed inside the script.

use super::cluster::{Signature, headline};
use super::html_json::{Side, escape, render_diff, render_marked, render_plain_json};
use super::model::{CaseReport, Counts, RunReport, Tally, Verdict};
use crate::fixture::NoticeLevel;
use std::fmt::Write as _;
use std::io;

/// Example case ids linked per cluster.
const MAX_CLUSTER_EXAMPLES: usize = 8;

const STYLE: &str = r#"
:root{--bg:#f6f7f9;--card:#fff;--ink:#1d2330;--muted:#667085;--line:#e3e6ec;--code:#f2f4f7;
--pass:#1a7f37;--fail:#cf222e;--error:#bc4c00;--crash:#8250df;--timeout:#9a6700;--proto:#bf3989;
--known:#57606a;--skip:#8c959f;--invalid:#82071e;--xpass:#d1242f;
--hl-changed:#fff1b8;--hl-missing:#ffd8d3;--hl-extra:#d3f5dc;--del:#ffebe9;--ins:#e6ffec}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--card:#161b22;--ink:#e6edf3;--muted:#8b949e;--line:#30363d;
--code:#1f242c;--hl-changed:#5c4b00;--hl-missing:#67060c;--hl-extra:#0f5323;--del:#3d1214;--ins:#12361f}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:1280px;margin:0 auto;padding:24px 28px 64px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:0 0 12px}h3{font-size:14px;margin:16px 0 6px}
a{color:inherit}code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
.meta{color:var(--muted);margin:0}.meta code{color:var(--ink)}
section{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:18px 20px;margin-top:18px}
.tiles{display:grid;grid-template-columns:repeat(auto-fit,minmax(140px,1fr));gap:12px;background:none;border:0;padding:0}
.tile{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:14px 16px;border-top:4px solid var(--muted)}
.tile .count{display:block;font-size:30px;font-weight:650;line-height:1.1}.tile .what{color:var(--muted)}
.tile.passed{border-top-color:var(--pass)}.tile.failed{border-top-color:var(--fail)}
.tile.known{border-top-color:var(--known)}.tile.skipped{border-top-color:var(--skip)}
.verdict-line{font-size:15px;margin:10px 0 0}.ok{color:var(--pass)}.bad{color:var(--fail)}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:6px 10px;border-bottom:1px solid var(--line);vertical-align:top}
th{font-weight:600;color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.03em}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.bar{display:flex;height:10px;border-radius:5px;overflow:hidden;background:var(--line);min-width:120px}
.bar span{display:block;height:100%}
.badge{display:inline-block;min-width:52px;text-align:center;padding:1px 8px;border-radius:999px;font-size:11.5px;font-weight:650;color:#fff;background:var(--muted)}
.v-pass{background:var(--pass)}.v-fail{background:var(--fail)}.v-error{background:var(--error)}.v-crash{background:var(--crash)}
.v-timeout{background:var(--timeout)}.v-protocol-error{background:var(--proto)}.v-xfail{background:var(--known)}
.v-xpass{background:var(--xpass);outline:2px dashed var(--xpass);outline-offset:1px}.v-skipped,.v-unsupported{background:var(--skip)}
.v-invalid,.v-unsupported-version{background:var(--invalid)}
.filters{display:flex;flex-wrap:wrap;gap:8px 14px;align-items:center;margin-bottom:12px}
.filters input[type=search]{flex:1 1 260px;padding:7px 10px;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--ink)}
.filters label{display:inline-flex;gap:4px;align-items:center;cursor:pointer;user-select:none}
#shown{color:var(--muted);margin-left:auto}
.case{border:1px solid var(--line);border-radius:8px;margin:6px 0;background:var(--card)}
.case>summary,.case>.row{display:flex;gap:10px;align-items:baseline;padding:7px 12px;cursor:pointer;list-style:none}
.case>.row{cursor:default}.case>summary::-webkit-details-marker{display:none}
.case>summary::before{content:"▸";color:var(--muted);width:10px}.case[open]>summary::before{content:"▾"}
.case>.row::before{content:"";width:10px}
.case .id{font-weight:600}.case .msg{color:var(--muted);overflow:hidden;text-overflow:ellipsis;white-space:nowrap;flex:1;min-width:0}
.case .body{padding:4px 16px 16px;border-top:1px solid var(--line)}
.known-note{background:var(--code);border-left:3px solid var(--known);padding:6px 10px;margin:10px 0;border-radius:4px}
.sbs{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:12px}
.sbs h4{margin:10px 0 4px;font-size:12px;color:var(--muted);text-transform:uppercase}
pre{position:relative;background:var(--code);border-radius:6px;padding:10px 12px;margin:0;overflow:auto;max-height:560px;white-space:pre}
.hl{border-radius:3px}.hl-changed{background:var(--hl-changed)}.hl-missing{background:var(--hl-missing)}.hl-extra{background:var(--hl-extra)}
.k{color:#0550ae}.s{color:#0a3069}.n{color:#953800}
@media (prefers-color-scheme:dark){.k{color:#79c0ff}.s{color:#a5d6ff}.n{color:#ffa657}}
table.diff{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px;background:var(--code);border-radius:6px}
table.diff td{border:0;padding:0 8px;white-space:pre}table.diff .ln{color:var(--muted);text-align:right;width:1%}
table.diff .mk{width:1%}table.diff tr.del{background:var(--del)}table.diff tr.ins{background:var(--ins)}
table.diff tr.gap td{color:var(--muted)}
details.more{margin-top:10px}details.more>summary{cursor:pointer;color:var(--muted)}
ul.problems{margin:6px 0;padding-left:20px}.legend{color:var(--muted);font-size:12px;margin:8px 0 0}
.legend span{padding:0 6px;border-radius:3px;margin-right:6px}
.matrix td.cell,.matrix th.impl{text-align:center}th.impl{text-transform:none;letter-spacing:0;font-size:12.5px;color:var(--ink);font-weight:600}.matrix tr.agree td.cell .badge{opacity:.75}
button{font:inherit;font-size:12.5px;padding:4px 10px;border:1px solid var(--line);border-radius:6px;background:var(--card);color:var(--ink);cursor:pointer}
button:hover{background:var(--code)}
td.cause{white-space:nowrap}td.cause .kind,table.differences .kind{color:var(--muted)}
table.differences td:first-child,table.differences td.kind{white-space:nowrap}table.differences td:last-child{width:100%}
#suites td.num,#suites th.num{width:1%;white-space:nowrap;padding-left:18px}#suites td.bar-cell{width:45%}
footer{color:var(--muted);text-align:center;margin-top:28px;font-size:12px}
"#;

const FILTER_SCRIPT: &str = r#"
(function(){
  var input=document.getElementById('filter');
  var boxes=Array.prototype.slice.call(document.querySelectorAll('.verdict-toggle'));
  var extra=Array.prototype.slice.call(document.querySelectorAll('.row-toggle'));
  var rows=Array.prototype.slice.call(document.querySelectorAll('[data-filterable]'));
  var shown=document.getElementById('shown');
  function apply(){
    var q=input.value.trim().toLowerCase();
    var on={};boxes.forEach(function(b){if(b.checked)on[b.value]=true;});
    var need=extra.filter(function(b){return b.checked;}).map(function(b){return b.value;});
    var n=0;
    rows.forEach(function(r){
      var verdicts=r.getAttribute('data-verdicts').split(' ');
      var ok=verdicts.some(function(v){return on[v];});
      if(ok&&q)ok=r.getAttribute('data-text').indexOf(q)>=0;
      if(ok)ok=need.every(function(flag){return r.hasAttribute('data-'+flag);});
      r.hidden=!ok;if(ok)n++;
    });
    shown.textContent=n+' of '+rows.length+' shown';
  }
  input.addEventListener('input',apply);
  boxes.concat(extra).forEach(function(b){b.addEventListener('change',apply);});
  document.getElementById('expand').addEventListener('click',function(){
    rows.forEach(function(r){if(!r.hidden&&r.tagName==='DETAILS')r.open=true;});});
  document.getElementById('collapse').addEventListener('click',function(){
    rows.forEach(function(r){if(r.tagName==='DETAILS')r.open=false;});});
  function reveal(){var id=decodeURIComponent(location.hash.slice(1));var el=id&&document.getElementById(id);
    if(el&&el.tagName==='DETAILS'){el.hidden=false;el.open=true;el.scrollIntoView();}}
  window.addEventListener('hashchange',reveal);
  // Opening a case scrolls each side to its first marked path.
  rows.forEach(function(r){if(r.tagName!=='DETAILS')return;r.addEventListener('toggle',function(){
    if(!r.open)return;r.querySelectorAll('pre').forEach(function(pre){var hl=pre.querySelector('.hl');
      if(hl)pre.scrollTop=Math.max(0,hl.offsetTop-48);});});});
  apply();reveal();
  document.documentElement.setAttribute('data-ready','1');
})();
"#;

/// Writes the HTML report of one run.
pub fn write_html(report: &RunReport, out: &mut dyn io::Write) -> io::Result<()> {
    let mut page = String::new();
    let title = format!("conform · {} · {}", report.implementation.name, report.summary.summary_line());
    open_page(&mut page, &title);
    page.push_str("<header><h1>conform report</h1>");
    let _ = write!(page, "<p class=\"meta\">{}</p>", run_meta(report));
    page.push_str("</header>");
    tiles(&mut page, &report.summary, report.exit_code() == 0);
    suite_matrix(&mut page, report);
    notices(&mut page, report);
    baseline(&mut page, report);
    clusters(&mut page, report);
    case_list(&mut page, report);
    close_page(&mut page, report);
    out.write_all(page.as_bytes())
}

/// Writes one page comparing several runs, one column per implementation.
/// `labels` name the columns (one per report).
pub fn write_html_matrix(reports: &[RunReport], labels: &[String], out: &mut dyn io::Write) -> io::Result<()> {
    let mut page = String::new();
    let label = |i: usize| labels.get(i).cloned().unwrap_or_else(|| format!("run {}", i + 1));
    open_page(&mut page, &format!("conform matrix · {} implementations", reports.len()));
    let _ = write!(
        page,
        "<header><h1>conform matrix</h1><p class=\"meta\">{} implementations · {} fixtures</p></header>",
        reports.len(),
        matrix_ids(reports).len()
    );

    page.push_str("<section id=\"implementations\"><h2>Implementations</h2><table><thead><tr><th></th>");
    for i in 0..reports.len() {
        let _ = write!(page, "<th class=\"num impl\">{}</th>", escape(&label(i)));
    }
    page.push_str("</tr></thead><tbody>");
    for (row, (name, _)) in Counts::default().named().into_iter().enumerate() {
        let _ = write!(page, "<tr><th>{name}</th>");
        for (i, report) in reports.iter().enumerate() {
            let _ = write!(
                page,
                "<td class=\"num\"><span class=\"count\" data-impl=\"{i}\" data-count=\"{}\">{}</span></td>",
                name.replace(' ', "-"),
                report.summary.named().get(row).map_or(0, |(_, n)| *n)
            );
        }
        page.push_str("</tr>");
    }
    page.push_str("<tr><th>causes</th>");
    for report in reports {
        let _ = write!(page, "<td class=\"num\">{}</td>", report.clusters.len());
    }
    page.push_str("</tr><tr><th>details</th>");
    for report in reports {
        let _ = write!(
            page,
            "<td class=\"num mono\">{} {} · {}</td>",
            escape(&report.implementation.name),
            escape(&report.implementation.version),
            escape(&report.implementation.language)
        );
    }
    page.push_str("</tr></tbody></table></section>");

    page.push_str("<section id=\"suites\"><h2>Suites</h2><table class=\"matrix\"><thead><tr><th>suite</th>");
    for i in 0..reports.len() {
        let _ = write!(page, "<th class=\"impl\">{}</th>", escape(&label(i)));
    }
    page.push_str("</tr></thead><tbody>");
    let mut suites: Vec<&str> = Vec::new();
    for report in reports {
        for suite in &report.suites {
            if !suites.contains(&suite.suite.as_str()) {
                suites.push(&suite.suite);
            }
        }
    }
    for suite in suites {
        let _ = write!(page, "<tr><td class=\"mono\">{}</td>", escape(suite));
        for report in reports {
            match report.suites.iter().find(|s| s.suite == suite) {
                Some(counts) => {
                    let _ = write!(
                        page,
                        "<td><div class=\"mono\">{} / {} passed</div>{}</td>",
                        counts.counts.passed,
                        counts.counts.total,
                        bar(&counts.counts)
                    );
                }
                None => page.push_str("<td class=\"meta\">not run</td>"),
            }
        }
        page.push_str("</tr>");
    }
    page.push_str("</tbody></table></section>");

    let ids = matrix_ids(reports);
    page.push_str("<section id=\"cases\"><h2>Cases</h2>");
    let present: Vec<Verdict> =
        Verdict::ALL.into_iter().filter(|v| reports.iter().any(|r| r.summary.by_verdict.contains_key(v))).collect();
    filters(&mut page, &present, &[("differs", "implementations disagree", false), ("failing", "any failure", false)]);
    page.push_str("<table class=\"matrix\"><thead><tr><th>fixture</th>");
    for i in 0..reports.len() {
        let _ = write!(page, "<th class=\"impl\">{}</th>", escape(&label(i)));
    }
    page.push_str("</tr></thead><tbody>");
    for id in ids {
        let cells: Vec<Option<&CaseReport>> = reports.iter().map(|r| r.cases.iter().find(|c| c.id == id)).collect();
        let verdicts: Vec<Verdict> = cells.iter().flatten().map(|c| c.verdict).collect();
        let differs = verdicts.windows(2).any(|w| w[0] != w[1]) || cells.iter().any(Option::is_none);
        let failing = verdicts.iter().any(|v| v.tally() == Tally::Failed);
        let mut names: Vec<&str> = verdicts.iter().map(|v| v.as_str()).collect();
        names.dedup();
        let text: String = std::iter::once(id.to_lowercase())
            .chain(cells.iter().flatten().filter_map(|c| c.message.as_deref().map(str::to_lowercase)))
            .collect::<Vec<_>>()
            .join(" ");
        let _ = write!(
            page,
            "<tr data-filterable data-verdicts=\"{}\" data-text=\"{}\"{}{} class=\"{}\"><td class=\"mono\">{}</td>",
            escape(&names.join(" ")),
            escape(&text),
            if differs { " data-differs" } else { "" },
            if failing { " data-failing" } else { "" },
            if differs { "differs" } else { "agree" },
            escape(id)
        );
        for cell in cells {
            match cell {
                Some(case) => {
                    let _ = write!(
                        page,
                        "<td class=\"cell\" title=\"{}\"><span class=\"badge v-{}\">{}</span></td>",
                        escape(case.message.as_deref().unwrap_or(case.verdict.as_str())),
                        case.verdict,
                        case.verdict
                    );
                }
                None => page.push_str("<td class=\"cell meta\">—</td>"),
            }
        }
        page.push_str("</tr>");
    }
    page.push_str("</tbody></table></section>");
    page.push_str(&format!(
        "<footer>conform {} · one column per implementation</footer></main><script>{FILTER_SCRIPT}</script></body></html>\n",
        escape(reports.first().map_or("", |r| r.harness.version.as_str()))
    ));
    out.write_all(page.as_bytes())
}

/// Every fixture id of the reports, in order of first appearance.
fn matrix_ids(reports: &[RunReport]) -> Vec<&str> {
    let mut seen = std::collections::HashSet::new();
    reports.iter().flat_map(|r| r.cases.iter()).map(|c| c.id.as_str()).filter(|id| seen.insert(*id)).collect()
}

fn open_page(page: &mut String, title: &str) {
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\
         <title>{}</title><style>{STYLE}</style></head><body><main>",
        escape(title)
    );
}

fn close_page(page: &mut String, report: &RunReport) {
    let _ = writeln!(
        page,
        "<footer>conform {} · report format {}</footer></main><script>{FILTER_SCRIPT}</script></body></html>",
        escape(&report.harness.version),
        report.format_version
    );
}

fn run_meta(report: &RunReport) -> String {
    let implementation = &report.implementation;
    let mut meta = format!(
        "<code>{}</code> {} ({}, {})",
        escape(&implementation.name),
        escape(&implementation.version),
        escape(&implementation.language),
        match implementation.kind {
            crate::implementation::ImplementationKind::Reference => "in-process reference",
            crate::implementation::ImplementationKind::Subprocess => "subprocess",
        }
    );
    if let Some(command) = &implementation.command {
        let _ = write!(meta, " · <code>{}</code>", escape(command));
    }
    let _ = write!(
        meta,
        " · conform {} · started {} · {:.1} s",
        escape(&report.harness.version),
        escape(&report.started_at),
        report.duration_ms / 1000.0
    );
    if !report.paths.is_empty() {
        let _ = write!(meta, " · <code>{}</code>", escape(&report.paths.join(" ")));
    }
    if let Some(partition) = report.partition {
        let _ = write!(meta, " · shard {}/{}", partition.index, partition.count);
    }
    meta
}

fn tiles(page: &mut String, counts: &Counts, conformant: bool) {
    page.push_str("<section class=\"tiles\">");
    let tiles = [
        ("passed", "passed", counts.passed),
        ("failed", "failed", counts.failed),
        ("known", "known failures", counts.known_failures),
        ("skipped", "skipped", counts.skipped),
        ("total", "total", counts.total),
    ];
    for (class, what, n) in tiles {
        let _ = write!(
            page,
            "<div class=\"tile {class}\"><span class=\"count\" data-count=\"{}\">{n}</span><span class=\"what\">{what}</span></div>",
            what.replace(' ', "-")
        );
    }
    page.push_str("</section>");
    let class = if conformant { "ok" } else { "bad" };
    let _ =
        write!(page, "<p class=\"verdict-line {class}\" id=\"summary-line\">{}</p>", escape(&counts.summary_line()));
}

fn verdict_color(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Pass => "var(--pass)",
        Verdict::Fail => "var(--fail)",
        Verdict::Error => "var(--error)",
        Verdict::Crash => "var(--crash)",
        Verdict::Timeout => "var(--timeout)",
        Verdict::ProtocolError => "var(--proto)",
        Verdict::Xfail => "var(--known)",
        Verdict::Xpass => "var(--xpass)",
        Verdict::Skipped | Verdict::Unsupported => "var(--skip)",
        Verdict::Invalid | Verdict::UnsupportedVersion => "var(--invalid)",
    }
}

fn bar(counts: &Counts) -> String {
    let mut bar = String::from("<div class=\"bar\">");
    for (verdict, n) in &counts.by_verdict {
        let share = *n as f64 * 100.0 / counts.total.max(1) as f64;
        let _ = write!(
            bar,
            "<span style=\"width:{share:.3}%;background:{}\" title=\"{n} {verdict}\"></span>",
            verdict_color(*verdict)
        );
    }
    bar.push_str("</div>");
    bar
}

fn suite_matrix(page: &mut String, report: &RunReport) {
    let verdicts = report.summary.verdicts();
    page.push_str("<section id=\"suites\"><h2>Suites</h2><table><thead><tr><th>suite</th><th class=\"num\">total</th>");
    for verdict in &verdicts {
        let _ = write!(page, "<th class=\"num\">{verdict}</th>");
    }
    page.push_str("<th></th></tr></thead><tbody>");
    for suite in &report.suites {
        let _ = write!(
            page,
            "<tr data-suite=\"{0}\"><td class=\"mono\">{0}</td><td class=\"num\">{1}</td>",
            escape(&suite.suite),
            suite.counts.total
        );
        for verdict in &verdicts {
            let n = suite.counts.count(*verdict);
            let _ = write!(page, "<td class=\"num\">{}</td>", if n == 0 { String::new() } else { n.to_string() });
        }
        let _ = write!(page, "<td class=\"bar-cell\">{}</td></tr>", bar(&suite.counts));
    }
    page.push_str("</tbody></table></section>");
}

fn notices(page: &mut String, report: &RunReport) {
    let notable: Vec<_> = report.notices.iter().filter(|n| n.level != NoticeLevel::Note).collect();
    if notable.is_empty() {
        return;
    }
    page.push_str("<section id=\"notices\"><h2>Corpus notices</h2><ul class=\"problems\">");
    for notice in notable {
        let _ = write!(page, "<li>{}</li>", escape(&notice.to_string()));
    }
    page.push_str("</ul></section>");
}

fn baseline(page: &mut String, report: &RunReport) {
    let Some(baseline) = &report.baseline else { return };
    let _ = write!(
        page,
        "<section id=\"baseline\"><h2>Baseline <code>{}</code></h2><p class=\"meta\">{} entries · {} xfail · {} xpass · checked on {}</p>",
        escape(&baseline.path),
        baseline.entries.len(),
        report.summary.count(Verdict::Xfail),
        report.summary.count(Verdict::Xpass),
        escape(&baseline.today)
    );
    let problems = baseline.problems();
    let passed: Vec<(&str, &str)> =
        baseline.entries.iter().flat_map(|e| e.passed.iter().map(move |id| (id.as_str(), e.id.as_str()))).collect();
    if !problems.is_empty() || !passed.is_empty() {
        page.push_str("<ul class=\"problems bad\">");
        for problem in problems {
            let _ = write!(page, "<li>{}</li>", escape(&problem));
        }
        for (id, entry) in passed {
            let _ = write!(
                page,
                "<li><a href=\"#{0}\"><code>{0}</code></a> passes: remove the entry <code>{1}</code></li>",
                escape(id),
                escape(entry)
            );
        }
        page.push_str("</ul>");
    }
    page.push_str("<details class=\"more\"><summary>entries</summary><table><thead><tr><th>id</th><th>verdict</th><th>status</th><th>reason</th><th>issue</th><th>expires</th></tr></thead><tbody>");
    for entry in &baseline.entries {
        let _ = write!(
            page,
            "<tr><td class=\"mono\">{}</td><td><span class=\"badge v-{}\">{}</span></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&entry.id),
            entry.verdict,
            entry.verdict,
            entry.status.as_str(),
            escape(&entry.reason),
            entry.issue.as_deref().map(issue_link).unwrap_or_default(),
            escape(entry.expires.as_deref().unwrap_or(""))
        );
    }
    page.push_str("</tbody></table></details></section>");
}

/// A link when the issue is an http(s) URL, plain text otherwise (never a
/// `javascript:` or other scheme).
fn issue_link(issue: &str) -> String {
    if issue.starts_with("https://") || issue.starts_with("http://") {
        format!("<a href=\"{0}\" rel=\"noreferrer\">{0}</a>", escape(issue))
    } else {
        escape(issue)
    }
}

fn clusters(page: &mut String, report: &RunReport) {
    let Some(headline) = headline(&report.cases, &report.clusters) else { return };
    let _ = write!(
        page,
        "<section id=\"clusters\"><h2 id=\"cluster-headline\">{}</h2><table><thead><tr><th class=\"num\">cases</th><th>cause</th><th>examples</th></tr></thead><tbody>",
        escape(&headline)
    );
    for cluster in &report.clusters {
        let examples =
            cluster.examples(MAX_CLUSTER_EXAMPLES, |id| format!("<a href=\"#{0}\"><code>{0}</code></a>", escape(id)));
        let known = cluster.known_note().map(|note| format!(" <span class=\"meta\">{note}</span>")).unwrap_or_default();
        let _ = write!(
            page,
            "<tr><td class=\"num\">{}{known}</td><td class=\"cause\">{}</td><td>{}</td></tr>",
            cluster.cases.len(),
            signature_html(&cluster.signature),
            examples
        );
    }
    page.push_str("</tbody></table></section>");
}

/// A cluster's signature: the pointer pattern and kind, or the verdict badge
/// and message class.
fn signature_html(signature: &Signature) -> String {
    match signature {
        Signature::Difference { pattern, kind } => format!(
            "<code>{}</code> <span class=\"kind\">{}</span>",
            escape(if pattern.is_empty() { "(whole output)" } else { pattern }),
            kind.as_str()
        ),
        Signature::Verdict { verdict, message_class } => {
            format!("<span class=\"badge v-{verdict}\">{verdict}</span> {}", escape(message_class))
        }
    }
}

/// The verdict toggles, the search box and the counter of shown rows.
fn filters(page: &mut String, present: &[Verdict], flags: &[(&str, &str, bool)]) {
    let any_failure = present.iter().any(|v| v.tally() != Tally::Passed);
    page.push_str(
        "<div class=\"filters\"><input type=\"search\" id=\"filter\" placeholder=\"Filter by fixture id or message\">",
    );
    for verdict in present {
        // Start with the failures in view when there are any.
        let checked = !any_failure || *verdict != Verdict::Pass;
        let _ = write!(
            page,
            "<label><input type=\"checkbox\" class=\"verdict-toggle\" value=\"{verdict}\"{}> <span class=\"badge v-{verdict}\">{verdict}</span></label>",
            if checked { " checked" } else { "" }
        );
    }
    for (flag, label, checked) in flags {
        let _ = write!(
            page,
            "<label><input type=\"checkbox\" class=\"row-toggle\" value=\"{flag}\"{}> {label}</label>",
            if *checked { " checked" } else { "" }
        );
    }
    page.push_str("<button type=\"button\" id=\"expand\">expand all</button><button type=\"button\" id=\"collapse\">collapse all</button><span id=\"shown\"></span></div>");
}

fn case_list(page: &mut String, report: &RunReport) {
    let present: Vec<Verdict> =
        Verdict::ALL.into_iter().filter(|v| report.summary.by_verdict.contains_key(v)).collect();
    page.push_str("<section id=\"cases\"><h2>Cases</h2>");
    filters(page, &present, &[]);
    page.push_str("<div id=\"case-list\">");
    for case in &report.cases {
        case_entry(page, case, report);
    }
    page.push_str("</div>");
    page.push_str("<p class=\"legend\">marked paths: <span class=\"hl-changed\">changed</span><span class=\"hl-missing\">missing from the output</span><span class=\"hl-extra\">unexpected in the output</span></p></section>");
}

fn case_entry(page: &mut String, case: &CaseReport, report: &RunReport) {
    let message = case.message.as_deref().unwrap_or("");
    let first_line = message.lines().next().unwrap_or("");
    let text = format!("{} {}", case.id, message).to_lowercase();
    let head = format!(
        "<span class=\"badge v-{0}\">{0}</span><code class=\"id\">{1}</code><span class=\"msg\">{2}</span><span class=\"meta mono\">{3:.1} ms</span>",
        case.verdict,
        escape(&case.id),
        escape(first_line),
        case.duration_ms
    );
    let attributes = format!(
        "id=\"{}\" class=\"case\" data-filterable data-verdicts=\"{}\" data-text=\"{}\"",
        escape(&case.id),
        case.verdict,
        escape(&text)
    );
    if case.verdict == Verdict::Pass {
        let _ = write!(page, "<div {attributes}><div class=\"row\">{head}</div></div>");
        return;
    }
    let _ = write!(page, "<details {attributes}><summary>{head}</summary><div class=\"body\">");
    let _ = write!(page, "<p class=\"meta\">file <code>{}</code>", escape(&case.path));
    if let Some(version) = case.fixture_version {
        let _ = write!(page, " · fixtureVersion {version}");
    }
    page.push_str("</p>");
    if let Some(entry) = report.baseline.as_ref().and_then(|b| b.entry_of(&case.id)) {
        let _ = write!(
            page,
            "<div class=\"known-note\">baseline entry <code>{}</code> expects <b>{}</b>: {}{}</div>",
            escape(&entry.id),
            entry.verdict,
            escape(&entry.reason),
            entry.issue.as_deref().map(|i| format!(" · {}", issue_link(i))).unwrap_or_default()
        );
    }
    if !message.is_empty() && case.differences.is_empty() && case.problems.is_empty() {
        let _ = write!(page, "<pre>{}</pre>", escape(message));
    }
    if !case.problems.is_empty() {
        page.push_str("<ul class=\"problems\">");
        for problem in &case.problems {
            let _ = write!(page, "<li>{}</li>", escape(problem));
        }
        page.push_str("</ul>");
    }
    if !case.differences.is_empty() {
        page.push_str("<h3>Differences</h3><table class=\"differences\"><tbody>");
        for difference in &case.differences {
            let _ = write!(
                page,
                "<tr><td class=\"mono\">{}</td><td class=\"kind\">{}</td><td>{}</td></tr>",
                escape(if difference.pointer.is_empty() { "(whole output)" } else { &difference.pointer }),
                difference.kind.as_str(),
                escape(&difference.message)
            );
        }
        if case.omitted_differences > 0 {
            let _ =
                write!(page, "<tr><td colspan=\"3\" class=\"meta\">… and {} more</td></tr>", case.omitted_differences);
        }
        page.push_str("</tbody></table>");
    }
    match (&case.expected, &case.actual) {
        (Some(expected), Some(actual)) => {
            let _ = write!(
                page,
                "<div class=\"sbs\"><div><h4>expected</h4><pre class=\"expected\">{}</pre></div><div><h4>actual</h4><pre class=\"actual\">{}</pre></div></div>",
                render_marked(expected, &case.differences, Side::Expected),
                render_marked(actual, &case.differences, Side::Actual)
            );
        }
        (Some(expected), None) => {
            let _ = write!(
                page,
                "<div class=\"sbs\"><div><h4>expected</h4><pre class=\"expected\">{}</pre></div><div><h4>actual</h4><pre class=\"actual meta\">(no output)</pre></div></div>",
                render_plain_json(expected)
            );
        }
        _ => {}
    }
    if !case.diff.is_empty() {
        let _ = write!(
            page,
            "<details class=\"more\"><summary>line diff of the canonical texts (− expected, + actual)</summary>{}</details>",
            render_diff(&case.diff)
        );
    }
    if let Some(input) = &case.input {
        let _ = write!(
            page,
            "<details class=\"more\"><summary>input</summary><pre class=\"input\">{}</pre></details>",
            render_plain_json(input)
        );
    }
    if let Some(stderr) = case.stderr.as_deref().filter(|s| !s.trim().is_empty()) {
        let _ = write!(page, "<h3>stderr</h3><pre class=\"stderr\">{}</pre>", escape(stderr));
    }
    page.push_str("</div></details>");
}
