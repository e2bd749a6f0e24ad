//! Conformance reports: JSON, Markdown, JUnit XML and SARIF, and baseline
//! diffs.
//!
//! Reports are built from a finished [`RunResult`] only; the runner and the
//! oracle never format anything. Verdicts come from
//! [`CaseResult::verdict_at`](framecheck_launch::outcome::CaseResult::verdict_at) at the
//! run's level (`meta.level`), so every format agrees with the exit code of
//! [`Summary::exit_code`].
//!
//! | format | module | for |
//! |---|---|---|
//! | JSON | [`json`] | machines, baselines (reads back) |
//! | Markdown | [`markdown`] | people: PR comments, CI summaries |
//! | JUnit XML | [`junit`] | CI test views |
//! | SARIF 2.1.0 | [`sarif`] | code-scanning dashboards |
//! | HTML | [`html`] | people: one self-contained page with filters |
//!
//! [`matrix`] sets several JSON reports side by side (every case against
//! every target) as one HTML page and one Markdown table.
//!
//! Every run-supplied string may be hostile; [`escape`] holds the escapers.
//!
//! ```no_run
//! use std::path::Path;
//! use framecheck_report::{self as report, Format};
//! # fn run() -> framecheck_launch::outcome::RunResult { unimplemented!() }
//! let run = run();
//! let written = report::write_all(&run, Path::new("reports"), "reference", Format::ALL)?;
//! print!("{}", report::markdown::terminal_summary(&run));
//! std::process::exit(report::Summary::of(&run).exit_code());
//! # Ok::<(), std::io::Error>(())
//! ```
#![deny(missing_docs)]

use std::io;
use std::path::{Path, PathBuf};

use framecheck_core::catalogue::Severity;
use framecheck_core::level::ReaderLevel;
use framecheck_core::oracle::{ExcerptSource, Finding};
use framecheck_launch::outcome::{CaseResult, RunResult};

pub mod baseline;
pub mod count;
pub mod escape;
pub mod html;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod matrix;
pub mod outputs;
pub mod page;
mod redact;
pub mod sarif;
pub mod spelling;
pub mod summary;
pub mod verify;
mod views;
pub mod weakness;
pub mod write;

pub use baseline::{BaselineDiff, OverwriteError};
pub use json::BaselineError;
pub use summary::{Summary, EXIT_CONFORMANCE_FAILURE, EXIT_HARNESS_ERROR, EXIT_OK};
pub use weakness::Weakness;
pub use write::{
    prepare_out_dir, write_set, write_set_streamed, write_set_streamed_removing, Published,
    StreamedFile, WriteFile,
};

/// A report format, as named on the command line (`--format json,sarif`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Format {
    /// `<stem>.json`: the full record; reads back as a baseline.
    Json,
    /// `<stem>.md`: for people.
    Markdown,
    /// `<stem>.junit.xml`: for CI test views.
    Junit,
    /// `<stem>.sarif`: SARIF 2.1.0 for code scanning.
    Sarif,
    /// `<stem>.html`: one self-contained page for people, with filters.
    Html,
}

impl Format {
    /// Every format.
    pub const ALL: &'static [Format] = &[
        Format::Json,
        Format::Markdown,
        Format::Junit,
        Format::Sarif,
        Format::Html,
    ];

    /// The file name suffix, with its dot.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Json => ".json",
            Format::Markdown => ".md",
            Format::Junit => ".junit.xml",
            Format::Sarif => ".sarif",
            Format::Html => ".html",
        }
    }

    /// What the format is for, one line (the command line's help).
    pub fn description(self) -> &'static str {
        match self {
            Format::Json => "`<stem>.json`: the full record; reads back as a baseline",
            Format::Markdown => "`<stem>.md`: for people",
            Format::Junit => "`<stem>.junit.xml`: for CI test views",
            Format::Sarif => "`<stem>.sarif`: SARIF 2.1.0 for code scanning",
            Format::Html => "`<stem>.html`: one self-contained page for people, with filters",
        }
    }

    /// The stable name, as accepted on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Markdown => "markdown",
            Format::Junit => "junit",
            Format::Sarif => "sarif",
            Format::Html => "html",
        }
    }
}

/// Renders `run` in `format`. The baseline diff appears in the JSON and
/// Markdown and HTML reports when given; JUnit and SARIF describe one run only.
pub fn render(run: &RunResult, format: Format, baseline: Option<&BaselineDiff>) -> String {
    match format {
        Format::Json => json::render_with_baseline(run, baseline),
        Format::Markdown => markdown::render_with_baseline(run, baseline),
        Format::Junit => junit::render(run),
        Format::Sarif => sarif::render(run),
        Format::Html => html::render_with(run, baseline, Some(&html::weakness_lead(run))),
    }
}

/// Drops the run's timings (start time, duration, each case's elapsed
/// time), so the same run renders to the same bytes every time: committed
/// reports then change only when a verdict, a case or the evidence does.
///
/// A report without timings says so: [`timings_omitted`] is true for it
/// (a start at Unix time 0 with a zero duration is the mark; no real run
/// has one), the JSON report writes `"timings_omitted": true` and the
/// Markdown report says "timings not recorded". The manifest drops what
/// differs between two runs of the same thing as well
/// ([`framecheck_launch::manifest::Manifest::make_reproducible`]), and so do a nonce
/// framing's random values, replaced by labels after every check has run
/// (`redact::redact_nonces`), and the count of requests that passed only
/// on replay: it measures the machine's load, not the framing (the
/// terminal's result line, written before, still states it).
pub fn omit_timings(run: &mut RunResult) {
    if let Some(manifest) = &mut run.meta.manifest {
        manifest.make_reproducible();
    }
    redact::redact_nonces(run);
    run.meta.started_unix = 0;
    run.meta.duration_ms = 0;
    run.meta.passed_on_replay = 0;
    for result in &mut run.results {
        result.elapsed_us = 0;
    }
}

/// True for a run whose timings were dropped by [`omit_timings`].
pub fn timings_omitted(meta: &framecheck_launch::outcome::RunMeta) -> bool {
    meta.started_unix == 0 && meta.duration_ms == 0
}

/// Writes `run` in each of `formats` to `dir/<stem><extension>`, creating
/// `dir`, and returns the paths written, in `formats` order.
///
/// The files are written as one set ([`write_set_streamed`]): each
/// rendered into a staging directory first (the JSON report serialized
/// straight into its file), then renamed into place under a lock on `dir`,
/// so a reader (or a crash) never sees half a report and two runs writing
/// to the same directory never leave a mixed set. `stem` must be a plain
/// file name stem: no path separators, not empty, not `.` or `..`.
///
/// The set is the stem's whole set: a file `<stem><extension>` of a format
/// not in `formats`, left by an earlier run, is removed with it
/// ([`report_files`]), so the directory never holds this run's JSON report
/// beside an earlier run's Markdown report that says something else.
pub fn write_all(
    run: &RunResult,
    dir: &Path,
    stem: &str,
    formats: &[Format],
) -> io::Result<Vec<PathBuf>> {
    write_all_with_baseline(run, None, dir, stem, formats).map(|set| set.written)
}

/// The file names of a stem's reports, one per format, in [`Format::ALL`]
/// order: the files a run of that target may write, and removes when it
/// does not write them.
pub fn report_files(stem: &str) -> Vec<PathBuf> {
    Format::ALL
        .iter()
        .map(|format| PathBuf::from(format!("{stem}{}", format.extension())))
        .collect()
}

/// [`write_all`], with the baseline diff included where the format carries
/// it; says which files it wrote and which earlier ones it removed.
pub fn write_all_with_baseline(
    run: &RunResult,
    baseline: Option<&BaselineDiff>,
    dir: &Path,
    stem: &str,
    formats: &[Format],
) -> io::Result<Published> {
    if stem.is_empty() || stem == "." || stem == ".." || stem.contains(['/', '\\', '\0']) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("report stem {stem:?} must be a plain file name"),
        ));
    }
    let files = formats
        .iter()
        .map(|&format| {
            let write: WriteFile<'_> = Box::new(move |out| render_to(run, format, baseline, out));
            (
                PathBuf::from(format!("{stem}{}", format.extension())),
                write,
            )
        })
        .collect();
    write_set_streamed_removing(dir, files, &[], &report_files(stem))
}

/// [`render`], written to `out`; the JSON report is serialized straight
/// into it, the others are small and rendered first.
fn render_to(
    run: &RunResult,
    format: Format,
    baseline: Option<&BaselineDiff>,
    out: &mut dyn io::Write,
) -> io::Result<()> {
    match format {
        Format::Json => json::write_with_baseline(run, baseline, out),
        _ => out.write_all(render(run, format, baseline).as_bytes()),
    }
}

pub use framecheck_core::files::write_atomically;

/// The findings a failing case is reported with at `level`: every finding
/// that applies there, security findings first. A `fail` case shows its
/// fidelity findings too, so a reviewer sees everything wrong at once.
pub(crate) fn reported_findings(result: &CaseResult, level: ReaderLevel) -> Vec<&Finding> {
    let mut findings = result.findings_at(level);
    findings.sort_by_key(|f| f.class);
    findings
}

/// What a case sent, on one line, every string quoted with Rust escapes
/// (so a NUL shows as `\0`): the input a `target.fault` finding names.
/// The evidence and the JSON report hold it whole.
pub(crate) fn case_input_text(case: &framecheck_core::catalogue::ConcreteCase) -> String {
    use framecheck_core::catalogue::{Input, Piece};
    match &case.input {
        Input::Wrap(request) => {
            let mut text = format!("content {:?}", request.content);
            for (name, value) in [("kind", &request.kind), ("provenance", &request.provenance)] {
                if !value.is_empty() {
                    text.push_str(&format!(", {name} {value:?}"));
                }
            }
            for (key, value) in &request.attributes {
                text.push_str(&format!(", attribute {key:?}={value:?}"));
            }
            text
        }
        Input::Read(pieces) => {
            let parts: Vec<String> = pieces
                .iter()
                .map(|piece| match piece {
                    Piece::Literal(text) => format!("{text:?}"),
                    Piece::Frame => "<frame>".into(),
                    Piece::FrameHead => "<frame head>".into(),
                    Piece::FrameBody => "<frame body>".into(),
                    Piece::FrameTail => "<frame tail>".into(),
                })
                .collect();
            format!("read {}", parts.join(" + "))
        }
    }
}

/// The stable name of a severity, as serialized.
pub(crate) fn severity_name(severity: Severity) -> &'static str {
    match severity {
        Severity::Info => "info",
        Severity::Low => "low",
        Severity::Medium => "medium",
        Severity::High => "high",
        Severity::Critical => "critical",
    }
}

/// What an excerpt's offsets refer to, in words.
pub(crate) fn excerpt_source_name(source: ExcerptSource) -> &'static str {
    match source {
        ExcerptSource::Framed => "framed output",
        ExcerptSource::ReadInput => "reader input",
        ExcerptSource::ReadBody => "reader body",
        ExcerptSource::Parts => "parts",
    }
}
