//! The target's launch configuration: how framecheck reaches a framing
//! (a profile's `adapter:` section), which only the run crate acts on.
//!
//! Core parses the profile file and keeps this section beside the frame
//! description as its type parameter ([`Launch`]); the rules serde cannot
//! check, the fields they name and where those are written are this
//! module's ([`InvalidAdapter`]), and core only carries the error.

use framecheck_core::profile::Launch;

use crate::language::Language;
use crate::profile::TargetProfile;
use serde::{Deserialize, Serialize};

mod adapter_spec;
mod builtin;
mod invalid;
mod kind;
mod mcp;
#[cfg(test)]
mod messages;
mod subprocess;
pub use adapter_spec::{AdapterError, ProcessKey};
pub use builtin::{BuiltinSpec, BuiltinTarget};
pub use invalid::{AdapterField, AdapterRule, InvalidAdapter};
pub use kind::TargetKind;
pub use mcp::{Clean, IdFrom, McpSpec, Plant, SetupCommand, SetupInput, ToolCall, WriteTool};
pub use subprocess::{ProcessMode, SubprocessSpec};

/// How framecheck reaches a framing: one variant per target kind, each
/// kind's spec and decisions in its own module ([`TargetKind`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged, try_from = "adapter_spec::RawAdapter")]
pub enum AdapterSpec {
    /// An implementation compiled into framecheck (`reference`).
    Builtin(BuiltinSpec),
    /// A child process speaking the protocol in `docs/protocol.md`.
    Subprocess(SubprocessSpec),
    /// An MCP server: framecheck plants the content where one of its tools
    /// reads it and takes the tool result as the framed output
    /// (`docs/protocol.md`, "MCP servers").
    Mcp {
        /// The server and the tool (boxed: it is several times the size
        /// of the other adapters' specs).
        mcp: Box<McpSpec>,
    },
}

impl AdapterSpec {
    /// The name of the built-in adapter that is the process which started
    /// framecheck (`run --serve-stdio`, the Python and Node helpers).
    pub const CALLER: &'static str = BuiltinTarget::Caller.name();

    /// `adapter: { builtin: NAME }` for a built-in target.
    pub fn builtin(target: BuiltinTarget) -> AdapterSpec {
        AdapterSpec::Builtin(BuiltinSpec {
            builtin: target.name().to_string(),
        })
    }

    /// `adapter: { builtin: caller }`.
    pub fn caller() -> AdapterSpec {
        AdapterSpec::builtin(BuiltinTarget::Caller)
    }

    /// The kind's own spec, which makes every decision by kind: the one
    /// place the kinds are listed, so a new kind is its module and a line
    /// here (and its keys in `adapter_spec`'s reading).
    pub fn kind(&self) -> &dyn TargetKind {
        match self {
            AdapterSpec::Builtin(spec) => spec,
            AdapterSpec::Subprocess(spec) => spec,
            AdapterSpec::Mcp { mcp } => mcp.as_ref(),
        }
    }

    /// [`AdapterSpec::kind`], to change.
    pub fn kind_mut(&mut self) -> &mut dyn TargetKind {
        match self {
            AdapterSpec::Builtin(spec) => spec,
            AdapterSpec::Subprocess(spec) => spec,
            AdapterSpec::Mcp { mcp } => mcp.as_mut(),
        }
    }

    /// Whether this is `adapter: { builtin: caller }`: the framing is
    /// served by the calling process, and no file or command names it.
    pub fn is_caller(&self) -> bool {
        self.kind().is_caller()
    }

    /// Whether the target is a tool server (an MCP server): it is given
    /// nothing but the content, so the fields its frame shows are its own,
    /// and what it answers reaches the model as a tool's result in the
    /// host's message, not as prompt text.
    pub fn is_tool_server(&self) -> bool {
        self.kind().is_tool_server()
    }

    /// This adapter given at least `timeout_ms` per request and, for a
    /// subprocess, at least `startup_ms` more for the request that starts
    /// it: `init` gives a declared target the patience it was asked for.
    pub fn at_least_patient(mut self, timeout_ms: u64, startup_ms: u64) -> AdapterSpec {
        self.kind_mut().raise_patience(timeout_ms, startup_ms);
        self
    }

    /// The `adapter:` section as a proposed profile writes it, each kind
    /// with the keys it was given.
    pub fn written(&self) -> String {
        self.kind().written()
    }
}

impl Language {
    /// The language of `adapter`, when it says it (its kind says how).
    pub fn of_adapter(adapter: &AdapterSpec) -> Option<Language> {
        adapter.kind().language()
    }
}

/// `profile` with its language filled from its adapter when the profile
/// leaves it empty; a stated language is kept as written.
pub fn with_language(profile: &TargetProfile) -> TargetProfile {
    let language = match Language::of_adapter(&profile.adapter) {
        Some(language) if profile.language.trim().is_empty() => language,
        _ => return profile.clone(),
    };
    // The language is free text no rule reads, so a valid profile with
    // another one is valid.
    profile
        .edit(|p| p.language = language.name().to_string())
        .expect("a valid profile stays valid with a language filled in")
}

/// Core reads a profile file and keeps its `adapter:` section beside the
/// frame description; these are the section's own rules and places, each
/// kind's its own.
impl Launch for AdapterSpec {
    type Error = InvalidAdapter;

    fn validate(&self) -> Result<(), InvalidAdapter> {
        self.kind().validate()
    }

    fn place(&mut self, text: &str) {
        self.kind_mut().place(text);
    }
}
