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
    /// `adapter.command`.
    AdapterCommand,
    /// `adapter.timeout_ms`.
    AdapterTimeoutMs,
    /// `adapter.mcp.command`.
    McpCommand,
    /// `adapter.mcp.timeout_ms`.
    McpTimeoutMs,
    /// `adapter.mcp.arguments`.
    McpArguments,
    /// `adapter.mcp.plant_name`.
    McpPlantName,
    /// `adapter.mcp.plant_body`.
    McpPlantBody,
    /// `adapter.mcp.url`.
    McpUrl,
    /// `adapter.mcp.plant`.
    McpPlant,
    /// `adapter.mcp.write` (`plant: tool`'s write tool).
    McpWrite,
    /// `adapter.mcp.setup` (`plant: command`'s setup command).
    McpSetup,
    /// `adapter.mcp.clean`.
    McpClean,
    /// `adapter.mcp.clean_tool`.
    McpCleanTool,
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
    /// A subprocess adapter with an empty command.
    #[error("adapter.command must name a program")]
    EmptyCommand,
    /// A subprocess adapter with a zero timeout.
    #[error("adapter.timeout_ms must be positive")]
    ZeroTimeout,
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
    /// An MCP adapter with an empty command.
    #[error("adapter.mcp.command must name a program")]
    McpEmptyCommand,
    /// An MCP adapter with a zero timeout.
    #[error("adapter.mcp.timeout_ms must be positive")]
    McpZeroTimeout,
    /// No argument carries the placeholder the plant needs, so the tool
    /// would never see the content.
    #[error("adapter.mcp.arguments: plant `{plant}` needs `{placeholder}` in an argument value, or the tool never reads the content")]
    McpPlantNotReached {
        /// The plant, as written.
        plant: &'static str,
        /// The placeholder no argument holds.
        placeholder: &'static str,
    },
    /// A plant name that is not one plain file name.
    #[error("adapter.mcp.plant_name {0:?} must be one file name (no `/`, not `.` or `..`)")]
    McpBadPlantName(String),
    /// A fixture page path with an empty, `.` or `..` segment.
    #[error("adapter.mcp.plant_name {0:?} must be a page path of names separated by `/` (none empty, `.` or `..`)")]
    McpBadPagePath(String),
    /// A page body for a plant that serves no page.
    #[error("adapter.mcp.plant_body is the fixture page's body; it needs `plant: http`")]
    McpBodyWithoutPage,
    /// An endpoint that is not a plain `http://` URL (the server runs on
    /// this machine; no TLS client is built in).
    #[error(
        "adapter.mcp.url {0:?} must be a plain http:// URL, such as http://127.0.0.1:{{port}}/mcp"
    )]
    McpUrlNotHttp(String),
    /// `{port}` in the endpoint but nowhere in the command or environment,
    /// so the server would never learn which port to listen on.
    #[error("adapter.mcp.url has `{{port}}` but neither adapter.mcp.command nor env does, so the server cannot know which port to listen on")]
    McpPortNotPassed,
    /// An endpoint without a command: a server framecheck does not start
    /// could be neither restarted after a hang nor stopped.
    #[error("adapter.mcp.url needs adapter.mcp.command: framecheck starts the server itself, so it can restart it after a hang and stop it at the end (a server already running elsewhere is not supported)")]
    McpUrlWithoutCommand,
    /// A plant or clean strategy without the key that says how: `plant:
    /// tool` without `write`, `plant: command` without `setup`, `clean:
    /// tool` without `clean_tool`.
    #[error("adapter.mcp: `{given}` needs `{needs}` ({what})")]
    McpNeeds {
        /// The choice made, as written (`plant: tool`).
        given: &'static str,
        /// The key it needs.
        needs: &'static str,
        /// What that key holds.
        what: &'static str,
    },
    /// A key read only with a plant or clean strategy the profile does not
    /// choose, so it would be silently ignored.
    #[error("adapter.mcp.{key} is only read with `{only_with}`; the profile does not choose it")]
    McpUnused {
        /// The key, as written.
        key: &'static str,
        /// The choice it belongs to.
        only_with: &'static str,
    },
    /// A write tool or argument-fed setup command that never gets the
    /// content.
    #[error("adapter.mcp.{key} must hold `{{content}}` (or `{{content_json}}`), or the store never gets the content")]
    McpContentNotPassed {
        /// The key whose values were searched.
        key: &'static str,
    },
    /// A setup command with no program.
    #[error("adapter.mcp.setup.command must name a program")]
    McpEmptySetup,
    /// A setup command with a zero timeout.
    #[error("adapter.mcp.setup.timeout_ms must be positive")]
    McpZeroSetupTimeout,
    /// A JSON pointer that is neither empty nor starts with `/`.
    #[error("adapter.mcp.write.id.pointer {0:?} is not a JSON pointer (RFC 6901): it starts with `/`, as in `/id`")]
    McpBadIdPointer(String),
    /// A pattern the regular-expression engine refuses.
    #[error("adapter.mcp.write.id.pattern {pattern:?} is not a regular expression: {reason}")]
    McpBadIdPattern {
        /// The pattern.
        pattern: String,
        /// The engine's message.
        reason: String,
    },
    /// `{id}` in the read's or the clean tool's arguments, but no
    /// `write.id` to fill it from.
    #[error("adapter.mcp.{key} uses `{{id}}`, but adapter.mcp.write.id does not say where the write tool's answer has it")]
    McpIdNotPicked {
        /// The key whose values use `{id}`.
        key: &'static str,
    },
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
