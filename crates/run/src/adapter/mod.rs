//! Adapters: how framecheck calls a framing implementation.
//!
//! Every target, in-process or subprocess, is driven through the [`Framing`]
//! trait, so the runner, oracle and reports never know which kind it is.
//! A Rust project implements [`Framing`] for its own framing and calls
//! [`crate::runner::assert_conformance`] from its tests.

pub mod caller;
pub mod mcp;
pub mod subprocess;

// The trait every adapter implements, and what it is given and returns,
// live one floor down in the core (the catalogue, the oracle and the reports
// speak of requests and faults too); the reference envelope's adapter lives
// with the envelope. Both are re-exported so every adapter is found here.
pub use framecheck_core::target::{
    fault, Fault, FaultKind, Framing, TargetError, WrapRequest, WRAP_MANY_UNSUPPORTED,
};
pub use framecheck_envelope::reference;
