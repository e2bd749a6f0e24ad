//! The `python-literal` body encoding: content written as a Python `str`
//! literal the way CPython's `repr()` writes it, and read back as Python's
//! own tokenizer reads a one-line string literal (`ast.literal_eval`).
//!
//! `repr` chooses its quote per content: `'`, unless the text holds a `'`
//! and no `"`. The chosen quote is the literal's closer, so it is the one
//! character content must never leave unescaped; a body that is not a valid
//! literal does not decode, and is judged as any undecodable body is.
//!
//! ```
//! use framecheck_core::encoding::{decode, encode};
//! use framecheck_core::profile::BodyEncoding::PythonLiteral;
//!
//! assert_eq!(encode(PythonLiteral, "it's", ""), r#""it's""#);
//! assert_eq!(encode(PythonLiteral, "a\n\u{2028}", ""), r"'a\n\u2028'");
//! assert_eq!(decode(PythonLiteral, r"'caf\xe9 \d'", "").unwrap(), "café \\d");
//! assert!(decode(PythonLiteral, "'it's'", "").is_err());
//! ```
//!
//! Which non-ASCII characters `repr` escapes follows the general categories
//! of `unicode-general-category` (Unicode 16): a CPython built on an older
//! Unicode escapes the characters assigned since as unassigned. Decoding
//! does not depend on it: any spelling a Python reader accepts decodes.

use unicode_general_category::{get_general_category, GeneralCategory};

/// Why a body is not a Python string literal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LiteralError {
    /// The body does not start and end with the same quote.
    #[error("it is not enclosed in one pair of quotes")]
    Unquoted,
    /// The literal's own quote appears unescaped inside it.
    #[error("its quote {quote} appears unescaped at byte {at}")]
    BareQuote {
        /// The literal's quote character.
        quote: char,
        /// Byte offset in the body.
        at: usize,
    },
    /// A line break a one-line literal cannot hold.
    #[error("a line break at byte {at} ends the literal")]
    LineBreak {
        /// Byte offset in the body.
        at: usize,
    },
    /// A NUL byte, which Python source cannot hold.
    #[error("a NUL character at byte {at}")]
    Nul {
        /// Byte offset in the body.
        at: usize,
    },
    /// An escape Python refuses (a short `\x`, a code point out of range).
    #[error("the escape at byte {at} is not valid")]
    BadEscape {
        /// Byte offset in the body.
        at: usize,
    },
    /// A `\N{name}` escape: reading it needs the Unicode name table, which
    /// framecheck does not carry, so the body is not claimed decodable.
    #[error("the named escape at byte {at} is not read")]
    NamedEscape {
        /// Byte offset in the body.
        at: usize,
    },
}

/// `content` as `repr(content)` writes it, quotes included.
pub fn encode(content: &str) -> String {
    let quote = if content.contains('\'') && !content.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(content.len() + 2);
    out.push(quote);
    for c in content.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c < ' ' || c == '\u{7f}' => push_hex(&mut out, c),
            c if c.is_ascii() || printable(c) => out.push(c),
            c => push_hex(&mut out, c),
        }
    }
    out.push(quote);
    out
}

/// `\xNN`, `\uNNNN` or `\UNNNNNNNN`, the shortest that holds `c`, as
/// `repr` writes a character it does not print.
fn push_hex(out: &mut String, c: char) {
    let code = u32::from(c);
    let escaped = match code {
        0..=0xff => format!("\\x{code:02x}"),
        0x100..=0xffff => format!("\\u{code:04x}"),
        _ => format!("\\U{code:08x}"),
    };
    out.push_str(&escaped);
}

/// Whether CPython's `str.isprintable` holds for a non-ASCII character:
/// every category but the "Other" and "Separator" ones (the ASCII space is
/// the one printable separator, and is ASCII).
fn printable(c: char) -> bool {
    use GeneralCategory as G;
    !matches!(
        get_general_category(c),
        G::Control
            | G::Format
            | G::Surrogate
            | G::PrivateUse
            | G::Unassigned
            | G::LineSeparator
            | G::ParagraphSeparator
            | G::SpaceSeparator
    )
}

/// The string a one-line Python `str` literal denotes, as Python reads it:
/// either quote, every escape Python knows, an unknown escape kept with its
/// backslash, a backslash before a line break continuing the line.
pub fn decode(body: &str) -> Result<String, LiteralError> {
    let quote = body.chars().next().filter(|&q| q == '\'' || q == '"');
    let Some(quote) = quote.filter(|&q| body.len() >= 2 && body.ends_with(q)) else {
        return Err(LiteralError::Unquoted);
    };
    let inner = &body[1..body.len() - 1];
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let at = i + 1;
        match c {
            '\\' => match chars.next() {
                Some((_, e)) => escape(e, at, &mut chars, &mut out)?,
                // The backslash escapes the closing quote: unterminated.
                None => return Err(LiteralError::BareQuote { quote, at: at + 1 }),
            },
            c if c == quote => return Err(LiteralError::BareQuote { quote, at }),
            '\n' | '\r' => return Err(LiteralError::LineBreak { at }),
            '\0' => return Err(LiteralError::Nul { at }),
            c => out.push(c),
        }
    }
    Ok(out)
}

/// The characters after a backslash.
type Rest<'a> = std::iter::Peekable<std::str::CharIndices<'a>>;

/// Reads the escape whose letter is `e` (the backslash at byte `at`).
fn escape(e: char, at: usize, rest: &mut Rest<'_>, out: &mut String) -> Result<(), LiteralError> {
    let simple = match e {
        '\\' | '\'' | '"' => Some(e),
        'a' => Some('\u{7}'),
        'b' => Some('\u{8}'),
        'f' => Some('\u{c}'),
        'n' => Some('\n'),
        'r' => Some('\r'),
        't' => Some('\t'),
        'v' => Some('\u{b}'),
        _ => None,
    };
    if let Some(c) = simple {
        out.push(c);
        return Ok(());
    }
    let bad = LiteralError::BadEscape { at };
    match e {
        // A line continuation: the backslash and the line break vanish.
        '\n' => {}
        '\r' => {
            rest.next_if(|&(_, c)| c == '\n');
        }
        '0'..='7' => {
            let mut code = e.to_digit(8).unwrap_or(0);
            for _ in 0..2 {
                match rest.next_if(|&(_, c)| c.is_digit(8)) {
                    Some((_, d)) => code = code * 8 + d.to_digit(8).unwrap_or(0),
                    None => break,
                }
            }
            out.push(char::from_u32(code).ok_or(bad)?);
        }
        'x' | 'u' | 'U' => {
            let digits = match e {
                'x' => 2,
                'u' => 4,
                _ => 8,
            };
            let mut code = 0u32;
            for _ in 0..digits {
                let (_, d) = rest
                    .next_if(|&(_, c)| c.is_ascii_hexdigit())
                    .ok_or(bad.clone())?;
                code = code * 16 + d.to_digit(16).unwrap_or(0);
            }
            // A surrogate is a Python `str` but no Rust one: not decodable.
            out.push(char::from_u32(code).ok_or(bad)?);
        }
        'N' if rest.peek().is_some_and(|&(_, c)| c == '{') => {
            return Err(LiteralError::NamedEscape { at })
        }
        'N' => return Err(bad),
        // Python keeps an unknown escape as written (with a warning).
        other => {
            out.push('\\');
            out.push(other);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repr_picks_its_quote_as_cpython_does() {
        assert_eq!(encode(""), "''");
        assert_eq!(encode("plain"), "'plain'");
        assert_eq!(encode("it's"), "\"it's\"");
        assert_eq!(encode("say \"hi\""), "'say \"hi\"'");
        assert_eq!(encode("it's \"x\""), r#"'it\'s "x"'"#);
    }

    #[test]
    fn repr_escapes_as_cpython_does() {
        // Fixed vectors, each checked by hand against CPython 3.11's repr.
        let vectors = [
            ("a\\b", r"'a\\b'"),
            ("\t\n\r", r"'\t\n\r'"),
            ("\u{0}\u{1b}\u{7f}", r"'\x00\x1b\x7f'"),
            ("\u{b}\u{c}", r"'\x0b\x0c'"),
            ("\u{85}\u{a0}\u{ad}", r"'\x85\xa0\xad'"),
            ("é\u{301}ß", "'é\u{301}ß'"),
            (
                "\u{200b}\u{2028}\u{2029}\u{feff}",
                r"'\u200b\u2028\u2029\ufeff'",
            ),
            ("\u{3000}\u{e000}", r"'\u3000\ue000'"),
            (
                "\u{1f600}\u{e0041}\u{10ffff}",
                "'\u{1f600}\\U000e0041\\U0010ffff'",
            ),
            ("<tag> & 'q'", "\"<tag> & 'q'\""),
        ];
        for (content, want) in vectors {
            assert_eq!(encode(content), want, "{content:?}");
            assert_eq!(decode(want).unwrap(), content, "{want}");
        }
    }

    #[test]
    fn any_spelling_python_reads_decodes() {
        let vectors = [
            (r#""say \"hi\"""#, "say \"hi\""),
            (r#"'\a\b\f\v\'\"'"#, "\u{7}\u{8}\u{c}\u{b}'\""),
            (r"'\101\0\7777'", "A\u{0}\u{1ff}7"),
            (r"'\u00e9\U0001F600\xE9'", "é\u{1f600}é"),
            (r"'\d \w \%'", "\\d \\w \\%"),
            ("'a\\\nb'", "ab"),
            ("'a\\\r\nb'", "ab"),
        ];
        for (body, want) in vectors {
            assert_eq!(decode(body).unwrap(), want, "{body}");
        }
    }

    #[test]
    fn what_python_refuses_does_not_decode() {
        let refused = [
            ("plain", LiteralError::Unquoted),
            ("'", LiteralError::Unquoted),
            ("'a\"", LiteralError::Unquoted),
            ("'it's'", LiteralError::BareQuote { quote: '\'', at: 3 }),
            (r"'a\'", LiteralError::BareQuote { quote: '\'', at: 3 }),
            ("'a\nb'", LiteralError::LineBreak { at: 2 }),
            ("'a\rb'", LiteralError::LineBreak { at: 2 }),
            ("'\0'", LiteralError::Nul { at: 1 }),
            (r"'\x4'", LiteralError::BadEscape { at: 1 }),
            (r"'\ud800'", LiteralError::BadEscape { at: 1 }),
            (r"'\U00110000'", LiteralError::BadEscape { at: 1 }),
            (r"'\N{BULLET}'", LiteralError::NamedEscape { at: 1 }),
            (r"'\N'", LiteralError::BadEscape { at: 1 }),
        ];
        for (body, want) in refused {
            assert_eq!(decode(body), Err(want), "{body:?}");
        }
    }
}

/// The encoding checked against CPython itself: `python3` writes `repr` of
/// a generated set of strings and reads a generated set of literals, and
/// both must agree with this module. Without `python3` the tests print
/// SKIP, and fail when `CI` is set.
#[cfg(test)]
mod against_cpython {
    use super::*;

    fn python(script: &str, input: &serde_json::Value) -> Option<serde_json::Value> {
        crate::pyliteral::run_python(script, input)
    }

    /// Every character up to U+2FFF, the specials and a few astral blocks
    /// one by one, and each short mix of quotes, backslash and letters.
    fn strings() -> Vec<String> {
        let ranges = [
            0..0x3000,
            0xfe00..0x10000,
            0x1f000..0x1f700,
            0xe0000..0xe0100,
            0xf0000..0xf0010,
            0x10fff0..0x110000,
        ];
        let mut all: Vec<String> = ranges
            .into_iter()
            .flatten()
            .filter_map(char::from_u32)
            .map(String::from)
            .collect();
        let pieces = ["'", "\"", "\\", "a", "\n", "\u{2028}"];
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    all.push(format!("{a}{b}{c}"));
                }
            }
        }
        all
    }

    #[test]
    fn repr_agrees_with_cpython() {
        // Each string's repr, and whether CPython's Unicode leaves one of
        // its characters unassigned (a version difference, not a rule).
        let script = "import json,sys,unicodedata as u\n\
            xs=json.load(sys.stdin)\n\
            json.dump([[repr(s),any(u.category(c)=='Cn' for c in s)] for s in xs],sys.stdout)";
        let strings = strings();
        let Some(answers) = python(script, &serde_json::json!(strings)) else {
            return;
        };
        let mut version_gaps = 0;
        for (s, answer) in strings.iter().zip(answers.as_array().unwrap()) {
            let (want, unassigned) = (answer[0].as_str().unwrap(), answer[1].as_bool().unwrap());
            let ours = encode(s);
            if unassigned && ours != want {
                version_gaps += 1;
                continue;
            }
            assert_eq!(ours, want, "repr of {s:?}");
        }
        // Unicode 16 assigned far fewer characters in these blocks than this.
        assert!(
            version_gaps < 400,
            "{version_gaps} characters differ by version"
        );
    }

    #[test]
    fn decoding_agrees_with_cpython() {
        // A literal counts when it is one string token (no implicit
        // concatenation) that evaluates to a string UTF-8 can hold (a lone
        // surrogate is a Python `str`, no Rust one); its value, or null.
        let script = "import json,sys,io,ast,tokenize,warnings\n\
            warnings.simplefilter('ignore')\n\
            def read(b):\n\
            \x20try:\n\
            \x20 t=[x for x in tokenize.generate_tokens(io.StringIO(b).readline) if x.type not in (tokenize.NEWLINE,tokenize.NL,tokenize.ENDMARKER)]\n\
            \x20 if len(t)!=1 or t[0].type!=tokenize.STRING or t[0].string!=b: return None\n\
            \x20 v=ast.literal_eval(b)\n\
            \x20 v.encode()\n\
            \x20 return v if isinstance(v,str) else None\n\
            \x20except Exception: return None\n\
            json.dump([read(b) for b in json.load(sys.stdin)],sys.stdout)";
        let pieces = [
            "a",
            "'",
            "\"",
            "\\",
            "\\\\",
            "\\'",
            "\\\"",
            "\\n",
            "\\x4",
            "\\x41",
            "\\xzz",
            "\\u00e9",
            "\\u12",
            "\\N",
            "\\N{",
            "\\U0001f600",
            "\\U00110000",
            "\\ud800",
            "\\101",
            "\\8",
            "\\777",
            "\\q",
            "\n",
            "\r",
            "\\\n",
            "\\\r\n",
            "\\\r",
            "\u{2028}",
            "\u{85}",
            "\t",
            "é",
            "\\a\\b\\f\\v",
        ];
        let mut bodies = Vec::new();
        for quote in ["'", "\""] {
            for a in pieces {
                for b in pieces {
                    bodies.push(format!("{quote}{a}{b}{quote}"));
                }
            }
        }
        let Some(answers) = python(script, &serde_json::json!(bodies)) else {
            return;
        };
        for (body, answer) in bodies.iter().zip(answers.as_array().unwrap()) {
            assert_eq!(decode(body).ok().as_deref(), answer.as_str(), "{body:?}");
        }
    }
}
