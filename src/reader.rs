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
    chars: Chars,
}

/// How a [`Folded`] stores its characters.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Chars {
    /// The text is ASCII and each of its characters folds to exactly one
    /// character, so folded index `i` is source byte `i`, read through the
    /// level's ASCII table: most texts a catalogue run judges are this, and
    /// storing an entry per byte made folding the bulk of a run.
    Ascii(&'static AsciiFoldings),
    /// Any other text: one stored entry per folded character.
    Stored(Vec<Entry>),
}

/// For each ASCII character, its folding when that is one character.
type AsciiFoldings = [Option<char>; 128];

/// A stored folded character: 8 bytes, where a [`FoldedChar`] takes 24.
/// The end of its source character is read from the text's lead byte at
/// `start`, and offsets fit in 32 bits because no text framecheck judges
/// comes near 4 GiB (replies are capped at 64 MiB).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    ch: char,
    start: u32,
}

/// The length in bytes of the UTF-8 character whose first byte is `lead`.
fn utf8_len(lead: u8) -> usize {
    match lead {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

impl Folded<'_> {
    /// Number of folded characters.
    pub fn len(&self) -> usize {
        match &self.chars {
            Chars::Ascii(_) => self.text.len(),
            Chars::Stored(chars) => chars.len(),
        }
    }

    /// True when the reader sees no character at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The folded character at `i` with its source range, if any.
    #[inline]
    pub fn get(&self, i: usize) -> Option<FoldedChar> {
        match &self.chars {
            Chars::Ascii(table) => {
                let byte = *self.text.as_bytes().get(i)?;
                let ch = table[usize::from(byte)].expect("checked when folded");
                Some(FoldedChar {
                    ch,
                    start: i,
                    end: i + 1,
                })
            }
            Chars::Stored(chars) => chars.get(i).map(|e| {
                let start = e.start as usize;
                FoldedChar {
                    ch: e.ch,
                    start,
                    end: start + utf8_len(self.text.as_bytes()[start]),
                }
            }),
        }
    }

    /// The folded character at `i`, which must exist.
    fn at(&self, i: usize) -> FoldedChar {
        self.get(i).expect("folded index in range")
    }

    /// The folded character at `i`, if any.
    #[inline]
    pub fn ch(&self, i: usize) -> Option<char> {
        self.get(i).map(|f| f.ch)
    }

    /// Every folded character, in text order.
    pub fn iter(&self) -> impl Iterator<Item = FoldedChar> + '_ {
        (0..self.len()).map(|i| self.at(i))
    }

    /// The folded indices holding `ch`, in text order. On an ASCII text
    /// where one byte folds to `ch` this is a `memchr` search for it.
    pub fn positions_of(&self, ch: char) -> Box<dyn Iterator<Item = usize> + '_> {
        if let Chars::Ascii(table) = &self.chars {
            let mut bytes = (0u8..128).filter(|&b| table[usize::from(b)] == Some(ch));
            if let (Some(b), None) = (bytes.next(), bytes.next()) {
                return Box::new(memchr::memchr_iter(b, self.text.as_bytes()));
            }
        }
        self.positions_where(move |c| c == ch)
    }

    /// The folded indices whose character satisfies `wanted`, in text
    /// order. On an ASCII text `wanted` is asked once per byte value, and the
    /// scan is a table lookup per byte.
    pub fn positions_where<'a>(
        &'a self,
        wanted: impl Fn(char) -> bool + 'a,
    ) -> Box<dyn Iterator<Item = usize> + 'a> {
        match &self.chars {
            Chars::Ascii(table) => {
                let hit: [bool; 128] = std::array::from_fn(|b| table[b].is_some_and(&wanted));
                Box::new(
                    self.text
                        .bytes()
                        .enumerate()
                        .filter(move |&(_, b)| hit[usize::from(b)])
                        .map(|(i, _)| i),
                )
            }
            Chars::Stored(chars) => Box::new(
                chars
                    .iter()
                    .enumerate()
                    .filter(move |(_, f)| wanted(f.ch))
                    .map(|(i, _)| i),
            ),
        }
    }

    /// Whether the folded characters `needle` occur at position `at`.
    pub fn matches_at(&self, at: usize, needle: &[char]) -> bool {
        self.len() >= at + needle.len()
            && needle
                .iter()
                .enumerate()
                .all(|(k, n)| self.ch(at + k) == Some(*n))
    }

    /// Where `literal`, folded by this text's reader, ends when it occurs at
    /// folded index `at`; `None` when it does not, or folds to nothing. The
    /// literal is folded a character at a time, without allocating for
    /// ASCII, because grammars ask this at every bracket of a text.
    pub fn match_literal(&self, at: usize, literal: &str) -> Option<usize> {
        let ascii = self.reader.ascii_foldings();
        let mut i = at;
        let mut buffer = String::new();
        for c in literal.chars() {
            if let Some(&Some(folded)) = ascii.get(c as usize) {
                if self.ch(i) != Some(folded) {
                    return None;
                }
                i += 1;
                continue;
            }
            buffer.clear();
            self.reader.fold_char_into(c, &mut buffer);
            for folded in buffer.chars() {
                if self.ch(i) != Some(folded) {
                    return None;
                }
                i += 1;
            }
        }
        (i > at).then_some(i)
    }

    /// The index of the first folded character whose source starts at or
    /// after byte `offset`.
    pub fn index_at_byte(&self, offset: usize) -> usize {
        match &self.chars {
            Chars::Ascii(_) => offset.min(self.text.len()),
            Chars::Stored(chars) => chars.partition_point(|e| (e.start as usize) < offset),
        }
    }

    /// The source byte range covered by folded characters `from..to`
    /// (`to` exclusive, non-empty).
    pub fn source_span(&self, from: usize, to: usize) -> Range<usize> {
        self.at(from).start..self.at(to - 1).end
    }

    /// Skips delimiter space from folded index `i`.
    pub fn skip_space(&self, mut i: usize) -> usize {
        while self
            .ch(i)
            .is_some_and(|c| self.reader.is_delimiter_space(c))
        {
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
    /// function as it comes. An ASCII text whose characters each fold to
    /// one character stores nothing but the table (see `Chars::Ascii`).
    pub fn fold(self, text: &str) -> Folded<'_> {
        let ascii = self.ascii_foldings();
        let one_to_one = text
            .bytes()
            .all(|b| ascii.get(usize::from(b)).is_some_and(Option::is_some));
        let chars = if one_to_one {
            Chars::Ascii(ascii)
        } else {
            Chars::Stored(self.fold_stored(text, ascii))
        };
        Folded {
            reader: self,
            text,
            chars,
        }
    }

    /// One entry per folded character of `text`, reserving one per source
    /// character (most characters fold to one).
    fn fold_stored(self, text: &str, ascii: &AsciiFoldings) -> Vec<Entry> {
        assert!(
            u32::try_from(text.len()).is_ok(),
            "framecheck judges texts under 4 GiB"
        );
        let mut chars = Vec::with_capacity(text.chars().count());
        let mut buffer = String::new();
        for (start, c) in text.char_indices() {
            let start = start as u32;
            if let Some(&Some(ch)) = ascii.get(c as usize) {
                chars.push(Entry { ch, start });
                continue;
            }
            buffer.clear();
            self.fold_char_into(c, &mut buffer);
            chars.extend(buffer.chars().map(|ch| Entry { ch, start }));
        }
        chars
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
            let found = match self.level {
                ReaderLevel::Exact | ReaderLevel::AsciiCaseInsensitive => {
                    memchr::memchr2(b'\n', b'\r', &bytes[at..])
                }
                ReaderLevel::Unicode => bytes[at..]
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
        match self.level {
            ReaderLevel::Exact | ReaderLevel::AsciiCaseInsensitive => matches!(byte, b'\n' | b'\r'),
            // U+0085 is C2 85 and U+2028/U+2029 are E2 80 A8/A9 in UTF-8.
            ReaderLevel::Unicode => matches!(byte, b'\n' | b'\r' | 0x0B | 0x0C | 0xC2 | 0xE2),
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

    /// The byte prefilter of `next_line_break` never skips a break: every
    /// character that begins one starts with a byte it tries.
    #[test]
    fn every_line_break_starts_with_a_byte_the_search_tries() {
        let mut buf = [0u8; 4];
        for reader in Reader::all() {
            for c in (0..=0x10FFFF).filter_map(char::from_u32) {
                let text = format!("{c}\n");
                if reader.line_break_at(&text, 0).is_some() {
                    let first = c.encode_utf8(&mut buf).as_bytes()[0];
                    assert!(reader.may_begin_line_break(first), "{c:?} {reader:?}");
                }
            }
            let text = "x\u{00C9}\u{2027}\r\u{0085}y\u{2029}";
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
    fn folding_keeps_source_ranges() {
        let folded = Reader::new(Unicode).fold("aﬀ\u{200B}Ｂ");
        let got: Vec<(char, usize, usize)> =
            folded.iter().map(|f| (f.ch, f.start, f.end)).collect();
        assert_eq!(
            got,
            vec![('a', 0, 1), ('f', 1, 4), ('f', 1, 4), ('b', 7, 10)]
        );
        assert_eq!(folded.source_span(1, 4), 1..10);
        assert_eq!(folded.index_at_byte(4), 3);
        assert!(folded.matches_at(1, &['f', 'f', 'b']));
        assert_eq!(Reader::new(Exact).fold("Ab").ch(0).unwrap(), 'A');
        assert_eq!(Reader::new(Ci).fold_str("Ab"), "ab");
    }

    #[test]
    fn fold_agrees_with_folding_each_character() {
        let text: String = (0u8..128)
            .map(char::from)
            .chain("ﬀÉß\u{200B}Ｂ\u{212A}".chars())
            .collect();
        for reader in Reader::all() {
            let folded: String = reader.fold(&text).iter().map(|f| f.ch).collect();
            assert_eq!(folded, reader.fold_str(&text), "{:?}", reader.level());
        }
    }

    /// The ASCII representation answers every question exactly as the
    /// stored one does, so choosing it is only a matter of speed.
    #[test]
    fn ascii_texts_read_the_same_without_stored_entries() {
        let texts = [
            String::from_iter((0u8..128).map(char::from)),
            "<Tok x=\"1\">\n</TOK >\r\n[tok] < / tok>".to_string(),
            String::new(),
        ];
        for reader in Reader::all() {
            for text in &texts {
                let fast = reader.fold(text);
                assert!(matches!(fast.chars, Chars::Ascii(_)), "{text:?}");
                let stored = Folded {
                    reader,
                    text,
                    chars: Chars::Stored(reader.fold_stored(text, reader.ascii_foldings())),
                };
                assert_eq!(fast.len(), stored.len());
                assert!(fast.iter().eq(stored.iter()));
                for i in 0..=text.len() + 1 {
                    assert_eq!(fast.get(i), stored.get(i));
                    assert_eq!(fast.index_at_byte(i), stored.index_at_byte(i));
                    assert_eq!(fast.skip_space(i), stored.skip_space(i));
                    for literal in ["tok", "TOK", "/", "", "\u{200B}t"] {
                        assert_eq!(
                            fast.match_literal(i, literal),
                            stored.match_literal(i, literal),
                            "{literal:?} at {i}"
                        );
                    }
                }
                for ch in ['<', 't', 'T', '\n', 'é'] {
                    assert!(fast.positions_of(ch).eq(stored.positions_of(ch)), "{ch:?}");
                }
                let punct = |c: char| c.is_ascii_punctuation() || c == 't';
                assert!(fast
                    .positions_where(punct)
                    .eq(stored.positions_where(punct)));
            }
        }
        assert!(matches!(
            Reader::new(Unicode).fold("é").chars,
            Chars::Stored(_)
        ));
    }

    /// Stored entries give each folded character the whole source
    /// character's range, whatever its UTF-8 length.
    #[test]
    fn stored_entries_keep_every_source_range() {
        let text = "a\u{E9}\u{FB00}\u{1D400}\u{200B}\u{7F}\u{10FFFF}";
        for reader in Reader::all() {
            let folded = reader.fold(text);
            assert!(matches!(folded.chars, Chars::Stored(_)));
            for f in folded.iter() {
                let c = text[f.start..].chars().next().unwrap();
                assert_eq!(f.end, f.start + c.len_utf8(), "{c:?} {reader:?}");
            }
        }
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
