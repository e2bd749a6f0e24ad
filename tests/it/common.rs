//! What the root crate's integration tests share: the `framecheck` command
//! runner, how a run's output is read and checked, and what the run crate's
//! tests share too (`crates/run/tests/it/common.rs`, included as `shared`
//! and re-exported here, so every module names `common::` alone).

use std::path::Path;
use std::process::{Command, Output};

use framecheck::runner::RunResult;

pub(crate) use crate::shared::{
    assert_profile_files_match, build_go_adapter, have, nonce_profile, random_hex, repo, require,
    tool_policy, tool_runs, ToolPolicy,
};

/// Every `.rs` file under `dir`, at any depth: for the tests that read the
/// source to check a rule of the architecture.
pub(crate) fn rust_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files
}

/// The `framecheck` binary under test with `args`, run in the repository.
/// The one place the command is built: a caller that needs another working
/// directory, an environment variable or piped streams sets them on the
/// returned [`Command`] before running it.
pub(crate) fn framecheck_command<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_framecheck"));
    command.args(args).current_dir(repo());
    command
}

/// Runs `framecheck args` in the repository and waits for it.
pub(crate) fn framecheck(args: &[&str]) -> Output {
    framecheck_in(repo(), args)
}

/// Runs `framecheck args` in `cwd` (a user's project, a fixture directory)
/// and waits for it.
pub(crate) fn framecheck_in(cwd: &Path, args: &[&str]) -> Output {
    framecheck_command(args)
        .current_dir(cwd)
        .output()
        .expect("framecheck runs")
}

/// What a run said: its stdout, then its stderr.
pub(crate) fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// Asserts that `output` exited with `code` and said `says`.
pub(crate) fn expect(output: &Output, code: i32, says: &str) {
    let text = text(output);
    assert_eq!(output.status.code(), Some(code), "{text}");
    assert!(text.contains(says), "wanted {says:?} in:\n{text}");
}

/// A JSON run report read back.
pub(crate) fn load_report(path: &Path) -> RunResult {
    let text = std::fs::read_to_string(path).expect("report exists");
    framecheck::report::json::parse(&text).expect("report parses")
}

/// A case judged with `findings` (no evidence, 1 µs), for report and gate
/// tests that build a run by hand.
pub(crate) fn judged(
    case: framecheck::catalogue::ConcreteCase,
    findings: Vec<framecheck::oracle::Finding>,
) -> framecheck::runner::CaseResult {
    framecheck::runner::CaseResult {
        case,
        outcome: framecheck::runner::Outcome::Judged { findings },
        evidence: framecheck::runner::Evidence::default(),
        elapsed_us: 1,
    }
}
