//! The target side of the protocol: any [`Framing`] served over JSON lines.
//!
//! `framecheck serve-reference` uses this to expose the reference envelope as
//! a subprocess, which tests the subprocess path end to end against a framing
//! whose in-process results are known.

use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::protocol::to_line;
use crate::adapter::{Framing, TargetError, WrapRequest};

/// Answers requests from `input` on `output` until `input` ends.
///
/// Each line gets exactly one reply line, flushed at once, so the same loop
/// serves persistent and one-shot callers. A line that is not a valid request
/// gets an `error` reply carrying its id when one can be read, `null`
/// otherwise. Blank lines are skipped. A [`TargetError::Failed`] from the
/// framing also becomes an `error` reply: the protocol has no other way to
/// say it, and serving must go on.
pub fn serve(
    framing: &mut dyn Framing,
    mut input: impl BufRead,
    mut output: impl Write,
) -> io::Result<()> {
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let reply = answer(framing, &line);
        output.write_all(to_line(&reply).as_bytes())?;
        output.flush()?;
    }
}

#[derive(Deserialize)]
struct RawRequest {
    id: Value,
    op: Value,
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    attributes: Option<BTreeMap<String, String>>,
    #[serde(default)]
    provenance: Option<String>,
    #[serde(default)]
    text: Option<String>,
}

/// Just the id, for answering a line whose other fields do not parse.
#[derive(Deserialize)]
struct IdOnly {
    id: Option<u64>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum ReplyLine {
    Framed { id: u64, framed: String },
    Body { id: u64, body: Option<String> },
    Error { id: Option<u64>, error: String },
}

fn answer(framing: &mut dyn Framing, line: &[u8]) -> ReplyLine {
    // Only an object is a request; serde would happily read `[1, "wrap"]` as
    // a struct from its fields in order.
    if !line.trim_ascii_start().starts_with(b"{") {
        return ReplyLine::Error {
            id: None,
            error: "invalid request: not a JSON object".into(),
        };
    }
    let request: RawRequest = match serde_json::from_slice(line) {
        Ok(request) => request,
        Err(e) => {
            let id = serde_json::from_slice::<IdOnly>(line)
                .ok()
                .and_then(|r| r.id);
            return ReplyLine::Error {
                id,
                error: format!("invalid request: {e}"),
            };
        }
    };
    let Some(id) = request.id.as_u64() else {
        return ReplyLine::Error {
            id: None,
            error: format!(
                "invalid request: id must be a non-negative integer, found {}",
                request.id
            ),
        };
    };
    let refuse = |error: String| ReplyLine::Error {
        id: Some(id),
        error,
    };
    match request.op.as_str() {
        Some("wrap") => {
            let Some(content) = request.content else {
                return refuse("invalid request: wrap needs a string \"content\"".into());
            };
            let wrap = WrapRequest {
                content,
                kind: request.kind.unwrap_or_default(),
                attributes: request.attributes.unwrap_or_default(),
                provenance: request.provenance.unwrap_or_default(),
            };
            match framing.wrap(&wrap) {
                Ok(framed) => ReplyLine::Framed { id, framed },
                Err(e) => refuse(error_text(e)),
            }
        }
        Some("read") => {
            let Some(text) = request.text else {
                return refuse("invalid request: read needs a string \"text\"".into());
            };
            match framing.read(&text) {
                Ok(body) => ReplyLine::Body { id, body },
                Err(e) => refuse(error_text(e)),
            }
        }
        _ => refuse(format!("unknown op {}", request.op)),
    }
}

fn error_text(error: TargetError) -> String {
    match error {
        TargetError::Refused(reason) => reason,
        TargetError::Failed { reason, .. } => format!("failed: {reason}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brackets content; refuses content containing `!`; reads `[x]` as `x`.
    struct Brackets;

    impl Framing for Brackets {
        fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
            if request.content.contains('!') {
                return Err(TargetError::Refused("no bangs".into()));
            }
            let attrs: Vec<String> = request
                .attributes
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            Ok(format!(
                "[{}|{}|{}|{}]",
                request.kind,
                attrs.join(","),
                request.provenance,
                request.content
            ))
        }
        fn read(&mut self, text: &str) -> Result<Option<String>, TargetError> {
            Ok(text
                .strip_prefix('[')
                .and_then(|t| t.strip_suffix(']'))
                .map(str::to_string))
        }
    }

    fn served(input: &str) -> String {
        let mut output = Vec::new();
        serve(&mut Brackets, input.as_bytes(), &mut output).unwrap();
        String::from_utf8(output).unwrap()
    }

    #[test]
    fn answers_each_line_in_order() {
        let input = concat!(
            r#"{"id":1,"op":"wrap","content":"a\nb","kind":"k","attributes":{"t":"v"},"provenance":"p"}"#,
            "\n",
            r#"{"id":2,"op":"read","text":"[x]"}"#,
            "\n\n",
            r#"{"id":3,"op":"read","text":"x"}"#,
            "\n",
            r#"{"id":4,"op":"wrap","content":"hi!"}"#,
        );
        assert_eq!(
            served(input),
            concat!(
                r#"{"id":1,"framed":"[k|t=v|p|a\nb]"}"#,
                "\n",
                r#"{"id":2,"body":"x"}"#,
                "\n",
                r#"{"id":3,"body":null}"#,
                "\n",
                r#"{"id":4,"error":"no bangs"}"#,
                "\n",
            )
        );
    }

    #[test]
    fn optional_wrap_fields_default_to_empty() {
        assert_eq!(
            served("{\"id\":5,\"op\":\"wrap\",\"content\":\"c\"}\n"),
            "{\"id\":5,\"framed\":\"[|||c]\"}\n"
        );
    }

    #[test]
    fn invalid_lines_get_error_replies_with_the_id_when_readable() {
        let out = served(concat!(
            "not json\n",
            "{\"id\":9,\"op\":\"frobnicate\"}\n",
            "{\"id\":10,\"op\":\"wrap\"}\n",
            "{\"id\":11,\"op\":\"wrap\",\"content\":\"\\ud800\"}\n",
            "{\"id\":\"x\",\"op\":\"wrap\",\"content\":\"c\"}\n",
            "[1,2]\n",
        ));
        let replies: Vec<Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let ids: Vec<Value> = replies.iter().map(|r| r["id"].clone()).collect();
        assert_eq!(
            ids,
            [
                Value::Null,
                9.into(),
                10.into(),
                11.into(),
                Value::Null,
                Value::Null
            ]
        );
        assert!(replies.iter().all(|r| r["error"].is_string()), "{out}");
        assert!(replies[1]["error"].as_str().unwrap().contains("frobnicate"));
    }

    proptest::proptest! {
        /// Whatever arrives, every non-blank line gets exactly one reply line
        /// and each reply is a JSON object.
        #[test]
        fn any_input_gets_one_json_reply_per_line(lines: Vec<Vec<u8>>) {
            let mut input = Vec::new();
            let mut expected = 0;
            for mut line in lines {
                line.retain(|&b| b != b'\n');
                if !line.iter().all(u8::is_ascii_whitespace) {
                    expected += 1;
                }
                input.extend_from_slice(&line);
                input.push(b'\n');
            }
            let mut output = Vec::new();
            serve(&mut Brackets, input.as_slice(), &mut output).unwrap();
            let text = String::from_utf8(output).unwrap();
            proptest::prop_assert_eq!(text.lines().count(), expected);
            for reply in text.lines() {
                let value: Value = serde_json::from_str(reply).unwrap();
                proptest::prop_assert!(value.is_object());
            }
        }
    }
}
