//! The numbers every report leads with, and the run's exit code.
//!
//! A [`Summary`] is computed from a [`RunResult`] alone, through
//! [`CaseResult::verdict_at`](framecheck_launch::outcome::CaseResult::verdict_at): it
//! never judges a case itself. The run's pass or fail is decided at the run's
//! own level (`meta.level`); the other levels are reported for information
//! and to find the highest level the framing holds at.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use framecheck_core::catalogue::Category;
use framecheck_core::gate::Gate;
use framecheck_core::level::ReaderLevel;
use framecheck_core::oracle::CheckClass;
use framecheck_core::target::FaultKind;
use framecheck_launch::outcome::{CaseResult, Outcome, RunResult, Verdict};

/// Exit code: every case held at the run's level.
pub const EXIT_OK: i32 = 0;
/// Exit code: the run finished and at least one case failed (security or
/// fidelity) at the run's level.
pub const EXIT_CONFORMANCE_FAILURE: i32 = 1;
/// Exit code: the run did not finish judging. Either the harness itself
/// failed (`meta.harness_error`) or a target failed to answer a case (an
/// `error` verdict), so some cases have no verdict at all. This wins over
/// [`EXIT_CONFORMANCE_FAILURE`]: a run with holes must never look like a
/// plain list of findings.
pub const EXIT_HARNESS_ERROR: i32 = 2;

/// How many cases got each verdict.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerdictCounts {
    /// Every check held.
    pub pass: usize,
    /// Refused, and refusing was allowed.
    pub refused: usize,
    /// A security check failed.
    pub fail: usize,
    /// Only fidelity failed, or a forbidden refusal.
    pub fidelity_fail: usize,
    /// The target did not answer.
    pub error: usize,
    /// Not run.
    pub skipped: usize,
}

impl VerdictCounts {
    /// The count for one verdict.
    pub fn get(&self, verdict: Verdict) -> usize {
        match verdict {
            Verdict::Pass => self.pass,
            Verdict::Refused => self.refused,
            Verdict::Fail => self.fail,
            Verdict::FidelityFail => self.fidelity_fail,
            Verdict::Error => self.error,
            Verdict::Skipped => self.skipped,
        }
    }

    /// Counts one more case with `verdict`.
    pub fn add(&mut self, verdict: Verdict) {
        let slot = match verdict {
            Verdict::Pass => &mut self.pass,
            Verdict::Refused => &mut self.refused,
            Verdict::Fail => &mut self.fail,
            Verdict::FidelityFail => &mut self.fidelity_fail,
            Verdict::Error => &mut self.error,
            Verdict::Skipped => &mut self.skipped,
        };
        *slot += 1;
    }

    /// Every case counted.
    pub fn total(&self) -> usize {
        Verdict::ALL.iter().map(|&v| self.get(v)).sum()
    }

    /// Cases that fail the run: security failures, fidelity failures and errors.
    pub fn failing(&self) -> usize {
        self.fail + self.fidelity_fail + self.error
    }
}

/// Cases with findings of one class reported apart.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApartCount {
    /// Cases with at least one finding of the class.
    pub cases: usize,
    /// Of those, cases the run's gate fails on such a finding (all of
    /// them under `--strict`; under the default gate, those the target's
    /// declared context makes real controls).
    pub failing: usize,
}

/// The headline numbers of a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// The level the run was decided at (`meta.level`).
    pub level: ReaderLevel,
    /// Number of concrete cases.
    pub total: usize,
    /// Verdict counts per category at [`Summary::level`]. Every category of
    /// [`Category::ALL`] is present, with zeros when it had no cases.
    pub by_category: BTreeMap<Category, VerdictCounts>,
    /// Verdict counts at each reader level.
    pub by_level: BTreeMap<ReaderLevel, VerdictCounts>,
    /// Security failures (`fail`) per category at [`Summary::level`]; only
    /// categories with at least one.
    pub security_failures_by_category: BTreeMap<Category, usize>,
    /// Cases with a `fidelity-fail` verdict at [`Summary::level`].
    pub fidelity_failures: usize,
    /// Cases the target did not answer.
    pub errors: usize,
    /// Cases not run for a missing capability.
    pub skipped: usize,
    /// The gate the run was decided under (`--strict` or not).
    #[serde(default)]
    pub gate: Gate,
    /// Per class reported apart from security and fidelity (confusable,
    /// outer-layer): the cases with a finding of that class at
    /// [`Summary::level`], whatever their verdict. Only classes with one.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub apart: BTreeMap<CheckClass, ApartCount>,
    /// The highest level L such that no case fails a security check at any
    /// level up to and including L, and at least one case passed (or was
    /// refused as allowed) at each of them. `None` when some case fails even
    /// at `exact`, when nothing passed, and whenever the run is incomplete
    /// ([`Summary::harness_error`]): a level is evidence, and a run with
    /// holes or with nothing judged is not evidence of any level.
    pub highest_level_held: Option<ReaderLevel>,
    /// Whether the framing writes no frame at all (`delimiters: none`, borne
    /// out by benign plants): no level is held whatever the verdicts, since
    /// there is no frame to hold one (its `frame.absent` finding may be of a
    /// class that does not fail, `host-framed`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unframed: bool,
    /// Whether the run is incomplete: the harness reported an error of its
    /// own, or some case ended in `error` and has no verdict. Always agrees
    /// with [`harness_error`] and with the `harness-error` status.
    pub harness_error: bool,
}

/// Why `run` is incomplete, if it is: the harness's own error, and the
/// count of cases the target did not answer. Every report states this text
/// as its harness error, so a report's `harness_error` and its status can
/// never disagree.
pub fn harness_error(run: &RunResult) -> Option<String> {
    match (&run.meta.harness_error, unanswered(run)) {
        (Some(own), Some(unanswered)) => Some(format!("{own}; {unanswered}")),
        (Some(own), None) => Some(own.clone()),
        (None, unanswered) => unanswered,
    }
}

/// The target's faults over the run's cases, by kind: the faults a case's
/// findings record (a fault that replayed on a fresh target) and those that
/// left a case with no verdict. "3 faults: 2 crashes, 1 hang", or `None`
/// when the target never faulted.
pub fn faults_text(run: &RunResult) -> Option<String> {
    let mut counts: BTreeMap<FaultKind, usize> = BTreeMap::new();
    for result in &run.results {
        let fault = match &result.outcome {
            Outcome::Judged { findings } => findings.iter().find_map(|f| f.fault.as_ref()),
            Outcome::Error { fault, .. } => fault.as_ref(),
            Outcome::Refused { .. } | Outcome::Skipped { .. } | Outcome::Unplanted { .. } => None,
        };
        if let Some(fault) = fault {
            *counts.entry(fault.kind).or_default() += 1;
        }
    }
    let total: usize = counts.values().sum();
    (total > 0).then(|| {
        let kinds: Vec<String> = counts
            .iter()
            .map(|(kind, n)| format!("{n} {}", kind.plural_if(*n)))
            .collect();
        format!(
            "{total} case{} made the target fault: {}",
            if total == 1 { "" } else { "s" },
            kinds.join(", ")
        )
    })
}

/// The cases whose content the target's store refused, in words, or
/// `None` when there are none. They count as `skipped`: a refused plant
/// reached no framing, so it shows nothing for or against it, and every
/// report that states a level held says it is over the cases judged.
pub fn unplanted_text(run: &RunResult) -> Option<String> {
    let unplanted = run
        .results
        .iter()
        .filter(|r| matches!(r.outcome, Outcome::Unplanted { .. }))
        .count();
    (unplanted > 0).then(|| {
        format!(
            "{unplanted} case{} not judged: the target's store refused {} content, so no \
             framing saw it (counted as skipped; any level held is over the cases judged)",
            if unplanted == 1 { " was" } else { "s were" },
            if unplanted == 1 { "its" } else { "their" },
        )
    })
}

/// The part of [`harness_error`] derived from the results: how many cases
/// the target did not answer. [`super::json::parse`] strips it again, so a
/// report reads back into the run it was made from.
pub fn unanswered(run: &RunResult) -> Option<String> {
    let errors = run
        .results
        .iter()
        .filter(|r| r.verdict(run.meta.level, run.meta.gate) == Verdict::Error)
        .count();
    let unanswered = (errors > 0).then(|| {
        format!(
            "{errors} case{} ended in a target error (crash, hang or protocol violation) \
             and {} no verdict",
            if errors == 1 { "" } else { "s" },
            if errors == 1 { "has" } else { "have" },
        )
    });
    unanswered
}

impl Summary {
    /// Computes the summary of `run`.
    pub fn of(run: &RunResult) -> Summary {
        let level = run.meta.level;
        let mut by_category: BTreeMap<Category, VerdictCounts> = Category::ALL
            .iter()
            .map(|&c| (c, VerdictCounts::default()))
            .collect();
        let mut by_level: BTreeMap<ReaderLevel, VerdictCounts> = ReaderLevel::ALL
            .iter()
            .map(|&l| (l, VerdictCounts::default()))
            .collect();
        let mut security_failures_by_category = BTreeMap::new();
        let mut fails_at_level = [false; ReaderLevel::ALL.len()];
        let mut apart: BTreeMap<CheckClass, ApartCount> = BTreeMap::new();
        for result in &run.results {
            count_apart(&mut apart, result, level, run.meta.gate);
            let verdict = result.verdict(level, run.meta.gate);
            by_category
                .entry(result.case.category)
                .or_default()
                .add(verdict);
            if verdict == Verdict::Fail {
                *security_failures_by_category
                    .entry(result.case.category)
                    .or_insert(0) += 1;
            }
            for (index, &other) in ReaderLevel::ALL.iter().enumerate() {
                let verdict = result.verdict(other, run.meta.gate);
                by_level.entry(other).or_default().add(verdict);
                fails_at_level[index] |= verdict == Verdict::Fail;
            }
        }
        let incomplete = harness_error(run).is_some();
        // The chain of levels prints the levels held as one name: the
        // last of the strictest-first run of held levels.
        let held: Vec<ReaderLevel> = ReaderLevel::ALL
            .iter()
            .zip(fails_at_level)
            .filter(|(l, fails)| {
                let counts = by_level.get(l).copied().unwrap_or_default();
                !fails && !run.meta.unmarked && holds(&counts, incomplete)
            })
            .map(|(&l, _)| l)
            .collect();
        let highest_level_held = ReaderLevel::ALL
            .iter()
            .take_while(|l| held.contains(l))
            .last()
            .copied();
        let at_level = by_level.get(&level).copied().unwrap_or_default();
        Summary {
            level,
            total: run.results.len(),
            by_category,
            by_level,
            security_failures_by_category,
            fidelity_failures: at_level.fidelity_fail,
            errors: at_level.error,
            skipped: at_level.skipped,
            gate: run.meta.gate,
            apart,
            highest_level_held,
            unframed: run.meta.unmarked,
            harness_error: incomplete,
        }
    }

    /// Every category that has cases, in catalogue order, with its verdict
    /// counts: the rows of each report's category table.
    pub fn categories_with_cases(&self) -> impl Iterator<Item = (Category, VerdictCounts)> + '_ {
        Category::ALL.into_iter().filter_map(|category| {
            let counts = self.by_category.get(&category).copied().unwrap_or_default();
            (counts.total() > 0).then_some((category, counts))
        })
    }

    /// The highest level held as reports print it, with the reason when
    /// there is none: the run is incomplete, nothing passed, or a case fails
    /// even at `exact`.
    pub fn level_held_text(&self) -> String {
        match self.highest_level_held {
            Some(level) => level.name().to_string(),
            None if self.harness_error => "none (the run is incomplete)".to_string(),
            None if self.unframed => "none (the framing writes no frame)".to_string(),
            None if self
                .by_level
                .values()
                .all(|counts| counts.pass + counts.refused == 0) =>
            {
                "none (no case passed)".to_string()
            }
            None => "none (fails at exact)".to_string(),
        }
    }

    /// Every level at which no case fails a security check. Levels are not
    /// assumed to form a chain here, so a reader that is not stricter or
    /// looser than the others (a tokenizer view) fits; for the chain of
    /// today's levels, [`Summary::highest_level_held`] names the same set.
    pub fn levels_held(&self) -> Vec<ReaderLevel> {
        self.by_level
            .iter()
            .filter(|(_, counts)| {
                counts.fail == 0 && !self.unframed && holds(counts, self.harness_error)
            })
            .map(|(&level, _)| level)
            .collect()
    }

    /// Verdict counts at the run's level, over all categories.
    pub fn at_level(&self) -> VerdictCounts {
        self.by_level.get(&self.level).copied().unwrap_or_default()
    }

    /// Security failures at the run's level.
    pub fn security_failures(&self) -> usize {
        self.security_failures_by_category.values().sum()
    }

    /// True when no case has a `fail`, `fidelity-fail` or `error` verdict at
    /// the run's level and the harness reported no error.
    pub fn passed(&self) -> bool {
        !self.harness_error && self.at_level().failing() == 0
    }

    /// The process exit code for this run: [`EXIT_HARNESS_ERROR`] when the
    /// harness failed or any case ended in `error`, else
    /// [`EXIT_CONFORMANCE_FAILURE`] when a case failed, else [`EXIT_OK`].
    pub fn exit_code(&self) -> i32 {
        if self.harness_error || self.errors > 0 {
            EXIT_HARNESS_ERROR
        } else if self.passed() {
            EXIT_OK
        } else {
            EXIT_CONFORMANCE_FAILURE
        }
    }

    /// A one-word status: `pass`, `fail` or `harness-error`, matching
    /// [`Summary::exit_code`].
    pub fn status(&self) -> &'static str {
        status_word(self.exit_code())
    }
}

/// The status word of an exit code: `pass`, `fail` or `harness-error`.
pub(crate) fn status_word(exit_code: i32) -> &'static str {
    match exit_code {
        EXIT_OK => "pass",
        EXIT_CONFORMANCE_FAILURE => "fail",
        _ => "harness-error",
    }
}

/// Counts `result` under each class reported apart it has a finding of at
/// `level`, and whether `gate` fails it on one.
fn count_apart(
    apart: &mut BTreeMap<CheckClass, ApartCount>,
    result: &CaseResult,
    level: ReaderLevel,
    gate: Gate,
) {
    let findings = result.findings_at(level);
    for class in CheckClass::APART {
        let of_class: Vec<_> = findings.iter().filter(|f| f.class == class).collect();
        if of_class.is_empty() {
            continue;
        }
        let count = apart.entry(class).or_default();
        count.cases += 1;
        count.failing += usize::from(of_class.iter().any(|f| gate.fails(f)));
    }
}

/// The classes reported apart, in words: `3 confusable (not failing), 2
/// outer-layer (1 failing)`; empty when there are none.
pub fn apart_text(summary: &Summary) -> String {
    summary
        .apart
        .iter()
        .map(|(class, count)| {
            let failing = match count.failing {
                0 => "not failing".to_string(),
                n if n == count.cases => "failing".to_string(),
                n => format!("{n} failing"),
            };
            format!("{} {} ({failing})", count.cases, class.name())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a `fail` verdict counts under `gate`, in the reports' words: under
/// the default gate only security findings fail a case outright (an
/// outer-layer finding in a declared context aside); under `--strict` the
/// classes reported apart do too.
pub fn fail_label(gate: Gate) -> &'static str {
    match gate {
        Gate::Default => "security failures",
        Gate::Strict => "failures (security or a class --strict fails)",
    }
}

/// Whether a level with these counts and no security failure is held:
/// evidence never overstates, so an incomplete run holds no level, and a
/// level at which no case passed (every case errored or was skipped) proved
/// nothing.
fn holds(counts: &VerdictCounts, incomplete: bool) -> bool {
    !incomplete && counts.pass + counts.refused > 0
}
