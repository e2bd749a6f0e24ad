//! The target's launch configuration: how framecheck reaches a framing
//! (a profile's `adapter:` section), which only the run crate acts on.
//!
//! Core parses the profile file and keeps this section beside the frame
//! description as its type parameter ([`Launch`]); the rules serde cannot
//! check, the fields they name and where those are written are this
//! module's ([`InvalidAdapter`]), and core only carries the error.

use std::collections::BTreeMap;
use std::path::PathBuf;

use framecheck_core::profile::{Launch, Position};
use serde::{Deserialize, Serialize};

mod adapter_spec;
mod invalid;
#[cfg(test)]
mod messages;
pub use adapter_spec::{AdapterError, ProcessKey};
pub use invalid::{AdapterField, AdapterRule, InvalidAdapter};

/// How framecheck reaches a framing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged, try_from = "adapter_spec::RawAdapter")]
pub enum AdapterSpec {
    /// An implementation compiled into framecheck (`reference`).
    Builtin {
        /// Name of the built-in implementation.
        builtin: String,
    },
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

impl AdapterSpec {
    /// The name of the built-in adapter that is the process which started
    /// framecheck (`run --serve-stdio`, the Python and Node helpers).
    pub const CALLER: &'static str = BuiltinTarget::Caller.name();

    /// `adapter: { builtin: NAME }` for a built-in target.
    pub fn builtin(target: BuiltinTarget) -> AdapterSpec {
        AdapterSpec::Builtin {
            builtin: target.name().to_string(),
        }
    }

    /// `adapter: { builtin: caller }`.
    pub fn caller() -> AdapterSpec {
        AdapterSpec::builtin(BuiltinTarget::Caller)
    }

    /// Whether this is `adapter: { builtin: caller }`: the framing is
    /// served by the calling process, and no file or command names it.
    pub fn is_caller(&self) -> bool {
        matches!(self, AdapterSpec::Builtin { builtin } if builtin == AdapterSpec::CALLER)
    }

    /// Whether the target is a tool server (an MCP server): it is given
    /// nothing but the content, so the fields its frame shows are its own,
    /// and what it answers reaches the model as a tool's result in the
    /// host's message, not as prompt text. Every kind says so here.
    pub fn is_tool_server(&self) -> bool {
        match self {
            AdapterSpec::Builtin { .. } | AdapterSpec::Subprocess(_) => false,
            AdapterSpec::Mcp { .. } => true,
        }
    }

    /// This adapter given at least `timeout_ms` per request and, for a
    /// subprocess, at least `startup_ms` more for the request that starts
    /// it: `init` gives a declared target the patience it was asked for.
    pub fn at_least_patient(mut self, timeout_ms: u64, startup_ms: u64) -> AdapterSpec {
        match &mut self {
            AdapterSpec::Builtin { .. } => {}
            AdapterSpec::Subprocess(spec) => {
                spec.timeout_ms = spec.timeout_ms.max(timeout_ms);
                spec.startup_ms = Some(spec.startup_ms.unwrap_or(0).max(startup_ms));
            }
            AdapterSpec::Mcp { mcp } => mcp.timeout_ms = mcp.timeout_ms.max(timeout_ms),
        }
        self
    }
}

/// An MCP server target (`adapter: { mcp: {...} }`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct McpSpec {
    /// The server's command, spoken to over stdio unless `url` is given.
    /// `{workdir}` is replaced by the run's temporary work directory,
    /// `{url}` by the fixture page's URL, `{origin}` by the fixture
    /// server's `http://127.0.0.1:PORT` (for a server whose API base URL is
    /// an option) and `{port}` by the port picked for `url`.
    pub command: Vec<String>,
    /// The server's Streamable HTTP endpoint, when it is spoken to over
    /// HTTP rather than stdio, e.g. `http://127.0.0.1:{port}/mcp`:
    /// framecheck picks a free port for `{port}`, fills it in here and in
    /// the command and environment, starts the command and waits (up to
    /// `startup_ms`) for the endpoint to accept a connection. Plain `http`
    /// only: the server runs on this machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Where `url` is written in the profile text, for the error of a
    /// server that never listens; set by [`crate::profile::TargetProfile::parse`], never
    /// read from or written to a profile.
    #[serde(skip)]
    pub url_at: Option<Position>,
    /// Working directory, relative to the profile file's directory.
    #[serde(default)]
    pub cwd: Option<PathBuf>,
    /// Extra environment variables; their values are filled like the
    /// command's.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// The tool called once per wrap request.
    pub tool: String,
    /// The tool's arguments. In every string, `{workdir}`, `{url}` (the
    /// fixture page) and `{content}` (the content itself) are replaced.
    #[serde(default)]
    pub arguments: BTreeMap<String, serde_json::Value>,
    /// Where the content is planted for the tool to read.
    pub plant: Plant,
    /// The planted file's name in the work directory (`plant: file`) and
    /// the fixture page's path (`plant: http`, where it may have several
    /// `/`-separated segments, as an API's endpoint has).
    #[serde(default = "default_plant_name")]
    pub plant_name: String,
    /// The fixture page's body (`plant: http`), when the page is not the
    /// content alone: `{content}` is the content as it is and
    /// `{content_json}` the content as one JSON string literal, so the page
    /// can be the JSON answer of the API the server calls, carrying the
    /// content in one of its fields. Absent: the page is the content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plant_body: Option<String>,
    /// The fixture page's `Content-Type` (`plant: http`).
    #[serde(default = "default_content_type")]
    pub content_type: String,
    /// Per-call timeout in milliseconds (the first call also waits for the
    /// server to start: `npx` may download it).
    #[serde(default = "default_mcp_timeout_ms")]
    pub timeout_ms: u64,
    /// How long the server may take to start and answer `initialize`, in
    /// milliseconds (`npx` and `uvx` may download the package first).
    #[serde(default = "default_mcp_startup_ms")]
    pub startup_ms: u64,
    /// `plant: tool`: the server's own tool that stores the content before
    /// each read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub write: Option<WriteTool>,
    /// `plant: command`: the command that stores the content before each
    /// read (a commit, an insert).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<SetupCommand>,
    /// A command run in each fresh work directory before the server starts
    /// there (`git init`), its placeholders filled like the command's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prepare: Vec<String>,
    /// How each plant starts from a clean store, so that no read answers
    /// another case's content.
    #[serde(default, skip_serializing_if = "Clean::is_none")]
    pub clean: Clean,
    /// `clean: tool`: the tool that deletes what a plant stored, called
    /// after each read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clean_tool: Option<ToolCall>,
}

/// A tool call other than the read: its name and arguments, whose strings
/// are filled like the read's (`{content}`, `{id}`, `{workdir}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolCall {
    /// The tool.
    pub tool: String,
    /// Its arguments.
    #[serde(default)]
    pub arguments: BTreeMap<String, serde_json::Value>,
}

/// `adapter.mcp.write`: the tool that stores the content (`plant: tool`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WriteTool {
    /// The tool.
    pub tool: String,
    /// Its arguments; one holds `{content}` (or `{content_json}`).
    #[serde(default)]
    pub arguments: BTreeMap<String, serde_json::Value>,
    /// Where in the write's answer the id of the stored item is, which
    /// the read (and the clean tool) take as `{id}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<IdFrom>,
}

/// How the id of a stored item is picked from the write tool's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum IdFrom {
    /// A JSON pointer (RFC 6901, `/id`, `/items/0/id`) into the answer's
    /// structured content, or else into its first text part that is JSON.
    Pointer(String),
    /// A regular expression over the answer's text parts: its first
    /// capture group, or the whole match when it has none.
    Pattern(String),
}

/// `adapter.mcp.setup`: the command that stores the content (`plant:
/// command`), run in the server's working directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupCommand {
    /// Program and arguments, filled like the server's command.
    pub command: Vec<String>,
    /// How the content reaches it.
    #[serde(default)]
    pub input: SetupInput,
    /// How long it may run, in milliseconds; past that it is killed and
    /// the case has a hang.
    #[serde(default = "default_setup_timeout_ms")]
    pub timeout_ms: u64,
}

/// How a setup command is given the content.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SetupInput {
    /// Where `{content}` stands in the command.
    #[default]
    Argument,
    /// In `{workdir}/<plant_name>`, written before the command runs.
    File,
    /// On its standard input, which is then closed.
    Stdin,
}

/// How an MCP target's store is made clean before each plant.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Clean {
    /// Nothing: each read answers only what the last plant stored (a file
    /// or page replaced, a log read to one entry, a read by id).
    #[default]
    None,
    /// The server is restarted (a store held in its memory).
    Restart,
    /// A fresh work directory, `prepare` run in it, and the server
    /// restarted (a store kept on disk under `{workdir}`).
    Workdir,
    /// `clean_tool` is called after each read (a delete tool).
    Tool,
}

impl Clean {
    /// `clean: none`, the default.
    pub fn is_none(&self) -> bool {
        *self == Clean::None
    }

    /// The strategy as written in a profile.
    pub fn name(self) -> &'static str {
        match self {
            Clean::None => "none",
            Clean::Restart => "restart",
            Clean::Workdir => "workdir",
            Clean::Tool => "tool",
        }
    }
}

/// Where an MCP target's content is planted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Plant {
    /// A file in the run's work directory (`{workdir}/<plant_name>`).
    File,
    /// A page served on 127.0.0.1 at `{url}`.
    Http,
    /// The `{content}` placeholder of the arguments.
    Argument,
    /// The server's own write tool (`write`), called before each read.
    Tool,
    /// A setup command (`setup`), run before each read.
    Command,
}

fn default_plant_name() -> String {
    "doc.txt".to_string()
}

fn default_content_type() -> String {
    "text/plain; charset=utf-8".to_string()
}

fn default_mcp_timeout_ms() -> u64 {
    20_000
}

fn default_mcp_startup_ms() -> u64 {
    120_000
}

fn default_setup_timeout_ms() -> u64 {
    10_000
}

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

fn default_timeout_ms() -> u64 {
    5_000
}

fn default_max_reply_bytes() -> usize {
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

/// Core reads a profile file and keeps its `adapter:` section beside the
/// frame description; these are the section's own rules and places.
impl Launch for AdapterSpec {
    type Error = InvalidAdapter;

    /// The rules serde cannot check: a subprocess has a program and a
    /// positive timeout, an MCP server its own rules ([`McpSpec`]).
    fn validate(&self) -> Result<(), InvalidAdapter> {
        if let AdapterSpec::Subprocess(spec) = self {
            if spec.command.is_empty() {
                return Err(InvalidAdapter::new(
                    AdapterField::AdapterCommand,
                    AdapterRule::EmptyCommand,
                ));
            }
            if spec.timeout_ms == 0 {
                return Err(InvalidAdapter::new(
                    AdapterField::AdapterTimeoutMs,
                    AdapterRule::ZeroTimeout,
                ));
            }
        }
        if let AdapterSpec::Mcp { mcp } = self {
            mcp.validate()?;
        }
        Ok(())
    }

    /// Notes where an MCP server's `url` is written, for the error of a
    /// server that never listens.
    fn place(&mut self, text: &str) {
        if let AdapterSpec::Mcp { mcp } = self {
            if mcp.url.is_some() {
                mcp.url_at = invalid::locate(text, AdapterField::McpUrl);
            }
        }
    }
}
