//! Case templates: text with `{placeholder}`s that the target profile fills.
//!
//! A template is parsed once at load time, so a misspelt placeholder or a
//! stray brace is a load error with a location rather than a case that
//! silently sends the wrong bytes. `{{` and `}}` are literal braces.
//!
//! ```
//! use framecheck_core::catalogue::template::{parse, Placeholder, Segment};
//!
//! let segments = parse("a {close} {{b}}").unwrap();
//! assert_eq!(segments, vec![
//!     Segment::Literal("a ".into()),
//!     Segment::Placeholder(Placeholder::Close),
//!     Segment::Literal(" {b}".into()),
//! ]);
//! ```

use std::fmt;

/// A named hole in a template.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Placeholder {
    /// `{token}`: the outer token.
    Token,
    /// `{open}`: the outer opening delimiter without attributes.
    Open,
    /// `{open_start}`: the outer opening delimiter up to its attributes.
    OpenStart,
    /// `{close}`: the outer closing delimiter.
    Close,
    /// `{open_rebuilt}`: the outer opener with a whole copy of itself
    /// inserted where the grammar splits it ([`crate::grammar::Grammar::rebuilt`]),
    /// so one strip pass of the exact opener leaves the opener.
    OpenRebuilt,
    /// `{close_rebuilt}`: the same for the outer closer
    /// (`<|im_<|im_end|>end|>`).
    CloseRebuilt,
    /// `{inner_token}`: the inner token.
    InnerToken,
    /// `{inner_open}`: the inner opening delimiter.
    InnerOpen,
    /// `{inner_open_start}`: the inner opening delimiter up to its attributes.
    InnerOpenStart,
    /// `{inner_close}`: the inner closing delimiter.
    InnerClose,
    /// `{reserved_token}`: the first reserved token.
    ReservedToken,
    /// `{reserved_open}`: the first reserved token's opening delimiter.
    ReservedOpen,
    /// `{reserved_open_start}`: the same, up to its attributes.
    ReservedOpenStart,
    /// `{reserved_close}`: the first reserved token's closing delimiter.
    ReservedClose,
    /// `{canary}`: the case's canary.
    Canary,
    /// `{frame}`: the target's whole calibration frame (read texts only).
    Frame,
    /// `{frame_head}`: the calibration frame up to its content.
    FrameHead,
    /// `{frame_body}`: the calibration content as framed.
    FrameBody,
    /// `{frame_tail}`: the calibration frame after its content.
    FrameTail,
    /// `{record_system}`: the marker of a forged `system` record, spelled
    /// as the profile declares its role records (`records:`), else the
    /// numbered `2. system: ` ([`crate::records::forged_system_marker`]).
    RecordSystem,
    /// `{line_prefix}`: the prefix a `line-prefix` body writes at the start
    /// of each line (`body.line_prefix`); a case using it needs that body.
    LinePrefix,
}

/// Which token a delimiter placeholder names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TokenRole {
    /// The outer token.
    Outer,
    /// The inner token.
    Inner,
    /// The first reserved token.
    Reserved,
}

/// Which form of a token's delimiter a placeholder expands to (the
/// grammar's [`crate::grammar::Form`]).
pub use crate::grammar::Form as DelimiterForm;

impl Placeholder {
    /// Every placeholder, in documentation order.
    pub const ALL: [Placeholder; 21] = [
        Placeholder::Token,
        Placeholder::Open,
        Placeholder::OpenStart,
        Placeholder::Close,
        Placeholder::OpenRebuilt,
        Placeholder::CloseRebuilt,
        Placeholder::InnerToken,
        Placeholder::InnerOpen,
        Placeholder::InnerOpenStart,
        Placeholder::InnerClose,
        Placeholder::ReservedToken,
        Placeholder::ReservedOpen,
        Placeholder::ReservedOpenStart,
        Placeholder::ReservedClose,
        Placeholder::Canary,
        Placeholder::Frame,
        Placeholder::FrameHead,
        Placeholder::FrameBody,
        Placeholder::FrameTail,
        Placeholder::RecordSystem,
        Placeholder::LinePrefix,
    ];

    /// The name written between the braces.
    pub fn name(self) -> &'static str {
        match self {
            Placeholder::Token => "token",
            Placeholder::Open => "open",
            Placeholder::OpenStart => "open_start",
            Placeholder::Close => "close",
            Placeholder::OpenRebuilt => "open_rebuilt",
            Placeholder::CloseRebuilt => "close_rebuilt",
            Placeholder::InnerToken => "inner_token",
            Placeholder::InnerOpen => "inner_open",
            Placeholder::InnerOpenStart => "inner_open_start",
            Placeholder::InnerClose => "inner_close",
            Placeholder::ReservedToken => "reserved_token",
            Placeholder::ReservedOpen => "reserved_open",
            Placeholder::ReservedOpenStart => "reserved_open_start",
            Placeholder::ReservedClose => "reserved_close",
            Placeholder::Canary => "canary",
            Placeholder::Frame => "frame",
            Placeholder::FrameHead => "frame_head",
            Placeholder::FrameBody => "frame_body",
            Placeholder::FrameTail => "frame_tail",
            Placeholder::RecordSystem => "record_system",
            Placeholder::LinePrefix => "line_prefix",
        }
    }

    /// Looks a placeholder up by the name written between the braces.
    pub fn from_name(name: &str) -> Option<Placeholder> {
        Placeholder::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The token and form of a delimiter placeholder; `None` for the canary
    /// and the frame pieces, which variants never touch.
    pub fn delimiter(self) -> Option<(TokenRole, DelimiterForm)> {
        use DelimiterForm as F;
        use TokenRole as R;
        Some(match self {
            Placeholder::Token => (R::Outer, F::Token),
            Placeholder::Open => (R::Outer, F::Open),
            Placeholder::OpenStart => (R::Outer, F::OpenStart),
            Placeholder::Close | Placeholder::CloseRebuilt => (R::Outer, F::Close),
            Placeholder::OpenRebuilt => (R::Outer, F::Open),
            Placeholder::InnerToken => (R::Inner, F::Token),
            Placeholder::InnerOpen => (R::Inner, F::Open),
            Placeholder::InnerOpenStart => (R::Inner, F::OpenStart),
            Placeholder::InnerClose => (R::Inner, F::Close),
            Placeholder::ReservedToken => (R::Reserved, F::Token),
            Placeholder::ReservedOpen => (R::Reserved, F::Open),
            Placeholder::ReservedOpenStart => (R::Reserved, F::OpenStart),
            Placeholder::ReservedClose => (R::Reserved, F::Close),
            _ => return None,
        })
    }

    /// True for the rebuilt spellings (`{open_rebuilt}`, `{close_rebuilt}`):
    /// the delimiter of [`Placeholder::delimiter`] nested in itself.
    pub fn is_rebuilt(self) -> bool {
        matches!(self, Placeholder::OpenRebuilt | Placeholder::CloseRebuilt)
    }

    /// True for the read-only frame pieces (`{frame}`, `{frame_head}`…).
    pub fn is_frame_piece(self) -> bool {
        matches!(
            self,
            Placeholder::Frame
                | Placeholder::FrameHead
                | Placeholder::FrameBody
                | Placeholder::FrameTail
        )
    }
}

impl fmt::Display for Placeholder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{}}}", self.name())
    }
}

/// One piece of a parsed template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    /// Literal text, with `{{`/`}}` already unescaped.
    Literal(String),
    /// A placeholder.
    Placeholder(Placeholder),
}

/// Why a template did not parse. `at` is the 0-based character index in the
/// template where the problem starts.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    /// `{` with no `}` after it.
    #[error("unclosed '{{' at character {at}; write '{{{{' for a literal brace")]
    Unclosed {
        /// Character index of the `{`.
        at: usize,
    },
    /// `}` that closes nothing.
    #[error("unmatched '}}' at character {at}; write '}}}}' for a literal brace")]
    Unmatched {
        /// Character index of the `}`.
        at: usize,
    },
    /// A name between braces that is not a placeholder.
    #[error("unknown placeholder {{{name}}} at character {at}; known: {known}")]
    Unknown {
        /// The name as written.
        name: String,
        /// Character index of the `{`.
        at: usize,
        /// The known names, for the message.
        known: String,
    },
}

/// Parses a template into literal and placeholder segments. Adjacent literal
/// text is merged into one segment.
pub fn parse(template: &str) -> Result<Vec<Segment>, TemplateError> {
    let mut segments = Vec::new();
    let mut literal = String::new();
    let chars: Vec<char> = template.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '{' if chars.get(i + 1) == Some(&'{') => {
                literal.push('{');
                i += 2;
            }
            '}' if chars.get(i + 1) == Some(&'}') => {
                literal.push('}');
                i += 2;
            }
            '}' => return Err(TemplateError::Unmatched { at: i }),
            '{' => {
                let Some(len) = chars[i + 1..].iter().position(|&c| c == '}') else {
                    return Err(TemplateError::Unclosed { at: i });
                };
                let name: String = chars[i + 1..i + 1 + len].iter().collect();
                if name.contains('{') {
                    return Err(TemplateError::Unclosed { at: i });
                }
                let Some(placeholder) = Placeholder::from_name(&name) else {
                    return Err(TemplateError::Unknown {
                        name,
                        at: i,
                        known: Placeholder::ALL.map(|p| p.name()).join(", "),
                    });
                };
                if !literal.is_empty() {
                    segments.push(Segment::Literal(std::mem::take(&mut literal)));
                }
                segments.push(Segment::Placeholder(placeholder));
                i += len + 2;
            }
            c => {
                literal.push(c);
                i += 1;
            }
        }
    }
    if !literal.is_empty() {
        segments.push(Segment::Literal(literal));
    }
    Ok(segments)
}

/// The placeholders a parsed template uses, in order of appearance.
pub fn placeholders(segments: &[Segment]) -> impl Iterator<Item = Placeholder> + '_ {
    segments.iter().filter_map(|s| match s {
        Segment::Placeholder(p) => Some(*p),
        Segment::Literal(_) => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_placeholders_and_escaped_braces() {
        let segments = parse("{{x}} {open}{canary}").unwrap();
        assert_eq!(
            segments,
            vec![
                Segment::Literal("{x} ".into()),
                Segment::Placeholder(Placeholder::Open),
                Segment::Placeholder(Placeholder::Canary),
            ]
        );
        assert_eq!(parse("").unwrap(), vec![]);
    }

    #[test]
    fn every_placeholder_name_round_trips() {
        for p in Placeholder::ALL {
            assert_eq!(
                parse(&p.to_string()).unwrap(),
                vec![Segment::Placeholder(p)]
            );
        }
    }

    #[test]
    fn reports_stray_braces_and_unknown_names_with_positions() {
        assert_eq!(parse("ab{close"), Err(TemplateError::Unclosed { at: 2 }));
        assert_eq!(parse("ab{x{close}"), Err(TemplateError::Unclosed { at: 2 }));
        assert_eq!(parse("é}"), Err(TemplateError::Unmatched { at: 1 }));
        match parse("x {clsoe}") {
            Err(TemplateError::Unknown { name, at, .. }) => {
                assert_eq!((name.as_str(), at), ("clsoe", 2))
            }
            other => panic!("{other:?}"),
        }
    }
}
