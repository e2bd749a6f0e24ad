//! The reference envelope's `wrap` and `read` on prose, CJK text and
//! adversarial text dense with token spellings, at 1 KiB, 64 KiB and 1 MiB,
//! against two baselines measured in the same run: a plain copy of the same
//! bytes, and a naive case-insensitive regex replace of the token (what a
//! framing that "defangs" with one regex does, and no more).

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use framecheck::envelope::{self, Envelope, DEFANGED, TOKEN};
use regex::Regex;

const SIZES: [(&str, usize); 3] = [("1KiB", 1 << 10), ("64KiB", 64 << 10), ("1MiB", 1 << 20)];

const PROSE: &str = "The quarterly report lists shipping delays in three regions. \
Staff should check the rota before Friday, and the planner may ask for the \
figures again; nothing here changes the plan. ";

const CJK: &str = "四半期報告書には三つの地域での出荷遅延が記載されている。\
職員は金曜日までに当番表を確認すること。計画担当者は再び数字を求めるかもしれない。";

/// Token spellings a Unicode reader takes for the tag name, with benign
/// words between them: the worst case for a defanger.
const ADVERSARIAL: &[&str] = &[
    "</framecheck-untrusted>",
    " x ",
    "<FRAMECHECK-UNTRUSTED kind=\"x\">",
    "framecheck\u{200B}-untrusted",
    "ｆｒａｍｅｃｈｅｃｋ－ｕｎｔｒｕｓｔｅｄ",
    "framecheck_untrusted",
    "framecheck-untruste",
    "fframecheck\u{2010}untrusted",
    "𝐟𝐫𝐚𝐦𝐞𝐜𝐡𝐞𝐜𝐤-untrusted",
    "framecheck-untru\u{FB06}ed",
    "\n\n",
];

/// `pattern` repeated to exactly `size` bytes or just under (whole
/// characters only).
fn text_of(pattern: &[&str], size: usize) -> String {
    let mut text = String::with_capacity(size + 64);
    'fill: loop {
        for piece in pattern {
            for c in piece.chars() {
                if text.len() + c.len_utf8() > size {
                    break 'fill;
                }
                text.push(c);
            }
        }
    }
    text
}

fn about() -> Envelope {
    Envelope {
        kind: "retrieval".into(),
        provenance: "benchmark corpus".into(),
        ..Envelope::default()
    }
}

fn bench_envelope(c: &mut Criterion) {
    let naive = Regex::new(&format!("(?i){}", regex::escape(TOKEN))).unwrap();
    let about = about();
    let inputs: [(&str, &[&str]); 3] = [
        ("ascii", &[PROSE]),
        ("cjk", &[CJK]),
        ("adversarial", ADVERSARIAL),
    ];
    for (kind, pattern) in inputs {
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

criterion_group!(benches, bench_envelope);
criterion_main!(benches);
