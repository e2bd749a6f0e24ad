//! Grammar `xml-tag`: `<tok attr="v">…</tok>`.
//!
//! A delimiter is live where `<` (as folded) is followed by optional
//! spacing, an optional `/` (a closer), optional spacing and the token
//! (folded by the same reader), and then by the end of the text or a
//! character that cannot continue a name. The opener's attributes end at
//! the first `>` outside quotes.

use super::tagged::Tagged;
use super::{
    Form, Grammar, GrammarKind, LiveDelimiter, OpenerError, ParsedOpener, Spelling, Vocabulary,
};
use crate::reader::Folded;

/// The `xml-tag` grammar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XmlTag(Tagged);

impl XmlTag {
    /// The grammar over `vocabulary`.
    pub fn new(vocabulary: Vocabulary) -> XmlTag {
        XmlTag(Tagged {
            vocabulary,
            open_bracket: '<',
            close_bracket: '>',
        })
    }
}

impl Grammar for XmlTag {
    fn kind(&self) -> GrammarKind {
        GrammarKind::XmlTag
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
