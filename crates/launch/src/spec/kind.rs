//! What a target kind knows about its own `adapter:` spec, behind one
//! trait: its rules, where its keys are written, whether it is a tool
//! server, how it takes `init`'s patience, how a proposal writes it and the
//! language a report names for it. Each kind implements it in its own
//! module (`builtin`, `subprocess`, `mcp`); [`AdapterSpec::kind`] is the one
//! place the kinds are listed. How a kind is opened is the run crate's
//! (`adapter::Open`), which this crate, below it, cannot name.
//!
//! [`AdapterSpec::kind`]: super::AdapterSpec::kind

use super::InvalidAdapter;
use crate::language::Language;

/// One target kind's spec: every decision framecheck makes by kind, below
/// the run crate.
pub trait TargetKind {
    /// The rules serde cannot check.
    fn validate(&self) -> Result<(), InvalidAdapter>;

    /// Notes where its keys are written in the profile text, for errors
    /// found after validation (an MCP server's `url`, which never
    /// listens). Most kinds note nothing.
    fn place(&mut self, _text: &str) {}

    /// Whether the target is a tool server: it is given nothing but the
    /// content, so the fields its frame shows are its own, and what it
    /// answers reaches the model as a tool's result in the host's message,
    /// not as prompt text.
    fn is_tool_server(&self) -> bool;

    /// Whether the framing is served by the process that started
    /// framecheck (`builtin: caller`), so no file or command names it.
    fn is_caller(&self) -> bool {
        false
    }

    /// Raises its timeouts to at least `timeout_ms` per request and, where
    /// it starts a process per target, `startup_ms` more for the request
    /// that starts it; never lowers them.
    fn raise_patience(&mut self, timeout_ms: u64, startup_ms: u64);

    /// The `adapter:` section as a proposed profile writes it.
    fn written(&self) -> String;

    /// The language a report names for it, when its command says it.
    fn language(&self) -> Option<Language>;
}
