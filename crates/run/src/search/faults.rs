//! Faults while searching: a mutant on which the target crashes, hangs or
//! breaks the protocol is an input, like any other, that the target fails
//! on, as in a run ([`crate::runner::faults`]).
//!
//! Every fault restarts the target ([`Probe::judge`]), so the next request
//! goes to a fresh one. A faulting mutant is retried once, after a benign
//! request to the fresh target: when the benign request fails too, the
//! target is broken for every input and the search is given up (a harness
//! error, saying why); when the retry faults again, the mutant gets a
//! `target.fault` finding, which is shrunk, written and replayed like any
//! other (the replay is a run, which retries it once more); when the retry
//! answers, the mutant is judged by that answer. The benign request and the
//! retry get the replay budget ([`Patience::Replay`]), as in a run: a
//! mutant that timed out only because the machine was slow is no finding.

use super::{Judged, Probe};
use crate::adapter::{FaultKind, Patience, TargetError, WrapRequest};
use crate::runner::faults::{benign_call, fault_finding};
use framecheck_core::catalogue::ConcreteCase;
use framecheck_core::oracle::Finding;

/// What came of a request the target failed.
pub(super) enum Retried {
    /// The failure was not the target's doing (a request not sent): the
    /// mutant is dropped, as before.
    NotAFault,
    /// The fresh target failed a benign request: the search is given up
    /// ([`Probe::given_up`] says why).
    GivenUp,
    /// The retry answered: judge this answer.
    Answered(Option<Judged>),
    /// The retry faulted too: the mutant's fault finding.
    Reproduced(Finding),
}

/// Retries `request` after the target failed it with `error`, as the
/// module says.
pub(super) fn retry(
    probe: &mut Probe,
    case: &ConcreteCase,
    request: &WrapRequest,
    error: &TargetError,
) -> Retried {
    let Some(first) = error.as_fault() else {
        return Retried::NotAFault;
    };
    // The failed request restarted the target; the benign request pays the
    // fresh target's start. Both are replays, under the replay budget.
    probe.framing.set_patience(Patience::Replay);
    let retried = benign_then_retry(probe, case, request, first.kind);
    probe.framing.set_patience(Patience::Plain);
    retried
}

/// The benign request, then the retry of `request`, whose first attempt
/// faulted as `first`.
fn benign_then_retry(
    probe: &mut Probe,
    case: &ConcreteCase,
    request: &WrapRequest,
    first: FaultKind,
) -> Retried {
    if let Err(benign) = benign_call(probe.profile, probe.framing.as_mut(), None) {
        probe.given_up = Some(format!(
            "target abandoned: it failed twice on a mutant ({}), then on a benign request \
             too, so the failure is not about the input: {}",
            first.name(),
            benign.diagnosis()
        ));
        return Retried::GivenUp;
    }
    match probe.judge(case, request) {
        Ok(judged) => Retried::Answered(judged),
        Err(second) => match second.as_fault() {
            Some(fault) => Retried::Reproduced(fault_finding(&second.to_string(), fault.clone())),
            None => Retried::NotAFault,
        },
    }
}

/// Whether `request` makes the target fault as `kind` again (one attempt;
/// the replay retries the shrunk input), for shrinking a fault finding.
pub(super) fn faults_again(
    probe: &mut Probe,
    case: &ConcreteCase,
    request: &WrapRequest,
    kind: FaultKind,
) -> Option<Finding> {
    let error = probe.judge(case, request).err()?;
    let fault = error.as_fault().filter(|f| f.kind == kind)?;
    Some(fault_finding(&error.to_string(), fault.clone()))
}
