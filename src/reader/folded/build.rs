//! How a text is split into pieces: the one place that decides what a
//! [`Pieces`] stores.
//!
//! Characters are taken in text order. Each folds to one character, to
//! several, or to none:
//!
//! - one character: it joins the last piece when that piece can take it
//!   (see [`Builder::grow_last`]), or starts a piece of its UTF-8 length;
//! - several (a ligature) or none (an ignorable): they are stored, and the
//!   last piece can grow no more, since a piece's characters must be
//!   contiguous in the text for its indices to be computed.

use std::collections::BTreeMap;

use super::{
    one_to_one, single_folding, AsciiFoldings, Entry, Piece, PieceKind, Pieces, MIN_UNIFORM,
    VARIED_MAX,
};
use crate::reader::Reader;

/// A [`Pieces`] being built, with what the next character needs to know.
struct Builder {
    out: Pieces,
    remap: BTreeMap<char, char>,
    /// The source byte where the last piece ends, while it can grow: it is
    /// not a stored piece, and nothing was stored or skipped after it.
    open_end: Option<usize>,
    /// Number of characters in the last piece.
    last_len: usize,
}

/// Splits `text` into pieces.
pub(super) fn build(reader: Reader, text: &str, table: &'static AsciiFoldings) -> Pieces {
    let mut b = Builder {
        out: Pieces {
            table,
            pieces: Vec::new(),
            entries: Vec::new(),
            remap: Vec::new(),
            len: 0,
        },
        remap: BTreeMap::new(),
        open_end: None,
        last_len: 0,
    };
    let bytes = text.as_bytes();
    let mut buffer = String::new();
    let mut at = 0;
    while at < bytes.len() {
        // One-to-one ASCII, most of most texts, is taken a run at a time.
        let run = bytes[at..]
            .iter()
            .take_while(|&&b| one_to_one(table, b))
            .count();
        if run > 0 {
            b.push(at, 1, run);
            at += run;
            continue;
        }
        let c = text[at..].chars().next().expect("at is inside the text");
        match single_folding(reader, c, &mut buffer) {
            Some(one) => {
                if one != c {
                    b.remap.insert(c, one);
                }
                b.push(at, c.len_utf8(), 1);
            }
            None => b.store(at, &buffer),
        }
        at += c.len_utf8();
    }
    let mut out = b.out;
    out.remap = b.remap.into_iter().collect();
    // Kept for the whole judgement of a case: no growth slack.
    out.pieces.shrink_to_fit();
    out.entries.shrink_to_fit();
    out
}

impl Builder {
    /// Adds `n` characters of `width` UTF-8 bytes from byte `at`, each
    /// folding to one character.
    fn push(&mut self, mut at: usize, width: usize, mut n: usize) {
        while n > 0 {
            let taken = self.grow_last(at, width, n);
            if taken == 0 {
                let kind = match width {
                    1 => PieceKind::Ascii,
                    _ => PieceKind::Mapped(width as u8),
                };
                self.start(kind, at);
                continue;
            }
            self.last_len += taken;
            self.out.len += taken;
            at += taken * width;
            self.open_end = Some(at);
            n -= taken;
        }
    }

    /// How many of `n` characters of `width` bytes at `at` the last piece
    /// takes: all, into a piece of their length; up to [`VARIED_MAX`] in
    /// all, into a varied piece, or a short piece of another length, which
    /// becomes varied (a space between two words of Hangul costs no piece
    /// of its own); none otherwise.
    fn grow_last(&mut self, at: usize, width: usize, n: usize) -> usize {
        if self.open_end != Some(at) {
            return 0;
        }
        let last = self.out.pieces.last_mut().expect("an open piece exists");
        let room = VARIED_MAX.saturating_sub(self.last_len);
        match last.kind {
            kind if kind.width() == Some(width) => n,
            PieceKind::Varied => n.min(room),
            PieceKind::Ascii | PieceKind::Mapped(_) if self.last_len < MIN_UNIFORM => {
                last.kind = PieceKind::Varied;
                n.min(room)
            }
            _ => 0,
        }
    }

    /// Starts an empty piece of `kind` at source byte `at`.
    fn start(&mut self, kind: PieceKind, at: usize) {
        self.out.pieces.push(Piece {
            folded: self.out.len as u32,
            at: at as u32,
            kind,
        });
        self.last_len = 0;
        self.open_end = Some(at);
    }

    /// Stores `folding`, what the character at byte `at` folds to when that
    /// is not one character, in the stored piece last in the list or a new
    /// one.
    fn store(&mut self, at: usize, folding: &str) {
        self.open_end = None;
        for ch in folding.chars() {
            if self.out.pieces.last().map(|p| p.kind) != Some(PieceKind::Stored) {
                let first = self.out.entries.len() as u32;
                self.out.pieces.push(Piece {
                    folded: self.out.len as u32,
                    at: first,
                    kind: PieceKind::Stored,
                });
            }
            self.out.entries.push(Entry {
                ch,
                start: at as u32,
            });
            self.out.len += 1;
        }
    }
}
