//! End-to-end tests of the `framecheck` command and the runner: the main
//! job, the seed-style audits through real subprocesses, the subprocess
//! self-test, black-box search, and bad input that must not stop a run.

use std::path::{Path, PathBuf};
use std::process::Output;

use framecheck::runner::{RunResult, Verdict};

use crate::common;
use common::{framecheck, framecheck_in, have, load_report, require, tool_runs};

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
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

/// The Go seed adapter is a build product; build it when Go is here (the
/// shared build, so that no other test rewrites it while this one runs it).
fn go_adapter_ready() -> bool {
    let binary = crate::common::repo().join("adapters/seed-go-context/seed-go-context");
    let built = tool_runs("go") && common::build_go_adapter().is_ok();
    built || binary.is_file()
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
    if !have(
        "node",
        "the_typescript_style_envelope_holds_case_but_not_unicode",
    ) {
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
    if !have(
        "python3",
        "the_python_style_markers_escape_the_opener_into_a_closer",
    ) {
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
    if !require(
        go_adapter_ready(),
        "the Go seed adapter (Go, or adapters/build.sh)",
        "the_go_style_renderer_leaves_the_attribute_form_and_lookalike_brackets_live",
    ) {
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
    // It says why it stopped: the budget, not a finding limit.
    let printed = stdout(&output);
    assert!(
        printed.contains("stopped: the budget of 400 mutants is spent"),
        "{printed}"
    );
}

#[test]
fn search_finds_new_failures_in_a_seed_style_and_writes_loadable_cases() {
    if !have(
        "python3",
        "search_finds_new_failures_in_a_seed_style_and_writes_loadable_cases",
    ) {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let output = search("seed-a2a-markers", out.path());
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    let found: PathBuf = out.path().join("search-seed-a2a-markers");
    let loaded = framecheck::catalogue::load_dir(&found);
    assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
    assert!(!loaded.catalogue.cases.is_empty());
    // The terminal gets a summary, not the Markdown report.
    let printed = stdout(&output);
    assert!(!printed.contains("# framecheck search"), "{printed}");
    assert!(printed.contains("new failure signature(s)"), "{printed}");
    // It says why it stopped, by the rule that stopped it.
    let report: serde_json::Value = serde_json::from_slice(
        &std::fs::read(out.path().join("search-seed-a2a-markers.json")).unwrap(),
    )
    .unwrap();
    let stopped = if report["findings"].as_array().unwrap().len() >= 3 {
        "stopped: --max-findings 3 reached"
    } else {
        "stopped: the budget of 400 mutants is spent"
    };
    assert!(printed.contains(stopped), "{printed}");
    // Levels by their stable names, in English.
    let markdown = std::fs::read_to_string(out.path().join("search-seed-a2a-markers.md")).unwrap();
    assert!(!markdown.contains("AsciiCaseInsensitive"), "{markdown}");
    assert!(!markdown.contains("[Exact"), "{markdown}");
    assert!(!markdown.contains("a opening"), "{markdown}");
    // Found cases name the delimiters by placeholder, not the target's literal token.
    for entry in std::fs::read_dir(&found).unwrap() {
        let yaml = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let inputs: Vec<&str> = yaml
            .lines()
            .filter(|l| l.trim_start().starts_with("content:"))
            .collect();
        assert!(!inputs.is_empty());
        for line in inputs {
            assert!(!line.contains("A2A_RESULT_FROM_PEER"), "{line}");
        }
    }
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
    let attacks = crate::common::repo().join("attacks");
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
fn a_baseline_with_fewer_failures_turns_new_failures_into_exit_1() {
    if !have(
        "node",
        "a_baseline_with_fewer_failures_turns_new_failures_into_exit_1",
    ) {
        return;
    }
    // A baseline must come from the same target, level and selection; to
    // give it fewer failures than the run, drop the variant cases from a
    // real earlier run of the same selection: their failures are then new.
    let (first, out) = run_target(
        "seed-ts-envelope",
        &["--only", "breakout", "--format", "json"],
    );
    assert_eq!(first.status.code(), Some(1));
    let report = out.path().join("seed-ts-envelope.json");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let results = json["results"].as_array_mut().unwrap();
    let before = results.len();
    results.retain(|r| !r["case"]["id"].as_str().unwrap().contains('~'));
    assert!(results.len() < before, "the selection has variant cases");
    let kept = out.path().join("baseline.json");
    std::fs::write(&kept, serde_json::to_string(&json).unwrap()).unwrap();
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
    assert_eq!(second.status.code(), Some(1));
    assert!(
        stdout(&second).to_lowercase().contains("new failure"),
        "{}",
        stdout(&second)
    );
}

/// A test that cannot find node, python3 or go says so visibly, and fails
/// under CI=true instead of passing as a silent `ok`.
#[test]
fn a_missing_tool_is_a_visible_skip_locally_and_a_failure_in_ci() {
    use common::{tool_policy, ToolPolicy};
    assert_eq!(tool_policy(true, Some("true")), ToolPolicy::Run);
    assert_eq!(tool_policy(false, None), ToolPolicy::Skip);
    assert_eq!(tool_policy(false, Some("false")), ToolPolicy::Skip);
    assert_eq!(tool_policy(false, Some("true")), ToolPolicy::Fail);
    let in_ci = std::panic::catch_unwind(|| {
        common::require(false, "`no-such-tool`", "probe");
    });
    if std::env::var("CI").as_deref() == Ok("true") {
        assert!(in_ci.is_err(), "a missing tool must fail under CI=true");
    } else {
        assert!(in_ci.is_ok());
    }
}

/// True while `pid` exists and is not a corpse.
#[cfg(unix)] // signals and /proc: Unix only, like the signal tests below
fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat
                .rfind(')')
                .and_then(|i| stat[i + 1..].split_whitespace().next());
            !matches!(state, Some("Z" | "X"))
        }
        Err(_) => false,
    }
}

/// Starts `framecheck run` against a target that records its pid and then
/// never replies; returns framecheck and the target's pid once it runs.
#[cfg(unix)]
fn run_with_a_silent_target(dir: &Path) -> (std::process::Child, i32) {
    let pid_file = dir.join("target.pid");
    let profile = dir.join("silent.yaml");
    std::fs::write(
        &profile,
        format!(
            "name: silent\nadapter:\n  command: [sh, -c, 'echo $$ > {}; exec sleep 600']\n  timeout_ms: 60000\n\
             delimiters: {{ syntax: xml-tag, token: silent }}\ncapabilities: [wrap]\n",
            pid_file.display()
        ),
    )
    .unwrap();
    let child =
        common::framecheck_command(&["run", "--target", profile.to_str().unwrap(), "--out"])
            .arg(dir.join("out"))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
    let mut child = child;
    for _ in 0..400 {
        if let Some(pid) = std::fs::read_to_string(&pid_file)
            .ok()
            .and_then(|t| t.trim().parse().ok())
        {
            return (child, pid);
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("the target never started");
}

/// Sends `signal` to a running `framecheck run`; the target must not
/// outlive framecheck. Returns framecheck's exit status and stderr.
#[cfg(unix)]
fn signal_run(signal: i32) -> (std::process::ExitStatus, String) {
    let dir = tempfile::tempdir().unwrap();
    let (framecheck, target) = run_with_a_silent_target(dir.path());
    // SAFETY: kill(2) on a pid we started and have not reaped.
    unsafe { libc::kill(framecheck.id() as i32, signal) };
    let output = std::thread::spawn(move || framecheck.wait_with_output().unwrap());
    let mut waited = 0;
    while alive(target) && waited < 5000 {
        std::thread::sleep(std::time::Duration::from_millis(20));
        waited += 20;
    }
    let target_alive = alive(target);
    if target_alive {
        // Leave nothing behind, then fail.
        unsafe { libc::kill(target, libc::SIGKILL) };
    }
    let output = output.join().unwrap();
    assert!(
        !target_alive,
        "the target outlived framecheck after signal {signal}"
    );
    (
        output.status,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[cfg(unix)]
#[test]
fn sigterm_stops_the_run_and_its_target() {
    let (status, stderr) = signal_run(libc::SIGTERM);
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("interrupted"), "{stderr}");
}

#[cfg(unix)]
#[test]
fn sighup_stops_the_run_and_its_target() {
    let (status, stderr) = signal_run(libc::SIGHUP);
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("interrupted"), "{stderr}");
}

/// SIGKILL runs no handler: the kernel's parent-death signal kills the target.
#[cfg(unix)]
#[test]
fn sigkill_of_framecheck_takes_its_target_with_it() {
    let (status, _) = signal_run(libc::SIGKILL);
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(libc::SIGKILL));
}

/// Cargo.toml's licence expression names two licences; both texts ship.
#[test]
fn every_licence_named_in_cargo_toml_ships_with_its_text() {
    let root = crate::common::repo();
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    assert!(manifest.contains("license = \"MIT OR Apache-2.0\""));
    let mit = std::fs::read_to_string(root.join("LICENSE-MIT")).unwrap();
    assert!(mit.starts_with("MIT License"));
    let apache = std::fs::read_to_string(root.join("LICENSE-APACHE")).unwrap();
    assert!(apache.contains("Apache License\n                           Version 2.0, January 2004"));
    assert!(apache.contains("END OF TERMS AND CONDITIONS"));
}

/// `--out` problems are found before the run: the target is never started.
#[test]
fn an_unusable_out_directory_fails_before_the_target_starts() {
    let dir = tempfile::tempdir().unwrap();
    let started = dir.path().join("started");
    let profile = dir.path().join("marker.yaml");
    std::fs::write(
        &profile,
        format!(
            "name: marker\nadapter:\n  command: [sh, -c, 'touch {}; exit 1']\n\
             delimiters: {{ syntax: xml-tag, token: marker }}\ncapabilities: [wrap]\n",
            started.display()
        ),
    )
    .unwrap();
    let not_a_dir = dir.path().join("file");
    std::fs::write(&not_a_dir, "x").unwrap();
    let output = framecheck(&[
        "run",
        "--target",
        profile.to_str().unwrap(),
        "--out",
        not_a_dir.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--out"), "{stderr}");
    assert!(stderr.contains("not a directory"), "{stderr}");
    assert!(!started.exists(), "the target ran before --out was checked");
}

/// A benign catalogue of one case whose content is `content`.
fn one_case_catalogue(dir: &Path, content: &str) {
    std::fs::write(
        dir.join("benign.yaml"),
        format!(
            "schema: framecheck-catalogue/1\ncategory: benign\ndescription: x\n\
             notes:\n  Large:\n    description: large\ncases:\n  - id: benign-big\n    title: big\n\
             \x20   why: big\n    references: [CWE-116]\n    severity: info\n    flags: [Large]\n\
             \x20   op: roundtrip\n    input:\n      content: \"{content}\"\n    expect: faithful\n"
        ),
    )
    .unwrap();
}

/// Literal case text is capped like `repeat`: a huge literal is a load error
/// naming the field, not a run that costs gigabytes.
#[test]
fn a_huge_literal_case_is_refused_at_load() {
    let dir = tempfile::tempdir().unwrap();
    let limit = framecheck::catalogue::load::MAX_LITERAL_BYTES;
    one_case_catalogue(dir.path(), &"a".repeat(limit + 1));
    let output = framecheck(&["validate", "--catalogue", dir.path().to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    let printed = stdout(&output);
    assert!(printed.contains("benign.yaml:"), "{printed}");
    assert!(printed.contains(&format!("at most {limit}")), "{printed}");
}

/// A framing that answers a case with a huge output gets a JSON report
/// that keeps an excerpt, the length and the hash, not the whole output.
#[test]
fn a_huge_framed_output_is_bounded_in_the_json_report() {
    if !have(
        "python3",
        "a_huge_framed_output_is_bounded_in_the_json_report",
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let catalogue = dir.path().join("catalogue");
    std::fs::create_dir(&catalogue).unwrap();
    one_case_catalogue(&catalogue, "hello");
    let adapter = dir.path().join("huge.py");
    std::fs::write(
        &adapter,
        "import json, sys\nfor line in sys.stdin:\n    r = json.loads(line)\n    \
         body = r['content'] + 'x' * 4_000_000\n    \
         print(json.dumps({'id': r['id'], 'framed': '<huge>\\n' + body + '\\n</huge>'}), flush=True)\n",
    )
    .unwrap();
    let profile = dir.path().join("huge.yaml");
    std::fs::write(
        &profile,
        "name: huge\nadapter: { command: [python3, huge.py], timeout_ms: 20000 }\n\
         delimiters: { syntax: xml-tag, token: huge }\ncapabilities: [wrap]\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let output = framecheck(&[
        "run",
        "--target",
        profile.to_str().unwrap(),
        "--catalogue",
        catalogue.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--format",
        "json",
    ]);
    // The verdict is not the point here (calibration learns the constant
    // run of `x` as the framing's own text after the body); the run must
    // finish and its report stay small.
    assert_ne!(output.status.code(), Some(2), "{}", stdout(&output));
    let text = std::fs::read_to_string(out.join("huge.json")).unwrap();
    assert!(text.len() < 100_000, "the report is {} bytes", text.len());
    let report: serde_json::Value = serde_json::from_str(&text).unwrap();
    let evidence = &report["results"][0]["evidence"];
    let full = "<huge>\nhello".len() + 4_000_000 + "\n</huge>".len();
    assert_eq!(evidence["bounded"]["framed"]["bytes"], full);
    assert_eq!(
        evidence["bounded"]["framed"]["sha256"]
            .as_str()
            .unwrap()
            .len(),
        64
    );
    assert!(evidence["framed"]
        .as_str()
        .unwrap()
        .starts_with("<huge>\nhello"));
    // It still reads back, as a baseline must.
    load_report(&out.join("huge.json"));
}

/// `validate` means the same outside the repository: the built-in
/// catalogue unless --catalogue is given, as for `run`.
#[test]
fn validate_works_outside_the_repository() {
    let elsewhere = tempfile::tempdir().unwrap();
    let output = framecheck_in(elsewhere.path(), &["validate"]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert!(
        stdout(&output).contains("catalogue built-in: "),
        "{}",
        stdout(&output)
    );
}

/// A profile whose command or working directory does not exist is an error
/// for `validate` (and `run`), naming the field.
#[test]
fn validate_rejects_a_command_or_cwd_that_does_not_exist() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, adapter: &str| {
        let path = dir.path().join(name);
        std::fs::write(
            &path,
            format!("name: x\nadapter: {adapter}\ndelimiters: {{ syntax: xml-tag, token: t }}\ncapabilities: [wrap]\n"),
        )
        .unwrap();
        path.to_str().unwrap().to_string()
    };
    let no_program = write("a.yaml", "{ command: [no-such-program-framecheck] }");
    let no_script = write("b.yaml", "{ command: [./missing.sh] }");
    let no_cwd = write("c.yaml", "{ command: [sh], cwd: nowhere }");
    let fine = write("d.yaml", "{ command: [sh, -c, 'exit 0'] }");
    // An interpreter's script is looked for in the adapter's cwd.
    let no_interpreted = write("e.yaml", "{ command: [sh, no_such.sh] }");
    std::fs::write(dir.path().join("there.sh"), "exit 0\n").unwrap();
    let interpreted = write("f.yaml", "{ command: [sh, there.sh] }");
    for (profile, expected) in [
        (
            &no_program,
            "adapter.command: program \"no-such-program-framecheck\" is not on PATH",
        ),
        (&no_script, "missing.sh is not an executable file"),
        (&no_cwd, "adapter.cwd: "),
        (
            &no_interpreted,
            "adapter.command: script \"no_such.sh\" does not exist in ",
        ),
    ] {
        let output = framecheck_in(dir.path(), &["validate", profile]);
        assert_eq!(output.status.code(), Some(2), "{}", stdout(&output));
        assert!(stdout(&output).contains(expected), "{}", stdout(&output));
        let run = framecheck_in(dir.path(), &["run", "--target", profile, "--out", "out"]);
        assert_eq!(run.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(stderr.contains("cannot start"), "{stderr}");
        assert!(stderr.contains(expected), "{stderr}");
    }
    // `validate` names the profile file before the field.
    let output = framecheck_in(dir.path(), &["validate", &no_interpreted]);
    let named = format!("{no_interpreted}: adapter.command: script");
    assert!(stdout(&output).contains(&named), "{}", stdout(&output));
    for profile in [&fine, &interpreted] {
        let output = framecheck_in(dir.path(), &["validate", profile]);
        assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    }
}

/// An error names its cause once: a wrapped cause is not repeated.
#[test]
fn an_error_says_its_cause_once() {
    let output = framecheck(&[
        "run",
        "--baseline",
        "/no/such/baseline.json",
        "--out",
        "/tmp",
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.matches("No such file").count(), 1, "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// The README's "Audit your own framing", as a new user does it: helpers
/// copied from the installed binary next to an adapter in a project of
/// one's own, the profile in that project, framecheck run from elsewhere.
fn audit_your_own(language: &str, adapter_file: &str, adapter: &str, command: &str) {
    let root = tempfile::tempdir().unwrap();
    let project = root.path().join("project");
    let elsewhere = root.path().join("elsewhere");
    std::fs::create_dir_all(project.join("targets")).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    let helpers = framecheck_in(
        &elsewhere,
        &["helpers", "--write", project.to_str().unwrap()],
    );
    assert_eq!(helpers.status.code(), Some(0), "{}", stdout(&helpers));
    std::fs::write(project.join(adapter_file), adapter).unwrap();
    let profile = project.join("targets/mine.yaml");
    std::fs::write(
        &profile,
        format!(
            "name: mine\nlanguage: {language}\nadapter: {{ command: {command}, cwd: .. }}\n\
             delimiters: {{ syntax: xml-tag, token: mine }}\ncapabilities: [wrap]\n"
        ),
    )
    .unwrap();
    let profile = profile.to_str().unwrap();
    let validate = framecheck_in(&elsewhere, &["validate", profile]);
    assert_eq!(validate.status.code(), Some(0), "{}", stdout(&validate));
    let run = framecheck_in(
        &elsewhere,
        &[
            "run", "--target", profile, "--only", "benign", "--out", "out",
        ],
    );
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}{}",
        stdout(&run),
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(elsewhere.join("out/mine.json").is_file());
}

#[test]
fn audit_your_own_python_framing_from_any_directory() {
    if !have(
        "python3",
        "audit_your_own_python_framing_from_any_directory",
    ) {
        return;
    }
    audit_your_own(
        "python",
        "my_adapter.py",
        "from framecheck_adapter import serve\n\n\
         def wrap(content, kind, attributes, provenance):\n    \
         return '<mine>\\n' + content + '\\n</mine>'\n\nserve(wrap)\n",
        "[python3, my_adapter.py]",
    );
}

#[test]
fn audit_your_own_node_framing_from_any_directory() {
    if !have("node", "audit_your_own_node_framing_from_any_directory") {
        return;
    }
    audit_your_own(
        "javascript",
        "my-adapter.mjs",
        "import { serve } from './framecheck-adapter.mjs'\n\
         serve({ wrap: (content) => '<mine>\\n' + content + '\\n</mine>' })\n",
        "[node, my-adapter.mjs]",
    );
}

/// The serve helpers send a `read` that returns segments as a `segments`
/// reply (docs/protocol.md), and a body as `body`.
#[test]
fn the_serve_helpers_answer_read_with_segments() {
    let adapters = common::repo().join("adapters");
    let request =
        "{\"id\":1,\"op\":\"read\",\"text\":\"s\"}\n{\"id\":2,\"op\":\"read\",\"text\":\"b\"}\n";
    let want = [
        serde_json::json!({"id": 1, "segments": [{"role": "user", "field": null, "text": "s"}]}),
        serde_json::json!({"id": 2, "body": "b"}),
    ];
    let python = "import sys; sys.path.insert(0, sys.argv[1])\n\
        from framecheck_adapter import serve\n\
        serve(lambda c, **k: c, lambda t: [{'role': 'user', 'text': t}] if t == 's' else t)\n";
    let node = "const { serve } = await import(process.argv[1] + '/framecheck-adapter.mjs')\n\
        serve({ wrap: (c) => c, read: (t) => t === 's' ? [{ role: 'user', text: t }] : t })\n";
    let runs = [
        ("python3", vec!["-c", python], adapters.join("python")),
        (
            "node",
            vec!["--input-type=module", "-e", node],
            adapters.join("node"),
        ),
    ];
    for (program, mut args, dir) in runs {
        if !have(program, "the_serve_helpers_answer_read_with_segments") {
            continue;
        }
        args.push(dir.to_str().unwrap());
        let mut child = std::process::Command::new(program)
            .args(&args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(request.as_bytes())
            .unwrap();
        let output = child.wait_with_output().unwrap();
        let replies: Vec<serde_json::Value> = String::from_utf8(output.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(replies, want, "{program}");
    }
}

/// `--reproducible` runs write the same bytes every time, say that timings
/// were not recorded, and are what `reports/` holds: the committed reference
/// reports are regenerated byte for byte (regenerate them with the command
/// in the README when a change moves a verdict, a case or the evidence).
#[test]
fn reproducible_reports_are_byte_for_byte_the_committed_ones() {
    // The README's main job, and the same run with its options reordered:
    // a committed report does not depend on how the command was spelt.
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let first = framecheck(&[
        "run",
        "--reproducible",
        "--view",
        "tok:cl100k",
        "--view",
        "tok:o200k",
        "--out",
        a.path().to_str().unwrap(),
    ]);
    let second = framecheck(&[
        "run",
        "--view",
        "tok:o200k",
        "--out",
        b.path().to_str().unwrap(),
        "--reproducible",
        "--view",
        "tok:cl100k",
    ]);
    assert_eq!(first.status.code(), Some(0));
    assert_eq!(second.status.code(), Some(0));
    let committed = crate::common::repo().join("reports");
    for ext in ["json", "md", "junit.xml", "sarif"] {
        let name = format!("reference.{ext}");
        let x = std::fs::read(a.path().join(&name)).unwrap();
        let y = std::fs::read(b.path().join(&name)).unwrap();
        assert!(x == y, "{name} differs between two --reproducible runs");
        let z = std::fs::read(committed.join(&name)).unwrap();
        assert!(
            x == z,
            "reports/{name} is not what `framecheck run --reproducible` writes now"
        );
    }
    let md = std::fs::read_to_string(a.path().join("reference.md")).unwrap();
    assert!(md.contains("timings not recorded"), "{md}");
    let json = std::fs::read_to_string(a.path().join("reference.json")).unwrap();
    assert!(json.contains("\"timings_omitted\": true"));
    assert!(json.contains("\"view\": \"tok:o200k\""));
}

#[test]
fn a_reproducible_search_writes_the_same_bytes_twice() {
    let args = |out: &Path| {
        framecheck(&[
            "search",
            "--target",
            "reference",
            "--budget",
            "200",
            "--seed",
            "3",
            "--reproducible",
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    assert_eq!(args(a.path()).status.code(), Some(0));
    assert_eq!(args(b.path()).status.code(), Some(0));
    for name in ["search-reference.json", "search-reference.md"] {
        let x = std::fs::read(a.path().join(name)).unwrap();
        assert!(
            x == std::fs::read(b.path().join(name)).unwrap(),
            "{name} differs"
        );
    }
    let timed = framecheck(&[
        "search",
        "--budget",
        "5s",
        "--reproducible",
        "--out",
        "/tmp",
    ]);
    assert_eq!(timed.status.code(), Some(2));
}

/// A view that cannot be loaded stops the run before any case, with exit 2
/// and a message that says what to install; an unknown name is a usage
/// error.
#[cfg(feature = "tokenizers")]
#[test]
fn views_that_cannot_load_fail_before_the_run() {
    let empty = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let missing = framecheck(&[
        "run",
        "--only",
        "benign-*",
        "--view",
        "tok:mistral-tekken",
        "--tokenizer-data",
        empty.path().to_str().unwrap(),
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert_eq!(missing.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert!(stderr.contains("pip install mistral-common"), "{stderr}");
    assert!(stderr.contains("tekken_240911.json"), "{stderr}");
    assert!(std::fs::read_dir(out.path()).unwrap().next().is_none());
    let unknown = framecheck(&["run", "--view", "tok:nope"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("unknown view"));
}

/// A catalogue whose only file fails to load names the file's error, not a
/// `--only []` the user never gave (issue 34).
#[test]
fn a_catalogue_that_fails_to_load_says_why_there_is_no_case() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.yaml"), "cases:\n  - id: [unclosed\n").unwrap();
    let out = tempfile::tempdir().unwrap();
    let output = framecheck(&[
        "run",
        "--catalogue",
        dir.path().to_str().unwrap(),
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("bad.yaml:2:"), "{stderr}");
    assert!(stderr.contains("no case to run"), "{stderr}");
    assert!(!stderr.contains("--only"), "{stderr}");
}
