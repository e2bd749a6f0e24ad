//! How a folded text is stored and read: [`Folded`].
//!
//! A text is folded once per reader level and shared between the checks, so
//! its storage decides the oracle's memory. Most characters of most texts,
//! in any script, fold to exactly one character, so a folded text is kept
//! in pieces that store nothing for those:
//!
//! - an **ASCII piece** is a run of ASCII bytes that each fold to one
//!   character: folded index `i` of the piece is its byte `i`, read through
//!   the level's ASCII table;
//! - a **mapped piece** is a run of non-ASCII characters of one UTF-8
//!   length that each fold to one character (CJK with its fullwidth
//!   punctuation, runs of emoji or mathematical letters): folded index `i`
//!   is the character at byte `i * length`, read through the text's remap
//!   table. That table holds one pair per distinct character folding to
//!   another (`：` to `:`, `Я` to `я`), so its size is bounded by the
//!   repertoire, not by the text;
//! - a **varied piece** is a short run of such characters of mixed lengths
//!   (Hangul or Cyrillic words and the ASCII spaces between them): folded
//!   index `i` is found by decoding from the piece's start. Characters that
//!   fold to none (ignorables) or to several (ligatures) are held by varied
//!   pieces too, their foldings in the remap table.
//!
//! The pieces tile the text, so piece `k`'s source ends where piece
//! `k + 1` starts. Building is in the `build` module.
//!
//! A wholly ASCII text is one ASCII piece and needs no piece list at all
//! (`Chars::Ascii`). Issue 13 measured what each step saved in peak memory
//! per byte of a case: before pieces, any non-ASCII character made the
//! whole text stored (8 bytes per character per level); before mapped and
//! varied pieces, CJK punctuation and the spaces between Hangul or
//! Cyrillic words cut runs every few characters, and a catalogue run held
//! 9 to 14 bytes per byte of such text; before ignorables and ligatures
//! went into varied pieces, each was a stored entry of 8 bytes that also
//! cut the pieces around it.

use std::ops::Range;

use super::{AsciiFoldings, Reader};

mod build;

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

/// A text as one reader sees it: a sequence of folded characters, each
/// with the range of the source character it came from. A source character
/// that folds to nothing (an ignorable) gives none; one that folds to
/// several (a ligature) gives several with the same range.
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

/// A text in pieces that tile it: piece `k` holds the source characters
/// from its `at` to the next piece's (or the text's end), in text order.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Pieces {
    table: &'static AsciiFoldings,
    pieces: Vec<Piece>,
    /// How each distinct character that does not fold to itself folds
    /// (ASCII ones through `table` excepted), sorted by that character.
    remap: Vec<(char, Folding)>,
    /// Number of folded characters.
    len: usize,
    /// Where the last character [`Pieces::get`] read lies.
    memo: Memo,
}

/// The last character [`Pieces::get`] read: its folded index, the byte its
/// source starts at and the byte after it, when that source folds to it
/// alone. Scans read characters in order (a tag to its end, a run of
/// nonce characters), and the memo makes each step one decode rather than
/// a piece search and a decode from the piece's start. A cache, not
/// content: it takes no part in comparisons.
#[derive(Debug, Clone, Default)]
struct Memo(std::cell::Cell<Option<(usize, usize, usize)>>);

impl PartialEq for Memo {
    fn eq(&self, _: &Memo) -> bool {
        true
    }
}

impl Eq for Memo {}

/// What a character folds to, when that is not itself.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Folding {
    /// One other character (`Ｔ` to `t`).
    One(char),
    /// None (an ignorable) or several (a ligature).
    Many(Box<[char]>),
}

/// Where a piece starts: its first folded index and its first source byte.
/// Offsets fit in 32 bits because no text framecheck judges comes near
/// 4 GiB (replies are capped at 64 MiB).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Piece {
    folded: u32,
    at: u32,
    kind: PieceKind,
}

/// What a piece holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PieceKind {
    /// ASCII bytes each folding to one character, read through the level's
    /// ASCII table: folded offset `i` is byte `i`.
    Ascii,
    /// Non-ASCII characters of this many UTF-8 bytes, each folding to one
    /// character: folded offset `i` is the character at byte `i * width`.
    Mapped(u8),
    /// At most [`VARIED_MAX`] characters of any kind, read by decoding from
    /// the piece's first byte: when `one_to_one`, each folds to one
    /// character, and the piece's `i`-th folded character is its `i`-th
    /// character's; otherwise the foldings are walked (an irregular piece
    /// may even fold to nothing at all).
    Varied { one_to_one: bool },
}

impl PieceKind {
    /// The UTF-8 length of every character of a uniform piece.
    fn width(self) -> Option<usize> {
        match self {
            PieceKind::Ascii => Some(1),
            PieceKind::Mapped(width) => Some(usize::from(width)),
            PieceKind::Varied { .. } => None,
        }
    }
}

/// The fewest characters a uniform (ASCII or mapped) piece keeps once a
/// character of another kind follows it: a shorter one becomes a varied
/// piece and takes that character. Longer runs are worth their direct
/// indexing.
const MIN_UNIFORM: usize = 16;

/// The most characters a varied piece holds, which bounds the decoding a
/// lookup in it does. A piece costs 12 bytes, so any text costs at most
/// about 12 bytes per 32 characters, ligatures and ignorables included.
const VARIED_MAX: usize = 32;

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

/// How the character `c` folds, by `table` for ASCII and `remap` for the
/// rest (a character in neither folds to itself): `Ok` with its one
/// character, `Err` with its characters when it folds to none or several.
fn fold_of<'a>(
    table: &AsciiFoldings,
    remap: &'a [(char, Folding)],
    c: char,
) -> Result<char, &'a [char]> {
    if let Some(&Some(one)) = table.get(c as usize) {
        return Ok(one);
    }
    match remap.binary_search_by_key(&c, |(from, _)| *from) {
        Ok(k) => match &remap[k].1 {
            Folding::One(one) => Ok(*one),
            Folding::Many(chars) => Err(chars),
        },
        Err(_) => Ok(c),
    }
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
            Chars::Pieces(build::build(reader, text, table))
        };
        Folded {
            reader,
            text,
            chars,
        }
    }
}

impl Pieces {
    /// How the character `c` folds (see [`fold_of`]).
    fn fold_of(&self, c: char) -> Result<char, &[char]> {
        fold_of(self.table, &self.remap, c)
    }

    /// The piece holding folded index `i < len`, with its index. An empty
    /// piece (a varied one folding to nothing) shares its first index with
    /// the next piece and is never the last one at or before `i`.
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

    /// The source bytes of piece `k`.
    fn piece_source<'s>(&self, text: &'s str, k: usize) -> &'s str {
        let end = self.pieces.get(k + 1).map_or(text.len(), |p| p.at as usize);
        &text[self.pieces[k].at as usize..end]
    }

    /// The folded characters of piece `k`, each with the source byte its
    /// character starts at.
    fn piece_chars<'a>(
        &'a self,
        text: &'a str,
        k: usize,
    ) -> impl Iterator<Item = (char, usize)> + 'a {
        let at = self.pieces[k].at as usize;
        self.cursor_at_byte(text, at).take(self.piece_len(k))
    }

    /// A cursor on folded index `i < len`.
    fn cursor<'a>(&'a self, text: &'a str, i: usize) -> Cursor<'a> {
        let (_, p) = self.piece_of(i);
        let (offset, at) = (i - p.folded as usize, p.at as usize);
        let mut cursor = self.cursor_at_byte(text, at);
        match p.kind {
            PieceKind::Ascii | PieceKind::Mapped(_) => {
                cursor.byte = at + offset * p.kind.width().expect("uniform");
            }
            PieceKind::Varied { one_to_one: true } => {
                cursor.byte = at
                    + text[at..]
                        .char_indices()
                        .nth(offset)
                        .expect("in the piece")
                        .0;
            }
            PieceKind::Varied { one_to_one: false } => {
                // Walk the foldings; `offset` may fall inside a ligature's.
                for _ in 0..offset {
                    cursor.next();
                }
            }
        }
        cursor
    }

    /// A cursor on folded index `i < len`: from the memo when it holds `i`
    /// or the character before, else from `i`'s piece.
    fn cursor_near<'a>(&'a self, text: &'a str, i: usize) -> Cursor<'a> {
        match self.memo.0.get() {
            Some((last, start, _)) if last == i => self.cursor_at_byte(text, start),
            Some((last, _, after)) if last + 1 == i => self.cursor_at_byte(text, after),
            _ => self.cursor(text, i),
        }
    }

    /// The folded character at `i < len`, with the byte its source starts at.
    fn get(&self, text: &str, i: usize) -> (char, usize) {
        let mut cursor = self.cursor_near(text, i);
        let (ch, start) = cursor.next().expect("i < len");
        self.memo
            .0
            .set(cursor.whole.then_some((i, start, cursor.byte)));
        (ch, start)
    }

    /// A cursor on the first folded character whose source starts at or
    /// after byte `byte`, a character boundary.
    fn cursor_at_byte<'a>(&'a self, text: &'a str, byte: usize) -> Cursor<'a> {
        Cursor {
            table: self.table,
            remap: &self.remap,
            text,
            byte,
            pending: &[],
            pending_start: 0,
            whole: false,
        }
    }

    /// The index of the first folded character whose source starts at or
    /// after byte `offset`.
    fn index_at_byte(&self, text: &str, offset: usize) -> usize {
        // The last piece starting at or before `offset`: the pieces tile
        // the text, so every character before it starts before `offset`.
        let k = self.pieces.partition_point(|p| p.at as usize <= offset);
        let Some(k) = k.checked_sub(1) else {
            return 0;
        };
        let p = self.pieces[k];
        let (at, n) = (p.at as usize, self.piece_len(k));
        let within = match p.kind {
            PieceKind::Ascii | PieceKind::Mapped(_) => {
                let width = p.kind.width().expect("uniform");
                let within = (offset - at).div_ceil(width).min(n);
                if within < n {
                    // The caller reads this character next (a line's
                    // first): leave it in the memo of `get`.
                    let start = at + within * width;
                    let i = p.folded as usize + within;
                    self.memo.0.set(Some((i, start, start + width)));
                }
                within
            }
            PieceKind::Varied { .. } => self
                .piece_chars(text, k)
                .take_while(|&(_, start)| start < offset)
                .count(),
        };
        p.folded as usize + within
    }

    /// The folded indices whose character satisfies `wanted`, piece by
    /// piece: ASCII pieces by a table lookup per byte, or `memchr`.
    ///
    /// Each index yielded is left in the memo of [`Pieces::get`] (when its
    /// character is the whole folding of its source), because a scan's
    /// next step reads that character and the ones after it: without the
    /// memo each would search for its piece again.
    fn positions_where<'a>(
        &'a self,
        text: &'a str,
        wanted: impl Fn(char) -> bool + 'a,
    ) -> impl Iterator<Item = usize> + 'a {
        let hit = hits(self.table, &wanted);
        let few = FewBytes::of(&hit);
        let wanted = std::rc::Rc::new(wanted);
        // A found index, with its source's byte range when it folds to it alone.
        type Found<'a> = Box<dyn Iterator<Item = (usize, Option<(usize, usize)>)> + 'a>;
        (0..self.pieces.len())
            .flat_map(move |k| {
                let wanted = wanted.clone();
                let (folded, at) = (self.pieces[k].folded as usize, self.pieces[k].at as usize);
                let source = self.piece_source(text, k);
                let ascii = move |i: usize| (folded + i, Some((at + i, at + i + 1)));
                let found: Found<'a> = match self.pieces[k].kind {
                    PieceKind::Ascii => match few.find_iter(source.as_bytes()) {
                        Some(found) => Box::new(found.map(ascii)),
                        None => Box::new(
                            source
                                .bytes()
                                .enumerate()
                                .filter(move |&(_, b)| hit[usize::from(b)])
                                .map(move |(i, _)| ascii(i)),
                        ),
                    },
                    PieceKind::Mapped(_) | PieceKind::Varied { one_to_one: true } => Box::new(
                        source
                            .char_indices()
                            .enumerate()
                            .filter(move |&(_, (_, c))| {
                                wanted(self.fold_of(c).expect("a uniform piece folds one to one"))
                            })
                            .map(move |(i, (b, c))| {
                                (folded + i, Some((at + b, at + b + c.len_utf8())))
                            }),
                    ),
                    PieceKind::Varied { one_to_one: false } => Box::new(
                        self.piece_chars(text, k)
                            .enumerate()
                            .filter(move |&(_, (ch, _))| wanted(ch))
                            .map(move |(i, _)| (folded + i, None)),
                    ),
                };
                found
            })
            .map(|(i, whole)| {
                if let Some((start, after)) = whole {
                    self.memo.0.set(Some((i, start, after)));
                }
                i
            })
    }
}

/// The ASCII bytes a scan wants, when there are at most three: an ASCII
/// piece is then searched by `memchr` (a bracket in kilobytes of ordinary
/// text) instead of a table lookup per byte.
#[derive(Clone, Copy)]
enum FewBytes {
    Zero,
    One(u8),
    Two(u8, u8),
    Three(u8, u8, u8),
    Many,
}

impl FewBytes {
    fn of(hit: &[bool; 128]) -> FewBytes {
        let mut bytes = (0u8..128).filter(|&b| hit[usize::from(b)]);
        match (bytes.next(), bytes.next(), bytes.next(), bytes.next()) {
            (None, _, _, _) => FewBytes::Zero,
            (Some(a), None, _, _) => FewBytes::One(a),
            (Some(a), Some(b), None, _) => FewBytes::Two(a, b),
            (Some(a), Some(b), Some(c), None) => FewBytes::Three(a, b, c),
            _ => FewBytes::Many,
        }
    }

    /// The offsets in `haystack` of the wanted bytes, or `None` when more
    /// than three are wanted.
    fn find_iter(self, haystack: &[u8]) -> Option<Box<dyn Iterator<Item = usize> + '_>> {
        Some(match self {
            FewBytes::Zero => Box::new(std::iter::empty()),
            FewBytes::One(a) => Box::new(memchr::memchr_iter(a, haystack)),
            FewBytes::Two(a, b) => Box::new(memchr::memchr2_iter(a, b, haystack)),
            FewBytes::Three(a, b, c) => Box::new(memchr::memchr3_iter(a, b, c, haystack)),
            FewBytes::Many => return None,
        })
    }
}

/// Reads folded characters forward from one index, with the byte each
/// one's source starts at: a scan of `n` characters finds its first piece
/// once and decodes each character once, where `n` calls of
/// [`Folded::get`] would each search its piece and decode within it.
struct Cursor<'a> {
    table: &'a AsciiFoldings,
    remap: &'a [(char, Folding)],
    text: &'a str,
    /// The next source byte to decode: every character folds the same in
    /// whatever piece it is, so pieces need not be followed.
    byte: usize,
    /// The rest of a ligature's folding, and where its source starts.
    pending: &'a [char],
    pending_start: usize,
    /// Whether the last character read is the whole folding of its
    /// source: what `get` may remember it by.
    whole: bool,
}

impl Iterator for Cursor<'_> {
    type Item = (char, usize);

    fn next(&mut self) -> Option<(char, usize)> {
        self.whole = false;
        if let Some((&ch, rest)) = self.pending.split_first() {
            self.pending = rest;
            return Some((ch, self.pending_start));
        }
        self.whole = true;
        loop {
            let start = self.byte;
            let lead = *self.text.as_bytes().get(start)?;
            // One-to-one ASCII, most of most texts, needs no decoding.
            if let Some(&Some(one)) = self.table.get(usize::from(lead)) {
                self.byte += 1;
                return Some((one, start));
            }
            let c = self.text[start..].chars().next()?;
            self.byte += c.len_utf8();
            match fold_of(self.table, self.remap, c) {
                Ok(one) => return Some((one, start)),
                Err(many) => {
                    if let Some((&ch, rest)) = many.split_first() {
                        (self.pending, self.pending_start) = (rest, start);
                        self.whole = false;
                        return Some((ch, start));
                    }
                }
            }
        }
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
        self.iter_from_byte(0)
    }

    /// The folded characters whose source starts at or after byte `byte`
    /// (a character boundary), in text order: a scan that only needs byte
    /// offsets starts here without finding a folded index first.
    pub fn iter_from_byte(&self, byte: usize) -> impl Iterator<Item = FoldedChar> + '_ {
        self.cursor_at_byte(byte).map(|(ch, start)| FoldedChar {
            ch,
            start,
            end: start + utf8_len(self.text.as_bytes()[start]),
        })
    }

    /// The first byte at or after `byte` of an ASCII character that this
    /// reader folds to `ch` alone. ASCII bytes never occur inside another
    /// character's UTF-8, so this is a byte search.
    pub fn next_ascii_folding_to(&self, byte: usize, ch: char) -> Option<usize> {
        let hit = hits(self.reader.ascii_foldings(), |c| c == ch);
        let rest = self.text.as_bytes().get(byte..)?;
        let found = match FewBytes::of(&hit).find_iter(rest) {
            Some(mut found) => found.next(),
            None => rest
                .iter()
                .position(|&b| hit.get(usize::from(b)) == Some(&true)),
        };
        found.map(|k| byte + k)
    }

    /// The folded characters from index `i` on (none when `i >= len`),
    /// each with the byte its source starts at.
    fn forward(&self, i: usize) -> Cursor<'_> {
        match &self.chars {
            Chars::Pieces(pieces) if i < pieces.len => pieces.cursor_near(self.text, i),
            // An ASCII text's folded index is its byte.
            Chars::Ascii(_) => self.cursor_at_byte(i),
            // Past the end of pieces there is nothing left.
            Chars::Pieces(_) => self.cursor_at_byte(self.text.len()),
        }
    }

    /// A cursor on the first folded character whose source starts at or
    /// after byte `byte` (a character boundary; none past the end).
    fn cursor_at_byte(&self, byte: usize) -> Cursor<'_> {
        let byte = byte.min(self.text.len());
        match &self.chars {
            Chars::Pieces(pieces) => pieces.cursor_at_byte(self.text, byte),
            Chars::Ascii(table) => Cursor {
                table,
                remap: &[],
                text: self.text,
                byte,
                pending: &[],
                pending_start: 0,
                whole: false,
            },
        }
    }

    /// The folded indices holding `ch`, in text order.
    pub fn positions_of(&self, ch: char) -> Box<dyn Iterator<Item = usize> + '_> {
        self.positions_where(move |c| c == ch)
    }

    /// The folded indices whose character satisfies `wanted`, in text
    /// order. On ASCII text `wanted` is asked once per byte value, and the
    /// scan is a `memchr` search when one to three bytes are wanted, else a
    /// table lookup per byte.
    pub fn positions_where<'a>(
        &'a self,
        wanted: impl Fn(char) -> bool + 'a,
    ) -> Box<dyn Iterator<Item = usize> + 'a> {
        match &self.chars {
            Chars::Ascii(table) => {
                let hit = hits(table, &wanted);
                let bytes = self.text.as_bytes();
                FewBytes::of(&hit).find_iter(bytes).unwrap_or_else(|| {
                    Box::new(
                        bytes
                            .iter()
                            .enumerate()
                            .filter(move |&(_, &b)| hit[usize::from(b)])
                            .map(|(i, _)| i),
                    )
                })
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
        let mut text = self.forward(at).map(|(ch, _)| ch);
        let mut i = at;
        let mut buffer = String::new();
        for c in literal.chars() {
            if let Some(&Some(folded)) = ascii.get(c as usize) {
                if text.next() != Some(folded) {
                    return None;
                }
                i += 1;
                continue;
            }
            buffer.clear();
            self.reader.fold_char_into(c, &mut buffer);
            for folded in buffer.chars() {
                if text.next() != Some(folded) {
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
            Chars::Pieces(pieces) => pieces.index_at_byte(self.text, offset),
        }
    }

    /// The source byte range covered by folded characters `from..to`
    /// (`to` exclusive, non-empty).
    pub fn source_span(&self, from: usize, to: usize) -> Range<usize> {
        self.at(from).start..self.at(to - 1).end
    }

    /// [`Folded::source_span`] of a folded `(from, to)` pair, as a pair: a
    /// delimiter's nonce or kind, which [`Folded::value`] reads back.
    pub fn source_pair(&self, (from, to): (usize, usize)) -> (usize, usize) {
        let span = self.source_span(from, to);
        (span.start, span.end)
    }

    /// The source text at `(start, end)` as this reader folds it: the
    /// value a delimiter's nonce or kind carries.
    pub fn value(&self, (start, end): (usize, usize)) -> String {
        self.reader.fold_str(&self.text[start..end])
    }

    /// Skips delimiter space from folded index `i`.
    pub fn skip_space(&self, i: usize) -> usize {
        let space = |&(c, _): &(char, usize)| self.reader.is_delimiter_space(c);
        i + self.forward(i).take_while(space).count()
    }

    /// Skips the spacing a one-line marker may hold from folded index `i`
    /// (see [`Reader::is_marker_space`]).
    pub fn skip_marker_space(&self, i: usize) -> usize {
        let space = |&(c, _): &(char, usize)| self.reader.is_marker_space(c);
        i + self.forward(i).take_while(space).count()
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
            // Again, as scans ask (`get` remembers the last character).
            assert_eq!(folded.get(i), want.get(i).copied(), "{text:?} again at {i}");
            let rest = chars.get(i..).unwrap_or_default();
            assert!(
                folded.forward(i).map(|(ch, _)| ch).eq(rest.iter().copied()),
                "{text:?} from {i}"
            );
            let spaces = chars[i.min(chars.len())..]
                .iter()
                .take_while(|&&c| reader.is_delimiter_space(c))
                .count();
            assert_eq!(folded.skip_space(i), i + spaces, "{text:?} at {i}");
            let inline = chars[i.min(chars.len())..]
                .iter()
                .take_while(|&&c| reader.is_marker_space(c))
                .count();
            assert_eq!(folded.skip_marker_space(i), i + inline, "{text:?} at {i}");
            for literal in ["tok", "TOK", "/", "", "\u{200B}t", "\u{FB00}b", "中 "] {
                let mut needle = String::new();
                literal
                    .chars()
                    .for_each(|c| reader.fold_char_into(c, &mut needle));
                let needle: Vec<char> = needle.chars().collect();
                let at_end = i + needle.len();
                let occurs = chars.get(i..at_end) == Some(&needle[..]);
                assert_eq!(folded.matches_at(i, &needle), occurs, "{literal:?} at {i}");
                let expected = (!needle.is_empty() && occurs).then_some(at_end);
                assert_eq!(
                    folded.match_literal(i, literal),
                    expected,
                    "{literal:?} at {i}"
                );
            }
        }
        assert_scans_as_spec(folded, &want);
    }

    /// `folded`'s searches (by byte offset, by character) find what the
    /// specification `want` holds, and leave in the memo what reads back
    /// as specified.
    fn assert_scans_as_spec(folded: &Folded<'_>, want: &[FoldedChar]) {
        let text = folded.text;
        let chars: Vec<char> = want.iter().map(|f| f.ch).collect();
        for offset in 0..=text.len() + 1 {
            let first = want.iter().position(|f| f.start >= offset);
            let index = folded.index_at_byte(offset);
            assert_eq!(
                index,
                first.unwrap_or(want.len()),
                "{text:?} at byte {offset}"
            );
            // What the search leaves in the memo reads back as specified,
            // the next character first (read from the memo's end).
            for i in [index + 1, index] {
                assert_eq!(folded.get(i), want.get(i).copied(), "{text:?} at {i}");
                folded.index_at_byte(offset);
            }
        }
        for ch in ['<', 't', 'T', '\n', 'é', 'f', '中'] {
            let expected = (0..chars.len()).filter(|&i| chars[i] == ch);
            assert!(folded.positions_of(ch).eq(expected), "{ch:?} in {text:?}");
            for i in folded.positions_of(ch) {
                // The next character first: read from the memo's end.
                let next = [i + 1, i].map(|i| folded.get(i));
                assert_eq!(
                    next,
                    [i + 1, i].map(|i| want.get(i).copied()),
                    "{text:?} at {i}"
                );
            }
        }
        let punct = |c: char| c.is_ascii_punctuation() || c == 't' || !c.is_ascii();
        let expected = (0..chars.len()).filter(|&i| punct(chars[i]));
        assert!(folded.positions_where(punct).eq(expected), "{text:?}");
        // One to three wanted ASCII bytes are searched by `memchr`.
        for few in ["<", "</", "</\"", "</\"x"] {
            let wanted = |c: char| few.contains(c);
            let expected = (0..chars.len()).filter(|&i| wanted(chars[i]));
            assert!(
                folded.positions_where(wanted).eq(expected),
                "{few:?} in {text:?}"
            );
        }
    }

    fn long(ascii: &str) -> String {
        ascii.repeat(MIN_UNIFORM)
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
    /// ones between other characters, ignorables (no folded character)
    /// at a piece's edge, ligatures, every UTF-8 length, a text that folds
    /// to nothing.
    #[test]
    fn mixed_texts_read_as_specified() {
        let texts = [
            format!("{}\u{200B}{}", long("<tok> "), long("t/")),
            format!("\u{200B}{}\u{200B}", long("ab")),
            format!("é{}ﬀ{}\u{1D400}", long("x"), long("</Tok>")),
            "中文 tok，中文 <tok>\n中".repeat(3),
            "\u{200B}\u{200B}".to_string(),
            "a\u{E9}\u{FB00}\u{1D400}\u{200B}\u{7F}\u{10FFFF}".to_string(),
            format!("{}Ｔ{}", long("t"), "ok".repeat(MIN_UNIFORM / 2 - 1)),
            // Runs folding to themselves, of every UTF-8 length, broken by
            // a length change, a character that folds to something else,
            // an ignorable and ASCII.
            "中文字éèà中\u{1F600}\u{1F680}Ｔ中文\u{200B}中文 x中文字".repeat(2),
            "ééÉé\u{5D0}\u{5D1}\u{10FFFF}\u{10FFFE}中".to_string(),
            // Runs folding to other characters, alone and mixed with runs
            // folding to themselves; a line feed between two mapped runs.
            "ＴＯＫ：中，文。\n中文ÉÈé\nＡ\n\u{1D400}\u{1D401}中".repeat(2),
            // Varied pieces: words of mixed lengths, longer than one piece
            // holds, cut by an ignorable and a ligature; uniform runs one
            // short of and at the length that stays uniform.
            "Отчёт за квартал: задержки в ТРЁХ регионах. 서울 지사 보고서".repeat(3),
            format!("한글 {}\u{200B}ab ﬀ 가나", "Ü".repeat(40)),
            format!(
                "{}é{}é中",
                "x".repeat(MIN_UNIFORM - 1),
                "y".repeat(MIN_UNIFORM)
            ),
            format!(
                "{}x{}x",
                "中".repeat(MIN_UNIFORM - 1),
                "文".repeat(MIN_UNIFORM)
            ),
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

    /// The pieces `reader` keeps for `text`, and the size of its remap
    /// table; no varied piece is longer than allowed.
    fn storage(text: &str, reader: Reader) -> (usize, usize) {
        let Chars::Pieces(pieces) = reader.fold(text).chars else {
            panic!("a non-ASCII text is kept in pieces");
        };
        // What bounds a lookup's decoding.
        for k in 0..pieces.pieces.len() {
            if let PieceKind::Varied { .. } = pieces.pieces[k].kind {
                let n = pieces.piece_source(text, k).chars().count();
                assert!(n <= VARIED_MAX, "a varied piece of {n} characters");
            }
        }
        (pieces.pieces.len(), pieces.remap.len())
    }

    /// A log with one zero-width space per line keeps about two pieces per
    /// line, not a stored character per character.
    #[test]
    fn mostly_ascii_text_stores_little() {
        let line = "Row\u{200B} of ordinary log output: request ok, 200 <ok>\n";
        let text = line.repeat(1000);
        for reader in Reader::all() {
            let (pieces, remap) = storage(&text, reader);
            assert!(pieces <= 2 * 1000 + 1, "{pieces}");
            assert!(remap <= 1, "{remap}");
        }
    }

    /// CJK text, whose characters fold to one character each (fullwidth
    /// punctuation to ASCII at the Unicode level), keeps two pieces per
    /// line: not a piece per comma. The remap table holds each fullwidth
    /// mark once.
    #[test]
    fn text_folding_to_one_character_stores_little() {
        let line = "四半期報告書には：三つの地域、出荷遅延が，記載されている。\n";
        let text = line.repeat(1000);
        for reader in Reader::all() {
            let (pieces, remap) = storage(&text, reader);
            assert!(pieces <= 2 * 1000, "{pieces}");
            assert!(remap <= 4, "{remap}");
            assert_reads_as_spec(&reader.fold(&line.repeat(3)));
        }
        let Chars::Pieces(unicode) = Reader::new(Unicode).fold(&text).chars else {
            panic!("a non-ASCII text is kept in pieces");
        };
        let colon = unicode.remap.iter().find(|(c, _)| *c == '：');
        assert_eq!(colon, Some(&('：', Folding::One(':'))));
    }

    /// Words of Hangul or Cyrillic between ASCII spaces, text dense in
    /// ligatures and ignorables, and a zero-width space between every two
    /// letters keep about one piece per 32 characters: not a piece per
    /// word, per space or per ignorable.
    #[test]
    fn any_text_stores_a_piece_per_few_dozen_characters() {
        for line in [
            "서울 지사의 분기 보고서에는 세 지역의 출하 지연이 기록되어 있다.\n",
            "Привет, мир! Отчёт за квартал: задержки в трёх регионах.\n",
            "Ünïcödé àccents — “quoted” text… and «more» ½ ﬁ ß ﬀ\n",
            "t\u{200B}o\u{200B}k\u{200B}e\u{200B}n\u{AD}-\u{200D}x\n",
        ] {
            let text = line.repeat(1000);
            let chars = text.chars().count();
            for reader in Reader::all() {
                let (pieces, remap) = storage(&text, reader);
                assert!(pieces <= chars / VARIED_MAX + 1000, "{pieces} for {line:?}");
                assert!(remap <= line.chars().count(), "{remap} for {line:?}");
                assert_reads_as_spec(&reader.fold(&line.repeat(2)));
            }
        }
    }

    /// Varied pieces say whether every character folds to one: only those
    /// holding an ignorable or a ligature take the slow walk.
    #[test]
    fn varied_pieces_know_when_they_fold_one_to_one() {
        let kinds = |text: &str| {
            let Chars::Pieces(pieces) = Reader::new(Unicode).fold(text).chars else {
                panic!("a non-ASCII text is kept in pieces");
            };
            pieces.pieces.iter().map(|p| p.kind).collect::<Vec<_>>()
        };
        let (regular, irregular) = (
            PieceKind::Varied { one_to_one: true },
            PieceKind::Varied { one_to_one: false },
        );
        assert_eq!(kinds("한글 가나"), [regular]);
        assert_eq!(kinds("한글 \u{200B}가나"), [irregular]);
        assert_eq!(kinds("한글 ﬀ"), [irregular]);
        // A full piece stays as it was; the ignorable after it starts one.
        let full = format!("{}\u{200B}", "가 ".repeat(VARIED_MAX / 2));
        assert_eq!(kinds(&full), [regular, irregular]);
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
                Just("ＴＯＫ".to_string()),
                Just("中：文，".to_string()),
                Just("ÉÈé".to_string()),
                Just("Я и ты".to_string()),
                Just("한글 가".to_string()),
                Just("\u{1D400}".to_string()),
                Just("\u{7F}".to_string()),
                Just("\u{200B}".repeat(VARIED_MAX + 1)),
                Just("ﬀ½…ß".to_string()),
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
