//! The `string-literal` body encoding: the content as the text of a quoted
//! string literal of some host syntax that a backslash escapes (a TOML
//! basic string, an S-expression, C, a Lisp or EDN form), between the
//! literal's quotes, which are the frame's own (grammar `string-literal`).
//!
//! Reading back takes the escapes those syntaxes share: `\"`, `\'`, `\\`,
//! `\/`, the letter escapes (`\n`, `\r`, `\t`, `\b`, `\f`, `\v`, `\a`,
//! `\e`, `\0`), `\xHH`, `\uXXXX` (a UTF-16 pair joined) and `\UXXXXXXXX`,
//! so a TOML writer's `\U0001F600` reads as the emoji JSON cannot spell
//! that way. A character written raw stands for itself (an S-expression
//! keeps line breaks raw), and a backslash before anything else is kept
//! with what follows it, as a reader that knows no such escape shows it.
//! Whether a quote of the content ends the string early is no question for
//! this module: the grammar reads the literal's quotes on the text as
//! written (`delimiter.census`); what is judged here is fidelity.
//!
//! Encoding `quote-doubled` is the text of a single-quoted literal that
//! doubles its quote instead (SQL `'it''s'`, a YAML single-quoted scalar,
//! grammar `escape: doubled`): `''` reads as one `'`, and a backslash or a
//! line break is text as written.
//!
//! `init`'s experiment here declares the body where the grammar's reading
//! of a literal around the content (`crate::grammar::string_literal`'s
//! `literal_marks`: the quote that ends an assignment or a form, and the
//! same quote after the content) finds one that reads backslashes.
//!
//! ```
//! use framecheck_core::encoding::decode;
//! use framecheck_core::profile::BodyEncoding::StringLiteral;
//!
//! let body = r#"a \"b\"\nc\\d \U0001F600 \u00e9 raw
//! line"#;
//! assert_eq!(decode(StringLiteral, body, "").unwrap(), "a \"b\"\nc\\d \u{1F600} é raw\nline");
//! ```

use std::borrow::Cow;

use super::codec::{Codec, Experiment, Reading, Spelling, Twin};
use super::declared::{DatamarkReplaces, MarkerField};
use super::escaped_breaks::{code_point, decode_with, surrogate_pair};
use super::{Datamark, DecodeError};
use crate::grammar::string_literal::{literal_marks, reads_backslashes, reads_doubled};

/// The `string-literal` codec.
pub(super) struct StringLiteralCodec;

impl Codec for StringLiteralCodec {
    fn name(&self) -> &'static str {
        "string-literal"
    }

    fn encode(&self, content: &str, _mark: Datamark<'_>) -> String {
        encode(content)
    }

    fn decode<'b>(&self, body: &'b str, _mark: &str) -> Result<Cow<'b, str>, DecodeError> {
        if !body.contains('\\') {
            return Ok(Cow::Borrowed(body));
        }
        Ok(Cow::Owned(decode(body)))
    }

    fn faithful(&self, body: &str, content: &str, _mark: Datamark<'_>) -> bool {
        decode(body) == content
    }

    fn marker(&self) -> Option<MarkerField> {
        None
    }

    fn tried_undeclared(&self) -> bool {
        // A backslash reading of any body would take every escape-like
        // text for an escape: only a profile, or `init`'s reading of a
        // literal around the content, declares it.
        false
    }

    fn spelling(&self) -> Spelling {
        // Writers differ (a raw or an escaped line break, `\u` or `\U`);
        // the quotes are the frame's, not the body's.
        Spelling::Loose {
            quotes: &[],
            nests_unquoted: false,
        }
    }

    fn experiment(&self) -> Option<Experiment> {
        Some(read_string_literal)
    }

    fn model_may_decode(&self) -> bool {
        false
    }

    fn catalogue_twin(&self) -> Option<Twin> {
        None
    }

    fn quotes_lines(&self) -> bool {
        false
    }
}

/// The `quote-doubled` codec.
pub(super) struct QuoteDoubledCodec;

impl Codec for QuoteDoubledCodec {
    fn name(&self) -> &'static str {
        "quote-doubled"
    }

    fn encode(&self, content: &str, _mark: Datamark<'_>) -> String {
        content.replace('\'', "''")
    }

    fn decode<'b>(&self, body: &'b str, _mark: &str) -> Result<Cow<'b, str>, DecodeError> {
        if !body.contains("''") {
            return Ok(Cow::Borrowed(body));
        }
        Ok(Cow::Owned(body.replace("''", "'")))
    }

    fn faithful(&self, body: &str, content: &str, _mark: Datamark<'_>) -> bool {
        body.replace("''", "'") == content
    }

    fn marker(&self) -> Option<MarkerField> {
        None
    }

    fn tried_undeclared(&self) -> bool {
        // Any body with `''` would read so: only a profile, or `init`'s
        // reading of a literal around the content, declares it.
        false
    }

    fn spelling(&self) -> Spelling {
        Spelling::Loose {
            quotes: &[],
            nests_unquoted: false,
        }
    }

    fn experiment(&self) -> Option<Experiment> {
        Some(read_quote_doubled)
    }

    fn model_may_decode(&self) -> bool {
        false
    }

    fn catalogue_twin(&self) -> Option<Twin> {
        None
    }

    fn quotes_lines(&self) -> bool {
        false
    }
}

/// `init`'s experiment for `quote-doubled`: a single-quoted literal around
/// the content ([`literal_marks`]) that came back with the content's `'`
/// doubled ([`reads_doubled`]).
fn read_quote_doubled(framed: &str, content: &str) -> Option<Reading> {
    let start = framed.find(&content.replace('\'', "''"))?;
    let end = start + content.len() + content.matches('\'').count();
    let marks = literal_marks(&framed[..start], &framed[end..])?;
    if marks.quote != "'" || !reads_doubled(&marks, framed, content) {
        return None;
    }
    Some(Reading {
        marker: None,
        replaces: DatamarkReplaces::Spaces,
        head_suffix: None,
        note: format!(
            "body: quote-doubled, because the content came back inside the quoted string \
             literal {:?} … {:?} with each `'` of it doubled",
            marks.open, marks.quote,
        ),
    })
}

/// `init`'s experiment: a literal around the content ([`literal_marks`])
/// that reads backslashes ([`reads_backslashes`]) holds the body in this
/// encoding; the note says how the calibration content's quotes and line
/// break were written.
fn read_string_literal(framed: &str, content: &str) -> Option<Reading> {
    let first = content
        .find(|c: char| !c.is_ascii_alphanumeric())
        .map(|end| &content[..end])
        .filter(|w| !w.is_empty())?;
    let last_start = content
        .rfind(|c: char| !c.is_ascii_alphanumeric())
        .map_or(0, |i| i + 1);
    let last = content.get(last_start..).filter(|w| !w.is_empty())?;
    let start = framed.rfind(first)?;
    let end = start + framed[start..].find(last)?;
    let marks = literal_marks(&framed[..start], &framed[end..])?;
    if !reads_backslashes(&marks, framed) {
        return None;
    }
    let body = &framed[start..end + last.len()];
    Some(Reading {
        marker: None,
        replaces: DatamarkReplaces::Spaces,
        head_suffix: None,
        note: format!(
            "body: string-literal, because the content came back inside the quoted string \
             literal {:?} … {:?}, which a backslash escapes; in calibration {}",
            marks.open,
            marks.quote,
            escapes_seen(body, content),
        ),
    })
}

/// How the calibration body spelled the content's quotes and line breaks:
/// the escapes the framing applied to what the probe held.
fn escapes_seen(body: &str, content: &str) -> String {
    let mut seen = Vec::new();
    for (c, name) in [('"', "`\"`"), ('\'', "`'`"), ('\n', "a line break")] {
        if !content.contains(c) {
            continue;
        }
        let raw = body.contains(c) && !body.contains(&format!("\\{}", escape_letter(c)));
        seen.push(format!(
            "{name} came back {}",
            if raw { "raw" } else { "escaped" }
        ));
    }
    seen.push(
        "a backslash, control characters and non-ASCII were not in the probe (the catalogue's \
         cases judge them)"
            .into(),
    );
    seen.join(", ")
}

/// The character a backslash escape of `c` writes after the backslash.
fn escape_letter(c: char) -> char {
    match c {
        '\n' => 'n',
        other => other,
    }
}

/// `content` with the backslash, both quotes and every control character
/// escaped: what a careful writer of a backslash literal writes.
fn encode(content: &str) -> String {
    let mut out = String::with_capacity(content.len() + 8);
    for c in content.chars() {
        match c {
            '\\' | '"' | '\'' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

/// `body` with every escape the literal syntaxes share read back; a
/// backslash before anything else, or before a code no character has, is
/// kept with what follows it.
fn decode(body: &str) -> String {
    decode_with(body, escape)
}

/// The character the escape at the start of `after` (the text after a
/// backslash) stands for, and how many bytes of `after` it takes: a
/// letter, or a `\x`, `\u` (a UTF-16 pair joined) or `\U` code read as
/// `escaped-breaks` reads it.
fn escape(after: &str) -> Option<(char, usize)> {
    let c = after.chars().next()?;
    let letter = match c {
        '"' | '\'' | '\\' | '/' => c,
        'n' => '\n',
        'r' => '\r',
        't' => '\t',
        'b' => '\u{8}',
        'f' => '\u{c}',
        'v' => '\u{b}',
        'a' => '\u{7}',
        'e' => '\u{1b}',
        '0' => '\0',
        'x' => return code_point(after, 2),
        'u' => return code_point(after, 4).or_else(|| surrogate_pair(after)),
        'U' => return code_point(after, 8),
        _ => return None,
    };
    Some((letter, 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_of_every_common_writer_read_back_and_others_are_kept() {
        let body =
            r#"q\" s\' b\\ s\/ \t\r\b\f\v\a\e\0 \x41 \u00e9 \ud83d\ude00 \U0001F600 \q \u12"#;
        assert_eq!(
            decode(body),
            "q\" s' b\\ s/ \t\r\u{8}\u{c}\u{b}\u{7}\u{1b}\0 A é \u{1F600} \u{1F600} \\q \\u12"
        );
        // A code no character has is kept whole, not cut after its letter.
        assert_eq!(decode(r"\udc00 \UFFFFFFFF"), r"\udc00 \UFFFFFFFF");
        // A raw quote or line break stands for itself.
        assert_eq!(decode("a \"raw\"\nline \\\\"), "a \"raw\"\nline \\");
        let text = "a \"b\" 'c'\n\\ \u{1} é";
        assert_eq!(decode(&encode(text)), text);
    }

    #[test]
    fn the_experiment_declares_a_literal_that_reads_backslashes() {
        let content = "fcbodya1 He said \"ok\"\nnext fcbodyz1";
        let sexpr = "(r (content \"fcbodya1 He said \\\"ok\\\"\nnext fcbodyz1\"))";
        let reading = read_string_literal(sexpr, content).unwrap();
        assert!(
            reading.note.contains("`\"` came back escaped"),
            "{}",
            reading.note
        );
        assert!(reading.note.contains("a line break came back raw"));
        // A TOML literal string leaves its quotes raw and reads none.
        let literal = "content = 'fcbodya1 He said \"ok\"\nnext fcbodyz1'";
        assert_eq!(read_string_literal(literal, content), None);
        let label = "Observation: \"fcbodya1 He said \\\"ok\\\"\\nnext fcbodyz1\"";
        assert_eq!(read_string_literal(label, content), None);
    }

    #[test]
    fn a_doubled_quote_reads_as_one_and_a_backslash_as_itself() {
        let codec = QuoteDoubledCodec;
        let body = r"it''s \n \' ''''";
        assert_eq!(codec.decode(body, "").unwrap(), r"it's \n \' ''");
        let content = "fcbodya1 it's \"ok\"\nnext fcbodyz1";
        let sql = "UPDATE n SET body = 'fcbodya1 it''s \"ok\"\nnext fcbodyz1' WHERE id = 1;";
        assert!(read_quote_doubled(sql, content).is_some());
        // A backslash-escaped quote is no doubled literal.
        let mysql = "UPDATE n SET body = 'fcbodya1 it\\'s \"ok\"\nnext fcbodyz1' WHERE id = 1;";
        assert_eq!(read_quote_doubled(mysql, content), None);
    }
}
