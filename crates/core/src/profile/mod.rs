//! Target profiles: what framecheck needs to know about a framing to attack it.
//!
//! A profile names the framing, says how to reach it (a built-in in-process
//! implementation or a subprocess speaking the JSON-lines protocol), and
//! declares its delimiters and capabilities. The catalogue is instantiated
//! from the delimiters, so one catalogue audits any framing; the oracle reads
//! the framed output against the same declaration.
//!
//! ```yaml
//! name: reference
//! adapter: { builtin: reference }
//! delimiters:
//!   grammar: xml-tag         # xml-tag | bracket-marker | begin-end | fence (v1: `syntax:`)
//!   token: framecheck-untrusted
//!   inner: null              # an element the content sits in, inside the outer one
//!   reserved: []             # other structural tokens content must not forge
//! header: blank-line         # header lines after the opening tag, ended by a blank line
//! attributes: { on: outer, kind: kind, extra: [] }
//! capabilities: [wrap, read, attributes, provenance, kind]
//! ```

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::chat_template::TemplateContext;
pub use crate::grammar::Delimiters;
use crate::grammar::Grammar;
pub use crate::records::RecordsSection;

mod sections;
pub use sections::*;

mod error;
mod file;
mod locate;
mod resolved;
pub use error::{
    AdapterFault, Field, InvalidKind, InvalidProfile, LaunchError, Position, TokenField,
};
pub use resolved::{ProfileBuilder, ResolvedProfile};

/// A framing under test, as declared in `targets/*.yaml`: what it writes
/// ([`ResolvedProfile`], which the catalogue, layout and oracle read) and
/// how to reach it (`A`, the launch configuration: core reads the file's
/// `adapter:` section into it and writes it back, and never looks inside;
/// the launch crate's adapter type is the one the run crate acts on).
///
/// A target exists only validated: [`TargetProfile::parse`],
/// [`TargetProfile::new`] and reading one back from a report all validate
/// it, and its frame description is resolved then, grammar and all. A
/// changed target is a new one ([`TargetProfile::edit`]).
///
/// The two halves are one mapping in the file, read and written through
/// one private mapping type (`file::ProfileFile`), so the YAML format and
/// the JSON form a report records (and hashes) are the ones a single
/// struct gave. The frame description's fields read through `Deref`, so
/// `profile.delimiters` is still a target's delimiters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    bound = "A: Launch",
    try_from = "file::ProfileFile<A>",
    into = "file::ProfileFile<A>"
)]
pub struct TargetProfile<A> {
    /// How to reach the implementation.
    pub adapter: A,
    /// What the framing writes, validated and with its grammar.
    pub framing: ResolvedProfile,
}

/// What a framing writes and how it is read: every part of a profile but
/// the adapter. The catalogue is instantiated from it, layout is learned
/// against it and the oracle judges by it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameProfile {
    /// Short stable name, used in report file names.
    pub name: String,
    /// One line on what the framing is.
    pub description: String,
    /// Implementation language, for the report.
    pub language: String,
    /// The delimiters the framing writes, or `none`: the framing puts no
    /// marker around the content ([`Delimiters::absent`]).
    pub delimiters: Delimiters,
    /// How the header after the opening delimiter ends, and its named fields.
    pub header: HeaderSpec,
    /// Where attributes are written and which names the framing adds itself.
    pub attributes: AttributeLayout,
    /// v1 spelling of `body.padding`: what separates the body from the
    /// delimiters around it. Unset: learned by calibration.
    pub body_padding: Option<String>,
    /// How many frames a call writes, and what empty content gives.
    pub frame: FrameSection,
    /// The body's encoding and padding override.
    pub body: BodySection,
    /// What the framing's wrap answers: one text, or a list of parts.
    pub wrap: WrapSection,
    /// What the reader returns and who consumes the frame.
    pub reader: ReaderSection,
    /// The role records the frame holds, when it holds any
    /// ([`crate::records`]).
    pub records: Option<RecordsSection>,
    /// What the implementation supports. Cases needing more are skipped.
    pub capabilities: Vec<Capability>,
    /// Where the framing lives in the user's repository; SARIF results
    /// point there.
    pub source: Option<SourceRef>,
    /// Packages the framing's behaviour depends on, recorded in every
    /// report's manifest.
    pub packages: Vec<PackageRef>,
    /// The chat-template context the framed text is embedded in; decides
    /// whether outer-layer findings fail the default gate.
    pub chat_template: TemplateContext,
}

/// A target is read as its frame description: code that judges, lays out
/// or instantiates takes a [`ResolvedProfile`], and a target is given to it
/// as it is. Only the adapter is a target's own. There is no `DerefMut`: a
/// changed frame description is validated again ([`TargetProfile::edit`]).
impl<A> std::ops::Deref for TargetProfile<A> {
    type Target = ResolvedProfile;

    fn deref(&self) -> &ResolvedProfile {
        &self.framing
    }
}

/// A place in the user's repository: `source: { path: src/frame.py, line: 12 }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceRef {
    /// Path relative to the repository root, with `/` separators.
    pub path: String,
    /// 1-based line where the framing is written, if known.
    #[serde(default)]
    pub line: Option<u64>,
}

/// A package and the version under test: `packages: [{ name: x, version: "1.2" }]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PackageRef {
    /// The package name, as its registry spells it.
    pub name: String,
    /// The version under test.
    pub version: String,
}

/// `delimiters:` as written: the word `none`, or the delimiters' mapping.
/// A mapping is read by [`Delimiters`]' own derive, so its errors (an
/// unknown key, a bad grammar) read as they always have.
mod delimiters_or_none {
    use serde::de::{self, MapAccess, Visitor};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::Delimiters;

    pub(super) fn serialize<S: Serializer>(d: &Delimiters, s: S) -> Result<S::Ok, S::Error> {
        if d.absent {
            s.serialize_str("none")
        } else {
            d.serialize(s)
        }
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Delimiters, D::Error> {
        d.deserialize_any(NoneOrMap)
    }

    struct NoneOrMap;

    impl<'de> Visitor<'de> for NoneOrMap {
        type Value = Delimiters;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("`none` or a mapping with `grammar` and `token`")
        }

        fn visit_str<E: de::Error>(self, word: &str) -> Result<Delimiters, E> {
            match word {
                "none" => Ok(Delimiters::none()),
                other => Err(E::invalid_value(de::Unexpected::Str(other), &self)),
            }
        }

        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Delimiters, A::Error> {
            Delimiters::deserialize(de::value::MapAccessDeserializer::new(map))
        }
    }
}

impl Delimiters {
    /// Checks the tokens against the grammar and each other.
    pub(crate) fn validate(&self) -> Result<(), InvalidProfile> {
        self.validated().map(|_| ())
    }

    /// [`Delimiters::validate`], answering the grammar built on the way.
    fn validated(&self) -> Result<Arc<dyn Grammar>, InvalidProfile> {
        let mut seen: Vec<String> = Vec::new();
        for (field, token) in self.fields() {
            let fields = self.grammar.shape().fields();
            let mut bare = token.replace(crate::grammar::token::NONCE, "");
            // A kind reads as a name among the token's characters, once,
            // in the outer token of a grammar whose token is a name.
            let kinds = kind_placeholders(token);
            bare = crate::grammar::with_kind(&bare, "k");
            // A counter reads as a number among the words; elsewhere its
            // braces make the token a bad one.
            if fields.counter_tokens {
                bare = bare.replace(crate::grammar::token::COUNTER, "0");
            }
            let empty_ok = fields.empty_token && token == self.token;
            // A pointer is checked by its shape's builder, below.
            let word = !(fields.pointer_token && token == self.token);
            // A phrase's words are each a token's characters, joined by
            // single spaces; a leading, trailing or doubled space is none.
            let words: Vec<&str> = match fields.phrase_tokens {
                true => bare.split(' ').collect(),
                false => vec![bare.as_str()],
            };
            let word_ok =
                |w: &&str| !w.is_empty() && w.chars().all(crate::grammar::token::is_token_char);
            // Two counters in one name cannot both be read: the first
            // takes every digit.
            let counters = token.matches(crate::grammar::token::COUNTER).count();
            let kind_ok =
                kinds == 0 || (kinds == 1 && field == TokenField::Outer && !fields.pointer_token);
            if (token.is_empty() && !empty_ok)
                || counters > 1
                || !kind_ok
                || (word && !bare.is_empty() && !words.iter().all(word_ok))
            {
                return Err(InvalidProfile::new(
                    Field::Token(field),
                    InvalidKind::BadToken(token.to_string()),
                ));
            }
            let folded = token.to_ascii_lowercase();
            if seen.contains(&folded) {
                return Err(duplicate(self, field, token));
            }
            seen.push(folded);
        }
        self.try_grammar()
            .map(Arc::from)
            .map_err(|e| InvalidProfile::new(Field::Delimiters, InvalidKind::Grammar(e)))
    }

    /// Every structural token (outer, inner, reserved) with the field it is
    /// declared in.
    fn fields(&self) -> Vec<(TokenField, &str)> {
        let mut fields = vec![(TokenField::Outer, self.token.as_str())];
        fields.extend(self.inner.as_deref().map(|t| (TokenField::Inner, t)));
        fields.extend(
            self.reserved
                .iter()
                .enumerate()
                .map(|(i, t)| (TokenField::Reserved(i), t.as_str())),
        );
        fields
    }
}

/// How many `{kind…}` placeholders `token` has, as the token's parser
/// splits them.
fn kind_placeholders(token: &str) -> usize {
    crate::grammar::TokenPattern::parse(token)
        .parts
        .iter()
        .filter(|p| matches!(p, crate::grammar::token::TokenPart::Kind(_)))
        .count()
}

/// The error for `repeat`, a token declared again (ASCII case ignored). It
/// points at the first declaration spelled as the repeat is, the spelling
/// the message prints: the earlier one for an exact duplicate (`[a, b, a]`
/// points at the first `a`, as framecheck always has), the repeat itself
/// when only the case differs.
fn duplicate(delimiters: &Delimiters, repeat: TokenField, token: &str) -> InvalidProfile {
    let first = delimiters
        .fields()
        .into_iter()
        .find(|&(_, t)| t == token)
        .map_or(repeat, |(field, _)| field);
    InvalidProfile::new(
        Field::Token(first),
        InvalidKind::DuplicateToken {
            token: token.to_string(),
            repeat,
        },
    )
}

pub use crate::grammar::GrammarKind;
/// The v1 name of [`GrammarKind`].
pub type Syntax = GrammarKind;

/// Where attributes live in the framed output.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttributeLayout {
    /// Which opening tag carries the attributes.
    #[serde(default)]
    pub on: TagRole,
    /// Attribute that carries the envelope's `kind`, if any.
    #[serde(default)]
    pub kind: Option<String>,
    /// Attributes the framing adds itself (values not checked).
    #[serde(default)]
    pub extra: Vec<String>,
    /// The only caller attribute names the framing writes, when it has a
    /// fixed set (a renderer that knows `title` and `section`). Unset: any
    /// plain name. With a fixed set, a case's plain-name keys are mapped onto
    /// these names in order, and cases that attack the keys themselves (or
    /// need more keys than the set has) do not apply.
    #[serde(default)]
    pub names: Option<Vec<String>>,
}

/// True for attribute names a careful framing can write as they are:
/// `[A-Za-z_][A-Za-z0-9_.-]*`.
pub fn is_plain_attribute_name(key: &str) -> bool {
    let mut chars = key.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

/// Outer or inner element.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TagRole {
    /// The outer token's opening tag.
    #[default]
    Outer,
    /// The inner token's opening tag.
    Inner,
}

/// Something a framing can do. Cases that need a missing capability are skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Capability {
    /// Wrap content.
    Wrap,
    /// Read a framed text back.
    Read,
    /// Write caller-supplied attributes on a tag.
    Attributes,
    /// Write a provenance line in the header.
    Provenance,
    /// Write the envelope kind.
    Kind,
    /// Take content as raw bytes (`content_b64`, the protocol's `bytes`
    /// extension), so cases can send bytes that are not UTF-8.
    Bytes,
}

impl Capability {
    /// The stable name, as written in profiles and reports.
    pub fn name(self) -> &'static str {
        match self {
            Capability::Wrap => "wrap",
            Capability::Read => "read",
            Capability::Attributes => "attributes",
            Capability::Provenance => "provenance",
            Capability::Kind => "kind",
            Capability::Bytes => "bytes",
        }
    }
}

impl FrameProfile {
    /// A frame description named `name` writing `delimiters`, with every
    /// other part at the default a profile file gives it and only the
    /// `wrap` capability.
    pub fn new(name: &str, delimiters: Delimiters) -> FrameProfile {
        FrameProfile {
            name: name.to_string(),
            description: String::new(),
            language: String::new(),
            delimiters,
            header: HeaderSpec::default(),
            attributes: AttributeLayout::default(),
            body_padding: None,
            frame: FrameSection::default(),
            body: BodySection::default(),
            wrap: WrapSection::default(),
            reader: ReaderSection::default(),
            records: None,
            capabilities: vec![Capability::Wrap],
            source: None,
            packages: Vec::new(),
            chat_template: TemplateContext::default(),
        }
    }

    /// True when the profile declares `capability`.
    pub fn can(&self, capability: Capability) -> bool {
        self.capabilities.contains(&capability)
    }

    /// The token whose opening tag carries attributes.
    pub fn attribute_token(&self) -> &str {
        match (self.attributes.on, &self.delimiters.inner) {
            (TagRole::Inner, Some(inner)) => inner,
            _ => &self.delimiters.token,
        }
    }

    /// The token whose element directly holds the content.
    pub fn content_token(&self) -> &str {
        self.delimiters
            .inner
            .as_deref()
            .unwrap_or(&self.delimiters.token)
    }

    /// The declared padding around the body (`body.padding`, or the v1
    /// `body_padding`), when the profile overrides what calibration learns.
    pub fn padding_override(&self) -> Option<&str> {
        self.body
            .padding
            .as_deref()
            .or(self.body_padding.as_deref())
    }
}

/// A target's launch configuration, as core sees it: the `adapter:`
/// section of a profile, read and written by serde beside the frame
/// description and checked once by its own rules. What it holds is the
/// launch crate's; core only carries it, so that a report can record a
/// target and read it back whole.
pub trait Launch:
    Clone + std::fmt::Debug + PartialEq + Eq + Serialize + serde::de::DeserializeOwned
{
    /// Why a configuration breaks a rule of its own: its field, its rule
    /// and where the field is written (core names none of them).
    type Error: LaunchError;

    /// The rules serde cannot check. [`TargetProfile::parse`] places the
    /// error in the text through [`LaunchError::locate`].
    fn validate(&self) -> Result<(), Self::Error>;

    /// Notes where fields are written in the profile's `text`, for errors
    /// that only running the target finds; called once by
    /// [`TargetProfile::parse`].
    fn place(&mut self, _text: &str) {}
}

impl ResolvedProfile {
    /// The frame description of a profile's YAML text, validated and
    /// resolved; the `adapter:` section is read past unlooked-at (it is the
    /// launch crate's). Errors name the rule, field and place as
    /// [`TargetProfile::parse`]'s do.
    pub fn parse(text: &str) -> Result<ResolvedProfile, InvalidProfile> {
        let options = crate::yaml::options();
        let file: file::ProfileFile<serde::de::IgnoredAny> =
            serde_saphyr::from_str_with_options(text, options)
                .map_err(|e| InvalidProfile::yaml(&e))?;
        let (_, framing) = file.split();
        framing
            .resolve()
            .map_err(|error| locate::with_position(text, error))
    }
}

impl<A: Launch> TargetProfile<A> {
    /// Loads and validates a profile from a YAML file.
    pub fn load(path: &Path) -> Result<LoadedProfile<A>, ProfileError> {
        let text = std::fs::read_to_string(path).map_err(|source| ProfileError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let profile = TargetProfile::parse(&text).map_err(|error| ProfileError::Invalid {
            path: path.to_path_buf(),
            error: Box::new(error),
        })?;
        let dir = path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        Ok(LoadedProfile { profile, dir })
    }

    /// Parses and validates a profile from YAML text. The error names the
    /// rule and field at fault and, where the text shows it, the line and
    /// column (from the YAML parser, or from the field's place in the text).
    pub fn parse(text: &str) -> Result<TargetProfile<A>, InvalidProfile> {
        let options = crate::yaml::options();
        // Read as the file's mapping, not as a target, so that a rule
        // broken keeps its kind and field and is placed in the text.
        let file: file::ProfileFile<A> = serde_saphyr::from_str_with_options(text, options)
            .map_err(|e| InvalidProfile::yaml(&e))?;
        let (adapter, framing) = file.split();
        let mut profile = TargetProfile::new(adapter, framing)
            .map_err(|error| locate::with_position(text, error))?;
        profile.adapter.place(text);
        Ok(profile)
    }

    /// The target reaching `framing` through `adapter`, once both pass the
    /// checks serde cannot make (token grammar and consistency, then the
    /// adapter's own rules). The error has no position (there is no text);
    /// [`TargetProfile::parse`] adds it.
    pub fn new(adapter: A, framing: FrameProfile) -> Result<TargetProfile<A>, InvalidProfile> {
        let framing = framing.resolve()?;
        adapter.validate().map_err(InvalidProfile::adapter)?;
        Ok(TargetProfile { adapter, framing })
    }

    /// This target with `change` made to its frame description, validated
    /// and resolved again.
    pub fn edit(
        &self,
        change: impl FnOnce(&mut FrameProfile),
    ) -> Result<TargetProfile<A>, InvalidProfile> {
        Ok(TargetProfile {
            adapter: self.adapter.clone(),
            framing: self.framing.edit(change)?,
        })
    }

    /// This target reached through `adapter` instead, validated again.
    pub fn with_adapter(&self, adapter: A) -> Result<TargetProfile<A>, InvalidProfile> {
        adapter.validate().map_err(InvalidProfile::adapter)?;
        Ok(TargetProfile {
            adapter,
            framing: self.framing.clone(),
        })
    }
}

impl FrameProfile {
    /// Checks what serde cannot: token grammar and consistency. The error
    /// has no position (there is no text); [`TargetProfile::parse`] adds it.
    pub fn validate(&self) -> Result<(), InvalidProfile> {
        self.validated_grammar().map(|_| ())
    }

    /// [`FrameProfile::validate`], answering the grammar the delimiters
    /// were built into on the way, so that resolving builds it once.
    pub(crate) fn validated_grammar(&self) -> Result<Arc<dyn Grammar>, InvalidProfile> {
        if self.name.is_empty()
            || !self
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(InvalidProfile::new(
                Field::Name,
                InvalidKind::BadName(self.name.clone()),
            ));
        }
        // `delimiters: none` declares placeholders, which are built as
        // they are and never checked: no case reads them.
        let grammar =
            match self.delimiters.absent {
                false => self.delimiters.validated()?,
                true => Arc::from(self.delimiters.try_grammar().map_err(|e| {
                    InvalidProfile::new(Field::Delimiters, InvalidKind::Grammar(e))
                })?),
            };
        if let Some(names) = &self.attributes.names {
            if let Some(i) = names.iter().position(|n| !is_plain_attribute_name(n)) {
                return Err(InvalidProfile::new(
                    Field::AttributesName(i),
                    InvalidKind::NotPlainAttributeName(names[i].clone()),
                ));
            }
        }
        if self.attributes.on == TagRole::Inner && self.delimiters.inner.is_none() {
            return Err(InvalidProfile::new(
                Field::AttributesOn,
                InvalidKind::InnerWithoutInnerToken,
            ));
        }
        self.header.validate()?;
        self.validate_body()?;
        if let Some(records) = &self.records {
            records
                .validate()
                .map_err(|e| InvalidProfile::new(Field::Records, InvalidKind::Records(e)))?;
        }
        if self.reader.consumers.is_some() && self.reader.consumer != Consumer::Model {
            return Err(InvalidProfile::new(
                Field::ReaderConsumers,
                InvalidKind::ConsumerAndConsumers(self.reader.consumer.name()),
            ));
        }
        if !self.reader.lines.is_lf() && !self.reader.parser_reads() {
            // A model's line breaks are the reader levels' to decide.
            return Err(InvalidProfile::new(
                Field::ReaderLines,
                InvalidKind::LinesWithoutParser,
            ));
        }
        if !self.can(Capability::Wrap) {
            return Err(InvalidProfile::new(
                Field::Capabilities,
                InvalidKind::NoWrap,
            ));
        }
        Ok(grammar)
    }

    /// The body's padding is declared once, and each marker field its
    /// encoding reads is declared as [`MarkerField::required`] says and
    /// well formed.
    fn validate_body(&self) -> Result<(), InvalidProfile> {
        if self.body_padding.is_some() && self.body.padding.is_some() {
            return Err(InvalidProfile::new(
                Field::BodyPadding,
                InvalidKind::TwoPaddings,
            ));
        }
        let read: Vec<MarkerField> = MarkerField::ALL
            .into_iter()
            .filter(|f| self.body.reads(*f))
            .collect();
        for field in MarkerField::ALL {
            let declared = field.get(&self.body);
            let reads = read.contains(&field);
            // One marker serves every encoding (`BodySection::marker`), so
            // a body that may be written in two that read different fields
            // is refused.
            if let Some(kind) = field.mismatch() {
                if reads != declared.is_some() || (reads && read.len() > 1) {
                    return Err(InvalidProfile::new(field.field(), kind));
                }
            }
            if let Some(value) = declared {
                field.validate(value)?;
            }
        }
        Ok(())
    }
}

impl MarkerField {
    /// The field as error messages name it.
    fn field(self) -> Field {
        match self {
            MarkerField::Datamark => Field::BodyDatamark,
            MarkerField::LinePrefix => Field::BodyLinePrefix,
        }
    }

    /// Whether a body whose encoding reads the field must declare it (and
    /// a body whose encoding does not read it must not).
    pub fn required(self) -> bool {
        self.mismatch().is_some()
    }

    /// Why a body declares the field without an encoding that reads it,
    /// or lacks it where one does; `None` for a field with a default that
    /// may be declared alone (a data mark).
    fn mismatch(self) -> Option<InvalidKind> {
        match self {
            MarkerField::Datamark => None,
            MarkerField::LinePrefix => Some(InvalidKind::LinePrefixMismatch),
        }
    }

    /// Whether `value` is a usable marker: a data mark is one word, a line
    /// prefix one line's text.
    fn validate(self, value: &str) -> Result<(), InvalidProfile> {
        let bad = match self {
            MarkerField::Datamark => value.is_empty() || value.contains(char::is_whitespace),
            MarkerField::LinePrefix => {
                value.is_empty() || value.contains(crate::reader::UNICODE_LINE_BREAKS)
            }
        };
        if !bad {
            return Ok(());
        }
        let kind = match self {
            MarkerField::Datamark => InvalidKind::BadDatamark(value.to_string()),
            MarkerField::LinePrefix => InvalidKind::BadLinePrefix(value.to_string()),
        };
        Err(InvalidProfile::new(self.field(), kind))
    }
}

/// A profile together with the directory it was loaded from, against which
/// its relative paths resolve.
#[derive(Debug, Clone)]
pub struct LoadedProfile<A> {
    /// The validated profile.
    pub profile: TargetProfile<A>,
    /// Directory of the profile file.
    pub dir: PathBuf,
}

/// Why a profile could not be loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProfileError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The profile file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not a valid profile.
    #[error("{path}: {error}")]
    Invalid {
        /// The profile file.
        path: PathBuf,
        /// What is wrong: rule, field, and line and column where known.
        error: Box<InvalidProfile>,
    },
}

/// The reference envelope's declared profile (`targets/reference.yaml`),
/// for this crate's own tests: the envelope and its built-in profile live a
/// floor up and may not be reached from here. The envelope's tests check
/// that the file and the built-in profile are the same.
#[cfg(test)]
pub(crate) fn reference_for_tests() -> TestTarget {
    TestTarget::parse(include_str!("../../../../targets/reference.yaml"))
        .expect("targets/reference.yaml parses")
}

/// A target whose launch configuration is kept as the JSON value it was
/// written as, for this crate's own tests: the launch crate's adapter type
/// is a floor up and may not be reached from here.
#[cfg(test)]
pub(crate) type TestTarget = TargetProfile<serde_json::Value>;

/// Core checks no rule of an adapter section (the launch crate's type
/// does), so its tests' stand-in has none.
#[cfg(test)]
impl Launch for serde_json::Value {
    type Error = std::convert::Infallible;

    fn validate(&self) -> Result<(), std::convert::Infallible> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn plain_names() {
        for ok in ["a", "_x", "data-id", "a.b_c-1"] {
            assert!(super::is_plain_attribute_name(ok), "{ok}");
        }
        for bad in ["", "1a", "a b", "a\"", "é", "-a"] {
            assert!(!super::is_plain_attribute_name(bad), "{bad}");
        }
    }

    /// A frame description is read from a profile whatever its adapter
    /// section holds (that is the launch crate's to read), and its errors
    /// are placed in the text as a target's are.
    #[test]
    fn a_frame_description_reads_past_the_adapter() {
        let text = "name: t\nadapter: { mcp: { anything: [1, 2] } }\n\
                    delimiters: { grammar: xml-tag, token: doc }\ncapabilities: [wrap]\n";
        let framing = super::ResolvedProfile::parse(text).unwrap();
        assert_eq!(framing.delimiters.token, "doc");
        assert_eq!(framing.grammar().kind(), super::GrammarKind::XmlTag);
        let bad = super::ResolvedProfile::parse(&text.replace("token: doc", "token: 'a<b'"));
        let error = bad.unwrap_err();
        assert!(matches!(error.kind, super::InvalidKind::BadToken(_)));
        assert_eq!(error.position.map(|p| p.line), Some(3), "{error}");
        let missing = super::ResolvedProfile::parse(&text.replace("adapter:", "adapterx:"));
        assert!(missing.is_err());
    }

    /// `reader.lines` is a parser's declaration, read as written.
    #[test]
    fn reader_lines_need_a_parser() {
        let reference = include_str!("../../../../targets/reference.yaml");
        let with =
            |reader: &str| super::TestTarget::parse(&format!("{reference}\nreader: {reader}\n"));
        let parser = with("{ returns: segments, consumer: parser, lines: unicode }").unwrap();
        assert_eq!(parser.reader.lines, super::LineSemantics::Unicode);
        assert_eq!(parser.reader.returns, super::ReaderReturns::Segments);
        assert!(parser.reader.lines.is_break('\u{2028}') && parser.reader.lines.is_break('\u{1E}'));
        assert!(!super::LineSemantics::Lf.is_break('\u{2028}'));
        let error = with("{ consumer: model, lines: unicode }").unwrap_err();
        assert!(
            error.to_string().contains("reader.consumer: parser"),
            "{error}"
        );
        assert!(with("{ consumer: model, lines: lf }").is_ok());
    }

    /// `reader.consumers` declares several consumers of one output, each at
    /// most once; a parser among them may declare its line rule.
    #[test]
    fn several_consumers_are_read_as_a_set() {
        use super::Consumer::{Model, Parser};
        let reference = include_str!("../../../../targets/reference.yaml");
        let with =
            |reader: &str| super::TestTarget::parse(&format!("{reference}\nreader: {reader}\n"));
        let both =
            with("{ returns: segments, consumers: [parser, model], lines: unicode }").unwrap();
        assert_eq!(both.reader.consumers(), [Model, Parser]);
        assert!(both.reader.parser_reads());
        let model = both.reader.for_consumer(Model);
        assert_eq!(
            (model.consumers(), model.lines),
            (vec![Model], super::LineSemantics::Lf)
        );
        let parser = both.reader.for_consumer(Parser);
        assert_eq!(
            (parser.consumers(), parser.lines),
            (vec![Parser], super::LineSemantics::Unicode)
        );
        // The one-consumer spelling is unchanged, and the default is the model.
        assert_eq!(
            with("{ consumer: parser }").unwrap().reader.consumers(),
            [Parser]
        );
        assert_eq!(
            with("{ returns: body }").unwrap().reader.consumers(),
            [Model]
        );
        for (bad, says) in [
            ("{ consumers: [model, model] }", "names model twice"),
            ("{ consumers: [] }", "at least one consumer"),
            (
                "{ consumer: parser, consumers: [model, parser] }",
                "drop reader.consumer: parser",
            ),
        ] {
            let error = with(bad).unwrap_err().to_string();
            assert!(error.contains(says), "{bad}: {error}");
        }
    }

    /// An unknown consumer kind, or two ways of naming the consumers, is an
    /// error naming the file and the line of the declaration.
    #[test]
    fn a_bad_consumer_names_file_and_line() {
        let reference = include_str!("../../../../targets/reference.yaml");
        let line = reference.lines().count() + 2;
        let dir = std::env::temp_dir().join(format!("framecheck-consumers-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (reader, says) in [
            (
                "{ consumers: [model, browser] }",
                "unknown variant `browser`",
            ),
            (
                "{ consumer: parser, consumers: [parser] }",
                "reader.consumers lists every consumer",
            ),
        ] {
            let path = dir.join("profile.yaml");
            std::fs::write(&path, format!("{reference}\nreader: {reader}\n")).unwrap();
            let error = super::TestTarget::load(&path).unwrap_err().to_string();
            let file_and_line = format!("{}: line {line}, column ", path.display());
            assert!(error.starts_with(&file_and_line), "{error}");
            assert!(error.contains(says), "{error}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// The grammar a profile's validation resolves ([`Delimiters::resolve`]);
/// here rather than beside the declaration, which may not reach the profile.
#[cfg(test)]
mod resolved_grammar {
    use std::sync::Arc;

    use super::{Delimiters, InvalidKind, TestTarget as TargetProfile};
    use crate::grammar::{Form, GrammarKind};

    const PROFILE: &str = "name: t
adapter: { builtin: reference }
delimiters: { grammar: xml-tag, token: context }
capabilities: [wrap]
";

    #[test]
    fn validation_resolves_the_grammar_once_for_every_use() {
        let profile = TargetProfile::parse(PROFILE).unwrap();
        let built = profile.grammar();
        assert!(Arc::ptr_eq(&built, &profile.grammar()));
        assert!(Arc::ptr_eq(&built, &profile.clone().grammar()));
        assert_eq!(built.render(Form::Close, 0).plain(), "</context>");
    }

    #[test]
    fn a_kind_is_allowed_once_in_the_outer_token_in_a_declared_spelling() {
        let profile = TargetProfile::parse(PROFILE).unwrap();
        let with = |token: &str, inner: Option<&str>| {
            profile.edit(|p| {
                p.delimiters.token = token.into();
                p.delimiters.inner = inner.map(str::to_string);
            })
        };
        for token in ["{kind}_output", "{kind:upper}", "x-{kind:underscore}"] {
            let ok = with(token, None).unwrap();
            assert_eq!(
                ok.grammar().render(Form::Close, 0).plain(),
                format!("</{}>", crate::grammar::with_kind(token, "tool-result"))
            );
        }
        for (token, inner) in [
            ("{kind:lower}_output", None),
            ("{kind}{kind}", None),
            ("context", Some("{kind}")),
        ] {
            let error = with(token, inner).unwrap_err();
            assert!(
                matches!(error.kind, InvalidKind::BadToken(_)),
                "{token}: {error}"
            );
        }
    }

    #[test]
    fn a_changed_target_is_validated_and_gets_its_own_grammar() {
        let profile = TargetProfile::parse(PROFILE).unwrap();
        let changed = profile
            .edit(|p| p.delimiters.token = "other".into())
            .unwrap();
        assert!(!Arc::ptr_eq(&profile.grammar(), &changed.grammar()));
        assert_eq!(changed.grammar().render(Form::Close, 0).plain(), "</other>");
        assert_eq!(
            profile.grammar().render(Form::Close, 0).plain(),
            "</context>"
        );
        let functional = profile
            .edit(|p| p.delimiters.grammar = GrammarKind::BracketMarker)
            .unwrap();
        assert_eq!(functional.grammar().kind(), GrammarKind::BracketMarker);
        let error = profile.edit(|p| p.delimiters.token = "a<b".into());
        assert!(matches!(error.unwrap_err().kind, InvalidKind::BadToken(_)));
    }

    #[test]
    fn a_target_read_back_from_json_is_validated() {
        let profile = TargetProfile::parse(PROFILE).unwrap();
        let json = serde_json::to_string(&profile).unwrap();
        let back: TargetProfile = serde_json::from_str(&json).unwrap();
        assert_eq!(back, profile);
        assert_eq!(back.grammar().render(Form::Close, 0).plain(), "</context>");
        let bad = json.replace("\"context\"", "\"a<b\"");
        assert_ne!(bad, json);
        let error = serde_json::from_str::<TargetProfile>(&bad).unwrap_err();
        assert!(error.to_string().contains("a<b"), "{error}");
    }

    #[test]
    fn a_declaration_carries_no_grammar() {
        let declared = TargetProfile::parse(PROFILE)
            .unwrap()
            .framing
            .into_declared();
        let fresh = Delimiters::simple(GrammarKind::XmlTag, "context");
        assert_eq!(declared.delimiters, fresh);
        assert_eq!(format!("{:?}", declared.delimiters), format!("{fresh:?}"));
    }
}
