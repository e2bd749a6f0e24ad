//! Per-request overhead of the subprocess path, through a target that does
//! no framing at all (`benches/echo_adapter.py` echoes the content back), in
//! persistent mode (one child, a JSON line each way per request) and one-shot
//! mode (a new process per request).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use framecheck::adapter::subprocess::SubprocessFraming;
use framecheck::adapter::{Framing, WrapRequest};
use framecheck::profile::{ProcessMode, SubprocessSpec};

/// The real interpreter, not a version-manager shim, which would add its
/// own start-up to every one-shot request.
fn python() -> Option<PathBuf> {
    let output = Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .ok()?;
    let path = String::from_utf8(output.stdout).ok()?.trim().to_string();
    (output.status.success() && !path.is_empty()).then(|| PathBuf::from(path))
}

fn echo_target(python: &Path, mode: ProcessMode) -> SubprocessFraming {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let spec = SubprocessSpec {
        command: vec![
            python.display().to_string(),
            root.join("benches/echo_adapter.py").display().to_string(),
        ],
        cwd: None,
        env: BTreeMap::new(),
        timeout_ms: 10_000,
        startup_ms: None,
        mode,
        max_reply_bytes: 1 << 20,
    };
    SubprocessFraming::new(&spec, root)
}

fn bench_subprocess(c: &mut Criterion) {
    let Some(python) = python() else {
        eprintln!("python3 not found: subprocess benchmarks skipped");
        return;
    };
    let request = WrapRequest {
        content: "A short tool result, about the size of a search snippet.".into(),
        kind: "tool-result".into(),
        attributes: BTreeMap::new(),
        provenance: "benchmark".into(),
    };
    let mut group = c.benchmark_group("subprocess");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(3));

    let mut persistent = echo_target(&python, ProcessMode::Persistent);
    // Start the child outside the measurement.
    persistent.wrap(&request).expect("echo target answers");
    group.bench_function("persistent_wrap", |b| {
        b.iter(|| persistent.wrap(&request).expect("echo target answers"))
    });

    let mut one_shot = echo_target(&python, ProcessMode::OneShot);
    group.bench_function("one_shot_wrap", |b| {
        b.iter(|| one_shot.wrap(&request).expect("echo target answers"))
    });
    group.finish();
}

criterion_group!(benches, bench_subprocess);
criterion_main!(benches);
