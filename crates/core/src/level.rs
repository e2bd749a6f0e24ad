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
//! 2. a character in the lookalike table ([`lookalike`]) reads as its ASCII
//!    twin (Cyrillic and Greek letters, dotless and dotted i, angle-bracket,
//!    slash and dash lookalikes);
//! 3. anything else is NFKC-normalised, fully case-folded (Unicode
//!    `CaseFolding.txt`, statuses C and F) and NFKC-normalised again, and
//!    each resulting character goes through steps 1 and 2 once more.
//!
//! The lookalike table maps only non-ASCII characters, and only to ASCII.
//! ASCII is never remapped (`0` does not read as `o`, `rn` does not read as
//! `m`): a wider table would flag benign text, and a false failure on a
//! correct framing is as costly as a missed breakout.
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

/// The ASCII character a non-ASCII lookalike reads as, if it is one.
///
/// Applied after case folding, so only lower-case forms of letters are
/// listed (Cyrillic `А` folds to `а`, which is listed). Sources: Unicode
/// `confusables.txt` (UTS #39), restricted to targets in ASCII.
pub fn lookalike(c: char) -> Option<char> {
    let ascii = match c {
        // Cyrillic
        'а' => 'a',
        'в' => 'b',
        'ԁ' => 'd',
        'е' | 'ё' => 'e',
        'һ' | 'н' => 'h',
        'і' | 'ї' => 'i',
        'ј' => 'j',
        'к' => 'k',
        'ӏ' => 'l',
        'м' => 'm',
        'о' => 'o',
        'р' => 'p',
        'ԛ' => 'q',
        'ѕ' => 's',
        'т' => 't',
        'с' => 'c',
        'у' => 'y',
        'ԝ' => 'w',
        'х' => 'x',
        // Greek
        'α' => 'a',
        'β' => 'b',
        'ε' => 'e',
        'ι' => 'i',
        'κ' => 'k',
        'ν' => 'v',
        'ο' => 'o',
        'ρ' => 'p',
        'τ' => 't',
        'υ' => 'u',
        'χ' => 'x',
        'ζ' => 'z',
        // Latin extensions and IPA
        'ı' | 'ɩ' | 'İ' => 'i',
        'ɑ' => 'a',
        'ɡ' => 'g',
        'ȷ' => 'j',
        'ʀ' => 'r',
        'ꜱ' => 's',
        // Armenian
        'օ' => 'o',
        'ս' => 'u',
        // Angle brackets
        '‹' | '❮' | '⟨' | '〈' | '˂' | 'ᐸ' | '❬' | '⧼' => '<',
        '›' | '❯' | '⟩' | '〉' | '˃' | 'ᐳ' | '❭' | '⧽' => '>',
        // Square brackets
        '⁅' | '〔' | '⟦' => '[',
        '⁆' | '〕' | '⟧' => ']',
        // Slashes
        '∕' | '⁄' | '⧸' | '╱' | '⟋' => '/',
        // Dashes and hyphens
        '‐' | '‑' | '‒' | '–' | '—' | '―' | '−' | '⁃' | '˗' | '➖' | '╴' => '-',
        _ => return None,
    };
    Some(ascii)
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
    if let Some(ascii) = lookalike(c) {
        out.push(ascii);
        return;
    }
    let nfkc: String = std::iter::once(c).nfkc().collect();
    let folded = caseless::default_case_fold_str(&nfkc);
    for d in folded.nfkc() {
        if is_ignorable(d) {
            continue;
        }
        match lookalike(d) {
            Some(ascii) => out.push(ascii),
            None => out.push(d),
        }
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
}
