//! The wire format between framecheck and a subprocess target.
//!
//! JSON Lines over the child's stdin and stdout: one UTF-8 JSON object per
//! line, specified in `docs/protocol.md`. This module only encodes requests
//! and decodes replies; it does no I/O, so the decoder can be fuzzed on its
//! own. Decoding never panics: any byte string is either a valid reply to the
//! request it answers or a typed [`ProtocolError`].
//!
//! ```
//! use framecheck_run::adapter::subprocess::protocol::{decode_reply, encode_read, Op, Reply};
//!
//! assert_eq!(encode_read(8, "<t>\nx\n</t>"), "{\"id\":8,\"op\":\"read\",\"text\":\"<t>\\nx\\n</t>\"}\n");
//! let reply = decode_reply(br#"{"id": 8, "body": "x"}"#, 8, Op::Read).unwrap();
//! assert_eq!(reply, Reply::Body(Some("x".to_string())));
//! ```

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::adapter::{TargetError, WrapRequest};
use framecheck_core::target::{Part, Segment, WrapAnswer};

/// The operation a request asks for; decides which result field a reply
/// must carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    /// Wrap content; the reply carries `framed`.
    Wrap,
    /// Read a framed text back; the reply carries `body`.
    Read,
    /// Wrap a list of items, one frame each, in one output; the reply
    /// carries `framed` (profiles declaring `frame.count: several`).
    WrapMany,
}

impl Op {
    /// The `op` value on the wire.
    pub fn name(self) -> &'static str {
        match self {
            Op::Wrap => "wrap",
            Op::Read => "read",
            Op::WrapMany => "wrap-many",
        }
    }

    /// The reply field holding the result of this operation.
    pub fn result_field(self) -> &'static str {
        match self {
            Op::Wrap | Op::WrapMany => "framed",
            Op::Read => "body",
        }
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A successfully decoded reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// The framed text, answering a wrap.
    Framed(String),
    /// The body, answering a read: `None` when the text is not exactly one
    /// valid frame.
    Body(Option<String>),
    /// The segments, answering a read from a reader that parses frames
    /// into messages or fields (`{"segments": [...]}`).
    Segments(Vec<Segment>),
    /// The parts, answering a wrap or a wrap-many from a framing that
    /// answers with a list of messages (`{"parts": [...]}`).
    Parts(Vec<Part>),
    /// The target rejected the input on purpose, with its reason.
    Refused(String),
}

impl Reply {
    /// The reply to a `wrap` or `wrap-many` as the framing's answer: its
    /// framed text or parts, or the refusal. Shared by every adapter that
    /// speaks the protocol.
    pub(crate) fn into_wrap_answer(self) -> Result<WrapAnswer, TargetError> {
        match self {
            Reply::Framed(framed) => Ok(WrapAnswer::Text(framed)),
            Reply::Parts(parts) => Ok(WrapAnswer::Parts(parts)),
            Reply::Refused(reason) => Err(TargetError::Refused(reason)),
            Reply::Body(_) | Reply::Segments(_) => {
                Err(TargetError::failed("internal error: read reply to a wrap"))
            }
        }
    }
}

/// Why a reply line is not a valid answer to the request it follows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ProtocolError {
    /// The line is not valid UTF-8.
    #[error("reply is not valid UTF-8 (invalid byte at offset {offset})")]
    NotUtf8 {
        /// Byte offset of the first invalid sequence.
        offset: usize,
    },
    /// The line is not JSON.
    #[error("reply is not JSON: {detail}; the line starts with {excerpt:?}")]
    NotJson {
        /// The JSON parser's message.
        detail: String,
        /// The first characters of the line.
        excerpt: String,
    },
    /// A string escape in the line encodes half of a UTF-16 surrogate pair,
    /// which is no character at all.
    #[error("reply contains a lone surrogate escape: {detail}")]
    LoneSurrogate {
        /// The JSON parser's message, with the position.
        detail: String,
    },
    /// The line is JSON but not an object.
    #[error("reply is JSON {found}, not an object")]
    NotAnObject {
        /// The JSON type found instead (`array`, `string`…).
        found: &'static str,
    },
    /// The reply answers a different request.
    #[error("reply has id {found}, expected {expected}")]
    WrongId {
        /// The id of the request being answered.
        expected: u64,
        /// The id in the reply, as JSON.
        found: String,
    },
    /// A field the reply needs is absent.
    #[error("reply has no {field:?} field")]
    MissingField {
        /// The field name.
        field: &'static str,
    },
    /// A field has the wrong JSON type.
    #[error("reply field {field:?} should be {expected}, found {found}")]
    WrongType {
        /// The field name.
        field: &'static str,
        /// What the protocol requires.
        expected: &'static str,
        /// The JSON type found.
        found: &'static str,
    },
    /// Neither the result field of the operation nor `error` is present.
    #[error("reply to {op} has neither {:?} nor \"error\"", op.result_field())]
    NoResult {
        /// The operation being answered.
        op: Op,
    },
    /// Both the result field and `error` are present, so the reply says two
    /// things at once.
    #[error("reply to {op} has both {:?} and \"error\"", op.result_field())]
    BothResults {
        /// The operation being answered.
        op: Op,
    },
}

#[derive(Serialize)]
struct WrapLine<'a> {
    id: u64,
    op: &'static str,
    content: &'a str,
    kind: &'a str,
    attributes: &'a BTreeMap<String, String>,
    provenance: &'a str,
}

/// A wrap request carrying raw content bytes (the `bytes` extension).
#[derive(Serialize)]
struct WrapBytesLine<'a> {
    id: u64,
    op: &'static str,
    content: &'a str,
    content_b64: String,
    kind: &'a str,
    attributes: &'a BTreeMap<String, String>,
    provenance: &'a str,
}

/// Encodes a wrap request for a target with the `bytes` capability: when
/// the content stands for raw bytes ([`super::bytes`]), they travel as
/// `content_b64` and `content` holds the text with each raw byte as U+FFFD;
/// otherwise the line is exactly [`encode_wrap`]'s.
pub fn encode_wrap_bytes(id: u64, request: &WrapRequest) -> String {
    if !super::bytes::has_raw_bytes(&request.content) {
        return encode_wrap(id, request);
    }
    to_line(&WrapBytesLine {
        id,
        op: Op::Wrap.name(),
        content: &super::bytes::to_lossy(&request.content),
        content_b64: super::bytes::encode_b64(&super::bytes::to_bytes(&request.content)),
        kind: &request.kind,
        attributes: &request.attributes,
        provenance: &request.provenance,
    })
}

/// The `framed_b64` field of a wrap reply that has no `framed`: its bytes
/// as text, raw bytes as their stand-ins (the `bytes` extension).
fn framed_from_b64(object: &Map<String, Value>) -> Option<Result<Reply, ProtocolError>> {
    let encoded = object.get("framed_b64")?;
    let bad = |found| ProtocolError::WrongType {
        field: "framed_b64",
        expected: "a standard base64 string",
        found,
    };
    Some(match encoded {
        Value::String(text) => super::bytes::decode_b64(text)
            .map(|raw| Reply::Framed(super::bytes::from_bytes(&raw)))
            .ok_or_else(|| bad("a string that is not base64")),
        other => Err(bad(type_name(other))),
    })
}

#[derive(Serialize)]
struct ReadLine<'a> {
    id: u64,
    op: &'static str,
    text: &'a str,
}

/// Encodes a wrap request as one line, newline included. Stand-ins for raw
/// bytes ([`super::bytes`]) go out as U+FFFD: only a target with the `bytes`
/// capability gets the bytes themselves ([`encode_wrap_bytes`]).
pub fn encode_wrap(id: u64, request: &WrapRequest) -> String {
    let lossy;
    let content = if super::bytes::has_raw_bytes(&request.content) {
        lossy = super::bytes::to_lossy(&request.content);
        &lossy
    } else {
        &request.content
    };
    to_line(&WrapLine {
        id,
        op: Op::Wrap.name(),
        content,
        kind: &request.kind,
        attributes: &request.attributes,
        provenance: &request.provenance,
    })
}

/// One item of a `wrap-many` request: a wrap request's fields, with
/// `content_b64` only under the `bytes` extension.
#[derive(Serialize)]
struct ItemLine<'a> {
    content: std::borrow::Cow<'a, str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    content_b64: Option<String>,
    kind: &'a str,
    attributes: &'a BTreeMap<String, String>,
    provenance: &'a str,
}

#[derive(Serialize)]
struct WrapManyLine<'a> {
    id: u64,
    op: &'static str,
    items: Vec<ItemLine<'a>>,
}

/// Encodes a `wrap-many` request as one line, newline included: each item
/// carries the four fields of a wrap request. With `raw_bytes` (the `bytes`
/// capability) an item whose content stands for raw bytes also carries
/// `content_b64`, as [`encode_wrap_bytes`] does; without it those bytes go
/// out as U+FFFD, as [`encode_wrap`] does.
///
/// ```
/// use framecheck_run::adapter::WrapRequest;
/// use framecheck_run::adapter::subprocess::protocol::encode_wrap_many;
///
/// let item = WrapRequest { content: "a".into(), kind: "retrieval".into(), ..Default::default() };
/// assert_eq!(
///     encode_wrap_many(3, &[item], false),
///     "{\"id\":3,\"op\":\"wrap-many\",\"items\":[{\"content\":\"a\",\"kind\":\"retrieval\",\"attributes\":{},\"provenance\":\"\"}]}\n"
/// );
/// ```
pub fn encode_wrap_many(id: u64, items: &[WrapRequest], raw_bytes: bool) -> String {
    let items = items
        .iter()
        .map(|item| {
            let raw = super::bytes::has_raw_bytes(&item.content);
            ItemLine {
                content: if raw {
                    super::bytes::to_lossy(&item.content).into()
                } else {
                    item.content.as_str().into()
                },
                content_b64: (raw && raw_bytes)
                    .then(|| super::bytes::encode_b64(&super::bytes::to_bytes(&item.content))),
                kind: &item.kind,
                attributes: &item.attributes,
                provenance: &item.provenance,
            }
        })
        .collect();
    to_line(&WrapManyLine {
        id,
        op: Op::WrapMany.name(),
        items,
    })
}

/// Encodes a read request as one line, newline included.
pub fn encode_read(id: u64, text: &str) -> String {
    to_line(&ReadLine {
        id,
        op: Op::Read.name(),
        text,
    })
}

/// Serialises `value` as compact JSON and appends the line terminator.
/// Compact JSON escapes every control character, so the line never contains
/// a raw newline.
pub(crate) fn to_line(value: &impl Serialize) -> String {
    // Serialising plain structs of strings and integers into a String cannot
    // fail: no maps with non-string keys, no I/O.
    let mut line = serde_json::to_string(value).unwrap_or_else(|_| String::from("{}"));
    line.push('\n');
    line
}

/// Decodes one reply line (without its `\n`; a trailing `\r` is tolerated)
/// answering request `expected_id` of operation `op`.
///
/// Unknown fields are ignored. `"error": null` counts as no error, so a
/// target may always write the field.
pub fn decode_reply(line: &[u8], expected_id: u64, op: Op) -> Result<Reply, ProtocolError> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let text = std::str::from_utf8(line).map_err(|e| ProtocolError::NotUtf8 {
        offset: e.valid_up_to(),
    })?;
    let value: Value = serde_json::from_str(text).map_err(|e| json_error(&e, text))?;
    let Value::Object(object) = value else {
        return Err(ProtocolError::NotAnObject {
            found: type_name(&value),
        });
    };
    check_id(&object, expected_id)?;

    let error = match object.get("error") {
        None | Some(Value::Null) => None,
        Some(Value::String(reason)) => Some(reason.clone()),
        Some(other) => {
            return Err(ProtocolError::WrongType {
                field: "error",
                expected: "a string",
                found: type_name(other),
            })
        }
    };
    if op == Op::Read && error.is_none() && !object.contains_key("body") {
        if let Some(segments) = object.get("segments") {
            return decode_segments(segments);
        }
    }
    if matches!(op, Op::Wrap | Op::WrapMany) && error.is_none() && !object.contains_key("framed") {
        if let Some(parts) = object.get("parts") {
            return decode_parts(parts);
        }
    }
    let result = object.get(op.result_field());
    if matches!(op, Op::Wrap | Op::WrapMany) && result.is_none() && error.is_none() {
        if let Some(reply) = framed_from_b64(&object) {
            return reply;
        }
    }
    match (result, error) {
        (Some(_), Some(_)) => Err(ProtocolError::BothResults { op }),
        (None, Some(reason)) => Ok(Reply::Refused(reason)),
        (None, None) => Err(ProtocolError::NoResult { op }),
        (Some(result), None) => decode_result(result, op),
    }
}

fn check_id(object: &Map<String, Value>, expected_id: u64) -> Result<(), ProtocolError> {
    let id = object
        .get("id")
        .ok_or(ProtocolError::MissingField { field: "id" })?;
    match id.as_u64() {
        Some(found) if found == expected_id => Ok(()),
        Some(_) => Err(ProtocolError::WrongId {
            expected: expected_id,
            found: id.to_string(),
        }),
        // A negative or fractional number is still a number: the reply
        // answers something, just not this request.
        None if id.is_number() => Err(ProtocolError::WrongId {
            expected: expected_id,
            found: id.to_string(),
        }),
        None => Err(ProtocolError::WrongType {
            field: "id",
            expected: "a non-negative integer",
            found: type_name(id),
        }),
    }
}

fn decode_result(result: &Value, op: Op) -> Result<Reply, ProtocolError> {
    match (op, result) {
        (Op::Wrap | Op::WrapMany, Value::String(framed)) => Ok(Reply::Framed(framed.clone())),
        (Op::Read, Value::String(body)) => Ok(Reply::Body(Some(body.clone()))),
        (Op::Read, Value::Null) => Ok(Reply::Body(None)),
        (Op::Wrap | Op::WrapMany, other) => Err(ProtocolError::WrongType {
            field: "framed",
            expected: "a string",
            found: type_name(other),
        }),
        (Op::Read, other) => Err(ProtocolError::WrongType {
            field: "body",
            expected: "a string or null",
            found: type_name(other),
        }),
    }
}

/// A read reply's `segments`: an array of objects, each with a string
/// `role`, a string or null `field` (absent is null) and a string `text`.
fn decode_segments(value: &Value) -> Result<Reply, ProtocolError> {
    let expected = "an array of {role, field, text} objects";
    let segments = decode_records(value, "segments", expected, &["field"], |string| {
        Ok(Segment {
            role: string("role")?.unwrap_or_default(),
            field: string("field")?,
            text: string("text")?.unwrap_or_default(),
        })
    })?;
    Ok(Reply::Segments(segments))
}

/// A wrap reply's `parts`: an array of objects, each with a string or null
/// `role` (absent is null) and a string `text`.
fn decode_parts(value: &Value) -> Result<Reply, ProtocolError> {
    let expected = "an array of {role, text} objects";
    let parts = decode_records(value, "parts", expected, &["role"], |string| {
        Ok(Part {
            role: string("role")?,
            text: string("text")?.unwrap_or_default(),
        })
    })?;
    Ok(Reply::Parts(parts))
}

/// One string field of a reply's record: `None` for a nullable key that
/// is null or absent.
type RecordField<'a> = dyn Fn(&str) -> Result<Option<String>, ProtocolError> + 'a;

/// An array of objects of string fields (a reply's `segments` or
/// `parts`): a key in `nullable` may be null or absent, every other key
/// must hold a string; anything else is `field` of the wrong type. `build`
/// makes one item from its record's fields.
fn decode_records<T>(
    value: &Value,
    field: &'static str,
    expected: &'static str,
    nullable: &[&str],
    build: impl Fn(&RecordField<'_>) -> Result<T, ProtocolError>,
) -> Result<Vec<T>, ProtocolError> {
    let wrong = |found: &Value| ProtocolError::WrongType {
        field,
        expected,
        found: type_name(found),
    };
    let Value::Array(items) = value else {
        return Err(wrong(value));
    };
    items
        .iter()
        .map(|item| {
            let Value::Object(object) = item else {
                return Err(wrong(item));
            };
            let string = |key: &str| match object.get(key) {
                Some(Value::String(s)) => Ok(Some(s.clone())),
                None | Some(Value::Null) if nullable.contains(&key) => Ok(None),
                Some(other) => Err(wrong(other)),
                None => Err(wrong(item)),
            };
            build(&string)
        })
        .collect()
}

fn json_error(error: &serde_json::Error, text: &str) -> ProtocolError {
    let detail = error.to_string();
    // serde_json rejects unpaired surrogate escapes while parsing; its
    // message is the only place that says so ("lone leading surrogate", or
    // "unexpected end of hex escape" when a high surrogate is not followed by
    // `\u`), and a clearer reason is worth the string match.
    if detail.contains("surrogate") || detail.contains("end of hex escape") {
        return ProtocolError::LoneSurrogate { detail };
    }
    ProtocolError::NotJson {
        detail,
        excerpt: excerpt(text, 60),
    }
}

/// The first `max_chars` characters of `text`, with `…` when cut.
pub(crate) fn excerpt(text: &str, max_chars: usize) -> String {
    let mut chars = text.char_indices();
    match chars.nth(max_chars) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

/// The JSON type of `value`, for error messages.
pub(crate) fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wrap(line: &str) -> Result<Reply, ProtocolError> {
        decode_reply(line.as_bytes(), 7, Op::Wrap)
    }

    fn read(line: &str) -> Result<Reply, ProtocolError> {
        decode_reply(line.as_bytes(), 7, Op::Read)
    }

    #[test]
    fn encodes_wrap_as_one_compact_line() {
        let request = WrapRequest {
            content: "a\nb\u{2028}\"</x>".into(),
            kind: "tool-result".into(),
            attributes: [
                ("z".to_string(), "1".to_string()),
                ("a".into(), "\r".into()),
            ]
            .into(),
            provenance: "from p".into(),
        };
        let line = encode_wrap(7, &request);
        assert_eq!(
            line,
            "{\"id\":7,\"op\":\"wrap\",\"content\":\"a\\nb\u{2028}\\\"</x>\",\"kind\":\"tool-result\",\
             \"attributes\":{\"a\":\"\\r\",\"z\":\"1\"},\"provenance\":\"from p\"}\n"
        );
        assert_eq!(line.matches('\n').count(), 1);
    }

    #[test]
    fn decodes_results() {
        assert_eq!(
            wrap(r#"{"id":7,"framed":"<t>x</t>"}"#),
            Ok(Reply::Framed("<t>x</t>".into()))
        );
        assert_eq!(
            read(r#"{"id":7,"body":"x"}"#),
            Ok(Reply::Body(Some("x".into())))
        );
        assert_eq!(read(r#"{"id":7,"body":null}"#), Ok(Reply::Body(None)));
        assert_eq!(
            read(
                r#"{"id":7,"segments":[{"role":"user","field":null,"text":"a"},{"role":"tool","field":"f","text":""},{"role":"system","text":"b"}]}"#
            ),
            Ok(Reply::Segments(vec![
                Segment {
                    role: "user".into(),
                    field: None,
                    text: "a".into()
                },
                Segment {
                    role: "tool".into(),
                    field: Some("f".into()),
                    text: String::new()
                },
                Segment {
                    role: "system".into(),
                    field: None,
                    text: "b".into()
                },
            ]))
        );
        assert_eq!(
            read(r#"{"id":7,"segments":[]}"#),
            Ok(Reply::Segments(vec![]))
        );
        for bad in [
            r#"{"id":7,"segments":"x"}"#,
            r#"{"id":7,"segments":[1]}"#,
            r#"{"id":7,"segments":[{"role":"user"}]}"#,
            r#"{"id":7,"segments":[{"role":5,"text":"a"}]}"#,
            r#"{"id":7,"segments":[{"role":"u","field":3,"text":"a"}]}"#,
        ] {
            assert!(
                matches!(
                    read(bad),
                    Err(ProtocolError::WrongType {
                        field: "segments",
                        ..
                    })
                ),
                "{bad}"
            );
        }
        assert_eq!(
            wrap(r#"{"id":7,"error":"too long"}"#),
            Ok(Reply::Refused("too long".into()))
        );
    }

    #[test]
    fn decodes_parts_and_names_a_malformed_one() {
        assert_eq!(
            wrap(
                r#"{"id":7,"parts":[{"role":"system","text":"a"},{"role":null,"text":""},{"text":"b"}]}"#
            ),
            Ok(Reply::Parts(vec![
                Part {
                    role: Some("system".into()),
                    text: "a".into()
                },
                Part {
                    role: None,
                    text: String::new()
                },
                Part {
                    role: None,
                    text: "b".into()
                },
            ]))
        );
        for bad in [
            r#"{"id":7,"parts":"x"}"#,
            r#"{"id":7,"parts":[1]}"#,
            r#"{"id":7,"parts":[{"role":"user"}]}"#,
            r#"{"id":7,"parts":[{"role":5,"text":"a"}]}"#,
            r#"{"id":7,"parts":[{"role":"u","text":3}]}"#,
        ] {
            assert!(
                matches!(
                    wrap(bad),
                    Err(ProtocolError::WrongType { field: "parts", .. })
                ),
                "{bad}"
            );
        }
        // A wrap-many may answer parts too (several items as messages).
        assert_eq!(
            decode_reply(
                br#"{"id":7,"parts":[{"role":"user","text":"a"}]}"#,
                7,
                Op::WrapMany
            ),
            Ok(Reply::Parts(vec![Part {
                role: Some("user".into()),
                text: "a".into()
            }]))
        );
        // Parts answer a wrap or a wrap-many only; a read reply of parts
        // has no result.
        assert!(read(r#"{"id":7,"parts":[]}"#).is_err());
        assert_eq!(
            read(r#"{"id":7,"error":"no"}"#),
            Ok(Reply::Refused("no".into()))
        );
    }

    #[test]
    fn tolerates_unknown_fields_null_error_and_crlf() {
        assert_eq!(
            wrap("{\"extra\":[1,{}],\"id\":7,\"framed\":\"f\",\"error\":null}\r"),
            Ok(Reply::Framed("f".into()))
        );
        // `framed` is just an unknown field in a read reply.
        assert_eq!(
            read(r#"{"id":7,"framed":"f","body":null}"#),
            Ok(Reply::Body(None))
        );
    }

    #[test]
    fn rejects_malformed_replies_with_the_right_kind() {
        assert_eq!(
            decode_reply(b"{\"id\":7,\"framed\":\"\xff\"}", 7, Op::Wrap),
            Err(ProtocolError::NotUtf8 { offset: 18 })
        );
        assert!(matches!(wrap("hello"), Err(ProtocolError::NotJson { .. })));
        assert!(matches!(wrap(""), Err(ProtocolError::NotJson { .. })));
        assert!(matches!(
            wrap(r#"{"id":7,"framed":"x"} trailing"#),
            Err(ProtocolError::NotJson { .. })
        ));
        assert!(matches!(
            wrap(r#"{"id":7,"framed":"\ud800"}"#),
            Err(ProtocolError::LoneSurrogate { .. })
        ));
        assert!(matches!(
            wrap(r#"{"id":7,"framed":"\udc00x"}"#),
            Err(ProtocolError::LoneSurrogate { .. })
        ));
        assert_eq!(
            wrap("[1]"),
            Err(ProtocolError::NotAnObject { found: "an array" })
        );
        assert_eq!(
            wrap(r#"{"framed":"x"}"#),
            Err(ProtocolError::MissingField { field: "id" })
        );
        assert_eq!(
            wrap(r#"{"id":8,"framed":"x"}"#),
            Err(ProtocolError::WrongId {
                expected: 7,
                found: "8".into()
            })
        );
        assert_eq!(
            wrap(r#"{"id":-7,"framed":"x"}"#),
            Err(ProtocolError::WrongId {
                expected: 7,
                found: "-7".into()
            })
        );
        assert!(matches!(
            wrap(r#"{"id":"7","framed":"x"}"#),
            Err(ProtocolError::WrongType { field: "id", .. })
        ));
        assert!(matches!(
            wrap(r#"{"id":7,"framed":null}"#),
            Err(ProtocolError::WrongType {
                field: "framed",
                ..
            })
        ));
        assert!(matches!(
            read(r#"{"id":7,"body":5}"#),
            Err(ProtocolError::WrongType { field: "body", .. })
        ));
        assert!(matches!(
            wrap(r#"{"id":7,"error":false}"#),
            Err(ProtocolError::WrongType { field: "error", .. })
        ));
        assert_eq!(
            wrap(r#"{"id":7}"#),
            Err(ProtocolError::NoResult { op: Op::Wrap })
        );
        assert_eq!(
            read(r#"{"id":7,"framed":"x"}"#),
            Err(ProtocolError::NoResult { op: Op::Read })
        );
        assert_eq!(
            wrap(r#"{"id":7,"framed":"x","error":"y"}"#),
            Err(ProtocolError::BothResults { op: Op::Wrap })
        );
    }

    #[test]
    fn a_surrogate_pair_is_one_character() {
        assert_eq!(
            wrap(r#"{"id":7,"framed":"\ud83d\ude00"}"#),
            Ok(Reply::Framed("😀".into()))
        );
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let deep = format!(
            "{{\"id\":7,\"x\":{}1{}}}",
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        assert!(matches!(wrap(&deep), Err(ProtocolError::NotJson { .. })));
    }

    proptest::proptest! {
        #[test]
        fn decoding_arbitrary_bytes_never_panics(bytes: Vec<u8>, id: u64, read_op: bool) {
            let op = if read_op { Op::Read } else { Op::Wrap };
            let _ = decode_reply(&bytes, id, op);
        }

        #[test]
        fn encoded_requests_decode_back(content: String, text: String, id: u64) {
            let request = WrapRequest { content: content.clone(), ..WrapRequest::default() };
            let line = encode_wrap(id, &request);
            proptest::prop_assert!(line.ends_with('\n'));
            proptest::prop_assert_eq!(line.matches('\n').count(), 1);
            let value: Value = serde_json::from_str(&line).unwrap();
            proptest::prop_assert_eq!(value["content"].as_str(), Some(content.as_str()));
            let value: Value = serde_json::from_str(&encode_read(id, &text)).unwrap();
            proptest::prop_assert_eq!(value["text"].as_str(), Some(text.as_str()));
            proptest::prop_assert_eq!(value["id"].as_u64(), Some(id));
        }
    }
}
