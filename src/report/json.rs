//! The JSON report: the complete, machine-readable record of a run.
//!
//! It carries every field of the [`RunResult`] plus the [`Summary`], each
//! case's verdict at every level, and the baseline diff when there was one.
//! It is the one format that reads back ([`parse`]), which is what baselines
//! are made of. The field-by-field description and the stability policy are
//! in `docs/report-schema.md`; the version is [`SCHEMA`].
//!
//! One field differs in shape from the in-memory type: the reader's answer
//! (`Evidence::read_body`, an `Option<Option<String>>`) is written as
//! `"reader"`, an object, because JSON `null` cannot tell "the reader was
//! not called" from "the reader rejected the text".

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::baseline::BaselineDiff;
use super::summary::Summary;
use crate::catalogue::ConcreteCase;
use crate::level::ReaderLevel;
use crate::profile::TargetProfile;
use crate::runner::{CaseResult, Evidence, LayoutReport, Outcome, RunMeta, RunResult, Verdict};

/// The schema name and major version written into every report. A reader
/// accepts any report whose schema has this name and major version; minor
/// additions (new optional fields) do not change it.
pub const SCHEMA: &str = "framecheck-report/1";

/// Why a JSON report could not be read back.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ParseError {
    /// The text is not JSON of the report's shape.
    #[error("{0}")]
    Json(#[from] serde_json::Error),
    /// The report declares a schema this version cannot read.
    #[error("unsupported report schema {found:?} (this framecheck reads {SCHEMA:?})")]
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

#[derive(Serialize)]
struct EvidenceOut<'a> {
    framed: &'a Option<String>,
    read_text: &'a Option<String>,
    reader: Option<ReaderAnswer>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EvidenceIn {
    framed: Option<String>,
    read_text: Option<String>,
    reader: Option<ReaderAnswer>,
}

#[derive(Serialize)]
struct CaseOut<'a> {
    id: &'a str,
    verdicts: BTreeMap<ReaderLevel, Verdict>,
    case: &'a ConcreteCase,
    outcome: &'a Outcome,
    evidence: EvidenceOut<'a>,
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
    started_unix: u64,
    duration_ms: u64,
    filters: &'a [String],
    harness_error: &'a Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    layout: &'a Option<LayoutReport>,
    status: &'static str,
    exit_code: i32,
    summary: Summary,
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline: Option<&'a BaselineDiff>,
    results: Vec<CaseOut<'a>>,
}

#[derive(Deserialize)]
struct ReportIn {
    framecheck_version: String,
    catalogue_hash: String,
    target: TargetProfile,
    level: ReaderLevel,
    started_unix: u64,
    duration_ms: u64,
    #[serde(default)]
    filters: Vec<String>,
    #[serde(default)]
    harness_error: Option<String>,
    #[serde(default)]
    layout: Option<LayoutReport>,
    results: Vec<CaseIn>,
}

#[derive(Deserialize)]
struct SchemaOnly {
    schema: String,
}

fn case_out(result: &CaseResult) -> CaseOut<'_> {
    let reader = result
        .evidence
        .read_body
        .as_ref()
        .map(|answer| match answer {
            Some(body) => ReaderAnswer::Accepted { body: body.clone() },
            None => ReaderAnswer::Rejected,
        });
    CaseOut {
        id: &result.case.id,
        verdicts: ReaderLevel::ALL
            .iter()
            .map(|&l| (l, result.verdict_at(l)))
            .collect(),
        case: &result.case,
        outcome: &result.outcome,
        evidence: EvidenceOut {
            framed: &result.evidence.framed,
            read_text: &result.evidence.read_text,
            reader,
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
    let summary = Summary::of(run);
    let meta = &run.meta;
    let report = ReportOut {
        schema: SCHEMA,
        framecheck_version: &meta.framecheck_version,
        catalogue_hash: &meta.catalogue_hash,
        target: &meta.target,
        level: meta.level,
        started_unix: meta.started_unix,
        duration_ms: meta.duration_ms,
        filters: &meta.filters,
        harness_error: &meta.harness_error,
        layout: &meta.layout,
        status: summary.status(),
        exit_code: summary.exit_code(),
        summary,
        baseline,
        results: run.results.iter().map(case_out).collect(),
    };
    // Every type here serializes infallibly: string keys, no floats, no
    // custom serializers that can fail.
    let mut text = serde_json::to_string_pretty(&report).expect("a report always serializes");
    text.push('\n');
    text
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
            },
            elapsed_us: case.elapsed_us,
        })
        .collect();
    Ok(RunResult {
        meta: RunMeta {
            framecheck_version: report.framecheck_version,
            catalogue_hash: report.catalogue_hash,
            target: report.target,
            level: report.level,
            started_unix: report.started_unix,
            duration_ms: report.duration_ms,
            filters: report.filters,
            harness_error: report.harness_error,
            layout: report.layout,
        },
        results,
    })
}

/// `framecheck-report/1` and `framecheck-report/1.x` are readable; another
/// major version is not.
fn schema_is_readable(schema: &str) -> bool {
    match schema.strip_prefix(SCHEMA) {
        Some("") => true,
        Some(rest) => rest.starts_with('.'),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_versions() {
        assert!(schema_is_readable("framecheck-report/1"));
        assert!(schema_is_readable("framecheck-report/1.3"));
        assert!(!schema_is_readable("framecheck-report/10"));
        assert!(!schema_is_readable("framecheck-report/2"));
        assert!(!schema_is_readable("other/1"));
    }
}
