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
use framecheck::envelope::{self, Envelope, DEFANGED, TOKEN};
use framecheck::level::{fold_char_into, ReaderLevel};
use regex::Regex;

const SIZES: [(&str, usize); 2] = [("64KiB", 64 << 10), ("1MiB", 1 << 20)];

const PROSE: &[&str] = &[
    "The quarterly report lists shipping delays in three regions. \
Staff should check the rota before Friday, and the planner may ask for the \
figures again; nothing here changes the plan. ",
];

const HYPHENATED: &[&str] = &["A well-known, long-term follow-up on the state-of-the-art \
check-in flow: the back-end team's look-up tables are read-only, the front-end \
is up-to-date, and a one-off roll-back is out of the question for third-party \
sign-ins. "];

const MARKDOWN_TABLE: &[&str] = &[
    "| region | on-time | late | note |\n|---|---:|---:|---|\n",
    "| north-east | 1,204 | 37 | - |\n| south | 988 | 112 | re-routed |\n",
    "| west | 2,310 | 5 | -- |\n| central | 77 | 0 | n/a |\n\n",
];

const LOG: &[&str] = &[
    "----------------------------------------------------------------\n",
    "2026-11-30T08:57:15Z INFO  request-id=7f3a-19c2 GET /api/v1/shift-rota 200 12ms\n",
    "2026-11-30T08:57:16Z WARN  retry 2/5 for upstream cache-node-03 (timeout)\n",
    "---- summary ----\n",
    "2026-11-30T08:57:17Z DEBUG worker-pool size=8 queue-depth=0 -- idle\n",
];

const SOURCE: &[&str] = &[
    "fn next_shift(rota: &[Shift], day: u32) -> Option<&Shift> {\n",
    "    // Fridays roll over; see the planner's note.\n",
    "    let index = (day - 1) % rota.len() as u32;\n",
    "    for i in 0..rota.len() { if rota[i].day == index { return Some(&rota[i]); } }\n",
    "    x -= 1; y = x - 2; z = -y; /* --flag --dry-run */ None\n}\n\n",
];

const JSON: &[&str] = &[
    "{\"id\": 4181, \"name\": \"shift-rota\", \"tags\": [\"north-east\", \"on-call\"], ",
    "\"date\": \"2026-11-30\", \"delta\": -0.25, \"ok\": true, \"note\": null, ",
    "\"path\": \"/api/v1/rota\", \"nested\": {\"a\": [1, 2, 3], \"b\": \"x-y\"}}\n",
];

const CJK: &[&str] = &["四半期報告書には三つの地域での出荷遅延が記載されている。\
職員は金曜日までに当番表を確認すること。計画担当者は再び数字を求めるかもしれない。"];

const EMOJI: &[&str] =
    &["🚀✅🎉👩\u{200D}💻🔥🙂👍🏽🇯🇵❤\u{FE0F}🧪📦🌍😀😂🤖🛠\u{FE0F}📈🗓\u{FE0F}⏰🍕🐛"];

const MATH: &[&str] = &["𝐀𝐁𝐂𝐃 𝑥𝑦𝑧 𝒜ℬ𝒞 𝔞𝔟𝔠 𝕒𝕓𝕔 𝖠𝖡𝖢 𝗮𝗯𝗰 𝘢𝘣𝘤 𝙖𝙗𝙘 𝚊𝚋𝚌 𝛂𝛃𝛄 𝟎𝟏𝟐𝟑 "];

/// Latin prose with accents and ligatures: mostly ASCII, but not all, so
/// it takes the two-pass path.
const ACCENTED: &[&str] = &[
    "Le rapport trimestriel énumère les retards d'expédition dans \
trois régions. Le personnel doit vérifier le planning avant vendredi ; rien ne \
change. Ærøskøbing, naïve café, ﬁnal oﬀer. ",
];

/// Cyrillic prose.
const CYRILLIC: &[&str] = &["Квартальный отчёт перечисляет задержки доставки в трёх \
регионах. Сотрудники должны проверить график до пятницы. "];

/// Log lines, each ending in a zero-width space (as copied from some web
/// pages): ASCII runs of a line's length between characters outside it.
const LOG_ZERO_WIDTH: &[&str] = &[
    "2026-11-30T08:57:15Z INFO  request-id=7f3a-19c2 GET /api/v1/shift-rota 200 12ms\u{200B}\n",
    "2026-11-30T08:57:16Z WARN  retry 2/5 for upstream cache-node-03 (timeout)\u{200B}\n",
];

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

/// The envelope's own closing tag, over and over.
const TOKEN_DENSE: &[&str] = &["</framecheck-untrusted>"];

/// Every corpus, by name.
const CORPORA: [(&str, &[&str]); 14] = [
    ("prose", PROSE),
    ("hyphenated", HYPHENATED),
    ("markdown_table", MARKDOWN_TABLE),
    ("log", LOG),
    ("source", SOURCE),
    ("json", JSON),
    ("cjk", CJK),
    ("emoji", EMOJI),
    ("math", MATH),
    ("accented", ACCENTED),
    ("cyrillic", CYRILLIC),
    ("log_zero_width", LOG_ZERO_WIDTH),
    ("adversarial", ADVERSARIAL),
    ("token_dense", TOKEN_DENSE),
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
