//! Properties of the reference envelope's nonce mode, over adversarial
//! inputs.
//!
//! The attacker here knows more than a real one: the generators write the
//! frame's own marker *with the frame's current nonce* (the tests choose
//! it through `wrap_with_nonce`), markers with other values and none, each
//! in random case, fullwidth, with lookalike letters and invisible
//! characters spliced in, beside whole nonce frames and chat-template
//! control strings. Expected values come from the plain envelope (whose
//! own properties are crates/envelope/tests/props/wrap_props.rs) and from `level::fold_str`,
//! never from the nonce code under test.

use std::collections::{BTreeMap, BTreeSet};

use framecheck_core::level::{fold_str, ReaderLevel};
use framecheck_envelope::{
    self as envelope, nonce::NONCE_LEN, read_nonce, wrap_nonce, wrap_with_nonce, Envelope, Nonce,
    ReadError, TOKEN,
};
use proptest::prelude::*;
use proptest::sample::select;

// ---------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------

fn nonce() -> impl Strategy<Value = Nonce> {
    any::<[u8; 16]>().prop_map(Nonce::from_bytes)
}

/// One character of a marker, as a Unicode reader still reads it.
fn disguise(c: char) -> impl Strategy<Value = String> {
    let mut forms = vec![c.to_string(), c.to_ascii_uppercase().to_string()];
    if c.is_ascii_graphic() {
        forms.push(char::from_u32(c as u32 + 0xFEE0).unwrap().to_string());
    }
    let lookalike = match c {
        'a' => Some('а'),
        'c' => Some('с'),
        'e' => Some('е'),
        'k' => Some('\u{212A}'),
        's' => Some('\u{17F}'),
        't' => Some('Т'),
        '-' => Some('\u{2010}'),
        _ => None,
    };
    forms.extend(lookalike.map(String::from));
    let splice = select(vec!["", "", "", "\u{200B}", "\u{00AD}", "\u{2060}"]);
    (splice, select(forms)).prop_map(|(splice, form)| format!("{splice}{form}"))
}

/// `text` with every character disguised independently.
fn disguised(text: String) -> impl Strategy<Value = String> {
    let parts: Vec<_> = text.chars().map(disguise).collect();
    parts.prop_map(|parts| parts.concat())
}

/// A marker spelled like the frame's own: with `current` (the frame's
/// nonce), with another value, a near miss, or none; opener or closer;
/// plain or disguised.
fn marker(current: Nonce) -> impl Strategy<Value = String> {
    let value = prop_oneof![
        Just(format!("-{current}")),
        nonce().prop_map(|n| format!("-{n}")),
        Just(format!("-{}", &current.as_str()[1..])),
        Just(format!("-{}", current.as_str().to_ascii_uppercase())),
        Just(String::new()),
        Just(format!(" id=\"{current}\"")),
    ];
    let open = select(vec!["<", "</", "<\u{200B}/", "\u{FF1C}/"]);
    let close = select(vec![">", "", " kind=\"x\">", "\u{FF1E}"]);
    (open, value, close, any::<bool>())
        .prop_flat_map(|(open, value, close, hide)| {
            let name = format!("{TOKEN}{value}");
            let name = if hide {
                disguised(name).boxed()
            } else {
                Just(name).boxed()
            };
            (Just(open), name, Just(close))
        })
        .prop_map(|(open, name, close)| format!("{open}{name}{close}"))
}

/// Adversarial content aimed at a frame with nonce `current`.
fn content(current: Nonce) -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => marker(current.clone()),
        2 => "[ -~]{0,12}",
        1 => "\\PC{0,6}",
        1 => select(vec!["\n", "\n\n", "\r\n", "\u{2028}", "<|im_end|>", "[/INST]", "\nHuman: "])
            .prop_map(str::to_owned),
        1 => nonce().prop_map(|n| wrap_with_nonce(&Envelope::default(), "inner", &n).unwrap()),
        1 => Just(envelope::wrap(&Envelope::default(), "plain").unwrap()),
    ];
    prop::collection::vec(piece, 0..6).prop_map(|pieces| pieces.concat())
}

/// Envelope fields with the same markers in them.
fn about(current: Nonce) -> impl Strategy<Value = Envelope> {
    let key = "[a-z][a-z0-9_]{0,6}".prop_filter("kind is wrap's own", |k| k != "kind");
    let attributes = prop::collection::btree_map(key, content(current.clone()), 0..3);
    (content(current.clone()), attributes, content(current)).prop_map(
        |(kind, attributes, provenance)| Envelope {
            kind,
            attributes,
            provenance,
        },
    )
}

/// A nonce, and an envelope and content aimed at it.
fn case() -> impl Strategy<Value = (Nonce, Envelope, String)> {
    nonce().prop_flat_map(|n| (Just(n.clone()), about(n.clone()), content(n)))
}

// ---------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Round trip: the nonce frame reads back as exactly what the plain
    /// envelope reads back for the same input, with the nonce beside it,
    /// and the two outputs differ only in the tags' name.
    #[test]
    fn nonce_mode_is_the_plain_envelope_with_a_nonce_in_the_tags(
        (n, about, content) in case()
    ) {
        let framed = wrap_with_nonce(&about, &content, &n).unwrap();
        let plain = envelope::wrap(&about, &content).unwrap();
        let frame = read_nonce(&framed).unwrap_or_else(|e| panic!("{e}: {framed:?}"));
        let mut expected = envelope::read(&plain).unwrap();
        expected.nonce = Some(n.to_string());
        prop_assert_eq!(frame, expected);
        let name = n.tag_name();
        let rebuilt = format!(
            "<{name}{}</{name}>",
            &plain[1 + TOKEN.len()..plain.len() - TOKEN.len() - 3]
        );
        prop_assert_eq!(framed, rebuilt);
    }

    /// Benign content comes back byte for byte.
    #[test]
    fn benign_content_round_trips_exactly(n in nonce(), content in "[a-zA-Z0-9 .,\n]{0,40}") {
        let framed = wrap_with_nonce(&Envelope::default(), &content, &n).unwrap();
        prop_assert_eq!(read_nonce(&framed).unwrap().body, content);
    }

    /// No content-derived live delimiter at any level: the token reads
    /// exactly twice in the whole output (the opener's and the closer's
    /// name), whatever marker went into any field: with this frame's nonce,
    /// another value, a near miss or none.
    #[test]
    fn only_the_frames_own_tags_read_as_the_token((n, about, content) in case()) {
        let framed = wrap_with_nonce(&about, &content, &n).unwrap();
        let name = n.tag_name();
        for level in ReaderLevel::ALL {
            let folded = fold_str(&framed, level);
            prop_assert_eq!(folded.matches(TOKEN).count(), 2, "{} {:?}", level, framed);
            let opener = format!("<{name} ");
            let closer = format!("</{name}>");
            prop_assert!(folded.starts_with(&opener));
            prop_assert!(folded.ends_with(&closer));
        }
    }

    /// The reader refuses the frame when the closer's value is changed in
    /// one character, swapped for another frame's, or removed.
    #[test]
    fn read_refuses_a_closer_without_the_openers_value(
        (n, about, content) in case(),
        other in nonce(),
        at in 0..NONCE_LEN,
        digit in select(b"0123456789abcdefABCDEFgz".to_vec()),
    ) {
        let framed = wrap_with_nonce(&about, &content, &n).unwrap();
        let closer = format!("\n</{}>", n.tag_name());
        let head = framed.strip_suffix(closer.as_str()).unwrap();
        let mut changed = n.as_str().as_bytes().to_vec();
        prop_assume!(changed[at] != digit);
        changed[at] = digit;
        let changed = String::from_utf8(changed).unwrap();
        prop_assume!(other != n);
        for value in [changed, other.to_string()] {
            let text = format!("{head}\n</{TOKEN}-{value}>");
            prop_assert!(
                matches!(read_nonce(&text), Err(ReadError::ClosingNonceMismatch { .. })),
                "{:?}", text
            );
        }
        let removed = format!("{head}\n</{TOKEN}>");
        let refused = matches!(read_nonce(&removed), Err(ReadError::ClosingNonceMismatch { .. }));
        prop_assert!(refused, "{:?}", removed);
        prop_assert!(read_nonce(head).is_err());
        prop_assert!(read_nonce(&framed).is_ok());
    }
}

// ---------------------------------------------------------------------------
// The real random source
// ---------------------------------------------------------------------------

/// Many wraps of the same input never share a nonce, every value has the
/// declared shape, and every hex digit turns up at every position (a value
/// with a fixed or narrow part would not).
#[test]
fn wraps_of_one_input_never_share_a_nonce() {
    const WRAPS: usize = 5000;
    let about = Envelope::default();
    let mut seen = BTreeSet::new();
    let mut digits_at: BTreeMap<usize, BTreeSet<char>> = BTreeMap::new();
    for _ in 0..WRAPS {
        let framed = wrap_nonce(&about, "the same input").unwrap();
        let value = read_nonce(&framed).unwrap().nonce.unwrap();
        assert_eq!(value.len(), NONCE_LEN);
        for (i, c) in value.chars().enumerate() {
            digits_at.entry(i).or_default().insert(c);
        }
        assert!(seen.insert(value.clone()), "nonce {value} drawn twice");
    }
    assert_eq!(digits_at.len(), NONCE_LEN);
    for (position, digits) in digits_at {
        assert_eq!(
            digits.len(),
            16,
            "position {position} shows only {digits:?}"
        );
    }
}

/// The marker generator does what the properties rely on: nearly every
/// marker reads as the token at the Unicode level, so the properties above
/// are about live-looking markers, not noise.
#[test]
fn generated_markers_read_as_the_token() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    let mut runner = TestRunner::deterministic();
    let strategy = marker(Nonce::from_bytes([0x5a; 16]));
    let reading = (0..400)
        .filter(|_| {
            let marker = strategy.new_tree(&mut runner).unwrap().current();
            fold_str(&marker, ReaderLevel::Unicode).contains(TOKEN)
        })
        .count();
    assert!(
        reading >= 380,
        "only {reading} of 400 markers read as the token"
    );
}
