//! The built-in target kind (`adapter: { builtin: NAME }`): an
//! implementation compiled into framecheck, or the process which started it.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::{InvalidAdapter, TargetKind};
use crate::language::Language;

/// The targets framecheck knows by name: `adapter: { builtin: NAME }` in a
/// profile and `--target NAME` on the command line. A profile keeps the
/// name as written, so that an unknown one is refused where the target is
/// opened, naming it; the code that matches names matches these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BuiltinTarget {
    /// The reference envelope, in-process.
    Reference,
    /// The reference envelope in nonce mode, in-process.
    ReferenceNonce,
    /// The process which started framecheck (`run --serve-stdio`, the
    /// Python and Node helpers).
    Caller,
}

impl BuiltinTarget {
    /// Every built-in target.
    pub const ALL: [BuiltinTarget; 3] = [
        BuiltinTarget::Reference,
        BuiltinTarget::ReferenceNonce,
        BuiltinTarget::Caller,
    ];

    /// The name profiles and the command line give it.
    pub const fn name(self) -> &'static str {
        match self {
            BuiltinTarget::Reference => "reference",
            BuiltinTarget::ReferenceNonce => "reference-nonce",
            BuiltinTarget::Caller => "caller",
        }
    }

    /// The built-in target called `name`, if there is one.
    pub fn from_name(name: &str) -> Option<BuiltinTarget> {
        BuiltinTarget::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// `adapter: { builtin: NAME }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuiltinSpec {
    /// Name of the built-in implementation, as written: an unknown one is
    /// refused where the target is opened, naming it.
    pub builtin: String,
}

impl TargetKind for BuiltinSpec {
    /// A name has no rule of its own here (see [`BuiltinSpec::builtin`]).
    fn validate(&self) -> Result<(), InvalidAdapter> {
        Ok(())
    }

    fn is_tool_server(&self) -> bool {
        false
    }

    fn is_caller(&self) -> bool {
        self.builtin == BuiltinTarget::Caller.name()
    }

    /// In-process: no request waits on a process.
    fn raise_patience(&mut self, _timeout_ms: u64, _startup_ms: u64) {}

    fn written(&self) -> String {
        // A YAML double-quoted string.
        let quoted = serde_json::to_string(&self.builtin).unwrap_or_default();
        let mut out = String::new();
        let _ = writeln!(out, "adapter: {{ builtin: {quoted} }}");
        out
    }

    /// `caller` is the process that started framecheck; its helper states
    /// its own language.
    fn language(&self) -> Option<Language> {
        (!self.is_caller()).then_some(Language::RustInProcess)
    }
}
