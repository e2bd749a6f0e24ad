//! MCP servers as targets: each wrap request plants its content where one
//! tool of the server reads it (a file, a local page, an argument), calls
//! the tool and takes the result's text parts as the framed output.
//!
//! The protocol is spoken by the official Rust SDK (`rmcp`), which is
//! async; a current-thread tokio runtime owned by [`McpFraming`] runs it,
//! so the runner still sees the synchronous [`Framing`] trait. The server
//! is started like every subprocess target (its own process group, the
//! parent-death signal, killed by [`super::subprocess::stop_all_children`]
//! on a signal), so `npx` and the `node` it starts go together.
//!
//! Several text parts are joined with one `\n` into one output: framecheck
//! has no notion of message parts yet, and a client that shows the parts to
//! a model puts them one after another. Non-text parts are left out.

mod plant;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use framecheck_core::profile::{LoadedProfile, McpSpec, Plant};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, Implementation,
};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use rmcp::ServiceExt;

use super::subprocess::{
    absolute, resolve_program, GroupProcess, Launch, MAX_SPAWN_FAILURES_IN_ROW,
};
use crate::adapter::{Fault, FaultKind, Framing, TargetError, WrapRequest};
use framecheck_core::target::ServerIdentity;
pub(crate) use plant::{fill, Values};
use plant::{fill_json, Fixture, WorkDir};

/// Bytes of the server's stderr kept for a fault's evidence.
const STDERR_TAIL_BYTES: usize = 4 * 1024;
/// How long a dead server's last stderr bytes are waited for.
const STDERR_SETTLE: Duration = Duration::from_millis(200);

/// One running server and the SDK's session with it.
struct Session {
    client: RunningService<RoleClient, ClientConfig>,
    process: GroupProcess,
}

/// An MCP server under test (profile `adapter: { mcp: ... }`).
pub struct McpFraming {
    spec: McpSpec,
    cwd: PathBuf,
    // Field order is drop order: the session goes before the runtime that
    // drives it, the fixture and work directory after the server that
    // reads them.
    session: Option<Session>,
    runtime: tokio::runtime::Runtime,
    fixture: Option<Fixture>,
    workdir: WorkDir,
    server: Option<ServerIdentity>,
    start_failures_in_row: u32,
    last_start_error: String,
}

impl std::fmt::Debug for McpFraming {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpFraming")
            .field("command", &self.spec.command)
            .field("tool", &self.spec.tool)
            .field("workdir", &self.workdir.path())
            .finish_non_exhaustive()
    }
}

impl McpFraming {
    /// A target for `spec`, its relative `cwd` resolved against
    /// `profile_dir`. The work directory (and, for `plant: http`, the
    /// fixture server) exist from here on; the server starts on the first
    /// request.
    pub fn new(spec: &McpSpec, profile_dir: &Path) -> Result<McpFraming, String> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the MCP client's runtime: {e}"))?;
        let workdir =
            WorkDir::create().map_err(|e| format!("cannot create a work directory: {e}"))?;
        let fixture = match spec.plant {
            Plant::Http => Some(
                Fixture::start(&spec.plant_name, &spec.content_type)
                    .map_err(|e| format!("cannot start the fixture server: {e}"))?,
            ),
            Plant::File | Plant::Argument => None,
        };
        // A profile named by a bare file name has an empty directory.
        let profile_dir = absolute(profile_dir);
        let cwd = match &spec.cwd {
            Some(cwd) => profile_dir.join(cwd),
            None => profile_dir,
        };
        Ok(McpFraming {
            spec: spec.clone(),
            cwd,
            session: None,
            runtime,
            fixture,
            workdir,
            server: None,
            start_failures_in_row: 0,
            last_start_error: String::new(),
        })
    }

    /// The target of a loaded profile; `None` when it is not an MCP one.
    pub fn from_profile(loaded: &LoadedProfile) -> Option<Result<McpFraming, String>> {
        match &loaded.profile.adapter {
            framecheck_core::profile::AdapterSpec::Mcp { mcp } => {
                Some(McpFraming::new(mcp, &loaded.dir))
            }
            _ => None,
        }
    }

    /// The work directory content is planted in.
    pub fn workdir(&self) -> &Path {
        self.workdir.path()
    }

    /// The server's process id (its process group), while it runs.
    pub fn server_pid(&self) -> Option<u32> {
        self.session.as_ref().map(|s| s.process.id())
    }

    fn values<'a>(&'a self, content: &'a str) -> Values<'a> {
        let fixture = self.fixture.as_ref();
        Values::new(
            self.workdir.path().to_str().unwrap_or_default(),
            fixture.map(Fixture::url).unwrap_or_default(),
            fixture.map(Fixture::origin).unwrap_or_default(),
            content,
        )
    }

    fn command_line(&self) -> String {
        self.spec.command.join(" ")
    }

    /// The running session, started now if there is none.
    fn session(&mut self) -> Result<&mut Session, TargetError> {
        if self.session.is_none() {
            if self.start_failures_in_row >= MAX_SPAWN_FAILURES_IN_ROW {
                return Err(TargetError::failed(format!(
                    "not starting `{}` again after {} failed attempts in a row; last: {}",
                    self.command_line(),
                    self.start_failures_in_row,
                    self.last_start_error
                )));
            }
            match self.start() {
                Ok(session) => {
                    self.start_failures_in_row = 0;
                    self.session = Some(session);
                }
                Err(error) => {
                    self.start_failures_in_row += 1;
                    self.last_start_error = error.to_string();
                    return Err(error);
                }
            }
        }
        self.session
            .as_mut()
            .ok_or_else(|| TargetError::failed("internal error: no session after start"))
    }

    /// Starts the server and completes the `initialize` handshake.
    fn start(&mut self) -> Result<Session, TargetError> {
        let values = self.values("");
        let command: Vec<String> = self.spec.command.iter().map(|a| fill(a, &values)).collect();
        let env: BTreeMap<String, String> = (self.spec.env.iter())
            .map(|(name, value)| (name.clone(), fill(value, &values)))
            .collect();
        let program = resolve_program(&command[0], &self.cwd).map_err(TargetError::failed)?;
        let launch = Launch {
            program: &program,
            args: &command[1..],
            cwd: &self.cwd,
            env: &env,
            max_reply_bytes: 0,
            stderr_tail_bytes: STDERR_TAIL_BYTES,
        };
        let (mut process, (stdin, stdout)) = GroupProcess::spawn(&launch).map_err(|e| {
            TargetError::failed(format!(
                "cannot start `{}` in {}: {e}",
                command.join(" "),
                self.cwd.display()
            ))
        })?;
        let startup = Duration::from_millis(self.spec.startup_ms);
        let connected = self.runtime.block_on(async {
            let stdin = tokio::process::ChildStdin::from_std(stdin)?;
            let stdout = tokio::process::ChildStdout::from_std(stdout)?;
            let handshake = client_info().serve((stdout, stdin));
            match tokio::time::timeout(startup, handshake).await {
                Ok(result) => result.map_err(std::io::Error::other),
                Err(_) => Err(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    format!("no `initialize` answer within startup_ms ({startup:?})"),
                )),
            }
        });
        match connected {
            Ok(client) => {
                self.server = client.peer().peer_info().map(|info| identity(&info));
                Ok(Session { client, process })
            }
            Err(e) => {
                process.terminate();
                let fault = Fault {
                    stderr_tail: process.stderr_tail(STDERR_SETTLE),
                    ..Fault::new(FaultKind::Crash)
                };
                // Not the input's fault: no request reached the server.
                Err(TargetError::Failed {
                    reason: format!("MCP server `{}` did not start: {e}", self.command_line()),
                    stderr_tail: fault.stderr_tail,
                    fault: None,
                })
            }
        }
    }

    /// Plants `content` and returns the tool's arguments for it.
    fn plant(
        &self,
        content: &str,
    ) -> Result<serde_json::Map<String, serde_json::Value>, TargetError> {
        let values = self.values(content);
        match self.spec.plant {
            Plant::File => {
                let path = self.workdir.path().join(&self.spec.plant_name);
                std::fs::write(&path, content).map_err(|e| {
                    TargetError::failed(format!("cannot plant {}: {e}", path.display()))
                })?;
            }
            Plant::Http => {
                if let Some(fixture) = &self.fixture {
                    match &self.spec.plant_body {
                        Some(body) => fixture.plant(&fill(body, &values)),
                        None => fixture.plant(content),
                    }
                }
            }
            Plant::Argument => {}
        }
        Ok(self
            .spec
            .arguments
            .iter()
            .map(|(name, value)| (name.clone(), fill_json(value, &values)))
            .collect())
    }

    /// Calls the tool once; every way it can end is sorted here.
    fn call(&mut self, content: &str) -> Result<String, TargetError> {
        let arguments = self.plant(content)?;
        let timeout = Duration::from_millis(self.spec.timeout_ms);
        let params = CallToolRequestParams::new(self.spec.tool.clone()).with_arguments(arguments);
        let session = self.session()?;
        let peer = session.client.peer().clone();
        let answer = self
            .runtime
            .block_on(async { tokio::time::timeout(timeout, peer.call_tool(params)).await });
        match answer {
            Ok(Ok(result)) => framed_output(&result),
            Ok(Err(ServiceError::McpError(error))) => Err(TargetError::Refused(format!(
                "the tool call failed with error {}: {}",
                error.code.0, error.message
            ))),
            Ok(Err(error)) => {
                Err(self.fault(FaultKind::Crash, format!("the MCP session broke: {error}")))
            }
            Err(_) => Err(self.fault(
                FaultKind::Hang,
                format!(
                    "no tool result within timeout_ms ({} ms)",
                    self.spec.timeout_ms
                ),
            )),
        }
    }

    /// Retires the server and describes what it did.
    fn fault(&mut self, kind: FaultKind, reason: String) -> TargetError {
        let mut fault = Fault::new(kind);
        if let Some(mut session) = self.session.take() {
            let ended = session.process.exited();
            fault.exit_status = ended.map(|status| status.to_string());
            session.process.terminate();
            fault.stderr_tail = session.process.stderr_tail(STDERR_SETTLE);
            self.close(session);
        }
        TargetError::fault(reason, fault)
    }

    /// Ends the SDK's session and kills the server's process group.
    fn close(&self, mut session: Session) {
        let _ = self.runtime.block_on(async {
            tokio::time::timeout(Duration::from_secs(1), session.client.close()).await
        });
        session.process.terminate();
    }
}

/// framecheck as the client names itself in `initialize`.
fn client_info() -> ClientConfig {
    ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("framecheck", env!("CARGO_PKG_VERSION")),
    )
}

/// The server's `initialize` answer; a server that gave no implementation
/// identity is recorded as `unknown`.
fn identity(info: &rmcp::model::ServerPeerInfo) -> ServerIdentity {
    let protocol = serde_json::to_value(&info.protocol_version)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    let (name, version) = match &info.server_info {
        Some(server) => (server.name.clone(), server.version.clone()),
        None => ("unknown".to_string(), "unknown".to_string()),
    };
    ServerIdentity {
        name,
        version,
        protocol_version: protocol,
    }
}

/// The framed output of a tool result: its text parts, joined by `\n`.
/// An `isError` result is a refusal (the server declined this content); a
/// result without text is outside what a framing can answer.
fn framed_output(result: &CallToolResult) -> Result<String, TargetError> {
    let texts: Vec<&str> = result
        .content
        .iter()
        .filter_map(|block| block.as_text().map(|t| t.text.as_str()))
        .collect();
    if result.is_error == Some(true) {
        return Err(TargetError::Refused(format!(
            "the tool answered isError: {}",
            texts.join("\n")
        )));
    }
    if texts.is_empty() {
        return Err(TargetError::fault(
            "the tool result has no text part",
            Fault::new(FaultKind::ProtocolViolation),
        ));
    }
    Ok(texts.join("\n"))
}

impl Framing for McpFraming {
    fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
        self.call(&request.content)
    }

    fn read(&mut self, _text: &str) -> Result<Option<String>, TargetError> {
        Err(TargetError::failed(
            "an MCP server has no reader: declare `capabilities: [wrap]`",
        ))
    }

    fn restart(&mut self) {
        if let Some(session) = self.session.take() {
            self.close(session);
        }
        self.start_failures_in_row = 0;
    }

    fn server(&self) -> Option<ServerIdentity> {
        self.server.clone()
    }
}

impl Drop for McpFraming {
    fn drop(&mut self) {
        if let Some(session) = self.session.take() {
            self.close(session);
        }
    }
}
