//! `search --jobs N` (issue 37): several mutation streams, each with its
//! own target, one corpus and one list of findings. With a budget in
//! mutants the report is the same for the same seed and job count; the
//! budget is shared out exactly; findings are confirmed and written once.
//! Speed is measured in `benches/search.rs`, never here.

use crate::blind::{Blind, Defect};

use std::sync::atomic::AtomicBool;

use framecheck::adapter::reference::Reference;
use framecheck::adapter::Framing;
use framecheck::catalogue::{self, ConcreteCase};
use framecheck::level::ReaderLevel;
use framecheck::profile::TargetProfile;
use framecheck::search::{self, Budget, SearchOptions, SearchReport};

fn cases(profile: &TargetProfile) -> Vec<ConcreteCase> {
    catalogue::instantiate(&catalogue::builtin(), profile)
}

fn options(seed: u64, budget: u64) -> SearchOptions {
    SearchOptions {
        budget: Budget::Cases(budget),
        seed,
        level: ReaderLevel::Unicode,
        shrink_calls: 200,
        max_findings: 20,
    }
}

fn with_jobs(defect: Option<Defect>, jobs: usize, seed: u64, budget: u64) -> SearchReport {
    let profile = framecheck::envelope::reference_profile();
    let open = move || -> Box<dyn Framing> {
        match defect {
            Some(defect) => Box::new(Blind(defect)),
            None => Box::new(Reference),
        }
    };
    let more = move || Ok(open());
    let mut report = search::search_jobs(
        &cases(&profile),
        &profile,
        open().as_mut(),
        (&more, jobs),
        &options(seed, budget),
        &AtomicBool::new(false),
    );
    report.duration_ms = 0;
    report
}

#[test]
fn two_jobs_replay_the_same_search_for_the_same_seed() {
    let a = with_jobs(None, 2, 3, 700);
    let b = with_jobs(None, 2, 3, 700);
    assert_eq!(a, b);
    assert_eq!(a.harness_error, None);
    // The budget is shared out exactly, not rounded per job or per round.
    assert_eq!(a.mutants_tried, 700);
    assert!(a.findings.is_empty(), "{:#?}", a.findings);
}

#[test]
fn one_job_is_the_one_job_search() {
    let profile = framecheck::envelope::reference_profile();
    let mut alone = search::search(
        &cases(&profile),
        &profile,
        &mut Blind(Defect::Stacked),
        &options(2, 300),
        &AtomicBool::new(false),
    );
    alone.duration_ms = 0;
    assert_eq!(alone, with_jobs(Some(Defect::Stacked), 1, 2, 300));
}

#[test]
fn two_jobs_find_a_blind_defect_and_write_each_finding_once() {
    let report = with_jobs(Some(Defect::Stacked), 2, 1, 1_500);
    assert_eq!(report.harness_error, None);
    assert!(!report.findings.is_empty(), "{report:#?}");
    let ids: std::collections::BTreeSet<&str> =
        report.findings.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(ids.len(), report.findings.len(), "a finding written twice");
    // Every finding was confirmed by a replay before it was listed.
    for finding in &report.findings {
        assert!(finding.finding.levels.contains(&ReaderLevel::Unicode));
    }
    // Two streams, not one stream split: the corpus saw both jobs' finds.
    assert!(report.corpus_size > 0);
}

#[test]
fn a_job_whose_target_cannot_start_is_a_harness_error() {
    let profile = framecheck::envelope::reference_profile();
    let more = || Err::<Box<dyn Framing>, String>("no such program".into());
    let report = search::search_jobs(
        &cases(&profile),
        &profile,
        &mut Reference,
        (&more, 2),
        &options(1, 300),
        &AtomicBool::new(false),
    );
    let error = report.harness_error.expect("a harness error");
    assert!(error.contains("no such program"), "{error}");
}
