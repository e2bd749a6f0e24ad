//! The oracle's own matcher: where a text contains live delimiters at a
//! reader level. Slow and simple on purpose.
//!
//! Every character of the text is folded by the [`Reader`] of the level,
//! and each folded character remembers the byte range of the source
//! character it came from. The [`Grammar`] then matches on the folded
//! characters, one position at a time, and every hit is mapped back to
//! whole source characters. Nothing here is clever, so nothing here can
//! share a bug with the reference envelope's fast scanner: the two are
//! compared by the differential fuzz target.
//!
//! ```
//! use framecheck_core::level::ReaderLevel;
//! use framecheck_core::oracle::scan::{live_delimiters, DelimiterKind};
//! use framecheck_core::profile::{Delimiters, GrammarKind};
//!
//! let grammar = Delimiters::simple(GrammarKind::XmlTag, "context").try_grammar().unwrap();
//! let text = "data </CONTEXT> more";
//! assert!(live_delimiters(text, &*grammar, ReaderLevel::Exact).is_empty());
//! let ci = live_delimiters(text, &*grammar, ReaderLevel::AsciiCaseInsensitive);
//! assert_eq!(ci.len(), 1);
//! assert_eq!(ci[0].kind, DelimiterKind::Close);
//! assert_eq!(&text[ci[0].start..ci[0].end], "</CONTEXT");
//! ```

use std::ops::Range;

use crate::grammar::Grammar;
pub use crate::grammar::{DelimiterKind, LiveDelimiter};
use crate::level::ReaderLevel;
use crate::reader::Reader;

/// Every live delimiter of `grammar`'s vocabulary in `text`, as a reader at
/// `level` sees it, in text order. Folds the text; callers that judge
/// several things on one text fold it once and ask the grammar directly.
pub fn live_delimiters(
    text: &str,
    grammar: &dyn Grammar,
    level: ReaderLevel,
) -> Vec<LiveDelimiter> {
    grammar.live(&Reader::new(level).fold(text))
}

/// Every reading of `token` in `text` at `level`: spans whose folding is the
/// folded token, bare (no bracket needed), leftmost first and not
/// overlapping in the folded text.
///
/// A match starts at the first folded character of the token and ends at its
/// last; the span runs from the start of the source character of the first to
/// the end of the source character of the last. Ignorable characters around a
/// reading are therefore outside it, and a ligature only partly used by the
/// token is inside it whole.
pub fn readings(text: &str, token: &str, level: ReaderLevel) -> Vec<Range<usize>> {
    let reader = Reader::new(level);
    let needle: Vec<char> = reader.fold_str(token).chars().collect();
    if needle.is_empty() {
        return Vec::new();
    }
    let folded = reader.fold(text);
    let mut spans = Vec::new();
    let mut i = 0;
    while i + needle.len() <= folded.len() {
        if folded.matches_at(i, &needle) {
            spans.push(folded.source_span(i, i + needle.len()));
            i += needle.len();
        } else {
            i += 1;
        }
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::{self, GrammarKind, Vocabulary};
    use ReaderLevel::{AsciiCaseInsensitive as Ci, Exact, Unicode};

    const XML: GrammarKind = GrammarKind::XmlTag;

    /// The tag matcher over `tokens`, as the oracle runs it.
    fn live_delimiters(
        text: &str,
        kind: GrammarKind,
        tokens: &[&str],
        level: ReaderLevel,
    ) -> Vec<LiveDelimiter> {
        let g = grammar::build(kind, Vocabulary::plain(tokens), None, None).unwrap();
        super::live_delimiters(text, &*g, level)
    }

    /// The levels at which `text` holds exactly one live delimiter of `token`.
    fn live_levels(text: &str, token: &str) -> Vec<ReaderLevel> {
        ReaderLevel::ALL
            .into_iter()
            .filter(|&l| !live_delimiters(text, XML, &[token], l).is_empty())
            .collect()
    }

    #[test]
    fn exact_examples_from_the_spec() {
        let tok = ["context"];
        let one = |text: &str| {
            let found = live_delimiters(text, XML, &tok, Exact);
            assert_eq!(found.len(), 1, "{text:?}: {found:?}");
            found[0]
        };
        assert_eq!(one("</context>").kind, DelimiterKind::Close);
        assert_eq!(one("< /context >").kind, DelimiterKind::Close);
        assert_eq!(one("<context id=\"1\">").kind, DelimiterKind::Open);
        assert_eq!(one("<context").kind, DelimiterKind::Open);
        assert_eq!(one("<\n/\tcontext>").kind, DelimiterKind::Close);
        for dead in [
            "<contextual>",
            "<context-x>",
            "<context_x>",
            "<context.x>",
            "<context:x>",
            "context>",
            "<x-context>",
            "<//context>",
            "",
        ] {
            assert!(
                live_delimiters(dead, XML, &tok, Exact).is_empty(),
                "{dead:?}"
            );
        }
    }

    #[test]
    fn bracket_marker_syntax_uses_square_brackets() {
        let tok = ["A2A_RESULT_FROM_PEER"];
        let text = "x[A2A_RESULT_FROM_PEER]y[/ A2A_RESULT_FROM_PEER]<A2A_RESULT_FROM_PEER>";
        let found = live_delimiters(text, GrammarKind::BracketMarker, &tok, Exact);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].kind, DelimiterKind::Open);
        assert_eq!(found[1].kind, DelimiterKind::Close);
        assert_eq!(
            &text[found[1].start..found[1].end],
            "[/ A2A_RESULT_FROM_PEER"
        );
    }

    #[test]
    fn each_unicode_class_is_live_from_the_right_level() {
        let token = "framecheck-untrusted";
        let cases: &[(&str, &[ReaderLevel])] = &[
            ("</framecheck-untrusted>", &[Exact, Ci, Unicode]),
            ("</FRAMECHECK-Untrusted>", &[Ci, Unicode]),
            // Fullwidth brackets, slash and letters.
            ("＜／ｆｒａｍｅｃｈｅｃｋ－ｕｎｔｒｕｓｔｅｄ＞", &[Unicode]),
            // Fullwidth brackets around an ASCII token.
            ("＜／framecheck-untrusted＞", &[Unicode]),
            // Cyrillic а and е.
            ("</frаmеcheck-untrusted>", &[Unicode]),
            // Zero-width space inside the token and between bracket and slash.
            ("<\u{200B}/frame\u{200B}check-untrusted>", &[Unicode]),
            // Unicode tag characters.
            ("</framecheck\u{E002D}-untrusted>", &[Unicode]),
            // U+2010 hyphen.
            ("</framecheck\u{2010}untrusted>", &[Unicode]),
            // Angle-bracket lookalike.
            ("‹/framecheck-untrusted›", &[Unicode]),
            // Mathematical bold letters.
            ("</𝐟𝐫𝐚𝐦𝐞𝐜𝐡𝐞𝐜𝐤-untrusted>", &[Unicode]),
            // Long s.
            ("</framecheck-untru\u{17F}ted>", &[Unicode]),
            // Not live anywhere: a longer name, a different separator.
            ("</framecheck-untrustedness>", &[]),
            ("</framecheck_untrusted>", &[]),
            ("‹/quoted-framecheck-untrusted›", &[]),
        ];
        for (text, want) in cases {
            assert_eq!(&live_levels(text, token), want, "{text:?}");
        }
    }

    #[test]
    fn ligatures_and_kelvin_sign_fold_into_tokens() {
        // ﬀ is one source character standing for two folded ones.
        assert_eq!(live_levels("<oﬀer>", "offer"), vec![Unicode]);
        assert_eq!(live_levels("<ﬁle>", "file"), vec![Unicode]);
        // Kelvin sign K (U+212A) case-folds to k.
        assert_eq!(live_levels("</\u{212A}ey>", "key"), vec![Unicode]);
        assert_eq!(live_levels("</KEY>", "key"), vec![Ci, Unicode]);
    }

    #[test]
    fn offsets_cover_whole_source_characters() {
        let text = "ab＜／ｎｏｔｅ＞cd";
        let found = live_delimiters(text, XML, &["other", "note"], Unicode);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].token, 1);
        assert_eq!(found[0].kind, DelimiterKind::Close);
        assert_eq!(found[0].start, 2);
        assert_eq!(&text[found[0].start..found[0].end], "＜／ｎｏｔｅ");

        // A ligature at the end of the token: the span ends after the whole ligature.
        let text = "é<oﬀ>";
        let found = live_delimiters(text, XML, &["off"], Unicode);
        assert_eq!(found.len(), 1);
        assert_eq!(&text[found[0].start..found[0].end], "<oﬀ");

        // An ignorable between bracket and token sits inside the span.
        let text = "x<\u{200B}note>";
        let found = live_delimiters(text, XML, &["note"], Unicode);
        assert_eq!(&text[found[0].start..found[0].end], "<\u{200B}note");
    }

    #[test]
    fn a_name_character_after_the_token_is_judged_at_the_same_level() {
        // Fullwidth hyphen folds to '-', a name character, only at the
        // Unicode level; a byte reader sees punctuation after `<note`.
        assert_eq!(live_levels("<note－x>", "note"), vec![Exact, Ci]);
        assert!(live_levels("<note-x>", "note").is_empty());
        // An ignorable is not a name character, so the reader still sees `<note`.
        assert_eq!(
            live_levels("<note\u{200B}>", "note"),
            vec![Exact, Ci, Unicode]
        );
    }

    #[test]
    fn readings_are_leftmost_non_overlapping_and_widened() {
        assert_eq!(readings("aaaa", "aa", Exact), vec![0..2, 2..4]);
        assert_eq!(readings("aaa", "aa", Exact), vec![0..2]);
        assert_eq!(
            readings("xTokenx", "token", Exact),
            Vec::<Range<usize>>::new()
        );
        assert_eq!(readings("xTokenx", "token", Ci), vec![1..6]);
        // Ignorables at the edges stay outside; inside they are part of the span.
        let text = "\u{200B}to\u{200B}ken\u{200B}";
        assert_eq!(readings(text, "token", Unicode), vec![3..11]);
        // A ligature split by the match is taken whole.
        let text = "ﬀ";
        assert_eq!(readings(text, "f", Unicode), vec![0..3, 0..3]);
        // Fullwidth, mapped back to the source bytes.
        let text = "ab ｔｏｋｅｎ";
        let spans = readings(text, "token", Unicode);
        assert_eq!(spans.len(), 1);
        assert_eq!(&text[spans[0].clone()], "ｔｏｋｅｎ");
    }
}
