//! The subprocess target kind (`adapter: { command: [...] }`): a child
//! process speaking the protocol in `docs/protocol.md`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::{AdapterField, AdapterRule, InvalidAdapter, TargetKind};
use crate::language::{of_command, Language};

/// A subprocess target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubprocessSpec {
    /// Program and arguments. Relative paths resolve against `cwd`.
    pub command: Vec<String>,
    /// Working directory, relative to the profile file's directory.
    #[serde(default)]
    pub cwd: Option<PathBuf>,
    /// Extra environment variables.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// Per-request timeout in milliseconds.
    #[serde(default = "default_timeout_ms")]
    pub timeout_ms: u64,
    /// Extra milliseconds a request that has to start the process gets
    /// (an SDK's import time), beside `timeout_ms`; `None` is the
    /// adapter's default (10 s). Kept apart so a slow start does not make
    /// every hanging request wait as long.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub startup_ms: Option<u64>,
    /// Persistent (one process, many requests) or one-shot.
    #[serde(default)]
    pub mode: ProcessMode,
    /// Largest reply line accepted, in bytes.
    #[serde(default = "default_max_reply_bytes")]
    pub max_reply_bytes: usize,
}

pub(super) fn default_timeout_ms() -> u64 {
    5_000
}

pub(super) fn default_max_reply_bytes() -> usize {
    16 * 1024 * 1024
}

/// Process lifetime for a subprocess target.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProcessMode {
    /// Started once and kept running; requests are JSON lines.
    #[default]
    Persistent,
    /// One process per request: one request line on stdin, one reply on stdout.
    OneShot,
}

impl TargetKind for SubprocessSpec {
    /// A program and a positive timeout.
    fn validate(&self) -> Result<(), InvalidAdapter> {
        if self.command.is_empty() {
            return Err(InvalidAdapter::new(
                AdapterField::AdapterCommand,
                AdapterRule::EmptyCommand,
            ));
        }
        if self.timeout_ms == 0 {
            return Err(InvalidAdapter::new(
                AdapterField::AdapterTimeoutMs,
                AdapterRule::ZeroTimeout,
            ));
        }
        Ok(())
    }

    fn is_tool_server(&self) -> bool {
        false
    }

    fn raise_patience(&mut self, timeout_ms: u64, startup_ms: u64) {
        self.timeout_ms = self.timeout_ms.max(timeout_ms);
        self.startup_ms = Some(self.startup_ms.unwrap_or(0).max(startup_ms));
    }

    /// The keys it was given: its command, `cwd` (relative), `env`,
    /// timeout and start-up allowance.
    fn written(&self) -> String {
        // A YAML double-quoted string.
        let quoted = |text: &str| serde_json::to_string(text).unwrap_or_default();
        let mut out = String::new();
        let command = serde_json::to_string(&self.command).unwrap_or_default();
        let _ = writeln!(out, "adapter:\n  command: {command}");
        if let Some(cwd) = &self.cwd {
            let _ = writeln!(
                out,
                "  cwd: {}  # relative to this file's directory",
                quoted(&cwd.display().to_string())
            );
        }
        if !self.env.is_empty() {
            let env = serde_json::to_string(&self.env).unwrap_or_default();
            let _ = writeln!(out, "  env: {env}");
        }
        let _ = writeln!(out, "  timeout_ms: {}  # per request", self.timeout_ms);
        if let Some(startup) = self.startup_ms {
            let _ = writeln!(
                out,
                "  startup_ms: {startup}  # more for the request that starts the adapter"
            );
        }
        out
    }

    fn language(&self) -> Option<Language> {
        of_command(&self.command)
    }
}
