//! Search's judgement one input at a time, for a fuzzing engine that brings
//! its own inputs (the libFuzzer target `search_framing`, module
//! `crate::fuzzing::search` with feature `fuzzing`).
//!
//! [`OneInput::prepare`] does once what a search does before its first
//! mutant (first contact, calibration and the profile's fit, the seed
//! cases, the catalogue's known failures); [`OneInput::judge`] then takes a
//! request the engine built from a seed case and judges it exactly as a
//! search judges a mutant: the same probe and oracle, a fault retried once
//! on a fresh target, a failure new only when the seed case passes that
//! check unmutated, shrunk and confirmed by replaying its written case
//! through the runner. Nothing here is a second judge or replay: it calls
//! the search's own.

use std::collections::BTreeSet;

use super::corpus::Entry;
use super::{
    answer, first_failure, known_failures, known_key, nothing_yet, prepare, shrink_and_confirm,
    Budget, Clock, CorpusEntry, Known, Probe, Refusal, SearchFinding, SearchOptions, Step,
};
use crate::adapter::{Framing, WrapRequest};
use framecheck_core::catalogue::ConcreteCase;
use framecheck_core::level::ReaderLevel;
use framecheck_launch::profile::TargetProfile;

/// What a finding is called in its written case's lineage: the engine's
/// input, not a search operator.
const LINEAGE: &str = "fuzzer-input";

/// Why no input can be judged: said by [`OneInput::prepare`] before the
/// first, or by [`OneInput::judge`] once the target was given up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotJudged {
    /// The search refused the target before its first mutant (it never
    /// answered, or the profile does not fit it): the refusal's reason.
    #[error("{0}")]
    Refused(String),
    /// No catalogue case can seed an input.
    #[error(
        "no catalogue case is a hold case wrapping content that this target \
         supports: there is nothing to grow inputs from"
    )]
    NoSeed,
    /// The target was given up (it failed too often): the reason the
    /// search recorded.
    #[error("{0}")]
    GivenUp(String),
}

/// A target prepared for judging inputs one at a time. See the module
/// documentation.
pub struct OneInput<'a> {
    seeds: Vec<ConcreteCase>,
    probe: Probe<'a>,
    known: BTreeSet<Known>,
    options: SearchOptions<'static>,
}

impl<'a> OneInput<'a> {
    /// Calibrates `framing` for `profile` and runs the seed cases among
    /// `cases` unmutated, as a search does before its first mutant. `Err`
    /// says why no input could be judged (the target never answered, the
    /// profile does not fit it, no seed case), as a search's harness error.
    pub fn prepare(
        cases: &[ConcreteCase],
        profile: &'a TargetProfile,
        framing: &'a mut dyn Framing,
        level: ReaderLevel,
    ) -> Result<OneInput<'a>, NotJudged> {
        let (seeds, mut probe) = prepare(cases, profile, framing, level)
            .map_err(|Refusal { reason, .. }| NotJudged::Refused(reason))?;
        if seeds.is_empty() {
            return Err(NotJudged::NoSeed);
        }
        // Never cancelled: a one-input judgement has no deadline of its own
        // (the fuzzing engine's per-input timeout is the budget).
        let clock = Clock {
            deadline: None,
            cancel: &crate::runner::NEVER,
        };
        let refs: Vec<&ConcreteCase> = seeds.iter().collect();
        let (known, _) = known_failures(&refs, &mut probe, &clock);
        if let Some(given_up) = &probe.given_up {
            return Err(NotJudged::GivenUp(given_up.clone()));
        }
        let options = SearchOptions {
            budget: Budget::Cases(1),
            seed: 0,
            level,
            shrink_calls: 200,
            max_findings: 1,
            cancel: &crate::runner::NEVER,
        };
        Ok(OneInput {
            seeds,
            probe,
            known,
            options,
        })
    }

    /// The seed cases (security cases wrapping content), in the search's
    /// order; an input names one by index.
    pub fn seeds(&self) -> &[ConcreteCase] {
        &self.seeds
    }

    /// The index of a saved search corpus entry's seed case, when it is
    /// among this target's seeds (module `campaign`).
    pub fn seed_of(&self, entry: &CorpusEntry) -> Option<usize> {
        let refs: Vec<&ConcreteCase> = self.seeds.iter().collect();
        entry.to_entry(&refs).map(|e| e.seed)
    }

    /// Judges `request` as a mutant of seed case `seed` (an index into
    /// [`OneInput::seeds`], taken modulo their number). `Ok(Some)` is a new
    /// failure, shrunk and confirmed by replay; `Ok(None)` anything else (a
    /// pass, a refusal, a known failure, a failure that did not replay);
    /// `Err` says the target was given up, after which nothing is judged.
    pub fn judge(
        &mut self,
        seed: usize,
        request: WrapRequest,
    ) -> Result<Option<SearchFinding>, NotJudged> {
        if let Some(given_up) = &self.probe.given_up {
            return Err(NotJudged::GivenUp(given_up.clone()));
        }
        let seed = seed % self.seeds.len();
        let case = &self.seeds[seed];
        let step = match answer(case, &request, &mut self.probe) {
            Ok(judged) => first_failure(judged, &self.probe, case, &self.known),
            Err(step) => step,
        };
        let finding = match step {
            Step::Failed(finding) => *finding,
            Step::Passed => return Ok(None),
            Step::GivenUp => {
                let reason = self.probe.given_up.clone().unwrap_or_default();
                return Err(NotJudged::GivenUp(reason));
            }
        };
        if self.known.contains(&known_key(case, &finding)) {
            return Ok(None);
        }
        let mut report = nothing_yet(self.probe.profile, &self.options);
        let clock = Clock {
            deadline: None,
            cancel: &crate::runner::NEVER,
        };
        let entry = Entry::from_seed(seed, request);
        shrink_and_confirm(
            case,
            entry,
            finding,
            &mut self.probe,
            &clock,
            &self.options,
            &mut report,
        );
        Ok(report.findings.pop().map(|found| SearchFinding {
            operators: vec![LINEAGE.to_string()],
            ..found
        }))
    }

    /// The catalogue file `framecheck search` would write for `finding`:
    /// the replayable case, as the replay that confirmed it loaded it.
    pub fn written_case(&self, finding: &SearchFinding) -> String {
        super::emit::catalogue_file(
            self.probe.profile,
            super::emit::Finder::FuzzTarget,
            finding.category,
            &[finding],
        )
    }
}
