//! One running target process and the threads that keep its pipes moving.
//!
//! Three threads per child, so no pipe can stall the harness: a writer owns
//! stdin (a child that never reads can block it, never the caller), a reader
//! splits stdout into lines under a size cap, and a drain empties stderr into
//! a bounded tail buffer (a child flooding stderr never blocks on a full
//! pipe). The child leads its own process group, so killing the group also
//! kills any grandchildren it started; every child is reaped. On Linux the
//! child also gets a parent-death signal, so it dies with framecheck even
//! when framecheck is SIGKILLed (its own grandchildren are not covered: they
//! are killed with the group on every other exit path). On Windows a job
//! object stands for the process group (`job.rs`): the same contract.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::ffi::OsStr;
use std::io::{self, BufRead, BufReader, Read, Write};
#[cfg(unix)]
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

/// Process groups of children that are running or not yet reaped.
static LIVE_GROUPS: Mutex<BTreeSet<i32>> = Mutex::new(BTreeSet::new());

fn live_groups() -> MutexGuard<'static, BTreeSet<i32>> {
    // The set stays consistent even if a holder panicked: every operation on
    // it is a single insert or remove.
    LIVE_GROUPS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Set once framecheck is shutting down: no further child is started.
static STOPPED: AtomicBool = AtomicBool::new(false);

/// Sends SIGKILL to the process group of every subprocess target still alive.
///
/// The children are reaped when their [`super::SubprocessFraming`] is
/// dropped; a later request starts a fresh child.
pub fn kill_all_children() {
    for &group in live_groups().iter() {
        kill_group(group);
    }
}

/// Kills every live target and refuses to start any more, for good.
///
/// Meant for the CLI's signal handler, so an interrupted run leaves no
/// adapters (or their grandchildren) behind: a child being started at that
/// very moment is either killed here or never started, because a start
/// holds the set of live groups from fork to registration.
pub fn stop_all_children() {
    let groups = live_groups();
    STOPPED.store(true, Ordering::SeqCst);
    for &group in groups.iter() {
        kill_group(group);
    }
}

#[cfg(unix)]
fn kill_group(group: i32) {
    // SAFETY: kill(2) has no memory-safety preconditions. A negative pid
    // addresses the group; the group cannot have been recycled because its
    // leader is not reaped until after it leaves LIVE_GROUPS.
    unsafe {
        libc::kill(-group, libc::SIGKILL);
    }
}

#[cfg(windows)]
fn kill_group(group: i32) {
    super::job::kill(group);
}

/// Drops `group` from the live groups (its leader is about to be reaped).
fn forget_group(group: i32) {
    live_groups().remove(&group);
    #[cfg(windows)]
    super::job::forget(group);
}

/// Asks the kernel to SIGKILL the child when framecheck dies, however it dies
/// (even by SIGKILL, when no handler runs). Linux only; elsewhere the signal
/// handlers and `Drop` are all there is.
///
/// The parent-death signal fires when the *thread* that forked the child
/// exits, not the process; so children are forked by [`keeper`], a thread
/// that lives as long as the process.
#[cfg(target_os = "linux")]
fn die_with_parent(command: &mut Command) {
    let parent = std::process::id() as libc::pid_t;
    // SAFETY: the closure runs in the forked child before exec and calls
    // only prctl(2) and getppid(2), which are async-signal-safe, and
    // allocates nothing.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0 {
                return Err(io::Error::last_os_error());
            }
            // framecheck may have died between fork and prctl; then no
            // signal would ever come.
            if libc::getppid() != parent {
                return Err(io::Error::from_raw_os_error(libc::ESRCH));
            }
            Ok(())
        });
    }
}

#[cfg(all(unix, not(target_os = "linux")))]
fn die_with_parent(_command: &mut Command) {}

/// The thread that forks every child, so a child's parent-death signal is
/// tied to the process's lifetime rather than to whichever thread happened
/// to make the first request (a runner thread, a test thread) and may exit
/// while the target lives on.
mod keeper {
    use std::io;
    use std::process::{Child, Command};
    use std::sync::mpsc;
    use std::sync::{Mutex, OnceLock};
    use std::thread;

    type Job = (Command, mpsc::Sender<io::Result<Child>>);

    static JOBS: OnceLock<Option<Mutex<mpsc::Sender<Job>>>> = OnceLock::new();

    fn start() -> Option<Mutex<mpsc::Sender<Job>>> {
        let (tx, rx) = mpsc::channel::<Job>();
        thread::Builder::new()
            .name("framecheck-spawner".into())
            .spawn(move || {
                // Never returns while the process has a sender: the static
                // holds one forever.
                for (mut command, reply) in rx {
                    let _ = reply.send(command.spawn());
                }
            })
            .ok()
            .map(|_| Mutex::new(tx))
    }

    /// Spawns `command` on the keeper thread and waits for the result.
    pub(super) fn spawn(mut command: Command) -> io::Result<Child> {
        let Some(jobs) = JOBS.get_or_init(start) else {
            // No thread could be started: spawn here; the parent-death
            // signal then follows this thread.
            return command.spawn();
        };
        let (reply_tx, reply_rx) = mpsc::channel();
        let sent = jobs
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .send((command, reply_tx));
        if sent.is_err() {
            return Err(io::Error::other("the spawner thread is gone"));
        }
        reply_rx
            .recv()
            .unwrap_or_else(|_| Err(io::Error::other("the spawner thread is gone")))
    }
}

/// True when `pid` has exited, without reaping it (so its process group id
/// cannot be recycled while we still mean to signal it).
#[cfg(unix)]
pub(crate) fn has_exited(pid: u32) -> bool {
    // SAFETY: siginfo_t is plain data; zeroed is a valid value, and waitid
    // only writes into it.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
    let rc = unsafe { libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, flags) };
    #[cfg(target_os = "linux")]
    let exited_pid = unsafe { info.si_pid() };
    #[cfg(not(target_os = "linux"))]
    let exited_pid = info.si_pid;
    rc == 0 && exited_pid != 0
}

#[cfg(windows)]
pub(crate) use super::job::has_exited;

/// What the stdout reader saw.
enum StdoutEvent {
    Line(Vec<u8>),
    TooLong,
    Closed,
    ReadError(io::Error),
}

/// The result of waiting for one reply line.
pub(crate) enum Wait {
    /// A complete line, without its `\n`.
    Line(Vec<u8>),
    /// The line grew past the reply cap before its newline.
    TooLong,
    /// stdout reached end of file.
    Closed,
    /// Reading stdout failed.
    ReadError(String),
    /// The deadline passed first.
    TimedOut,
}

/// The last bytes a child wrote to stderr.
struct TailBuffer {
    bytes: VecDeque<u8>,
    capacity: usize,
    dropped: u64,
}

impl TailBuffer {
    fn push(&mut self, chunk: &[u8]) {
        self.bytes.extend(chunk);
        let excess = self.bytes.len().saturating_sub(self.capacity);
        if excess > 0 {
            self.bytes.drain(..excess);
            self.dropped += excess as u64;
        }
    }

    fn text(&self) -> String {
        let (front, back) = self.bytes.as_slices();
        let tail = String::from_utf8_lossy(&[front, back].concat()).into_owned();
        if self.dropped == 0 {
            tail
        } else {
            format!("[{} earlier bytes not kept]\n{tail}", self.dropped)
        }
    }
}

/// How to start a child.
pub(crate) struct Launch<'a> {
    pub program: &'a Path,
    pub args: &'a [String],
    pub cwd: &'a Path,
    pub env: &'a BTreeMap<String, String>,
    pub max_reply_bytes: usize,
    pub stderr_tail_bytes: usize,
}

/// Starts `launch` with three pipes, leading its own process group (with
/// the parent-death signal), registered in the live groups the signal
/// handler kills.
fn start_in_group(launch: &Launch<'_>) -> io::Result<std::process::Child> {
    let mut command = Command::new(launch.program);
    command
        .args(launch.args.iter().map(OsStr::new))
        .current_dir(launch.cwd)
        .envs(launch.env)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        command.process_group(0);
        die_with_parent(&mut command);
    }
    #[cfg(windows)]
    super::job::start_suspended(&mut command);
    // Held from fork to registration, so stop_all_children cannot miss a
    // child that is being started.
    let mut groups = live_groups();
    if STOPPED.load(Ordering::SeqCst) {
        return Err(io::Error::other("framecheck is shutting down"));
    }
    #[cfg_attr(unix, allow(unused_mut))]
    let mut process = keeper::spawn(command)?;
    #[cfg(windows)]
    if let Err(e) = super::job::adopt(&process) {
        // Still suspended and in no job: it has started nothing.
        let _ = process.kill();
        let _ = process.wait();
        return Err(e);
    }
    groups.insert(process.id() as i32);
    Ok(process)
}

/// Drains `stderr` into a tail of `capacity` bytes on its own thread; the
/// receiver hears when the pipe closed.
type StderrDrain = (Arc<Mutex<TailBuffer>>, mpsc::Receiver<()>);

fn drain_stderr(mut stderr: std::process::ChildStderr, capacity: usize) -> io::Result<StderrDrain> {
    let tail = Arc::new(Mutex::new(TailBuffer {
        bytes: VecDeque::new(),
        capacity,
        dropped: 0,
    }));
    let sink = Arc::clone(&tail);
    let (done_tx, done_rx) = mpsc::channel();
    thread::Builder::new()
        .name("framecheck-target-stderr".into())
        .spawn(move || {
            let mut chunk = [0u8; 8192];
            loop {
                match stderr.read(&mut chunk) {
                    Ok(0) => break,
                    Ok(n) => sink
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .push(&chunk[..n]),
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
            let _ = done_tx.send(());
        })?;
    Ok((tail, done_rx))
}

/// A process started like every target (its own group, the parent-death
/// signal, killed by [`stop_all_children`]) whose stdin and stdout the
/// caller speaks over itself: an MCP server, spoken to by the SDK. Its
/// stderr is drained into a tail. Dropping it kills the group and reaps it.
pub(crate) struct GroupProcess {
    process: std::process::Child,
    stderr: Arc<Mutex<TailBuffer>>,
    stderr_done: mpsc::Receiver<()>,
    stderr_finished: bool,
    status: Option<ExitStatus>,
}

/// The pipes of a [`GroupProcess`] the caller speaks over.
pub(crate) type ProcessPipes = (std::process::ChildStdin, std::process::ChildStdout);

impl GroupProcess {
    /// Starts `launch`; its stdin and stdout are returned to the caller.
    pub(crate) fn spawn(launch: &Launch<'_>) -> io::Result<(GroupProcess, ProcessPipes)> {
        let mut process = start_in_group(launch)?;
        let pipes = (
            process.stdin.take(),
            process.stdout.take(),
            process.stderr.take(),
        );
        let (Some(stdin), Some(stdout), Some(stderr)) = pipes else {
            abandon(&mut process);
            return Err(io::Error::other("child pipes were not created"));
        };
        let (stderr, stderr_done) = match drain_stderr(stderr, launch.stderr_tail_bytes) {
            Ok(drain) => drain,
            Err(e) => {
                abandon(&mut process);
                return Err(e);
            }
        };
        let group = GroupProcess {
            process,
            stderr,
            stderr_done,
            stderr_finished: false,
            status: None,
        };
        Ok((group, (stdin, stdout)))
    }

    /// The process id (also its process group id).
    pub(crate) fn id(&self) -> u32 {
        self.process.id()
    }

    /// How the process ended, if it has (without waiting).
    pub(crate) fn exited(&mut self) -> Option<ExitStatus> {
        if self.status.is_none() && has_exited(self.process.id()) {
            self.terminate();
        }
        self.status
    }

    /// Kills the whole process group and reaps the leader. Idempotent.
    pub(crate) fn terminate(&mut self) -> Option<ExitStatus> {
        if self.status.is_none() {
            let group = self.process.id() as i32;
            kill_group(group);
            forget_group(group);
            self.status = self.process.wait().ok();
        }
        self.status
    }

    /// The end of stderr, after up to `settle` for the last bytes.
    pub(crate) fn stderr_tail(&mut self, settle: Duration) -> String {
        if !self.stderr_finished {
            self.stderr_finished = self.stderr_done.recv_timeout(settle).is_ok();
        }
        self.stderr.lock().unwrap_or_else(|p| p.into_inner()).text()
    }
}

impl Drop for GroupProcess {
    fn drop(&mut self) {
        self.terminate();
    }
}

/// A running target process spoken to in JSON lines: a [`GroupProcess`]
/// whose stdin is fed by a writer thread and whose stdout is split into
/// lines by a reader thread, so that no wait on the child ever blocks past
/// its deadline. Dropping it kills its process group and reaps it.
pub(crate) struct Child {
    group: GroupProcess,
    stdin: Option<mpsc::Sender<Vec<u8>>>,
    stdout: mpsc::Receiver<StdoutEvent>,
    partial_bytes: Arc<AtomicUsize>,
}

impl Child {
    /// Starts the child in a new process group with all three pipes.
    pub(crate) fn spawn(launch: &Launch<'_>) -> io::Result<Child> {
        // On an error below, dropping `group` kills and reaps the process.
        let (group, (mut stdin, stdout)) = GroupProcess::spawn(launch)?;
        let (line_tx, line_rx) = mpsc::channel::<Vec<u8>>();
        thread::Builder::new()
            .name("framecheck-target-stdin".into())
            .spawn(move || {
                for bytes in line_rx {
                    if stdin
                        .write_all(&bytes)
                        .and_then(|()| stdin.flush())
                        .is_err()
                    {
                        return;
                    }
                }
                // Dropping stdin here closes it: how a one-shot child learns
                // the request is complete.
            })?;
        let (event_tx, event_rx) = mpsc::channel();
        let partial_bytes = Arc::new(AtomicUsize::new(0));
        let partial = Arc::clone(&partial_bytes);
        let cap = launch.max_reply_bytes;
        thread::Builder::new()
            .name("framecheck-target-stdout".into())
            .spawn(move || read_lines(stdout, cap, &partial, &event_tx))?;
        Ok(Child {
            group,
            stdin: Some(line_tx),
            stdout: event_rx,
            partial_bytes,
        })
    }

    /// The child's process id (also its process group id).
    pub(crate) fn id(&self) -> u32 {
        self.group.id()
    }

    /// Queues `bytes` for the child's stdin. Never blocks.
    pub(crate) fn send(&self, bytes: Vec<u8>) {
        if let Some(stdin) = &self.stdin {
            // A closed channel means the writer hit a broken pipe; the reply
            // wait then sees the child's stdout close or time out.
            let _ = stdin.send(bytes);
        }
    }

    /// Closes stdin once everything queued is written.
    pub(crate) fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Waits for the next stdout line until `deadline`.
    pub(crate) fn next_line(&self, deadline: Instant) -> Wait {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.stdout.recv_timeout(left) {
            Ok(StdoutEvent::Line(line)) => Wait::Line(line),
            Ok(StdoutEvent::TooLong) => Wait::TooLong,
            Ok(StdoutEvent::Closed) | Err(RecvTimeoutError::Disconnected) => Wait::Closed,
            Ok(StdoutEvent::ReadError(e)) => Wait::ReadError(e.to_string()),
            Err(RecvTimeoutError::Timeout) => Wait::TimedOut,
        }
    }

    /// Bytes of an unfinished line received so far.
    pub(crate) fn partial_bytes(&self) -> usize {
        self.partial_bytes.load(Ordering::Relaxed)
    }

    /// Gives a child that closed stdout up to `grace` to exit on its own (so
    /// its real exit status can be reported), then terminates it.
    pub(crate) fn settle(&mut self, grace: Duration) -> Option<ExitStatus> {
        let until = Instant::now() + grace;
        while self.group.exited().is_none() && Instant::now() < until {
            thread::sleep(Duration::from_millis(5));
        }
        self.terminate()
    }

    /// Closes stdin, then kills the whole process group and reaps the
    /// child. Idempotent.
    pub(crate) fn terminate(&mut self) -> Option<ExitStatus> {
        self.stdin = None;
        self.group.terminate()
    }

    /// Everything kept from stderr, after giving the drain thread up to
    /// `settle` to read what the child wrote last. Waiting is bounded because
    /// an escaped grandchild may hold stderr open indefinitely.
    pub(crate) fn stderr_tail(&mut self, settle: Duration) -> String {
        self.group.stderr_tail(settle)
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        self.terminate();
    }
}

/// Kills and reaps a child that never became a [`Child`].
fn abandon(process: &mut std::process::Child) {
    let group = process.id() as i32;
    kill_group(group);
    forget_group(group);
    let _ = process.wait();
}

/// Splits `stdout` into lines for the caller, refusing any line longer than
/// `cap` bytes before it is buffered. Ends at the first event that finishes
/// the stream (end of file, overlong line, read error) or when nobody listens.
fn read_lines(
    stdout: std::process::ChildStdout,
    cap: usize,
    partial: &AtomicUsize,
    events: &mpsc::Sender<StdoutEvent>,
) {
    let mut reader = BufReader::with_capacity(64 * 1024, stdout);
    let mut line = Vec::new();
    loop {
        let buffered = match reader.fill_buf() {
            Ok(buffered) => buffered,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let _ = events.send(StdoutEvent::ReadError(e));
                return;
            }
        };
        if buffered.is_empty() {
            let _ = events.send(StdoutEvent::Closed);
            return;
        }
        let (take, complete) = match memchr::memchr(b'\n', buffered) {
            Some(end) => (end, true),
            None => (buffered.len(), false),
        };
        if line.len() + take > cap {
            let _ = events.send(StdoutEvent::TooLong);
            return;
        }
        line.extend_from_slice(&buffered[..take]);
        reader.consume(take + usize::from(complete));
        if complete {
            partial.store(0, Ordering::Relaxed);
            if events
                .send(StdoutEvent::Line(std::mem::take(&mut line)))
                .is_err()
            {
                return;
            }
        } else {
            partial.store(line.len(), Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tail_buffer_keeps_the_last_bytes_and_counts_the_rest() {
        let mut tail = TailBuffer {
            bytes: VecDeque::new(),
            capacity: 4,
            dropped: 0,
        };
        tail.push(b"ab");
        assert_eq!(tail.text(), "ab");
        tail.push(b"cdef");
        assert_eq!(tail.text(), "[2 earlier bytes not kept]\ncdef");
    }
}
