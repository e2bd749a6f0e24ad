//! Properties of the reference envelope's chat-template neutralisation,
//! over adversarial inputs: control strings in every case, fullwidth, with
//! invisible characters spliced in, split across fragments, after every
//! kind of line break, mixed with arbitrary characters, in every field.
//!
//! The expected values come from a model written here on top of
//! `level::fold_str` only (fold the whole output, look for each string, and
//! for line markers look at every line), and from the oracle's own check;
//! never from the envelope's neutraliser.

use std::collections::BTreeMap;

use framecheck_core::catalogue;
use framecheck_core::chat_template::{Kind, CONTROL_STRINGS};
use framecheck_core::level::{fold_str, ReaderLevel};
use framecheck_core::oracle::{judge_wrap, Check};
use framecheck_core::target::WrapRequest;
use framecheck_envelope::{self as envelope, Envelope};
use proptest::prelude::*;
use proptest::sample::select;

use crate::is_line_break;

/// The control strings readable in `text` at some level, by the model:
/// special tokens and markup anywhere in the folded text, line markers at
/// the start of any line (after spaces and tabs).
fn model_readable(text: &str) -> Vec<&'static str> {
    let mut found = Vec::new();
    for level in ReaderLevel::ALL {
        let folded = fold_str(text, level);
        for control in &CONTROL_STRINGS {
            let needle = fold_str(control.text, level);
            let hit = match control.kind {
                Kind::Special | Kind::Markup => folded.contains(&needle),
                Kind::LineMarker => folded
                    .split(is_line_break)
                    .any(|line| line.trim_start_matches([' ', '\t']).starts_with(&needle)),
            };
            if hit && !found.contains(&control.text) {
                found.push(control.text);
            }
        }
    }
    found
}

/// A control string in one of the spellings a reader folds back to it.
fn control_spelling() -> impl Strategy<Value = String> {
    let texts: Vec<&'static str> = CONTROL_STRINGS.iter().map(|c| c.text).collect();
    (select(texts), 0u8..5, any::<prop::sample::Index>()).prop_map(|(text, style, at)| {
        match style {
            0 => text.to_string(),
            1 => text.to_uppercase(),
            2 => text.to_lowercase(),
            // Fullwidth forms of every printable ASCII character.
            3 => text
                .chars()
                .map(|c| match c {
                    '!'..='~' => char::from_u32(c as u32 + 0xFEE0).unwrap_or(c),
                    _ => c,
                })
                .collect(),
            // An invisible character spliced in.
            _ => {
                let chars: Vec<char> = text.chars().collect();
                let cut = at.index(chars.len().max(1));
                let mut out: String = chars[..cut].iter().collect();
                out.push('\u{200B}');
                out.extend(&chars[cut..]);
                out
            }
        }
    })
}

/// One piece of an adversarial field.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => control_spelling(),
        2 => select(vec![
            "\n", "\r\n", "\r", "\u{2028}", "\u{85}", "\n\n", " ", "\t", "  ",
        ])
        .prop_map(str::to_string),
        2 => select(vec![
            "<|", "|>", "im_", "end", "[", "]", "/INST", "###", "Human", ":", "<", ">", "</", "s",
            "Assistant", "\u{200B}", "\u{FF1C}", "\u{FF5C}", "ﬆ",
        ])
        .prop_map(str::to_string),
        2 => "[a-zA-Z ]{0,6}",
        1 => any::<char>().prop_map(String::from),
    ]
}

fn field() -> impl Strategy<Value = String> {
    prop::collection::vec(piece(), 0..12).prop_map(|pieces| pieces.concat())
}

/// Fragments of control strings, line breaks and text, but no whole
/// control string: what ordinary content near the subject looks like.
fn near_miss_field() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            select(vec![
                "<|",
                "|>",
                "im_",
                "end",
                "[",
                "]",
                "/INST",
                "###",
                "Human",
                ":",
                "<",
                ">",
                "</",
                "s",
                "Assistant",
                "\n",
                "\r\n",
                " ",
                "\u{2028}",
                "ﬆ",
            ])
            .prop_map(str::to_string),
            "[a-zA-Z ]{0,6}",
            any::<char>().prop_map(String::from),
        ],
        0..12,
    )
    .prop_map(|pieces| pieces.concat())
}

fn a_wrap_case() -> catalogue::ConcreteCase {
    catalogue::instantiate(
        &catalogue::builtin(),
        &framecheck_envelope::reference_profile(),
    )
    .into_iter()
    .find(|c| matches!(c.input, catalogue::Input::Wrap(_)))
    .expect("a wrap case")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// No control string is readable at any level anywhere in what `wrap`
    /// writes, whatever the content, kind, provenance and attribute value.
    #[test]
    fn wrap_output_carries_no_readable_control_string(
        content in field(),
        kind in field(),
        provenance in field(),
        value in field(),
    ) {
        let about = Envelope {
            kind: kind.clone(),
            attributes: BTreeMap::from([("title".to_string(), value.clone())]),
            provenance: provenance.clone(),
        };
        let framed = envelope::wrap(&about, &content).expect("a valid key always frames");
        prop_assert_eq!(model_readable(&framed), Vec::<&str>::new(), "{:?}", framed);
        // The oracle agrees.
        let request = WrapRequest {
            content,
            kind,
            attributes: about.attributes.clone(),
            provenance,
        };
        let outer: Vec<_> = judge_wrap(&a_wrap_case(), &framecheck_envelope::reference_profile(), &request, &framed)
            .into_iter()
            .filter(|f| f.check == Check::TemplateControl)
            .collect();
        prop_assert!(outer.is_empty(), "{:?}", outer);
    }

    /// Content with no readable control string (and no token reading)
    /// comes back byte for byte: neutralisation touches control strings
    /// only.
    #[test]
    fn content_without_control_strings_is_untouched(content in near_miss_field()) {
        prop_assume!(model_readable(&content).is_empty());
        prop_assume!(envelope::token_readings(&content).is_empty());
        let framed = envelope::wrap(&Envelope::default(), &content).unwrap();
        prop_assert_eq!(envelope::read(&framed).unwrap().body, content);
    }

    /// Neutralising twice is neutralising once: a framed body read back and
    /// wrapped again is unchanged.
    #[test]
    fn neutralisation_is_idempotent(content in field()) {
        let once = envelope::read(&envelope::wrap(&Envelope::default(), &content).unwrap())
            .unwrap()
            .body;
        let twice = envelope::read(&envelope::wrap(&Envelope::default(), &once).unwrap())
            .unwrap()
            .body;
        prop_assert_eq!(once, twice);
    }
}
