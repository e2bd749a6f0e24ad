//! The v2 profile sections that describe a frame beyond its delimiters:
//! `frame` (how many frames, what empty content gives), `header` (how the
//! header ends and which named lines carry which request field), `body`
//! (the encoding and an optional padding override) and `reader` (what the
//! reader returns and who consumes the frame). See `docs/profile-v2.md`.
//!
//! Every field has a default that keeps v1 behaviour, so a v1 profile is a
//! valid v2 profile. `header` accepts the v1 short forms (`none`,
//! `blank-line`) as well as the object form:
//!
//! ```
//! use framecheck_core::profile::{HeaderSpec, HeaderStyle};
//!
//! let short: HeaderSpec = serde_json::from_str("\"blank-line\"").unwrap();
//! assert_eq!(short.style, HeaderStyle::BlankLine);
//! let long: HeaderSpec =
//!     serde_json::from_str(r#"{"style": "separator", "separator": "---"}"#).unwrap();
//! assert_eq!(long.separator.as_deref(), Some("---"));
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use crate::encoding::declared::{
    BodyEncoding, DatamarkReplaces, Encoding, EncodingChoice, MarkerField,
};
use crate::encoding::Codec;

/// The `frame:` section: how many frames a call writes, and what empty
/// content produces.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrameSection {
    /// One frame per call, or one per item of a list (`wrap-many`).
    #[serde(default)]
    pub count: FrameCount,
    /// What empty content produces.
    #[serde(default)]
    pub empty: EmptyContent,
}

/// How many frames one call writes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FrameCount {
    /// One content, one frame.
    #[default]
    One,
    /// A list of items, one frame each (protocol op `wrap-many`).
    Several,
}

/// What a framing writes for empty content.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EmptyContent {
    /// A frame with an empty body.
    #[default]
    Frame,
    /// Nothing at all: empty content yields an empty output.
    Nothing,
    /// Nothing for blank content: the empty string and whitespace-only
    /// content both yield an empty output (a framing that skips blank tool
    /// results); content with anything else must be framed.
    Blank,
}

impl EmptyContent {
    /// Whether the framing is declared to write nothing for `content`:
    /// the one place that says which contents count as empty.
    pub fn yields_nothing(self, content: &str) -> bool {
        match self {
            EmptyContent::Frame => false,
            EmptyContent::Nothing => content.is_empty(),
            EmptyContent::Blank => content.trim().is_empty(),
        }
    }
}

/// How the header after the opening delimiter ends.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HeaderStyle {
    /// No header: content follows the opening delimiter.
    #[default]
    None,
    /// Header lines end at the first blank line.
    BlankLine,
    /// Header lines end at a line equal to the declared separator (`---`).
    Separator,
    /// The header is a fixed number of lines after the opening delimiter.
    Lines,
}

impl HeaderStyle {
    /// The stable name, as written in profiles and reports.
    pub fn name(self) -> &'static str {
        match self {
            HeaderStyle::None => "none",
            HeaderStyle::BlankLine => "blank-line",
            HeaderStyle::Separator => "separator",
            HeaderStyle::Lines => "lines",
        }
    }
}

/// The `header:` section: the v1 short form (`none`, `blank-line`) or the
/// object form with a style, its parameter and named fields.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct HeaderSpec {
    /// How the header ends.
    pub style: HeaderStyle,
    /// `separator` style: the line that ends the header.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub separator: Option<String>,
    /// `lines` style: how many lines the header has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<usize>,
    /// Named header lines (`Source: …`) and the request field each carries.
    #[serde(skip_serializing_if = "HeaderFields::is_empty")]
    pub fields: HeaderFields,
}

impl From<HeaderStyle> for HeaderSpec {
    fn from(style: HeaderStyle) -> HeaderSpec {
        HeaderSpec {
            style,
            ..HeaderSpec::default()
        }
    }
}

/// The object form of `header:`, as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HeaderObject {
    #[serde(default)]
    style: HeaderStyle,
    #[serde(default)]
    separator: Option<String>,
    #[serde(default)]
    lines: Option<usize>,
    #[serde(default)]
    fields: HeaderFields,
}

/// Either spelling of `header:`.
#[derive(Deserialize)]
#[serde(untagged)]
enum HeaderForm {
    Short(HeaderStyle),
    Object(HeaderObject),
}

impl<'de> Deserialize<'de> for HeaderSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<HeaderSpec, D::Error> {
        Ok(match HeaderForm::deserialize(d)? {
            HeaderForm::Short(style) => style.into(),
            HeaderForm::Object(o) => HeaderSpec {
                style: o.style,
                separator: o.separator,
                lines: o.lines,
                fields: o.fields,
            },
        })
    }
}

impl HeaderSpec {
    /// Checks the parameters the style needs: a one-line separator for
    /// `separator`, a positive count for `lines`, plain field names.
    pub fn validate(&self) -> Result<(), HeaderError> {
        match self.style {
            HeaderStyle::Separator => match self.separator.as_deref() {
                None | Some("") => return Err(HeaderError::MissingSeparator),
                Some(s) if s.contains(['\n', '\r']) => {
                    return Err(HeaderError::MultilineSeparator(s.to_string()))
                }
                Some(_) => {}
            },
            HeaderStyle::Lines if !matches!(self.lines, Some(n) if n > 0) => {
                return Err(HeaderError::NoLineCount)
            }
            _ => {}
        }
        for (field, name) in self.fields.named() {
            if name.is_empty() || name.contains([':', '\n', '\r']) {
                return Err(HeaderError::BadFieldName {
                    field,
                    name: name.to_string(),
                });
            }
        }
        Ok(())
    }
}

/// Why a `header:` section cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HeaderError {
    /// `style: separator` without a separator.
    #[error("header.style is separator but header.separator is not set")]
    MissingSeparator,
    /// A separator with a line break.
    #[error("header.separator {0:?} must be one line")]
    MultilineSeparator(String),
    /// `style: lines` without a positive count.
    #[error("header.style is lines but header.lines is not a positive count")]
    NoLineCount,
    /// A header line name that is empty or has ':' or a line break.
    #[error("header.fields: {name:?} must be a non-empty name without ':' or line breaks")]
    BadFieldName {
        /// Which entry of `header.fields`.
        field: HeaderName,
        /// The name as written.
        name: String,
    },
}

impl HeaderError {
    /// The profile field the error is about.
    pub fn field(&self) -> super::Field {
        use super::Field;
        match self {
            HeaderError::MissingSeparator | HeaderError::MultilineSeparator(_) => {
                Field::HeaderSeparator
            }
            HeaderError::NoLineCount => Field::HeaderLines,
            HeaderError::BadFieldName { field, .. } => Field::HeaderField(field.clone()),
        }
    }
}

/// Which entry of `header.fields` a line name is declared in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeaderName {
    /// `header.fields.provenance`.
    Provenance,
    /// `header.fields.kind`.
    Kind,
    /// `header.fields.attributes.KEY`: the attribute key.
    Attribute(String),
}

/// Named header lines (`Name: value`) and the request field each carries.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeaderFields {
    /// The line carrying the provenance (`Source`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<String>,
    /// The line carrying the kind (`Type`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Attribute key → header line name (`title: Subject`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub attributes: BTreeMap<String, String>,
}

impl HeaderFields {
    /// True when no field is mapped.
    pub fn is_empty(&self) -> bool {
        self.provenance.is_none() && self.kind.is_none() && self.attributes.is_empty()
    }

    /// Every declared header line name.
    pub fn names(&self) -> Vec<&str> {
        self.named().into_iter().map(|(_, name)| name).collect()
    }

    /// Every declared header line name, with the entry it is declared in.
    pub fn named(&self) -> Vec<(HeaderName, &str)> {
        let mut named: Vec<(HeaderName, &str)> = self
            .provenance
            .iter()
            .map(|name| (HeaderName::Provenance, name.as_str()))
            .collect();
        named.extend(self.kind.as_deref().map(|name| (HeaderName::Kind, name)));
        named.extend(
            self.attributes
                .iter()
                .map(|(key, name)| (HeaderName::Attribute(key.clone()), name.as_str())),
        );
        named
    }
}

/// The `body:` section.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodySection {
    /// The encoding (or two stacked, or a choice per content); unset means
    /// "learn it by calibration".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encoding: Option<EncodingChoice>,
    /// `datamark`: the marker put between words (default `^`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub datamark: Option<String>,
    /// `datamark`: which characters the marker replaces (default `spaces`).
    #[serde(default, skip_serializing_if = "DatamarkReplaces::is_spaces")]
    pub datamark_replaces: DatamarkReplaces,
    /// `line-prefix`: what the framing writes at the start of every line
    /// of the content (`"> "`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line_prefix: Option<String>,
    /// What separates the body from the delimiters; unset means learned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub padding: Option<String>,
}

impl MarkerField {
    /// Every marker field, in the order they are validated.
    pub const ALL: [MarkerField; 2] = [MarkerField::Datamark, MarkerField::LinePrefix];

    /// The field's value in `body`, when declared.
    pub fn get(self, body: &BodySection) -> Option<&str> {
        match self {
            MarkerField::Datamark => body.datamark.as_deref(),
            MarkerField::LinePrefix => body.line_prefix.as_deref(),
        }
    }

    /// Declares `marker` (and, for a data mark, what it replaces) in `body`.
    pub fn set(self, body: &mut BodySection, marker: String, replaces: DatamarkReplaces) {
        match self {
            MarkerField::Datamark => {
                body.datamark = Some(marker);
                body.datamark_replaces = replaces;
            }
            MarkerField::LinePrefix => body.line_prefix = Some(marker),
        }
    }
}

impl BodySection {
    /// Every encoding the body may be written in (its per-content choices,
    /// or the one), empty when none is declared.
    pub fn declared(&self) -> Vec<Encoding> {
        self.encoding
            .as_ref()
            .map_or_else(Vec::new, EncodingChoice::choices)
    }

    /// Whether some declared encoding has a layer whose codec `pick`s.
    pub fn any_layer(&self, pick: impl Fn(&dyn Codec) -> bool) -> bool {
        self.declared()
            .iter()
            .any(|e| e.layers().into_iter().any(|l| pick(l.codec())))
    }

    /// Whether the declared encoding (or one of its per-content choices)
    /// has a layer that reads `field`.
    pub fn reads(&self, field: MarkerField) -> bool {
        self.any_layer(|c| c.marker() == Some(field))
    }

    /// Whether the declared encoding (or one of its per-content choices)
    /// quotes the content line by line ([`Codec::quotes_lines`]): the
    /// oracle's `quote.escape` holds each line to the prefix.
    pub fn quotes_lines(&self) -> bool {
        self.any_layer(|c| c.quotes_lines())
    }

    /// The prefix of a quoted body: what `quote.escape` holds every line
    /// of the content to. `None` for any other body.
    pub fn quote_prefix(&self) -> Option<&str> {
        self.line_prefix.as_deref().filter(|_| self.quotes_lines())
    }

    /// The marker the body's marking encoding writes: the line prefix of a
    /// `line-prefix` body, else the datamark ([`DEFAULT_DATAMARK`] when
    /// none is declared). One value serves both because no encoding uses
    /// both (a stack of the two is refused).
    pub fn marker(&self) -> String {
        self.quote_prefix()
            .or(self.datamark.as_deref())
            .unwrap_or(DEFAULT_DATAMARK)
            .to_string()
    }
}

/// The datamark used when a profile names the encoding but not the marker.
pub const DEFAULT_DATAMARK: &str = "^";

/// The `reader:` section: the reader's contract.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReaderSection {
    /// What the reader returns.
    #[serde(default)]
    pub returns: ReaderReturns,
    /// Who consumes the frame.
    #[serde(default)]
    pub consumer: Consumer,
    /// Several consumers of one output (`consumers: [model, parser]`: the
    /// model that reads it now, the parser that reads it back later), in
    /// place of `consumer`: each check runs for the consumers it concerns,
    /// and each finding names the one it fools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consumers: Option<Consumers>,
    /// How a parser consumer splits lines (`\n` only, or every Unicode
    /// line break as Python's `str.splitlines()` does). Written only when
    /// it is not the default.
    #[serde(default, skip_serializing_if = "LineSemantics::is_lf")]
    pub lines: LineSemantics,
}

impl ReaderSection {
    /// The consumers of the output, model first: the declared list, else
    /// the one `consumer`.
    pub fn consumers(&self) -> Vec<Consumer> {
        self.consumers
            .map_or_else(|| vec![self.consumer], |set| set.members())
    }

    /// Whether a parser is among the consumers.
    pub fn parser_reads(&self) -> bool {
        self.consumers().contains(&Consumer::Parser)
    }

    /// This section for one consumer alone, as the checks judge it: the
    /// line rule is a parser's, so a model's reading keeps the default.
    pub fn for_consumer(&self, consumer: Consumer) -> ReaderSection {
        ReaderSection {
            consumer,
            consumers: None,
            lines: match consumer {
                Consumer::Parser => self.lines,
                Consumer::Model => LineSemantics::default(),
            },
            ..*self
        }
    }
}

/// A set of consumers, written as a list (`[model, parser]`): each at most
/// once, at least one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<Consumer>", into = "Vec<Consumer>")]
pub struct Consumers {
    model: bool,
    parser: bool,
}

/// Why a `consumers:` list is no set of consumers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ConsumersError {
    /// The list is empty.
    #[error("reader.consumers must name at least one consumer (model, parser)")]
    Empty,
    /// A consumer is named twice.
    #[error("reader.consumers names {} twice", .0.name())]
    Repeated(Consumer),
}

impl Consumers {
    /// The members, model first.
    pub fn members(self) -> Vec<Consumer> {
        [
            (self.model, Consumer::Model),
            (self.parser, Consumer::Parser),
        ]
        .into_iter()
        .filter_map(|(member, consumer)| member.then_some(consumer))
        .collect()
    }
}

impl TryFrom<Vec<Consumer>> for Consumers {
    type Error = ConsumersError;

    fn try_from(list: Vec<Consumer>) -> Result<Consumers, ConsumersError> {
        let mut set = Consumers {
            model: false,
            parser: false,
        };
        for consumer in &list {
            let member = match consumer {
                Consumer::Model => &mut set.model,
                Consumer::Parser => &mut set.parser,
            };
            if *member {
                return Err(ConsumersError::Repeated(*consumer));
            }
            *member = true;
        }
        if list.is_empty() {
            return Err(ConsumersError::Empty);
        }
        Ok(set)
    }
}

impl From<Consumers> for Vec<Consumer> {
    fn from(set: Consumers) -> Vec<Consumer> {
        set.members()
    }
}

// How a parser consumer splits lines is a reader's rule: it lives with
// the other line-break rules in `crate::reader`.
pub use crate::reader::{LineSemantics, UNICODE_LINE_BREAKS};

/// What a reader returns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReaderReturns {
    /// The framed body, as written (encoded, defanged).
    #[default]
    Body,
    /// The decoded, original content.
    Content,
    /// Segments (role, field, text): the reader parses the frame into
    /// messages or fields, and `reader.structure` compares their structure
    /// with the one a benign frame reads back as.
    Segments,
}

/// The `wrap:` section: what the framing's wrap answers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WrapSection {
    /// One text, or a list of parts.
    #[serde(default)]
    pub returns: WrapReturns,
}

impl WrapSection {
    /// Whether the section is the default (one text), so profiles and
    /// reports that do not use it are written as before.
    pub fn is_default(&self) -> bool {
        *self == WrapSection::default()
    }
}

/// What a framing's wrap answers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WrapReturns {
    /// One framed text.
    #[default]
    Text,
    /// A list of parts (role, text): the layout is learned on the part
    /// holding the content, and `parts.structure` compares the parts with
    /// the ones a benign wrap answers.
    Parts,
}

/// Who reads the frame.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Consumer {
    /// A language model, at whatever reader level the run decides.
    #[default]
    Model,
    /// A parser (an XML chat template) that reads bytes exactly.
    Parser,
}

impl Consumer {
    /// The name profiles and reports use.
    pub fn name(self) -> &'static str {
        match self {
            Consumer::Model => "model",
            Consumer::Parser => "parser",
        }
    }

    /// What a text line about a finding adds to say which consumer it
    /// fools: nothing for the model (the default consumer, whose findings
    /// read as before), ` (fools the parser)` for the parser.
    pub fn note(self) -> String {
        match self {
            Consumer::Model => String::new(),
            other => format!(" (fools the {})", other.name()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(yaml: &str) -> Result<HeaderSpec, String> {
        let spec: HeaderSpec = serde_saphyr::from_str(yaml).map_err(|e| e.to_string())?;
        spec.validate().map_err(|e| e.to_string())?;
        Ok(spec)
    }

    #[test]
    fn header_short_and_object_forms() {
        assert_eq!(header("none").unwrap(), HeaderStyle::None.into());
        assert_eq!(header("blank-line").unwrap(), HeaderStyle::BlankLine.into());
        let spec =
            header("{style: separator, separator: '---', fields: {provenance: Source, attributes: {title: Subject}}}")
                .unwrap();
        assert_eq!(spec.style, HeaderStyle::Separator);
        assert_eq!(spec.fields.names(), vec!["Source", "Subject"]);
        assert_eq!(header("{style: lines, lines: 2}").unwrap().lines, Some(2));
    }

    #[test]
    fn header_parameters_are_required_by_their_style() {
        assert!(header("{style: separator}")
            .unwrap_err()
            .contains("separator"));
        assert!(header("{style: lines}").unwrap_err().contains("lines"));
        assert!(header("{style: lines, lines: 0}").is_err());
        assert!(header("{style: blank-line, fields: {kind: 'a:b'}}").is_err());
        assert!(header("{style: blank-line, bogus: 1}").is_err());
    }

    #[test]
    fn an_encoding_is_one_name_or_two_outermost_first() {
        let body: BodySection =
            serde_saphyr::from_str("{encoding: [json-string, base64]}").unwrap();
        let Some(EncodingChoice::Always(stack)) = body.encoding.clone() else {
            panic!("{:?}", body.encoding);
        };
        assert_eq!(
            (stack.outer, stack.inner),
            (BodyEncoding::JsonString, BodyEncoding::Base64)
        );
        let one: BodySection = serde_saphyr::from_str("{encoding: html-entities}").unwrap();
        assert_eq!(one.encoding, Some(BodyEncoding::HtmlEntities.into()));
        let listed: BodySection = serde_saphyr::from_str("{encoding: [base64]}").unwrap();
        assert_eq!(listed.encoding, Some(BodyEncoding::Base64.into()));
        for wrong in [
            "{encoding: [none, json-string]}",
            "{encoding: [json-string, json-string, json-string]}",
            "{encoding: []}",
            "{encoding: json}",
        ] {
            assert!(
                serde_saphyr::from_str::<BodySection>(wrong).is_err(),
                "{wrong}"
            );
        }
        // One encoding is written as before, a stack as a list.
        assert_eq!(
            serde_json::to_string(&one).unwrap(),
            r#"{"encoding":"html-entities"}"#
        );
        assert_eq!(
            serde_json::to_string(&body).unwrap(),
            r#"{"encoding":["json-string","base64"]}"#
        );
        // Every encoding calibration tries alone, then each two of them
        // but `none` stacked (a `none` layer is no stack).
        let tried = BodyEncoding::ALL
            .into_iter()
            .filter(|e| e.tried_undeclared())
            .count();
        assert!(tried >= 6, "{tried}");
        let candidates = Encoding::candidates();
        assert_eq!(candidates.len(), tried + (tried - 1) * (tried - 1));
        assert!(candidates[..tried].iter().all(|e| e.single().is_some()));
        assert!(candidates[tried..].iter().all(|e| e.single().is_none()));
    }

    #[test]
    fn a_choice_per_content_lists_two_or_more_encodings() {
        let body: BodySection =
            serde_saphyr::from_str("{encoding: {per-content: [none, [json-string, json-string]]}}")
                .unwrap();
        let twice = Encoding::stacked(BodyEncoding::JsonString, BodyEncoding::JsonString).unwrap();
        assert_eq!(
            body.encoding,
            Some(EncodingChoice::PerContent(vec![
                BodyEncoding::None.into(),
                twice
            ]))
        );
        assert_eq!(
            serde_json::to_string(&body).unwrap(),
            r#"{"encoding":{"per-content":["none",["json-string","json-string"]]}}"#
        );
        for wrong in [
            "{encoding: {per-content: [none]}}",
            "{encoding: {per-content: [none, none]}}",
            "{encoding: {per-content: [none, json-string], other: 1}}",
            "{encoding: {always: none}}",
        ] {
            assert!(
                serde_saphyr::from_str::<BodySection>(wrong).is_err(),
                "{wrong}"
            );
        }
        // What init writes reads back.
        let written = format!("{{encoding: {}}}", body.encoding.clone().unwrap());
        let read: BodySection = serde_saphyr::from_str(&written).unwrap();
        assert_eq!(read, body);
    }

    #[test]
    fn other_sections_default_to_v1() {
        let body: BodySection = serde_saphyr::from_str("{}").unwrap();
        assert_eq!(body.encoding, None);
        let reader: ReaderSection = serde_saphyr::from_str("{returns: content}").unwrap();
        assert_eq!(reader.returns, ReaderReturns::Content);
        assert_eq!(reader.consumer, Consumer::Model);
        let frame: FrameSection = serde_saphyr::from_str("{empty: nothing}").unwrap();
        assert_eq!(frame.count, FrameCount::One);
        assert_eq!(frame.empty, EmptyContent::Nothing);
    }
}
