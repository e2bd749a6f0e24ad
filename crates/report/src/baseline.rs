//! Baselines: comparing a run with an earlier JSON report.
//!
//! A team adopting framecheck on an existing framing rarely fixes every
//! failure at once. It commits a JSON report as a baseline and lets CI fail
//! only on *new* failures (a ratchet, like toml-test's `-skip-must-err`).
//! [`diff`] compares two runs case by case, keyed by the concrete case id,
//! at one reader level.
//!
//! With a baseline, the exit code is the gate's ([`gate_exit_code`]): the
//! failures the baseline already had pass the gate, any new failure fails
//! it, and a harness error still wins. A baseline is only comparable with a
//! run of the same target and level, and (when the baseline ran a `--only`
//! selection) the same selection ([`check_compatible`]); anything else is
//! an error, because cases would otherwise look new or removed by the
//! hundred and the gate would mean nothing. A newer catalogue is
//! comparable: ids are locked and renamed ones map through their aliases,
//! and the diff says the catalogue changed.
//!
//! A case counts as failing at a level when its verdict there is `fail`,
//! `fidelity-fail` or `error`: the same verdicts that fail a run. A case that
//! is new in the catalogue and fails is a new failure (it is not in the
//! accepted baseline) and is listed under [`BaselineDiff::new_cases`] too.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::summary::{status_word, Summary, EXIT_CONFORMANCE_FAILURE, EXIT_HARNESS_ERROR, EXIT_OK};
use framecheck_core::catalogue::Category;
use framecheck_core::gate::Gate;
use framecheck_core::level::ReaderLevel;
use framecheck_launch::outcome::{CaseResult, RunResult, Verdict};

/// Why a baseline cannot be compared with this run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Mismatch {
    /// Another target.
    #[error("the baseline is for target {baseline:?}, this run is for {run:?}")]
    Target {
        /// The baseline's target name.
        baseline: String,
        /// This run's target name.
        run: String,
    },
    /// Another decision level.
    #[error("the baseline was decided at level {baseline}, this run at {run}")]
    Level {
        /// The baseline's level.
        baseline: ReaderLevel,
        /// This run's level.
        run: ReaderLevel,
    },
    /// The baseline ran a selection (`--only`) and this run another one.
    #[error("the baseline ran with --only {baseline:?}, this run with --only {run:?}")]
    Filters {
        /// The baseline's filters.
        baseline: Vec<String>,
        /// This run's filters.
        run: Vec<String>,
    },
    /// Another gate (`--strict` or not).
    #[error("the baseline was decided under the {baseline} gate, this run under the {run} gate")]
    Gate {
        /// The baseline's gate.
        baseline: Gate,
        /// This run's gate.
        run: Gate,
    },
}

/// Checks that `baseline` can gate a run of `target` at `level` with
/// `filters`.
///
/// A changed catalogue is not a mismatch: case ids are stable and locked
/// (`attacks/ids.lock`), renamed ones are mapped through their aliases, and
/// the diff states the change ([`BaselineDiff::catalogue_changed`]). Cases
/// new since the baseline that fail count as new failures, which is what
/// they are. A different target, level or selection compares other things
/// and is an error.
pub fn check_compatible(
    baseline: &RunResult,
    target: &str,
    level: ReaderLevel,
    filters: &[String],
) -> Result<(), Mismatch> {
    let meta = &baseline.meta;
    if meta.target.name != target {
        return Err(Mismatch::Target {
            baseline: meta.target.name.clone(),
            run: target.to_string(),
        });
    }
    if meta.level != level {
        return Err(Mismatch::Level {
            baseline: meta.level,
            run: level,
        });
    }
    // A baseline of the whole catalogue covers any selection of it; a
    // baseline of a selection covers only the same selection: any other
    // run would meet cases the baseline never ran and call them new.
    if !meta.filters.is_empty() && meta.filters != filters {
        return Err(Mismatch::Filters {
            baseline: meta.filters.clone(),
            run: filters.to_vec(),
        });
    }
    Ok(())
}

/// Checks that `baseline` was decided under `gate`: a strict baseline
/// holds failures a default run does not have, and the other way round, so
/// comparing across gates would report fixes and regressions that are only
/// the gate's.
pub fn check_gate(baseline: &RunResult, gate: Gate) -> Result<(), Mismatch> {
    if baseline.meta.gate == gate {
        Ok(())
    } else {
        Err(Mismatch::Gate {
            baseline: baseline.meta.gate,
            run: gate,
        })
    }
}

/// The exit code of a run gated by a baseline: a harness error (the run did
/// not finish) is [`EXIT_HARNESS_ERROR`]; new failures are
/// [`EXIT_CONFORMANCE_FAILURE`]; failures the baseline already had are
/// accepted, so a run with only those exits [`EXIT_OK`].
pub fn gate_exit_code(summary: &Summary, diff: &BaselineDiff) -> i32 {
    if summary.exit_code() == EXIT_HARNESS_ERROR {
        EXIT_HARNESS_ERROR
    } else if diff.is_regression() {
        EXIT_CONFORMANCE_FAILURE
    } else {
        EXIT_OK
    }
}

/// Which gate gave a run its exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decider {
    /// The run's own verdicts (no baseline, or a run that did not finish).
    Conformance,
    /// The baseline gate: only failures the baseline did not have count.
    Baseline,
}

/// A run's exit code, the gate that gave it and, when the baseline gate
/// decided, the exit code the run's own verdicts would have given: the one
/// place every printed result line takes its status from, so none can
/// disagree with the process's exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    /// The process's exit code.
    pub exit_code: i32,
    /// The gate that gave it.
    pub decided_by: Decider,
    /// The exit code of the run's own verdicts.
    pub conformance_exit_code: i32,
    /// New failures, when the baseline gate decided.
    pub new_failures: usize,
    /// Failing cases the baseline already had and the gate accepts.
    pub accepted: usize,
}

impl Decision {
    /// The decision for a run summarised by `summary`, gated by `diff` when
    /// a baseline was given ([`gate_exit_code`]).
    pub fn of(summary: &Summary, diff: Option<&BaselineDiff>) -> Self {
        let conformance_exit_code = summary.exit_code();
        match diff {
            // An unfinished run is decided by that alone: no gate passes it.
            Some(diff) if conformance_exit_code != EXIT_HARNESS_ERROR => Decision {
                exit_code: gate_exit_code(summary, diff),
                decided_by: Decider::Baseline,
                conformance_exit_code,
                new_failures: diff.new_failures.len(),
                accepted: diff.still_failing.len(),
            },
            _ => Decision {
                exit_code: conformance_exit_code,
                decided_by: Decider::Conformance,
                conformance_exit_code,
                new_failures: 0,
                accepted: 0,
            },
        }
    }

    /// `pass`, `fail` or `harness-error`, as [`Summary::status`] words them,
    /// for [`Decision::exit_code`].
    pub fn status(&self) -> &'static str {
        status_word(self.exit_code)
    }

    /// Why the baseline gate decided as it did, in a clause that follows
    /// the status (`the baseline gate accepts …`); `None` when the run's
    /// own verdicts decided.
    pub fn reason(&self) -> Option<String> {
        if self.decided_by != Decider::Baseline {
            return None;
        }
        let own = if self.conformance_exit_code == self.exit_code {
            String::new()
        } else {
            format!(
                " (without the baseline: {}, exit {})",
                status_word(self.conformance_exit_code),
                self.conformance_exit_code
            )
        };
        Some(if self.new_failures > 0 {
            format!(
                "the baseline gate finds {} new failure(s){own}",
                self.new_failures
            )
        } else if self.accepted == 0 {
            format!("the baseline gate finds no new failure{own}")
        } else {
            format!(
                "the baseline gate accepts the {} failing case(s) the baseline already had \
                 and finds no new failure{own}",
                self.accepted
            )
        })
    }
}

/// Why a baseline cannot be used with this run's output directory.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OverwriteError {
    /// The baseline is one of the report files this run replaces or
    /// removes: the run would overwrite the record it is gated by, and the
    /// next run would compare with itself and pass.
    #[error(
        "--baseline {baseline} is {report}, a report file this run writes or removes \
         (--out {out}): the run would replace its own baseline, and a second run would \
         compare with itself and pass. Keep the baseline outside --out \
         (mkdir -p baselines && cp {baseline} baselines/) and pass that copy, \
         or write this run's reports elsewhere with --out"
    )]
    SameFile {
        /// The baseline as given.
        baseline: PathBuf,
        /// The report file it is.
        report: PathBuf,
        /// The output directory as given.
        out: PathBuf,
    },
    /// A path could not be resolved to compare it.
    #[error("cannot resolve {path} to compare it with the baseline: {source}")]
    Resolve {
        /// The path.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

/// Checks that `baseline` is none of the report files a run of `stem`
/// writes or removes in `out` ([`super::report_files`]), however either
/// path is spelt (relative, `..`, a symbolic link either way). Both
/// must exist: call it after the baseline is loaded and `out` prepared.
///
/// Refusing is the safe answer: writing the reports elsewhere without
/// being asked would leave the user's CI reading a file that did not
/// change, and gating against a copy taken now would accept today's
/// failures silently.
pub fn check_not_overwritten(
    baseline: &Path,
    out: &Path,
    stem: &str,
) -> Result<(), OverwriteError> {
    let resolve = |path: &Path| {
        std::fs::canonicalize(path).map_err(|source| OverwriteError::Resolve {
            path: path.to_path_buf(),
            source,
        })
    };
    // The baseline both as the file it is (a link to a report is that
    // report) and as the entry it is named by (a report entry that is
    // itself a link is replaced by the run, link and all).
    let mut named = [resolve(baseline)?, resolve(baseline)?];
    if let (Some(parent), Some(name)) = (baseline.parent(), baseline.file_name()) {
        let parent = if parent.as_os_str().is_empty() {
            Path::new(".")
        } else {
            parent
        };
        named[1] = resolve(parent)?.join(name);
    }
    // The directory resolved, the report names not, for the same reason.
    let dir = resolve(out)?;
    match super::report_files(stem)
        .into_iter()
        .find(|name| named.contains(&dir.join(name)))
    {
        Some(name) => Err(OverwriteError::SameFile {
            baseline: baseline.to_path_buf(),
            report: out.join(name),
            out: out.to_path_buf(),
        }),
        None => Ok(()),
    }
}

/// One case in a baseline diff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiffEntry {
    /// Concrete case id.
    pub id: String,
    /// Category, from the newer run when the case is in both.
    pub category: Category,
    /// Title, from the newer run when the case is in both.
    pub title: String,
    /// Verdict in the baseline, if the case was there.
    pub old: Option<Verdict>,
    /// Verdict in the new run, if the case is there.
    pub new: Option<Verdict>,
}

/// What changed between a baseline and a new run, at one level. Every list
/// is in the new run's case order, then the baseline's for cases only there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BaselineDiff {
    /// The level both runs were compared at.
    pub level: ReaderLevel,
    /// Whether the two runs used different catalogues (their hashes differ).
    pub catalogue_changed: bool,
    /// Failing now, and passing, refused, skipped or absent in the baseline.
    pub new_failures: Vec<DiffEntry>,
    /// Failing in the baseline, and present and not failing now.
    pub fixed: Vec<DiffEntry>,
    /// Failing in both.
    pub still_failing: Vec<DiffEntry>,
    /// In the new run only.
    pub new_cases: Vec<DiffEntry>,
    /// In the baseline only, and in this run's selection: gone from the
    /// catalogue or no longer instantiated for the target.
    pub removed_cases: Vec<DiffEntry>,
    /// In the baseline only, and outside this run's `--only` selection:
    /// not run this time, which says nothing about whether they still exist.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_run: Vec<DiffEntry>,
    /// Baseline ids renamed through the id lock's aliases before comparing,
    /// as `(published id, id now)` ([`diff_with_aliases`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliased: Vec<(String, String)>,
}

impl BaselineDiff {
    /// True when the new run has failures the baseline did not.
    pub fn is_regression(&self) -> bool {
        !self.new_failures.is_empty()
    }
}

/// Whether `verdict` fails a run.
pub fn is_failing(verdict: Verdict) -> bool {
    matches!(
        verdict,
        Verdict::Fail | Verdict::FidelityFail | Verdict::Error
    )
}

/// Compares `new` with the baseline `old` at `level`.
pub fn diff(old: &RunResult, new: &RunResult, level: ReaderLevel) -> BaselineDiff {
    let old_by_id: BTreeMap<&str, &CaseResult> = old
        .results
        .iter()
        .map(|r| (r.case.id.as_str(), r))
        .collect();
    let new_ids: BTreeMap<&str, ()> = new
        .results
        .iter()
        .map(|r| (r.case.id.as_str(), ()))
        .collect();
    let mut out = BaselineDiff {
        level,
        catalogue_changed: old.meta.catalogue_hash != new.meta.catalogue_hash,
        new_failures: Vec::new(),
        fixed: Vec::new(),
        still_failing: Vec::new(),
        new_cases: Vec::new(),
        removed_cases: Vec::new(),
        not_run: Vec::new(),
        aliased: Vec::new(),
    };
    for result in &new.results {
        let new_verdict = result.verdict(level, new.meta.gate);
        let old_verdict = old_by_id
            .get(result.case.id.as_str())
            .map(|r| r.verdict(level, old.meta.gate));
        let entry = DiffEntry {
            id: result.case.id.clone(),
            category: result.case.category,
            title: result.case.title.clone(),
            old: old_verdict,
            new: Some(new_verdict),
        };
        let was_failing = old_verdict.is_some_and(is_failing);
        match (was_failing, is_failing(new_verdict)) {
            (false, true) => out.new_failures.push(entry.clone()),
            (true, true) => out.still_failing.push(entry.clone()),
            (true, false) => out.fixed.push(entry.clone()),
            (false, false) => {}
        }
        if old_verdict.is_none() {
            out.new_cases.push(entry);
        }
    }
    let missing: Vec<&CaseResult> = old
        .results
        .iter()
        .filter(|r| !new_ids.contains_key(r.case.id.as_str()))
        .collect();
    let selected = selected_ids(&missing, &new.meta.filters);
    for result in missing {
        let entry = DiffEntry {
            id: result.case.id.clone(),
            category: result.case.category,
            title: result.case.title.clone(),
            old: Some(result.verdict(level, old.meta.gate)),
            new: None,
        };
        if selected.contains(result.case.id.as_str()) {
            out.removed_cases.push(entry);
        } else {
            out.not_run.push(entry);
        }
    }
    out
}

/// The ids of `results` that the run's `--only` patterns select, by the
/// rule the run selected its own cases with ([`framecheck_core::catalogue::select`]).
fn selected_ids(results: &[&CaseResult], filters: &[String]) -> BTreeSet<String> {
    let cases = results.iter().map(|r| r.case.clone()).collect();
    match framecheck_core::catalogue::select(cases, filters) {
        Ok(selected) => selected.into_iter().map(|case| case.id).collect(),
        // Patterns the run itself accepted always compile; were one not to,
        // every missing case stays a removal, the claim made before
        // selections were told apart.
        Err(_) => results.iter().map(|r| r.case.id.clone()).collect(),
    }
}

/// [`diff`], after renaming the baseline's ids that the new run no longer
/// has through `aliases` (a renamed variant or case, from
/// `attacks/ids.lock`), so a rename does not turn every renamed case into a
/// removal plus a new failure. The renames made are listed in
/// [`BaselineDiff::aliased`], and the reports say so.
pub fn diff_with_aliases(
    old: &RunResult,
    new: &RunResult,
    level: ReaderLevel,
    aliases: &[framecheck_core::catalogue::ids::Alias],
) -> BaselineDiff {
    let current: std::collections::BTreeSet<&str> =
        new.results.iter().map(|r| r.case.id.as_str()).collect();
    let mut renamed = old.clone();
    let mut aliased = Vec::new();
    for result in &mut renamed.results {
        if current.contains(result.case.id.as_str()) {
            continue;
        }
        let target = aliases
            .iter()
            .filter_map(|a| a.apply(&result.case.id))
            .find(|id| current.contains(id.as_str()));
        if let Some(target) = target {
            aliased.push((result.case.id.clone(), target.clone()));
            result.case.id = target;
        }
    }
    let mut out = diff(&renamed, new, level);
    out.aliased = aliased;
    out
}
