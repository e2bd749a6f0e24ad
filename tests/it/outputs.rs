//! A run's outputs never contradict each other (issue 34): a run does not
//! overwrite the baseline it is gated by, it leaves no report of its target
//! from an earlier run in a format it did not write, and the README's
//! baseline steps, run twice on a regression, fail twice.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common;
use common::{expect, framecheck_in, text};

/// `framecheck run` of the built-in reference, benign cases only (fast),
/// into `out`, run from `dir`.
fn run_reference(dir: &Path, out: &str, extra: &[&str]) -> Output {
    let mut args = vec!["run", "--only", "benign", "--out", out];
    args.extend_from_slice(extra);
    framecheck_in(dir, &args)
}

/// The baseline, spelt any way that names a report this run writes or
/// removes, is refused before the run with exit 2, and is left as it was.
/// Unix only: one spelling is a symbolic link, which Windows grants only to
/// administrators or in developer mode.
#[cfg(unix)]
#[test]
fn a_baseline_the_run_would_overwrite_is_refused_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let first = run_reference(dir.path(), "reports", &["--format", "json"]);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first));
    let json = dir.path().join("reports/reference.json");
    let before = std::fs::read(&json).unwrap();
    std::os::unix::fs::symlink(&json, dir.path().join("link.json")).unwrap();
    for (baseline, formats) in [
        ("reports/reference.json", &[][..]),
        ("./reports/../reports/reference.json", &[][..]),
        ("link.json", &[][..]),
        // Not written, but removed as stale: the same loss.
        ("reports/reference.json", &["--format", "markdown"][..]),
    ] {
        let mut extra = vec!["--baseline", baseline];
        extra.extend_from_slice(formats);
        let output = run_reference(dir.path(), "reports", &extra);
        expect(&output, 2, "the run would replace its own baseline");
        assert!(text(&output).contains("--out reports"), "{}", text(&output));
        assert_eq!(std::fs::read(&json).unwrap(), before, "{baseline}");
        assert!(!dir.path().join("reports/reference.md").exists());
    }
    // Kept outside --out, the same file gates the run.
    std::fs::create_dir(dir.path().join("baselines")).unwrap();
    std::fs::copy(&json, dir.path().join("baselines/reference.json")).unwrap();
    let gated = run_reference(
        dir.path(),
        "reports",
        &["--baseline", "baselines/reference.json"],
    );
    expect(&gated, 0, "wrote reports/reference.json");
}

/// A later run with fewer formats removes the earlier run's reports in the
/// formats it did not write, says so, and leaves other targets' files and
/// other files alone.
#[test]
fn a_run_with_fewer_formats_removes_the_earlier_runs_other_reports() {
    let dir = tempfile::tempdir().unwrap();
    let all = run_reference(dir.path(), "out", &[]);
    assert_eq!(all.status.code(), Some(0), "{}", text(&all));
    let out = dir.path().join("out");
    for name in ["other.md", "reference-nonce.md", "reference.txt"] {
        std::fs::write(out.join(name), "kept").unwrap();
    }
    let json_only = run_reference(dir.path(), "out", &["--format", "json"]);
    expect(
        &json_only,
        0,
        "removed out/reference.md (an earlier run's report",
    );
    let mut left: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(
        left,
        [
            "other.md",
            "reference-nonce.md",
            "reference.json",
            "reference.txt"
        ]
    );
}

/// The fenced `sh` blocks of the README's step 5 ("Gate CI"): the first
/// makes the baseline (once), the second gates a run against it.
fn readme_gate_steps() -> (Vec<String>, Vec<String>) {
    let readme = std::fs::read_to_string(crate::common::repo().join("README.md")).unwrap();
    let start = readme.find("5. **Gate CI**").expect("README step 5");
    let end = start
        + readme[start..]
            .find("6. **Search**")
            .expect("README step 6");
    let mut blocks = Vec::new();
    let mut block: Option<Vec<String>> = None;
    for line in readme[start..end].lines().map(str::trim) {
        match (&mut block, line) {
            (None, "```sh") => block = Some(Vec::new()),
            (Some(_), "```") => blocks.extend(block.take()),
            (Some(lines), command) if !command.is_empty() => lines.push(command.to_string()),
            _ => {}
        }
    }
    assert_eq!(
        blocks.len(),
        2,
        "step 5 has a baseline block and a gate block"
    );
    let mut blocks = blocks.into_iter();
    (blocks.next().unwrap(), blocks.next().unwrap())
}

/// Runs each line of a README block with `sh` in `project`, with the
/// framecheck under test first on PATH; gives the last line's output.
fn run_block(project: &Path, lines: &[String]) -> Output {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_framecheck"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut last = None;
    for line in lines {
        let output = Command::new("sh")
            .args(["-c", line])
            .current_dir(project)
            .env("PATH", &path)
            .output()
            .expect("sh runs");
        last = Some(output);
    }
    last.expect("a block has a line")
}

/// A framing that escapes nothing, with the fixture's delimiters: every
/// breakout the escaping framing held is a new failure.
const REGRESSED: &str = "from framecheck_adapter import serve\n\n\
def wrap(content, kind, attributes, provenance):\n    \
return '<fixture-data kind=\"' + kind + '\">' + content + '</fixture-data>'\n\n\
serve(wrap)\n";

/// The README's baseline steps, as written there, on a framing that then
/// regresses: the gate fails, and fails again when run a second time (it
/// used to overwrite its baseline and pass the second time).
#[test]
fn the_readme_baseline_steps_fail_twice_on_a_regression() {
    if !common::have(
        "python3",
        "the_readme_baseline_steps_fail_twice_on_a_regression",
    ) {
        return;
    }
    let (make_baseline, gate) = readme_gate_steps();
    let project = tempfile::tempdir().unwrap();
    let root = project.path();
    std::fs::create_dir(root.join("targets")).unwrap();
    let helpers = framecheck_in(root, &["helpers", "--write", "."]);
    assert_eq!(helpers.status.code(), Some(0), "{}", text(&helpers));
    let fixture = crate::common::repo().join("tests/adapters");
    std::fs::copy(fixture.join("lossy_escape.py"), root.join("my_adapter.py")).unwrap();
    let profile = std::fs::read_to_string(fixture.join("lossy-escape.yaml"))
        .unwrap()
        .replace("name: lossy-escape", "name: mine")
        .replace(
            "command: [python3, lossy_escape.py]",
            "command: [python3, my_adapter.py]\n  cwd: ..",
        );
    std::fs::write(root.join("targets/mine.yaml"), profile).unwrap();
    // Step 3 (fidelity failures only: the baseline accepts them).
    let first = framecheck_in(root, &["run", "--target", "mine"]);
    expect(&first, 1, "wrote reports/mine.json");
    let made = run_block(root, &make_baseline);
    assert_eq!(made.status.code(), Some(0), "{}", text(&made));
    let unchanged = run_block(root, &gate);
    expect(&unchanged, 0, "0 new failures");

    std::fs::write(root.join("my_adapter.py"), REGRESSED).unwrap();
    for attempt in ["first", "second"] {
        let output = run_block(root, &gate);
        assert_eq!(
            output.status.code(),
            Some(1),
            "{attempt} gate of the regression: {}",
            text(&output)
        );
    }
    // The README's former step, gating against the run's own report.
    for _ in 0..2 {
        let own = framecheck_in(
            root,
            &["run", "--target", "mine", "--baseline", "reports/mine.json"],
        );
        expect(&own, 2, "would replace its own baseline");
    }
}
