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
use framecheck_core::target::{Part, ReadAnswer, Segment, WrapAnswer};

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
    #[serde(default)]
    items: Option<Vec<RawItem>>,
}

/// One item of a `wrap-many` request: a wrap request's fields.
#[derive(Deserialize)]
struct RawItem {
    content: String,
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    attributes: Option<BTreeMap<String, String>>,
    #[serde(default)]
    provenance: Option<String>,
}

impl RawItem {
    fn into_request(self) -> WrapRequest {
        WrapRequest {
            content: self.content,
            kind: self.kind.unwrap_or_default(),
            attributes: self.attributes.unwrap_or_default(),
            provenance: self.provenance.unwrap_or_default(),
        }
    }
}

/// Just the id, for answering a line whose other fields do not parse.
#[derive(Deserialize)]
struct IdOnly {
    id: Option<u64>,
}

/// A decoded request line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// `wrap`: frame one content.
    Wrap(WrapRequest),
    /// `wrap-many`: frame a list of items, one frame each, in one output.
    WrapMany(Vec<WrapRequest>),
    /// `read`: read a framed text back.
    Read(String),
}

/// Why a request line cannot be answered, with its id when one is readable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct BadRequest {
    /// The request's id, when it could be read.
    pub id: Option<u64>,
    /// What is wrong, as the `error` reply says it.
    pub reason: String,
}

/// Decodes one request line (as a target reads it): its id and operation.
/// Optional wrap fields default to empty; an unknown op, a missing
/// `content` or `text`, or a `wrap-many` without an `items` list of
/// objects each carrying a string `content` is a [`BadRequest`].
///
/// ```
/// use framecheck_run::adapter::subprocess::{decode_request, Request};
///
/// let line = br#"{"id": 4, "op": "wrap-many", "items": [{"content": "a"}, {"content": "b", "kind": "retrieval"}]}"#;
/// let (id, Request::WrapMany(items)) = decode_request(line).unwrap() else { panic!() };
/// assert_eq!((id, items.len(), items[1].kind.as_str()), (4, 2, "retrieval"));
/// ```
pub fn decode_request(line: &[u8]) -> Result<(u64, Request), BadRequest> {
    // Only an object is a request; serde would happily read `[1, "wrap"]` as
    // a struct from its fields in order.
    if !line.trim_ascii_start().starts_with(b"{") {
        return Err(BadRequest {
            id: None,
            reason: "invalid request: not a JSON object".into(),
        });
    }
    let request: RawRequest = serde_json::from_slice(line).map_err(|e| BadRequest {
        id: serde_json::from_slice::<IdOnly>(line)
            .ok()
            .and_then(|r| r.id),
        reason: format!("invalid request: {e}"),
    })?;
    let Some(id) = request.id.as_u64() else {
        return Err(BadRequest {
            id: None,
            reason: format!(
                "invalid request: id must be a non-negative integer, found {}",
                request.id
            ),
        });
    };
    let bad = |reason: &str| BadRequest {
        id: Some(id),
        reason: reason.into(),
    };
    let decoded = match request.op.as_str() {
        Some("wrap") => Request::Wrap(WrapRequest {
            content: request
                .content
                .ok_or_else(|| bad("invalid request: wrap needs a string \"content\""))?,
            kind: request.kind.unwrap_or_default(),
            attributes: request.attributes.unwrap_or_default(),
            provenance: request.provenance.unwrap_or_default(),
        }),
        Some("wrap-many") => Request::WrapMany(
            request
                .items
                .ok_or_else(|| bad("invalid request: wrap-many needs an \"items\" list"))?
                .into_iter()
                .map(RawItem::into_request)
                .collect(),
        ),
        Some("read") => Request::Read(
            request
                .text
                .ok_or_else(|| bad("invalid request: read needs a string \"text\""))?,
        ),
        _ => return Err(bad(&format!("unknown op {}", request.op))),
    };
    Ok((id, decoded))
}

#[derive(Serialize)]
#[serde(untagged)]
enum ReplyLine {
    Framed { id: u64, framed: String },
    Body { id: u64, body: Option<String> },
    Segments { id: u64, segments: Vec<Segment> },
    Parts { id: u64, parts: Vec<Part> },
    Error { id: Option<u64>, error: String },
}

fn answer(framing: &mut dyn Framing, line: &[u8]) -> ReplyLine {
    let (id, request) = match decode_request(line) {
        Ok(decoded) => decoded,
        Err(bad) => {
            return ReplyLine::Error {
                id: bad.id,
                error: bad.reason,
            }
        }
    };
    let refuse = |e: TargetError| ReplyLine::Error {
        id: Some(id),
        error: error_text(e),
    };
    let wrapped = |answer| match answer {
        WrapAnswer::Text(framed) => ReplyLine::Framed { id, framed },
        WrapAnswer::Parts(parts) => ReplyLine::Parts { id, parts },
    };
    match request {
        Request::Wrap(wrap) => framing.wrap_answer(&wrap).map_or_else(refuse, wrapped),
        Request::WrapMany(items) => framing
            .wrap_many_answer(&items)
            .map_or_else(refuse, wrapped),
        Request::Read(text) => {
            framing
                .read_answer(&text)
                .map_or_else(refuse, |answer| match answer {
                    ReadAnswer::Segments(segments) => ReplyLine::Segments { id, segments },
                    other => ReplyLine::Body {
                        id,
                        body: other.into_body(),
                    },
                })
        }
    }
}

fn error_text(error: TargetError) -> String {
    match error {
        TargetError::Refused(reason) => reason,
        // Like a failure, the protocol has no word for it.
        unplanted @ TargetError::Unplanted(_) => format!("failed: {unplanted}"),
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

    #[test]
    fn wrap_many_is_decoded_with_each_item_and_its_defaults() {
        let line = br#"{"id":6,"op":"wrap-many","items":[{"content":"a","kind":"k","attributes":{"t":"v"},"provenance":"p"},{"content":""}],"extra":1}"#;
        let (id, request) = decode_request(line).unwrap();
        assert_eq!(id, 6);
        let expected = vec![
            WrapRequest {
                content: "a".into(),
                kind: "k".into(),
                attributes: BTreeMap::from([("t".to_string(), "v".to_string())]),
                provenance: "p".into(),
            },
            WrapRequest::default(),
        ];
        assert_eq!(request, Request::WrapMany(expected));
    }

    #[test]
    fn a_malformed_wrap_many_is_a_bad_request_with_its_id() {
        for line in [
            r#"{"id":7,"op":"wrap-many"}"#,
            r#"{"id":7,"op":"wrap-many","items":[{"kind":"k"}]}"#,
            r#"{"id":7,"op":"wrap-many","items":"a"}"#,
            r#"{"id":7,"op":"wrap-many","items":[{"content":1}]}"#,
        ] {
            let bad = decode_request(line.as_bytes()).unwrap_err();
            assert_eq!(bad.id, Some(7), "{line}");
            assert!(bad.reason.starts_with("invalid request"), "{line}: {bad}");
        }
    }

    #[test]
    fn a_framing_without_wrap_many_answers_it_with_an_error() {
        let out = served("{\"id\":8,\"op\":\"wrap-many\",\"items\":[{\"content\":\"a\"}]}\n");
        let reply: Value = serde_json::from_str(out.trim_end()).unwrap();
        assert_eq!(reply["id"], 8);
        assert!(
            reply["error"].as_str().unwrap().contains("wrap-many"),
            "{out}"
        );
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

    /// One part per item, as a framing answering parts writes a list.
    struct ItemParts;

    impl Framing for ItemParts {
        fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
            Brackets.wrap(request)
        }
        fn read(&mut self, text: &str) -> Result<Option<String>, TargetError> {
            Brackets.read(text)
        }
        fn wrap_many_answer(&mut self, items: &[WrapRequest]) -> Result<WrapAnswer, TargetError> {
            let parts = items.iter().map(|item| {
                Brackets.wrap(item).map(|text| Part {
                    role: Some("user".into()),
                    text,
                })
            });
            Ok(WrapAnswer::Parts(parts.collect::<Result<_, _>>()?))
        }
    }

    #[test]
    fn a_wrap_many_answering_parts_is_sent_as_parts() {
        let mut output = Vec::new();
        let line = r#"{"id":8,"op":"wrap-many","items":[{"content":"a"},{"content":"b"}]}"#;
        serve(&mut ItemParts, line.as_bytes(), &mut output).unwrap();
        assert_eq!(
            String::from_utf8(output).unwrap(),
            concat!(
                r#"{"id":8,"parts":[{"role":"user","text":"[|||a]"},{"role":"user","text":"[|||b]"}]}"#,
                "\n"
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
