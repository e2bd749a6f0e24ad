//! The fast scanner: where a text reads as [`TOKEN`] at the Unicode level.
//!
//! A *reading* is a span of text that [`crate::level`] at
//! [`ReaderLevel::Unicode`] folds to exactly [`TOKEN`]. The scanner treats the
//! text as the stream of characters a Unicode reader sees (every character's
//! folding, one after another) and runs one Knuth–Morris–Pratt automaton over
//! that stream, so every character is folded once and nothing is rescanned:
//! the work is linear in the length of the text whatever it contains (long
//! runs of ignorables, many partial matches, chains of ligatures).
//!
//! Most text is ASCII. A reading wholly inside ASCII text has the token's
//! `-` at a fixed offset, so while no reading is in progress the scanner
//! jumps between `-` bytes with `memchr` and checks each candidate window with
//! one ASCII case-insensitive compare; only the last few bytes before
//! non-ASCII text are tried as the start of a reading that continues there.
//! Only a candidate whose window contains non-ASCII bytes, or a non-ASCII
//! character itself, goes through the per-character path, which folds with
//! [`crate::level::fold_char_into`], the specification, rather than with a
//! table of its own that could drift from it. (The one table there is, of
//! the foldings of the Basic Multilingual Plane, is computed from that same
//! function on first use.)
//!
//! A reading covers whole characters: it starts at the character that
//! contributes its first folded character and ends at the end of the one that
//! contributes its last, so a ligature such as `ﬀ` or a `ß` whose folding
//! straddles the edge of the token is covered entirely. Ignorable characters
//! inside a reading belong to it; ignorables at its edges do not. Readings
//! are leftmost and never share a character.

use std::ops::Range;
use std::sync::OnceLock;

use crate::level::{fold_char_into, ReaderLevel};

use super::TOKEN;

const TOKEN_BYTES: &[u8] = TOKEN.as_bytes();
const TOKEN_LEN: usize = TOKEN_BYTES.len();

/// The offset of the token's rarest ASCII byte, `-`: the anchor the ASCII
/// fast path searches for.
const ANCHOR: usize = 10;

/// `FALLBACK[k]` is the length of the longest proper border of the first
/// `k + 1` token characters: where the automaton resumes after a mismatch.
const FALLBACK: [usize; TOKEN_LEN] = fallback_table();

const fn fallback_table() -> [usize; TOKEN_LEN] {
    let mut table = [0; TOKEN_LEN];
    let mut k = 0;
    let mut i = 1;
    while i < TOKEN_LEN {
        while k > 0 && TOKEN_BYTES[i] != TOKEN_BYTES[k] {
            k = table[k - 1];
        }
        if TOKEN_BYTES[i] == TOKEN_BYTES[k] {
            k += 1;
        }
        table[i] = k;
        i += 1;
    }
    table
}

// The ASCII fast path relies on two facts about the token: it is ASCII
// lower case (so a case-insensitive byte compare is what the Unicode level
// does to ASCII), an ASCII reading can only begin at `f` or `F`, and the
// anchor byte is where `ANCHOR` says.
const _: () = {
    let mut i = 0;
    while i < TOKEN_LEN {
        assert!(TOKEN_BYTES[i].is_ascii() && !TOKEN_BYTES[i].is_ascii_uppercase());
        i += 1;
    }
    assert!(TOKEN_BYTES[0] == b'f');
    assert!(TOKEN_BYTES[ANCHOR] == b'-');
};

/// The byte spans of `text` that read as [`TOKEN`] at the Unicode level:
/// leftmost first, in order, never overlapping, each on character
/// boundaries. This is what [`super::defang`] replaces.
///
/// ```
/// use framecheck::envelope::token_readings;
///
/// let text = "a </FRAMECHECK\u{200B}-untrusted> b";
/// let spans = token_readings(text);
/// assert_eq!(spans, vec![4..27]);
/// assert_eq!(&text[spans[0].clone()], "FRAMECHECK\u{200B}-untrusted");
/// ```
pub fn token_readings(text: &str) -> Vec<Range<usize>> {
    let mut scanner = Scanner::new(text);
    scanner.run();
    scanner.found
}

/// True when some part of `text` reads as [`TOKEN`] at the Unicode level.
pub(crate) fn has_token_reading(text: &str) -> bool {
    !token_readings(text).is_empty()
}

struct Scanner<'t> {
    text: &'t str,
    /// How many token characters the stream has matched so far.
    matched: usize,
    /// For each matched token character, the byte offset of the text
    /// character that contributed it; `starts[0]` is where a reading begins.
    starts: [usize; TOKEN_LEN],
    /// The first non-ASCII byte at or after the last position asked about.
    next_non_ascii: usize,
    folded: String,
    found: Vec<Range<usize>>,
}

impl<'t> Scanner<'t> {
    fn new(text: &'t str) -> Scanner<'t> {
        Scanner {
            text,
            matched: 0,
            starts: [0; TOKEN_LEN],
            next_non_ascii: first_non_ascii(text.as_bytes()),
            folded: String::new(),
            found: Vec::new(),
        }
    }

    fn run(&mut self) {
        let bytes = self.text.as_bytes();
        let mut pos = 0;
        while pos < bytes.len() {
            if self.matched == 0 && bytes[pos].is_ascii() {
                match self.skip_ascii(pos) {
                    Skip::Done => return,
                    Skip::To(next) => {
                        pos = next;
                        continue;
                    }
                    Skip::Step(at) => pos = at,
                }
            }
            pos = self.step(pos);
        }
    }

    /// Moves over ASCII text while no reading is in progress: past a reading
    /// found wholly inside the ASCII stretch, past the stretch when it holds
    /// none, or into per-character stepping at a candidate near the stretch's
    /// end whose reading could continue into non-ASCII text.
    ///
    /// A reading wholly inside ASCII text has the token's `-` at a fixed
    /// offset, and `-` is far rarer in ordinary text than `f`, so the stretch
    /// is searched for that byte. A reading that continues past the stretch
    /// has an ASCII prefix shorter than the token (every ASCII character
    /// folds to exactly one character and none is ignorable), so only the
    /// stretch's last `TOKEN_LEN - 1` bytes can hold its start.
    fn skip_ascii(&mut self, pos: usize) -> Skip {
        let bytes = self.text.as_bytes();
        let ascii_end = self.non_ascii_from(pos);
        let mut from = pos + ANCHOR;
        while from < ascii_end {
            let Some(offset) = memchr::memchr(TOKEN_BYTES[ANCHOR], &bytes[from..ascii_end]) else {
                break;
            };
            let start = from + offset - ANCHOR;
            let end = start + TOKEN_LEN;
            if end > ascii_end {
                break;
            }
            if bytes[start..end].eq_ignore_ascii_case(TOKEN_BYTES) {
                self.found.push(start..end);
                return Skip::To(end);
            }
            from += offset + 1;
        }
        if ascii_end == bytes.len() {
            // Too little text left for a reading, and all of it ASCII.
            return Skip::Done;
        }
        let tail = pos.max(ascii_end.saturating_sub(TOKEN_LEN - 1));
        match memchr::memchr2(b'f', b'F', &bytes[tail..ascii_end]) {
            Some(offset) => Skip::Step(tail + offset),
            None => Skip::To(ascii_end),
        }
    }

    /// The first non-ASCII byte at or after `pos`, or the text's length.
    fn non_ascii_from(&mut self, pos: usize) -> usize {
        if self.next_non_ascii < pos {
            self.next_non_ascii = pos + first_non_ascii(&self.text.as_bytes()[pos..]);
        }
        self.next_non_ascii
    }

    /// Feeds the character at `pos` through the automaton and returns the
    /// offset of the next character.
    fn step(&mut self, pos: usize) -> usize {
        let c = self.text[pos..]
            .chars()
            .next()
            .expect("step is only called on a character boundary inside the text");
        let end = pos + c.len_utf8();
        if c.is_ascii() {
            if self.advance(c.to_ascii_lowercase(), pos) {
                self.matched = 0;
                self.found.push(self.starts[0]..end);
            }
            return end;
        }
        // Beyond the BMP, folded here into the scanner's reused buffer,
        // moved out for the loop so `advance` may borrow the scanner.
        let mut astral = String::new();
        let folding: &str = match bmp_fold(c) {
            Some(BmpFold::Invisible) => return end,
            Some(BmpFold::Inert) => {
                // A folded character outside ASCII matches no token
                // character, so every partial match falls back to nothing.
                self.matched = 0;
                return end;
            }
            Some(BmpFold::Folds(folding)) => folding,
            None => {
                astral = std::mem::take(&mut self.folded);
                astral.clear();
                fold_char_into(c, ReaderLevel::Unicode, &mut astral);
                &astral
            }
        };
        for folded in folding.chars() {
            if self.advance(folded, pos) {
                // The rest of this character's folding is not looked at:
                // the character belongs to this reading and to no other.
                self.matched = 0;
                self.found.push(self.starts[0]..end);
                break;
            }
        }
        if astral.capacity() > 0 {
            self.folded = astral;
        }
        end
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

/// One Basic Multilingual Plane character's folding, as the scanner needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BmpFold {
    /// The character folds to nothing: an ignorable.
    Invisible,
    /// It folds to characters none of which is ASCII, so none can match.
    Inert,
    /// Its folding contains ASCII: feed it character by character.
    Folds(&'static str),
}

/// The folding of a character in the Basic Multilingual Plane, or `None`
/// beyond it.
///
/// Folding one character with NFKC and full case folding costs hundreds of
/// nanoseconds, and nearly every non-ASCII character in real text (accented
/// Latin, CJK, Arabic…) is inert. The table is computed once, from
/// [`fold_char_into`] itself, the first time non-ASCII text is scanned, so
/// it cannot disagree with the specification. Characters beyond the BMP
/// (emoji, mathematical letters, tag characters) are rare enough to fold
/// one by one.
fn bmp_fold(c: char) -> Option<BmpFold> {
    static TABLE: OnceLock<Box<[BmpFold]>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut folding = String::new();
        (0..=0xFFFF_u32)
            .map(|cp| {
                // Surrogate code points are not characters and never occur
                // in a `str`; any entry will do.
                let Some(c) = char::from_u32(cp) else {
                    return BmpFold::Inert;
                };
                folding.clear();
                fold_char_into(c, ReaderLevel::Unicode, &mut folding);
                if folding.is_empty() {
                    BmpFold::Invisible
                } else if folding.chars().any(|d| d.is_ascii()) {
                    // A few thousand short strings, kept for the process.
                    BmpFold::Folds(Box::leak(folding.clone().into_boxed_str()))
                } else {
                    BmpFold::Inert
                }
            })
            .collect()
    });
    table.get(c as usize).copied()
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
fn first_non_ascii(bytes: &[u8]) -> usize {
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
    use super::*;

    #[test]
    fn bmp_foldings_of_known_characters() {
        assert_eq!(bmp_fold('\u{200B}'), Some(BmpFold::Invisible));
        assert_eq!(bmp_fold('\u{E9}'), Some(BmpFold::Inert));
        assert_eq!(bmp_fold('語'), Some(BmpFold::Inert));
        assert_eq!(bmp_fold('\u{FF46}'), Some(BmpFold::Folds("f")));
        assert_eq!(bmp_fold('\u{FB00}'), Some(BmpFold::Folds("ff")));
        assert_eq!(bmp_fold('\u{430}'), Some(BmpFold::Folds("a")));
        assert_eq!(bmp_fold('\u{1D41F}'), None);
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
}
