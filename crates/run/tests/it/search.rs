//! Black-box search must never overstate: against correct framings it
//! reports nothing, a finding is reported only when the case it writes fails
//! when run, and a search that could not do its job says so.

use crate::common;

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use framecheck_core::catalogue::{self, ConcreteCase, Input};
use framecheck_core::level::ReaderLevel;
use framecheck_launch::profile::{AdapterSpec, TargetProfile};
use framecheck_run::adapter::reference::Reference;
use framecheck_run::adapter::subprocess::SubprocessFraming;
use framecheck_run::adapter::{Framing, TargetError, WrapRequest};
use framecheck_run::runner::{RunOptions, Verdict};
use framecheck_run::search::{self, Budget, SearchOptions, SearchReport};

fn options(budget: Budget, seed: u64) -> SearchOptions<'static> {
    SearchOptions {
        budget,
        seed,
        level: ReaderLevel::Unicode,
        shrink_calls: 200,
        max_findings: 5,
        cancel: search::never_cancelled(),
    }
}

fn cases(profile: &TargetProfile, only: &[&str]) -> Vec<ConcreteCase> {
    let all = catalogue::instantiate(&catalogue::builtin(), profile);
    if only.is_empty() {
        return all;
    }
    let only: Vec<String> = only.iter().map(|s| s.to_string()).collect();
    catalogue::select(all, &only).unwrap()
}

fn run(
    cases: &[ConcreteCase],
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    options: &SearchOptions,
) -> SearchReport {
    search::search(cases, profile, framing, options)
}

/// The cancel flag is one of the options (issue 53): a search whose flag is
/// set before it starts stops before the catalogue seeds are judged, tries
/// no mutant and reports nothing, saying so (the CLI then writes no
/// report); the same options uncancelled spend their budget.
#[test]
fn a_search_whose_options_are_cancelled_stops_before_its_first_mutant() {
    let profile = framecheck_envelope::reference_profile();
    let seeds = cases(&profile, &["forgery-complete-frame"]);
    let cancelled = std::sync::atomic::AtomicBool::new(true);
    let stopped = SearchOptions {
        cancel: &cancelled,
        ..options(Budget::Cases(50), 1)
    };
    let report = run(&seeds, &profile, &mut Reference, &stopped);
    assert_eq!(report.mutants_tried, 0, "{report:?}");
    assert!(report.findings.is_empty(), "{report:?}");
    assert!(
        report
            .harness_error
            .as_deref()
            .is_some_and(|e| e.contains("no mutant was tried")),
        "{report:?}"
    );
    let uncancelled = options(Budget::Cases(50), 1);
    let report = run(&seeds, &profile, &mut Reference, &uncancelled);
    assert_eq!(
        search::StopReason::of(&report, &uncancelled),
        search::StopReason::MutantBudget(50),
        "{report:?}"
    );
}

/// Regression: the split-across-attribute operator moved the canary into an
/// attribute value, where it belongs, while the check still judged it as
/// content that had escaped: seed 1 on these two seed cases reported a
/// canary.containment "breakout" in the reference. Eight seeds, nothing.
#[test]
fn search_reports_nothing_against_the_reference_for_eight_seeds() {
    let profile = framecheck_envelope::reference_profile();
    let seeds = cases(
        &profile,
        &["forgery-complete-frame", "ws-no-final-newline-then-close*"],
    );
    for seed in 1..=8 {
        let report = run(
            &seeds,
            &profile,
            &mut Reference,
            &options(Budget::Cases(2000), seed),
        );
        assert_eq!(report.harness_error, None, "seed {seed}");
        assert_eq!(report.mutants_tried, 2000, "seed {seed}");
        assert!(
            report.findings.is_empty() && report.mutants_failing == 0,
            "seed {seed}: {:#?}",
            report.findings
        );
    }
}

/// A correct framing over the subprocess protocol, written apart from the
/// reference (tests/adapters/escape_all.py), against the whole catalogue.
#[test]
fn search_reports_nothing_against_a_correct_subprocess_framing() {
    if !common::have(
        "python3",
        "search_reports_nothing_against_a_correct_subprocess_framing",
    ) {
        return;
    }
    let path = crate::common::repo().join("tests/adapters/escape-all.yaml");
    let loaded = TargetProfile::load(&path).unwrap();
    let AdapterSpec::Subprocess(spec) = &loaded.profile.adapter else {
        panic!("escape-all is a subprocess target");
    };
    let all = cases(&loaded.profile, &[]);
    let mut framing = SubprocessFraming::new(spec, &loaded.dir);
    for seed in 1..=8 {
        let report = run(
            &all,
            &loaded.profile,
            &mut framing,
            &options(Budget::Cases(250), seed),
        );
        assert_eq!(report.harness_error, None, "seed {seed}");
        assert_eq!(report.target_errors, 0, "seed {seed}");
        assert!(
            report.findings.is_empty() && report.mutants_failing == 0,
            "seed {seed}: {:#?}",
            report.findings
        );
    }
}

/// Breaks out (writes the content raw) only for a *mutated* seed case
/// carrying one of the seed cases' canaries; correct for anything else,
/// including the case search writes, which gets a canary of its own.
struct BreaksOnMutantsOnly {
    canaries: Vec<String>,
    originals: BTreeSet<String>,
}

impl Framing for BreaksOnMutantsOnly {
    fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
        let mutated = !self.originals.contains(&request.content);
        if mutated && self.canaries.iter().any(|c| request.content.contains(c)) {
            return Ok(format!(
                "<framecheck-untrusted kind=\"tool-result\">\nProvenance: x\n\n{}\n</framecheck-untrusted>",
                request.content
            ));
        }
        Reference.wrap(request)
    }

    fn read(&mut self, text: &str) -> Result<Option<String>, TargetError> {
        Reference.read(text)
    }
}

#[test]
fn a_finding_whose_written_case_passes_is_not_reported() {
    let profile = framecheck_envelope::reference_profile();
    let seeds = cases(&profile, &["breakout-close-mid-content"]);
    let mut framing = BreaksOnMutantsOnly {
        canaries: seeds.iter().map(|c| c.canary.clone()).collect(),
        originals: seeds
            .iter()
            .filter_map(|c| match &c.input {
                Input::Wrap(r) => Some(r.content.clone()),
                Input::Read(_) => None,
            })
            .collect(),
    };
    let report = run(
        &seeds,
        &profile,
        &mut framing,
        &options(Budget::Cases(200), 3),
    );
    assert!(report.mutants_failing > 0, "the mutants did break out");
    assert!(report.unconfirmed > 0, "{report:#?}");
    assert!(report.findings.is_empty(), "{:#?}", report.findings);
}

#[test]
fn reported_findings_are_exactly_what_the_written_cases_reproduce() {
    // A framing that never neutralises anything: every finding replays.
    struct Raw;
    impl Framing for Raw {
        fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
            Ok(format!(
                "<framecheck-untrusted kind=\"x\">\n\n{}\n</framecheck-untrusted>",
                request.content
            ))
        }
        fn read(&mut self, _: &str) -> Result<Option<String>, TargetError> {
            Ok(None)
        }
    }
    let profile = framecheck_envelope::reference_profile();
    // Seed cases that already fail are known; mutants of benign-looking
    // hold cases are what is left to find.
    let all = cases(&profile, &[]);
    let report = run(&all, &profile, &mut Raw, &options(Budget::Cases(300), 1));
    for finding in &report.findings {
        let written = search::to_catalogue_files(
            &SearchReport {
                findings: vec![finding.clone()],
                ..report.clone()
            },
            &profile,
        );
        let (category, yaml) = &written[0];
        let path = std::path::PathBuf::from(format!("{}.yaml", category.name()));
        let file = catalogue::load_str(&path, yaml).expect("written case loads");
        assert_eq!(file.cases.len(), 1);
        let written = catalogue::Catalogue {
            hash: String::new(),
            notes: file.notes,
            cases: file.cases,
        };
        let concrete = catalogue::instantiate(&written, &profile);
        let result = framecheck_run::runner::run(
            &concrete,
            &profile,
            &mut Raw,
            &RunOptions::default(),
            &mut |_| {},
        );
        assert_eq!(
            result.results[0].verdict_at(ReaderLevel::Unicode),
            Verdict::Fail,
            "{}",
            finding.id
        );
        // What the report shows is what the written case produced.
        let Input::Wrap(request) = &concrete[0].input else {
            panic!("a wrap case");
        };
        assert_eq!(request, &finding.request);
    }
    assert!(!report.findings.is_empty(), "{report:#?}");
}

struct NeverAnswers;

impl Framing for NeverAnswers {
    fn wrap(&mut self, _: &WrapRequest) -> Result<String, TargetError> {
        Err(TargetError::failed("child exited with status 1"))
    }
    fn read(&mut self, _: &str) -> Result<Option<String>, TargetError> {
        Err(TargetError::failed("child exited with status 1"))
    }
}

#[test]
fn a_target_that_never_answers_is_a_harness_error() {
    let profile = framecheck_envelope::reference_profile();
    let all = cases(&profile, &["breakout"]);
    let report = run(
        &all,
        &profile,
        &mut NeverAnswers,
        &options(Budget::Cases(50), 1),
    );
    let error = report.harness_error.expect("harness error");
    assert!(error.contains("abandoned at calibration"), "{error}");
    assert!(report.findings.is_empty());
}

#[test]
fn a_search_with_no_seed_case_is_a_harness_error() {
    let profile = framecheck_envelope::reference_profile();
    let benign = cases(&profile, &["benign"]);
    let report = run(
        &benign,
        &profile,
        &mut Reference,
        &options(Budget::Cases(50), 1),
    );
    assert_eq!(report.mutants_tried, 0);
    let error = report.harness_error.expect("harness error");
    assert!(error.contains("no mutant was tried"), "{error}");
}

#[test]
fn a_known_failure_pass_cut_short_by_the_budget_is_a_harness_error() {
    let profile = framecheck_envelope::reference_profile();
    let all = cases(&profile, &[]);
    let report = run(
        &all,
        &profile,
        &mut Reference,
        &options(Budget::Time(Duration::ZERO), 1),
    );
    assert_eq!(report.mutants_tried, 0);
    let error = report.harness_error.expect("harness error");
    assert!(error.contains("budget ran out"), "{error}");
}

/// Takes 20 ms per call, so a 300 ms budget buys only a few calls.
struct Slow;

impl Framing for Slow {
    fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
        std::thread::sleep(Duration::from_millis(20));
        Reference.wrap(request)
    }
    fn read(&mut self, text: &str) -> Result<Option<String>, TargetError> {
        Reference.read(text)
    }
}

#[test]
fn a_time_budget_is_respected_even_when_the_known_pass_cannot_finish() {
    let profile = framecheck_envelope::reference_profile();
    let all = cases(&profile, &[]);
    let started = Instant::now();
    let report = run(
        &all,
        &profile,
        &mut Slow,
        &options(Budget::Time(Duration::from_millis(300)), 1),
    );
    // One call may be in flight when the deadline passes.
    assert!(started.elapsed() < Duration::from_millis(300 + 200));
    assert!(report.harness_error.is_some());
}

/// Neutralises only the exact closing delimiter, then strips controls from
/// the content: a `<NUL/token>` in the input comes out as a live closer.
struct NeutraliseThenStrip;

impl Framing for NeutraliseThenStrip {
    fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
        const SLOT: &str = "CONTENTSLOT";
        let content: String = request
            .content
            .replace("</framecheck-untrusted>", "</framecheck_untrusted>")
            .chars()
            .filter(|c| !c.is_control() || matches!(c, '\t' | '\n' | '\r'))
            .collect();
        let slot = WrapRequest {
            content: SLOT.into(),
            ..request.clone()
        };
        Ok(Reference.wrap(&slot)?.replace(SLOT, &content))
    }
    fn read(&mut self, text: &str) -> Result<Option<String>, TargetError> {
        Reference.read(text)
    }
}

#[test]
fn search_mutates_toward_control_characters() {
    let profile = framecheck_envelope::reference_profile();
    let seeds = cases(&profile, &["breakout-close-mid-content"]);
    let mut found_by_controls = false;
    for seed in 1..=4 {
        let mut opts = options(Budget::Cases(400), seed);
        opts.max_findings = 20;
        let report = run(&seeds, &profile, &mut NeutraliseThenStrip, &opts);
        // Grown by control operators alone, so they caused it.
        found_by_controls |= report.findings.iter().any(|f| {
            f.operators
                .iter()
                .all(|o| o == "control-splice" || o == "ansi-sequence")
        });
    }
    assert!(found_by_controls, "no finding grew from a control operator");
}
