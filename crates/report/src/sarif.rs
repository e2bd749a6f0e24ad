//! The SARIF 2.1.0 report, for code-scanning dashboards.
//!
//! One rule per oracle [`Check`] (the rule id is the check's stable name,
//! its help text the check's fix hint) and **one result per weakness** (see
//! [`super::weakness`]), not per case: a code-scanning alert is a
//! conclusion, and one run of a weak framing would otherwise raise hundreds.
//!
//! A result points at the user's code: the profile's `source: { path, line }`
//! (where the framing is written), falling back to the profile file, then to
//! `targets/<name>.yaml`. framecheck's own catalogue files are not in the
//! user's repository, so they are never a result's location. The weakness's
//! cases are `relatedLocations` (logical locations named by case id, at most
//! [`MAX_RELATED_LOCATIONS`]); every case id is in the result's properties.
//! `partialFingerprints["framecheckWeakness/v1"]` is `<target>/<weakness id>`,
//! built from stable names only, so an alert stays the same alert from run
//! to run.
//!
//! GitHub code scanning's ingestion limits are respected by construction:
//! one run per file (limit 20), one result per weakness (limit 25,000
//! results per run, 5,000 shown; a run has at most a few dozen weaknesses),
//! eight rules (limit 25,000), no tags, no thread flows, and at most 100
//! related locations per result (1,000 accepted, 100 shown).
//!
//! Result levels: a security weakness whose most severe case is `critical`
//! or `high` is an `error`, any other a `warning`; fidelity weaknesses are
//! `warning`s. Cases the target did not answer are not results (nothing was
//! found); they are `toolExecutionNotifications` of the invocation, as is a
//! harness error, and make `executionSuccessful` false.
//!
//! Message texts show run-supplied strings through [`visible`], so a
//! dashboard shows zero-width and bidi characters as escapes.

use serde_json::{json, Map, Value};

use std::collections::BTreeMap;
use std::path::Path;

use super::escape::{truncate, uri_reference, visible};
use super::summary::Summary;
use super::weakness::Weakness;
use framecheck_core::catalogue::Severity;
use framecheck_core::oracle::{Check, CheckClass};
use framecheck_launch::outcome::{CaseResult, Outcome, RunResult, Verdict};
use framecheck_launch::profile::WrapReturns;

/// The `$schema` URI written into every log: the OASIS SARIF 2.1.0 schema.
pub const SARIF_SCHEMA_URI: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// Longest run-supplied text in one SARIF message, in bytes.
const MAX_MESSAGE_BYTES: usize = 4096;

/// Every check a catalogue run can raise, in rule order; each one's text
/// is its row of the check table. `frame.absent` and `parts.structure` are
/// not among them: only a profile declaring `delimiters: none` (or
/// `wrap.returns: parts`), or a framing that returns some content with no
/// frame, raises one, and its log alone lists it, after these
/// ([`rules_of`]), so every other log stays as it was.
pub const RULES: [Check; 17] = {
    let mut rules = [Check::FrameShape; 17];
    let mut i = 0;
    while i < rules.len() {
        rules[i] = Check::ALL[i];
        i += 1;
    }
    rules
};

/// The rules of `run`'s log: [`RULES`], `frame.absent` when the run
/// judged an unmarked framing or a case's output came back with no frame
/// at all, `parts.structure` when its profile declares a wrap answering
/// parts, `records.forged` when it declares role records and
/// `quote.escape` when it declares a line-prefix body (so every
/// other log stays as it was).
pub fn rules_of(run: &RunResult) -> Vec<Check> {
    let mut rules = RULES.to_vec();
    let absent = |r: &framecheck_launch::outcome::CaseResult| match &r.outcome {
        framecheck_launch::outcome::Outcome::Judged { findings } => {
            findings.iter().any(|f| f.check == Check::FrameAbsent)
        }
        _ => false,
    };
    if run.meta.unmarked || run.results.iter().any(absent) {
        rules.push(Check::FrameAbsent);
    }
    if run.meta.target.wrap.returns == WrapReturns::Parts {
        rules.push(Check::PartsStructure);
    }
    if run.meta.target.records.is_some() {
        rules.push(Check::RecordsForged);
    }
    if run.meta.target.body.quote_prefix().is_some() {
        rules.push(Check::QuoteEscape);
    }
    rules
}

/// A one-sentence description of what `check` verifies (its row of
/// `framecheck_core::oracle::check_table`).
pub fn rule_description(check: Check) -> &'static str {
    check.row().rule
}

fn rule_index(rules: &[Check], check: Check) -> usize {
    rules
        .iter()
        .position(|&c| c == check)
        .expect("the log's rules list every check its run raised")
}

fn result_level(weakness: &Weakness) -> &'static str {
    match (weakness.class, weakness.severity) {
        (CheckClass::Security, Severity::Critical | Severity::High) => "error",
        // Apart from security and fidelity: worth a look, a failure only
        // where the gate (or the declared context) makes it one.
        (CheckClass::Confusable | CheckClass::OuterLayer | CheckClass::HostFramed, _)
            if !weakness.fails =>
        {
            "note"
        }
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
    let rules: Vec<Value> = rules_of(run)
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
    let location = primary_location(run);
    let results: Vec<Value> = super::weakness::weaknesses(run)
        .iter()
        .map(|w| weakness_result(run, w, &location))
        .collect();
    let mut notifications = Vec::new();
    for result in &run.results {
        if let (Verdict::Error, Outcome::Error { reason, .. }) =
            (result.verdict(meta.level, meta.gate), &result.outcome)
        {
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
    }
    if let Some(error) = &super::summary::harness_error(run) {
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
                "gate": meta.gate.name(),
                "status": summary.status(),
                "exitCode": summary.exit_code(),
                "highestLevelHeld": summary.highest_level_held.map(|l| l.name()),
                "levelHeld": summary.level_held_text(),
                "catalogueHash": meta.catalogue_hash,
                "manifest": meta.manifest,
                "startedUnix": meta.started_unix,
                "durationMs": meta.duration_ms,
                "tokenizerViews": super::views::sarif_property(run),
            },
        }],
    })
}

/// How many cases a result lists as related locations: GitHub shows the
/// first 100 locations of a result (and rejects more than 1,000).
pub const MAX_RELATED_LOCATIONS: usize = 100;

/// Where every result points: the framing's source, else its profile file.
fn primary_location(run: &RunResult) -> Value {
    let target = &run.meta.target;
    let (uri, line) = match &target.source {
        Some(source) => (uri_reference(Path::new(&source.path)), source.line),
        None => {
            let profile = run
                .meta
                .manifest
                .as_ref()
                .and_then(|m| m.profile_path.clone())
                .unwrap_or_else(|| Path::new("targets").join(format!("{}.yaml", target.name)));
            (uri_reference(&profile), None)
        }
    };
    let mut physical = Map::new();
    physical.insert("artifactLocation".into(), json!({ "uri": uri }));
    // SARIF lines are 1-based; an unknown line gets no region.
    if let Some(line) = line.filter(|&l| l >= 1) {
        physical.insert("region".into(), json!({ "startLine": line }));
    }
    Value::Object(physical)
}

fn weakness_result(run: &RunResult, weakness: &Weakness, location: &Value) -> Value {
    let by_id: BTreeMap<&str, &CaseResult> = run
        .results
        .iter()
        .map(|r| (r.case.id.as_str(), r))
        .collect();
    let related: Vec<Value> = weakness
        .cases
        .iter()
        .take(MAX_RELATED_LOCATIONS)
        .enumerate()
        .map(|(index, id)| {
            let title = by_id.get(id.as_str()).map_or("", |r| r.case.title.as_str());
            json!({
                "id": index,
                "message": { "text": format!(
                    "{}: {}",
                    visible(id),
                    visible(&truncate(title, MAX_MESSAGE_BYTES))
                ) },
                "logicalLocations": [{ "name": id, "kind": "test" }],
            })
        })
        .collect();
    let levels: Vec<&str> = weakness.levels.iter().map(|l| l.name()).collect();
    let text = format!(
        "{} {} cases, failing at {}; minimal case {}. Fix: {}",
        weakness.statement,
        weakness.count,
        super::weakness::levels_text(weakness),
        visible(&weakness.representative),
        weakness.check.hint()
    );
    let mut result = json!({
        "ruleId": weakness.check.name(),
        "ruleIndex": rule_index(&rules_of(run), weakness.check),
        "level": result_level(weakness),
        "message": { "text": text },
        "locations": [{
            "physicalLocation": location,
            "logicalLocations": [{ "name": weakness.id, "fullyQualifiedName": format!(
                "{}/{}", run.meta.target.name, weakness.id
            ) }],
        }],
        "relatedLocations": related,
        "partialFingerprints": {
            "framecheckWeakness/v1": format!("{}/{}", run.meta.target.name, weakness.id),
        },
        "properties": {
            "weaknessId": weakness.id,
            "class": weakness.class.name(),
            "fails": weakness.fails,
            "severity": super::severity_name(weakness.severity),
            "family": weakness.family.name(),
            "field": weakness.field.name(),
            "role": weakness.role.name(),
            "levels": levels,
            "count": weakness.count,
            "representative": weakness.representative,
            "caseIds": weakness.cases,
            "consumer": weakness.consumer.name(),
        },
    });
    if let Some(live) = representative_live(run, weakness, &by_id) {
        result["properties"]["representativeLive"] = live;
    }
    result
}

/// The delimiter the check found live in the weakness's minimal case, as
/// its finding records it (reports never scan again); `None` when the
/// finding records none.
fn representative_live(
    run: &RunResult,
    weakness: &Weakness,
    by_id: &BTreeMap<&str, &CaseResult>,
) -> Option<Value> {
    let result = by_id.get(weakness.representative.as_str())?;
    let live = result
        .findings_at(run.meta.level)
        .into_iter()
        .find(|f| f.check == weakness.check)?
        .live?;
    serde_json::to_value(live).ok()
}
