//! framecheck-core's integration tests, in one binary: the catalogue, the
//! grammars and the oracle through the crate's public API, building nothing
//! above the core (no envelope, runner, adapters or command line).

mod catalogue;
mod grammar;
mod oracle;

use std::path::Path;

use framecheck_core::profile::ResolvedProfile;

/// The repository's root: the catalogue and the target profiles are found
/// from here.
fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// The reference envelope's declared profile (`targets/reference.yaml`):
/// the envelope lives a floor up, and its own tests check that this file
/// and its built-in profile are the same.
fn reference_profile() -> ResolvedProfile {
    let path = repo().join("targets/reference.yaml");
    ResolvedProfile::parse(&std::fs::read_to_string(&path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}
