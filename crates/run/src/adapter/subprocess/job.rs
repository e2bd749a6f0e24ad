//! Windows' answer to a process group: every target runs inside a job
//! object of its own.
//!
//! The Unix contract (`child.rs`) is that a target which hangs or floods is
//! killed together with every process it started, and that nothing outlives
//! framecheck. On Windows a job object gives both: `TerminateJobObject` kills
//! every process in the job (children inherit their parent's job), and a job
//! created with `JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE` kills its processes when
//! its last handle closes, which the kernel does when framecheck dies however
//! it dies (the analogue of Linux's parent-death signal).
//!
//! The child is created suspended and resumed only once it is in its job, so
//! it cannot start a grandchild that escapes the job in between.

use std::collections::BTreeMap;
use std::io;
use std::os::windows::io::AsRawHandle;
use std::os::windows::process::CommandExt;
use std::process::{Child, Command};
use std::sync::{Mutex, MutexGuard};

use windows_sys::Win32::Foundation::{CloseHandle, HANDLE, INVALID_HANDLE_VALUE, WAIT_OBJECT_0};
use windows_sys::Win32::System::Diagnostics::ToolHelp::{
    CreateToolhelp32Snapshot, Thread32First, Thread32Next, TH32CS_SNAPTHREAD, THREADENTRY32,
};
use windows_sys::Win32::System::JobObjects::{
    AssignProcessToJobObject, CreateJobObjectW, JobObjectExtendedLimitInformation,
    SetInformationJobObject, TerminateJobObject, JOBOBJECT_EXTENDED_LIMIT_INFORMATION,
    JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
};
use windows_sys::Win32::System::Threading::{
    OpenProcess, OpenThread, ResumeThread, WaitForSingleObject, CREATE_SUSPENDED,
    PROCESS_SYNCHRONIZE, THREAD_SUSPEND_RESUME,
};

/// The job of every live target, by the target's process id. A handle is
/// kept as an integer because raw handles are not `Send`.
static JOBS: Mutex<BTreeMap<i32, usize>> = Mutex::new(BTreeMap::new());

fn jobs() -> MutexGuard<'static, BTreeMap<i32, usize>> {
    // Each operation is a single insert or remove: consistent after a panic.
    JOBS.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Makes `command` start its process suspended, so [`adopt`] can put it in
/// its job before it runs a single instruction.
pub(super) fn start_suspended(command: &mut Command) {
    command.creation_flags(CREATE_SUSPENDED);
}

/// Puts the suspended `process` in a new job that dies with framecheck, then
/// lets it run. On an error the caller kills the process.
pub(super) fn adopt(process: &Child) -> io::Result<()> {
    // SAFETY: plain Win32 calls on handles we own; the limit structure is
    // plain data, zero-initialised as the API allows.
    let job = unsafe { CreateJobObjectW(std::ptr::null(), std::ptr::null()) };
    if job.is_null() {
        return Err(io::Error::last_os_error());
    }
    let mut limits: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = unsafe { std::mem::zeroed() };
    limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
    let configured = unsafe {
        SetInformationJobObject(
            job,
            JobObjectExtendedLimitInformation,
            (&raw const limits).cast(),
            std::mem::size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>() as u32,
        ) != 0
            && AssignProcessToJobObject(job, process.as_raw_handle() as HANDLE) != 0
    };
    if !configured {
        let error = io::Error::last_os_error();
        unsafe { CloseHandle(job) };
        return Err(error);
    }
    jobs().insert(process.id() as i32, job as usize);
    resume(process.id())
}

/// Resumes every thread of process `pid` (a process created suspended has
/// one). std does not hand out the primary thread's handle, so the threads
/// are found in a snapshot.
fn resume(pid: u32) -> io::Result<()> {
    // SAFETY: the snapshot handle is closed below; THREADENTRY32 is plain
    // data whose size field is set as the API requires.
    let snapshot = unsafe { CreateToolhelp32Snapshot(TH32CS_SNAPTHREAD, 0) };
    if snapshot == INVALID_HANDLE_VALUE {
        return Err(io::Error::last_os_error());
    }
    let mut entry = THREADENTRY32 {
        dwSize: std::mem::size_of::<THREADENTRY32>() as u32,
        ..Default::default()
    };
    let mut resumed = 0;
    let mut more = unsafe { Thread32First(snapshot, &mut entry) } != 0;
    while more {
        if entry.th32OwnerProcessID == pid {
            let thread = unsafe { OpenThread(THREAD_SUSPEND_RESUME, 0, entry.th32ThreadID) };
            if !thread.is_null() {
                if unsafe { ResumeThread(thread) } != u32::MAX {
                    resumed += 1;
                }
                unsafe { CloseHandle(thread) };
            }
        }
        more = unsafe { Thread32Next(snapshot, &mut entry) } != 0;
    }
    unsafe { CloseHandle(snapshot) };
    if resumed == 0 {
        return Err(io::Error::other(
            "the target's suspended thread was not found",
        ));
    }
    Ok(())
}

/// Kills every process in the job of target `pid` (a no-op once forgotten).
pub(super) fn kill(pid: i32) {
    if let Some(&job) = jobs().get(&pid) {
        // SAFETY: the handle stays open until `forget` removes it.
        unsafe { TerminateJobObject(job as HANDLE, 1) };
    }
}

/// Closes the job of target `pid`; closing its last handle kills whatever
/// is still in it.
pub(super) fn forget(pid: i32) {
    if let Some(job) = jobs().remove(&pid) {
        // SAFETY: removed from the map, so no one else closes or uses it.
        unsafe { CloseHandle(job as HANDLE) };
    }
}

/// True when process `pid` has exited (or is gone). Windows has no zombies
/// to reap: framecheck's `Child` keeps the process handle open, so the id
/// cannot be reused while the target is still tracked.
pub(crate) fn has_exited(pid: u32) -> bool {
    // SAFETY: the handle is closed before returning.
    unsafe {
        let process = OpenProcess(PROCESS_SYNCHRONIZE, 0, pid);
        if process.is_null() {
            return true;
        }
        let exited = WaitForSingleObject(process, 0) == WAIT_OBJECT_0;
        CloseHandle(process);
        exited
    }
}
