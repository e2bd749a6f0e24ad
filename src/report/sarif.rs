//! The SARIF 2.1.0 report, for code-scanning dashboards.
//!
//! One rule per oracle [`Check`] (the rule id is the check's stable name,
//! its help text the check's fix hint) and one result per failed check of
//! each failing case at the run's level. A result points at the catalogue
//! file and line where the case was written (physical location) and names
//! the concrete case id (logical location), since the flaw is in the target,
//! not in the catalogue: the location says which attack found it.
//!
//! Result levels: a security finding on a `critical` or `high` case is an
//! `error`, any other security finding a `warning`; fidelity findings and
//! forbidden refusals are `warning`s. Cases the target did not answer are not
//! results (nothing was found); they are `toolExecutionNotifications` of the
//! invocation, as is a harness error, and make `executionSuccessful` false.
//!
//! Message texts show run-supplied strings through
//! [`visible`], so a dashboard shows zero-width and
//! bidi characters as escapes; the `properties` bags keep them raw.

use serde_json::{json, Map, Value};

use super::escape::{truncate, uri_reference, visible};
use super::summary::Summary;
use crate::catalogue::Severity;
use crate::oracle::{Check, CheckClass, Finding};
use crate::runner::{CaseResult, Outcome, RunResult, Verdict};

/// The `$schema` URI written into every log: the OASIS SARIF 2.1.0 schema.
pub const SARIF_SCHEMA_URI: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// Longest run-supplied text in one SARIF message, in bytes.
const MAX_MESSAGE_BYTES: usize = 4096;

/// Every check, in rule order. [`rule_description`] matches exhaustively, so
/// a new check cannot be added to the oracle without a description here;
/// the tests check the list against it.
pub const RULES: [Check; 9] = [
    Check::FrameShape,
    Check::OuterText,
    Check::DelimiterCensus,
    Check::CanaryContainment,
    Check::TagIntegrity,
    Check::HeaderIntegrity,
    Check::ReaderVerdict,
    Check::Roundtrip,
    Check::Fidelity,
];

/// A one-sentence description of what `check` verifies.
pub fn rule_description(check: Check) -> &'static str {
    match check {
        Check::FrameShape => {
            "The framed output fits the frame layout learned by calibration, part by part."
        }
        Check::OuterText => {
            "Text outside the frame is only the framing's own constant text; nothing there derives from the input."
        }
        Check::DelimiterCensus => {
            "The framed output holds exactly the framing's own live delimiters, in order; content adds none."
        }
        Check::CanaryContainment => {
            "Text planted in a field stays inside the region it was put in: no breakout."
        }
        Check::TagIntegrity => {
            "The attribute-carrying tag parses to exactly the supplied attributes."
        }
        Check::HeaderIntegrity => {
            "Header fields cannot move the header boundary or carry line breaks."
        }
        Check::ReaderVerdict => {
            "The reader rejects what is not exactly one frame and accepts real frames."
        }
        Check::Roundtrip => "Reading the framed text back returns the framed body.",
        Check::Fidelity => {
            "Benign content, attributes and provenance pass through unchanged, and are not refused."
        }
    }
}

fn rule_index(check: Check) -> usize {
    RULES
        .iter()
        .position(|&c| c == check)
        .expect("RULES lists every check")
}

fn result_level(class: CheckClass, severity: Severity) -> &'static str {
    match (class, severity) {
        (CheckClass::Security, Severity::Critical | Severity::High) => "error",
        _ => "warning",
    }
}

/// Renders `run` as a SARIF 2.1.0 log (pretty-printed JSON, final newline).
pub fn render(run: &RunResult) -> String {
    let text = serde_json::to_string_pretty(&log(run)).expect("a JSON value always serializes");
    text + "\n"
}

/// The SARIF log of `run` as a JSON value.
pub fn log(run: &RunResult) -> Value {
    let summary = Summary::of(run);
    let meta = &run.meta;
    let rules: Vec<Value> = RULES
        .iter()
        .map(|&check| {
            json!({
                "id": check.name(),
                "shortDescription": { "text": rule_description(check) },
                "help": { "text": check.hint() },
                "defaultConfiguration": { "level": "error" },
            })
        })
        .collect();
    let mut results = Vec::new();
    let mut notifications = Vec::new();
    for result in &run.results {
        match (result.verdict_at(meta.level), &result.outcome) {
            (Verdict::Fail | Verdict::FidelityFail, Outcome::Refused { reason, .. }) => {
                results.push(refusal_result(result, reason));
            }
            (Verdict::Fail | Verdict::FidelityFail, _) => {
                for finding in super::reported_findings(result, meta.level) {
                    results.push(finding_result(result, finding));
                }
            }
            (Verdict::Error, Outcome::Error { reason, .. }) => {
                notifications.push(json!({
                    "level": "error",
                    "message": { "text": format!(
                        "target error on case {}: {}",
                        visible(&result.case.id),
                        visible(&truncate(reason, MAX_MESSAGE_BYTES)),
                    ) },
                    "properties": { "caseId": result.case.id },
                }));
            }
            _ => {}
        }
    }
    if let Some(error) = &meta.harness_error {
        notifications.push(json!({
            "level": "error",
            "message": { "text": format!(
                "harness error: {}",
                visible(&truncate(error, MAX_MESSAGE_BYTES))
            ) },
        }));
    }
    let execution_successful = !summary.harness_error && summary.errors == 0;
    let mut invocation = Map::new();
    invocation.insert("executionSuccessful".into(), execution_successful.into());
    if !notifications.is_empty() {
        invocation.insert("toolExecutionNotifications".into(), notifications.into());
    }
    json!({
        "$schema": SARIF_SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "framecheck",
                "version": meta.framecheck_version,
                "rules": rules,
            } },
            "invocations": [Value::Object(invocation)],
            "results": results,
            "properties": {
                "target": meta.target.name,
                "level": meta.level.name(),
                "status": summary.status(),
                "exitCode": summary.exit_code(),
                "highestLevelHeld": summary.highest_level_held.map(|l| l.name()),
                "catalogueHash": meta.catalogue_hash,
                "startedUnix": meta.started_unix,
                "durationMs": meta.duration_ms,
            },
        }],
    })
}

fn locations(result: &CaseResult) -> Value {
    let case = &result.case;
    let mut physical = Map::new();
    physical.insert(
        "artifactLocation".into(),
        json!({ "uri": uri_reference(&case.source.file) }),
    );
    // SARIF lines are 1-based; a case without a known line gets no region.
    if case.source.line >= 1 {
        physical.insert("region".into(), json!({ "startLine": case.source.line }));
    }
    json!([{
        "physicalLocation": Value::Object(physical),
        "logicalLocations": [{
            "name": case.id,
            "fullyQualifiedName": format!("{}/{}", case.category.name(), case.id),
        }],
    }])
}

fn case_properties(result: &CaseResult) -> Map<String, Value> {
    let case = &result.case;
    let mut properties = Map::new();
    properties.insert("caseId".into(), case.id.clone().into());
    properties.insert("baseId".into(), case.base_id.clone().into());
    properties.insert("category".into(), case.category.name().into());
    properties.insert(
        "severity".into(),
        super::severity_name(case.severity).into(),
    );
    properties.insert("title".into(), case.title.clone().into());
    properties.insert("flags".into(), case.flags.clone().into());
    properties.insert("references".into(), case.references.clone().into());
    properties
}

fn finding_result(result: &CaseResult, finding: &Finding) -> Value {
    let case = &result.case;
    let levels: Vec<&str> = finding.levels.iter().map(|l| l.name()).collect();
    let mut properties = case_properties(result);
    properties.insert("levels".into(), levels.clone().into());
    properties.insert(
        "class".into(),
        match finding.class {
            CheckClass::Security => "security",
            CheckClass::Fidelity => "fidelity",
        }
        .into(),
    );
    let mut text = format!(
        "{}: {}",
        visible(&truncate(&case.title, MAX_MESSAGE_BYTES)),
        visible(&truncate(&finding.message, MAX_MESSAGE_BYTES))
    );
    if !levels.is_empty() {
        text.push_str(&format!(" (fails at {})", levels.join(", ")));
    }
    if let Some(excerpt) = &finding.excerpt {
        text.push_str(&format!(
            " Excerpt of the {}, bytes {}..{}: {}",
            super::excerpt_source_name(excerpt.text),
            excerpt.start,
            excerpt.end,
            visible(&truncate(&excerpt.context, MAX_MESSAGE_BYTES))
        ));
        properties.insert(
            "excerpt".into(),
            json!({
                "source": super::excerpt_source_name(excerpt.text),
                "start": excerpt.start,
                "end": excerpt.end,
                "context": excerpt.context,
            }),
        );
    }
    json!({
        "ruleId": finding.check.name(),
        "ruleIndex": rule_index(finding.check),
        "level": result_level(finding.class, case.severity),
        "message": { "text": text },
        "locations": locations(result),
        "partialFingerprints": {
            "framecheckCase/v1": format!("{}:{}", case.id, finding.check.name()),
        },
        "properties": Value::Object(properties),
    })
}

fn refusal_result(result: &CaseResult, reason: &str) -> Value {
    let case = &result.case;
    let mut properties = case_properties(result);
    properties.insert("class".into(), "fidelity".into());
    properties.insert("refusal".into(), reason.into());
    json!({
        "ruleId": Check::Fidelity.name(),
        "ruleIndex": rule_index(Check::Fidelity),
        "level": "warning",
        "message": { "text": format!(
            "{}: the target refused input it must frame: {}",
            visible(&truncate(&case.title, MAX_MESSAGE_BYTES)),
            visible(&truncate(reason, MAX_MESSAGE_BYTES)),
        ) },
        "locations": locations(result),
        "partialFingerprints": {
            "framecheckCase/v1": format!("{}:{}", case.id, Check::Fidelity.name()),
        },
        "properties": Value::Object(properties),
    })
}
