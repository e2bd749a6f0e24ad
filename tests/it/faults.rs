//! A target's bad input is a finding, not the end of the audit: `framecheck
//! run`, `init` and `search` against small faulty framings
//! (`tests/adapters/faulty.py`). A framing that dies or hangs on NUL gets one
//! `target.fault` finding per NUL case and every other case judged; one
//! that writes garbage or a stray banner on stdout, or cannot start, is
//! diagnosed at once with its first bad line or its traceback; a search
//! whose mutant makes the target fault reports a replayed `target.fault`
//! finding and goes on; no child is left behind.

use std::path::{Path, PathBuf};
use std::process::Output;

use framecheck::adapter::FaultKind;
use framecheck::oracle::{Check, CheckClass};
use framecheck::runner::{Outcome, RunResult, Verdict};

use crate::common;
use common::{framecheck, have, repo, text};

/// A profile for `faulty.py BEHAVIOUR`, written into `dir`; a slow
/// behaviour keeps its attempts in `dir/state` ([`state_dir`]).
fn profile(dir: &Path, behaviour: &str, timeout_ms: u64) -> PathBuf {
    let adapters = repo().join("tests/adapters");
    let state = match behaviour.starts_with("slow-") {
        true => format!(", {}", state_dir(dir).display()),
        false => String::new(),
    };
    let yaml = format!(
        "name: faulty-{behaviour}\n\
         description: a correct framing that fails in one chosen way\n\
         language: python\n\
         adapter:\n  command: [python3, faulty.py, {behaviour}{state}]\n  cwd: {}\n  timeout_ms: {timeout_ms}\n\
         delimiters:\n  syntax: xml-tag\n  token: fixture-data\n\
         header: none\n\
         attributes: {{ on: outer, kind: kind, extra: [] }}\n\
         capabilities: [wrap, attributes, kind]\n",
        adapters.display()
    );
    let path = dir.join(format!("faulty-{behaviour}.yaml"));
    std::fs::write(&path, yaml).unwrap();
    path
}

/// Where a slow behaviour of `faulty.py` records the requests it has seen.
fn state_dir(dir: &Path) -> PathBuf {
    let state = dir.join("state");
    std::fs::create_dir_all(&state).unwrap();
    state
}

/// `framecheck run` of `faulty.py BEHAVIOUR` on the cases `only` selects:
/// its output, and the JSON report read back.
fn run(behaviour: &str, only: &[&str], timeout_ms: u64) -> (Output, RunResult) {
    let dir = tempfile::tempdir().unwrap();
    run_in(dir.path(), behaviour, only, timeout_ms)
}

/// [`run`], its profile and report in `dir`.
fn run_in(dir: &Path, behaviour: &str, only: &[&str], timeout_ms: u64) -> (Output, RunResult) {
    let target = profile(dir, behaviour, timeout_ms);
    let out = dir.join("out");
    let mut args = vec![
        "run",
        "--target",
        target.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--format",
        "json",
    ];
    for pattern in only {
        args.extend(["--only", pattern]);
    }
    let output = framecheck(&args);
    let json = std::fs::read_to_string(out.join(format!("faulty-{behaviour}.json")))
        .unwrap_or_else(|e| panic!("no report ({e}): {}", text(&output)));
    (output, framecheck::report::json::parse(&json).unwrap())
}

/// Whether the case was sent and any field of its wrap request holds a
/// NUL (the profile has no provenance: those cases are skipped).
fn sends_nul(result: &framecheck::runner::CaseResult) -> bool {
    if matches!(result.outcome, Outcome::Skipped { .. }) {
        return false;
    }
    match &result.case.input {
        framecheck::catalogue::Input::Wrap(r) => {
            [&r.content, &r.kind, &r.provenance]
                .iter()
                .any(|f| f.contains('\0'))
                || r.attributes
                    .iter()
                    .any(|(k, v)| k.contains('\0') || v.contains('\0'))
        }
        framecheck::catalogue::Input::Read(_) => false,
    }
}

/// The fault kinds of a result's `target.fault` findings.
fn fault_kinds(result: &framecheck::runner::CaseResult) -> Vec<FaultKind> {
    match &result.outcome {
        Outcome::Judged { findings } => findings
            .iter()
            .filter(|f| f.check == Check::TargetFault)
            .map(|f| {
                assert_eq!(f.class, CheckClass::Fault);
                f.fault
                    .as_ref()
                    .expect("a fault finding carries the fault")
                    .kind
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Processes whose command line ends `faulty.py BEHAVIOUR` (a search's
/// adapters end `faulty.py BEHAVIOUR search`, so tests running at once do
/// not see each other's).
fn live_adapters(behaviour: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if cmdline
            .trim_end()
            .ends_with(&format!("faulty.py {behaviour}"))
        {
            found.push(cmdline);
        }
    }
    found
}

/// The control-character cases: the NUL ones among them, and others.
const CONTROL: &[&str] = &["ctl-*", "benign-control-*"];

#[test]
fn a_framing_that_dies_on_nul_gets_one_finding_per_nul_case_and_the_rest_judged() {
    if !have("python3", "dies_on_nul") {
        return;
    }
    let (output, run) = run("crash-on-nul", CONTROL, 5_000);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    assert_eq!(run.meta.harness_error, None);
    let nul: Vec<_> = run.results.iter().filter(|r| sends_nul(r)).collect();
    // Several written cases, with their variants: more than the five deaths
    // in a row after which the target used to be abandoned.
    assert!(nul.len() > 5, "{} NUL cases", nul.len());
    for result in &nul {
        assert_eq!(
            fault_kinds(result),
            [FaultKind::Crash],
            "{}",
            result.case.id
        );
        let Outcome::Judged { findings } = &result.outcome else {
            unreachable!()
        };
        let fault = findings[0].fault.as_ref().unwrap();
        assert_eq!(fault.exit_status.as_deref(), Some("exit status: 3"));
        assert!(fault.stderr_tail.contains("embedded null byte"));
        assert_eq!(result.verdict_at(run.meta.level), Verdict::Fail);
    }
    // Every other case was sent and judged: no error, no fault finding.
    for result in run.results.iter().filter(|r| !sends_nul(r)) {
        assert!(fault_kinds(result).is_empty(), "{}", result.case.id);
        assert_ne!(
            result.verdict_at(run.meta.level),
            Verdict::Error,
            "{}",
            result.case.id
        );
    }
    // The terminal names the input and shows the traceback.
    let shown = text(&output);
    assert!(shown.contains("target faults ("), "{shown}");
    assert!(shown.contains("ValueError: embedded null byte"), "{shown}");
    assert!(shown.contains("exit: exit status: 3"), "{shown}");
    assert!(live_adapters("crash-on-nul").is_empty());
}

#[test]
fn a_framing_that_hangs_on_one_input_gets_a_hang_finding_and_the_run_goes_on() {
    if !have("python3", "hangs_on_nul") {
        return;
    }
    let (output, run) = run(
        "hang-on-nul",
        &[
            "ctl-nul-before-close~upper",
            "ctl-nul-before-close~mixed",
            "benign-control-ansi-colour-log",
        ],
        300,
    );
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    assert_eq!(run.meta.harness_error, None);
    let hung: Vec<_> = run.results.iter().filter(|r| sends_nul(r)).collect();
    assert_eq!(hung.len(), 2);
    for result in hung {
        assert_eq!(fault_kinds(result), [FaultKind::Hang], "{}", result.case.id);
    }
    let answered = run
        .results
        .iter()
        .filter(|r| r.case.id.starts_with("benign-control-ansi-colour-log"))
        .count();
    assert!(answered > 0);
    for result in run.results.iter().filter(|r| !sends_nul(r)) {
        assert!(
            matches!(result.outcome, Outcome::Judged { .. }),
            "{result:?}"
        );
        assert!(fault_kinds(result).is_empty());
    }
    assert!(live_adapters("hang-on-nul").is_empty());
}

/// The NUL cases of the hang test, and one without a NUL.
const TWO_NUL_CASES: &[&str] = &[
    "ctl-nul-before-close~upper",
    "ctl-nul-before-close~mixed",
    "benign-control-ansi-colour-log",
];

/// Issue 57: a finding is reported only if it replays. A framing that is
/// slow on the NUL cases (its first attempt at each never answers, every
/// later one answers after two seconds, twice the one-second timeout) is
/// what a correct framing looks like on a loaded machine: its cases time
/// out, and pass when given longer. The retry gets the replay budget, so
/// each is judged by the replay's answer, and no `target.fault` is
/// reported. Before, the retry got the same second and timed out again:
/// two false hang findings (`target faults (2 cases ...)`).
#[test]
fn a_case_that_times_out_and_answers_under_the_replay_budget_is_no_finding() {
    if !have("python3", "slow_on_nul") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (output, run) = run_in(dir.path(), "slow-on-nul", TWO_NUL_CASES, 1_000);
    let shown = text(&output);
    assert_eq!(run.meta.harness_error, None, "{shown}");
    let slow: Vec<_> = run.results.iter().filter(|r| sends_nul(r)).collect();
    assert_eq!(slow.len(), 2, "{shown}");
    for result in run.results.iter() {
        assert!(
            fault_kinds(result).is_empty(),
            "{}: {shown}",
            result.case.id
        );
        assert!(
            matches!(result.outcome, Outcome::Judged { .. }),
            "{result:?}"
        );
    }
    // Each NUL case timed out once (its first attempt is recorded), and
    // the replay's answer was judged: the framing escapes NUL, so each
    // passes.
    let seen = std::fs::read_dir(state_dir(dir.path())).unwrap().count();
    assert_eq!(seen, 2, "{shown}");
    for result in slow {
        let verdict = result.verdict_at(run.meta.level);
        assert_eq!(verdict, Verdict::Pass, "{}: {shown}", result.case.id);
    }
    assert!(!shown.contains("target faults"), "{shown}");
    let state = state_dir(dir.path());
    let behaviour = format!("slow-on-nul {}", state.display());
    assert!(live_adapters(&behaviour).is_empty());
}

/// `framecheck init --timeout 1 --startup-timeout 2` of `faulty.py ARGS`
/// (a replay starts the adapter again, and waits its start-up allowance
/// besides the replay budget).
fn init(args: &[&str]) -> Output {
    let adapter = repo().join("tests/adapters/faulty.py");
    let adapter = adapter.to_str().unwrap();
    let command = [
        "init",
        "--timeout",
        "1",
        "--startup-timeout",
        "2",
        "--",
        "python3",
        adapter,
    ];
    framecheck(&[&command[..], args].concat())
}

/// The proposal's lines but the adapter's command and the profile's name,
/// which name the behaviour.
fn proposed(output: &Output) -> Vec<String> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter(|line| !line.contains("faulty.py") && !line.starts_with("name: "))
        .map(str::to_string)
        .collect()
}

/// Issue 57: `init` must not turn a timeout into another shape. An
/// experiment the framing did not answer reads as a field it does not
/// have, so a framing that hangs on empty content (asked by the
/// `frame.empty` experiment) gets no proposal but an error naming the
/// timeout, once the request timed out again under the replay budget. One
/// that is only slow there (it answers on the replay) gets the proposal a
/// framing that is never slow gets. Before, both got a proposal, the
/// hanging one saying the framing failed on empty content, exit 0.
#[test]
fn init_stops_at_a_timeout_that_replays_and_proposes_from_a_slow_answer() {
    if !have("python3", "init_timeouts") {
        return;
    }
    let ok = init(&["ok"]);
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok));
    let hang = init(&["hang-on-empty"]);
    let shown = text(&hang);
    assert_eq!(hang.status.code(), Some(2), "{shown}");
    assert!(
        shown.contains("did not answer a request within its timeout"),
        "{shown}"
    );
    assert!(
        shown.contains("(the replay budget 4000 plus 2000 ms to start the target)"),
        "{shown}"
    );
    assert!(proposed(&hang).is_empty(), "{shown}");
    let dir = tempfile::tempdir().unwrap();
    let state = state_dir(dir.path());
    let slow = init(&["slow-on-empty", state.to_str().unwrap()]);
    assert_eq!(slow.status.code(), Some(0), "{}", text(&slow));
    assert_eq!(proposed(&slow), proposed(&ok));
    assert!(std::fs::read_dir(&state).unwrap().count() > 0);
    assert!(live_adapters("hang-on-empty").is_empty());
}

#[test]
fn a_framing_that_writes_garbage_is_diagnosed_with_its_first_line_and_given_up() {
    if !have("python3", "garbage") {
        return;
    }
    let (output, run) = run("garbage", CONTROL, 5_000);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    let own = run.meta.harness_error.as_deref().unwrap();
    assert!(own.contains("abandoned at calibration"), "{own}");
    let fault = run.meta.target_fault.as_ref().expect("the fault is kept");
    assert_eq!(fault.kind, FaultKind::ProtocolViolation);
    assert_eq!(
        fault.offending_line.as_deref(),
        Some("hello from the adapter, not json")
    );
    // Given up, not restarted for every case: each case says so.
    for result in &run.results {
        let Outcome::Error { reason, .. } = &result.outcome else {
            panic!("{result:?}")
        };
        assert!(reason.starts_with("not sent: target abandoned"), "{reason}");
    }
    let shown = text(&output);
    assert!(
        shown.contains("first offending stdout line: \"hello from the adapter, not json\""),
        "{shown}"
    );
}

#[test]
fn a_stray_banner_on_stdout_is_named_as_such_by_run_init_and_search() {
    if !have("python3", "banner") {
        return;
    }
    let (output, run) = run("banner", &["ctl-nul-before-close"], 5_000);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    let shown = text(&output);
    assert!(shown.contains("stdout is the protocol channel"), "{shown}");
    assert!(shown.contains("\"adapter ready\""), "{shown}");
    assert_eq!(
        run.meta.target_fault.unwrap().offending_line.as_deref(),
        Some("adapter ready")
    );

    let adapter = repo().join("tests/adapters/faulty.py");
    let init = framecheck(&["init", "--", "python3", adapter.to_str().unwrap(), "banner"]);
    assert_eq!(init.status.code(), Some(2), "{}", text(&init));
    let shown = text(&init);
    assert!(shown.contains("stdout is the protocol channel"), "{shown}");
    assert!(
        shown.contains("first offending stdout line: \"adapter ready\""),
        "{shown}"
    );

    let dir = tempfile::tempdir().unwrap();
    let target = profile(dir.path(), "banner", 5_000);
    let out = dir.path().join("out");
    let search = framecheck(&[
        "search",
        "--target",
        target.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--budget",
        "50",
    ]);
    assert_eq!(search.status.code(), Some(2), "{}", text(&search));
    let shown = text(&search);
    assert!(shown.contains("abandoned at calibration"), "{shown}");
    assert!(shown.contains("stdout is the protocol channel"), "{shown}");
    // Two attempts, not one restart per mutant.
    assert!(shown.contains(" 2 target errors"), "{shown}");
}

#[test]
fn an_adapters_traceback_is_on_the_terminal_of_run_and_init() {
    if !have("python3", "import_error") {
        return;
    }
    let (output, _) = run("import-error", &["ctl-nul-before-close"], 5_000);
    assert_eq!(output.status.code(), Some(2));
    let shown = text(&output);
    assert!(
        shown.contains("ModuleNotFoundError: No module named 'my_framing'"),
        "{shown}"
    );
    assert!(shown.contains("exit: exit status: 1"), "{shown}");

    let adapter = repo().join("tests/adapters/faulty.py");
    let init = framecheck(&[
        "init",
        "--",
        "python3",
        adapter.to_str().unwrap(),
        "import-error",
    ]);
    assert_eq!(init.status.code(), Some(2));
    let shown = text(&init);
    assert!(
        shown.contains("ModuleNotFoundError: No module named 'my_framing'"),
        "{shown}"
    );
}

/// `framecheck search` of `faulty.py BEHAVIOUR` from one seed case with no
/// NUL in it: the search report read back, and the terminal output.
fn search(behaviour: &str, timeout_ms: u64) -> (Output, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let target = profile(dir.path(), behaviour, timeout_ms);
    // A last argument (ignored by the adapter) tells its processes apart.
    let yaml = std::fs::read_to_string(&target).unwrap();
    let tagged = yaml.replace(
        &format!("faulty.py, {behaviour}]"),
        &format!("faulty.py, {behaviour}, search]"),
    );
    assert_ne!(tagged, yaml);
    std::fs::write(&target, tagged).unwrap();
    let out = dir.path().join("out");
    let output = framecheck(&[
        "search",
        "--target",
        target.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--only",
        "breakout-close-mid-content",
        "--budget",
        "200",
        // A seed whose first 200 mutants splice a NUL next to the closer
        // (the draws change with the operators' candidate lists: seed 1
        // stopped reaching one when the lookalike letters came from the
        // confusables data). The assertions below fail if none does.
        "--seed",
        "2",
    ]);
    let json = std::fs::read_to_string(out.join(format!("search-faulty-{behaviour}.json")))
        .unwrap_or_else(|e| panic!("no search report ({e}): {}", text(&output)));
    (output, serde_json::from_str(&json).unwrap())
}

#[test]
fn a_mutant_the_target_faults_on_is_a_replayed_fault_finding_and_the_search_goes_on() {
    if !have("python3", "search_faults") {
        return;
    }
    for (behaviour, kind, timeout_ms) in [
        ("crash-on-nul", "crash", 5_000),
        ("garbage-on-nul", "protocol-violation", 5_000),
        ("hang-on-nul", "hang", 300),
    ] {
        let (output, report) = search(behaviour, timeout_ms);
        let shown = text(&output);
        assert_eq!(output.status.code(), Some(1), "{behaviour}: {shown}");
        assert!(report["harness_error"].is_null(), "{behaviour}: {shown}");
        // The fault did not end the search: the whole budget was spent.
        assert_eq!(report["mutants_tried"], 200, "{behaviour}");
        let findings = report["findings"].as_array().unwrap();
        let faults: Vec<_> = findings
            .iter()
            .filter(|f| f["finding"]["check"] == "target.fault")
            .collect();
        // One finding per fault kind, confirmed by replaying the written
        // case (else it would be counted as unconfirmed, not listed).
        assert_eq!(faults.len(), 1, "{behaviour}: {shown}");
        let finding = &faults[0]["finding"];
        assert_eq!(finding["class"], "fault");
        assert_eq!(finding["fault"]["kind"], kind, "{behaviour}");
        let content = faults[0]["request"]["content"].as_str().unwrap();
        assert!(content.contains('\0'), "{behaviour}: {content:?}");
        let canary = faults[0]["canary"].as_str().unwrap_or("");
        if kind != "hang" {
            // Shrunk to the NUL and the canary the shrinking keeps whole.
            assert_eq!(content.len(), 1 + canary.len(), "{behaviour}: {content:?}");
        }
        match behaviour {
            "crash-on-nul" => {
                assert_eq!(finding["fault"]["exit_status"], "exit status: 3");
                assert!(shown.contains("ValueError: embedded null byte"), "{shown}");
            }
            "garbage-on-nul" => {
                let line = "<fixture-data>no JSON here";
                assert_eq!(finding["fault"]["offending_line"], line);
                assert!(shown.contains(line), "{shown}");
            }
            _ => {}
        }
        let search = format!("{behaviour} search");
        assert!(live_adapters(&search).is_empty(), "{behaviour}");
    }
}
