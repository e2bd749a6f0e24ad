//! Why profile text is not a valid profile, as a type.
//!
//! [`TargetProfile::parse`](super::TargetProfile::parse) and
//! [`TargetProfile::validate`](super::TargetProfile::validate) return an
//! [`InvalidProfile`]: the rule that broke ([`InvalidKind`], a closed set),
//! the field it is about ([`Field`], down to which reserved token or which
//! attribute name) and, when the text shows it, the 1-based line and column.
//! The position is looked up from the field (see `locate.rs`), never from the
//! message, so a value that happens to look like another field cannot move it.
//!
//! The `Display` of each error is the message framecheck has always printed.
//!
//! The `adapter:` section's rules, fields and places are the launch
//! configuration's: its error type ([`LaunchError`]) is carried here as an
//! [`AdapterFault`], so that core names none of them and a new target kind
//! touches no file of core's.

use std::any::Any;
use std::sync::Arc;

use crate::grammar::GrammarError;

use super::sections::{HeaderError, HeaderName};

/// A 1-based line and column in the profile text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// 1-based line.
    pub line: u64,
    /// 1-based column.
    pub column: u64,
}

impl Position {
    /// Where the YAML parser read `spanned`'s value, when it says (a
    /// shadow of the profile read with positions gives these).
    pub fn of<T>(spanned: &serde_saphyr::Spanned<T>) -> Option<Position> {
        let loc = spanned.referenced;
        (loc.line() > 0).then(|| Position {
            line: loc.line(),
            column: loc.column(),
        })
    }
}

/// Which of the delimiters' tokens an error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenField {
    /// `delimiters.token`.
    Outer,
    /// `delimiters.inner`.
    Inner,
    /// `delimiters.reserved[i]` (0-based).
    Reserved(usize),
}

/// The profile field an error is about.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Field {
    /// `name`.
    Name,
    /// A field of the `adapter:` section. Which one, and where it is
    /// written, is the launch configuration's to say
    /// ([`InvalidKind::Adapter`]): core reads that section past unlooked-at.
    Adapter,
    /// The `delimiters` declaration as a whole (grammar, templates, nonce).
    Delimiters,
    /// One token of `delimiters`.
    Token(TokenField),
    /// `attributes.on`.
    AttributesOn,
    /// `attributes.names[i]` (0-based).
    AttributesName(usize),
    /// `header.separator`.
    HeaderSeparator,
    /// `header.lines`.
    HeaderLines,
    /// One name under `header.fields`.
    HeaderField(HeaderName),
    /// `body_padding` (set together with `body.padding`).
    BodyPadding,
    /// `body.datamark`.
    BodyDatamark,
    /// `body.line_prefix`.
    BodyLinePrefix,
    /// `capabilities`.
    Capabilities,
    /// `reader.lines`.
    ReaderLines,
    /// `reader.consumers`.
    ReaderConsumers,
    /// The `records` section.
    Records,
}

/// Which rule of a profile broke.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InvalidKind {
    /// The YAML parser refused the text (syntax, unknown key, wrong type,
    /// or an `adapter:` of neither shape): its message, without position.
    #[error("{0}")]
    Yaml(String),
    /// `name` is empty or has characters other than `[A-Za-z0-9_-]`.
    #[error("name {0:?} must be non-empty ASCII letters, digits, '-' or '_'")]
    BadName(String),
    /// A token with a character a grammar would read as structure.
    #[error(
        "delimiters: token {0:?} must be printable ASCII without brackets, braces, \
         slashes, quotes, '=', backticks or tildes (a `{{nonce}}` part is allowed, \
         and in the outer token of a named grammar one `{{kind}}`, `{{kind:upper}}` \
         or `{{kind:underscore}}`; a section's names may be words joined by single spaces)"
    )]
    BadToken(String),
    /// A token declared again (ASCII case ignored). The error's field is
    /// the first declaration spelled as `token` is.
    #[error("delimiters: token {token:?} is declared twice")]
    DuplicateToken {
        /// The repeat, as written.
        token: String,
        /// The later declaration, found to repeat an earlier one.
        repeat: TokenField,
    },
    /// The grammar cannot be built from the declaration.
    #[error("delimiters: {0}")]
    Grammar(GrammarError),
    /// An `attributes.names` entry that is not a plain attribute name.
    #[error("attributes.names: {0:?} is not a plain attribute name")]
    NotPlainAttributeName(String),
    /// `attributes.on: inner` without an inner token.
    #[error("attributes.on is inner but delimiters.inner is not set")]
    InnerWithoutInnerToken,
    /// The `header` section is inconsistent.
    #[error("{0}")]
    Header(HeaderError),
    /// Both spellings of the body padding are set.
    #[error("body_padding and body.padding are both set; keep body.padding")]
    TwoPaddings,
    /// A datamark that is empty or has whitespace.
    #[error("body.datamark {0:?} must be non-empty and without whitespace")]
    BadDatamark(String),
    /// A line prefix that is empty or holds a line break.
    #[error(
        "body.line_prefix {0:?} must be non-empty and hold no line break \
         (it is what the framing writes at the start of each line)"
    )]
    BadLinePrefix(String),
    /// `body.encoding: line-prefix` without the prefix, or the prefix
    /// without that encoding, or with `datamark` too (stacked or as
    /// another per-content choice: the two share one marker).
    #[error(
        "body.encoding line-prefix and body.line_prefix go together, and such a body \
         does not use datamark too: declare both, e.g. `body: {{ encoding: \
         line-prefix, line_prefix: \"> \" }}`"
    )]
    LinePrefixMismatch,
    /// `capabilities` lacks `wrap`.
    #[error("every target must declare the wrap capability")]
    NoWrap,
    /// The `records` section is not a valid declaration.
    #[error("{0}")]
    Records(crate::records::RecordsError),
    /// `reader.lines` declared for a reader that is not a parser: a model's
    /// line breaks are the reader levels'.
    #[error(
        "reader.lines says how a parser splits lines; declare reader.consumer: parser (or a parser among reader.consumers) with it"
    )]
    LinesWithoutParser,
    /// Both `reader.consumer` (other than the default) and
    /// `reader.consumers`: one says what the other does.
    #[error("reader.consumers lists every consumer; drop reader.consumer: {0} or list it there")]
    ConsumerAndConsumers(&'static str),
    /// The `adapter:` section breaks one of its own rules: the launch
    /// configuration's error ([`Launch::Error`](super::Launch::Error)), carried
    /// as it is.
    #[error("{0}")]
    Adapter(AdapterFault),
}

/// Why a launch configuration breaks one of its rules
/// ([`Launch::validate`](super::Launch::validate)'s error): what core needs
/// to carry it in an [`InvalidProfile`] and to place it in the text.
pub trait LaunchError: std::error::Error + PartialEq + Send + Sync + 'static {
    /// Where in the profile's `text` the field at fault is written, when
    /// the text shows it. Only the launch configuration knows its fields.
    fn locate(&self, text: &str) -> Option<Position>;
}

/// A launch configuration without rules of its own.
impl LaunchError for std::convert::Infallible {
    fn locate(&self, _text: &str) -> Option<Position> {
        match *self {}
    }
}

/// A launch configuration's error, its type erased so that
/// [`InvalidProfile`] stays one type whatever the adapter is. It displays,
/// compares and places itself as the error it holds
/// ([`AdapterFault::downcast_ref`] gives that error back).
#[derive(Clone)]
pub struct AdapterFault(Arc<dyn ErasedLaunchError>);

/// [`LaunchError`] as an object: equality is tried across types through
/// `Any` (two faults of different types are different).
trait ErasedLaunchError: std::error::Error + Send + Sync + 'static {
    fn locate(&self, text: &str) -> Option<Position>;
    fn as_any(&self) -> &dyn Any;
    fn same(&self, other: &dyn Any) -> bool;
}

impl<E: LaunchError> ErasedLaunchError for E {
    fn locate(&self, text: &str) -> Option<Position> {
        LaunchError::locate(self, text)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn same(&self, other: &dyn Any) -> bool {
        other.downcast_ref::<E>() == Some(self)
    }
}

impl AdapterFault {
    /// `error`, carried.
    pub fn new<E: LaunchError>(error: E) -> AdapterFault {
        AdapterFault(Arc::new(error))
    }

    /// The error carried, when it is an `E`.
    pub fn downcast_ref<E: LaunchError>(&self) -> Option<&E> {
        self.0.as_any().downcast_ref()
    }

    /// Where the field at fault is written in `text`, as the launch
    /// configuration finds it.
    fn locate(&self, text: &str) -> Option<Position> {
        self.0.locate(text)
    }
}

impl PartialEq for AdapterFault {
    fn eq(&self, other: &AdapterFault) -> bool {
        self.0.same(other.0.as_any())
    }
}

impl Eq for AdapterFault {}

impl std::fmt::Debug for AdapterFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("AdapterFault").field(&self.0).finish()
    }
}

impl std::fmt::Display for AdapterFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.0, f)
    }
}

/// Why profile text is not a valid profile: the rule, the field, the place.
///
/// Displays as `line L, column C: MESSAGE` when the place is known, else as
/// `MESSAGE`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidProfile {
    /// The rule that broke.
    pub kind: InvalidKind,
    /// The field it is about; `None` for a YAML error, whose place the
    /// parser gives but not its field.
    pub field: Option<Field>,
    /// Where in the text, when known.
    pub position: Option<Position>,
}

impl InvalidProfile {
    /// An error about `field`, its position not yet known.
    pub fn new(field: Field, kind: InvalidKind) -> InvalidProfile {
        InvalidProfile {
            kind,
            field: Some(field),
            position: None,
        }
    }

    /// The launch configuration's `error`, its position not yet known.
    pub fn adapter<E: LaunchError>(error: E) -> InvalidProfile {
        InvalidProfile::new(
            Field::Adapter,
            InvalidKind::Adapter(AdapterFault::new(error)),
        )
    }

    /// The position of this error's field in `text`: the launch
    /// configuration places its own fields, core the rest.
    pub(super) fn locate_in(&self, text: &str) -> Option<Position> {
        match (&self.kind, &self.field) {
            (InvalidKind::Adapter(fault), _) => fault.locate(text),
            (_, Some(field)) => super::locate::locate(text, field),
            (_, None) => None,
        }
    }

    /// The YAML parser's error, with the place it gives.
    pub fn yaml(error: &serde_saphyr::Error) -> InvalidProfile {
        InvalidProfile {
            kind: InvalidKind::Yaml(crate::yaml::message(error)),
            field: None,
            position: crate::yaml::position(error).map(|(line, column)| Position { line, column }),
        }
    }
}

impl From<HeaderError> for InvalidProfile {
    fn from(error: HeaderError) -> InvalidProfile {
        InvalidProfile::new(error.field(), InvalidKind::Header(error))
    }
}

// No `source`: the kind's text is already part of the message.
impl std::error::Error for InvalidProfile {}

impl std::fmt::Display for InvalidProfile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(Position { line, column }) = self.position {
            write!(f, "line {line}, column {column}: ")?;
        }
        write!(f, "{}", self.kind)
    }
}
