//! How a folded text is stored and read: [`Folded`].
//!
//! A text is folded once per reader level and shared between the checks, so
//! its storage decides the oracle's memory. Most texts framecheck judges are
//! ASCII, or nearly: prose with a curly quote, a log with a zero-width
//! space per line. So a folded text is kept in pieces:
//!
//! - an **ASCII piece** is a run of ASCII bytes that each fold to exactly
//!   one character; it stores nothing, folded index `i` of the piece being
//!   its byte `i`, read through the level's ASCII table;
//! - a **same piece** is a run of non-ASCII characters of one UTF-8
//!   length that each fold to themselves (most CJK, Hangul, Arabic or
//!   accented lower-case text); it stores nothing either, folded index `i`
//!   of the piece being the character at byte `i * length`;
//! - a **stored piece** keeps one 8-byte [`Entry`] per folded character:
//!   the characters that fold to something else than themselves, and runs
//!   too short to be worth a piece of their own.
//!
//! A wholly ASCII text is one ASCII piece and needs no piece list at all
//! (`Chars::Ascii`). Before pieces, any non-ASCII character made the whole
//! text stored: 8 bytes per character per level, 24 bytes per byte of a
//! log with one zero-width space per line (issue 13, peak memory).

use std::ops::Range;

use super::{AsciiFoldings, Reader};

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
    /// The whole text is one ASCII piece: folded index `i` is byte `i`.
    Ascii(&'static AsciiFoldings),
    /// Any other text, in pieces.
    Pieces(Pieces),
}

/// A text in ASCII and stored pieces, in text order. No piece is empty.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Pieces {
    table: &'static AsciiFoldings,
    pieces: Vec<Piece>,
    entries: Vec<Entry>,
    /// Number of folded characters.
    len: usize,
}

/// Where a piece starts: its first folded index, and its first source byte
/// (an ASCII or same piece) or its first entry (a stored one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Piece {
    folded: u32,
    at: u32,
    kind: PieceKind,
}

/// What a piece holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PieceKind {
    /// One-to-one ASCII bytes, read through the level's ASCII table.
    Ascii,
    /// Non-ASCII characters of this many UTF-8 bytes, each its own folding.
    Same(u8),
    /// Entries.
    Stored,
}

/// A stored folded character: 8 bytes, where a [`FoldedChar`] takes 24.
/// The end of its source character is read from the text's lead byte at
/// `start`, and offsets fit in 32 bits because no text framecheck judges
/// comes near 4 GiB (replies are capped at 64 MiB).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    ch: char,
    start: u32,
}

/// The shortest ASCII run given a piece of its own: a piece costs 12 bytes
/// and a lookup step, a stored ASCII character 8 bytes, so shorter runs
/// (the spaces and punctuation between CJK words) stay in their stored
/// piece.
const MIN_ASCII_PIECE: usize = 16;

/// The shortest run of characters folding to themselves given a piece of
/// its own: two stored characters cost more than a piece.
const MIN_SAME_PIECE: usize = 2;

/// The length in bytes of the UTF-8 character whose first byte is `lead`.
fn utf8_len(lead: u8) -> usize {
    match lead {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

/// Whether the byte `b` is ASCII and folds to exactly one character: what
/// an ASCII piece (or a wholly ASCII text) is made of.
fn one_to_one(table: &AsciiFoldings, b: u8) -> bool {
    table.get(usize::from(b)).is_some_and(Option::is_some)
}

/// For each ASCII byte, whether its one-character folding satisfies
/// `wanted`: an ASCII scan then asks `wanted` once per byte value.
fn hits(table: &AsciiFoldings, wanted: impl Fn(char) -> bool) -> [bool; 128] {
    std::array::from_fn(|b| table[b].is_some_and(&wanted))
}

impl<'t> Folded<'t> {
    /// Folds `text` for `reader`, whose ASCII table is `table`.
    pub(super) fn new(reader: Reader, text: &'t str, table: &'static AsciiFoldings) -> Folded<'t> {
        assert!(
            u32::try_from(text.len()).is_ok(),
            "framecheck judges texts under 4 GiB"
        );
        let chars = if text.bytes().all(|b| one_to_one(table, b)) {
            Chars::Ascii(table)
        } else {
            Chars::Pieces(Pieces::build(reader, text, table))
        };
        Folded {
            reader,
            text,
            chars,
        }
    }
}

impl Pieces {
    /// Splits `text` into pieces: ASCII runs of at least
    /// [`MIN_ASCII_PIECE`] one-to-one bytes, and stored pieces between them.
    fn build(reader: Reader, text: &str, table: &'static AsciiFoldings) -> Pieces {
        let bytes = text.as_bytes();
        let mut out = Pieces {
            table,
            pieces: Vec::new(),
            entries: Vec::new(),
            len: 0,
        };
        let mut buffer = String::new();
        let mut at = 0;
        while at < bytes.len() {
            let run = bytes[at..]
                .iter()
                .take_while(|&&b| one_to_one(table, b))
                .count();
            if run >= MIN_ASCII_PIECE {
                out.open(PieceKind::Ascii, at as u32);
                out.len += run;
                at += run;
                continue;
            }
            for &b in &bytes[at..at + run] {
                let ch = table[usize::from(b)].expect("one-to-one byte");
                out.store(ch, at as u32);
                at += 1;
            }
            if at < bytes.len() {
                at = out.fold_non_ascii(reader, text, at, &mut buffer);
            }
        }
        // Kept for the whole judgement of a case: no growth slack.
        out.pieces.shrink_to_fit();
        out.entries.shrink_to_fit();
        out
    }

    /// Folds the character at byte `at` of `text` (not a one-to-one ASCII
    /// byte), and the run of characters after it that, like it, fold to
    /// themselves and have its UTF-8 length; returns where it stopped.
    fn fold_non_ascii(
        &mut self,
        reader: Reader,
        text: &str,
        at: usize,
        buffer: &mut String,
    ) -> usize {
        let folds_to_itself = |c: char, buffer: &mut String| {
            buffer.clear();
            reader.fold_char_into(c, buffer);
            let mut folded = buffer.chars();
            !c.is_ascii() && folded.next() == Some(c) && folded.next().is_none()
        };
        let first = text[at..].chars().next().expect("at is inside the text");
        if !folds_to_itself(first, buffer) {
            for ch in buffer.chars() {
                self.store(ch, at as u32);
            }
            return at + first.len_utf8();
        }
        let width = first.len_utf8();
        let run = 1 + text[at + width..]
            .chars()
            .take_while(|&c| c.len_utf8() == width && folds_to_itself(c, buffer))
            .count();
        if run < MIN_SAME_PIECE {
            self.store(first, at as u32);
            return at + width;
        }
        self.open(PieceKind::Same(width as u8), at as u32);
        self.len += run;
        at + run * width
    }

    /// Starts a piece at the current folded index, unless the last piece is
    /// a stored one and a stored piece is wanted.
    fn open(&mut self, kind: PieceKind, at: u32) {
        let continues =
            kind == PieceKind::Stored && self.pieces.last().is_some_and(|p| p.kind == kind);
        if !continues {
            self.pieces.push(Piece {
                folded: self.len as u32,
                at,
                kind,
            });
        }
    }

    /// Appends one stored folded character.
    fn store(&mut self, ch: char, start: u32) {
        self.open(PieceKind::Stored, self.entries.len() as u32);
        self.entries.push(Entry { ch, start });
        self.len += 1;
    }

    /// The piece holding folded index `i < len`, with its index.
    fn piece_of(&self, i: usize) -> (usize, Piece) {
        let k = self.pieces.partition_point(|p| p.folded as usize <= i) - 1;
        (k, self.pieces[k])
    }

    /// Number of folded characters in piece `k`.
    fn piece_len(&self, k: usize) -> usize {
        let end = self
            .pieces
            .get(k + 1)
            .map_or(self.len, |p| p.folded as usize);
        end - self.pieces[k].folded as usize
    }

    /// Source start of the `offset`-th folded character of piece `p`.
    fn start_in(&self, p: Piece, offset: usize) -> usize {
        match p.kind {
            PieceKind::Ascii => p.at as usize + offset,
            PieceKind::Same(width) => p.at as usize + offset * usize::from(width),
            PieceKind::Stored => self.entries[p.at as usize + offset].start as usize,
        }
    }

    /// The folded character at `i < len`, with the byte its source starts at.
    fn get(&self, text: &str, i: usize) -> (char, usize) {
        let (_, p) = self.piece_of(i);
        let offset = i - p.folded as usize;
        match p.kind {
            PieceKind::Ascii => {
                let byte = p.at as usize + offset;
                let ch = self.table[usize::from(text.as_bytes()[byte])];
                (ch.expect("checked when folded"), byte)
            }
            PieceKind::Same(_) => {
                let byte = self.start_in(p, offset);
                let ch = text[byte..].chars().next();
                (ch.expect("checked when folded"), byte)
            }
            PieceKind::Stored => {
                let e = self.entries[p.at as usize + offset];
                (e.ch, e.start as usize)
            }
        }
    }

    /// The index of the first folded character whose source starts at or
    /// after byte `offset`.
    fn index_at_byte(&self, offset: usize) -> usize {
        // The first piece whose last character starts at or after `offset`.
        let last_start = |k: usize| self.start_in(self.pieces[k], self.piece_len(k) - 1);
        let (mut k, mut end) = (0, self.pieces.len());
        while k < end {
            let mid = (k + end) / 2;
            match last_start(mid) < offset {
                true => k = mid + 1,
                false => end = mid,
            }
        }
        let Some(&p) = self.pieces.get(k) else {
            return self.len;
        };
        let within = match p.kind {
            PieceKind::Ascii => offset.saturating_sub(p.at as usize),
            PieceKind::Same(width) => offset
                .saturating_sub(p.at as usize)
                .div_ceil(usize::from(width)),
            PieceKind::Stored => {
                let stored = &self.entries[p.at as usize..p.at as usize + self.piece_len(k)];
                stored.partition_point(|e| (e.start as usize) < offset)
            }
        };
        p.folded as usize + within
    }

    /// The folded indices whose character satisfies `wanted`, piece by
    /// piece: ASCII pieces by a table lookup per byte.
    fn positions_where<'a>(
        &'a self,
        text: &'a str,
        wanted: impl Fn(char) -> bool + 'a,
    ) -> impl Iterator<Item = usize> + 'a {
        let hit = hits(self.table, &wanted);
        let wanted = std::rc::Rc::new(wanted);
        (0..self.pieces.len()).flat_map(move |k| {
            let wanted = wanted.clone();
            let p = self.pieces[k];
            let (folded, at, n) = (p.folded as usize, p.at as usize, self.piece_len(k));
            let found: Box<dyn Iterator<Item = usize> + 'a> = match p.kind {
                PieceKind::Ascii => Box::new(
                    text.as_bytes()[at..at + n]
                        .iter()
                        .enumerate()
                        .filter(move |&(_, &b)| hit[usize::from(b)])
                        .map(move |(i, _)| folded + i),
                ),
                PieceKind::Same(width) => Box::new(
                    text[at..at + n * usize::from(width)]
                        .chars()
                        .enumerate()
                        .filter(move |&(_, c)| wanted(c))
                        .map(move |(i, _)| folded + i),
                ),
                PieceKind::Stored => Box::new(
                    self.entries[at..at + n]
                        .iter()
                        .enumerate()
                        .filter(move |(_, e)| wanted(e.ch))
                        .map(move |(i, _)| folded + i),
                ),
            };
            found
        })
    }
}

impl Folded<'_> {
    /// Number of folded characters.
    pub fn len(&self) -> usize {
        match &self.chars {
            Chars::Ascii(_) => self.text.len(),
            Chars::Pieces(pieces) => pieces.len,
        }
    }

    /// True when the reader sees no character at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The folded character at `i` with its source range, if any.
    #[inline]
    pub fn get(&self, i: usize) -> Option<FoldedChar> {
        let (ch, start) = match &self.chars {
            Chars::Ascii(table) => {
                let byte = *self.text.as_bytes().get(i)?;
                (table[usize::from(byte)].expect("checked when folded"), i)
            }
            Chars::Pieces(pieces) if i < pieces.len => pieces.get(self.text, i),
            Chars::Pieces(_) => return None,
        };
        let end = start + utf8_len(self.text.as_bytes()[start]);
        Some(FoldedChar { ch, start, end })
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
    /// order. On ASCII text `wanted` is asked once per byte value, and the
    /// scan is a table lookup per byte.
    pub fn positions_where<'a>(
        &'a self,
        wanted: impl Fn(char) -> bool + 'a,
    ) -> Box<dyn Iterator<Item = usize> + 'a> {
        match &self.chars {
            Chars::Ascii(table) => {
                let hit = hits(table, &wanted);
                Box::new(
                    self.text
                        .bytes()
                        .enumerate()
                        .filter(move |&(_, b)| hit[usize::from(b)])
                        .map(|(i, _)| i),
                )
            }
            Chars::Pieces(pieces) => Box::new(pieces.positions_where(self.text, wanted)),
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
            Chars::Pieces(pieces) => pieces.index_at_byte(offset),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::ReaderLevel::{self, AsciiCaseInsensitive as Ci, Exact, Unicode};
    use proptest::prelude::*;

    /// The specification: each source character folded on its own, in
    /// text order, with its whole source range.
    fn spec(reader: Reader, text: &str) -> Vec<FoldedChar> {
        let mut out = Vec::new();
        for (start, c) in text.char_indices() {
            let mut folded = String::new();
            reader.fold_char_into(c, &mut folded);
            let end = start + c.len_utf8();
            out.extend(folded.chars().map(|ch| FoldedChar { ch, start, end }));
        }
        out
    }

    /// `folded` answers every question as the specification does.
    fn assert_reads_as_spec(folded: &Folded<'_>) {
        let (reader, text) = (folded.reader, folded.text);
        let want = spec(reader, text);
        let chars: Vec<char> = want.iter().map(|f| f.ch).collect();
        assert_eq!(folded.len(), want.len(), "{text:?}");
        assert!(folded.iter().eq(want.iter().copied()), "{text:?}");
        for i in 0..=want.len() + 1 {
            assert_eq!(folded.get(i), want.get(i).copied(), "{text:?} at {i}");
            let spaces = chars[i.min(chars.len())..]
                .iter()
                .take_while(|&&c| reader.is_delimiter_space(c))
                .count();
            assert_eq!(folded.skip_space(i), i + spaces, "{text:?} at {i}");
            for literal in ["tok", "TOK", "/", "", "\u{200B}t", "\u{FB00}b", "中 "] {
                let mut needle = String::new();
                literal
                    .chars()
                    .for_each(|c| reader.fold_char_into(c, &mut needle));
                let needle: Vec<char> = needle.chars().collect();
                let at_end = i + needle.len();
                let expected = (!needle.is_empty() && chars.get(i..at_end) == Some(&needle[..]))
                    .then_some(at_end);
                assert_eq!(
                    folded.match_literal(i, literal),
                    expected,
                    "{literal:?} at {i}"
                );
            }
        }
        for offset in 0..=text.len() + 1 {
            let first = want.iter().position(|f| f.start >= offset);
            assert_eq!(
                folded.index_at_byte(offset),
                first.unwrap_or(want.len()),
                "{text:?} at byte {offset}"
            );
        }
        for ch in ['<', 't', 'T', '\n', 'é', 'f', '中'] {
            let expected = (0..chars.len()).filter(|&i| chars[i] == ch);
            assert!(folded.positions_of(ch).eq(expected), "{ch:?} in {text:?}");
        }
        let punct = |c: char| c.is_ascii_punctuation() || c == 't' || !c.is_ascii();
        let expected = (0..chars.len()).filter(|&i| punct(chars[i]));
        assert!(folded.positions_where(punct).eq(expected), "{text:?}");
    }

    fn long(ascii: &str) -> String {
        ascii.repeat(MIN_ASCII_PIECE)
    }

    #[test]
    fn ascii_texts_store_nothing_and_read_as_specified() {
        let texts = [
            String::from_iter((0u8..128).map(char::from)),
            "<Tok x=\"1\">\n</TOK >\r\n[tok] < / tok>".to_string(),
            String::new(),
        ];
        for reader in Reader::all() {
            for text in &texts {
                let folded = reader.fold(text);
                if text
                    .bytes()
                    .all(|b| reader.ascii_foldings()[usize::from(b)].is_some())
                {
                    assert!(matches!(folded.chars, Chars::Ascii(_)), "{text:?}");
                }
                assert_reads_as_spec(&folded);
            }
        }
    }

    /// Pieces of every kind, at every boundary: long ASCII runs, short
    /// ones between other characters, ignorables (no entry) at a piece's
    /// edge, ligatures, every UTF-8 length, a text that folds to nothing.
    #[test]
    fn mixed_texts_read_as_specified() {
        let texts = [
            format!("{}\u{200B}{}", long("<tok> "), long("t/")),
            format!("\u{200B}{}\u{200B}", long("ab")),
            format!("é{}ﬀ{}\u{1D400}", long("x"), long("</Tok>")),
            "中文 tok，中文 <tok>\n中".repeat(3),
            "\u{200B}\u{200B}".to_string(),
            "a\u{E9}\u{FB00}\u{1D400}\u{200B}\u{7F}\u{10FFFF}".to_string(),
            format!("{}Ｔ{}", long("t"), "ok".repeat(MIN_ASCII_PIECE / 2 - 1)),
            // Runs folding to themselves, of every UTF-8 length, broken by
            // a length change, a character that folds to something else,
            // an ignorable and ASCII.
            "中文字éèà中\u{1F600}\u{1F680}Ｔ中文\u{200B}中文 x中文字".repeat(2),
            "ééÉé\u{5D0}\u{5D1}\u{10FFFF}\u{10FFFE}中".to_string(),
        ];
        for reader in Reader::all() {
            for text in &texts {
                assert_reads_as_spec(&reader.fold(text));
            }
        }
        assert!(matches!(
            Reader::new(Unicode).fold("é").chars,
            Chars::Pieces(_)
        ));
    }

    /// A log with one zero-width space per line keeps about one entry per
    /// line, not one per character.
    #[test]
    fn mostly_ascii_text_stores_little() {
        let line = "Row\u{200B} of ordinary log output: request ok, 200 <ok>\n";
        let text = line.repeat(1000);
        for reader in Reader::all() {
            let Chars::Pieces(pieces) = reader.fold(&text).chars else {
                panic!("a non-ASCII text is kept in pieces");
            };
            assert!(pieces.entries.len() <= 1000 + 3, "{}", pieces.entries.len());
            assert!(
                pieces.pieces.len() <= 2 * 1000 + 1,
                "{}",
                pieces.pieces.len()
            );
        }
    }

    /// CJK text, whose characters fold to themselves, keeps about a piece
    /// and an entry per line, not an entry per character.
    #[test]
    fn text_folding_to_itself_stores_little() {
        let line = "四半期報告書には三つの地域での出荷遅延が記載されている。\n";
        let text = line.repeat(1000);
        for reader in Reader::all() {
            let Chars::Pieces(pieces) = reader.fold(&text).chars else {
                panic!("a non-ASCII text is kept in pieces");
            };
            assert!(pieces.entries.len() <= 1000, "{}", pieces.entries.len());
            assert!(pieces.pieces.len() <= 2 * 1000, "{}", pieces.pieces.len());
            assert_reads_as_spec(&reader.fold(&line.repeat(3)));
        }
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

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Random mixes of long and short ASCII runs and other characters
        /// read as specified at every level.
        #[test]
        fn any_text_reads_as_specified(parts in proptest::collection::vec(
            prop_oneof![
                "[a-zA-Z </>\n\t]{0,40}",
                Just("\u{200B}".to_string()),
                Just("ﬀ".to_string()),
                Just("é".to_string()),
                Just("中".to_string()),
                Just("中文字".to_string()),
                Just("éè".to_string()),
                Just("\u{1F600}\u{1F680}".to_string()),
                Just("Ｔ".to_string()),
                Just("\u{1D400}".to_string()),
                Just("\u{7F}".to_string()),
            ],
            0..12,
        )) {
            let text = parts.concat();
            for level in ReaderLevel::ALL {
                assert_reads_as_spec(&Reader::new(level).fold(&text));
            }
        }
    }
}
