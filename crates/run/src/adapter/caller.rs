//! The calling process as the target: framecheck writes protocol requests to
//! a writer (its own stdout) and reads the replies from a reader (its own
//! stdin), so a test can audit a function in the test's own process.
//!
//! This is the subprocess protocol of `docs/protocol.md` turned around: the
//! program that started `framecheck run --serve-stdio` answers the requests
//! (the Python package `prompt_framecheck` and the Node module do), and framecheck's reports
//! and summary go to files and stderr, never to stdout.
//!
//! Faults are per input here too (`crate::runner::faults`). The caller
//! answers one line per request, so the channel stays in step after any
//! complete line: a line that is not a reply to the request is a protocol
//! violation of that request alone (its first bytes kept, as for a
//! subprocess), and a `fault` reply (`{"id": 7, "fault": {"kind": "crash",
//! "reason": "…", "stderr": "…"}}`) is the caller's report that the framing
//! raised or tried to exit on that input. Either is retried and, when the
//! retry repeats it, becomes the case's `target.fault` finding; the audit
//! goes on. framecheck cannot kill or restart its parent: only when the
//! caller's end closes (its process died) does that request fail as a crash
//! and every later one fail at once, ending the run as a harness error.
//! There is no timeout: a caller that hangs is its test runner's to stop.
//!
//! ```
//! use framecheck_run::adapter::caller::Caller;
//! use framecheck_run::adapter::{Framing, WrapRequest};
//!
//! let replies = b"{\"id\": 1, \"framed\": \"<t>\\nhi\\n</t>\"}\n" as &[u8];
//! let mut requests = Vec::new();
//! let mut caller = Caller::new(replies, &mut requests);
//! let framed = caller.wrap(&WrapRequest { content: "hi".into(), ..Default::default() });
//! assert_eq!(framed.unwrap(), "<t>\nhi\n</t>");
//! drop(caller);
//! assert!(String::from_utf8(requests).unwrap().starts_with("{\"id\":1,\"op\":\"wrap\""));
//! ```

use std::io::{BufRead, Read, Write};

use serde::Deserialize;

use super::fault::cut_line;
use super::reply::{Ending, Left};
use super::subprocess::protocol::{
    decode_reply, encode_read, encode_wrap, encode_wrap_many, Op, Reply,
};
use super::{Fault, FaultKind, Framing, TargetError, WrapRequest};
use framecheck_core::target::{ReadAnswer, WrapAnswer};

/// Longest reply line accepted, in bytes (the subprocess default).
pub const MAX_REPLY_BYTES: u64 = 64 * 1024 * 1024;

/// A framing served by whoever holds the other ends of `replies` and
/// `requests`.
#[derive(Debug)]
pub struct Caller<R, W> {
    replies: R,
    requests: W,
    next_id: u64,
    gone: Option<String>,
}

impl<R: BufRead, W: Write> Caller<R, W> {
    /// A target that writes requests to `requests` and reads replies from
    /// `replies`.
    pub fn new(replies: R, requests: W) -> Caller<R, W> {
        Caller {
            replies,
            requests,
            next_id: 1,
            gone: None,
        }
    }

    fn call(&mut self, op: Op, line: String) -> Result<Reply, TargetError> {
        if let Some(reason) = &self.gone {
            return Err(TargetError::failed(format!("not sent: {reason}")));
        }
        let id = self.next_id;
        self.next_id += 1;
        match self.exchange(line, id, op) {
            Ok(reply) => Ok(reply),
            Err(Failure::Gone(reason)) => {
                self.gone = Some(format!("the calling process stopped serving ({reason})"));
                let died = Ending::Died {
                    reason,
                    exit_status: None,
                };
                Err(died.into_error(Left::default()))
            }
            Err(Failure::Broke(ending)) => Err(ending.into_error(Left::default())),
            Err(Failure::Reported(reason, fault)) => Err(TargetError::fault(reason, *fault)),
        }
    }

    /// Writes `line` (newline included) and reads the reply to request `id`.
    fn exchange(&mut self, line: String, id: u64, op: Op) -> Result<Reply, Failure> {
        self.requests
            .write_all(line.as_bytes())
            .and_then(|()| self.requests.flush())
            .map_err(|e| Failure::Gone(format!("writing the request failed: {e}")))?;
        let mut reply = Vec::new();
        let read = (&mut self.replies)
            .take(MAX_REPLY_BYTES + 1)
            .read_until(b'\n', &mut reply)
            .map_err(|e| Failure::Gone(format!("reading the reply failed: {e}")))?;
        if read == 0 {
            return Err(Failure::Gone(
                "the calling process closed its end without replying".into(),
            ));
        }
        if reply.last() != Some(&b'\n') {
            return Err(Failure::Gone(if reply.len() as u64 > MAX_REPLY_BYTES {
                format!("reply longer than {MAX_REPLY_BYTES} bytes")
            } else {
                "the calling process closed its end in the middle of a reply".into()
            }));
        }
        reply.pop();
        if let Some(failure) = reported_fault(&reply, id) {
            return Err(failure);
        }
        decode_reply(&reply, id, op).map_err(|e| {
            Failure::Broke(Ending::Broke {
                reason: format!("protocol violation: {e}"),
                offending_line: Some(cut_line(&reply)),
            })
        })
    }
}

/// Why a request got no answer.
enum Failure {
    /// The channel is broken: no later request can be answered.
    Gone(String),
    /// This request's reply broke the protocol; the channel is still in
    /// step.
    Broke(Ending),
    /// The caller reported that the framing failed on this request (a
    /// `fault` reply), with the fault as it states it; the channel is
    /// still in step.
    Reported(String, Box<Fault>),
}

/// A `fault` reply: the calling process's report that the framing failed on
/// the request by itself (it raised, or tried to exit).
#[derive(Deserialize)]
struct FaultReply {
    id: u64,
    fault: ReportedFault,
}

#[derive(Deserialize)]
struct ReportedFault {
    kind: FaultKind,
    reason: String,
    #[serde(default)]
    exit_status: Option<String>,
    #[serde(default)]
    offending_line: Option<String>,
    #[serde(default)]
    stderr: String,
}

/// The failure a `fault` reply to request `id` reports; `None` for any
/// other line (which [`decode_reply`] then judges).
fn reported_fault(line: &[u8], id: u64) -> Option<Failure> {
    let reply: FaultReply = serde_json::from_slice(line).ok()?;
    if reply.id != id {
        return None;
    }
    let reported = reply.fault;
    let fault = Fault {
        kind: reported.kind,
        exit_status: reported.exit_status,
        offending_line: reported.offending_line.map(|l| cut_line(l.as_bytes())),
        stderr_tail: reported.stderr,
    };
    Some(Failure::Reported(
        format!("the calling process reports: {}", reported.reason),
        Box::new(fault),
    ))
}

impl<R: BufRead, W: Write> Framing for Caller<R, W> {
    fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
        self.wrap_answer(request).map(WrapAnswer::into_text)
    }

    fn wrap_answer(&mut self, request: &WrapRequest) -> Result<WrapAnswer, TargetError> {
        let line = encode_wrap(self.next_id, request);
        self.call(Op::Wrap, line)?.into_wrap_answer()
    }

    fn read(&mut self, text: &str) -> Result<Option<String>, TargetError> {
        self.read_answer(text).map(ReadAnswer::into_body)
    }

    fn read_answer(&mut self, text: &str) -> Result<ReadAnswer, TargetError> {
        let line = encode_read(self.next_id, text);
        match self.call(Op::Read, line)? {
            Reply::Body(Some(body)) => Ok(ReadAnswer::Body(body)),
            Reply::Body(None) => Ok(ReadAnswer::Rejected),
            Reply::Segments(segments) => Ok(ReadAnswer::Segments(segments)),
            Reply::Refused(reason) => Err(TargetError::Refused(reason)),
            Reply::Framed(_) | Reply::Parts(_) => {
                Err(TargetError::failed("internal error: wrap reply to a read"))
            }
        }
    }

    fn wrap_many(&mut self, items: &[WrapRequest]) -> Result<String, TargetError> {
        self.wrap_many_answer(items).map(WrapAnswer::into_text)
    }

    fn wrap_many_answer(&mut self, items: &[WrapRequest]) -> Result<WrapAnswer, TargetError> {
        let line = encode_wrap_many(self.next_id, items, false);
        self.call(Op::WrapMany, line)?.into_wrap_answer()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_caller_that_goes_away_fails_that_request_and_every_later_one() {
        let replies = b"{\"id\": 1, \"error\": \"too long\"}\n" as &[u8];
        let mut requests = Vec::new();
        let mut caller = Caller::new(replies, &mut requests);
        let request = WrapRequest::default();
        assert_eq!(
            caller.wrap(&request),
            Err(TargetError::Refused("too long".into()))
        );
        let Err(TargetError::Failed { reason, .. }) = caller.wrap(&request) else {
            panic!("expected a failure");
        };
        assert!(reason.contains("closed its end"), "{reason}");
        let Err(TargetError::Failed { reason, .. }) = caller.read("x") else {
            panic!("expected a failure");
        };
        assert!(reason.starts_with("not sent"), "{reason}");
        drop(caller);
        // The third request was never written.
        assert_eq!(String::from_utf8(requests).unwrap().lines().count(), 2);
    }

    #[test]
    fn a_reply_for_another_request_is_a_protocol_violation() {
        let replies = b"{\"id\": 5, \"body\": null}\n" as &[u8];
        let mut caller = Caller::new(replies, Vec::new());
        let Err(TargetError::Failed { reason, .. }) = caller.read("x") else {
            panic!("expected a failure");
        };
        assert!(reason.starts_with("protocol violation"), "{reason}");
    }

    #[test]
    fn a_reply_cut_off_by_end_of_file_is_not_accepted() {
        let replies = b"{\"id\": 1, \"body\": null}" as &[u8];
        let mut caller = Caller::new(replies, Vec::new());
        let Err(TargetError::Failed { reason, .. }) = caller.read("x") else {
            panic!("expected a failure");
        };
        assert!(reason.contains("middle of a reply"), "{reason}");
    }

    #[test]
    fn a_line_that_is_no_reply_fails_that_request_alone() {
        let replies = b"adapter ready\n{\"id\": 2, \"body\": null}\n" as &[u8];
        let mut caller = Caller::new(replies, Vec::new());
        let error = caller.read("x").unwrap_err();
        let fault = error.as_fault().expect("a fault");
        assert_eq!(fault.kind, FaultKind::ProtocolViolation);
        assert_eq!(fault.offending_line.as_deref(), Some("adapter ready"));
        assert!(
            error.to_string().starts_with("protocol violation"),
            "{error}"
        );
        // The channel is still in step: the next request is answered.
        assert_eq!(caller.read("y"), Ok(None));
    }

    #[test]
    fn a_fault_reply_is_the_framing_failing_on_that_input() {
        let replies = concat!(
            r#"{"id": 1, "fault": {"kind": "crash", "reason": "wrap raised ValueError: NUL", "#,
            r#""exit_status": "exit status: 3", "stderr": "Traceback\nValueError: NUL\n"}}"#,
            "\n",
            r#"{"id": 2, "framed": "ok"}"#,
            "\n"
        );
        let mut caller = Caller::new(replies.as_bytes(), Vec::new());
        let error = caller.wrap(&WrapRequest::default()).unwrap_err();
        let fault = error.as_fault().expect("a fault");
        assert_eq!(fault.kind, FaultKind::Crash);
        assert_eq!(fault.exit_status.as_deref(), Some("exit status: 3"));
        assert_eq!(fault.stderr_tail, "Traceback\nValueError: NUL\n");
        assert!(
            error.to_string().contains("wrap raised ValueError"),
            "{error}"
        );
        assert_eq!(caller.wrap(&WrapRequest::default()), Ok("ok".into()));
    }

    #[test]
    fn a_caller_that_dies_mid_request_is_a_crash() {
        let mut caller = Caller::new(b"" as &[u8], Vec::new());
        let error = caller.wrap(&WrapRequest::default()).unwrap_err();
        assert_eq!(error.as_fault().map(|f| f.kind), Some(FaultKind::Crash));
    }
}
