//! The calling process as the target: framecheck writes protocol requests to
//! a writer (its own stdout) and reads the replies from a reader (its own
//! stdin), so a test can audit a function in the test's own process.
//!
//! This is the subprocess protocol of `docs/protocol.md` turned around: the
//! program that started `framecheck run --serve-stdio` answers the requests
//! (the Python package `prompt_framecheck` and the Node module do), and framecheck's reports
//! and summary go to files and stderr, never to stdout.
//!
//! framecheck cannot kill or restart its parent, so what a subprocess target
//! gets on a fault is different here: when the caller stops answering (its
//! end closed, a reply that is not a protocol line), that request fails and
//! every later one fails at once, and the run ends as a harness error. There
//! is no timeout: a caller that hangs is the caller's test runner's to stop.
//!
//! ```
//! use framecheck::adapter::caller::Caller;
//! use framecheck::adapter::{Framing, WrapRequest};
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

use super::subprocess::protocol::{
    decode_reply, encode_read, encode_wrap, encode_wrap_many, Op, Reply,
};
use super::{Framing, TargetError, WrapRequest};

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
            Err(reason) => {
                self.gone = Some(format!("the calling process stopped serving ({reason})"));
                Err(TargetError::failed(reason))
            }
        }
    }

    /// Writes `line` (newline included) and reads the reply to request `id`.
    fn exchange(&mut self, line: String, id: u64, op: Op) -> Result<Reply, String> {
        self.requests
            .write_all(line.as_bytes())
            .and_then(|()| self.requests.flush())
            .map_err(|e| format!("writing the request failed: {e}"))?;
        let mut reply = Vec::new();
        let read = (&mut self.replies)
            .take(MAX_REPLY_BYTES + 1)
            .read_until(b'\n', &mut reply)
            .map_err(|e| format!("reading the reply failed: {e}"))?;
        if read == 0 {
            return Err("the calling process closed its end without replying".into());
        }
        if reply.last() != Some(&b'\n') {
            return Err(if reply.len() as u64 > MAX_REPLY_BYTES {
                format!("reply longer than {MAX_REPLY_BYTES} bytes")
            } else {
                "the calling process closed its end in the middle of a reply".into()
            });
        }
        reply.pop();
        decode_reply(&reply, id, op).map_err(|e| format!("protocol violation: {e}"))
    }
}

impl<R: BufRead, W: Write> Framing for Caller<R, W> {
    fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
        let line = encode_wrap(self.next_id, request);
        match self.call(Op::Wrap, line)? {
            Reply::Framed(framed) => Ok(framed),
            Reply::Refused(reason) => Err(TargetError::Refused(reason)),
            Reply::Body(_) => Err(TargetError::failed("internal error: read reply to a wrap")),
        }
    }

    fn read(&mut self, text: &str) -> Result<Option<String>, TargetError> {
        let line = encode_read(self.next_id, text);
        match self.call(Op::Read, line)? {
            Reply::Body(body) => Ok(body),
            Reply::Refused(reason) => Err(TargetError::Refused(reason)),
            Reply::Framed(_) => Err(TargetError::failed("internal error: wrap reply to a read")),
        }
    }

    fn wrap_many(&mut self, items: &[WrapRequest]) -> Result<String, TargetError> {
        let line = encode_wrap_many(self.next_id, items, false);
        match self.call(Op::WrapMany, line)? {
            Reply::Framed(framed) => Ok(framed),
            Reply::Refused(reason) => Err(TargetError::Refused(reason)),
            Reply::Body(_) => Err(TargetError::failed(
                "internal error: read reply to a wrap-many",
            )),
        }
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
}
