//! How a target failed on one request, when the failure is the target's own
//! doing: it crashed, hung or answered outside the protocol.
//!
//! A [`Fault`] rides on [`super::TargetError::Failed`] so the runner can tell
//! a target that broke on an input (retried once, then reported as a
//! `target.fault` finding of that input) from a harness problem (a program
//! that cannot start, a request not sent), which is never retried and never
//! becomes a finding.

use std::fmt;

use serde::{Deserialize, Serialize};

/// What the target did instead of answering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FaultKind {
    /// It exited, died by a signal or panicked before answering.
    Crash,
    /// It gave no complete answer within its timeout.
    Hang,
    /// It wrote a line that is not a reply to the request (not JSON, wrong
    /// id, a missing field, an overlong line…).
    ProtocolViolation,
}

impl FaultKind {
    /// Every kind, in report order.
    pub const ALL: [FaultKind; 3] = [
        FaultKind::Crash,
        FaultKind::Hang,
        FaultKind::ProtocolViolation,
    ];

    /// The kind in words, plural unless `count` is one ("2 crashes").
    pub fn plural_if(self, count: usize) -> &'static str {
        match (self, count == 1) {
            (FaultKind::Crash, true) => "crash",
            (FaultKind::Crash, false) => "crashes",
            (FaultKind::Hang, true) => "hang",
            (FaultKind::Hang, false) => "hangs",
            (FaultKind::ProtocolViolation, true) => "protocol violation",
            (FaultKind::ProtocolViolation, false) => "protocol violations",
        }
    }

    /// The stable name, as serialized.
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Crash => "crash",
            FaultKind::Hang => "hang",
            FaultKind::ProtocolViolation => "protocol-violation",
        }
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The longest offending line kept, in bytes: enough to recognise a stray
/// `print`, short enough for a terminal.
pub const OFFENDING_LINE_BYTES: usize = 200;

/// A target's failure on one request, with what it left behind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fault {
    /// Crash, hang or protocol violation.
    pub kind: FaultKind,
    /// How the process ended, when it ended on its own (`exit status: 3`,
    /// `signal: 11 (SIGSEGV)`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_status: Option<String>,
    /// The first line that broke the protocol, cut to
    /// [`OFFENDING_LINE_BYTES`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offending_line: Option<String>,
    /// The last lines the target wrote to stderr (its traceback, usually).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub stderr_tail: String,
}

impl Fault {
    /// A fault of `kind` with nothing else known yet.
    pub fn new(kind: FaultKind) -> Fault {
        Fault {
            kind,
            exit_status: None,
            offending_line: None,
            stderr_tail: String::new(),
        }
    }

    /// The fault's facts as indented lines for a terminal or a Markdown code
    /// block: exit status, offending line, then the stderr tail's last
    /// `max_stderr_lines` lines.
    pub fn describe(&self, indent: &str, max_stderr_lines: usize) -> String {
        let mut text = String::new();
        if let Some(status) = &self.exit_status {
            text.push_str(&format!("{indent}exit: {status}\n"));
        }
        if let Some(line) = &self.offending_line {
            text.push_str(&format!("{indent}first offending stdout line: {line:?}\n"));
        }
        let lines: Vec<&str> = self.stderr_tail.trim_end().lines().collect();
        if !lines.is_empty() {
            let from = lines.len().saturating_sub(max_stderr_lines);
            text.push_str(&format!(
                "{indent}stderr (last {} lines):\n",
                lines.len() - from
            ));
            for line in &lines[from..] {
                text.push_str(&format!("{indent}  {line}\n"));
            }
        }
        text
    }
}

/// `bytes` as text cut to [`OFFENDING_LINE_BYTES`] on a character boundary,
/// with invalid UTF-8 replaced, and `…` when something was cut.
pub fn cut_line(bytes: &[u8]) -> String {
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    let text = String::from_utf8_lossy(bytes);
    if text.len() <= OFFENDING_LINE_BYTES {
        return text.into_owned();
    }
    let mut end = OFFENDING_LINE_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_names_are_the_serialized_names() {
        for kind in FaultKind::ALL {
            let value = serde_json::to_value(kind).unwrap();
            assert_eq!(value.as_str(), Some(kind.name()));
        }
    }

    #[test]
    fn a_long_line_is_cut_on_a_character_boundary() {
        let line = "é".repeat(150);
        let cut = cut_line(line.as_bytes());
        assert!(cut.ends_with('…'));
        assert_eq!(cut.len(), OFFENDING_LINE_BYTES + '…'.len_utf8());
        assert_eq!(cut_line(b"adapter ready\r"), "adapter ready");
        assert_eq!(cut_line(b"\xffok"), "\u{fffd}ok");
    }

    #[test]
    fn describe_shows_the_status_the_line_and_the_stderr_tail_end() {
        let fault = Fault {
            kind: FaultKind::Crash,
            exit_status: Some("exit status: 1".into()),
            offending_line: Some("adapter ready".into()),
            stderr_tail: "a\nb\nc\n".into(),
        };
        assert_eq!(
            fault.describe("  ", 2),
            "  exit: exit status: 1\n  first offending stdout line: \"adapter ready\"\n  \
             stderr (last 2 lines):\n    b\n    c\n"
        );
    }
}
