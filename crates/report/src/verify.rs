//! `framecheck verify`: does a committed report reproduce?
//!
//! The CLI re-runs the target a JSON report records (its profile, filters
//! and level, from the report and its manifest) and [`compare`]s the two
//! runs case by case: every recorded verdict at every level must be
//! identical and no recorded case may be missing (cases added to the
//! catalogue since are listed, not compared). What else changed since the report (the
//! catalogue, the profile file, the adapter's files) is stated too, so a
//! difference can be traced.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use framecheck_core::level::ReaderLevel;
use framecheck_launch::manifest::Manifest;
use framecheck_launch::outcome::{RunResult, Verdict};

/// A case whose verdicts differ between the report and the re-run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerdictChange {
    /// The case id.
    pub id: String,
    /// The level where they first differ.
    pub level: ReaderLevel,
    /// The verdict the report records.
    pub recorded: Verdict,
    /// The verdict of the re-run.
    pub now: Verdict,
}

/// The comparison of a report with its re-run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reproduction {
    /// Cases in both runs.
    pub compared: usize,
    /// Cases whose verdict differs at some level.
    pub changed: Vec<VerdictChange>,
    /// Cases in the report but not in the re-run.
    pub missing: Vec<String>,
    /// Cases in the re-run but not in the report.
    pub added: Vec<String>,
    /// Facts of the run that differ (catalogue, profile, target files), in words.
    pub context: Vec<String>,
}

impl Reproduction {
    /// True when every recorded case is in the re-run with identical
    /// verdicts at every level. Cases the catalogue gained since are not
    /// part of what the report claims; they are listed, not counted against
    /// it.
    pub fn identical(&self) -> bool {
        self.changed.is_empty() && self.missing.is_empty()
    }
}

/// Compares a recorded run with its re-run.
pub fn compare(recorded: &RunResult, rerun: &RunResult) -> Reproduction {
    let now: BTreeMap<&str, _> = rerun
        .results
        .iter()
        .map(|r| (r.case.id.as_str(), r))
        .collect();
    let mut out = Reproduction::default();
    for old in &recorded.results {
        let Some(new) = now.get(old.case.id.as_str()) else {
            out.missing.push(old.case.id.clone());
            continue;
        };
        out.compared += 1;
        let change = ReaderLevel::ALL.iter().find_map(|&level| {
            let (recorded, now) = (
                old.verdict(level, recorded.meta.gate),
                new.verdict(level, rerun.meta.gate),
            );
            (recorded != now).then(|| VerdictChange {
                id: old.case.id.clone(),
                level,
                recorded,
                now,
            })
        });
        out.changed.extend(change);
    }
    let before: std::collections::BTreeSet<&str> = recorded
        .results
        .iter()
        .map(|r| r.case.id.as_str())
        .collect();
    out.added = rerun
        .results
        .iter()
        .filter(|r| !before.contains(r.case.id.as_str()))
        .map(|r| r.case.id.clone())
        .collect();
    if let (Some(old), Some(new)) = (&recorded.meta.manifest, &rerun.meta.manifest) {
        out.context = context_changes(old, new);
    } else if recorded.meta.catalogue_hash != rerun.meta.catalogue_hash {
        out.context.push("the catalogue changed".to_string());
    }
    out
}

/// What differs between two manifests, in words.
pub fn context_changes(old: &Manifest, new: &Manifest) -> Vec<String> {
    let mut out = Vec::new();
    if old.framecheck_commit != new.framecheck_commit {
        out.push(format!(
            "framecheck commit {} is now {}",
            old.framecheck_commit, new.framecheck_commit
        ));
    }
    if old.catalogue_hash != new.catalogue_hash {
        out.push("the catalogue changed".to_string());
    }
    if old.profile_hash != new.profile_hash {
        out.push("the profile changed".to_string());
    }
    let files: BTreeMap<&str, &str> = new
        .target
        .files
        .iter()
        .map(|f| (f.path.as_str(), f.sha256.as_str()))
        .collect();
    for file in &old.target.files {
        match files.get(file.path.as_str()) {
            Some(&hash) if hash == file.sha256 => {}
            Some(_) => out.push(format!("target file {} changed", file.path)),
            None => out.push(format!("target file {} is gone", file.path)),
        }
    }
    if old.target.interpreter != new.target.interpreter {
        let version = |m: &Manifest| {
            m.target
                .interpreter
                .as_ref()
                .map_or("none".to_string(), |i| i.version.clone())
        };
        out.push(format!(
            "interpreter {} is now {}",
            version(old),
            version(new)
        ));
    }
    out
}

/// The verdict of `verify` in words, for the terminal.
pub fn render(reproduction: &Reproduction) -> String {
    let mut out = String::new();
    if reproduction.identical() {
        let _ = writeln!(
            out,
            "reproduced: all {} verdicts identical at every level",
            reproduction.compared
        );
    } else {
        let _ = writeln!(
            out,
            "NOT reproduced: {} of {} cases changed verdict, {} missing",
            reproduction.changed.len(),
            reproduction.compared,
            reproduction.missing.len(),
        );
        for change in reproduction.changed.iter().take(20) {
            let _ = writeln!(
                out,
                "  {}: {} at {}, now {}",
                super::escape::visible(&change.id),
                change.recorded.name(),
                change.level.name(),
                change.now.name()
            );
        }
        for id in reproduction.missing.iter().take(10) {
            let _ = writeln!(out, "  missing: {}", super::escape::visible(id));
        }
    }
    if !reproduction.added.is_empty() {
        let _ = writeln!(
            out,
            "note: {} cases are new since the report (not compared), e.g. {}",
            reproduction.added.len(),
            super::escape::visible(&reproduction.added[0])
        );
    }
    for line in &reproduction.context {
        let _ = writeln!(out, "note: {line}");
    }
    out
}
