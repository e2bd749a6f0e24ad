//! Search against the catalogue, per judged input, in one run (issue 37):
//! the whole catalogue through the runner against the in-process reference
//! (cases per second) and `search` with a budget in mutants against the
//! same target (mutants per second). The goal is a mutant costing at most
//! twice a case; the ratio is printed at the end, from the same run.
//!
//! The search figure includes its fixed start (calibration, the pass that
//! runs every seed case unmutated): that is charged to the mutants, so the
//! ratio errs against the search. `FRAMECHECK_BENCH_MUTANTS` sets the
//! budget (default 5,000).

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use framecheck::adapter::reference::Reference;
use framecheck::adapter::Framing;
use framecheck::catalogue::{self, ConcreteCase};
use framecheck::level::ReaderLevel;
use framecheck::profile::TargetProfile;
use framecheck::runner::{self, RunOptions};
use framecheck::search::{self, Budget, SearchOptions};

fn mutants() -> u64 {
    std::env::var("FRAMECHECK_BENCH_MUTANTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5_000)
}

fn run_catalogue(cases: &[ConcreteCase], profile: &TargetProfile) -> usize {
    let options = RunOptions::default();
    let run = runner::run(cases, profile, &mut Reference, &options, &mut |_| {});
    run.results.len()
}

fn run_search(cases: &[ConcreteCase], profile: &TargetProfile, seed: u64, jobs: usize) -> u64 {
    let options = SearchOptions {
        budget: Budget::Cases(mutants()),
        seed,
        level: ReaderLevel::Unicode,
        shrink_calls: 400,
        max_findings: 20,
        cancel: search::never_cancelled(),
    };
    let more = || Ok(Box::new(Reference) as Box<dyn Framing>);
    let report = search::search_jobs(cases, profile, &mut Reference, (&more, jobs), &options);
    assert!(report.harness_error.is_none(), "{:?}", report.harness_error);
    report.mutants_tried
}

/// Seconds per input of `f` (which returns inputs judged): the fastest of
/// `rounds` calls, so another job on the machine inflates it least.
fn per_input(rounds: usize, f: &mut dyn FnMut() -> u64) -> f64 {
    (0..rounds)
        .map(|_| {
            let started = Instant::now();
            let n = f();
            started.elapsed().as_secs_f64() / n as f64
        })
        .fold(f64::INFINITY, f64::min)
}

fn bench_search(c: &mut Criterion) {
    let profile = framecheck::envelope::reference_profile();
    let cases = catalogue::instantiate(&catalogue::builtin(), &profile);
    let judged = run_catalogue(&cases, &profile) as u64;

    let mut group = c.benchmark_group("search_vs_catalogue");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(5));
    group.throughput(Throughput::Elements(judged));
    group.bench_function("catalogue_cases", |b| {
        b.iter(|| run_catalogue(&cases, &profile))
    });
    group.throughput(Throughput::Elements(mutants()));
    group.bench_function("search_mutants_jobs_1", |b| {
        b.iter(|| run_search(&cases, &profile, 1, 1))
    });
    group.finish();

    // The ratio, from alternating rounds in this process: criterion's two
    // figures above are minutes apart, and the machine's load moves.
    let (mut case, mut mutant, mut two) = (f64::INFINITY, f64::INFINITY, f64::INFINITY);
    for _ in 0..3 {
        case = case.min(per_input(3, &mut || run_catalogue(&cases, &profile) as u64));
        mutant = mutant.min(per_input(1, &mut || run_search(&cases, &profile, 1, 1)));
        two = two.min(per_input(1, &mut || run_search(&cases, &profile, 1, 2)));
    }
    eprintln!(
        "search_vs_catalogue: {:.0} cases/s, {:.0} mutants/s at --jobs 1, {:.0} at --jobs 2; \
         a mutant costs {:.2}x a case; --jobs 2 is {:.2}x --jobs 1",
        1.0 / case,
        1.0 / mutant,
        1.0 / two,
        mutant / case,
        mutant / two,
    );
}

criterion_group!(benches, bench_search);
criterion_main!(benches);
