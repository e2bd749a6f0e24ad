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
//! A server with `url` is spoken to over Streamable HTTP instead (see
//! `http.rs`): the same process handling, its stdin held open and its
//! stdout drained, the SDK's HTTP client transport in place of the pipes.
//!
//! A result with one text part answers that text; one with several answers
//! them as parts without a role ([`WrapAnswer::Parts`], profiles declaring
//! `wrap.returns: parts`), joined with one `\n` where one text is asked for,
//! as a client that shows the parts to a model puts them one after another.
//! Non-text parts are left out.

mod http;
mod plant;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use framecheck_core::profile::{LoadedProfile, McpSpec, Plant};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, Implementation,
};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use rmcp::ServiceExt;

use super::subprocess::{
    absolute, has_exited, resolve_program, GroupProcess, Launch, ProcessPipes,
    MAX_SPAWN_FAILURES_IN_ROW,
};
use crate::adapter::{Fault, FaultKind, Framing, TargetError, WrapRequest};
use framecheck_core::target::{Part, ServerIdentity, WrapAnswer};
pub(crate) use plant::{fill, Values};
use plant::{fill_json, Fixture, WorkDir};

/// Bytes of the server's stderr kept for a fault's evidence.
const STDERR_TAIL_BYTES: usize = 4 * 1024;
/// How long a dead server's last stderr bytes are waited for.
const STDERR_SETTLE: Duration = Duration::from_millis(200);
/// How often a server is checked for having exited during a tool call.
const EXIT_POLL: Duration = Duration::from_millis(20);

/// The SDK's client session, whatever its transport.
type Client = RunningService<RoleClient, ClientConfig>;

/// One running server and the SDK's session with it.
struct Session {
    client: Client,
    process: GroupProcess,
    /// A server spoken to over HTTP keeps its stdin open: some take its
    /// end as the sign to stop.
    _stdin: Option<std::process::ChildStdin>,
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
    /// The port picked for `{port}` at the last start (`url` only).
    port: Option<u16>,
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
            port: None,
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
        .with_port(self.port)
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

    /// Starts the server and completes the `initialize` handshake, over
    /// its pipes or, with `url`, over Streamable HTTP.
    fn start(&mut self) -> Result<Session, TargetError> {
        if self.spec.url.is_some() {
            let port = http::free_port().map_err(|e| {
                TargetError::failed(format!("cannot pick a port for adapter.mcp.url: {e}"))
            })?;
            self.port = Some(port);
        }
        let (mut process, (stdin, stdout)) = self.spawn()?;
        let startup = Duration::from_millis(self.spec.startup_ms);
        let connected = match &self.spec.url {
            None => self
                .handshake_stdio(stdin, stdout, startup)
                .map(|c| (c, None)),
            Some(url) => {
                let url = fill(url, &self.values(""));
                http::drain(stdout)
                    .map_err(|e| format!("cannot read its stdout: {e}"))
                    .and_then(|()| self.handshake_http(&url, &mut process, startup))
                    .map(|c| (c, Some(stdin)))
            }
        };
        match connected {
            Ok((client, stdin)) => {
                self.server = client.peer().peer_info().map(|info| identity(&info));
                Ok(Session {
                    client,
                    process,
                    _stdin: stdin,
                })
            }
            Err(e) => {
                process.terminate();
                // Not the input's fault: no request reached the server.
                Err(TargetError::Failed {
                    reason: format!("MCP server `{}` did not start: {e}", self.command_line()),
                    stderr_tail: process.stderr_tail(STDERR_SETTLE),
                    fault: None,
                })
            }
        }
    }

    /// Starts the server's process, its placeholders filled in.
    fn spawn(&self) -> Result<(GroupProcess, ProcessPipes), TargetError> {
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
        GroupProcess::spawn(&launch).map_err(|e| {
            TargetError::failed(format!(
                "cannot start `{}` in {}: {e}",
                command.join(" "),
                self.cwd.display()
            ))
        })
    }

    /// The `initialize` handshake over the server's stdin and stdout.
    fn handshake_stdio(
        &self,
        stdin: std::process::ChildStdin,
        stdout: std::process::ChildStdout,
        startup: Duration,
    ) -> Result<Client, String> {
        self.runtime.block_on(async {
            let stdin = tokio::process::ChildStdin::from_std(stdin).map_err(|e| e.to_string())?;
            let stdout =
                tokio::process::ChildStdout::from_std(stdout).map_err(|e| e.to_string())?;
            let handshake = client_info().serve((stdout, stdin));
            match tokio::time::timeout(startup, handshake).await {
                Ok(result) => result.map_err(|e| e.to_string()),
                Err(_) => Err(format!(
                    "no `initialize` answer within startup_ms ({startup:?})"
                )),
            }
        })
    }

    /// Waits for `url` to listen, then the `initialize` handshake over
    /// Streamable HTTP; both within `startup`.
    fn handshake_http(
        &self,
        url: &str,
        process: &mut GroupProcess,
        startup: Duration,
    ) -> Result<Client, String> {
        let began = Instant::now();
        http::wait_listening(url, process, startup).map_err(|e| match self.spec.url_at {
            Some(at) => format!("{e} (adapter.mcp.url, line {})", at.line),
            None => format!("{e} (adapter.mcp.url)"),
        })?;
        let left = startup.saturating_sub(began.elapsed());
        self.runtime.block_on(async {
            let transport = http::transport(url).map_err(|e| e.to_string())?;
            match tokio::time::timeout(left, client_info().serve(transport)).await {
                Ok(result) => result.map_err(|e| format!("{url}: {e}")),
                Err(_) => Err(format!(
                    "no `initialize` answer from {url} within startup_ms ({startup:?})"
                )),
            }
        })
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
    fn call(&mut self, content: &str) -> Result<WrapAnswer, TargetError> {
        let arguments = self.plant(content)?;
        let timeout = Duration::from_millis(self.spec.timeout_ms);
        let params = CallToolRequestParams::new(self.spec.tool.clone()).with_arguments(arguments);
        let session = self.session()?;
        let peer = session.client.peer().clone();
        let pid = session.process.id();
        let answer = self.runtime.block_on(async {
            tokio::select! {
                biased;
                answer = tokio::time::timeout(timeout, peer.call_tool(params)) => match answer {
                    Ok(answer) => Answer::Done(answer),
                    Err(_) => Answer::TimedOut,
                },
                () = exit_of(pid) => Answer::Exited,
            }
        });
        match answer {
            Answer::Done(Ok(result)) => framed_output(&result),
            Answer::Done(Err(ServiceError::McpError(error))) => Err(TargetError::Refused(format!(
                "the tool call failed with error {}: {}",
                error.code.0, error.message
            ))),
            Answer::Done(Err(error)) => {
                Err(self.fault(FaultKind::Crash, format!("the MCP session broke: {error}")))
            }
            Answer::Exited => Err(self.fault(
                FaultKind::Crash,
                "the MCP server exited during the tool call".to_string(),
            )),
            Answer::TimedOut => Err(self.fault(
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

/// How one tool call ended.
enum Answer {
    /// The SDK's answer: a result, or the error it ended in.
    Done(Result<CallToolResult, ServiceError>),
    /// No answer within `timeout_ms`.
    TimedOut,
    /// The server process ended first. Over stdio the SDK sees the pipe
    /// close; over HTTP a dropped connection may be retried by the SDK
    /// until the timeout, so the process itself is watched.
    Exited,
}

/// Ready once process `pid` has exited (it is not reaped here).
async fn exit_of(pid: u32) {
    while !has_exited(pid) {
        tokio::time::sleep(EXIT_POLL).await;
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

/// The framed output of a tool result: its one text part, or its text
/// parts as parts without a role. An `isError` result is a refusal (the
/// server declined this content); a result without text is outside what a
/// framing can answer.
fn framed_output(result: &CallToolResult) -> Result<WrapAnswer, TargetError> {
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
    Ok(match texts.as_slice() {
        [one] => WrapAnswer::Text(one.to_string()),
        several => WrapAnswer::Parts(
            several
                .iter()
                .map(|text| Part {
                    role: None,
                    text: text.to_string(),
                })
                .collect(),
        ),
    })
}

impl Framing for McpFraming {
    fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
        self.call(&request.content).map(WrapAnswer::into_text)
    }

    fn wrap_answer(&mut self, request: &WrapRequest) -> Result<WrapAnswer, TargetError> {
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
