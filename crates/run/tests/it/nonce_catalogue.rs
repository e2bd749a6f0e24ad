//! The catalogue's nonce cases (`nonce: <mode>`, issue 9) against
//! in-process nonce framings: each defect is caught by the check the case
//! names and no other, a framing that neutralises every marker passes, and
//! a profile without a nonce gets none of these cases.

use crate::common;

use common::random_hex;

use std::collections::BTreeSet;

use framecheck_core::catalogue::{builtin, instantiate, select, ConcreteCase, Input, NonceMode};
use framecheck_core::oracle::{Check, CheckClass};
use framecheck_launch::profile::{Capability, TargetProfile};
use framecheck_run::adapter::{Framing, TargetError, WrapRequest};
use framecheck_run::runner::{self, CaseResult, Outcome, RunOptions, RunResult};

fn profile() -> TargetProfile {
    // The test framings have no reader: roundtrip cases run as wraps.
    common::nonce_profile()
        .edit(|p| p.capabilities.retain(|c| *c != Capability::Read))
        .unwrap()
}

/// What a test framing does to content and provenance.
#[derive(Clone, Copy, PartialEq)]
enum Neutralise {
    /// Nothing.
    Nothing,
    /// Everything but letters, digits, spaces and line breaks becomes `?`,
    /// so no marker of any spelling survives.
    Everything,
    /// Only the frame's own closer, as one exact string.
    ExactCloser,
}

/// `<untrusted-N kind=…>`, the provenance, a blank line, the content,
/// `</untrusted-N>`; N fresh per call unless `reused`.
struct TestFraming {
    reused: Option<String>,
    neutralise: Neutralise,
    /// Whether the closer is written without the nonce (`</untrusted>`).
    bare_closer: bool,
}

impl TestFraming {
    fn clean(&self, text: &str, closer: &str) -> String {
        match self.neutralise {
            Neutralise::Nothing => text.to_string(),
            Neutralise::ExactCloser => text.replace(closer, "[closer removed]"),
            Neutralise::Everything => text
                .chars()
                .map(|c| match c {
                    'a'..='z' | 'A'..='Z' | '0'..='9' | ' ' | '\n' | '.' => c,
                    _ => '?',
                })
                .collect(),
        }
    }
}

impl Framing for TestFraming {
    fn wrap(&mut self, r: &WrapRequest) -> Result<String, TargetError> {
        let n = self.reused.clone().unwrap_or_else(random_hex);
        let closer = if self.bare_closer {
            "</untrusted>".to_string()
        } else {
            format!("</untrusted-{n}>")
        };
        Ok(format!(
            "<untrusted-{n} kind=\"{}\">\n{}\n\n{}\n{closer}",
            self.clean(&r.kind, &closer),
            self.clean(&r.provenance, &closer),
            self.clean(&r.content, &closer),
        ))
    }

    fn read(&mut self, _text: &str) -> Result<Option<String>, TargetError> {
        Err(TargetError::failed("no reader"))
    }
}

fn nonce_cases(p: &TargetProfile) -> Vec<ConcreteCase> {
    let all = instantiate(&builtin(), p);
    let cases = select(all, &["nonce-*".to_string()]).unwrap();
    cases
        .into_iter()
        .filter(|c| c.base_id != "nonce-replay")
        .collect()
}

fn run(framing: TestFraming) -> Vec<CaseResult> {
    let p = profile();
    let cases = nonce_cases(&p);
    assert!(cases.len() > 20, "{}", cases.len());
    let mut framing = framing;
    run_cases(&cases, &p, &mut framing).results
}

/// Runs `cases` against `framing` with the options every test here uses.
fn run_cases(
    cases: &[ConcreteCase],
    profile: &TargetProfile,
    framing: &mut TestFraming,
) -> RunResult {
    let options = RunOptions {
        filters: vec!["catalogue only".into()],
        ..RunOptions::default()
    };
    runner::run(cases, profile, framing, &options, &mut |_| {})
}

/// `(case id, check, class)` of every finding, and every case not judged.
fn findings(results: &[CaseResult]) -> Vec<(String, Check, CheckClass)> {
    let mut out = Vec::new();
    for r in results {
        let findings = match &r.outcome {
            Outcome::Judged { findings } => findings,
            Outcome::Skipped { .. } => continue,
            other => panic!("{} was not judged: {other:?}", r.case.id),
        };
        for f in findings {
            out.push((r.case.id.clone(), f.check, f.class));
        }
    }
    out
}

fn security(results: &[CaseResult]) -> BTreeSet<Check> {
    findings(results)
        .into_iter()
        .filter(|(_, _, class)| *class == CheckClass::Security)
        .map(|(_, check, _)| check)
        .collect()
}

#[test]
fn a_profile_without_a_nonce_gets_no_nonce_case() {
    let cases = nonce_cases(&framecheck_envelope::reference_profile());
    assert!(
        cases.is_empty(),
        "{:?}",
        cases.iter().map(|c| &c.id).collect::<Vec<_>>()
    );
}

#[test]
fn a_framing_that_neutralises_every_marker_passes_every_nonce_case() {
    let results = run(TestFraming {
        reused: None,
        neutralise: Neutralise::Everything,
        bare_closer: false,
    });
    let found: Vec<_> = findings(&results)
        .into_iter()
        .filter(|(_, _, class)| *class != CheckClass::Fidelity)
        .collect();
    assert_eq!(found, vec![]);
}

#[test]
fn live_markers_with_a_fresh_nonce_are_confusables_only() {
    let results = run(TestFraming {
        reused: None,
        neutralise: Neutralise::Nothing,
        bare_closer: false,
    });
    assert_eq!(security(&results), BTreeSet::new());
    let confusable: BTreeSet<String> = findings(&results)
        .into_iter()
        .filter(|(_, check, _)| *check == Check::NonceConfusable)
        .map(|(id, _, _)| id)
        .collect();
    for id in [
        "nonce-guess-close",
        "nonce-bare-close",
        "nonce-bare-close~fullwidth",
        "nonce-bare-close-in-provenance",
        "nonce-replayed-close",
        "nonce-near-miss-close",
        "nonce-extra-attribute-close",
        "nonce-bare-open",
        "nonce-bare-frame",
        "nonce-replayed-frame",
    ] {
        assert!(
            confusable.contains(id),
            "{id} not confusable: {confusable:?}"
        );
    }
}

#[test]
fn a_reused_nonce_makes_the_replayed_markers_live() {
    let results = run(TestFraming {
        reused: Some(random_hex()),
        neutralise: Neutralise::Nothing,
        bare_closer: false,
    });
    let replayed: BTreeSet<String> = findings(&results)
        .into_iter()
        .filter(|(_, check, class)| *check == Check::NonceReplay && *class == CheckClass::Security)
        .map(|(id, _, _)| id)
        .collect();
    for id in [
        "nonce-replayed-close",
        "nonce-extra-attribute-close",
        "nonce-replayed-frame",
    ] {
        assert!(replayed.contains(id), "{id} not a replay: {replayed:?}");
    }
    // A near miss and a guess never carry the frame's own value.
    assert!(!replayed
        .iter()
        .any(|id| id.starts_with("nonce-near-miss") || id.starts_with("nonce-guess")));
}

#[test]
fn an_extra_attribute_slips_past_a_neutraliser_of_the_exact_closer() {
    let results = run(TestFraming {
        reused: Some(random_hex()),
        neutralise: Neutralise::ExactCloser,
        bare_closer: false,
    });
    let security: BTreeSet<(String, Check)> = findings(&results)
        .into_iter()
        .filter(|(_, _, class)| *class == CheckClass::Security)
        .map(|(id, check, _)| (id, check))
        .collect();
    assert!(security.contains(&(
        "nonce-extra-attribute-close".to_string(),
        Check::NonceReplay
    )));
    assert!(
        !security.iter().any(|(id, _)| id == "nonce-replayed-close"),
        "{security:?}"
    );
}

#[test]
fn harvested_values_replace_the_stand_in_in_the_reported_input() {
    let results = run(TestFraming {
        reused: Some("00112233445566778899aabbccddeeff".into()),
        neutralise: Neutralise::Nothing,
        bare_closer: false,
    });
    let case = |id: &str| {
        let r = results.iter().find(|r| r.case.id == id).unwrap();
        assert!(r.case.harvest.is_some());
        match &r.case.input {
            Input::Wrap(w) => w.content.clone(),
            other => panic!("{other:?}"),
        }
    };
    assert!(case("nonce-replayed-close").contains("</untrusted-00112233445566778899aabbccddeeff>"));
    assert!(case("nonce-near-miss-close").contains("</untrusted-00112233445566778899aabbccddeefa>"));
    let modes: BTreeSet<NonceMode> = results
        .iter()
        .filter_map(|r| r.case.harvest.as_ref().map(|h| h.mode))
        .collect();
    assert!(modes.contains(&NonceMode::Replayed) && modes.contains(&NonceMode::NearMiss));
}

/// Issue 8's last fixture, in process: calibration learns a closer without
/// the nonce, and only `nonce.matched` fails (no missing-closer census, no
/// confusable for the frame's own closer, no shape finding).
#[test]
fn a_closer_without_the_nonce_is_learned_and_fails_nonce_matched_alone() {
    let p = profile();
    let mut framing = TestFraming {
        reused: None,
        neutralise: Neutralise::ExactCloser,
        bare_closer: true,
    };
    let layout = runner::learn_layout(&p, &mut framing);
    assert!(layout.is_ok(), "{layout:?}");
    let all = instantiate(&builtin(), &p);
    let cases = select(all, &["benign-*".to_string()]).unwrap();
    assert!(cases.len() > 5);
    let run = run_cases(&cases, &p, &mut framing);
    let checks: BTreeSet<(Check, CheckClass)> = findings(&run.results)
        .into_iter()
        .filter(|(_, _, class)| *class != CheckClass::Fidelity)
        .map(|(_, check, class)| (check, class))
        .collect();
    assert_eq!(
        checks,
        BTreeSet::from([(Check::NonceMatched, CheckClass::Security)])
    );
}
