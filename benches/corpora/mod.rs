//! The text corpora of `benches/envelope.rs`, in one place so that the
//! instruction-count driver (`examples/wrap_corpus.rs`) wraps exactly the
//! bytes the benchmark times.

use framecheck::envelope::Envelope;

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
pub(crate) const CORPORA: [(&str, &[&str]); 14] = [
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
pub(crate) fn text_of(pattern: &[&str], size: usize) -> String {
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

/// The envelope every corpus is wrapped in.
pub(crate) fn about() -> Envelope {
    Envelope {
        kind: "retrieval".into(),
        provenance: "benchmark corpus".into(),
        ..Envelope::default()
    }
}
