//! A Python literal as `repr()` and `ascii()` write a container (`dict`,
//! `list`, `tuple`), read into the same value tree a JSON document reads
//! into (`serde_json::Value`), so one document reader judges both
//! (grammar `python-document`, `crate::grammar::json_document`).
//!
//! The subset is what those functions write for records of strings,
//! numbers, booleans and `None`, read as `ast.literal_eval` reads it:
//! strings in either quote with every escape ([`super::python::decode`]),
//! adjacent strings joined into one (Python's implicit concatenation, which
//! is how a reader takes a quote that content left live followed by
//! another string), a trailing comma, comments and line breaks between
//! tokens. A tuple reads as a list. What `repr` never writes for such a
//! record (a set, bytes, a raw or triple-quoted string, `inf`, a key that
//! is not a string) is an error naming it and its byte, never a guess.
//!
//! ```
//! use framecheck_core::encoding::python_value::parse;
//!
//! let v = parse(r#"{'url': 'x', "it's": ('a' 'b', -1.5e3, None, True)}"#).unwrap();
//! assert_eq!(v["it's"][0], "ab");
//! assert_eq!(v["it's"][2], serde_json::Value::Null);
//! assert!(parse("{'a': 'b'} extra").is_err());
//! ```

use serde_json::{Map, Number, Value};

use super::python::{decode, LiteralError};

/// How deep containers may nest: deeper input is refused, not recursed.
const MAX_DEPTH: usize = 256;

/// Why a text is not a Python literal of the subset read here.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ValueError {
    /// Something else than what the grammar allows at this place.
    #[error("expected {expected} at byte {at}")]
    Expected {
        /// What could stand there.
        expected: &'static str,
        /// Byte offset in the text.
        at: usize,
    },
    /// A string literal Python would not read.
    #[error("the string at byte {at} of the literal is not valid: {reason}")]
    String {
        /// Byte offset of its opening quote.
        at: usize,
        /// Why.
        reason: LiteralError,
    },
    /// A literal `repr` does not write for a record of strings, numbers,
    /// booleans and `None`.
    #[error("{what} at byte {at}, which this reader does not read")]
    Unsupported {
        /// What was found.
        what: &'static str,
        /// Byte offset in the text.
        at: usize,
    },
    /// Text after the literal.
    #[error("text after the literal at byte {at}")]
    Trailing {
        /// Byte offset in the text.
        at: usize,
    },
}

/// The value of `text`, one Python literal with nothing but white space or
/// a comment after it. See the module documentation.
pub fn parse(text: &str) -> Result<Value, ValueError> {
    parse_cased(text, false)
}

/// [`parse`] of a text a reader has case-folded (every reader level above
/// `exact` folds ASCII letters to lower case): `true`, `false` and `none`
/// are that reader's `True`, `False` and `None`.
pub fn parse_folded(text: &str) -> Result<Value, ValueError> {
    parse_cased(text, true)
}

fn parse_cased(text: &str, any_case: bool) -> Result<Value, ValueError> {
    // Python source cannot hold a NUL anywhere, not even escaped by a
    // backslash before it.
    if let Some(at) = text.find('\0') {
        return Err(ValueError::Unsupported {
            what: "a NUL character",
            at,
        });
    }
    let mut parser = Parser {
        text,
        at: 0,
        any_case,
    };
    parser.skip_space();
    let value = parser.value(0)?;
    parser.skip_space();
    if parser.at < text.len() {
        return Err(ValueError::Trailing { at: parser.at });
    }
    Ok(value)
}

/// A cursor over the text.
struct Parser<'a> {
    text: &'a str,
    at: usize,
    /// Whether `True`, `False` and `None` may be in any case.
    any_case: bool,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.text[self.at..].chars().next()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.at += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn expected(&self, expected: &'static str) -> ValueError {
        ValueError::Expected {
            expected,
            at: self.at,
        }
    }

    /// White space, line breaks and comments: inside brackets Python
    /// reads all of them as nothing.
    fn skip_space(&mut self) {
        while let Some(c) = self.peek() {
            match c {
                ' ' | '\t' | '\n' | '\r' | '\u{c}' => self.at += 1,
                '#' => {
                    let rest = &self.text[self.at..];
                    self.at += rest.find(['\n', '\r']).unwrap_or(rest.len());
                }
                _ => break,
            }
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, ValueError> {
        if depth > MAX_DEPTH {
            return Err(ValueError::Unsupported {
                what: "containers nested too deep",
                at: self.at,
            });
        }
        match self.peek() {
            Some('{') => self.dict(depth),
            Some('[') => {
                self.at += 1;
                self.items(']', depth).map(Value::Array)
            }
            Some('(') => self.parenthesised(depth),
            Some('\'' | '"') => self.strings().map(Value::String),
            Some(c) if c.is_ascii_digit() || matches!(c, '-' | '+' | '.') => self.number(),
            Some(c) if c.is_alphabetic() || c == '_' => self.word(),
            _ => Err(self.expected("a value")),
        }
    }

    /// `{key: value, …}`, keys strings.
    fn dict(&mut self, depth: usize) -> Result<Value, ValueError> {
        self.at += 1;
        let mut map = Map::new();
        loop {
            self.skip_space();
            if self.eat('}') {
                return Ok(Value::Object(map));
            }
            let key_at = self.at;
            let key = match self.value(depth + 1)? {
                Value::String(key) => key,
                _ => {
                    return Err(ValueError::Unsupported {
                        what: "a dict key that is not a string (or a set)",
                        at: key_at,
                    })
                }
            };
            self.skip_space();
            if !self.eat(':') {
                return Err(self.expected("`:` after a dict key"));
            }
            self.skip_space();
            let value = self.value(depth + 1)?;
            // A key written twice keeps its last value, as in Python.
            map.insert(key, value);
            self.skip_space();
            if !self.eat(',') && self.peek() != Some('}') {
                return Err(self.expected("`,` or `}` in a dict"));
            }
        }
    }

    /// The items of a list or tuple up to `close`, the opener eaten.
    fn items(&mut self, close: char, depth: usize) -> Result<Vec<Value>, ValueError> {
        let mut items = Vec::new();
        loop {
            self.skip_space();
            if self.eat(close) {
                return Ok(items);
            }
            items.push(self.value(depth + 1)?);
            self.skip_space();
            if !self.eat(',') && self.peek() != Some(close) {
                return Err(self.expected("`,` or the closing bracket"));
            }
        }
    }

    /// A tuple, or one value in parentheses (no comma).
    fn parenthesised(&mut self, depth: usize) -> Result<Value, ValueError> {
        self.at += 1;
        self.skip_space();
        if self.eat(')') {
            return Ok(Value::Array(Vec::new()));
        }
        let first = self.value(depth + 1)?;
        self.skip_space();
        if self.eat(')') {
            return Ok(first);
        }
        if !self.eat(',') {
            return Err(self.expected("`,` or `)`"));
        }
        let mut items = vec![first];
        items.extend(self.items(')', depth)?);
        Ok(Value::Array(items))
    }

    /// One or more adjacent string literals, joined.
    fn strings(&mut self) -> Result<String, ValueError> {
        let mut joined = self.string()?;
        loop {
            let before = self.at;
            self.skip_space();
            if matches!(self.peek(), Some('\'' | '"')) {
                joined.push_str(&self.string()?);
            } else {
                self.at = before;
                return Ok(joined);
            }
        }
    }

    /// One one-line string literal.
    fn string(&mut self) -> Result<String, ValueError> {
        let start = self.at;
        let rest = &self.text[start..];
        let quote = rest.chars().next().unwrap_or('\'');
        if rest.starts_with(&quote.to_string().repeat(3)) {
            return Err(ValueError::Unsupported {
                what: "a triple-quoted string",
                at: start,
            });
        }
        let mut chars = rest.char_indices().skip(1);
        let mut end = None;
        while let Some((i, c)) = chars.next() {
            match c {
                // The escaped character, and the LF of an escaped CRLF.
                '\\' => {
                    if let Some((_, '\r')) = chars.next() {
                        if rest[i + 2..].starts_with('\n') {
                            chars.next();
                        }
                    }
                }
                c if c == quote => {
                    end = Some(i + 1);
                    break;
                }
                // An unterminated literal: the decoder says why.
                '\n' | '\r' => break,
                _ => {}
            }
        }
        let literal = &rest[..end.unwrap_or(rest.len())];
        let value = decode(literal).map_err(|reason| ValueError::String { at: start, reason })?;
        self.at = start + literal.len();
        Ok(value)
    }

    /// An `int` or `float` as `repr` writes it, with an optional sign.
    fn number(&mut self) -> Result<Value, ValueError> {
        let start = self.at;
        let rest = &self.text[start..];
        let sign = usize::from(rest.starts_with(['-', '+']));
        let mut end = sign;
        let bytes = rest.as_bytes();
        while end < bytes.len() {
            let b = bytes[end];
            let exponent_sign = matches!(b, b'-' | b'+') && matches!(bytes[end - 1], b'e' | b'E');
            if b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'_') || exponent_sign {
                end += 1;
            } else {
                break;
            }
        }
        let written = rest[..end].replace('_', "");
        let number = if written.contains(['.', 'e', 'E']) {
            written.parse::<f64>().ok().and_then(Number::from_f64)
        } else if let Ok(n) = written.parse::<i64>() {
            Some(Number::from(n))
        } else {
            // An int beyond 64 bits: only its type is compared.
            written.parse::<f64>().ok().and_then(Number::from_f64)
        };
        let number = number.ok_or(ValueError::Expected {
            expected: "a number",
            at: start,
        })?;
        self.at = start + end;
        Ok(Value::Number(number))
    }

    /// `True`, `False` or `None`.
    fn word(&mut self) -> Result<Value, ValueError> {
        let start = self.at;
        let rest = &self.text[start..];
        let len = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let word = &rest[..len];
        let is = |keyword: &str| {
            word == keyword || (self.any_case && word.eq_ignore_ascii_case(keyword))
        };
        let value = match word {
            _ if is("True") => Value::Bool(true),
            _ if is("False") => Value::Bool(false),
            _ if is("None") => Value::Null,
            _ if len <= 2 && matches!(rest[len..].chars().next(), Some('\'' | '"')) => {
                return Err(ValueError::Unsupported {
                    what: "a prefixed (bytes, raw or f) string",
                    at: start,
                });
            }
            _ => {
                return Err(ValueError::Unsupported {
                    what: "a name that is not True, False or None",
                    at: start,
                })
            }
        };
        self.at = start + len;
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_what_repr_writes_for_a_record() {
        let text = r#"{'url': 'https://x', 'content': "it's\n", 'n': 42, 'f': -0.5, 'e': 1e+16, 'ok': True, 'no': False, 'none': None, 'list': [1, (2,), ()], 'big': 123456789012345678901234567890}"#;
        let v = parse(text).unwrap();
        assert_eq!(v["content"], "it's\n");
        assert_eq!(v["n"], 42);
        assert_eq!(v["f"], -0.5);
        assert_eq!(v["e"], 1e16);
        assert_eq!(v["ok"], true);
        assert_eq!(v["none"], Value::Null);
        assert_eq!(v["list"], json!([1, [2], []]));
        assert!(v["big"].is_number());
    }

    #[test]
    fn reads_as_a_python_reader_does() {
        // Adjacent strings join; a trailing comma, a comment and line
        // breaks between tokens are nothing; a key written twice keeps
        // its last value.
        let text = "{'a': 'x' \"y\" , # note\n 'a': ('z'),\n}";
        assert_eq!(parse(text).unwrap(), json!({"a": "z"}));
        assert_eq!(parse("['x'  'y',]").unwrap(), json!(["xy"]));
        assert_eq!(parse("['a\\\nb']").unwrap(), json!(["ab"]));
        // A case-folding reader's keywords.
        assert!(parse("[true]").is_err());
        assert_eq!(parse_folded("[true, none]").unwrap(), json!([true, null]));
    }

    #[test]
    fn refuses_what_it_does_not_read_with_the_place() {
        let refused = [
            ("{'a': 'b'} extra", ValueError::Trailing { at: 11 }),
            (
                "{'a': '''b'''}",
                ValueError::Unsupported {
                    what: "a triple-quoted string",
                    at: 6,
                },
            ),
            (
                "{1: 'a'}",
                ValueError::Unsupported {
                    what: "a dict key that is not a string (or a set)",
                    at: 1,
                },
            ),
            (
                "[b'x']",
                ValueError::Unsupported {
                    what: "a prefixed (bytes, raw or f) string",
                    at: 1,
                },
            ),
            (
                "[inf]",
                ValueError::Unsupported {
                    what: "a name that is not True, False or None",
                    at: 1,
                },
            ),
            (
                "{'a' 1}",
                ValueError::Expected {
                    expected: "`:` after a dict key",
                    at: 5,
                },
            ),
            (
                "['a' 'b]",
                ValueError::String {
                    at: 5,
                    reason: LiteralError::Unquoted,
                },
            ),
            (
                "['a\nb']",
                ValueError::String {
                    at: 1,
                    reason: LiteralError::Unquoted,
                },
            ),
        ];
        for (text, want) in refused {
            assert_eq!(parse(text), Err(want), "{text:?}");
        }
        assert_eq!(
            parse("['\\\0']"),
            Err(ValueError::Unsupported {
                what: "a NUL character",
                at: 3
            })
        );
        let deep = "[".repeat(MAX_DEPTH + 5);
        assert!(matches!(parse(&deep), Err(ValueError::Unsupported { .. })));
    }
}

/// The reader checked against CPython: `ast.literal_eval` of `repr` and
/// `ascii` of generated records, and of texts a framing that does not
/// escape writes, must give the value read here (or both refuse). Without
/// `python3` the test prints SKIP, and fails when `CI` is set.
#[cfg(test)]
mod against_cpython {
    use super::*;

    /// Each text's value as `ast.literal_eval` reads it (tuples as lists,
    /// JSON `null` when Python refuses it or it is no record of strings),
    /// or `None` without python3.
    fn cpython(texts: &[String]) -> Option<Vec<Value>> {
        let script = "import ast,json,sys,warnings\n\
            warnings.simplefilter('ignore')\n\
            def plain(v):\n\
            \x20if isinstance(v,(list,tuple)): return [plain(x) for x in v]\n\
            \x20if isinstance(v,dict):\n\
            \x20 if not all(isinstance(k,str) for k in v): raise ValueError\n\
            \x20 return {k:plain(x) for k,x in v.items()}\n\
            \x20if isinstance(v,(str,int,float,bool)) or v is None: return v\n\
            \x20raise ValueError\n\
            def read(t):\n\
            \x20try:\n\
            \x20 v=plain(ast.literal_eval(t))\n\
            \x20 json.dumps(v,allow_nan=False)\n\
            \x20 return {'v':v}\n\
            \x20except Exception: return None\n\
            json.dump([read(t) for t in json.load(sys.stdin)],sys.stdout)";
        let answer = crate::pyliteral::run_python(script, &serde_json::json!(texts))?;
        serde_json::from_value(answer).ok()
    }

    /// Records as `repr` writes them, and the same records pasted into a
    /// template between quotes without escaping.
    fn texts() -> Vec<String> {
        let pieces = [
            "plain",
            "'",
            "\"",
            "\\",
            "\n",
            "\\n",
            "', 'k': '",
            "\", \"k\": \"",
            "é\u{ff07}",
            "\u{2028}",
            "#",
            "'#",
            "''",
            "'''",
            "\\'",
            "\t",
            "' '",
            "x'}",
            "\r\n",
            "\u{0}",
        ];
        let mut texts = Vec::new();
        for a in pieces {
            for b in pieces {
                let content = format!("{a}{b}");
                let literal = super::super::python::encode(&content);
                texts.push(format!(
                    "{{'url': 'u', 'content': {literal}, 'n': -3, 'x': (1.5, None, True)}}"
                ));
                texts.push(format!("{{'url': 'u', 'content': '{content}', 'n': 3}}"));
                texts.push(format!("[\"{content}\", 'b']"));
            }
        }
        texts
    }

    #[test]
    fn reads_as_ast_literal_eval_does() {
        let texts = texts();
        let Some(answers) = cpython(&texts) else {
            return;
        };
        let mut differ = Vec::new();
        for (text, answer) in texts.iter().zip(answers) {
            let ours = parse(text);
            let theirs = answer.get("v").cloned();
            // A triple quote is refused (judged as a document that no
            // longer parses), never read as another value.
            let refused = matches!(
                ours,
                Err(ValueError::Unsupported {
                    what: "a triple-quoted string",
                    ..
                })
            );
            let ours = ours.ok();
            if ours != theirs && !(refused && ours.is_none()) {
                differ.push(format!("{text:?}: ours {ours:?}, python {theirs:?}"));
            }
        }
        assert!(differ.is_empty(), "{}", differ.join("\n"));
    }
}
