//! The `framecheck` command: flag parsing, wiring of the library stages, and
//! the exit code. No checking logic lives here.
//!
//! Exit codes: 0 every must-hold case passed; 1 conformance failed (or a
//! baseline regression); 2 usage or harness error (bad catalogue, target
//! faults, interrupted run). A harness error outranks findings: a run that
//! did not finish never exits 0 or 1. `verify` exits 0 when a report
//! reproduces, 1 when it does not, 2 when the re-run could not finish.

mod cli;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::{bail, ensure, Context, Result};
use clap::{Parser, Subcommand};
use cli::audience::{ConsumerArg, LinesArg};
use cli::choices::Choices;
use cli::progress::Progress;
use cli::store::{CleanArg, PlantArg, SetupInputArg};
use framecheck::adapter::caller::Caller;
use framecheck::adapter::reference::{NonceReference, Reference};
use framecheck::adapter::subprocess::{self, helpers, SubprocessFraming};
use framecheck::adapter::Framing;
use framecheck::catalogue::{self, Catalogue};
use framecheck::gate::Gate;
use framecheck::init::write_schema::WriteArguments;
use framecheck::level::ReaderLevel;
use framecheck::manifest::Manifest;
use framecheck::profile::{
    AdapterSpec, BuiltinTarget, Clean, Consumers, LoadedProfile, Plant, SetupInput, TargetProfile,
};
use framecheck::report::{self, baseline, summary, Format};
use framecheck::runner::{self, RunOptions};
use framecheck::search::{self as blackbox, Budget, SearchOptions};
use framecheck::tokview::TokenizerView;

/// Writes a line to stdout. A closed pipe (`framecheck list | head`) is not
/// an error worth a panic: the rest of the output is simply dropped.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

/// Like [`out!`] without the trailing newline.
macro_rules! out_raw {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout().lock(), $($arg)*);
    }};
}

// The exit codes are the report's (`report::summary`), so the number a
// report states and the number the process returns cannot drift apart.
/// Exit code: every must-hold case passed.
const EXIT_PASS: u8 = summary::EXIT_OK as u8;
/// Exit code: conformance failed, or the baseline comparison found new failures.
const EXIT_FINDINGS: u8 = summary::EXIT_CONFORMANCE_FAILURE as u8;
/// Exit code: usage error or harness error (the run did not finish cleanly).
const EXIT_HARNESS: u8 = summary::EXIT_HARNESS_ERROR as u8;

#[derive(Parser)]
#[command(
    name = "framecheck",
    version,
    about = "Adversarial conformance harness for prompt-framing code"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the catalogue against a target and write conformance reports.
    Run(RunArgs),
    /// List the concrete cases the catalogue expands to for a target.
    List(SelectArgs),
    /// Validate the catalogue and target profiles; print every error.
    Validate {
        /// Catalogue directory (default: the built-in catalogue, as for `run`).
        #[arg(long)]
        catalogue: Option<PathBuf>,
        /// Target profiles to validate (default: every targets/*.yaml here).
        targets: Vec<PathBuf>,
    },
    /// Black-box search: mutate catalogue payloads until the frame breaks;
    /// write each new failure, shrunk, as a catalogue case.
    Search(SearchArgs),
    /// Serve the reference envelope over the JSON-lines protocol on stdin/stdout.
    ServeReference {
        /// Serve the envelope's nonce mode (a fresh nonce in both tags per wrap).
        #[arg(long)]
        nonce: bool,
    },
    /// Re-run the target a JSON report records; exit 0 when every verdict is
    /// identical, 1 when not, 2 on a harness error.
    Verify {
        /// The JSON report to reproduce.
        report: PathBuf,
    },
    /// Check the published case ids against attacks/ids.lock; `--write`
    /// regenerates it. Fails when an id disappeared without a `retired` line.
    Ids {
        /// Rewrite attacks/ids.lock with the ids published now.
        #[arg(long)]
        write: bool,
    },
    /// Set JSON run reports side by side: every case against every target,
    /// as `<out>/index.html` and `<out>/matrix.md`.
    Matrix(MatrixArgs),
    /// The Python and Node adapter helpers, built into framecheck: copy them
    /// next to your adapter, or print one.
    Helpers(HelpersArgs),
    /// Calibrate an adapter and print a proposed, commented profile:
    /// `framecheck init -- python3 my_adapter.py`, or `framecheck init PROFILE`.
    // Boxed: its MCP and store flags make it the largest variant by far.
    Init(Box<InitArgs>),
}

#[derive(clap::Args)]
struct InitArgs {
    /// An existing profile: its adapter is driven and everything else
    /// inferred again (its name, adapter, reserved tokens, consumer, source
    /// and packages are kept).
    profile: Option<PathBuf>,
    /// Compare PROFILE with what its framing shows and print every
    /// difference; exit 1 when any, 2 when PROFILE does not fit at all.
    #[arg(long, requires = "profile")]
    check: bool,
    /// Write the proposal to FILE (its `cwd` relative to FILE's directory)
    /// instead of printing it.
    #[arg(long, value_name = "FILE", conflicts_with = "check")]
    out: Option<PathBuf>,
    /// Seconds the adapter may take to answer one request (the proposal's
    /// `timeout_ms`).
    #[arg(long, value_name = "SECONDS", default_value_t = framecheck::init::DEFAULT_INIT_TIMEOUT_MS / 1000)]
    timeout: u64,
    /// Seconds more the request that starts the adapter may take, for an
    /// SDK that imports slowly (the proposal's `startup_ms`).
    #[arg(long, value_name = "SECONDS", default_value_t = framecheck::init::DEFAULT_INIT_STARTUP_MS / 1000)]
    startup_timeout: u64,
    /// Who reads the output: model or parser; repeat for both. A fact of
    /// the deployment no output shows (docs/profile-v2.md, "Who reads the
    /// output"): without it the proposal judges a model, and beside it a
    /// parser where the framing's own reader parses the frame back.
    #[arg(long = "consumer", value_name = "WHO", conflicts_with = "profile")]
    consumers: Vec<ConsumerArg>,
    /// Where a parser consumer's lines end: lf, or unicode (every break
    /// `str.splitlines()` honours); for a parser the framing's own reader
    /// does not show (without it, what that reader shows, else lf).
    #[arg(long, value_name = "RULE", conflicts_with = "profile")]
    parser_lines: Option<LinesArg>,
    /// The command after `--` starts an MCP server (stdio, or HTTP with `--url`); `--tool`,
    /// `--plant` and `--arg` say which tool reads the planted content.
    #[arg(long, requires = "tool", conflicts_with = "profile")]
    mcp: bool,
    /// The MCP tool to call once per request.
    #[arg(long, value_name = "NAME", requires = "mcp")]
    tool: Option<String>,
    /// Speak Streamable HTTP to the server at this endpoint instead of
    /// stdio, e.g. `http://127.0.0.1:{port}/mcp`: `{port}` is a free port,
    /// filled in the command too.
    #[arg(long, value_name = "URL", requires = "mcp")]
    url: Option<String>,
    /// Where the content is planted: file, http, argument, tool (the
    /// server's own write tool, `--write-tool`) or command (`--setup`)
    /// (default: tool with `--write-tool`, command with `--setup`, else
    /// file).
    #[arg(long, value_name = "WHERE", requires = "mcp")]
    plant: Option<PlantArg>,
    /// The setup command that stores the content before each read
    /// (`plant: command`): one command line, split into words as a POSIX
    /// shell would but run without one, e.g. `git -C {workdir} commit -F -`.
    #[arg(
        long,
        value_name = "COMMAND",
        requires = "mcp",
        conflicts_with = "write_tool"
    )]
    setup: Option<String>,
    /// How the setup command gets the content: argument (`{content}` in
    /// it), stdin or file (`{workdir}/<plant-name>`).
    #[arg(long, value_name = "HOW", requires = "setup")]
    setup_input: Option<SetupInputArg>,
    /// A command run in each fresh work directory before the server
    /// starts (`prepare`), e.g. `git init -q {workdir}`; words as `--setup`.
    #[arg(long, value_name = "COMMAND", requires = "mcp")]
    prepare: Option<String>,
    /// The server's tool that stores the content before each read
    /// (`plant: tool`); `--write-arg` gives its arguments.
    #[arg(long, value_name = "NAME", requires = "mcp")]
    write_tool: Option<String>,
    /// One argument of the write tool, KEY=VALUE, with `{content}` in
    /// VALUE for the one that takes the content; repeat for more. Without
    /// one taking the content, the content and the other required
    /// arguments are worked out from the tool's input schema (and said).
    #[arg(long = "write-arg", value_name = "KEY=VALUE", requires = "write_tool")]
    write_args: Vec<String>,
    /// Where the write tool's answer has the stored item's id, as a JSON
    /// pointer (`/id`); the read's `--arg` takes it as `{id}`.
    #[arg(
        long,
        value_name = "POINTER",
        requires = "write_tool",
        conflicts_with = "id_pattern"
    )]
    id_pointer: Option<String>,
    /// Where the write tool's answer has the id, as a regular expression
    /// over its text (its first group, or the whole match).
    #[arg(long, value_name = "REGEX", requires = "write_tool")]
    id_pattern: Option<String>,
    /// How each plant starts from a clean store: none, restart, workdir or
    /// tool (with `--clean-tool`).
    #[arg(long, value_name = "HOW", requires = "mcp")]
    clean: Option<CleanArg>,
    /// The tool that deletes a plant after its read (`--clean tool`);
    /// `--clean-arg` gives its arguments, `{id}` among them.
    #[arg(long, value_name = "NAME", requires = "mcp")]
    clean_tool: Option<String>,
    /// One argument of the clean tool, KEY=VALUE; repeat for more.
    #[arg(long = "clean-arg", value_name = "KEY=VALUE", requires = "clean_tool")]
    clean_args: Vec<String>,
    /// One argument of the clean tool whose value is JSON, KEY=JSON
    /// (`entityNames=["framecheck"]`), for a delete tool that wants other
    /// than a string; repeat for more.
    #[arg(
        long = "clean-arg-json",
        value_name = "KEY=JSON",
        requires = "clean_tool"
    )]
    clean_json_args: Vec<String>,
    /// One environment variable of the server, KEY=VALUE, `{workdir}` and
    /// the other placeholders filled as in its command (a store's file:
    /// `MEMORY_FILE_PATH={workdir}/memory.jsonl`); repeat for more.
    #[arg(long = "env", value_name = "KEY=VALUE", requires = "mcp")]
    env: Vec<String>,
    /// One tool argument, KEY=VALUE, with `{workdir}`, `{url}`,
    /// `{origin}` or `{content}` in VALUE; repeat for more.
    #[arg(long = "arg", value_name = "KEY=VALUE", requires = "mcp")]
    args: Vec<String>,
    /// One tool argument whose value is JSON, KEY=JSON (`raw=true`,
    /// `limit=10`, `tags=["a"]`), for a tool that wants other than a
    /// string; repeat for more.
    #[arg(long = "arg-json", value_name = "KEY=JSON", requires = "mcp")]
    json_args: Vec<String>,
    /// The planted file's name, or the fixture page's path with `--plant
    /// http` (default `doc.txt`).
    #[arg(long, value_name = "NAME", requires = "mcp")]
    plant_name: Option<String>,
    /// The fixture page's body with `--plant http`, `{content}` or
    /// `{content_json}` in it (default: the content alone).
    #[arg(long, value_name = "TEMPLATE", requires = "mcp")]
    plant_body: Option<String>,
    /// The fixture page's Content-Type with `--plant http`.
    #[arg(long, value_name = "TYPE", requires = "mcp")]
    content_type: Option<String>,
    /// The adapter's command line, after `--`.
    #[arg(last = true)]
    command: Vec<String>,
}

#[derive(clap::Args)]
struct MatrixArgs {
    /// JSON run reports (`reports/*.json`; search reports are skipped).
    #[arg(required = true)]
    reports: Vec<PathBuf>,
    /// Directory for index.html and matrix.md.
    #[arg(long, default_value = "reports")]
    out: PathBuf,
    /// Also write each report as HTML beside its JSON, so every cell links to its case.
    #[arg(long)]
    html: bool,
}

#[derive(clap::Args)]
#[group(required = true, multiple = false)]
struct HelpersArgs {
    /// Write framecheck_adapter.py and framecheck-adapter.mjs into DIR.
    #[arg(long, value_name = "DIR")]
    write: Option<PathBuf>,
    /// Print one helper's source on stdout.
    #[arg(long, value_name = "LANGUAGE", value_parser = Choices::<helpers::Language>::new())]
    print: Option<helpers::Language>,
}

#[derive(clap::Args)]
struct SelectArgs {
    /// Target: `reference`, `reference-nonce`, a profile path, or a name in targets/.
    #[arg(long, default_value = "reference")]
    target: String,
    /// Catalogue directory (default: the built-in catalogue, the same in any directory).
    #[arg(long)]
    catalogue: Option<PathBuf>,
    /// Keep only cases whose id, base id or category matches (exact or glob); repeatable.
    #[arg(long)]
    only: Vec<String>,
}

#[derive(clap::Args)]
struct RunArgs {
    #[command(flatten)]
    select: SelectArgs,
    /// Reader level the verdict is decided at.
    #[arg(long, default_value = "unicode", value_parser = parse_level)]
    level: ReaderLevel,
    /// Wraps of one input sampled for `nonce.unpredictable` (nonce profiles).
    #[arg(long, default_value_t = framecheck::nonce::DEFAULT_SAMPLES)]
    nonce_samples: usize,
    /// Fail cases on the classes reported apart too (confusable markers,
    /// chat-template control strings); recorded in every report.
    #[arg(long)]
    strict: bool,
    /// A tokenizer view to judge framed outputs in, besides the reader
    /// levels (`tok:cl100k`, `tok:o200k`, `tok:mistral-tekken`); repeatable.
    /// Reported apart: a view never changes a verdict.
    #[arg(long = "view", value_parser = parse_view)]
    views: Vec<String>,
    /// Directory holding non-embedded tokenizer data (mistral-common's
    /// `data/`); default: $FRAMECHECK_TOKENIZER_DATA, else the installed package.
    #[arg(long)]
    tokenizer_data: Option<PathBuf>,
    /// Report formats to write (default: all of them).
    #[arg(long = "format", value_parser = Choices::<Format>::new())]
    formats: Vec<Format>,
    /// Directory for reports.
    #[arg(long, default_value = "reports")]
    out: PathBuf,
    /// A previous JSON report: list new failures and fixes; new failures fail the run.
    #[arg(long)]
    baseline: Option<PathBuf>,
    /// The calling process is the target: requests go to stdout, replies come
    /// on stdin; the summary goes to stderr. Same as `adapter: { builtin: caller }`.
    #[arg(long)]
    serve_stdio: bool,
    /// With no profile: infer the calling process's profile (implies
    /// --serve-stdio) through the experiments `init` runs, name it NAME,
    /// run with it and write it beside the reports as NAME.profile.yaml.
    #[arg(long, value_name = "NAME", conflicts_with = "target")]
    infer: Option<String>,
    /// The language --infer writes in the profile (the helper's own).
    #[arg(long, requires = "infer")]
    language: Option<String>,
    /// Leave timings out of the report files, so the same run writes the
    /// same bytes (for committed reports); the files say timings were not recorded.
    #[arg(long)]
    reproducible: bool,
}

#[derive(clap::Args)]
struct SearchArgs {
    #[command(flatten)]
    select: SelectArgs,
    /// Mutants to try (`500`) or time to spend (`60s`, `2m`).
    #[arg(long, default_value = "60s")]
    budget: Budget,
    /// Seed of the mutation stream; the same seed replays the same search.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Reader level at which a mutant must break the frame.
    #[arg(long, default_value = "unicode", value_parser = parse_level)]
    level: ReaderLevel,
    /// Stop after this many new failures.
    #[arg(long, default_value_t = 20)]
    max_findings: usize,
    /// Mutation streams run at once, each with its own target (a thread
    /// in process, a target process of its own for a subprocess target);
    /// default: the machine's cores (1 with --reproducible). A budget in
    /// mutants is shared out among them.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
    /// Corpus directory kept between runs: its entries are judged before
    /// the first mutant, and the corpus at the end is added to it (files
    /// named by their content, so corpora merge by copying; none deleted).
    #[arg(long)]
    corpus: Option<PathBuf>,
    /// Directory for the search report and the found cases.
    #[arg(long, default_value = "reports")]
    out: PathBuf,
    /// Leave the duration out of the search report, so the same search
    /// writes the same bytes; needs a budget in mutants, not time.
    #[arg(long)]
    reproducible: bool,
    /// Also write the trick stacks that kept breaking the target, with
    /// their confirmed findings, as a proposed variant group
    /// (`search-<target>/proposed-variants.yaml`).
    #[arg(long)]
    propose: bool,
}

fn parse_level(name: &str) -> Result<ReaderLevel, String> {
    ReaderLevel::from_name(name).ok_or_else(|| {
        format!("unknown level {name:?}; expected exact, ascii-case-insensitive or unicode")
    })
}

fn parse_view(name: &str) -> Result<String, String> {
    framecheck::tokview::ViewName::from_name(name)
        .map(|v| v.name().to_string())
        .ok_or_else(|| {
            format!("unknown view {name:?}; expected tok:cl100k, tok:o200k or tok:mistral-tekken")
        })
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run(args) => run(args),
        Command::List(args) => list(args),
        Command::Validate { catalogue, targets } => validate(catalogue.as_deref(), &targets),
        Command::Search(args) => search(args),
        Command::ServeReference { nonce } => serve_reference(nonce),
        Command::Verify { report } => verify(&report),
        Command::Ids { write } => ids(write),
        Command::Matrix(args) => matrix(args),
        Command::Helpers(args) => write_helpers(args),
        Command::Init(args) => init(*args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            eprintln!("framecheck: error: {}", describe_error(&error));
            ExitCode::from(EXIT_HARNESS)
        }
    }
}

/// The error and its causes on one line, each said once: a cause whose text
/// an outer message already includes (`path: reason` wrapping `reason`) is
/// not repeated.
fn describe_error(error: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in error.chain() {
        let cause = cause.to_string();
        if text.contains(&cause) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&cause);
    }
    text
}

/// Loads the catalogue (`--catalogue`, else the built-in one, so a run means
/// the same in every directory), printing every load error; the run goes on
/// with the cases that loaded, but is marked as a harness error.
fn load_catalogue(dir: Option<&Path>) -> (Catalogue, Option<String>) {
    let Some(dir) = dir else {
        return (catalogue::builtin(), None);
    };
    let outcome = catalogue::load_dir(dir);
    for error in &outcome.errors {
        eprintln!("framecheck: catalogue error: {error}");
    }
    let harness_error = (!outcome.errors.is_empty()).then(|| {
        format!(
            "{} catalogue error(s); cases from the failing files did not run (first: {})",
            outcome.errors.len(),
            outcome.errors[0]
        )
    });
    (outcome.catalogue, harness_error)
}

/// The profile file `--target` names: a path, or `targets/<name>.yaml`.
fn target_path(name: &str) -> Option<PathBuf> {
    let as_path = Path::new(name);
    if as_path.is_file() {
        Some(as_path.to_path_buf())
    } else {
        let in_targets = Path::new("targets").join(format!("{name}.yaml"));
        in_targets.is_file().then_some(in_targets)
    }
}

/// Resolves `--target`: `reference`, a path to a profile, or `targets/<name>.yaml`.
fn load_target(name: &str) -> Result<LoadedProfile> {
    let builtin = BuiltinTarget::from_name(name).and_then(framecheck::envelope::builtin_profile);
    match (target_path(name), builtin) {
        (Some(path), _) => Ok(TargetProfile::load(&path)?),
        (None, Some(profile)) => Ok(LoadedProfile {
            profile,
            dir: PathBuf::from("."),
        }),
        (None, None) if name.contains('/') || name.ends_with(".yaml") || name.ends_with(".yml") => {
            bail!("no target {name:?}: no such profile file")
        }
        (None, None) => bail!(
            "no target {name:?}: not a profile file, not targets/{name}.yaml, not `reference` or `reference-nonce`"
        ),
    }
}

/// The run's profile, and its framing when finding the profile opened it:
/// `--target`'s profile, or with `--infer` the one inferred from the
/// calling process's framing (written beside the reports, so the helper
/// can show it to keep) and that framing, still being served.
fn run_target(args: &RunArgs) -> Result<(LoadedProfile, Option<Box<dyn Framing>>)> {
    let Some(name) = &args.infer else {
        return Ok((load_target(&args.select.target)?, None));
    };
    check_out_dir(&args.out)?;
    let caller = Caller::new(std::io::stdin().lock(), std::io::stdout());
    let language = args.language.as_deref().unwrap_or_default();
    let progress = Progress::new("infer", None);
    let mut proposal = framecheck::init::propose_for_caller(Box::new(caller), name, language)
        .context("inferring the profile of the framing this process serves")?;
    progress.finish();
    check_own_fit(&mut proposal)?;
    let file = args
        .out
        .join(format!("{}.profile.yaml", proposal.profile.name));
    report::write_atomically(&file, proposal.yaml.as_bytes())
        .with_context(|| format!("writing {}", file.display()))?;
    eprintln!("wrote {} (the inferred profile)", file.display());
    let loaded = LoadedProfile {
        profile: proposal.profile,
        dir: PathBuf::from("."),
    };
    Ok((loaded, Some(proposal.framing)))
}

/// A proposal must fit the framing it was inferred from before anything
/// is judged under it.
fn check_own_fit(proposal: &mut framecheck::init::Proposal) -> Result<()> {
    match runner::check_fit(
        &proposal.profile,
        proposal.framing.as_mut(),
        ReaderLevel::Unicode,
    ) {
        Ok(()) => Ok(()),
        Err(misfit) => bail!(
            "the proposal does not fit its own framing (a bug in `init`, or a framing whose \
             output changes with the content): {misfit}\n{}",
            proposal.yaml
        ),
    }
}

fn connect(loaded: &LoadedProfile) -> Result<Box<dyn Framing>> {
    Ok(framecheck::adapter::connect(loaded)?)
}

/// Installs the handler for SIGINT, SIGTERM and SIGHUP (Ctrl-C, `timeout`,
/// CI cancellation, a closed terminal): it kills every target process group
/// at once and sets the returned flag, which the run polls between cases.
/// SIGKILL runs no handler; the targets' parent-death signal covers it.
fn interrupt_flag() -> Result<Arc<AtomicBool>> {
    let interrupted = Arc::new(AtomicBool::new(false));
    let flag = interrupted.clone();
    ctrlc::set_handler(move || {
        flag.store(true, Ordering::SeqCst);
        subprocess::stop_all_children();
    })
    .context("installing the signal handler")?;
    Ok(interrupted)
}

fn run(args: RunArgs) -> Result<u8> {
    let gate = if args.strict {
        Gate::Strict
    } else {
        Gate::Default
    };
    let interrupted = interrupt_flag()?;
    let (catalogue, catalogue_error) = load_catalogue(args.select.catalogue.as_deref());
    let (loaded, inferred) = run_target(&args)?;
    let cases = catalogue::instantiate(&catalogue, &loaded.profile);
    let cases = catalogue::select(cases, &args.select.only)?;
    // `delimiters: none` has no case: the runner judges it by its own rule.
    if cases.is_empty() && !loaded.profile.delimiters.absent {
        bail!(no_case_reason(
            &args.select.only,
            catalogue_error.as_deref()
        ));
    }
    let baseline = load_run_baseline(&args, &loaded.profile.name, gate)?;
    check_out_dir(&args.out)?;
    if let Some(path) = &args.baseline {
        // Refused before the run: a run that replaced its baseline would
        // gate the next one against itself.
        baseline::check_not_overwritten(path, &args.out, &loaded.profile.name)?;
    }
    // Loaded before the run, so a missing package fails in a second, not
    // after the whole catalogue.
    let views = TokenizerView::load_all(&args.views, args.tokenizer_data.as_deref())?;
    let serving = args.serve_stdio || loaded.profile.adapter.is_caller();
    let mut framing: Box<dyn Framing> = match inferred {
        Some(framing) => framing,
        None if serving => Box::new(Caller::new(std::io::stdin().lock(), std::io::stdout())),
        None => connect(&loaded)?,
    };
    let progress = Progress::new("run", Some(cases.len() as u64));
    let options = RunOptions {
        level: args.level,
        catalogue_hash: catalogue.hash.clone(),
        filters: args.select.only.clone(),
        harness_error: catalogue_error,
        nonce_samples: args.nonce_samples,
        gate,
        cancel: &interrupted,
    };
    let mut result = runner::run_owned(
        cases,
        &loaded.profile,
        framing.as_mut(),
        &options,
        &mut |r| progress.step(&r.case.id),
    );
    progress.finish();
    result.views = framecheck::outcome::judge_run(&result, &views);
    let mut manifest = run_manifest(&args, &loaded, &catalogue.hash);
    manifest.target.server = framing.server();
    result.meta.manifest = Some(manifest);
    drop(framing);

    if interrupted.load(Ordering::SeqCst) {
        eprintln!("framecheck: interrupted; no report written");
        return Ok(EXIT_HARNESS);
    }
    report_run(
        &args,
        result,
        baseline.as_ref(),
        &loaded.profile.name,
        serving,
    )
}

/// What a run's reports record of its inputs: the profile (and its file,
/// unless it was inferred), the catalogue and the command line.
fn run_manifest(args: &RunArgs, loaded: &LoadedProfile, catalogue_hash: &str) -> Manifest {
    // An inferred profile has no file of its own: `--target` was not read.
    let profile_file = args
        .infer
        .is_none()
        .then(|| target_path(&args.select.target))
        .flatten();
    framecheck::manifest::collect(
        loaded,
        profile_file.as_deref(),
        catalogue_hash,
        None,
        std::env::args().collect(),
    )
}

/// Why a run has no case: the catalogue's load errors (printed above) when
/// there were any, an `--only` that matches nothing, or a catalogue with no
/// case for this target; never `--only []` when no `--only` was given.
fn no_case_reason(only: &[String], catalogue_error: Option<&str>) -> String {
    match (catalogue_error, only.is_empty()) {
        (Some(error), _) => format!("no case to run: {error}"),
        (None, false) => format!("no case matches --only {only:?}"),
        (None, true) => "no case to run: the catalogue has no case for this target".to_string(),
    }
}

/// Loads `--baseline` and fails before the run when it cannot gate it.
fn load_run_baseline(
    args: &RunArgs,
    target: &str,
    gate: Gate,
) -> Result<Option<runner::RunResult>> {
    let Some(path) = &args.baseline else {
        return Ok(None);
    };
    let old = report::json::load(path)?;
    baseline::check_compatible(&old, target, args.level, &args.select.only)
        .and_then(|()| baseline::check_gate(&old, gate))
        .with_context(|| {
            format!(
                "baseline {} cannot gate this run; write a new one with this target, \
                 level, gate and --only",
                path.display()
            )
        })?;
    Ok(Some(old))
}

/// Writes a finished run's reports, prints its summary and gives its exit
/// code (the baseline gate's when there is a baseline).
fn report_run(
    args: &RunArgs,
    mut result: runner::RunResult,
    baseline: Option<&runner::RunResult>,
    target: &str,
    serving: bool,
) -> Result<u8> {
    let formats = if args.formats.is_empty() {
        Format::ALL.to_vec()
    } else {
        args.formats.clone()
    };
    let aliases = catalogue::ids::builtin_aliases();
    let diff = baseline.map(|old| baseline::diff_with_aliases(old, &result, args.level, &aliases));
    // The terminal gets the real timings; the files, with --reproducible, none.
    let terminal = report::markdown::terminal_summary_with_baseline(&result, diff.as_ref());
    if args.reproducible {
        report::omit_timings(&mut result);
    }
    let published =
        report::write_all_with_baseline(&result, diff.as_ref(), &args.out, target, &formats)
            .with_context(|| format!("writing reports to {}", args.out.display()))?;
    // When serving, stdout carries the protocol and nothing else.
    let lines = std::iter::once(terminal)
        .chain(
            published
                .written
                .iter()
                .map(|path| format!("wrote {}\n", path.display())),
        )
        .chain(published.removed.iter().map(|path| {
            format!(
                "removed {} (an earlier run's report, in a format this run did not write)\n",
                path.display()
            )
        }));
    for line in lines {
        if serving {
            eprint!("{line}");
        } else {
            out_raw!("{line}");
        }
    }
    let summary = summary::Summary::of(&result);
    let code = match &diff {
        Some(diff) => baseline::gate_exit_code(&summary, diff),
        None => summary.exit_code(),
    };
    Ok(code as u8)
}

/// Fails before a run, not after it, when reports cannot be written.
fn check_out_dir(dir: &Path) -> Result<()> {
    report::prepare_out_dir(dir)
        .with_context(|| format!("--out {}: cannot write reports there", dir.display()))
}

fn list(args: SelectArgs) -> Result<u8> {
    let (catalogue, catalogue_error) = load_catalogue(args.catalogue.as_deref());
    let loaded = load_target(&args.target)?;
    let cases = catalogue::select(
        catalogue::instantiate(&catalogue, &loaded.profile),
        &args.only,
    )?;
    for case in &cases {
        out!("{}\t{}\t{}", case.id, case.category, case.title);
    }
    eprintln!("{} cases for target {}", cases.len(), loaded.profile.name);
    Ok(if catalogue_error.is_some() {
        EXIT_HARNESS
    } else {
        EXIT_PASS
    })
}

fn validate(dir: Option<&Path>, targets: &[PathBuf]) -> Result<u8> {
    let (cases, mut errors) = match dir {
        Some(dir) => {
            let outcome = catalogue::load_dir(dir);
            for error in &outcome.errors {
                out!("{error}");
            }
            (outcome.catalogue.cases.len(), outcome.errors.len())
        }
        None => (catalogue::builtin().cases.len(), 0),
    };
    let name = dir.map_or("built-in".to_string(), |d| d.display().to_string());
    out!("catalogue {name}: {cases} cases, {errors} error(s)");
    let targets: Vec<PathBuf> = if targets.is_empty() {
        let mut found: Vec<PathBuf> = std::fs::read_dir("targets")
            .map(|entries| {
                entries
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
                    .collect()
            })
            .unwrap_or_default();
        found.sort();
        found
    } else {
        targets.to_vec()
    };
    for path in &targets {
        let launchable = TargetProfile::load(path)
            .map_err(|e| e.to_string())
            .and_then(|loaded| match SubprocessFraming::from_profile(&loaded) {
                Some(target) => target
                    .check_launchable()
                    .map(|()| loaded)
                    .map_err(|reason| format!("{}: {reason}", path.display())),
                None => Ok(loaded),
            });
        match launchable {
            Ok(loaded) => out!("target {}: ok ({})", path.display(), loaded.profile.name),
            Err(error) => {
                errors += 1;
                out!("{error}");
            }
        }
    }
    Ok(if errors == 0 { EXIT_PASS } else { EXIT_HARNESS })
}

/// Why `search` refuses a profile declaring `delimiters: none`.
const NOTHING_TO_SEARCH: &str = "the profile declares `delimiters: none`: there is no frame to \
     search for a way out of (`framecheck run` gives its verdict)";

/// Refuses a profile `search` cannot judge mutants for, saying why.
fn searchable(profile: &TargetProfile) -> anyhow::Result<()> {
    ensure!(!profile.delimiters.absent, NOTHING_TO_SEARCH);
    Ok(())
}

fn search(args: SearchArgs) -> Result<u8> {
    if args.reproducible && matches!(args.budget, Budget::Time(_)) {
        bail!("--reproducible needs a budget in mutants (--budget 2000): a time budget stops at a machine-dependent point");
    }
    let interrupted = interrupt_flag()?;
    let (catalogue, catalogue_error) = load_catalogue(args.select.catalogue.as_deref());
    if let Some(error) = catalogue_error {
        bail!("{error}");
    }
    let loaded = load_target(&args.select.target)?;
    searchable(&loaded.profile)?;
    let cases = catalogue::select(
        catalogue::instantiate(&catalogue, &loaded.profile),
        &args.select.only,
    )?;
    check_out_dir(&args.out)?;
    let mut framing = connect(&loaded)?;
    let options = SearchOptions {
        budget: args.budget,
        seed: args.seed,
        level: args.level,
        shrink_calls: 400,
        max_findings: args.max_findings,
        cancel: &interrupted,
    };
    let jobs = search_jobs(&args);
    let start = match &args.corpus {
        Some(dir) => blackbox::load_corpus(dir)?,
        None => Vec::new(),
    };
    let more = || framecheck::adapter::connect(&loaded);
    let progress = Progress::new("search", None);
    let found = blackbox::search_campaign(
        &cases,
        &loaded.profile,
        framing.as_mut(),
        (&more, jobs),
        &start,
        &options,
    );
    progress.finish();
    drop(framing);
    if interrupted.load(Ordering::SeqCst) {
        eprintln!("framecheck: interrupted; no search report written");
        return Ok(EXIT_HARNESS);
    }
    if let Some(dir) = &args.corpus {
        let added = blackbox::save_corpus(dir, &found.corpus)?;
        eprintln!(
            "framecheck: corpus {}: {} entries loaded, {added} added",
            dir.display(),
            start.len()
        );
    }
    let terminal = blackbox::render_terminal_summary(&found);
    let mut found = found;
    if args.reproducible {
        found.duration_ms = 0;
    }
    let files = search_report_files(&args, &found, &loaded, &catalogue.hash)?;
    let stem = format!("search-{}", loaded.profile.name);
    let written = report::write_set(&args.out, &files, &[&stem])
        .with_context(|| format!("writing the search report to {}", args.out.display()))?;
    out_raw!("{terminal}");
    out!("stopped: {}", blackbox::StopReason::of(&found, &options));
    for path in &written {
        out!("wrote {}", path.display());
    }
    if let Some(error) = &found.harness_error {
        eprintln!("framecheck: search incomplete: {error}");
        return Ok(EXIT_HARNESS);
    }
    Ok(if found.findings.is_empty() {
        EXIT_PASS
    } else {
        EXIT_FINDINGS
    })
}

/// How many targets `search` runs at once: `--jobs`, else one per core.
/// A reproducible report must not depend on the machine's cores: it takes
/// one job unless told otherwise (the report is the same per seed and job
/// count).
fn search_jobs(args: &SearchArgs) -> usize {
    match (args.jobs, args.reproducible) {
        (Some(jobs), _) => usize::from(jobs),
        (None, true) => 1,
        (None, false) => std::thread::available_parallelism().map_or(1, |n| n.get()),
    }
}

/// The search report's files, named under `out`: Markdown, JSON with the
/// manifest, the found cases as catalogue files and, with `--propose`, the
/// proposed variants.
fn search_report_files(
    args: &SearchArgs,
    found: &blackbox::SearchReport,
    loaded: &LoadedProfile,
    catalogue_hash: &str,
) -> Result<Vec<(PathBuf, Vec<u8>)>> {
    let stem = format!("search-{}", loaded.profile.name);
    let markdown = blackbox::render_markdown(found);
    let json = search_report_json(args, found, loaded, catalogue_hash)?;
    // The report and its found cases are one set; the cases directory
    // belongs to it, so cases from an earlier search do not linger there.
    let mut files = vec![
        (PathBuf::from(format!("{stem}.md")), markdown.into_bytes()),
        (PathBuf::from(format!("{stem}.json")), json.into_bytes()),
    ];
    for (category, yaml) in blackbox::to_catalogue_files(found, &loaded.profile) {
        let name = format!("{}.yaml", category.name());
        files.push((Path::new(&stem).join(name), yaml.into_bytes()));
    }
    if let Some(yaml) = args
        .propose
        .then(|| blackbox::render_proposal(found))
        .flatten()
    {
        files.push((
            Path::new(&stem).join("proposed-variants.yaml"),
            yaml.into_bytes(),
        ));
    }
    Ok(files)
}

/// The search report as pretty JSON. The report is the search's own; the
/// manifest (with the seed that replays it) is added beside its fields.
fn search_report_json(
    args: &SearchArgs,
    found: &blackbox::SearchReport,
    loaded: &LoadedProfile,
    catalogue_hash: &str,
) -> Result<String> {
    let mut json = serde_json::to_value(found).context("serialising the search report")?;
    if let Some(object) = json.as_object_mut() {
        let mut manifest = framecheck::manifest::collect(
            loaded,
            target_path(&args.select.target).as_deref(),
            catalogue_hash,
            Some(args.seed),
            std::env::args().collect(),
        );
        if args.reproducible {
            manifest.make_reproducible();
        }
        object.insert("manifest".into(), serde_json::to_value(manifest)?);
    }
    serde_json::to_string_pretty(&json).context("serialising the search report")
}

fn write_helpers(args: HelpersArgs) -> Result<u8> {
    if let Some(language) = args.print {
        out_raw!("{}", helpers::helper(language).source);
        return Ok(EXIT_PASS);
    }
    if let Some(dir) = args.write {
        let written = helpers::write_all(&dir)
            .with_context(|| format!("writing the helpers to {}", dir.display()))?;
        for (path, language) in written.iter().zip(helpers::Language::ALL) {
            out!(
                "wrote {}  ({})",
                path.display(),
                helpers::helper(language).import
            );
        }
    }
    Ok(EXIT_PASS)
}

fn serve_reference(nonce: bool) -> Result<u8> {
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    if nonce {
        subprocess::serve(&mut NonceReference, stdin, stdout)
    } else {
        subprocess::serve(&mut Reference, stdin, stdout)
    }
    .context("serving the reference")?;
    Ok(EXIT_PASS)
}

/// `framecheck verify`: re-runs what a JSON report records and compares
/// every verdict (the comparison is `report::verify`).
fn verify(path: &Path) -> Result<u8> {
    let recorded = report::json::load(path)?;
    let Some(manifest) = recorded.meta.manifest.clone() else {
        bail!(
            "{} has no manifest (written before framecheck recorded one); re-run it first",
            path.display()
        );
    };
    let dir = recorded_profile_dir(&manifest);
    let loaded = LoadedProfile {
        profile: recorded.meta.target.clone(),
        dir,
    };
    let (catalogue, catalogue_error) = load_catalogue(None);
    let cases = catalogue::select(
        catalogue::instantiate(&catalogue, &loaded.profile),
        &recorded.meta.filters,
    )?;
    let interrupted = interrupt_flag()?;
    let mut framing = connect(&loaded)?;
    let options = RunOptions {
        level: recorded.meta.level,
        catalogue_hash: catalogue.hash.clone(),
        filters: recorded.meta.filters.clone(),
        harness_error: catalogue_error,
        gate: recorded.meta.gate,
        cancel: &interrupted,
        ..RunOptions::default()
    };
    let progress = Progress::new("verify", Some(cases.len() as u64));
    let mut rerun = runner::run(
        &cases,
        &loaded.profile,
        framing.as_mut(),
        &options,
        &mut |r| progress.step(&r.case.id),
    );
    progress.finish();
    drop(framing);
    rerun.meta.manifest = Some(framecheck::manifest::collect(
        &loaded,
        manifest.profile_path.as_deref(),
        &catalogue.hash,
        manifest.seed,
        std::env::args().collect(),
    ));
    if interrupted.load(Ordering::SeqCst) {
        bail!("interrupted");
    }
    if let Some(error) = &rerun.meta.harness_error {
        bail!("the re-run did not finish: {error}");
    }
    let reproduction = report::verify::compare(&recorded, &rerun);
    out_raw!("{}", report::verify::render(&reproduction));
    Ok(if reproduction.identical() {
        EXIT_PASS
    } else {
        EXIT_FINDINGS
    })
}

/// The directory the recorded profile was loaded from, which its adapter's
/// `cwd` is relative to: the absolute one the report records when it is
/// still there, so `verify` works from any directory; else (a report made
/// `--reproducible`, or in another checkout) the profile's path resolved
/// against the current directory, as it was named on the command line.
fn recorded_profile_dir(manifest: &Manifest) -> PathBuf {
    if let Some(dir) = manifest.profile_dir.as_deref().filter(|d| d.is_dir()) {
        return dir.to_path_buf();
    }
    manifest
        .profile_path
        .as_deref()
        .and_then(Path::parent)
        .filter(|p| !p.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// `framecheck ids`: the id lock check and regeneration (`report::ids`).
fn ids(write: bool) -> Result<u8> {
    let lock_path = Path::new("attacks/ids.lock");
    let previous = match std::fs::read_to_string(lock_path) {
        Ok(text) => catalogue::ids::parse(&text)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Default::default(),
        Err(e) => return Err(e).with_context(|| format!("reading {}", lock_path.display())),
    };
    let (catalogue, catalogue_error) = load_catalogue(None);
    if let Some(error) = catalogue_error {
        bail!("{error}");
    }
    let mut profiles = vec![framecheck::envelope::reference_profile().framing];
    for entry in std::fs::read_dir("targets").context("reading targets/")? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "yaml") {
            profiles.push(TargetProfile::load(&path)?.profile.framing);
        }
    }
    let current = catalogue::ids::published_ids(&catalogue, &profiles, &profiles[0]);
    let missing = catalogue::ids::check(&previous, &current);
    for id in &missing.cases {
        out!("gone without a `retired` line or an alias: case {id}");
    }
    for name in &missing.variants {
        out!("gone without an alias: variant {name}");
    }
    if !missing.is_empty() {
        return Ok(EXIT_FINDINGS);
    }
    let new = current.difference(&previous.cases).count();
    if write {
        report::write_atomically(
            lock_path,
            catalogue::ids::render(&previous, &current).as_bytes(),
        )?;
        out!(
            "wrote {} ({} case ids, {new} new)",
            lock_path.display(),
            current.len()
        );
    } else {
        out!(
            "{} case ids published, {new} not yet in the lock",
            current.len()
        );
    }
    Ok(EXIT_PASS)
}

fn matrix(args: MatrixArgs) -> Result<u8> {
    use framecheck::report::matrix::{self as table, Matrix};
    std::fs::create_dir_all(&args.out)?;
    let mut columns = Vec::new();
    let mut failed = false;
    for path in &args.reports {
        match table::load(path, &args.out) {
            Ok(Some(mut column)) => {
                if args.html {
                    let html_path = path.with_extension("html");
                    let page = report::html::render(&column.run);
                    report::write_atomically(&html_path, page.as_bytes())?;
                    out!("wrote {}", html_path.display());
                    column.link = Some(table::relative_link(&args.out, &html_path));
                }
                columns.push(column);
            }
            Ok(None) => eprintln!("framecheck: {}: not a run report; skipped", path.display()),
            Err(error) => {
                failed = true;
                eprintln!("framecheck: error: {error}");
            }
        }
    }
    if columns.is_empty() {
        bail!("none of the given files is a run report");
    }
    let matrix = Matrix::new(&columns);
    for (name, text) in [
        ("index.html", matrix.to_html()),
        ("matrix.md", matrix.to_markdown()),
    ] {
        let path = args.out.join(name);
        report::write_atomically(&path, text.as_bytes())?;
        out!("wrote {}", path.display());
    }
    Ok(if failed { EXIT_HARNESS } else { EXIT_PASS })
}

/// `KEY=VALUE` pairs given to `flag` as a map of string arguments.
fn string_arguments(
    flag: &str,
    pairs: &[String],
) -> Result<serde_json::Map<String, serde_json::Value>> {
    let mut arguments = serde_json::Map::new();
    for pair in pairs {
        let Some((key, value)) = pair.split_once('=') else {
            bail!("{flag} {pair:?}: expected KEY=VALUE");
        };
        arguments.insert(key.to_string(), value.into());
    }
    Ok(arguments)
}

/// `flag`'s command line as words (POSIX shell quoting, no shell run).
fn command_words(flag: &str, line: &str) -> Result<Vec<String>> {
    match shlex::split(line) {
        Some(words) if !words.is_empty() => Ok(words),
        _ => bail!("{flag} {line:?}: expected a command line (quotes closed, a program first)"),
    }
}

/// The setup keys of `init --mcp` (`setup`, `prepare`), set on `mcp` when
/// given.
fn setup_keys(args: &InitArgs, mcp: &mut serde_json::Value) -> Result<()> {
    if let Some(line) = &args.setup {
        let mut setup = serde_json::json!({ "command": command_words("--setup", line)? });
        if let Some(input) = args.setup_input {
            setup["input"] = serde_json::json!(SetupInput::from(input));
        }
        mcp["setup"] = setup;
    }
    if let Some(line) = &args.prepare {
        mcp["prepare"] = command_words("--prepare", line)?.into();
    }
    Ok(())
}

/// The store keys of `init --mcp` (`write`, `clean`, `clean_tool`), set
/// on `mcp` when given; the write tool's arguments are `derived` when
/// `--write-arg` gave none.
fn store_keys(
    args: &InitArgs,
    derived: Option<&WriteArguments>,
    mcp: &mut serde_json::Value,
) -> Result<()> {
    if let Some(tool) = &args.write_tool {
        let arguments = match derived {
            Some(derived) => derived.arguments.clone().into_iter().collect(),
            None => string_arguments("--write-arg", &args.write_args)?,
        };
        let mut write = serde_json::json!({ "tool": tool, "arguments": arguments });
        if let Some(pointer) = &args.id_pointer {
            write["id"] = serde_json::json!({ "pointer": pointer });
        }
        if let Some(pattern) = &args.id_pattern {
            write["id"] = serde_json::json!({ "pattern": pattern });
        }
        mcp["write"] = write;
    }
    if let Some(clean) = args.clean {
        mcp["clean"] = serde_json::json!(Clean::from(clean));
    }
    if let Some(tool) = &args.clean_tool {
        let mut arguments = string_arguments("--clean-arg", &args.clean_args)?;
        json_arguments("--clean-arg-json", &args.clean_json_args, &mut arguments)?;
        mcp["clean_tool"] = serde_json::json!({ "tool": tool, "arguments": arguments });
    }
    Ok(())
}

/// `pairs` of `flag`, KEY=JSON, added to `arguments` with their values
/// parsed as JSON (for a tool that wants a boolean, a number, an array).
fn json_arguments(
    flag: &str,
    pairs: &[String],
    arguments: &mut serde_json::Map<String, serde_json::Value>,
) -> Result<()> {
    for pair in pairs {
        let parsed = pair
            .split_once('=')
            .map(|(key, value)| (key, serde_json::from_str::<serde_json::Value>(value)));
        let Some((key, Ok(value))) = parsed else {
            bail!("{flag} {pair:?}: expected KEY=JSON (a JSON value: true, 10, \"text\", [..])");
        };
        arguments.insert(key.to_string(), value);
    }
    Ok(())
}

/// `init --mcp --write-tool` with no `--write-arg` taking the content: the
/// write tool's arguments, those given kept and the rest from its input
/// schema, read from the server's tool list, each choice said on stderr;
/// `None` when a `--write-arg` takes the content (they are then the whole
/// write, and no schema is read).
fn derived_write_arguments(args: &InitArgs) -> Result<Option<WriteArguments>> {
    let Some(tool) = &args.write_tool else {
        return Ok(None);
    };
    let given = string_arguments("--write-arg", &args.write_args)?;
    let takes_content = |value: &serde_json::Value| {
        value
            .as_str()
            .is_some_and(|v| v.contains("{content}") || v.contains("{content_json}"))
    };
    if given.values().any(takes_content) {
        return Ok(None);
    }
    // The server as given, read from nothing yet: only its tool list is asked.
    let mut probe = serde_json::json!({
        "command": args.command,
        "tool": args.tool,
        "plant": "file",
        "arguments": {},
    });
    if let Some(url) = &args.url {
        probe["url"] = url.as_str().into();
    }
    if !args.env.is_empty() {
        probe["env"] = string_arguments("--env", &args.env)?.into();
    }
    let probe = parse_mcp(probe)?;
    let cwd = std::env::current_dir()?;
    let given = given.into_iter().collect();
    let derived = framecheck::init::write_arguments_for(&probe, tool, &given, &cwd)?;
    eprintln!("framecheck: the write tool `{tool}`'s arguments, from its input schema:");
    for choice in &derived.choices {
        eprintln!("  {choice}");
    }
    Ok(Some(derived))
}

/// An `mcp:` adapter mapping read as a profile's would be (so its rules
/// and messages are the profile's).
fn parse_mcp(mcp: serde_json::Value) -> Result<framecheck::profile::McpSpec> {
    let adapter = serde_json::json!({ "mcp": mcp });
    let text = format!(
        "name: mine\nadapter: {adapter}\ndelimiters: {{ syntax: xml-tag, token: t }}\ncapabilities: [wrap]\n"
    );
    match TargetProfile::parse(&text)?.adapter {
        // A line of the text above would mean nothing to the user: the
        // endpoint came from `--url`.
        AdapterSpec::Mcp { mcp } => Ok(framecheck::profile::McpSpec {
            url_at: None,
            ..*mcp
        }),
        _ => bail!("internal error: --mcp did not make an mcp adapter"),
    }
}

/// The `mcp:` adapter `init --mcp` was given, read as a profile would be
/// (so its rules and messages are the profile's).
fn mcp_spec(
    args: &InitArgs,
    derived: Option<&WriteArguments>,
) -> Result<framecheck::profile::McpSpec> {
    let mut arguments = string_arguments("--arg", &args.args)?;
    json_arguments("--arg-json", &args.json_args, &mut arguments)?;
    // A write tool or a setup command named is the plant, unless another
    // is asked for.
    let plant = match (args.plant, &args.write_tool, &args.setup) {
        (Some(plant), _, _) => Plant::from(plant),
        (None, Some(_), _) => Plant::Tool,
        (None, None, Some(_)) => Plant::Command,
        (None, None, None) => Plant::File,
    };
    let mut mcp = serde_json::json!({
        "command": args.command,
        "tool": args.tool,
        "plant": plant,
        "arguments": arguments,
    });
    if !args.env.is_empty() {
        mcp["env"] = string_arguments("--env", &args.env)?.into();
    }
    store_keys(args, derived, &mut mcp)?;
    setup_keys(args, &mut mcp)?;
    let optional = [
        ("plant_name", &args.plant_name),
        ("plant_body", &args.plant_body),
        ("content_type", &args.content_type),
        ("url", &args.url),
    ];
    for (key, value) in optional {
        if let Some(value) = value {
            mcp[key] = value.as_str().into();
        }
    }
    parse_mcp(mcp)
}

fn init(args: InitArgs) -> Result<u8> {
    use framecheck::init::{self, InitOptions};
    let consumers = match args.consumers.is_empty() {
        true => None,
        false => {
            let named = args.consumers.iter().map(|&c| c.into()).collect::<Vec<_>>();
            Some(Consumers::try_from(named).map_err(|e| anyhow::anyhow!("--consumer: {e}"))?)
        }
    };
    let options = InitOptions {
        timeout_ms: args.timeout.saturating_mul(1000),
        startup_ms: args.startup_timeout.saturating_mul(1000),
        audience: init::Audience {
            consumers,
            parser_lines: args.parser_lines.map(Into::into),
        },
    };
    let save_dir = match &args.out {
        Some(file) => file.parent().map(Path::to_path_buf).unwrap_or_default(),
        None => std::env::current_dir()?,
    };
    // The adapter's `cwd` is written relative to it, and resolved through
    // it: it must exist before the adapter starts.
    if !save_dir.as_os_str().is_empty() {
        std::fs::create_dir_all(&save_dir)
            .with_context(|| format!("creating {}", save_dir.display()))?;
    }
    let progress = Progress::new("init", None);
    let (mut proposal, declared) = match (&args.profile, args.command.is_empty()) {
        (Some(path), true) => {
            let loaded = TargetProfile::load(path)?;
            (init::propose_for_profile(&loaded, options)?, Some(loaded))
        }
        (None, false) if args.mcp => {
            let derived = derived_write_arguments(&args)?;
            let spec = mcp_spec(&args, derived.as_ref())?;
            let cwd = std::env::current_dir()?;
            (init::propose_for_mcp(spec, &cwd, &save_dir, options)?, None)
        }
        (None, false) => {
            let cwd = std::env::current_dir()?;
            let proposal = init::propose_for_command(args.command, &cwd, &save_dir, options)?;
            (proposal, None)
        }
        _ => bail!("give either a profile path or an adapter command after `--`"),
    };
    progress.finish();
    if let (true, Some(declared)) = (args.check, &declared) {
        return init_check(declared, &mut proposal);
    }
    // A new proposal saved as a file is named after it (an existing
    // profile keeps its own name); printed, after its command or tool.
    if let (Some(file), None) = (&args.out, &declared) {
        proposal.name_after_file(file)?;
    }
    // The proposal must fit its own framing (the adapter init started)
    // before it is handed over.
    check_own_fit(&mut proposal)?;
    if proposal.profile.delimiters.absent {
        eprintln!(
            "framecheck: no frame found: the content comes back unmarked, with nothing \
             that tells it from the text around it. The proposal declares `delimiters: none`; \
             `framecheck run` reports that (`frame.absent`) and runs no catalogue case."
        );
    }
    match &args.out {
        Some(file) => {
            report::write_atomically(file, proposal.yaml.as_bytes())?;
            eprintln!("wrote {}", file.display());
        }
        None => out!("{}", proposal.yaml.trim_end()),
    }
    Ok(EXIT_PASS)
}

/// `init --check`: the declared profile against what its framing shows.
fn init_check(declared: &LoadedProfile, proposal: &mut framecheck::init::Proposal) -> Result<u8> {
    let fits = runner::check_fit(
        &declared.profile,
        proposal.framing.as_mut(),
        ReaderLevel::Unicode,
    );
    let differences = framecheck::init::differences(&declared.profile, &proposal.profile);
    for difference in &differences {
        out!("{difference}");
    }
    if let Err(misfit) = fits {
        out!("{}", misfit.explained(&declared.profile.adapter));
        out!("\nwhat the framing shows:\n{}", proposal.yaml.trim_end());
        return Ok(EXIT_HARNESS);
    }
    if differences.is_empty() {
        out!("the profile agrees with what its framing shows");
        return Ok(EXIT_PASS);
    }
    out!("\nwhat the framing shows:\n{}", proposal.yaml.trim_end());
    Ok(EXIT_FINDINGS)
}
