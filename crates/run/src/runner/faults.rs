//! Faults are per input: a target that crashes, hangs or breaks the
//! protocol on one case has a weakness on that input, not a reason to stop
//! the audit.
//!
//! A case whose target faults ([`Fault`]) is tried again on a fresh target
//! ([`Framing::restart`]), after a benign question (the oracle's
//! calibration request) to that fresh target. When the benign question
//! fails too, the target is broken for every input and is given up
//! ([`Abandoned`]). When it is answered and the case faults again, the
//! input is to blame: the case gets one `target.fault` finding
//! ([`CheckClass::Fault`]) with the retry's fault as evidence. A fault the
//! retry does not reproduce is no finding: the case is judged by the
//! retry's answer. The benign question goes first so that it pays the
//! fresh target's start.
//!
//! A finding is reported only if it replays (issue 57): the benign
//! question and the retry get the replay budget ([`Patience::Replay`]),
//! so a case that timed out because the machine was loaded, and answers
//! when given longer, is judged by its answer; a hang is a finding only
//! when the case times out again under that budget.
//!
//! A target is also given up when it fails the first contact (calibration)
//! twice, and when it faults on [`MAX_FAULTED_CASES_IN_ROW`] different
//! written cases in a row (variants of one case count once), since by then
//! the faults are not about the inputs. Every case after that is reported
//! as not sent, and the run as unfinished, saying which rule gave it up
//! and why.

use std::fmt;

use super::{guarded, CaseResult, Outcome};
use crate::adapter::replay::ReplayLog;
use crate::adapter::{Fault, FaultKind, Framing, Patience, TargetError};
use framecheck_core::catalogue::ConcreteCase;
use framecheck_core::level::ReaderLevel;
use framecheck_core::oracle::{self, Calibration, Check, CheckClass, Finding, NoCalibration};
use framecheck_launch::profile::{Capability, TargetProfile};

/// Different written cases (a case and its variants count once) on which
/// the target may fault in a row, each reproduced, before it is given up.
pub(crate) const MAX_FAULTED_CASES_IN_ROW: usize = 10;

/// Why a target was given up, and on which rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Abandoned {
    /// The first contact (a benign calibration request) faulted, again on
    /// a fresh target.
    Calibration {
        /// The retry's failure.
        reason: String,
        /// What the target did.
        fault: Option<Fault>,
    },
    /// A case faulted twice and the benign request after it faulted too.
    Benign {
        /// The case after which it was given up.
        case: String,
        /// The benign request's failure.
        reason: String,
        /// What the target did.
        fault: Option<Fault>,
    },
    /// Faults on this many different written cases in a row.
    InRow {
        /// The written cases' ids, in order.
        cases: Vec<String>,
    },
}

impl Abandoned {
    /// What the target did when it was given up, if a fault was seen.
    pub(crate) fn fault(&self) -> Option<&Fault> {
        match self {
            Abandoned::Calibration { fault, .. } | Abandoned::Benign { fault, .. } => {
                fault.as_ref()
            }
            Abandoned::InRow { .. } => None,
        }
    }
}

impl fmt::Display for Abandoned {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Abandoned::Calibration { reason, .. } => write!(
                f,
                "target abandoned at calibration: a benign request failed twice, each on a fresh \
                 target: {reason}"
            ),
            Abandoned::Benign { case, reason, .. } => write!(
                f,
                "target abandoned after case {case}: it failed twice on that case, then on a \
                 benign request too, so the failure is not about the input: {reason}"
            ),
            Abandoned::InRow { cases } => write!(
                f,
                "target abandoned: it crashed, hung or broke the protocol on {} different cases \
                 in a row ({}), each reproduced on a fresh target",
                cases.len(),
                cases.join(", ")
            ),
        }
    }
}

/// The runner's record of faults: the current run of faulted cases and
/// whether the target was given up.
#[derive(Debug, Default)]
pub(crate) struct FaultWatch {
    in_row: Vec<String>,
    abandoned: Option<Abandoned>,
    /// The run's replays: a request that timed out and was answered on
    /// its retry is counted here, as the setup's replays are.
    replays: ReplayLog,
}

impl FaultWatch {
    /// The log the run's replays are counted in (a clone sees the same).
    pub(crate) fn replays(&self) -> ReplayLog {
        self.replays.clone()
    }

    /// Why the target was given up, if it was.
    pub(crate) fn abandoned(&self) -> Option<&Abandoned> {
        self.abandoned.as_ref()
    }

    /// Checks the first contact: a benign request, retried once on a fresh
    /// target when it faults. Gives the target up when the retry faults too.
    pub(crate) fn first_contact(
        &mut self,
        profile: &TargetProfile,
        framing: &mut dyn Framing,
        calibration: Option<&Result<Calibration, NoCalibration>>,
    ) {
        let first = benign_call(profile, framing, calibration);
        let Err(first) = first else {
            return;
        };
        framing.restart();
        let again = replayed(framing, |framing| {
            benign_call(profile, framing, calibration)
        });
        if again.is_ok() && is_hang(first.as_fault()) {
            self.replays.passed();
        }
        if let Err(error) = again {
            self.abandoned = Some(Abandoned::Calibration {
                fault: error.as_fault().cloned(),
                reason: error.to_string(),
            });
        }
    }

    /// Runs `attempt` on `case`, and again on a fresh target when the target
    /// faulted; turns a reproduced fault into a finding, or gives the target
    /// up as the module says.
    pub(crate) fn judge(
        &mut self,
        case: ConcreteCase,
        profile: &TargetProfile,
        framing: &mut dyn Framing,
        calibration: Option<&Result<Calibration, NoCalibration>>,
        attempt: &mut dyn FnMut(ConcreteCase, &mut dyn Framing) -> CaseResult,
    ) -> CaseResult {
        let first = attempt(case, framing);
        if fault_of(&first).is_none() {
            self.answered(&first);
            return first;
        }
        // The benign request goes first: it starts the fresh target (which
        // may take the startup allowance). Both are replays, under the
        // replay budget.
        framing.restart();
        let benign = replayed(framing, |framing| {
            benign_call(profile, framing, calibration)
        });
        if let Err(error) = benign {
            self.abandoned = Some(Abandoned::Benign {
                case: first.case.id.clone(),
                fault: error.as_fault().cloned(),
                reason: error.to_string(),
            });
            return first;
        }
        let (case, first_hung) = (first.case, is_hang(fault_of_outcome(&first.outcome)));
        let mut second = replayed(framing, |framing| attempt(case, framing));
        second.elapsed_us = second.elapsed_us.saturating_add(first.elapsed_us);
        let Some(fault) = fault_of(&second).cloned() else {
            if first_hung && !matches!(second.outcome, Outcome::Error { .. }) {
                self.replays.passed();
            }
            self.answered(&second);
            return second;
        };
        self.faulted(&second.case.base_id);
        // The fault retired the target: start the next one now, on a
        // benign request, so the next case does not wait out the startup
        // allowance if it hangs. Its failure is the next case's to find.
        framing.restart();
        let _ = benign_call(profile, framing, calibration);
        let Outcome::Error { reason, .. } = &second.outcome else {
            return second;
        };
        let finding = fault_finding(reason, fault);
        second.outcome = Outcome::Judged {
            findings: oracle::as_written(profile, vec![finding]),
        };
        second
    }

    /// A case the target answered (or refused) ends the run of faults; one
    /// not sent, or whose plant the store refused, reached no framing.
    fn answered(&mut self, result: &CaseResult) {
        if !matches!(
            result.outcome,
            Outcome::Skipped { .. } | Outcome::Unplanted { .. }
        ) {
            self.in_row.clear();
        }
    }

    /// Counts a reproduced fault of written case `base_id`.
    fn faulted(&mut self, base_id: &str) {
        if !self.in_row.iter().any(|id| id == base_id) {
            self.in_row.push(base_id.to_string());
        }
        if self.in_row.len() >= MAX_FAULTED_CASES_IN_ROW {
            self.abandoned = Some(Abandoned::InRow {
                cases: std::mem::take(&mut self.in_row),
            });
        }
    }
}

/// `call` under the replay budget ([`Patience::Replay`]), the plain one
/// restored after it.
fn replayed<T>(framing: &mut dyn Framing, call: impl FnOnce(&mut dyn Framing) -> T) -> T {
    framing.set_patience(Patience::Replay);
    let answer = call(framing);
    framing.set_patience(Patience::Plain);
    answer
}

/// The fault of a result the target failed by itself.
fn fault_of(result: &CaseResult) -> Option<&Fault> {
    fault_of_outcome(&result.outcome)
}

/// The fault of an outcome the target failed by itself.
fn fault_of_outcome(outcome: &Outcome) -> Option<&Fault> {
    match outcome {
        Outcome::Error { fault, .. } => fault.as_ref(),
        _ => None,
    }
}

/// Whether a failure was a timeout (a hang fault).
fn is_hang(fault: Option<&Fault>) -> bool {
    fault.is_some_and(|f| f.kind == FaultKind::Hang)
}

/// The finding of a reproduced fault: at every level, since no reader of
/// any level gets a frame.
pub(crate) fn fault_finding(reason: &str, fault: Fault) -> Finding {
    Finding {
        consumer: Default::default(),
        check: Check::TargetFault,
        class: CheckClass::Fault,
        levels: ReaderLevel::ALL.to_vec(),
        message: format!(
            "the target failed on this input twice ({}), the second time on a fresh target \
             that had just answered a benign input, given up to {} times as long: {reason}",
            fault.kind.name(),
            Patience::REPLAY_FACTOR
        ),
        excerpt: None,
        in_context: false,
        fault: Some(fault),
        live: None,
    }
}

/// One benign request of the kind the target serves: a wrap of the
/// oracle's calibration request, or for a reader-only target a read of the
/// calibration frame (or of plain text, whose answer may be a rejection).
/// A refusal is an answer.
pub(crate) fn benign_call(
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    calibration: Option<&Result<Calibration, NoCalibration>>,
) -> Result<(), TargetError> {
    let answered = if profile.can(Capability::Wrap) {
        let request = oracle::calibration_request();
        guarded(|| framing.wrap(&request)).map(|_| ())
    } else {
        let text = match calibration {
            Some(Ok(calibration)) => calibration.framed.clone(),
            _ => oracle::calibration_request().content,
        };
        guarded(|| framing.read(&text)).map(|_| ())
    };
    match answered {
        Err(TargetError::Refused(_)) => Ok(()),
        other => other,
    }
}

/// The result of a case not sent because the target was given up.
pub(crate) fn not_sent(case: ConcreteCase, abandoned: &Abandoned) -> CaseResult {
    CaseResult {
        case,
        outcome: Outcome::Error {
            reason: format!("not sent: {abandoned}"),
            stderr_tail: String::new(),
            fault: None,
        },
        evidence: Default::default(),
        elapsed_us: 0,
    }
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::adapter::reference::Reference;
    use crate::adapter::{FaultKind, WrapRequest};
    use crate::runner::{run, RunOptions, RunResult, Verdict};

    /// The reference framing, failing as `fails` says on a request.
    struct Faulty<F: FnMut(&WrapRequest) -> bool> {
        fails: F,
        restarts: usize,
    }

    impl<F: FnMut(&WrapRequest) -> bool> Framing for Faulty<F> {
        fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
            if (self.fails)(request) {
                return Err(TargetError::fault(
                    "target closed stdout without replying (signal: 11)",
                    Fault::new(FaultKind::Crash),
                ));
            }
            Reference.wrap(request)
        }
        fn read(&mut self, text: &str) -> Result<Option<String>, TargetError> {
            Reference.read(text)
        }
        fn restart(&mut self) {
            self.restarts += 1;
        }
    }

    fn run_only(framing: &mut dyn Framing, only: &[&str]) -> RunResult {
        let profile = framecheck_envelope::reference_profile();
        let only: Vec<String> = only.iter().map(|s| s.to_string()).collect();
        let cases = framecheck_core::catalogue::select(
            framecheck_core::catalogue::instantiate(
                &framecheck_core::catalogue::builtin(),
                &profile,
            ),
            &only,
        )
        .unwrap();
        let options = RunOptions {
            filters: only,
            ..RunOptions::default()
        };
        run(&cases, &profile, framing, &options, &mut |_| {})
    }

    fn faulted(run: &RunResult) -> Vec<&str> {
        run.results
            .iter()
            .filter(|r| {
                r.findings_at(ReaderLevel::Unicode)
                    .iter()
                    .any(|f| f.check == Check::TargetFault && f.class == CheckClass::Fault)
            })
            .map(|r| r.case.id.as_str())
            .collect()
    }

    #[test]
    fn a_reproduced_fault_is_a_finding_and_the_other_cases_are_judged() {
        let mut framing = Faulty {
            fails: |r: &WrapRequest| r.content.contains('\0'),
            restarts: 0,
        };
        let run = run_only(&mut framing, &["ctl-nul-before-close", "benign-ascii"]);
        assert_eq!(run.meta.harness_error, None);
        let nul = run
            .results
            .iter()
            .filter(|r| r.case.base_id == "ctl-nul-before-close")
            .count();
        assert!(nul > MAX_FAULTED_CASES_IN_ROW, "{nul} variants");
        // Variants of one written case count once: never given up.
        assert_eq!(faulted(&run).len(), nul);
        // A restart before the benign question, one to warm the next target.
        assert_eq!(framing.restarts, 2 * nul);
        for result in &run.results {
            let verdict = result.verdict_at(ReaderLevel::Unicode);
            assert_ne!(verdict, Verdict::Error, "{}", result.case.id);
        }
    }

    #[test]
    fn a_fault_the_retry_does_not_repeat_is_no_finding() {
        let mut first = true;
        let mut framing = Faulty {
            fails: move |r: &WrapRequest| {
                let fail = first && r.content.contains('\0');
                first &= !fail;
                fail
            },
            restarts: 0,
        };
        let run = run_only(&mut framing, &["ctl-nul-before-close"]);
        assert!(faulted(&run).is_empty());
        assert_eq!(run.meta.harness_error, None);
        assert_eq!(framing.restarts, 1);
    }

    /// The reference framing, timing out on NUL content unless given the
    /// replay budget (or whatever it is given, when `always`): a framing
    /// on a loaded machine, or one that truly hangs, decided by state.
    struct SlowOnNul {
        always: bool,
        patience: Patience,
        patiences: Vec<Patience>,
    }

    impl Framing for SlowOnNul {
        fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
            if !request.content.contains('\0') {
                return Reference.wrap(request);
            }
            self.patiences.push(self.patience);
            if self.always || self.patience == Patience::Plain {
                return Err(TargetError::fault(
                    "no reply within 5 ms",
                    Fault::new(FaultKind::Hang),
                ));
            }
            Reference.wrap(request)
        }
        fn read(&mut self, text: &str) -> Result<Option<String>, TargetError> {
            Reference.read(text)
        }
        fn set_patience(&mut self, patience: Patience) {
            self.patience = patience;
        }
    }

    /// Issue 57: a case that times out, and answers when given the replay
    /// budget, is judged by that answer: no finding. With the retry left
    /// at the plain budget it would be one hang finding per NUL case (the
    /// framing answers NUL only under the replay budget).
    #[test]
    fn a_timeout_that_does_not_replay_under_the_longer_budget_is_no_finding() {
        let mut framing = SlowOnNul {
            always: false,
            patience: Patience::Plain,
            patiences: Vec::new(),
        };
        let run = run_only(&mut framing, &["ctl-nul-before-close"]);
        assert_eq!(run.meta.harness_error, None);
        assert!(faulted(&run).is_empty(), "{:?}", faulted(&run));
        for result in &run.results {
            let verdict = result.verdict_at(ReaderLevel::Unicode);
            assert_eq!(verdict, Verdict::Pass, "{}", result.case.id);
        }
        // Each case: a first attempt, then its replay; the budget is the
        // plain one again after each.
        let cases = run.results.len();
        let expected = [Patience::Plain, Patience::Replay].repeat(cases);
        assert_eq!(framing.patiences, expected);
        assert_eq!(framing.patience, Patience::Plain);
        // The report states that each passed only on its replay.
        assert_eq!(run.meta.passed_on_replay, cases as u64);
    }

    #[test]
    fn a_timeout_that_replays_under_the_longer_budget_is_a_hang_finding() {
        let mut framing = SlowOnNul {
            always: true,
            patience: Patience::Plain,
            patiences: Vec::new(),
        };
        let run = run_only(&mut framing, &["ctl-nul-before-close"]);
        assert_eq!(run.meta.harness_error, None);
        assert_eq!(faulted(&run).len(), run.results.len());
        let finding = &run.results[0].findings_at(ReaderLevel::Unicode)[0];
        assert!(finding.message.contains("given up to 4 times as long"));
        assert_eq!(finding.fault.as_ref().unwrap().kind, FaultKind::Hang);
        assert_eq!(run.meta.passed_on_replay, 0);
    }

    #[test]
    fn a_target_failing_the_benign_question_after_a_fault_is_given_up() {
        let mut broken = false;
        let mut framing = Faulty {
            fails: move |r: &WrapRequest| {
                broken |= r.content.contains('\0');
                broken
            },
            restarts: 0,
        };
        let run = run_only(&mut framing, &["ctl-nul-before-close"]);
        assert!(faulted(&run).is_empty());
        let error = run.meta.harness_error.as_deref().unwrap();
        assert!(
            error.starts_with("target abandoned after case ctl-nul-before-close"),
            "{error}"
        );
        // The first case is an error; every later one was not sent.
        let errors: Vec<&str> = run
            .results
            .iter()
            .map(|r| match &r.outcome {
                Outcome::Error { reason, .. } => reason.as_str(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert!(errors[1..]
            .iter()
            .all(|e| e.starts_with("not sent: target abandoned")));
    }

    #[test]
    fn the_docs_state_the_limits_the_code_uses() {
        let readme = include_str!("../../../../README.md").replace('\n', " ");
        let protocol = include_str!("../../../../docs/protocol.md").replace('\n', " ");
        let in_row = format!("{MAX_FAULTED_CASES_IN_ROW} different written cases in a row");
        assert!(readme.contains(&in_row), "README: {in_row}");
        assert!(protocol.contains(&in_row), "protocol.md: {in_row}");
        let cut = format!(
            "cut to {} bytes",
            crate::adapter::fault::OFFENDING_LINE_BYTES
        );
        assert!(protocol.contains(&cut), "protocol.md: {cut}");
        // The replay budget, as `Patience::budget` sets it.
        let budget = format!(
            "{} times `timeout_ms` (at most {} s more",
            Patience::REPLAY_FACTOR,
            Patience::REPLAY_MAX_EXTRA.as_secs()
        );
        assert!(readme.contains(&budget), "README: {budget}");
        let budget = budget.replace(" (at", ", at");
        assert!(protocol.contains(&budget), "protocol.md: {budget}");
        let schema = include_str!("../../../../docs/report-schema.md");
        let passed = format!("given up to {} times as long", Patience::REPLAY_FACTOR);
        assert!(schema.contains(&passed), "report-schema.md: {passed}");
    }

    #[test]
    fn faults_on_many_written_cases_in_a_row_give_the_target_up() {
        // Fails on everything but the benign calibration request.
        let calibration = oracle::calibration_request();
        let mut framing = Faulty {
            fails: move |r: &WrapRequest| *r != calibration,
            restarts: 0,
        };
        let run = run_only(&mut framing, &["breakout-*"]);
        let error = run.meta.harness_error.as_deref().unwrap();
        assert!(
            error.contains(&format!(
                "on {MAX_FAULTED_CASES_IN_ROW} different cases in a row"
            )),
            "{error}"
        );
        let ids = faulted(&run);
        let base_ids: std::collections::BTreeSet<&str> = run
            .results
            .iter()
            .filter(|r| ids.contains(&r.case.id.as_str()))
            .map(|r| r.case.base_id.as_str())
            .collect();
        assert_eq!(base_ids.len(), MAX_FAULTED_CASES_IN_ROW);
    }
}
