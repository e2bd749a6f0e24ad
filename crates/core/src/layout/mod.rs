//! The frame layout, learned by calibration: what a framing writes around
//! the content, part by part.
//!
//! framecheck wraps a few benign requests whose every field carries a
//! distinct marker (two contents, and the first content twice), and learns
//! from the differences ([`learn`]): the constant text before the opener (a
//! preamble), the opener, the header and where each request field lands in
//! it, the padding around the content, the closer, the constant text after
//! it, and the spans that change between two wraps of the same input
//! (nonces). The result, a [`Layout`], is rendered as a template in the
//! reports so a user sees what framecheck understood, and every case output
//! is matched against it ([`Layout::matches`]): constant text outside the
//! frame is the framing's own and never a forged delimiter; text there that
//! is not the calibrated constant is a `frame.outer-text` failure; an
//! output that does not fit the layout is `frame.shape`, naming the part.
//!
//! ```
//! use framecheck_core::layout::{learn, probes};
//! use framecheck_core::profile::ResolvedProfile;
//!
//! let profile = ResolvedProfile::parse(
//!     "name: reference\nadapter: { builtin: reference }\n\
//!      delimiters: { syntax: xml-tag, token: framecheck-untrusted }\nheader: blank-line\n\
//!      attributes: { on: outer, kind: kind, extra: [] }\n\
//!      capabilities: [wrap, read, attributes, provenance, kind]\n",
//! )
//! .unwrap();
//! let probes = probes(&profile);
//! let wrap = |r: &framecheck_core::target::WrapRequest| {
//!     format!("Data follows.\n<framecheck-untrusted kind=\"{}\">\n{}\n\n{}\n</framecheck-untrusted>",
//!         r.kind, r.provenance, r.content)
//! };
//! let wraps: Vec<String> = probes.requests().iter().map(wrap).collect();
//! let layout = learn(&profile, &probes, &wraps).unwrap();
//! assert!(layout.template().starts_with("Data follows.\n{open:<framecheck-untrusted{attributes}>}\n{provenance}"));
//! let framed = wrap(&framecheck_core::target::WrapRequest { content: "x".into(), ..probes.requests()[0].clone() });
//! assert!(layout.matches(&framed).outer_text.is_empty());
//! ```

use std::fmt::Write as _;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::encoding::Datamark;
use crate::profile::{BodyEncoding, DatamarkReplaces, Encoding, EncodingChoice};

mod declared;
pub mod echo;
mod fields;
pub mod infer;
mod learn;
mod matching;
mod tokens;
mod variant;

pub use echo::{Echo, Transform};
pub use learn::{
    kind_attribute, learn, probes, probes_with, provenance_attribute, LayoutError, Probes,
    LONGER_PROBES,
};
pub use matching::{Match, Mismatch};

/// Whether `value` carries calibration's attribute marker: it came from
/// the calibration request's attributes, whose names are the caller's.
/// The kind and the provenance are request values too, but written under
/// a name the framing chose (`type="…"`, `source="…"`).
pub fn is_caller_attribute_value(value: &str) -> bool {
    value.contains(learn::ATTR_MARK)
}

/// Where a part sits in the frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Region {
    /// Constant text before the opening delimiter.
    Preamble,
    /// The opening delimiter, with its attributes.
    Opener,
    /// Between the opener and the content: header lines and padding.
    Header,
    /// Between the content and the closer: padding.
    Footer,
    /// The closing delimiter.
    Closer,
    /// Constant text after the closing delimiter.
    After,
}

impl Region {
    /// True for the regions outside the frame proper.
    pub fn is_outside(self) -> bool {
        matches!(self, Region::Preamble | Region::After)
    }

    /// True for the framing's delimiters themselves.
    pub fn is_delimiter(self) -> bool {
        matches!(self, Region::Opener | Region::Closer)
    }
}

/// A request field the framing writes outside the body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "field", content = "key")]
pub enum FieldName {
    /// The envelope kind.
    Kind,
    /// The provenance line.
    Provenance,
    /// An attribute value, by key.
    Attribute(String),
    /// The whole attribute list of a delimiter (its names and values vary
    /// with the request; `tag.integrity` judges it).
    Attributes,
}

impl FieldName {
    /// The field as the layout template writes it (`provenance`, `attr:KEY`).
    pub fn label(&self) -> String {
        match self {
            FieldName::Kind => "kind".into(),
            FieldName::Provenance => "provenance".into(),
            FieldName::Attribute(key) => format!("attr:{key}"),
            FieldName::Attributes => "attributes".into(),
        }
    }
}

/// How a field's value is set in the text around it, as observed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "in", content = "name")]
pub enum FieldContext {
    /// Inside a quoted attribute value.
    AttributeValue,
    /// On a named header line (`Source: value`).
    HeaderLine(String),
    /// Anywhere else (a sentence).
    Text,
}

/// What a per-call variable span looked like in calibration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Variable {
    /// The smallest alphabet covering every observed sample.
    pub alphabet: Alphabet,
    /// Shortest observed length, in characters.
    pub min_len: usize,
    /// Longest observed length, in characters.
    pub max_len: usize,
    /// True when the span changed with the content, not from call to call.
    pub content_dependent: bool,
    /// Set when the span is the content written again, outside the body
    /// (a title, a preview): an echo slot the oracle judges as a slot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub echo: Option<Echo>,
}

/// The alphabet of a variable span.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Alphabet {
    /// `0-9`.
    Digits,
    /// `0-9a-fA-F`.
    Hex,
    /// Hex digits and `-` (a UUID).
    Uuid,
    /// ASCII letters and digits.
    Alnum,
    /// Letters, digits, `-`, `_`, `+`, `/`, `=`.
    Base64,
    /// Backticks and tildes (a markdown fence run, lengthened per call).
    Fence,
    /// Equals signs (a Lua long bracket's level, raised per call).
    Level,
    /// Any characters but line breaks.
    Any,
}

impl Alphabet {
    /// The smallest alphabet holding every character of `samples`.
    pub fn of<'a>(samples: impl IntoIterator<Item = &'a str>) -> Alphabet {
        let all: Vec<char> = samples.into_iter().flat_map(str::chars).collect();
        let every = |f: fn(char) -> bool| all.iter().all(|&c| f(c));
        if every(|c| c.is_ascii_digit()) {
            Alphabet::Digits
        } else if every(|c| c.is_ascii_hexdigit()) {
            Alphabet::Hex
        } else if every(|c| c.is_ascii_hexdigit() || c == '-') {
            Alphabet::Uuid
        } else if every(|c| c.is_ascii_alphanumeric()) {
            Alphabet::Alnum
        } else if every(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '+' | '/' | '=')) {
            Alphabet::Base64
        } else {
            Alphabet::Any
        }
    }

    /// Whether `c` belongs to the alphabet.
    pub fn allows(self, c: char) -> bool {
        match self {
            Alphabet::Digits => c.is_ascii_digit(),
            Alphabet::Hex => c.is_ascii_hexdigit(),
            Alphabet::Uuid => c.is_ascii_hexdigit() || c == '-',
            Alphabet::Alnum => c.is_ascii_alphanumeric(),
            Alphabet::Base64 => {
                c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '+' | '/' | '=')
            }
            Alphabet::Fence => matches!(c, '`' | '~'),
            Alphabet::Level => c == '=',
            Alphabet::Any => !matches!(c, '\n' | '\r'),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Alphabet::Digits => "digits",
            Alphabet::Hex => "hex",
            Alphabet::Uuid => "uuid",
            Alphabet::Alnum => "alnum",
            Alphabet::Base64 => "base64url",
            Alphabet::Fence => "fence-run",
            Alphabet::Level => "level-run",
            Alphabet::Any => "any",
        }
    }
}

/// One piece of the layout.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "part")]
pub enum PartKind {
    /// Text that is the same in every wrap.
    Fixed {
        /// The text.
        text: String,
    },
    /// A span that changes from call to call (or with the content).
    Variable(Variable),
    /// Where a request field lands.
    Field {
        /// Which field.
        name: FieldName,
        /// How it is set.
        context: FieldContext,
    },
}

/// A part and the region it sits in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    /// Where in the frame.
    pub region: Region,
    /// What it is.
    pub kind: PartKind,
}

/// The padding around the content: what separates it from the header and
/// from the closer, learned or declared.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Padding {
    /// Between where a reader's content region starts and the content.
    pub lead: String,
    /// Between the content and where the content region ends.
    pub trail: String,
    /// True when the profile declared it (`body.padding`).
    pub declared: bool,
}

/// A framing's layout: the parts before the content, the content's
/// encoding, the parts after it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layout {
    /// Parts before the content, in order.
    pub head: Vec<Part>,
    /// How the content is written: one encoding, or two stacked.
    pub encoding: Encoding,
    /// Whether the encoding was declared by the profile (else guessed).
    pub encoding_declared: bool,
    /// The encodings the framing chooses among per content, in the order
    /// tried (`body.encoding: {per-content: [...]}`); empty when every
    /// output is written in `encoding`, which is then the one calibration
    /// found.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub per_content: Vec<Encoding>,
    /// The data-marking character, for `datamark`; the prefix, for
    /// `line-prefix` (`BodySection::marker`).
    pub datamark: String,
    /// Which characters the data-marking replaces, for `datamark`.
    #[serde(default, skip_serializing_if = "DatamarkReplaces::is_spaces")]
    pub datamark_replaces: DatamarkReplaces,
    /// Parts after the content, in order.
    pub tail: Vec<Part>,
    /// Padding around the content.
    pub padding: Padding,
    /// The first calibration wrap, and where its content sits, for read
    /// cases built from the target's own frame.
    pub sample: Sample,
    /// The whole output for empty content, part by part, when the framing
    /// writes another frame for it than the layout with an empty body (a
    /// self-closing element); see [`Layout::learn_empty`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub empty: Option<Vec<Part>>,
    /// The frame of content on one line, when the framing writes another
    /// than for content over several (a notice only above one line); each
    /// output is judged against the one it has ([`Layout::for_output`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub one_line: Option<Box<Layout>>,
}

/// One calibration output and where its content slot is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sample {
    /// The framed text.
    pub framed: String,
    /// The content slot, as framed (encoded).
    pub slot: Range<usize>,
}

impl Layout {
    /// The encoding `body` is judged in, as written for `content`: the
    /// layout's one encoding, or of its per-content choices the first that
    /// explains the body. When none does, the first that is not `none` and
    /// decodes the body (a writer that escapes badly is judged in the
    /// encoding it attempted), else the first listed.
    ///
    /// One encoding is the judge too, unless it cannot read the body at
    /// all and the body is the content as written: that output has the
    /// raw shape (a framing that writes plain content raw and encodes the
    /// rest, under a profile that declares only the encoding), and judging
    /// it encoded would report a loss where nothing is lost. A body the
    /// encoding reads, to whatever text, is judged in it.
    pub fn encoding_for(&self, body: &str, content: &str) -> Encoding {
        let choices = &self.per_content;
        let mark = self.marking();
        if choices.is_empty() {
            let unreadable = crate::encoding::decode(self.encoding, body, mark).is_err();
            let raw = BodyEncoding::None.into();
            return match unreadable && crate::encoding::faithful(raw, body, content, mark) {
                true => raw,
                false => self.encoding,
            };
        }
        let faithful = || {
            choices
                .iter()
                .find(|&&e| crate::encoding::faithful(e, body, content, mark))
        };
        let decodes = || {
            choices
                .iter()
                .find(|&&e| !e.is_none() && crate::encoding::decode(e, body, mark).is_ok())
        };
        faithful()
            .or_else(decodes)
            .or(choices.first())
            .copied()
            .unwrap_or(self.encoding)
    }

    /// The body encoding as a profile spells it: the one encoding, or the
    /// per-content choice.
    pub fn encoding_label(&self) -> String {
        match self.per_content.is_empty() {
            true => self.encoding.to_string(),
            false => EncodingChoice::PerContent(self.per_content.clone()).to_string(),
        }
    }

    /// The layout as a one-string template: fixed text as written, and
    /// `{open:…}`, `{close:…}`, `{kind}`, `{provenance}`, `{attr:KEY}`,
    /// `{nonce:ALPHABET×N}`, `{content:ENCODING}` for the rest.
    pub fn template(&self) -> String {
        let mut out = String::new();
        render_parts(&mut out, &self.head);
        let _ = match self.per_content.is_empty() {
            true => write!(out, "{{content:{}}}", self.encoding),
            false => {
                let names: Vec<String> = self.per_content.iter().map(|e| e.to_string()).collect();
                write!(out, "{{content:{}}}", names.join(" or "))
            }
        };
        render_parts(&mut out, &self.tail);
        out
    }

    /// The data-marking of a `datamark` body, for encoding and decoding.
    pub fn marking(&self) -> Datamark<'_> {
        Datamark {
            mark: &self.datamark,
            replaces: self.datamark_replaces,
        }
    }

    /// Every part with its region, head then tail.
    pub fn parts(&self) -> impl Iterator<Item = &Part> {
        self.head.iter().chain(self.tail.iter())
    }

    /// The fixed text before the opener.
    pub fn preamble(&self) -> String {
        fixed_text(&self.head, Region::Preamble)
    }

    /// The fixed text after the closer.
    pub fn after(&self) -> String {
        fixed_text(&self.tail, Region::After)
    }
}

fn fixed_text(parts: &[Part], region: Region) -> String {
    parts
        .iter()
        .filter(|p| p.region == region)
        .filter_map(|p| match &p.kind {
            PartKind::Fixed { text } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

fn render_parts(out: &mut String, parts: &[Part]) {
    let mut open: Option<Region> = None;
    for part in parts {
        if open != Some(part.region) {
            if open.is_some_and(Region::is_delimiter) {
                out.push('}');
            }
            match part.region {
                Region::Opener => out.push_str("{open:"),
                Region::Closer => out.push_str("{close:"),
                _ => {}
            }
            open = Some(part.region);
        }
        match &part.kind {
            PartKind::Fixed { text } => out.push_str(&text.replace('{', "{{").replace('}', "}}")),
            PartKind::Variable(v) => {
                let what = if v.content_dependent {
                    "derived"
                } else {
                    "nonce"
                };
                let len = if v.min_len == v.max_len {
                    v.min_len.to_string()
                } else {
                    format!("{}-{}", v.min_len, v.max_len)
                };
                let _ = write!(out, "{{{what}:{}×{len}}}", v.alphabet.name());
            }
            PartKind::Field { name, .. } => {
                let _ = write!(out, "{{{}}}", name.label());
            }
        }
    }
    if open.is_some_and(Region::is_delimiter) {
        out.push('}');
    }
}
