//! The commands an MCP target runs beside its server: `prepare` (once per
//! fresh work directory, before the server starts there) and `setup` (the
//! `plant: command` store, before each read, with the content in a file,
//! on stdin or as an argument).
//!
//! Each runs like every target process (its own process group, the
//! parent-death signal, killed by `stop_all_children` on a signal and when
//! dropped), within a timeout past which its whole group is killed. Its
//! stdout is drained and dropped, and its stdin written from a thread of
//! its own, so a command that neither reads nor writes cannot stall the
//! harness.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::ExitStatus;
use std::time::{Duration, Instant};

use super::super::subprocess::{resolve_program, GroupProcess, Launch};

/// Bytes of a command's stderr kept for the error.
const STDERR_TAIL_BYTES: usize = 4 * 1024;
/// How long a finished command's last stderr bytes are waited for.
const STDERR_SETTLE: Duration = Duration::from_millis(100);
/// How often a running command is checked for having exited.
const EXIT_POLL: Duration = Duration::from_millis(5);

/// One command to run to its end.
pub(super) struct Command<'a> {
    /// Program and arguments, placeholders already filled.
    pub argv: &'a [String],
    /// Where it runs.
    pub cwd: &'a Path,
    /// Extra environment variables.
    pub env: &'a BTreeMap<String, String>,
    /// Written to its stdin, which is then closed; `None` closes it at once.
    pub stdin: Option<&'a [u8]>,
    /// How long it may run.
    pub timeout: Duration,
}

/// Why a command did not succeed.
#[derive(Debug, thiserror::Error)]
pub(super) enum CommandError {
    /// It could not be started.
    #[error("cannot start `{command}` in {cwd}: {reason}")]
    Start {
        /// The command line.
        command: String,
        /// Its working directory.
        cwd: String,
        /// Why.
        reason: String,
    },
    /// It exited unsuccessfully.
    #[error("`{command}` failed ({status})")]
    Failed {
        /// The command line.
        command: String,
        /// How it ended.
        status: ExitStatus,
        /// The end of its stderr.
        stderr_tail: String,
    },
    /// It was still running at its timeout, and was killed.
    #[error("`{command}` did not finish within {timeout:?} and was killed")]
    TimedOut {
        /// The command line.
        command: String,
        /// The timeout.
        timeout: Duration,
        /// The end of its stderr.
        stderr_tail: String,
    },
}

impl CommandError {
    /// The end of the command's stderr, when it ran.
    pub(super) fn stderr_tail(&self) -> &str {
        match self {
            CommandError::Start { .. } => "",
            CommandError::Failed { stderr_tail, .. }
            | CommandError::TimedOut { stderr_tail, .. } => stderr_tail,
        }
    }
}

/// Runs `command` to its end, or kills it at its timeout.
pub(super) fn run(command: &Command<'_>) -> Result<(), CommandError> {
    let line = command.argv.join(" ");
    let start_error = |reason: String| CommandError::Start {
        command: line.clone(),
        cwd: command.cwd.display().to_string(),
        reason,
    };
    let (first, args) = command
        .argv
        .split_first()
        .ok_or_else(|| start_error("no program".into()))?;
    let program = resolve_program(first, command.cwd).map_err(|e| start_error(e.to_string()))?;
    let launch = Launch {
        program: &program,
        args,
        cwd: command.cwd,
        env: command.env,
        max_reply_bytes: 0,
        stderr_tail_bytes: STDERR_TAIL_BYTES,
    };
    let (mut process, (stdin, stdout)) =
        GroupProcess::spawn(&launch).map_err(|e| start_error(e.to_string()))?;
    let input = command.stdin.map(<[u8]>::to_vec).unwrap_or_default();
    // Threads of their own: a command that never reads its stdin, or
    // writes more than a pipe holds, would otherwise block the harness.
    // Both end when the process group is gone and the pipes close.
    let writer = std::thread::spawn(move || {
        let mut stdin = stdin;
        let _ = stdin.write_all(&input);
    });
    let reader = std::thread::spawn(move || {
        let mut stdout = stdout;
        let _ = std::io::copy(&mut stdout, &mut std::io::sink());
    });
    let deadline = Instant::now() + command.timeout;
    let status = loop {
        if let Some(status) = process.exited() {
            break Some(status);
        }
        if Instant::now() >= deadline {
            process.terminate();
            break None;
        }
        std::thread::sleep(EXIT_POLL);
    };
    let stderr_tail = process.stderr_tail(STDERR_SETTLE);
    drop(process);
    let _ = writer.join();
    let _ = reader.join();
    match status {
        Some(status) if status.success() => Ok(()),
        Some(status) => Err(CommandError::Failed {
            command: line,
            status,
            stderr_tail,
        }),
        None => Err(CommandError::TimedOut {
            command: line,
            timeout: command.timeout,
            stderr_tail,
        }),
    }
}
