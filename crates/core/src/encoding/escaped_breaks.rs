//! The `escaped-breaks` body encoding: the content kept on one line by
//! writing each line break as an escape (LF as the two characters `\n`, CR
//! as `\r`) and a tab as `\t`, the backslash doubled so an escape is told
//! from content, and everything else (quotes included) as written. It is
//! what `text.replace("\\", "\\\\").replace("\n", "\\n")` writes, in
//! one-line logs and ReAct-style `Observation:` lines.
//!
//! The encoding only holds the content to its line if **every** break a
//! reader level splits at is escaped, not LF alone: a framing that leaves a
//! CR, VT, FF, NEL, U+2028 or U+2029 raw lets the content start a line at
//! the levels that split there. That is no question for this module: the
//! oracle reads liveness on the text as written, so a label or marker the
//! content starts a line with is the grammar's own finding
//! (`delimiter.census`) at exactly those levels. What is judged here is
//! fidelity: a body decodes to the content.
//!
//! Writing escapes every break of [`UNICODE_LINE_BREAKS`]; those without a
//! letter escape of their own as `\u` and four hex digits, as JSON writes
//! them. Reading back also takes the spellings other writers use for a
//! break or a tab (`\v`, `\f`), a code point's escape for any character
//! (`\xNN`, `\uNNNN`, a UTF-16 pair of them, `\UNNNNNNNN`: Python's
//! `unicode_escape` writes every non-ASCII character so), and `\|`, the
//! bar a Markdown table cell escapes the same way (grammar `table-cell`:
//! its writer doubles the backslash, escapes each break and writes `|` as
//! `\|`, and a reader of the table reads a bar there). An escape that reads
//! back exactly is no finding, whatever the writer chose to escape
//! ([`super::faithful`], the one rule). A backslash before anything else
//! is kept as written, with what follows it: a framing that does not
//! double backslashes writes `C:\q` as it is, a reader sees it as it is,
//! and only content whose backslash reads as an escape (`\rangle`,
//! `caf\u00e9`) comes back changed, which is the fidelity finding.
//!
//! ```
//! use framecheck_core::encoding::{decode, encode};
//! use framecheck_core::profile::BodyEncoding::EscapedBreaks;
//!
//! let body = encode(EscapedBreaks, "a \"b\"\nc\\d\u{2028}e", "");
//! assert_eq!(body, r#"a "b"\nc\\d\u2028e"#);
//! assert_eq!(decode(EscapedBreaks, &body, "").unwrap(), "a \"b\"\nc\\d\u{2028}e");
//! assert_eq!(decode(EscapedBreaks, r"C:\q\x0b", "").unwrap(), "C:\\q\u{0B}");
//! ```

use std::borrow::Cow;

use super::codec::{Codec, Experiment, Reading, Spelling, Twin};
use super::declared::DatamarkReplaces;
use super::{Datamark, DecodeError};
use crate::reader::UNICODE_LINE_BREAKS;

/// The `escaped-breaks` codec.
pub(super) struct EscapedBreaksCodec;

impl Codec for EscapedBreaksCodec {
    fn name(&self) -> &'static str {
        "escaped-breaks"
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
        // One spelling per content and no marker: the learner's search
        // can find it where a profile leaves the encoding undeclared.
        true
    }

    fn spelling(&self) -> Spelling {
        // Calibration's probe holds an LF and no other break, which every
        // writer spells `\n`.
        Spelling::Exact
    }

    fn experiment(&self) -> Option<Experiment> {
        Some(read_escaped_breaks)
    }

    fn model_may_decode(&self) -> bool {
        false
    }

    fn catalogue_twin(&self) -> Option<Twin> {
        // The catalogue's line-break cases (a lone CR, U+2028, NEL, VT and
        // FF before the closer) are every grammar's already.
        None
    }
}

/// Whether `framed` holds the multi-line probe `content` on one line, its
/// line break written as the two characters `\n` and the rest (its quotes)
/// as written: a JSON string would have escaped the quotes, and a framing
/// that keeps the break raw holds no `\n`.
fn read_escaped_breaks(framed: &str, content: &str) -> Option<Reading> {
    if !content.contains('\n') || content.contains('\\') {
        return None;
    }
    if !framed.contains(&content.replace('\n', "\\n")) {
        return None;
    }
    Some(Reading {
        marker: None,
        replaces: DatamarkReplaces::Spaces,
        head_suffix: None,
        note: "body: escaped-breaks, because the probe's line break came back as the two \
               characters `\\n` and its quotes as written; a line break the framing leaves \
               raw (CR, VT, FF, NEL, U+2028, U+2029) lets the content start a line \
               (check delimiter.census), and a backslash it does not double reads back \
               as an escape (check fidelity)"
            .to_string(),
    })
}

/// `content` with every line break, tab and backslash escaped.
fn encode(content: &str) -> String {
    let mut out = String::with_capacity(content.len() + 8);
    for c in content.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if UNICODE_LINE_BREAKS.contains(&c) => {
                out.push_str(&format!("\\u{:04x}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
    out
}

/// The character the escape at the start of `rest` (just after a
/// backslash) stands for, and how many bytes of `rest` it takes; `None`
/// when it is no escape this encoding reads.
fn escape_at(rest: &str) -> Option<(char, usize)> {
    let letter = |c: char| Some((c, 1));
    match rest.chars().next()? {
        '\\' => letter('\\'),
        'n' => letter('\n'),
        'r' => letter('\r'),
        't' => letter('\t'),
        'v' => letter('\u{0B}'),
        'f' => letter('\u{0C}'),
        // A table cell's writer's escape; content's own `\|` from a writer
        // that does not double backslashes comes back as `|`, a fidelity
        // finding like its `\n`.
        '|' => letter('|'),
        'x' => code_point(rest, 2),
        'u' => code_point(rest, 4).or_else(|| surrogate_pair(rest)),
        'U' => code_point(rest, 8),
        _ => None,
    }
}

/// The hex code of `digits` digits after the escape's letter in `rest`.
fn hex_code(rest: &str, digits: usize) -> Option<u32> {
    let code = rest.get(1..1 + digits)?;
    if !code.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(code, 16).ok()
}

/// The character a `\x`, `\u` or `\U` escape of `digits` hex digits
/// spells, and its length after the backslash.
pub(super) fn code_point(rest: &str, digits: usize) -> Option<(char, usize)> {
    Some((char::from_u32(hex_code(rest, digits)?)?, 1 + digits))
}

/// A UTF-16 surrogate pair written as two `\u` escapes (`\ud83d\ude00`,
/// as JSON and JavaScript write a character past U+FFFF); a lone
/// surrogate is no character and stays as written.
pub(super) fn surrogate_pair(rest: &str) -> Option<(char, usize)> {
    let high = hex_code(rest, 4).filter(|h| (0xD800..0xDC00).contains(h))?;
    let low = hex_code(rest.get(6..)?, 4)
        .filter(|l| (0xDC00..0xE000).contains(l) && rest[5..].starts_with('\\'))?;
    let c = char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))?;
    Some((c, 11))
}

/// The content read back from `body`: each escape this encoding reads
/// replaced by its character, every other backslash kept as written.
fn decode(body: &str) -> String {
    decode_with(body, escape_at)
}

/// `body` with each escape `escape_at` reads (given the text after a
/// backslash: the character and the bytes it takes) replaced by its
/// character, every other backslash kept with what follows it. The loop
/// every backslash-escaping codec shares.
pub(super) fn decode_with(body: &str, escape_at: fn(&str) -> Option<(char, usize)>) -> String {
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        match escape_at(after) {
            Some((c, len)) => {
                out.push(c);
                rest = &after[len..];
            }
            None => {
                out.push('\\');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_break_a_reader_splits_at_is_escaped_and_reads_back() {
        let content = "one\ntwo\r\nthree\rfour\u{0B}five\u{0C}six\u{85}seven\u{2028}eight\
                       \u{2029}nine\u{1C}ten\tC:\\temp \"quoted\" 'too' é";
        let body = encode(content);
        assert!(
            !body.chars().any(|c| UNICODE_LINE_BREAKS.contains(&c)),
            "{body:?}"
        );
        assert!(body.contains(r#"\tC:\\temp "quoted" 'too' é"#), "{body:?}");
        assert!(
            body.contains(r"one\ntwo\r\nthree\rfour\u000bfive"),
            "{body:?}"
        );
        assert_eq!(decode(&body), content);
    }

    #[test]
    fn other_writers_spellings_of_a_break_read_back() {
        assert_eq!(
            decode(r"a\vb\fc\x85d\u2029e\x0a"),
            "a\u{0B}b\u{0C}c\u{85}d\u{2029}e\n"
        );
        assert_eq!(decode(r"\u000D\u005c"), "\r\\");
        // A table cell's writer escapes the bar too.
        assert_eq!(decode(r"a \| b\\\|c\n"), "a | b\\|c\n");
    }

    #[test]
    fn a_backslash_before_anything_else_is_kept_as_written() {
        // A framing that does not double backslashes: what reads as no
        // escape comes back as it is, what reads as one does not.
        assert_eq!(decode(r"C:\q \ at the end \"), r"C:\q \ at the end \");
        assert_eq!(decode(r"\rangle"), "\rangle");
        // An escape too short for its letter is text.
        assert_eq!(
            decode(r"caf\u0e9 \x4 \u20 \ud83d"),
            r"caf\u0e9 \x4 \u20 \ud83d"
        );
        // A doubled backslash is one, so the escape after it is not read.
        assert_eq!(decode(r"\\n"), r"\n");
    }

    #[test]
    fn a_code_points_escape_reads_back_as_its_character() {
        // Python's `unicode_escape`: every non-ASCII character escaped.
        let content = "caf\u{e9} \u{4f1a}\u{1F600}\nA";
        let python = r"caf\xe9 \u4f1a\U0001f600\nA";
        assert_eq!(decode(python), content);
        // JSON's spelling of the same, a pair for the emoji.
        assert_eq!(decode(r"caf\u00e9 \u4f1a\ud83d\ude00\n\x41"), content);
    }

    #[test]
    fn the_experiment_reads_an_escaped_break_only() {
        let probe = "fcbodya1 He said \"ok\" & <i>left</i> it's\nnext line fcbodyz1";
        let escaped = format!("Observation: {}\nThought:", encode(probe));
        assert!(read_escaped_breaks(&escaped, probe).is_some());
        // The break raw, or the quotes escaped too (a JSON string): no.
        let raw = format!("Observation: {probe}\nThought:");
        assert_eq!(read_escaped_breaks(&raw, probe), None);
        let json = serde_json::to_string(probe).unwrap();
        let json = format!("Observation: {}\nThought:", &json[1..json.len() - 1]);
        assert_eq!(read_escaped_breaks(&json, probe), None);
    }
}
