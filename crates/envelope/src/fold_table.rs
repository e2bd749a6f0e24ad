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

use std::sync::atomic::{AtomicU64, Ordering};
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
    /// Per character: the one ASCII byte its folding is, when it is one
    /// (a fullwidth or mathematical letter, a lookalike), or [`NOT_ONE`];
    /// [`ONE_INVISIBLE`] for an ignorable. What the token scanner's
    /// automaton steps on while a reading is in progress
    /// ([`FoldCache::token_byte_at`]).
    ones: [u8; BLOCK],
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
    ones: [NOT_ONE; BLOCK],
};

/// In [`Block::ones`]: the folding is not one ASCII byte (it holds none,
/// or several characters). Outside ASCII, so no token byte.
pub(super) const NOT_ONE: u8 = 0xFF;
/// In [`Block::ones`]: the character folds to nothing. Outside ASCII, so
/// no token byte.
pub(super) const ONE_INVISIBLE: u8 = 0xFE;

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
    ///
    /// A two-byte character whose lead byte is quiet ([`QuietLeads`]) is
    /// stepped over without decoding it; any other character is decoded
    /// from its bytes and looked up in its block.
    fn next_outside_ascii(&mut self, text: &str, at: usize, flags: u8) -> (usize, Option<char>) {
        let bytes = text.as_bytes();
        let leads = QuietLeads::of(flags);
        let mut learned = leads.learned();
        let mut i = at;
        while let Some(&lead) = bytes.get(i) {
            if lead.is_ascii() {
                if bytes.get(i + 1).is_some_and(u8::is_ascii) {
                    return (i, None);
                }
                if self.ascii[usize::from(lead)] & flags != 0 {
                    return (i, Some(char::from(lead)));
                }
                i += 1;
                continue;
            }
            if lead < THREE_BYTE_LEAD {
                match learned.of(lead) {
                    Lead::Quiet => {
                        i = learned.skip_quiet(bytes, i + 2);
                        continue;
                    }
                    Lead::Unknown => {
                        learned = leads.learn(lead);
                        continue;
                    }
                    Lead::Flagged => {}
                }
            }
            let (code, len) = decode(bytes, i);
            let index = code as usize / BLOCK;
            if index != self.index {
                self.index = index;
                self.block = block_at(index);
            }
            if self.block.classes[code as usize % BLOCK] & flags != 0 {
                let c = char::from_u32(code).expect("decoded from a str: a scalar value");
                return (i, Some(c));
            }
            i += len;
        }
        (text.len(), None)
    }

    /// The class of `c`, the character [`Self::next_outside_ascii`] stopped
    /// at: its block is the one kept (asked for here, not in that loop,
    /// whose registers CJK and emoji text measured sensitive to).
    #[inline]
    fn class_of(&mut self, c: char) -> u8 {
        let code = c as usize;
        if c.is_ascii() {
            return self.ascii[code];
        }
        if code / BLOCK != self.index {
            self.index = code / BLOCK;
            self.block = block_at(self.index);
        }
        self.block.classes[code % BLOCK]
    }
}

/// The block of the character the token scanner folded last, kept: a
/// reading spelled in fullwidth or mathematical letters is stepped
/// through the automaton a character at a time, all in one block. No block
/// is looked up before the first character, so framing ASCII text fills
/// none.
pub(super) struct FoldCache {
    index: usize,
    block: &'static Block,
}

impl FoldCache {
    pub(super) fn new() -> FoldCache {
        FoldCache {
            // No block has this index: the first character looks its block up.
            index: usize::MAX,
            block: &ALL_INERT,
        }
    }

    /// The folding of the character outside ASCII that starts at byte `at`
    /// of `text`, and its length in bytes: [`char_fold`] without a new
    /// `Chars`, and without the block table's lookup while the text stays
    /// in one block.
    #[inline(always)]
    pub(super) fn fold_at(&mut self, text: &str, at: usize) -> (CharFold, usize) {
        let (code, len) = decode(text.as_bytes(), at);
        let index = code as usize / BLOCK;
        if index != self.index {
            self.index = index;
            self.block = block_at(index);
        }
        let offset = code as usize % BLOCK;
        let class = self.block.classes[offset];
        let fold = if class & FOLDS != 0 {
            CharFold::Folds(self.block.foldings[offset])
        } else if class == INVISIBLE {
            CharFold::Invisible
        } else {
            CharFold::Inert
        };
        (fold, len)
    }
}

impl FoldCache {
    /// The character outside ASCII that starts at byte `at` of `text` as
    /// the automaton steps it while a reading is in progress: the one ASCII
    /// byte it folds to, [`ONE_INVISIBLE`] or [`NOT_ONE`] ([`Block::ones`]),
    /// and its length in bytes. One byte read per character where
    /// [`Self::fold_at`] hands back a string to walk.
    #[inline(always)]
    pub(super) fn token_byte_at(&mut self, text: &str, at: usize) -> (u8, usize) {
        let (code, len) = decode(text.as_bytes(), at);
        let index = code as usize / BLOCK;
        if index != self.index {
            self.index = index;
            self.block = block_at(index);
        }
        (self.block.ones[code as usize % BLOCK], len)
    }
}

/// The first lead byte of a three-byte UTF-8 sequence: below it (and above
/// ASCII), a lead byte starts a two-byte sequence.
const THREE_BYTE_LEAD: u8 = 0xE0;

/// The code point of the character that starts at byte `at` of `bytes`,
/// which is valid UTF-8 (from a `str`) with a character starting there
/// that is not ASCII, and its length in bytes. Decoded here rather than
/// through `str::chars` because the loop that calls it moves by bytes: a
/// new `Chars` per character costs a boundary check and a slice. Always
/// inlined: called from two places, it was not, and the call cost CJK text
/// 40 % more instructions.
#[inline(always)]
fn decode(bytes: &[u8], at: usize) -> (u32, usize) {
    let lead = u32::from(bytes[at]);
    let next = |k: usize| u32::from(bytes[at + k] & 0x3F);
    if lead < 0xE0 {
        (((lead & 0x1F) << 6) | next(1), 2)
    } else if lead < 0xF0 {
        (((lead & 0x0F) << 12) | (next(1) << 6) | next(2), 3)
    } else {
        (
            ((lead & 0x07) << 18) | (next(1) << 12) | (next(2) << 6) | next(3),
            4,
        )
    }
}

/// What is known of a two-byte lead byte for one set of flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lead {
    /// Not looked at yet in this process.
    Unknown,
    /// None of its 64 code points has one of the flags.
    Quiet,
    /// Some of its code points have one.
    Flagged,
}

/// The lead bytes of two-byte UTF-8 sequences (U+0080 to U+07FF: Latin
/// with accents, Greek, Cyrillic, Armenian, Hebrew, Arabic) whose 64 code
/// points have none of some flags, learned per lead byte on first sight:
/// text in those scripts is then stepped over with a bit test per
/// character, no decoding and no block lookup. A lead byte's 64 code points
/// lie in one block, which learning fills as a lookup would, so a process
/// still folds only the blocks its text uses.
///
/// One word per set of flags: bit `k` says lead byte `0xC0 + k` is known,
/// bit `32 + k` that it is quiet. Bits are only ever set, so a copy of the
/// word taken once per call stays true, and racing threads that learn the
/// same lead set the same bits.
struct QuietLeads {
    bits: AtomicU64,
    flags: u8,
}

/// A copy of a [`QuietLeads`] word.
#[derive(Clone, Copy)]
struct Learned(u64);

impl Learned {
    /// The offset of the first character from `at` that is not a two-byte
    /// character with a quiet lead byte: the rest of a word of Cyrillic or
    /// Greek text, a byte test per character in a loop of its own.
    #[inline]
    fn skip_quiet(self, bytes: &[u8], mut at: usize) -> usize {
        // Bit `k`: lead byte `0xC0 + k` is quiet.
        let quiet = (self.0 >> 32) as u32;
        while let Some(&lead) = bytes.get(at) {
            // ASCII and continuation bytes wrap to 32 or more.
            let k = lead.wrapping_sub(0xC0);
            if k >= 32 || (quiet >> k) & 1 == 0 {
                break;
            }
            at += 2;
        }
        at
    }

    /// What is known of `lead`, a two-byte lead byte (0xC2 to 0xDF).
    #[inline]
    fn of(self, lead: u8) -> Lead {
        let k = lead & 0x1F;
        if (self.0 >> (32 + k)) & 1 != 0 {
            Lead::Quiet
        } else if (self.0 >> k) & 1 != 0 {
            Lead::Flagged
        } else {
            Lead::Unknown
        }
    }
}

impl QuietLeads {
    /// The lead bytes learned for `flags`, one word per set of flags.
    fn of(flags: u8) -> &'static QuietLeads {
        static TABLES: [QuietLeads; 16] = {
            let mut tables = [const {
                QuietLeads {
                    bits: AtomicU64::new(0),
                    flags: 0,
                }
            }; 16];
            let mut k = 0;
            while k < 16 {
                tables[k].flags = k as u8;
                k += 1;
            }
            tables
        };
        &TABLES[usize::from(flags & 0x0F)]
    }

    /// What is known so far.
    #[inline]
    fn learned(&self) -> Learned {
        Learned(self.bits.load(Ordering::Relaxed))
    }

    /// Looks `lead`'s 64 code points up in their block, records the answer
    /// and returns everything now known. Out of line: it runs at most once
    /// per lead byte and set of flags in a process, and inlined it would
    /// cost the stepping loop registers.
    #[cold]
    #[inline(never)]
    fn learn(&self, lead: u8) -> Learned {
        let k = lead & 0x1F;
        let first = usize::from(k) << 6;
        let block = block_at(first / BLOCK);
        let offset = first % BLOCK;
        let quiet = block.classes[offset..offset + 64]
            .iter()
            .all(|&class| class & self.flags == 0);
        let bits = (1u64 << k) | (u64::from(quiet) << (32 + k));
        Learned(self.bits.fetch_or(bits, Ordering::Relaxed) | bits)
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
    /// Each flagged ASCII byte.
    members: Vec<u8>,
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
            let members: Vec<u8> = (0u8..0x80)
                .filter(|&b| classes[usize::from(b)] & flags != 0)
                .collect();
            AsciiTest {
                classes,
                flags,
                repeated: members.iter().map(|&b| u64::from(b) * LOW_BYTES).collect(),
                members,
            }
        })
    }

    /// The offset of the first byte from `at` that is not ASCII or is
    /// flagged, or the length of `bytes`.
    fn skip_plain(&self, bytes: &[u8], at: usize) -> usize {
        match self.skip_plain_16(bytes, at) {
            Ok(stop) => stop,
            Err(at) => self.skip_plain_8(bytes, at),
        }
    }

    /// [`Self::skip_plain`] sixteen bytes at a time, with SSE2 (which every
    /// x86_64 CPU has): a comparison per flagged byte and one mask, where
    /// the eight-byte test costs several integer operations per flagged
    /// byte and word. `Ok` with the first byte that is not plain, or `Err`
    /// with where fewer than sixteen bytes are left, for
    /// [`Self::skip_plain_8`] to finish.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    fn skip_plain_16(&self, bytes: &[u8], mut at: usize) -> Result<usize, usize> {
        use std::arch::x86_64::{
            __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
            _mm_set1_epi8,
        };
        while let Some(block) = bytes.get(at..at + 16) {
            // SAFETY: SSE2 is part of the x86_64 baseline, which the
            // compiler already assumes for this target; `block` is 16
            // readable bytes, and the load is unaligned.
            let stop = unsafe {
                let v = _mm_loadu_si128(block.as_ptr().cast::<__m128i>());
                // A byte's high bit is set outside ASCII: the mask starts
                // from the bytes themselves.
                let mut stop = v;
                for &b in &self.members {
                    stop = _mm_or_si128(stop, _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8)));
                }
                _mm_movemask_epi8(stop)
            };
            if stop != 0 {
                return Ok(at + stop.trailing_zeros() as usize);
            }
            at += 16;
        }
        Err(at)
    }

    /// Without SSE2, nothing is skipped sixteen bytes at a time.
    #[cfg(not(target_arch = "x86_64"))]
    #[inline]
    fn skip_plain_16(&self, _bytes: &[u8], at: usize) -> Result<usize, usize> {
        Err(at)
    }

    /// [`Self::skip_plain`] eight bytes at a time, then byte by byte.
    fn skip_plain_8(&self, bytes: &[u8], mut at: usize) -> usize {
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
/// has one of `flags`, the character and its class ([`STARTS`],
/// [`ANCHORED`]: which of the flags asked for it has, with no second
/// lookup), in order. The ASCII between them
/// is tested eight bytes at a time, with a few integer operations per
/// flagged ASCII byte; other characters are looked up one by one, their
/// blocks once per change of block. Text that mixes short ASCII runs with
/// other characters (a line between two lookalikes or ignorables, Latin
/// prose with accents) costs no call per run, which handing each long run
/// to a vectorised search would.
pub(super) fn for_each_flagged(text: &str, flags: u8, mut visit: impl FnMut(usize, char, u8)) {
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
            visit(at, c, blocks.class_of(c));
            at += c.len_utf8();
        }
    }
}

/// 0x01 in each byte of a word, and 0x80.
const LOW_BYTES: u64 = u64::from_le_bytes([0x01; 8]);
const HIGH_BITS: u64 = u64::from_le_bytes([0x80; 8]);

/// True when the class of `c` has one of `flags`: what the tests ask of
/// each character (the scans have the class at hand).
#[cfg(test)]
pub(super) fn has_flag(c: char, flags: u8) -> bool {
    block_of(c).classes[c as usize % BLOCK] & flags != 0
}

/// What [`Block::ones`] holds for a character that folds to `folding`.
fn one_byte(folding: &str) -> u8 {
    match folding.as_bytes() {
        [] => ONE_INVISIBLE,
        &[b] if b.is_ascii() => b,
        _ => NOT_ONE,
    }
}

/// Folds every character of block `index` through the specification.
fn build(index: usize) -> &'static Block {
    let mut block = Block {
        classes: [INERT; BLOCK],
        foldings: [""; BLOCK],
        ones: [NOT_ONE; BLOCK],
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
        block.ones[offset] = one_byte(&folding);
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
            0x80, 0x400, 0x2000, 0x4E00, 0xFB00, 0xFF00, 0x1D400, 0x1F600, 0xE0000, 0x50000,
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
                // The token scanner's byte for it: the one ASCII byte its
                // folding is, or that it is invisible, or neither.
                let one = match expected {
                    CharFold::Invisible => ONE_INVISIBLE,
                    CharFold::Folds(f) if f.len() == 1 => f.as_bytes()[0],
                    _ => NOT_ONE,
                };
                let text = c.to_string();
                assert_eq!(
                    FoldCache::new().token_byte_at(&text, 0),
                    (one, c.len_utf8()),
                    "U+{cp:04X}"
                );
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
                // Two-byte characters, stepped over by their lead byte when
                // it is quiet: Cyrillic (a lookalike of `a`, an inert
                // letter), Latin f with hook (folds to `f`), Greek.
                "\u{430}",
                "\u{436}",
                "\u{192}",
                "\u{3B1}",
            ])
            .prop_map(String::from),
            "[a-eg-z ]{0,40}",
            any::<char>().prop_map(String::from),
        ]
    }

    /// A lead byte is quiet exactly when none of its 64 code points has a
    /// flag, for every set of flags and every two-byte lead, whether it is
    /// learned or already known; and [`decode`] agrees with `str::chars`.
    #[test]
    fn quiet_leads_agree_with_the_classes() {
        for flags in [STARTS, ANCHORED, STARTS | ANCHORED] {
            let leads = QuietLeads::of(flags);
            for lead in 0xC2u8..=0xDF {
                let first = u32::from(lead & 0x1F) << 6;
                let quiet = (first..first + 64)
                    .filter_map(char::from_u32)
                    .all(|c| !has_flag(c, flags));
                let expected = if quiet { Lead::Quiet } else { Lead::Flagged };
                let learned = match leads.learned().of(lead) {
                    Lead::Unknown => leads.learn(lead),
                    _ => leads.learned(),
                };
                assert_eq!(learned.of(lead), expected, "lead {lead:#X}, flags {flags}");
                // Learned again (as a racing thread would), the same.
                assert_eq!(leads.learn(lead).of(lead), expected, "lead {lead:#X}");
            }
        }
        // The data has both kinds among two-byte leads, so both answers are
        // exercised: `ƒ` (U+0192) folds to `f`; Cyrillic `ж` folds to none.
        assert_eq!(QuietLeads::of(STARTS).learn(0xC6).of(0xC6), Lead::Flagged);
        assert_eq!(QuietLeads::of(STARTS).learn(0xD0).of(0xD0), Lead::Quiet);
        for c in [
            '\u{80}',
            '\u{7FF}',
            '\u{800}',
            '語',
            '\u{FFFF}',
            '\u{10000}',
            '🚀',
            '\u{10FFFF}',
        ] {
            let text = format!("{c}x");
            assert_eq!(
                decode(text.as_bytes(), 0),
                (c as u32, c.len_utf8()),
                "{c:?}"
            );
        }
    }

    /// [`FoldCache::fold_at`] agrees with [`char_fold`] on every character
    /// outside ASCII of sampled blocks, met in an order that changes block
    /// at almost every character and stays in one for runs too.
    #[test]
    fn fold_at_agrees_with_char_fold() {
        let mut text = String::new();
        for first in [0x80u32, 0x400, 0x2000, 0xFB00, 0xFF00, 0x1D400, 0xE0000] {
            text.extend((first..first + BLOCK as u32).filter_map(char::from_u32));
        }
        let mixed: String = text
            .chars()
            .step_by(7)
            .zip(text.chars().rev())
            .flat_map(|(a, b)| [a, b])
            .collect();
        text.push_str(&mixed);
        let mut cache = FoldCache::new();
        for (i, c) in text.char_indices().filter(|(_, c)| !c.is_ascii()) {
            assert_eq!(
                cache.fold_at(&text, i),
                (char_fold(c), c.len_utf8()),
                "{c:?}"
            );
        }
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
                    for_each_flagged(&text, flags, |at, _, _| visited.push(at));
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
            for_each_flagged(&text, flags, |at, c, class| {
                visited.push((at, c, class & STARTS != 0, class & ANCHORED != 0));
            });
            let spec: Vec<(usize, char, bool, bool)> = text
                .char_indices()
                .filter(|&(_, c)| has_flag(c, flags))
                .map(|(at, c)| (at, c, has_flag(c, STARTS), has_flag(c, ANCHORED)))
                .collect();
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
