//! `framecheck init`: start an adapter, infer its profile from what it
//! writes, and propose it as commented YAML that `framecheck validate`
//! accepts.
//!
//! Everything calibration can observe is inferred, from the adapter alone
//! or from an existing profile's adapter: the grammar, token and nonce
//! (`framecheck_core::layout::infer`, from two wraps of one request), the layout (header,
//! fields, padding, encoding), what empty content gives, whether a list of
//! items is framed one frame each and what the reader returns
//! (`experiments`). Every field's comment says what it was inferred from;
//! the profile declares only what no experiment shows (reserved tokens, a
//! parser consumer, where the source lives).

mod audience;
mod experiments;
pub mod write_schema;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::adapter::mcp::McpFraming;
use crate::adapter::replay::Replaying;
use crate::adapter::subprocess::{LaunchError, SubprocessFraming};
use crate::adapter::{CannotStart, ConnectError, Framing, Patience, TargetError, WrapRequest};
use crate::runner::parts::{self, PartsFailure, PartsFraming};
use crate::runner::unmarked::{Failure, Unmarked};
use crate::runner::Misfit;
pub use audience::Audience;
use audience::Start;
use experiments::Observed;
use framecheck_core::layout::infer::{InferError, Inferred};
use framecheck_core::layout::{
    learn, probes, FieldContext, FieldName, Layout, LayoutError, PartKind, Probes, Region,
};
use framecheck_core::target::{ReadAnswer, WrapAnswer};
use framecheck_launch::profile::{
    AdapterSpec, Capability, Consumer, Delimiters, EncodingChoice, FrameProfile, InvalidProfile,
    Language, LineSemantics, LoadedProfile, MarkerField, McpSpec, ReaderSection, SubprocessSpec,
    TargetProfile, WrapReturns,
};

/// Why no profile could be proposed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InitError {
    /// A request timed out, and again on a fresh target under the replay
    /// budget: what the other requests showed could describe another shape
    /// than the framing's (an experiment it did not answer reads as a
    /// field it does not have), so nothing is proposed (issue 57).
    #[error(
        "the adapter did not answer a request within its timeout, nor on a fresh start given \
         up to {} times as long, so no profile is proposed (a proposal without that answer \
         could describe another frame). If the framing is this slow, give it more time \
         (`--timeout SECONDS`, `--startup-timeout SECONDS`); if it hangs on this input, that \
         is a defect to fix first: {}",
        Patience::REPLAY_FACTOR,
        .0.diagnosis()
    )]
    TimedOut(TargetError),
    /// The adapter did not answer a calibration wrap.
    #[error("the adapter did not wrap the calibration content: {}", .0.diagnosis())]
    Wrap(TargetError),
    /// No delimiters could be recognised around the content, and it does
    /// not come back unmarked either.
    #[error("{}", no_delimiters(framed, unmarked, *caller))]
    NoDelimiters {
        /// The calibration frame.
        framed: String,
        /// Why `delimiters: none` does not fit either.
        unmarked: String,
        /// The framing is the calling process's (`builtin: caller`): a
        /// profile is handed to its helper, not written for `init`.
        caller: bool,
    },
    /// The layout could not be learned.
    #[error("{0}")]
    Layout(#[from] framecheck_core::layout::LayoutError),
    /// The profile's built-in target cannot be driven from `init`
    /// (`builtin: caller` is served by the process that starts framecheck).
    #[error("this profile's built-in target cannot be calibrated by `framecheck init`; only `reference`, `reference-nonce`, subprocess and MCP targets can (a framing served by the calling process is inferred by `framecheck run --serve-stdio --infer NAME`, which the Python and Node helpers run when given no profile)")]
    NotInProcess,
    /// The MCP target could not be set up (its work directory, runtime or
    /// fixture server).
    #[error("{0}")]
    Mcp(crate::adapter::mcp::McpSetupError),
    /// The server's tool list could not be read.
    #[error("the MCP server's tools could not be listed: {}", .0.diagnosis())]
    ToolList(TargetError),
    /// The write tool is not among the server's tools.
    #[error("the MCP server has no tool `{tool}`; its tools: {}", listed.join(", "))]
    NoSuchTool {
        /// The write tool asked for.
        tool: String,
        /// The tools the server listed.
        listed: Vec<String>,
    },
    /// The write tool's input schema gives no arguments.
    #[error("{0}")]
    WriteSchema(#[from] write_schema::SchemaError),
    /// A shape read delimiters around the content that no profile can
    /// declare.
    #[error("{0}")]
    Inferred(InferError),
    /// The adapter's program or script is not there (the check `run` and
    /// `validate` make, `SubprocessFraming::check_launchable`).
    #[error("the adapter cannot start: {0}")]
    CannotStart(#[from] LaunchError),
    /// The proposal does not validate (a bug in `init`, reported as such).
    #[error("the proposed profile does not validate: {0}")]
    Invalid(String),
    /// A profile `init` started from or changed on the way (an inferred
    /// frame taken into a declared profile) does not validate.
    #[error("the profile does not validate: {0}")]
    Profile(#[from] Box<InvalidProfile>),
}

impl From<InvalidProfile> for InitError {
    fn from(error: InvalidProfile) -> InitError {
        InitError::Profile(Box::new(error))
    }
}

/// What to declare when no delimiters were recognised: the lines around
/// the content, and the shape of a profile that would name them, and why
/// `delimiters: none` does not fit either (`unmarked`). A JSON document
/// gets neither: no declaration would describe it.
fn no_delimiters(framed: &str, unmarked: &str, caller: bool) -> String {
    if let Some(path) = json_home(framed) {
        return format!(
            "the output is a JSON document with the content in its string value at {path} \
             (the calibration output is {framed:?}), and no grammar describes a frame that is \
             only a JSON document (README, \"Known limits\"): there is no profile to propose \
             that would judge it rightly"
        );
    }
    let start = framed.find("fcbodya").unwrap_or(0);
    let end = framed.find("fcbodyz").unwrap_or(framed.len());
    let before = framed[..start].lines().next_back().unwrap_or("");
    let after = framed[end..].lines().nth(1).unwrap_or("");
    if let Some(shape) = shape_without_grammar(framed, start, end, before, after) {
        return format!(
            "{shape} (the calibration output is {framed:?}); no grammar describes that shape \
             (README, \"Known limits\"): there is no profile to propose that would judge it rightly"
        );
    }
    // A framing served by the calling process gets its profile from the
    // helper's `profile` argument; any other, from a file `init` reads.
    let then = if caller {
        "and pass that profile to the helper (`profile=` in Python, `profile:` in Node)"
    } else {
        "with `adapter.command`, and run `framecheck init PROFILE`"
    };
    format!(
        "no delimiters recognised around the content (the calibration output is {framed:?}; \
         the line before the content reads {before:?}, the line after it {after:?}). Declare \
         them in a profile, for marker lines `delimiters: {{ grammar: begin-end, token: NAME, \
         open: \"…{{token}}…\", close: \"…{{token}}…\" }}` (or grammar xml-tag, \
         bracket-marker or fence with a token), {then} ({unmarked})"
    )
}

/// The two frame shapes `init` names rather than proposes, when the
/// output is one of them: opening and closing lines spelled alike
/// (nothing tells the opener from the closer), or every line of the
/// content written after the same prefix with no delimiters recognised
/// around the quote (a `line-prefix` body needs a frame to sit in).
/// `start` and `end` are where the probe content's first and last words
/// are; `before` and `after` the lines around the content.
fn shape_without_grammar(
    framed: &str,
    start: usize,
    end: usize,
    before: &str,
    after: &str,
) -> Option<String> {
    if !before.trim().is_empty() && before.trim() == after.trim() && !before.contains("fcbody") {
        return Some(format!(
            "the line before the content and the line after it are spelled alike ({:?})",
            before.trim()
        ));
    }
    // The prefix the first content line is written after, on its own line.
    let line_start = framed[..start].rfind('\n').map_or(0, |i| i + 1);
    let prefix = &framed[line_start..start];
    let lines: Vec<&str> = framed[line_start..end].lines().collect();
    let prefixed = !prefix.trim().is_empty()
        && lines.len() > 1
        && lines.iter().all(|line| line.starts_with(prefix));
    prefixed.then(|| {
        format!(
            "every line of the content is written after the prefix {prefix:?}, which \
             `body: {{ encoding: line-prefix, line_prefix: {prefix:?} }}` declares, but no \
             delimiters were recognised around the quote"
        )
    })
}

/// Where the calibration content sits when the output, after at most a
/// preamble, is one JSON document holding it in a string value: the
/// value's path (`$.content`, `$.items[0].text`). `None` for any other
/// output, so only a frame that really is JSON gets that answer.
fn json_home(framed: &str) -> Option<String> {
    let start = framed.find(['{', '['])?;
    let document: serde_json::Value = serde_json::from_str(framed[start..].trim_end()).ok()?;
    fn find(value: &serde_json::Value, path: String) -> Option<String> {
        match value {
            serde_json::Value::String(text) => text.contains("fcbodya").then_some(path),
            serde_json::Value::Array(items) => items
                .iter()
                .enumerate()
                .find_map(|(i, item)| find(item, format!("{path}[{i}]"))),
            serde_json::Value::Object(fields) => fields
                .iter()
                .find_map(|(key, item)| find(item, format!("{path}.{key}"))),
            _ => None,
        }
    }
    find(&document, "$".to_string())
}

/// How `init` drives the adapter.
#[derive(Debug, Clone, Copy)]
pub struct InitOptions {
    /// How long the adapter may take to answer one request, and the
    /// proposal's `timeout_ms`.
    pub timeout_ms: u64,
    /// How much longer the request that starts the adapter may take (a
    /// large SDK can take half a minute to import on a loaded machine),
    /// and the proposal's `startup_ms` for a subprocess adapter.
    pub startup_ms: u64,
    /// Who reads the output, as the user says it (`--consumer`,
    /// `--parser-lines`): a new proposal's `reader:` (`init PROFILE` keeps
    /// the profile's).
    pub audience: Audience,
}

/// `init`'s per-request time: one request should take well under a
/// second, and five hanging cases then cost a minute, not five.
pub const DEFAULT_INIT_TIMEOUT_MS: u64 = 10_000;

/// `init`'s start-up time: room for an SDK that imports slowly.
pub const DEFAULT_INIT_STARTUP_MS: u64 = 60_000;

impl Default for InitOptions {
    fn default() -> Self {
        InitOptions {
            timeout_ms: DEFAULT_INIT_TIMEOUT_MS,
            startup_ms: DEFAULT_INIT_STARTUP_MS,
            audience: Audience::default(),
        }
    }
}

/// A proposed profile: the commented YAML and the profile it parses to.
pub struct Proposal {
    /// The profile as written for the user, with its comments.
    pub yaml: String,
    /// The same profile, parsed.
    pub profile: TargetProfile,
    /// The adapter the proposal was inferred from, still running: checking
    /// the proposal (or a declared profile) against it needs no second
    /// start, which costs a large SDK's import time again.
    pub framing: Box<dyn Framing>,
}

impl Proposal {
    /// Names the proposal after the file it is saved as (`--out
    /// targets/billing.yaml` is `billing`), so `--target billing` finds it
    /// and its reports are `billing.*`. The name line is the one
    /// `write_identity` wrote.
    pub fn name_after_file(&mut self, file: &Path) -> Result<(), InvalidProfile> {
        let stem = file.file_stem().map(|s| s.to_string_lossy());
        let name = profile_name(stem.as_deref());
        // At a line's start, so a comment mentioning a name is not it.
        let old = format!("\nname: {}\n", self.profile.name);
        if let Some(at) = self.yaml.find(&old) {
            self.profile = self.profile.edit(|p| p.name = name.clone())?;
            self.yaml
                .replace_range(at..at + old.len(), &format!("\nname: {name}\n"));
        }
        Ok(())
    }
}

impl std::fmt::Debug for Proposal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Proposal")
            .field("yaml", &self.yaml)
            .field("profile", &self.profile)
            .finish_non_exhaustive()
    }
}

/// Proposes a profile for the adapter `command`, run in `cwd`. The profile
/// is written to be saved in `save_dir` (its `cwd` is relative to it).
pub fn propose_for_command(
    command: Vec<String>,
    cwd: &Path,
    save_dir: &Path,
    options: InitOptions,
) -> Result<Proposal, InitError> {
    let spec = SubprocessSpec {
        command,
        cwd: Some(relative_to(cwd, save_dir)),
        env: Default::default(),
        timeout_ms: options.timeout_ms,
        startup_ms: Some(options.startup_ms),
        mode: Default::default(),
        max_reply_bytes: 16 * 1024 * 1024,
    };
    let framing = SubprocessFraming::new(&spec, save_dir);
    framing.check_launchable()?;
    let name = command_name(&spec.command);
    let base = starting_profile(name, "", AdapterSpec::Subprocess(spec))?;
    infer_and_propose(base, Box::new(framing), Start::New(options.audience))
}

/// The name a proposal for the adapter `command` gets, so proposals for
/// several adapters in one directory (and their reports, named after the
/// profile) do not overwrite each other: the script's name without its
/// extension (`python3 wrap_prompt.py` is `wrap_prompt`), the module of
/// `-m`, else the program's, followed by up to two plain-word arguments
/// after it (`python3 framings.py uuid_markers` is
/// `framings-uuid_markers`).
fn command_name(command: &[String]) -> String {
    let script = crate::adapter::subprocess::script_argument(command);
    let module = command
        .iter()
        .position(|a| a == "-m")
        .and_then(|i| command.get(i + 1))
        .map(|m| m.rsplit('.').next().unwrap_or(m));
    let stem = |word: &str| {
        Path::new(word)
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
    };
    let (head, rest_from) = match (script, module) {
        (Some(script), _) => (
            stem(script),
            command
                .iter()
                .position(|a| a == script)
                .map_or(0, |i| i + 1),
        ),
        (None, Some(module)) => (
            module.to_string(),
            command.iter().position(|a| a == "-m").map_or(0, |i| i + 2),
        ),
        (None, None) => (command.first().map_or_else(String::new, |p| stem(p)), 1),
    };
    let plain = |a: &&String| {
        !a.is_empty()
            && a.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    };
    let words = command
        .iter()
        .skip(rest_from)
        .take_while(|a| !a.starts_with('-'))
        .filter(plain)
        .take(2)
        .map(String::as_str);
    profile_name(std::iter::once(head.as_str()).chain(words))
}

/// `words` joined by `-` as a profile name (ASCII letters, digits, `-` and
/// `_`; anything else made `-`), or `mine` when nothing is left.
fn profile_name<'a>(words: impl IntoIterator<Item = &'a str>) -> String {
    let joined = words
        .into_iter()
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    let name: String = joined
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let name = name.trim_matches('-');
    if name.is_empty() {
        "mine".to_string()
    } else {
        name.to_string()
    }
}

/// Proposes a profile for the MCP server `spec` (`framecheck init --mcp`):
/// the tool is called with benign plants and the frame around them is
/// learned like any target's. The adapter is written as given, except
/// that a command without a `cwd` runs in `cwd` (where the user typed it),
/// written relative to `save_dir` as a subprocess adapter's is.
pub fn propose_for_mcp(
    mut spec: McpSpec,
    cwd: &Path,
    save_dir: &Path,
    options: InitOptions,
) -> Result<Proposal, InitError> {
    spec.timeout_ms = spec.timeout_ms.max(options.timeout_ms);
    if spec.cwd.is_none() {
        spec.cwd = Some(relative_to(cwd, save_dir));
    }
    let framing = McpFraming::new(&spec, save_dir).map_err(InitError::Mcp)?;
    let name = profile_name([spec.tool.as_str()]);
    let adapter = AdapterSpec::Mcp {
        mcp: Box::new(spec),
    };
    let base = starting_profile(name, "", adapter)?;
    infer_and_propose(base, Box::new(framing), Start::New(options.audience))
}

/// `init --mcp --write-tool` given no `--write-arg` taking the content:
/// the write tool's arguments, the `given` ones kept as they are and the
/// rest worked out from the input schema in the tool list of the server
/// `probe` starts (from `cwd`; its plant and read are not used).
pub fn write_arguments_for(
    probe: &McpSpec,
    write_tool: &str,
    given: &BTreeMap<String, serde_json::Value>,
    cwd: &Path,
) -> Result<write_schema::WriteArguments, InitError> {
    let mut framing = McpFraming::new(probe, cwd).map_err(InitError::Mcp)?;
    let tools = framing.list_tools().map_err(InitError::ToolList)?;
    let Some(tool) = tools.iter().find(|t| t.name == write_tool) else {
        let listed = tools.into_iter().map(|t| t.name).collect();
        return Err(InitError::NoSuchTool {
            tool: write_tool.to_string(),
            listed,
        });
    };
    Ok(write_schema::derive_around(
        write_tool,
        &tool.input_schema,
        given,
    )?)
}

/// Proposes a profile for the framing the calling process serves
/// (`framecheck run --serve-stdio --infer`, the Python and Node helpers
/// given no profile), through the same experiments as any adapter's. The
/// proposal declares `adapter: { builtin: caller }`, named `name`, in
/// `language` (the helper's own; empty when not known).
pub fn propose_for_caller(
    framing: Box<dyn Framing>,
    name: &str,
    language: &str,
) -> Result<Proposal, InitError> {
    let base = starting_profile(profile_name([name]), language, AdapterSpec::caller())?;
    infer_and_propose(base, framing, Start::New(Audience::default()))
}

/// The profile inference starts from for a new framing: the reference
/// envelope's frame, named `name`, in `language`, with only the `wrap`
/// capability, reached through `adapter`. Inference replaces the frame.
fn starting_profile(
    name: String,
    language: &str,
    adapter: AdapterSpec,
) -> Result<TargetProfile, InvalidProfile> {
    let framing = FrameProfile {
        name,
        description: String::new(),
        language: language.to_string(),
        capabilities: vec![Capability::Wrap],
        ..framecheck_envelope::reference_profile()
            .framing
            .into_declared()
    };
    TargetProfile::new(adapter, framing)
}

/// Proposes a profile for an existing one's adapter, inferring everything
/// calibration shows from the framing; what it cannot show (the name, the
/// adapter, reserved tokens, the consumer, source and packages) is kept.
/// Where the delimiters cannot be inferred, the profile's own are used and
/// the proposal says so.
pub fn propose_for_profile(
    loaded: &LoadedProfile,
    options: InitOptions,
) -> Result<Proposal, InitError> {
    let mut base = loaded.profile.clone();
    base.adapter = base
        .adapter
        .at_least_patient(options.timeout_ms, options.startup_ms);
    let loaded = LoadedProfile {
        profile: base.clone(),
        dir: loaded.dir.clone(),
    };
    // The target is opened as a run opens it; only a built-in that is not
    // in-process (`caller`, or a name no built-in has) cannot be calibrated.
    let framing = crate::adapter::connect(&loaded).map_err(|e| match e {
        ConnectError::Caller | ConnectError::UnknownBuiltin(_) => InitError::NotInProcess,
        ConnectError::CannotStart { reason, .. } => match reason {
            CannotStart::Launch(e) => InitError::CannotStart(e),
            CannotStart::Mcp(e) => InitError::Mcp(e),
        },
    })?;
    infer_and_propose(base, framing, Start::Declared)
}

/// Infers and proposes ([`infer`]) through replays: a request that timed
/// out is tried again on a fresh target under the replay budget, and a
/// timeout that happens again stops `init` with [`InitError::TimedOut`],
/// whatever the inference made of the missing answer.
fn infer_and_propose(
    base: TargetProfile,
    framing: Box<dyn Framing>,
    start: Start,
) -> Result<Proposal, InitError> {
    let replaying = Replaying::stopping_at_hang(framing);
    let log = replaying.log();
    let proposed = infer(base, Box::new(replaying), start);
    // What runs on the proposal's framing next has replays of its own.
    log.finish();
    match log.hung() {
        Some(timeout) => Err(InitError::TimedOut(timeout)),
        None => proposed,
    }
}

/// Infers the delimiters from two wraps of one request, then learns the
/// rest and writes the proposal. With no inference, a declared profile's
/// delimiters are used when it has them (`Start::Declared`).
fn infer(
    mut base: TargetProfile,
    framing: Box<dyn Framing>,
    start: Start,
) -> Result<Proposal, InitError> {
    let keep_declared = start == Start::Declared;
    let (mut framing, parts_note) = parts_view(&mut base, framing)?;
    // The first probe wrapped twice (the probes' first two requests are
    // the same), a longer one when the framing frames only longer content.
    let (probe, wraps) = crate::runner::varying::calibrated(
        base.frame.empty,
        probes(&framecheck_envelope::reference_profile()),
        |request| framing.wrap(request),
    )
    .map_err(InitError::Wrap)?;
    let request = &probe.requests()[0];
    // One output per probe request, and there are three.
    let (first, second) = (wraps[0].clone(), wraps[1].clone());
    let mut notes = Vec::new();
    match crate::runner::unmarked::frame_of(&first, &second, &request.content) {
        Ok(mut inferred) => {
            outer_reading(framing.as_mut(), request, &mut inferred);
            kind_reading(framing.as_mut(), request, &mut inferred);
            let adopted;
            (adopted, notes) = adopt(&base, inferred)?;
            base = adopted;
        }
        Err(unusable @ InferError::Unusable { .. }) => return Err(InitError::Inferred(unusable)),
        // No frame inferred: the content may come back unmarked, which a
        // profile declares as `delimiters: none` (`runner::unmarked`).
        Err(_) => match crate::runner::unmarked::assess(framing.as_mut()) {
            Ok(unmarked) => {
                let yaml = render_unmarked(&base, &unmarked);
                let profile =
                    TargetProfile::parse(&yaml).map_err(|e| InitError::Invalid(e.to_string()))?;
                return Ok(Proposal {
                    yaml,
                    profile,
                    framing,
                });
            }
            Err(Failure::Wrap(error)) => return Err(InitError::Wrap(error)),
            Err(Failure::Misfit(_)) if keep_declared && !base.delimiters.absent => notes.push(
                "no delimiters could be inferred around the content; the profile's own are kept"
                    .into(),
            ),
            Err(Failure::Misfit(contradiction)) => {
                return Err(InitError::NoDelimiters {
                    framed: first,
                    unmarked: Misfit::Unmarked(contradiction).to_string(),
                    caller: base.adapter.is_caller(),
                })
            }
        },
    }
    notes.extend(parts_note);
    let (yaml, profile) = propose(&base, framing.as_mut(), notes, start)?;
    Ok(Proposal {
        yaml,
        profile,
        framing,
    })
}

/// `base` with the `inferred` frame and body encoding taken in, keeping
/// what the profile declared where it still fits, validated again; and the
/// inference's notes.
fn adopt(
    base: &TargetProfile,
    mut inferred: Inferred,
) -> Result<(TargetProfile, Vec<String>), InvalidProfile> {
    let notes = std::mem::take(&mut inferred.notes);
    let profile = base.edit(|base| adopt_into(base, inferred))?;
    Ok((profile, notes))
}

/// [`adopt`]'s change to the declaration.
fn adopt_into(base: &mut FrameProfile, mut inferred: Inferred) {
    // A declared inner element is kept only for the same frame, and
    // declared reserved tokens only where they are no token of the
    // inferred frame.
    let same_frame = inferred.delimiters.token == base.delimiters.token;
    let declared_inner = base.delimiters.inner.take().filter(|_| same_frame);
    let inner = inferred.delimiters.inner.clone().or(declared_inner);
    let mut declared = std::mem::take(&mut base.delimiters.reserved);
    declared.retain(|r| *r != inferred.delimiters.token && Some(r) != inner.as_ref());
    // Names inferred as reserved (a section grammar's other sections) come
    // first; declared ones are kept after them.
    let mut reserved = std::mem::take(&mut inferred.delimiters.reserved);
    for name in declared {
        if !reserved.contains(&name) {
            reserved.push(name);
        }
    }
    base.delimiters = Delimiters {
        inner,
        reserved,
        ..inferred.delimiters
    };
    // Each encoding an experiment read, with its marker; a later one's
    // encoding wins.
    for (encoding, reading) in inferred.body {
        base.body.encoding = Some(encoding.into());
        let field = encoding.codec().marker();
        if let (Some(field), Some(marker)) = (field, reading.marker) {
            field.set(&mut base.body, marker, reading.replaces);
        }
    }
}

/// A framing whose wrap answers parts is proposed as `wrap.returns: parts`
/// and, from here on, seen through the content's part, where its frame is
/// inferred and learned; one answering a text is proposed as such. The
/// note says what the parts were.
fn parts_view(
    base: &mut TargetProfile,
    mut framing: Box<dyn Framing>,
) -> Result<(Box<dyn Framing>, Option<String>), InitError> {
    let request = probes(base).requests()[0].clone();
    let returns = match framing.wrap_answer(&request).map_err(InitError::Wrap)? {
        WrapAnswer::Text(_) => WrapReturns::Text,
        WrapAnswer::Parts(_) => WrapReturns::Parts,
    };
    *base = base.edit(|p| p.wrap.returns = returns)?;
    let structure = match parts::learn(base, framing.as_mut()) {
        None => return Ok((framing, None)),
        Some(Ok(structure)) => structure,
        Some(Err(PartsFailure::Wrap(error))) => return Err(InitError::Wrap(error)),
        Some(Err(PartsFailure::Misfit(misfit))) => {
            return Err(InitError::Invalid(misfit.to_string()))
        }
    };
    let roles: Vec<&str> = structure
        .roles
        .iter()
        .map(|r| r.as_deref().unwrap_or("null"))
        .collect();
    let note = format!(
        "wrap.returns: parts, because wrap answered {} parts (roles {}); the frame is \
         learned in part {}, the one holding the content",
        roles.len(),
        roles.join(", "),
        structure.content_index + 1
    );
    Ok((Box::new(PartsFraming::new(framing, structure)), Some(note)))
}

/// Chooses between the two readings of an element around the frame's
/// (`<message><text>…</text></message>`): when empty content still gets
/// the outer element but not the inner one, the outer element is the unit
/// the framing always writes, so it is the frame and the inner one its
/// `inner` element. Otherwise the inner element stays the frame and the
/// note names the other reading.
fn outer_reading(framing: &mut dyn Framing, request: &WrapRequest, inferred: &mut Inferred) {
    let Some(outer) = inferred.outer.clone() else {
        return;
    };
    let d = &inferred.delimiters;
    let Some((open, close)) = d.grammar.shape().element_brackets() else {
        return;
    };
    if d.nonce.is_some() || d.inner.is_some() {
        return;
    }
    let empty = WrapRequest {
        content: String::new(),
        ..request.clone()
    };
    let Ok(out) = framing.wrap(&empty) else {
        return;
    };
    let has = |name: &str| out.contains(&format!("{open}{name}"));
    let closes = |name: &str| out.contains(&format!("{open}/{name}{close}"));
    if !(has(&outer) && closes(&outer)) || has(&d.token) {
        return;
    }
    let token = std::mem::replace(&mut inferred.delimiters.token, outer.clone());
    inferred.delimiters.inner = Some(token.clone());
    inferred.outer = None;
    inferred
        .notes
        .retain(|n| !n.starts_with("two readings fit"));
    if let Some(first) = inferred.notes.first_mut() {
        *first = first.replace(&format!("token {token:?}"), &format!("token {outer:?}"));
    }
    inferred.notes.push(format!(
        "the frame is <{outer}> with `inner: {token}`, because empty content still gets \
         <{outer}> but no <{token}>: the outer element is what the framing always writes"
    ));
}

/// The kind [`kind_reading`] wraps its second request with: it holds a
/// `-`, so that a framing writing it with `_` is told from one writing it
/// as sent, and is no field mark calibration looks for.
const SECOND_KIND: &str = "fc-kind-r2";

/// Reads whether the inferred name carries the request's kind
/// (`<{kind}_output>`, `[TOOL-RESULT]`): when the probe's kind, in any
/// spelling, is in the token, the probe is wrapped again with another kind,
/// and if the name follows it the token writes `{kind}` in the spelling
/// that fits both. A name that stays the same is a name of its own.
fn kind_reading(framing: &mut dyn Framing, request: &WrapRequest, inferred: &mut Inferred) {
    let first = request.kind.as_str();
    let token = inferred.delimiters.token.clone();
    let spelled = framecheck_core::grammar::KindSpelling::ALL.map(|s| s.spell(first));
    if first.is_empty() || !spelled.iter().any(|k| token.contains(k.as_str())) {
        return;
    }
    let other = WrapRequest {
        kind: SECOND_KIND.into(),
        ..request.clone()
    };
    let Ok(out) = framing.wrap(&other) else {
        return;
    };
    let Some(delimiters) = inferred.delimiters.naming_kind(first, SECOND_KIND, &out) else {
        return;
    };
    let named = delimiters.token.clone();
    inferred.delimiters = delimiters;
    if let Some(note) = inferred.notes.first_mut() {
        *note = note.replace(&format!("token {token:?}"), &format!("token {named:?}"));
    }
    inferred.notes.push(format!(
        "token {named:?}: the name carries the request's kind ({token:?} for kind {first:?}; \
         a wrap of kind {SECOND_KIND:?} writes that kind in its place)"
    ));
}

/// `path` relative to `base` when both are absolute and share a root
/// (`..` steps as needed), so a committed profile names no machine's
/// directories; else `path` as it is.
fn relative_to(path: &Path, base: &Path) -> PathBuf {
    let (path, base) = (absolute(path), absolute(base));
    let common = path
        .components()
        .zip(base.components())
        .take_while(|(a, b)| a == b)
        .count();
    if common == 0 {
        return path;
    }
    let mut out = PathBuf::new();
    for _ in base.components().skip(common) {
        out.push("..");
    }
    for part in path.components().skip(common) {
        out.push(part);
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

/// `path` made absolute against the current directory; the empty path
/// (the directory of `--out mine.yaml`) is the current directory, not a
/// path with no components, which would leave `relative_to` nothing in
/// common and write an absolute `cwd`.
fn absolute(path: &Path) -> PathBuf {
    let path = if path.as_os_str().is_empty() {
        Path::new(".")
    } else {
        path
    };
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

fn propose(
    base: &TargetProfile,
    framing: &mut dyn Framing,
    notes: Vec<String>,
    start: Start,
) -> Result<(String, TargetProfile), InitError> {
    let mut notes = notes;
    let mut plain_layout = false;
    let (probes, learned) = learn_from(base, framing, probes(base))?;
    let layout = match learned {
        Ok(layout) => layout,
        Err(LayoutError::ContentNotFound { .. }) => {
            notes.push(
                "the framing rewrote the probe content (its quotes, `&`, `<` or line break) in \
                 a way no body encoding explains; the layout is learned from plain content, \
                 and runs judge the rewrite (fidelity)"
                    .into(),
            );
            plain_layout = true;
            crate::runner::varying::learn_plain(base, &probes, |r| framing.wrap(r))
                .map_err(InitError::Wrap)?
                .1?
        }
        Err(error) => return Err(error.into()),
    };
    let mut observed = experiments::run(base, framing, &probes, &layout);
    let read_otherwise = reader_reading(base, framing, &layout)?;
    let base = read_otherwise.as_ref().map_or(base, |(p, _)| p);
    notes.extend(read_otherwise.as_ref().map(|(_, note)| note.clone()));
    observed.notes.splice(0..0, notes);
    observed.plain_layout = plain_layout;
    if plain_layout {
        // The run learns no layout from the probes this framing rewrites,
        // so the attributes its opener always carries are declared.
        let grammar = base.framing.grammar();
        observed.own_attributes =
            framecheck_core::oracle::opener_own_attributes(&*grammar, &layout.sample.framed, 0);
    }
    let yaml = render(base, &layout, &observed, start);
    let profile = TargetProfile::parse(&yaml).map_err(|e| InitError::Invalid(e.to_string()))?;
    Ok((yaml, profile))
}

/// `base` with its delimiters as the framing's own reader reads them, and
/// the note saying so, when that reader rejects the writer's frame of the
/// calibration content and reads the same content written for another
/// reading of the delimiters ([`framecheck_core::grammar::Shape::reader_readings`]: a standard SQL
/// reader of a literal escaped MySQL-style). The frame is what its reader
/// reads, so the marks are read so; the body keeps the writer's encoding.
fn reader_reading(
    base: &TargetProfile,
    framing: &mut dyn Framing,
    layout: &Layout,
) -> Result<Option<(TargetProfile, String)>, InitError> {
    let sample = &layout.sample;
    if !matches!(
        framing.read_answer(&sample.framed),
        Ok(ReadAnswer::Rejected)
    ) {
        return Ok(None);
    }
    let body = &sample.framed[sample.slot.clone()];
    // The writer's body as its own encoding reads it back (the first of
    // its choices that does).
    let content = match &base.body.encoding {
        Some(choice) => choice.choices().into_iter().find_map(|encoding| {
            framecheck_core::encoding::decode(encoding, body, "")
                .ok()
                .map(|c| c.into_owned())
        }),
        None => Some(body.to_string()),
    };
    let Some(content) = content else {
        return Ok(None);
    };
    let d = &base.delimiters;
    for (reading, rewritten) in d.grammar.shape().reader_readings(d, &content) {
        let mut framed = sample.framed.clone();
        framed.replace_range(sample.slot.clone(), &rewritten);
        if !matches!(framing.read_answer(&framed), Ok(ReadAnswer::Body(_))) {
            continue;
        }
        let note = format!(
            "delimiters: escape {}, because the framing's own reader rejected its writer's \
             frame of the calibration content and read the same content written {rewritten:?}: \
             the frame's marks are read as its reader reads them",
            reading.escape.map_or("none", |e| e.name()),
        );
        let profile = base.edit(|p| p.delimiters = reading)?;
        return Ok(Some((profile, note)));
    }
    Ok(None)
}

/// Wraps `probes` (longer ones when the framing frames only longer
/// content, `runner::varying::calibrated`) and learns the layout from them;
/// the probes wrapped with it.
fn learn_from(
    base: &TargetProfile,
    framing: &mut dyn Framing,
    probes: Probes,
) -> Result<(Probes, Result<Layout, LayoutError>), InitError> {
    let (probes, wraps) =
        crate::runner::varying::calibrated(base.frame.empty, probes, |r| framing.wrap(r))
            .map_err(InitError::Wrap)?;
    let learned = learn(base, &probes, &wraps);
    Ok((probes, learned))
}

/// Writes the proposed profile as commented YAML.
fn render(base: &TargetProfile, layout: &Layout, observed: &Observed, start: Start) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Proposed by `framecheck init` from the framing's own output; each"
    );
    let _ = writeln!(out, "# comment says what a field was inferred from.");
    for note in &observed.notes {
        let _ = writeln!(out, "# - {}", note.replace('\n', " "));
    }
    let _ = writeln!(
        out,
        "# The layout framecheck learned (fixed text as written):"
    );
    for line in layout.template().lines() {
        let _ = writeln!(out, "#   {line}");
    }
    write_identity(&mut out, base);
    let mut delimiters = base.delimiters.clone();
    for name in &observed.reserved {
        if !delimiters.reserved.contains(name) {
            delimiters.reserved.push(name.clone());
        }
    }
    write_delimiters(&mut out, &delimiters);
    if base.wrap.returns == WrapReturns::Parts {
        let _ = writeln!(
            out,
            "wrap: {{ returns: parts }}  # wrap answers a list of parts; the frame is in the content's"
        );
    }
    let _ = writeln!(
        out,
        "frame: {{ count: {}, empty: {} }}",
        kebab(&observed.count),
        kebab(&observed.empty)
    );
    write_header(&mut out, layout);
    write_body(&mut out, layout, observed, start);
    if observed.reads || start.names_a_reader() {
        write_reader(&mut out, &base.reader, observed, start);
    }
    write_records(&mut out, base, layout);
    let content_only = base.adapter.is_tool_server();
    write_attributes_and_capabilities(&mut out, layout, observed, content_only);
    out
}

/// `reader:` for a framing that reads its own frame, or whose readers the
/// user named: what it returns and its line rule as observed, and its
/// consumers ([`audience::consumers`]: the model, and a parser where the
/// read-back shows one, unless the user or the declared profile names
/// them). A list of consumers stays a list, so the run judges each.
fn write_reader(out: &mut String, declared: &ReaderSection, observed: &Observed, start: Start) {
    let parser_seen = observed.consumer == Consumer::Parser;
    let (consumers, why) = audience::consumers(declared, parser_seen, start);
    let consumers = match &consumers[..] {
        [one] => format!("consumer: {}", kebab(one)),
        several => {
            let names: Vec<&str> = several.iter().map(|c| c.name()).collect();
            format!("consumers: [{}]", names.join(", "))
        }
    };
    let lines = match audience::parser_lines(declared, observed.lines, start) {
        LineSemantics::Lf => String::new(),
        other => format!(", lines: {}", kebab(&other)),
    };
    let _ = writeln!(
        out,
        "reader: {{ returns: {}, {consumers}{lines} }}  # consumers: {why}",
        kebab(&observed.returns),
    );
}

/// `records:`, as declared, or as the calibration output shows them: the
/// content written after a record marker whose spelling other lines of the
/// frame repeat with their own roles ([`framecheck_core::records::infer`]).
fn write_records(out: &mut String, base: &TargetProfile, layout: &Layout) {
    let (records, why) = match &base.records {
        Some(r) => (r.clone(), "as declared"),
        None => {
            let sample = &layout.sample;
            match framecheck_core::records::infer(&sample.framed, sample.slot.clone()) {
                Some(r) => (
                    r,
                    "the content follows a record marker the frame's own lines repeat",
                ),
                None => return,
            }
        }
    };
    let _ = writeln!(
        out,
        "records: {{ marker: {}, roles: [{}] }}  # {why}",
        yaml_str(&records.marker),
        records.roles.join(", ")
    );
}

/// `name:`, `description:`, `language:` and `adapter:`, as the base
/// profile has them (the language guessed from the command when unset).
fn write_identity(out: &mut String, base: &TargetProfile) {
    let _ = writeln!(out, "name: {}", base.name);
    if !base.description.is_empty() {
        let _ = writeln!(out, "description: {}", yaml_str(&base.description));
    }
    if !base.language.trim().is_empty() {
        let _ = writeln!(out, "language: {}", yaml_str(&base.language));
    } else if let Some(language) = Language::of_adapter(&base.adapter) {
        let _ = writeln!(
            out,
            "language: {}  # from the adapter's command (a wrapper may call code in another)",
            yaml_str(language.name())
        );
    }
    out.push_str(&base.adapter.written());
}

/// The proposal for a framing that returns the content unmarked:
/// `delimiters: none`, and what the plants showed, in the comments.
fn render_unmarked(base: &TargetProfile, unmarked: &Unmarked) -> String {
    let mut out = String::new();
    let shown = if unmarked.preamble.is_empty() {
        "as they were planted".to_string()
    } else {
        format!("after the constant text {:?}", unmarked.preamble)
    };
    let _ = writeln!(
        out,
        "# Proposed by `framecheck init` from the framing's own output.\n\
         # - no frame: benign plants came back {shown} and nothing after them, so the\n\
         #   content reaches the model unmarked. `delimiters: none` declares it;\n\
         #   `framecheck run` reports it (`frame.absent`) and judges no catalogue case:\n\
         #   there is no frame to break."
    );
    write_identity(&mut out, base);
    let _ = writeln!(out, "delimiters: none");
    let _ = writeln!(out, "capabilities: [wrap]");
    out
}

/// A closed set's value as the profile spells it (serde's kebab-case).
fn kebab<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// `attributes:` and `capabilities:`, from which request fields reached
/// the frame and whether `read` answered.
/// `content_only`: the target is given nothing but the content (an MCP
/// server reads only what was planted), so whatever fields its frame shows
/// are its own, not the request's: only `wrap` is declared.
fn write_attributes_and_capabilities(
    out: &mut String,
    layout: &Layout,
    observed: &Observed,
    content_only: bool,
) {
    let reads = observed.reads && !content_only;
    let fields = fields_seen(layout);
    let kind_attr = framecheck_core::layout::kind_attribute(&layout.sample.framed);
    // A head holding attributes (the kind's) declares the capability only
    // when the attributes given reach it: a framing that drops them would
    // otherwise fail every attribute case for text it never wrote.
    let attrs_written = !observed.attributes_dropped
        && (observed.attribute_names.is_some()
            || layout.head.iter().any(|p| {
                matches!(
                    &p.kind,
                    PartKind::Field {
                        name: FieldName::Attributes,
                        ..
                    }
                )
            })
            || fields
                .iter()
                .any(|(n, _, _)| matches!(n, FieldName::Attribute(_))));
    let mut attributes = vec!["on: outer".to_string()];
    if let Some(kind) = &kind_attr {
        attributes.push(format!("kind: {}", yaml_str(kind)));
    }
    if let Some(names) = &observed.attribute_names {
        let names = serde_json::to_string(names).unwrap_or_default();
        attributes.push(format!("names: {names}"));
    }
    let extra: Vec<&String> = observed
        .own_attributes
        .iter()
        .filter(|n| kind_attr.as_ref() != Some(*n))
        .collect();
    if !extra.is_empty() {
        let _ = writeln!(
            out,
            "# attributes.extra: the framing's own opener carries them for plain content; a run \
             learns no layout from the content it rewrites, so they are declared"
        );
        let names = serde_json::to_string(&extra).unwrap_or_default();
        attributes.push(format!("extra: {names}"));
    }
    let _ = writeln!(out, "attributes: {{ {} }}", attributes.join(", "));
    let mut capabilities = vec!["wrap"];
    if reads {
        capabilities.push("read");
    }
    if attrs_written && !content_only {
        capabilities.push("attributes");
    }
    let provenance_attr = framecheck_core::layout::provenance_attribute(&layout.sample.framed);
    let provenance_seen =
        fields.iter().any(|(n, _, _)| *n == FieldName::Provenance) || provenance_attr.is_some();
    if provenance_seen && !content_only {
        capabilities.push("provenance");
    }
    let kind_seen = fields.iter().any(|(n, _, _)| *n == FieldName::Kind) || kind_attr.is_some();
    if kind_seen && !content_only {
        capabilities.push("kind");
    }
    let _ = writeln!(
        out,
        "# Seen in calibration: which request fields reached the frame, and whether `read` answered."
    );
    let _ = writeln!(out, "capabilities: [{}]", capabilities.join(", "));
}

fn write_delimiters(out: &mut String, d: &Delimiters) {
    let _ = writeln!(out, "delimiters:");
    let _ = writeln!(out, "  grammar: {}", d.grammar.name());
    let _ = writeln!(out, "  token: {}", yaml_str(&d.token));
    // A record list's marker is an opener alone: a record ends where the
    // next begins.
    if let Some(open) = &d.open {
        let _ = writeln!(out, "  open: {}", yaml_str(open));
    }
    if let Some(close) = &d.close {
        let _ = writeln!(out, "  close: {}", yaml_str(close));
    }
    if let Some(marker) = d.marker {
        let _ = writeln!(out, "  marker: {}", marker.name());
    }
    if let Some(escape) = d.escape {
        let _ = writeln!(out, "  escape: {}", escape.name());
    }
    if let Some(inner) = &d.inner {
        let _ = writeln!(out, "  inner: {}", yaml_str(inner));
    }
    if !d.reserved.is_empty() {
        let reserved = serde_json::to_string(&d.reserved).unwrap_or_default();
        let _ = writeln!(out, "  reserved: {reserved}");
    }
    if let Some(nonce) = &d.nonce {
        // The profile's own declaration, as serde writes it.
        let spec = serde_json::to_string(nonce).unwrap_or_default();
        let _ = writeln!(out, "  nonce: {spec}");
    }
}

fn write_header(out: &mut String, layout: &Layout) {
    let header: String = layout
        .head
        .iter()
        .filter(|p| p.region == Region::Header)
        .map(|p| match &p.kind {
            PartKind::Fixed { text } => text.clone(),
            _ => "x".into(),
        })
        .collect();
    let lines: Vec<&str> = header.lines().collect();
    let separator = lines
        .iter()
        .rev()
        .find(|l| !l.trim().is_empty() && l.chars().all(|c| "-=_*".contains(c)) && l.len() >= 3);
    let names: Vec<(FieldName, String)> = fields_seen(layout)
        .into_iter()
        .filter_map(|(n, c, _)| match c {
            FieldContext::HeaderLine(line) => Some((n, line)),
            _ => None,
        })
        .collect();
    // Whole lines after the opener's own line and before the content's
    // line: a line the content shares with fixed text (`Text: {content}`)
    // is no header line, so it is not counted.
    let header_lines = header.matches('\n').count().saturating_sub(1);
    let style = if let Some(sep) = separator {
        format!("{{ style: separator, separator: {}", yaml_str(sep))
    } else if header.contains("\n\n") || header.contains("\r\n\r\n") {
        "{ style: blank-line".to_string()
    } else if header_lines > 0 {
        format!("{{ style: lines, lines: {header_lines}")
    } else {
        "{ style: none".to_string()
    };
    let mut fields = Vec::new();
    for (name, line) in names {
        match name {
            FieldName::Provenance => fields.push(format!("provenance: {}", yaml_str(&line))),
            FieldName::Kind => fields.push(format!("kind: {}", yaml_str(&line))),
            _ => {}
        }
    }
    let fields = if fields.is_empty() {
        String::new()
    } else {
        format!(", fields: {{ {} }}", fields.join(", "))
    };
    let _ = writeln!(
        out,
        "header: {style}{fields} }}  # from the lines between the opener and the content"
    );
}

fn write_body(out: &mut String, layout: &Layout, observed: &Observed, start: Start) {
    let _ = writeln!(
        out,
        "# padding learned: before {:?}, after {:?}; declare body.padding only to override it.",
        layout.padding.lead, layout.padding.trail
    );
    if observed.plain_layout {
        // Plain content shows no encoding: none is declared, so runs try
        // every one.
        return;
    }
    let read = |field| {
        layout
            .encoding
            .layers()
            .iter()
            .any(|l| l.codec().marker() == Some(field))
    };
    // The layout keeps a body's marker (a data mark, a line prefix) as its
    // `datamark`, whichever field declares it.
    let mark = match MarkerField::ALL.into_iter().find(|f| read(*f)) {
        Some(MarkerField::Datamark) => format!(
            ", datamark: {}, datamark_replaces: {}",
            yaml_str(&layout.datamark),
            kebab(&layout.datamark_replaces)
        ),
        Some(MarkerField::LinePrefix) => format!(", line_prefix: {}", yaml_str(&layout.datamark)),
        None => String::new(),
    };
    match &observed.per_content {
        Some(choices) => {
            let choice = EncodingChoice::PerContent(choices.clone());
            let _ = writeln!(
                out,
                "body: {{ encoding: {choice}{mark} }}  # some outputs came out as they are, others encoded (the note above says which)"
            );
        }
        None => {
            let _ = writeln!(
                out,
                "body: {{ encoding: {}{mark} }}  # the encoding under which calibration found the content",
                layout.encoding
            );
        }
    }
    if !layout.encoding.is_none() && !observed.reads {
        let _ = writeln!(
            out,
            "# If a reader decodes it, declare it: reader: {{ returns: content }}"
        );
    }
    let model_may_decode = layout
        .encoding
        .layers()
        .iter()
        .any(|l| l.codec().model_may_decode());
    if model_may_decode && observed.consumer == Consumer::Model && !start.names_a_reader() {
        let _ = writeln!(
            out,
            "# A model may read `&lt;` as `<`, a parser does not: if only a program parses this frame, say `init --consumer parser` (reader.consumer: parser)"
        );
    }
}

/// Every field the layout saw, with how it is set.
fn fields_seen(layout: &Layout) -> Vec<(FieldName, FieldContext, ())> {
    layout
        .parts()
        .filter_map(|p| match &p.kind {
            PartKind::Field { name, context } => Some((name.clone(), context.clone(), ())),
            _ => None,
        })
        .collect()
}

/// A YAML double-quoted string.
fn yaml_str(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_default()
}

/// How [`differences`] spells one field of a profile.
type Spell = fn(&TargetProfile) -> String;

/// The fields [`differences`] compares one for one, each as the profile
/// spells it.
const SPELLED_FIELDS: [(&str, Spell); 11] = [
    ("wrap.returns", |p| kebab(&p.wrap.returns)),
    ("delimiters.grammar", |p| p.delimiters.grammar.name().into()),
    ("delimiters.token", |p| format!("{:?}", p.delimiters.token)),
    ("delimiters.open", |p| format!("{:?}", p.delimiters.open)),
    ("delimiters.close", |p| format!("{:?}", p.delimiters.close)),
    ("delimiters.inner", |p| format!("{:?}", p.delimiters.inner)),
    ("delimiters.marker", |p| {
        format!("{:?}", p.delimiters.marker.map(|m| m.name()))
    }),
    ("delimiters.nonce.alphabet", |p| {
        format!("{:?}", p.delimiters.nonce.map(|n| kebab(&n.alphabet)))
    }),
    ("frame.count", |p| kebab(&p.frame.count)),
    ("frame.empty", |p| kebab(&p.frame.empty)),
    ("header", |p| {
        let h = &p.header;
        format!("{} {:?} {:?}", kebab(&h.style), h.lines, h.separator)
    }),
];

/// With `delimiters: none` on either side, no other field describes
/// anything: the frame is there or it is not. `None` when both have
/// delimiters, which [`differences`] then compares field by field.
fn presence_difference(declared: &TargetProfile, inferred: &TargetProfile) -> Option<Vec<String>> {
    if !declared.delimiters.absent && !inferred.delimiters.absent {
        return None;
    }
    let spell = |p: &TargetProfile| match p.delimiters.absent {
        true => "none".to_string(),
        false => format!("{} {:?}", p.delimiters.grammar.name(), p.delimiters.token),
    };
    let (d, i) = (spell(declared), spell(inferred));
    Some(match d == i {
        true => Vec::new(),
        false => vec![format!(
            "delimiters: the profile says {d}, the framing shows {i}"
        )],
    })
}

/// Where a declared profile and the one inferred from its framing differ,
/// one line each (`init --check`). Fields no experiment observes (name,
/// adapter, reserved tokens, the consumer) are not compared; a declared
/// nonce length is a difference only when it is longer than the values
/// the framing writes.
pub fn differences(declared: &TargetProfile, inferred: &TargetProfile) -> Vec<String> {
    if let Some(difference) = presence_difference(declared, inferred) {
        return difference;
    }
    let mut out = Vec::new();
    let mut compare = |field: &str, declared: String, inferred: String| {
        if declared != inferred {
            out.push(format!(
                "{field}: the profile says {declared}, the framing shows {inferred}"
            ));
        }
    };
    for (field, spell) in SPELLED_FIELDS {
        compare(field, spell(declared), spell(inferred));
    }
    let (d, i) = (&declared.delimiters, &inferred.delimiters);
    if let (Some(dn), Some(inn)) = (&d.nonce, &i.nonce) {
        if dn.min_len() > inn.min_len() {
            let (a, b) = (dn.min_len().to_string(), inn.min_len().to_string());
            compare("delimiters.nonce.min_length", a, b);
        }
    }
    // An encoding left undeclared is tried in full by every run.
    if let Some(encoding) = &declared.body.encoding {
        let shown = inferred
            .body
            .encoding
            .as_ref()
            .map_or(String::new(), |e| e.to_string());
        compare("body.encoding", encoding.to_string(), shown);
    }
    if declared.can(Capability::Read) && inferred.can(Capability::Read) {
        let (a, b) = (
            kebab(&declared.reader.returns),
            kebab(&inferred.reader.returns),
        );
        compare("reader.returns", a, b);
    }
    let records = |p: &TargetProfile| {
        p.records.as_ref().map_or("none".to_string(), |r| {
            let mut roles = r.roles.clone();
            roles.sort();
            format!("{:?} {roles:?}", r.marker)
        })
    };
    compare("records", records(declared), records(inferred));
    for name in i.reserved.iter().filter(|n| !d.reserved.contains(n)) {
        out.push(format!(
            "delimiters.reserved: the framing writes {name:?} itself, the profile does not reserve it"
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{command_name, json_home, no_delimiters, profile_name, relative_to};
    use super::{write_reader, Audience, Consumer, LineSemantics, Observed, Start};
    use framecheck_launch::profile::{Consumers, ReaderReturns, TargetProfile};

    /// The `reader:` line `init PROFILE` proposes for `declared` (a
    /// profile's `reader:` mapping) and what calibration observed of the
    /// framing's reader.
    fn reader_line(declared: &str, observed: Consumer) -> String {
        reader_line_from(declared, observed, Start::Declared)
    }

    fn reader_line_from(declared: &str, observed: Consumer, start: Start) -> String {
        let reference = include_str!("../../../targets/reference.yaml");
        let profile = TargetProfile::parse(&format!("{reference}\nreader: {declared}\n")).unwrap();
        let observed = Observed {
            reads: true,
            returns: ReaderReturns::Segments,
            consumer: observed,
            lines: LineSemantics::Unicode,
            ..Observed::default()
        };
        let mut out = String::new();
        write_reader(&mut out, &profile.reader, &observed, start);
        out
    }

    /// A new proposal judges the model, which a framing's output is for,
    /// and the parser its own reader shows; the user's `--consumer` and
    /// `--parser-lines` replace both, whatever calibration showed. Fails
    /// with the parser proposed alone (the 36 failing cases of the handoff
    /// audit where its hand profile's two consumers fail 915).
    #[test]
    fn a_new_proposal_judges_the_model_beside_an_observed_parser() {
        let new = Start::New(Audience::default());
        let line = reader_line_from("{}", Consumer::Parser, new);
        assert!(
            line.starts_with(
                "reader: { returns: segments, consumers: [model, parser], lines: unicode }"
            ),
            "{line}"
        );
        let line = reader_line_from("{}", Consumer::Model, new);
        assert!(line.contains(", consumer: model,"), "{line}");
        assert!(!new.names_a_reader());
        let parser = Consumers::try_from(vec![Consumer::Parser]).unwrap();
        let stated = Start::New(Audience {
            consumers: Some(parser),
            parser_lines: Some(LineSemantics::Lf),
        });
        assert!(stated.names_a_reader());
        for observed in [Consumer::Model, Consumer::Parser] {
            let line = reader_line_from("{}", observed, stated);
            assert!(
                line.starts_with("reader: { returns: segments, consumer: parser }"),
                "{line}"
            );
        }
        // What the proposal says parses back to the same consumers.
        let reference = include_str!("../../../targets/reference.yaml");
        let both = reader_line_from("{}", Consumer::Parser, new);
        let both = both.split("  #").next().unwrap();
        let reparsed = TargetProfile::parse(&format!("{reference}\n{both}\n")).unwrap();
        assert_eq!(
            reparsed.reader.consumers(),
            [Consumer::Model, Consumer::Parser]
        );
    }

    /// A profile's declared consumers stay in the proposal, so the run
    /// judges each: a model and a parser stay both, whatever calibration
    /// shows (it cannot show a model); an observed parser joins a declared
    /// list, and replaces one declared model, as before.
    #[test]
    fn a_proposal_keeps_the_declared_consumers() {
        let both = "reader: { returns: segments, consumers: [model, parser], lines: unicode }";
        for observed in [Consumer::Model, Consumer::Parser] {
            let line = reader_line("{ consumers: [model, parser] }", observed);
            assert!(line.starts_with(both), "{line}");
        }
        let line = reader_line("{ consumers: [model] }", Consumer::Parser);
        assert!(line.starts_with(both), "{line}");
        let line = reader_line("{ consumer: model }", Consumer::Parser);
        assert!(line.contains(", consumer: parser,"), "{line}");
        let line = reader_line("{ consumer: parser }", Consumer::Model);
        assert!(line.contains(", consumer: parser,"), "{line}");
        // What the proposal says parses back to the same consumers.
        let reference = include_str!("../../../targets/reference.yaml");
        let declared = reader_line("{ consumers: [model, parser] }", Consumer::Parser);
        let declared = declared.split("  #").next().unwrap();
        let reparsed = TargetProfile::parse(&format!("{reference}\n{declared}\n")).unwrap();
        assert_eq!(
            reparsed.reader.consumers(),
            [Consumer::Model, Consumer::Parser]
        );
    }

    fn name_of(command: &[&str]) -> String {
        command_name(&command.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    /// A proposal is named after its script, module or program, with the
    /// plain words after it, so two adapters' proposals differ.
    #[test]
    fn a_proposal_is_named_after_its_command() {
        assert_eq!(name_of(&["python3", "wrap_prompt.py"]), "wrap_prompt");
        assert_eq!(
            name_of(&["python3", "framings.py", "uuid_markers"]),
            "framings-uuid_markers"
        );
        assert_eq!(name_of(&["node", "src/frame.mjs", "--port", "1"]), "frame");
        assert_eq!(name_of(&["python3", "-m", "acme.framing"]), "framing");
        assert_eq!(name_of(&["./my framer"]), "my-framer");
        assert_eq!(name_of(&["sh", "-c", "exit 0"]), "sh");
        assert_eq!(profile_name(["read_file"]), "read_file");
        assert_eq!(profile_name(["..."]), "mine");
    }

    /// The directory of `--out mine.yaml` is the empty path: a `cwd`
    /// relative to it is relative to the current directory, never absolute.
    #[test]
    fn a_cwd_relative_to_the_empty_path_is_relative() {
        let here = std::env::current_dir().unwrap();
        assert_eq!(
            relative_to(&here, std::path::Path::new("")),
            std::path::Path::new(".")
        );
        assert_eq!(
            relative_to(&here.join("adapters"), std::path::Path::new("")),
            std::path::Path::new("adapters")
        );
    }

    const PROBE: &str = "fcbodya1 said \\\"ok\\\" fcbodyz1";

    #[test]
    fn a_json_document_s_content_is_found_at_its_path() {
        let framed = format!("{{\"type\": \"tool\", \"content\": \"{PROBE}\"}}");
        assert_eq!(json_home(&framed).as_deref(), Some("$.content"));
        let nested = format!("Done.\n{{\"items\": [{{\"n\": 1}}, {{\"text\": \"{PROBE}\"}}]}}\n");
        assert_eq!(json_home(&nested).as_deref(), Some("$.items[1].text"));
        let said = no_delimiters(&nested, "none does not fit", false);
        assert!(
            said.contains("no grammar describes a frame that is only"),
            "{said}"
        );
        assert!(!said.contains("none does not fit"), "{said}");
    }

    #[test]
    fn json_inside_a_marked_frame_or_no_json_is_not_a_json_document() {
        let tagged = format!("<data>\n{{\"content\": \"{PROBE}\"}}\n</data>");
        assert_eq!(json_home(&tagged), None);
        assert_eq!(json_home(&format!("[BEGIN]\n{PROBE}\n[END]")), None);
        // The content in a key, not a string value, is not its home.
        assert_eq!(json_home("{\"fcbodya1\": 1}"), None);
        let said = no_delimiters(&tagged, "none does not fit", false);
        assert!(said.contains("Declare them in a profile"), "{said}");
        assert!(said.ends_with("(none does not fit)"), "{said}");
    }

    /// Lines spelled alike around the content, and a prefix on every
    /// content line, are named as shapes no grammar describes, not met
    /// with advice to declare markers that could not describe them.
    #[test]
    fn shapes_without_a_grammar_are_named() {
        let probe = "fcbodya1 said\nnext fcbodyz1";
        let enclosed = format!("Data between the lines:\nKGQOBQGT\n{probe}\nKGQOBQGT");
        let said = no_delimiters(&enclosed, "none does not fit", false);
        assert!(said.contains("spelled alike (\"KGQOBQGT\")"), "{said}");
        let quoted = "Quoted:\n> fcbodya1 said\n> next fcbodyz1\nEnd.";
        let said = no_delimiters(quoted, "none does not fit", false);
        assert!(said.contains("after the prefix \"> \""), "{said}");
        // Markers that differ, or a prefix on the first line only, are
        // neither shape.
        for framed in [
            format!("<<A>>\n{probe}\n<</A>>"),
            format!("Text: {probe}\nEnd."),
        ] {
            let said = no_delimiters(&framed, "none does not fit", false);
            assert!(said.contains("Declare them in a profile"), "{said}");
        }
    }

    /// The calling process's framing is given its profile through the
    /// helper: no adapter command, no profile file for `init`.
    #[test]
    fn what_to_declare_names_the_route_the_profile_takes() {
        let framed = "Text: fcbodya1 x fcbodyz1\nEnd.";
        let file = no_delimiters(framed, "none does not fit", false);
        assert!(file.contains("`framecheck init PROFILE`"), "{file}");
        let caller = no_delimiters(framed, "none does not fit", true);
        assert!(
            caller.contains("pass that profile to the helper"),
            "{caller}"
        );
        assert!(!caller.contains("adapter.command"), "{caller}");
        assert!(!caller.contains("init PROFILE"), "{caller}");
    }
}
