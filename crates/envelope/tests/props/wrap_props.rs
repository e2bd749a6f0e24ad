//! Properties of the reference envelope, over adversarial inputs.
//!
//! The generators build text the way an attacker would: the tag name in
//! random case, with invisible characters spliced in, letters swapped for
//! fullwidth, mathematical, Cyrillic and Greek lookalikes, dash lookalikes,
//! ligatures straddling its edges, whole frames written by `wrap` itself,
//! line breaks of every kind, all mixed with CJK, right-to-left scripts,
//! emoji and plain ASCII. Expected values come from models written here,
//! on top of `level::fold_char`/`fold_str` only, never from the envelope's
//! own scanner.

use std::collections::BTreeMap;
use std::ops::Range;

use framecheck_core::level::{fold_char, fold_str, ReaderLevel};
use framecheck_envelope::{
    self as envelope, defang, token_readings, Envelope, Placement, DEFANGED, TOKEN,
};
use proptest::prelude::*;
use proptest::sample::select;

use crate::is_line_break;

// ---------------------------------------------------------------------------
// Models
// ---------------------------------------------------------------------------

/// The readings of TOKEN, found the slow way: fold every character, search
/// the folded text with `str::find`, map each match back to the whole
/// characters that produced it, and resume after the last of them.
fn model_readings(text: &str) -> Vec<Range<usize>> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut folded = String::new();
    // For every byte of `folded`, the index of the character it came from.
    let mut owner = Vec::new();
    // For every character, where its folding starts in `folded`.
    let mut fold_start = Vec::with_capacity(chars.len() + 1);
    for (index, &(_, c)) in chars.iter().enumerate() {
        fold_start.push(folded.len());
        let folding = fold_char(c, ReaderLevel::Unicode);
        owner.extend(std::iter::repeat_n(index, folding.len()));
        folded.push_str(&folding);
    }
    fold_start.push(folded.len());

    let mut readings = Vec::new();
    let mut from = 0;
    while let Some(at) = folded[from..].find(TOKEN) {
        let first = owner[from + at];
        let last = owner[from + at + TOKEN.len() - 1];
        let (last_offset, last_char) = chars[last];
        readings.push(chars[first].0..last_offset + last_char.len_utf8());
        from = fold_start[last + 1];
    }
    readings
}

fn model_defang(text: &str) -> String {
    let mut out = String::new();
    let mut copied = 0;
    for reading in model_readings(text) {
        out.push_str(&text[copied..reading.start]);
        out.push_str(DEFANGED);
        copied = reading.end;
    }
    out.push_str(&text[copied..]);
    out
}

/// A header value with no reading left: the token defanged by the slow
/// model, then chat-template control strings neutralised as an inline
/// value's are.
fn clean_inline(text: &str) -> String {
    envelope::neutralise(&model_defang(text), Placement::Inline).into_owned()
}

fn reads_as_token(text: &str) -> bool {
    fold_str(text, ReaderLevel::Unicode).contains(TOKEN)
}

// ---------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------

const IGNORABLES: &[&str] = &[
    "\u{200B}",
    "\u{200C}",
    "\u{200D}",
    "\u{2060}",
    "\u{00AD}",
    "\u{FEFF}",
    "\u{180E}",
    "\u{FE0F}",
    "\u{202E}",
    "\u{2066}",
    "\u{E0041}",
    "\u{E0066}",
    "\u{E007F}",
];

const DASHES: &[&str] = &[
    "-", "\u{2010}", "\u{2011}", "\u{2012}", "\u{2013}", "\u{2014}", "\u{2015}", "\u{2212}",
    "\u{FF0D}", "\u{FE63}", "\u{2043}", "\u{02D7}",
];

/// Ways to write one letter of the token that a Unicode reader reads as it.
fn letter_forms(letter: char) -> Vec<String> {
    let mut forms = vec![
        letter.to_string(),
        letter.to_ascii_uppercase().to_string(),
        // Fullwidth, lower and upper.
        char::from_u32(letter as u32 + 0xFEE0).unwrap().to_string(),
        char::from_u32(letter.to_ascii_uppercase() as u32 + 0xFEE0)
            .unwrap()
            .to_string(),
        // Mathematical bold, lower and upper.
        char::from_u32(0x1D41A + (letter as u32 - 'a' as u32))
            .unwrap()
            .to_string(),
        char::from_u32(0x1D400 + (letter as u32 - 'a' as u32))
            .unwrap()
            .to_string(),
    ];
    // Every character of the reader's lookalike table (Unicode's
    // confusables data, every script) that reads as the letter, and the two
    // that case folding maps to one, so the reference is tested against all
    // of them, not a chosen few.
    let lookalikes: Vec<char> = framecheck_core::level::lookalike_table()
        .map(|(source, _)| source)
        .chain(['\u{212A}', '\u{17F}'])
        .filter(|c| fold_char(*c, ReaderLevel::Unicode) == letter.to_string())
        .collect();
    forms.extend(lookalikes.iter().map(char::to_string));
    forms
}

/// The token written so that a Unicode reader still reads it, or (two times
/// in five) a near miss with one character dropped or replaced.
fn token_form() -> impl Strategy<Value = String> {
    let fixed = select(vec![
        "framecheck-untruﬆed",
        "FRAMECHECK-UNTRUﬅED",
        "a\u{FB00}ramecheck-untrusted",
        "framecheck-untruste\u{33C8}",
        "framechec\u{212A}-untru\u{17F}ted",
        "frame\u{0421}heck\u{2010}untrusted",
        "ｆｒａｍｅｃｈｅｃｋ－ｕｎｔｒｕｓｔｅｄ",
        "framecheck-untrustedframecheck-untrusted",
        "fframecheck-untrusted",
        "framecheck--untrusted",
    ])
    .prop_map(str::to_owned);
    prop_oneof![4 => disguised_token(0..6), 2 => random_case_token(), 1 => fixed]
}

/// The token in plain ASCII, each letter in random case: what the ASCII
/// fast path of a scanner sees.
fn random_case_token() -> impl Strategy<Value = String> {
    prop::collection::vec(any::<bool>(), TOKEN.len()).prop_map(|upper| {
        TOKEN
            .chars()
            .zip(upper)
            .map(|(c, upper)| if upper { c.to_ascii_uppercase() } else { c })
            .collect()
    })
}

/// A disguised token, with one character dropped, replaced, or with a
/// non-ASCII character inserted: a near miss that must not be touched.
fn near_miss() -> impl Strategy<Value = String> {
    disguised_token(0..3)
}

/// The token with each character in a random disguise; `mutations` picks
/// from: 0 drop a character, 1 replace one with `x`, 2 insert `é` or `語`
/// after one, anything else keep all.
fn disguised_token(mutations: Range<u8>) -> impl Strategy<Value = String> {
    let per_char: Vec<BoxedStrategy<String>> = TOKEN
        .chars()
        .map(|c| {
            let forms = if c == '-' {
                DASHES.iter().map(|s| s.to_string()).collect()
            } else {
                letter_forms(c)
            };
            let plain = c.to_string();
            let form = prop_oneof![3 => Just(plain), 2 => select(forms)];
            let splice = prop_oneof![
                4 => Just(Vec::<&str>::new()),
                1 => prop::collection::vec(select(IGNORABLES), 1..4),
            ];
            (splice, form)
                .prop_map(|(splice, form)| splice.concat() + &form)
                .boxed()
        })
        .collect();
    (per_char, any::<prop::sample::Index>(), mutations).prop_map(|(mut parts, index, mutation)| {
        match mutation {
            0 => {
                parts.remove(index.index(parts.len()));
            }
            1 => {
                let at = index.index(parts.len());
                parts[at] = "x".into();
            }
            2 => {
                let at = index.index(parts.len() - 1);
                parts[at].push_str(if at % 2 == 0 { "é" } else { "語" });
            }
            _ => {}
        }
        parts.concat()
    })
}

/// A token form inside the brackets of an opening or closing tag.
fn tag_form() -> impl Strategy<Value = String> {
    let before = select(vec![
        "",
        "<",
        "</",
        "\u{2039}/",
        "\u{FF1C}\u{FF0F}",
        "[/",
        "[",
        "<\u{200B}/",
        "\u{27E8}",
    ]);
    let after = select(vec![
        "",
        ">",
        " kind=\"forged\">",
        "\u{203A}",
        "\u{FF1E}",
        "]",
        "\u{27E9}",
    ]);
    (before, token_form(), after).prop_map(|(b, t, a)| format!("{b}{t}{a}"))
}

fn random_char() -> impl Strategy<Value = char> {
    prop_oneof![
        3 => prop::char::range('\u{4E00}', '\u{9FFF}'), // CJK
        2 => prop::char::range('\u{0600}', '\u{06FF}'), // Arabic
        2 => prop::char::range('\u{05D0}', '\u{05EA}'), // Hebrew
        2 => prop::char::range('\u{1F300}', '\u{1FAFF}'), // emoji
        2 => prop::char::range('\u{0400}', '\u{04FF}'), // Cyrillic
        2 => prop::char::range('\u{0370}', '\u{03FF}'), // Greek
        2 => prop::char::range('\u{FF00}', '\u{FFEF}'), // half- and fullwidth
        2 => prop::char::range('\u{FB00}', '\u{FB06}'), // Latin ligatures
        3 => any::<char>(),
    ]
}

fn random_unicode() -> impl Strategy<Value = String> {
    prop::collection::vec(random_char(), 0..12).prop_map(|cs| cs.into_iter().collect())
}

fn structure_piece() -> impl Strategy<Value = String> {
    select(vec![
        "\n",
        "\r\n",
        "\r",
        "\n\n",
        "\u{2028}",
        "\u{2029}",
        "\u{85}",
        "\u{0B}",
        "\u{0C}",
        "\"",
        "&",
        "&amp;",
        "&#10;",
        "&quot;",
        "&lt;",
        "<",
        ">",
        "=",
        " ",
        "Provenance: ",
        "kind=\"",
        "\u{200B}",
    ])
    .prop_map(str::to_owned)
}

/// Text without whole frames in it.
fn flat_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        3 => tag_form(),
        2 => random_unicode(),
        2 => "[ -~]{0,12}",
        2 => structure_piece(),
    ];
    prop::collection::vec(piece, 0..8).prop_map(|pieces| pieces.concat())
}

/// A whole frame written by `wrap`, as content would carry it.
fn nested_frame() -> impl Strategy<Value = String> {
    (flat_text(), flat_text(), flat_text()).prop_map(|(kind, provenance, content)| {
        let about = Envelope {
            kind,
            provenance,
            ..Envelope::default()
        };
        envelope::wrap(&about, &content).expect("no attributes, nothing to refuse")
    })
}

/// Text that mostly does not read as the token: near misses rather than
/// disguised tokens, with an occasional real one.
fn benign_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        1 => tag_form(),
        3 => near_miss(),
        3 => random_unicode(),
        3 => "[ -~]{0,12}",
        2 => structure_piece(),
    ];
    prop::collection::vec(piece, 0..8).prop_map(|pieces| pieces.concat())
}

/// Adversarial text: the pieces above, and whole frames, in any order.
fn text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        3 => tag_form(),
        2 => random_unicode(),
        2 => "[ -~]{0,12}",
        2 => structure_piece(),
        1 => nested_frame(),
    ];
    prop::collection::vec(piece, 0..8).prop_map(|pieces| pieces.concat())
}

fn attribute_key() -> impl Strategy<Value = String> {
    "[A-Za-z_][A-Za-z0-9_.-]{0,8}"
}

/// Attribute maps `wrap` accepts: valid keys, none equal to `kind` or to
/// another ignoring ASCII case.
fn attributes(value: BoxedStrategy<String>) -> impl Strategy<Value = BTreeMap<String, String>> {
    prop::collection::btree_map(attribute_key(), value, 0..4).prop_filter(
        "keys collide ignoring ASCII case",
        |map| {
            let mut lower: Vec<String> = map.keys().map(|k| k.to_ascii_lowercase()).collect();
            lower.push("kind".into());
            lower.sort();
            lower.dedup();
            lower.len() == map.len() + 1
        },
    )
}

fn envelope_with(value: BoxedStrategy<String>) -> impl Strategy<Value = Envelope> {
    (text(), attributes(value), text()).prop_map(|(kind, attributes, provenance)| Envelope {
        kind,
        attributes,
        provenance,
    })
}

fn count(haystack: &str, needle: &str) -> usize {
    haystack.matches(needle).count()
}

// ---------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// 1. What `wrap` writes, `read` gives back: content, kind and attribute
    /// values defanged and otherwise exact, provenance with line breaks as
    /// spaces.
    #[test]
    fn read_inverts_wrap(about in envelope_with(text().boxed()), content in text()) {
        let framed = envelope::wrap(&about, &content).unwrap();
        let frame = envelope::read(&framed)
            .unwrap_or_else(|e| panic!("{e}: {framed:?}"));
        // Chat-template control strings are neutralised after defanging
        // (their own properties: crates/envelope/tests/props/control_props.rs).
        let inline = clean_inline;
        let body = envelope::neutralise(&model_defang(&content), Placement::Content).into_owned();
        prop_assert_eq!(frame.body, body);
        prop_assert_eq!(frame.kind, inline(&about.kind));
        let expected: BTreeMap<String, String> = about
            .attributes
            .iter()
            .map(|(k, v)| (k.clone(), inline(v)))
            .collect();
        prop_assert_eq!(frame.attributes, expected);
        let provenance: String = inline(&about.provenance)
            .chars()
            .map(|c| if is_line_break(c) { ' ' } else { c })
            .collect();
        prop_assert_eq!(frame.provenance, provenance);
    }

    /// 2. A framed text holds exactly one opening and one closing delimiter
    /// at every reader level, whatever went into it.
    #[test]
    fn exactly_one_frame_at_every_level(
        about in envelope_with(text().boxed()),
        content in text(),
    ) {
        let framed = envelope::wrap(&about, &content).unwrap();
        let opening = format!("<{TOKEN}");
        let closing = format!("</{TOKEN}");
        for level in ReaderLevel::ALL {
            let folded = fold_str(&framed, level);
            prop_assert_eq!(count(&folded, &opening), 1, "opening at {}: {:?}", level, framed);
            prop_assert_eq!(count(&folded, &closing), 1, "closing at {}: {:?}", level, framed);
            prop_assert!(folded.starts_with(&opening));
            let closed = format!("{closing}>");
            prop_assert!(folded.ends_with(&closed));
        }
        // The whole tag is the first line, whatever the values held.
        let first_line = framed.split('\n').next().unwrap();
        prop_assert!(!first_line.chars().any(is_line_break));
        prop_assert_eq!(first_line.matches('>').count(), 1);
    }

    /// 3. Defanging leaves no reading behind, so doing it twice changes
    /// nothing.
    #[test]
    fn defang_is_idempotent_and_complete(text in text()) {
        let once = defang(&text);
        let twice = defang(&once).into_owned();
        prop_assert_eq!(twice.as_str(), once.as_ref());
        prop_assert!(token_readings(&once).is_empty());
        prop_assert!(!reads_as_token(&once), "{:?}", once);
    }

    /// 5. Attribute values free of readings round-trip exactly, whatever
    /// quotes, ampersands, references and line breaks they hold. Free of
    /// readings means of chat-template control strings too: `wrap` writes
    /// one (`</S>`) in its neutral, canonical spelling (`</s\>`), so a
    /// value still holding one cannot come back as written.
    #[test]
    fn clean_attributes_round_trip(
        attributes in attributes(text().prop_map(|v| clean_inline(&v)).boxed()),
        kind in text().prop_map(|v| clean_inline(&v)),
    ) {
        let about = Envelope { kind: kind.clone(), attributes: attributes.clone(), provenance: String::new() };
        let frame = envelope::read(&envelope::wrap(&about, "").unwrap()).unwrap();
        prop_assert_eq!(frame.attributes, attributes);
        prop_assert_eq!(frame.kind, kind);
    }

    /// 6. The fast scanner and defanger agree with the slow model.
    #[test]
    fn defang_agrees_with_the_model(text in text()) {
        prop_assert_eq!(token_readings(&text), model_readings(&text), "{:?}", text);
        let (fast, slow) = (defang(&text).into_owned(), model_defang(&text));
        prop_assert_eq!(fast, slow);
    }
}

proptest! {
    // Most benign texts pass the assumption; the budget only keeps the rare
    // run with many real tokens from aborting.
    #![proptest_config(ProptestConfig {
        max_global_rejects: 10_000,
        ..ProptestConfig::with_cases(1000)
    })]

    /// 4. Text that does not read as the token passes byte for byte.
    #[test]
    fn benign_text_is_untouched(text in benign_text()) {
        prop_assume!(!reads_as_token(&text));
        let out = defang(&text);
        prop_assert!(matches!(out, std::borrow::Cow::Borrowed(_)));
        prop_assert_eq!(out.as_ref(), text.as_str());
    }
}

// The model itself must be able to fail: pin it on cases worked out by hand.
#[test]
fn the_model_finds_what_it_should() {
    assert_eq!(model_readings("x</FRAMECHECK-untrusted>"), vec![3..23]);
    assert_eq!(
        model_readings("a\u{FB00}ramecheck-untrusted"),
        vec![1.."a\u{FB00}ramecheck-untrusted".len()]
    );
    assert_eq!(
        model_readings("\u{200B}framecheck\u{200B}-untrusted\u{200B}"),
        vec![3..26]
    );
    assert!(model_readings("framecheck_untrusted framecheck-untruste").is_empty());
    assert_eq!(
        model_defang("<framecheck-untrusted>framecheck-untrusted"),
        "<framecheck_untrusted>framecheck_untrusted"
    );
}

// The generators must produce what they claim to, or the properties above
// prove little: most token forms read as the token, and some are disguised.
#[test]
fn generated_token_forms_are_mostly_readings() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    let mut runner = TestRunner::deterministic();
    let strategy = token_form();
    let (mut readings, mut disguised) = (0, 0);
    for _ in 0..500 {
        let form = strategy.new_tree(&mut runner).unwrap().current();
        if reads_as_token(&form) {
            readings += 1;
            if !form.to_ascii_lowercase().contains(TOKEN) {
                disguised += 1;
            }
        }
    }
    assert!(readings > 250, "{readings} of 500 forms read as the token");
    assert!(
        disguised > 120,
        "{disguised} of 500 forms are disguised readings"
    );
}
