//! Evidence never overstates: a run where nothing passed, or that did not
//! finish, holds no level in any report format, and the JSON report's
//! `harness_error` agrees with its `status`.

use std::sync::atomic::AtomicBool;

use framecheck::adapter::reference::Reference;
use framecheck::adapter::{Framing, TargetError, WrapRequest};
use framecheck::catalogue;
use framecheck::report::summary::Summary;
use framecheck::report::{json, junit, markdown, sarif};
use framecheck::runner::{self, RunOptions, RunResult};

struct Crashes;

impl Framing for Crashes {
    fn wrap(&mut self, _: &WrapRequest) -> Result<String, TargetError> {
        Err(TargetError::failed("child killed by signal 11"))
    }
    fn read(&mut self, _: &str) -> Result<Option<String>, TargetError> {
        Err(TargetError::failed("child killed by signal 11"))
    }
}

fn run_with(framing: &mut dyn Framing, only: &str, cancel: bool) -> RunResult {
    let profile = framecheck::envelope::reference_profile();
    let cases = catalogue::select(
        catalogue::instantiate(&catalogue::builtin(), &profile),
        &[only.to_string()],
    )
    .unwrap();
    let cancel = AtomicBool::new(cancel);
    let options = RunOptions {
        cancel: &cancel,
        ..RunOptions::default()
    };
    runner::run(&cases, &profile, framing, &options, &mut |_| {})
}

/// Every format states no level for `run`, and says why.
fn assert_no_level_anywhere(run: &RunResult, why: &str) {
    let summary = Summary::of(run);
    assert_eq!(summary.highest_level_held, None);
    assert_eq!(summary.status(), "harness-error");
    assert_eq!(summary.level_held_text(), why);

    let text = markdown::terminal_summary(run);
    assert!(
        text.contains(&format!("highest level held: {why}")),
        "{text}"
    );
    let md = markdown::render(run);
    assert!(md.contains(&format!("Highest level held: {why}")), "{md}");
    assert!(md.contains("## Harness error"), "{md}");

    let report: serde_json::Value = serde_json::from_str(&json::render(run)).unwrap();
    assert_eq!(report["status"], "harness-error");
    assert!(
        report["harness_error"].is_string(),
        "{}",
        report["harness_error"]
    );
    assert_eq!(
        report["summary"]["highest_level_held"],
        serde_json::Value::Null
    );
    assert_eq!(report["summary"]["harness_error"], true);
    // It reads back into the same run.
    assert_eq!(&json::parse(&json::render(run)).unwrap(), run);

    let xml = junit::render(run);
    assert!(
        xml.contains(&format!("name=\"highest-level-held\" value=\"{why}\"")),
        "{xml}"
    );
    assert!(xml.contains("name=\"harness-error\""), "{xml}");

    let sarif: serde_json::Value = serde_json::from_str(&sarif::render(run)).unwrap();
    let properties = &sarif["runs"][0]["properties"];
    assert_eq!(properties["highestLevelHeld"], serde_json::Value::Null);
    assert_eq!(properties["levelHeld"], why);
    assert_eq!(
        sarif["runs"][0]["invocations"][0]["executionSuccessful"],
        false
    );
}

#[test]
fn a_run_where_every_case_errored_holds_no_level() {
    let run = run_with(&mut Crashes, "breakout", false);
    // A target that fails the benign calibration request twice is given up
    // at once, and the run says so.
    let own = run.meta.harness_error.as_deref().unwrap_or_default();
    assert!(own.contains("abandoned at calibration"), "{own}");
    assert_no_level_anywhere(&run, "none (the run is incomplete)");
    let report: serde_json::Value = serde_json::from_str(&json::render(&run)).unwrap();
    let error = report["harness_error"].as_str().unwrap();
    assert!(error.contains("ended in a target error"), "{error}");
}

#[test]
fn an_interrupted_run_holds_no_level() {
    let run = run_with(&mut Reference, "breakout", true);
    assert!(run.results.is_empty());
    assert_no_level_anywhere(&run, "none (the run is incomplete)");
}

#[test]
fn a_run_where_nothing_was_judged_holds_no_level() {
    // A target with no reader: every read case is skipped, none passes.
    let profile = framecheck::envelope::reference_profile()
        .edit(|p| {
            p.capabilities
                .retain(|c| *c != framecheck::profile::Capability::Read)
        })
        .unwrap();
    let cases = catalogue::select(
        catalogue::instantiate(&catalogue::builtin(), &profile),
        &["reader".to_string()],
    )
    .unwrap();
    let cases: Vec<_> = cases
        .into_iter()
        .filter(|c| c.operation == catalogue::Operation::Read)
        .collect();
    assert!(!cases.is_empty());
    let run = runner::run(
        &cases,
        &profile,
        &mut Reference,
        &RunOptions::default(),
        &mut |_| {},
    );
    let summary = Summary::of(&run);
    assert_eq!(summary.highest_level_held, None);
    assert_eq!(summary.level_held_text(), "none (no case passed)");
    assert!(!markdown::render(&run).contains("Highest level held: `unicode`"));
}

#[test]
fn a_complete_passing_run_still_holds_unicode() {
    let run = run_with(&mut Reference, "breakout", false);
    let summary = Summary::of(&run);
    assert_eq!(summary.status(), "pass");
    assert_eq!(summary.level_held_text(), "unicode");
    let report: serde_json::Value = serde_json::from_str(&json::render(&run)).unwrap();
    assert_eq!(report["harness_error"], serde_json::Value::Null);
}
