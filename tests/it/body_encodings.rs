//! Issue 57, item 2: the body encodings a framing's output may have beyond
//! the first five (a Python literal, escaped line breaks, percent-escapes), each inferred by `framecheck init`
//! from the adapter alone. For every fixture of such an encoding in
//! `tests/shapes/`, `init`'s proposal states the encoding the hand profile
//! states, and `framecheck run` under the proposal reaches the verdict and
//! the level `tests/shapes/expectations.yaml` gives the hand profile.

use framecheck::init::{propose_for_command, InitOptions};
use framecheck::profile::{BodyEncoding, EncodingChoice};
use serde_json::Value;

use crate::common;

/// One fixture: its script, the verdict's exit code and the level held.
struct Expected {
    script: &'static str,
    exit: i32,
    level: &'static str,
}

/// Proposes a profile for each script of `dir` from its command alone,
/// checks the proposed encoding, runs it and checks the verdict and level.
fn proposals_agree(dir: &str, encoding: BodyEncoding, fixtures: &[Expected]) {
    let cwd = common::repo().join("tests/shapes").join(dir);
    for fixture in fixtures {
        let script = fixture.script;
        let out = tempfile::tempdir().unwrap();
        let command = vec!["python3".to_string(), script.to_string()];
        let proposal = propose_for_command(command, &cwd, out.path(), InitOptions::default())
            .unwrap_or_else(|e| panic!("{script}: {e}"));
        assert_eq!(
            proposal.profile.body.encoding,
            Some(EncodingChoice::Always(encoding.into())),
            "{script}:\n{}",
            proposal.yaml
        );
        let target = out.path().join("proposed.yaml");
        std::fs::write(&target, &proposal.yaml).unwrap();
        let run = common::framecheck_command(&["run", "--target"])
            .arg(&target)
            .args(["--format", "json", "--out"])
            .arg(out.path())
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&run.stdout);
        assert_eq!(run.status.code(), Some(fixture.exit), "{script}: {said}");
        let name = &proposal.profile.name;
        let report = std::fs::read_to_string(out.path().join(format!("{name}.json"))).unwrap();
        let report: Value = serde_json::from_str(&report).unwrap();
        // A report that holds no level writes null.
        let held = report["summary"]["highest_level_held"].as_str();
        assert_eq!(held.unwrap_or("none"), fixture.level, "{script}: {said}");
    }
}

/// `repr` of a dict holding the content, inside tags: `init` finds the
/// literal, and the proposal judges the correct fixture passing and each
/// broken one failing, at the hand profile's level.
#[test]
fn a_python_literal_body_is_inferred_from_the_adapter_alone() {
    let test = "a_python_literal_body_is_inferred_from_the_adapter_alone";
    if !common::have("python3", test) {
        return;
    }
    let fixtures = [
        Expected {
            script: "correct.py",
            exit: 0,
            level: "unicode",
        },
        Expected {
            script: "broken_unescaped_backslash.py",
            exit: 1,
            level: "unicode",
        },
        Expected {
            script: "broken_raw_carriage_return.py",
            exit: 1,
            level: "unicode",
        },
    ];
    proposals_agree("python-literal", BodyEncoding::PythonLiteral, &fixtures);
}

/// The content on one line, its line breaks escaped: `init` finds the
/// escapes from the adapter alone (the probe's LF comes back as `\n`, its
/// quotes as written), and the proposal judges each fixture as the hand
/// profile does: the correct one passing, LF alone escaped failing above
/// `exact`, the ASCII breaks alone failing at `unicode` only, a backslash
/// left single a fidelity failure.
#[test]
fn an_escaped_breaks_body_is_inferred_from_the_adapter_alone() {
    let test = "an_escaped_breaks_body_is_inferred_from_the_adapter_alone";
    if !common::have("python3", test) {
        return;
    }
    let fixtures = [
        Expected {
            script: "correct.py",
            exit: 0,
            level: "unicode",
        },
        Expected {
            script: "broken_lf_only.py",
            exit: 1,
            level: "exact",
        },
        Expected {
            script: "broken_ascii_breaks.py",
            exit: 1,
            level: "ascii-case-insensitive",
        },
        Expected {
            script: "broken_unescaped_backslash.py",
            exit: 1,
            level: "unicode",
        },
        // Python's `unicode_escape`: every non-ASCII character an escape
        // that reads back exactly (10 benign cases failed `fidelity`
        // before `\xNN`, `\uNNNN` and `\UNNNNNNNN` were read for any
        // character).
        Expected {
            script: "correct_unicode_escape.py",
            exit: 0,
            level: "unicode",
        },
    ];
    proposals_agree("escaped-breaks", BodyEncoding::EscapedBreaks, &fixtures);
}

/// `urllib.parse.quote` in an element: `init` finds the percent-escaped
/// body from the adapter alone (the probe's quotes, `<`, `&` and line
/// break come back as `%XX`), and the proposal judges each fixture as the
/// hand profile does: the correct one passing (975 cases failed
/// `roundtrip` before the encoding existed), `safe=" /<>"` failing at
/// `exact`, an escaper leaving non-ASCII raw at `unicode` only.
#[test]
fn a_percent_body_is_inferred_from_the_adapter_alone() {
    let test = "a_percent_body_is_inferred_from_the_adapter_alone";
    if !common::have("python3", test) {
        return;
    }
    let fixtures = [
        Expected {
            script: "correct.py",
            exit: 0,
            level: "unicode",
        },
        Expected {
            script: "broken_markup_safe.py",
            exit: 1,
            level: "none",
        },
        Expected {
            script: "broken_ascii_only.py",
            exit: 1,
            level: "ascii-case-insensitive",
        },
    ];
    proposals_agree("percent", BodyEncoding::Percent, &fixtures);
}
