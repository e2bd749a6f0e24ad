//! A timeout is reported only if it replays (issue 57), for the requests a
//! run or `init` sends outside its cases: calibration, the fit check, the
//! learning of parts, segments and empty frames, the nonce samples, and
//! every experiment of `init`. Each of these turns a failed request into a
//! different layout, profile or proposal, not into a finding a retry could
//! confirm; on a loaded machine a correct framing misses its timeout now
//! and then, and the run would then judge every case against another
//! frame. [`Replaying`] tries a request that timed out once more, on a
//! fresh target, under the replay budget ([`Patience::Replay`]), and
//! answers the replay's result; its [`ReplayLog`] keeps the first timeout
//! that happened again, so `init` can refuse to propose from a framing that
//! did not answer (however deep in a view the framing is by then), and
//! counts the ones that passed on replay.
//!
//! A case's own requests are retried by the runner's fault watch
//! (`runner::faults`), after a benign question, under the same budget.

use std::sync::{Arc, Mutex, PoisonError};

use framecheck_core::target::{ReadAnswer, ServerIdentity, WrapAnswer};

use crate::adapter::{FaultKind, Framing, Patience, TargetError, WrapRequest};

/// What the replays of a [`Replaying`] framing came to; a clone sees the
/// same record, so it can be read after the framing was boxed or moved
/// into another view.
#[derive(Debug, Clone, Default)]
pub struct ReplayLog(Arc<Mutex<Replays>>);

/// The record a [`ReplayLog`] shares.
#[derive(Debug, Default)]
struct Replays {
    /// The first request that timed out on its replay too.
    hung: Option<TargetError>,
    /// Requests that timed out and were answered on their replay.
    slow: usize,
    /// Set by [`ReplayLog::finish`]: requests pass through unreplayed.
    finished: bool,
    /// Set by [`Replaying::stopping_at_hang`]: once a hang replayed, no
    /// request is sent.
    stop_at_hang: bool,
}

impl ReplayLog {
    /// Ends the replays: from now on requests go to the framing inside as
    /// they are. `init` hands its framing on to a check or a run, whose
    /// own replays (and fault watch) then apply, once each.
    pub fn finish(&self) {
        self.replays(|r| r.finished = true);
    }

    /// The first request that timed out on its first attempt and again on
    /// a fresh target under the replay budget: a hang that replayed.
    pub fn hung(&self) -> Option<TargetError> {
        self.replays(|r| r.hung.clone())
    }

    /// How many requests timed out and were answered when replayed: the
    /// machine was slow, and their answers were used.
    pub fn slow(&self) -> usize {
        self.replays(|r| r.slow)
    }

    /// Counts a request that timed out and was answered on its replay
    /// somewhere else (the runner's retry of a case).
    pub(crate) fn passed(&self) {
        self.replays(|r| r.slow += 1);
    }

    fn replays<T>(&self, f: impl FnOnce(&mut Replays) -> T) -> T {
        // A panic elsewhere leaves the counts as they were: still usable.
        f(&mut self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// `inner`, with every request that times out tried once more under the
/// replay budget.
#[derive(Debug)]
pub struct Replaying<F: Framing> {
    inner: F,
    log: ReplayLog,
}

impl<F: Framing> Replaying<F> {
    /// `inner`, seen through replays.
    pub fn new(inner: F) -> Self {
        Replaying {
            inner,
            log: ReplayLog::default(),
        }
    }

    /// `inner`, seen through replays until one hangs again; every request
    /// after that fails at once, unsent. For `init`, which proposes nothing
    /// once a request hung, so that each later request does not wait out
    /// a replay too.
    pub fn stopping_at_hang(inner: F) -> Self {
        let replaying = Replaying::new(inner);
        replaying.log.replays(|r| r.stop_at_hang = true);
        replaying
    }

    /// `inner`, seen through replays recorded in `log`, which other views
    /// share: a run counts every replay of its setup in one log.
    pub fn with_log(inner: F, log: ReplayLog) -> Self {
        Replaying { inner, log }
    }

    /// The record of this framing's replays.
    pub fn log(&self) -> ReplayLog {
        self.log.clone()
    }

    /// The framing inside.
    pub fn into_inner(self) -> F {
        self.inner
    }

    /// `call`, and when it timed out, `call` again on a fresh target under
    /// the replay budget, whose result is the answer.
    fn replay<T>(
        &mut self,
        mut call: impl FnMut(&mut F) -> Result<T, TargetError>,
    ) -> Result<T, TargetError> {
        if let Some(hung) = self
            .log
            .replays(|r| r.hung.clone().filter(|_| r.stop_at_hang))
        {
            return Err(TargetError::failed(format!(
                "not sent: an earlier request timed out, and again on its replay: {hung}"
            )));
        }
        let first = call(&mut self.inner);
        if !timed_out(&first) || self.log.replays(|r| r.finished) {
            return first;
        }
        // The timeout retired the target; a fresh one pays its start
        // within the replay budget too.
        self.inner.restart();
        self.inner.set_patience(Patience::Replay);
        let again = call(&mut self.inner);
        self.inner.set_patience(Patience::Plain);
        self.log.replays(|r| match &again {
            Err(error) if timed_out(&again) => {
                r.hung.get_or_insert_with(|| error.clone());
            }
            // A refusal is an answer; a replay that failed otherwise passed
            // nothing.
            Ok(_) | Err(TargetError::Refused(_)) => r.slow += 1,
            Err(_) => {}
        });
        again
    }
}

/// Whether a request ended in a timeout of the target's (a hang fault).
fn timed_out<T>(result: &Result<T, TargetError>) -> bool {
    matches!(result, Err(error) if error.as_fault().is_some_and(|f| f.kind == FaultKind::Hang))
}

impl<F: Framing> Framing for Replaying<F> {
    fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
        self.replay(|f| f.wrap(request))
    }
    fn wrap_answer(&mut self, request: &WrapRequest) -> Result<WrapAnswer, TargetError> {
        self.replay(|f| f.wrap_answer(request))
    }
    fn read(&mut self, text: &str) -> Result<Option<String>, TargetError> {
        self.replay(|f| f.read(text))
    }
    fn read_answer(&mut self, text: &str) -> Result<ReadAnswer, TargetError> {
        self.replay(|f| f.read_answer(text))
    }
    fn wrap_many(&mut self, items: &[WrapRequest]) -> Result<String, TargetError> {
        self.replay(|f| f.wrap_many(items))
    }
    fn wrap_many_answer(&mut self, items: &[WrapRequest]) -> Result<WrapAnswer, TargetError> {
        self.replay(|f| f.wrap_many_answer(items))
    }
    fn restart(&mut self) {
        self.inner.restart()
    }
    fn set_patience(&mut self, patience: Patience) {
        self.inner.set_patience(patience)
    }
    fn server(&self) -> Option<ServerIdentity> {
        self.inner.server()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adapter::reference::Reference;
    use crate::adapter::Fault;

    /// The reference framing, timing out on a request whose content holds
    /// `slow` unless it is given the replay budget (or on every attempt,
    /// when `always`): slowness decided by state, not by a clock.
    #[derive(Default)]
    struct Slow {
        always: bool,
        patience: Patience,
        restarts: usize,
        attempts: usize,
    }

    impl Framing for Slow {
        fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
            if !request.content.contains("slow") {
                return Reference.wrap(request);
            }
            self.attempts += 1;
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
        fn restart(&mut self) {
            self.restarts += 1;
        }
        fn set_patience(&mut self, patience: Patience) {
            self.patience = patience;
        }
    }

    fn request(content: &str) -> WrapRequest {
        WrapRequest {
            content: content.into(),
            ..WrapRequest::default()
        }
    }

    #[test]
    fn a_timeout_answered_under_the_replay_budget_gives_the_replay_s_answer() {
        let mut framing = Replaying::new(Slow::default());
        let log = framing.log();
        let answer = framing.wrap(&request("slow one"));
        assert_eq!(answer, Reference.wrap(&request("slow one")));
        assert_eq!((log.slow(), log.hung()), (1, None));
        let inner = framing.into_inner();
        assert_eq!((inner.attempts, inner.restarts), (2, 1));
        // The budget is back to the plain one for the next request.
        assert_eq!(inner.patience, Patience::Plain);
    }

    #[test]
    fn a_timeout_that_replays_is_kept_and_answered() {
        let mut framing = Replaying::new(Slow {
            always: true,
            ..Slow::default()
        });
        let log = framing.log();
        assert!(framing.wrap(&request("fast")).is_ok());
        let answer = framing.wrap(&request("slow one"));
        assert!(timed_out(&answer), "{answer:?}");
        assert_eq!(log.hung().as_ref(), answer.as_ref().err());
        assert_eq!(log.slow(), 0);
        assert_eq!(framing.into_inner().attempts, 2);
    }

    #[test]
    fn stopping_at_a_hang_sends_nothing_after_it() {
        let mut framing = Replaying::stopping_at_hang(Slow {
            always: true,
            ..Slow::default()
        });
        assert!(framing.wrap(&request("slow one")).is_err());
        let after = framing.wrap(&request("fast")).unwrap_err().to_string();
        assert!(
            after.starts_with("not sent: an earlier request timed out"),
            "{after}"
        );
        assert!(framing.wrap(&request("slow two")).is_err());
        assert_eq!(framing.into_inner().attempts, 2);
    }

    #[test]
    fn other_failures_are_not_replayed() {
        struct Crashes(usize);
        impl Framing for Crashes {
            fn wrap(&mut self, _: &WrapRequest) -> Result<String, TargetError> {
                self.0 += 1;
                Err(TargetError::fault("died", Fault::new(FaultKind::Crash)))
            }
            fn read(&mut self, _: &str) -> Result<Option<String>, TargetError> {
                Err(TargetError::Refused("no reader".into()))
            }
        }
        let mut framing = Replaying::new(Crashes(0));
        assert!(framing.wrap(&request("x")).is_err());
        assert!(framing.read("x").is_err());
        let log = framing.log();
        assert_eq!((log.hung(), log.slow()), (None, 0));
        assert_eq!(framing.into_inner().0, 1);
    }
}
