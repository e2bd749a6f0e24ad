//! Output that varies with the content (issue 57, item 3), on the fixtures
//! of `tests/shapes/varying/`: each output is judged in the shape it has.
//! A framing that frames only longer content gets `frame.absent` on each
//! shorter case and nothing else, and is judged rather than refused even
//! when the plain contents the profile-fit check wraps, or the calibration
//! probes, come back unframed (calibration then learns from longer probes);
//! a framing that adds a header line for content over several lines is
//! judged per output too;
//! `init` proposes the framed shape from the adapter alone, says that some
//! outputs came back unframed, and its proposal gets the hand profile's
//! verdict, level and failing checks. (The fixtures' expected verdicts,
//! the `header: none` misfit among them, are in `expectations.yaml`, run by
//! `shapes::`.)

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

fn varying_dir() -> PathBuf {
    common::repo().join("tests/shapes/varying")
}

/// Runs `framecheck run` on `profile` and gives its exit code and JSON
/// report.
fn run(profile: &Path, out: &Path) -> (Option<i32>, Value) {
    let output = common::framecheck(&[
        "run",
        "--target",
        profile.to_str().unwrap(),
        "--format",
        "json",
        "--format",
        "markdown",
        "--out",
        out.to_str().unwrap(),
    ]);
    let name = framecheck::profile::TargetProfile::load(profile)
        .unwrap()
        .profile
        .name
        .clone();
    let path = out.join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}\n{}", path.display(), common::text(&output)));
    (output.status.code(), serde_json::from_str(&text).unwrap())
}

/// The checks of every finding in a report.
fn checks(report: &Value) -> BTreeSet<String> {
    report["results"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r["outcome"]["findings"].as_array())
        .flatten()
        .filter_map(|f| f["check"].as_str().map(str::to_string))
        .collect()
}

/// Each judged wrap case whose content is shorter than `short` characters
/// has exactly one finding, `frame.absent` at every level, and no other
/// case has one: the length gate's cases and no others.
fn frame_absent_on_short_cases_only(report: &Value, short: usize) -> Vec<String> {
    let mut wrong = Vec::new();
    let mut absent = 0;
    for result in report["results"].as_array().unwrap() {
        let Some(content) = result["case"]["input"]["wrap"]["content"].as_str() else {
            continue;
        };
        if result["outcome"]["status"] != "judged" {
            continue;
        }
        let findings = result["outcome"]["findings"].as_array().unwrap();
        let is_absent = |f: &Value| f["check"] == "frame.absent";
        let id = result["id"].as_str().unwrap_or("?");
        if content.chars().count() < short {
            absent += 1;
            let levels = findings.first().map(|f| f["levels"].clone());
            let every = serde_json::json!(["exact", "ascii-case-insensitive", "unicode"]);
            if findings.len() != 1 || !is_absent(&findings[0]) || levels != Some(every) {
                wrong.push(format!("{id}: short content, findings {findings:?}"));
            }
        } else if findings.iter().any(is_absent) {
            wrong.push(format!("{id}: framed content got frame.absent"));
        }
    }
    if absent == 0 {
        wrong.push("no short case was judged".into());
    }
    wrong
}

/// A framing that frames only content of 40 characters or more: every
/// shorter case fails `frame.absent` alone, every longer one is judged
/// against the frame (and passes: the frame is defanged), no level holds.
#[test]
fn a_length_gate_is_frame_absent_on_the_short_cases_only() {
    if !common::have(
        "python3",
        "a_length_gate_is_frame_absent_on_the_short_cases_only",
    ) {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let (code, report) = run(&varying_dir().join("broken_length_gated.yaml"), out.path());
    assert_eq!(code, Some(1), "{}", report["harness_error"]);
    let wrong = frame_absent_on_short_cases_only(&report, 40);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(report["summary"]["highest_level_held"].is_null());
    assert_eq!(report["unmarked"], Value::Null, "not an unmarked run");
    // The Markdown report says how many outputs came back unframed.
    let results = report["results"].as_array().unwrap();
    let judged = results
        .iter()
        .filter(|r| r["outcome"]["status"] == "judged")
        .count();
    let absent = results
        .iter()
        .filter(|r| {
            r["outcome"]["findings"]
                .as_array()
                .is_some_and(|f| f.iter().any(|f| f["check"] == "frame.absent"))
        })
        .count();
    let md =
        std::fs::read_to_string(out.path().join("shape-varying-broken-length-gated.md")).unwrap();
    let said = format!("{absent} of {judged} judged cases came back as their content");
    assert!(md.contains("## Outputs with no frame"), "{md}");
    assert!(md.contains(&said), "{said}\n{md}");
}

/// Gated above the one-line plain content the profile-fit check wraps (47
/// characters) and below the calibration probes (50): that plain content
/// comes back unframed, which used to refuse the run as a misfit (exit 2,
/// no finding). Gated above the calibration probes too (200): calibration
/// failed on the unframed probes, and the run was refused. Each is judged,
/// case by case, as above: calibration learns the frame from longer probes.
/// (A gate at 1,000 characters is the fixture
/// `varying/broken_length_gated_long.yaml`, run by `shapes::`.)
#[test]
fn a_gate_above_the_plain_contents_or_the_probes_is_judged_not_refused() {
    if !common::have(
        "python3",
        "a_gate_above_the_plain_contents_or_the_probes_is_judged_not_refused",
    ) {
        return;
    }
    let dir = varying_dir();
    for gate in [50, 200] {
        let yaml = std::fs::read_to_string(dir.join("broken_length_gated.yaml"))
            .unwrap()
            .replace(
                "command: [python3, broken_length_gated.py]",
                &format!("command: [python3, broken_length_gated.py, \"{gate}\"]"),
            )
            .replace("cwd: .", &format!("cwd: {}", dir.display()));
        assert!(yaml.contains(&format!("\"{gate}\"")), "{yaml}");
        let out = tempfile::tempdir().unwrap();
        let profile = out.path().join(format!("gated{gate}.yaml"));
        std::fs::write(&profile, yaml).unwrap();
        let (code, report) = run(&profile, out.path());
        assert_eq!(code, Some(1), "gate {gate}: {}", report["harness_error"]);
        assert_eq!(report["misfit"], Value::Null, "gate {gate}");
        let wrong = frame_absent_on_short_cases_only(&report, gate);
        assert!(wrong.is_empty(), "gate {gate}: {}", wrong.join("\n"));
    }
}

/// `init` on each varying framing, from its adapter alone: the proposal's
/// run gets the hand profile's exit code, level held and failing checks;
/// the length-gated proposal says that some outputs came back unframed,
/// and the others do not.
#[test]
fn init_proposes_the_hand_profiles_verdict_for_each_varying_framing() {
    if !common::have(
        "python3",
        "init_proposes_the_hand_profiles_verdict_for_each_varying_framing",
    ) {
        return;
    }
    let dir = varying_dir();
    // The hand profile, its adapter's arguments, and whether some plain
    // content comes back unframed. The long gate frames none of the usual
    // calibration probes: `init` calibrates on longer ones.
    for (script, args, gated) in [
        ("correct", &["correct.py"][..], false),
        ("broken_raw_branch", &["broken_raw_branch.py"][..], false),
        (
            "multiline_header_correct",
            &["multiline_header_correct.py"][..],
            false,
        ),
        (
            "multiline_header_broken",
            &["multiline_header_broken.py"][..],
            false,
        ),
        ("broken_length_gated", &["broken_length_gated.py"][..], true),
        (
            "broken_length_gated_long",
            &["broken_length_gated.py", "1000"][..],
            true,
        ),
    ] {
        let out = tempfile::tempdir().unwrap();
        let proposal = out.path().join(format!("{script}.yaml"));
        let mut command = vec!["init", "--out", proposal.to_str().unwrap(), "--", "python3"];
        command.extend(args);
        let init = common::framecheck_in(&dir, &command);
        assert_eq!(
            init.status.code(),
            Some(0),
            "{script}: {}",
            common::text(&init)
        );
        let yaml = std::fs::read_to_string(&proposal).unwrap();
        assert_eq!(
            yaml.contains("came back unframed"),
            gated,
            "{script}: the proposal's note on unframed outputs\n{yaml}"
        );
        let hand_out = out.path().join("hand");
        let (hand_code, hand) = run(&dir.join(format!("{script}.yaml")), &hand_out);
        let (code, inferred) = run(&proposal, out.path());
        assert_eq!(code, hand_code, "{script}: exit code\n{yaml}");
        assert_eq!(
            inferred["summary"]["highest_level_held"], hand["summary"]["highest_level_held"],
            "{script}: level held\n{yaml}"
        );
        assert_eq!(checks(&inferred), checks(&hand), "{script}: checks\n{yaml}");
    }
}

/// Issue 57, item 3: `varying/correct` (one line raw, several lines as a
/// JSON string) under a profile that declares only `json-string`: each
/// output is judged in the shape it has, so its raw one-line outputs that
/// no JSON string reader accepts (a JSON object, a tab, backslashes,
/// control characters) are not fidelity findings, and the run gets the
/// per-content profile's verdict. (A raw body that is not the content is
/// still one: `layout::matching`'s unit test.)
#[test]
fn raw_outputs_under_a_declared_encoding_are_judged_raw() {
    if !common::have(
        "python3",
        "raw_outputs_under_a_declared_encoding_are_judged_raw",
    ) {
        return;
    }
    let dir = varying_dir();
    let per_content = "body: { encoding: { per-content: [none, json-string] } }";
    let yaml = std::fs::read_to_string(dir.join("correct.yaml")).unwrap();
    assert!(yaml.contains(per_content), "{yaml}");
    let yaml = yaml
        .replace(per_content, "body: { encoding: json-string }")
        .replace("cwd: .", &format!("cwd: {}", dir.display()));
    let out = tempfile::tempdir().unwrap();
    let profile = out.path().join("json_only.yaml");
    std::fs::write(&profile, yaml).unwrap();
    let (code, report) = run(&profile, out.path());
    let raw_benign = [
        "benign-json",
        "benign-whitespace-only",
        "benign-latex-and-braces",
    ];
    for result in report["results"].as_array().unwrap() {
        let id = result["id"].as_str().unwrap_or("?");
        let content = result["case"]["input"]["wrap"]["content"].as_str();
        if raw_benign.contains(&id) {
            assert_eq!(result["outcome"]["status"], "judged", "{id}");
            assert!(!content.unwrap().contains('\n'), "{id}: written raw");
        }
        let fidelity = result["outcome"]["findings"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|f| f["check"] == "fidelity")
            .count();
        assert_eq!(fidelity, 0, "{id}: {}", result["outcome"]);
    }
    assert_eq!(code, Some(0), "{}", report["harness_error"]);
    assert_eq!(report["summary"]["highest_level_held"], "unicode");
}
