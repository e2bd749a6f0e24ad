//! End-to-end tests of the `framecheck` command and the runner: the main
//! job, the seed-style audits through real subprocesses, the subprocess
//! self-test, black-box search, and bad input that must not stop a run.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use framecheck::runner::{RunResult, Verdict};

fn framecheck(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_framecheck"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("framecheck runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn load_report(path: &Path) -> RunResult {
    let text = std::fs::read_to_string(path).expect("report exists");
    framecheck::report::json::parse(&text).expect("report parses")
}

/// Runs `framecheck run` against `target` into a fresh directory.
fn run_target(target: &str, extra: &[&str]) -> (Output, tempfile::TempDir) {
    let out = tempfile::tempdir().expect("temp dir");
    let mut args = vec![
        "run",
        "--target",
        target,
        "--out",
        out.path().to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    (framecheck(&args), out)
}

fn failing_ids(run: &RunResult, level: framecheck::level::ReaderLevel) -> Vec<String> {
    run.results
        .iter()
        .filter(|r| r.verdict_at(level) == Verdict::Fail)
        .map(|r| r.case.id.clone())
        .collect()
}

fn have(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The Go seed adapter is a build product; build it when Go is here.
fn go_adapter_ready() -> bool {
    let binary =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("adapters/seed-go-context/seed-go-context");
    if binary.is_file() {
        return true;
    }
    have("go")
        && Command::new("bash")
            .arg("adapters/build.sh")
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .is_ok_and(|s| s.success())
}

#[test]
fn the_main_job_passes_the_reference_and_writes_four_reports() {
    let (output, out) = run_target("reference", &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    for ext in ["json", "md", "junit.xml", "sarif"] {
        let path = out.path().join(format!("reference.{ext}"));
        assert!(path.is_file(), "missing {}", path.display());
    }
    let run = load_report(&out.path().join("reference.json"));
    assert!(run.results.len() >= 400, "only {} cases", run.results.len());
    for level in framecheck::level::ReaderLevel::ALL {
        for result in &run.results {
            let verdict = result.verdict_at(level);
            // An in-process Rust target takes text, not raw bytes: the
            // cases that need the `bytes` capability are skipped.
            let needs_bytes = result
                .case
                .requires
                .contains(&framecheck::profile::Capability::Bytes);
            assert!(
                matches!(verdict, Verdict::Pass | Verdict::Refused)
                    || (needs_bytes && verdict == Verdict::Skipped),
                "{} is {} at {level}",
                result.case.id,
                verdict.name()
            );
        }
    }
    assert!(stdout(&output).contains("highest level held: unicode"));
}

#[test]
fn the_reference_served_over_the_protocol_gets_the_same_verdicts() {
    let (in_process, a) = run_target("reference", &["--format", "json"]);
    let (subprocess, b) = run_target("targets/reference-subprocess.yaml", &["--format", "json"]);
    assert_eq!(in_process.status.code(), Some(0));
    assert_eq!(subprocess.status.code(), Some(0), "{}", stdout(&subprocess));
    let a = load_report(&a.path().join("reference.json"));
    let b = load_report(&b.path().join("reference-subprocess.json"));
    assert_eq!(a.results.len(), b.results.len());
    for (x, y) in a.results.iter().zip(&b.results) {
        assert_eq!(x.case.id, y.case.id);
        assert_eq!(x.outcome, y.outcome, "{}", x.case.id);
        assert_eq!(x.evidence, y.evidence, "{}", x.case.id);
    }
}

#[test]
fn the_typescript_style_envelope_holds_case_but_not_unicode() {
    if !have("node") {
        eprintln!("skipped: node is not installed");
        return;
    }
    let (output, out) = run_target("seed-ts-envelope", &["--format", "json"]);
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    let run = load_report(&out.path().join("seed-ts-envelope.json"));
    use framecheck::level::ReaderLevel::*;
    let exact = failing_ids(&run, Exact);
    let unicode = failing_ids(&run, Unicode);
    // Case-insensitive defanging: no case variant of a content breakout fails.
    assert!(!unicode
        .iter()
        .any(|id| id == "breakout-close-mid-content~upper"));
    // No Unicode folding: lookalike forms break out.
    for id in [
        "breakout-close-mid-content~fullwidth",
        "breakout-close-mid-content~zero-width",
    ] {
        assert!(unicode.iter().any(|x| x == id), "{id} should fail");
        assert!(!exact.iter().any(|x| x == id), "{id} fails only at unicode");
    }
    // Keys written raw, line breaks kept in attribute values and provenance.
    for id in ["attr-key-quote", "attr-value-lf", "prov-blank-line-lf"] {
        assert!(exact.iter().any(|x| x == id), "{id} should fail at exact");
    }
}

#[test]
fn the_python_style_markers_escape_the_opener_into_a_closer() {
    if !have("python3") {
        eprintln!("skipped: python3 is not installed");
        return;
    }
    let (output, out) = run_target("seed-a2a-markers", &["--format", "json"]);
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    let run = load_report(&out.path().join("seed-a2a-markers.json"));
    let exact = failing_ids(&run, framecheck::level::ReaderLevel::Exact);
    let ci = failing_ids(&run, framecheck::level::ReaderLevel::AsciiCaseInsensitive);
    // Exact-case replacement: a lower-case closer is live to a case-insensitive reader.
    assert!(ci.iter().any(|x| x == "breakout-close-mid-content~lower"));
    assert!(!exact
        .iter()
        .any(|x| x == "breakout-close-mid-content~lower"));
    // The escaped opener `[/ TOKEN]` reads as a closing marker.
    assert!(exact.iter().any(|x| x == "forgery-bare-open"));
}

#[test]
fn the_go_style_renderer_leaves_the_attribute_form_and_lookalike_brackets_live() {
    if !go_adapter_ready() {
        eprintln!("skipped: Go is not installed and the adapter is not built");
        return;
    }
    let (output, out) = run_target("seed-go-context", &["--format", "json"]);
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    let run = load_report(&out.path().join("seed-go-context.json"));
    let exact = failing_ids(&run, framecheck::level::ReaderLevel::Exact);
    let unicode = failing_ids(&run, framecheck::level::ReaderLevel::Unicode);
    assert!(exact.iter().any(|x| x == "forgery-attribute-form"));
    assert!(exact.iter().any(|x| x == "forgery-reserved-element"));
    // `<` becomes `‹` in titles, which a Unicode reader reads as `<` again.
    assert!(unicode.iter().any(|x| x == "attr-value-bracket-forged-tag"));
    assert!(!exact.iter().any(|x| x == "attr-value-bracket-forged-tag"));
}

fn search(target: &str, out: &Path) -> Output {
    framecheck(&[
        "search",
        "--target",
        target,
        "--budget",
        "400",
        "--seed",
        "7",
        "--max-findings",
        "3",
        "--out",
        out.to_str().unwrap(),
    ])
}

#[test]
fn search_finds_nothing_new_against_the_reference() {
    let out = tempfile::tempdir().unwrap();
    let output = search("reference", out.path());
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.path().join("search-reference.json")).unwrap())
            .unwrap();
    assert_eq!(report["mutants_tried"], 400);
    assert_eq!(report["findings"].as_array().unwrap().len(), 0);
}

#[test]
fn search_finds_new_failures_in_a_seed_style_and_writes_loadable_cases() {
    if !have("python3") {
        eprintln!("skipped: python3 is not installed");
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let output = search("seed-a2a-markers", out.path());
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    let found: PathBuf = out.path().join("search-seed-a2a-markers");
    let loaded = framecheck::catalogue::load_dir(&found);
    assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
    assert!(!loaded.catalogue.cases.is_empty());
    // The found cases fail the target they were found on, and not the reference.
    let dir = found.to_str().unwrap();
    let again = framecheck(&[
        "run",
        "--target",
        "seed-a2a-markers",
        "--catalogue",
        dir,
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert_eq!(again.status.code(), Some(1), "{}", stdout(&again));
    let reference = framecheck(&[
        "run",
        "--catalogue",
        dir,
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert_eq!(reference.status.code(), Some(0), "{}", stdout(&reference));
}

#[test]
fn a_broken_catalogue_file_is_named_and_the_rest_still_runs() {
    let dir = tempfile::tempdir().unwrap();
    let attacks = Path::new(env!("CARGO_MANIFEST_DIR")).join("attacks");
    std::fs::copy(
        attacks.join("breakout.yaml"),
        dir.path().join("breakout.yaml"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("forgery.yaml"),
        "schema: framecheck-catalogue/1\ncategory: forgery\ndescription: x\ncases:\n  - id: a\n    bogus: 1\n",
    )
    .unwrap();
    let out = tempfile::tempdir().unwrap();
    let output = framecheck(&[
        "run",
        "--catalogue",
        dir.path().to_str().unwrap(),
        "--out",
        out.path().to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(
        output.status.code(),
        Some(2),
        "a harness error outranks a pass"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("forgery.yaml:"), "{stderr}");
    assert!(stderr.contains("bogus"), "{stderr}");
    let run = load_report(&out.path().join("reference.json"));
    assert!(run.meta.harness_error.is_some());
    assert!(run
        .results
        .iter()
        .all(|r| r.case.category.name() == "breakout"));
    assert!(!run.results.is_empty());
}

#[test]
fn a_target_that_always_crashes_gives_errors_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let profile = dir.path().join("crasher.yaml");
    std::fs::write(
        &profile,
        "name: crasher\nadapter:\n  command: [sh, -c, 'read line; exit 3']\n  timeout_ms: 2000\n\
         delimiters: { syntax: xml-tag, token: crash }\ncapabilities: [wrap]\n",
    )
    .unwrap();
    let out = tempfile::tempdir().unwrap();
    let output = framecheck(&[
        "run",
        "--target",
        profile.to_str().unwrap(),
        "--only",
        "breakout-close-mid-content*",
        "--out",
        out.path().to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(output.status.code(), Some(2), "{}", stdout(&output));
    let run = load_report(&out.path().join("crasher.json"));
    assert!(!run.results.is_empty());
    assert!(run
        .results
        .iter()
        .all(|r| r.verdict_at(run.meta.level) == Verdict::Error));
}

#[test]
fn a_baseline_of_a_narrower_selection_is_an_error_not_a_mass_regression() {
    if !have("node") {
        eprintln!("skipped: node is not installed");
        return;
    }
    // A narrower earlier run of the same target: every case outside it
    // would look new, so the comparison is refused (exit 2), not a gate.
    let (first, out) = run_target(
        "seed-ts-envelope",
        &["--only", "benign", "--format", "json"],
    );
    assert_eq!(first.status.code(), Some(1));
    let baseline = out.path().join("seed-ts-envelope.json");
    let kept = out.path().join("baseline.json");
    std::fs::rename(&baseline, &kept).unwrap();
    let (second, _out2) = run_target(
        "seed-ts-envelope",
        &[
            "--only",
            "breakout",
            "--baseline",
            kept.to_str().unwrap(),
            "--format",
            "json",
        ],
    );
    assert_eq!(second.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(stderr.contains("--only"), "{stderr}");
}
