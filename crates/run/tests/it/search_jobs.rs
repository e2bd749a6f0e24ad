//! `search --jobs N` (issue 37): several mutation streams, each with its
//! own target, one corpus and one list of findings. With a budget in
//! mutants the report is the same for the same seed and job count; the
//! budget is shared out exactly; findings are confirmed and written once.
//! Speed is measured in `benches/search.rs`, never here.

use crate::blind::{Blind, Defect};

use framecheck_core::catalogue::{self, ConcreteCase};
use framecheck_core::level::ReaderLevel;
use framecheck_launch::profile::TargetProfile;
use framecheck_run::adapter::reference::Reference;
use framecheck_run::adapter::subprocess::LaunchError;
use framecheck_run::adapter::{ConnectError, Framing};
use framecheck_run::search::{self, Budget, SearchOptions, SearchReport};

fn cases(profile: &TargetProfile) -> Vec<ConcreteCase> {
    catalogue::instantiate(&catalogue::builtin(), profile)
}

fn options(seed: u64, budget: u64) -> SearchOptions<'static> {
    SearchOptions {
        budget: Budget::Cases(budget),
        seed,
        level: ReaderLevel::Unicode,
        shrink_calls: 200,
        max_findings: 20,
        cancel: search::never_cancelled(),
    }
}

fn with_jobs(defect: Option<Defect>, jobs: usize, seed: u64, budget: u64) -> SearchReport {
    let profile = framecheck_envelope::reference_profile();
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
    let profile = framecheck_envelope::reference_profile();
    let mut alone = search::search(
        &cases(&profile),
        &profile,
        &mut Blind(Defect::Stacked),
        &options(2, 300),
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
    let profile = framecheck_envelope::reference_profile();
    let more = || {
        Err::<Box<dyn Framing>, _>(ConnectError::CannotStart {
            target: "reference".into(),
            reason: LaunchError::NotOnPath("no-such-program".into()).into(),
        })
    };
    let report = search::search_jobs(
        &cases(&profile),
        &profile,
        &mut Reference,
        (&more, 2),
        &options(1, 300),
    );
    let error = report.harness_error.expect("a harness error");
    assert!(
        error.contains("program \"no-such-program\" is not on PATH"),
        "{error}"
    );
}

/// Opens a blind fixture: the defective framing for `true`, its correct
/// twin for `false`.
type Open = Box<dyn Fn(bool) -> Box<dyn Framing> + Sync>;

/// Every blind fixture of `crates/run/tests/it/blind/`: (name, grammar, profile, open).
fn blind_fixtures() -> Vec<(String, &'static str, TargetProfile, Open)> {
    use crate::blind::brackets::{self, Brackets};
    use crate::blind::fence::{self, Fence};
    use crate::blind::markers::{self, Markers};
    use crate::blind::section::{self, Sections};
    use crate::blind::DEFECTS;
    let mut fixtures: Vec<(String, &'static str, TargetProfile, Open)> = Vec::new();
    for defect in DEFECTS {
        let open = move |bad: bool| -> Box<dyn Framing> {
            Box::new(Blind(if bad { defect } else { Defect::None }))
        };
        let name = defect.name().to_string();
        let reference = framecheck_envelope::reference_profile();
        fixtures.push((name, "xml-tag", reference, Box::new(open)));
    }
    let stacked = |bad: bool| if bad { Defect::Stacked } else { Defect::None };
    let open = move |bad: bool| -> Box<dyn Framing> { Box::new(Markers(stacked(bad))) };
    let name = "markers stacked-tricks".to_string();
    fixtures.push((name, "begin-end", markers::profile(), Box::new(open)));
    let open = move |bad: bool| -> Box<dyn Framing> { Box::new(Brackets(stacked(bad))) };
    let name = "brackets stacked-tricks".to_string();
    fixtures.push((name, "bracket-marker", brackets::profile(), Box::new(open)));
    let open = move |bad: bool| -> Box<dyn Framing> { Box::new(Fence(stacked(bad))) };
    let name = "fence stacked-tricks".to_string();
    fixtures.push((name, "fence", fence::profile(), Box::new(open)));
    let open = move |bad: bool| -> Box<dyn Framing> { Box::new(Sections(stacked(bad))) };
    let name = "section stacked-tricks".to_string();
    fixtures.push((name, "section", section::profile(), Box::new(open)));
    fixtures
}

/// Time to the first true finding, per blind framing and seed, at one and
/// at two jobs (issue 37; the table in BENCHMARKS.md). Never asserts a
/// time: run with `cargo test --release --test integration
/// search_jobs::measure -- --ignored --nocapture`, on a quiet machine for
/// figures, or read only the ratios of one run. Seeds 1 to 5, or to
/// `FRAMECHECK_MEASURE_SEEDS` (medians over 5 seeds move by more than
/// most changes to the search do); only the fixtures whose name contains
/// `FRAMECHECK_MEASURE_ONLY`, when it is set.
#[test]
#[ignore]
fn measure_time_to_first_finding() {
    use crate::search_power::is_true_for;
    let only = std::env::var("FRAMECHECK_MEASURE_ONLY").unwrap_or_default();
    let mut fixtures = blind_fixtures();
    fixtures.retain(|(name, ..)| name.contains(&only));
    let last_seed: u64 = std::env::var("FRAMECHECK_MEASURE_SEEDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    println!(
        "| framing | grammar | jobs | mutants (median / worst) | ms (median / worst) | false |"
    );
    println!("| --- | --- | --- | --- | --- | --- |");
    for (name, grammar, profile, open) in &fixtures {
        let all = cases(profile);
        for jobs in [1usize, 2] {
            let (mut mutants, mut ms, mut false_findings) = (Vec::new(), Vec::new(), 0);
            for seed in 1..=last_seed {
                let more = || Ok(open(true));
                let options = SearchOptions {
                    max_findings: 1,
                    ..options(seed, 1_000_000)
                };
                let started = std::time::Instant::now();
                let report = search::search_jobs(
                    &all,
                    profile,
                    open(true).as_mut(),
                    (&more, jobs),
                    &options,
                );
                ms.push(started.elapsed().as_millis() as u64);
                mutants.push(report.mutants_tried);
                let finding = report.findings.first().expect("found");
                let (mut bad, mut good) = (open(true), open(false));
                if !is_true_for(finding, &report, profile, bad.as_mut(), good.as_mut()) {
                    false_findings += 1;
                }
            }
            let median_worst = |v: &mut Vec<u64>| {
                v.sort_unstable();
                (v[v.len() / 2], v[v.len() - 1])
            };
            let (m, mw) = median_worst(&mut mutants);
            let (t, tw) = median_worst(&mut ms);
            println!(
                "| `{name}` | {grammar} | {jobs} | {m} / {mw} | {t} / {tw} | {false_findings} |"
            );
        }
    }
}

/// A saved corpus round-trips through its files, two corpora merge by
/// copying (the same entry has the same file name), and a search started
/// from a corpus judges its entries first: it keeps more than a search of
/// the same seed and budget from nothing, and saving twice adds nothing.
#[test]
fn a_saved_corpus_round_trips_merges_and_seeds_the_next_search() {
    let profile = framecheck_envelope::reference_profile();
    let all = cases(&profile);
    let more = || Ok(Box::new(Reference) as Box<dyn Framing>);
    let run = |seed: u64, start: &[search::CorpusEntry]| {
        search::search_campaign(
            &all,
            &profile,
            &mut Reference,
            (&more, 1),
            start,
            &options(seed, 300),
        )
    };
    let first = run(1, &[]);
    assert_eq!(first.corpus.len(), first.corpus_size);
    assert!(first.corpus_size > 0);
    let scratch = std::env::temp_dir().join(format!("framecheck-corpus-{}", std::process::id()));
    let (a, b) = (scratch.join("a"), scratch.join("b"));
    let _ = std::fs::remove_dir_all(&scratch);
    assert_eq!(
        search::save_corpus(&a, &first.corpus).unwrap(),
        first.corpus.len()
    );
    assert_eq!(search::save_corpus(&a, &first.corpus).unwrap(), 0);
    let loaded = search::load_corpus(&a).unwrap();
    let mut expected = first.corpus.clone();
    expected.sort_by_key(|e| e.file_name());
    assert_eq!(loaded, expected);
    // Another machine's corpus, merged by copying its files.
    let second = run(2, &[]);
    search::save_corpus(&b, &second.corpus).unwrap();
    for file in std::fs::read_dir(&b).unwrap() {
        let file = file.unwrap();
        std::fs::copy(file.path(), a.join(file.file_name())).unwrap();
    }
    let merged = search::load_corpus(&a).unwrap();
    let names = |c: &[search::CorpusEntry]| -> std::collections::BTreeSet<String> {
        c.iter().map(|e| e.file_name()).collect()
    };
    assert_eq!(
        names(&merged),
        names(&first.corpus)
            .union(&names(&second.corpus))
            .cloned()
            .collect()
    );
    // The next night starts from the merged corpus.
    let resumed = run(3, &merged);
    let fresh = run(3, &[]);
    assert_eq!(resumed.harness_error, None);
    assert!(
        resumed.corpus_size > fresh.corpus_size,
        "{} <= {}",
        resumed.corpus_size,
        fresh.corpus_size
    );
    assert!(resumed.findings.is_empty());
    // A file that is not an entry is an error, not a silent skip.
    std::fs::write(a.join("zz.json"), "{}").unwrap();
    assert!(search::load_corpus(&a).is_err());
    let _ = std::fs::remove_dir_all(&scratch);
}
