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
//! line break is text as written; `double-quote-doubled` is the same for
//! `"` (a CSV field, RFC 4180, where a line break inside the quotes is
//! text too). Encoding `template-literal` is a JavaScript template
//! literal's text: a backslash's escapes, and an un-escaped `${` is an
//! interpolation, code that reads back as no text.
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

use super::codec::{Codec, Experiment, Reading, Spelling};
use super::declared::DatamarkReplaces;
use super::escaped_breaks::{code_point, decode_with, surrogate_pair};
use super::{Datamark, DecodeError};
use crate::grammar::string_literal::LiteralMarks;
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
}

/// The quote-doubling codec of quote `Q`: `quote-doubled` for `'` (SQL
/// `'it''s'`), `double-quote-doubled` for `"` (a CSV field, RFC 4180; VB).
pub(super) struct QuoteDoubledCodec<const Q: char>;

impl<const Q: char> QuoteDoubledCodec<Q> {
    /// The quote, and the two that write one quote of text.
    fn quotes() -> (String, String) {
        (Q.to_string(), Q.to_string().repeat(2))
    }
}

impl<const Q: char> Codec for QuoteDoubledCodec<Q> {
    fn name(&self) -> &'static str {
        if Q == '"' {
            "double-quote-doubled"
        } else {
            "quote-doubled"
        }
    }

    fn encode(&self, content: &str, _mark: Datamark<'_>) -> String {
        let (one, two) = Self::quotes();
        content.replace(&one, &two)
    }

    fn decode<'b>(&self, body: &'b str, _mark: &str) -> Result<Cow<'b, str>, DecodeError> {
        let (one, two) = Self::quotes();
        if !body.contains(&two) {
            return Ok(Cow::Borrowed(body));
        }
        Ok(Cow::Owned(body.replace(&two, &one)))
    }

    fn faithful(&self, body: &str, content: &str, _mark: Datamark<'_>) -> bool {
        let (one, two) = Self::quotes();
        body.replace(&two, &one) == content
    }

    fn tried_undeclared(&self) -> bool {
        // Any body with a doubled quote would read so: only a profile, or
        // `init`'s reading of a literal around the content, declares it.
        false
    }

    fn spelling(&self) -> Spelling {
        Spelling::Loose {
            quotes: &[],
            nests_unquoted: false,
        }
    }

    fn experiment(&self) -> Option<Experiment> {
        Some(|framed, content| read_quote_doubled(framed, content, Q))
    }

    fn model_may_decode(&self) -> bool {
        false
    }
}

/// `init`'s experiment for a quote-doubling codec: a literal of quote `q`
/// around the content ([`literal_marks`]) that came back with the
/// content's `q` doubled ([`reads_doubled`]).
fn read_quote_doubled(framed: &str, content: &str, q: char) -> Option<Reading> {
    let (one, two) = (q.to_string(), q.to_string().repeat(2));
    let start = framed.find(&content.replace(&one, &two))?;
    let end = start + content.len() + content.matches(q).count();
    let marks = literal_marks(&framed[..start], &framed[end..])?;
    if marks.quote != one || !reads_doubled(&marks, framed, content) {
        return None;
    }
    Some(Reading {
        marker: None,
        replaces: DatamarkReplaces::Spaces,
        head_suffix: None,
        note: format!(
            "body: quote doubled, because the content came back inside the quoted string \
             literal {:?} … {:?} with each `{q}` of it doubled",
            marks.open, marks.quote,
        ),
    })
}

/// The `template-literal` codec: the text of a JavaScript template literal
/// (`` `…` ``), which reads a backslash's escapes as a string literal does
/// and `` \` `` and `\$` too, and where an un-escaped `${` starts an
/// interpolation: code, not text, so such a body reads back as no text.
pub(super) struct TemplateLiteralCodec;

impl Codec for TemplateLiteralCodec {
    fn name(&self) -> &'static str {
        "template-literal"
    }

    fn encode(&self, content: &str, _mark: Datamark<'_>) -> String {
        // `encode` doubles every backslash first, so these are the only
        // backslashes before a backtick or a `${`.
        encode(content).replace('`', "\\`").replace("${", "\\${")
    }

    fn decode<'b>(&self, body: &'b str, _mark: &str) -> Result<Cow<'b, str>, DecodeError> {
        if interpolates(body) {
            return Err(DecodeError::Interpolation);
        }
        Ok(Cow::Owned(decode_with(body, template_escape)))
    }

    fn faithful(&self, body: &str, content: &str, _mark: Datamark<'_>) -> bool {
        !interpolates(body) && decode_with(body, template_escape) == content
    }

    fn tried_undeclared(&self) -> bool {
        // As `string-literal`: only a backtick literal around the content
        // declares it.
        false
    }

    fn spelling(&self) -> Spelling {
        Spelling::Loose {
            quotes: &[],
            nests_unquoted: false,
        }
    }

    fn experiment(&self) -> Option<Experiment> {
        Some(read_template_literal)
    }

    fn model_may_decode(&self) -> bool {
        false
    }
}

/// Whether `body` holds a `${` no backslash escapes: an odd run of
/// backslashes before the `$` escapes it, an even one is escaped
/// backslashes.
fn interpolates(body: &str) -> bool {
    body.match_indices("${").any(|(at, _)| {
        let run = body[..at].bytes().rev().take_while(|&b| b == b'\\').count();
        run % 2 == 0
    })
}

/// A template literal's escape at the start of `after`: a backtick or a
/// dollar sign as itself, a code point in braces (`\u{1f600}`, as
/// JavaScript writes one past four digits), else a string literal's
/// ([`escape`]).
fn template_escape(after: &str) -> Option<(char, usize)> {
    if let Some(braced) = after.strip_prefix("u{") {
        let digits = braced.split('}').next()?;
        let c = u32::from_str_radix(digits, 16)
            .ok()
            .and_then(char::from_u32);
        let closed = braced.len() > digits.len() && (1..=6).contains(&digits.len());
        return c.filter(|_| closed).map(|c| (c, digits.len() + 3));
    }
    match after.chars().next()? {
        c @ ('`' | '$') => Some((c, 1)),
        _ => escape(after),
    }
}

/// `init`'s experiment for `template-literal`: a backtick literal around
/// the content ([`literal_marks`]).
fn read_template_literal(framed: &str, content: &str) -> Option<Reading> {
    let (marks, _) = words_around(framed, content)?;
    if marks.quote != "`" {
        return None;
    }
    Some(Reading {
        marker: None,
        replaces: DatamarkReplaces::Spaces,
        head_suffix: None,
        note: format!(
            "body: template-literal, because the content came back inside the template \
             literal {:?} … {:?}, which a backslash escapes and where `${{` interpolates",
            marks.open, marks.quote,
        ),
    })
}

/// The literal around the calibration content in `framed`, found by the
/// content's first and last words (the text between is written escaped),
/// and the body between them.
fn words_around<'a>(framed: &'a str, content: &str) -> Option<(LiteralMarks<'a>, &'a str)> {
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
    Some((marks, &framed[start..end + last.len()]))
}

/// `init`'s experiment: a literal around the content ([`literal_marks`])
/// that reads backslashes ([`reads_backslashes`]) holds the body in this
/// encoding; the note says how the calibration content's quotes and line
/// break were written.
fn read_string_literal(framed: &str, content: &str) -> Option<Reading> {
    let (marks, body) = words_around(framed, content)?;
    // A template literal reads `${` too: `template-literal` declares it.
    // A literal that doubles its quote is a quote-doubling body's; one
    // whose writer left the content's quote raw escapes nothing of it (a
    // triple quote may hold one raw, so only a single quote tells).
    let q = marks.quote;
    let left_raw = q.len() == 1 && content.contains(q) && !body.contains(&format!("\\{q}"));
    if q == "`"
        || left_raw
        || reads_doubled(&marks, framed, content)
        || !reads_backslashes(&marks, framed)
    {
        return None;
    }
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
    fn a_template_literal_reads_its_escapes_and_refuses_an_interpolation() {
        let codec = TemplateLiteralCodec;
        let body = r"a \` \${x} \\ \u{1f600} \u00e9 \n";
        assert_eq!(
            codec.decode(body, "").unwrap(),
            "a ` ${x} \\ \u{1F600} é \n"
        );
        // A raw `${`, also after an escaped backslash, is code.
        for raw in ["a ${x}", r"a \\${x}"] {
            assert_eq!(
                codec.decode(raw, ""),
                Err(DecodeError::Interpolation),
                "{raw}"
            );
        }
        let text = "`${x}` \\${y} \u{1} é";
        let written = codec.encode(text, Datamark::from(""));
        assert!(
            codec.faithful(&written, text, Datamark::from("")),
            "{written}"
        );
        // A backtick literal is a template's body, not a string literal's.
        let content = "fcbodya1 said \"ok\" fcbodyz1";
        let js = "const page = `fcbodya1 said \"ok\" fcbodyz1`;";
        assert!(read_template_literal(js, content).is_some());
        assert_eq!(read_string_literal(js, content), None);
    }

    #[test]
    fn a_double_quote_doubled_reads_as_one_and_crlf_is_text() {
        let codec = QuoteDoubledCodec::<'"'>;
        let body = "say \"\"hi\"\"\r\nnext '' \\";
        assert_eq!(codec.decode(body, "").unwrap(), "say \"hi\"\r\nnext '' \\");
        let content = "fcbodya1 He said \"ok\" it's\nnext fcbodyz1";
        let csv =
            "\"a\",\"b\"\r\n\"web\",\"fcbodya1 He said \"\"ok\"\" it's\nnext fcbodyz1\",\"x\"\r\n";
        assert!(read_quote_doubled(csv, content, '"').is_some());
        assert_eq!(read_quote_doubled(csv, content, '\''), None);
        // Doubled, not a backslash literal: the note is quote-doubling's
        // alone; a quote left raw is no backslash literal's either.
        assert_eq!(read_string_literal(csv, content), None);
        let raw = csv.replace("\"\"ok\"\"", "\"ok\"");
        assert_eq!(read_string_literal(&raw, content), None);
    }

    #[test]
    fn a_doubled_quote_reads_as_one_and_a_backslash_as_itself() {
        let codec = QuoteDoubledCodec::<'\''>;
        let body = r"it''s \n \' ''''";
        assert_eq!(codec.decode(body, "").unwrap(), r"it's \n \' ''");
        let content = "fcbodya1 it's \"ok\"\nnext fcbodyz1";
        let sql = "UPDATE n SET body = 'fcbodya1 it''s \"ok\"\nnext fcbodyz1' WHERE id = 1;";
        assert!(read_quote_doubled(sql, content, '\'').is_some());
        // A backslash-escaped quote is no doubled literal.
        let mysql = "UPDATE n SET body = 'fcbodya1 it\\'s \"ok\"\nnext fcbodyz1' WHERE id = 1;";
        assert_eq!(read_quote_doubled(mysql, content, '\''), None);
    }
}
