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
//! ```
//! use framecheck_core::manifest::Manifest;
//! use framecheck_core::profile::{LoadedProfile, TargetProfile};
//!
//! let profile = TargetProfile::parse(
//!     "name: reference\nadapter: { builtin: reference }\n\
//!      delimiters: { syntax: xml-tag, token: framecheck-untrusted }\nheader: blank-line\n\
//!      attributes: { on: outer, kind: kind, extra: [] }\n\
//!      capabilities: [wrap, read, attributes, provenance, kind]\n",
//! )
//! .unwrap();
//! let loaded = LoadedProfile { profile, dir: ".".into() };
//! let manifest = Manifest::collect(&loaded, None, "abc", None, vec!["framecheck".into()]);
//! assert_eq!(manifest.profile_hash.len(), 64);
//! assert!(manifest.target.files.is_empty()); // in-process: no files, no interpreter
//! ```

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::profile::{AdapterSpec, LoadedProfile, PackageRef, TargetProfile};

/// The git commit framecheck was built from (`git rev-parse HEAD` at build
/// time), or `unknown` when it was built outside a git checkout.
pub const COMMIT: &str = env!("FRAMECHECK_COMMIT");

/// Programs whose `--version` names the interpreter a target runs on.
/// `go` answers `go version` instead.
const INTERPRETERS: [&str; 11] = [
    "python", "python3", "node", "go", "deno", "bun", "ruby", "perl", "php", "java", "dotnet",
];

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
    /// Collects the manifest of a run of `loaded`.
    pub fn collect(
        loaded: &LoadedProfile,
        profile_path: Option<&Path>,
        catalogue_hash: &str,
        seed: Option<u64>,
        command_line: Vec<String>,
    ) -> Manifest {
        Manifest {
            framecheck_version: env!("CARGO_PKG_VERSION").to_string(),
            framecheck_commit: COMMIT.to_string(),
            catalogue_hash: catalogue_hash.to_string(),
            profile_hash: profile_hash(&loaded.profile),
            profile_path: profile_path.map(Path::to_path_buf),
            profile_dir: profile_path.and_then(|_| absolute_dir(&loaded.dir)),
            target: TargetIdentity::collect(loaded),
            seed,
            command_line,
            reader_data: Some(ReaderData::current()),
        }
    }
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

/// `dir` as an absolute path (the empty path, a profile's directory when
/// it was named without one, is the current directory), or `None` when
/// the current directory cannot be read.
fn absolute_dir(dir: &Path) -> Option<PathBuf> {
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    std::path::absolute(dir).ok()
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
pub fn profile_hash(profile: &TargetProfile) -> String {
    let json = serde_json::to_vec(profile).expect("a profile always serializes");
    hex(&Sha256::digest(&json))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl TargetIdentity {
    /// The identity of `loaded`'s target: nothing for an in-process one.
    pub fn collect(loaded: &LoadedProfile) -> TargetIdentity {
        let packages = loaded.profile.packages.clone();
        // An MCP server's command is a package runner (`npx`, `uvx`): its
        // identity is the declared packages and its `initialize` answer.
        let AdapterSpec::Subprocess(spec) = &loaded.profile.adapter else {
            return TargetIdentity {
                packages,
                ..TargetIdentity::default()
            };
        };
        let cwd = match &spec.cwd {
            Some(cwd) => loaded.dir.join(cwd),
            None => loaded.dir.clone(),
        };
        let files = spec
            .command
            .iter()
            .filter_map(|arg| {
                let bytes = std::fs::read(cwd.join(arg)).ok()?;
                Some(FileDigest {
                    path: arg.clone(),
                    sha256: hex(&Sha256::digest(&bytes)),
                })
            })
            .collect();
        let interpreter = spec
            .command
            .first()
            .filter(|program| INTERPRETERS.contains(&program_name(program)))
            .map(|program| InterpreterVersion {
                program: program.clone(),
                version: interpreter_version(program, &cwd),
            });
        TargetIdentity {
            files,
            interpreter,
            packages,
            server: None,
        }
    }
}

/// The file name of a program path, without a Windows `.exe`.
fn program_name(program: &str) -> &str {
    let name = program.rsplit(['/', '\\']).next().unwrap_or(program);
    name.strip_suffix(".exe").unwrap_or(name)
}

/// The first non-empty line `program --version` (`go version`) prints on
/// stdout or stderr, or why there is none.
fn interpreter_version(program: &str, cwd: &Path) -> String {
    let arg = if program_name(program) == "go" {
        "version"
    } else {
        "--version"
    };
    let output = Command::new(program)
        .arg(arg)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .output();
    match output {
        Ok(output) => {
            let text = [output.stdout, output.stderr]
                .iter()
                .map(|b| String::from_utf8_lossy(b).into_owned())
                .collect::<String>();
            text.lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .map_or_else(|| "unknown (no output)".to_string(), str::to_string)
        }
        Err(error) => format!("unknown ({error})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_manifest_records_the_unicode_reader_s_lookalike_table() {
        let loaded = LoadedProfile {
            profile: TargetProfile::parse(
                "name: x\nadapter:\n  command: [a]\ndelimiters:\n  grammar: xml-tag\n  token: t\ncapabilities: [wrap]\n",
            )
            .unwrap(),
            dir: PathBuf::new(),
        };
        let manifest = Manifest::collect(&loaded, None, "c", None, Vec::new());
        let data = manifest.reader_data.clone().expect("recorded");
        assert_eq!(data.confusables, crate::level::CONFUSABLES_SOURCE);
        assert_eq!(data.lookalikes, crate::level::lookalike_table().count());
        assert!(data.lookalikes > 1000, "{}", data.lookalikes);
        assert_eq!(data.lookalikes_sha256.len(), 64);
        // An older report without the field still reads.
        let mut json = serde_json::to_value(&manifest).unwrap();
        json.as_object_mut().unwrap().remove("reader_data");
        let old: Manifest = serde_json::from_value(json).unwrap();
        assert_eq!(old.reader_data, None);
    }
}
