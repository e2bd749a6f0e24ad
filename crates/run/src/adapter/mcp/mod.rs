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
//! A store is planted through the server itself (`plant: tool`, a write
//! tool called before the read, its answer's id passed to the read) or
//! beside it (`plant: command`, a setup command such as a commit); `clean`
//! says how each plant starts from a clean store, and a read that still
//! answers the plant before it is refused (`store.rs`).
//!
//! A result with one text part answers that text; one with several answers
//! them as parts without a role ([`WrapAnswer::Parts`], profiles declaring
//! `wrap.returns: parts`), joined with one `\n` where one text is asked for,
//! as a client that shows the parts to a model puts them one after another.
//! Non-text parts are left out.

mod http;
mod plant;
mod setup;
mod store;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use framecheck_launch::profile::{Clean, LoadedProfile, McpSpec, Plant, SetupInput};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, Implementation,
};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use rmcp::ServiceExt;

use super::reply::{Ending, Left};
use super::starts::Starts;
use super::subprocess::{
    absolute, has_exited, resolve_program, GroupProcess, Launch, ProcessPipes,
};
use crate::adapter::{Framing, Patience, TargetError, WrapRequest};
use framecheck_core::target::{Part, ServerIdentity, WrapAnswer};
pub(crate) use plant::{fill, Values};
use plant::{fill_json, Fixture, WorkDir};
pub use store::IdError;
use store::IdPicker;

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

/// A start that failed: its error, and whether the handshake's wait ran
/// out (a start the rule of [`Patience`] tries once more).
struct Unstarted {
    error: TargetError,
    timed_out: bool,
}

impl From<TargetError> for Unstarted {
    fn from(error: TargetError) -> Unstarted {
        Unstarted {
            error,
            timed_out: false,
        }
    }
}

/// How an `initialize` handshake failed.
#[derive(Debug, thiserror::Error)]
enum Handshake {
    /// No answer within the startup wait: the server may only be slow.
    #[error("{0}")]
    TimedOut(String),
    /// The server or the transport said no.
    #[error("{0}")]
    Failed(String),
}

/// Why an MCP target could not be set up ([`McpFraming::new`]): what it
/// needs before its server starts, on the first request.
#[derive(Debug, thiserror::Error)]
pub enum McpSetupError {
    /// The async runtime the SDK runs on.
    #[error("cannot start the MCP client's runtime: {0}")]
    Runtime(std::io::Error),
    /// The work directory content is planted in.
    #[error("cannot create a work directory: {0}")]
    WorkDir(std::io::Error),
    /// The local page server of `plant: http`.
    #[error("cannot start the fixture server: {0}")]
    Fixture(std::io::Error),
    /// `write.id` cannot pick an id (a spec built in code, not
    /// validated).
    #[error(transparent)]
    Id(#[from] IdError),
    /// The `prepare` command failed.
    #[error(transparent)]
    Prepare(#[from] TargetError),
}

/// One tool of a server's tool list: its name and input schema.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolSchema {
    /// The tool's name.
    pub name: String,
    /// Its arguments' JSON Schema (`inputSchema`).
    pub input_schema: serde_json::Value,
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
    starts: Starts,
    /// Plants since the store was last made clean (`clean`).
    plants: u32,
    /// The first and the last plant's content, which a store plant's
    /// later reads must not answer: a store not made clean answers the
    /// last one beside the new one when it keeps every item, and the
    /// first one instead of it when it ignores a write to a key it holds
    /// (the reference memory server's `create_entities`).
    earlier: store::Earlier,
    /// How the write tool's id is picked (`plant: tool` with `write.id`).
    id_picker: Option<IdPicker>,
    /// Whether the requests replay a failure, and wait longer.
    patience: Patience,
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
    pub fn new(spec: &McpSpec, profile_dir: &Path) -> Result<McpFraming, McpSetupError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(McpSetupError::Runtime)?;
        let workdir = WorkDir::create().map_err(McpSetupError::WorkDir)?;
        let fixture = match spec.plant {
            Plant::Http => Some(
                Fixture::start(&spec.plant_name, &spec.content_type)
                    .map_err(McpSetupError::Fixture)?,
            ),
            Plant::File | Plant::Argument | Plant::Tool | Plant::Command => None,
        };
        let id_picker = (spec.write.as_ref())
            .and_then(|w| w.id.as_ref())
            .map(IdPicker::new)
            .transpose()?;
        // A profile named by a bare file name has an empty directory.
        let profile_dir = absolute(profile_dir);
        let cwd = match &spec.cwd {
            Some(cwd) => profile_dir.join(cwd),
            None => profile_dir,
        };
        let framing = McpFraming {
            spec: spec.clone(),
            cwd,
            session: None,
            runtime,
            fixture,
            workdir,
            server: None,
            port: None,
            starts: Starts::default(),
            plants: 0,
            earlier: store::Earlier::default(),
            id_picker,
            patience: Patience::Plain,
        };
        framing.prepare()?;
        Ok(framing)
    }

    /// The target of a loaded profile; `None` when it is not an MCP one.
    pub fn from_profile(loaded: &LoadedProfile) -> Option<Result<McpFraming, McpSetupError>> {
        match &loaded.profile.adapter {
            framecheck_launch::profile::AdapterSpec::Mcp { mcp } => {
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

    /// The server's tools and their input schemas (`tools/list`, every
    /// page), the server started now if it is not running.
    pub fn list_tools(&mut self) -> Result<Vec<ToolSchema>, TargetError> {
        let timeout = self.wait(self.spec.timeout_ms);
        let peer = self.session()?.client.peer().clone();
        let listed = self
            .runtime
            .block_on(async { tokio::time::timeout(timeout, peer.list_all_tools()).await });
        let tools = match listed {
            Ok(Ok(tools)) => tools,
            Ok(Err(error)) => {
                return Err(TargetError::failed(format!(
                    "the server's tool list (tools/list) failed: {error}"
                )))
            }
            Err(_) => {
                return Err(self.end(Ending::TimedOut(format!(
                    "no tool list within {}",
                    self.waited("timeout_ms", self.spec.timeout_ms)
                ))))
            }
        };
        Ok(tools
            .into_iter()
            .map(|tool| ToolSchema {
                name: tool.name.to_string(),
                input_schema: serde_json::Value::Object((*tool.input_schema).clone()),
            })
            .collect())
    }

    /// Runs `prepare` in the work directory's first use (the server not
    /// started yet), in the server's working directory.
    fn prepare(&self) -> Result<(), TargetError> {
        if self.spec.prepare.is_empty() {
            return Ok(());
        }
        let values = self.values("");
        let argv: Vec<String> = self.spec.prepare.iter().map(|a| fill(a, &values)).collect();
        let command = setup::Command {
            argv: &argv,
            cwd: &self.cwd,
            env: &self.env(&values),
            stdin: None,
            timeout: Duration::from_millis(self.spec.startup_ms),
        };
        setup::run(&command).map_err(|e| TargetError::Failed {
            reason: format!("adapter.mcp.prepare: {e}"),
            stderr_tail: e.stderr_tail().to_string(),
            fault: None,
        })
    }

    /// The server's extra environment, filled.
    fn env(&self, values: &Values<'_>) -> BTreeMap<String, String> {
        (self.spec.env.iter())
            .map(|(name, value)| (name.clone(), fill(value, values)))
            .collect()
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
            if let Some(refused) = self.starts.refusal(&self.command_line()) {
                return Err(refused);
            }
            let started = self.start_replaying();
            self.session = Some(self.starts.record(started)?);
        }
        self.session
            .as_mut()
            .ok_or_else(|| TargetError::failed("internal error: no session after start"))
    }

    /// Starts the server; a start whose handshake missed its wait is tried
    /// once more, on a fresh process, under the replay budget (issue 57,
    /// the rule of [`Patience`]): under load a correct server misses
    /// `startup_ms` now and then, and only a handshake that misses the
    /// longer budget too fails the start. A start that is itself part of a
    /// replay has that budget already, and is not tried a third time.
    fn start_replaying(&mut self) -> Result<Session, TargetError> {
        match self.start() {
            Err(unstarted) if unstarted.timed_out && self.patience == Patience::Plain => {
                self.patience = Patience::Replay;
                let again = self.start();
                self.patience = Patience::Plain;
                again.map_err(|u| u.error)
            }
            started => started.map_err(|u| u.error),
        }
    }

    /// Starts the server and completes the `initialize` handshake, over
    /// its pipes or, with `url`, over Streamable HTTP, within `startup_ms`
    /// under the current [`Patience`].
    fn start(&mut self) -> Result<Session, Unstarted> {
        if self.spec.url.is_some() {
            let port = http::free_port().map_err(|e| {
                TargetError::failed(format!("cannot pick a port for adapter.mcp.url: {e}"))
            })?;
            self.port = Some(port);
        }
        let (mut process, (stdin, stdout)) = self.spawn()?;
        let startup = self.wait(self.spec.startup_ms);
        let connected = match &self.spec.url {
            None => self
                .handshake_stdio(stdin, stdout, startup)
                .map(|c| (c, None)),
            Some(url) => {
                let url = fill(url, &self.values(""));
                http::drain(stdout)
                    .map_err(|e| Handshake::Failed(format!("cannot read its stdout: {e}")))
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
                Err(Unstarted {
                    timed_out: matches!(e, Handshake::TimedOut(_)),
                    error: TargetError::Failed {
                        reason: format!("MCP server `{}` did not start: {e}", self.command_line()),
                        stderr_tail: process.stderr_tail(STDERR_SETTLE),
                        fault: None,
                    },
                })
            }
        }
    }

    /// Starts the server's process, its placeholders filled in.
    fn spawn(&self) -> Result<(GroupProcess, ProcessPipes), TargetError> {
        let values = self.values("");
        let command: Vec<String> = self.spec.command.iter().map(|a| fill(a, &values)).collect();
        let env = self.env(&values);
        let program = resolve_program(&command[0], &self.cwd)
            .map_err(|e| TargetError::failed(e.to_string()))?;
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
    ) -> Result<Client, Handshake> {
        let failed = |e: &dyn std::fmt::Display| Handshake::Failed(e.to_string());
        self.runtime.block_on(async {
            let stdin = tokio::process::ChildStdin::from_std(stdin).map_err(|e| failed(&e))?;
            let stdout = tokio::process::ChildStdout::from_std(stdout).map_err(|e| failed(&e))?;
            let handshake = client_info().serve((stdout, stdin));
            match tokio::time::timeout(startup, handshake).await {
                Ok(result) => result.map_err(|e| failed(&e)),
                Err(_) => Err(Handshake::TimedOut(format!(
                    "no `initialize` answer within {}",
                    self.waited("startup_ms", self.spec.startup_ms)
                ))),
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
    ) -> Result<Client, Handshake> {
        let began = Instant::now();
        let waited = self.waited("startup_ms", self.spec.startup_ms);
        http::wait_listening(url, process, startup, &waited).map_err(|e| {
            let reason = match self.spec.url_at {
                Some(at) => format!("{e} (adapter.mcp.url, line {})", at.line),
                None => format!("{e} (adapter.mcp.url)"),
            };
            match e {
                http::ListenError::Silent { .. } => Handshake::TimedOut(reason),
                _ => Handshake::Failed(reason),
            }
        })?;
        let left = startup.saturating_sub(began.elapsed());
        self.runtime.block_on(async {
            let transport = http::transport(url).map_err(|e| Handshake::Failed(e.to_string()))?;
            match tokio::time::timeout(left, client_info().serve(transport)).await {
                Ok(result) => result.map_err(|e| Handshake::Failed(format!("{url}: {e}"))),
                Err(_) => Err(Handshake::TimedOut(format!(
                    "no `initialize` answer from {url} within {waited}"
                ))),
            }
        })
    }

    /// Makes the store clean before every plant but the first, as
    /// `clean` says: the server restarted, or a fresh work directory
    /// prepared for a server restarted in it. A clean tool runs after the
    /// read instead ([`McpFraming::after_read`]).
    fn make_clean(&mut self) -> Result<(), TargetError> {
        self.plants += 1;
        if self.plants == 1 {
            return Ok(());
        }
        match self.spec.clean {
            Clean::None | Clean::Tool => Ok(()),
            Clean::Restart => {
                self.stop_server();
                Ok(())
            }
            Clean::Workdir => {
                self.stop_server();
                self.workdir = WorkDir::create().map_err(|e| {
                    TargetError::failed(format!("cannot create a work directory: {e}"))
                })?;
                self.prepare()
            }
        }
    }

    /// Ends the running server, if any; the next call starts one.
    fn stop_server(&mut self) {
        if let Some(session) = self.session.take() {
            self.close(session);
        }
    }

    /// Plants `content` where the read finds it; the id the write tool
    /// answered, when it is asked for one.
    fn plant(&mut self, content: &str) -> Result<Option<String>, TargetError> {
        let values = self.values(content);
        match self.spec.plant {
            Plant::File => self.write_file(content)?,
            Plant::Http => {
                if let Some(fixture) = &self.fixture {
                    match &self.spec.plant_body {
                        Some(body) => fixture.plant(&fill(body, &values)),
                        None => fixture.plant(content),
                    }
                }
            }
            Plant::Argument => {}
            Plant::Tool => return self.write_tool(content),
            Plant::Command => self.run_setup(content)?,
        }
        Ok(None)
    }

    /// Writes `content` to `{workdir}/<plant_name>`.
    fn write_file(&self, content: &str) -> Result<(), TargetError> {
        let path = self.workdir.path().join(&self.spec.plant_name);
        std::fs::write(&path, content)
            .map_err(|e| TargetError::failed(format!("cannot plant {}: {e}", path.display())))
    }

    /// `template`'s arguments, filled for `content` and `id`.
    fn arguments(
        &self,
        template: &BTreeMap<String, serde_json::Value>,
        content: &str,
        id: Option<&str>,
    ) -> serde_json::Map<String, serde_json::Value> {
        let values = self.values(content).with_id(id);
        (template.iter())
            .map(|(name, value)| (name.clone(), fill_json(value, &values)))
            .collect()
    }

    /// `plant: tool`: calls the write tool with the content; the id its
    /// answer carries, when `write.id` says where.
    fn write_tool(&mut self, content: &str) -> Result<Option<String>, TargetError> {
        let Some(write) = self.spec.write.clone() else {
            return Err(TargetError::failed("plant: tool needs adapter.mcp.write"));
        };
        let arguments = self.arguments(&write.arguments, content, None);
        let what = format!("the write tool `{}`", write.tool);
        // A write that declines the content (an error result, a JSON-RPC
        // error) is the store's refusal, not the framing's: the read never
        // runs, so the case is not judged.
        let result = match self.call_tool(&write.tool, arguments) {
            Err(TargetError::Refused(reason)) => {
                return Err(TargetError::Unplanted(format!("{what}: {reason}")))
            }
            other => other.map_err(|e| about(e, &what))?,
        };
        if result.is_error == Some(true) {
            return Err(TargetError::Unplanted(format!(
                "{what} answered isError: {}",
                texts(&result).join("\n")
            )));
        }
        let Some(picker) = &self.id_picker else {
            return Ok(None);
        };
        // The server answered, but not as the profile says: a fault of
        // this call, the server kept.
        picker.pick(&result).map(Some).map_err(|e| {
            let ending = Ending::Broke {
                reason: format!("{what}: {e}"),
                offending_line: None,
            };
            ending.into_error(Left::default())
        })
    }

    /// `plant: command`: runs the setup command with the content in a
    /// file, on stdin or as an argument.
    fn run_setup(&self, content: &str) -> Result<(), TargetError> {
        let Some(setup) = &self.spec.setup else {
            return Err(TargetError::failed(
                "plant: command needs adapter.mcp.setup",
            ));
        };
        let values = self.values(content);
        let argv: Vec<String> = setup.command.iter().map(|a| fill(a, &values)).collect();
        if setup.input == SetupInput::File {
            self.write_file(content)?;
        }
        if argv.iter().any(|a| a.contains('\0')) {
            // No program can be given a NUL byte as an argument: this
            // content cannot be stored this way, and no framing sees it.
            return Err(TargetError::Unplanted(
                "adapter.mcp.setup: this content has a NUL byte, which no command can take as \
                 an argument (`input: stdin` or `input: file` can pass it)"
                    .to_string(),
            ));
        }
        let stdin = (setup.input == SetupInput::Stdin).then_some(content.as_bytes());
        let command = setup::Command {
            argv: &argv,
            cwd: &self.cwd,
            env: &self.env(&values),
            stdin,
            timeout: self.wait(setup.timeout_ms),
        };
        // The work directory's name is random: the reason names it by its
        // placeholder, so a report says the same on every run.
        let workdir = self.workdir.path().to_string_lossy();
        setup::run(&command).map_err(|e| match setup_error(e) {
            TargetError::Unplanted(reason) => {
                TargetError::Unplanted(reason.replace(workdir.as_ref(), "{workdir}"))
            }
            other => other,
        })
    }

    /// `clean: tool`: deletes what the plant stored, after the read.
    fn after_read(&mut self, content: &str, id: Option<&str>) -> Result<(), TargetError> {
        let Some(clean) = self.spec.clean_tool.clone() else {
            return Ok(());
        };
        let arguments = self.arguments(&clean.arguments, content, id);
        let what = format!("the clean tool `{}`", clean.tool);
        let unclean = |reason: String| {
            TargetError::failed(format!(
                "{what}: {reason}; the store may still hold this plant, so the next read \
                 could answer it"
            ))
        };
        match self.call_tool(&clean.tool, arguments) {
            Ok(result) if result.is_error == Some(true) => Err(unclean(format!(
                "answered isError: {}",
                texts(&result).join("\n")
            ))),
            Ok(_) => Ok(()),
            Err(error) => Err(unclean(error.to_string())),
        }
    }

    /// Refuses a read that answers an earlier plant's content (the first
    /// or the one before this): its store was not made clean, and a case
    /// would be judged on another case's content.
    fn check_no_earlier(&mut self, content: &str, answer: &WrapAnswer) -> Result<(), TargetError> {
        if !matches!(self.spec.plant, Plant::Tool | Plant::Command) {
            return Ok(());
        }
        let output = answer.clone().into_text();
        let Some(earlier) = self.earlier.answered(content, &output) else {
            return Ok(());
        };
        Err(TargetError::failed(format!(
            "the read `{}` answered the content of an earlier plant ({earlier:?}): the store \
             is not clean between plants (clean: {}); declare `clean: restart`, `clean: \
             workdir` or `clean: tool`, or read only the planted item (by `{{id}}`)",
            self.spec.tool,
            self.spec.clean.name()
        )))
    }

    /// One wrap request: clean, plant, read, clean up.
    fn call(&mut self, content: &str) -> Result<WrapAnswer, TargetError> {
        self.make_clean()?;
        let id = self.plant(content)?;
        let arguments = self.arguments(&self.spec.arguments, content, id.as_deref());
        let tool = self.spec.tool.clone();
        let read = self.call_tool(&tool, arguments);
        let cleaned = self.after_read(content, id.as_deref());
        // A result that is not an answer is a fault of this call only:
        // the server answered, and is kept.
        let answer = framed_output(&read?).map_err(|e| e.into_error(Left::default()))?;
        cleaned?;
        self.check_no_earlier(content, &answer)?;
        Ok(answer)
    }

    /// Calls `tool` once; every way the call can end but a result is
    /// sorted here.
    fn call_tool(
        &mut self,
        tool: &str,
        arguments: serde_json::Map<String, serde_json::Value>,
    ) -> Result<CallToolResult, TargetError> {
        let timeout = self.wait(self.spec.timeout_ms);
        let params = CallToolRequestParams::new(tool.to_string()).with_arguments(arguments);
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
        let ending = match answer {
            Answer::Done(Ok(result)) => return Ok(result),
            Answer::Done(Err(ServiceError::McpError(error))) => Ending::Refused(format!(
                "the tool call failed with error {}: {}",
                error.code.0, error.message
            )),
            Answer::Done(Err(error)) => Ending::Died {
                reason: format!("the MCP session broke: {error}"),
                exit_status: None,
            },
            Answer::Exited => Ending::Died {
                reason: "the MCP server exited during the tool call".to_string(),
                exit_status: None,
            },
            Answer::TimedOut => Ending::TimedOut(format!(
                "no tool result within {}",
                self.waited("timeout_ms", self.spec.timeout_ms)
            )),
        };
        Err(self.end(ending))
    }

    /// How long a wait of `ms` (a `timeout_ms`: a tool call's, a setup
    /// command's; `startup_ms`, the handshake's) lasts under the current
    /// [`Patience`].
    fn wait(&self, ms: u64) -> Duration {
        self.patience.budget(Duration::from_millis(ms))
    }

    /// The wait of field `field` (`ms`) as a timeout's reason states it:
    /// `timeout_ms (20000 ms)`, or on a replay its budget.
    fn waited(&self, field: &str, ms: u64) -> String {
        match self.patience {
            Patience::Plain => format!("{field} ({ms} ms)"),
            Patience::Replay => format!(
                "{} ms (the replay budget for {field} {ms})",
                self.wait(ms).as_millis()
            ),
        }
    }

    /// The error `ending` is; a fault retires the server first, and what
    /// it left is the fault's evidence.
    fn end(&mut self, ending: Ending) -> TargetError {
        let left = match ending.fault_kind() {
            Some(_) => self.retire(),
            None => Left::default(),
        };
        ending.into_error(left)
    }

    /// Ends the server after a fault: how it had ended, if it had, and
    /// its stderr's last bytes.
    fn retire(&mut self) -> Left {
        let Some(mut session) = self.session.take() else {
            return Left::default();
        };
        let exit_status = session.process.exited().map(|status| status.to_string());
        session.process.terminate();
        let stderr_tail = session.process.stderr_tail(STDERR_SETTLE);
        self.close(session);
        Left {
            exit_status,
            stderr_tail,
        }
    }

    /// Ends the SDK's session and kills the server's process group.
    fn close(&self, mut session: Session) {
        let _ = self.runtime.block_on(async {
            tokio::time::timeout(Duration::from_secs(1), session.client.close()).await
        });
        session.process.terminate();
    }
}

/// `error` with `what` (the write tool, say) named before its reason.
fn about(error: TargetError, what: &str) -> TargetError {
    match error {
        TargetError::Refused(reason) => TargetError::Refused(format!("{what}: {reason}")),
        TargetError::Unplanted(reason) => TargetError::Unplanted(format!("{what}: {reason}")),
        TargetError::Failed {
            reason,
            stderr_tail,
            fault,
        } => TargetError::Failed {
            reason: format!("{what}: {reason}"),
            stderr_tail,
            fault,
        },
    }
}

/// A setup command's failure as the case's. One that exited unsuccessfully
/// refused this content (`git commit` on a NUL byte, a database on invalid
/// UTF-8): the store's refusal, with its stderr, and the case is not judged
/// (no fault, no restart). One that hung is a fault of the case, killed at
/// its timeout; one that could not start is no fault of the input. A
/// command that fails on every content fails the benign calibration plant
/// too, so the run reports it as a harness error, not as refusals.
fn setup_error(error: setup::CommandError) -> TargetError {
    let reason = format!("adapter.mcp.setup: {error}");
    match &error {
        setup::CommandError::Start { .. } => TargetError::failed(reason),
        setup::CommandError::Failed { stderr_tail, .. } => {
            let said = stderr_tail.trim();
            TargetError::Unplanted(if said.is_empty() {
                reason
            } else {
                format!("{reason}: {said}")
            })
        }
        setup::CommandError::TimedOut { .. } => {
            let left = Left {
                exit_status: None,
                stderr_tail: error.stderr_tail().to_string(),
            };
            Ending::TimedOut(reason).into_error(left)
        }
    }
}

/// The text parts of a tool result.
fn texts(result: &CallToolResult) -> Vec<&str> {
    result
        .content
        .iter()
        .filter_map(|block| block.as_text().map(|t| t.text.as_str()))
        .collect()
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
fn framed_output(result: &CallToolResult) -> Result<WrapAnswer, Ending> {
    let texts = texts(result);
    if result.is_error == Some(true) {
        return Err(Ending::Refused(format!(
            "the tool answered isError: {}",
            texts.join("\n")
        )));
    }
    if texts.is_empty() {
        return Err(Ending::Broke {
            reason: "the tool result has no text part".to_string(),
            offending_line: None,
        });
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

/// Opening an MCP target sets it up (its work directory, its fixture
/// page); the server starts with the first request.
impl crate::adapter::Open for McpSpec {
    fn open(
        &self,
        loaded: &LoadedProfile,
    ) -> Result<Box<dyn Framing>, crate::adapter::ConnectError> {
        let target = McpFraming::new(self, &loaded.dir)
            .map_err(|e| crate::adapter::ConnectError::cannot_start(loaded, e))?;
        Ok(Box::new(target))
    }
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
        self.stop_server();
        self.starts.forget();
    }

    fn set_patience(&mut self, patience: Patience) {
        self.patience = patience;
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
