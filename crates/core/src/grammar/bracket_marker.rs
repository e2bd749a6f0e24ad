//! Grammar `bracket-marker`: `[TOK]…[/TOK]`, the `xml-tag` rules with
//! square brackets.

use super::tagged::TagShape;
use super::{Around, Delimiters, GrammarKind, Guess};

/// The `bracket-marker` shape.
pub(super) const SHAPE: TagShape = TagShape {
    kind: GrammarKind::BracketMarker,
    open: '[',
    close: ']',
    guesses: &[Guess {
        rank: 10,
        read: guess,
    }],
    evidence: "a bracket marker before the content, its closer after it",
};

fn guess(around: &Around<'_>) -> Option<Delimiters> {
    super::tagged::guess(around, &SHAPE)
}
