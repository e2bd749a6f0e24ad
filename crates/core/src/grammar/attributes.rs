//! Reading an opener's attributes the way a strict parser would: where the
//! opener ends, and which attributes it carries. Shared by the grammars
//! whose openers carry attributes (`xml-tag`, `bracket-marker`, and
//! `begin-end` templates with `{attrs}`).
//!
//! The end scan is attribute-aware (a `>` inside a quoted value does not
//! end the opener) and runs at a reader level, so a lookalike bracket
//! outside quotes ends it for a Unicode reader. Attribute parsing is level
//! independent: it is what any XML-ish parser makes of the bytes.

use std::ops::Range;

use super::{Attribute, OpenerError, ParsedOpener};
use crate::reader::{Folded, FoldedChar};

/// Finds the end of an opener whose token ends at byte `token_end`: the
/// byte just past `close_bracket` (as folded), skipping quoted values.
/// `None` when the tag never closes.
///
/// Quotes are recognised only as the ASCII characters themselves (a reader
/// that folds a fullwidth quote into an attribute delimiter is not one any
/// framing can be held to); brackets are recognised as folded.
pub(super) fn tag_end(folded: &Folded<'_>, token_end: usize, close_bracket: char) -> Option<usize> {
    let is_ascii_quote = |f: &FoldedChar| (f.ch == '"' || f.ch == '\'') && f.end - f.start == 1;
    let mut from = token_end;
    loop {
        let f = folded
            .iter_from_byte(from)
            .find(|f| is_ascii_quote(f) || f.ch == close_bracket)?;
        if !is_ascii_quote(&f) {
            return Some(f.end);
        }
        // Inside a quoted value only its own ASCII quote counts, so the
        // rest of the value is skipped by a byte search: values carry the
        // attacker's fields and can be long.
        from = folded.next_ascii_folding_to(f.end, f.ch)? + 1;
    }
}

/// Parses the attributes of the opening tag whose delimiter spans
/// `delimiter` in `text`: `(ws+ name ws* '=' ws* quoted)* ws* '/'? bracket`.
pub(super) fn parse_attributes(
    text: &str,
    delimiter: Range<usize>,
    close_bracket: char,
) -> Result<ParsedOpener, OpenerError> {
    let mut p = Parser {
        text,
        pos: delimiter.end,
    };
    let mut attributes = Vec::new();
    loop {
        let spaced = p.skip_whitespace();
        if p.eat('/') {
            p.skip_whitespace();
            return if p.eat(close_bracket) {
                Ok(ParsedOpener {
                    attributes,
                    span: delimiter.start..p.pos,
                })
            } else {
                Err(p.error("a closing bracket after '/'"))
            };
        }
        if p.eat(close_bracket) {
            return Ok(ParsedOpener {
                attributes,
                span: delimiter.start..p.pos,
            });
        }
        if p.peek().is_none() {
            return Err(p.error("a closing bracket before the end of the text"));
        }
        if !spaced {
            return Err(p.error("whitespace before an attribute name"));
        }
        let at = p.pos;
        let name = p.take_while(is_attribute_name_char);
        if name.is_empty() {
            return Err(p.error("an attribute name"));
        }
        p.skip_whitespace();
        if !p.eat('=') {
            return Err(p.error("'=' after an attribute name"));
        }
        p.skip_whitespace();
        let quote = match p.peek() {
            Some(q @ ('"' | '\'')) => q,
            _ => return Err(p.error("a quoted attribute value")),
        };
        p.eat(quote);
        let raw = p.take_while(|c| c != quote);
        if !p.eat(quote) {
            return Err(p.error("the closing quote of an attribute value"));
        }
        attributes.push(Attribute {
            name: name.to_string(),
            value: super::entities::decode_entities(raw),
            at,
        });
    }
}

fn is_attribute_name_char(c: char) -> bool {
    !(c.is_whitespace() || matches!(c, '=' | '"' | '\'' | '<' | '>' | '[' | ']' | '/'))
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn take_while(&mut self, keep: impl Fn(char) -> bool) -> &'a str {
        let start = self.pos;
        while let Some(c) = self.peek() {
            if !keep(c) {
                break;
            }
            self.pos += c.len_utf8();
        }
        &self.text[start..self.pos]
    }

    /// Skips whitespace; true when there was some.
    fn skip_whitespace(&mut self) -> bool {
        !self.take_while(char::is_whitespace).is_empty()
    }

    fn error(&self, expected: &'static str) -> OpenerError {
        OpenerError {
            reason: expected,
            at: self.pos,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::ReaderLevel;
    use crate::reader::Reader;

    fn fold_with_offsets(text: &str, level: ReaderLevel) -> Folded<'_> {
        Reader::new(level).fold(text)
    }

    fn parse(tag: &str, token: &str) -> Result<Vec<(String, String)>, OpenerError> {
        let end = 1 + token.len();
        parse_attributes(tag, 0..end, '>').map(|t| {
            t.attributes
                .into_iter()
                .map(|a| (a.name, a.value))
                .collect()
        })
    }

    #[test]
    fn parses_quoted_attributes_and_decodes_entities() {
        let got = parse(
            r#"<t a="1 &amp; 2" b = 'x&quot;y' c="&#60;&#x3E;&bogus;&#xZZ;">"#,
            "t",
        )
        .unwrap();
        assert_eq!(
            got,
            vec![
                ("a".into(), "1 & 2".into()),
                ("b".into(), "x\"y".into()),
                ("c".into(), "<>&bogus;&#xZZ;".into()),
            ]
        );
        assert_eq!(parse("<t>", "t").unwrap(), vec![]);
        assert_eq!(parse("<t />", "t").unwrap(), vec![]);
        assert_eq!(parse("<t a=\"x>y\">", "t").unwrap()[0].1, "x>y");
    }

    #[test]
    fn rejects_what_a_strict_parser_rejects() {
        for bad in [
            "<t a=\"1\"b=\"2\">",
            "<t a>",
            "<t a=1>",
            "<t a=\"1>",
            "<t a=\"1\" \"x\">",
            "<t",
            "<t / x>",
        ] {
            assert!(parse(bad, "t").is_err(), "{bad:?}");
        }
    }

    #[test]
    fn tag_end_skips_quoted_brackets_and_sees_lookalikes() {
        let text = "<t a=\"x>y\" b='>'>rest";
        let folded = fold_with_offsets(text, ReaderLevel::Exact);
        assert_eq!(tag_end(&folded, 2, '>'), Some(text.len() - 4));
        let text = "<t a›b=\"1\">";
        let exact = fold_with_offsets(text, ReaderLevel::Exact);
        let unicode = fold_with_offsets(text, ReaderLevel::Unicode);
        assert_eq!(tag_end(&exact, 2, '>'), Some(text.len()));
        assert_eq!(tag_end(&unicode, 2, '>'), Some(text.find('b').unwrap()));
        let text = "<t a=\"never closed>";
        let exact = fold_with_offsets(text, ReaderLevel::Exact);
        assert_eq!(tag_end(&exact, 2, '>'), None);
    }

    /// The specification `tag_end` implements, one folded character at a
    /// time: an ASCII quote opens a value that only the same quote closes;
    /// outside values, the close bracket as folded ends the tag.
    fn tag_end_spec(folded: &Folded<'_>, token_end: usize, close_bracket: char) -> Option<usize> {
        let mut quote: Option<char> = None;
        let mut i = folded.index_at_byte(token_end);
        while let Some(f) = folded.get(i) {
            let is_ascii_quote = (f.ch == '"' || f.ch == '\'') && f.end - f.start == 1;
            match quote {
                Some(q) if is_ascii_quote && f.ch == q => quote = None,
                Some(_) => {}
                None if is_ascii_quote => quote = Some(f.ch),
                None if f.ch == close_bracket => return Some(f.end),
                None => {}
            }
            i += 1;
        }
        None
    }

    proptest::proptest! {
        #[test]
        fn tag_end_follows_the_specification(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "\"", "'", ">", "\u{203A}", "\u{FF1E}", "\u{FF02}", "\u{FB03}", "\u{200B}",
                "a", "T", " ", "=", "\u{0451}", "\u{3000}",
            ]), 0..24),
            start in 0usize..8,
        ) {
            let text = parts.concat();
            let start = (start.min(text.len())..=text.len())
                .find(|&i| text.is_char_boundary(i))
                .unwrap_or(text.len());
            for reader in Reader::all() {
                let folded = reader.fold(&text);
                proptest::prop_assert_eq!(
                    tag_end(&folded, start, '>'),
                    tag_end_spec(&folded, start, '>')
                );
            }
        }
    }
}
