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
    Around, DelimiterKind, Delimiters, Extras, Fields, Form, Grammar, GrammarError, GrammarKind,
    Guess, LiveDelimiter, OpenerError, ParsedOpener, Piece, Shape, Spelling, Vocabulary, MASK,
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

/// The shape of a bracket-tag grammar: its kind, its brackets and its
/// place among `init`'s experiments.
pub(super) struct TagShape {
    pub(super) kind: GrammarKind,
    pub(super) open: char,
    pub(super) close: char,
    pub(super) guesses: &'static [Guess],
    pub(super) evidence: &'static str,
}

impl TagShape {
    /// The grammar over `vocabulary` with this shape's brackets.
    pub(super) fn grammar(&self, vocabulary: Vocabulary) -> Tagged {
        Tagged {
            kind: self.kind,
            vocabulary,
            open_bracket: self.open,
            close_bracket: self.close,
        }
    }
}

impl Shape for TagShape {
    fn fields(&self) -> Fields {
        Fields {
            inner_tokens: true,
            ..Fields::default()
        }
    }

    fn build(
        &self,
        vocabulary: Vocabulary,
        _: Extras<'_>,
    ) -> Result<Box<dyn Grammar>, GrammarError> {
        Ok(Box::new(self.grammar(vocabulary)))
    }

    fn guesses(&self) -> &'static [Guess] {
        self.guesses
    }

    fn evidence(&self) -> &'static str {
        self.evidence
    }

    fn element_brackets(&self) -> Option<(char, char)> {
        Some((self.open, self.close))
    }

    fn example(&self) -> Delimiters {
        Delimiters::simple(self.kind, "context")
    }
}

/// A character of an element or marker name (a masked value included).
fn name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':' | MASK)
}

/// `<name …>` before and `</name>` after (or the bracket-marker twin): the
/// last opener before the content whose closer follows it. When a field
/// the framing writes (provenance, an attribute) sits outside that element
/// but inside an enclosing one (`<document><source>…</source>
/// <document_content>…</document_content></document>`), the frame is the
/// innermost element holding the fields too, and the element around the
/// content is its `inner` one: the fields are then judged as the frame's
/// header, not as text outside the frame.
pub(super) fn guess(text: &Around<'_>, shape: &TagShape) -> Option<Delimiters> {
    let (head, tail) = (text.head, text.tail);
    let (open, close) = (shape.open, shape.close);
    // Elements around the content, innermost first: (name, opener offset,
    // end of the closer in the tail).
    let mut around: Vec<(String, usize, usize)> = Vec::new();
    let openers: Vec<usize> = head.match_indices(open).map(|(at, _)| at).collect();
    for at in openers.into_iter().rev() {
        let name: String = head[at + 1..]
            .chars()
            .take_while(|&c| name_char(c))
            .collect();
        if name.is_empty() || around.iter().any(|(n, _, _)| *n == name) {
            continue;
        }
        // A closer without the opener's per-call value (`</data>` after
        // `<data-3f9a…>`) still closes it for a reader that ignores the
        // value: the frame is the opener's, and the nonce checks judge the
        // closer that lacks it.
        let bare = name.replace(MASK, "");
        let bare = bare.trim_end_matches(['-', '_', '.', ':']);
        let closers = [
            format!("{open}/{name}{close}"),
            format!("{open}/{bare}{close}"),
        ];
        let end = closers
            .iter()
            .find_map(|c| tail.find(c.as_str()).map(|i| i + c.len()));
        if let Some(end) = end {
            around.push((name, at, end));
        }
    }
    let (innermost, _, _) = around.first()?;
    let marks = text.field_marks;
    let first_field = marks.iter().filter_map(|m| head.find(m)).min();
    let last_field = marks.iter().filter_map(|m| tail.rfind(m)).max();
    let holds_fields = |&&(_, at, end): &&(String, usize, usize)| {
        first_field.is_none_or(|f| at < f) && last_field.is_none_or(|f| f < end)
    };
    let at = around.iter().position(|a| holds_fields(&a)).unwrap_or(0);
    let frame = &around[at];
    let mut delimiters = Delimiters::simple(shape.kind, &frame.0);
    if frame.0 != *innermost {
        delimiters.inner = Some(innermost.clone());
    }
    // An element around the frame is a second reading: the frame could be
    // that element, with this one its inner one.
    if let Some((outer, _, _)) = around.get(at + 1) {
        delimiters.reserved.push(outer.clone());
    }
    Some(delimiters)
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
                    nonce: m.nonce.map(|pair| folded.source_pair(pair)),
                    request_kind: m.kind.map(|pair| folded.source_pair(pair)),
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
