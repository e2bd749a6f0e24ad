//! Adapters: how framecheck calls a framing implementation.
//!
//! Every target, in-process or subprocess, is driven through the [`Framing`]
//! trait, so the runner, oracle and reports never know which kind it is.
//! A Rust project implements [`Framing`] for its own framing and calls
//! [`crate::runner::assert_conformance`] from its tests.

mod builtin;
pub mod caller;
pub mod mcp;
pub mod replay;
mod reply;
mod starts;
pub mod subprocess;

// The trait every adapter implements, and what it is given and returns,
// live one floor down in the core (the catalogue, the oracle and the reports
// speak of requests and faults too); the reference envelope's adapter lives
// with the envelope. Both are re-exported so every adapter is found here.
pub use framecheck_core::target::{
    fault, Fault, FaultKind, Framing, Patience, TargetError, WrapRequest, WRAP_MANY_UNSUPPORTED,
};
pub use framecheck_envelope::reference;
pub use framecheck_launch::profile::BuiltinTarget;

use framecheck_launch::profile::{AdapterSpec, LoadedProfile};

/// How a target kind is opened: the run crate's half of a kind, whose
/// launch-crate half (rules, patience, how a proposal writes it) is
/// [`framecheck_launch::profile::TargetKind`]. Each kind implements it in
/// its own adapter module; [`connect`] is the one place they are listed.
pub trait Open {
    /// Opens the target `loaded` names, whose adapter is this spec.
    fn open(&self, loaded: &LoadedProfile) -> Result<Box<dyn Framing>, ConnectError>;
}

/// Why a profile's target could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    /// `builtin: caller`: the calling process serves it, over framecheck's
    /// own stdin and stdout; only `framecheck run` drives it.
    #[error("`builtin: caller` targets are served by the calling process: use `framecheck run`")]
    Caller,
    /// A built-in name that is neither `reference` nor `reference-nonce`.
    #[error("unknown built-in target {0:?}")]
    UnknownBuiltin(String),
    /// The target's program cannot be started (named by the profile).
    #[error("target {target}: cannot start: {reason}")]
    CannotStart {
        /// The profile's name.
        target: String,
        /// Why.
        reason: CannotStart,
    },
}

/// Why a target's program cannot be started, by adapter.
#[derive(Debug, thiserror::Error)]
pub enum CannotStart {
    /// A subprocess target's program or script is not there.
    #[error(transparent)]
    Launch(#[from] subprocess::LaunchError),
    /// An MCP target could not be set up.
    #[error(transparent)]
    Mcp(#[from] mcp::McpSetupError),
}

/// Opens the target a loaded profile names: an in-process built-in, an MCP
/// server, or a subprocess whose program is checked to be launchable. The
/// one place the CLI and the fuzz target `search_framing` open targets.
pub fn connect(loaded: &LoadedProfile) -> Result<Box<dyn Framing>, ConnectError> {
    let kind: &dyn Open = match &loaded.profile.adapter {
        AdapterSpec::Builtin(spec) => spec,
        AdapterSpec::Subprocess(spec) => spec,
        AdapterSpec::Mcp { mcp } => mcp.as_ref(),
    };
    kind.open(loaded)
}

impl ConnectError {
    /// The profile's target cannot be started, for `reason`.
    fn cannot_start(loaded: &LoadedProfile, reason: impl Into<CannotStart>) -> ConnectError {
        ConnectError::CannotStart {
            target: loaded.profile.name.clone(),
            reason: reason.into(),
        }
    }
}
