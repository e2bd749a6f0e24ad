//! The data types of the catalogue, before and after instantiation.

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::site::Field;
use super::template::{Placeholder, TokenRole};
use crate::grammar::GrammarKind;
use crate::level::ReaderLevel;
use crate::profile::{BodyEncoding, Capability};
use crate::target::WrapRequest;

/// Attack category; one catalogue file per category.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    /// Content closes the frame early.
    Breakout,
    /// Content forges a frame or a structural element.
    Forgery,
    /// Delimiters in another case.
    CaseVariant,
    /// Frames inside frames.
    NestedBlock,
    /// Attribute keys or values rewrite the tag.
    AttributeInjection,
    /// Provenance or kind moves the header boundary or forges structure.
    ProvenanceInjection,
    /// Zero-width, fullwidth, homoglyph, tag-character, bidi and NFKC forms.
    Unicode,
    /// CRLF, lone CR, U+2028 and blank-line tricks.
    WhitespaceAndHeader,
    /// Chat-template control strings and turn markers: breakouts from the
    /// message the frame sits in (outer-layer class).
    ChatTemplate,
    /// Texts fed to the reader: forged, truncated, concatenated, prefix-only.
    Reader,
    /// Fidelity: ordinary content must pass through unchanged.
    Benign,
    /// Consumers that parse: a forged record after a line break, or text
    /// that makes a parser fall back to reading everything as one message.
    RecordForgery,
}

impl Category {
    /// Every category, in report order.
    pub const ALL: [Category; 12] = [
        Category::Breakout,
        Category::Forgery,
        Category::CaseVariant,
        Category::NestedBlock,
        Category::AttributeInjection,
        Category::ProvenanceInjection,
        Category::Unicode,
        Category::WhitespaceAndHeader,
        Category::ChatTemplate,
        Category::Reader,
        Category::Benign,
        Category::RecordForgery,
    ];

    /// The stable kebab-case name (also the catalogue file stem).
    pub fn name(self) -> &'static str {
        match self {
            Category::Breakout => "breakout",
            Category::Forgery => "forgery",
            Category::CaseVariant => "case-variant",
            Category::NestedBlock => "nested-block",
            Category::AttributeInjection => "attribute-injection",
            Category::ProvenanceInjection => "provenance-injection",
            Category::Unicode => "unicode",
            Category::WhitespaceAndHeader => "whitespace-and-header",
            Category::ChatTemplate => "chat-template",
            Category::Reader => "reader",
            Category::Benign => "benign",
            Category::RecordForgery => "record-forgery",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How bad a failure of this case is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Severity {
    /// No security effect (fidelity cases).
    Info,
    /// Cosmetic or hard to exploit.
    Low,
    /// Weakens the frame.
    Medium,
    /// Content escapes or forges the frame.
    High,
    /// Content escapes the frame in its plainest form.
    Critical,
}

/// What a case does with the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Operation {
    /// Wrap the input and judge the framed text.
    Wrap,
    /// Feed a text to the reader and judge its answer.
    Read,
    /// Wrap, judge, then read the framed text back and judge that too.
    Roundtrip,
}

/// What the target must do for the case to pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Expectation {
    /// Every structural check holds (refusing is acceptable unless `refusal: forbidden`).
    Hold,
    /// Structure holds and the content comes back byte for byte (benign cases).
    Faithful,
    /// The reader returns no body.
    Reject,
    /// The reader returns a body.
    Accept,
    /// Either answer is fine; recorded for information (Wycheproof "acceptable").
    Acceptable,
}

/// Whether refusing the input (an error reply) counts as passing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RefusalPolicy {
    /// Refusing is a pass: the framing declined hostile input.
    Allowed,
    /// Refusing is a fidelity failure: ordinary input must be framed.
    Forbidden,
}

/// A transform applied to every delimiter placeholder of a case, expanding
/// one written case into several concrete ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// Delimiters as declared.
    Exact,
    /// Token in upper case.
    Upper,
    /// Token in lower case.
    Lower,
    /// Token in alternating case.
    Mixed,
    /// Whitespace inside the delimiter (`< /tok >`).
    Spaced,
    /// Zero-width space spliced into the token.
    ZeroWidth,
    /// Zero-width joiner spliced into the token.
    ZeroWidthJoiner,
    /// Word joiner spliced into the token.
    WordJoiner,
    /// Soft hyphen spliced into the token.
    SoftHyphen,
    /// Unicode tag characters spliced into the token.
    TagChars,
    /// Bidi override and pop spliced into the token.
    Bidi,
    /// Variation selector spliced into the token.
    VariationSelector,
    /// Whole delimiter in fullwidth forms.
    Fullwidth,
    /// Only the brackets and slash in fullwidth forms.
    FullwidthBrackets,
    /// Angle or square brackets replaced by lookalikes (‹ › ⟦ ⟧).
    BracketLookalike,
    /// Latin letters replaced by Cyrillic lookalikes.
    Cyrillic,
    /// Latin letters replaced by Greek lookalikes.
    Greek,
    /// Latin letters replaced by their IPA, small-capital and other
    /// extended Latin lookalikes (`ɑ`, `ᴠ`, `ɩ`).
    LatinLookalike,
    /// Latin letters replaced by Armenian lookalikes (`ս`, `օ`).
    Armenian,
    /// Latin letters replaced by Cherokee lookalikes (`Ꭺ`, `Ꮯ`).
    Cherokee,
    /// Latin letters replaced by Lisu lookalikes (`ꓲ`, `ꓔ`).
    Lisu,
    /// Latin letters replaced by Canadian syllabics lookalikes (`ᗞ`, `ᑕ`).
    CanadianSyllabics,
    /// Latin letters replaced by Coptic lookalikes (`ⲟ`, `Ⲣ`).
    Coptic,
    /// Letters in mathematical bold (NFKC folds them back).
    MathBold,
    /// Hyphen replaced by a dash lookalike.
    DashLookalike,
    /// Kelvin sign for k, long s for s (case folding maps them back).
    CompatLetters,
    /// Ligatures (ﬁ, ﬂ, ﬀ, ﬆ) where the token allows.
    Ligature,
    /// Circled letters (NFKC folds them back).
    Circled,
    /// The default-ignorable Hangul filler letters (U+115F, U+1160,
    /// U+3164, U+FFA0) spliced into the token and into runs of one
    /// punctuation character (a fence's backticks): letters (`Lo`), not
    /// format characters, so a filter of `Cf` invisibles keeps them.
    IgnorableLetters,
}

/// Where a case was written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceLocation {
    /// The catalogue file.
    pub file: PathBuf,
    /// 1-based line of the case's `id`.
    pub line: u64,
}

/// Placeholders in a read text that need the target's own frame. They are
/// filled by the runner from a calibration wrap of a known benign content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Piece {
    /// Literal text, already instantiated from the profile.
    Literal(String),
    /// The whole calibration frame.
    Frame,
    /// The calibration frame up to where its content starts.
    FrameHead,
    /// The calibration content as framed.
    FrameBody,
    /// The calibration frame after its content.
    FrameTail,
}

/// What a concrete case sends to the target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Input {
    /// A wrap request (for `wrap` and `roundtrip`).
    Wrap(WrapRequest),
    /// A text for the reader, in pieces still to be joined with the frame.
    Read(Vec<Piece>),
}

/// One concrete case, instantiated for one target: the unit the runner runs
/// and the oracle judges.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConcreteCase {
    /// Stable id: `<case id>` or `<case id>~<variant>`.
    pub id: String,
    /// The written case's id.
    pub base_id: String,
    /// The variant applied.
    pub variant: Variant,
    /// Category.
    pub category: Category,
    /// One-line title.
    pub title: String,
    /// Why the case exists.
    pub why: String,
    /// CWE, OWASP and paper references.
    pub references: Vec<String>,
    /// Flags (Wycheproof style), explained in the file's `notes`.
    pub flags: Vec<String>,
    /// Severity of a failure.
    pub severity: Severity,
    /// What to do.
    pub operation: Operation,
    /// What to send.
    pub input: Input,
    /// What must happen.
    pub expect: Expectation,
    /// Whether refusing passes.
    pub refusal: RefusalPolicy,
    /// The first reader level at which the variant's delimiters read as the
    /// real ones. Read cases demand rejection only from this level up.
    pub min_level: ReaderLevel,
    /// A marker string planted in the input; the oracle checks where it lands.
    pub canary: String,
    /// The fields the canary was planted in.
    pub canary_fields: Vec<Field>,
    /// Capabilities the case needs.
    pub requires: Vec<Capability>,
    /// Where the case was written.
    pub source: SourceLocation,
    /// The field and delimiter role the case attacks, from its templates.
    #[serde(default)]
    pub site: super::site::AttackSite,
    /// A nonce value the runner harvests from an earlier frame before
    /// sending the input; `None` for every case without a harvesting
    /// nonce mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub harvest: Option<super::nonce::Harvest>,
}

/// A flag's explanation, from a catalogue file's `notes`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlagNote {
    /// What the flag marks.
    pub description: String,
    /// What happens when a target fails a case with this flag.
    #[serde(default)]
    pub effect: String,
}

/// The loaded catalogue, before instantiation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Catalogue {
    /// SHA-256 over the catalogue files' bytes, in path order.
    pub hash: String,
    /// Flag notes from every file.
    pub notes: BTreeMap<String, FlagNote>,
    /// The written cases.
    pub cases: Vec<CaseSpec>,
}

/// Text templates of a wrap input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WrapTemplate {
    /// Content template.
    #[serde(default)]
    pub content: String,
    /// Kind template (default `tool-result`).
    #[serde(default)]
    pub kind: Option<String>,
    /// Attribute templates, keys and values both templated.
    #[serde(default)]
    pub attributes: BTreeMap<String, String>,
    /// Provenance template (default a benign line).
    #[serde(default)]
    pub provenance: Option<String>,
    /// How many times the content template is repeated (default 1), so a
    /// large content needs no huge template. Capped at load time.
    #[serde(default = "one")]
    pub repeat: u32,
    /// For a token naming the request's kind (`{kind}_output`), the kind
    /// whose frame the delimiter placeholders spell when it is not the
    /// request's own: a frame of another kind forged inside this one.
    /// Default: the request's kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marker_kind: Option<String>,
}

fn one() -> u32 {
    1
}

impl Default for WrapTemplate {
    fn default() -> WrapTemplate {
        WrapTemplate {
            content: String::new(),
            kind: None,
            attributes: BTreeMap::new(),
            provenance: None,
            repeat: 1,
            marker_kind: None,
        }
    }
}

/// What follows a grammar's name in the requirement for that grammar.
const GRAMMAR_SUFFIX: &str = "-grammar";

/// Something a case needs in the target's *shape* rather than its
/// abilities. Unlike a [`Capability`], a missing structure means the case is
/// not instantiated at all: there is nothing to attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Structure {
    /// Header lines after the opening delimiter (`header: blank-line`).
    Header,
    /// An inner element holding the content (`delimiters.inner`).
    Inner,
    /// At least one reserved token (`delimiters.reserved`).
    Reserved,
    /// One grammar (`fence-grammar`, `section-grammar`: the grammar's
    /// profile name and `-grammar`): attacks only its delimiters invite.
    Grammar(GrammarKind),
    /// A declared nonce (`delimiters.nonce`): cases with a nonce mode.
    Nonce,
    /// A token that names the request's kind (`kind-name`: `{kind}_output`):
    /// cases whose kind is not the default one, so that the case's own
    /// closer is another kind's name than the default's.
    KindName,
    /// A body in one encoding (`line-prefix`: the encoding's profile
    /// name), for an encoding with cases of its own
    /// ([`crate::encoding::Codec::catalogue_twin`]: a body quoted line by
    /// line invites cases whose lines escape, or imitate, the quote).
    Encoding(BodyEncoding),
}

/// Written and read as its [`Structure::name`].
impl Serialize for Structure {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name())
    }
}

impl<'de> Deserialize<'de> for Structure {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Structure, D::Error> {
        let name = String::deserialize(d)?;
        Structure::parse(&name).ok_or_else(|| {
            serde::de::Error::invalid_value(serde::de::Unexpected::Str(&name), &"a structure")
        })
    }
}

impl Structure {
    /// The target structure `placeholder` needs to expand at all. Here
    /// rather than on [`Placeholder`]: templates are read below the model,
    /// which names what a case needs.
    pub fn needed_by(placeholder: Placeholder) -> Option<Structure> {
        if placeholder == Placeholder::LinePrefix {
            return Some(Structure::Encoding(BodyEncoding::LinePrefix));
        }
        match placeholder.delimiter()?.0 {
            TokenRole::Outer => None,
            TokenRole::Inner => Some(Structure::Inner),
            TokenRole::Reserved => Some(Structure::Reserved),
        }
    }

    /// The stable name used in catalogue files.
    pub fn name(self) -> String {
        match self {
            Structure::Header => "header".into(),
            Structure::Inner => "inner".into(),
            Structure::Reserved => "reserved".into(),
            Structure::Grammar(kind) => format!("{}{GRAMMAR_SUFFIX}", kind.name()),
            Structure::Nonce => "nonce".into(),
            Structure::KindName => "kind-name".into(),
            Structure::Encoding(encoding) => encoding.name().into(),
        }
    }

    /// The structure a catalogue file names `name`, if any ([`Structure::name`]).
    pub fn parse(name: &str) -> Option<Structure> {
        Some(match name {
            "header" => Structure::Header,
            "inner" => Structure::Inner,
            "reserved" => Structure::Reserved,
            "nonce" => Structure::Nonce,
            "kind-name" => Structure::KindName,
            _ => match name.strip_suffix(GRAMMAR_SUFFIX) {
                Some(grammar) => {
                    Structure::Grammar(*GrammarKind::ALL.iter().find(|k| k.name() == grammar)?)
                }
                // Only an encoding with cases of its own is a structure.
                None => Structure::Encoding(
                    BodyEncoding::ALL
                        .into_iter()
                        .filter(|e| e.codec().catalogue_twin().is_some())
                        .find(|e| e.name() == name)?,
                ),
            },
        })
    }
}

/// One case as written in a catalogue file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaseSpec {
    /// Stable id, unique across the catalogue.
    pub id: String,
    /// Category (from the file).
    pub category: Category,
    /// One-line title.
    pub title: String,
    /// Why the case exists.
    pub why: String,
    /// References.
    pub references: Vec<String>,
    /// Flags.
    pub flags: Vec<String>,
    /// Severity.
    pub severity: Severity,
    /// Operation.
    pub operation: Operation,
    /// Wrap input templates (wrap, roundtrip).
    pub wrap: Option<WrapTemplate>,
    /// Read text template (read).
    pub text: Option<String>,
    /// Variants to expand into.
    pub variants: Vec<Variant>,
    /// What must happen.
    pub expect: Expectation,
    /// Refusal policy.
    pub refusal: RefusalPolicy,
    /// Capabilities needed beyond the operation's own.
    pub requires: Vec<Capability>,
    /// Target structure needed; cases are not instantiated without it.
    #[serde(default)]
    pub structure: Vec<Structure>,
    /// How the delimiters spell the nonce (implies [`Structure::Nonce`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nonce: Option<super::nonce::NonceMode>,
    /// Where it was written.
    pub source: SourceLocation,
}
