//! [`super::wrap`]'s content in one pass, for ASCII text on a CPU with
//! AVX-512BW or AVX2.
//!
//! Wrapping content is two jobs: neutralise chat-template control strings
//! ([`super::control`]) and defang readings of [`TOKEN`] ([`super::scan`]).
//! Each has its own scans (the token window and search, the special and
//! line-marker searches), and the output is a copy on top: on ASCII text
//! people frame (prose, tables, logs, source, JSON) that is several passes
//! where a regex makes one. Here one vectorised filter looks at every
//! position once, 64 at a time, and flags the few where a reading can be:
//!
//! - a token reading: an ASCII reading is the token in some mix of cases
//!   (every ASCII character folds to its lower case and none is ignorable),
//!   so its first, hyphen and last bytes are tested at once;
//! - a special or markup string: a byte it can start with
//!   ([`SPECIAL_STARTS`]) followed by bytes its second and third
//!   characters can be;
//! - a line marker: a [`MARKER_END`] colon after a byte a marker
//!   can have before it.
//!
//! The filter lets through a superset (it lower-cases with `| 0x20`, which
//! also maps a few punctuation bytes onto the sets); the exact checks at a
//! flagged place are the same functions the two-pass path uses
//! ([`control::special_at`], [`control::marker_ending_at`]) and the
//! token's case-insensitive comparison (two integer comparisons, or one
//! vector comparison in a block of token readings alone, each tested
//! against `eq_ignore_ascii_case`), so the readings are the same. In ASCII
//! text no token reading, special and marker can overlap (none holds
//! another's characters at its edges: a test over random text compares
//! this path with the two-pass one), so replacing each in order of position
//! is what neutralising and then defanging writes.
//!
//! The output is written as the filter goes ([`write_by`]): each block is
//! copied while in the first-level cache, and a token reading, which has
//! its defanged spelling's length, is written over its copy, so text dense
//! with readings costs a vector check and two stores per reading, not a
//! copy call.
//!
//! The filter has one copy per instruction set (AVX-512BW, and AVX2 as two
//! 32-byte halves), from one macro. Without either, or for text that is
//! not all ASCII, [`push_content`] declines and [`super::wrap`] takes the
//! two-pass path. The filter without vectors ([`Spec`]) is the
//! specification each vectorised copy is tested against.

use std::ops::Range;

use super::control::{self, Placement};
use super::fold_table::{MARKER_END, SPECIAL_STARTS};
use super::{DEFANGED, TOKEN};
use framecheck_core::chat_template::ControlString;

const TOKEN_BYTES: &[u8] = TOKEN.as_bytes();

/// The token bytes the filter tests: the first, the hyphen, the last. Three
/// are enough to make a chance match rare in any text, and every reading
/// has them.
const TOKEN_PROBES: [usize; 3] = [0, 10, TOKEN_BYTES.len() - 1];

/// Bytes the second character of a special or markup string can be, lower
/// cased (a test keeps them to the table).
const SPECIAL_SECONDS: [u8; 5] = [b'|', b's', b'/', b'e', b'i'];

/// Bytes the third character of a special or markup string can be, lower
/// cased: with the first two, they keep `[i]` and `<span` out (a test keeps
/// them to the table).
const SPECIAL_THIRDS: [u8; 5] = [b'i', b'e', b's', b't', b'n'];

/// Bytes a line marker can have before its colon, lower cased (a test keeps
/// them to the table).
const MARKER_BEFORE_END: [u8; 3] = [b'n', b't', b'e'];

/// A set of ASCII bytes with distinct low nibbles, as a table indexed by
/// low nibble (the member with that nibble, or 0x80, which no ASCII byte
/// equals), so a vectorised filter tests membership with one byte shuffle
/// and one comparison, however many members: a byte is a member when the
/// entry at its low nibble is the byte itself.
struct ByteSet {
    by_low_nibble: [u8; 16],
}

/// The [`ByteSet`] of `members`; a compile error when two share a low
/// nibble or one is not ASCII.
const fn byte_set(members: &[u8]) -> ByteSet {
    let mut by_low_nibble = [0x80u8; 16];
    let mut i = 0;
    while i < members.len() {
        let b = members[i];
        assert!(b.is_ascii() && by_low_nibble[(b & 0x0f) as usize] == 0x80);
        by_low_nibble[(b & 0x0f) as usize] = b;
        i += 1;
    }
    ByteSet { by_low_nibble }
}

#[cfg(target_arch = "x86_64")]
impl ByteSet {
    /// The table in a vector register, for either filter to broadcast.
    fn table(&self) -> std::arch::x86_64::__m128i {
        // SAFETY: the table is 16 readable bytes, and the load is
        // unaligned (SSE2, which every x86_64 CPU has).
        unsafe { std::arch::x86_64::_mm_loadu_si128(self.by_low_nibble.as_ptr().cast()) }
    }
}

const STARTS_SET: ByteSet = byte_set(&SPECIAL_STARTS);
const SECONDS_SET: ByteSet = byte_set(&SPECIAL_SECONDS);
const THIRDS_SET: ByteSet = byte_set(&SPECIAL_THIRDS);
const BEFORE_END_SET: ByteSet = byte_set(&MARKER_BEFORE_END);

/// Positions tested at once.
const BLOCK: usize = 64;

/// How far past a position the filter reads: the token's last probe.
const REACH: usize = TOKEN_BYTES.len() - 1;

/// Bytes one block's test reads.
const WIDTH: usize = BLOCK + REACH;

// The filter lower-cases with `| 0x20`, which lets through every byte whose
// lower case is one of these only if each of them has that bit set; and the
// hyphen probe must be the token's hyphen.
const _: () = {
    let mut probes =
        [0u8; 3 + SPECIAL_SECONDS.len() + MARKER_BEFORE_END.len() + SPECIAL_THIRDS.len()];
    let mut i = 0;
    while i < 3 {
        probes[i] = TOKEN_BYTES[TOKEN_PROBES[i]];
        i += 1;
    }
    let mut j = 0;
    while j < SPECIAL_SECONDS.len() {
        probes[3 + j] = SPECIAL_SECONDS[j];
        j += 1;
    }
    let mut k = 0;
    while k < MARKER_BEFORE_END.len() {
        probes[3 + SPECIAL_SECONDS.len() + k] = MARKER_BEFORE_END[k];
        k += 1;
    }
    let mut t = 0;
    while t < SPECIAL_THIRDS.len() {
        probes[probes.len() - SPECIAL_THIRDS.len() + t] = SPECIAL_THIRDS[t];
        t += 1;
    }
    let mut n = 0;
    while n < probes.len() {
        assert!(probes[n] & 0x20 != 0 && probes[n].is_ascii());
        n += 1;
    }
    assert!(TOKEN_BYTES[TOKEN_PROBES[1]] == b'-');
    assert!(REACH >= 2 && TOKEN_PROBES[2] == REACH);
};

/// The instruction sets the vectorised filter has a copy for, best first
/// (the order is what [`capped`] compares).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Vectors {
    Avx512,
    Avx2,
    /// No vectors: [`push_content`] declines, and `wrap` takes the
    /// two-pass path.
    Off,
}

/// The variable that caps the instruction set [`push_content`] uses, so
/// each path can be measured, and tested through `wrap`, on one machine:
/// `avx512bw`, `avx2` or `off` (the two-pass path), in any case.
const VECTORS_VARIABLE: &str = "FRAMECHECK_VECTORS";

/// The instruction set to use: the best the CPU has, within the cap of
/// [`VECTORS_VARIABLE`], read once.
fn vectors() -> Vectors {
    static CHOSEN: std::sync::OnceLock<Vectors> = std::sync::OnceLock::new();
    *CHOSEN.get_or_init(|| {
        let cap = std::env::var(VECTORS_VARIABLE).ok();
        capped(best_on_this_cpu(), cap.as_deref())
    })
}

/// `best`, or the cap when that is a lesser instruction set. An unknown
/// cap is taken as `off`, the path that needs nothing: a misspelt cap must
/// never select a path the CPU lacks, and a slow run is easy to notice.
fn capped(best: Vectors, cap: Option<&str>) -> Vectors {
    let cap = match cap {
        None => return best,
        Some(cap) if cap.eq_ignore_ascii_case("avx512bw") => Vectors::Avx512,
        Some(cap) if cap.eq_ignore_ascii_case("avx2") => Vectors::Avx2,
        Some(_) => Vectors::Off,
    };
    // Variants are declared best first.
    std::cmp::max(best, cap)
}

fn best_on_this_cpu() -> Vectors {
    [Vectors::Avx512, Vectors::Avx2]
        .into_iter()
        .find(|&v| filter(v).is_some())
        .unwrap_or(Vectors::Off)
}

/// A filter as [`write_by`] drives it, block by block. Each vectorised copy
/// is one implementation, and the specification ([`Spec`]) another, so the
/// tests drive the same loop with each. Its methods are inlined into the
/// driver's copy for the instruction set, which is what compiles their
/// intrinsics to instructions.
trait Blocks: Copy {
    /// The places flagged in the block at `at`, bit `j` for position `at +
    /// j`, or `None` when one of its [`BLOCK`] bytes is not ASCII. `bytes`
    /// holds at least [`SPAN`] bytes from `at`.
    fn flags(self, bytes: &[u8], at: usize) -> Option<u64>;

    /// Whether the token's length of bytes at `at` is a token reading.
    /// `bytes` holds at least [`TOKEN_LOAD`] bytes from `at`.
    fn is_token_at(self, bytes: &[u8], at: usize) -> bool;
}

/// Bytes a token check reads: one vector of 32, of which the token's 20
/// are compared.
const TOKEN_LOAD: usize = 32;

/// Bytes from a block's start the driver may read: a block's filter reads
/// [`WIDTH`], and a token check at its last position [`TOKEN_LOAD`].
const SPAN: usize = BLOCK - 1 + TOKEN_LOAD;

const _: () = assert!(WIDTH <= SPAN && TOKEN_LOAD >= TOKEN_BYTES.len());

/// A vectorised filter this CPU can run: only [`filter`] makes one.
#[derive(Debug, Clone, Copy)]
enum Filter {
    #[cfg(target_arch = "x86_64")]
    Avx512,
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Filter {
    /// [`push_content`] with this filter.
    fn push(self, out: &mut String, text: &str) -> bool {
        match self {
            // SAFETY (every arm): a `Filter` is only made by `filter`,
            // after it found the instruction set on this CPU, the only
            // requirement of the target-feature function.
            #[cfg(target_arch = "x86_64")]
            Filter::Avx512 => unsafe { avx512::push(out, text) },
            #[cfg(target_arch = "x86_64")]
            Filter::Avx2 => unsafe { avx2::push(out, text) },
        }
    }

    /// The filter's flags for the block at `at`, for the tests to compare
    /// with the specification's.
    #[cfg(test)]
    fn flags(self, bytes: &[u8], at: usize) -> Option<u64> {
        match self {
            // SAFETY: as in `push`.
            #[cfg(target_arch = "x86_64")]
            Filter::Avx512 => unsafe { avx512::block_flags(bytes, at) },
            #[cfg(target_arch = "x86_64")]
            Filter::Avx2 => unsafe { avx2::block_flags(bytes, at) },
        }
    }

    /// The filter's token check, for the tests to compare with
    /// [`is_token`].
    #[cfg(test)]
    fn is_token_at(self, bytes: &[u8], at: usize) -> bool {
        match self {
            // SAFETY: as in `push`.
            #[cfg(target_arch = "x86_64")]
            Filter::Avx512 => unsafe { avx512::is_token_at(bytes, at) },
            #[cfg(target_arch = "x86_64")]
            Filter::Avx2 => unsafe { avx2::is_token_at(bytes, at) },
        }
    }
}

/// The filter for `vectors`, when this CPU has that instruction set: the
/// one place the CPU is asked, so a filter is only ever handed out where
/// it can run.
fn filter(vectors: Vectors) -> Option<Filter> {
    match vectors {
        #[cfg(target_arch = "x86_64")]
        Vectors::Avx512 if std::arch::is_x86_feature_detected!("avx512bw") => Some(Filter::Avx512),
        #[cfg(target_arch = "x86_64")]
        Vectors::Avx2 if std::arch::is_x86_feature_detected!("avx2") => Some(Filter::Avx2),
        _ => None,
    }
}

/// Appends `text`, neutralised and defanged as [`super::wrap`] writes
/// content, to `out`, in one pass; or returns false, leaving `out` as it
/// was, when `text` is not all ASCII or the CPU has no vector instruction
/// set the filter has a copy for.
pub(super) fn push_content(out: &mut String, text: &str) -> bool {
    let Some(filter) = filter(vectors()) else {
        return false;
    };
    let before = out.len();
    let ascii = filter.push(out, text);
    if !ascii {
        // Non-ASCII text is found on the way, not in a pass of its own;
        // what was written up to there is dropped.
        out.truncate(before);
    }
    ascii
}

/// [`push_content`] with the blocks' flags from `blocks`: returns whether
/// the text is all ASCII; when it is not, it stops at the first block that
/// is not, and `out` may hold part of the content. Each block is copied
/// to the output as it is filtered, while in the first-level cache, and its
/// readings are written over the copy a block later, when the next block,
/// which a reading may reach into, is copied too.
#[inline(always)]
fn write_by(out: &mut String, text: &str, blocks: impl Blocks) -> bool {
    let bytes = text.as_bytes();
    let mut sink = Sink::new(out, bytes.len());
    // The block whose readings are not yet taken: its start and flagged
    // places (none at first).
    let mut waiting = (0, 0);
    let mut at = 0;
    while at + SPAN <= bytes.len() {
        let Some(flags) = blocks.flags(bytes, at) else {
            return false;
        };
        if flags != 0 || waiting.1 != 0 {
            sink.copy_through_block(bytes, at);
            sink.take_block(bytes, waiting.0, waiting.1, blocks);
            waiting = (at, flags);
        } else if at % COPY_EVERY == 0 {
            sink.copy_on(bytes, at);
        }
        at += BLOCK;
    }
    if !bytes[at..].is_ascii() {
        return false;
    }
    sink.copy_on(bytes, bytes.len());
    sink.take_block(bytes, waiting.0, waiting.1, blocks);
    // The tail is under a span long, and the filter reads `REACH` bytes
    // past a position.
    let mut padded = [0u8; SPAN - 1 + REACH];
    padded[..bytes.len() - at].copy_from_slice(&bytes[at..]);
    for j in (0..bytes.len() - at).filter(|&j| flags(&padded, j)) {
        sink.take_place(bytes, at + j);
    }
    sink.finish();
    true
}

/// How often, in bytes, text with no reading is copied, so it is copied
/// while still in the first-level cache, in spans long enough for a copy
/// call to pay.
const COPY_EVERY: usize = 4096;

const _: () = assert!(COPY_EVERY.is_multiple_of(BLOCK));

/// The output as [`write_by`] writes it: text copied block by block into
/// the string's spare capacity, with readings written over the copy. Input
/// byte `i` is copied to output byte `base + i`: a token reading and its
/// defanged spelling have one length, so only a neutralised control string
/// moves `base`. The string's length is set once at the end, over bytes all
/// written ([`Sink::finish`]).
struct Sink<'a> {
    out: &'a mut Vec<u8>,
    /// `out`'s buffer, kept here so each write need not load it from the
    /// vector (which a write through it might, as far as the compiler
    /// knows, have changed).
    ptr: *mut u8,
    /// Where input byte 0 goes, modulo the word size (a neutral spelling
    /// shorter than its reading would move it before the output's start).
    base: usize,
    /// The input before this byte is copied.
    copied: usize,
    /// Flagged places before this are inside a reading already taken.
    free: usize,
    /// The neutral spelling of the last control string taken.
    neutral: String,
}

// A token reading is written over its copy: its defanged spelling has its
// length.
const _: () = assert!(DEFANGED.len() == TOKEN_BYTES.len());

impl<'a> Sink<'a> {
    fn new(out: &'a mut String, len: usize) -> Self {
        // SAFETY: only ASCII text (checked before each copy), the defanged
        // spelling and neutral spellings (each a `str`) are written, whole,
        // so the bytes `finish` takes in are UTF-8.
        let out = unsafe { out.as_mut_vec() };
        out.reserve(len);
        let base = out.len();
        Sink {
            ptr: out.as_mut_ptr(),
            out,
            base,
            copied: 0,
            free: 0,
            neutral: String::new(),
        }
    }

    /// Writes `bytes` at output byte `at`, which is `base` plus an input
    /// position, and ends at most at `base` plus the input's length: within
    /// the capacity, which `new` and `neutralise` keep at least that (the
    /// tests check it at every write).
    #[inline(always)]
    fn put(&mut self, at: usize, bytes: &[u8]) {
        debug_assert!(at <= self.out.capacity() && bytes.len() <= self.out.capacity() - at);
        // SAFETY: the destination is within the allocation (the capacity
        // holds the whole input from `base`), and the source is another
        // allocation's.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), self.ptr.add(at), bytes.len());
        }
    }

    /// Copies the input from where the copy stopped up to `end`.
    #[inline(always)]
    fn copy_on(&mut self, bytes: &[u8], end: usize) {
        let from = self.copied;
        self.put(self.base.wrapping_add(from), &bytes[from..end]);
        self.copied = end;
    }

    /// Copies the input up to the end of the block at `at`: when the copy
    /// stopped at its start, as it does in text dense with readings, a
    /// fixed length, so a few vector moves rather than a call.
    #[inline(always)]
    fn copy_through_block(&mut self, bytes: &[u8], at: usize) {
        if self.copied == at {
            let block: &[u8; BLOCK] = bytes[at..at + BLOCK].try_into().expect("a block");
            self.put(self.base.wrapping_add(at), block);
            self.copied = at + BLOCK;
        } else {
            self.copy_on(bytes, at + BLOCK);
        }
    }

    /// Takes the readings the filter flagged in the block at `at`: nearly
    /// always token readings alone (one vector check each, and two stores
    /// over the copy), and anything else out of line.
    #[inline(always)]
    fn take_block(&mut self, bytes: &[u8], at: usize, mut places: u64, blocks: impl Blocks) {
        if places == 0 {
            return;
        }
        // The block's window as an array, so the checks at its places
        // need no bounds check each.
        let window: &[u8; SPAN] = bytes[at..at + SPAN].try_into().expect("a block's span");
        while places != 0 {
            let j = places.trailing_zeros() as usize;
            // A token reading is never inside a reading taken: the token
            // cannot overlap itself, nor, in ASCII, a control string.
            if !blocks.is_token_at(window, j) {
                return self.take_places(bytes, at, places);
            }
            debug_assert!(at + j >= self.free);
            self.defang(at + j);
            places &= places - 1;
        }
    }

    /// Takes the readings at the places flagged in the block at `at`, of
    /// any kind, from the first that holds no token reading. Out of line:
    /// most flagged places hold one, and this path inlined in the loop cost
    /// it registers (prose, which holds no reading at all, went from 50 to
    /// 65 µs a MiB: measured).
    #[cold]
    #[inline(never)]
    fn take_places(&mut self, bytes: &[u8], at: usize, mut places: u64) {
        while places != 0 {
            self.take_place(bytes, at + places.trailing_zeros() as usize);
            places &= places - 1;
        }
    }

    /// Takes the reading the filter flagged at `at`, if there is one and
    /// it is not inside one taken.
    fn take_place(&mut self, bytes: &[u8], at: usize) {
        if at < self.free {
            return;
        }
        match reading_at(bytes, at) {
            Some((span, Replacement::Defanged)) => self.defang(span.start),
            Some((span, Replacement::Neutral(control))) => self.neutralise(bytes, span, control),
            None => {}
        }
    }

    /// Writes the defanged spelling over the token reading at `at`.
    #[inline(always)]
    fn defang(&mut self, at: usize) {
        self.put(self.base.wrapping_add(at), DEFANGED.as_bytes());
        self.free = at + DEFANGED.len();
    }

    /// Writes the neutral spelling (the canonical string with a backslash)
    /// of the control string reading at `span`, which need not have the
    /// reading's length, and copies the input after it again, moved.
    #[inline(never)]
    fn neutralise(&mut self, bytes: &[u8], span: Range<usize>, control: &ControlString) {
        debug_assert!(self.free <= span.start && span.end <= self.copied);
        let at = self.base.wrapping_add(span.start);
        self.neutral.clear();
        control::push_neutral(&mut self.neutral, control);
        let base = at.wrapping_add(self.neutral.len()).wrapping_sub(span.end);
        let end = base.wrapping_add(bytes.len());
        if end > self.out.capacity() {
            // SAFETY: the output before the reading is all written (the
            // copy is past it), so the reserve keeps it, and what it drops
            // is written again below.
            unsafe { self.out.set_len(at) };
            self.out.reserve(end - at);
            self.ptr = self.out.as_mut_ptr();
        }
        let neutral = std::mem::take(&mut self.neutral);
        self.put(at, neutral.as_bytes());
        self.neutral = neutral;
        self.base = base;
        let copied = std::mem::replace(&mut self.copied, span.end);
        self.copy_on(bytes, copied);
        self.free = span.end;
    }

    /// Sets the output's length over the content written.
    fn finish(self) {
        let len = self.base.wrapping_add(self.copied);
        assert!(len <= self.out.capacity());
        // SAFETY: every byte from the length before up to here is written:
        // the copies are contiguous in the input, and a neutral spelling
        // fills the output between the copy before its reading and the one
        // after, moved by the difference in length.
        unsafe { self.out.set_len(len) };
    }
}

/// What a reading is replaced by.
enum Replacement {
    Defanged,
    Neutral(&'static ControlString),
}

/// The reading the filter flagged at `at`, if the exact check confirms it:
/// a token reading or a special string starting there, or a line marker
/// whose colon follows.
fn reading_at(bytes: &[u8], at: usize) -> Option<(Range<usize>, Replacement)> {
    let token = at..at + TOKEN_BYTES.len();
    if bytes.get(token.clone()).is_some_and(is_token) {
        return Some((token, Replacement::Defanged));
    }
    control::special_at(bytes, at, Placement::Content)
        .or_else(|| control::marker_ending_at(bytes, at + 1, Placement::Content))
        .map(|(span, control)| (span, Replacement::Neutral(control)))
}

/// The lower-case token in a vector's 32 bytes, and what is or-ed into each
/// byte before the comparison: [`probed`]'s 0x20 for a letter, where case
/// may differ, nothing for the hyphen, which must be itself, and all ones
/// past the token, so those bytes always compare equal.
const TOKEN_VECTOR: [u8; TOKEN_LOAD] = token_vector(false);
const TOKEN_VECTOR_CASES: [u8; TOKEN_LOAD] = token_vector(true);

const fn token_vector(cases: bool) -> [u8; TOKEN_LOAD] {
    let mut v = [0xffu8; TOKEN_LOAD];
    let mut i = 0;
    while i < TOKEN_BYTES.len() {
        v[i] = match cases {
            true => probed(0, i),
            false => TOKEN_BYTES[i],
        };
        i += 1;
    }
    v
}

/// The same two, the token's 20 bytes of each, as a `u128` and a `u32`
/// (little-endian): the first 16 and the last 4.
const TOKEN_WORDS: (u128, u32) = token_words(&TOKEN_VECTOR);
const TOKEN_CASES: (u128, u32) = token_words(&TOKEN_VECTOR_CASES);

const fn token_words(vector: &[u8; TOKEN_LOAD]) -> (u128, u32) {
    assert!(TOKEN_BYTES.len() == 20);
    let mut head = 0u128;
    let mut tail = 0u32;
    let mut i = 0;
    while i < 20 {
        let b = vector[i];
        if i < 16 {
            head |= (b as u128) << (8 * i);
        } else {
            tail |= (b as u32) << (8 * (i - 16));
        }
        i += 1;
    }
    (head, tail)
}

/// `candidate.eq_ignore_ascii_case(TOKEN_BYTES)` in two integer
/// comparisons: a byte or-ed with 0x20 is a lower-case letter exactly when
/// it is that letter in either case, and the token's other bytes must be
/// equal. It runs once per flagged place, which on token-dense text is
/// every few bytes.
fn is_token(candidate: &[u8]) -> bool {
    let Ok(&whole) = <&[u8; 20]>::try_from(candidate) else {
        return false;
    };
    let head = u128::from_le_bytes(whole[..16].try_into().expect("16 bytes"));
    let tail = u32::from_le_bytes(whole[16..].try_into().expect("4 bytes"));
    head | TOKEN_CASES.0 == TOKEN_WORDS.0 && tail | TOKEN_CASES.1 == TOKEN_WORDS.1
}

/// Whether the filter flags position `j` of `window`, which holds at least
/// `j + REACH + 1` bytes (past the text's end, zeros). The specification of
/// the vectorised filter.
fn flags(window: &[u8], j: usize) -> bool {
    let lower = |k: usize| window[j + k] | 0x20;
    let token = TOKEN_PROBES
        .iter()
        .all(|&k| probed(window[j + k], k) == TOKEN_BYTES[k]);
    let special = SPECIAL_STARTS.contains(&window[j])
        && SPECIAL_SECONDS.contains(&lower(1))
        && SPECIAL_THIRDS.contains(&lower(2));
    let marker = window[j + 1] == MARKER_END && MARKER_BEFORE_END.contains(&lower(0));
    token || special || marker
}

/// `byte` as the filter compares it with the token's byte at `k`: lower
/// cased for a letter, which a reading may have in either case, and as it
/// is for the hyphen, which a reading has as it is.
const fn probed(byte: u8, k: usize) -> u8 {
    match TOKEN_BYTES[k].is_ascii_lowercase() {
        true => byte | 0x20,
        false => byte,
    }
}

/// The filter without vectors, position by position: the specification
/// each vectorised copy is tested against, and a [`Blocks`] the tests
/// drive [`write_by`] with.
#[cfg(test)]
#[derive(Debug, Clone, Copy)]
struct Spec;

#[cfg(test)]
impl Blocks for Spec {
    fn flags(self, bytes: &[u8], at: usize) -> Option<u64> {
        if !bytes[at..at + BLOCK].is_ascii() {
            return None;
        }
        let window = &bytes[at..at + SPAN];
        let flagged = (0..BLOCK).filter(|&j| flags(window, j));
        Some(flagged.fold(0, |places, j| places | 1 << j))
    }

    fn is_token_at(self, bytes: &[u8], at: usize) -> bool {
        is_token(&bytes[at..at + TOKEN_BYTES.len()])
    }
}

/// The vectorised filter, written once over an instruction set's
/// primitives. Each instruction set's copy must itself be compiled with that
/// target feature, or its intrinsics are calls rather than instructions, so
/// the block logic is a macro expanded in each module, next to the
/// primitives it uses: a `Vector` of 64 bytes (`load`, `or_0x20`,
/// `non_ascii`), and a `Mask` of them (`equal`, `member` of a [`ByteSet`],
/// `and`, `or`, `none`, and `bits`, one bit per byte). AVX-512BW compares
/// into 64-bit masks; AVX2 keeps masks as vectors until a block's last
/// step, because moving each comparison out to a general register costs
/// more than the comparison. Both test a set with one byte shuffle rather
/// than a comparison per member, which matters on source and JSON, where
/// most blocks hold a `<`, `[` or `:`. Each module's `push` is
/// [`write_by`] with its filter, inlined, in the module's instruction set.
#[cfg(target_arch = "x86_64")]
macro_rules! block_filter {
    ($feature:literal) => {
        use super::{
            Blocks, BEFORE_END_SET, MARKER_END, SECONDS_SET, SPAN, STARTS_SET, THIRDS_SET,
            TOKEN_BYTES, TOKEN_PROBES,
        };

        /// [`super::push_content`] with this instruction set's filter.
        #[target_feature(enable = $feature)]
        pub(super) fn push(out: &mut String, text: &str) -> bool {
            super::write_by(out, text, Here(()))
        }

        /// This module's filter as [`super::write_by`] drives it. Only
        /// `push` makes one, so its methods run where the instruction set
        /// is enabled.
        #[derive(Clone, Copy)]
        struct Here(());

        impl Blocks for Here {
            #[inline(always)]
            fn flags(self, bytes: &[u8], at: usize) -> Option<u64> {
                // SAFETY: a `Here` exists only inside `push`, which the
                // CPU's instruction set was checked for.
                unsafe { block_flags(bytes, at) }
            }

            #[inline(always)]
            fn is_token_at(self, bytes: &[u8], at: usize) -> bool {
                // SAFETY: as in `flags`.
                unsafe { is_token_at(bytes, at) }
            }
        }

        /// The flags [`super::Spec`] gives the block at `at`. Specials and
        /// markers are only tested in blocks holding a byte they start or
        /// end with: most blocks of prose hold neither.
        #[target_feature(enable = $feature)]
        #[inline]
        pub(super) fn block_flags(bytes: &[u8], at: usize) -> Option<u64> {
            assert!(at + SPAN <= bytes.len());
            let here = load(bytes, at);
            if non_ascii(here) {
                return None;
            }
            let lower = or_0x20(here);
            let mut flagged = equal(lower, TOKEN_BYTES[TOKEN_PROBES[0]]);
            for &k in &TOKEN_PROBES[1..] {
                let probe = match super::probed(0, k) {
                    0x20 => or_0x20(load(bytes, at + k)),
                    _ => load(bytes, at + k),
                };
                flagged = and(flagged, equal(probe, TOKEN_BYTES[k]));
            }
            // The third character before the second: after a `<`, a `/`
            // is common (every closing tag), a third character in the set
            // less so.
            let mut specials = member(here, &STARTS_SET);
            if !none(specials) {
                specials = and(specials, member(or_0x20(load(bytes, at + 2)), &THIRDS_SET));
            }
            if !none(specials) {
                let seconds = member(or_0x20(load(bytes, at + 1)), &SECONDS_SET);
                flagged = or(flagged, and(specials, seconds));
            }
            let colons = equal(load(bytes, at + 1), MARKER_END);
            if !none(colons) {
                flagged = or(flagged, and(colons, member(lower, &BEFORE_END_SET)));
            }
            Some(bits(flagged))
        }
    };
}

/// The filter in AVX-512BW: a comparison of 64 bytes yields the block's
/// 64-bit mask at once.
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::ByteSet;
    use std::arch::x86_64::{
        __m512i, _mm512_broadcast_i32x4, _mm512_cmpeq_epi8_mask, _mm512_loadu_si512,
        _mm512_movepi8_mask, _mm512_or_si512, _mm512_set1_epi8, _mm512_shuffle_epi8,
    };

    type Vector = __m512i;
    type Mask = u64;

    block_filter!("avx512bw");

    // The token check needs no more than AVX2, which every AVX-512BW CPU
    // has.
    pub(super) use super::avx2::is_token_at;

    /// The 64 bytes of `bytes` from `at`.
    #[target_feature(enable = "avx512bw")]
    fn load(bytes: &[u8], at: usize) -> Vector {
        let chunk = &bytes[at..at + 64];
        // SAFETY: `chunk` is 64 readable bytes, and the load is unaligned.
        unsafe { _mm512_loadu_si512(chunk.as_ptr().cast()) }
    }

    #[target_feature(enable = "avx512bw")]
    fn non_ascii(v: Vector) -> bool {
        _mm512_movepi8_mask(v) != 0
    }

    #[target_feature(enable = "avx512bw")]
    fn or_0x20(v: Vector) -> Vector {
        _mm512_or_si512(v, _mm512_set1_epi8(0x20))
    }

    #[target_feature(enable = "avx512bw")]
    fn equal(v: Vector, byte: u8) -> Mask {
        _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(byte as i8))
    }

    /// The bytes of `v` that are in `set`, as in AVX2: each byte's low
    /// nibble picks the table entry (the shuffle works within 128-bit
    /// lanes, so the table is in all four), which equals the byte only for
    /// a member.
    #[target_feature(enable = "avx512bw")]
    fn member(v: Vector, set: &ByteSet) -> Mask {
        let table = _mm512_broadcast_i32x4(set.table());
        _mm512_cmpeq_epi8_mask(_mm512_shuffle_epi8(table, v), v)
    }

    fn and(a: Mask, b: Mask) -> Mask {
        a & b
    }

    fn or(a: Mask, b: Mask) -> Mask {
        a | b
    }

    fn none(m: Mask) -> bool {
        m == 0
    }

    fn bits(m: Mask) -> u64 {
        m
    }
}

/// The filter in AVX2, for CPUs without AVX-512BW (most of them): a block
/// is two 32-byte halves, and a mask is a pair of vectors whose two 32-bit
/// halves are joined into the block's 64-bit mask at its end.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{ByteSet, TOKEN_LOAD, TOKEN_VECTOR, TOKEN_VECTOR_CASES};
    use std::arch::x86_64::{
        __m256i, _mm256_and_si256, _mm256_broadcastsi128_si256, _mm256_cmpeq_epi8,
        _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi8,
        _mm256_shuffle_epi8, _mm256_testz_si256,
    };

    /// A block's 64 bytes: the low half, then the high one.
    #[derive(Clone, Copy)]
    struct Vector(__m256i, __m256i);

    /// A block's mask: each byte all ones where it holds, else zero.
    type Mask = Vector;

    block_filter!("avx2");

    /// Whether the token's length of bytes at `at` is a token reading: one
    /// load, or, comparison, and the comparison's mask, all ones.
    #[target_feature(enable = "avx2")]
    pub(super) fn is_token_at(bytes: &[u8], at: usize) -> bool {
        let load = |b: &[u8; TOKEN_LOAD]| {
            // SAFETY: `b` is 32 readable bytes, and the load is unaligned.
            unsafe { _mm256_loadu_si256(b.as_ptr().cast()) }
        };
        let chunk = bytes[at..at + TOKEN_LOAD].try_into().expect("32 bytes");
        let cased = _mm256_or_si256(load(chunk), load(&TOKEN_VECTOR_CASES));
        _mm256_movemask_epi8(_mm256_cmpeq_epi8(cased, load(&TOKEN_VECTOR))) == -1
    }

    /// The 64 bytes of `bytes` from `at`.
    #[target_feature(enable = "avx2")]
    fn load(bytes: &[u8], at: usize) -> Vector {
        let chunk = &bytes[at..at + 64];
        // SAFETY: `chunk` is 64 readable bytes, and both loads, of its
        // halves, are unaligned.
        unsafe {
            Vector(
                _mm256_loadu_si256(chunk.as_ptr().cast()),
                _mm256_loadu_si256(chunk[32..].as_ptr().cast()),
            )
        }
    }

    #[target_feature(enable = "avx2")]
    fn non_ascii(v: Vector) -> bool {
        _mm256_movemask_epi8(_mm256_or_si256(v.0, v.1)) != 0
    }

    #[target_feature(enable = "avx2")]
    fn or_0x20(v: Vector) -> Vector {
        let bit = _mm256_set1_epi8(0x20);
        Vector(_mm256_or_si256(v.0, bit), _mm256_or_si256(v.1, bit))
    }

    #[target_feature(enable = "avx2")]
    fn equal(v: Vector, byte: u8) -> Mask {
        let byte = _mm256_set1_epi8(byte as i8);
        Vector(_mm256_cmpeq_epi8(v.0, byte), _mm256_cmpeq_epi8(v.1, byte))
    }

    /// The bytes of `v` that are in `set`: each byte's low nibble picks the
    /// table entry (the shuffle works within 128-bit lanes, so the table
    /// is in both), which equals the byte only for a member. A byte with
    /// its high bit set picks zero, and so is never a member.
    #[target_feature(enable = "avx2")]
    fn member(v: Vector, set: &ByteSet) -> Mask {
        let table = _mm256_broadcastsi128_si256(set.table());
        Vector(
            _mm256_cmpeq_epi8(_mm256_shuffle_epi8(table, v.0), v.0),
            _mm256_cmpeq_epi8(_mm256_shuffle_epi8(table, v.1), v.1),
        )
    }

    #[target_feature(enable = "avx2")]
    fn and(a: Mask, b: Mask) -> Mask {
        Vector(_mm256_and_si256(a.0, b.0), _mm256_and_si256(a.1, b.1))
    }

    #[target_feature(enable = "avx2")]
    fn or(a: Mask, b: Mask) -> Mask {
        Vector(_mm256_or_si256(a.0, b.0), _mm256_or_si256(a.1, b.1))
    }

    #[target_feature(enable = "avx2")]
    fn none(m: Mask) -> bool {
        let either = _mm256_or_si256(m.0, m.1);
        _mm256_testz_si256(either, either) == 1
    }

    /// Bit `j` set when byte `j` of `m` is.
    #[target_feature(enable = "avx2")]
    fn bits(m: Mask) -> u64 {
        let low = _mm256_movemask_epi8(m.0) as u32 as u64;
        let high = _mm256_movemask_epi8(m.1) as u32 as u64;
        low | high << 32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use framecheck_core::chat_template::{Kind, CONTROL_STRINGS};
    use proptest::prelude::*;

    /// What the two-pass path writes for content.
    fn two_pass(text: &str) -> String {
        let mut out = String::new();
        super::super::push_defanged(&mut out, &control::neutralise(text, Placement::Content));
        out
    }

    #[test]
    fn the_filter_sets_cover_the_table() {
        for control in &CONTROL_STRINGS {
            let lower = control.text.to_ascii_lowercase();
            let b = lower.as_bytes();
            if control.kind == Kind::LineMarker {
                assert_eq!(b[b.len() - 1], MARKER_END, "{}", control.text);
                assert!(
                    MARKER_BEFORE_END.contains(&b[b.len() - 2]),
                    "{}",
                    control.text
                );
            } else {
                assert!(SPECIAL_STARTS.contains(&b[0]), "{}", control.text);
                assert!(SPECIAL_SECONDS.contains(&b[1]), "{}", control.text);
                assert!(SPECIAL_THIRDS.contains(&b[2]), "{}", control.text);
            }
        }
    }

    /// ASCII pieces dense in near and exact readings of every kind.
    fn piece() -> impl Strategy<Value = String> {
        let mut pieces: Vec<String> = CONTROL_STRINGS.iter().map(|c| c.text.to_owned()).collect();
        pieces.extend(
            [
                TOKEN,
                "FRAMECHECK-UNTRUSTED",
                "framecheck-untruste",
                "<|",
                "[i",
                ":",
                "n:",
            ]
            .map(String::from),
        );
        pieces.extend(["\n", "\r", " ", "\t", "\x0b", "\x0c", "\\", "\0"].map(String::from));
        prop_oneof![
            proptest::sample::select(pieces),
            proptest::sample::select(pieces_upper()),
            "[ -~\t\n\r\x00-\x1f\x7f]{0,12}",
        ]
    }

    fn pieces_upper() -> Vec<String> {
        CONTROL_STRINGS
            .iter()
            .map(|c| c.text.to_ascii_uppercase())
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn one_pass_writes_what_two_passes_write(
            pieces in proptest::collection::vec(piece(), 0..40),
        ) {
            let text: String = pieces.concat();
            let mut one = String::new();
            prop_assert!(write_by(&mut one, &text, Spec));
            prop_assert_eq!(&one, &two_pass(&text));
            let mut dispatched = String::new();
            if push_content(&mut dispatched, &text) {
                prop_assert_eq!(&dispatched, &one);
            }
            for (isa, filter) in vector_filters() {
                let mut vectors = String::new();
                prop_assert!(filter.push(&mut vectors, &text), "{:?}", isa);
                prop_assert_eq!(&vectors, &one, "{:?}", isa);
            }
        }

        #[test]
        fn vectors_flag_what_the_specification_flags(
            bytes in proptest::collection::vec(
                prop_oneof![
                    8 => proptest::sample::select(b"fF-dD<[|sSeEiI/:nNtT\\\r\0 x".to_vec()),
                    8 => any::<u8>().prop_map(|b| b & 0x7f),
                    1 => any::<u8>(),
                ],
                0..400,
            ),
        ) {
            for (isa, filter) in vector_filters() {
                for at in (0..).step_by(BLOCK).take_while(|at| at + SPAN <= bytes.len()) {
                    prop_assert_eq!(
                        filter.flags(&bytes, at), Spec.flags(&bytes, at), "{:?} at {}", isa, at
                    );
                }
            }
        }

        #[test]
        fn vectors_check_the_token_as_the_specification_does(
            case in proptest::collection::vec(any::<bool>(), TOKEN_BYTES.len()),
            change in proptest::option::of((0..TOKEN_BYTES.len(), any::<u8>())),
            after in proptest::collection::vec(any::<u8>(), TOKEN_LOAD - TOKEN_BYTES.len()),
        ) {
            // A reading in some mix of cases, perhaps with one byte
            // changed, and any bytes after it, which the vector loads.
            let mut bytes: Vec<u8> = TOKEN_BYTES
                .iter()
                .zip(&case)
                .map(|(&b, &upper)| if upper { b.to_ascii_uppercase() } else { b })
                .collect();
            if let Some((i, b)) = change {
                bytes[i] = b;
            }
            bytes.extend(after);
            let spec = Spec.is_token_at(&bytes, 0);
            prop_assert_eq!(spec, bytes[..TOKEN_BYTES.len()].eq_ignore_ascii_case(TOKEN_BYTES));
            for (isa, filter) in vector_filters() {
                prop_assert_eq!(filter.is_token_at(&bytes, 0), spec, "{:?}", isa);
            }
        }
    }

    /// Every vectorised filter this CPU can run, by name.
    fn vector_filters() -> Vec<(Vectors, Filter)> {
        [Vectors::Avx512, Vectors::Avx2]
            .into_iter()
            .filter_map(|v| Some((v, filter(v)?)))
            .collect()
    }

    #[test]
    fn a_cap_only_ever_lowers_the_instruction_set() {
        use Vectors::{Avx2, Avx512, Off};
        for best in [Avx512, Avx2, Off] {
            assert_eq!(capped(best, None), best);
            assert_eq!(capped(best, Some("avx512bw")), best);
            assert_eq!(capped(best, Some("off")), Off);
            assert_eq!(capped(best, Some("avx-2")), Off, "unknown is off");
        }
        assert_eq!(capped(Avx512, Some("AVX2")), Avx2);
        assert_eq!(capped(Avx2, Some("avx2")), Avx2);
        assert_eq!(capped(Off, Some("avx2")), Off, "never a set the CPU lacks");
    }

    #[test]
    fn non_ascii_text_is_declined_and_nothing_is_left_written() {
        // A non-ASCII character in the first block, in a later block after
        // readings were written, and in the tail.
        let readings = "framecheck-untrusted <|im_end|>\nHuman: x ".repeat(20);
        for text in [
            format!("caf\u{e9} {readings}"),
            format!("{readings}caf\u{e9} {readings}"),
            format!("{readings}\u{200B}"),
        ] {
            let mut out = String::from("<header>");
            assert!(!push_content(&mut out, &text));
            assert_eq!(out, "<header>");
            // The filters themselves may stop after writing some of it;
            // `push_content` is what drops that.
            assert!(!write_by(&mut String::new(), &text, Spec));
            for (isa, filter) in vector_filters() {
                assert!(!filter.push(&mut String::new(), &text), "{isa:?}");
            }
        }
    }

    /// Every reading placed across block edges, a place where text
    /// without readings is copied ([`COPY_EVERY`]), and the edge of the
    /// last positions a block holds, on a line of its own or after other
    /// text, before text of several lengths.
    #[test]
    fn readings_across_block_edges_and_copy_points_are_replaced() {
        let mut spellings: Vec<&str> = CONTROL_STRINGS.iter().map(|c| c.text).collect();
        spellings.push(TOKEN);
        let starts = (2 * BLOCK - 30..2 * BLOCK + 2).chain(COPY_EVERY - 30..COPY_EVERY + 2);
        for at in starts {
            for after in [0, 1, 40, SPAN, BLOCK + SPAN - 1] {
                for spelling in &spellings {
                    for line in ["\n", " "] {
                        let before = "x".repeat(at - line.len());
                        let text = format!("{before}{line}{spelling} {}", "y".repeat(after));
                        assert_writes_two_pass(&text, &format!("{spelling:?} at {at}"));
                    }
                }
            }
        }
    }

    /// What every filter writes for `text`, after a header: what the two
    /// passes write.
    fn assert_writes_two_pass(text: &str, what: &str) {
        let expected = format!("header{}", two_pass(text));
        let mut spec = String::from("header");
        assert!(write_by(&mut spec, text, Spec), "{what}");
        assert_eq!(spec, expected, "{what}");
        for (isa, filter) in vector_filters() {
            let mut out = String::from("header");
            assert!(filter.push(&mut out, text), "{isa:?}: {what}");
            assert_eq!(out, expected, "{isa:?}: {what}");
        }
    }

    #[test]
    fn dense_readings_are_all_replaced() {
        // Token readings every few bytes, in mixed cases, over many blocks,
        // with a control string (a reading that changes length) now and
        // then and text of every length between.
        let spellings = [TOKEN, "FRAMECHECK-UNTRUSTED", "FrameCheck-Untrusted"];
        let mut text = String::new();
        for i in 0..643 {
            text.push_str(spellings[i % 3]);
            text.push_str(&"</>"[..i % 4]);
            if i % 301 == 0 {
                text.push_str(CONTROL_STRINGS[i % CONTROL_STRINGS.len()].text);
            }
        }
        assert_writes_two_pass(&text, "dense");
        assert_eq!(two_pass(&text).matches(DEFANGED).count(), 643);
    }

    #[test]
    fn output_longer_than_its_reserve_is_all_kept() {
        // Each neutral spelling is longer than its reading, so content of
        // control strings alone outgrows the capacity reserved for the
        // text, again and again; with token readings between, before the
        // first and after the last.
        for n in [1, 3, 200, 2000] {
            let mut text = String::from("framecheck-untrusted");
            for i in 0..n {
                text.push_str(CONTROL_STRINGS[i % CONTROL_STRINGS.len()].text);
                if i % 7 == 0 {
                    text.push_str("FRAMECHECK-untrusted\n");
                }
            }
            text.push_str("framecheck-untrusted");
            assert_writes_two_pass(&text, &format!("{n} control strings"));
        }
    }

    #[test]
    fn is_token_is_the_case_insensitive_comparison() {
        // Every byte in every place: `| 0x20` maps `@` onto a backquote
        // and `[` onto `{`, so only letters may differ by case.
        assert!(is_token(TOKEN_BYTES) && !is_token(&TOKEN_BYTES[1..]));
        for i in 0..TOKEN_BYTES.len() {
            for b in 0..=255u8 {
                let mut candidate = TOKEN_BYTES.to_vec();
                candidate[i] = b;
                assert_eq!(
                    is_token(&candidate),
                    candidate.eq_ignore_ascii_case(TOKEN_BYTES),
                    "{b:#x} at {i}"
                );
            }
        }
    }

    #[test]
    fn the_filter_flags_each_kind_of_reading() {
        let text = "a FrameCheck-Untrusted b <|im_end|> c\n  Human: d";
        let mut padded = text.as_bytes().to_vec();
        padded.resize(text.len() + REACH + 1, 0);
        let flagged: Vec<usize> = (0..text.len()).filter(|&j| flags(&padded, j)).collect();
        for at in [2, 25, text.find("n:").unwrap()] {
            assert!(flagged.contains(&at), "{at} not in {flagged:?}");
        }
        let mut out = String::new();
        assert!(write_by(&mut out, text, Spec));
        assert_eq!(out, "a framecheck_untrusted b <|im_end|\\> c\n  Human\\: d");
    }
}
