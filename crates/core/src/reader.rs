//! The reader type: every rule of one reader level in one place.
//!
//! A [`Reader`] answers, for one level, everything the oracle and the
//! variant generators need to know about how text is read: what each
//! character folds to ([`crate::level`] stays the folding specification,
//! shared with the reference envelope), which characters break a line, what
//! a blank line is, which characters continue a name (so `tok-x` is not
//! `tok`) and which characters may sit inside a delimiter as spacing. Nothing
//! else in the crate decides those questions.
//!
//! Levels are not assumed to form a chain here: code that needs "the levels
//! that see this" asks each reader in [`Reader::all`] and collects the ones
//! that do, so a future reader that folds NFKC but not case fits without
//! changing the callers. A tokenizer view ([`crate::tokview`]) is not a
//! reader: a tokenizer yields token ids, not folded characters, so it
//! cannot say what a line, a blank line or a name is; it is asked beside
//! the readers, and its findings are kept apart from theirs.
//!
//! Folding is done once per text and level ([`Reader::fold`]); the resulting
//! [`Folded`] keeps, for every folded character, the byte range of the
//! source character it came from, and is shared between the checks.
//!
//! ```
//! use framecheck_core::level::ReaderLevel;
//! use framecheck_core::reader::Reader;
//!
//! let unicode = Reader::new(ReaderLevel::Unicode);
//! assert_eq!(unicode.fold_str("ＴＯＫ\u{200B}"), "tok");
//! assert_eq!(unicode.line_break_at("a\u{2028}b", 1), Some(3));
//! assert_eq!(Reader::new(ReaderLevel::Exact).line_break_at("a\u{2028}b", 1), None);
//! assert!(unicode.is_blank(" \u{200B}\t"));
//! ```

use std::ops::Range;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::level::{self, ReaderLevel};

mod folded;

pub use folded::{Folded, FoldedChar};

/// How one reader level reads text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Reader {
    level: ReaderLevel,
    /// Where a parser consumer splits lines besides the level's own
    /// breaks (`reader.lines`); a model's reader keeps its level's.
    lines: LineSemantics,
}

/// How a parser consumer splits its input into lines: which characters end
/// a record for it (the profile's `reader.lines`).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum LineSemantics {
    /// Only LF ends a line (CRLF too, read as LF plus a trailing CR).
    #[default]
    Lf,
    /// Every line break Python's `str.splitlines()` honours: LF, CR, CRLF,
    /// VT, FF, FS, GS, RS, NEL, U+2028 and U+2029.
    Unicode,
}

impl LineSemantics {
    /// True for the default, which profiles leave unwritten.
    pub fn is_lf(&self) -> bool {
        *self == LineSemantics::Lf
    }

    /// The line breaks this consumer honours, each as a character: what
    /// starts a new record for it.
    pub fn breaks(self) -> &'static [char] {
        match self {
            LineSemantics::Lf => &['\n'],
            LineSemantics::Unicode => &UNICODE_LINE_BREAKS,
        }
    }

    /// Whether `c` ends a line for this consumer.
    pub fn is_break(self, c: char) -> bool {
        self.breaks().contains(&c)
    }
}

/// Every character Python's `str.splitlines()` splits at (CRLF is the pair
/// of the first two).
pub const UNICODE_LINE_BREAKS: [char; 10] = [
    '\n', '\r', '\u{0B}', '\u{0C}', '\u{1C}', '\u{1D}', '\u{1E}', '\u{85}', '\u{2028}', '\u{2029}',
];

/// For each ASCII character, its folding when that is one character.
type AsciiFoldings = [Option<char>; 128];

impl Reader {
    /// The reader at `level`.
    pub const fn new(level: ReaderLevel) -> Reader {
        Reader {
            level,
            lines: LineSemantics::Lf,
        }
    }

    /// This reader as a parser consumer that splits lines as `lines` says
    /// besides the level's own breaks: a program that splits with
    /// `str.splitlines()` starts a record after U+2028 whatever it folds.
    pub const fn with_lines(self, lines: LineSemantics) -> Reader {
        Reader { lines, ..self }
    }

    /// Every reader framecheck judges at, strictest first.
    pub fn all() -> impl Iterator<Item = Reader> {
        ReaderLevel::ALL.into_iter().map(Reader::new)
    }

    /// The level this reader implements.
    pub fn level(self) -> ReaderLevel {
        self.level
    }

    /// Appends what this reader sees for `c` to `out`.
    pub fn fold_char_into(self, c: char, out: &mut String) {
        level::fold_char_into(c, self.level, out);
    }

    /// What this reader sees for the whole of `text`.
    pub fn fold_str(self, text: &str) -> String {
        level::fold_str(text, self.level)
    }

    /// Folds `text` once, keeping each folded character's source range.
    ///
    /// ASCII characters, nearly all of most texts, are looked up in a table
    /// of their foldings computed once per level from
    /// [`level::fold_char_into`]; every other character is folded by that
    /// function as it comes. ASCII runs store nothing but the table; see
    /// the `folded` module for how the rest is kept.
    pub fn fold(self, text: &str) -> Folded<'_> {
        Folded::new(self, text, self.ascii_foldings())
    }

    /// For each ASCII character, its folding at this level when that is one
    /// character (`None` otherwise, folded the slow way), computed once per
    /// level from the specification.
    fn ascii_foldings(self) -> &'static AsciiFoldings {
        static TABLES: [OnceLock<AsciiFoldings>; ReaderLevel::ALL.len()] =
            [const { OnceLock::new() }; ReaderLevel::ALL.len()];
        let index = ReaderLevel::ALL
            .iter()
            .position(|&level| level == self.level)
            .expect("every level is in ReaderLevel::ALL");
        TABLES[index].get_or_init(|| {
            std::array::from_fn(|byte| {
                let folding = level::fold_char(char::from(byte as u8), self.level);
                let mut chars = folding.chars();
                match (chars.next(), chars.next()) {
                    (Some(ch), None) => Some(ch),
                    _ => None,
                }
            })
        })
    }

    /// The length of the line break starting at byte `at` of `text`, if one
    /// does.
    pub fn line_break_at(self, text: &str, at: usize) -> Option<usize> {
        let c = text[at..].chars().next()?;
        if self.lines.is_break(c) {
            let crlf = c == '\r' && text[at + 1..].starts_with('\n');
            return Some(if crlf { 2 } else { c.len_utf8() });
        }
        match (self.level, c) {
            (_, '\n') => Some(1),
            // CRLF is a line break to every reader: a framing that writes its
            // header with CRLF is not broken for that.
            (_, '\r') if text[at + 1..].starts_with('\n') => Some(2),
            (ReaderLevel::Exact, _) => None,
            (_, '\r') => Some(1),
            (ReaderLevel::AsciiCaseInsensitive, _) => None,
            (ReaderLevel::Unicode, '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}') => {
                Some(c.len_utf8())
            }
            (ReaderLevel::Unicode, _) => None,
        }
    }

    /// The first line break at or after byte `from`: its start and end.
    ///
    /// Only bytes that can begin a break at this level are tried (see
    /// `Reader::may_begin_line_break`); each is a character boundary, since
    /// it is ASCII or a UTF-8 lead byte.
    pub fn next_line_break(self, text: &str, from: usize) -> Option<Range<usize>> {
        let bytes = text.as_bytes();
        let mut at = from;
        while at < bytes.len() {
            let found = match (self.level, self.lines) {
                (ReaderLevel::Exact | ReaderLevel::AsciiCaseInsensitive, LineSemantics::Lf) => {
                    memchr::memchr2(b'\n', b'\r', &bytes[at..])
                }
                _ => bytes[at..]
                    .iter()
                    .position(|&b| self.may_begin_line_break(b)),
            };
            let start = at + found?;
            if let Some(len) = self.line_break_at(text, start) {
                return Some(start..start + len);
            }
            at = start + 1;
        }
        None
    }

    /// Whether `byte` can be the first byte of a line break this reader
    /// honours: the first UTF-8 byte of each character
    /// [`Reader::line_break_at`] accepts (a test checks every character).
    fn may_begin_line_break(self, byte: u8) -> bool {
        // U+0085 is C2 85 and U+2028/U+2029 are E2 80 A8/A9 in UTF-8.
        match (self.lines, self.level) {
            (LineSemantics::Unicode, _) => {
                matches!(
                    byte,
                    b'\n' | b'\r' | 0x0B | 0x0C | 0x1C..=0x1E | 0xC2 | 0xE2
                )
            }
            (_, ReaderLevel::Exact | ReaderLevel::AsciiCaseInsensitive) => {
                matches!(byte, b'\n' | b'\r')
            }
            (_, ReaderLevel::Unicode) => matches!(byte, b'\n' | b'\r' | 0x0B | 0x0C | 0xC2 | 0xE2),
        }
    }

    /// The lines of `text` as this reader splits them: each line's byte
    /// range without its break. The last line runs to the end of the text.
    pub fn lines(self, text: &str) -> Vec<Range<usize>> {
        let mut lines = Vec::new();
        let mut start = 0;
        while let Some(brk) = self.next_line_break(text, start) {
            lines.push(start..brk.start);
            start = brk.end;
        }
        lines.push(start..text.len());
        lines
    }

    /// Whether a line (without its break) reads as blank.
    pub fn is_blank(self, line: &str) -> bool {
        match self.level {
            ReaderLevel::Exact => line.is_empty(),
            ReaderLevel::AsciiCaseInsensitive => line.chars().all(|c| c == ' ' || c == '\t'),
            ReaderLevel::Unicode => line
                .chars()
                .all(|c| c.is_whitespace() || level::is_ignorable(c)),
        }
    }

    /// Whether the folded character `c` continues a name: a token followed
    /// by one is a different, longer name (`<contextual>` is not
    /// `<context>`). Asked of folded characters, so a fullwidth hyphen
    /// continues a name exactly for the readers that fold it to `-`.
    pub fn is_name_char(self, c: char) -> bool {
        c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | ':')
    }

    /// Whether the folded character `c` may sit inside a delimiter as
    /// spacing (between a bracket, the slash and the token of a tag; at a
    /// punctuation boundary of a begin/end marker).
    pub fn is_delimiter_space(self, c: char) -> bool {
        matches!(c, ' ' | '\t' | '\n' | '\r')
    }

    /// Whether the folded character `c` may sit inside a begin/end marker
    /// as spacing. Such a marker is the text of one line (`-----END
    /// {nonce}-----`, `<<<END_EXTERNAL>>>`), so a line break ends it: text
    /// on the next line that completes the marker's spelling is another
    /// line, not the marker (content's `--x` followed by the frame's own
    /// `--x--` line is no `--x--`).
    pub fn is_marker_space(self, c: char) -> bool {
        self.is_delimiter_space(c) && !matches!(c, '\n' | '\r')
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ReaderLevel::{AsciiCaseInsensitive as Ci, Exact, Unicode};

    #[test]
    fn line_breaks_widen_with_the_level() {
        let breaks = |text: &str, level| {
            let reader = Reader::new(level);
            let mut found = Vec::new();
            let mut from = 0;
            while let Some(b) = reader.next_line_break(text, from) {
                from = b.end;
                found.push(b);
            }
            found
        };
        let text = "a\nb\r\nc\rd\u{2028}e\u{0B}f";
        assert_eq!(breaks(text, Exact), vec![1..2, 3..5]);
        assert_eq!(breaks(text, Ci), vec![1..2, 3..5, 6..7]);
        assert_eq!(breaks(text, Unicode), vec![1..2, 3..5, 6..7, 8..11, 12..13]);
        assert_eq!(Reader::new(Ci).lines("a\r\nb\rc"), vec![0..1, 3..4, 5..6]);
    }

    /// A parser that splits as `str.splitlines()` does breaks lines at
    /// every character of that set, whatever its level folds, and at
    /// nothing else; one that splits at LF keeps its level's breaks.
    #[test]
    fn a_parser_splits_lines_where_it_declares() {
        let text = "a\u{1E}b\u{2028}c\rd\r\ne\u{2027}f";
        let splitlines = Reader::new(Exact).with_lines(LineSemantics::Unicode);
        assert_eq!(splitlines.lines(text), vec![0..1, 2..3, 6..7, 8..9, 11..16]);
        assert_eq!(
            Reader::new(Exact).with_lines(LineSemantics::Lf).lines(text),
            vec![0..9, 11..16]
        );
        for c in UNICODE_LINE_BREAKS {
            assert!(
                splitlines.line_break_at(&format!("{c}x"), 0).is_some(),
                "{c:?}"
            );
        }
    }

    /// The byte prefilter of `next_line_break` never skips a break: every
    /// character that begins one starts with a byte it tries.
    #[test]
    fn every_line_break_starts_with_a_byte_the_search_tries() {
        let mut buf = [0u8; 4];
        let splitlines = Reader::all().map(|r| r.with_lines(LineSemantics::Unicode));
        for reader in Reader::all().chain(splitlines) {
            for c in (0..=0x10FFFF).filter_map(char::from_u32) {
                let text = format!("{c}\n");
                if reader.line_break_at(&text, 0).is_some() {
                    let first = c.encode_utf8(&mut buf).as_bytes()[0];
                    assert!(reader.may_begin_line_break(first), "{c:?} {reader:?}");
                }
            }
            let text = "x\u{00C9}\u{2027}\r\u{0085}y\u{1E}\u{2029}";
            let slow: Vec<usize> = text
                .char_indices()
                .filter(|&(i, _)| reader.line_break_at(text, i).is_some())
                .map(|(i, _)| i)
                .collect();
            let mut fast = Vec::new();
            let mut from = 0;
            while let Some(b) = reader.next_line_break(text, from) {
                fast.push(b.start);
                from = b.end;
            }
            assert_eq!(fast, slow, "{reader:?}");
        }
    }

    #[test]
    fn blank_lines_widen_with_the_level() {
        let blank = |line: &str| -> Vec<ReaderLevel> {
            Reader::all()
                .filter(|r| r.is_blank(line))
                .map(Reader::level)
                .collect()
        };
        assert_eq!(blank(""), vec![Exact, Ci, Unicode]);
        assert_eq!(blank(" \t"), vec![Ci, Unicode]);
        assert_eq!(blank("\u{200B}\u{3000}"), vec![Unicode]);
        assert!(blank("x").is_empty());
    }

    #[test]
    fn literals_match_as_the_reader_folds_them() {
        let folded = Reader::new(Unicode).fold("x<ＴＯ\u{200B}Ｋ>");
        assert_eq!(folded.match_literal(2, "tok"), Some(5));
        assert_eq!(folded.match_literal(2, "T\u{FF2F}k"), Some(5));
        assert_eq!(folded.match_literal(2, "\u{200B}"), None);
        assert_eq!(Reader::new(Exact).fold("tok").match_literal(0, "TOK"), None);
    }

    #[test]
    fn name_and_space_characters() {
        let r = Reader::new(Exact);
        for c in ['a', 'Z', '0', '-', '_', '.', ':', 'é'] {
            assert!(r.is_name_char(c), "{c:?}");
        }
        for c in ['>', ' ', '/', '"', ']'] {
            assert!(!r.is_name_char(c), "{c:?}");
        }
        for c in [' ', '\t', '\n', '\r'] {
            assert!(r.is_delimiter_space(c));
        }
        assert!(!r.is_delimiter_space('\u{200B}'));
    }
}
