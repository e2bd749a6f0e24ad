//! The oracle's own matcher: where a text contains live delimiters at a
//! reader level. Slow and simple on purpose.
//!
//! Every character of the text is folded with [`level::fold_char_into`],
//! and each folded character remembers the byte range of the source
//! character it came from. Matching then happens on the folded characters,
//! one position at a time, and every hit is mapped back to whole source
//! characters. Nothing here is clever, so nothing here can share a bug with
//! the reference envelope's fast scanner: the two are compared by the
//! differential fuzz target.
//!
//! ```
//! use framecheck::level::ReaderLevel;
//! use framecheck::oracle::scan::{live_delimiters, DelimiterKind};
//! use framecheck::profile::Syntax;
//!
//! let text = "data </CONTEXT> more";
//! let exact = live_delimiters(text, Syntax::XmlTag, &["context"], ReaderLevel::Exact);
//! assert!(exact.is_empty());
//! let ci = live_delimiters(text, Syntax::XmlTag, &["context"], ReaderLevel::AsciiCaseInsensitive);
//! assert_eq!(ci.len(), 1);
//! assert_eq!(ci[0].kind, DelimiterKind::Close);
//! assert_eq!(&text[ci[0].start..ci[0].end], "</CONTEXT");
//! ```

use std::ops::Range;

use crate::level::{self, ReaderLevel};
use crate::profile::Syntax;

/// Whether a live delimiter opens or closes an element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DelimiterKind {
    /// `<tok` or `[tok`.
    Open,
    /// `</tok` or `[/tok`.
    Close,
}

impl DelimiterKind {
    /// "opening" or "closing", for messages.
    pub fn adjective(self) -> &'static str {
        match self {
            DelimiterKind::Open => "opening",
            DelimiterKind::Close => "closing",
        }
    }
}

/// A place where a reader at some level sees a structural delimiter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LiveDelimiter {
    /// Index into the token list the scan was given.
    pub token: usize,
    /// Opening or closing.
    pub kind: DelimiterKind,
    /// Byte offset of the first byte of the bracket character.
    pub start: usize,
    /// Byte offset just past the last character of the token.
    pub end: usize,
}

/// One character as a reader sees it, with the source character it came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FoldedChar {
    /// The folded character.
    pub ch: char,
    /// Byte offset of the source character.
    pub start: usize,
    /// Byte offset just past the source character.
    pub end: usize,
}

/// Folds `text` at `level`, one entry per folded character. A source
/// character that folds to nothing (an ignorable) has no entry; one that
/// folds to several characters (a ligature) has several with the same range.
pub(crate) fn fold_with_offsets(text: &str, level: ReaderLevel) -> Vec<FoldedChar> {
    let mut folded = Vec::with_capacity(text.len());
    let mut buffer = String::new();
    for (start, c) in text.char_indices() {
        buffer.clear();
        level::fold_char_into(c, level, &mut buffer);
        let end = start + c.len_utf8();
        folded.extend(buffer.chars().map(|ch| FoldedChar { ch, start, end }));
    }
    folded
}

/// The characters a reader skips between a bracket, the slash and the token.
fn is_delimiter_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
}

/// Characters that continue a tag name: a token followed by one of these is
/// a different, longer name (`<contextual>` is not `<context>`).
fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | ':')
}

/// Whether `needle` occurs in `folded` at position `at`.
fn folded_match_at(folded: &[FoldedChar], at: usize, needle: &[char]) -> bool {
    folded.len() >= at + needle.len()
        && folded[at..at + needle.len()]
            .iter()
            .zip(needle)
            .all(|(f, n)| f.ch == *n)
}

/// Every live delimiter of any of `tokens` in `text`, as a reader at `level`
/// sees it, in text order.
///
/// A delimiter is live where the syntax's opening bracket (as folded) is
/// followed by optional whitespace, an optional `/` (making it a closing
/// delimiter), optional whitespace and the token (folded at the same level),
/// and then by the end of the text or a character that cannot continue a
/// name. Offsets refer to `text` and cover whole source characters, from
/// the bracket to the end of the token.
pub fn live_delimiters(
    text: &str,
    syntax: Syntax,
    tokens: &[&str],
    level: ReaderLevel,
) -> Vec<LiveDelimiter> {
    let folded = fold_with_offsets(text, level);
    live_delimiters_in(&folded, syntax, tokens, level)
}

/// [`live_delimiters`] over an already folded text.
pub(crate) fn live_delimiters_in(
    folded: &[FoldedChar],
    syntax: Syntax,
    tokens: &[&str],
    level: ReaderLevel,
) -> Vec<LiveDelimiter> {
    let (open_bracket, _) = syntax.brackets();
    let folded_tokens: Vec<Vec<char>> = tokens
        .iter()
        .map(|t| level::fold_str(t, level).chars().collect())
        .collect();
    let skip_space = |mut i: usize| {
        while i < folded.len() && is_delimiter_space(folded[i].ch) {
            i += 1;
        }
        i
    };
    let mut found = Vec::new();
    for (bracket_at, bracket) in folded.iter().enumerate() {
        if bracket.ch != open_bracket {
            continue;
        }
        let mut i = skip_space(bracket_at + 1);
        let mut kind = DelimiterKind::Open;
        if i < folded.len() && folded[i].ch == '/' {
            kind = DelimiterKind::Close;
            i = skip_space(i + 1);
        }
        for (index, token) in folded_tokens.iter().enumerate() {
            if token.is_empty() || !folded_match_at(folded, i, token) {
                continue;
            }
            let after = i + token.len();
            if after < folded.len() && is_name_char(folded[after].ch) {
                continue;
            }
            found.push(LiveDelimiter {
                token: index,
                kind,
                start: bracket.start,
                end: folded[after - 1].end,
            });
            break;
        }
    }
    found
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
    let needle: Vec<char> = level::fold_str(token, level).chars().collect();
    if needle.is_empty() {
        return Vec::new();
    }
    let folded = fold_with_offsets(text, level);
    let mut spans = Vec::new();
    let mut i = 0;
    while i + needle.len() <= folded.len() {
        if folded_match_at(&folded, i, &needle) {
            spans.push(folded[i].start..folded[i + needle.len() - 1].end);
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
    use ReaderLevel::{AsciiCaseInsensitive as Ci, Exact, Unicode};

    const XML: Syntax = Syntax::XmlTag;

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
        let found = live_delimiters(text, Syntax::BracketMarker, &tok, Exact);
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
