//! Exit codes of the two gates a CI uses: `run --baseline` and `search`.
//! Known failures pass the baseline gate, new ones fail it, and a baseline
//! that cannot be compared is an error; a search that proves nothing exits 2.

use std::path::Path;
use std::process::Output;

use crate::common;
use common::{expect, framecheck, text};

/// A framing whose failures are fidelity alone (it strips the whitespace
/// around the content): the known failures a baseline accepts.
const TARGET: &str = "tests/adapters/lossy-escape.yaml";

/// A baseline of a target with accepted (fidelity) failures.
fn baseline(out: &Path) -> std::path::PathBuf {
    let first = framecheck(&[
        "run",
        "--target",
        TARGET,
        "--format",
        "json",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(first.status.code(), Some(1), "{}", text(&first));
    out.join("lossy-escape.json")
}

fn gated(baseline: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "run",
        "--target",
        TARGET,
        "--format",
        "json",
        "--out",
        out.to_str().unwrap(),
        "--baseline",
        baseline.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    framecheck(&args)
}

#[test]
fn known_failures_pass_the_baseline_gate() {
    if !common::have("python3", "known_failures_pass_the_baseline_gate") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let baseline = baseline(dir.path());
    let again = gated(&baseline, &dir.path().join("again"), &[]);
    expect(&again, 0, "baseline gate: exit 0");
    // The result line states the exit code the process returns, and which
    // gate decided it; the run's own result is said beside it.
    let printed = text(&again);
    let result = printed
        .lines()
        .find(|l| l.starts_with("result: "))
        .expect("a result line");
    assert!(
        result.starts_with("result: PASS (exit 0): the baseline gate accepts the "),
        "{result}"
    );
    assert!(
        result.contains("(without the baseline: fail, exit 1)"),
        "{result}"
    );
    assert!(!printed.contains("FAIL (exit 1)"), "{printed}");
}

#[test]
fn a_selection_gated_by_a_whole_baseline_calls_the_cases_left_out_not_run() {
    if !common::have(
        "python3",
        "a_selection_gated_by_a_whole_baseline_calls_the_cases_left_out_not_run",
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let baseline = baseline(dir.path());
    let again = gated(&baseline, &dir.path().join("again"), &["--only", "benign"]);
    expect(&again, 0, "not run (outside --only)");
    let printed = text(&again);
    assert!(printed.contains(", 0 removed, "), "{printed}");
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("again/lossy-escape.json")).unwrap(),
    )
    .unwrap();
    assert!(report["baseline"]["removed_cases"]
        .as_array()
        .unwrap()
        .is_empty());
    assert!(!report["baseline"]["not_run"].as_array().unwrap().is_empty());
    assert_eq!(report["baseline_exit_code"], 0);
}

#[test]
fn a_new_failure_fails_the_baseline_gate() {
    if !common::have("python3", "a_new_failure_fails_the_baseline_gate") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = baseline(dir.path());
    // Rewrite one failing case as passing in the baseline: it is new now.
    let mut report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let results = report["results"].as_array_mut().unwrap();
    let failing = results
        .iter_mut()
        .find(|r| r["verdicts"]["unicode"] == "fidelity-fail")
        .expect("a failing case");
    failing["outcome"] = serde_json::json!({ "status": "judged", "findings": [] });
    let id = failing["id"].as_str().unwrap().to_string();
    std::fs::write(&path, serde_json::to_string(&report).unwrap()).unwrap();
    let again = gated(&path, &dir.path().join("again"), &[]);
    expect(&again, 1, &format!("new failure: {id}"));
    expect(
        &again,
        1,
        "result: FAIL (exit 1): the baseline gate finds 1 new failure(s)",
    );
}

#[test]
fn a_baseline_from_another_target_level_or_filter_is_an_error_and_a_newer_catalogue_is_stated() {
    if !common::have("python3", "a_baseline_from_another_target_level_or_filter_is_an_error_and_a_newer_catalogue_is_stated") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = baseline(dir.path());
    let out = dir.path().join("again");
    let level = gated(&path, &out, &["--level", "exact"]);
    expect(&level, 2, "decided at level unicode");

    // A selection of the whole catalogue is covered by a full baseline.
    let only = gated(&path, &out, &["--only", "benign"]);
    assert_eq!(only.status.code(), Some(0), "{}", text(&only));

    let catalogue = tempfile::tempdir().unwrap();
    let attacks = crate::common::repo().join("attacks");
    for entry in std::fs::read_dir(&attacks).unwrap() {
        let entry = entry.unwrap().path();
        if entry.extension().is_some_and(|x| x == "yaml") {
            std::fs::copy(&entry, catalogue.path().join(entry.file_name().unwrap())).unwrap();
        }
    }
    let benign = catalogue.path().join("benign.yaml");
    let edited = std::fs::read_to_string(&benign).unwrap() + "\n# edited\n";
    std::fs::write(&benign, edited).unwrap();
    let other = gated(
        &path,
        &out,
        &["--catalogue", catalogue.path().to_str().unwrap()],
    );
    // A changed catalogue still gates: ids are locked and compared as such,
    // and the change is said, not hidden.
    expect(&other, 0, "the catalogue changed since the baseline");

    let reference = framecheck(&[
        "run",
        "--out",
        out.to_str().unwrap(),
        "--baseline",
        path.to_str().unwrap(),
    ]);
    expect(&reference, 2, "\"lossy-escape\"");
}

fn search(args: &[&str]) -> Output {
    let out = tempfile::tempdir().unwrap();
    let mut all = vec![
        "search",
        "--seed",
        "1",
        "--out",
        out.path().to_str().unwrap(),
    ];
    all.extend_from_slice(args);
    framecheck(&all)
}

#[test]
fn a_search_that_tried_no_mutant_exits_2_and_says_why() {
    let output = search(&["--only", "benign", "--budget", "50"]);
    expect(&output, 2, "no mutant was tried");
}

#[test]
fn a_search_whose_known_failure_pass_overran_exits_2() {
    let output = search(&["--budget", "0s"]);
    expect(&output, 2, "budget ran out");
}

#[test]
fn a_search_against_a_target_that_never_answers_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let profile = dir.path().join("dead.yaml");
    std::fs::write(
        &profile,
        "name: dead\nlanguage: shell\nadapter: { command: [sh, -c, 'exit 3'], timeout_ms: 2000 }\n\
         delimiters: { syntax: xml-tag, token: dead-data }\nheader: none\n\
         attributes: { on: outer, kind: kind, extra: [] }\ncapabilities: [wrap]\n",
    )
    .unwrap();
    let output = search(&["--target", profile.to_str().unwrap(), "--budget", "20"]);
    expect(&output, 2, "never answered");
}
