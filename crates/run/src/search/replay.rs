//! Confirmation: a finding is reported only when the case search writes for
//! it fails when loaded and run like any catalogue case.
//!
//! The mutant was judged in the search loop with the seed case's canary and
//! bookkeeping; the written case gets its own id, its own canary, and field
//! bookkeeping computed by instantiation from where `{canary}` sits in the
//! templates. Any disagreement between the two (a bookkeeping slip, a
//! template that does not round-trip, a flaky target) would otherwise put a
//! false finding in front of the user. So the written YAML is loaded,
//! instantiated for the same profile, and run through [`crate::runner`] and
//! the oracle; only a `fail` verdict at the search's level confirms it,
//! with a finding of the same class (a fault for a fault, which the run
//! has retried once on a fresh target, as every run does).

use std::path::PathBuf;

use super::emit;
use super::SearchFinding;
use crate::adapter::Framing;
use crate::runner::{self, Outcome, RunOptions, Verdict};
use framecheck_core::catalogue::{self, ConcreteCase};
use framecheck_core::level::ReaderLevel;
use framecheck_core::oracle::{CheckClass, Finding};
use framecheck_launch::profile::TargetProfile;

/// A finding whose written case failed when run.
#[derive(Debug)]
pub(super) struct Confirmed {
    /// The case as instantiated from the written YAML.
    pub case: ConcreteCase,
    /// The security finding the run produced at the level, preferring the
    /// check the search saw.
    pub finding: Finding,
}

/// Why a finding was not confirmed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Unconfirmed {
    /// The written YAML did not load (a bug in the writer; never reported).
    DoesNotLoad(String),
    /// The written case did not instantiate for this profile.
    NotInstantiated,
    /// The written case ran and got this verdict, not `fail` with a
    /// security finding.
    Verdict(Verdict),
}

/// Writes `finding` as search would, loads it back, runs it, and keeps it
/// only if it fails a security check at `level` for the consumer the
/// search found fooled.
pub(super) fn replay(
    finding: &SearchFinding,
    seed: u64,
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    level: ReaderLevel,
) -> Result<Confirmed, Unconfirmed> {
    let yaml = emit::catalogue_file(
        profile,
        emit::Finder::Search(seed),
        finding.category,
        &[finding],
    );
    let path = PathBuf::from(format!("{}.yaml", finding.category.name()));
    let outcome = catalogue::load::load_files(&[(path, yaml.into_bytes())]);
    if let Some(error) = outcome.errors.first() {
        return Err(Unconfirmed::DoesNotLoad(error.to_string()));
    }
    let case = catalogue::instantiate(&outcome.catalogue, profile)
        .into_iter()
        .find(|c| c.id == finding.id)
        .ok_or(Unconfirmed::NotInstantiated)?;
    let options = RunOptions {
        level,
        ..RunOptions::default()
    };
    let run = runner::run(
        std::slice::from_ref(&case),
        profile,
        framing,
        &options,
        &mut |_| {},
    );
    let result = run.results.into_iter().next();
    let Some(result) = result else {
        return Err(Unconfirmed::NotInstantiated);
    };
    let verdict = result.verdict_at(level);
    if verdict != Verdict::Fail {
        return Err(Unconfirmed::Verdict(verdict));
    }
    let Outcome::Judged { findings } = result.outcome else {
        return Err(Unconfirmed::Verdict(verdict));
    };
    // A fault finding is confirmed by a fault (the run retried it once on a
    // fresh target), a security finding by a security finding: a breakout
    // that replays as a crash is not the breakout that was found.
    let class = match finding.finding.class {
        CheckClass::Fault => CheckClass::Fault,
        _ => CheckClass::Security,
    };
    // The consumer the search saw fooled must be fooled again: a replay
    // that fools only another consumer confirms nothing of this finding.
    let mut security: Vec<Finding> = findings
        .into_iter()
        .filter(|f| f.class == class && f.levels.contains(&level))
        .filter(|f| f.consumer == finding.finding.consumer)
        .collect();
    // A `fail` from an outer-layer finding the target's declared context
    // fails (see `framecheck_core::gate`) is no security failure to confirm.
    if security.is_empty() {
        return Err(Unconfirmed::Verdict(verdict));
    }
    let at = security
        .iter()
        .position(|f| f.check == finding.finding.check)
        .unwrap_or(0);
    Ok(Confirmed {
        case: result.case,
        finding: security.swap_remove(at),
    })
}
