//! Errors from loading a catalogue and from selecting cases.

use std::fmt;
use std::path::PathBuf;

/// What kind of problem a [`CatalogueError`] reports, so callers and tests
/// can tell them apart without parsing messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The file or directory could not be read.
    Io,
    /// Not valid YAML for the format: syntax, an unknown or missing field, a
    /// wrong type, or a parser budget (alias bomb, depth) exceeded.
    Yaml,
    /// `schema` is not `framecheck-catalogue/1`.
    Schema,
    /// `category` is not a known category or differs from the file stem.
    Category,
    /// An id does not match `[a-z0-9][a-z0-9.-]*`.
    InvalidId,
    /// Two cases share an id.
    DuplicateId,
    /// A case uses a flag its file's `notes` does not explain, or two files
    /// explain the same flag differently.
    Flag,
    /// A template has a stray brace, an unknown placeholder, or a
    /// placeholder where it cannot be used.
    Template,
    /// The case's fields do not fit its operation (`text` on a wrap case,
    /// `input` on a read case, an expectation the operation cannot have).
    Shape,
    /// An unknown variant or group name, or variants on a case with no
    /// delimiter to vary.
    Variant,
    /// An unknown requirement name.
    Requirement,
    /// A required text field is empty, or a value is out of range.
    Value,
}

/// One problem in a catalogue file, located as precisely as the parser
/// allows. Displays as `path:line:col: message` (or `path: message` when
/// there is no position, as for an unreadable file).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct CatalogueError {
    /// The catalogue file.
    pub path: PathBuf,
    /// 1-based line, 0 when unknown.
    pub line: u64,
    /// 1-based column, 0 when unknown.
    pub column: u64,
    /// What kind of problem.
    pub kind: ErrorKind,
    /// What is wrong, in one sentence.
    pub message: String,
}

impl fmt::Display for CatalogueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.path.display(), self.message)
        } else {
            write!(
                f,
                "{}:{}:{}: {}",
                self.path.display(),
                self.line,
                self.column,
                self.message
            )
        }
    }
}

/// A case-selection pattern that is not a valid glob.
#[derive(Debug, thiserror::Error)]
#[error("invalid case pattern {pattern:?}: {source}")]
pub struct SelectError {
    /// The pattern as given.
    pub pattern: String,
    /// Why globset rejected it.
    pub source: globset::Error,
}
