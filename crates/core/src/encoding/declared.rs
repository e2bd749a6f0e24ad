//! The encodings a profile declares (`body.encoding`): one
//! [`BodyEncoding`], two stacked ([`Encoding`]), or a choice per content
//! ([`EncodingChoice`]); what a data mark replaces; and which marker field
//! an encoding reads ([`MarkerField`]). Here, below the profile, so each
//! encoding's codec ([`super::Codec`]) can name them; the profile
//! re-exports them.

use serde::{Deserialize, Serialize};

/// How the content is written into the body.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum BodyEncoding {
    /// As it is (defanging aside).
    #[default]
    None,
    /// A JSON string literal (`json.dumps`, `JSON.stringify`).
    JsonString,
    /// HTML/XML character entities for markup characters.
    HtmlEntities,
    /// Base64 (spotlighting's encoding mode).
    Base64,
    /// A marker character between words (spotlighting's data-marking mode).
    Datamark,
    /// A Python `str` literal as `repr()` writes it, its quote chosen per
    /// content (`encoding::python`).
    PythonLiteral,
    /// Every line of the content after the first written after a prefix
    /// (`> `, `| `, four spaces), like a mail quote: the prefix of the
    /// first line is the framing's own text before the body
    /// (`encoding::line_prefix`).
    LinePrefix,
    /// The content on one line: each line break written as an escape
    /// (`\n`, `\r`), a tab as `\t`, the backslash doubled, quotes and
    /// the rest as written (`encoding::escaped_breaks`).
    EscapedBreaks,
    /// Every byte of the content's UTF-8 outside RFC 3986's unreserved
    /// characters written as `%XX` (`urllib.parse.quote`,
    /// `encodeURIComponent`), read back as a URL decoder reads it
    /// (`encoding::percent`).
    Percent,
    /// The text of a quoted string literal a backslash escapes, between
    /// the frame's own quotes (`encoding::string_literal`).
    StringLiteral,
    /// The text of a single-quoted literal that doubles its quote (SQL
    /// `'it''s'`): `''` is one `'`, everything else as written, between
    /// the frame's own quotes (`encoding::string_literal`).
    QuoteDoubled,
    /// The text of a double-quoted literal that doubles its quote (a CSV
    /// field, RFC 4180: `"say ""hi"""`), as `QuoteDoubled` for `"`.
    DoubleQuoteDoubled,
    /// The text of a JavaScript template literal (`` `…` ``): a backslash
    /// escapes as in `StringLiteral`, and an un-escaped `${` is code
    /// (`encoding::string_literal`).
    TemplateLiteral,
}

every_variant! {
    /// Every encoding, in the order calibration tries them (the compiler
    /// checks that none is missing).
    BodyEncoding: [
        None,
        JsonString,
        HtmlEntities,
        Base64,
        Datamark,
        PythonLiteral,
        LinePrefix,
        EscapedBreaks,
        Percent,
        StringLiteral,
        QuoteDoubled,
        DoubleQuoteDoubled,
        TemplateLiteral,
    ]
}

impl BodyEncoding {
    /// The stable name, as written in profiles and reports.
    pub fn name(self) -> &'static str {
        self.codec().name()
    }

    /// Whether calibration can find a body in this encoding without its
    /// marker declared ([`super::Codec::tried_undeclared`]).
    pub fn tried_undeclared(self) -> bool {
        self.codec().tried_undeclared()
    }
}

/// A body's encoding: one [`BodyEncoding`], or two stacked (the content
/// written with `inner`, and that text written again with `outer`, as a
/// JSON string inside a JSON-RPC result is). Profiles spell a stack as a
/// list, outermost first, which is the order a reader decodes in:
/// `[json-string, html-entities]` is a JSON string of entity-escaped
/// content. One encoding is spelled, and stored, as before.
///
/// ```
/// use framecheck_core::profile::{BodyEncoding, Encoding};
///
/// let one: Encoding = serde_json::from_str("\"json-string\"").unwrap();
/// assert_eq!(one, Encoding::from(BodyEncoding::JsonString));
/// let two: Encoding = serde_json::from_str(r#"["json-string", "html-entities"]"#).unwrap();
/// assert_eq!(two.layers(), vec![BodyEncoding::JsonString, BodyEncoding::HtmlEntities]);
/// assert_eq!(two.to_string(), "[json-string, html-entities]");
/// assert!(serde_json::from_str::<Encoding>(r#"["none", "base64"]"#).is_err());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Encoding {
    /// The encoding applied last: the one the framed text shows.
    pub outer: BodyEncoding,
    /// The encoding applied first, or `None` when there is one layer (an
    /// unencoded layer changes nothing, so one encoding is this with
    /// `inner: None`).
    pub inner: BodyEncoding,
}

impl From<BodyEncoding> for Encoding {
    fn from(outer: BodyEncoding) -> Encoding {
        Encoding {
            outer,
            inner: BodyEncoding::None,
        }
    }
}

impl Encoding {
    /// Two encodings stacked, `outer` written last. `None` for either layer
    /// is not a stack, so it is refused.
    pub fn stacked(outer: BodyEncoding, inner: BodyEncoding) -> Option<Encoding> {
        (outer != BodyEncoding::None && inner != BodyEncoding::None)
            .then_some(Encoding { outer, inner })
    }

    /// The layers, outermost first; one for a single encoding.
    pub fn layers(self) -> Vec<BodyEncoding> {
        match self.single() {
            Some(one) => vec![one],
            None => vec![self.outer, self.inner],
        }
    }

    /// The encoding when there is one layer.
    pub fn single(self) -> Option<BodyEncoding> {
        (self.inner == BodyEncoding::None).then_some(self.outer)
    }

    /// True when the body is written as the content (no layer encodes).
    pub fn is_none(self) -> bool {
        self.outer == BodyEncoding::None && self.inner == BodyEncoding::None
    }

    /// Whether either layer is `encoding`.
    pub fn uses(self, encoding: BodyEncoding) -> bool {
        self.outer == encoding || self.inner == encoding
    }

    /// Every single encoding, then every stack of two, in the order
    /// calibration tries them: a stack explains a body only where no
    /// single encoding does.
    pub fn candidates() -> Vec<Encoding> {
        let tried = || {
            BodyEncoding::ALL
                .into_iter()
                .filter(|e| e.tried_undeclared())
        };
        let mut all: Vec<Encoding> = tried().map(Encoding::from).collect();
        for outer in tried() {
            all.extend(tried().filter_map(|inner| Encoding::stacked(outer, inner)));
        }
        all
    }
}

impl std::fmt::Display for Encoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.single() {
            Some(one) => f.write_str(one.name()),
            None => write!(f, "[{}, {}]", self.outer.name(), self.inner.name()),
        }
    }
}

impl Serialize for Encoding {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.single() {
            Some(one) => one.serialize(serializer),
            None => [self.outer, self.inner].serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for Encoding {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Encoding, D::Error> {
        deserializer.deserialize_any(EncodingVisitor)
    }
}

/// Reads an encoding's name, or a list of one or two names.
struct EncodingVisitor;

impl<'de> serde::de::Visitor<'de> for EncodingVisitor {
    type Value = Encoding;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an encoding's name, or a list of two, outermost first")
    }

    fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<Encoding, E> {
        use serde::de::IntoDeserializer;
        BodyEncoding::deserialize(name.into_deserializer()).map(Encoding::from)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Encoding, A::Error> {
        use serde::de::Error;
        let mut layers: Vec<BodyEncoding> = Vec::new();
        while let Some(layer) = seq.next_element()? {
            layers.push(layer);
        }
        match layers[..] {
            [one] => Ok(one.into()),
            [outer, inner] => Encoding::stacked(outer, inner)
                .ok_or_else(|| A::Error::custom("a stacked encoding cannot have a `none` layer")),
            _ => Err(A::Error::custom(
                "an encoding list has one or two encodings (outermost first)",
            )),
        }
    }
}

/// `body.encoding`: how the content is always written, or the encodings
/// a framing chooses among per content (raw for one line, a JSON string
/// for several), spelled `{per-content: [none, json-string]}`. For each
/// output, the first listed encoding that explains its body is the one it
/// is judged in.
///
/// ```
/// use framecheck_core::profile::{BodyEncoding, EncodingChoice};
///
/// let per: EncodingChoice =
///     serde_json::from_str(r#"{"per-content": ["none", "json-string"]}"#).unwrap();
/// assert_eq!(per.choices().len(), 2);
/// assert_eq!(per.to_string(), "{ per-content: [none, json-string] }");
/// let always: EncodingChoice = serde_json::from_str("\"base64\"").unwrap();
/// assert_eq!(always, EncodingChoice::Always(BodyEncoding::Base64.into()));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum EncodingChoice {
    /// Every output is written in this encoding (or stack).
    Always(Encoding),
    /// Each output in the first of these that explains it; two or more,
    /// each listed once.
    PerContent(Vec<Encoding>),
}

impl From<Encoding> for EncodingChoice {
    fn from(encoding: Encoding) -> EncodingChoice {
        EncodingChoice::Always(encoding)
    }
}

impl From<BodyEncoding> for EncodingChoice {
    fn from(encoding: BodyEncoding) -> EncodingChoice {
        EncodingChoice::Always(encoding.into())
    }
}

impl EncodingChoice {
    /// The encodings an output may be written in, in the order tried.
    pub fn choices(&self) -> Vec<Encoding> {
        match self {
            EncodingChoice::Always(one) => vec![*one],
            EncodingChoice::PerContent(list) => list.clone(),
        }
    }
}

impl std::fmt::Display for EncodingChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EncodingChoice::Always(one) => one.fmt(f),
            EncodingChoice::PerContent(list) => {
                let names: Vec<String> = list.iter().map(Encoding::to_string).collect();
                write!(f, "{{ per-content: [{}] }}", names.join(", "))
            }
        }
    }
}

/// The map form of `body.encoding`.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PerContentSpelling {
    #[serde(rename = "per-content")]
    per_content: Vec<Encoding>,
}

impl Serialize for EncodingChoice {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            EncodingChoice::Always(one) => one.serialize(serializer),
            EncodingChoice::PerContent(list) => PerContentSpelling {
                per_content: list.clone(),
            }
            .serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for EncodingChoice {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<EncodingChoice, D::Error> {
        d.deserialize_any(ChoiceVisitor)
    }
}

/// Reads an encoding, or the `per-content` map.
struct ChoiceVisitor;

impl<'de> serde::de::Visitor<'de> for ChoiceVisitor {
    type Value = EncodingChoice;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an encoding's name, a list of two, or {per-content: [...]}")
    }

    fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<EncodingChoice, E> {
        EncodingVisitor.visit_str(name).map(EncodingChoice::Always)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<EncodingChoice, A::Error> {
        EncodingVisitor.visit_seq(seq).map(EncodingChoice::Always)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<EncodingChoice, A::Error> {
        use serde::de::Error;
        let spelled =
            PerContentSpelling::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
        let list = spelled.per_content;
        let repeated = list.iter().enumerate().any(|(i, e)| list[..i].contains(e));
        if list.len() < 2 || repeated {
            return Err(A::Error::custom(
                "per-content lists two or more different encodings, in the order tried",
            ));
        }
        Ok(EncodingChoice::PerContent(list))
    }
}

/// Which characters of the content a datamark replaces.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DatamarkReplaces {
    /// Every space (U+0020); line breaks and other whitespace stay.
    #[default]
    Spaces,
    /// Every whitespace character, line breaks included, one marker each
    /// (the Spotlighting paper's "replace whitespace with the marker").
    Whitespace,
}

impl DatamarkReplaces {
    /// True for the default, which profiles and reports leave unwritten.
    pub fn is_spaces(&self) -> bool {
        *self == DatamarkReplaces::Spaces
    }

    /// Whether the marker replaces `c`.
    pub fn replaces(self, c: char) -> bool {
        match self {
            DatamarkReplaces::Spaces => c == ' ',
            DatamarkReplaces::Whitespace => c.is_whitespace(),
        }
    }
}

/// A profile field a body encoding reads besides `body.encoding`
/// ([`super::Codec::marker`]): the encoding's marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MarkerField {
    /// `body.datamark` (and `body.datamark_replaces`), which defaults to
    /// [`crate::profile::DEFAULT_DATAMARK`].
    Datamark,
    /// `body.line_prefix`, which has no default.
    LinePrefix,
}
