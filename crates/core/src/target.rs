//! The target under test, as every stage sees it: the [`Framing`] trait,
//! the [`WrapRequest`] it is given, and how it can fail ([`TargetError`],
//! [`Fault`]).
//!
//! These types sit one floor below the catalogue, the layout learner, the
//! oracle and the reports, which all speak of requests and faults; the
//! adapters that implement [`Framing`] (in-process callers, subprocesses, the
//! reference envelope) live in the crates above. A Rust project implements
//! [`Framing`] for its own framing and hands it to the runner.

use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;
use std::time::Duration;

use serde::{Deserialize, Serialize};

pub use fault::{Fault, FaultKind};

pub mod fault;

/// One segment of a structured read-back: a reader that parses a frame into
/// messages or fields (a chat-history parser, a handoff summary read again)
/// answers `read` with these instead of one body (`reader.returns:
/// segments`). `field` is `None` for a message without a named field.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Segment {
    /// The role the reader gave the segment (`system`, `user`, `tool`…).
    pub role: String,
    /// The field or section name, when the reader has one.
    #[serde(default)]
    pub field: Option<String>,
    /// The segment's text, as the reader returned it.
    pub text: String,
}

/// What a reader answered for one text ([`Framing::read_answer`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadAnswer {
    /// Not exactly one valid frame.
    Rejected,
    /// One body.
    Body(String),
    /// The text parsed into segments.
    Segments(Vec<Segment>),
}

impl ReadAnswer {
    /// The answer as one body, for callers that judge bodies: segments are
    /// joined with a line break (their structure is judged by
    /// `reader.structure`, never from this text).
    pub fn into_body(self) -> Option<String> {
        match self {
            ReadAnswer::Rejected => None,
            ReadAnswer::Body(body) => Some(body),
            ReadAnswer::Segments(segments) => Some(
                segments
                    .iter()
                    .map(|s| s.text.as_str())
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
        }
    }
}

/// One part of a wrap's answer, for a framing that returns a list of
/// messages instead of one text (`wrap.returns: parts`): a constant
/// instruction message, then the message holding the framed content, say.
/// `role` is `None` for a part without one (an MCP tool result's text
/// items).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    /// The role the framing gave the part (`system`, `user`…), if any.
    #[serde(default)]
    pub role: Option<String>,
    /// The part's text, as the framing wrote it.
    pub text: String,
}

/// What a framing answered for one wrap ([`Framing::wrap_answer`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WrapAnswer {
    /// One framed text.
    Text(String),
    /// A list of parts.
    Parts(Vec<Part>),
}

impl WrapAnswer {
    /// The answer as one text, for callers that judge texts: parts are
    /// joined with a line break (their structure is judged by
    /// `parts.structure`, never from this text).
    pub fn into_text(self) -> String {
        match self {
            WrapAnswer::Text(text) => text,
            WrapAnswer::Parts(parts) => join_parts(&parts),
        }
    }
}

/// Parts' texts joined with a line break: what a caller that takes one
/// text sees of them.
pub fn join_parts(parts: &[Part]) -> String {
    parts
        .iter()
        .map(|p| p.text.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// One wrap request: everything a framing is given for one piece of content.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WrapRequest {
    /// The untrusted content.
    pub content: String,
    /// What produced the content (`tool-result`, `retrieval`, `peer-agent`).
    pub kind: String,
    /// Attributes for the opening tag (source name, title, section…).
    pub attributes: BTreeMap<String, String>,
    /// One line on where the content came from.
    pub provenance: String,
}

impl WrapRequest {
    /// Bytes of untrusted input the request carries, in every field: what
    /// "smallest case" and "output longer than its input" measure.
    pub fn input_len(&self) -> usize {
        self.content.len()
            + self.kind.len()
            + self.provenance.len()
            + self
                .attributes
                .iter()
                .map(|(k, v)| k.len() + v.len())
                .sum::<usize>()
    }
}

/// Why a framing did not produce an answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TargetError {
    /// The framing rejected the input on purpose (a typed error, an `error`
    /// reply). The catalogue decides whether refusing is acceptable.
    #[error("refused: {0}")]
    Refused(String),
    /// The target's store refused the content before any framing saw it:
    /// a setup command failed on it (`git commit` on a NUL byte), a write
    /// tool answered an error. Nothing about the framing is shown, so the
    /// case is not judged; not a fault of the target, and no restart.
    #[error("the store refused this content: {0}")]
    Unplanted(String),
    /// The framing failed: it crashed, hung, or answered outside the protocol.
    #[error("{reason}")]
    Failed {
        /// What went wrong.
        reason: String,
        /// The last lines the target wrote to stderr, if any.
        stderr_tail: String,
        /// Set when the target itself crashed, hung or broke the protocol
        /// on this request (so the input may be to blame); `None` for a
        /// request that never reached a target (it could not start, or was
        /// given up).
        fault: Option<Box<Fault>>,
    },
}

impl TargetError {
    /// A failure with no stderr to show.
    pub fn failed(reason: impl Into<String>) -> TargetError {
        TargetError::Failed {
            reason: reason.into(),
            stderr_tail: String::new(),
            fault: None,
        }
    }

    /// A failure the target itself caused (see [`Fault`]).
    pub fn fault(reason: impl Into<String>, fault: Fault) -> TargetError {
        TargetError::Failed {
            reason: reason.into(),
            stderr_tail: fault.stderr_tail.clone(),
            fault: Some(Box::new(fault)),
        }
    }

    /// The reason, then what the target left behind, one fact a line: its
    /// exit status, the first line that broke the protocol and the end of
    /// its stderr (a traceback), for a terminal.
    pub fn diagnosis(&self) -> String {
        match self {
            TargetError::Refused(reason) => format!("refused: {reason}"),
            TargetError::Unplanted(_) => self.to_string(),
            TargetError::Failed {
                reason,
                fault: Some(fault),
                ..
            } => format!("{reason}\n{}", fault.describe("  ", 12).trim_end()),
            TargetError::Failed {
                reason,
                stderr_tail,
                fault: None,
            } => {
                let stderr = Fault {
                    stderr_tail: stderr_tail.clone(),
                    ..Fault::new(FaultKind::Crash)
                };
                format!("{reason}\n{}", stderr.describe("  ", 12))
                    .trim_end()
                    .to_string()
            }
        }
    }

    /// The fault, when the target itself failed.
    pub fn as_fault(&self) -> Option<&Fault> {
        match self {
            TargetError::Failed { fault, .. } => fault.as_deref(),
            TargetError::Refused(_) | TargetError::Unplanted(_) => None,
        }
    }
}

/// How long a target's requests may take (issue 57: a finding is reported
/// only if it replays). A request that times out may be the machine's
/// doing, not the input's: under load a correct framing misses its
/// timeout. So a request that failed is tried once more, on a fresh
/// target, with its timeout (a subprocess request's, an MCP tool call's or
/// setup command's, an MCP server's `initialize` handshake's `startup_ms`)
/// stretched to [`Patience::budget`]; only a timeout that happens again
/// under that budget is a hang. This is the one place the budget is set.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Patience {
    /// The profile's own timeouts: every first attempt.
    #[default]
    Plain,
    /// The replay budget: a request tried again after it failed.
    Replay,
}

impl Patience {
    /// How many times its own wait a replayed request gets.
    pub const REPLAY_FACTOR: u32 = 4;

    /// The most a replay adds to a wait, so that a long timeout (an MCP
    /// tool's 20 s) does not make a true hang cost minutes per case.
    pub const REPLAY_MAX_EXTRA: Duration = Duration::from_secs(60);

    /// The wait a request gets whose own wait is `wait`: `wait` itself,
    /// or on a replay [`Patience::REPLAY_FACTOR`] times it, at most
    /// [`Patience::REPLAY_MAX_EXTRA`] more.
    pub fn budget(self, wait: Duration) -> Duration {
        match self {
            Patience::Plain => wait,
            Patience::Replay => (wait * Self::REPLAY_FACTOR).min(wait + Self::REPLAY_MAX_EXTRA),
        }
    }
}

/// A framing implementation under test.
pub trait Framing {
    /// Wraps content; `Ok` holds the complete framed text.
    fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError>;

    /// Wraps content as the framing answers it: a framing that returns a
    /// list of messages overrides this and answers [`WrapAnswer::Parts`]
    /// (profiles declaring `wrap.returns: parts`), with [`Framing::wrap`]
    /// answering their joined text ([`WrapAnswer::into_text`]). The default
    /// is [`Framing::wrap`]'s text.
    fn wrap_answer(&mut self, request: &WrapRequest) -> Result<WrapAnswer, TargetError> {
        self.wrap(request).map(WrapAnswer::Text)
    }

    /// Reads a framed text back: `Ok(Some(body))` for exactly one valid frame,
    /// `Ok(None)` for anything else. Targets without a reader never get here:
    /// their read cases are skipped.
    fn read(&mut self, text: &str) -> Result<Option<String>, TargetError>;

    /// Reads a framed text back as the reader structures it: a reader that
    /// parses frames into messages or fields overrides this and answers
    /// [`ReadAnswer::Segments`] (profiles declaring `reader.returns:
    /// segments`). The default is [`Framing::read`]'s answer.
    fn read_answer(&mut self, text: &str) -> Result<ReadAnswer, TargetError> {
        Ok(match self.read(text)? {
            Some(body) => ReadAnswer::Body(body),
            None => ReadAnswer::Rejected,
        })
    }

    /// Wraps several items in one output, one frame each, in order
    /// (profiles declaring `frame.count: several`; protocol op `wrap-many`).
    /// The default says the framing does not: only a framing that writes a
    /// list of sources per call implements it.
    fn wrap_many(&mut self, items: &[WrapRequest]) -> Result<String, TargetError> {
        let _ = items;
        Err(TargetError::failed(WRAP_MANY_UNSUPPORTED))
    }

    /// Wraps several items as the framing answers them: a framing that
    /// answers a list of messages overrides this and answers
    /// [`WrapAnswer::Parts`] (profiles declaring both `frame.count:
    /// several` and `wrap.returns: parts`), with [`Framing::wrap_many`]
    /// answering their joined text. The default is
    /// [`Framing::wrap_many`]'s text.
    fn wrap_many_answer(&mut self, items: &[WrapRequest]) -> Result<WrapAnswer, TargetError> {
        self.wrap_many(items).map(WrapAnswer::Text)
    }

    /// Starts afresh after a failure: a subprocess target kills its child
    /// (the next request starts a new one) and forgets its failures in a
    /// row, because the caller now decides when to give up. The runner calls
    /// it before retrying a faulted case. In-process framings have nothing
    /// to restart.
    fn restart(&mut self) {}

    /// Sets how long the next requests may take ([`Patience`]): the runner
    /// sets [`Patience::Replay`] for the requests that replay a failure,
    /// and [`Patience::Plain`] after them. Framings without timeouts (in
    /// process, the calling process) ignore it.
    fn set_patience(&mut self, patience: Patience) {
        let _ = patience;
    }

    /// Who answered, when the target says so itself: an MCP server's
    /// `initialize` answer. The report's manifest records it.
    fn server(&self) -> Option<ServerIdentity> {
        None
    }
}

/// What a server said it is when the connection opened (MCP's
/// `initialize` answer).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerIdentity {
    /// The server's name.
    pub name: String,
    /// The server's version.
    pub version: String,
    /// The protocol version the two sides agreed on.
    pub protocol_version: String,
}

/// The reason [`Framing::wrap_many`] gives by default.
pub const WRAP_MANY_UNSUPPORTED: &str =
    "this framing does not frame several items per call (wrap-many is not implemented)";

/// A boxed or borrowed framing is the framing it points to: every method
/// forwards, so a new method is forwarded in one place.
macro_rules! forward_framing {
    ($($pointer:ty),*) => {$(
        impl<F: Framing + ?Sized> Framing for $pointer {
            fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
                (**self).wrap(request)
            }
            fn wrap_answer(&mut self, request: &WrapRequest) -> Result<WrapAnswer, TargetError> {
                (**self).wrap_answer(request)
            }
            fn read(&mut self, text: &str) -> Result<Option<String>, TargetError> {
                (**self).read(text)
            }
            fn read_answer(&mut self, text: &str) -> Result<ReadAnswer, TargetError> {
                (**self).read_answer(text)
            }
            fn wrap_many(&mut self, items: &[WrapRequest]) -> Result<String, TargetError> {
                (**self).wrap_many(items)
            }
            fn wrap_many_answer(
                &mut self,
                items: &[WrapRequest],
            ) -> Result<WrapAnswer, TargetError> {
                (**self).wrap_many_answer(items)
            }
            fn restart(&mut self) {
                (**self).restart()
            }
            fn set_patience(&mut self, patience: Patience) {
                (**self).set_patience(patience)
            }
            fn server(&self) -> Option<ServerIdentity> {
                (**self).server()
            }
        }
    )*};
}

forward_framing!(Box<F>, &mut F);

/// Calls into the target, turning a panic into a failure of this call only.
pub fn guarded<T>(call: impl FnOnce() -> Result<T, TargetError>) -> Result<T, TargetError> {
    match std::panic::catch_unwind(AssertUnwindSafe(call)) {
        Ok(result) => result,
        Err(panic) => {
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "non-string panic payload".to_string());
            // A panic is the framing's own crash, on this input or not: the
            // runner retries it like a subprocess's death.
            Err(TargetError::fault(
                format!("target panicked: {message}"),
                Fault::new(FaultKind::Crash),
            ))
        }
    }
}
