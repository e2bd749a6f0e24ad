//! The `framecheck` command: flag parsing, wiring of the library stages, and
//! the exit code. No checking logic lives here.
//!
//! Exit codes: 0 every must-hold case passed; 1 conformance failed (or a
//! baseline regression); 2 usage or harness error (bad catalogue, target
//! faults, interrupted run). A harness error outranks findings: a run that
//! did not finish never exits 0 or 1.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use framecheck::adapter::reference::Reference;
use framecheck::adapter::subprocess::{self, SubprocessFraming};
use framecheck::adapter::Framing;
use framecheck::catalogue::{self, Catalogue};
use framecheck::level::ReaderLevel;
use framecheck::profile::{AdapterSpec, LoadedProfile, TargetProfile};
use framecheck::report::{self, baseline, summary, Format};
use framecheck::runner::{self, RunOptions};
use framecheck::search::{self as blackbox, Budget, SearchOptions};

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
        /// Catalogue directory.
        #[arg(long, default_value = "attacks")]
        catalogue: PathBuf,
        /// Target profiles to validate (default: every targets/*.yaml).
        targets: Vec<PathBuf>,
    },
    /// Black-box search: mutate catalogue payloads until the frame breaks;
    /// write each new failure, shrunk, as a catalogue case.
    Search(SearchArgs),
    /// Serve the reference envelope over the JSON-lines protocol on stdin/stdout.
    ServeReference,
    /// Calibrate an adapter and print a proposed, commented profile:
    /// `framecheck init -- python3 my_adapter.py`, or `framecheck init PROFILE`.
    Init {
        /// An existing profile whose adapter and delimiters to use.
        profile: Option<PathBuf>,
        /// The adapter's command line, after `--`.
        #[arg(last = true)]
        command: Vec<String>,
    },
}

#[derive(clap::Args)]
struct SelectArgs {
    /// Target: `reference`, a profile path, or a name in targets/.
    #[arg(long, default_value = "reference")]
    target: String,
    /// Catalogue directory (default: ./attacks if present, else the built-in copy).
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
    /// Report formats to write (default: all four).
    #[arg(long = "format", value_enum)]
    formats: Vec<Format>,
    /// Directory for reports.
    #[arg(long, default_value = "reports")]
    out: PathBuf,
    /// A previous JSON report: list new failures and fixes; new failures fail the run.
    #[arg(long)]
    baseline: Option<PathBuf>,
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
    /// Directory for the search report and the found cases.
    #[arg(long, default_value = "reports")]
    out: PathBuf,
}

fn parse_level(name: &str) -> Result<ReaderLevel, String> {
    ReaderLevel::from_name(name).ok_or_else(|| {
        format!("unknown level {name:?}; expected exact, ascii-case-insensitive or unicode")
    })
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run(args) => run(args),
        Command::List(args) => list(args),
        Command::Validate { catalogue, targets } => validate(&catalogue, &targets),
        Command::Search(args) => search(args),
        Command::ServeReference => serve_reference(),
        Command::Init { profile, command } => init(profile, command),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            eprintln!("framecheck: error: {error:#}");
            ExitCode::from(EXIT_HARNESS)
        }
    }
}

/// Loads the catalogue, printing every load error; the run goes on with the
/// cases that loaded, but is marked as a harness error.
fn load_catalogue(dir: Option<&Path>) -> (Catalogue, Option<String>) {
    let dir = match dir {
        Some(dir) => dir.to_path_buf(),
        None if Path::new("attacks").is_dir() => PathBuf::from("attacks"),
        None => return (catalogue::builtin(), None),
    };
    let outcome = catalogue::load_dir(&dir);
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

/// Resolves `--target`: `reference`, a path to a profile, or `targets/<name>.yaml`.
fn load_target(name: &str) -> Result<LoadedProfile> {
    let as_path = Path::new(name);
    let candidate = if as_path.is_file() {
        Some(as_path.to_path_buf())
    } else {
        let in_targets = Path::new("targets").join(format!("{name}.yaml"));
        in_targets.is_file().then_some(in_targets)
    };
    match candidate {
        Some(path) => Ok(TargetProfile::load(&path)?),
        None if name == "reference" => Ok(LoadedProfile {
            profile: TargetProfile::reference(),
            dir: PathBuf::from("."),
        }),
        None => bail!(
            "no target {name:?}: not a profile file, not targets/{name}.yaml, not `reference`"
        ),
    }
}

fn connect(loaded: &LoadedProfile) -> Result<Box<dyn Framing>> {
    match &loaded.profile.adapter {
        AdapterSpec::Builtin { builtin } if builtin == "reference" => Ok(Box::new(Reference)),
        AdapterSpec::Builtin { builtin } => bail!("unknown built-in target {builtin:?}"),
        AdapterSpec::Subprocess(spec) => Ok(Box::new(SubprocessFraming::new(spec, &loaded.dir))),
    }
}

/// Installs the Ctrl-C handler: it kills every target process group at once
/// and sets the returned flag, which the run polls between cases.
fn interrupt_flag() -> Result<Arc<AtomicBool>> {
    let interrupted = Arc::new(AtomicBool::new(false));
    let flag = interrupted.clone();
    ctrlc::set_handler(move || {
        flag.store(true, Ordering::SeqCst);
        subprocess::kill_all_children();
    })
    .context("installing the Ctrl-C handler")?;
    Ok(interrupted)
}

fn run(args: RunArgs) -> Result<u8> {
    let interrupted = interrupt_flag()?;
    let (catalogue, catalogue_error) = load_catalogue(args.select.catalogue.as_deref());
    let loaded = load_target(&args.select.target)?;
    let cases = catalogue::instantiate(&catalogue, &loaded.profile);
    let cases = catalogue::select(cases, &args.select.only)?;
    if cases.is_empty() {
        bail!("no case matches --only {:?}", args.select.only);
    }
    let baseline = match &args.baseline {
        Some(path) => Some(baseline::load(path)?),
        None => None,
    };
    let mut framing = connect(&loaded)?;
    let progress = progress_bar(cases.len() as u64);
    let options = RunOptions {
        level: args.level,
        catalogue_hash: catalogue.hash.clone(),
        filters: args.select.only.clone(),
        harness_error: catalogue_error,
        nonce_samples: args.nonce_samples,
    };
    let result = runner::run(
        &cases,
        &loaded.profile,
        framing.as_mut(),
        &options,
        &interrupted,
        &mut |r| {
            progress.set_message(r.case.id.clone());
            progress.inc(1);
        },
    );
    progress.finish_and_clear();
    drop(framing);

    if interrupted.load(Ordering::SeqCst) {
        eprintln!("framecheck: interrupted; no report written");
        return Ok(EXIT_HARNESS);
    }
    let formats = if args.formats.is_empty() {
        Format::ALL.to_vec()
    } else {
        args.formats.clone()
    };
    let diff = baseline
        .as_ref()
        .map(|old| baseline::diff(old, &result, args.level));
    let written = report::write_all_with_baseline(
        &result,
        diff.as_ref(),
        &args.out,
        &loaded.profile.name,
        &formats,
    )
    .with_context(|| format!("writing reports to {}", args.out.display()))?;
    out_raw!(
        "{}",
        report::markdown::terminal_summary_with_baseline(&result, diff.as_ref())
    );
    for path in &written {
        out!("wrote {}", path.display());
    }
    let summary = summary::Summary::of(&result);
    let mut code = summary.exit_code() as u8;
    if code == EXIT_PASS && diff.as_ref().is_some_and(|d| d.is_regression()) {
        code = EXIT_FINDINGS;
    }
    Ok(code)
}

fn progress_bar(len: u64) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    if let Ok(style) = indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} {msg}") {
        bar.set_style(style);
    }
    bar
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

fn validate(dir: &Path, targets: &[PathBuf]) -> Result<u8> {
    let outcome = catalogue::load_dir(dir);
    let mut errors = outcome.errors.len();
    for error in &outcome.errors {
        out!("{error}");
    }
    out!(
        "catalogue {}: {} cases, {} error(s)",
        dir.display(),
        outcome.catalogue.cases.len(),
        outcome.errors.len()
    );
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
        match TargetProfile::load(path) {
            Ok(loaded) => out!("target {}: ok ({})", path.display(), loaded.profile.name),
            Err(error) => {
                errors += 1;
                out!("{error}");
            }
        }
    }
    Ok(if errors == 0 { EXIT_PASS } else { EXIT_HARNESS })
}

fn search(args: SearchArgs) -> Result<u8> {
    let interrupted = interrupt_flag()?;
    let (catalogue, catalogue_error) = load_catalogue(args.select.catalogue.as_deref());
    if let Some(error) = catalogue_error {
        bail!("{error}");
    }
    let loaded = load_target(&args.select.target)?;
    let cases = catalogue::select(
        catalogue::instantiate(&catalogue, &loaded.profile),
        &args.select.only,
    )?;
    let mut framing = connect(&loaded)?;
    let options = SearchOptions {
        budget: args.budget,
        seed: args.seed,
        level: args.level,
        shrink_calls: 400,
        max_findings: args.max_findings,
    };
    let found = blackbox::search(
        &cases,
        &loaded.profile,
        framing.as_mut(),
        &options,
        &interrupted,
    );
    drop(framing);
    if interrupted.load(Ordering::SeqCst) {
        eprintln!("framecheck: interrupted; no search report written");
        return Ok(EXIT_HARNESS);
    }
    let stem = format!("search-{}", loaded.profile.name);
    let markdown = blackbox::render_markdown(&found);
    let json = serde_json::to_string_pretty(&found).context("serialising the search report")?;
    std::fs::create_dir_all(&args.out)?;
    report::write_atomically(&args.out.join(format!("{stem}.md")), markdown.as_bytes())?;
    report::write_atomically(&args.out.join(format!("{stem}.json")), json.as_bytes())?;
    let cases_dir = args.out.join(&stem);
    if !found.findings.is_empty() {
        std::fs::create_dir_all(&cases_dir)?;
    }
    for (category, yaml) in blackbox::to_catalogue_files(&found) {
        let path = cases_dir.join(format!("{}.yaml", category.name()));
        report::write_atomically(&path, yaml.as_bytes())?;
        out!("wrote {}", path.display());
    }
    out_raw!("{markdown}");
    Ok(if found.findings.is_empty() {
        EXIT_PASS
    } else {
        EXIT_FINDINGS
    })
}

fn serve_reference() -> Result<u8> {
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    subprocess::serve(&mut Reference, stdin, stdout).context("serving the reference")?;
    Ok(EXIT_PASS)
}

fn init(profile: Option<PathBuf>, command: Vec<String>) -> Result<u8> {
    use framecheck::layout::init;
    let yaml = match (profile, command.is_empty()) {
        (Some(path), true) => init::propose_for_profile(&TargetProfile::load(&path)?)?,
        (None, false) => init::propose_for_command(command, &std::env::current_dir()?)?,
        _ => bail!("give either a profile path or an adapter command after `--`"),
    };
    out!("{}", yaml.trim_end());
    Ok(0)
}
