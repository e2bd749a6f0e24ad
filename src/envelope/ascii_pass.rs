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
//!   ([`control::SPECIAL_STARTS`]) followed by bytes its second and third
//!   characters can be;
//! - a line marker: a [`control::MARKER_END`] colon after a byte a marker
//!   can have before it.
//!
//! The filter lets through a superset (it lower-cases with `| 0x20`, which
//! also maps a few punctuation bytes onto the sets); the exact checks at a
//! flagged place are the same functions the two-pass path uses
//! ([`control::special_at`], [`control::marker_ending_at`], the token's
//! case-insensitive comparison), so the readings are the same. In ASCII
//! text no token reading, special and marker can overlap (none holds
//! another's characters at its edges: a test over random text compares
//! this path with the two-pass one), so replacing each in order of position
//! is what neutralising and then defanging writes.
//!
//! The filter has one copy per instruction set (AVX-512BW, and AVX2 as two
//! 32-byte halves), from one macro. Without either, or for text that is
//! not all ASCII, [`push_content`] declines and [`super::wrap`] takes the
//! two-pass path. The filter without vectors ([`candidates_spec`]) is the
//! specification each vectorised copy is tested against.

use std::ops::Range;

use super::control::{self, Placement, MARKER_END, SPECIAL_STARTS};
use super::{DEFANGED, TOKEN};
use crate::chat_template::{ControlString, CONTROL_STRINGS};

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

/// How often, in bytes, the vectorised filter reports its progress, so
/// the text it has passed is copied while still in the first-level cache.
const SCANNED_EVERY: usize = 4096;

/// How far before the place the filter flags a reading can start: a line
/// marker is flagged at its colon. Text is copied out only this far behind
/// the filter's progress.
const FLUSH_MARGIN: usize = {
    let mut longest = TOKEN.len();
    let mut i = 0;
    while i < CONTROL_STRINGS.len() {
        if CONTROL_STRINGS[i].text.len() > longest {
            longest = CONTROL_STRINGS[i].text.len();
        }
        i += 1;
    }
    longest
};

/// What a filter tells its visitor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Event {
    /// The filter flags this position.
    Flagged(usize),
    /// Every position before this one has been tested, and is ASCII.
    Scanned(usize),
}

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

/// Something that finds the places a reading can be, as
/// [`push_content_by`] takes it: it reports them and its progress to
/// `visit`, in increasing order, and returns whether the text is all
/// ASCII (when it is not, it may stop early). The visitor is a type
/// parameter, not a `dyn` one, so on text dense with readings a flagged
/// place costs no indirect call.
trait Candidates {
    fn for_each(self, bytes: &[u8], visit: impl FnMut(Event)) -> bool;
}

/// The specification, [`candidates_spec`], as the tests hand it over.
#[cfg(test)]
impl<F: FnOnce(&[u8], &mut dyn FnMut(Event)) -> bool> Candidates for F {
    fn for_each(self, bytes: &[u8], mut visit: impl FnMut(Event)) -> bool {
        self(bytes, &mut visit)
    }
}

/// A vectorised filter this CPU can run: only [`filter`] makes one.
#[derive(Debug, Clone, Copy)]
enum Filter {
    #[cfg(target_arch = "x86_64")]
    Avx512,
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Candidates for Filter {
    fn for_each(self, bytes: &[u8], visit: impl FnMut(Event)) -> bool {
        match self {
            // SAFETY (both arms): a `Filter` is only made by `filter`, after
            // it found the instruction set on this CPU, the only
            // requirement of the target-feature function.
            #[cfg(target_arch = "x86_64")]
            Filter::Avx512 => unsafe { avx512::for_each_candidate(bytes, visit) },
            #[cfg(target_arch = "x86_64")]
            Filter::Avx2 => unsafe { avx2::for_each_candidate(bytes, visit) },
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
    let ascii = push_content_by(out, text, filter);
    if !ascii {
        // Non-ASCII text is found on the way, not in a pass of its own;
        // what was written up to there is dropped.
        out.truncate(before);
    }
    ascii
}

/// [`push_content`] with the flagged places found by `candidates`, which
/// reports them and its progress to its visitor, in increasing order, and
/// returns whether the text is all ASCII: when it is not, it may stop
/// early, and what was appended is incomplete. Every place it reports is in
/// an ASCII prefix of the text, so every span sliced here is on character
/// boundaries.
fn push_content_by(out: &mut String, text: &str, candidates: impl Candidates) -> bool {
    let bytes = text.as_bytes();
    let mut writer = Writer {
        out,
        text,
        copied: 0,
        pending: [0; PENDING],
        waiting: 0,
        free: 0,
    };
    let ascii = candidates.for_each(bytes, |event| match event {
        Event::Scanned(up_to) => writer.copy_to(up_to.saturating_sub(FLUSH_MARGIN)),
        Event::Flagged(at) if at >= writer.free => match reading_at(bytes, at) {
            Some((span, Replacement::Defanged)) => writer.defang(span),
            Some((span, Replacement::Neutral(control))) => writer.neutralise(span, control),
            None => {}
        },
        Event::Flagged(_) => {}
    });
    if ascii {
        writer.copy_to(text.len());
    }
    ascii
}

/// How many token readings wait to be patched at most: fewer than fit
/// between two progress reports (a token every 20 to 23 bytes), so a full
/// list is a path token-dense text takes, and the tests reach.
const PENDING: usize = 128;

const _: () = assert!(PENDING * TOKEN_BYTES.len() < SCANNED_EVERY);

// A reading is patched in place: its defanged spelling has its length.
const _: () = assert!(DEFANGED.len() == TOKEN_BYTES.len());

/// The output as [`push_content_by`] writes it. Text is copied in long
/// spans; a token reading, the same length as its defanged spelling, is
/// not a break in the copy but a patch over it once copied. On text dense
/// with readings (one every few bytes) that is what keeps the pass near a
/// copy: a span copied per reading costs a call each.
struct Writer<'a> {
    out: &'a mut String,
    text: &'a str,
    /// The text before this byte is in `out`.
    copied: usize,
    /// Where the token readings not yet patched start, in order, all at or
    /// after `copied`: the first `waiting`.
    pending: [usize; PENDING],
    waiting: usize,
    /// Flagged places before this are inside a reading already taken.
    free: usize,
}

impl Writer<'_> {
    /// Takes the token reading at `span`.
    fn defang(&mut self, span: Range<usize>) {
        if self.waiting == PENDING {
            self.copy_to(self.pending[PENDING - 1] + TOKEN_BYTES.len());
        }
        self.pending[self.waiting] = span.start;
        self.waiting += 1;
        self.free = span.end;
    }

    /// Takes the control string reading at `span`: its neutral spelling
    /// (the canonical string with a backslash) need not have the
    /// reading's length, so the copy breaks there.
    // Inlined into the filter's loop like the rest of the visitor: as a
    // call, it cost token-dense text about a tenth (measured), though that
    // text never takes it.
    #[inline(always)]
    fn neutralise(&mut self, span: Range<usize>, control: &ControlString) {
        self.copy_to(span.start);
        debug_assert_eq!(self.copied, span.start, "readings never overlap");
        control::push_neutral(self.out, control);
        self.copied = span.end;
        self.free = span.end;
    }

    /// Copies the text up to `end`, or up to the start of a waiting reading
    /// that `end` would cut, and patches every waiting reading it holds.
    fn copy_to(&mut self, end: usize) {
        // Readings do not overlap, so only the last waiting ones can reach
        // past `end`: look from the back.
        let mut whole = self.waiting;
        while whole > 0 && self.pending[whole - 1] + TOKEN_BYTES.len() > end {
            whole -= 1;
        }
        let end = match whole < self.waiting {
            true => self.pending[whole].min(end),
            false => end,
        };
        if end <= self.copied {
            return;
        }
        let base = self.out.len();
        self.out.push_str(&self.text[self.copied..end]);
        // SAFETY: the bytes at each patched place are a token reading just
        // copied, all ASCII, and so is the defanged spelling of the same
        // length: the string stays UTF-8.
        let out = unsafe { self.out.as_mut_vec() };
        for &at in &self.pending[..whole] {
            let at = base + (at - self.copied);
            out[at..at + DEFANGED.len()].copy_from_slice(DEFANGED.as_bytes());
        }
        self.pending.copy_within(whole..self.waiting, 0);
        self.waiting -= whole;
        self.copied = end;
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

/// The token's first 16 bytes and its last 4, lower case, as integers;
/// and the bit 0x20 of each letter, where case may differ.
const TOKEN_WORDS: (u128, u32) = token_words(0);
const TOKEN_CASES: (u128, u32) = token_words(0x20);

/// The token's bytes as a `u128` and a `u32` (little-endian), each letter
/// or-ed with `letter_bit` and every other byte zero when that is nonzero.
const fn token_words(letter_bit: u8) -> (u128, u32) {
    assert!(TOKEN_BYTES.len() == 20);
    let mut head = 0u128;
    let mut tail = 0u32;
    let mut i = 0;
    while i < 20 {
        let b = TOKEN_BYTES[i];
        let b = match letter_bit {
            0 => b,
            bit if b.is_ascii_lowercase() => bit,
            _ => 0,
        };
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
    let token = TOKEN_PROBES.iter().all(|&k| lower(k) == TOKEN_BYTES[k]);
    let special = SPECIAL_STARTS.contains(&window[j])
        && SPECIAL_SECONDS.contains(&lower(1))
        && SPECIAL_THIRDS.contains(&lower(2));
    let marker = window[j + 1] == MARKER_END && MARKER_BEFORE_END.contains(&lower(0));
    token || special || marker
}

/// Every position of `bytes` the filter flags, in order, without vectors,
/// with progress reported after every byte (the most a visitor can be
/// told); false, having visited nothing, when `bytes` is not all ASCII.
#[cfg(test)]
fn candidates_spec(bytes: &[u8], visit: &mut dyn FnMut(Event)) -> bool {
    if !bytes.is_ascii() {
        return false;
    }
    let mut padded = bytes.to_vec();
    padded.resize(bytes.len() + REACH + 1, 0);
    for j in 0..bytes.len() {
        if flags(&padded, j) {
            visit(Event::Flagged(j));
        }
        visit(Event::Scanned(j + 1));
    }
    true
}

/// The filter on the text's last positions, too few for a whole block: a
/// zero-padded copy tested position by position. False, having visited
/// nothing, when they are not all ASCII.
fn candidates_in_tail(bytes: &[u8], from: usize, visit: &mut dyn FnMut(Event)) -> bool {
    let tail = &bytes[from..];
    if !tail.is_ascii() {
        return false;
    }
    let mut padded = [0u8; WIDTH + REACH + 1];
    padded[..tail.len()].copy_from_slice(tail);
    for j in (0..tail.len()).filter(|&j| flags(&padded, j)) {
        visit(Event::Flagged(from + j));
    }
    true
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
/// most blocks hold a `<`, `[` or `:`.
///
/// The visitor is inlined into each copy. Tried and slower on token-dense
/// text: copying ahead of each token reading and writing over it (a copy
/// call per reading, which [`Writer`]'s patches after long copies avoid),
/// copying short gaps byte by byte, and turning each block's mask into a
/// batch of places without a loop per mask.
#[cfg(target_arch = "x86_64")]
macro_rules! block_filter {
    ($feature:literal) => {
        use super::{
            candidates_in_tail, Event, BEFORE_END_SET, BLOCK, MARKER_END, SCANNED_EVERY,
            SECONDS_SET, STARTS_SET, THIRDS_SET, TOKEN_BYTES, TOKEN_PROBES, WIDTH,
        };

        /// [`super::candidates_spec`], 64 positions at a time, stopping at
        /// the first block holding a non-ASCII byte.
        #[target_feature(enable = $feature)]
        pub(super) fn for_each_candidate(bytes: &[u8], mut visit: impl FnMut(Event)) -> bool {
            let mut at = 0;
            while at + WIDTH <= bytes.len() {
                let Some(mut mask) = block_flags(bytes, at) else {
                    return false;
                };
                while mask != 0 {
                    visit(Event::Flagged(at + mask.trailing_zeros() as usize));
                    mask &= mask - 1;
                }
                at += BLOCK;
                if at % SCANNED_EVERY == 0 {
                    visit(Event::Scanned(at));
                }
            }
            candidates_in_tail(bytes, at, &mut visit)
        }

        /// Bit `j` set when [`super::flags`] flags position `at + j`, or
        /// `None` when one of the block's 64 bytes is not ASCII. Specials
        /// and markers are only tested in blocks holding a byte they start
        /// or end with: most blocks of prose hold neither.
        #[target_feature(enable = $feature)]
        fn block_flags(bytes: &[u8], at: usize) -> Option<u64> {
            assert!(at + WIDTH <= bytes.len());
            let here = load(bytes, at);
            if non_ascii(here) {
                return None;
            }
            let lower = or_0x20(here);
            let mut flagged = equal(lower, TOKEN_BYTES[TOKEN_PROBES[0]]);
            for &k in &TOKEN_PROBES[1..] {
                flagged = and(flagged, equal(or_0x20(load(bytes, at + k)), TOKEN_BYTES[k]));
            }
            let mut specials = member(here, &STARTS_SET);
            if !none(specials) {
                specials = and(specials, member(or_0x20(load(bytes, at + 1)), &SECONDS_SET));
            }
            if !none(specials) {
                let thirds = member(or_0x20(load(bytes, at + 2)), &THIRDS_SET);
                flagged = or(flagged, and(specials, thirds));
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
    use super::ByteSet;
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
    use crate::chat_template::{Kind, CONTROL_STRINGS};
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
            prop_assert!(push_content_by(&mut one, &text, candidates_spec));
            prop_assert_eq!(&one, &two_pass(&text));
            let mut dispatched = String::new();
            if push_content(&mut dispatched, &text) {
                prop_assert_eq!(&dispatched, &one);
            }
            for (isa, filter) in vector_filters() {
                let mut vectors = String::new();
                prop_assert!(push_content_by(&mut vectors, &text, filter), "{:?}", isa);
                prop_assert_eq!(&vectors, &one, "{:?}", isa);
            }
        }

        #[test]
        fn vectors_flag_what_the_specification_flags(
            bytes in proptest::collection::vec(
                prop_oneof![
                    proptest::sample::select(b"fF-dD<[|sSeEiI/:nNtT\\\r\0 x".to_vec()),
                    any::<u8>().prop_map(|b| b & 0x7f),
                ],
                0..400,
            ),
        ) {
            let mut spec = Vec::new();
            let ascii = candidates_spec(&bytes, &mut |event| if let Event::Flagged(at) = event {
                spec.push(at);
            });
            prop_assert!(ascii);
            for (isa, filter) in vector_filters() {
                let mut vectors = Vec::new();
                let ascii = filter.for_each(&bytes, |event| if let Event::Flagged(at) = event {
                    vectors.push(at);
                });
                prop_assert!(ascii, "{:?}", isa);
                prop_assert_eq!(&vectors, &spec, "{:?}", isa);
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
            assert!(!push_content_by(&mut out, &text, candidates_spec));
            assert_eq!(out, "<header>");
            // The filters themselves may stop after writing some of it;
            // `push_content` is what drops that.
            for (isa, filter) in vector_filters() {
                assert!(
                    !push_content_by(&mut String::new(), &text, filter),
                    "{isa:?}"
                );
            }
        }
    }

    /// Every reading placed across each place the vectorised filter copies
    /// up to (4 KiB) and each block edge near it, on a line of its own or
    /// after other text.
    #[test]
    fn readings_across_copy_points_are_replaced() {
        let mut spellings: Vec<&str> = CONTROL_STRINGS.iter().map(|c| c.text).collect();
        spellings.push(TOKEN);
        for spelling in spellings {
            for at in SCANNED_EVERY - FLUSH_MARGIN - 2..SCANNED_EVERY + 2 {
                for line in ["\n", " "] {
                    let before = "x".repeat(at - line.len());
                    let text = format!("{before}{line}{spelling} {}", "y".repeat(5000));
                    let mut spec = String::new();
                    assert!(push_content_by(&mut spec, &text, candidates_spec));
                    assert_eq!(spec, two_pass(&text), "{spelling:?} at {at}");
                    for (isa, filter) in vector_filters() {
                        let mut out = String::new();
                        assert!(push_content_by(&mut out, &text, filter));
                        assert_eq!(out, spec, "{isa:?}: {spelling:?} at {at}");
                    }
                }
            }
        }
    }

    #[test]
    fn more_readings_than_can_wait_are_all_patched() {
        // Token readings every few bytes, in mixed cases, far more than
        // wait to be patched at once between two progress reports (so the
        // vectorised filters fill the list), with a control string (a
        // reading that changes length) now and then and text of every
        // length between: what the two passes write, by every filter.
        let spellings = [TOKEN, "FRAMECHECK-UNTRUSTED", "FrameCheck-Untrusted"];
        let mut text = String::new();
        for i in 0..PENDING * 5 + 3 {
            text.push_str(spellings[i % 3]);
            text.push_str(&"</>"[..i % 4]);
            if i % 301 == 0 {
                text.push_str(CONTROL_STRINGS[i % CONTROL_STRINGS.len()].text);
            }
        }
        let mut spec = String::from("header");
        assert!(push_content_by(&mut spec, &text, candidates_spec));
        assert_eq!(spec, format!("header{}", two_pass(&text)));
        assert_eq!(spec.matches(DEFANGED).count(), PENDING * 5 + 3);
        for (isa, filter) in vector_filters() {
            let mut out = String::from("header");
            assert!(push_content_by(&mut out, &text, filter));
            assert_eq!(out, spec, "{isa:?}");
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
        let mut flagged = Vec::new();
        candidates_spec(text.as_bytes(), &mut |event| {
            if let Event::Flagged(at) = event {
                flagged.push(at);
            }
        });
        for at in [2, 25, text.find("n:").unwrap()] {
            assert!(flagged.contains(&at), "{at} not in {flagged:?}");
        }
        let mut out = String::new();
        assert!(push_content_by(&mut out, text, candidates_spec));
        assert_eq!(out, "a framecheck_untrusted b <|im_end|\\> c\n  Human\\: d");
    }
}
