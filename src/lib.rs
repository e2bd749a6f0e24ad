//! framecheck: an adversarial conformance harness for prompt-framing code.
//!
//! Framing wraps untrusted text (tool results, retrieved documents, peer-agent
//! replies) in delimiters so a model can tell data from instructions.
//! framecheck proves, structurally, that content cannot close, forge, reopen
//! or rewrite a frame. It does not prove a model will obey the frame:
//! framing marks provenance and raises cost; it is not a security boundary
//! against an adaptive attacker (Nasr et al., arXiv:2510.09023; AgentDojo,
//! arXiv:2406.13352).
//!
//! This crate is the one a Rust project depends on, and the `framecheck`
//! command. The library is the workspace's crates under one name, in the
//! one direction data flows in:
//!
//! ```text
//! attacks/*.yaml ─► catalogue ─► (profile) ─► runner ─► adapter ─► oracle ─► gate ─► report
//! ```
//!
//! - from `framecheck-core` (the model; it runs nothing): [`level`],
//!   [`reader`], [`chat_template`], [`yaml`], [`files`], [`target`],
//!   [`grammar`], [`profile`], [`encoding`], [`manifest`], [`catalogue`],
//!   [`layout`], [`tokview`], [`oracle`], [`gate`], [`outcome`], [`nonce`];
//! - `framecheck-envelope`, the reference envelope and its profiles, as
//!   [`envelope`];
//! - `framecheck-report`, the reports (JSON, Markdown, JUnit XML, SARIF,
//!   HTML, baseline diffs) and writing them, as [`report`];
//! - from `framecheck-run` (everything that calls a framing): [`adapter`],
//!   [`runner`], [`init`], [`nonce_probe`], [`search`], and with the
//!   `fuzzing` feature `fuzzing`.
//!
//! Auditing a framing in-process takes a profile, the catalogue, a run and
//! a report:
//!
//! ```
//! use framecheck::{catalogue, envelope, level::ReaderLevel, report, runner};
//! use framecheck::adapter::reference::Reference;
//!
//! let profile = envelope::reference_profile();
//! let cases = catalogue::instantiate(&catalogue::builtin(), &profile);
//! let options = runner::RunOptions { level: ReaderLevel::Unicode, ..Default::default() };
//! let run = runner::run(&cases, &profile, &mut Reference, &options, &mut |_| {});
//! let summary = report::Summary::of(&run);
//! assert_eq!(summary.exit_code(), report::EXIT_OK);
//! ```
#![deny(missing_docs)]

pub use framecheck_core::{
    catalogue, chat_template, encoding, files, gate, grammar, layout, level, nonce, oracle, reader,
    target, tokview, yaml,
};
pub use framecheck_envelope as envelope;
pub use framecheck_launch::{manifest, outcome, profile};
pub use framecheck_report as report;
#[cfg(feature = "fuzzing")]
pub use framecheck_run::fuzzing;
pub use framecheck_run::{adapter, init, nonce_probe, runner, search};

/// The README's Rust examples, compiled and run as doc tests so they cannot
/// drift from the API.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
