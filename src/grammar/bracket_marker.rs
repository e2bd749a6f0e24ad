//! Grammar `bracket-marker`: `[TOK]…[/TOK]`, the `xml-tag` rules with
//! square brackets.

use super::tagged::Tagged;
use super::{
    Form, Grammar, GrammarKind, LiveDelimiter, OpenerError, ParsedOpener, Spelling, Vocabulary,
};
use crate::reader::Folded;

/// The `bracket-marker` grammar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BracketMarker(Tagged);

impl BracketMarker {
    /// The grammar over `vocabulary`.
    pub fn new(vocabulary: Vocabulary) -> BracketMarker {
        BracketMarker(Tagged {
            vocabulary,
            open_bracket: '[',
            close_bracket: ']',
        })
    }
}

impl Grammar for BracketMarker {
    fn kind(&self) -> GrammarKind {
        GrammarKind::BracketMarker
    }

    fn live(&self, folded: &Folded<'_>) -> Vec<LiveDelimiter> {
        self.0.live(folded)
    }

    fn render(&self, form: Form, token: usize) -> Spelling {
        self.0.render(form, token)
    }

    fn delimiter_end(&self, folded: &Folded<'_>, d: &LiveDelimiter) -> Option<usize> {
        self.0.delimiter_end(folded, d)
    }

    fn parse_opener(&self, text: &str, d: &LiveDelimiter) -> Result<ParsedOpener, OpenerError> {
        self.0.parse_opener(text, d)
    }
}
