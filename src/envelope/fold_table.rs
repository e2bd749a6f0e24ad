//! The scanner's memo of [`crate::level`]'s Unicode folding, one block of
//! 256 code points at a time.
//!
//! Folding one character with NFKC and full case folding costs hundreds of
//! nanoseconds, and nearly every non-ASCII character in real text (accented
//! Latin, CJK, Arabic, emoji) is inert: its folding holds no ASCII, so it
//! can only break a partial match. The scanner therefore asks this table,
//! which is filled from [`fold_char_into`] itself and so cannot disagree
//! with the specification.
//!
//! Filling is lazy and per block: text in one script pays for the few
//! blocks it uses (tens of microseconds each), not for all of Unicode, and
//! a process that never sees a character of a block never folds it. A
//! block in which every character is inert (most CJK, unassigned planes)
//! shares one static table, so memory grows only with blocks that hold
//! something a reader can see as ASCII, or an ignorable.

use std::sync::OnceLock;

use super::TOKEN;
use crate::level::{fold_char_into, ReaderLevel};

/// One character's folding, as the scanner needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CharFold {
    /// The character folds to nothing: an ignorable.
    Invisible,
    /// It folds to characters none of which is ASCII, so none can match.
    Inert,
    /// Its folding contains ASCII: feed it character by character.
    Folds(&'static str),
}

/// Code points per block.
const BLOCK: usize = 256;

/// Blocks in the whole code space, U+0000 to U+10FFFF.
const BLOCKS: usize = 0x11_0000 / BLOCK;

/// One block's foldings: a byte per character, so the common question
/// ("can this character matter?") reads 256 bytes per block, and the
/// foldings themselves for the few characters that have one.
struct Block {
    /// Per character: [`INERT`], [`INVISIBLE`], [`FOLDS`] or [`STARTS`].
    classes: [u8; BLOCK],
    /// The folding of each [`FOLDS`] or [`STARTS`] character; empty for
    /// the others.
    foldings: [&'static str; BLOCK],
}

const INERT: u8 = 0;
const INVISIBLE: u8 = 1;
/// Folds to something with ASCII in it, but not the token's first
/// character: it can continue a reading, never start one.
const FOLDS: u8 = 2;
/// Folds to something holding the token's first character.
const STARTS: u8 = 3;

/// The table shared by every block whose characters are all inert.
static ALL_INERT: Block = Block {
    classes: [INERT; BLOCK],
    foldings: [""; BLOCK],
};

/// The block table of `c`, built on first use.
fn block_of(c: char) -> &'static Block {
    static TABLE: [OnceLock<&'static Block>; BLOCKS] = [const { OnceLock::new() }; BLOCKS];
    let index = c as usize / BLOCK;
    TABLE[index].get_or_init(|| build(index))
}

/// The folding of `c` at the Unicode level, from its block's table.
pub(super) fn char_fold(c: char) -> CharFold {
    let block = block_of(c);
    let offset = c as usize % BLOCK;
    match block.classes[offset] {
        INERT => CharFold::Inert,
        INVISIBLE => CharFold::Invisible,
        _ => CharFold::Folds(block.foldings[offset]),
    }
}

/// True when `c` cannot start a reading: fed to the automaton with no
/// reading in progress, it leaves none in progress, so a scanner may step
/// over it.
pub(super) fn is_passive(c: char) -> bool {
    block_of(c).classes[c as usize % BLOCK] != STARTS
}

/// Folds every character of block `index` through the specification.
fn build(index: usize) -> &'static Block {
    let mut block = Block {
        classes: [INERT; BLOCK],
        foldings: [""; BLOCK],
    };
    let mut folding = String::new();
    for offset in 0..BLOCK {
        // Surrogate code points are not characters and never occur in a
        // `str`; they stay inert.
        let Some(c) = char::from_u32((index * BLOCK + offset) as u32) else {
            continue;
        };
        folding.clear();
        fold_char_into(c, ReaderLevel::Unicode, &mut folding);
        if folding.is_empty() {
            block.classes[offset] = INVISIBLE;
        } else if folding.chars().any(|d| d.is_ascii()) {
            block.classes[offset] = if folding.contains(char::from(TOKEN.as_bytes()[0])) {
                STARTS
            } else {
                FOLDS
            };
            // A few thousand short strings at most, kept for the process.
            block.foldings[offset] = Box::leak(folding.clone().into_boxed_str());
        }
    }
    if block.classes.iter().all(|&class| class == INERT) {
        &ALL_INERT
    } else {
        Box::leak(Box::new(block))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn foldings_of_known_characters() {
        assert_eq!(char_fold('a'), CharFold::Folds("a"));
        assert_eq!(char_fold('\u{200B}'), CharFold::Invisible);
        assert_eq!(char_fold('\u{E9}'), CharFold::Inert);
        assert_eq!(char_fold('語'), CharFold::Inert);
        assert_eq!(char_fold('\u{FF46}'), CharFold::Folds("f"));
        assert_eq!(char_fold('\u{FB00}'), CharFold::Folds("ff"));
        assert_eq!(char_fold('\u{430}'), CharFold::Folds("a"));
        // Beyond the Basic Multilingual Plane: mathematical bold f, a tag
        // character, an emoji.
        assert_eq!(char_fold('\u{1D41F}'), CharFold::Folds("f"));
        assert_eq!(char_fold('\u{E0063}'), CharFold::Invisible);
        assert_eq!(char_fold('🚀'), CharFold::Inert);
    }

    #[test]
    fn every_character_of_sampled_blocks_agrees_with_the_specification() {
        // Latin-1, Cyrillic, general punctuation, CJK, halfwidth and
        // fullwidth forms, mathematical alphanumerics, emoji, tags, an
        // unassigned plane.
        for first in [
            0x80, 0x400, 0x2000, 0x4E00, 0xFF00, 0x1D400, 0x1F600, 0xE0000, 0x50000,
        ] {
            for cp in first..first + BLOCK as u32 {
                let Some(c) = char::from_u32(cp) else {
                    continue;
                };
                let folding = crate::level::fold_char(c, ReaderLevel::Unicode);
                let expected = if folding.is_empty() {
                    CharFold::Invisible
                } else if folding.chars().any(|d| d.is_ascii()) {
                    CharFold::Folds(Box::leak(folding.into_boxed_str()))
                } else {
                    CharFold::Inert
                };
                assert_eq!(char_fold(c), expected, "U+{cp:04X}");
                let starts = matches!(expected, CharFold::Folds(f) if f.contains('f'));
                assert_eq!(is_passive(c), !starts, "U+{cp:04X}");
            }
        }
    }
}
