//! Variant generators: one written case, many spellings of its delimiters.
//!
//! Each [`Variant`] rewrites the expansion of a delimiter placeholder
//! (`{token}`, `{open}`, `{open_start}`, `{close}` and their inner and
//! reserved twins) into a spelling that a reader at
//! [`Variant::min_level`] still reads as the real delimiter, while a reader
//! one level stricter does not. That is what makes a variant a test of the
//! level a framing claims: an upper-case `</TOK>` tells an
//! ASCII-case-insensitive reader something a byte matcher misses; a
//! fullwidth `＜／ｔｏｋ＞` does the same one level higher.
//!
//! Variants never touch the canary or the frame pieces: the canary must stay
//! a plain marker the oracle can find, and the frame pieces are the target's
//! own output.
//!
//! The grammar renders each delimiter as typed pieces
//! ([`crate::grammar::Spelling`]); a variant rewrites the pieces by type
//! (punctuation, words and token, gaps), so every grammar gets every
//! variant and no grammar spells one itself.
//!
//! ```
//! use framecheck_core::catalogue::Variant;
//! use framecheck_core::catalogue::variant::render;
//! use framecheck_core::grammar::Form;
//! use framecheck_core::profile::{Delimiters, GrammarKind};
//!
//! let xml = Delimiters::simple(GrammarKind::XmlTag, "tok").try_grammar().unwrap();
//! assert_eq!(render(Variant::Upper, &*xml, Form::Close, 0), "</TOK>");
//! assert_eq!(render(Variant::Spaced, &*xml, Form::Close, 0), "< / tok >");
//! let bracket = Delimiters::simple(GrammarKind::BracketMarker, "TUV").try_grammar().unwrap();
//! assert_eq!(render(Variant::ZeroWidth, &*bracket, Form::Open, 0), "[T\u{200B}UV]");
//! let mut markers = Delimiters::simple(GrammarKind::BeginEnd, "DOC");
//! markers.open = Some("<<<{token}>>>".into());
//! markers.close = Some("<<<END_{token}>>>".into());
//! let markers = markers.try_grammar().unwrap();
//! assert_eq!(render(Variant::Lower, &*markers, Form::Close, 0), "<<<end_doc>>>");
//! assert_eq!(render(Variant::Spaced, &*markers, Form::Close, 0), "<<< END _ DOC >>>");
//! ```

use std::ops::RangeInclusive;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::grammar::{Form, Grammar, Piece, Spelling};
use crate::level::{fold_char, ReaderLevel};
use crate::reader::Reader;

use super::model::Variant;

/// The named groups a catalogue file may list in `variants`, with members
/// in canonical order. `all` is every variant.
pub const GROUPS: [(&str, &[Variant]); 3] = [
    ("case", &[Variant::Upper, Variant::Lower, Variant::Mixed]),
    // Everything after exact, spaced and the three case variants in
    // canonical order; a test pins the split.
    ("unicode", Variant::ALL.split_at(5).1),
    ("all", &Variant::ALL),
];

impl Variant {
    /// Every variant, in canonical (instantiation) order.
    pub const ALL: [Variant; 29] = [
        Variant::Exact,
        Variant::Spaced,
        Variant::Upper,
        Variant::Lower,
        Variant::Mixed,
        Variant::ZeroWidth,
        Variant::ZeroWidthJoiner,
        Variant::WordJoiner,
        Variant::SoftHyphen,
        Variant::TagChars,
        Variant::Bidi,
        Variant::VariationSelector,
        Variant::Fullwidth,
        Variant::FullwidthBrackets,
        Variant::BracketLookalike,
        Variant::Cyrillic,
        Variant::Greek,
        Variant::LatinLookalike,
        Variant::Armenian,
        Variant::Cherokee,
        Variant::Lisu,
        Variant::CanadianSyllabics,
        Variant::Coptic,
        Variant::MathBold,
        Variant::DashLookalike,
        Variant::CompatLetters,
        Variant::Ligature,
        Variant::Circled,
        Variant::IgnorableLetters,
    ];

    /// The stable kebab-case name, used in catalogue files and concrete ids.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Exact => "exact",
            Variant::Upper => "upper",
            Variant::Lower => "lower",
            Variant::Mixed => "mixed",
            Variant::Spaced => "spaced",
            Variant::ZeroWidth => "zero-width",
            Variant::ZeroWidthJoiner => "zero-width-joiner",
            Variant::WordJoiner => "word-joiner",
            Variant::SoftHyphen => "soft-hyphen",
            Variant::TagChars => "tag-chars",
            Variant::Bidi => "bidi",
            Variant::VariationSelector => "variation-selector",
            Variant::Fullwidth => "fullwidth",
            Variant::FullwidthBrackets => "fullwidth-brackets",
            Variant::BracketLookalike => "bracket-lookalike",
            Variant::Cyrillic => "cyrillic",
            Variant::Greek => "greek",
            Variant::LatinLookalike => "latin-lookalike",
            Variant::Armenian => "armenian",
            Variant::Cherokee => "cherokee",
            Variant::Lisu => "lisu",
            Variant::CanadianSyllabics => "canadian-syllabics",
            Variant::Coptic => "coptic",
            Variant::MathBold => "math-bold",
            Variant::DashLookalike => "dash-lookalike",
            Variant::CompatLetters => "compat-letters",
            Variant::Ligature => "ligature",
            Variant::Circled => "circled",
            Variant::IgnorableLetters => "ignorable-letters",
        }
    }

    /// The respelling in a reviewer's words, as an adjective of
    /// "spellings" ("fullwidth spellings of the closing delimiter"): report
    /// titles say what passed without the catalogue's vocabulary.
    pub fn plain(self) -> &'static str {
        match self {
            Variant::Exact => "declared",
            Variant::Upper => "upper-case",
            Variant::Lower => "lower-case",
            Variant::Mixed => "mixed-case",
            Variant::Spaced => "spaced-out",
            Variant::ZeroWidth => "zero-width-space",
            Variant::ZeroWidthJoiner => "zero-width-joiner",
            Variant::WordJoiner => "word-joiner",
            Variant::SoftHyphen => "soft-hyphen",
            Variant::TagChars => "invisible tag-character",
            Variant::Bidi => "bidi-override",
            Variant::VariationSelector => "variation-selector",
            Variant::Fullwidth => "fullwidth",
            Variant::FullwidthBrackets => "fullwidth-bracket",
            Variant::BracketLookalike => "lookalike-bracket",
            Variant::Cyrillic => "Cyrillic-lookalike",
            Variant::Greek => "Greek-lookalike",
            Variant::LatinLookalike => "Latin-lookalike",
            Variant::Armenian => "Armenian-lookalike",
            Variant::Cherokee => "Cherokee-lookalike",
            Variant::Lisu => "Lisu-lookalike",
            Variant::CanadianSyllabics => "Canadian-syllabics-lookalike",
            Variant::Coptic => "Coptic-lookalike",
            Variant::MathBold => "mathematical-bold",
            Variant::DashLookalike => "lookalike-dash",
            Variant::CompatLetters => "compatibility-letter",
            Variant::Ligature => "ligature",
            Variant::Circled => "circled-letter",
            Variant::IgnorableLetters => "Hangul-filler",
        }
    }

    /// Looks a single variant up by name (groups are not variants; see
    /// [`expand_name`]).
    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.name() == name)
    }

    /// The first reader level at which this variant's delimiters read as the
    /// real ones.
    pub fn min_level(self) -> ReaderLevel {
        match self {
            Variant::Exact | Variant::Spaced => ReaderLevel::Exact,
            Variant::Upper | Variant::Lower | Variant::Mixed => ReaderLevel::AsciiCaseInsensitive,
            _ => ReaderLevel::Unicode,
        }
    }
}

/// What kind of respelling a variant is. Failures are grouped into
/// weaknesses by family (see `report::weakness`), because a family is one
/// fix: a framing that misses one invisible splice misses the others, and
/// folding case fixes every case variant at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum VariantFamily {
    /// The delimiter as declared.
    Exact,
    /// Whitespace inside the delimiter.
    Spacing,
    /// ASCII case changes.
    Case,
    /// Unicode respellings: invisible splices, compatibility forms and
    /// lookalikes, everything only the `unicode` reader folds back.
    Unicode,
}

impl VariantFamily {
    /// The stable kebab-case name, used in weakness ids.
    pub fn name(self) -> &'static str {
        match self {
            VariantFamily::Exact => "exact",
            VariantFamily::Spacing => "spacing",
            VariantFamily::Case => "case",
            VariantFamily::Unicode => "unicode",
        }
    }
}

impl Variant {
    /// The family this variant belongs to: the one place that says so.
    pub fn family(self) -> VariantFamily {
        match self {
            Variant::Exact => VariantFamily::Exact,
            Variant::Spaced => VariantFamily::Spacing,
            Variant::Upper | Variant::Lower | Variant::Mixed => VariantFamily::Case,
            Variant::ZeroWidth
            | Variant::ZeroWidthJoiner
            | Variant::WordJoiner
            | Variant::SoftHyphen
            | Variant::TagChars
            | Variant::Bidi
            | Variant::VariationSelector
            | Variant::Fullwidth
            | Variant::FullwidthBrackets
            | Variant::BracketLookalike
            | Variant::Cyrillic
            | Variant::Greek
            | Variant::LatinLookalike
            | Variant::Armenian
            | Variant::Cherokee
            | Variant::Lisu
            | Variant::CanadianSyllabics
            | Variant::Coptic
            | Variant::MathBold
            | Variant::DashLookalike
            | Variant::CompatLetters
            | Variant::Ligature
            | Variant::Circled
            | Variant::IgnorableLetters => VariantFamily::Unicode,
        }
    }
}

/// The variants a name in a catalogue's `variants` list stands for: a
/// single variant or a group. `None` for an unknown name.
pub fn expand_name(name: &str) -> Option<Vec<Variant>> {
    if let Some(variant) = Variant::from_name(name) {
        return Some(vec![variant]);
    }
    GROUPS
        .iter()
        .find(|(group, _)| *group == name)
        .map(|(_, members)| members.to_vec())
}

/// Every name [`expand_name`] accepts, for error messages.
pub fn known_names() -> String {
    let mut names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
    names.extend(GROUPS.iter().map(|(g, _)| *g));
    names.join(", ")
}

/// The delimiter `form` of token `token` (an index into the grammar's
/// vocabulary), spelled as `variant` spells it. [`Variant::Exact`] gives
/// the declared delimiter.
pub fn render(variant: Variant, grammar: &dyn Grammar, form: Form, token: usize) -> String {
    spell(variant, &grammar.render(form, token))
}

/// A rendered delimiter spelled as `variant` spells it: punctuation
/// through the variant's bracket transform, words and token through its
/// token transform, gaps as a space for [`Variant::Spaced`], nonces and the
/// grammar's own spacing unchanged.
pub fn spell(variant: Variant, spelling: &Spelling) -> String {
    let mut out = String::new();
    let mut previous = None;
    for piece in &spelling.0 {
        // Inside a run of one punctuation character (a fence's backticks)
        // the ignorable letters split the run, as they split the token.
        let in_run = matches!(piece, Piece::Punct(c) if previous == Some(piece) && *c != ' ');
        if variant == Variant::IgnorableLetters && in_run {
            out.push_str(IGNORABLE_LETTERS);
        }
        previous = Some(piece);
        match piece {
            Piece::Punct(c) => out.push_str(&transform_punct(variant, *c)),
            Piece::Word(w) | Piece::Token(w) => out.push_str(&transform_token(variant, w)),
            Piece::Nonce(s) | Piece::Space(s) | Piece::Verbatim(s) => out.push_str(s),
            Piece::Gap if variant == Variant::Spaced => out.push(' '),
            Piece::Gap => {}
        }
    }
    out
}

/// True when `transformed` (a rendering of `original` by `variant`) is a
/// faithful test of the variant's level: unchanged, or read as `original`
/// at [`Variant::min_level`] and not at the level just below it.
///
/// The instantiator drops a variant for which this fails, so a catalogue
/// case never blames a framing for a spelling no reader would take as the
/// delimiter.
pub fn reads_as_original(variant: Variant, original: &str, transformed: &str) -> bool {
    if original == transformed {
        return true;
    }
    let reader = Reader::new(variant.min_level());
    // The grammars skip optional spacing inside a delimiter, so the spaces
    // a spaced variant adds are not part of what a reader compares.
    let seen = |text: &str, reader: Reader| -> String {
        let folded = reader.fold_str(text);
        if variant == Variant::Spaced {
            folded.chars().filter(|c| *c != ' ').collect()
        } else {
            folded
        }
    };
    if seen(transformed, reader) != seen(original, reader) {
        return false;
    }
    // Not read as the original by the reader just below the variant's.
    match stricter(reader.level()) {
        None => true,
        Some(level) => {
            let below = Reader::new(level);
            below.fold_str(transformed) != below.fold_str(original)
        }
    }
}

/// The level just below `level` in the chain the variants are graded on.
fn stricter(level: ReaderLevel) -> Option<ReaderLevel> {
    match level {
        ReaderLevel::Exact => None,
        ReaderLevel::AsciiCaseInsensitive => Some(ReaderLevel::Exact),
        ReaderLevel::Unicode => Some(ReaderLevel::AsciiCaseInsensitive),
    }
}

/// The default-ignorable letters [`Variant::IgnorableLetters`] splices:
/// the Hangul fillers, each of which a reader skips and a `Cf` filter keeps.
const IGNORABLE_LETTERS: &str = "\u{115F}\u{1160}\u{3164}\u{FFA0}";

fn transform_punct(variant: Variant, c: char) -> String {
    match variant {
        Variant::Fullwidth | Variant::FullwidthBrackets => fullwidth(c).to_string(),
        Variant::BracketLookalike => match c {
            '<' => '‹',
            '>' => '›',
            '[' => '⟦',
            ']' => '⟧',
            other => other,
        }
        .to_string(),
        _ => c.to_string(),
    }
}

fn fullwidth(c: char) -> char {
    match c {
        '\u{21}'..='\u{7E}' => char::from_u32(c as u32 + 0xFEE0).unwrap_or(c),
        other => other,
    }
}

fn transform_token(variant: Variant, token: &str) -> String {
    match variant {
        Variant::Exact
        | Variant::Spaced
        | Variant::FullwidthBrackets
        | Variant::BracketLookalike => token.to_string(),
        Variant::Upper => token.to_ascii_uppercase(),
        Variant::Lower => token.to_ascii_lowercase(),
        Variant::Mixed => {
            let mixed = alternate_case(token, true);
            if mixed == token {
                alternate_case(token, false)
            } else {
                mixed
            }
        }
        Variant::ZeroWidth => splice(token, "\u{200B}"),
        Variant::ZeroWidthJoiner => splice(token, "\u{200D}"),
        Variant::WordJoiner => splice(token, "\u{2060}"),
        Variant::SoftHyphen => splice(token, "\u{00AD}"),
        Variant::TagChars => splice(token, "\u{E0069}\u{E0067}"),
        Variant::Bidi => {
            // An isolate around the second half: invisible when rendered,
            // and the token's letters stay in order.
            let mid = middle(token);
            let (head, tail) = split_chars(token, mid);
            format!("{head}\u{2066}{tail}\u{2069}")
        }
        Variant::VariationSelector => {
            let at = token
                .chars()
                .position(|c| c.is_alphabetic())
                .map_or(1, |i| i + 1);
            let (head, tail) = split_chars(token, at);
            format!("{head}\u{FE0F}{tail}")
        }
        Variant::Fullwidth => token.chars().map(fullwidth).collect(),
        Variant::Cyrillic
        | Variant::Greek
        | Variant::LatinLookalike
        | Variant::Armenian
        | Variant::Cherokee
        | Variant::Lisu
        | Variant::CanadianSyllabics
        | Variant::Coptic => token
            .chars()
            .map(|c| script_lookalike(variant, c).unwrap_or(c))
            .collect(),
        Variant::MathBold => token.chars().map(math_bold).collect(),
        Variant::DashLookalike => token.replace('-', "\u{2010}"),
        Variant::CompatLetters => token
            .chars()
            .map(|c| match c {
                'k' | 'K' => '\u{212A}',
                's' | 'S' => '\u{017F}',
                other => other,
            })
            .collect(),
        Variant::Ligature => ligatures(token),
        Variant::Circled => token.chars().map(circled).collect(),
        Variant::IgnorableLetters => splice(token, IGNORABLE_LETTERS),
    }
}

fn alternate_case(token: &str, mut upper: bool) -> String {
    token
        .chars()
        .map(|c| {
            if !c.is_ascii_alphabetic() {
                return c;
            }
            let out = if upper {
                c.to_ascii_uppercase()
            } else {
                c.to_ascii_lowercase()
            };
            upper = !upper;
            out
        })
        .collect()
}

/// Where splices go: the middle of the token, never before its first
/// character (a splice there would sit between bracket and token, which is
/// a different attack).
fn middle(token: &str) -> usize {
    let len = token.chars().count();
    (len / 2).clamp(1, len.max(1))
}

fn split_chars(token: &str, at: usize) -> (&str, &str) {
    let byte = token.char_indices().nth(at).map_or(token.len(), |(i, _)| i);
    token.split_at(byte)
}

fn splice(token: &str, insert: &str) -> String {
    let (head, tail) = split_chars(token, middle(token));
    format!("{head}{insert}{tail}")
}

/// The Unicode blocks (`Blocks.txt`) a script variant draws its
/// lookalikes from; empty for a variant that is no script's.
fn script_blocks(variant: Variant) -> &'static [RangeInclusive<u32>] {
    match variant {
        Variant::Cyrillic => &[0x0400..=0x052F, 0x1C80..=0x1C8F, 0xA640..=0xA69F],
        Variant::Greek => &[0x0370..=0x03FF, 0x1F00..=0x1FFF],
        // Latin Extended-B, IPA Extensions, Phonetic Extensions (small
        // capitals) and their supplement, Latin Extended-D.
        Variant::LatinLookalike => &[
            0x0180..=0x024F,
            0x0250..=0x02AF,
            0x1D00..=0x1DBF,
            0xA720..=0xA7FF,
        ],
        Variant::Armenian => &[0x0530..=0x058F],
        Variant::Cherokee => &[0x13A0..=0x13FF, 0xAB70..=0xABBF],
        Variant::Lisu => &[0xA4D0..=0xA4FF],
        Variant::CanadianSyllabics => &[0x1400..=0x167F, 0x18B0..=0x18FF],
        Variant::Coptic => &[0x2C80..=0x2CFF],
        _ => &[],
    }
}

/// The lookalike of the ASCII letter `c` a script variant writes, if the
/// script has one: drawn from the reader's own lookalike table (Unicode's
/// confusables data, [`crate::level::lookalike_table`]), so every
/// character a script variant writes is one the `unicode` level reads as
/// `c`. Of the script's lookalikes of `c`, one of the same case as `c`
/// (or without case) is preferred, then the lowest code point.
fn script_lookalike(variant: Variant, c: char) -> Option<char> {
    static TABLES: OnceLock<Vec<(Variant, [Option<char>; 128])>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        Variant::ALL
            .into_iter()
            .filter(|v| !script_blocks(*v).is_empty())
            .map(|v| (v, script_table(v)))
            .collect()
    });
    let (_, table) = tables.iter().find(|(v, _)| *v == variant)?;
    table.get(c as usize).copied().flatten()
}

/// [`script_lookalike`]'s answers for one script, by ASCII code.
fn script_table(variant: Variant) -> [Option<char>; 128] {
    let blocks = script_blocks(variant);
    let mut table = [None; 128];
    for letter in ('a'..='z').chain('A'..='Z') {
        let reading = letter.to_ascii_lowercase().to_string();
        let mismatched_case = |source: char| {
            if letter.is_ascii_uppercase() {
                source.is_lowercase()
            } else {
                source.is_uppercase()
            }
        };
        table[letter as usize] = crate::level::lookalike_table()
            .map(|(source, _)| source)
            .filter(|source| blocks.iter().any(|b| b.contains(&(*source as u32))))
            .filter(|source| fold_char(*source, ReaderLevel::Unicode) == reading)
            .min_by_key(|source| (mismatched_case(*source), *source));
    }
    table
}

fn math_bold(c: char) -> char {
    let offset = |base: u32, from: char| char::from_u32(base + (c as u32 - from as u32));
    match c {
        'A'..='Z' => offset(0x1D400, 'A'),
        'a'..='z' => offset(0x1D41A, 'a'),
        '0'..='9' => offset(0x1D7CE, '0'),
        _ => None,
    }
    .unwrap_or(c)
}

fn circled(c: char) -> char {
    let offset = |base: u32, from: char| char::from_u32(base + (c as u32 - from as u32));
    match c {
        'A'..='Z' => offset(0x24B6, 'A'),
        'a'..='z' => offset(0x24D0, 'a'),
        _ => None,
    }
    .unwrap_or(c)
}

fn ligatures(token: &str) -> String {
    let chars: Vec<char> = token.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let pair: String = chars[i..chars.len().min(i + 2)]
            .iter()
            .map(|c| c.to_ascii_lowercase())
            .collect();
        let ligature = match pair.as_str() {
            "ff" => Some('ﬀ'),
            "fi" => Some('ﬁ'),
            "fl" => Some('ﬂ'),
            "st" => Some('ﬆ'),
            _ => None,
        };
        match ligature {
            Some(l) => {
                out.push(l);
                i += 2;
            }
            None => {
                out.push(chars[i]);
                i += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_unicode_group_is_every_variant_that_needs_the_unicode_level() {
        let (_, unicode) = GROUPS[1];
        let expected: Vec<Variant> = Variant::ALL
            .into_iter()
            .filter(|v| v.min_level() == ReaderLevel::Unicode)
            .collect();
        assert_eq!(unicode, expected.as_slice());
    }

    /// The tokens of the seeds and the reference, plus two pangrams so every
    /// letter and digit mapping of every variant is exercised.
    const TOKENS: [&str; 8] = [
        "framecheck-untrusted",
        "A2A_RESULT_FROM_PEER",
        "context",
        "source",
        "namzu-untrusted",
        "TUV",
        "the-quick-brown-fox-jumps-over-a-lazy-dog",
        "PACK_MY_BOX_WITH_FIVE_DOZEN_LIQUOR_JUGS_0123456789",
    ];
    const FORMS: [Form; 4] = [Form::Token, Form::Open, Form::OpenStart, Form::Close];

    /// Begin/end templates of the shapes seen in the field.
    const MARKERS: [(&str, &str); 4] = [
        ("<<<{token}>>>", "<<<END_{token}>>>"),
        ("BEGIN {token}", "END {token}"),
        ("-----BEGIN {token}-----", "-----END {token}-----"),
        ("[[{token}{attrs}]]", "[[/{token}]]"),
    ];

    /// Every grammar over `token`: both tag grammars, each marker shape,
    /// the fence, and an xml tag with a nonce in its name.
    fn grammars(token: &str) -> Vec<std::sync::Arc<dyn Grammar>> {
        use crate::grammar::{NonceAlphabet, NonceSpec};
        use crate::profile::{Delimiters, GrammarKind};
        let mut out = vec![
            Delimiters::simple(GrammarKind::XmlTag, token)
                .try_grammar()
                .unwrap(),
            Delimiters::simple(GrammarKind::BracketMarker, token)
                .try_grammar()
                .unwrap(),
            Delimiters::simple(GrammarKind::Fence, token)
                .try_grammar()
                .unwrap(),
        ];
        for (open, close) in MARKERS {
            let mut d = Delimiters::simple(GrammarKind::BeginEnd, token);
            d.open = Some(open.into());
            d.close = Some(close.into());
            out.push(d.try_grammar().unwrap());
        }
        let mut nonce = Delimiters::simple(GrammarKind::XmlTag, &format!("{token}-{{nonce}}"));
        nonce.nonce = Some(NonceSpec {
            alphabet: NonceAlphabet::Hex,
            min_length: Some(8),
        });
        out.push(nonce.try_grammar().unwrap());
        out.into_iter().map(std::sync::Arc::from).collect()
    }

    fn fold_str(text: &str, level: ReaderLevel) -> String {
        Reader::new(level).fold_str(text)
    }

    /// A text in which `spelled` (a `form` delimiter) stands where a reader
    /// would take it as one (a fence closer needs an open fence above it),
    /// and how many delimiters of its role the text holds besides it.
    fn in_context(grammar: &dyn Grammar, form: Form, spelled: &str) -> (String, usize) {
        let fence = grammar.kind() == crate::profile::GrammarKind::Fence;
        if fence && form == Form::Close {
            let open = grammar.render(Form::Open, 0).plain();
            (format!("{open}\nx\n{spelled}\n"), 0)
        } else if fence {
            // A fence stands alone on its line.
            (format!("x\n{spelled}\ny\n"), 0)
        } else if form == Form::OpenStart {
            // What a framing writes after the start of its opener.
            let open = grammar.render(Form::Open, 0).plain();
            let start = grammar.render(Form::OpenStart, 0).plain();
            let rest = open.strip_prefix(&start).unwrap_or_default();
            (format!("x {spelled}{rest} y"), 0)
        } else {
            (format!("x {spelled} y"), 0)
        }
    }

    /// The live delimiters of the right role in `text` at `level`.
    fn live_roles(grammar: &dyn Grammar, text: &str, level: ReaderLevel, form: Form) -> usize {
        let kind = match form {
            Form::Close => crate::grammar::DelimiterKind::Close,
            _ => crate::grammar::DelimiterKind::Open,
        };
        grammar
            .live(&crate::reader::Reader::new(level).fold(text))
            .iter()
            .filter(|d| d.kind == kind && d.token == 0)
            .count()
    }

    /// The property the whole catalogue rests on, for every grammar: each
    /// variant's spelling of each delimiter reads as the delimiter at the
    /// variant's level (the grammar finds it live there) and not at the
    /// level below; and it folds to the declared spelling at its level.
    #[test]
    fn every_variant_reads_as_the_delimiter_at_its_level_and_not_below() {
        for variant in Variant::ALL {
            let level = variant.min_level();
            let mut changed = 0;
            for token in TOKENS {
                for grammar in grammars(token) {
                    let grammar = &*grammar;
                    for form in FORMS {
                        let original = render(Variant::Exact, grammar, form, 0);
                        let spelled = render(variant, grammar, form, 0);
                        if spelled == original {
                            continue;
                        }
                        changed += 1;
                        let (mut seen, mut want) =
                            (fold_str(&spelled, level), fold_str(&original, level));
                        if variant == Variant::Spaced {
                            seen.retain(|c| c != ' ');
                            want.retain(|c| c != ' ');
                        }
                        assert_eq!(seen, want, "{variant:?} {spelled:?} at {level}");
                        assert!(reads_as_original(variant, &original, &spelled));
                        if form == Form::Token {
                            continue;
                        }
                        let (text, base) = in_context(grammar, form, &spelled);
                        let what = format!("{:?} {variant:?} {spelled:?}", grammar.kind());
                        assert_eq!(
                            live_roles(grammar, &text, level, form),
                            base + 1,
                            "{what} is not live at {level}"
                        );
                        if let Some(stricter) = stricter(level) {
                            assert_eq!(
                                live_roles(grammar, &text, stricter, form),
                                base,
                                "{what} is already live at {stricter}"
                            );
                        }
                    }
                }
            }
            if variant != Variant::Exact {
                assert!(changed > 0, "{variant:?} changed no delimiter of any token");
            }
        }
    }

    fn xml() -> std::sync::Arc<dyn Grammar> {
        use crate::profile::{Delimiters, GrammarKind};
        Delimiters::simple(GrammarKind::XmlTag, "framecheck-untrusted")
            .try_grammar()
            .unwrap()
            .into()
    }

    #[test]
    fn variants_that_cannot_apply_leave_the_delimiter_alone() {
        use crate::profile::{Delimiters, GrammarKind};
        let tuv = Delimiters::simple(GrammarKind::BracketMarker, "TUV")
            .try_grammar()
            .unwrap();
        let close = |v| render(v, &*tuv, Form::Close, 0);
        assert_eq!(close(Variant::Upper), "[/TUV]");
        assert_eq!(close(Variant::DashLookalike), "[/TUV]");
        assert_eq!(close(Variant::Ligature), "[/TUV]");
        // Cyrillic has no lookalike of f, u or n in either case.
        let fun = Delimiters::simple(GrammarKind::XmlTag, "fun")
            .try_grammar()
            .unwrap();
        assert_eq!(render(Variant::Cyrillic, &*fun, Form::Token, 0), "fun");
        let tok = Delimiters::simple(GrammarKind::XmlTag, "tok")
            .try_grammar()
            .unwrap();
        assert_eq!(
            render(Variant::FullwidthBrackets, &*tok, Form::Token, 0),
            "tok"
        );
        // A fence closer has no letters: case variants cannot change it.
        let fence = Delimiters::simple(GrammarKind::Fence, "text")
            .try_grammar()
            .unwrap();
        assert_eq!(render(Variant::Upper, &*fence, Form::Close, 0), "```");
    }

    #[test]
    fn spellings_match_the_documented_transforms() {
        let xml = xml();
        let close = |v| render(v, &*xml, Form::Close, 0);
        assert_eq!(close(Variant::Mixed), "</FrAmEcHeCk-UnTrUsTeD>");
        assert_eq!(close(Variant::Spaced), "< / framecheck-untrusted >");
        assert_eq!(close(Variant::ZeroWidth), "</framecheck\u{200B}-untrusted>");
        assert_eq!(
            close(Variant::VariationSelector),
            "</f\u{FE0F}ramecheck-untrusted>"
        );
        assert_eq!(
            close(Variant::FullwidthBrackets),
            "＜／framecheck-untrusted＞"
        );
        assert_eq!(close(Variant::BracketLookalike), "‹/framecheck-untrusted›");
        assert_eq!(
            close(Variant::DashLookalike),
            "</framecheck\u{2010}untrusted>"
        );
        assert_eq!(
            close(Variant::CompatLetters),
            "</framechec\u{212A}-untru\u{17F}ted>"
        );
        assert_eq!(close(Variant::Ligature), "</framecheck-untruﬆed>");
        assert_eq!(
            close(Variant::IgnorableLetters),
            "</framecheck\u{115F}\u{1160}\u{3164}\u{FFA0}-untrusted>"
        );
        use crate::profile::{Delimiters, GrammarKind};
        // The letters split a fence's run, where no token is.
        let fence = Delimiters::simple(GrammarKind::Fence, "text")
            .try_grammar()
            .unwrap();
        let letters = "\u{115F}\u{1160}\u{3164}\u{FFA0}";
        assert_eq!(
            render(Variant::IgnorableLetters, &*fence, Form::Close, 0),
            format!("`{letters}`{letters}`")
        );
        let tuv = Delimiters::simple(GrammarKind::BracketMarker, "TUV")
            .try_grammar()
            .unwrap();
        assert_eq!(
            render(Variant::Fullwidth, &*tuv, Form::Open, 0),
            "［ＴＵＶ］"
        );
        // Mixed falls back to starting lower when starting upper changes nothing.
        let abc = Delimiters::simple(GrammarKind::XmlTag, "AbC")
            .try_grammar()
            .unwrap();
        assert_eq!(render(Variant::Mixed, &*abc, Form::Token, 0), "aBc");
        // Fences: fullwidth backticks; markers: the END word is transformed too.
        let fence = Delimiters::simple(GrammarKind::Fence, "text")
            .try_grammar()
            .unwrap();
        assert_eq!(
            render(Variant::Fullwidth, &*fence, Form::Close, 0),
            "｀｀｀"
        );
        let mut d = Delimiters::simple(GrammarKind::BeginEnd, "DOC");
        d.open = Some("BEGIN {token}".into());
        d.close = Some("END {token}".into());
        let markers = d.try_grammar().unwrap();
        assert_eq!(render(Variant::Mixed, &*markers, Form::Close, 0), "EnD DoC");
        // Cyrillic has no capital D lookalike: the small one stands in.
        assert_eq!(
            render(Variant::Cyrillic, &*markers, Form::Close, 0),
            "ЕNԁ ԁОС"
        );
    }

    #[test]
    fn groups_expand_in_canonical_order() {
        assert_eq!(
            expand_name("case"),
            Some(vec![Variant::Upper, Variant::Lower, Variant::Mixed])
        );
        assert_eq!(expand_name("all").map(|v| v.len()), Some(29));
        assert_eq!(expand_name("unicode").map(|v| v.len()), Some(24));
        assert_eq!(expand_name("zero-width"), Some(vec![Variant::ZeroWidth]));
        assert_eq!(expand_name("nope"), None);
        for v in Variant::ALL {
            assert_eq!(Variant::from_name(v.name()), Some(v));
            // The name is the serde name, so reports and files agree.
            let json = serde_json::to_string(&v).unwrap();
            assert_eq!(json, format!("\"{}\"", v.name()));
        }
    }

    #[test]
    fn every_script_family_respells_the_reference_closer_in_its_own_script() {
        let xml = xml();
        let original = render(Variant::Exact, &*xml, Form::Close, 0);
        let scripts: Vec<Variant> = Variant::ALL
            .into_iter()
            .filter(|v| !script_blocks(*v).is_empty())
            .collect();
        assert_eq!(scripts.len(), 8, "{scripts:?}");
        for variant in scripts {
            let close = render(variant, &*xml, Form::Close, 0);
            assert_ne!(close, original, "{variant:?}");
            assert!(
                reads_as_original(variant, &original, &close),
                "{variant:?}: {close}"
            );
            for c in close.chars().filter(|c| !c.is_ascii()) {
                let in_script = script_blocks(variant)
                    .iter()
                    .any(|b| b.contains(&(c as u32)));
                assert!(in_script, "{variant:?} wrote {c:?}");
                assert!(
                    crate::level::lookalike_table().any(|(s, _)| s == c),
                    "{c:?}"
                );
            }
        }
        // Issue 56's confusables are among what the variants write.
        let written: String = Variant::ALL
            .into_iter()
            .map(|v| render(v, &*xml, Form::Close, 0))
            .collect();
        for c in ['\u{0430}', '\u{0251}', '\u{057D}'] {
            assert!(written.contains(c), "{c:?} in {written}");
        }
    }
}
