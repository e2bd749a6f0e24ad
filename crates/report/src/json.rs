//! The JSON report: the complete, machine-readable record of a run.
//!
//! It carries every field of the [`RunResult`] plus the [`Summary`], the
//! weaknesses (see [`super::weakness`]), each
//! case's verdict at every level, and the baseline diff when there was one.
//! It is the one format that reads back ([`parse`], from a file [`load`]),
//! which is what baselines are made of: reading is here, above
//! [`super::baseline`], so the comparison never depends on the format. The field-by-field description and the stability policy are
//! in `docs/report-schema.md`; the version is [`SCHEMA`].
//!
//! One field differs in shape from the in-memory type: the reader's answer
//! (`Evidence::read_body`, an `Option<Option<String>>`) is written as
//! `"reader"`, an object, because JSON `null` cannot tell "the reader was
//! not called" from "the reader rejected the text".
//!
//! Evidence is bounded: a framed output, reader input or reader body longer
//! than [`EVIDENCE_FULL_BYTES`] is written as its first and last
//! [`EVIDENCE_EXCERPT_BYTES`] around a marker, and `evidence.bounded` records
//! its full length and SHA-256, so a framing that turns a large case into a
//! huge output cannot turn the report into a huge file. The findings'
//! excerpts (with byte offsets into the full text) are kept as they are.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::baseline::{BaselineDiff, Decision};
use super::count::{ByCase, CaseTally, Counts};
use super::summary::Summary;
use super::weakness::Weakness;
use framecheck_core::catalogue::ConcreteCase;
use framecheck_core::gate::Gate;
use framecheck_core::level::ReaderLevel;
use framecheck_core::target::Fault;
use framecheck_launch::manifest::Manifest;
use framecheck_launch::outcome::ViewReport;
use framecheck_launch::outcome::{
    CaseResult, Evidence, LayoutReport, Outcome, RunMeta, RunResult, Verdict,
};
use framecheck_launch::profile::TargetProfile;

/// The schema name and version written into every report.
pub const SCHEMA: &str = "framecheck-report/1.8";

/// The schema name and major version a reader accepts: any report whose
/// schema has this name and major version. Minor additions (new optional
/// fields: `weaknesses` and `manifest` in 1.1, `gate` and the outer-layer
/// class in 1.2, the tokenizer `views` in 1.3, the `fault` class with
/// `target_fault` in 1.4, findings' `live` delimiter in 1.5, the counting
/// unit's `counts` and `tally`, the weaknesses' `counted`, `outputs` and
/// `same_as_base`, and the `host-framed` class in 1.6, the findings' and
/// weaknesses' `consumer` in 1.7) do not change it.
pub const SCHEMA_MAJOR: &str = "framecheck-report/1";

/// Why a JSON report could not be read back.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ParseError {
    /// The text is not JSON of the report's shape.
    #[error("{0}")]
    Json(#[from] serde_json::Error),
    /// The report declares a schema this version cannot read.
    #[error("unsupported report schema {found:?} (this framecheck reads {SCHEMA_MAJOR:?})")]
    Schema {
        /// The `schema` field found.
        found: String,
    },
}

/// What the reader answered, as written in the report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "answer", rename_all = "kebab-case")]
enum ReaderAnswer {
    /// The reader returned a body.
    Accepted { body: String },
    /// The reader said the text is not exactly one frame.
    Rejected,
}

/// Evidence texts up to this many bytes are written whole.
pub const EVIDENCE_FULL_BYTES: usize = 64 * 1024;

/// Bytes kept from each end of a longer evidence text (to char boundaries).
pub const EVIDENCE_EXCERPT_BYTES: usize = 2 * 1024;

/// What an excerpted evidence text was, in full.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct BoundedText {
    /// Length of the full text, in bytes.
    bytes: usize,
    /// SHA-256 of the full text, lowercase hex.
    sha256: String,
}

#[derive(Serialize)]
struct EvidenceOut {
    framed: Option<String>,
    read_text: Option<String>,
    reader: Option<ReaderAnswer>,
    /// The parts a wrap answered, for a framing that answers with parts.
    #[serde(skip_serializing_if = "Option::is_none")]
    parts: Option<String>,
    /// Evidence field name → the full text's length and hash, for each
    /// field written as an excerpt.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    bounded: BTreeMap<&'static str, BoundedText>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EvidenceIn {
    framed: Option<String>,
    read_text: Option<String>,
    reader: Option<ReaderAnswer>,
    #[serde(default)]
    parts: Option<String>,
    // Read back as written: the excerpted fields hold their excerpts.
    #[serde(default)]
    #[allow(dead_code)]
    bounded: BTreeMap<String, BoundedText>,
}

/// `text` whole when it is short; otherwise its two ends around a marker,
/// with the full text's length and hash recorded under `field`.
fn bounded(
    text: Option<&str>,
    field: &'static str,
    record: &mut BTreeMap<&'static str, BoundedText>,
) -> Option<String> {
    let text = text?;
    if text.len() <= EVIDENCE_FULL_BYTES {
        return Some(text.to_string());
    }
    let mut head = EVIDENCE_EXCERPT_BYTES;
    while !text.is_char_boundary(head) {
        head -= 1;
    }
    let mut tail = text.len() - EVIDENCE_EXCERPT_BYTES;
    while !text.is_char_boundary(tail) {
        tail += 1;
    }
    use sha2::{Digest, Sha256};
    let sha256 = Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    record.insert(
        field,
        BoundedText {
            bytes: text.len(),
            sha256,
        },
    );
    Some(format!(
        "{}\n[framecheck: {} bytes omitted; full length and SHA-256 in evidence.bounded.{field}]\n{}",
        &text[..head],
        tail - head,
        &text[tail..]
    ))
}

#[derive(Serialize)]
struct CaseOut<'a> {
    id: &'a str,
    verdicts: BTreeMap<ReaderLevel, Verdict>,
    /// The case's findings at the run's level in the counting unit (1.6,
    /// derived: `report::count`).
    tally: CaseTally,
    case: &'a ConcreteCase,
    outcome: &'a Outcome,
    evidence: EvidenceOut,
    elapsed_us: u64,
}

#[derive(Deserialize)]
struct CaseIn {
    case: ConcreteCase,
    outcome: Outcome,
    evidence: EvidenceIn,
    elapsed_us: u64,
}

#[derive(Serialize)]
struct ReportOut<'a> {
    schema: &'static str,
    framecheck_version: &'a str,
    catalogue_hash: &'a str,
    target: &'a TargetProfile,
    level: ReaderLevel,
    gate: Gate,
    started_unix: u64,
    duration_ms: u64,
    filters: &'a [String],
    harness_error: Option<String>,
    /// What the target did when the run gave it up (1.4).
    #[serde(skip_serializing_if = "Option::is_none")]
    target_fault: &'a Option<Fault>,
    #[serde(skip_serializing_if = "Option::is_none")]
    manifest: &'a Option<Manifest>,
    /// Written only when the run's timings were dropped (`--reproducible`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    timings_omitted: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    layout: Option<serde_json::Value>,
    /// Written only when the profile did not fit its framing and no case ran.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    misfit: bool,
    /// Written only when the framing puts no marker around the content
    /// (`delimiters: none`, borne out): `frame.absent` alone was judged.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    unmarked: bool,
    /// Written only when some request timed out and was answered on its
    /// replay under the longer budget (issue 57): how many.
    #[serde(skip_serializing_if = "is_zero")]
    passed_on_replay: u64,
    status: &'static str,
    exit_code: i32,
    summary: Summary,
    /// The run's totals in the counting unit, weaknesses first (1.6).
    counts: Counts,
    weaknesses: &'a [Weakness],
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline: Option<&'a BaselineDiff>,
    /// Written only with `baseline`: the exit code the baseline gate gave
    /// (the process's), beside `exit_code`, the run's own.
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline_exit_code: Option<i32>,
    /// Written only when tokenizer views were selected (1.3).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    views: &'a [ViewReport],
    results: Vec<CaseOut<'a>>,
}

#[derive(Deserialize)]
struct ReportIn {
    framecheck_version: String,
    catalogue_hash: String,
    target: TargetProfile,
    level: ReaderLevel,
    /// Absent before 1.2: those runs were decided under the default gate.
    #[serde(default)]
    gate: Gate,
    started_unix: u64,
    duration_ms: u64,
    #[serde(default)]
    filters: Vec<String>,
    #[serde(default)]
    harness_error: Option<String>,
    /// Absent before 1.4 and when the target was not given up.
    #[serde(default)]
    target_fault: Option<Fault>,
    #[serde(default)]
    manifest: Option<Manifest>,
    /// A bounded layout (see [`layout_out`]) does not read back; the run
    /// then has none, as a report written before v2.
    layout: Option<serde_json::Value>,
    #[serde(default)]
    misfit: bool,
    #[serde(default)]
    unmarked: bool,
    /// Absent when no request passed only on replay.
    #[serde(default)]
    passed_on_replay: u64,
    /// Absent before 1.3 and when no view was selected.
    #[serde(default)]
    views: Vec<ViewReport>,
    results: Vec<CaseIn>,
}

/// Whether a count is zero: the count is then left out.
fn is_zero(count: &u64) -> bool {
    *count == 0
}

#[derive(Deserialize)]
struct SchemaOnly {
    schema: String,
}

fn case_out<'a>(
    result: &'a CaseResult,
    level: ReaderLevel,
    gate: Gate,
    index: &ByCase<'_>,
) -> CaseOut<'a> {
    let mut record = BTreeMap::new();
    let evidence = &result.evidence;
    let reader = evidence.read_body.as_ref().map(|answer| match answer {
        Some(body) => ReaderAnswer::Accepted {
            body: bounded(Some(body), "reader_body", &mut record).unwrap_or_default(),
        },
        None => ReaderAnswer::Rejected,
    });
    CaseOut {
        id: &result.case.id,
        verdicts: ReaderLevel::ALL
            .iter()
            .map(|&l| (l, result.verdict(l, gate)))
            .collect(),
        tally: super::count::case_tally(result, level, index),
        case: &result.case,
        outcome: &result.outcome,
        evidence: EvidenceOut {
            framed: bounded(evidence.framed.as_deref(), "framed", &mut record),
            read_text: bounded(evidence.read_text.as_deref(), "read_text", &mut record),
            reader,
            parts: bounded(evidence.parts.as_deref(), "parts", &mut record),
            bounded: record,
        },
        elapsed_us: result.elapsed_us,
    }
}

/// Renders `run` as a JSON report (pretty-printed, with a final newline).
pub fn render(run: &RunResult) -> String {
    render_with_baseline(run, None)
}

/// Renders `run` as a JSON report, with the baseline diff when given.
pub fn render_with_baseline(run: &RunResult, baseline: Option<&BaselineDiff>) -> String {
    let mut bytes = Vec::new();
    write_with_baseline(run, baseline, &mut bytes).expect("writing to memory never fails");
    String::from_utf8(bytes).expect("serde_json writes UTF-8")
}

/// [`render_with_baseline`], written to `out` as it is serialized: a large
/// case's evidence is never held twice, once in the run and once in the
/// report text (issue 13, peak memory).
pub fn write_with_baseline(
    run: &RunResult,
    baseline: Option<&BaselineDiff>,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let summary = Summary::of(run);
    let weaknesses = super::weakness::weaknesses(run);
    let index = super::count::by_case(run, &weaknesses);
    let meta = &run.meta;
    let report = ReportOut {
        schema: SCHEMA,
        framecheck_version: &meta.framecheck_version,
        catalogue_hash: &meta.catalogue_hash,
        target: &meta.target,
        level: meta.level,
        gate: meta.gate,
        started_unix: meta.started_unix,
        duration_ms: meta.duration_ms,
        filters: &meta.filters,
        // The run's own error plus the unanswered cases: never null when
        // the status is `harness-error`.
        harness_error: super::summary::harness_error(run),
        target_fault: &meta.target_fault,
        manifest: &meta.manifest,
        timings_omitted: super::timings_omitted(meta),
        layout: meta.layout.as_ref().map(layout_out),
        misfit: meta.misfit,
        unmarked: meta.unmarked,
        passed_on_replay: meta.passed_on_replay,
        status: summary.status(),
        exit_code: summary.exit_code(),
        baseline_exit_code: baseline.map(|diff| Decision::of(&summary, Some(diff)).exit_code),
        summary,
        counts: super::count::counts(run, &weaknesses),
        weaknesses: &weaknesses,
        baseline,
        views: &run.views,
        results: run
            .results
            .iter()
            .map(|r| case_out(r, meta.level, meta.gate, &index))
            .collect(),
    };
    // Every type here serializes infallibly (string keys, no floats, no
    // custom serializers that can fail), so an error is the writer's.
    serde_json::to_writer_pretty(&mut *out, &report).map_err(std::io::Error::from)?;
    out.write_all(b"\n")
}

/// Reads a JSON report back into the run it was made from. The derived
/// fields (`status`, `exit_code`, `summary`, `verdicts`, `baseline`) are
/// ignored: they are recomputed from the run when needed.
pub fn parse(text: &str) -> Result<RunResult, ParseError> {
    let declared: SchemaOnly = serde_json::from_str(text)?;
    if !schema_is_readable(&declared.schema) {
        return Err(ParseError::Schema {
            found: declared.schema,
        });
    }
    let report: ReportIn = serde_json::from_str(text)?;
    let results = report
        .results
        .into_iter()
        .map(|case| CaseResult {
            case: case.case,
            outcome: case.outcome,
            evidence: Evidence {
                framed: case.evidence.framed,
                read_text: case.evidence.read_text,
                read_body: case.evidence.reader.map(|answer| match answer {
                    ReaderAnswer::Accepted { body } => Some(body),
                    ReaderAnswer::Rejected => None,
                }),
                parts: case.evidence.parts,
            },
            elapsed_us: case.elapsed_us,
        })
        .collect();
    let mut run = RunResult {
        meta: RunMeta {
            framecheck_version: report.framecheck_version,
            catalogue_hash: report.catalogue_hash,
            target: report.target,
            level: report.level,
            gate: report.gate,
            started_unix: report.started_unix,
            duration_ms: report.duration_ms,
            filters: report.filters,
            harness_error: None,
            manifest: report.manifest,
            layout: report
                .layout
                .and_then(|value| serde_json::from_value::<LayoutReport>(value).ok()),
            misfit: report.misfit,
            unmarked: report.unmarked,
            target_fault: report.target_fault,
            passed_on_replay: report.passed_on_replay,
        },
        results,
        views: report.views,
    };
    run.meta.harness_error = own_harness_error(report.harness_error, &run);
    Ok(run)
}

/// Loads a run from a JSON report written by [`write_with_baseline`] (a baseline, or
/// the record `verify` re-runs).
pub fn load(path: &Path) -> Result<RunResult, BaselineError> {
    let text = std::fs::read_to_string(path).map_err(|source| BaselineError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse(&text).map_err(|source| BaselineError::Report {
        path: path.to_path_buf(),
        source,
    })
}

/// Why a baseline could not be loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BaselineError {
    /// The file could not be read.
    #[error("cannot read baseline {path}: {source}")]
    Io {
        /// The baseline file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not a framecheck JSON report this version can read.
    #[error("baseline {path} is not a readable framecheck report: {source}")]
    Report {
        /// The baseline file.
        path: PathBuf,
        /// What is wrong with it.
        source: ParseError,
    },
}

/// The written `harness_error` minus the part derived from the results
/// ([`super::summary::unanswered`]), which the summary adds back.
fn own_harness_error(written: Option<String>, run: &RunResult) -> Option<String> {
    let written = written?;
    let Some(derived) = super::summary::unanswered(run) else {
        return Some(written);
    };
    if written == derived {
        return None;
    }
    match written.strip_suffix(&derived) {
        Some(own) => own.strip_suffix("; ").map(str::to_string).or(Some(written)),
        None => Some(written),
    }
}

/// `framecheck-report/1` and `framecheck-report/1.x` are readable; another
/// major version is not.
fn schema_is_readable(schema: &str) -> bool {
    match schema.strip_prefix(SCHEMA_MAJOR) {
        Some("") => true,
        Some(rest) => rest.starts_with('.'),
        None => false,
    }
}

/// The layout as the report writes it: whole, unless its JSON passes
/// [`MAX_LAYOUT_BYTES`] (a framing that writes megabytes of constant text
/// around the content), then its status and the start of its template,
/// marked as bounded, like other large evidence.
fn layout_out(layout: &LayoutReport) -> serde_json::Value {
    let whole = serde_json::to_value(layout).expect("a layout always serializes");
    let size = whole.to_string().len();
    if size <= MAX_LAYOUT_BYTES {
        return whole;
    }
    let template = match layout {
        LayoutReport::Learned { template, .. } => template.as_str(),
        LayoutReport::Failed { reason } => reason.as_str(),
    };
    let mut cut = template.len().min(4096);
    while !template.is_char_boundary(cut) {
        cut -= 1;
    }
    serde_json::json!({
        "status": whole["status"],
        "template": &template[..cut],
        "bounded": { "bytes": size, "reason": "the layout's JSON is larger than the report keeps" },
    })
}

/// Largest layout written whole, in bytes of JSON.
const MAX_LAYOUT_BYTES: usize = 64 * 1024;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_evidence_is_written_whole() {
        let mut record = BTreeMap::new();
        let text = "é".repeat(EVIDENCE_FULL_BYTES / 2);
        assert_eq!(bounded(Some(&text), "framed", &mut record), Some(text));
        assert!(record.is_empty());
        assert_eq!(bounded(None, "framed", &mut record), None);
    }

    #[test]
    fn long_evidence_keeps_both_ends_its_length_and_its_hash() {
        let mut record = BTreeMap::new();
        // Three-byte characters, so the cut points fall inside characters.
        let text = format!("HEAD{}TAIL", "€".repeat(EVIDENCE_FULL_BYTES));
        let excerpt = bounded(Some(&text), "framed", &mut record).unwrap();
        assert!(excerpt.starts_with("HEAD€"));
        assert!(excerpt.ends_with("€TAIL"));
        assert!(excerpt.len() < 2 * EVIDENCE_EXCERPT_BYTES + 200);
        assert!(excerpt.contains("bytes omitted"));
        let full = &record["framed"];
        assert_eq!(full.bytes, text.len());
        use sha2::{Digest, Sha256};
        let expected: String = Sha256::digest(text.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(full.sha256, expected);
    }

    #[test]
    fn schema_versions() {
        assert!(schema_is_readable(SCHEMA));
        assert!(schema_is_readable("framecheck-report/1"));
        assert!(schema_is_readable("framecheck-report/1.3"));
        assert!(schema_is_readable("framecheck-report/1.4"));
        assert!(!schema_is_readable("framecheck-report/10"));
        assert!(!schema_is_readable("framecheck-report/2"));
        assert!(!schema_is_readable("other/1"));
    }
}
