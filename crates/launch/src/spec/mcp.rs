//! The MCP server target kind (`adapter: { mcp: {...} }`): framecheck
//! plants the content where one of the server's tools reads it and takes
//! the tool result as the framed output (`docs/protocol.md`, "MCP
//! servers"). Its spec, its rules and how a proposal writes it.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use framecheck_core::profile::Position;
use serde::{Deserialize, Serialize};

use super::invalid::{self, AdapterField, AdapterRule, InvalidAdapter};
use super::TargetKind;
use crate::language::{of_command, Language};

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

impl Plant {
    /// The plant as written in a profile.
    pub fn name(self) -> &'static str {
        match self {
            Plant::File => "file",
            Plant::Http => "http",
            Plant::Argument => "argument",
            Plant::Tool => "tool",
            Plant::Command => "command",
        }
    }

    /// The placeholders that reach the plant from the read's arguments,
    /// the first the usual one; none for a file, which a server may reach
    /// by a relative path under a root given on its command line, nor for
    /// a store, which the write tool or setup command fills.
    pub fn placeholders(self) -> &'static [&'static str] {
        match self {
            Plant::File | Plant::Tool | Plant::Command => &[],
            Plant::Http => &["{url}", "{origin}"],
            Plant::Argument => &["{content}"],
        }
    }
}

impl McpSpec {
    /// The rules serde cannot check: a program, a positive timeout, a
    /// plain plant name (a page path for `plant: http`), a body only for a
    /// page, and a placeholder that reaches the plant.
    fn check(&self) -> Result<(), InvalidAdapter> {
        let fail = |field, kind| Err(InvalidAdapter::new(field, kind));
        if self.command.is_empty() && self.url.is_some() {
            return fail(AdapterField::McpCommand, AdapterRule::McpUrlWithoutCommand);
        }
        if self.command.is_empty() {
            return fail(AdapterField::McpCommand, AdapterRule::McpEmptyCommand);
        }
        if self.timeout_ms == 0 {
            return fail(AdapterField::McpTimeoutMs, AdapterRule::McpZeroTimeout);
        }
        if let Some(url) = &self.url {
            self.validate_url(url)?;
        }
        let name = self.plant_name.clone();
        match self.plant {
            Plant::Http if !name.split('/').all(plain_name) => {
                return fail(
                    AdapterField::McpPlantName,
                    AdapterRule::McpBadPagePath(name),
                );
            }
            Plant::File | Plant::Argument | Plant::Tool | Plant::Command if !plain_name(&name) => {
                return fail(
                    AdapterField::McpPlantName,
                    AdapterRule::McpBadPlantName(name),
                );
            }
            _ => {}
        }
        if self.plant_body.is_some() && self.plant != Plant::Http {
            return fail(AdapterField::McpPlantBody, AdapterRule::McpBodyWithoutPage);
        }
        self.validate_store()?;
        self.validate_clean()?;
        self.validate_reach()
    }

    /// A write tool for `plant: tool` and a setup command for `plant:
    /// command`, each given the content, neither without its plant; `{id}`
    /// only where the write's answer is said to carry one.
    fn validate_store(&self) -> Result<(), InvalidAdapter> {
        let fail = |field, kind| Err(InvalidAdapter::new(field, kind));
        let passes = |mut values: Box<dyn Iterator<Item = String> + '_>| {
            values.any(|v| v.contains("{content}") || v.contains("{content_json}"))
        };
        match (&self.write, self.plant) {
            (None, Plant::Tool) => {
                let kind = needs("plant: tool", "write", "the tool that stores the content");
                return fail(AdapterField::McpPlant, kind);
            }
            (Some(_), plant) if plant != Plant::Tool => {
                return fail(AdapterField::McpWrite, unused("write", "plant: tool"));
            }
            (Some(write), _) => {
                if !passes(Box::new(write.arguments.values().map(|v| v.to_string()))) {
                    let kind = AdapterRule::McpContentNotPassed {
                        key: "write.arguments",
                    };
                    return fail(AdapterField::McpWrite, kind);
                }
                if let Some(id) = &write.id {
                    validate_id(id)?;
                }
            }
            (None, _) => {}
        }
        match (&self.setup, self.plant) {
            (None, Plant::Command) => {
                let kind = needs("plant: command", "setup", "the command that stores it");
                return fail(AdapterField::McpPlant, kind);
            }
            (Some(_), plant) if plant != Plant::Command => {
                return fail(AdapterField::McpSetup, unused("setup", "plant: command"));
            }
            (Some(setup), _) => {
                if setup.command.is_empty() {
                    return fail(AdapterField::McpSetup, AdapterRule::McpEmptySetup);
                }
                if setup.timeout_ms == 0 {
                    return fail(AdapterField::McpSetup, AdapterRule::McpZeroSetupTimeout);
                }
                let argument = setup.input == SetupInput::Argument;
                if argument && !passes(Box::new(setup.command.iter().cloned())) {
                    let kind = AdapterRule::McpContentNotPassed {
                        key: "setup.command",
                    };
                    return fail(AdapterField::McpSetup, kind);
                }
            }
            (None, _) => {}
        }
        let picked = self.write.as_ref().is_some_and(|w| w.id.is_some());
        let uses_id = |values: &BTreeMap<String, serde_json::Value>| {
            values.values().any(|v| v.to_string().contains("{id}"))
        };
        if !picked && uses_id(&self.arguments) {
            let kind = AdapterRule::McpIdNotPicked { key: "arguments" };
            return fail(AdapterField::McpArguments, kind);
        }
        if !picked
            && self
                .clean_tool
                .as_ref()
                .is_some_and(|c| uses_id(&c.arguments))
        {
            let kind = AdapterRule::McpIdNotPicked {
                key: "clean_tool.arguments",
            };
            return fail(AdapterField::McpCleanTool, kind);
        }
        Ok(())
    }

    /// A clean tool exactly when `clean: tool`.
    fn validate_clean(&self) -> Result<(), InvalidAdapter> {
        match (self.clean, &self.clean_tool) {
            (Clean::Tool, None) => Err(InvalidAdapter::new(
                AdapterField::McpClean,
                needs("clean: tool", "clean_tool", "the tool that deletes a plant"),
            )),
            (clean, Some(_)) if clean != Clean::Tool => Err(InvalidAdapter::new(
                AdapterField::McpCleanTool,
                unused("clean_tool", "clean: tool"),
            )),
            _ => Ok(()),
        }
    }

    /// A plain `http://` endpoint whose `{port}`, if any, reaches the
    /// server through its command or environment.
    fn validate_url(&self, url: &str) -> Result<(), InvalidAdapter> {
        if !url.starts_with("http://") {
            let kind = AdapterRule::McpUrlNotHttp(url.to_string());
            return Err(InvalidAdapter::new(AdapterField::McpUrl, kind));
        }
        let passed = |text: &str| text.contains("{port}");
        let told = self.command.iter().any(|a| passed(a)) || self.env.values().any(|v| passed(v));
        if passed(url) && !told {
            return Err(InvalidAdapter::new(
                AdapterField::McpUrl,
                AdapterRule::McpPortNotPassed,
            ));
        }
        Ok(())
    }

    /// Some argument (or, for a page, the command or environment, where a
    /// server takes its API's base URL) holds a placeholder of the plant.
    fn validate_reach(&self) -> Result<(), InvalidAdapter> {
        let placeholders = self.plant.placeholders();
        let Some(&first) = placeholders.first() else {
            return Ok(());
        };
        let holds = |text: &str| placeholders.iter().any(|p| text.contains(p));
        let in_arguments = self.arguments.values().any(|v| holds(&v.to_string()));
        let in_launch = self.plant == Plant::Http
            && (self.command.iter().any(|a| holds(a)) || self.env.values().any(|v| holds(v)));
        if in_arguments || in_launch {
            return Ok(());
        }
        Err(InvalidAdapter::new(
            AdapterField::McpArguments,
            AdapterRule::McpPlantNotReached {
                plant: self.plant.name(),
                placeholder: first,
            },
        ))
    }
}

fn needs(given: &'static str, needs: &'static str, what: &'static str) -> AdapterRule {
    AdapterRule::McpNeeds { given, needs, what }
}

fn unused(key: &'static str, only_with: &'static str) -> AdapterRule {
    AdapterRule::McpUnused { key, only_with }
}

/// A JSON pointer as RFC 6901 spells one, or a pattern the engine the
/// adapter uses compiles.
fn validate_id(id: &IdFrom) -> Result<(), InvalidAdapter> {
    let rule = match id {
        IdFrom::Pointer(pointer) if !pointer.is_empty() && !pointer.starts_with('/') => {
            AdapterRule::McpBadIdPointer(pointer.clone())
        }
        IdFrom::Pattern(pattern) => match regex::Regex::new(pattern) {
            Ok(_) => return Ok(()),
            Err(e) => AdapterRule::McpBadIdPattern {
                pattern: pattern.clone(),
                reason: e.to_string(),
            },
        },
        IdFrom::Pointer(_) => return Ok(()),
    };
    Err(InvalidAdapter::new(AdapterField::McpWrite, rule))
}

/// One file name: not empty, no separator, not `.` or `..`.
fn plain_name(name: &str) -> bool {
    !name.is_empty() && !name.contains(['/', '\\']) && name != "." && name != ".."
}

impl TargetKind for McpSpec {
    fn validate(&self) -> Result<(), InvalidAdapter> {
        self.check()
    }

    /// Notes where `url` is written, for the error of a server that never
    /// listens.
    fn place(&mut self, text: &str) {
        if self.url.is_some() {
            self.url_at = invalid::locate(text, AdapterField::McpUrl);
        }
    }

    fn is_tool_server(&self) -> bool {
        true
    }

    /// Its per-call timeout; its start-up allowance is its own.
    fn raise_patience(&mut self, timeout_ms: u64, _startup_ms: u64) {
        self.timeout_ms = self.timeout_ms.max(timeout_ms);
    }

    /// Its mapping as given, every key kept (JSON is YAML's flow style).
    fn written(&self) -> String {
        let mcp = serde_json::to_string(self).unwrap_or_default();
        let mut out = String::new();
        let _ = writeln!(out, "adapter:\n  mcp: {mcp}");
        out
    }

    fn language(&self) -> Option<Language> {
        of_command(&self.command)
    }
}
