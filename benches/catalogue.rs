//! The whole built-in catalogue against the reference envelope, in process:
//! what `framecheck run` costs without process or report overhead.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use framecheck::adapter::reference::Reference;
use framecheck::catalogue;
use framecheck::runner::{self, RunOptions};

fn bench_catalogue(c: &mut Criterion) {
    let profile = framecheck::envelope::reference_profile();
    let catalogue = catalogue::builtin();
    let cases = catalogue::instantiate(&catalogue, &profile);
    let options = RunOptions::default();

    let mut group = c.benchmark_group("catalogue");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("instantiate_reference", |b| {
        b.iter(|| catalogue::instantiate(&catalogue, &profile))
    });
    group.bench_function(format!("run_reference_{}_cases", cases.len()), |b| {
        b.iter(|| {
            let result = runner::run(&cases, &profile, &mut Reference, &options, &mut |_| {});
            assert_eq!(result.results.len(), cases.len());
            result
        })
    });
    group.finish();
}

criterion_group!(benches, bench_catalogue);
criterion_main!(benches);
