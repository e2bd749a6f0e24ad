//! framecheck-run: everything that calls a framing. Adapters drive a target
//! in-process or as a subprocess; the runner puts the catalogue's cases
//! through one and hands what comes back to the oracle; `init` infers a
//! profile from a target's behaviour; the nonce probes and the search
//! generate their own inputs.
//!
//! - [`adapter`]: the [`adapter::Framing`] implementations: callers,
//!   subprocesses, and the reference envelope's.
//! - [`runner`]: cases through an adapter into the oracle.
//! - [`init`]: a profile proposed from a framing's own behaviour.
//! - [`nonce_probe`]: the probe cases a nonce framing's outputs are judged with.
//! - [`search`]: mutation search for the inputs the catalogue misses.
//! - `fuzzing` (feature `fuzzing`): the fuzz target bodies, shared by `fuzz/`
//!   and the corpus replay test.
//!
//! A Rust project audits its own framing by implementing the `Framing`
//! trait and asserting conformance from its tests:
//!
//! ```
//! use framecheck_run::adapter::{Framing, TargetError, WrapRequest};
//! use framecheck_core::level::ReaderLevel;
//!
//! /// A framing that escapes `<` and `&`, so content cannot write a tag.
//! struct Escaping;
//!
//! impl Framing for Escaping {
//!     fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
//!         let body = request.content.replace('&', "&amp;").replace('<', "&lt;");
//!         Ok(format!("<data>\n{body}\n</data>"))
//!     }
//!     fn read(&mut self, _text: &str) -> Result<Option<String>, TargetError> {
//!         Ok(None)
//!     }
//! }
//!
//! let profile = framecheck_launch::profile::TargetProfile::parse(
//!     "name: escaping\nadapter: { command: [./frame] }\n\
//!      delimiters: { grammar: xml-tag, token: data }\n\
//!      body: { encoding: html-entities }\ncapabilities: [wrap]\n",
//! )
//! .unwrap();
//! framecheck_run::runner::assert_conformance(&mut Escaping, &profile, ReaderLevel::Exact);
//! ```
#![deny(missing_docs)]

pub mod adapter;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
pub mod init;
pub mod nonce_probe;
pub mod runner;
pub mod search;
