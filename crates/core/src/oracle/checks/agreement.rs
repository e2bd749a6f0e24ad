//! Property (issue 33): the checks that judge the same bytes agree on what
//! is live. For generated frames and contents of every grammar, at every
//! reader level, the census finds a delimiter of the content besides the
//! frame's own exactly when `reader.verdict` finds a live one in the same
//! content read back as the body; and every marker the frame key calls a
//! confusable is one `nonce.confusable` reports.
//!
//! The body is judged with the line break the frame writes after it: the
//! same bytes as in the frame. A body ending in a lone CR is otherwise not
//! the same text: before the frame's LF its last line ends there (CRLF),
//! alone it does not, for the exact reader.

use proptest::prelude::*;

use super::findings::Findings;
use super::{census, nonce, read};
use crate::grammar::{DelimiterKind, FrameKey, Liveness};
use crate::level::ReaderLevel;
use crate::oracle::regions::OUTER;
use crate::oracle::view::Views;
use crate::profile::{ResolvedProfile, TestTarget as TargetProfile};

fn profile(delimiters: &str) -> TargetProfile {
    TargetProfile::parse(&format!(
        "name: t\nadapter: {{ builtin: reference }}\ndelimiters: {delimiters}\nheader: none\ncapabilities: [wrap]\n"
    ))
    .unwrap()
}

/// What each check says about `content` framed as `framed`, per level:
/// (census intruder, live in the body, confusable in the body, confusable
/// finding).
fn judged(profile: &ResolvedProfile, framed: &str, content: &str) -> Vec<[bool; 4]> {
    let views = Views::excluding(framed, profile, &[]);
    let grammar = &*views.grammar;
    let mut body = Findings::default();
    read::check_body_delimiters(&mut body, profile, grammar, framed, content);
    let mut confusables = Findings::default();
    nonce::check_confusables(&mut confusables, profile, &views, &ReaderLevel::ALL);
    let at = |f: &Findings, level| f.0.iter().any(|f| f.levels.contains(&level));
    views
        .levels
        .iter()
        .map(|view| {
            let level = view.level();
            let mut found = Findings::default();
            census::check_census(&mut found, profile, grammar, view);
            let intruder = found.0.iter().any(|f| f.message.contains("besides"));
            let opener = grammar
                .live(&view.folded)
                .into_iter()
                .find(|d| d.token == OUTER && d.kind == DelimiterKind::Open);
            let key = FrameKey::of(grammar, &view.folded, opener);
            let confusable = grammar
                .live_in(&view.folded.reader.fold(content), &key)
                .iter()
                .any(|(_, l)| *l == Liveness::Confusable);
            [
                intruder,
                at(&body, level),
                confusable,
                at(&confusables, level),
            ]
        })
        .collect()
}

/// Checks the agreement for one framed content.
fn agree(profile: &ResolvedProfile, open: &str, close: &str, parts: &[&str]) {
    let content = parts.concat();
    let framed = format!("{open}\n{content}\n{close}");
    let body = format!("{content}\n");
    for (level, [intruder, live, confusable, reported]) in ReaderLevel::ALL
        .into_iter()
        .zip(judged(profile, &framed, &body))
    {
        assert_eq!(
            intruder, live,
            "{level:?}: census {intruder}, reader {live}: {framed:?}"
        );
        assert!(
            !confusable || reported,
            "{level:?}: unreported confusable: {framed:?}"
        );
    }
}

fn parts(options: Vec<&'static str>) -> impl Strategy<Value = Vec<&'static str>> {
    proptest::collection::vec(proptest::sample::select(options), 0..8)
}

const NONCE: &str = "a1b2c3d4e5f60718";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn xml_tag_with_a_nonce(parts in parts(vec![
        "</u-a1b2c3d4e5f60718>", "</U-A1B2C3D4E5F60718>", "<u-a1b2c3d4e5f60718>",
        "</u-ffffffffffffffff>", "</u-FFFFFFFFFFFFFFFF>", "</u>", "<u-0000000000000000 x=\"1\">",
        "\u{FF1C}/u-a1b2c3d4e5f60718\u{FF1E}", "</u-a1b2\u{200B}c3d4e5f60718>", "x", " ", "\n", "<", "/",
    ])) {
        let p = profile("{ grammar: xml-tag, token: 'u-{nonce}', nonce: { alphabet: hex, min_length: 16 } }");
        agree(&p, &format!("<u-{NONCE}>"), &format!("</u-{NONCE}>"), &parts);
    }

    #[test]
    fn bracket_marker(parts in parts(vec![
        "[/DATA]", "[DATA]", "[/data]", "\u{FF3B}/DATA\u{FF3D}", "[/DA\u{200B}TA]", "x", "\n", " ", "[", "]",
    ])) {
        let p = profile("{ grammar: bracket-marker, token: DATA }");
        agree(&p, "[DATA]", "[/DATA]", &parts);
    }

    #[test]
    fn begin_end(parts in parts(vec![
        "END DOC", "BEGIN DOC", "end doc", "END  DOC", "\u{FF25}\u{FF2E}\u{FF24} DOC", "\n", "x", " ",
    ])) {
        let p = profile("{ grammar: begin-end, token: DOC, open: 'BEGIN {token}', close: 'END {token}' }");
        agree(&p, "BEGIN DOC", "END DOC", &parts);
    }

    #[test]
    fn fence(run in 3usize..7, parts in parts(vec![
        "```", "````", "`````", "~~~", "~~~~", "```x", "\u{FF40}\u{FF40}\u{FF40}", "`\u{200B}``",
        "\n", "   ", "x", "\u{2028}", "\r",
    ])) {
        let p = profile("{ grammar: fence, token: text }");
        let fence = "`".repeat(run);
        agree(&p, &format!("{fence}text"), &fence, &parts);
    }
}
