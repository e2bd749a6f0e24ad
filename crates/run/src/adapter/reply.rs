//! How a request to a target ended, as every adapter tells the runner: the
//! one mapping from a refusal, a timeout, a death or an answer outside the
//! protocol (garbage, a flood past the reply limit, a result of the wrong
//! shape) to the [`TargetError`] the runner judges. An adapter sorts what
//! its transport saw into an [`Ending`] (a child's pipe, an MCP session, an
//! HTTP exchange, the calling process alike), retires the target when the
//! ending is a fault and it can, and hands over what the target left behind
//! ([`Left`]); which endings are faults, of which kind, and what evidence
//! goes with them is decided here only.

use crate::adapter::{Fault, FaultKind, TargetError};

/// A request that got no usable answer, by how it ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Ending {
    /// The target declined this input on purpose (an `error` reply, a
    /// JSON-RPC error, an `isError` result): no fault, and the catalogue
    /// decides whether refusing is acceptable.
    Refused(String),
    /// No (complete) answer within the timeout: a hang.
    TimedOut(String),
    /// The target died, or its channel broke, before answering: a crash,
    /// with how the process ended when that is known already.
    Died {
        /// What was seen.
        reason: String,
        /// The process's exit status, when it ended on its own.
        exit_status: Option<String>,
    },
    /// An answer outside the protocol: a line that is not a reply, one
    /// longer than the limit, a result without the text asked for.
    Broke {
        /// What is wrong with it.
        reason: String,
        /// The line that broke the protocol (cut), when one was read.
        offending_line: Option<String>,
    },
}

/// What a target left behind when it was retired after a fault: the end of
/// its stderr and, when it had ended on its own, its exit status. Empty
/// for a target that was kept.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Left {
    /// How the process ended, when it ended on its own.
    pub(crate) exit_status: Option<String>,
    /// The last bytes it wrote to stderr.
    pub(crate) stderr_tail: String,
}

impl Ending {
    /// The fault this ending is (what an adapter counts in a row and why
    /// it retires the target), or `None` for a refusal.
    pub(crate) fn fault_kind(&self) -> Option<FaultKind> {
        match self {
            Ending::Refused(_) => None,
            Ending::TimedOut(_) => Some(FaultKind::Hang),
            Ending::Died { .. } => Some(FaultKind::Crash),
            Ending::Broke { .. } => Some(FaultKind::ProtocolViolation),
        }
    }

    /// The error the request gets. A fault carries its evidence: the exit
    /// status the ending saw (or else the one the retired target `left`),
    /// the offending line, and the stderr tail.
    pub(crate) fn into_error(self, left: Left) -> TargetError {
        let kind = self.fault_kind();
        let (reason, exit_status, offending_line) = match self {
            Ending::Refused(reason) => return TargetError::Refused(reason),
            Ending::TimedOut(reason) => (reason, None, None),
            Ending::Died {
                reason,
                exit_status,
            } => (reason, exit_status, None),
            Ending::Broke {
                reason,
                offending_line,
            } => (reason, None, offending_line),
        };
        let mut fault = Fault::new(kind.expect("every ending but a refusal is a fault"));
        fault.exit_status = exit_status.or(left.exit_status);
        fault.offending_line = offending_line;
        fault.stderr_tail = left.stderr_tail;
        TargetError::fault(reason, fault)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn left(exit_status: Option<&str>, stderr_tail: &str) -> Left {
        Left {
            exit_status: exit_status.map(str::to_string),
            stderr_tail: stderr_tail.to_string(),
        }
    }

    /// The fault `ending` becomes, with the reason the error states.
    fn fault_of(ending: Ending, left: Left) -> (String, Fault) {
        match ending.into_error(left) {
            TargetError::Failed {
                reason,
                stderr_tail,
                fault: Some(fault),
            } => {
                assert_eq!(stderr_tail, fault.stderr_tail, "one stderr tail");
                (reason, *fault)
            }
            other => panic!("expected a fault, got {other:?}"),
        }
    }

    #[test]
    fn a_refusal_is_no_fault_and_keeps_its_reason_alone() {
        let ending = Ending::Refused("too long".into());
        assert_eq!(ending.fault_kind(), None);
        assert_eq!(
            ending.into_error(left(Some("exit status: 1"), "trace")),
            TargetError::Refused("too long".into())
        );
    }

    #[test]
    fn a_timeout_is_a_hang_with_the_stderr_the_target_left() {
        let (reason, fault) = fault_of(
            Ending::TimedOut("no reply within 5 ms".into()),
            left(None, "waiting\n"),
        );
        assert_eq!(reason, "no reply within 5 ms");
        assert_eq!(fault.kind, FaultKind::Hang);
        assert_eq!(fault.stderr_tail, "waiting\n");
        assert_eq!((fault.exit_status, fault.offending_line), (None, None));
    }

    /// A death's own exit status wins over the retired target's; without
    /// one, the retired target's is the evidence.
    #[test]
    fn a_death_is_a_crash_with_how_the_process_ended() {
        let died = |exit_status: Option<&str>| Ending::Died {
            reason: "closed stdout".into(),
            exit_status: exit_status.map(str::to_string),
        };
        let (reason, fault) = fault_of(
            died(Some("signal: 11")),
            left(Some("exit status: 0"), "Segfault"),
        );
        assert_eq!(reason, "closed stdout");
        assert_eq!(fault.kind, FaultKind::Crash);
        assert_eq!(fault.exit_status.as_deref(), Some("signal: 11"));
        assert_eq!(fault.stderr_tail, "Segfault");
        let (_, fault) = fault_of(died(None), left(Some("exit status: 3"), ""));
        assert_eq!(fault.exit_status.as_deref(), Some("exit status: 3"));
        let (_, fault) = fault_of(died(None), Left::default());
        assert_eq!(fault.exit_status, None);
    }

    #[test]
    fn garbage_and_floods_are_protocol_violations_with_the_line_as_evidence() {
        let (reason, fault) = fault_of(
            Ending::Broke {
                reason: "protocol violation: not JSON".into(),
                offending_line: Some("hello".into()),
            },
            Left::default(),
        );
        assert_eq!(reason, "protocol violation: not JSON");
        assert_eq!(fault.kind, FaultKind::ProtocolViolation);
        assert_eq!(fault.offending_line.as_deref(), Some("hello"));
        let (_, fault) = fault_of(
            Ending::Broke {
                reason: "reply longer than max_reply_bytes (10 bytes)".into(),
                offending_line: None,
            },
            left(None, "tail"),
        );
        assert_eq!(fault.offending_line, None);
        assert_eq!(fault.stderr_tail, "tail");
    }
}
