//! The JUnit XML report, for CI systems that show test results.
//!
//! First a `weaknesses` suite with one failing `<testcase>` per weakness
//! (named by its stable id; the text lists its cases), then one
//! `<testsuite>` per category (in report order, only categories with
//! cases), one `<testcase>` per concrete case: `name` is the case id,
//! `classname` the category. At the run's level a `fail` or `fidelity-fail`
//! verdict is a `<failure>` (its `type` is the failing check's name, its text
//! every finding with levels, message, excerpt and fix hint), an `error` is
//! an `<error>` with the reason and the target's stderr tail, `skipped` is
//! `<skipped>`; `pass` and an allowed `refused` are successes.
//!
//! XML 1.0 cannot carry some characters even as references (NUL, most C0
//! controls, U+FFFE, U+FFFF), attribute values lose their line breaks to
//! normalisation, and quick-junit silently strips control characters and
//! terminal escapes. So every run-supplied string is rewritten before it
//! reaches the XML writer: attribute values through [`visible`], element
//! text through [`visible_lines`] (line breaks kept). Hostile payloads are
//! shown as escapes, never dropped, and the document always parses.

use std::fmt::Write as _;
use std::time::Duration;

use quick_junit::{NonSuccessKind, Property, Report, TestCase, TestCaseStatus, TestSuite};

use super::escape::{truncate, visible, visible_lines};
use super::markdown::MAX_SHOWN_BYTES;
use super::summary::{harness_error, Summary};
use framecheck_core::catalogue::Category;
use framecheck_core::level::ReaderLevel;
use framecheck_core::oracle::{Check, CheckClass};
use framecheck_launch::outcome::{CaseResult, Outcome, RunResult, Verdict};

/// Longest run-supplied text in one JUnit element, in bytes. CI viewers
/// choke on megabyte test messages; the JSON report keeps everything.
const MAX_JUNIT_TEXT_BYTES: usize = 64 * 1024;

/// Renders `run` as JUnit XML.
pub fn render(run: &RunResult) -> String {
    let summary = Summary::of(run);
    let harness_error = harness_error(run);
    let meta = &run.meta;
    let mut report = Report::new(format!("framecheck {}", visible(&meta.target.name)));
    report.set_time(Duration::from_millis(meta.duration_ms));
    // A harness error is a failing test of its own, so a run that did not
    // finish (even one with no case run at all) is never a green JUnit file.
    if let Some(error) = &harness_error {
        report.add_test_suite(harness_suite(run, &summary, error));
    }
    if let Some(suite) = weakness_suite(run) {
        report.add_test_suite(suite);
    }
    for class in CheckClass::APART {
        if let Some(suite) = apart_suite(run, class) {
            report.add_test_suite(suite);
        }
    }
    for category in Category::ALL {
        if let Some(suite) = category_suite(run, &summary, harness_error.as_deref(), category) {
            report.add_test_suite(suite);
        }
    }
    for suite in super::views::junit_suites(run) {
        report.add_test_suite(suite);
    }
    // quick-junit's writer fails only on an I/O error of its sink, and the
    // sink here is memory.
    report
        .to_string()
        .expect("a JUnit report always serializes")
}

/// The `harness` suite: one erroring test case carrying the harness error.
fn harness_suite(run: &RunResult, summary: &Summary, error: &str) -> TestSuite {
    let mut suite = TestSuite::new("harness");
    suite.add_property(Property::new("level", run.meta.level.name()));
    suite.add_property(Property::new(
        "highest-level-held",
        summary.level_held_text(),
    ));
    suite.add_property(Property::new(
        "harness-error",
        visible(&truncate(error, MAX_JUNIT_TEXT_BYTES)),
    ));
    let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
    status.set_type("harness-error");
    status.set_message(visible(&truncate(error, MAX_JUNIT_TEXT_BYTES)));
    let mut case = TestCase::new("harness-error", status);
    case.set_classname("harness");
    suite.add_test_case(case);
    suite
}

/// One category's suite: the run's properties, then one test case per
/// concrete case. `None` when the category has no case.
fn category_suite(
    run: &RunResult,
    summary: &Summary,
    harness_error: Option<&str>,
    category: Category,
) -> Option<TestSuite> {
    let cases: Vec<&CaseResult> = run
        .results
        .iter()
        .filter(|r| r.case.category == category)
        .collect();
    if cases.is_empty() {
        return None;
    }
    let mut suite = TestSuite::new(category.name());
    add_run_properties(&mut suite, run, summary, harness_error);
    let mut elapsed = Duration::ZERO;
    for result in cases {
        let time = Duration::from_micros(result.elapsed_us);
        elapsed += time;
        let mut case = TestCase::new(visible(&result.case.id), status(result, run));
        case.set_classname(category.name());
        case.set_time(time);
        suite.add_test_case(case);
    }
    suite.set_time(elapsed);
    Some(suite)
}

/// The properties every category suite carries: level, gate, versions and
/// hashes, the level held and any harness error.
fn add_run_properties(
    suite: &mut TestSuite,
    run: &RunResult,
    summary: &Summary,
    harness_error: Option<&str>,
) {
    let meta = &run.meta;
    suite.add_property(Property::new("level", meta.level.name()));
    suite.add_property(Property::new("gate", meta.gate.name()));
    suite.add_property(Property::new(
        "framecheck.version",
        visible(&meta.framecheck_version),
    ));
    suite.add_property(Property::new(
        "catalogue.hash",
        visible(&meta.catalogue_hash),
    ));
    suite.add_property(Property::new(
        "highest-level-held",
        summary.level_held_text(),
    ));
    if let Some(manifest) = &meta.manifest {
        suite.add_property(Property::new(
            "framecheck.commit",
            visible(&manifest.framecheck_commit),
        ));
        suite.add_property(Property::new(
            "profile.hash",
            visible(&manifest.profile_hash),
        ));
    }
    if let Some(error) = harness_error {
        suite.add_property(Property::new(
            "harness-error",
            visible(&truncate(error, MAX_JUNIT_TEXT_BYTES)),
        ));
    }
}

/// The `weaknesses` suite, first in the report: one failing test case per
/// weakness (see [`super::weakness`]), so a CI view leads with the
/// conclusions. `None` when nothing failed.
fn weakness_suite(run: &RunResult) -> Option<TestSuite> {
    let weaknesses = super::weakness::weaknesses(run);
    if weaknesses.is_empty() {
        return None;
    }
    let mut suite = TestSuite::new("weaknesses");
    suite.add_property(Property::new("level", run.meta.level.name()));
    suite.add_property(Property::new("gate", run.meta.gate.name()));
    for weakness in &weaknesses {
        // A weakness of a class reported apart that the gate does not fail
        // on is a passing test whose output says what was found.
        let mut status = if weakness.fails {
            TestCaseStatus::non_success(NonSuccessKind::Failure)
        } else {
            TestCaseStatus::success()
        };
        status.set_type(weakness.check.name());
        status.set_message(weakness.statement.clone());
        let mut text = format!(
            "{}\n{} cases, failing at {}; minimal case: {}\nfix: {}\ncases:\n",
            weakness.statement,
            weakness.count,
            super::weakness::levels_text(weakness),
            visible(&weakness.representative),
            weakness.check.hint()
        );
        for id in &weakness.cases {
            let _ = writeln!(text, "  {}", visible(id));
        }
        let text = truncate(&text, MAX_JUNIT_TEXT_BYTES).into_owned();
        let reported = !weakness.fails;
        if !reported {
            status.set_description(text.clone());
        }
        let mut case = TestCase::new(weakness.id.clone(), status);
        if reported {
            case.set_system_out(format!(
                "{} (not failing under the {} gate)\n{text}",
                weakness.class.name(),
                run.meta.gate.name()
            ));
        }
        case.set_classname("weaknesses");
        suite.add_test_case(case);
    }
    Some(suite)
}

/// One suite per class reported apart (`confusable`, `outer-layer`), with
/// one test case per case that has a finding of the class at the run's
/// level: a failure where the run's gate fails on it, else a passing test
/// whose output lists the findings, so a CI view shows the class apart from
/// security and fidelity either way. `None` when no case has one.
fn apart_suite(run: &RunResult, class: CheckClass) -> Option<TestSuite> {
    let level = run.meta.level;
    let mut suite = TestSuite::new(class.name());
    suite.add_property(Property::new("level", level.name()));
    suite.add_property(Property::new("gate", run.meta.gate.name()));
    for result in &run.results {
        let findings: Vec<_> = result
            .findings_at(level)
            .into_iter()
            .filter(|f| f.class == class)
            .collect();
        let Some(first) = findings.first() else {
            continue;
        };
        let mut text = String::new();
        for finding in &findings {
            let levels: Vec<&str> = finding.levels.iter().map(|l| l.name()).collect();
            let _ = writeln!(
                text,
                "{}{} at [{}]: {}\nfix: {}",
                finding.check.name(),
                super::markdown::consumer_note(finding),
                levels.join(", "),
                visible(&truncate(&finding.message, MAX_JUNIT_TEXT_BYTES)),
                finding.check.hint()
            );
        }
        let failing = findings.iter().any(|f| run.meta.gate.fails(f));
        let mut status = if failing {
            TestCaseStatus::non_success(NonSuccessKind::Failure)
        } else {
            TestCaseStatus::success()
        };
        if failing {
            status.set_type(first.check.name());
            status.set_message(visible(&truncate(&first.message, MAX_JUNIT_TEXT_BYTES)));
            status.set_description(text.clone());
        }
        let mut case = TestCase::new(visible(&result.case.id), status);
        case.set_classname(class.name());
        if !failing {
            case.set_system_out(format!(
                "{} (not failing under the {} gate)\n{text}",
                class.name(),
                run.meta.gate.name()
            ));
        }
        suite.add_test_case(case);
    }
    (!suite.test_cases.is_empty()).then_some(suite)
}

fn status(result: &CaseResult, run: &RunResult) -> TestCaseStatus {
    let level = run.meta.level;
    match (result.verdict(level, run.meta.gate), &result.outcome) {
        (Verdict::Pass | Verdict::Refused, _) => TestCaseStatus::success(),
        (Verdict::Skipped, outcome) => {
            let mut status = TestCaseStatus::skipped();
            match outcome {
                Outcome::Skipped { reason } => {
                    status.set_message(visible(&truncate(reason, MAX_JUNIT_TEXT_BYTES)));
                }
                Outcome::Unplanted { reason } => {
                    let reason = format!("the target's store refused this content: {reason}");
                    status.set_message(visible(&truncate(&reason, MAX_JUNIT_TEXT_BYTES)));
                }
                _ => {}
            }
            status
        }
        (Verdict::Error, outcome) => error_status(outcome),
        (Verdict::Fail | Verdict::FidelityFail, outcome) => {
            if let Outcome::Refused { reason, .. } = outcome {
                return refusal_status(reason);
            }
            failure_status(result, level)
        }
    }
}

/// A fault's kind, exit status and offending line, one per line.
fn fault_lines(fault: &framecheck_core::target::Fault) -> String {
    let mut text = format!("fault: {}\n", fault.kind.name());
    if let Some(status) = &fault.exit_status {
        let _ = writeln!(text, "exit: {}", visible(status));
    }
    if let Some(line) = &fault.offending_line {
        let _ = writeln!(text, "first offending stdout line: {}", visible(line));
    }
    text
}

/// An `error` verdict: the target's reason and its stderr tail.
fn error_status(outcome: &Outcome) -> TestCaseStatus {
    let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
    status.set_type("target-error");
    if let Outcome::Error {
        reason,
        stderr_tail,
        fault,
    } = outcome
    {
        status.set_message(visible(&truncate(reason, MAX_JUNIT_TEXT_BYTES)));
        let mut text = format!(
            "reason: {}\n",
            visible(&truncate(reason, MAX_JUNIT_TEXT_BYTES))
        );
        if let Some(fault) = fault {
            text.push_str(&fault_lines(fault));
        }
        if !stderr_tail.is_empty() {
            let _ = write!(
                text,
                "stderr tail:\n{}\n",
                visible_lines(&truncate(stderr_tail, MAX_JUNIT_TEXT_BYTES))
            );
        }
        status.set_description(text);
    }
    status
}

/// A failing verdict on a refusal: the target refused input it must frame.
fn refusal_status(reason: &str) -> TestCaseStatus {
    let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
    status.set_type(Check::Fidelity.name());
    status.set_message("the target refused input it must frame");
    status.set_description(format!(
        "reason: {}\nfix: {}\n",
        visible(&truncate(reason, MAX_JUNIT_TEXT_BYTES)),
        Check::Fidelity.hint()
    ));
    status
}

/// A failing verdict on findings: the first finding's check and message,
/// then every reported finding with levels, excerpt and fix hint.
fn failure_status(result: &CaseResult, level: ReaderLevel) -> TestCaseStatus {
    let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
    let findings = super::reported_findings(result, level);
    if let Some(first) = findings.first() {
        status.set_type(first.check.name());
        status.set_message(visible(&truncate(&first.message, MAX_JUNIT_TEXT_BYTES)));
    }
    let mut text = format!(
        "{} ({} severity), {}:{}\n",
        visible(&truncate(&result.case.title, MAX_SHOWN_BYTES)),
        super::severity_name(result.case.severity),
        visible(&result.case.source.file.display().to_string()),
        result.case.source.line
    );
    for finding in findings {
        let levels: Vec<&str> = finding.levels.iter().map(|l| l.name()).collect();
        let _ = writeln!(
            text,
            "\n{}{} at [{}]: {}",
            finding.check.name(),
            super::markdown::consumer_note(finding),
            levels.join(", "),
            visible(&truncate(&finding.message, MAX_JUNIT_TEXT_BYTES))
        );
        if let Some(excerpt) = &finding.excerpt {
            let _ = writeln!(
                text,
                "excerpt ({}, bytes {}..{}): {}",
                super::excerpt_source_name(excerpt.text),
                excerpt.start,
                excerpt.end,
                visible(&truncate(&excerpt.context, MAX_JUNIT_TEXT_BYTES))
            );
        }
        let _ = writeln!(text, "fix: {}", finding.check.hint());
    }
    status.set_description(text);
    status
}
