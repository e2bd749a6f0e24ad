//! `framecheck search` on a profile whose wrap answers parts (`wrap:
//! { returns: parts }`, issue 32 item 4): each mutant's parts are judged
//! by `parts.structure` against the benign parts learned once, the frame
//! checks judge the content's part, a finding is confirmed by replaying its
//! written case through the same parts path, and a profile that says
//! otherwise than the framing answers refuses the search.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common;

fn parts_dir() -> PathBuf {
    common::repo().join("tests/shapes/parts")
}

/// Searches `profile` with a small budget in mutants and `jobs` jobs:
/// the exit code, the report's JSON (`Null` when none was written) and
/// what the search said.
fn search(profile: &Path, jobs: &str, out: &Path) -> (Option<i32>, Value, String) {
    let output = common::framecheck(&[
        "search",
        "--target",
        profile.to_str().unwrap(),
        "--budget",
        "300",
        "--jobs",
        jobs,
        "--out",
        out.to_str().unwrap(),
    ]);
    // The one report a search writes, whatever the profile's name.
    let json = std::fs::read_dir(out)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|path| serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap())
        .unwrap_or(Value::Null);
    (output.status.code(), json, common::text(&output))
}

fn checks(report: &Value) -> Vec<String> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["finding"]["check"].as_str().unwrap().to_string())
        .collect()
}

/// The cases a search wrote, run as a catalogue against `profile`: the
/// exit code and the checks each case failed, by case id.
fn replay(profile: &Path, cases: &Path) -> (Option<i32>, Vec<(String, Vec<String>)>) {
    let out = tempfile::tempdir().unwrap();
    let output = common::framecheck(&[
        "run",
        "--target",
        profile.to_str().unwrap(),
        "--catalogue",
        cases.to_str().unwrap(),
        "--format",
        "json",
        "--out",
        out.path().to_str().unwrap(),
    ]);
    let name = profile
        .file_stem()
        .unwrap()
        .to_str()
        .unwrap()
        .replace('_', "-");
    let report = common::load_report(&out.path().join(format!("shape-parts-{name}.json")));
    let failed = report
        .results
        .iter()
        .map(|r| {
            let checks = match &r.outcome {
                framecheck::runner::Outcome::Judged { findings } => findings
                    .iter()
                    .map(|f| f.check.name().to_string())
                    .collect(),
                _ => Vec::new(),
            };
            (r.case.id.clone(), checks)
        })
        .collect();
    (output.status.code(), failed)
}

/// Content that writes a turn line forges a part: search finds it as a
/// new `parts.structure` failure with one job and with two, and the
/// written cases fail `parts.structure` when run as a catalogue.
#[test]
fn search_finds_a_forged_part_that_replays() {
    if !common::have("python3", "search_finds_a_forged_part_that_replays") {
        return;
    }
    let profile = parts_dir().join("broken_role_from_prefix.yaml");
    for jobs in ["1", "2"] {
        let out = tempfile::tempdir().unwrap();
        let (code, report, text) = search(&profile, jobs, out.path());
        assert_eq!(code, Some(1), "jobs {jobs}: {text}");
        assert_eq!(report["harness_error"], Value::Null, "{text}");
        assert!(
            checks(&report).iter().any(|c| c == "parts.structure"),
            "jobs {jobs}: {text}"
        );
        let cases = out
            .path()
            .join("search-shape-parts-broken-role-from-prefix");
        let (code, replayed) = replay(&profile, &cases);
        assert_eq!(code, Some(1), "{replayed:?}");
        assert_eq!(replayed.len(), checks(&report).len(), "{replayed:?}");
        for (id, failed) in &replayed {
            assert!(
                failed.iter().any(|c| c == "parts.structure"),
                "{id}: {failed:?}"
            );
        }
    }
}

/// The correct framing's mutants keep the content in its part: the same
/// budget finds nothing, with one job or two, and every mutant is judged
/// (the content's part read as the frame, so no frame check fails on the
/// instruction part).
#[test]
fn search_of_correct_parts_finds_nothing() {
    if !common::have("python3", "search_of_correct_parts_finds_nothing") {
        return;
    }
    let profile = parts_dir().join("correct.yaml");
    for jobs in ["1", "2"] {
        let out = tempfile::tempdir().unwrap();
        let (code, report, text) = search(&profile, jobs, out.path());
        assert_eq!(code, Some(0), "jobs {jobs}: {text}");
        assert_eq!(report["harness_error"], Value::Null, "{text}");
        assert_eq!(report["mutants_tried"], 300, "{text}");
        assert_eq!(report["mutants_failing"], 0, "{text}");
        assert!(checks(&report).is_empty(), "{text}");
    }
}

/// A profile declaring parts for a framing answering one text, and one
/// not declaring them for a framing answering parts, refuse the search as
/// a run refuses them: no mutant tried, exit 2, the misfit said.
#[test]
fn a_parts_misfit_refuses_the_search() {
    if !common::have("python3", "a_parts_misfit_refuses_the_search") {
        return;
    }
    let shapes = common::repo().join("tests/shapes");
    let dir = tempfile::tempdir().unwrap();
    let text_framing = std::fs::read_to_string(shapes.join("preamble/correct.yaml"))
        .unwrap()
        .replace(
            "cwd: .",
            &format!("cwd: {}", shapes.join("preamble").display()),
        )
        + "wrap: { returns: parts }\n";
    let undeclared = std::fs::read_to_string(parts_dir().join("correct.yaml"))
        .unwrap()
        .replace("wrap: { returns: parts }\n", "")
        .replace("cwd: .", &format!("cwd: {}", parts_dir().display()));
    for (profile, says) in [
        (text_framing, "answered one text"),
        (undeclared, "answered 2 parts"),
    ] {
        let path = dir.path().join("profile.yaml");
        std::fs::write(&path, profile).unwrap();
        let out = tempfile::tempdir().unwrap();
        let (code, report, text) = search(&path, "1", out.path());
        assert_eq!(code, Some(2), "{text}");
        assert!(text.contains(says), "{text}");
        assert_eq!(report["mutants_tried"], 0, "{text}");
        assert!(report["harness_error"].as_str().unwrap().contains(says));
    }
}
