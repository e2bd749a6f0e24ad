//! The fast scanner: where a text reads as [`TOKEN`] at the Unicode level.
//!
//! A *reading* is a span of text that [`framecheck_core::level`] at
//! [`ReaderLevel::Unicode`] folds to exactly [`TOKEN`]. The scanner treats the
//! text as the stream of characters a Unicode reader sees (every character's
//! folding, one after another) and runs one Knuth–Morris–Pratt automaton over
//! that stream, so every character is folded once and nothing is rescanned:
//! the work is linear in the length of the text whatever it contains (long
//! runs of ignorables, many partial matches, chains of ligatures).
//!
//! Most text is ASCII, and a reading wholly inside ASCII text is the token
//! in some mix of cases. While no reading is in progress, the scanner
//! lower-cases the text a window of a few KiB at a time and searches it for
//! the token with `memchr::memmem`, whose vectorised search skips text that
//! merely shares a byte or two with the token (the `-` of a Markdown table
//! or a log rule, the `k-` of "check-in"); only the last few bytes before
//! non-ASCII text are tried as the start of a reading that continues there.
//! Non-ASCII characters that cannot start a reading (inert or invisible
//! ones, nearly all of them, and those that fold to ASCII without an `f`),
//! and the short ASCII runs between them, are stepped over with one table
//! lookup each.
//! Only such a candidate, or a non-ASCII character that folds to something
//! ASCII, goes through the automaton, which folds with a memo of
//! [`framecheck_core::level::fold_char_into`], the specification, filled from it block
//! by block ([`super::fold_table`]), rather than with rules of its own that
//! could drift from it. While a reading is in progress, a character that
//! folds to exactly the token's next byte, or to nothing, is stepped by one
//! byte of that memo and one comparison ([`Scanner::continue_reading`]):
//! the fullwidth, mathematical and ignorable-laced readings of adversarial
//! text; only a mismatch or a folding of several characters takes the
//! general step. Where the places a reading can start are known
//! ([`StartMap`]), an ASCII `f` is decided eight bytes at a time, and a
//! reading that leaves ASCII resumes the automaton where its ASCII bytes
//! left it rather than stepping them again.
//!
//! A reading covers whole characters: it starts at the character that
//! contributes its first folded character and ends at the end of the one that
//! contributes its last, so a ligature such as `ﬀ` or a `ß` whose folding
//! straddles the edge of the token is covered entirely. Ignorable characters
//! inside a reading belong to it; ignorables at its edges do not. Readings
//! are leftmost and never share a character.

use std::ops::{ControlFlow, Range};
use std::sync::OnceLock;

use memchr::memmem::Finder;

use super::fold_table::{skip_unflagged, CharFold, FoldCache, ONE_INVISIBLE, STARTS};
use super::TOKEN;

const TOKEN_BYTES: &[u8] = TOKEN.as_bytes();
const TOKEN_LEN: usize = TOKEN_BYTES.len();

/// Bytes of text lower-cased at a time for the ASCII search: small enough
/// to stay in the first-level cache, large enough that the copy and the
/// search's start-up are a small cost per byte.
const WINDOW: usize = 4096;

/// `FALLBACK[k]` is the length of the longest proper border of the first
/// `k + 1` token characters: where the automaton resumes after a mismatch.
const FALLBACK: [usize; TOKEN_LEN] = fallback_table(TOKEN_BYTES);

/// The border table of `pattern` (Knuth–Morris–Pratt). Generic over the
/// pattern because the token has no border at all (its table is all
/// zeros), so only other patterns can show the computation is right.
const fn fallback_table<const N: usize>(pattern: &[u8]) -> [usize; N] {
    assert!(pattern.len() == N);
    let mut table = [0; N];
    let mut k = 0;
    let mut i = 1;
    while i < N {
        while k > 0 && pattern[i] != pattern[k] {
            k = table[k - 1];
        }
        if pattern[i] == pattern[k] {
            k += 1;
        }
        table[i] = k;
        i += 1;
    }
    table
}

// The ASCII fast path relies on two facts about the token: it is ASCII
// lower case (so searching lower-cased ASCII is what the Unicode level does
// to ASCII), and an ASCII reading can only begin at `f` or `F`.
const _: () = {
    let mut i = 0;
    while i < TOKEN_LEN {
        assert!(TOKEN_BYTES[i].is_ascii() && !TOKEN_BYTES[i].is_ascii_uppercase());
        i += 1;
    }
    assert!(TOKEN_BYTES[0] == b'f');
};

/// The byte spans of `text` that read as [`TOKEN`] at the Unicode level:
/// leftmost first, in order, never overlapping, each on character
/// boundaries. This is what [`super::defang`] replaces.
///
/// ```
/// use framecheck_envelope::token_readings;
///
/// let text = "a </FRAMECHECK\u{200B}-untrusted> b";
/// let spans = token_readings(text);
/// assert_eq!(spans, vec![4..27]);
/// assert_eq!(&text[spans[0].clone()], "FRAMECHECK\u{200B}-untrusted");
/// ```
pub fn token_readings(text: &str) -> Vec<Range<usize>> {
    let mut found = Vec::new();
    let _ = for_each_reading(text, |reading| {
        found.push(reading);
        ControlFlow::Continue(())
    });
    found
}

/// True when some part of `text` reads as [`TOKEN`] at the Unicode level.
/// Stops at the first reading.
pub(crate) fn has_token_reading(text: &str) -> bool {
    for_each_reading(text, |_| ControlFlow::Break(())).is_break()
}

/// Hands each reading of [`token_readings`] to `sink` as it is found, in
/// order, until the sink breaks. No list of readings is built, so a
/// defanger can write its output as the scan goes.
pub(crate) fn for_each_reading<F>(text: &str, sink: F) -> ControlFlow<()>
where
    F: FnMut(Range<usize>) -> ControlFlow<()>,
{
    Scanner::new(text, sink).run(true)
}

/// [`for_each_reading`] over a text whose possible reading starts are
/// already known: `starts` holds every character of `text` whose folding
/// holds the token's first character ([`StartMap`]), found by the scan that
/// looked for control strings in the same text, so this scan steps over
/// nothing itself. Between two such characters no reading can start, and
/// the automaton, at rest, stays at rest.
pub(crate) fn for_each_reading_from<F>(text: &str, starts: &StartMap, sink: F) -> ControlFlow<()>
where
    F: FnMut(Range<usize>) -> ControlFlow<()>,
{
    Scanner::new(text, sink).run_from(starts)
}

/// Where the characters of a text whose folding holds the token's first
/// character start: one bit per byte of the text, so its size is an eighth
/// of the text's whatever the text holds (a list of places would grow to
/// several times the text's size on text dense in `f`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StartMap {
    words: Vec<u64>,
}

impl StartMap {
    /// A map of a text of `len` bytes with no place in it.
    pub(crate) fn new(len: usize) -> StartMap {
        StartMap {
            words: vec![0; len / 64 + 1],
        }
    }

    /// Marks byte `at`, which is inside the text.
    pub(crate) fn insert(&mut self, at: usize) {
        self.words[at / 64] |= 1 << (at % 64);
    }

    /// The first marked byte at or after `from`.
    fn next_from(&self, from: usize) -> Option<usize> {
        let mut index = from / 64;
        let mut word = self.words.get(index)? & (u64::MAX << (from % 64));
        while word == 0 {
            index += 1;
            word = *self.words.get(index)?;
        }
        Some(index * 64 + word.trailing_zeros() as usize)
    }
}

/// What the bytes from an ASCII `f` or `F` say about a reading starting
/// there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AsciiStart {
    /// The token's length of ASCII bytes, the token in some mix of cases.
    Reading,
    /// An ASCII byte differs from the token before any byte outside ASCII:
    /// every ASCII character folds to its lower case alone, so the stream
    /// from here is not the token.
    NoReading,
    /// A byte outside ASCII, or the text's end, comes first: only the
    /// automaton can tell. It resumes with the bytes before it matched:
    /// this many, the token's first ones in some mix of cases.
    Undecided(usize),
}

/// [`AsciiStart`] for the text `bytes` from `at`, where an `f` or `F` stands.
fn ascii_start(bytes: &[u8], at: usize) -> AsciiStart {
    match bytes.get(at..at + TOKEN_LEN) {
        Some(window) => ascii_start_words(window),
        None => ascii_start_bytes(bytes, at),
    }
}

/// The token's bytes as little-endian words for [`ascii_start_words`]:
/// for each eight bytes from `offset`, the word and the mask that
/// lower-cases an ASCII letter where the token has one (`0x20` there,
/// nothing under the `-`, so only a `-` matches it, not a control byte).
/// The last word overlaps the one before it when the token's length is
/// not a multiple of eight.
const TOKEN_WORDS: [(usize, u64, u64); TOKEN_LEN.div_ceil(8)] = token_words();

/// Built at compile time: a token shorter than eight bytes would make the
/// last word's offset underflow, which fails the build.
const fn token_words() -> [(usize, u64, u64); TOKEN_LEN.div_ceil(8)] {
    let mut words = [(0, 0, 0); TOKEN_LEN.div_ceil(8)];
    let mut w = 0;
    while w < words.len() {
        let offset = if 8 * w + 8 <= TOKEN_LEN {
            8 * w
        } else {
            TOKEN_LEN - 8
        };
        let (mut word, mut mask) = (0u64, 0u64);
        let mut i = 0;
        while i < 8 {
            let t = TOKEN_BYTES[offset + i];
            word |= (t as u64) << (8 * i);
            if t.is_ascii_lowercase() {
                mask |= 0x20 << (8 * i);
            }
            i += 1;
        }
        words[w] = (offset, word, mask);
        w += 1;
    }
    words
}

/// [`ascii_start`] on the token's length of text, eight bytes at a time:
/// a byte matches exactly when its lower case is the token's byte (`| 0x20`
/// lower-cases an upper-case letter, and under a letter of the token
/// nothing else that is ASCII or not becomes it), so the first byte that
/// differs is the first that [`ascii_start_bytes`] finds.
#[inline]
fn ascii_start_words(window: &[u8]) -> AsciiStart {
    for &(offset, word, mask) in &TOKEN_WORDS {
        let bytes: [u8; 8] = window[offset..offset + 8].try_into().expect("8 bytes");
        let differ = (u64::from_le_bytes(bytes) | mask) ^ word;
        if differ != 0 {
            let k = offset + differ.trailing_zeros() as usize / 8;
            return if window[k].is_ascii() {
                AsciiStart::NoReading
            } else {
                AsciiStart::Undecided(k)
            };
        }
    }
    AsciiStart::Reading
}

/// [`ascii_start`] a byte at a time: what the word comparison must agree
/// with, and what runs where less than the token's length is left.
fn ascii_start_bytes(bytes: &[u8], at: usize) -> AsciiStart {
    let rest = &bytes[at..bytes.len().min(at + TOKEN_LEN)];
    for (k, (&b, &t)) in rest.iter().zip(TOKEN_BYTES).enumerate() {
        if b.to_ascii_lowercase() != t {
            return if b.is_ascii() {
                AsciiStart::NoReading
            } else {
                AsciiStart::Undecided(k)
            };
        }
    }
    if rest.len() == TOKEN_LEN {
        AsciiStart::Reading
    } else {
        AsciiStart::Undecided(rest.len())
    }
}

/// The same readings found without the fast paths (the ASCII search and
/// the stepping over characters that cannot start a reading): every
/// character goes through the automaton. The straightforward path the fast
/// ones are tested against.
#[cfg(test)]
fn stepwise_readings(text: &str) -> Vec<Range<usize>> {
    let mut found = Vec::new();
    let _ = Scanner::new(text, |reading| {
        found.push(reading);
        ControlFlow::Continue(())
    })
    .run(false);
    found
}

struct Scanner<'t, F> {
    text: &'t str,
    sink: F,
    /// How many token characters the stream has matched so far.
    matched: usize,
    /// For each matched token character, the byte offset of the text
    /// character that contributed it; `starts[0]` is where a reading begins.
    starts: [usize; TOKEN_LEN],
    /// The first non-ASCII byte at or after the last position asked about.
    next_non_ascii: usize,
    /// A lower-cased copy of the text from byte `window_at` on, at most
    /// [`WINDOW`] bytes: what the ASCII search runs on.
    window: Vec<u8>,
    window_at: usize,
    /// The fold table's block of the last character stepped outside ASCII.
    blocks: FoldCache,
}

impl<'t, F> Scanner<'t, F>
where
    F: FnMut(Range<usize>) -> ControlFlow<()>,
{
    fn new(text: &'t str, sink: F) -> Scanner<'t, F> {
        Scanner {
            text,
            sink,
            matched: 0,
            starts: [0; TOKEN_LEN],
            next_non_ascii: first_non_ascii(text.as_bytes()),
            window: Vec::new(),
            window_at: 0,
            blocks: FoldCache::new(),
        }
    }

    /// Scans the whole text; `fast` enables the ASCII fast path.
    fn run(&mut self, fast: bool) -> ControlFlow<()> {
        let bytes = self.text.as_bytes();
        let mut pos = 0;
        while pos < bytes.len() {
            if fast && self.matched == 0 && !bytes[pos].is_ascii() {
                pos = self.skip_passive(pos);
                if pos == bytes.len() {
                    break;
                }
            }
            if fast && self.matched == 0 && bytes[pos].is_ascii() {
                match self.skip_ascii(pos)? {
                    Skip::Done => return ControlFlow::Continue(()),
                    Skip::To(next) => {
                        pos = next;
                        continue;
                    }
                    Skip::Step(at) => pos = at,
                }
            }
            pos = if fast {
                self.step(pos)?
            } else {
                self.step_one(pos)?
            };
        }
        ControlFlow::Continue(())
    }

    /// [`Self::run`] with the places a reading can start given: while no
    /// reading is in progress, the scan jumps to the next, and an ASCII one
    /// is decided from its bytes where they suffice.
    fn run_from(&mut self, starts: &StartMap) -> ControlFlow<()> {
        let bytes = self.text.as_bytes();
        let mut pos = 0;
        while pos < bytes.len() {
            if self.matched == 0 {
                let Some(at) = starts.next_from(pos) else {
                    break;
                };
                pos = at;
                if bytes[pos].is_ascii() {
                    match ascii_start(bytes, pos) {
                        AsciiStart::Reading => {
                            (self.sink)(pos..pos + TOKEN_LEN)?;
                            pos += TOKEN_LEN;
                            continue;
                        }
                        AsciiStart::NoReading => {
                            pos += 1;
                            continue;
                        }
                        AsciiStart::Undecided(k) => {
                            // What stepping those bytes from rest would
                            // leave: the automaton `k` characters in.
                            for (i, start) in self.starts[..k].iter_mut().enumerate() {
                                *start = pos + i;
                            }
                            self.matched = k;
                            pos += k;
                            continue;
                        }
                    }
                }
            }
            pos = self.step(pos)?;
        }
        ControlFlow::Continue(())
    }

    /// Moves over ASCII text while no reading is in progress: past a reading
    /// found wholly inside the ASCII stretch, past the stretch when it holds
    /// none, or into per-character stepping at a candidate near the stretch's
    /// end whose reading could continue into non-ASCII text.
    ///
    /// A reading that continues past the stretch has an ASCII prefix shorter
    /// than the token (every ASCII character folds to exactly one character
    /// and none is ignorable), so only the stretch's last `TOKEN_LEN - 1`
    /// bytes can hold its start.
    fn skip_ascii(&mut self, pos: usize) -> ControlFlow<(), Skip> {
        let ascii_end = self.non_ascii_from(pos);
        if let Some(start) = self.find_in_ascii(pos, ascii_end) {
            let end = start + TOKEN_LEN;
            (self.sink)(start..end)?;
            return ControlFlow::Continue(Skip::To(end));
        }
        let bytes = self.text.as_bytes();
        if ascii_end == bytes.len() {
            // Too little text left for a reading, and all of it ASCII.
            return ControlFlow::Continue(Skip::Done);
        }
        let tail = pos.max(ascii_end.saturating_sub(TOKEN_LEN - 1));
        ControlFlow::Continue(match memchr::memchr2(b'f', b'F', &bytes[tail..ascii_end]) {
            Some(offset) => Skip::Step(tail + offset),
            None => Skip::To(ascii_end),
        })
    }

    /// The start of the first ASCII case-insensitive occurrence of the
    /// token inside `from..to`, which is all ASCII. Each byte is searched
    /// once, plus `TOKEN_LEN - 1` bytes again where windows overlap, so a
    /// scan of many short stretches stays linear.
    fn find_in_ascii(&mut self, mut from: usize, to: usize) -> Option<usize> {
        while from + TOKEN_LEN <= to {
            if from < self.window_at || from + TOKEN_LEN > self.window_at + self.window.len() {
                self.fill_window(from);
            }
            let stop = to.min(self.window_at + self.window.len());
            let searched = &self.window[from - self.window_at..stop - self.window_at];
            if let Some(offset) = token_finder().find(searched) {
                return Some(from + offset);
            }
            if stop == to {
                return None;
            }
            // The next window starts early enough to hold a token that
            // straddles this one's end.
            from = stop + 1 - TOKEN_LEN;
        }
        None
    }

    /// Lower-cases up to [`WINDOW`] bytes of the text from `from` into the
    /// window.
    fn fill_window(&mut self, from: usize) {
        let end = self.text.len().min(from + WINDOW);
        self.window.clear();
        self.window
            .extend_from_slice(&self.text.as_bytes()[from..end]);
        self.window.make_ascii_lowercase();
        self.window_at = from;
    }

    /// Moves over characters that cannot start a reading while no reading
    /// is in progress (inert, invisible, or folding to ASCII without the
    /// token's first character, ASCII ones included): fed to the automaton,
    /// they would leave it where it is. Returns the offset of the first
    /// character that could start a reading, or of a long ASCII run (left
    /// to [`Self::skip_ascii`]'s vectorised search), or the text's length.
    fn skip_passive(&self, pos: usize) -> usize {
        skip_unflagged(self.text, pos, STARTS)
    }

    /// The first non-ASCII byte at or after `pos`, or the text's length.
    fn non_ascii_from(&mut self, pos: usize) -> usize {
        if self.next_non_ascii < pos {
            self.next_non_ascii = pos + first_non_ascii(&self.text.as_bytes()[pos..]);
        }
        self.next_non_ascii
    }

    /// [`Self::step_one`], then, while a reading is in progress, the
    /// characters after it that [`Self::continue_reading`] can step.
    fn step(&mut self, pos: usize) -> ControlFlow<(), usize> {
        let next = self.step_one(pos)?;
        if self.matched == 0 {
            return ControlFlow::Continue(next);
        }
        self.continue_reading(next)
    }

    /// Steps the automaton, while a reading is in progress, over the
    /// characters from `pos` that either fold to nothing or fold to exactly
    /// the token's next byte: a lookalike reading (fullwidth, mathematical,
    /// an ignorable between letters) is one byte lookup per character
    /// ([`FoldCache::token_byte_at`]) and one comparison, where
    /// [`Self::step_one`] walks each character's folding and runs the
    /// fallback loop. Stops at the first character that does neither (a
    /// mismatch, or a folding of several characters such as `ﬆ`), which
    /// [`Self::step_one`] then takes, or at the end of a reading or the
    /// text. Returns the offset of the first character not stepped.
    ///
    /// What it does is what [`Self::step_one`] does on those characters:
    /// an ignorable leaves the automaton where it is, and a character that
    /// folds to the expected byte moves it one further with no fallback.
    #[inline]
    fn continue_reading(&mut self, pos: usize) -> ControlFlow<(), usize> {
        let bytes = self.text.as_bytes();
        let mut at = pos;
        while let Some(&b) = bytes.get(at) {
            let (byte, len) = if b.is_ascii() {
                (b.to_ascii_lowercase(), 1)
            } else {
                self.blocks.token_byte_at(self.text, at)
            };
            if byte == ONE_INVISIBLE {
                at += len;
                continue;
            }
            if byte != TOKEN_BYTES[self.matched] {
                break;
            }
            self.starts[self.matched] = at;
            self.matched += 1;
            at += len;
            if self.matched == TOKEN_LEN {
                self.matched = 0;
                (self.sink)(self.starts[0]..at)?;
                break;
            }
        }
        ControlFlow::Continue(at)
    }

    /// Feeds the character at `pos` through the automaton and returns the
    /// offset of the next character.
    fn step_one(&mut self, pos: usize) -> ControlFlow<(), usize> {
        let bytes = self.text.as_bytes();
        if bytes[pos].is_ascii() {
            return self.step_ascii(pos);
        }
        // `pos` is on a character boundary inside the text.
        let (fold, len) = self.blocks.fold_at(self.text, pos);
        let end = pos + len;
        match fold {
            CharFold::Invisible => {}
            // A folded character outside ASCII matches no token character,
            // so every partial match falls back to nothing.
            CharFold::Inert => self.matched = 0,
            CharFold::Folds(folding) => {
                for folded in folding.chars() {
                    if self.advance(folded, pos) {
                        // The rest of this character's folding is not looked
                        // at: the character belongs to this reading and to
                        // no other.
                        self.matched = 0;
                        (self.sink)(self.starts[0]..end)?;
                        break;
                    }
                }
            }
        }
        ControlFlow::Continue(end)
    }

    /// [`Self::step`] on the ASCII character at `pos`, and on the ASCII
    /// characters after it while a match is in progress: each folds to its
    /// lower case and nothing else, so a run of them needs no decoding and
    /// no return to [`Self::run`] per character. Returns the offset of the
    /// first character not stepped.
    fn step_ascii(&mut self, pos: usize) -> ControlFlow<(), usize> {
        let bytes = self.text.as_bytes();
        let mut at = pos;
        loop {
            let matched = self.advance(char::from(bytes[at].to_ascii_lowercase()), at);
            at += 1;
            if matched {
                self.matched = 0;
                (self.sink)(self.starts[0]..at)?;
                return ControlFlow::Continue(at);
            }
            if self.matched == 0 || at == bytes.len() || !bytes[at].is_ascii() {
                return ControlFlow::Continue(at);
            }
        }
    }

    /// One automaton transition on a folded character contributed by the
    /// text character at `origin`. True when a whole token has been matched.
    fn advance(&mut self, folded: char, origin: usize) -> bool {
        let is = |k: usize| folded.is_ascii() && folded as u8 == TOKEN_BYTES[k];
        while self.matched > 0 && !is(self.matched) {
            let resume = FALLBACK[self.matched - 1];
            // The characters that matched the border keep their origins.
            self.starts
                .copy_within(self.matched - resume..self.matched, 0);
            self.matched = resume;
        }
        if is(self.matched) {
            self.starts[self.matched] = origin;
            self.matched += 1;
        }
        self.matched == TOKEN_LEN
    }
}

/// The searcher for the token in lower-cased text, built once.
fn token_finder() -> &'static Finder<'static> {
    static FINDER: OnceLock<Finder<'static>> = OnceLock::new();
    FINDER.get_or_init(|| Finder::new(TOKEN_BYTES))
}

enum Skip {
    /// No reading can start anywhere in the rest of the text.
    Done,
    /// Continue the search at this offset.
    To(usize),
    /// Step the automaton through the characters from this offset.
    Step(usize),
}

/// Offset of the first byte of `bytes` with its high bit set, or its length.
pub(super) fn first_non_ascii(bytes: &[u8]) -> usize {
    // Whole blocks through the standard library's vectorised check; the
    // block size trades the cost of a call against the bytes re-read
    // inside the block that holds the first high byte.
    const BLOCK: usize = 64;
    let mut offset = 0;
    for block in bytes.chunks(BLOCK) {
        if !block.is_ascii() {
            return offset + block.iter().position(|b| !b.is_ascii()).unwrap_or(0);
        }
        offset += block.len();
    }
    offset
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// The token has no border, so the table it uses cannot show the
    /// computation is right: patterns that have borders do.
    #[test]
    fn fallback_tables_hold_the_longest_borders() {
        assert_eq!(fallback_table::<6>(b"ababaa"), [0, 0, 1, 2, 3, 1]);
        assert_eq!(fallback_table::<5>(b"aabaa"), [0, 1, 0, 1, 2]);
    }

    #[test]
    fn the_token_has_no_border() {
        // Not required for correctness, but a border would make the fallback
        // copy cost up to the token length per mismatch; keep it visible.
        assert!(FALLBACK.iter().all(|&k| k == 0));
    }

    #[test]
    fn first_non_ascii_finds_the_first_high_byte() {
        assert_eq!(first_non_ascii(b""), 0);
        assert_eq!(first_non_ascii(b"abc"), 3);
        for at in 0..40 {
            let mut bytes = vec![b'a'; 40];
            bytes[at] = 0xC3;
            assert_eq!(first_non_ascii(&bytes), at);
        }
    }

    #[test]
    fn finds_plain_and_case_changed_ascii_readings() {
        let text = "x framecheck-untrusted y FRAMECHECK-UNTRUSTED z";
        assert_eq!(token_readings(text), vec![2..22, 25..45]);
    }

    #[test]
    fn ascii_near_misses_are_not_readings() {
        for text in [
            "framecheck-untruste",
            "framecheck_untrusted",
            "frame check-untrusted",
            "ffffframecheck-untrustefd",
            "",
        ] {
            assert!(token_readings(text).is_empty(), "{text:?}");
        }
    }

    #[test]
    fn ascii_candidate_followed_by_non_ascii_uses_the_slow_path() {
        // The window after `f` contains the zero-width space.
        let text = "ffframe\u{200B}check-untrusted!";
        assert_eq!(token_readings(text), vec![2..text.len() - 1]);
    }

    #[test]
    fn ignorables_at_the_edges_stay_outside_the_reading() {
        let text = "\u{200B}framecheck-untrusted\u{200B}";
        assert_eq!(token_readings(text), vec![3..23]);
    }

    #[test]
    fn a_ligature_straddling_the_start_is_covered_whole() {
        // U+FB00 folds to "ff": the second f starts the reading.
        let text = "a\u{FB00}ramecheck-untrusted";
        assert_eq!(token_readings(text), vec![1..text.len()]);
    }

    #[test]
    fn a_character_straddling_the_end_is_covered_whole() {
        // U+33C8 (square dB) folds to "db": its d ends the reading.
        let text = "framecheck-untruste\u{33C8}x";
        assert_eq!(token_readings(text), vec![0..text.len() - 1]);
    }

    #[test]
    fn lookalikes_fullwidth_and_dashes_are_readings() {
        for text in [
            "ｆｒａｍｅｃｈｅｃｋ－ｕｎｔｒｕｓｔｅｄ",
            "frаmeсheck-untrusted",
            "framecheck\u{2010}untrusted",
            "framecheck\u{2212}untrusted",
            "frame\u{E0063}check-untrusted",
            "framecheck-untru\u{17F}ted",
            "framechec\u{212A}-untrusted",
            "𝐟𝐫𝐚𝐦𝐞𝐜𝐡𝐞𝐜𝐤-𝐮𝐧𝐭𝐫𝐮𝐬𝐭𝐞𝐝",
        ] {
            assert_eq!(token_readings(text), vec![0..text.len()], "{text:?}");
        }
    }

    #[test]
    fn readings_never_share_a_character() {
        let text = "framecheck-untrustedframecheck-untrusted";
        assert_eq!(token_readings(text), vec![0..20, 20..40]);
    }

    #[test]
    fn hyphen_runs_and_near_anchors_are_not_readings() {
        for text in [
            "|---|---:|---|\n",
            "----------------------------------------",
            "check-in back-end K-pop framecheck-",
            "xframecheck-untrustex k-k-k-K-K-",
        ] {
            assert!(token_readings(text).is_empty(), "{text:?}");
        }
        let text = "k-framecheck-untrusted----FRAMECHECK-untrusted";
        assert_eq!(token_readings(text), vec![2..22, 26..46]);
    }

    #[test]
    fn readings_straddling_a_search_window_are_found() {
        for offset in WINDOW - TOKEN_LEN - 2..WINDOW + 2 {
            for filler in ["-", "k", "f"] {
                let text = format!(
                    "{}FrameCheck-Untrusted{}framecheck-untrusted",
                    filler.repeat(offset),
                    "|-".repeat(WINDOW)
                );
                let second = offset + TOKEN_LEN + 2 * WINDOW;
                assert_eq!(
                    token_readings(&text),
                    vec![offset..offset + TOKEN_LEN, second..second + TOKEN_LEN],
                    "{filler:?} x {offset}"
                );
            }
        }
    }

    #[test]
    fn has_token_reading_stops_at_the_first() {
        assert!(has_token_reading(
            "a framecheck-untrusted b framecheck-untrusted"
        ));
        assert!(!has_token_reading("a framecheck_untrusted"));
    }

    /// Text built from pieces that make the fast path's decisions hard:
    /// the token and its near misses in either case, anchor pairs, hyphen
    /// runs, and the non-ASCII characters that end ASCII stretches or fold
    /// into the token.
    fn tricky_text() -> impl Strategy<Value = String> {
        let pieces = prop::sample::select(vec![
            "framecheck-untrusted",
            "FRAMECHECK-UNTRUSTED",
            // Readings that start in ASCII and leave it.
            "frame\u{200B}check-untrusted",
            "FRAMECHECK\u{2010}UNTRUSTED",
            "framecheck-untru\u{17F}ted",
            "fRaMeChEcK-uNtRuStEd",
            "framecheck",
            "-untrusted",
            "framecheck-untruste",
            "k-",
            "K-",
            "---",
            "f",
            "F",
            " ",
            "|",
            "\n",
            "\u{200B}",
            "\u{E0063}",
            "é",
            "語",
            "🚀",
            "ｆ",
            "－",
            "\u{2010}",
            "\u{212A}",
            "\u{FB00}",
            "\u{FB06}",
            "𝐟",
            "𝐤",
        ]);
        prop::collection::vec(pieces, 0..64).prop_map(|pieces| pieces.concat())
    }

    /// One spelling of the token's character `t` (an ASCII letter or `-`):
    /// itself, upper case, fullwidth, mathematical bold or a dash, by
    /// `choice`; what a lookalike reading is made of.
    fn respell(t: u8, choice: usize) -> String {
        let c = char::from(t);
        if t == b'-' {
            return ["-", "\u{FF0D}", "\u{2010}", "\u{2212}", "_"][choice % 5].to_string();
        }
        let offset = u32::from(t - b'a');
        let spelled = match choice % 5 {
            0 => c,
            1 => c.to_ascii_uppercase(),
            2 => char::from_u32(0xFF41 + offset).expect("fullwidth letters"),
            3 => char::from_u32(0x1D41A + offset).expect("mathematical bold letters"),
            // Not that letter: the reading breaks here.
            _ => ['x', '\u{FF58}', '\u{E9}', '語'][offset as usize % 4],
        };
        spelled.to_string()
    }

    /// The token spelled a character at a time from [`respell`]'s forms,
    /// with ignorables between characters, a ligature or a long s for
    /// its `st`, or a character cut: readings and near misses whose
    /// characters outside ASCII the automaton steps while a reading is in
    /// progress ([`Scanner::continue_reading`]).
    fn respelled_token() -> impl Strategy<Value = String> {
        let forms = prop::collection::vec((0usize..5, 0usize..8), TOKEN_LEN);
        (forms, 0usize..4).prop_map(|(forms, st)| {
            let mut text = String::new();
            let mut k = 0;
            while k < TOKEN_LEN {
                let (choice, between) = forms[k];
                if TOKEN_BYTES[k..].starts_with(b"st") && st > 0 {
                    text.push_str(["\u{FB06}", "\u{17F}t", "\u{FB05}"][st - 1]);
                    k += 2;
                    continue;
                }
                // Mostly ASCII, lower case, so that long readings occur.
                text.push_str(&respell(
                    TOKEN_BYTES[k],
                    if choice < 2 { 0 } else { choice },
                ));
                text.push_str(
                    [
                        "",
                        "",
                        "",
                        "",
                        "\u{200B}",
                        "\u{AD}",
                        "\u{E0063}",
                        "\u{200B}\u{200B}",
                    ][between],
                );
                k += 1;
            }
            text
        })
    }

    /// Respelled tokens and the tricky pieces between them.
    fn lookalike_text() -> impl Strategy<Value = String> {
        prop::collection::vec(prop_oneof![respelled_token(), tricky_text()], 0..6)
            .prop_map(|pieces| pieces.concat())
    }

    /// The readings [`for_each_reading_from`] finds given the places the
    /// specification says a reading can start at: every character whose
    /// class has [`STARTS`].
    fn readings_from_known_starts(text: &str) -> Vec<Range<usize>> {
        let mut starts = StartMap::new(text.len());
        for (at, c) in text.char_indices() {
            if crate::fold_table::has_flag(c, STARTS) {
                starts.insert(at);
            }
        }
        let mut found = Vec::new();
        let _ = for_each_reading_from(text, &starts, |reading| {
            found.push(reading);
            ControlFlow::Continue(())
        });
        found
    }

    #[test]
    fn a_start_map_finds_the_next_place_across_words() {
        let mut map = StartMap::new(200);
        assert_eq!(map.next_from(0), None);
        for at in [0, 63, 64, 130, 199] {
            map.insert(at);
        }
        let nexts: Vec<Option<usize>> = [0, 1, 63, 64, 65, 129, 131, 199, 200]
            .iter()
            .map(|&from| map.next_from(from))
            .collect();
        assert_eq!(
            nexts,
            [
                Some(0),
                Some(63),
                Some(63),
                Some(64),
                Some(130),
                Some(130),
                Some(199),
                Some(199),
                None
            ]
        );
    }

    #[test]
    fn ascii_starts_are_decided_only_by_ascii_bytes() {
        let verdict = |text: &str| ascii_start(text.as_bytes(), 0);
        assert_eq!(verdict("FrameCheck-Untrusted"), AsciiStart::Reading);
        assert_eq!(verdict("framecheck-untrustex"), AsciiStart::NoReading);
        assert_eq!(verdict("final offer"), AsciiStart::NoReading);
        // Outside ASCII, or too little text, only the automaton can tell.
        assert_eq!(
            verdict("frame\u{200B}check-untrusted"),
            AsciiStart::Undecided(5)
        );
        assert_eq!(verdict("framecheck-untruste"), AsciiStart::Undecided(19));
        assert_eq!(verdict("f\u{E9}"), AsciiStart::Undecided(1));
        assert_eq!(verdict("F"), AsciiStart::Undecided(1));
    }

    proptest::proptest! {
        /// The word comparison decides as the byte comparison does, on the
        /// token's length of text from an `f` or `F`: near misses in every
        /// position, both cases, control bytes, bytes outside ASCII.
        #[test]
        fn ascii_start_words_agree_with_bytes(
            changes in prop::collection::vec(
                (0usize..TOKEN_LEN, prop::sample::select(vec![
                    b'-', b'_', b'\r', b'M', b'E', b'e', b'F', 0x00, 0x7F, 0x80, 0xE2, 0xEF, 0xF0,
                ])),
                0..3,
            ),
            upper in prop::collection::vec(any::<bool>(), TOKEN_LEN),
        ) {
            let mut window: Vec<u8> = TOKEN_BYTES
                .iter()
                .zip(&upper)
                .map(|(&b, &up)| if up { b.to_ascii_uppercase() } else { b })
                .collect();
            for (at, byte) in changes {
                window[at] = byte;
            }
            proptest::prop_assert_eq!(ascii_start_words(&window), ascii_start_bytes(&window, 0));
        }
    }

    proptest::proptest! {
        #[test]
        fn known_starts_agree_with_stepping_on_tricky_text(text in tricky_text()) {
            proptest::prop_assert_eq!(readings_from_known_starts(&text), stepwise_readings(&text));
        }

        #[test]
        fn known_starts_agree_with_stepping_on_lookalike_readings(text in lookalike_text()) {
            proptest::prop_assert_eq!(readings_from_known_starts(&text), stepwise_readings(&text));
        }

        #[test]
        fn fast_path_agrees_with_stepping_on_lookalike_readings(text in lookalike_text()) {
            proptest::prop_assert_eq!(token_readings(&text), stepwise_readings(&text));
        }

        #[test]
        fn known_starts_agree_with_stepping_on_any_text(text in ".{0,200}") {
            proptest::prop_assert_eq!(readings_from_known_starts(&text), stepwise_readings(&text));
        }
    }

    proptest::proptest! {
        #[test]
        fn fast_path_agrees_with_stepping_on_tricky_text(text in tricky_text()) {
            proptest::prop_assert_eq!(token_readings(&text), stepwise_readings(&text));
        }

        #[test]
        fn fast_path_agrees_with_stepping_on_any_text(text in ".{0,200}") {
            proptest::prop_assert_eq!(token_readings(&text), stepwise_readings(&text));
        }

        #[test]
        fn fast_path_agrees_with_stepping_across_windows(
            pieces in prop::collection::vec(tricky_text(), 1..8),
            gaps in prop::collection::vec(0usize..3 * WINDOW, 8),
        ) {
            // Long runs of hyphens and letters put the tricky parts on and
            // around window edges.
            let text: String = pieces
                .iter()
                .zip(&gaps)
                .map(|(piece, &gap)| format!("{}{piece}", "a-".repeat(gap / 2)))
                .collect();
            proptest::prop_assert_eq!(token_readings(&text), stepwise_readings(&text));
        }

        #[test]
        fn fast_path_agrees_with_stepping_on_token_dense_text(
            prefix in "[a-zA-Z -]{0,30}",
            copies in 1usize..200,
            separator in prop::sample::select(vec!["", "-", "<", "</", ">", "k-", "f", "é"]),
        ) {
            let text = format!("{prefix}{}", format!("framecheck-untrusted{separator}").repeat(copies));
            let fast = token_readings(&text);
            proptest::prop_assert_eq!(fast.len(), copies);
            proptest::prop_assert_eq!(fast, stepwise_readings(&text));
        }
    }
}
