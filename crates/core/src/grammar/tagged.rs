//! The matcher shared by the two bracket-tag grammars (`xml-tag`,
//! `bracket-marker`): an opening bracket, optional spacing, an optional
//! `/` (a closer), optional spacing, the token, and then the end of the
//! text or a character that cannot continue a name.
//!
//! The two grammars differ only in their brackets, so one [`Grammar`] impl
//! serves both; each grammar's module holds its constructor and its tests.

use super::attributes;
use super::token::match_token;
use super::{
    DelimiterKind, Form, Grammar, GrammarKind, LiveDelimiter, OpenerError, ParsedOpener, Piece,
    Spelling, Vocabulary,
};
use crate::reader::Folded;

/// A bracket-tag grammar with its bracket pair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Tagged {
    pub(super) kind: GrammarKind,
    pub(super) vocabulary: Vocabulary,
    pub(super) open_bracket: char,
    pub(super) close_bracket: char,
}

impl Grammar for Tagged {
    fn kind(&self) -> GrammarKind {
        self.kind
    }

    /// Every live delimiter of any token, in text order. Offsets cover
    /// whole source characters, from the bracket to the end of the token.
    fn live(&self, folded: &Folded<'_>) -> Vec<LiveDelimiter> {
        let reader = folded.reader;
        let nonce = self.vocabulary.nonce.as_ref();
        let mut found = Vec::new();
        for bracket_at in folded.positions_of(self.open_bracket) {
            let mut i = folded.skip_space(bracket_at + 1);
            let mut kind = DelimiterKind::Open;
            if folded.ch(i) == Some('/') {
                kind = DelimiterKind::Close;
                i = folded.skip_space(i + 1);
            }
            for (index, token) in self.vocabulary.tokens.iter().enumerate() {
                let Some(m) = match_token(folded, i, token, nonce) else {
                    continue;
                };
                if folded.ch(m.end).is_some_and(|c| reader.is_name_char(c)) {
                    continue;
                }
                found.push(LiveDelimiter {
                    token: index,
                    kind,
                    start: folded.source_span(bracket_at, bracket_at + 1).start,
                    end: folded.source_span(m.end - 1, m.end).end,
                    nonce: m.nonce.map(|(s, e)| {
                        let span = folded.source_span(s, e);
                        (span.start, span.end)
                    }),
                });
                break;
            }
        }
        found
    }

    fn render(&self, form: Form, token: usize) -> Spelling {
        let token = self.vocabulary.render_token(token);
        let mut s = Spelling::default();
        if form == Form::Token {
            s.0.extend(token);
            return s;
        }
        s.push(Piece::Punct(self.open_bracket));
        s.push(Piece::Gap);
        if form == Form::Close {
            s.push(Piece::Punct('/'));
            s.push(Piece::Gap);
        }
        s.0.extend(token);
        if form != Form::OpenStart {
            s.push(Piece::Gap);
            s.push(Piece::Punct(self.close_bracket));
        }
        s
    }

    fn delimiter_end(&self, folded: &Folded<'_>, d: &LiveDelimiter) -> Option<usize> {
        attributes::tag_end(folded, d.end, self.close_bracket)
    }

    fn parse_opener(&self, text: &str, d: &LiveDelimiter) -> Result<ParsedOpener, OpenerError> {
        attributes::parse_attributes(text, d.start..d.end, self.close_bracket)
    }
}
