//! The reproducibility manifest: what a report was made from, so a reviewer
//! can tell what was tested and `framecheck verify` can run it again.
//!
//! It records framecheck's version and the git commit it was built from,
//! the catalogue and profile hashes, the target's identity (SHA-256 of every
//! file its command names that exists, the interpreter's version when the
//! command starts one, the package versions the profile declares), the seed,
//! the command line and the data the `unicode` reader level was built from
//! (its lookalike table: source, Unicode version, size and SHA-256).
//!
//! Collecting a manifest reads the target's launch configuration (the
//! files its command names), so it is the launch crate's
//! (`framecheck_launch::manifest::collect`); this module holds what a
//! report records.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::profile::{Launch, PackageRef, TargetProfile};

/// The git commit framecheck was built from (`git rev-parse HEAD` at build
/// time), or `unknown` when it was built outside a git checkout.
pub const COMMIT: &str = env!("FRAMECHECK_COMMIT");

/// What a report was made from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// framecheck's version.
    pub framecheck_version: String,
    /// The git commit framecheck was built from, or `unknown`.
    pub framecheck_commit: String,
    /// SHA-256 of the catalogue files, in path order.
    pub catalogue_hash: String,
    /// SHA-256 of the profile as framecheck read it (its JSON form).
    pub profile_hash: String,
    /// The profile file, as named on the command line; `None` for a
    /// built-in target given by name.
    pub profile_path: Option<PathBuf>,
    /// The directory the profile was loaded from, absolute: what the
    /// adapter's relative `cwd` is resolved against, so `framecheck verify`
    /// re-runs the target from any directory. Absolute, not relative to
    /// the report, because a report is copied without its project (to
    /// `baselines/`, to a CI artifact) and a path relative to it would then
    /// name nothing. `None` for a built-in target, and in a
    /// `--reproducible` report (a machine's path is no part of what was
    /// tested); `verify` then resolves `profile_path` against the current
    /// directory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile_dir: Option<PathBuf>,
    /// The target's identity.
    pub target: TargetIdentity,
    /// The seed of a randomised run (`search`); `None` for `run`, which is
    /// deterministic.
    pub seed: Option<u64>,
    /// The command line framecheck was started with.
    pub command_line: Vec<String>,
    /// The data the `unicode` reader level reads lookalikes with; `None` in
    /// a report written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reader_data: Option<ReaderData>,
}

/// The lookalike table of the `unicode` reader level
/// ([`crate::level::lookalike_table`]): a verdict at `unicode` holds for
/// this table, and a newer Unicode release can change it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReaderData {
    /// Where the confusables data comes from: the crate and its version.
    pub confusables: String,
    /// The Unicode version of that data.
    pub unicode_version: String,
    /// How many characters the table reads as ASCII.
    pub lookalikes: usize,
    /// Lower-case hex SHA-256 of the table, one `U+XXXX a` line per entry.
    pub lookalikes_sha256: String,
}

impl ReaderData {
    /// The table this build of framecheck reads with.
    pub fn current() -> ReaderData {
        let mut hasher = Sha256::new();
        let mut lookalikes = 0;
        for (source, ascii) in crate::level::lookalike_table() {
            hasher.update(format!("U+{:04X} {ascii}\n", source as u32));
            lookalikes += 1;
        }
        ReaderData {
            confusables: crate::level::CONFUSABLES_SOURCE.to_string(),
            unicode_version: crate::level::confusables_unicode_version(),
            lookalikes,
            lookalikes_sha256: hex(&hasher.finalize()),
        }
    }
}

/// What the target under test was, beyond its profile.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TargetIdentity {
    /// Every file the adapter command names that exists, with its SHA-256.
    pub files: Vec<FileDigest>,
    /// The interpreter the command starts, with the version it reports.
    pub interpreter: Option<InterpreterVersion>,
    /// The package versions the profile declares.
    pub packages: Vec<PackageRef>,
    /// What the server said it is (an MCP target's `initialize` answer),
    /// filled in after the run; absent for every other target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<crate::target::ServerIdentity>,
}

/// A file and its SHA-256.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileDigest {
    /// The path as the command names it.
    pub path: String,
    /// Lower-case hex SHA-256 of its bytes.
    pub sha256: String,
}

/// An interpreter and what `--version` said.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InterpreterVersion {
    /// The program, as the command names it.
    pub program: String,
    /// The first line it printed, or why there was none.
    pub version: String,
}

impl Manifest {
    /// Drops what differs between two runs of the same thing, for a
    /// `--reproducible` report meant to be committed: the commit (a report
    /// committed in a commit cannot name it), the path framecheck was
    /// started from, and where the files were written. What was tested
    /// (catalogue, profile, target files, interpreter, seed, the other
    /// arguments) stays.
    pub fn make_reproducible(&mut self) {
        self.framecheck_commit = "not recorded (--reproducible)".into();
        self.profile_dir = None;
        self.command_line = canonical_command_line(&self.command_line);
    }
}

/// The command line as a committed report records it: the program as
/// `framecheck`, the subcommand, then each option with its values, sorted,
/// and `--out` dropped; so the same run gives the same line whatever the
/// option order and wherever the files went.
fn canonical_command_line(args: &[String]) -> Vec<String> {
    let mut rest = args.iter().skip(1).peekable();
    let mut line = vec!["framecheck".to_string()];
    while let Some(arg) = rest.next_if(|a| !a.starts_with("--")) {
        line.push(arg.clone());
    }
    let mut groups: Vec<Vec<String>> = Vec::new();
    for arg in rest {
        match groups.last_mut() {
            Some(group) if !arg.starts_with("--") => group.push(arg.clone()),
            _ => groups.push(vec![arg.clone()]),
        }
    }
    groups.retain(|g| g[0] != "--out" && !g[0].starts_with("--out="));
    groups.sort();
    line.extend(groups.into_iter().flatten());
    line
}

/// SHA-256 of the profile's JSON form: the same for the same declaration,
/// whatever its YAML layout or comments.
pub fn profile_hash<A: Launch>(profile: &TargetProfile<A>) -> String {
    let json = serde_json::to_vec(profile).expect("a profile always serializes");
    hex(&Sha256::digest(&json))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_manifest_records_the_unicode_reader_s_lookalike_table() {
        let data = ReaderData::current();
        assert_eq!(data.confusables, crate::level::CONFUSABLES_SOURCE);
        assert_eq!(data.lookalikes, crate::level::lookalike_table().count());
        assert!(data.lookalikes > 1000, "{}", data.lookalikes);
        assert_eq!(data.lookalikes_sha256.len(), 64);
    }
}
