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
//! The modules follow the one direction data flows in:
//!
//! ```text
//! attacks/*.yaml ─► catalogue ─► (profile) ─► runner ─► adapter ─► oracle ─► report
//! ```
//!
//! - [`level`]: the reader levels and how each one folds text (the spec).
//! - [`reader`]: one reader level's rules in one place (fold, lines, names).
//! - [`grammar`]: delimiter grammars: liveness, rendering, opener parsing.
//! - [`envelope`]: the reference envelope, the built-in target.
//! - [`profile`]: target profiles: delimiters, syntax, capabilities.
//! - [`catalogue`]: loading, validating and instantiating attack cases.
//! - [`chat_template`]: chat-template control strings and the context a frame sits in.
//! - [`adapter`]: the [`adapter::Framing`] trait, in-process and subprocess.
//! - [`encoding`]: body encodings (JSON string, entities, base64, data-marking).
//! - [`layout`]: the frame layout learned by calibration, and `init`.
//! - [`nonce`]: is a framing's per-call variable part unpredictable?
//! - [`oracle`]: structural checks and findings.
//! - [`gate`]: which findings fail a case (`--strict`), in one place.
//! - [`runner`]: cases through an adapter into the oracle.
//! - [`report`]: JSON, Markdown, JUnit XML and SARIF, and baseline diffs.
//! - [`fuzzing`]: the fuzz target bodies, shared by `fuzz/` and the corpus replay test.
#![deny(missing_docs)]

pub mod adapter;
pub mod catalogue;
pub mod chat_template;
pub mod encoding;
pub mod envelope;
pub mod files;
pub mod fuzzing;
pub mod gate;
pub mod grammar;
pub mod layout;
pub mod level;
pub mod manifest;
pub mod nonce;
pub mod oracle;
pub mod outcome;
pub mod profile;
pub mod reader;
pub mod report;
pub mod runner;
pub mod search;
pub mod target;
pub mod tokview;
pub mod yaml;

/// The README's Rust examples, compiled and run as doc tests so they cannot
/// drift from the API.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
