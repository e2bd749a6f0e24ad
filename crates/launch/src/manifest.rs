//! Collecting a run's manifest: the parts of it that read the target's
//! launch configuration (the files a subprocess's command names and the
//! interpreter it starts), beside core's manifest types, which this module
//! re-exports so that one path names both.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub use framecheck_core::manifest::*;
use sha2::{Digest, Sha256};

use crate::profile::{AdapterSpec, LoadedProfile};

/// Programs whose `--version` names the interpreter a target runs on.
/// `go` answers `go version` instead.
const INTERPRETERS: [&str; 11] = [
    "python", "python3", "node", "go", "deno", "bun", "ruby", "perl", "php", "java", "dotnet",
];

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
        target: identity(loaded),
        seed,
        command_line,
        reader_data: Some(ReaderData::current()),
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

/// The identity of `loaded`'s target: nothing for an in-process one.
pub fn identity(loaded: &LoadedProfile) -> TargetIdentity {
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

/// Lower-case hex of `bytes`, as every digest in a manifest is written.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::TargetProfile;

    /// A built-in target is in process: its identity names no file and no
    /// interpreter.
    #[test]
    fn an_in_process_target_has_no_files() {
        let profile = TargetProfile::parse(
            "name: reference\nadapter: { builtin: reference }\n\
             delimiters: { syntax: xml-tag, token: framecheck-untrusted }\n\
             capabilities: [wrap]\n",
        )
        .unwrap();
        let loaded = LoadedProfile {
            profile,
            dir: ".".into(),
        };
        let manifest = collect(&loaded, None, "abc", None, vec!["framecheck".into()]);
        assert_eq!(manifest.profile_hash.len(), 64);
        assert!(manifest.target.files.is_empty());
        assert!(manifest.target.interpreter.is_none());
    }

    #[test]
    fn the_manifest_records_the_unicode_reader_s_lookalike_table() {
        let loaded = LoadedProfile {
            profile: TargetProfile::parse(
                "name: x\nadapter:\n  command: [a]\ndelimiters:\n  grammar: xml-tag\n  token: t\ncapabilities: [wrap]\n",
            )
            .unwrap(),
            dir: PathBuf::new(),
        };
        let manifest = collect(&loaded, None, "c", None, Vec::new());
        let data = manifest.reader_data.clone().expect("recorded");
        assert_eq!(data, ReaderData::current());
        // An older report without the field still reads.
        let mut json = serde_json::to_value(&manifest).unwrap();
        json.as_object_mut().unwrap().remove("reader_data");
        let old: Manifest = serde_json::from_value(json).unwrap();
        assert_eq!(old.reader_data, None);
    }
}
