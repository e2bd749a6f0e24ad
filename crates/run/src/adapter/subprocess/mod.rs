//! Subprocess targets speaking the JSON-lines protocol.
//!
//! A framing written in any language becomes a target by reading requests on
//! stdin and writing replies on stdout, one JSON object per line
//! (`docs/protocol.md`). [`SubprocessFraming`] drives such a child; [`serve`]
//! is the same protocol from the target's side, for Rust framings.
//!
//! A misbehaving child never stops a run. Whatever it does (exits, crashes,
//! hangs, answers out of turn, writes garbage or gigabytes), the request it
//! was answering fails with [`TargetError::Failed`], the child's process
//! group is killed and reaped, and the next request starts a fresh child.
//!
//! ```no_run
//! use std::path::Path;
//! use framecheck_run::adapter::{Framing, WrapRequest};
//! use framecheck_run::adapter::subprocess::SubprocessFraming;
//! use framecheck_launch::profile::TargetProfile;
//!
//! let loaded = TargetProfile::load(Path::new("targets/seed-a2a-markers.yaml")).unwrap();
//! let mut target = SubprocessFraming::from_profile(&loaded).expect("a subprocess profile");
//! let framed = target.wrap(&WrapRequest { content: "hello".into(), ..Default::default() });
//! println!("{framed:?}");
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::adapter::fault::cut_line;
use crate::adapter::reply::{Ending, Left};
use crate::adapter::starts::Starts;
use crate::adapter::{FaultKind, Framing, Patience, TargetError, WrapRequest};
use framecheck_core::target::{ReadAnswer, WrapAnswer};
use framecheck_launch::profile::{
    AdapterSpec, Capability, LoadedProfile, ProcessMode, SubprocessSpec,
};

pub mod bytes;
mod child;
pub mod helpers;
#[cfg(windows)]
mod job;
pub mod protocol;
mod serve;

pub(crate) use child::{has_exited, GroupProcess, Launch, ProcessPipes};
pub use child::{kill_all_children, stop_all_children};
pub use serve::{decode_request, serve, BadRequest, Request};

use child::{Child, Wait};
use protocol::{
    decode_reply, encode_read, encode_wrap, encode_wrap_bytes, encode_wrap_many, Op, ProtocolError,
    Reply,
};

pub use crate::adapter::starts::MAX_SPAWN_FAILURES_IN_ROW;

/// Requests in a row that time out after which the target is abandoned:
/// further requests fail at once instead of each waiting out its timeout. A
/// target that hangs on everything would otherwise hold a run for hours; one
/// that hangs on a few inputs still answers the rest.
pub const MAX_TIMEOUTS_IN_ROW: u32 = 5;

/// Requests in a row on which the child died (closed stdout without
/// replying) after which the target is abandoned, as after timeouts. A target
/// that starts and then crashes on every request would otherwise be
/// restarted for every case; one that crashes on a few inputs still answers
/// the rest. Both limits count per operation (`wrap`, `read`, `wrap-many`):
/// readers in the field raise on a malformed frame, and the reader cases
/// come in a row, so one count for all would abandon the wraps too.
pub const MAX_CRASHES_IN_ROW: u32 = 5;

/// How much of a child's stderr is kept for reports.
pub const STDERR_TAIL_BYTES: usize = 4 * 1024;

/// How long a child that closed stdout gets to exit on its own, so the
/// report can say how it ended.
const EXIT_GRACE: Duration = Duration::from_millis(100);

/// How long to wait for the stderr drain to catch up before reporting a
/// failure.
const STDERR_SETTLE: Duration = Duration::from_millis(200);

/// Extra time, on top of the request timeout, for a request that has to
/// start its child first. Interpreters behind version-manager shims can take
/// seconds to start on a loaded machine; without an allowance such a target
/// would time out on every request, restarting forever.
pub const DEFAULT_STARTUP_ALLOWANCE: Duration = Duration::from_secs(10);

/// The program name that stands for framecheck's own executable.
pub const SELF_PROGRAM: &str = "framecheck";

/// Why a subprocess target cannot be started at all
/// ([`SubprocessFraming::check_launchable`]); each names the profile field
/// at fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LaunchError {
    /// `adapter.cwd` is not a directory.
    #[error("adapter.cwd: {} is not a directory", .0.display())]
    NoCwd(PathBuf),
    /// The program could not be resolved (framecheck's own executable,
    /// for `command: [framecheck, ...]`).
    #[error("adapter.command: {0}")]
    NoProgram(ProgramError),
    /// A program given as a path is not an executable file.
    #[error("adapter.command: {} is not an executable file", .0.display())]
    NotExecutable(PathBuf),
    /// A bare program name is found on no directory of `PATH`.
    #[error("adapter.command: program {0:?} is not on PATH")]
    NotOnPath(String),
    /// The script an interpreter is given does not exist.
    #[error("adapter.command: script {script:?} does not exist in {} (adapter.cwd)", .cwd.display())]
    NoScript {
        /// The script argument, as the command gives it.
        script: String,
        /// The working directory it is looked up in.
        cwd: PathBuf,
    },
}

/// Why a command names no program that can be resolved to a path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProgramError {
    /// The command has no word.
    #[error("the profile's command is empty")]
    Empty,
    /// `framecheck` names the running executable, which the system could
    /// not give: its message (an I/O error is neither `Clone` nor `Eq`,
    /// which a launch error is).
    #[error("cannot locate framecheck's own executable: {0}")]
    OwnExecutable(String),
}

/// A framing reached through a child process.
///
/// The child is started on the first request, not at construction; a
/// failure to start it is reported as the failure of that request. In
/// persistent mode the child is kept for the next request; in one-shot mode
/// each request gets its own process, which is killed once it has replied.
///
/// Each request's timeout covers writing the request and reading the reply;
/// a request that has to start the child first (every request in one-shot
/// mode) also gets the startup allowance ([`DEFAULT_STARTUP_ALLOWANCE`]
/// unless changed with [`SubprocessFraming::with_startup_allowance`]).
#[derive(Debug)]
pub struct SubprocessFraming {
    command: Vec<String>,
    program: Result<PathBuf, ProgramError>,
    cwd: PathBuf,
    env: BTreeMap<String, String>,
    timeout: Duration,
    startup_allowance: Duration,
    /// Whether the requests replay a failure, and wait longer.
    patience: Patience,
    mode: ProcessMode,
    max_reply_bytes: usize,
    child: Option<ChildSlot>,
    next_id: u64,
    starts: Starts,
    /// Failures in a row, per operation: a reader that dies on malformed
    /// frames must not take the wraps down with it.
    streaks: [Streak; 3],
    last_stderr_tail: String,
    /// Whether the target takes raw content bytes (`content_b64`).
    raw_bytes: bool,
    /// Replies the running child has given: a first line that is not JSON
    /// is diagnosed as a stray print on the protocol channel.
    replies_from_child: u64,
}

/// Wrapper so `SubprocessFraming` can derive `Debug` without exposing the
/// child's internals.
struct ChildSlot(Child);

impl std::fmt::Debug for ChildSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Child({})", self.0.id())
    }
}

impl SubprocessFraming {
    /// A target as `spec` describes it, for a profile loaded from
    /// `profile_dir`.
    ///
    /// `spec.cwd` resolves against `profile_dir` and defaults to it. A
    /// program path containing `/` resolves against that working directory; a
    /// bare name is looked up on `PATH`, except `framecheck` itself, which is
    /// the running executable ([`std::env::current_exe`]), so a profile can
    /// say `command: [framecheck, serve-reference]`.
    pub fn new(spec: &SubprocessSpec, profile_dir: &Path) -> SubprocessFraming {
        let profile_dir = absolute(profile_dir);
        let cwd = match &spec.cwd {
            Some(cwd) => profile_dir.join(cwd),
            None => profile_dir,
        };
        let program = match spec.command.first() {
            Some(program) => resolve_program(program, &cwd),
            None => Err(ProgramError::Empty),
        };
        SubprocessFraming {
            command: spec.command.clone(),
            program,
            cwd,
            env: spec.env.clone(),
            timeout: Duration::from_millis(spec.timeout_ms),
            startup_allowance: spec
                .startup_ms
                .map_or(DEFAULT_STARTUP_ALLOWANCE, Duration::from_millis),
            patience: Patience::Plain,
            mode: spec.mode,
            max_reply_bytes: spec.max_reply_bytes,
            child: None,
            next_id: 1,
            starts: Starts::default(),
            streaks: Default::default(),
            last_stderr_tail: String::new(),
            raw_bytes: false,
            replies_from_child: 0,
        }
    }

    /// Sends content that stands for raw bytes as `content_b64` (the
    /// `bytes` extension, for profiles declaring the `bytes` capability).
    pub fn with_raw_bytes(mut self, raw_bytes: bool) -> SubprocessFraming {
        self.raw_bytes = raw_bytes;
        self
    }

    /// Sets the extra time a request gets when it has to start the child.
    pub fn with_startup_allowance(mut self, allowance: Duration) -> SubprocessFraming {
        self.startup_allowance = allowance;
        self
    }

    /// The target of a loaded profile, or `None` when the profile names
    /// another kind of adapter.
    pub fn from_profile(loaded: &LoadedProfile) -> Option<SubprocessFraming> {
        let AdapterSpec::Subprocess(spec) = &loaded.profile.adapter else {
            return None;
        };
        Some(SubprocessFraming::of_spec(spec, loaded))
    }

    /// The target `spec`, the adapter of `loaded`, names: raw bytes when
    /// the profile says it takes them.
    fn of_spec(spec: &SubprocessSpec, loaded: &LoadedProfile) -> SubprocessFraming {
        SubprocessFraming::new(spec, &loaded.dir)
            .with_raw_bytes(loaded.profile.can(Capability::Bytes))
    }

    /// The command as the profile wrote it, for messages.
    pub fn command_line(&self) -> String {
        self.command.join(" ")
    }

    /// The working directory the child runs in.
    pub fn cwd(&self) -> &Path {
        &self.cwd
    }

    /// Checks that the target can be started at all: its working directory
    /// exists and its program is an executable file (a bare name is looked
    /// up on `PATH`, the child's own when the profile sets one). A run or a
    /// `validate` can then reject a misspelt command before any case.
    pub fn check_launchable(&self) -> Result<(), LaunchError> {
        if !self.cwd.is_dir() {
            return Err(LaunchError::NoCwd(self.cwd.clone()));
        }
        let program = self
            .program
            .as_ref()
            .map_err(|e| LaunchError::NoProgram(e.clone()))?;
        let found = if program.components().count() > 1 {
            is_executable(program).then(|| program.clone())
        } else {
            let path = self
                .env
                .get("PATH")
                .cloned()
                .or_else(|| std::env::var("PATH").ok())
                .unwrap_or_default();
            std::env::split_paths(&path)
                .map(|dir| self.cwd.join(dir).join(program))
                .find(|candidate| is_executable(candidate))
        };
        match found {
            Some(_) => self.check_script(),
            None if program.components().count() > 1 => {
                Err(LaunchError::NotExecutable(program.clone()))
            }
            None => Err(LaunchError::NotOnPath(program.display().to_string())),
        }
    }

    /// Checks the script an interpreter is given ([`script_argument`]),
    /// relative to the working directory. Anything else is left to the
    /// run, which reports what the process says: the check errs on the
    /// side of starting it.
    fn check_script(&self) -> Result<(), LaunchError> {
        match script_argument(&self.command) {
            Some(script) if !self.cwd.join(script).is_file() => Err(LaunchError::NoScript {
                script: script.to_string(),
                cwd: self.cwd.clone(),
            }),
            _ => Ok(()),
        }
    }

    /// The process id of the running child, if one is running.
    pub fn child_id(&self) -> Option<u32> {
        self.child.as_ref().map(|slot| slot.0.id())
    }

    /// The last bytes (at most [`STDERR_TAIL_BYTES`]) the current child wrote
    /// to stderr, or the previous child's when none is running.
    pub fn stderr_tail(&mut self) -> String {
        match &mut self.child {
            Some(slot) => slot.0.stderr_tail(Duration::ZERO),
            None => self.last_stderr_tail.clone(),
        }
    }

    /// Sends one request and waits for its reply, restarting or retiring the
    /// child as the outcome requires.
    fn call(&mut self, op: Op, line: impl FnOnce(u64) -> String) -> Result<Reply, TargetError> {
        if let Some(reason) = &self.streaks[slot(op)].abandoned {
            return Err(TargetError::failed(format!("not sent: {reason}")));
        }
        let id = self.next_id;
        self.next_id += 1;
        // The allowance is part of the wait only when this request starts
        // the child; the reason for a timeout states the whole wait. A
        // replay stretches the timeout, not the allowance, which is its
        // own generous budget already.
        let allowance = match self.child {
            None => self.startup_allowance,
            Some(_) => Duration::ZERO,
        };
        let (plain_timeout, patience) = (self.timeout, self.patience);
        let deadline = Instant::now() + patience.budget(plain_timeout) + allowance;
        let one_shot = self.mode == ProcessMode::OneShot;
        let cap = self.max_reply_bytes;

        let first_line = self.replies_from_child == 0;
        let child = self.running_child()?;
        child.send(line(id).into_bytes());
        if one_shot {
            child.close_stdin();
        }
        let outcome = match child.next_line(deadline) {
            Wait::Line(bytes) => {
                decode_reply(&bytes, id, op).map_err(|e| violation(&e, &bytes, first_line))
            }
            Wait::TooLong => Err(Ending::Broke {
                reason: format!("reply longer than max_reply_bytes ({cap} bytes)"),
                offending_line: None,
            }),
            Wait::Closed => {
                let ended = child.settle(EXIT_GRACE).map(|status| status.to_string());
                let shown = ended.as_deref().unwrap_or("exit status unknown");
                Err(Ending::Died {
                    reason: format!("target closed stdout without replying ({shown})"),
                    exit_status: ended,
                })
            }
            Wait::ReadError(e) => Err(Ending::Died {
                reason: format!("reading the target's stdout failed: {e}"),
                exit_status: None,
            }),
            Wait::TimedOut => Err(Ending::TimedOut(timeout_reason(
                plain_timeout,
                allowance,
                child.partial_bytes(),
                patience,
            ))),
        };
        match outcome {
            Ok(reply) => {
                self.streaks[slot(op)] = Streak::default();
                self.replies_from_child += 1;
                if one_shot {
                    // Dropping the child kills and reaps it.
                    self.child = None;
                    self.replies_from_child = 0;
                }
                Ok(reply)
            }
            Err(ending) => {
                self.count_failure(op, ending.fault_kind());
                // The child is killed here, so how it ended is only known
                // when it had closed stdout first (`Died`).
                let left = Left {
                    exit_status: None,
                    stderr_tail: self.retire_child(),
                };
                Err(ending.into_error(left))
            }
        }
    }

    /// Counts timeouts and crashes of `op` in a row, abandoning `op` when
    /// either reaches its limit.
    fn count_failure(&mut self, op: Op, kind: Option<FaultKind>) {
        let command = self.command_line();
        let streak = &mut self.streaks[slot(op)];
        let (count, limit, what) = match kind {
            Some(FaultKind::Hang) => {
                streak.timeouts += 1;
                (streak.timeouts, MAX_TIMEOUTS_IN_ROW, "timed out")
            }
            Some(FaultKind::Crash) => {
                streak.crashes += 1;
                (streak.crashes, MAX_CRASHES_IN_ROW, "died")
            }
            Some(FaultKind::ProtocolViolation) | None => return,
        };
        if count >= limit {
            streak.abandoned = Some(format!(
                "`{command}` {what} on {count} `{}` requests in a row and was abandoned for that \
                 operation (the others still run)",
                op.name(),
            ));
        }
    }

    /// The running child, started now if there is none.
    fn running_child(&mut self) -> Result<&mut Child, TargetError> {
        if self.child.is_none() {
            if let Some(refused) = self.starts.refusal(&self.command_line()) {
                return Err(refused);
            }
            let spawned = self.spawn().map_err(TargetError::failed);
            self.child = Some(ChildSlot(self.starts.record(spawned)?));
        }
        match &mut self.child {
            Some(slot) => Ok(&mut slot.0),
            None => Err(TargetError::failed("internal error: no child after start")),
        }
    }

    fn spawn(&self) -> Result<Child, String> {
        let cannot_start = |why: &dyn std::fmt::Display| {
            format!(
                "cannot start `{}` in {}: {why}",
                self.command_line(),
                self.cwd.display()
            )
        };
        let program = self.program.as_ref().map_err(|e| cannot_start(e))?;
        let launch = Launch {
            program,
            args: self.command.get(1..).unwrap_or_default(),
            cwd: &self.cwd,
            env: &self.env,
            max_reply_bytes: self.max_reply_bytes,
            stderr_tail_bytes: STDERR_TAIL_BYTES,
        };
        Child::spawn(&launch).map_err(|e| cannot_start(&e))
    }

    /// Kills and reaps the current child; returns its stderr tail.
    fn retire_child(&mut self) -> String {
        self.replies_from_child = 0;
        let Some(ChildSlot(mut child)) = self.child.take() else {
            return String::new();
        };
        child.terminate();
        let tail = child.stderr_tail(STDERR_SETTLE);
        self.last_stderr_tail.clone_from(&tail);
        tail
    }
}

/// Opening a subprocess target checks that its program can be started.
impl crate::adapter::Open for SubprocessSpec {
    fn open(
        &self,
        loaded: &LoadedProfile,
    ) -> Result<Box<dyn Framing>, crate::adapter::ConnectError> {
        let target = SubprocessFraming::of_spec(self, loaded);
        target
            .check_launchable()
            .map_err(|e| crate::adapter::ConnectError::cannot_start(loaded, e))?;
        Ok(Box::new(target))
    }
}

impl Framing for SubprocessFraming {
    fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
        self.wrap_answer(request).map(WrapAnswer::into_text)
    }

    fn wrap_answer(&mut self, request: &WrapRequest) -> Result<WrapAnswer, TargetError> {
        let raw_bytes = self.raw_bytes;
        let encode = |id| {
            if raw_bytes {
                encode_wrap_bytes(id, request)
            } else {
                encode_wrap(id, request)
            }
        };
        self.call(Op::Wrap, encode)?.into_wrap_answer()
    }

    fn read(&mut self, text: &str) -> Result<Option<String>, TargetError> {
        self.read_answer(text).map(ReadAnswer::into_body)
    }

    fn read_answer(&mut self, text: &str) -> Result<ReadAnswer, TargetError> {
        match self.call(Op::Read, |id| encode_read(id, text))? {
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
        let raw_bytes = self.raw_bytes;
        self.call(Op::WrapMany, |id| encode_wrap_many(id, items, raw_bytes))?
            .into_wrap_answer()
    }

    /// Retires the child and forgets every failure streak and abandoned
    /// operation: the runner, which calls this before retrying a faulted
    /// case, decides itself when the target is given up.
    fn restart(&mut self) {
        self.retire_child();
        self.streaks = Default::default();
    }

    fn set_patience(&mut self, patience: Patience) {
        self.patience = patience;
    }
}

/// One operation's failures in a row, and why it was given up, if it was.
#[derive(Debug, Default)]
struct Streak {
    timeouts: u32,
    crashes: u32,
    abandoned: Option<String>,
}

/// The index of `op`'s [`Streak`].
fn slot(op: Op) -> usize {
    match op {
        Op::Wrap => 0,
        Op::Read => 1,
        Op::WrapMany => 2,
    }
}

/// A reply line that broke the protocol, with the line itself (cut) kept as
/// evidence. A first line that is not JSON is almost always a stray `print`
/// (a banner, a log line) on stdout; the reason says so, because every
/// fresh child would write it again.
fn violation(error: &ProtocolError, line: &[u8], first_line: bool) -> Ending {
    let mut reason = format!("protocol violation: {error}");
    if first_line
        && matches!(
            error,
            ProtocolError::NotJson { .. } | ProtocolError::NotUtf8 { .. }
        )
    {
        reason.push_str(STDOUT_IS_THE_PROTOCOL);
    }
    Ending::Broke {
        reason,
        offending_line: Some(cut_line(line)),
    }
}

/// What a non-JSON first line means, added to its reason.
pub const STDOUT_IS_THE_PROTOCOL: &str = " (this was the first line the target wrote: stdout is \
     the protocol channel and carries reply lines only; write logs and banners to stderr, e.g. \
     print(..., file=sys.stderr) or console.error)";

/// Why a request timed out, stating the whole wait: the timeout as
/// `patience` stretched it, plus the startup allowance when the request had
/// to start the child.
fn timeout_reason(
    timeout: Duration,
    allowance: Duration,
    partial: usize,
    patience: Patience,
) -> String {
    let timeout = patience.budget(timeout);
    let waited = (timeout + allowance).as_millis();
    let mut reason = if partial > 0 {
        format!("no complete reply within {waited} ms ({partial} bytes of an unfinished line)")
    } else {
        format!("no reply within {waited} ms")
    };
    let label = match patience {
        Patience::Plain => "timeout_ms",
        Patience::Replay => "the replay budget",
    };
    if !allowance.is_zero() {
        reason.push_str(&format!(
            " ({label} {} plus {} ms to start the target)",
            timeout.as_millis(),
            allowance.as_millis()
        ));
    } else if patience == Patience::Replay {
        reason.push_str(" (the replay budget)");
    }
    reason
}

pub(crate) fn absolute(path: &Path) -> PathBuf {
    if path.is_absolute() {
        return path.to_path_buf();
    }
    match std::env::current_dir() {
        Ok(dir) => dir.join(path),
        Err(_) => path.to_path_buf(),
    }
}

/// True for a file someone may execute.
#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// True for a file someone may execute: Windows has no execute bit, so a
/// file (the name as given, or with an extension from `PATHEXT`) is enough.
#[cfg(windows)]
fn is_executable(path: &Path) -> bool {
    if path.is_file() {
        return true;
    }
    let extensions = std::env::var("PATHEXT").unwrap_or_else(|_| ".COM;.EXE;.BAT;.CMD".into());
    extensions
        .split(';')
        .filter(|e| !e.is_empty())
        .any(|extension| {
            let mut name = path.as_os_str().to_owned();
            name.push(extension);
            Path::new(&name).is_file()
        })
}

/// The script an interpreter is given in `command` (`python3 adapter.py`,
/// `node adapter.mjs`): the first argument after the program that is not
/// an option, when its name ends in a script's extension
/// ([`SCRIPT_EXTENSIONS`]). An option that takes the code itself (`-c`,
/// `-m`, `-e`) ends the search, and so does an argument with whitespace
/// (code after combined flags, `bash -lc 'python3 a.py'`): there is no
/// script file then.
pub(crate) fn script_argument(command: &[String]) -> Option<&str> {
    for argument in command.iter().skip(1) {
        if CODE_OPTIONS.contains(&argument.as_str()) || argument.contains(char::is_whitespace) {
            return None;
        }
        if argument.starts_with('-') {
            continue;
        }
        let is_script = Path::new(argument)
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| SCRIPT_EXTENSIONS.contains(&e));
        return is_script.then_some(argument.as_str());
    }
    None
}

/// File name extensions of the scripts an interpreter runs, for
/// [`script_argument`]: an argument ending in one of these names a file.
const SCRIPT_EXTENSIONS: [&str; 11] = [
    "py", "js", "mjs", "cjs", "ts", "mts", "rb", "pl", "php", "lua", "sh",
];

/// Interpreter options whose value is the code to run or a module name,
/// not a file: with one of these there is no script argument to check.
const CODE_OPTIONS: [&str; 6] = ["-c", "-m", "-e", "--eval", "-p", "--print"];

/// Where the program named first in a profile's command lives.
pub(crate) fn resolve_program(program: &str, cwd: &Path) -> Result<PathBuf, ProgramError> {
    if program == SELF_PROGRAM {
        return std::env::current_exe().map_err(|e| ProgramError::OwnExecutable(e.to_string()));
    }
    // Command's own handling of a relative path with a current_dir is
    // platform-specific, so resolve it here.
    if program.contains('/') || (cfg!(windows) && program.contains('\\')) {
        Ok(cwd.join(program))
    } else {
        Ok(PathBuf::from(program))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_can_move_between_threads() {
        fn assert_send<T: Send>() {}
        assert_send::<SubprocessFraming>();
    }

    #[test]
    fn a_timeout_states_the_whole_wait() {
        let second = Duration::from_secs(1);
        assert_eq!(
            timeout_reason(5 * second, 10 * second, 0, Patience::Plain),
            "no reply within 15000 ms (timeout_ms 5000 plus 10000 ms to start the target)"
        );
        assert_eq!(
            timeout_reason(5 * second, Duration::ZERO, 3, Patience::Plain),
            "no complete reply within 5000 ms (3 bytes of an unfinished line)"
        );
    }

    /// A replay waits the replay budget, and its reason says so: four
    /// times the timeout, at most a minute more; the start-up allowance is
    /// its own.
    #[test]
    fn a_replay_s_timeout_states_the_replay_budget() {
        let second = Duration::from_secs(1);
        assert_eq!(
            timeout_reason(5 * second, 30 * second, 0, Patience::Replay),
            "no reply within 50000 ms (the replay budget 20000 plus 30000 ms to start the \
             target)"
        );
        assert_eq!(
            timeout_reason(30 * second, Duration::ZERO, 0, Patience::Replay),
            "no reply within 90000 ms (the replay budget)"
        );
    }

    #[test]
    fn framecheck_resolves_to_the_running_executable() {
        let exe = std::env::current_exe().unwrap();
        assert_eq!(resolve_program("framecheck", Path::new("/x")), Ok(exe));
        assert_eq!(
            resolve_program("python3", Path::new("/x")),
            Ok(PathBuf::from("python3"))
        );
        assert_eq!(
            resolve_program("adapters/a.py", Path::new("/x/y")),
            Ok(PathBuf::from("/x/y/adapters/a.py"))
        );
        assert_eq!(
            resolve_program("/bin/sh", Path::new("/x")),
            Ok(PathBuf::from("/bin/sh"))
        );
    }

    /// The script of an interpreter's command line, and none where the
    /// command runs code it is given.
    #[test]
    fn the_script_argument_is_an_interpreter_s_file() {
        let script = |words: &[&str]| {
            let command: Vec<String> = words.iter().map(|w| w.to_string()).collect();
            script_argument(&command).map(str::to_string)
        };
        assert_eq!(
            script(&["python3", "-u", "a.py", "x"]).as_deref(),
            Some("a.py")
        );
        assert_eq!(script(&["node", "src/a.mjs"]).as_deref(), Some("src/a.mjs"));
        assert_eq!(script(&["python3", "-m", "pkg.a"]), None);
        assert_eq!(script(&["sh", "-c", "python3 a.py"]), None);
        assert_eq!(script(&["bash", "-lc", "python3 a.py"]), None);
        assert_eq!(script(&["uv", "run", "a.py"]), None);
        assert_eq!(script(&["./adapter", "data.json"]), None);
    }

    /// `startup_ms` is the profile's start-up allowance, apart from the
    /// per-request `timeout_ms`; without it the default holds.
    #[test]
    fn the_start_up_allowance_is_the_profile_s() {
        let text = "name: x\nadapter: { command: [sh], timeout_ms: 2000, startup_ms: 45000 }\n\
                    delimiters: { syntax: xml-tag, token: t }\ncapabilities: [wrap]\n";
        let profile = framecheck_launch::profile::TargetProfile::parse(text).unwrap();
        let AdapterSpec::Subprocess(spec) = &profile.adapter else {
            panic!("a subprocess adapter");
        };
        let target = SubprocessFraming::new(spec, Path::new("."));
        assert_eq!(target.startup_allowance, Duration::from_secs(45));
        assert_eq!(target.timeout, Duration::from_secs(2));
        let spec = SubprocessSpec {
            startup_ms: None,
            ..spec.clone()
        };
        let target = SubprocessFraming::new(&spec, Path::new("."));
        assert_eq!(target.startup_allowance, DEFAULT_STARTUP_ALLOWANCE);
        let builtin = "name: x\nadapter: { builtin: reference, startup_ms: 1 }\n\
                       delimiters: { syntax: xml-tag, token: t }\ncapabilities: [wrap]\n";
        let error = framecheck_launch::profile::TargetProfile::parse(builtin)
            .unwrap_err()
            .to_string();
        assert!(error.contains("startup_ms"), "{error}");
    }

    #[test]
    fn cwd_resolves_against_the_profile_directory() {
        let spec = SubprocessSpec {
            command: vec!["adapters/a.py".into()],
            cwd: Some("..".into()),
            env: BTreeMap::new(),
            timeout_ms: 100,
            startup_ms: None,
            mode: ProcessMode::Persistent,
            max_reply_bytes: 10,
        };
        let target = SubprocessFraming::new(&spec, Path::new("/repo/targets"));
        assert_eq!(target.cwd(), Path::new("/repo/targets/.."));
        assert_eq!(
            target.program,
            Ok(PathBuf::from("/repo/targets/../adapters/a.py"))
        );
        let spec = SubprocessSpec { cwd: None, ..spec };
        assert_eq!(
            SubprocessFraming::new(&spec, Path::new("/repo/targets")).cwd(),
            Path::new("/repo/targets")
        );
    }

    /// The only test in the library that starts children, so killing every
    /// live group cannot disturb another test.
    #[test]
    fn kill_all_children_kills_live_targets_which_then_restart() {
        let python = std::process::Command::new("python3")
            .arg("--version")
            .output();
        if !python.is_ok_and(|o| o.status.success()) {
            // As tests/it/common.rs: visible outside libtest's capture, and
            // a failure in CI, which installs python3.
            assert!(
                std::env::var("CI").map_or(true, |v| v != "true"),
                "python3 is required under CI=true"
            );
            use std::io::Write as _;
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED kill_all_children test: python3 is not installed"
            );
            return;
        }
        let spec = SubprocessSpec {
            command: vec![
                "python3".into(),
                "tests/adapters/misbehave.py".into(),
                "none".into(),
            ],
            cwd: None,
            env: BTreeMap::new(),
            timeout_ms: 5_000,
            startup_ms: None,
            mode: ProcessMode::Persistent,
            max_reply_bytes: 1024,
        };
        let mut target = SubprocessFraming::new(
            &spec,
            Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")),
        );
        let request = WrapRequest {
            content: "x".into(),
            ..WrapRequest::default()
        };
        assert_eq!(target.wrap(&request), Ok("<<x>>".into()));
        kill_all_children();
        match target.wrap(&request) {
            Err(TargetError::Failed { reason, .. }) => {
                assert!(reason.contains("signal: 9"), "{reason}")
            }
            other => panic!("expected a failure, got {other:?}"),
        }
        assert_eq!(target.wrap(&request), Ok("<<x>>".into()));
    }
}
