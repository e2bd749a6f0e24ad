//! The reference envelope's `wrap` and `read` on the text agents frame every
//! day (prose with and without hyphens, a Markdown table, a log with `----`
//! rules, source code, JSON, CJK, emoji, mathematical alphanumerics,
//! accented Latin, Cyrillic, a log with a zero-width space per line) and on
//! two hostile inputs (a cycle of token spellings, and the closing tag
//! repeated), at 64 KiB and 1 MiB, against two baselines measured in the
//! same run: a plain copy of the same bytes, and a naive case-insensitive
//! regex replace of the token (what a framing that "defangs" with one regex
//! does, and no more).
//!
//! Every corpus is generated here from a short deterministic pattern, so no
//! large file is committed and every run measures the same bytes.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use framecheck::envelope::{self, DEFANGED, TOKEN};
use framecheck::level::{fold_char_into, ReaderLevel};
use regex::Regex;

mod corpora;
use corpora::{about, text_of, CORPORA};

const SIZES: [(&str, usize); 2] = [("64KiB", 64 << 10), ("1MiB", 1 << 20)];

fn bench_envelope(c: &mut Criterion) {
    let naive = Regex::new(&format!("(?i){}", regex::escape(TOKEN))).unwrap();
    let about = about();
    for (kind, pattern) in CORPORA {
        let mut group = c.benchmark_group(format!("envelope/{kind}"));
        group.sample_size(10);
        group.warm_up_time(Duration::from_millis(500));
        group.measurement_time(Duration::from_secs(2));
        for (label, size) in SIZES {
            let text = text_of(pattern, size);
            let framed = envelope::wrap(&about, &text).unwrap();
            group.throughput(Throughput::Bytes(text.len() as u64));
            group.bench_with_input(BenchmarkId::new("wrap", label), &text, |b, text| {
                b.iter(|| envelope::wrap(&about, black_box(text)).unwrap())
            });
            group.bench_with_input(BenchmarkId::new("read", label), &framed, |b, framed| {
                b.iter(|| envelope::read(black_box(framed)).unwrap())
            });
            group.bench_with_input(BenchmarkId::new("copy", label), &text, |b, text| {
                b.iter(|| String::from(black_box(text.as_str())))
            });
            group.bench_with_input(BenchmarkId::new("naive_regex", label), &text, |b, text| {
                b.iter(|| naive.replace_all(black_box(text), DEFANGED).into_owned())
            });
        }
        group.finish();
    }
}

/// What the scanner's lazy fold table pays the first time a process meets
/// a character of a block: 256 characters folded through the
/// specification, as `envelope::fold_table` does.
fn bench_first_use_of_a_block(c: &mut Criterion) {
    let mut group = c.benchmark_group("envelope/first_use");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));
    for (name, first) in [("cjk_block", 0x4E00_u32), ("math_block", 0x1D400)] {
        group.bench_function(name, |b| {
            let mut folding = String::new();
            b.iter(|| {
                for cp in first..first + 256 {
                    folding.clear();
                    if let Some(c) = char::from_u32(cp) {
                        fold_char_into(black_box(c), ReaderLevel::Unicode, &mut folding);
                    }
                }
                folding.len()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_envelope, bench_first_use_of_a_block);
criterion_main!(benches);
