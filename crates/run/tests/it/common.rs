//! What the integration tests of the run crate and of the root crate share
//! (the root's `tests/it/common.rs` includes this file and adds the
//! `framecheck` command runner): the repository's root, whether an external
//! tool (node, python3, go) is here and what to do when it is not, the Go
//! seed adapter's build, and the profiles and nonces several modules use.
//! It names the workspace's library crates, never the root crate, so that
//! testing the run crate builds nothing above it.
//!
//! libtest has no "skipped" status and captures `eprintln!` of passing
//! tests, so a test that returned early for lack of a tool used to show as a
//! silent `ok`. A skip is now written straight to the process's stderr
//! (outside libtest's capture) so it shows next to the `ok`; and under
//! `CI=true` a missing tool fails the test, because CI installs every tool
//! and a skip there means an audit did not run.

use std::io::Write as _;
use std::path::Path;
use std::process::Command;

/// The repository's root (the workspace, where `Cargo.lock` is): targets,
/// catalogue, fixtures and committed reports are found from here, whichever
/// crate's test binary this file is compiled into.
pub(crate) fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .find(|dir| dir.join("Cargo.lock").is_file())
        .expect("the workspace root holds Cargo.lock")
}

/// What a test does about a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ToolPolicy {
    /// The tool is here: run.
    Run,
    /// Not here, outside CI: say so and return early.
    Skip,
    /// Not here, in CI: fail.
    Fail,
}

/// The policy for a tool that is (or is not) `present`, given the value of
/// the `CI` environment variable.
pub(crate) fn tool_policy(present: bool, ci: Option<&str>) -> ToolPolicy {
    let in_ci = ci.is_some_and(|v| v.eq_ignore_ascii_case("true") || v == "1");
    match (present, in_ci) {
        (true, _) => ToolPolicy::Run,
        (false, false) => ToolPolicy::Skip,
        (false, true) => ToolPolicy::Fail,
    }
}

/// True when `program --version` (or `program version`: Go has no
/// `--version`, and asking for it made every Go test skip) runs.
pub(crate) fn tool_runs(program: &str) -> bool {
    ["--version", "version"].iter().any(|flag| {
        Command::new(program)
            .arg(flag)
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// Whether `test` can go on: `present` says whether what it needs (`what`)
/// is here. Prints a visible SKIPPED line, or panics under `CI=true`.
pub(crate) fn require(present: bool, what: &str, test: &str) -> bool {
    match tool_policy(present, std::env::var("CI").ok().as_deref()) {
        ToolPolicy::Run => true,
        ToolPolicy::Skip => {
            // Not eprintln!: libtest captures that for passing tests.
            let _ = writeln!(
                std::io::stderr().lock(),
                "SKIPPED {test}: {what} is not available (with CI=true this fails)"
            );
            false
        }
        ToolPolicy::Fail => panic!("{test}: {what} is not available, and CI=true requires it"),
    }
}

/// Builds the Go seed adapter (`adapters/build.sh`) once per test process
/// and gives the build's stderr if it failed. Once, because the tests are
/// one binary now and run in parallel: two builds at the same time could
/// rewrite the executable while another test runs it.
pub(crate) fn build_go_adapter() -> Result<(), String> {
    static BUILT: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            let build = Command::new("sh")
                .arg(repo().join("adapters/build.sh"))
                .output()
                .map_err(|e| e.to_string())?;
            if build.status.success() {
                Ok(())
            } else {
                Err(String::from_utf8_lossy(&build.stderr).into_owned())
            }
        })
        .clone()
}

/// [`require`] for a program on PATH.
pub(crate) fn have(program: &str, test: &str) -> bool {
    require(tool_runs(program), &format!("`{program}`"), test)
}

/// The reference's profile with a per-call hex nonce in the tag name
/// (`<untrusted-{nonce}>`, at least 16 digits): the nonce framings of
/// `nonce.rs` (with `nonce_framing.rs`) and `nonce_catalogue.rs` write it.
pub(crate) fn nonce_profile() -> framecheck_launch::profile::TargetProfile {
    use framecheck_core::grammar::{NonceAlphabet, NonceSpec};
    framecheck_envelope::reference_profile()
        .edit(|p| {
            p.delimiters.token = "untrusted-{nonce}".into();
            p.delimiters.nonce = Some(NonceSpec {
                alphabet: NonceAlphabet::Hex,
                min_length: Some(16),
            });
        })
        .expect("a valid nonce profile")
}

/// 32 hex digits from the operating system's random source.
pub(crate) fn random_hex() -> String {
    use std::io::Read as _;
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .expect("/dev/urandom");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Checks that `targets/<name>.yaml` loads as `builtin`, and that
/// `targets/<name>-subprocess.yaml` describes the same framing (delimiters,
/// capabilities, attributes) served over the protocol by `command`.
pub(crate) fn assert_profile_files_match(
    name: &str,
    builtin: &framecheck_launch::profile::TargetProfile,
    command: &[&str],
) {
    use framecheck_launch::profile::{AdapterSpec, TargetProfile};
    let targets = repo().join("targets");
    let loaded = TargetProfile::load(&targets.join(format!("{name}.yaml"))).unwrap();
    assert_eq!(&loaded.profile, builtin);
    let sub = TargetProfile::load(&targets.join(format!("{name}-subprocess.yaml"))).unwrap();
    assert_eq!(sub.profile.delimiters, loaded.profile.delimiters);
    assert_eq!(sub.profile.capabilities, loaded.profile.capabilities);
    assert_eq!(sub.profile.attributes, loaded.profile.attributes);
    let AdapterSpec::Subprocess(spec) = &sub.profile.adapter else {
        panic!("{name}-subprocess must be a subprocess target");
    };
    assert_eq!(spec.command, command);
}
