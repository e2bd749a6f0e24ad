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
//! use framecheck::level::ReaderLevel;
//! use framecheck::reader::Reader;
//!
//! let unicode = Reader::new(ReaderLevel::Unicode);
//! assert_eq!(unicode.fold_str("ＴＯＫ\u{200B}"), "tok");
//! assert_eq!(unicode.line_break_at("a\u{2028}b", 1), Some(3));
//! assert_eq!(Reader::new(ReaderLevel::Exact).line_break_at("a\u{2028}b", 1), None);
//! assert!(unicode.is_blank(" \u{200B}\t"));
//! ```

use std::ops::Range;
use std::sync::OnceLock;

use crate::level::{self, ReaderLevel};

/// How one reader level reads text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Reader {
    level: ReaderLevel,
}

/// One character as a reader sees it, with the source character it came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FoldedChar {
    /// The folded character.
    pub ch: char,
    /// Byte offset of the source character.
    pub start: usize,
    /// Byte offset just past the source character.
    pub end: usize,
}

/// A text as one reader sees it: one entry per folded character. A source
/// character that folds to nothing (an ignorable) has no entry; one that
/// folds to several characters (a ligature) has several with the same range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Folded<'t> {
    /// The reader that folded the text.
    pub reader: Reader,
    /// The source text.
    pub text: &'t str,
    /// The folded characters, in text order.
    pub chars: Vec<FoldedChar>,
}

impl Folded<'_> {
    /// Number of folded characters.
    pub fn len(&self) -> usize {
        self.chars.len()
    }

    /// True when the reader sees no character at all.
    pub fn is_empty(&self) -> bool {
        self.chars.is_empty()
    }

    /// The folded character at `i`, if any.
    pub fn ch(&self, i: usize) -> Option<char> {
        self.chars.get(i).map(|f| f.ch)
    }

    /// Whether the folded characters `needle` occur at position `at`.
    pub fn matches_at(&self, at: usize, needle: &[char]) -> bool {
        self.chars.len() >= at + needle.len()
            && self.chars[at..at + needle.len()]
                .iter()
                .zip(needle)
                .all(|(f, n)| f.ch == *n)
    }

    /// The index of the first folded character whose source starts at or
    /// after byte `offset`.
    pub fn index_at_byte(&self, offset: usize) -> usize {
        self.chars.partition_point(|f| f.start < offset)
    }

    /// The source byte range covered by folded characters `from..to`
    /// (`to` exclusive, non-empty).
    pub fn source_span(&self, from: usize, to: usize) -> Range<usize> {
        self.chars[from].start..self.chars[to - 1].end
    }

    /// Skips delimiter space from folded index `i`.
    pub fn skip_space(&self, mut i: usize) -> usize {
        while i < self.chars.len() && self.reader.is_delimiter_space(self.chars[i].ch) {
            i += 1;
        }
        i
    }
}

impl Reader {
    /// The reader at `level`.
    pub const fn new(level: ReaderLevel) -> Reader {
        Reader { level }
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
    /// function as it comes. The result reserves one entry per source byte,
    /// an upper bound for every text whose characters fold to at most as
    /// many characters as they have bytes.
    pub fn fold(self, text: &str) -> Folded<'_> {
        let ascii = self.ascii_foldings();
        let mut chars = Vec::with_capacity(text.len());
        let mut buffer = String::new();
        for (start, c) in text.char_indices() {
            let end = start + c.len_utf8();
            if let Some(&Some(ch)) = ascii.get(c as usize) {
                chars.push(FoldedChar { ch, start, end });
                continue;
            }
            buffer.clear();
            self.fold_char_into(c, &mut buffer);
            chars.extend(buffer.chars().map(|ch| FoldedChar { ch, start, end }));
        }
        Folded {
            reader: self,
            text,
            chars,
        }
    }

    /// For each ASCII character, its folding at this level when that is one
    /// character (`None` otherwise, folded the slow way), computed once per
    /// level from the specification.
    fn ascii_foldings(self) -> &'static [Option<char>; 128] {
        static TABLES: [OnceLock<[Option<char>; 128]>; ReaderLevel::ALL.len()] =
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
    pub fn next_line_break(self, text: &str, from: usize) -> Option<Range<usize>> {
        text[from..].char_indices().find_map(|(i, _)| {
            self.line_break_at(text, from + i)
                .map(|len| from + i..from + i + len)
        })
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
    fn folding_keeps_source_ranges() {
        let folded = Reader::new(Unicode).fold("aﬀ\u{200B}Ｂ");
        let got: Vec<(char, usize, usize)> = folded
            .chars
            .iter()
            .map(|f| (f.ch, f.start, f.end))
            .collect();
        assert_eq!(
            got,
            vec![('a', 0, 1), ('f', 1, 4), ('f', 1, 4), ('b', 7, 10)]
        );
        assert_eq!(folded.source_span(1, 4), 1..10);
        assert_eq!(folded.index_at_byte(4), 3);
        assert!(folded.matches_at(1, &['f', 'f', 'b']));
        assert_eq!(Reader::new(Exact).fold("Ab").chars[0].ch, 'A');
        assert_eq!(Reader::new(Ci).fold_str("Ab"), "ab");
    }

    #[test]
    fn fold_agrees_with_folding_each_character() {
        let text: String = (0u8..128)
            .map(char::from)
            .chain("ﬀÉß\u{200B}Ｂ\u{212A}".chars())
            .collect();
        for reader in Reader::all() {
            let folded: String = reader.fold(&text).chars.iter().map(|f| f.ch).collect();
            assert_eq!(folded, reader.fold_str(&text), "{:?}", reader.level());
        }
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
