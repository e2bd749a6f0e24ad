//! Grammar `bracket-marker`: `[TOK]…[/TOK]`, the `xml-tag` rules with
//! square brackets.

use super::tagged::Tagged;
use super::{GrammarKind, Vocabulary};

impl Tagged {
    /// The `bracket-marker` grammar over `vocabulary`.
    pub(super) fn bracket_marker(vocabulary: Vocabulary) -> Tagged {
        Tagged {
            kind: GrammarKind::BracketMarker,
            vocabulary,
            open_bracket: '[',
            close_bracket: ']',
        }
    }
}
