//! The scanner's memo of [`framecheck_core::level`]'s Unicode folding, one block of
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
//!
//! Each character's class also says whether its folding holds the token's
//! first character or a byte every control string is anchored on
//! ([`super::control`]'s anchors). Only a few dozen characters outside
//! ASCII do, so [`skip_unflagged`] (for the token scanner) and
//! [`for_each_flagged`] (for the control strings) step over CJK, emoji or
//! mathematical text a table lookup per character, and both of `wrap`'s
//! scans pass over text that cannot hold what they look for without
//! folding it.

use std::sync::OnceLock;

use super::TOKEN;
use framecheck_core::level::{fold_char_into, ReaderLevel};

// The bytes the control strings (`control`) are anchored on. They are
// defined here, below `control`, because this table flags the characters
// whose folding holds one.

/// Every special or markup string starts with one of these bytes (a test
/// keeps the table to it).
pub(super) const SPECIAL_STARTS: [u8; 2] = [b'<', b'['];

/// The byte every line marker ends with.
pub(super) const MARKER_END: u8 = b':';

/// Every control string contains one of these bytes, and so does its
/// folding (a test keeps the table to both). An ASCII character folds only
/// to ASCII, and none of these is the folding of another ASCII character,
/// so in ASCII text a reading can only start or end at one of them
/// (`control`'s ASCII readings start their searches from them or from line
/// starts). Elsewhere, only places where a character folding to one of
/// them stands are looked at: this table flags them [`ANCHORED`].
pub(super) const ANCHORS: [u8; 3] = [SPECIAL_STARTS[0], SPECIAL_STARTS[1], MARKER_END];

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
    /// Per character: [`INERT`], [`INVISIBLE`], or [`FOLDS`] with
    /// [`STARTS`] and [`ANCHORED`] where they apply.
    classes: [u8; BLOCK],
    /// The folding of each [`FOLDS`] character; empty for the others.
    foldings: [&'static str; BLOCK],
}

/// Its folding holds no ASCII: it can take part in no reading.
const INERT: u8 = 0;
/// It folds to nothing: an ignorable.
const INVISIBLE: u8 = 1;
/// Its folding holds ASCII: it can take part in a reading.
const FOLDS: u8 = 2;
/// With [`FOLDS`]: its folding holds the token's first character, so a
/// token reading can start at it.
pub(super) const STARTS: u8 = 4;
/// With [`FOLDS`]: its folding holds one of the control strings' anchors.
pub(super) const ANCHORED: u8 = 8;

/// The table shared by every block whose characters are all inert.
static ALL_INERT: Block = Block {
    classes: [INERT; BLOCK],
    foldings: [""; BLOCK],
};

/// The block table of `c`, built on first use.
fn block_of(c: char) -> &'static Block {
    block_at(c as usize / BLOCK)
}

/// Block `index`'s table, built on first use.
fn block_at(index: usize) -> &'static Block {
    static TABLE: [OnceLock<&'static Block>; BLOCKS] = [const { OnceLock::new() }; BLOCKS];
    TABLE[index].get_or_init(|| build(index))
}

/// The folding of `c` at the Unicode level, from its block's table.
pub(super) fn char_fold(c: char) -> CharFold {
    let block = block_of(c);
    let offset = c as usize % BLOCK;
    let class = block.classes[offset];
    if class & FOLDS != 0 {
        CharFold::Folds(block.foldings[offset])
    } else if class == INVISIBLE {
        CharFold::Invisible
    } else {
        CharFold::Inert
    }
}

/// ASCII bytes [`skip_unflagged`] steps over before it hands a run of them
/// back: a longer run is cheaper for the scanner to search with a
/// vectorised `memmem` than to test eight bytes at a time.
const SHORT_ASCII_RUN: usize = 32;

/// Steps over the characters of `text` from byte `from` whose class has
/// none of `flags` ([`STARTS`], [`ANCHORED`]) and returns the offset of the
/// first that has one, or of the first of more than [`SHORT_ASCII_RUN`]
/// such ASCII characters in a row, or the text's length. The scanner
/// takes either for the start of an ASCII stretch to search when the
/// character there is ASCII.
///
/// ASCII is tested eight bytes at a time ([`AsciiTest`]), and other
/// characters looked up one by one, their blocks once per change of block.
pub(super) fn skip_unflagged(text: &str, from: usize, flags: u8) -> usize {
    let ascii = AsciiTest::of(flags);
    let mut blocks = BlockCache::new();
    let mut at = from;
    while at < text.len() {
        let run = at;
        at = ascii.skip_plain(text.as_bytes(), at);
        if at - run > SHORT_ASCII_RUN {
            return run;
        }
        if text.as_bytes().get(at).is_some_and(u8::is_ascii) {
            // A flagged ASCII character.
            return at;
        }
        match blocks.next_outside_ascii(text, at, flags) {
            (at, Some(_)) => return at,
            (next, None) => at = next,
        }
    }
    text.len()
}

/// The block of the character looked up last, kept: text in one script
/// stays in a few blocks.
struct BlockCache {
    index: usize,
    block: &'static Block,
    /// The ASCII block's classes.
    ascii: &'static [u8; BLOCK],
}

impl BlockCache {
    fn new() -> BlockCache {
        BlockCache {
            index: 0,
            block: block_at(0),
            ascii: &block_at(0).classes,
        }
    }

    /// Steps over the characters outside ASCII from `at` whose class has
    /// none of `flags`, and over a lone ASCII character between two of them
    /// (the space between words of CJK or mathematical text, where handing
    /// a run of one back would cost more than looking it up): the offset of
    /// the first character that has one of `flags`, and the character; or
    /// of the next run of ASCII characters, or the text's length.
    fn next_outside_ascii(&mut self, text: &str, at: usize, flags: u8) -> (usize, Option<char>) {
        let bytes = text.as_bytes();
        for (i, c) in text[at..].char_indices() {
            if c.is_ascii() {
                if bytes.get(at + i + 1).is_some_and(u8::is_ascii) {
                    return (at + i, None);
                }
                if self.ascii[c as usize] & flags != 0 {
                    return (at + i, Some(c));
                }
                continue;
            }
            let index = c as usize / BLOCK;
            if index != self.index {
                self.index = index;
                self.block = block_at(index);
            }
            if self.block.classes[c as usize % BLOCK] & flags != 0 {
                return (at + i, Some(c));
            }
        }
        (text.len(), None)
    }
}

/// Which ASCII bytes have one of some flags, tested eight bytes at a time
/// with a few integer operations per flagged byte: mixed text (a line
/// between two lookalikes or ignorables, Latin prose with accents) has
/// many ASCII runs, most of them short.
struct AsciiTest {
    classes: &'static [u8; BLOCK],
    flags: u8,
    /// Each flagged ASCII byte, repeated in the eight bytes of a word.
    repeated: Vec<u64>,
}

impl AsciiTest {
    /// The test for `flags`, made once per set of flags: the scanner asks
    /// for it at every character outside ASCII it stops at.
    fn of(flags: u8) -> &'static AsciiTest {
        assert!(
            flags & !(STARTS | ANCHORED) == 0,
            "flags are STARTS and ANCHORED"
        );
        static TESTS: [OnceLock<AsciiTest>; 16] = [const { OnceLock::new() }; 16];
        TESTS[usize::from(flags)].get_or_init(|| {
            let classes = &block_at(0).classes;
            let repeated = (0u8..0x80)
                .filter(|&b| classes[usize::from(b)] & flags != 0)
                .map(|b| u64::from(b) * LOW_BYTES)
                .collect();
            AsciiTest {
                classes,
                flags,
                repeated,
            }
        })
    }

    /// The offset of the first byte from `at` that is not ASCII or is
    /// flagged, or the length of `bytes`.
    fn skip_plain(&self, bytes: &[u8], mut at: usize) -> usize {
        while let Some(word) = bytes.get(at..at + 8) {
            if !self.plain(u64::from_le_bytes(word.try_into().expect("8 bytes"))) {
                break;
            }
            at += 8;
        }
        while let Some(&b) = bytes.get(at) {
            if !b.is_ascii() || self.classes[usize::from(b)] & self.flags != 0 {
                break;
            }
            at += 1;
        }
        at
    }

    /// Whether the eight bytes of `word` are all ASCII and none of them
    /// is flagged (a byte is zero in `word ^ repeated` exactly where it is
    /// that byte; the test for a zero byte is exact).
    fn plain(&self, word: u64) -> bool {
        let no_zero_byte = |x: u64| x.wrapping_sub(LOW_BYTES) & !x & HIGH_BITS == 0;
        word & HIGH_BITS == 0 && self.repeated.iter().all(|&r| no_zero_byte(word ^ r))
    }
}

/// Calls `visit` with the offset of every character of `text` whose class
/// has one of `flags`, and the character, in order. The ASCII between them
/// is tested eight bytes at a time, with a few integer operations per
/// flagged ASCII byte; other characters are looked up one by one, their
/// blocks once per change of block. Text that mixes short ASCII runs with
/// other characters (a line between two lookalikes or ignorables, Latin
/// prose with accents) costs no call per run, which handing each long run
/// to a vectorised search would.
pub(super) fn for_each_flagged(text: &str, flags: u8, mut visit: impl FnMut(usize, char)) {
    let ascii = AsciiTest::of(flags);
    let mut blocks = BlockCache::new();
    let mut at = 0;
    while at < text.len() {
        at = ascii.skip_plain(text.as_bytes(), at);
        let c = match text.as_bytes().get(at) {
            Some(&b) if b.is_ascii() => Some(char::from(b)),
            Some(_) => {
                let (next, flagged) = blocks.next_outside_ascii(text, at, flags);
                at = next;
                flagged
            }
            None => None,
        };
        if let Some(c) = c {
            visit(at, c);
            at += c.len_utf8();
        }
    }
}

/// 0x01 in each byte of a word, and 0x80.
const LOW_BYTES: u64 = u64::from_le_bytes([0x01; 8]);
const HIGH_BITS: u64 = u64::from_le_bytes([0x80; 8]);

/// True when the class of `c` has one of `flags`.
#[cfg(test)]
pub(super) fn has_flag(c: char, flags: u8) -> bool {
    block_of(c).classes[c as usize % BLOCK] & flags != 0
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
            let mut class = FOLDS;
            if folding.contains(char::from(TOKEN.as_bytes()[0])) {
                class |= STARTS;
            }
            if folding.bytes().any(|b| ANCHORS.contains(&b)) {
                class |= ANCHORED;
            }
            block.classes[offset] = class;
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
                let folding = framecheck_core::level::fold_char(c, ReaderLevel::Unicode);
                let expected = if folding.is_empty() {
                    CharFold::Invisible
                } else if folding.chars().any(|d| d.is_ascii()) {
                    CharFold::Folds(Box::leak(folding.into_boxed_str()))
                } else {
                    CharFold::Inert
                };
                assert_eq!(char_fold(c), expected, "U+{cp:04X}");
                let starts = matches!(expected, CharFold::Folds(f) if f.contains('f'));
                let anchored =
                    matches!(expected, CharFold::Folds(f) if f.contains(['<', '[', ':']));
                assert_eq!(has_flag(c, ANCHORED), anchored, "U+{cp:04X}");
                assert_eq!(has_flag(c, STARTS), starts, "U+{cp:04X}");
            }
        }
    }

    /// [`skip_unflagged`] spelled out: the first character with a flag,
    /// or the first of more than [`SHORT_ASCII_RUN`] ASCII characters in a
    /// row without one, whichever comes first.
    fn skip_spec(text: &str, from: usize, flags: u8) -> usize {
        let chars: Vec<(usize, char)> = text[from..].char_indices().collect();
        for (k, &(i, c)) in chars.iter().enumerate() {
            let plain_run = chars[k..]
                .iter()
                .take_while(|(_, c)| c.is_ascii() && !has_flag(*c, flags))
                .count();
            if has_flag(c, flags) || plain_run > SHORT_ASCII_RUN {
                return from + i;
            }
        }
        text.len()
    }

    fn piece() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        prop_oneof![
            proptest::sample::select(vec![
                "f",
                "F",
                "<",
                ":",
                "[",
                "x",
                " ",
                "\u{4E2D}",
                "\u{1D41F}",
                "\u{FF1A}",
                "\u{FB00}",
                "\u{200B}",
                "\u{1F680}",
                "\u{E9}",
                "\u{FF46}",
                "\u{1D400}",
            ])
            .prop_map(String::from),
            "[a-eg-z ]{0,40}",
            any::<char>().prop_map(String::from),
        ]
    }

    /// Runs of flagged ASCII bytes of every length, alone and after other
    /// characters: eight of them in a row are one word of the eight-byte
    /// test, which must not take them for plain.
    #[test]
    fn long_runs_of_flagged_ascii_are_seen() {
        for (flags, byte) in [
            (STARTS, "f"),
            (STARTS, "F"),
            (ANCHORED, "<"),
            (ANCHORED, ":"),
        ] {
            for len in 1..20 {
                for before in ["", "\u{E9}", "x\u{4E2D}", "plain ascii"] {
                    let text = format!("{before}{}\u{E9}", byte.repeat(len));
                    let mut visited = Vec::new();
                    for_each_flagged(&text, flags, |at, _| visited.push(at));
                    let spec: Vec<usize> = text
                        .char_indices()
                        .filter(|&(_, c)| has_flag(c, flags))
                        .map(|(i, _)| i)
                        .collect();
                    assert_eq!(visited, spec, "{text:?}");
                    assert_eq!(skip_unflagged(&text, 0, flags), skip_spec(&text, 0, flags));
                }
            }
        }
    }

    proptest::proptest! {
        /// Every character with a flag is visited, and only those, in
        /// order: what asking [`has_flag`] of each character says.
        #[test]
        fn every_flagged_character_is_visited(
            pieces in proptest::collection::vec(piece(), 0..24),
            which in 0usize..3,
        ) {
            let text = pieces.concat();
            let flags = [STARTS, ANCHORED, STARTS | ANCHORED][which];
            let mut visited = Vec::new();
            for_each_flagged(&text, flags, |at, c| visited.push((at, c)));
            let spec: Vec<(usize, char)> =
                text.char_indices().filter(|&(_, c)| has_flag(c, flags)).collect();
            proptest::prop_assert_eq!(visited, spec);
        }
    }

    proptest::proptest! {
        #[test]
        fn skipping_stops_where_the_specification_says(
            pieces in proptest::collection::vec(piece(), 0..24),
            start in 0usize..8,
            which in 0usize..3,
        ) {
            let text = pieces.concat();
            let from = text.char_indices().map(|(i, _)| i).nth(start).unwrap_or(text.len());
            let flags = [STARTS, ANCHORED, STARTS | ANCHORED][which];
            proptest::prop_assert_eq!(
                skip_unflagged(&text, from, flags),
                skip_spec(&text, from, flags)
            );
        }
    }
}
