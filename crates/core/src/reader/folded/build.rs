//! How a text is split into pieces: the one place that decides what a
//! [`Pieces`] holds.
//!
//! Characters are taken in text order, and each joins the last piece when
//! that piece can take it (see [`Builder::grow_last`]), or starts a new
//! one: a uniform piece for a character folding to one character, a
//! varied piece for one folding to none or several. How a character folds,
//! when that is not itself, goes into the remap table once.

use std::collections::BTreeMap;

use super::{
    one_to_one, AsciiFoldings, Folding, Piece, PieceKind, Pieces, MIN_UNIFORM, VARIED_MAX,
};
use crate::reader::Reader;

/// A [`Pieces`] being built.
struct Builder {
    out: Pieces,
    remap: BTreeMap<char, Folding>,
    /// Number of source characters in the last piece.
    last_len: usize,
}

/// Splits `text` into pieces.
pub(super) fn build(reader: Reader, text: &str, table: &'static AsciiFoldings) -> Pieces {
    let mut b = Builder {
        out: Pieces {
            table,
            pieces: Vec::new(),
            remap: Vec::new(),
            len: 0,
            memo: Default::default(),
        },
        remap: BTreeMap::new(),
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
            b.push(at, Some(1), run, run);
            at += run;
            continue;
        }
        let c = text[at..].chars().next().expect("at is inside the text");
        buffer.clear();
        reader.fold_char_into(c, &mut buffer);
        let mut chars = buffer.chars();
        match (chars.next(), chars.next()) {
            (Some(one), None) => {
                if one != c {
                    b.remap.entry(c).or_insert(Folding::One(one));
                }
                b.push(at, Some(c.len_utf8()), 1, 1);
            }
            _ => {
                let n = buffer.chars().count();
                b.remap
                    .entry(c)
                    .or_insert_with(|| Folding::Many(buffer.chars().collect()));
                b.push(at, None, 1, n);
            }
        }
        at += c.len_utf8();
    }
    let mut out = b.out;
    out.remap = b.remap.into_iter().collect();
    // Kept for the whole judgement of a case: no growth slack.
    out.pieces.shrink_to_fit();
    out
}

impl Builder {
    /// Adds `n` source characters from byte `at`, folding to `folded`
    /// characters: each to one, of `width` UTF-8 bytes when that is `Some`
    /// (then `folded == n`), or a single character folding to none or
    /// several.
    fn push(&mut self, mut at: usize, width: Option<usize>, mut n: usize, folded: usize) {
        if width.is_none() {
            // One character, which only a varied piece can hold.
            if self.grow_last(None, 1) == 0 {
                self.start(PieceKind::Varied { one_to_one: false }, at);
                self.grow_last(None, 1);
            }
            self.out.len += folded;
            return;
        }
        let width_bytes = width.expect("checked above");
        while n > 0 {
            let taken = self.grow_last(width, n);
            if taken == 0 {
                let kind = match width_bytes {
                    1 => PieceKind::Ascii,
                    _ => PieceKind::Mapped(width_bytes as u8),
                };
                self.start(kind, at);
                continue;
            }
            self.out.len += taken;
            at += taken * width_bytes;
            n -= taken;
        }
    }

    /// How many of `n` characters the last piece takes, and takes them:
    /// all, into a uniform piece of their `width`; up to [`VARIED_MAX`] in
    /// all into a varied piece, or into a uniform piece shorter than
    /// [`MIN_UNIFORM`], which becomes varied (a space between two words of
    /// Hangul costs no piece of its own); none otherwise. `width` is `None`
    /// for a character folding to none or several.
    fn grow_last(&mut self, width: Option<usize>, n: usize) -> usize {
        let Some(last) = self.out.pieces.last_mut() else {
            return 0;
        };
        let room = VARIED_MAX.saturating_sub(self.last_len);
        // What a varied piece is once these characters join it.
        let varied = |one_to_one: bool| PieceKind::Varied {
            one_to_one: one_to_one && width.is_some(),
        };
        let (taken, kind) = match last.kind {
            kind if width.is_some() && kind.width() == width => (n, kind),
            PieceKind::Varied { one_to_one } => (n.min(room), varied(one_to_one)),
            PieceKind::Ascii | PieceKind::Mapped(_) if self.last_len < MIN_UNIFORM => {
                (n.min(room), varied(true))
            }
            _ => (0, last.kind),
        };
        if taken > 0 {
            last.kind = kind;
        }
        self.last_len += taken;
        taken
    }

    /// Starts an empty piece of `kind` at source byte `at`.
    fn start(&mut self, kind: PieceKind, at: usize) {
        self.out.pieces.push(Piece {
            folded: self.out.len as u32,
            at: at as u32,
            kind,
        });
        self.last_len = 0;
    }
}
