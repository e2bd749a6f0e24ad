//! Body encodings: how a framing writes content into its body, and how
//! framecheck gets the content back to compare it.
//!
//! Liveness is judged on the text the model sees, which is the encoded body,
//! so the oracle's scans never decode. Fidelity compares after decoding, and
//! [`faithful`] is its one rule: a body carries the content when the
//! declared reader gives the content back exactly. An escape the encoding
//! did not strictly need (`&#233;` for `é`, `\u00e9` in a JSON string, `%41`)
//! is no finding when it reads back exactly; one that does not read back
//! (`&nbsp;` to an XML reader, a `%` left raw before two hex digits) makes
//! the body unfaithful.
//!
//! ```
//! use framecheck_core::encoding::{decode, encode};
//! use framecheck_core::profile::BodyEncoding;
//!
//! let body = encode(BodyEncoding::JsonString, "say \"hi\"\n", "^");
//! assert_eq!(body, r#""say \"hi\"\n""#);
//! assert_eq!(decode(BodyEncoding::JsonString, &body, "^").unwrap(), "say \"hi\"\n");
//! assert_eq!(encode(BodyEncoding::Datamark, "a b\nc", "^"), "a^b\nc");
//! ```
//!
//! A datamark replaces spaces by default; [`Datamark`] says when it
//! replaces every whitespace character (line breaks included):
//!
//! ```
//! use framecheck_core::encoding::{encode, Datamark};
//! use framecheck_core::profile::{BodyEncoding, DatamarkReplaces};
//!
//! let every = Datamark { mark: "^", replaces: DatamarkReplaces::Whitespace };
//! assert_eq!(encode(BodyEncoding::Datamark, "a b\n\tc", every), "a^b^^c");
//! ```

use std::borrow::Cow;

use declared::{BodyEncoding, DatamarkReplaces, Encoding};

pub use crate::pyliteral::{python, python_value};

mod base64;
pub mod codec;
mod datamark;
pub mod declared;
mod escaped_breaks;
mod html_entities;
mod json_string;
pub mod line_prefix;
mod none;
mod percent;
mod python_literal;
pub(crate) mod string_literal;

pub use codec::Codec;

impl BodyEncoding {
    /// The encoding's codec: the one place a variant maps to its module.
    /// It lives here, above the modules, so that no encoding module and
    /// the trait's module import each other.
    pub fn codec(self) -> &'static dyn Codec {
        match self {
            BodyEncoding::None => &none::NoneCodec,
            BodyEncoding::JsonString => &json_string::JsonStringCodec,
            BodyEncoding::HtmlEntities => &html_entities::HtmlEntitiesCodec,
            BodyEncoding::Base64 => &base64::Base64Codec,
            BodyEncoding::Datamark => &datamark::DatamarkCodec,
            BodyEncoding::PythonLiteral => &python_literal::PythonLiteralCodec,
            BodyEncoding::LinePrefix => &line_prefix::LinePrefixCodec,
            BodyEncoding::EscapedBreaks => &escaped_breaks::EscapedBreaksCodec,
            BodyEncoding::Percent => &percent::PercentCodec,
            BodyEncoding::StringLiteral => &string_literal::StringLiteralCodec,
            BodyEncoding::QuoteDoubled => &string_literal::QuoteDoubledCodec::<'\''>,
            BodyEncoding::DoubleQuoteDoubled => &string_literal::QuoteDoubledCodec::<'"'>,
            BodyEncoding::TemplateLiteral => &string_literal::TemplateLiteralCodec,
        }
    }
}

/// The data-marking of a `datamark` body: the marker, and which characters
/// of the content it replaces. A bare `&str` is a marker replacing spaces.
/// A `line-prefix` body's prefix travels in `mark` too (the profile's
/// `body.line_prefix`, [`crate::profile::BodySection::marker`]): the two
/// encodings are never stacked, so one marker serves either.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Datamark<'a> {
    /// The marker written in place of each replaced character.
    pub mark: &'a str,
    /// Which characters it replaces.
    pub replaces: DatamarkReplaces,
}

impl<'a> From<&'a str> for Datamark<'a> {
    fn from(mark: &'a str) -> Datamark<'a> {
        Datamark {
            mark,
            replaces: DatamarkReplaces::Spaces,
        }
    }
}

impl Datamark<'_> {
    /// `content` with every replaced character written as the marker.
    pub(crate) fn apply(self, content: &str) -> String {
        let mut out = String::with_capacity(content.len());
        for c in content.chars() {
            if self.replaces.replaces(c) {
                out.push_str(self.mark);
            } else {
                out.push(c);
            }
        }
        out
    }
}

/// Why a body does not decode under its encoding.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// The body is not a JSON string literal.
    #[error("the body is not a JSON string: {0}")]
    Json(String),
    /// The body is not base64.
    #[error("the body is not base64: {0}")]
    Base64(String),
    /// The body decodes to bytes that are not UTF-8.
    #[error("the body decodes to bytes that are not UTF-8")]
    NotUtf8,
    /// Data-marking (or a line prefix) with an empty marker cannot be
    /// undone.
    #[error("data-marking and a line prefix need a non-empty marker")]
    NoMark,
    /// The body is not a Python string literal.
    #[error("the body is not a Python string literal: {0}")]
    Python(#[from] python::LiteralError),
    /// A template literal's body holds an un-escaped `${`: an
    /// interpolation, which a template reader evaluates as code.
    #[error("the body holds an un-escaped `${{`, which a template literal reads as code")]
    Interpolation,
}

/// Writes `content` the way `encoding` does (a stack: the inner layer
/// first, then the outer). JSON strings carry their quotes; data-marking
/// replaces every space with the marker (spotlighting's data-marking; line
/// breaks stay, so the content's lines survive), or every whitespace
/// character when the [`Datamark`] says so.
///
/// ```
/// use framecheck_core::encoding::encode;
/// use framecheck_core::profile::{BodyEncoding::JsonString, Encoding};
///
/// let twice = Encoding::stacked(JsonString, JsonString).unwrap();
/// assert_eq!(encode(twice, "a \"b\"", "^"), r#""\"a \\\"b\\\"\"""#);
/// ```
pub fn encode<'a>(
    encoding: impl Into<Encoding>,
    content: &str,
    mark: impl Into<Datamark<'a>>,
) -> String {
    let (encoding, mark) = (encoding.into(), mark.into());
    let inner = encode_one(encoding.inner, content, mark);
    encode_one(encoding.outer, &inner, mark)
}

/// Writes `content` in one encoding.
fn encode_one(encoding: BodyEncoding, content: &str, mark: Datamark<'_>) -> String {
    encoding.codec().encode(content, mark)
}

/// Reads content back from a body written with `encoding`, a stack's
/// outer layer first. A JSON body may come with or without its quotes;
/// base64 may be wrapped in lines. A datamark decodes to a space, whatever
/// whitespace it replaced.
pub fn decode<'a, 'b>(
    encoding: impl Into<Encoding>,
    body: &'b str,
    mark: impl Into<Datamark<'a>>,
) -> Result<Cow<'b, str>, DecodeError> {
    let (encoding, mark) = (encoding.into(), mark.into().mark);
    match decode_one(encoding.outer, body, mark)? {
        Cow::Borrowed(body) => decode_one(encoding.inner, body, mark),
        Cow::Owned(outer) => Ok(Cow::Owned(
            decode_one(encoding.inner, &outer, mark)?.into_owned(),
        )),
    }
}

/// Reads one layer back.
fn decode_one<'b>(
    encoding: BodyEncoding,
    body: &'b str,
    mark: &str,
) -> Result<Cow<'b, str>, DecodeError> {
    encoding.codec().decode(body, mark)
}

/// Whether `body` carries `content` under `encoding`: it decodes to the
/// content. Data-marking is judged encoded (the body equals the content with
/// every replaced character written as the marker), because a marker
/// already in the content would decode to a space.
///
/// A stack is faithful when its outer layer decodes to a text that is
/// faithful under its inner layer.
pub fn faithful<'a>(
    encoding: impl Into<Encoding>,
    body: &str,
    content: &str,
    mark: impl Into<Datamark<'a>>,
) -> bool {
    let (encoding, mark) = (encoding.into(), mark.into());
    match encoding.single() {
        Some(one) => faithful_one(one, body, content, mark),
        None => decode_one(encoding.outer, body, mark.mark)
            .is_ok_and(|outer| faithful_one(encoding.inner, &outer, content, mark)),
    }
}

/// Whether `body` carries `content` under one encoding.
fn faithful_one(encoding: BodyEncoding, body: &str, content: &str, mark: Datamark<'_>) -> bool {
    encoding.codec().faithful(body, content, mark)
}

#[cfg(test)]
mod tests {
    use super::*;
    use BodyEncoding::*;

    const TEXT: &str = "say \"hi\" & <b>it's</b>\nline two é";

    #[test]
    fn every_reversible_encoding_round_trips() {
        for encoding in [
            None,
            JsonString,
            HtmlEntities,
            Base64,
            PythonLiteral,
            Percent,
        ] {
            let body = encode(encoding, TEXT, "^");
            assert_eq!(decode(encoding, &body, "^").unwrap(), TEXT, "{encoding:?}");
            assert!(faithful(encoding, &body, TEXT, "^"));
        }
        assert!(faithful(Datamark, &encode(Datamark, TEXT, "^"), TEXT, "^"));
        assert_eq!(decode(Datamark, "a^b\nc", "^").unwrap(), "a b\nc");
        assert_eq!(decode(Datamark, "a^b", ""), Err(DecodeError::NoMark));
    }

    #[test]
    fn other_writers_spellings_decode() {
        // Python's json.dumps escapes non-ASCII; a body may lose its quotes.
        assert_eq!(decode(JsonString, "\"caf\\u00e9\"", "").unwrap(), "café");
        assert_eq!(decode(JsonString, "a\\nb", "").unwrap(), "a\nb");
        assert!(decode(JsonString, "\"open", "").is_err());
        assert_eq!(
            decode(HtmlEntities, "&#39;&#x3C;&apos;&nbsp;", "").unwrap(),
            "'<'&nbsp;"
        );
        assert_eq!(decode(Base64, "aGVs\nbG8=", "").unwrap(), "hello");
        assert!(decode(Base64, "***", "").is_err());
        assert!(!faithful(JsonString, "\"other\"", "text", ""));
        assert!(!faithful(Datamark, "a b", "a b", "^"));
        assert!(!faithful(Datamark, "a^b^c", "a b\nc", "^"));
    }

    #[test]
    fn a_datamark_on_every_whitespace_character_marks_line_breaks_too() {
        let every = super::Datamark {
            mark: "\u{e000}",
            replaces: DatamarkReplaces::Whitespace,
        };
        let m = "\u{e000}";
        assert_eq!(encode(Datamark, "a b\nc", every), format!("a{m}b{m}c"));
        assert!(faithful(Datamark, &format!("a{m}b{m}c"), "a b\nc", every));
        // Collapsing a run (indentation, a blank line, CRLF) loses text: the
        // marker stands for one character, so a collapsed run is not faithful.
        assert!(!faithful(Datamark, &format!("a{m}b"), "a\r\nb", every));
        assert!(!faithful(Datamark, &format!("{m}x"), "    x", every));
        assert_eq!(
            decode(Datamark, &format!("a{m}{m}b"), every).unwrap(),
            "a  b"
        );
        // The default replaces spaces only: a marked line break is a change.
        assert!(!faithful(Datamark, &format!("a{m}b{m}c"), "a b\nc", m));
    }

    #[test]
    fn a_stack_encodes_inner_first_and_decodes_outer_first() {
        let stacks = [
            (JsonString, JsonString),
            (JsonString, HtmlEntities),
            (Base64, JsonString),
        ];
        for (outer, inner) in stacks {
            let stack = Encoding::stacked(outer, inner).unwrap();
            let body = encode(stack, TEXT, "^");
            assert_eq!(body, encode(outer, &encode(inner, TEXT, "^"), "^"));
            assert_eq!(decode(stack, &body, "^").unwrap(), TEXT, "{stack}");
            assert!(faithful(stack, &body, TEXT, "^"), "{stack}");
            // One layer alone does not give the content back.
            assert!(!faithful(outer, &body, TEXT, "^"), "{stack}");
        }
        let twice = Encoding::stacked(JsonString, JsonString).unwrap();
        // Inside a larger JSON string, the outer layer has no quotes of its own.
        assert_eq!(decode(twice, r#"\"a\\nb\""#, "").unwrap(), "a\nb");
        // The inner layer undecodable: not faithful, and an error.
        assert!(decode(twice, r#"\"a\\xb\""#, "").is_err());
        assert!(!faithful(twice, r#"\"a\\xb\""#, "a\\xb", ""));
        let marked = Encoding::stacked(JsonString, Datamark).unwrap();
        assert!(faithful(marked, "\"a^b\"", "a b", "^"));
        assert!(!faithful(marked, "\"a b\"", "a b", "^"));
    }

    #[test]
    fn an_escape_that_reads_back_exactly_is_faithful_in_every_encoding() {
        // The one rule, the same for every encoding: what a writer chose to
        // escape beyond what it had to (every non-ASCII character, an ASCII
        // letter) is no change when the reader gives it back exactly.
        let content = "x é ✓";
        for (encoding, body) in [
            (HtmlEntities, "&#120; &#233; &#x2713;"),
            (HtmlEntities, "x &#xE9; ✓"),
            (JsonString, r#""\u0078 \u00e9 \u2713""#),
            (JsonString, r#""x \u00e9 ✓""#),
            (Percent, "%78%20%C3%A9 %E2%9C%93"),
            (PythonLiteral, r"'x \xe9 \u2713'"),
        ] {
            assert!(faithful(encoding, body, content, ""), "{encoding:?} {body}");
        }
        // An escape the reader does not give back exactly is a change.
        for (encoding, body) in [
            (HtmlEntities, "x &eacute; ✓"),
            (JsonString, r#""x \u00e8 ✓""#),
            (Percent, "x %C3%A8 ✓"),
        ] {
            assert!(
                !faithful(encoding, body, content, ""),
                "{encoding:?} {body}"
            );
        }
    }
}
