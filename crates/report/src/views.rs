//! The tokenizer views' part of every report format: one wording, shared by
//! Markdown, the terminal, HTML, JUnit and SARIF, so no format claims more
//! than another. A view is reported beside the reader levels, never as one:
//! no level is held in a view and no verdict changes (see
//! [`framecheck_core::tokview`]).

use std::fmt::Write as _;

use super::escape::{md_code, md_inline, visible};
use framecheck_core::oracle::Check;
use framecheck_launch::outcome::RunResult;
use framecheck_launch::outcome::ViewReport;

/// Findings listed per view in Markdown and HTML; the JSON report has all.
pub(super) const SHOWN_PER_VIEW: usize = 40;

/// What every format says about views before their findings.
pub(super) const VIEWS_NOTE: &str = "A tokenizer view judges the framed outputs as one real tokenizer encodes them. \
     It is not a reader level: it neither contains nor is contained in any level, holds no level, and changes no verdict. \
     A delimiter is live in a view when the input reproduces the token ids the tokenizer gives the frame's own delimiter in this frame; \
     a control token is text that becomes one when special tokens are parsed. \
     A model's learned reading is wider than its tokenizer: an input that reproduces no ids can still read as the delimiter, \
     and the reader levels judge that.";

/// The view's data as one line: `tiktoken-rs 0.12.1, cl100k_base.tiktoken (embedded)`.
pub(super) fn data_line(view: &ViewReport) -> String {
    let data = &view.data;
    format!("{} {}, {}", data.package, data.version, data.file)
}

/// One line per view: name, data, outputs judged, cases with each kind of
/// finding.
pub(super) fn summary_line(view: &ViewReport) -> String {
    format!(
        "{} ({}): {} framed outputs; delimiter token ids reproduced in {} case(s); control tokens in {} case(s)",
        view.view,
        data_line(view),
        view.judged,
        view.cases_with(Check::DelimiterCensus),
        view.cases_with(Check::TemplateControl),
    )
}

/// The Markdown section, when views were selected.
pub(super) fn write_markdown(out: &mut String, run: &RunResult) {
    if run.views.is_empty() {
        return;
    }
    let _ = writeln!(out, "## Tokenizer views\n\n{VIEWS_NOTE}\n");
    let _ = writeln!(
        out,
        "| view | data | outputs | delimiter ids reproduced (cases) | control tokens (cases) |\n|---|---|---:|---:|---:|"
    );
    for view in &run.views {
        let sha = view.data.sha256.as_deref().map_or(String::new(), |h| {
            format!(" (sha256 {})", &h[..h.len().min(16)])
        });
        let _ = writeln!(
            out,
            "| `{}` | {}{sha} | {} | {} | {} |",
            view.view,
            md_inline(&data_line(view)),
            view.judged,
            view.cases_with(Check::DelimiterCensus),
            view.cases_with(Check::TemplateControl),
        );
    }
    out.push('\n');
    for view in &run.views {
        if view.findings.is_empty() {
            continue;
        }
        let _ = writeln!(out, "### `{}` ({})\n", view.view, view.findings.len());
        for finding in view.findings.iter().take(SHOWN_PER_VIEW) {
            let excerpt = finding.excerpt.as_ref().map_or(String::new(), |e| {
                format!(
                    " at bytes {}..{}: {}",
                    e.start,
                    e.end,
                    md_code(&visible(&e.context), false)
                )
            });
            let _ = writeln!(
                out,
                "- {} {}: {}{excerpt}",
                md_code(&finding.case, false),
                finding.check,
                md_inline(&finding.message),
            );
        }
        if let Some(rest) = not_shown(view) {
            let _ = writeln!(out, "- {rest}");
        }
        out.push('\n');
    }
}

/// The line that stands for a view's findings past [`SHOWN_PER_VIEW`], when
/// there are any (plain text, safe in Markdown and HTML alike).
fn not_shown(view: &ViewReport) -> Option<String> {
    let rest = view.findings.len().checked_sub(SHOWN_PER_VIEW)?;
    (rest > 0).then(|| format!("… and {rest} more (every one is in the JSON report)"))
}

/// The terminal lines, when views were selected.
pub(super) fn write_terminal(out: &mut String, run: &RunResult) {
    if run.views.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\ntokenizer views (apart from the levels; no verdict changes):"
    );
    for view in &run.views {
        let _ = writeln!(out, "  {}", summary_line(view));
    }
}

/// One JUnit suite per view (`view tok:cl100k`), its data as properties and
/// one passing test case per case with a finding, the findings in its
/// output: a view never fails a build on its own.
pub(super) fn junit_suites(run: &RunResult) -> Vec<quick_junit::TestSuite> {
    use quick_junit::{Property, TestCase, TestCaseStatus, TestSuite};
    run.views
        .iter()
        .map(|view| {
            let mut suite = TestSuite::new(format!("view {}", view.view));
            suite.add_property(Property::new(
                "view.data.package",
                view.data.package.as_str(),
            ));
            suite.add_property(Property::new(
                "view.data.version",
                view.data.version.as_str(),
            ));
            suite.add_property(Property::new("view.data.file", view.data.file.as_str()));
            if let Some(sha) = &view.data.sha256 {
                suite.add_property(Property::new("view.data.sha256", sha.as_str()));
            }
            suite.add_property(Property::new("view.judged", view.judged.to_string()));
            let mut cases: Vec<(&str, String)> = Vec::new();
            for finding in &view.findings {
                let line = format!("{}: {}\n", finding.check, visible(&finding.message));
                match cases.last_mut() {
                    Some((case, text)) if *case == finding.case => text.push_str(&line),
                    _ => cases.push((&finding.case, line)),
                }
            }
            if cases.is_empty() {
                cases.push(("(no findings)", format!("{}\n", summary_line(view))));
            }
            for (id, text) in cases {
                let mut case = TestCase::new(visible(id), TestCaseStatus::success());
                case.set_classname(format!("view {}", view.view));
                case.set_system_out(format!("{VIEWS_NOTE}\n{text}"));
                suite.add_test_case(case);
            }
            suite
        })
        .collect()
}

/// The SARIF run property `tokenizerViews`: per view its data and counts.
/// Views raise no SARIF result: they change no verdict, and a code
/// scanning alert is a failure to whoever reads it.
pub(super) fn sarif_property(run: &RunResult) -> serde_json::Value {
    run.views
        .iter()
        .map(|view| {
            serde_json::json!({
                "view": view.view.name(),
                "data": view.data,
                "judged": view.judged,
                "delimiterIdsReproducedCases": view.cases_with(Check::DelimiterCensus),
                "controlTokenCases": view.cases_with(Check::TemplateControl),
                "note": VIEWS_NOTE,
            })
        })
        .collect()
}

/// The HTML section, when views were selected: the same table and findings
/// as Markdown, every interpolated string through [`super::page::shown`].
pub(super) fn write_html(out: &mut String, run: &RunResult) {
    use super::page::{shown, text};
    if run.views.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "<section id=\"views\">\n<h2>Tokenizer views</h2>\n<p>{}</p>\n<table>\n<tr><th>view</th><th>data</th><th>outputs</th><th>delimiter ids reproduced (cases)</th><th>control tokens (cases)</th></tr>",
        text(VIEWS_NOTE)
    );
    for view in &run.views {
        let _ = writeln!(
            out,
            "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            shown(view.view.name()),
            shown(&data_line(view)),
            view.judged,
            view.cases_with(Check::DelimiterCensus),
            view.cases_with(Check::TemplateControl),
        );
    }
    out.push_str("</table>\n");
    for view in run.views.iter().filter(|v| !v.findings.is_empty()) {
        let _ = writeln!(
            out,
            "<h3><code>{}</code> ({})</h3>\n<ul>",
            shown(view.view.name()),
            view.findings.len()
        );
        for finding in view.findings.iter().take(SHOWN_PER_VIEW) {
            let _ = writeln!(
                out,
                "<li><code>{}</code> {}: {}</li>",
                shown(&finding.case),
                shown(finding.check.name()),
                shown(&finding.message)
            );
        }
        if let Some(rest) = not_shown(view) {
            let _ = writeln!(out, "<li>{rest}</li>");
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</section>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use framecheck_core::oracle::CheckClass;
    use framecheck_core::oracle::ViewFinding;
    use framecheck_core::tokview::{DataSource, ViewName};

    fn report(findings: usize) -> ViewReport {
        let finding = ViewFinding {
            case: "c".into(),
            check: Check::DelimiterCensus,
            class: CheckClass::Security,
            message: "m".into(),
            ids: vec![1],
            boundaries: None,
            excerpt: None,
        };
        ViewReport {
            view: ViewName::Cl100k,
            data: DataSource {
                package: "p".into(),
                version: "1".into(),
                file: "f".into(),
                sha256: None,
            },
            judged: findings,
            findings: vec![finding; findings],
        }
    }

    #[test]
    fn findings_past_the_shown_ones_are_counted_once() {
        assert_eq!(not_shown(&report(0)), None);
        assert_eq!(not_shown(&report(SHOWN_PER_VIEW)), None);
        assert_eq!(
            not_shown(&report(SHOWN_PER_VIEW + 3)).as_deref(),
            Some("… and 3 more (every one is in the JSON report)")
        );
    }
}
