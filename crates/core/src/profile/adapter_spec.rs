//! Reading a profile's `adapter:` mapping.
//!
//! The two shapes (`builtin: NAME`, or `command: [...]` with its options)
//! used to be told apart by serde's untagged enums, whose only error is "data
//! did not match any variant of untagged enum AdapterSpec". Reading every
//! key into one struct first gives each mistake its own message: an unknown
//! key is named with the keys allowed, and a mapping with neither shape (or
//! both) says what to write.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Deserialize;

use super::{AdapterSpec, ProcessMode, SubprocessSpec};

/// Every key an `adapter:` mapping may hold.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawAdapter {
    builtin: Option<String>,
    command: Option<Vec<String>>,
    cwd: Option<PathBuf>,
    env: Option<BTreeMap<String, String>>,
    timeout_ms: Option<u64>,
    mode: Option<ProcessMode>,
    max_reply_bytes: Option<usize>,
}

impl TryFrom<RawAdapter> for AdapterSpec {
    type Error = AdapterError;

    fn try_from(raw: RawAdapter) -> Result<AdapterSpec, AdapterError> {
        let subprocess_keys = [
            raw.command.is_some().then_some(ProcessKey::Command),
            raw.cwd.is_some().then_some(ProcessKey::Cwd),
            raw.env.is_some().then_some(ProcessKey::Env),
            raw.timeout_ms.is_some().then_some(ProcessKey::TimeoutMs),
            raw.mode.is_some().then_some(ProcessKey::Mode),
            raw.max_reply_bytes
                .is_some()
                .then_some(ProcessKey::MaxReplyBytes),
        ];
        let given: Vec<ProcessKey> = subprocess_keys.into_iter().flatten().collect();
        match (raw.builtin, raw.command) {
            (Some(_), _) if !given.is_empty() => Err(AdapterError::BuiltinWithProcess(given)),
            (Some(builtin), None) => Ok(AdapterSpec::Builtin { builtin }),
            (None, Some(command)) => Ok(AdapterSpec::Subprocess(SubprocessSpec {
                command,
                cwd: raw.cwd,
                env: raw.env.unwrap_or_default(),
                timeout_ms: raw.timeout_ms.unwrap_or_else(super::default_timeout_ms),
                mode: raw.mode.unwrap_or_default(),
                max_reply_bytes: raw
                    .max_reply_bytes
                    .unwrap_or_else(super::default_max_reply_bytes),
            })),
            (None, None) => Err(AdapterError::NeitherShape),
            (Some(_), Some(_)) => unreachable!("caught by the first arm"),
        }
    }
}

/// A key of `adapter:` that only a subprocess target has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProcessKey {
    /// `command`.
    Command,
    /// `cwd`.
    Cwd,
    /// `env`.
    Env,
    /// `timeout_ms`.
    TimeoutMs,
    /// `mode`.
    Mode,
    /// `max_reply_bytes`.
    MaxReplyBytes,
}

impl ProcessKey {
    /// The key as written in a profile.
    pub fn name(self) -> &'static str {
        match self {
            ProcessKey::Command => "command",
            ProcessKey::Cwd => "cwd",
            ProcessKey::Env => "env",
            ProcessKey::TimeoutMs => "timeout_ms",
            ProcessKey::Mode => "mode",
            ProcessKey::MaxReplyBytes => "max_reply_bytes",
        }
    }
}

/// Why an `adapter:` mapping has neither usable shape. The YAML parser
/// reports it (with the mapping's position) through its `Display`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AdapterError {
    /// `builtin` together with keys of a subprocess target.
    #[error(
        "adapter: `builtin` cannot be combined with {}; a built-in target has no process",
        join(.0)
    )]
    BuiltinWithProcess(Vec<ProcessKey>),
    /// Neither `builtin` nor `command`.
    #[error("adapter needs `command: [program, args...]` (a subprocess speaking docs/protocol.md) or `builtin: reference`")]
    NeitherShape,
}

fn join(keys: &[ProcessKey]) -> String {
    let names: Vec<&str> = keys.iter().map(|k| k.name()).collect();
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use crate::profile::TargetProfile;

    fn error_of(adapter: &str) -> String {
        let text = format!(
            "name: x\nadapter: {adapter}\ndelimiters: {{ syntax: xml-tag, token: t }}\ncapabilities: [wrap]\n"
        );
        TargetProfile::parse(&text).unwrap_err().to_string()
    }

    #[test]
    fn a_misspelt_key_is_named_with_the_keys_allowed() {
        let message = error_of("{ comand: [python3, a.py] }");
        assert!(message.contains("comand"), "{message}");
        assert!(message.contains("command"), "{message}");
        assert!(message.starts_with("line 2, column"), "{message}");
        assert!(!message.contains("untagged"), "{message}");
        assert!(!message.contains("AdapterSpec"), "{message}");
    }

    #[test]
    fn neither_shape_says_what_to_write() {
        let message = error_of("{ timeout_ms: 5 }");
        assert!(message.contains("adapter needs `command:"), "{message}");
        assert!(!message.contains("untagged"), "{message}");
    }

    #[test]
    fn both_shapes_are_refused() {
        let message = error_of("{ builtin: reference, command: [x] }");
        assert!(
            message.contains("cannot be combined with command"),
            "{message}"
        );
    }

    #[test]
    fn both_shapes_still_read() {
        let text = "name: x\nadapter: { builtin: reference }\ndelimiters: { syntax: xml-tag, token: t }\ncapabilities: [wrap]\n";
        assert!(TargetProfile::parse(text).is_ok());
        let text = "name: x\nadapter: { command: [a], mode: one-shot }\ndelimiters: { syntax: xml-tag, token: t }\ncapabilities: [wrap]\n";
        assert!(TargetProfile::parse(text).is_ok());
    }
}

/// The adapter's own typed errors, before the YAML parser turns them into
/// its message.
#[cfg(test)]
mod typed {
    use super::{AdapterError, ProcessKey, RawAdapter};
    use crate::profile::AdapterSpec;

    fn shape(yaml: &str) -> Result<AdapterSpec, AdapterError> {
        let raw: RawAdapter = serde_saphyr::from_str(yaml).unwrap();
        AdapterSpec::try_from(raw)
    }

    #[test]
    fn builtin_with_process_keys_names_them_in_order() {
        let error = shape("{ builtin: reference, mode: one-shot, cwd: x }").unwrap_err();
        assert_eq!(
            error,
            AdapterError::BuiltinWithProcess(vec![ProcessKey::Cwd, ProcessKey::Mode])
        );
        assert_eq!(
            error.to_string(),
            "adapter: `builtin` cannot be combined with cwd, mode; a built-in target has no process"
        );
    }

    #[test]
    fn neither_shape_is_its_own_kind() {
        assert_eq!(
            shape("{ timeout_ms: 5 }").unwrap_err(),
            AdapterError::NeitherShape
        );
    }
}
