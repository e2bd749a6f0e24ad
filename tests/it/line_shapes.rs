//! Issue 57's line shapes (labels with spaces; a counter in the markers;
//! the same line before and after the content),
//! inferred by `init` from the adapter alone: for every fixture of a
//! shape's directory in tests/shapes/expectations.yaml, the proposal
//! declares the hand profile's delimiters, and `framecheck run` under the
//! proposal gives the hand profile's verdict and level held.

use crate::common;
use crate::shapes::{load_expectations, Verdict};

use framecheck::init::{propose_for_command, InitOptions};
use framecheck::profile::TargetProfile;

/// Checks every fixture of `tests/shapes/<dir>/` as the module
/// documentation says; each adapter is the profile's `.py` twin.
fn init_agrees_with_the_hand_profiles(dir: &str) {
    let fixtures: Vec<_> = load_expectations()
        .into_iter()
        .filter(|f| f.name.starts_with(&format!("{dir}/")))
        .collect();
    assert!(!fixtures.is_empty(), "no fixture under {dir}/");
    let shapes = common::repo().join("tests/shapes");
    for fixture in fixtures {
        let profile = shapes.join(&fixture.profile);
        let hand = TargetProfile::load(&profile)
            .unwrap_or_else(|e| panic!("{}: {e}", fixture.name))
            .profile;
        let script = profile.with_extension("py");
        let script = script.file_name().unwrap().to_str().unwrap();
        let out = tempfile::tempdir().unwrap();
        let proposal = propose_for_command(
            vec!["python3".into(), script.into()],
            profile.parent().unwrap(),
            out.path(),
            InitOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{}: {e}", fixture.name));
        assert_eq!(
            proposal.profile.delimiters, hand.delimiters,
            "{}: the proposal's delimiters\n{}",
            fixture.name, proposal.yaml
        );
        let proposed = out.path().join("proposed.yaml");
        std::fs::write(&proposed, &proposal.yaml).unwrap();
        let run = common::framecheck_command(&["run", "--target"])
            .arg(&proposed)
            .args(["--format", "json", "--out"])
            .arg(out.path())
            .output()
            .unwrap();
        let said = common::text(&run);
        let expected = match fixture.verdict {
            Verdict::Pass => 0,
            Verdict::Fail => 1,
            // A refused profile judges nothing: exit 2.
            Verdict::Misfit => 2,
        };
        assert_eq!(
            run.status.code(),
            Some(expected),
            "{}: {said}",
            fixture.name
        );
        let report = out.path().join(format!("{}.json", proposal.profile.name));
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
        let held = report["summary"]["highest_level_held"].as_str();
        let level = fixture.level.and_then(|l| l.report_name());
        assert_eq!(held, level, "{}: the level held\n{said}", fixture.name);
    }
}

/// Open-only labels whose names are phrases (`Execution logs:` …
/// `Last output from code snippet:`).
#[test]
fn labels_with_spaces_are_inferred_from_the_adapter_alone() {
    if !common::have(
        "python3",
        "labels_with_spaces_are_inferred_from_the_adapter_alone",
    ) {
        return;
    }
    init_agrees_with_the_hand_profiles("labels");
}

/// Begin/end markers carrying a number that counts the framing's calls
/// (`-----[EXTRACT #3]-----`): declared as `{counter}`, not a nonce; and
/// section labels that number a batch (`Document 2:` beside `Document 1:`
/// and `Document 3:`): declared as `Document {counter}`.
#[test]
fn a_counter_in_the_markers_is_inferred_from_the_adapter_alone() {
    if !common::have(
        "python3",
        "a_counter_in_the_markers_is_inferred_from_the_adapter_alone",
    ) {
        return;
    }
    init_agrees_with_the_hand_profiles("counter");
}

/// The same line before and after the content (`=====`, or a per-call
/// `===== {nonce} =====`): begin-end with equal templates.
#[test]
fn the_same_line_around_the_content_is_inferred_from_the_adapter_alone() {
    if !common::have(
        "python3",
        "the_same_line_around_the_content_is_inferred_from_the_adapter_alone",
    ) {
        return;
    }
    init_agrees_with_the_hand_profiles("same-line");
}
