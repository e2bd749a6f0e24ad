//! The `line-prefix` body encoding: a prefix (`> `, `| `, four spaces)
//! written at the start of every line of the content, as a mail quote is.
//!
//! A reader takes each line that starts with the prefix as quoted data and
//! a line without it as the framing's own text (an instruction, the next
//! label), so the prefix must follow **every** line break some reader
//! level splits at, not only LF. Writing and reading back here use the
//! widest set of breaks, `str.splitlines()`'s
//! ([`crate::reader::UNICODE_LINE_BREAKS`], CRLF as one break): a framing
//! that prefixes after each of them is faithful, and what it wrote reads
//! back as the content. Whether a line escapes the quote for one reader
//! level is the oracle's question (`oracle::checks::quote`), asked with
//! that level's own breaks.
//!
//! The first line's prefix is the framing's constant text before the body
//! (calibration learns it as such), so the body itself starts with the
//! first line's text, and each later line starts with the prefix. A line
//! left empty may be written as the prefix without its trailing spaces
//! (`>`), as mail clients do.
//!
//! ```
//! use framecheck_core::encoding::line_prefix::{decode, encode};
//!
//! assert_eq!(encode("a\nb\u{2028}c", "> "), "a\n> b\u{2028}> c");
//! assert_eq!(decode("a\n>\n> b", "> "), "a\n\nb");
//! ```

use std::borrow::Cow;

use super::codec::{Codec, Experiment, Reading, Spelling, Twin};
use super::declared::{DatamarkReplaces, MarkerField};
use super::{Datamark, DecodeError};
use crate::reader::UNICODE_LINE_BREAKS;

/// The `line-prefix` codec.
pub(super) struct LinePrefixCodec;

impl Codec for LinePrefixCodec {
    fn name(&self) -> &'static str {
        "line-prefix"
    }

    fn encode(&self, content: &str, mark: Datamark<'_>) -> String {
        encode(content, mark.mark)
    }

    fn decode<'b>(&self, body: &'b str, mark: &str) -> Result<Cow<'b, str>, DecodeError> {
        if mark.is_empty() {
            return Err(DecodeError::NoMark);
        }
        Ok(Cow::Owned(decode(body, mark)))
    }

    fn faithful(&self, body: &str, content: &str, mark: Datamark<'_>) -> bool {
        !mark.mark.is_empty() && decode(body, mark.mark) == content
    }

    fn marker(&self) -> Option<MarkerField> {
        Some(MarkerField::LinePrefix)
    }

    fn tried_undeclared(&self) -> bool {
        // A prefix is any text.
        false
    }

    fn spelling(&self) -> Spelling {
        Spelling::Exact
    }

    fn experiment(&self) -> Option<Experiment> {
        Some(read_line_prefix)
    }

    fn model_may_decode(&self) -> bool {
        false
    }

    fn catalogue_twin(&self) -> Option<Twin> {
        Some(Twin { marker: Some("> ") })
    }

    fn quotes_lines(&self) -> bool {
        true
    }
}

/// The prefix a framing quotes the content with, line by line: the text
/// before the content's first word on its line, when the content's second
/// line comes back after the same text. Only a prefix of spaces and
/// punctuation counts (`> `, `| `, `# `, four spaces): a line that starts
/// with a word (`Content: `) labels the first line, it does not quote. The
/// first line's prefix is no part of the frame's delimiters: the shapes
/// read the text before the content without it (`Email:` alone on its
/// line).
fn read_line_prefix(framed: &str, content: &str) -> Option<Reading> {
    let start = framed.rfind("fcbodya")?;
    let line_start = framed[..start].rfind('\n').map_or(0, |i| i + 1);
    let prefix = &framed[line_start..start];
    let quote_like = |c: char| c == ' ' || c == '\t' || c.is_ascii_punctuation();
    if prefix.is_empty() || prefix.len() > 8 || !prefix.chars().all(quote_like) {
        return None;
    }
    let (_, second) = content.split_once('\n')?;
    let second_word = second.split(' ').next().filter(|w| !w.is_empty())?;
    if !framed[start..].contains(&format!("\n{prefix}{second_word}")) {
        return None;
    }
    Some(Reading {
        marker: Some(prefix.to_string()),
        replaces: DatamarkReplaces::Spaces,
        head_suffix: Some(prefix.to_string()),
        note: format!(
            "body: line-prefix {prefix:?}, because every line of the multi-line probe came \
             back after it; each line a reader splits at (LF, CR, U+2028 and the rest) must \
             carry it (check quote.escape)"
        ),
    })
}

/// The length of the line break at the start of `text`, if one starts
/// there (CRLF is one break).
fn break_at(text: &str) -> Option<usize> {
    let c = text.chars().next()?;
    if !UNICODE_LINE_BREAKS.contains(&c) {
        return None;
    }
    Some(if text.starts_with("\r\n") {
        2
    } else {
        c.len_utf8()
    })
}

/// `content` with `prefix` after every line break.
pub fn encode(content: &str, prefix: &str) -> String {
    let mut out = String::with_capacity(content.len() + prefix.len() * 4);
    let mut rest = content;
    while let Some(c) = rest.chars().next() {
        match break_at(rest) {
            Some(len) => {
                out.push_str(&rest[..len]);
                out.push_str(prefix);
                rest = &rest[len..];
            }
            None => {
                out.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    out
}

/// `body` with the prefix taken off every line after a line break: the
/// whole prefix, or, on a line that holds nothing else, the prefix without
/// its trailing spaces. A line without it is kept as written (so a body a
/// framing left unprefixed somewhere does not decode to the content).
pub fn decode(body: &str, prefix: &str) -> String {
    let bare = prefix.trim_end_matches([' ', '\t']);
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(c) = rest.chars().next() {
        let Some(len) = break_at(rest) else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
            continue;
        };
        out.push_str(&rest[..len]);
        rest = &rest[len..];
        if let Some(after) = rest.strip_prefix(prefix) {
            rest = after;
        } else if let Some(after) = rest.strip_prefix(bare) {
            // `>` alone on its line: an empty line of the quote.
            if !bare.is_empty() && (after.is_empty() || break_at(after).is_some()) {
                rest = after;
            }
        }
    }
    out
}

/// Whether `line` (without its break) carries the quote: it starts with
/// `prefix`, or with the prefix without its trailing spaces (`>x`, `>`
/// alone), as a mail reader takes a quoted line. An all-space prefix has
/// no such bare form.
pub fn is_quoted(line: &str, prefix: &str) -> bool {
    let bare = prefix.trim_end_matches([' ', '\t']);
    line.starts_with(prefix) || (!bare.is_empty() && line.starts_with(bare))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_break_splitlines_knows_gets_the_prefix_and_reads_back() {
        let content = "one\ntwo\r\nthree\rfour\u{0B}five\u{0C}six\u{85}seven\u{2028}eight\u{2029}nine\u{1C}ten";
        let body = encode(content, "| ");
        assert_eq!(body.matches("| ").count(), 9, "{body:?}");
        assert!(
            body.contains("two\r\n| three"),
            "CRLF is one break: {body:?}"
        );
        assert_eq!(decode(&body, "| "), content);
    }

    #[test]
    fn an_unprefixed_line_does_not_read_back_as_the_content() {
        // Prefixed after LF only: the U+2028 line keeps no prefix, and
        // nothing is taken off it.
        assert_eq!(decode("a\u{2028}b\n> c", "> "), "a\u{2028}b\nc");
        // Without the prefix a line is kept as written, so a body missing
        // one is told from the content by `faithful`.
        assert_eq!(decode("a\nb", "> "), "a\nb");
    }

    #[test]
    fn an_empty_line_may_be_the_bare_prefix() {
        assert_eq!(decode("a\n>\n> b", "> "), "a\n\nb");
        assert_eq!(decode("a\n>", "> "), "a\n");
        // `>x` is a quoted line whose text is `>x`: only an empty line may
        // lose the prefix's space.
        assert_eq!(decode("a\n>x", "> "), "a\n>x");
        assert!(is_quoted(">", "> ") && is_quoted("> x", "> ") && is_quoted(">x", "> "));
        assert!(!is_quoted("x", "> ") && !is_quoted(" > x", "> "));
        // An all-space prefix has no bare form: an empty line is unquoted.
        assert!(!is_quoted("", "    "));
        assert_eq!(decode("a\n\n    b", "    "), "a\n\nb");
    }
}
