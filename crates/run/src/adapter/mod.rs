//! Adapters: how framecheck calls a framing implementation.
//!
//! Every target, in-process or subprocess, is driven through the [`Framing`]
//! trait, so the runner, oracle and reports never know which kind it is.
//! A Rust project implements [`Framing`] for its own framing and calls
//! [`crate::runner::assert_conformance`] from its tests.

pub mod caller;
pub use framecheck_envelope::reference;
pub mod subprocess;

pub use framecheck_core::target::{
    fault, Fault, FaultKind, Framing, TargetError, WrapRequest, WRAP_MANY_UNSUPPORTED,
};
