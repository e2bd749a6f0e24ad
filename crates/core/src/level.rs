//! Reader levels: how strictly a reader of framed text recognises a delimiter.
//!
//! A language model does not compare bytes. It reads `</FRAMECHECK-UNTRUSTED>`,
//! `</framecheck\u{200B}-untrusted>` and fullwidth `＜／ｆｒａｍｅ…` as the same
//! tag. A framing that defangs only the exact byte sequence is safe against an
//! exact reader and unsafe against a model. framecheck therefore judges every
//! framed output at three levels, each a superset of the one before:
//!
//! | level | what a reader folds before matching |
//! |---|---|
//! | [`ReaderLevel::Exact`] | nothing: bytes as written |
//! | [`ReaderLevel::AsciiCaseInsensitive`] | ASCII letters to lower case |
//! | [`ReaderLevel::Unicode`] | see below |
//!
//! At the `Unicode` level each character is read through [`fold_char`]:
//!
//! 1. default-ignorable code points and format (`Cf`) characters read as
//!    nothing: zero-width space and joiners, word joiner, soft hyphen,
//!    variation selectors, bidi controls, Unicode tag characters
//!    (U+E0000–U+E0FFF, "ASCII smuggling"), BOM, Hangul fillers;
//! 2. anything else is NFKC-normalised, fully case-folded (Unicode
//!    `CaseFolding.txt`, statuses C and F) and NFKC-normalised again, and
//!    each resulting character that is not ignorable is read through the
//!    lookalike table ([`lookalike`]): a character Unicode's confusables
//!    data (UTS #39) gives one delimiter character as its skeleton reads as
//!    that ASCII character (Cyrillic, Greek, Armenian, Cherokee, Lisu,
//!    Coptic, Canadian syllabics, Latin IPA and small capitals, bracket,
//!    slash and dash lookalikes). When case folding leaves one character
//!    the table does not know, the character before folding is looked up
//!    instead (Cyrillic `В` is confusable with `B`, its lower case is not).
//!
//! The lookalike table maps only non-ASCII characters, and only to ASCII.
//! ASCII is never remapped (`0` does not read as `o`, `rn` does not read as
//! `m`, though UTS #39 confuses both): a wider table would flag benign
//! text, and a false failure on a correct framing is as costly as a missed
//! breakout. The table and the data's version are recorded in every
//! report's manifest ([`crate::manifest::ReaderData`]).
//!
//! This module is the *specification* the oracle and the reference envelope
//! share. The oracle uses it with a deliberately naive search; the reference
//! has its own fast scanner, and the two are differentially fuzzed.

use std::fmt;

use serde::{Deserialize, Serialize};
use unicode_normalization::UnicodeNormalization;

/// How strictly a reader recognises a delimiter. Ordered from the strictest
/// (most literal) reader to the most forgiving one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReaderLevel {
    /// Byte-for-byte comparison.
    Exact,
    /// ASCII letters compared without regard to case.
    AsciiCaseInsensitive,
    /// NFKC, full case folding, ignorable characters removed, lookalikes
    /// mapped: how a model plausibly reads the text.
    Unicode,
}

impl ReaderLevel {
    /// Every level, strictest first.
    pub const ALL: [ReaderLevel; 3] = [
        ReaderLevel::Exact,
        ReaderLevel::AsciiCaseInsensitive,
        ReaderLevel::Unicode,
    ];

    /// The stable name used in reports and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ReaderLevel::Exact => "exact",
            ReaderLevel::AsciiCaseInsensitive => "ascii-case-insensitive",
            ReaderLevel::Unicode => "unicode",
        }
    }

    /// Parses a stable name as printed by [`ReaderLevel::name`].
    pub fn from_name(name: &str) -> Option<ReaderLevel> {
        ReaderLevel::ALL.into_iter().find(|l| l.name() == name)
    }
}

impl fmt::Display for ReaderLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// True for characters a reader at the `Unicode` level does not see at all:
/// `Default_Ignorable_Code_Point` plus the format (`Cf`) characters outside it.
pub fn is_ignorable(c: char) -> bool {
    matches!(
        c as u32,
        0x00AD
            | 0x034F
            | 0x061C
            | 0x0600..=0x0605
            | 0x06DD
            | 0x070F
            | 0x0890..=0x0891
            | 0x08E2
            | 0x115F..=0x1160
            | 0x17B4..=0x17B5
            | 0x180B..=0x180F
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x206F
            | 0x3164
            | 0xFE00..=0xFE0F
            | 0xFEFF
            | 0xFFA0
            | 0xFFF0..=0xFFFB
            | 0x110BD
            | 0x110CD
            | 0x13430..=0x1343F
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0000..=0xE0FFF
    )
}

/// The lookalike data: what the build script computed from Unicode's
/// `confusables.txt` through `unicode-security` (see `build.rs`).
mod confusables {
    include!(concat!(env!("OUT_DIR"), "/confusables.rs"));
}

/// Where the lookalike table comes from: the crate and the version pinned
/// in `crates/core/Cargo.toml` (a test holds the two together).
pub const CONFUSABLES_SOURCE: &str = "unicode-security 0.1.3";

/// The Unicode version of the confusables data the table is computed from.
pub fn confusables_unicode_version() -> String {
    let (major, minor, patch) = confusables::UNICODE_VERSION;
    format!("{major}.{minor}.{patch}")
}

/// The ASCII punctuation that occurs in delimiters: the grammars' brackets,
/// slash and `=` (tags and bracket markers), the dash and underscore of
/// tokens, a fence's backticks and tildes, a section's `#` and `:`, and
/// the runs of `*` and `|` declared begin/end markers are made of.
///
/// Left out on purpose: quotes, `.`, `,`, `;`, `!`, `?`, parentheses and
/// braces. Their lookalikes are everyday prose punctuation (`’` for `'`,
/// the Arabic full stop for `.`), no grammar's delimiter is made of them,
/// and reading them as ASCII would only change how ordinary text reads.
pub const DELIMITER_PUNCTUATION: &str = "<>/[]=-_`~#:*|";

/// True for an ASCII character that occurs in delimiters: a letter, a
/// digit or [`DELIMITER_PUNCTUATION`].
pub fn is_delimiter_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || DELIMITER_PUNCTUATION.contains(c)
}

/// Brackets and dashes read as ASCII that UTS #39 does not list as
/// confusable with one delimiter character (it lists `⟨` and `⟦` with
/// nothing, `〔` with `(`): the white and angle brackets a model reads as
/// `[` and `<`, and the long dashes. They were read so before the table
/// came from the data, and the catalogue's bracket variant spells `[` as
/// `⟦`. A test checks that the data still says nothing of each, so one
/// the data comes to cover is dropped from here.
const BEYOND_UTS39: [(char, char); 17] = [
    ('⟨', '<'),
    ('〈', '<'),
    ('❬', '<'),
    ('⧼', '<'),
    ('⟩', '>'),
    ('〉', '>'),
    ('❭', '>'),
    ('⧽', '>'),
    ('⁅', '['),
    ('〔', '['),
    ('⟦', '['),
    ('⁆', ']'),
    ('〕', ']'),
    ('⟧', ']'),
    ('—', '-'),
    ('―', '-'),
    ('╴', '-'),
];

/// The ASCII character `c`'s UTS #39 skeleton is, when it is one printable
/// ASCII character and `c` is not ASCII; as the data gives it (`Ꭺ` is
/// `A`, `ꓲ` is `l`).
pub fn uts39_skeleton_char(c: char) -> Option<char> {
    let table = confusables::SKELETONS;
    table
        .binary_search_by_key(&c, |(source, _)| *source)
        .ok()
        .map(|i| table[i].1)
}

/// The ASCII character a non-ASCII lookalike reads as at the `unicode`
/// level, if it is one, in lower case (the level folds case).
///
/// The table is Unicode's confusables data (UTS #39): a non-ASCII
/// character whose skeleton is one ASCII character that occurs in
/// delimiters ([`is_delimiter_char`]) reads as that character, whatever
/// its script (Cyrillic `а`, Latin small capital `ᴠ`, Lisu `ꓲ`, Cherokee
/// `Ꭺ`, Canadian syllabics `ᗞ`, Armenian `ս`, Coptic `ⲟ`), plus a few
/// brackets and dashes the data does not cover (`BEYOND_UTS39`).
///
/// Left out: ASCII-to-ASCII confusions (`1`, `l` and `I` share a skeleton,
/// as do `0` and `O`, `rn` and `m`): reading ASCII as other ASCII would make
/// ordinary text spell delimiters it does not hold, and a false finding is
/// as costly as a missed breakout. Where the data's skeleton stands for
/// several ASCII characters the reading is the skeleton (`ꓲ` reads as `l`,
/// not `I`). Skeletons of more than one character (`ё` is `е` with a
/// diaeresis) are not lookalikes of one delimiter character either.
pub fn lookalike(c: char) -> Option<char> {
    if c.is_ascii() {
        return None;
    }
    uts39_skeleton_char(c)
        .filter(|a| is_delimiter_char(*a))
        .or_else(|| {
            BEYOND_UTS39
                .iter()
                .find(|(source, _)| *source == c)
                .map(|(_, ascii)| *ascii)
        })
        .map(|a| a.to_ascii_lowercase())
}

/// Every entry of the lookalike table, `(source, ASCII reading)` in code
/// point order of the data then the brackets beyond it: what [`lookalike`]
/// answers for each character it answers for, and what the catalogue's
/// lookalike variants and the report manifest draw on.
pub fn lookalike_table() -> impl Iterator<Item = (char, char)> {
    confusables::SKELETONS
        .iter()
        .filter(|(_, ascii)| is_delimiter_char(*ascii))
        .chain(BEYOND_UTS39.iter())
        .map(|&(source, ascii)| (source, ascii.to_ascii_lowercase()))
}

/// Appends what a reader at `level` sees for the character `c` to `out`.
///
/// The result may be empty (an ignorable character) or longer than one
/// character (a ligature such as `ﬀ`, or `ß` folding to `ss`).
pub fn fold_char_into(c: char, level: ReaderLevel, out: &mut String) {
    match level {
        ReaderLevel::Exact => out.push(c),
        ReaderLevel::AsciiCaseInsensitive => out.push(c.to_ascii_lowercase()),
        ReaderLevel::Unicode => fold_unicode_into(c, out),
    }
}

/// What a reader at `level` sees for the character `c`. See
/// [`fold_char_into`]; this allocates and is meant for tests and slow paths.
pub fn fold_char(c: char, level: ReaderLevel) -> String {
    let mut out = String::new();
    fold_char_into(c, level, &mut out);
    out
}

/// What a reader at `level` sees for the whole of `text`.
pub fn fold_str(text: &str, level: ReaderLevel) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        fold_char_into(c, level, &mut out);
    }
    out
}

fn fold_unicode_into(c: char, out: &mut String) {
    if c.is_ascii() {
        out.push(c.to_ascii_lowercase());
        return;
    }
    if is_ignorable(c) {
        return;
    }
    // Case first: the data reads Greek `Ι` as `l` (its skeleton class holds
    // `I`, `l` and `1`) but `ι` as `i`, and a reader that folds case takes
    // `Ι` for the `I` it looks like. The character itself is the fallback:
    // Cyrillic `В` is confusable with `B`, its lower case `в` with nothing.
    let nfkc: String = std::iter::once(c).nfkc().collect();
    let folded = caseless::default_case_fold_str(&nfkc);
    let mut pieces = folded.nfkc().filter(|d| !is_ignorable(*d)).peekable();
    let Some(first) = pieces.next() else {
        return;
    };
    if pieces.peek().is_none() && !first.is_ascii() && lookalike(first).is_none() {
        out.push(lookalike(c).unwrap_or(first));
        return;
    }
    for d in std::iter::once(first).chain(pieces) {
        out.push(lookalike(d).unwrap_or(d));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_ordered_strictest_first() {
        assert!(ReaderLevel::Exact < ReaderLevel::AsciiCaseInsensitive);
        assert!(ReaderLevel::AsciiCaseInsensitive < ReaderLevel::Unicode);
        for level in ReaderLevel::ALL {
            assert_eq!(ReaderLevel::from_name(level.name()), Some(level));
        }
    }

    #[test]
    fn each_level_sees_what_the_one_below_misses() {
        let token = "framecheck-untrusted";
        let cases: &[(&str, ReaderLevel)] = &[
            ("framecheck-untrusted", ReaderLevel::Exact),
            ("FRAMECHECK-UNTRUSTED", ReaderLevel::AsciiCaseInsensitive),
            ("FrameCheck-Untrusted", ReaderLevel::AsciiCaseInsensitive),
            ("framecheck\u{200B}-untrusted", ReaderLevel::Unicode),
            (
                "ｆｒａｍｅｃｈｅｃｋ－ｕｎｔｒｕｓｔｅｄ",
                ReaderLevel::Unicode,
            ),
            ("frаmeсheck-untrusted", ReaderLevel::Unicode), // Cyrillic а, с
            ("frame\u{E0063}check-untrusted", ReaderLevel::Unicode),
            ("framecheck\u{2010}untrusted", ReaderLevel::Unicode),
            ("framecheck-untru\u{17F}ted", ReaderLevel::Unicode),
            ("framecheck-untrusted\u{202E}", ReaderLevel::Exact),
        ];
        for (text, first_level) in cases {
            for level in ReaderLevel::ALL {
                let seen = fold_str(text, level).contains(token);
                assert_eq!(
                    seen,
                    level >= *first_level,
                    "{text:?} at {level}: expected first seen at {first_level}"
                );
            }
        }
    }

    #[test]
    fn benign_text_is_not_remapped_into_ascii() {
        for text in ["日本語のテキスト", "مرحبا بالعالم", "Ünïcödé", "0 rn 1l"]
        {
            let folded = fold_str(text, ReaderLevel::Unicode);
            assert!(
                !folded.is_ascii() || text.is_ascii(),
                "{text:?} folded to {folded:?}"
            );
        }
        assert_eq!(fold_str("0 rn 1l", ReaderLevel::Unicode), "0 rn 1l");
    }

    #[test]
    fn lookalike_table_maps_only_non_ascii_to_ascii() {
        for cp in 0..=0x10FFFFu32 {
            if let Some(c) = char::from_u32(cp) {
                if let Some(a) = lookalike(c) {
                    assert!(!c.is_ascii() && a.is_ascii(), "{c:?} -> {a:?}");
                }
            }
        }
    }
    #[test]
    fn the_confusables_of_issue_56_read_as_their_ascii_letter() {
        let cases = [
            ('\u{1D20}', "v"),  // ᴠ Latin letter small capital V
            ('\u{A4F2}', "l"),  // ꓲ Lisu letter I: its skeleton is `l`
            ('\u{0269}', "i"),  // ɩ Latin small letter iota
            ('\u{15DE}', "d"),  // ᗞ Canadian syllabics carrier THE
            ('\u{13AA}', "a"),  // Ꭺ Cherokee letter GO
            ('\u{0430}', "a"),  // а Cyrillic
            ('\u{0251}', "a"),  // ɑ Latin alpha
            ('\u{057D}', "u"),  // ս Armenian seh
            ('\u{1D51E}', "a"), // 𝔞 mathematical Fraktur (NFKC)
            ('\u{2C9F}', "o"),  // ⲟ Coptic o
            ('\u{0399}', "i"),  // Greek capital iota: case first, then ι
            ('\u{0412}', "b"),  // Cyrillic В: its lower case в is no lookalike
        ];
        for (c, ascii) in cases {
            assert_eq!(fold_char(c, ReaderLevel::Unicode), ascii, "{c:?}");
            assert_eq!(
                fold_char(c, ReaderLevel::AsciiCaseInsensitive),
                c.to_string()
            );
        }
        // A closing tag respelled in five scripts reads as the tag.
        let respelled = "</\u{1D20}\u{13AA}l\u{0269}\u{15DE}>"; // ᴠᎪlɩᗞ
        assert_eq!(fold_str(respelled, ReaderLevel::Unicode), "</valid>");
    }

    #[test]
    fn every_lookalike_is_the_confusables_data_or_a_listed_bracket() {
        let mut from_data = 0;
        for c in (0x80..=0x10FFFFu32).filter_map(char::from_u32) {
            let Some(ascii) = lookalike(c) else { continue };
            match uts39_skeleton_char(c) {
                Some(skeleton) if is_delimiter_char(skeleton) => {
                    assert_eq!(ascii, skeleton.to_ascii_lowercase(), "{c:?}");
                    from_data += 1;
                }
                _ => assert!(BEYOND_UTS39.contains(&(c, ascii)), "{c:?} -> {ascii:?}"),
            }
        }
        // The data is the table: hundreds of characters, not a hand-picked few.
        assert!(from_data > 1000, "{from_data}");
    }

    #[test]
    fn the_brackets_beyond_uts39_are_ones_the_data_does_not_cover() {
        for (c, ascii) in BEYOND_UTS39 {
            let data = uts39_skeleton_char(c).filter(|a| is_delimiter_char(*a));
            assert_eq!(
                data, None,
                "{c:?}: the data now covers it; drop it from the list"
            );
            assert!(is_delimiter_char(ascii), "{c:?}");
        }
    }

    #[test]
    fn prose_punctuation_and_ascii_confusions_are_not_read_as_ascii() {
        // The data confuses each with ASCII that is no delimiter character.
        for c in ['\u{2019}', '\u{2018}', '\u{066B}', '\u{FD3E}'] {
            let data = uts39_skeleton_char(c);
            assert!(data.is_some_and(|a| !is_delimiter_char(a)), "{c:?}");
            assert_eq!(lookalike(c), None, "{c:?}");
        }
        assert_eq!(
            fold_str("it\u{2019}s \u{2018}x\u{2019}", ReaderLevel::Unicode),
            "it\u{2019}s \u{2018}x\u{2019}"
        );
        assert_eq!(fold_str("I 1 | O 0", ReaderLevel::Unicode), "i 1 | o 0");
    }

    #[test]
    fn the_recorded_source_is_the_pinned_crate() {
        let (name, version) = CONFUSABLES_SOURCE.split_once(' ').unwrap();
        let pin = format!("{name} = \"={version}\"");
        assert!(include_str!("../Cargo.toml").contains(&pin), "{pin}");
        assert!(confusables_unicode_version().starts_with(char::is_numeric));
    }

    #[test]
    fn the_listed_table_is_what_the_reader_looks_up() {
        let mut listed = 0;
        for (source, ascii) in lookalike_table() {
            assert_eq!(lookalike(source), Some(ascii), "{source:?}");
            listed += 1;
        }
        let looked_up = (0x80..=0x10FFFFu32)
            .filter_map(char::from_u32)
            .filter(|c| lookalike(*c).is_some())
            .count();
        assert_eq!(listed, looked_up);
    }
}
